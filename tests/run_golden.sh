#!/bin/sh
# run_golden.sh VARIA [--update] - golden tests for rule files.
#   tests/rules/ok/*.rules   must pass `varia check`; when NAME.expected exists, the output of
#                            `varia disasm` must equal it (--update rewrites it).
#   tests/rules/err/*.rules  must fail; every error `varia check` prints must be announced in
#                            the file, and every announcement must be printed:
#                              ... # expect error col C: MESSAGE      (on the offending line)
#                              # expect error at L:C: MESSAGE          (anywhere)
# GOLDEN_EVERY=N: only the first file and every Nth after it in each directory (memcheck runs
# the others' loading in one process: tests/memcheck.sh).
varia=${1:?usage: run_golden.sh VARIA [--update]}
update=$2
every=${GOLDEN_EVERY:-1}
dir=$(dirname "$0")/rules
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
# picked: true for the first file and every Nth after it (the count `seen` is per directory)
picked() {
    seen=$((seen + 1))
    [ $(((seen - 1) % every)) -eq 0 ]
}
seen=0
for f in "$dir"/ok/*.rules; do
    [ -e "$f" ] || continue
    picked || continue
    if ! "$varia" check "$f" > "$tmp/out" 2>&1; then
        echo "golden: FAIL $f should load:" >&2; cat "$tmp/out" >&2; fail=$((fail + 1)); continue
    fi
    exp=${f%.rules}.expected
    if [ "$update" = --update ]; then
        "$varia" disasm "$f" > "$exp"
    elif [ -f "$exp" ] && [ "${VARIA_MEMCHECK:-0}" != 1 ]; then
        # (under valgrind, VARIA_MEMCHECK=1, only the check: the disassembly is compared natively
        # and under AddressSanitizer)
        "$varia" disasm "$f" > "$tmp/dis" 2>&1
        if ! diff -u "$exp" "$tmp/dis" > "$tmp/diff"; then
            echo "golden: FAIL $f disassembly differs:" >&2; head -40 "$tmp/diff" >&2; fail=$((fail + 1)); continue
        fi
    fi
    pass=$((pass + 1))
done
seen=0
for f in "$dir"/err/*.rules; do
    [ -e "$f" ] || continue
    picked || continue
    awk -v F="$f" '
        match($0, /# expect error col [0-9]+: /) {
            spec = substr($0, RSTART + 18); col = spec + 0; msg = substr(spec, index(spec, ": ") + 2)
            printf "%s:%d:%d: error: %s\n", F, NR, col, msg; next }
        match($0, /# expect error at [0-9]+:[0-9]+: /) {
            spec = substr($0, RSTART + 17); split(spec, p, ":"); msg = substr(spec, index(spec, ": ") + 2)
            printf "%s:%d:%d: error: %s\n", F, p[1], p[2], msg }' "$f" | sort > "$tmp/want"
    if "$varia" check "$f" > /dev/null 2> "$tmp/err"; then
        echo "golden: FAIL $f should not load" >&2; fail=$((fail + 1)); continue
    fi
    grep -E '^[^ ]+:[0-9]+:[0-9]+: error: ' "$tmp/err" | sort > "$tmp/got"
    if [ ! -s "$tmp/want" ]; then
        echo "golden: FAIL $f announces no expected error" >&2; fail=$((fail + 1)); continue
    fi
    if ! diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
        echo "golden: FAIL $f diagnostics differ (< expected, > printed):" >&2; cat "$tmp/diff" >&2
        fail=$((fail + 1)); continue
    fi
    pass=$((pass + 1))
done
# docs/bytecode.md carries the opcode table generated from src/opcodes.def: they must agree.
root=$(dirname "$0")/..
"$root/scripts/opcode-table.sh" > "$tmp/table"
sed -n '/^| opcode |/,$p' "$root/docs/bytecode.md" > "$tmp/doc"
if diff "$tmp/table" "$tmp/doc" > "$tmp/diff"; then pass=$((pass + 1)); else
    echo "golden: FAIL docs/bytecode.md's opcode table is out of date (run scripts/opcode-table.sh)" >&2
    fail=$((fail + 1)); fi
echo "golden: $pass passed, $fail failed$([ "$every" -gt 1 ] && echo " (one file in $every)")"
[ "$fail" -eq 0 ]
