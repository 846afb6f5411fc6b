#!/bin/sh
# bench.sh VARIA - the speed figures of `make bench` (docs/speed.md explains them):
#   1. perft from the start of every game of tests/bench.list, Varia and Fairy-Stockfish timed
#      in the same run, the ratio per game (Fairy-Stockfish's time / Varia's: 1.0 = as fast),
#      then the worst and the median ratio; chess on Kiwipete; and chess from a Zillions file
#      (tests/zrf/chess.zrf) against rules/chess.rules;
#   2. instructions per leaf of chess perft 4 (callgrind; when valgrind is installed);
#   3. nodes/s of the seed games' perft, Ultima's perft 5 among them, and of draughts';
#   4. random playouts per second of every shipped game (varia bench --playouts);
#   5. the search (varia bench).
# Times are CPU seconds (user + system) of the process less those of the same process at
# depth 1 (start-up, loading the rules), so other work on the machine counts little; each is
# the median of BENCH_RUNS runs (default 3), except that a perft whose first run takes more
# than 2 s runs once (a long run is steady; the short ones are the noisy ones).
# BENCH_ONLY="chess xiangqi" limits part 1 to those games; BENCH_QUICK=1 runs part 1 one depth
# below the table's (about 30 times quicker; too short for firm figures, enough to see a
# change); BENCH_PARTS="1 3" picks parts; BENCH_PLAYOUT_SECONDS (default 0.5) is the CPU time
# each game's playouts get.
varia=${1:?usage: bench.sh VARIA}
dir=$(dirname "$0")
rules=$dir/../rules
runs=${BENCH_RUNS:-3}
parts=${BENCH_PARTS:-1 2 3 4 5}
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
[ -x "$fsf" ] || fsf=
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
part() { case " $parts " in *" $1 "*) return 0 ;; esac; return 1; }
# The CPU seconds of this shell's finished children, at a mark (`times` must run in this shell,
# never in a $(...) or a pipeline: a subshell counts only its own children), and the seconds
# between the two marks appended to $tmp/cpu.
cpu_mark() { times > "$tmp/times.$1"; }
cpu_add() {
    awk 'FNR == 2 { for (i = 1; i <= 2; i++) { split($i, p, "m"); t[FILENAME] += p[1] * 60 + p[2] }; last = FILENAME }
         END { printf "%.3f\n", t[last] - t[first] } FNR == 1 && !first { first = FILENAME }' "$tmp/times.0" "$tmp/times.1" >> "$tmp/cpu"
}

# One perft run: its node count in $tmp/nodes, its CPU seconds appended to $tmp/cpu.
# varia_perft RULES FEN DEPTH [OPTIONS] / fsf_perft VARIANT FEN DEPTH
# (OPTIONS: the rule file's NAME=VALUE,... as in tests/bench.list)
varia_perft() {
    r=$1 f=$2 d=$3 o=$4
    set --
    for opt in $(echo "$o" | tr ',' ' '); do set -- "$@" --option "$opt"; done
    cpu_mark 0
    "$varia" perft "$r" "$d" --fen "$f" "$@" 2>/dev/null | sed -n 's/^Nodes searched: //p' > "$tmp/nodes"
    cpu_mark 1
    cpu_add
}
fsf_perft() {
    cpu_mark 0
    printf 'uci\nsetoption name UCI_Variant value %s\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" "$3" |
        "$fsf" 2>/dev/null | sed -n 's/^Nodes searched: //p' > "$tmp/nodes"
    cpu_mark 1
    cpu_add
}
# timed KIND ARG1 ARG2 DEPTH [OPTIONS]: KIND's perft (the median of the runs) and of depth 1;
# writes "NODES SECONDS" to $tmp/timed, with the depth-1 run's seconds taken off.
timed() {
    : > "$tmp/cpu"
    "$1" "$2" "$3" "$4" "$5"
    cp "$tmp/nodes" "$tmp/count"
    k=$runs
    if awk -v t="$(cat "$tmp/cpu")" 'BEGIN { exit !(t > 2) }'; then k=1; fi
    i=1
    while [ "$i" -lt "$k" ]; do "$1" "$2" "$3" "$4" "$5"; i=$((i + 1)); done
    median < "$tmp/cpu" > "$tmp/full"
    : > "$tmp/cpu"
    i=0
    while [ "$i" -lt "$runs" ]; do "$1" "$2" "$3" 1 "$5"; i=$((i + 1)); done
    median < "$tmp/cpu" > "$tmp/base"
    paste "$tmp/count" "$tmp/full" "$tmp/base" | awk '{ t = $2 - $3; printf "%s %.3f\n", $1, (t > 0.001 ? t : 0.001) }' > "$tmp/timed"
}
# versus LABEL RULES VARIANT FEN DEPTH [OPTIONS]: one line of the matrix; the ratio is
# appended to $tmp/ratios
versus() {
    timed varia_perft "$2" "$4" "$5" "$6"
    cp "$tmp/timed" "$tmp/timed.varia"
    read -r ours ours_s < "$tmp/timed"
    timed fsf_perft "$3" "$4" "$5"
    read -r theirs theirs_s < "$tmp/timed"
    note=""
    [ "$ours" = "$theirs" ] || note="  NODE COUNTS DIFFER"
    ratio=$(echo "$theirs_s $ours_s" | awk '{printf "%.2f", $1 / $2}')
    echo "$ratio" >> "$tmp/ratios"
    printf '%-18s %-2s %11s %8.2f s %8.2f s %7s%s\n' "$1" "$5" "$ours" "$ours_s" "$theirs_s" "$ratio" "$note"
}

if part 1; then
    if [ -z "$fsf" ]; then
        echo "perft against Fairy-Stockfish: skipped (fairy-stockfish is not installed)"
    else
        echo "perft from the start against Fairy-Stockfish (CPU s less depth 1's; median of $runs runs, 1 when long):"
        printf '%-18s %-2s %11s %10s %10s %7s\n' game D nodes varia fairy-sf ratio
        : > "$tmp/ratios"
        while read -r name variant depth options; do
            case "$name" in ''|'#'*) continue ;; esac
            if [ -n "$BENCH_ONLY" ]; then
                case " $BENCH_ONLY " in *" $name "*) ;; *) continue ;; esac
            fi
            [ "${BENCH_QUICK:-0}" = 1 ] && depth=$((depth - 1))
            set --
            for o in $(echo "$options" | tr ',' ' '); do set -- "$@" --option "$o"; done
            versus "$name" "$rules/$name.rules" "$variant" "$("$varia" fen "$rules/$name.rules" "$@")" "$depth" "$options"
        done < "$dir/bench.list"
        sort -n "$tmp/ratios" | awk '{a[NR] = $1} END { if (NR) printf "%d games: worst ratio %.2f, median %.2f\n", NR, a[1], (a[int((NR + 1) / 2)] + a[int(NR / 2) + 1]) / 2 }'
        : > "$tmp/ratios"
        versus "chess kiwipete" "$rules/chess.rules" chess "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 4
        # chess written as a Zillions file (tests/zrf/chess.zrf) against the rule file's chess
        versus "chess (rules)" "$rules/chess.rules" chess "$("$varia" fen "$rules/chess.rules")" 5
        read -r _ rules_s < "$tmp/timed.varia"
        versus "chess (.zrf)" "$dir/zrf/chess.zrf" chess "$("$varia" fen "$dir/zrf/chess.zrf" 2>/dev/null)" 5
        read -r _ zrf_s < "$tmp/timed.varia"
        echo "$zrf_s $rules_s" | awk '{printf "chess from a .zrf: %.2f times the time of rules/chess.rules\n", $1 / $2}'
    fi
fi

# Instructions per leaf: callgrind counts instructions exactly, so this figure is the same on
# every run (less the same process at depth 1, as for the times).
if part 2; then
    if command -v valgrind > /dev/null 2>&1; then
        instructions() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
        fsf_script() { printf 'uci\nposition startpos\ngo perft %s\nquit\n' "$1" > "$tmp/fsf.in"; }
        v4=$(instructions "$varia" perft "$rules/chess.rules" 4)
        v1=$(instructions "$varia" perft "$rules/chess.rules" 1)
        line="chess perft 4 (197281 leaves), instructions per leaf: varia $(echo "$v4 $v1" | awk '{printf "%.0f", ($1 - $2) / 197281}')"
        if [ -n "$fsf" ]; then
            fsf_script 4
            f4=$(instructions "$fsf" < "$tmp/fsf.in")
            fsf_script 1
            f1=$(instructions "$fsf" < "$tmp/fsf.in")
            line="$line, fairy-stockfish $(echo "$f4 $f1" | awk '{printf "%.0f", ($1 - $2) / 197281}')"
        fi
        echo "$line"
    else
        echo "instructions per leaf: skipped (valgrind is not installed)"
    fi
fi

# The seed games: perft from the start at a depth of about a second (more for the four-player
# game, whose depth 3 is too short to time); Ultima's perft 5 is the
# figure to compare with the reference implementation (217 s; the aim is 6 s or less).
if part 3; then
    echo "seed games, perft from the start (CPU s less depth 1's):"
    seed_game() {
        timed varia_perft "$rules/$1.rules" "$("$varia" fen "$rules/$1.rules")" "$2"
        read -r nodes secs < "$tmp/timed"
        printf '%-18s %-2s %11s %8.2f s %10.0f nodes/s\n' "$1" "$2" "$nodes" "$secs" "$(echo "$nodes $secs" | awk '{print $1 / $2}')"
    }
    seed_game ultima 5
    seed_game ultimate-battle 5
    seed_game ultimate-chess-4p 4
    seed_game above-below 4
    seed_game ultra-chess 8
    # draughts: checkers perft 11 (85,242,128 leaves), the aim is 10 million leaves per CPU second
    echo "draughts, perft from the start:"
    seed_game checkers 11
    seed_game international 8
fi

if part 4; then
    VARIA_RULES=$rules "$varia" bench --playouts --time "${BENCH_PLAYOUT_SECONDS:-0.5}" || exit 1
fi

# The search: a fixed-depth search over a fixed position list (node count = bench signature).
if part 5; then
    echo "search speed (varia bench):"
    "$varia" bench "$rules" 2> "$tmp/search" | tail -n 1
    cat "$tmp/search"
fi
