#!/bin/sh
# run.sh BUILD SECONDS|merge TARGET... - runs each libFuzzer target BUILD/fuzz_TARGET for SECONDS
# seconds, or (merge) adds to fuzz/corpus/TARGET the fewest inputs found so far that cover the
# code it does not (greedy set cover over edges; the inputs already there stay). Run from the
# repository root.
#   BUILD/corpus/TARGET   inputs found by earlier runs (kept between runs, not committed)
#   fuzz/corpus/TARGET    the committed seeds;  tests/fuzz/TARGET  past crashes (regressions)
#   fuzz/TARGET.dict      the target's dictionary, when there is one
#   BUILD/crashes/        an input that crashed: add it to tests/fuzz/TARGET, then fix
build=${1:?usage: run.sh BUILD SECONDS|merge TARGET...}
secs=${2:?usage: run.sh BUILD SECONDS|merge TARGET...}
shift 2
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fail=0
for t in "$@"; do
    bin=$build/fuzz_$t
    mkdir -p "$build/corpus/$t" "$build/crashes"
    seeds=fuzz/corpus/$t
    [ -d "tests/fuzz/$t" ] && seeds="$seeds tests/fuzz/$t"
    dict=
    if [ -f "fuzz/$t.dict" ]; then
        # the rule-file dictionary also gets every keyword of the lexer, so it never falls behind
        { cat "fuzz/$t.dict"; [ "$t" = rules ] && sed -n 's/^"\([a-z-]*\)" .*EMIT.*/"\1"/p' grammar/lexer.l; } >"$build/$t.dict"
        dict=-dict=$build/$t.dict
    fi
    log=$build/fuzz_$t.log
    if [ "$secs" = merge ]; then
        rm -rf "$build/merged-$t" && cp -r "fuzz/corpus/$t" "$build/merged-$t"
        if "$bin" -set_cover_merge=1 -use_counters=0 "$build/merged-$t" "$build/corpus/$t" >"$log" 2>&1; then
            rm -rf "fuzz/corpus/$t" && mv "$build/merged-$t" "fuzz/corpus/$t"
            echo "fuzz $t: corpus of $(ls "fuzz/corpus/$t" | wc -l) inputs"
        else
            echo "fuzz $t: merge failed (see $log)" >&2; fail=1
        fi
        continue
    fi
    # shellcheck disable=SC2086
    if "$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 $dict \
        -artifact_prefix="$build/crashes/$t-" "$build/corpus/$t" $seeds >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
        echo "fuzz $t: ${secs}s, $runs runs, coverage $cov, no crash"
    else
        echo "fuzz $t: FAILED (log: $log)" >&2
        grep -E 'ERROR|SUMMARY|fuzz check failed|Test unit written|runtime error' "$log" | head -n 20 >&2
        fail=1
    fi
done
exit $fail
