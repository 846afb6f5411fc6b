#!/bin/sh
# memcheck.sh VARIA TESTBIN - the unit tests, the golden tests, the fuzz corpus replays, the
# console and protocol sessions and some rulebooks once more under valgrind's memcheck: any
# invalid access, use of an uninitialised value or leak (definite, indirect or possible)
# fails. Perft is left to `make asan` (valgrind is too slow for it). TESTBIN is the directory
# of the test binaries.
varia=${1:?usage: memcheck.sh VARIA TESTBIN}
bin=${2:?usage: memcheck.sh VARIA TESTBIN}
root=$(cd "$(dirname "$0")/.." && pwd)
varia=$(cd "$(dirname "$varia")" && pwd)/$(basename "$varia")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/logs"
# Every run writes its own log; with -q a log stays empty unless something is wrong.
leaks=definite,indirect,possible
vg="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=$leaks --errors-for-leak-kinds=$leaks"
vg="$vg --log-file=$tmp/logs/%p.log"
cat >"$tmp/varia" <<EOS
#!/bin/sh
exec $vg "$varia" "\$@"
EOS
chmod +x "$tmp/varia"
start=$(date +%s)
fail=0
cd "$root" || exit 1
# Six groups, side by side (one per core at most): a group that fails leaves a mark.
jobs=$(nproc 2>/dev/null || echo 2)
group() { # NAME COMMAND...: runs the command, its output kept for when it fails
    name=$1
    shift
    "$@" >"$tmp/$name.out" 2>&1 || { echo "memcheck: $name failed" >&2; tail -n 40 "$tmp/$name.out" >&2; : >"$tmp/failed.$name"; }
}
unit() {
    for t in "$bin"/test_*; do
        case $t in *.d) continue ;; esac
        $vg "$t" || { echo "$t failed"; return 1; }
    done
}
replays() {
    for t in "$bin"/replay_*; do
        name=${t##*/replay_}
        # shellcheck disable=SC2046
        $vg "$t" "fuzz/corpus/$name" $(ls -d "tests/fuzz/$name" 2>/dev/null) || { echo "$t failed"; return 1; }
    done
}
play() {
    VARIA_NO_TMUX=1 VARIA_PLAY_GAMES="chess ultima ultimate-battle ultimate-chess-4p above-below ultra-chess xiangqi three" \
        sh tests/play/run.sh "$tmp/varia"
}
protocols() { sh tests/protocol/uci.sh "$tmp/varia" && sh tests/protocol/xboard.sh "$tmp/varia"; }
# the rulebook of games with every kind of castle and first-move right, and the seed games
rulebooks() {
    for g in chess caparandom cambodian crazyhouse janggi duck ultima ultimate-chess-4p above-below; do
        "$tmp/varia" describe "rules/$g.rules" >/dev/null || { echo "describe $g failed"; return 1; }
    done
}
n=0
for g in replays play unit golden protocols rulebooks; do
    case $g in golden) cmd="sh tests/run_golden.sh $tmp/varia" ;; *) cmd=$g ;; esac
    # shellcheck disable=SC2086
    group "$g" $cmd &
    n=$((n + 1))
    [ $((n % jobs)) -eq 0 ] && wait
done
wait
ls "$tmp"/failed.* >/dev/null 2>&1 && fail=1
runs=$(ls "$tmp/logs" | wc -l)
for log in "$tmp"/logs/*.log; do
    [ -s "$log" ] || continue
    echo "memcheck: valgrind reports:" >&2
    cat "$log" >&2
    fail=1
done
echo "memcheck: $runs programs run under valgrind in $(($(date +%s) - start)) s, $([ $fail = 0 ] && echo "no error, no leak" || echo FAILED)"
exit $fail
