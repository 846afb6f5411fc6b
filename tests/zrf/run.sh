#!/bin/sh
# run.sh VARIA - the Zillions front end's tests (tests/zrf):
#   perft.list   each .zrf against its twin rule file (or published figures): perft from the
#                start and from positions of random play must be equal;
#   err/*.zrf    malformed files: `varia check` must fail with exactly the diagnostics of
#                NAME.expected (file:line:col, the macro notes, the source lines);
#   ok/*.zrf     must load; NAME.expected holds their warnings (what is left out, and where).
varia=${1:?usage: run.sh VARIA}
dir=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
perft() { "$varia" perft "$1" "$2" ${3:+--fen "$3"} 2>/dev/null | sed -n 's/^Nodes searched: //p'; }
grep -v '^#' "$dir/perft.list" | while read -r zrf twin tokens depth count rdepth keep; do
    [ -n "$zrf" ] || continue
    d=1
    while [ "$d" -le "$depth" ]; do
        # (a twin written =N1,N2,... is the published figures from depth 1)
        case "$twin" in
        =*) b=$(echo "${twin#=}" | cut -d, -f$d) ;;
        *) b=$(perft "$twin" $d) ;;
        esac
        a=$(perft "$dir/$zrf" $d)
        if [ -n "$a" ] && [ "$a" = "$b" ]; then echo pass; else
            echo "zrf: FAIL $zrf perft $d from the start: $a, $twin gives $b" >&2; echo fail; fi
        d=$((d + 1))
    done
    [ "$count" -gt 0 ] || continue
    map=$(echo "$tokens" | sed 's/\([^=,]*\)=\([^,]*\)/s\/^\1$\/\2\//g; s/,/;/g')
    "$varia" random "$twin" count="$count" plies=30 seed=7 | while read -r board side rest; do
        set -- $rest
        castling=-
        [ "$keep" = castling ] && castling=$1
        shift 2
        zside=$(echo "$side" | sed "$map")
        tfen="$board $side $castling - $*" zfen="$board $zside $castling - $*"
        a=$(perft "$dir/$zrf" "$rdepth" "$zfen") b=$(perft "$twin" "$rdepth" "$tfen")
        if [ -n "$a" ] && [ "$a" = "$b" ]; then echo pass; else
            echo "zrf: FAIL $zrf perft $rdepth at '$zfen': $a, $twin gives $b" >&2; echo fail; fi
    done
done > "$tmp/perft"
# the file's own words reach the rulebook: the game's description, its '\' a line break, and a
# piece's help
"$varia" describe "$dir/drops.zrf" > "$tmp/rulebook" 2>&1
for words in "In the rule file's words: Each king starts alone." "^Knights and a rook wait in reserve.$" \
    "In the rule file's words: Rook: slides along a line; put down on its owner's first two ranks"; do
    if grep -q "$words" "$tmp/rulebook"; then echo pass; else
        echo "zrf: FAIL the rulebook of drops.zrf lacks '$words'" >&2; echo fail; fi
done >> "$tmp/perft"
"$varia" describe "$dir/goals-total.zrf" > "$tmp/rulebook" 2>&1
"$varia" describe "$dir/goals-kings.zrf" >> "$tmp/rulebook" 2>&1
"$varia" describe "$dir/goals-hand.zrf" >> "$tmp/rulebook" 2>&1
"$varia" describe "$dir/goals-stuck.zrf" >> "$tmp/rulebook" 2>&1
for words in "when the board holds exactly 1 King (every side's counted), Black loses" \
    "at most 1 pieces left on the board (those in hand not counted), being White loses" \
    "Black has no legal move and at most 2 pieces on the board: it wins" \
    "exactly 5 pieces (every side's counted), the side with more pieces on the board wins" \
    "the most pieces of the types King a capture can take; when none takes any of them, the most pieces"; do
    if grep -qF "$words" "$tmp/rulebook"; then echo pass; else
        echo "zrf: FAIL the rulebooks of the goals-*.zrf files lack '$words'" >&2; echo fail; fi
done >> "$tmp/perft"
# figures worked out by hand from given positions: FILE|POSITION|DEPTH|NODES
while IFS='|' read -r zrf fen depth nodes; do
    a=$(perft "$dir/$zrf" "$depth" "$fen")
    if [ "$a" = "$nodes" ]; then echo pass; else
        echo "zrf: FAIL $zrf perft $depth at '$fen': $a, by hand $nodes" >&2; echo fail; fi
done >> "$tmp/perft" <<'EOF'
puzzle.zrf|1A1/2B y - - 0 1|2|14
goals-total.zrf|2mk/3m/4/KM2 w - - 0 1|1|0
goals-kings.zrf|4/k3/m3/Mk2 w - - 0 1|1|2
goals-kings.zrf|4/k3/k3/Mk2 w - - 0 1|1|1
goals-kings.zrf|4/m3/m3/Mm2 w - - 0 1|1|1
goals-mate.zrf|4/1r2/rr2/K3 w - - 0 1|1|0
EOF
# the goals' verdicts in positions where they fire, as the console says them: FILE|POSITION|WORDS
while IFS='|' read -r zrf fen words; do
    if echo quit | "$varia" play "$dir/$zrf" --fen "$fen" --ascii --white human --black human 2>&1 |
        grep -q "game over: $words"; then echo pass; else
        echo "zrf: FAIL $zrf at '$fen' does not end '$words'" >&2; echo fail; fi
done >> "$tmp/perft" <<'EOF'
goals-total.zrf|2mk/3m/M3/1M2 w - - 0 1|White wins by total pieces
goals-total.zrf|2m1/3m/M3/KM2 b - - 0 1|White wins by total pieces
goals-total.zrf|3k/3m/M3/KM2 b - - 0 1|White wins by total pieces
goals-total.zrf|2mk/3m/4/KM2 w - - 0 1|Black wins by total pieces
goals-mate.zrf|4/1r2/rr2/K3 w - - 0 1|Black wins by checkmate
goals-mate.zrf|4/4/4/K3 b - - 0 1|White wins by all pieces lost
goals-hand.zrf|2mm/4/4/M3[Mm] b - - 0 1|Black wins by all pieces lost
goals-hand.zrf|1m2/4/4/M3[MMm] w - - 0 1|Black wins by all pieces lost
goals-hand.zrf|4/4/4/MM2[Mm] w - - 0 1|White wins by extinction
goals-stuck.zrf|4/m3/M3/4 w - - 0 1|Black wins by stalemate
goals-stuck.zrf|3m/m2M/M3/4 w - - 0 1|draw by stalemate
goals-stuck.zrf|3m/m2M/M3/4 b - - 0 1|Black wins by stalemate
goals-stuck.zrf|3m/m2M/M3/2m1 b - - 0 1|draw by stalemate
EOF
pass=$(grep -c '^pass' "$tmp/perft")
fail=$(grep -c '^fail' "$tmp/perft")
for kind in ok err; do
    for f in "$dir/$kind"/*.zrf; do
        [ -e "$f" ] || continue
        exp=${f%.zrf}.expected
        if "$varia" check "$f" > /dev/null 2> "$tmp/got"; then ok=yes; else ok=no; fi
        if [ "$kind" = ok ] && [ $ok = no ]; then
            echo "zrf: FAIL $f should load:" >&2; cat "$tmp/got" >&2; fail=$((fail + 1)); continue
        fi
        if [ "$kind" = err ] && [ $ok = yes ]; then
            echo "zrf: FAIL $f should not load" >&2; fail=$((fail + 1)); continue
        fi
        if ! diff -u "$exp" "$tmp/got" > "$tmp/diff" 2>&1; then
            echo "zrf: FAIL $f diagnostics differ from $exp:" >&2; head -40 "$tmp/diff" >&2
            fail=$((fail + 1)); continue
        fi
        pass=$((pass + 1))
    done
done
echo "zrf: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
