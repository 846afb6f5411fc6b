#!/bin/sh
# strength.sh VARIA - the command lines of `varia match` and `varia tune`: a short match of two
# settings counts every game and prints the Elo line; a short tune prints `tuned` items that a
# rule file then loads; bad settings are refused with a message naming them.
varia=${1:?usage: strength.sh VARIA}
protocol=strength
answer=move
. "$(dirname "$0")/lib.sh"

run() { # NAME ARGS...: varia ARGS..., output and status in $tmp
    name=$1
    shift
    "$varia" "$@" >"$tmp/$name.out" 2>&1
    echo $? >"$tmp/$name.rc"
}

run match match "$root/rules/chess.rules" --games 2 --depth 1 a=default b=classic,skill=3 --verbose
check match "two games" [ "$(count match '^game [12]: default as ')" = 2 ]
check match "the Elo line" matches match '^default vs classic,skill=3: 2 games \(depth 1\), \+[0-9]+ =[0-9]+ -[0-9]+, score [0-9.]+%, Elo [-+][0-9]+ \+- [0-9]+ \(95%\)$'
run sprt match "$root/rules/chess.rules" --games 2 --depth 1 sprt=0,10
check sprt "the sequential test" matches sprt 'SPRT\(0, 10\) LLR -?[0-9.]+ \[-2.94, 2.94\]'
run badmatch match "$root/rules/chess.rules" a=default,nul
check badmatch "a bad setting named" has badmatch "varia: match: bad setting 'a=default,nul': unknown setting 'nul'"
check badmatch "exit status" [ "$(cat "$tmp/badmatch.rc")" = 2 ]
run badsprt match "$root/rules/chess.rules" sprt=5,1
check badsprt "a backward test refused" has badsprt "varia: match: bad setting 'sprt=5,1'"
run badinc match "$root/rules/chess.rules" inc=x
check badinc "a bad increment refused" has badinc "varia: match: bad setting 'inc=x'"

run tune tune "$root/rules/chess.rules" --games 4 --depth 1 passes=1
check tune "items printed" matches tune '^tuned Queen value [0-9]+$'
check tune "the fit's line" matches tune 'positions from 4 games at depth 1 \(seed 1\), error [0-9.]+ -> [0-9.]+$'
sed -n '/^tuned /p' "$tmp/tune.out" >"$tmp/items.txt"
cat "$root/rules/chess.rules" "$tmp/items.txt" >"$tmp/tuned.rules"
run tuned check "$tmp/tuned.rules"
check tuned "the items load" [ "$(cat "$tmp/tuned.rc")" = 0 ]
run badtune tune "$root/rules/chess.rules" passes=x
check badtune "a bad setting named" has badtune "varia: tune: bad setting 'passes=x'"
run clocktune tune "$root/rules/chess.rules" --time 3
check clocktune "no clock" has clocktune "varia: tune: the games are played to a depth (--depth), not on a clock"
run fourtune tune "$root/rules/ultimate-chess-4p.rules" --games 1
check fourtune "four players refused" has fourtune "tune plays games of two players without cards or hidden information"

finish
