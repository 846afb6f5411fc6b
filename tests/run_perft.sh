#!/bin/sh
# run_perft.sh VARIA shallow|deep - checks every figure in tests/perft/<rules>.epd.
# Lines are "POSITION ;D1 n ;D2 n ...". shallow runs counts up to PERFT_LIMIT nodes (default
# 20 million), deep runs the rest; a figure followed by "deep" (";D4 1065277 deep") is slow for
# its size and runs with the deep ones. Prints "N passed, N failed".
varia=${1:?usage: run_perft.sh VARIA shallow|deep}
mode=${2:-shallow}
limit=${PERFT_LIMIT:-20000000}
dir=$(dirname "$0")
pass=0 fail=0
for epd in "$dir"/perft/*.epd; do
    name=$(basename "$epd" .epd)
    rules="$dir/../rules/$name.rules"
    while IFS= read -r line; do
        case "$line" in ''|'#'*) continue ;; esac
        fen=${line%%;*}
        fen=$(echo "$fen" | sed 's/ *$//')
        rest=${line#*;}
        echo ";$rest" | tr ';' '\n' | while read -r d n mark; do
            [ -n "$d" ] || continue
            depth=${d#D}
            # (a figure marked "deep" is slow for its size: it runs with the deep ones)
            deep=no
            if [ "$n" -gt "$limit" ] || [ "$mark" = deep ]; then deep=yes; fi
            if [ "$mode" = shallow ] && [ $deep = yes ]; then continue; fi
            if [ "$mode" = deep ] && [ $deep = no ]; then continue; fi
            got=$("$varia" perft "$rules" "$depth" --fen "$fen" 2>/dev/null | sed -n 's/^Nodes searched: //p')
            if [ "$got" = "$n" ]; then echo "pass"; else
                echo "FAIL $name depth $depth: expected $n, got '${got}' for $fen" >&2; echo "fail"; fi
        done
    done < "$epd"
done > "${TMPDIR:-/tmp}/varia-perft.$$"
pass=$(grep -c '^pass' "${TMPDIR:-/tmp}/varia-perft.$$")
fail=$(grep -c '^fail' "${TMPDIR:-/tmp}/varia-perft.$$")
rm -f "${TMPDIR:-/tmp}/varia-perft.$$"
echo "perft-$mode: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
