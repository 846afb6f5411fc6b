#!/bin/sh
# selfplay.sh - what each search feature gains, by self-play (`varia match`): for every game
# named, the full search against the classic one (the search of the last release but for endings
# scored where they happen: `varia bench` with classic settings gives 446084), and the full
# search against itself without each feature in turn. Clocks are each side's CPU time, so a busy
# machine slows the games down but keeps them fair. Not part of `make test`.
#
# Usage: scripts/selfplay.sh [-g GAMES] [-t BASE] [-i INC] [-f "FEATURES"] [-o DIR] [VARIA] [-- GAME...]
#   -g  games per match (40)             -t  each side's clock in seconds (2)
#   -i  increment in seconds (0.05)      -f  features to drop one at a time
#                                            ("null lmr aspiration futility see stable"; "" for none)
#   -o  where the results go (build/selfplay)
#   VARIA  the program (./varia); GAMEs after -- (chess)
# Prints one line per match as it ends, then the table (also in DIR/table.txt).
set -e
games=40 base=2 inc=0.05 features="null lmr aspiration futility see stable" out=build/selfplay
while getopts g:t:i:f:o: opt; do
    case $opt in
    g) games=$OPTARG ;;
    t) base=$OPTARG ;;
    i) inc=$OPTARG ;;
    f) features=$OPTARG ;;
    o) out=$OPTARG ;;
    *) sed -n 's/^# \{0,1\}//;8,13p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
root=$(cd "$(dirname "$0")/.." && pwd)
varia=$root/varia
if [ $# -gt 0 ] && [ "$1" != "--" ]; then varia=$1; shift; fi
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || set -- chess
[ -x "$varia" ] || { echo "selfplay: $varia is missing (make)" >&2; exit 1; }
mkdir -p "$out"
table=$out/table.txt
printf '%-18s %-22s %-14s %6s %6s %6s %7s %12s\n' game match clock win draw loss score "Elo (95%)" >"$table"

# match GAME A B: one match, its line in the table
match() {
    line=$(nice -n 10 "$varia" match "$1" --games "$games" --time "$base" "inc=$inc" "a=$2" "b=$3" --seed 7 | tail -n 1)
    echo "$1: $line"
    echo "$line" | awk -v game="$1" -v m="$2 / $3" -v clock="$base+$inc s" '{
        match($0, /\+[0-9]+ =[0-9]+ -[0-9]+/); split(substr($0, RSTART, RLENGTH), r, " ")
        w = substr(r[1], 2); d = substr(r[2], 2); l = substr(r[3], 2)
        match($0, /score [0-9.]+%/); score = substr($0, RSTART + 6, RLENGTH - 6)
        match($0, /Elo [-+0-9]+ \+- [0-9]+/); elo = substr($0, RSTART + 4, RLENGTH - 4)
        printf "%-18s %-22s %-14s %6s %6s %6s %7s %12s\n", game, m, clock, w, d, l, score, elo }' >>"$table"
}

for game in "$@"; do
    match "$game" default classic
    for f in $features; do match "$game" default "default,-$f"; done
done
echo
cat "$table"
