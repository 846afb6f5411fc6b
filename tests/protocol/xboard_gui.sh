#!/bin/sh
# xboard_gui.sh VARIA - XBoard itself, under a virtual X server, plays to the end: Varia
# against Varia on chess (XBoard's `normal`, its own rules checking the moves) and on Ultima (a
# game it learns from the engine; its own legality test off, the engines' highlights and
# results decide), and Varia against Fairy-Stockfish (switched to XBoard's protocol by XBoard)
# on chess. Every engine searches to a fixed depth on a clock it never runs short of, so each
# game is the same every run. Every game ends with a result the engines claimed, no illegal or
# forfeited move, and XBoard's final position (its board and the side to move) equal to Varia's
# after the same moves: XBoard removes a piece taken by a capture by moving only when the
# engine's move names it. The saved chess games replay in Varia. Skipped with a message when
# xboard or xvfb-run is missing. XBoard saves no settings (one game's options would leak into
# the next run) and does not call a mate itself, so the engines' claims are what ends a game.
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

# game NAME VARIANT RULES DEPTH SECOND [XBOARD OPTION...]: one game of Varia (white) against the
# engine command SECOND, both searching DEPTH plies; its PGN in $tmp/NAME.pgn, XBoard's final
# position in $tmp/NAME.fen, checked against Varia's (RULES: the game's shipped name)
game() {
    name=$1 variant=$2 rules=$3 depth=$4 second=$5
    shift 5
    (cd "$tmp" && timeout 600 xvfb-run -a "$xboard" -fcp "$engine xboard" -fd "$root" -scp "$second" -sd "$root" \
        -variant "$variant" -mg 1 -tc 30 -searchDepth "$depth" -sgf "$tmp/$name.pgn" -spf "$tmp/$name.fen" \
        -xexit -popupExitMessage false -saveSettingsOnExit false -checkMates false -debug -nameOfDebugFile "$tmp/$name.debug" "$@" >"$tmp/$name.log" 2>&1)
    result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$tmp/$name.pgn" 2>/dev/null)
    case "$result" in
    1-0 | 0-1 | 1/2-1/2) ;;
    *) echo "xboard gui test '$name': no result (got '$result')" >&2; tail -n 20 "$tmp/$name.log" >&2; fail=1; return ;;
    esac
    # (Fairy-Stockfish answers XBoard's `random`, `post` and `computer` with its own error line)
    if grep -E 'Forfeit|[Ii]llegal move|Error \(|[Aa]djudicat' "$tmp/$name.pgn" "$tmp/$name.debug" |
        grep -vE '<second: Error \(unkown command\): (random|post|computer)$' >"$tmp/$name.errors"; then
        echo "xboard gui test '$name': an illegal move, an error or an adjudication:" >&2
        head -n 5 "$tmp/$name.errors" >&2
        fail=1
    fi
    same_position "$name" "$rules"
    echo "xboard gui: $name ended $result ($(grep -c '^[0-9]* <first *: move' "$tmp/$name.debug") moves by the first engine)"
}

# same_position NAME RULES: the engines' moves (from XBoard's log, multi-leg moves as Varia's
# from-to text) replayed in Varia give XBoard's final board and side to move
same_position() {
    moves=$(sed -n 's/^[0-9]* <\(first \|second\): move \(.*\)$/\2/p' "$tmp/$1.debug" |
        sed 's/^\([a-z][0-9]*\)[a-z][0-9]*[,x].*\([a-z][0-9][0-9]*[a-z]\{0,1\}\)$/\1\2/' | tr '\n' ' ')
    printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos moves %s\nd\nquit\n' "$2" "$moves" |
        "$engine" uci >"$tmp/$1.replay" 2>&1
    mine=$(sed -n 's/^Fen: \([^ ]*\) \([wb]\).*/\1 \2/p' "$tmp/$1.replay")
    theirs=$(tail -n 1 "$tmp/$1.fen" 2>/dev/null | cut -d' ' -f1,2)
    if grep -q 'error' "$tmp/$1.replay" || [ -z "$mine" ] || [ "$mine" != "$theirs" ]; then
        echo "xboard gui test '$1': XBoard's final position '$theirs' is not Varia's '$mine'" >&2
        grep 'error' "$tmp/$1.replay" | head -n 3 >&2
        fail=1
    fi
}

# replay NAME RULES: the saved game replays in Varia, every move legal
replay() {
    echo quit | "$engine" play "$2" --load "$tmp/$1.pgn" --compact >"$tmp/$1.replay" 2>&1
    if grep -q 'error' "$tmp/$1.replay" || ! grep -q 'last move' "$tmp/$1.replay"; then
        echo "xboard gui test '$1': the saved game does not replay:" >&2
        grep 'error' "$tmp/$1.replay" | head -n 3 >&2
        fail=1
    fi
}

game chess normal chess 3 "$engine xboard" -testLegality true
replay chess "$root/rules/chess.rules"
game ultima ultima ultima 3 "$engine xboard" -testLegality false
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
if [ -x "$fsf" ]; then
    game chess-fsf normal chess 6 "$fsf" -testLegality true
    replay chess-fsf "$root/rules/chess.rules"
else
    echo "xboard gui: the game against Fairy-Stockfish skipped: fairy-stockfish is not installed"
fi
if [ $fail = 0 ]; then echo "xboard gui tests passed"; else echo "xboard gui tests FAILED"; fi
exit $fail
