#!/bin/sh
# fen_moves.sh VARIA - `varia fen FILE --moves ...`, which the browser test checks the page
# against: moves in both notations, a defeat played with the move that causes it, and bad moves
# refused with the place of the move in the list.
varia=${1:?usage: fen_moves.sh VARIA}
fail=0
n=0
# same ARGS... -- WANT: stdout is WANT and the exit code 0
same() {
    want=$1
    shift
    n=$((n + 1))
    got=$("$varia" fen "$@" 2>&1)
    rc=$?
    if [ "$rc" != 0 ] || [ "$got" != "$want" ]; then
        printf 'fen --moves test %d: varia fen %s\n  gave (%s) %s\n  want %s\n' "$n" "$*" "$rc" "$got" "$want" >&2
        fail=1
    fi
}
# refused TEXT ARGS...: exit code 1 and TEXT in stderr
refused() {
    text=$1
    shift
    n=$((n + 1))
    err=$("$varia" fen "$@" 2>&1 >/dev/null)
    rc=$?
    case "$err" in *"$text"*) ok=1 ;; *) ok=0 ;; esac
    if [ "$rc" != 1 ] || [ $ok = 0 ]; then
        printf 'fen --moves test %d: varia fen %s\n  gave (%s) %s\n  want %s\n' "$n" "$*" "$rc" "$err" "$text" >&2
        fail=1
    fi
}

same 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2' chess --moves 'e2e4,e7e5,Nf3'
same 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' chess --moves ''
# fool's mate, then nothing more may be played
same 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3' chess --moves 'f3,e5,g4,Qh4#'
refused "--moves:5: move 'a3' after the end of the game" chess --moves 'f3,e5,g4,Qh4,a3'
refused "--moves:2: illegal move 'e2e4'" chess --moves 'e2e4,e2e4'
refused "--moves:1: illegal move 'zz'" chess --moves 'zz'
refused "--moves:1: ambiguous move 'Rd1'" chess --fen '4k3/8/8/8/8/8/4K3/R6R w - - 0 1' --moves 'Rd1'
# on several boards a move holds a space: "A b3-b2" (Above's I from b3 to b2)
same '4/4/I1I1/1C2/3I/1I2/4|:4r:4k:4q:4n/:4p:4p:4p:4p/4/4/4/:3p:3p:3p:3p/:3n:3q:3k:3r|4/4/1i1i/2c1/i1i1/4/4 B 1 1 b,w' \
    above-below --moves 'A b3-b2'
# four players: Silver's pawn e2-e3, then Red's b5-c5; Black to move
same ':3m:3w:3r:3n:3b:3k:3q:3b:3n:3r:3w:3m/:3p:3p:3p:3p:3p:3p:3p:3p:3p:3p:3p:3p/mp12:4p:4m/wp12:4p:4w/rp12:4p:4r/np12:4p:4n/bp12:4p:4b/qp12:4p:4q/kp12:4p:4k/bp12:4p:4b/np12:4p:4n/r1p11:4p:4r/wp12:4p:4w/mp2P9:4p:4m/PP1PPPPPPPPP/MWRNBKQBNRWM b KQkq:3K:3Q:4K:4Q - 0 1 -' \
    ultimate-chess-4p --moves 'e2e3, b5c5'
[ $fail = 0 ] && echo "fen --moves: $n tests passed"
exit $fail
