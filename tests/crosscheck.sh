#!/bin/sh
# crosscheck.sh VARIA [RULES...] - compares `varia perft --divide` move by move with
# Fairy-Stockfish on positions reached by random play, for every game of tests/crosscheck.list
# (or only the RULES named). Needs fairy-stockfish (make installs it).
# Env: CROSS_COUNT and CROSS_DEPTH override every line's positions and depth.
varia=${1:?usage: crosscheck.sh VARIA [RULES...]}
shift
only=$*
dir=$(dirname "$0")
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
if [ ! -x "$fsf" ]; then
    echo "crosscheck: fairy-stockfish is not installed (apt-get install fairy-stockfish)" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A move as both print it: from and to cells (files a-l, ranks 1-12), then a promotion letter,
# '+' (to a promoted type, as in shogi) or '-' (back to its base); or a drop, the piece's
# letter ('+' first for a promoted one), '@' and the cell (hands travel in the position text:
# [Qn]); or a pass, which Fairy-Stockfish writes as its king's cell twice.
move='^([a-l](1[0-2]|[1-9])[a-l](1[0-2]|[1-9])[a-z+-]?|\+?[A-Z]@[a-l](1[0-2]|[1-9])|pass): [0-9]+$'
total_pass=0 total_fail=0 want=0
while read -r name variant count depth options; do
    case "$name" in ''|'#'*) continue ;; esac
    if [ -n "$only" ]; then
        case " $only " in *" $name "*) ;; *) continue ;; esac
    fi
    count=${CROSS_COUNT:-$count}
    depth=${CROSS_DEPTH:-$depth}
    rules="$dir/../rules/$name.rules"
    want=$((want + count))
    set -- # the rule file's options for the oracle's rules (NAME=VALUE,...)
    for o in $(echo "$options" | tr ',' ' '); do set -- "$@" --option "$o"; done
    "$varia" random "$rules" count="$count" plies=80 seed=2024 "$@" > "$tmp/positions" || exit 1
    # One Fairy-Stockfish session answers every position (starting it costs more than a
    # shallow perft); each answer ends with its "Nodes searched" line: split there.
    { printf 'uci\nsetoption name UCI_Variant value %s\n' "$variant"
      while IFS= read -r fen; do printf 'position fen %s\ngo perft %s\n' "$fen" "$depth"; done < "$tmp/positions"
      printf 'quit\n'
    } | "$fsf" > "$tmp/theirs" 2>/dev/null
    "$varia" perft "$rules" "$depth" --divide --fen - "$@" < "$tmp/positions" > "$tmp/ours" 2>/dev/null
    # Both answer each position with "move: count" lines ending at "Nodes searched"; the k-th
    # answers must hold the same lines (the oracle writes a pass as a move to the same cell).
    set -- $(MOVE=$move awk -v name="$name" '
        function key(line,   c) {
            if (line !~ ENVIRON["MOVE"]) return ""
            c = substr(line, 1, index(line, ":") - 1)
            if (c ~ /^[a-l]/ && length(c) % 2 == 0 && substr(c, 1, length(c) / 2) == substr(c, length(c) / 2 + 1))
                line = "pass" substr(line, index(line, ":"))
            return line
        }
        FILENAME == ARGV[1] { fen[n1++] = $0; next }
        FILENAME == ARGV[2] { if (/^Nodes searched/) { k2++; next } if ((x = key($0)) != "") { theirs[k2, x]++; nt[k2]++ } next }
        { if (/^Nodes searched/) { k3++; next } if ((x = key($0)) != "") { ours[k3, x]++; no[k3]++ } }
        END {
            pass = fail = 0
            for (k = 0; k < n1; k++) {
                bad = (no[k] != nt[k]) || (k >= k2) || (k >= k3)
                for (i in ours) { split(i, p, SUBSEP); if (p[1] == k && ours[i] != theirs[i]) bad = 1 }
                if (bad) {
                    fail++
                    print "crosscheck: " name ": MISMATCH at " fen[k] > "/dev/stderr"
                    for (i in ours) { split(i, p, SUBSEP); if (p[1] == k && ours[i] != theirs[i]) print "< " p[2] > "/dev/stderr" }
                    for (i in theirs) { split(i, p, SUBSEP); if (p[1] == k && ours[i] != theirs[i]) print "> " p[2] > "/dev/stderr" }
                } else pass++
            }
            print pass, fail
        }' "$tmp/positions" "$tmp/theirs" "$tmp/ours")
    pass=$1 fail=$2
    echo "crosscheck: $name (depth $depth): $pass passed, $fail failed"
    total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail))
done < "$dir/crosscheck.list"
echo "crosscheck: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ] && [ "$total_pass" -ge "$want" ]
