#!/bin/sh
# strength.sh - Varia's strength measured through the XBoard protocol: XBoard itself, under a
# virtual X server, runs matches of Varia against Fairy-Stockfish at some `Skill Level`s, colours
# alternating, and the wins, draws and losses are counted from Varia's side.
# Not part of `make test` (the full run takes the better part of an hour).
#
# Usage: scripts/strength.sh [-g GAMES] [-s "LEVELS" | -e "ELOS"] [-f OPTIONS] [-v "VARIANTS"]
#                             [-t BASE] [-i INC] [-o DIR] [VARIA]
#   -g  games per match (10)            -s  Skill Levels ("0 5 10")
#   -e  Fairy-Stockfish limited to these UCI_Elo ratings instead of skill levels
#   -f  Varia's options, XBoard's NAME=VALUE,... (%e: the match's rating)
#   -v  XBoard's variant names ("normal xiangqi capablanca")
#   -t  base time, XBoard's -tc (0:10)  -i  increment in seconds (0.1)
#   -o  where the PGN files and XBoard's logs go (build/strength)
#   VARIA  the program (./varia)
# Prints one line per match as it ends, then the table.
# XBoard ends the games by chess's draw rules (50 moves, threefold repetition, bare material)
# except where a variant's own rules differ: shogi has no 50-move rule and no draw by
# material, and draws at the fourth repetition (variant_rules below).
set -e
games=10 levels="0 5 10" elos="" first="" variants="normal xiangqi capablanca" base=0:10 inc=0.1 out=build/strength
while getopts g:s:e:f:v:t:i:o: opt; do
    case $opt in
    g) games=$OPTARG ;;
    s) levels=$OPTARG ;;
    e) elos=$OPTARG ;;
    f) first=$OPTARG ;;
    v) variants=$OPTARG ;;
    t) base=$OPTARG ;;
    i) inc=$OPTARG ;;
    o) out=$OPTARG ;;
    *) sed -n 's/^# \{0,1\}//;7,15p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
root=$(cd "$(dirname "$0")/.." && pwd)
varia=${1:-$root/varia}
varia=$(cd "$(dirname "$varia")" && pwd)/$(basename "$varia")
xboard=$(command -v xboard || echo /usr/games/xboard)
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
for p in "$xboard" "$fsf" "$varia"; do
    [ -x "$p" ] || { echo "strength: $p is missing (scripts/deps.sh gui oracle)" >&2; exit 1; }
done
command -v xvfb-run >/dev/null 2>&1 || { echo "strength: xvfb-run is missing (scripts/deps.sh gui)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

# score PGN: "W D L BAD" for Varia over the games of PGN (BAD: games with no result, or lost
# by an illegal move or a crash)
score() {
    awk '
        /^\[White "/ { white = $0 }
        /^\[Result "/ {
            r = $2; gsub(/[]"]/, "", r)
            varia_white = white ~ /"Varia"/
            if (r == "1/2-1/2") d++
            else if ((r == "1-0") == varia_white && (r == "1-0" || r == "0-1")) w++
            else if (r == "1-0" || r == "0-1") l++
            else bad++
        }
        /[Ii]llegal move|[Ff]orfeit|crash|exited unexpectedly/ { bad++ }
        END { printf "%d %d %d %d\n", w, d, l, bad }' "$1"
}

# variant_rules VARIANT: XBoard's draw adjudication options for the variant's rules
variant_rules() {
    case $1 in
    shogi) echo "-ruleMoves 0 -repeatsToDraw 4 -materialDraws false" ;;
    *) echo "-ruleMoves 50 -repeatsToDraw 3 -materialDraws true" ;;
    esac
}

table=$out/table.txt
printf '%-12s %8s %5s %5s %5s %7s\n' variant level win draw loss score >"$table"
for variant in $variants; do
    for level in ${elos:-$levels}; do
        if [ -n "$elos" ]; then
            name=$variant-elo$level second="UCI_LimitStrength=1,UCI_Elo=$level" label="elo$level"
        else
            name=$variant-skill$level second="Skill Level=$level" label=$level
        fi
        firstopts=$(echo "$first" | sed "s/%e/$level/g")
        rm -f "$out/$name.pgn"
        start=$(date +%s)
        (cd "$out" && timeout $((games * 300)) xvfb-run -a "$xboard" \
            -fcp "$varia xboard" -fd "$root" -firstOptions "$firstopts" -scp "$fsf" -sd "$out" \
            -secondOptions "$second" \
            -variant "$variant" -mg "$games" -tc "$base" -inc "$inc" \
            $(variant_rules "$variant") -adjudicateDrawMoves 300 \
            -sgf "$out/$name.pgn" -xexit -popupExitMessage false -popupMoveErrors false -saveSettingsOnExit false \
            -debug -nameOfDebugFile "$out/$name.debug" >"$out/$name.log" 2>&1) || true
        set -- $(score "$out/$name.pgn" 2>/dev/null || echo 0 0 0 0)
        played=$(($1 + $2 + $3))
        pct=$(awk -v w="$1" -v d="$2" -v n="$played" 'BEGIN { printf "%.1f%%", n ? 100 * (w + d / 2) / n : 0 }')
        printf '%-12s %8s %5s %5s %5s %7s\n' "$variant" "$label" "$1" "$2" "$3" "$pct" >>"$table"
        echo "$variant, $second: +$1 =$2 -$3 of $played games (${4} bad) in $(($(date +%s) - start)) s"
    done
done
echo
cat "$table"
