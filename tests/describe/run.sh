#!/bin/sh
# run.sh VARIA [--update] [FILE...] - the rulebook (`varia describe`) of every shipped rule file
# (or the FILEs):
# - it is made without a message, its SVG pictures and HTML page are well-formed XML;
# - every move diagram says what the generator does (diagrams-read.awk reads each one back from
#   the drawing, `varia moves --diagram` answers, diagrams-check.awk compares);
# - the HTML page carries the text: its headings and lines are the terminal text's (the boards
#   drawn in characters aside), and its pictures mark the cells the text's diagrams mark;
# - for the games with a NAME.expected here the text equals it (--update rewrites them).
# Then: the rule files of the other tests describe without a fault, `varia moves --fen -` names a
# bad line, and `varia check` gives its warnings.
varia=${1:?usage: run.sh VARIA [--update] [FILE...]}
shift
update=
if [ "$1" = --update ]; then update=1; shift; fi
dir=$(dirname "$0")
[ $# -gt 0 ] || set -- "$dir"/../../rules/*.rules
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
failed() { echo "describe: FAIL $name: $1" >&2; [ -n "$2" ] && head -${3:-20} "$2" >&2; fail=$((fail + 1)); }
for f in "$@"; do
    name=$(basename "$f" .rules)
    mkdir -p "$tmp/svg"
    rm -f "$tmp"/svg/*
    # (the text into a file is plain, as --ascii makes it: no glyphs, no colours)
    if ! "$varia" describe "$f" > "$tmp/text" 2> "$tmp/err" ||
       ! "$varia" describe "$f" --svg "$tmp/svg" --html "$tmp/page.html" > /dev/null 2>> "$tmp/err"; then
        failed "describe failed:" "$tmp/err" 5; continue
    fi
    if [ -s "$tmp/err" ]; then failed "describe printed:" "$tmp/err" 5; continue; fi
    if ! [ -f "$tmp/svg/start.svg" ] || ! xmllint --noout "$tmp"/svg/*.svg "$tmp/page.html" 2> "$tmp/xml"; then
        failed "pictures are not well-formed XML:" "$tmp/xml"; continue
    fi
    # the diagrams against the generator
    if ! awk -v queries="$tmp/queries" -v expects="$tmp/expects" -v marks="$tmp/marks" \
            -f "$dir/diagrams-read.awk" "$tmp/text" 2> "$tmp/err"; then
        failed "its diagrams do not read back:" "$tmp/err"; continue
    fi
    if ! [ -s "$tmp/queries" ]; then failed "no diagram"; continue; fi
    "$varia" moves "$f" --diagram --fen - < "$tmp/queries" > "$tmp/moves" 2> "$tmp/err"
    if grep -v "note:" "$tmp/err" > "$tmp/errors"; then failed "varia moves:" "$tmp/errors" 5; continue; fi
    if ! awk -f "$dir/diagrams-check.awk" "$tmp/expects" "$tmp/moves" > "$tmp/report"; then
        failed "a diagram differs from the generator:" "$tmp/report" 30; continue
    fi
    # the page's text and marks against the terminal's
    sh "$dir/page-text.sh" "$tmp/page.html" > "$tmp/page.txt"
    grep -v -e '^   ' -e '^[ 0-9][0-9] ' -e '^[=-][=-]*$' -e '^[[:space:]]*$' "$tmp/text" > "$tmp/text.txt"
    if ! diff "$tmp/text.txt" "$tmp/page.txt" > "$tmp/diff"; then
        failed "the HTML page's text is not the rulebook's (< text, > page):" "$tmp/diff"; continue
    fi
    awk -f "$dir/page-marks.awk" "$tmp/page.html" | sort > "$tmp/page.marks"
    sort "$tmp/marks" > "$tmp/text.marks"
    if ! [ -s "$tmp/text.marks" ] || ! diff "$tmp/text.marks" "$tmp/page.marks" > "$tmp/diff"; then
        failed "the HTML page's diagrams mark other cells (< text, > page):" "$tmp/diff"; continue
    fi
    exp=$dir/$name.expected
    if [ -n "$update" ] && [ -f "$exp" ]; then cp "$tmp/text" "$exp"
    elif [ -f "$exp" ] && ! diff -u "$exp" "$tmp/text" > "$tmp/diff"; then
        failed "differs from $exp:" "$tmp/diff" 40; continue
    fi
    pass=$((pass + 1))
done
name=others
# the rule files of the other tests: no fault, whatever they hold
for f in "$dir"/../rules/ok/*.rules "$dir"/../play/*.rules; do
    if "$varia" describe "$f" > /dev/null 2> "$tmp/err"; then pass=$((pass + 1)); else
        failed "$f:" "$tmp/err" 5; fi
done
# `varia moves --fen -`: a line that is not a position is named, the others still answered
printf '8/8/8/3N4/8/8/8/8 w - - 0 1\nnot a position\n8/8/8/8/8/8/8/R7 w - - 0 1\n' |
    "$varia" moves "$dir/../../rules/chess.rules" --diagram --fen - > "$tmp/out" 2> "$tmp/err"
if [ $? = 1 ] && grep -q "^varia: error: standard input line 2: bad position 'not a position': " "$tmp/err" &&
   [ "$(grep -c . "$tmp/out")" = 22 ] && [ "$(grep -c '^$' "$tmp/out")" = 3 ]; then pass=$((pass + 1)); else
    failed "varia moves --fen - with a bad line:" "$tmp/err"; fi
# `varia check` warns about likely mistakes: look-alike pieces, a piece that never moves, a
# promotion no move reaches (tests/describe/warnings.rules has one of each)
"$varia" check "$dir/../../rules/ultima.rules" 2> "$tmp/warn" > /dev/null
if grep -q "warning: piece 'Immobilizer' looks like 'Coordinator'" "$tmp/warn"; then pass=$((pass + 1)); else
    failed "ultima's look-alike pieces are not warned about"; fi
"$varia" check "$dir/warnings.rules" 2> "$tmp/warn" > /dev/null
sed -n 's/^[^:]*:\([0-9]*:[0-9]*\): warning: /\1 /p' "$tmp/warn" > "$tmp/got"
if diff "$dir/warnings.expected" "$tmp/got" > "$tmp/diff"; then pass=$((pass + 1)); else
    failed "warnings of $dir/warnings.rules (< expected, > printed):" "$tmp/diff"; fi
# an option's rules are described too: Hex's swap is a placing of its own that takes a stone
"$varia" describe "$dir/../../rules/hex.rules" --option swap=on > "$tmp/swap" 2>&1
"$varia" describe "$dir/../../rules/hex.rules" > "$tmp/noswap" 2>&1
if grep -q "^  some placings are moves of their own, 'swap' (written swap:S@ and the cell)$" "$tmp/swap" &&
   grep -q "^  a placing may also take pieces$" "$tmp/swap" && ! grep -q "placings are moves" "$tmp/noswap"; then
    pass=$((pass + 1)); else
    failed "hex with the swap rule: its swap is not described" "$tmp/swap"; fi
echo "describe: $pass passed, $fail failed"
[ "$fail" = 0 ]
