#!/bin/sh
# oracle-compare.sh VARIA [quick|deep] [GAME...] - compares `varia perft --divide` move by move
# with the independent reference generator tests/oracle/chess29.py for alice, marseillais,
# grasshopper and berolina (or the GAMEs named): the start position, positions from the
# generator's random play, positions where a special rule applies at the root (its
# --special), and positions from Varia's own random play. quick (the default, `make test`):
# the start to depth 3, the others to depth 2; deep (`make perft-deep`): the start to depth 4
# and every position to depth 3, with more of them.
# The two speak the formats of the comparison: position text and moves are converted
# between them here (Alice's en-passant cell and moves, Marseillais' phase of the turn and
# the kind of its checking moves). Env: ORACLE overrides the generator's path.
varia=${1:?usage: oracle-compare.sh VARIA [quick|deep] [GAME...]}
mode=${2:-quick}
[ $# -ge 2 ] && shift 2 || shift $#
games=${*:-alice marseillais grasshopper berolina}
dir=$(dirname "$0")
oracle=${ORACLE:-$dir/oracle/chess29.py}
if [ ! -f "$oracle" ]; then
    echo "oracle-compare: no reference generator at $oracle" >&2
    exit 1
fi
case $mode in
quick) start_depth=3 depth=2 count=8 special=8 ours=4 ;;
deep) start_depth=4 depth=3 count=16 special=16 ours=8 ;;
*) echo "oracle-compare: unknown mode '$mode' (quick or deep)" >&2; exit 1 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Position text, Varia's to the generator's (to_oracle) and back (to_varia).
# Alice: Varia names the en-passant cell where the capture is made, on the board the pawn
# went to; the generator names the cell the pawn passed, on the board it left.
# Marseillais: Varia's last field is the phase of the turn (first, second; White's one-move
# first turn is its second phase); the generator's is 1 or 2, White's first turn being 1.
to_oracle() { # GAME FEN
    case $1 in
    alice) echo "$2" | awk '{ if ($4 ~ /^A:/) sub(/^A:/, "B:", $4); else if ($4 ~ /^B:/) sub(/^B:/, "A:", $4); print }' ;;
    marseillais) echo "$2" | awk '{ sub(/\+$/, "", $7); $7 = ($7 == "first" || ($2 == "w" && $6 == 1 && $7 == "second")) ? 1 : 2; print }' ;;
    *) echo "$2" ;;
    esac
}
to_varia() { # GAME FEN
    case $1 in
    alice) echo "$2" | awk '{ if ($4 ~ /^A:/) sub(/^A:/, "B:", $4); else if ($4 ~ /^B:/) sub(/^B:/, "A:", $4); print }' ;;
    marseillais) echo "$2" | awk '{ $7 = ($7 == 2 || ($2 == "w" && $6 == 1)) ? "second" : "first"; print }' ;;
    *) echo "$2" ;;
    esac
}
# Varia's moves as the generator writes them: `A b1-B:c3` is `A:b1c3`, `check:e1g1` is `e1g1`.
moves_to_oracle() {
    sed -E 's/^([AB]) ([a-h][1-8])-[AB]:([a-h][1-8])/\1:\2\3/; s/^check://'
}

total_pass=0 total_fail=0
for game in $games; do
    rules="$dir/../rules/$game.rules"
    # the positions, in the generator's text, each with its depth
    {
        echo "$start_depth $(to_oracle "$game" "$("$varia" fen "$rules")")"
        printf '%s random --count %s --plies 60 --seed 29\n' "$game" "$count" |
            python3 "$dir/oracle-batch.py" "$oracle" | grep -v '^--end--$' | sed "s/^/$depth /"
        printf '%s random --count %s --plies 60 --seed 2029 --special\n' "$game" "$special" |
            python3 "$dir/oracle-batch.py" "$oracle" | grep -v '^--end--$' | sed "s/^/$depth /"
        "$varia" random "$rules" count="$ours" plies=50 seed=29 | while IFS= read -r fen; do
            echo "$depth $(to_oracle "$game" "$fen")"
        done
    } > "$tmp/positions" || exit 1
    # one Python process answers every position; each answer ends with a line --end--
    while read -r d fen; do printf '%s perft %s --divide --fen "%s"\n' "$game" "$d" "$fen"; done < "$tmp/positions" |
        python3 "$dir/oracle-batch.py" "$oracle" 2> "$tmp/oracle-err" |
        awk -v out="$tmp/theirs." 'BEGIN { n = 0 } /^--end--$/ { n++; next } { print > (out n) }'
    if [ -s "$tmp/oracle-err" ]; then cat "$tmp/oracle-err" >&2; fi
    k=0 pass=0 fail=0
    while read -r d fen; do
        grep -E ': [0-9]+$' "$tmp/theirs.$k" 2>/dev/null | sort > "$tmp/theirs"
        k=$((k + 1))
        "$varia" perft "$rules" "$d" --divide --fen "$(to_varia "$game" "$fen")" 2>"$tmp/err" |
            grep -E ': [0-9]+$' | moves_to_oracle | sort > "$tmp/ours"
        if cmp -s "$tmp/ours" "$tmp/theirs" && [ -s "$tmp/theirs" ]; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "oracle-compare: $game: MISMATCH at depth $d of $fen" >&2
            cat "$tmp/err" >&2
            diff "$tmp/ours" "$tmp/theirs" | head -10 >&2
        fi
    done < "$tmp/positions"
    rm -f "$tmp"/theirs.*
    echo "oracle-compare: $game: $pass passed, $fail failed"
    total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail))
done
echo "oracle-compare: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
