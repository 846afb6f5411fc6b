#!/bin/sh
# run_perft.sh VARIA shallow|deep - checks every figure in tests/perft/<rules>.epd, one
# `varia perft --epd` per suite. Lines are "POSITION ;D1 n ;D2 n ...". shallow runs counts up
# to PERFT_LIMIT nodes (default 20 million), deep runs the rest; a figure followed by "deep"
# (";D4 1065277 deep") is slow for its size and runs with the deep ones. Prints "N passed,
# N failed".
varia=${1:?usage: run_perft.sh VARIA shallow|deep}
mode=${2:-shallow}
limit=${PERFT_LIMIT:-20000000}
dir=$(dirname "$0")
case $mode in
shallow) select="--max-nodes $limit" ;;
deep) select="--max-nodes $limit --deep" ;;
*) echo "usage: run_perft.sh VARIA shallow|deep" >&2 && exit 2 ;;
esac
pass=0 fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for epd in "$dir"/perft/*.epd; do
    name=$(basename "$epd" .epd)
    # (each wrong figure is named on standard error by its file and line)
    # shellcheck disable=SC2086
    "$varia" perft "$dir/../rules/$name.rules" --epd "$epd" $select >"$out"
    rc=$?
    set -- $(sed -n 's/.*: \([0-9]*\) passed, \([0-9]*\) failed,.*/\1 \2/p' "$out")
    if [ $# -ne 2 ]; then
        echo "FAIL $name: varia perft --epd ended with status $rc: $(cat "$out")" >&2
        fail=$((fail + 1))
        continue
    fi
    pass=$((pass + $1)) fail=$((fail + $2))
    [ $rc -eq 0 ] || [ "$2" -gt 0 ] || { echo "FAIL $name: status $rc" >&2; fail=$((fail + 1)); }
done
echo "perft-$mode: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
