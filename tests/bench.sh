#!/bin/sh
# bench.sh VARIA - perft speed of Varia, and of Fairy-Stockfish on the same positions when it
# is installed, with the ratio. Figures are medians of BENCH_RUNS runs (default 3).
varia=${1:?usage: bench.sh VARIA}
dir=$(dirname "$0")
runs=${BENCH_RUNS:-3}
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
now() { date +%s.%N; }

bench_one() { # label rules fen depth [fairy-stockfish variant: compare with it]
    label=$1 rules=$2 fen=$3 depth=$4 variant=$5
    for i in $(seq "$runs"); do
        t0=$(now)
        n=$("$varia" perft "$rules" "$depth" --fen "$fen" 2>/dev/null | sed -n 's/^Nodes searched: //p')
        t1=$(now)
        echo "$n $t0 $t1" | awk '{printf "%.0f\n", $1 / ($3 - $2)}'
    done | median > /tmp/varia-bench.$$
    ours=$(cat /tmp/varia-bench.$$)
    line="$label: varia $ours nodes/s"
    if [ -x "$fsf" ] && [ -n "$variant" ]; then
        for i in $(seq "$runs"); do
            t0=$(now)
            n=$(printf 'uci\nsetoption name UCI_Variant value %s\nposition fen %s\ngo perft %s\nquit\n' "$variant" "$fen" "$depth" | "$fsf" 2>/dev/null | sed -n 's/^Nodes searched: //p')
            t1=$(now)
            echo "$n $t0 $t1" | awk '{printf "%.0f\n", $1 / ($3 - $2)}'
        done | median > /tmp/varia-bench.$$
        theirs=$(cat /tmp/varia-bench.$$)
        line="$line, fairy-stockfish $theirs nodes/s, ratio $(echo "$ours $theirs" | awk '{printf "%.2f", $1 / $2}')"
    fi
    rm -f /tmp/varia-bench.$$
    echo "$line"
}

echo "perft speed (whole process, median of $runs runs):"
bench_one "chess startpos perft 5" "$dir/../rules/chess.rules" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 5 chess
bench_one "chess kiwipete perft 4" "$dir/../rules/chess.rules" "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 4 chess
# library games Fairy-Stockfish also plays: atoms on 10x8, atoms with promotion rules, and
# move programs (the xiangqi cannon and facing generals)
bench_one "capablanca startpos perft 4" "$dir/../rules/capablanca.rules" "$("$varia" fen "$dir/../rules/capablanca.rules")" 4 capablanca
bench_one "makruk startpos perft 5" "$dir/../rules/makruk.rules" "$("$varia" fen "$dir/../rules/makruk.rules")" 5 makruk
bench_one "xiangqi startpos perft 4" "$dir/../rules/xiangqi.rules" "$("$varia" fen "$dir/../rules/xiangqi.rules")" 4 xiangqi
# Ultima: captures by moving, freezing and check by capture simulation (target: perft 5 <= 10 s)
bench_one "ultima startpos perft 5" "$dir/../rules/ultima.rules" "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0" 5
bench_one "ultimate-battle startpos perft 5" "$dir/../rules/ultimate-battle.rules" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1" 5

# The search: a fixed-depth search over a fixed position list (node count = bench signature).
echo "search speed (varia bench):"
"$varia" bench "$dir/../rules" 2>"/tmp/varia-bench.$$" | tail -n 1
cat "/tmp/varia-bench.$$"
rm -f "/tmp/varia-bench.$$"
