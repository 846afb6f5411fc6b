#!/bin/sh
# zrf-survey.sh VARIA DIR - how many Zillions rule files under DIR Varia loads and plays.
# A file loads when `varia check` passes; it plays when it has legal moves at the start and a
# game of random moves runs (`varia random`, 60 plies at most). Files that need an Axiom
# engine are counted apart. Prints one line per file (load, play, axiom, whether something
# was left out, the first error), then the totals and the constructs that block the most
# files (first errors) and that are left out of the most files that load (warnings).
# Every file gets 30 seconds per command at most.
varia=${1:?usage: zrf-survey.sh VARIA DIR}
dir=${2:?usage: zrf-survey.sh VARIA DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$dir" -type f \( -name '*.zrf' -o -name '*.ZRF' \) | sort > "$tmp/files"
: > "$tmp/results"
: > "$tmp/blocks"
: > "$tmp/leftout"
# (messages without the place and the names they quote, so alike ones are counted together)
norm() { sed 's/^[^ ]*:[0-9]*:[0-9]*: //; s/^[^ ]*: error: /error: /; s/'"'"'[^'"'"']*'"'"'/X/g; s/"[^"]*"/X/g'; }
while IFS= read -r f; do
    load=0 play=0 axiom=0 left=0 why=
    if timeout 30 "$varia" check "$f" > /dev/null 2> "$tmp/err"; then load=1; fi
    grep -q 'needs an Axiom engine' "$tmp/err" && axiom=1
    grep -q 'left out\|not supported yet' "$tmp/err" && left=1
    grep 'warning:.*\(left out\|not supported yet\)' "$tmp/err" | norm | sort -u >> "$tmp/leftout"
    if [ $load = 0 ]; then
        why=$(grep -m1 'error:' "$tmp/err" | norm)
        echo "$why" >> "$tmp/blocks"
    else
        n=$(timeout 30 "$varia" moves "$f" 2>/dev/null | wc -l)
        if [ "$n" -gt 0 ] && timeout 30 "$varia" random "$f" count=1 plies=60 seed=1 > /dev/null 2>&1; then
            play=1
        else
            why="loads, does not play ($n moves at the start)"
        fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$f" $load $play $axiom $left "$why" >> "$tmp/results"
done < "$tmp/files"
cat "$tmp/results"
awk -F'\t' '{n++; l+=$2; p+=$3; a+=$4; w+=($2 && !$5)}
    END {if (n) printf "\n%d files: %d load (%.1f %%), %d play (%.1f %%), %d need an Axiom engine; %d load with nothing left out\n",
         n, l, 100*l/n, p, 100*p/n, a, w}' "$tmp/results"
echo; echo "first errors of the files that do not load:"
sort "$tmp/blocks" | uniq -c | sort -rn | head -n 15
echo; echo "left out of the files that load (files):"
sort "$tmp/leftout" | uniq -c | sort -rn | head -n 15
