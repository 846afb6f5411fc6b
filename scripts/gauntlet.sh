#!/bin/sh
# gauntlet.sh - the new search against the last release's, by self-play, in the games
# Fairy-Stockfish does not play: `varia match GAME a=default b=classic` for each game (classic is
# the last release's search and evaluation, but for endings scored where they happen: `varia
# bench` under classic settings gives the release's signature 446084), and Monte Carlo tree
# search against alpha-beta. Clocks
# are each side's CPU time, so a busy machine slows the games but keeps them fair. Not part of
# `make test`.
#
# Usage: scripts/gauntlet.sh [-g GAMES] [-t BASE] [-i INC] [-o DIR] [VARIA] [-- GAME...]
#   -g  games per match (40)     -t  each side's clock in seconds (10)     -i  increment (0.1)
#   -o  where the results go (build/gauntlet)
#   VARIA  the program (./varia); GAMEs after -- (ultima ultimate-chess-4p above-below)
# Prints one line per match as it ends, then the table (also in DIR/table.txt).
set -e
games=40 base=10 inc=0.1 out=build/gauntlet
while getopts g:t:i:o: opt; do
    case $opt in
    g) games=$OPTARG ;;
    t) base=$OPTARG ;;
    i) inc=$OPTARG ;;
    o) out=$OPTARG ;;
    *) sed -n 's/^# \{0,1\}//;10,13p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
root=$(cd "$(dirname "$0")/.." && pwd)
varia=$root/varia
if [ $# -gt 0 ] && [ "$1" != "--" ]; then varia=$1; shift; fi
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || set -- ultima ultimate-chess-4p above-below
[ -x "$varia" ] || { echo "gauntlet: $varia is missing (make)" >&2; exit 1; }
mkdir -p "$out"
table=$out/table.txt
printf '%-18s %-22s %-14s %6s %6s %6s %7s %12s\n' game match clock win draw loss score "Elo (95%)" >"$table"

match() {
    line=$(nice -n 10 "$varia" match "$1" --games "$games" --time "$base" "inc=$inc" "a=$2" "b=$3" --seed 11 | tail -n 1)
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
    match "$game" default,mcts default,alphabeta
done
echo
cat "$table"
