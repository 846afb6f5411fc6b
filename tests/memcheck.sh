#!/bin/sh
# memcheck.sh VARIA TESTBIN - the unit tests (the server's too), the golden rule files, part of
# the fuzz corpus replays, the console's core sessions, the UCI sessions and some rulebooks once
# more under valgrind's memcheck: any invalid access, use of an uninitialised value or leak
# (definite, indirect or possible) fails. Perft, the other console sessions, XBoard's and the
# whole corpus are left to `make asan` (under valgrind every program costs a second or more).
# TESTBIN is the directory of the test binaries.
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
# A group that fails leaves a mark.
jobs=$(nproc 2>/dev/null || echo 2)
# (the groups are shell functions sharing this shell's variables: each keeps to names of its own)
group() { # NAME COMMAND...: runs the command, its output kept for when it fails
    group_name=$1
    shift
    "$@" >"$tmp/$group_name.out" 2>&1 || {
        echo "memcheck: $group_name failed" >&2
        tail -n 40 "$tmp/$group_name.out" >&2
        : >"$tmp/failed.$group_name"
    }
}
# (VARIA_MEMCHECK=1: the long randomized comparisons run a quarter of their games)
unit() {
    for t in "$bin"/test_*; do
        case $t in *.d) continue ;; esac
        VARIA_MEMCHECK=1 $vg "$t" || { echo "$t failed"; return 1; }
    done
}
# Every eighth golden test through the program, its diagnostics compared (one file in eight:
# the program's part is the same for every file, and each run costs a second under valgrind),
# and every golden rule file loaded in one process: the fuzz target's replay loads the text
# (the diagnostics rendered), and plays what loads. The whole set runs natively (make golden)
# and under AddressSanitizer (make asan).
golden() {
    GOLDEN_EVERY=8 VARIA_MEMCHECK=1 sh tests/run_golden.sh "$tmp/varia" &&
        $vg "$bin/replay_rules" tests/rules/ok/*.rules tests/rules/err/*.rules
}
# The regression inputs and every third input of each committed corpus (sorted by name): the
# whole corpus is replayed natively (make fuzz-replay) and under AddressSanitizer (make asan).
replays() {
    for t in "$bin"/replay_*; do
        target=${t##*/replay_}
        # shellcheck disable=SC2046
        $vg "$t" $(ls -d "tests/fuzz/$target" 2>/dev/null) $(ls "fuzz/corpus/$target" | sort | awk -v d="fuzz/corpus/$target" 'NR % 3 == 1 { print d "/" $0 }') ||
            { echo "$t failed"; return 1; }
    done
}
play() {
    VARIA_NO_TMUX=1 VARIA_PLAY_CORE=1 VARIA_PLAY_GAMES="chess ultima ultimate-battle ultimate-chess-4p above-below ultra-chess xiangqi three" \
        sh tests/play/run.sh "$tmp/varia"
}
# The engine under UCI (the search, the clocks, pondering, bad input); XBoard's sessions run
# natively and under AddressSanitizer. A UCI session begins by loading every shipped game to offer
# those that fit (some five seconds under valgrind): one session does so over rules/, the scripted
# ones over a directory of the games they name and one that does not fit (VARIA_RULES).
protocols() {
    mkdir "$tmp/rules"
    for game in chess janggi ultima ultimate-battle ultimate-chess-4p; do
        ln -s "$root/rules/$game.rules" "$tmp/rules/$game.rules" || return 1
    done
    printf 'uci\nquit\n' | "$tmp/varia" uci >"$tmp/uci-all.out" 2>&1 && grep -q ' var xiangqi' "$tmp/uci-all.out" ||
        { echo "uci over every shipped game:"; cat "$tmp/uci-all.out"; return 1; }
    VARIA_RULES=$tmp/rules sh tests/protocol/uci.sh "$tmp/varia"
}
# the rulebook of games with every kind of castle and first-move right, and the seed games
rulebooks() {
    for game in chess caparandom cambodian crazyhouse janggi duck ultima ultimate-chess-4p above-below; do
        "$tmp/varia" describe "rules/$game.rules" >/dev/null || { echo "describe $game failed"; return 1; }
    done
}
# MEMCHECK_GROUPS picks groups (default: all). The groups run from a pool of one lane per core,
# the longest first (CPU seconds under valgrind: unit 130, play 80, replays 70, golden 40,
# protocols 35, rulebooks 25), so the lanes end together.
groups=${MEMCHECK_GROUPS:-unit play replays golden protocols rulebooks}
lane() { # LANE: takes the next group not yet taken (mkdir is atomic) until none is left
    for lane_group in $groups; do
        mkdir "$tmp/taken.$lane_group" 2>/dev/null || continue
        lane_start=$(date +%s)
        group "$lane_group" "$lane_group"
        echo "memcheck: $lane_group took $(($(date +%s) - lane_start)) s"
    done
}
i=0
while [ $i -lt "$jobs" ]; do
    lane &
    i=$((i + 1))
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
