#!/bin/sh
# xboard_gui.sh VARIA - XBoard itself, under a virtual X server, plays Varia against Varia to
# the end: chess (XBoard's `normal`, its own rules checking the moves) and Ultima (a game it
# learns from the engine; its own legality test off, the engines' highlights and results
# decide). Skipped with a message when xboard or xvfb-run is missing.
varia=${1:?usage: xboard_gui.sh VARIA}
xboard=$(command -v xboard || echo /usr/games/xboard)
if [ ! -x "$xboard" ] || ! command -v xvfb-run >/dev/null 2>&1; then
    echo "xboard gui tests skipped: xboard and xvfb-run are not installed (scripts/deps.sh gui)"
    exit 0
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
engine=$(cd "$(dirname "$varia")" && pwd)/$(basename "$varia")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# game VARIANT [XBOARD OPTION...]: one game, its PGN in $tmp/VARIANT.pgn
game() {
    variant=$1
    shift
    (cd "$tmp" && timeout 600 xvfb-run -a "$xboard" -fcp "$engine xboard" -fd "$root" -scp "$engine xboard" -sd "$root" \
        -variant "$variant" -mg 1 -tc 0:10 -sgf "$tmp/$variant.pgn" -xexit -popupExitMessage false \
        -debug -nameOfDebugFile "$tmp/$variant.debug" "$@" >"$tmp/$variant.log" 2>&1)
    result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$tmp/$variant.pgn" 2>/dev/null)
    case "$result" in
    1-0 | 0-1 | 1/2-1/2) ;;
    *) echo "xboard gui test '$variant': no result (got '$result')" >&2; tail -n 20 "$tmp/$variant.log" >&2; fail=1; return ;;
    esac
    if grep -qE 'Forfeit|[Ii]llegal move|Error \(' "$tmp/$variant.pgn" "$tmp/$variant.debug"; then
        echo "xboard gui test '$variant': an illegal move or an error:" >&2
        grep -E 'Forfeit|[Ii]llegal move|Error \(' "$tmp/$variant.pgn" "$tmp/$variant.debug" | head -n 5 >&2
        fail=1
    fi
    echo "xboard gui: $variant ended $result ($(grep -c '^[0-9]* <first *: move' "$tmp/$variant.debug") moves by the first engine)"
}

game normal
game ultima -testLegality false
if [ $fail = 0 ]; then echo "xboard gui tests passed"; else echo "xboard gui tests FAILED"; fi
exit $fail
