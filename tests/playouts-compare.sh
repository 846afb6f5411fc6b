#!/bin/sh
# Do two builds play the same random playouts? For every rule file named (default: all of
# rules/), compares each playout's plies, result and final key (varia bench --playouts
# --trace) from the same seeds. A change meant only to be faster must print no difference.
# Usage: tests/playouts-compare.sh OLD-VARIA NEW-VARIA [GAMES [SEED]] [-- FILE...]
set -u
old=$1 new=$2
shift 2
games=${1:-20}
[ $# -gt 0 ] && shift
seed=${1:-1}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
[ $# -eq 0 ] && set -- rules/*.rules
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
for f in "$@"; do
    "$old" bench --playouts "$f" --games "$games" --seed "$seed" --trace 2>&1 | grep '^seed ' >"$tmp/old"
    "$new" bench --playouts "$f" --games "$games" --seed "$seed" --trace 2>&1 | grep '^seed ' >"$tmp/new"
    if ! cmp -s "$tmp/old" "$tmp/new" || [ ! -s "$tmp/old" ]; then
        echo "DIFFERENT: $f"
        diff "$tmp/old" "$tmp/new" | head -5
        fail=1
    fi
done
[ $fail -eq 0 ] && echo "same playouts: $# files x $games games from seed $seed"
exit $fail
