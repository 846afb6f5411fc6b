#!/bin/sh
# run.sh VARIA [--update] - the rulebook (`varia describe`) of every shipped rule file: it must
# succeed, its SVG pictures and HTML page must be well-formed XML, and for the games with a
# NAME.expected here the text must equal it (--update rewrites them).
varia=${1:?usage: run.sh VARIA [--update]}
update=$2
dir=$(dirname "$0")
rules=$dir/../../rules
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for f in "$rules"/*.rules; do
    name=$(basename "$f" .rules)
    mkdir -p "$tmp/$name"
    if ! "$varia" describe "$f" > "$tmp/$name.txt" 2> "$tmp/err" ||
       ! "$varia" describe "$f" --svg "$tmp/$name" > /dev/null 2>> "$tmp/err" ||
       ! "$varia" describe "$f" --html "$tmp/$name.html" > /dev/null 2>> "$tmp/err"; then
        echo "describe: FAIL $name:" >&2; cat "$tmp/err" >&2; fail=$((fail + 1)); continue
    fi
    if [ -s "$tmp/err" ]; then echo "describe: FAIL $name printed:" >&2; cat "$tmp/err" >&2; fail=$((fail + 1)); continue; fi
    if ! [ -f "$tmp/$name/start.svg" ] || ! xmllint --noout "$tmp/$name"/*.svg "$tmp/$name.html" 2> "$tmp/xml"; then
        echo "describe: FAIL $name: pictures are not well-formed XML:" >&2; head -20 "$tmp/xml" >&2; fail=$((fail + 1)); continue
    fi
    exp=$dir/$name.expected
    if [ "$update" = --update ] && [ -f "$exp" ]; then cp "$tmp/$name.txt" "$exp"
    elif [ -f "$exp" ] && ! diff -u "$exp" "$tmp/$name.txt" > "$tmp/diff"; then
        echo "describe: FAIL $name differs from $exp:" >&2; head -40 "$tmp/diff" >&2; fail=$((fail + 1)); continue
    fi
    pass=$((pass + 1))
done
# the rule files of the other tests: no fault, whatever they hold
for f in "$dir"/../rules/ok/*.rules "$dir"/../play/*.rules; do
    if "$varia" describe "$f" > /dev/null 2> "$tmp/err"; then pass=$((pass + 1)); else
        echo "describe: FAIL $f:" >&2; head -5 "$tmp/err" >&2; fail=$((fail + 1)); fi
done
# `varia check` warns about likely mistakes: look-alike pieces, a piece that never moves, a
# promotion no move reaches (tests/describe/warnings.rules has one of each)
"$varia" check "$rules/ultima.rules" 2> "$tmp/warn" > /dev/null
if grep -q "warning: piece 'Immobilizer' looks like 'Coordinator'" "$tmp/warn"; then pass=$((pass + 1)); else
    echo "describe: FAIL ultima's look-alike pieces are not warned about" >&2; fail=$((fail + 1)); fi
"$varia" check "$dir/warnings.rules" 2> "$tmp/warn" > /dev/null
sed -n 's/^[^:]*:\([0-9]*:[0-9]*\): warning: /\1 /p' "$tmp/warn" > "$tmp/got"
if diff "$dir/warnings.expected" "$tmp/got" > "$tmp/diff"; then pass=$((pass + 1)); else
    echo "describe: FAIL warnings of $dir/warnings.rules (< expected, > printed):" >&2; cat "$tmp/diff" >&2; fail=$((fail + 1)); fi
echo "describe: $pass passed, $fail failed"
[ "$fail" = 0 ]
