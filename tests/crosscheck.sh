#!/bin/sh
# crosscheck.sh VARIA [RULES...] - compares `varia perft --divide` move by move with
# Fairy-Stockfish on positions reached by random play, for every game of tests/crosscheck.list
# (or only the RULES named). Needs fairy-stockfish (make installs it).
# Env: CROSS_COUNT and CROSS_DEPTH override every line's positions and depth.
varia=${1:?usage: crosscheck.sh VARIA [RULES...]}
shift
only=$*
dir=$(dirname "$0")
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
if [ ! -x "$fsf" ]; then
    echo "crosscheck: fairy-stockfish is not installed (apt-get install fairy-stockfish)" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A move as both print it: from and to cells (files a-l, ranks 1-12), then a promotion letter,
# '+' (to a promoted type, as in shogi) or '-' (back to its base); or a drop, the piece's
# letter ('+' first for a promoted one), '@' and the cell (hands travel in the position text:
# [Qn]); or a pass, which Fairy-Stockfish writes as its king's cell twice.
move='^([a-l](1[0-2]|[1-9])[a-l](1[0-2]|[1-9])[a-z+-]?|\+?[A-Z]@[a-l](1[0-2]|[1-9])|pass): [0-9]+$'
same_cell='s/^([a-l](1[0-2]|[1-9]))\1:/pass:/'
total_pass=0 total_fail=0 want=0
while read -r name variant count depth options; do
    case "$name" in ''|'#'*) continue ;; esac
    if [ -n "$only" ]; then
        case " $only " in *" $name "*) ;; *) continue ;; esac
    fi
    count=${CROSS_COUNT:-$count}
    depth=${CROSS_DEPTH:-$depth}
    rules="$dir/../rules/$name.rules"
    want=$((want + count))
    set -- # the rule file's options for the oracle's rules (NAME=VALUE,...)
    for o in $(echo "$options" | tr ',' ' '); do set -- "$@" --option "$o"; done
    "$varia" random "$rules" count="$count" plies=80 seed=2024 "$@" > "$tmp/positions" || exit 1
    # One Fairy-Stockfish session answers every position (starting it costs more than a
    # shallow perft); each answer ends with its "Nodes searched" line: split there.
    { printf 'uci\nsetoption name UCI_Variant value %s\n' "$variant"
      while IFS= read -r fen; do printf 'position fen %s\ngo perft %s\n' "$fen" "$depth"; done < "$tmp/positions"
      printf 'quit\n'
    } | "$fsf" 2>/dev/null |
        awk -v out="$tmp/theirs." 'BEGIN { n = 0 } /^Nodes searched/ { n++; next } { print > (out n) }' -
    k=0 pass=0 fail=0
    while IFS= read -r fen; do
        "$varia" perft "$rules" "$depth" --divide --fen "$fen" "$@" 2>/dev/null | grep -E "$move" | sort > "$tmp/ours"
        sed -E "$same_cell" "$tmp/theirs.$k" 2>/dev/null | grep -E "$move" | sort > "$tmp/theirs"
        k=$((k + 1))
        if cmp -s "$tmp/ours" "$tmp/theirs" && [ -s "$tmp/theirs" -o ! -s "$tmp/ours" ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "crosscheck: $name: MISMATCH at $fen" >&2
            diff "$tmp/ours" "$tmp/theirs" | head -10 >&2
        fi
    done < "$tmp/positions"
    rm -f "$tmp"/theirs.*
    echo "crosscheck: $name (depth $depth): $pass passed, $fail failed"
    total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail))
done < "$dir/crosscheck.list"
echo "crosscheck: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "$total_pass" -ge "$want" ]
