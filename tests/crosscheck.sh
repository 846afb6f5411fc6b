#!/bin/sh
# crosscheck.sh VARIA - compares `varia perft --divide` move by move with Fairy-Stockfish on
# positions reached by random play (chess). Needs fairy-stockfish (make installs it).
# Env: CROSS_COUNT (default 200 positions), CROSS_DEPTH (default 3).
varia=${1:?usage: crosscheck.sh VARIA}
dir=$(dirname "$0")
rules="$dir/../rules/chess.rules"
count=${CROSS_COUNT:-200}
depth=${CROSS_DEPTH:-3}
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
if [ ! -x "$fsf" ]; then
    echo "crosscheck: fairy-stockfish is not installed (apt-get install fairy-stockfish)" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$varia" random "$rules" count="$count" plies=80 seed=2024 > "$tmp/positions" || exit 1
pass=0 fail=0
while IFS= read -r fen; do
    "$varia" perft "$rules" "$depth" --divide --fen "$fen" 2>/dev/null | grep -E '^[a-h][1-8][a-h][1-8][qrbn]?: [0-9]+$' | sort > "$tmp/ours"
    printf 'uci\nsetoption name UCI_Variant value chess\nposition fen %s\ngo perft %s\nquit\n' "$fen" "$depth" |
        "$fsf" 2>/dev/null | grep -E '^[a-h][1-8][a-h][1-8][qrbn]?: [0-9]+$' | sort > "$tmp/theirs"
    if cmp -s "$tmp/ours" "$tmp/theirs" && [ -s "$tmp/theirs" -o ! -s "$tmp/ours" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "crosscheck: MISMATCH at $fen" >&2
        diff "$tmp/ours" "$tmp/theirs" | head -10 >&2
    fi
done < "$tmp/positions"
echo "crosscheck: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -ge "$count" ]
