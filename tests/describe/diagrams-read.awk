# diagrams-read.awk - reads the move diagrams of a rulebook (`varia describe --ascii`) and writes
# the positions to ask `varia moves --diagram` about (file `queries`, one a line) and what each
# must answer (file `expects`, a line per query, in the same order):
#   D <diagram> <origin|-> <piece text> <destination>...   the position as drawn
#   C <diagram> <origin> <cell> <0|1>                      with an enemy put on that empty cell
# and, not a query's, "P <piece text>" for each piece a drop program puts down.
# A destination is a cell, or @cell for a placing. With -v marks=FILE, also writes there each
# diagram's marks as drawn, a line a mark: "<diagram> <cell> <mark>" (x or # for a drawn piece
# marked captured). Exits 1, with the reason on stderr, when a diagram's drawing and its position
# text disagree.
BEGIN {
    table = ".ox*#&%@+~!?=^$;" # a mark's index - 1 is its bits: move 1, take 2, remote 4, place 8
    ndiagrams = 0; nbuf = 0; inside = 0; bad = 0
    printf "" > queries; printf "" > expects
    if (marks != "") printf "" > marks
}
function fail(msg) { print "diagram " ndiagrams + 1 " (" caption "): " msg > "/dev/stderr"; bad = 1 }
function bits(ch) { return index(table, ch) - 1 }
function has(b, bit) { return int(b / bit) % 2 == 1 }
# the enemy's position-text token, from the pieces' preamble
/an enemy [^ ]+ \([^)]*\) put there/ {
    s = $0; sub(/.*an enemy [^ ]+ \(/, "", s); sub(/\).*/, "", s); enemy = s
}
# each piece's letter, from its heading (the first type's is left out of draughts text)
/^[A-Za-z0-9_-]+ \(letter \+?[A-Z]/ {
    s = $0; sub(/.*\(letter /, "", s); sub(/[^+A-Z].*/, "", s); letter[$1] = s
    if (first_letter == "") first_letter = s
    heading_letter = s
}
# a piece a drop program puts down: its placings are the player's, not a piece's on the board
/^  is put on the board by a program of its own/ { print "P " heading_letter > expects }
# a hexagonal board: cells 4 apart, each rank drawn 2 further right than the one below it
/^Board: .*hexagons/ { hex = 1 }
# the players' tokens, in seat order: "Players: White (w), Black (b)"
/^Players: / {
    s = $0; sub(/^Players: /, "", s); nplayers = split(s, pl, ", ")
    for (i = 1; i <= nplayers; i++) { t = pl[i]; sub(/.*\(/, "", t); sub(/\).*/, "", t); token[i] = t }
}
/^  position: / { if (inside) read_diagram(); inside = 0; next }
/^  [^ ].*:$/ { inside = 1; nbuf = 0; caption = $0; sub(/^  /, "", caption); next }
inside { buf[++nbuf] = $0 }
function is_rank(line) { return line ~ /^ *[0-9]+ / }
# (nb, ncells_b, nranks, rankcells, tokens, hands: read by with_tokens and the draughts text too)
function read_diagram(    h, i, p, k, ntok, tokpos, c, bstart, bfirst, bw, bname, multi, b, row, x, t, lead,
                          glyph, name, fen, rest, origin, inhand, piece, boards, nboards, rk, nrk, r,
                          ntokens, j, ch, num, tk, want, tok, plain, m, s, at) {
    ndiagrams++
    # the position line: "  position: FEN (the NAME on CELL)", "(a NAME in the hand)" or "(a NAME
    # put down by the player to move)" (a drop program's)
    fen = $0; sub(/^  position: /, "", fen); rest = fen
    sub(/ \((the|a) [^(]*\)$/, "", fen)
    inhand = rest ~ /(in the hand|put down by the player to move)\)$/
    piece = rest; sub(/.*\((the|a) /, "", piece); sub(/ .*/, "", piece)
    origin = "-"
    if (!inhand) { origin = rest; sub(/.* on /, "", origin); sub(/\)$/, "", origin) }
    if (!(piece in letter)) { fail("no piece named " piece); return }
    # the file labels: the line before the first rank row
    h = 0
    for (i = 1; i < nbuf && !h; i++) if (!is_rank(buf[i]) && is_rank(buf[i + 1])) h = i
    if (!h) { fail("no board"); return }
    multi = h > 1
    # the boards side by side: labels 3 apart within one, farther between two
    ntok = 0; nb = 0
    for (p = 1; p <= length(buf[h]); p++) {
        c = substr(buf[h], p, 1)
        if (c != " " && (p == 1 || substr(buf[h], p - 1, 1) == " ")) {
            ntok++; tokpos[ntok] = p
            if (ntok == 1 || p - tokpos[ntok - 1] > (hex ? 4 : 3)) { nb++; bstart[nb] = p - 4; bfirst[nb] = ntok; bw[nb] = 0 }
            bw[nb]++
            name = substr(buf[h], p); sub(/ .*/, "", name); file[nb, bw[nb] - 1] = name
        }
    }
    for (b = 1; b <= nb; b++) {
        bname[b] = ""
        if (multi) { name = substr(buf[h - 1], bstart[b] + 3); sub(/ .*/, "", name); bname[b] = name ":" }
        ncells_b[b] = 0; nranks[b] = 0
    }
    # the cells, board by board in reading order (holes are blank, or drawn with the lines of a
    # graph board), and what is drawn on them
    if (hex && nb != 1) { fail("a hexagonal board drawn " nb " times"); return }
    for (row = h + 1; row <= nbuf && is_rank(buf[row]); row++)
        for (b = 1; b <= nb; b++) {
            at = bstart[b] - (hex ? 2 * (row - h - 1) : 0)
            r = substr(buf[row], at, 2) + 0
            nranks[b]++; rankcells[b, nranks[b]] = 0
            for (x = 0; x < bw[b]; x++) {
                t = substr(buf[row], at + 3 + (hex ? 4 : 3) * x, 3)
                if (t ~ /^[ |-]+$/) continue
                lead = substr(t, 1, 1); glyph = substr(t, 2, 2); sub(/[] ]+$/, "", glyph)
                ncells_b[b]++; rankcells[b, nranks[b]]++
                k = ncells_b[b]
                cellname[b, k] = bname[b] file[b, x] r; celllead[b, k] = lead; cellglyph[b, k] = glyph
            }
        }
    # the position text's board: boards by '|', ranks by '/', a number counts empty cells; or a
    # draughts text, "W:W18,K22:B5" (the cells numbered in reading order)
    pdn = fen ~ /^[A-Za-z]+:/
    if (pdn && !read_pdn(fen, nb)) return
    boards = fen; sub(/ .*/, "", boards); tail = substr(fen, length(boards) + 1)
    hands = ""
    if (boards ~ /\[.*\]$/) { hands = boards; sub(/^[^[]*/, "", hands); sub(/\[.*\]$/, "", boards) }
    nboards = pdn ? nb : split(boards, board, "|")
    if (nboards != nb) { fail(nboards " boards in the text, " nb " drawn"); return }
    # (a board's holding cells, "{ROW/ROW}" after its ranks, are drawn under it: the probes
    # leave them empty, and the rulebook's own test reads them)
    for (b = 1; b <= nb; b++) gsub(/\{[^}]*\}/, "", board[b])
    for (b = 1; b <= nb; b++) {
        ntokens = pdn ? ncells_b[b] : 0
        if (pdn) nrk = 0; else
        nrk = split(board[b], rk, "/")
        for (r = 1; r <= nrk; r++) {
            s = rk[r]; num = ""; tk = ""
            for (j = 1; j <= length(s); j++) {
                ch = substr(s, j, 1)
                if (ch ~ /[0-9]/ && tk == "") { num = num ch; continue }
                if (num != "") { for (k = 0; k < num + 0; k++) tokens[b, ++ntokens] = ""; num = "" }
                tk = tk ch
                if (ch ~ /[A-Za-z*]/) {
                    if (substr(s, j + 1, 1) == "~") { tk = tk "~"; j++ }
                    tokens[b, ++ntokens] = tk; tk = ""
                }
            }
            if (num != "") for (k = 0; k < num + 0; k++) tokens[b, ++ntokens] = ""
        }
        if (ntokens != ncells_b[b]) { fail("board " b ": " ntokens " cells in the text, " ncells_b[b] " drawn"); return }
        for (k = 1; k <= ntokens; k++) {
            tok = tokens[b, k]; glyph = cellglyph[b, k]
            if (tok == "" && glyph != "." && !(length(glyph) == 1 && bits(glyph) > 0))
                fail(cellname[b, k] ": " glyph " drawn, empty in the text")
            plain = tok; sub(/~/, "", plain)
            if (tok != "" && (glyph == "." || (length(glyph) == length(plain) && glyph != plain && tok != "*")))
                fail(cellname[b, k] ": " tok " in the text, " glyph " drawn")
        }
    }
    if (bad) return
    if (marks != "")
        for (b = 1; b <= nb; b++)
            for (k = 1; k <= ncells_b[b]; k++) {
                if (tokens[b, k] == "" && bits(cellglyph[b, k]) > 0) print ndiagrams, cellname[b, k], cellglyph[b, k] > marks
                if (tokens[b, k] != "" && (celllead[b, k] == "x" || celllead[b, k] == "#")) print ndiagrams, cellname[b, k], celllead[b, k] > marks
            }
    # the queries: the position as drawn, then an enemy on each empty cell in turn (in a game of
    # draughts text, moves name cells by their numbers)
    for (b = 1; b <= nb; b++)
        for (k = 1; k <= ncells_b[b]; k++) {
            said[b, k] = pdn ? k : cellname[b, k]
            if (cellname[b, k] == origin) origin_said = said[b, k]
        }
    if (origin == "-") origin_said = "-"
    want = ""
    for (b = 1; b <= nb; b++)
        for (k = 1; k <= ncells_b[b]; k++) {
            if (tokens[b, k] == "") {
                m = bits(cellglyph[b, k])
                if (has(m, 1)) want = want " " said[b, k]
                if (has(m, 8)) want = want " @" said[b, k]
            } else if (celllead[b, k] == "x") want = want " " said[b, k]
        }
    print fen > queries
    print "D " ndiagrams " " origin_said " " letter[piece] want > expects
    if (inhand || enemy == "") return
    for (b = 1; b <= nb; b++)
        for (k = 1; k <= ncells_b[b]; k++) {
            if (tokens[b, k] != "" || cellname[b, k] == origin) continue
            tokens[b, k] = enemy
            print (pdn ? with_pdn() : with_tokens() tail) > queries
            tokens[b, k] = ""
            print "C " ndiagrams " " origin_said " " said[b, k] " " (has(bits(cellglyph[b, k]), 2) ? 1 : 0) > expects
        }
}
# the board part again from tokens (a number for each run of empty cells)
function with_tokens(    b, r, k, n, out, empty, i) {
    out = ""
    for (b = 1; b <= nb; b++) {
        if (b > 1) out = out "|"
        k = 0
        for (r = 1; r <= nranks[b]; r++) {
            if (r > 1) out = out "/"
            empty = 0
            for (i = 0; i < rankcells[b, r]; i++) {
                k++
                if (tokens[b, k] == "") { empty++; continue }
                if (empty) { out = out empty; empty = 0 }
                out = out tokens[b, k]
            }
            if (empty) out = out empty
        }
    }
    return out hands
}
# A draughts text's pieces into tokens[1, n] (n: the cell's number), as position text writes
# pieces: the first player's in upper case. False (with the reason) when it does not read.
function read_pdn(text, nb,    parts, n, i, j, items, k, it, owner, letter, lo, hi, m) {
    if (nb != 1) { fail("a draughts text for " nb " boards"); return 0 }
    for (k = 1; k <= ncells_b[1]; k++) tokens[1, k] = ""
    n = split(text, parts, ":")
    pdn_side = parts[1]
    for (i = 2; i <= n; i++) {
        owner = -1
        for (j = 1; j <= nplayers; j++) if (toupper(token[j]) == toupper(substr(parts[i], 1, 1))) owner = j - 1
        if (owner < 0 || owner > 1) { fail("no player '" substr(parts[i], 1, 1) "' of two"); return 0 }
        pdn_token[owner] = toupper(substr(parts[i], 1, 1))
        m = split(substr(parts[i], 2), items, ",")
        for (k = 1; k <= m; k++) {
            it = items[k]; letter = first_letter
            if (it ~ /^[A-Z]/) { letter = substr(it, 1, 1); it = substr(it, 2) }
            lo = it; hi = it
            if (it ~ /-/) { lo = it; sub(/-.*/, "", lo); hi = it; sub(/.*-/, "", hi) }
            for (j = lo + 0; j <= hi + 0; j++) {
                if (j < 1 || j > ncells_b[1]) { fail("square " j " of " ncells_b[1]); return 0 }
                tokens[1, j] = owner ? tolower(letter) : letter
            }
        }
    }
    return 1
}
# the draughts text again from tokens
function with_pdn(    out, owner, k, t, first) {
    out = pdn_side
    for (owner = 0; owner < 2; owner++) {
        out = out ":" pdn_token[owner]
        first = 1
        for (k = 1; k <= ncells_b[1]; k++) {
            t = tokens[1, k]
            if (t == "" || (owner == 0) != (t == toupper(t))) continue
            out = out (first ? "" : ",") (toupper(t) == first_letter ? "" : toupper(t)) k
            first = 0
        }
    }
    return out
}
END { exit bad }
