# diagrams-check.awk EXPECTS MOVES - compares what `varia moves --diagram` listed for each query
# (MOVES: each query's moves, then an empty line) with what its diagram says (EXPECTS, from
# diagrams-read.awk); prints every difference and exits 1 when there is one.
BEGIN { bad = 0 }
FNR == NR && /^P / { dropper[$2] = 1; next }
FNR == NR { expect[++nexpect] = $0; next }
# a move's origin and destination: "e2e4", "e7e8q", "bonus:e4d5", "M d3-d7", "C d1-G:d1", "P@e4",
# and in a game of draughts text the cells' numbers: "18-14", "2x9x18"
function parse(move,    m, a, n, rest) {
    from = ""; to = ""; placed = ""
    sub(/^[a-z][a-z0-9-]*:/, "", move)
    if (move == "pass" || move ~ /^x/) return
    if (move ~ /^[0-9]+[-x][0-9]/) { n = split(move, a, /[-x]/); from = a[1]; to = a[n]; return }
    if (index(move, "@")) { placed = move; sub(/@.*/, "", placed); to = move; sub(/.*@/, "", to); return }
    if (move ~ /^[^ ]+ [a-z]+[0-9]+-/) { # on one of several boards
        split(move, a, " "); rest = a[2]
        from = a[1] ":" rest; sub(/-.*/, "", from)
        to = rest; sub(/^[^-]*-/, "", to); sub(/[=+ ].*$/, "", to)
        if (to !~ /:/) to = a[1] ":" to
        return
    }
    if (match(move, /^[a-z]+[0-9]+/)) {
        from = substr(move, 1, RLENGTH); rest = substr(move, RLENGTH + 1)
        if (match(rest, /^[a-z]+[0-9]+/)) to = substr(rest, 1, RLENGTH)
    }
}
function judge(q,    f, n, i, got, want, w, seen, cell) {
    if (q > nexpect) { print "query " q ": no expectation"; bad = 1; return }
    n = split(expect[q], f, " ")
    got = ""
    delete seen
    for (i = 1; i <= nmoves; i++) {
        parse(moves[i])
        # (a drop from the hand is of the piece's letter; a piece put down by a program names no
        # maker: any, where the piece is the only one of its side that puts pieces down, except
        # a piece a drop program puts down: the player's drop, not the piece's on the board)
        if (placed != "" && (f[3] == "-" ? placed == f[4] : !(placed in dropper))) cell = "@" to
        else if (placed == "" && from == f[3] && to != "" && to != from) cell = to
        else continue
        if (!(cell in seen)) { seen[cell] = 1 }
    }
    if (f[1] == "D") {
        for (i = 5; i <= n; i++) {
            if (!(f[i] in seen)) { print "diagram " f[2] " (" f[3] "): marks " f[i] ", no such move"; bad = 1 }
            delete seen[f[i]]
        }
        for (cell in seen) { print "diagram " f[2] " (" f[3] "): a move to " cell " is not marked"; bad = 1 }
    } else {
        if ((f[4] in seen) != (f[5] == 1)) {
            print "diagram " f[2] " (" f[3] "): an enemy on " f[4] (f[5] == 1 ? " is marked as captured, and is not" : " is captured, not marked so")
            bad = 1
        }
    }
}
{
    if ($0 == "") { nq++; judge(nq); nmoves = 0; next }
    moves[++nmoves] = $0
}
END {
    if (nq != nexpect) { print nq " answers for " nexpect " queries"; bad = 1 }
    exit bad
}
