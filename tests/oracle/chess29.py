#!/usr/bin/env python3
"""Reference move generator for Alice, Marseillais, Grasshopper and Berolina chess.

It is written from the rules of the games alone (see README-chess29), so that its move lists,
perft figures and positions can be compared with what Varia's rule files produce. Orthodox
chess is included as the `chess` game, to check the common machinery against the published
chess perft figures.

  chess29.py GAME perft DEPTH [--fen FEN] [--divide]
  chess29.py GAME moves [--fen FEN]
  chess29.py GAME random --count N --plies P --seed S [--special]

GAME is chess, alice, marseillais, grasshopper or berolina. Standard library only.
"""

import argparse
import random
import sys

# ---------------------------------------------------------------------------------------------
# Board: a 10x12 mailbox. Cell index = 21 + file + 10 * rank (file and rank from 0), so one
# step north is +10 and one step east is +1. The two outer rows and the outer column hold OFF,
# which stops every slide and every jump (a knight's jump lands at most two rows outside).
# ---------------------------------------------------------------------------------------------

FILES = "abcdefgh"


def cell(file, rank):
    return 21 + file + 10 * rank


def file_of(sq):
    return sq % 10 - 1


def rank_of(sq):
    return sq // 10 - 2


def cell_name(sq):
    return FILES[file_of(sq)] + str(rank_of(sq) + 1)


def parse_cell(text):
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError("bad cell '%s'" % text)
    return cell(FILES.index(text[0]), int(text[1]) - 1)


CELLS = [cell(f, r) for r in range(8) for f in range(8)]

# Pieces are small ints: a colour bit or'ed with a kind. EMPTY and OFF have no colour bit, so
# `piece & colour` is true only for a piece of that colour.
EMPTY, OFF = 0, 64
WHITE, BLACK = 8, 16
BOTH = WHITE | BLACK
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, GRASSHOPPER = 1, 2, 3, 4, 5, 6, 7
LETTERS = ".pnbrqkg"  # LETTERS[kind]

ROOK_DIRS = (10, -10, 1, -1)
BISHOP_DIRS = (11, 9, -9, -11)
QUEEN_DIRS = ROOK_DIRS + BISHOP_DIRS
KNIGHT_STEPS = (21, 19, 12, 8, -8, -12, -19, -21)

# Move flags. A move is a tuple (board, from, to, promotion kind or 0, flag).
NORMAL, DOUBLE, EN_PASSANT, CASTLE = 0, 1, 2, 3

# Castling rights: bits of one int, in FEN order.
RIGHTS = ((1, "K"), (2, "Q"), (4, "k"), (8, "q"))

# A move from or to one of these cells (on either board) clears the rights tied to it.
RIGHTS_KEPT = [15] * 120
for _name, _bits in (("e1", 1 | 2), ("h1", 1), ("a1", 2), ("e8", 4 | 8), ("h8", 4), ("a8", 8)):
    RIGHTS_KEPT[parse_cell(_name)] = 15 & ~_bits

CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
START = {
    "chess": CHESS_START,
    "alice": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR|8/8/8/8/8/8/8/8 w KQkq - 0 1",
    "marseillais": CHESS_START + " 1",
    "grasshopper": "rnbqkbnr/gggggggg/pppppppp/8/8/PPPPPPPP/GGGGGGGG/RNBQKBNR w KQkq - 0 1",
    "berolina": CHESS_START,
}
GAMES = tuple(START)


def forward(colour):
    return 10 if colour == WHITE else -10


class Position:
    """A position of one game, changed in place by make() and restored by unmake()."""

    def __init__(self, game, fen=None):
        if game not in START:
            raise ValueError("unknown game '%s' (one of %s)" % (game, ", ".join(GAMES)))
        self.game = game
        self.alice = game == "alice"  # two boards; every move transfers to the other
        self.marseillais = game == "marseillais"  # two moves a turn
        self.berolina = game == "berolina"  # pawns move diagonally, capture straight
        self.grasshoppers = game == "grasshopper"
        self.double_step = game != "grasshopper"
        self.promotions = (QUEEN, ROOK, BISHOP, KNIGHT) + ((GRASSHOPPER,) if self.grasshoppers else ())
        self.nboards = 2 if self.alice else 1
        self.stack = []  # one (changed cells, saved state) per made move
        self.set_fen(START[game] if fen is None else fen)

    # -----------------------------------------------------------------------------------------
    # Position text
    # -----------------------------------------------------------------------------------------

    def set_fen(self, text):
        fields = text.split()
        if len(fields) < 2:
            raise ValueError("position text needs at least the placement and the side to move")
        placements = fields[0].split("|")
        if len(placements) != self.nboards:
            raise ValueError("%s needs %d board placement(s) separated by '|', got %d"
                             % (self.game, self.nboards, len(placements)))
        self.bd = []
        for placement in placements:
            self.bd.append(self._parse_placement(placement))
        if fields[1] not in ("w", "b"):
            raise ValueError("side to move must be 'w' or 'b', not '%s'" % fields[1])
        self.us = WHITE if fields[1] == "w" else BLACK
        castling = fields[2] if len(fields) > 2 else "-"
        self.castle = 0
        if castling != "-":
            for ch in castling:
                bits = [b for b, c in RIGHTS if c == ch]
                if not bits:
                    raise ValueError("bad castling field '%s'" % castling)
                self.castle |= bits[0]
        try:
            self.half = int(fields[4]) if len(fields) > 4 else 0
            self.full = int(fields[5]) if len(fields) > 5 else 1
        except ValueError:
            raise ValueError("move counters must be numbers: '%s'" % " ".join(fields[4:6]))
        self.part = 1  # Marseillais: the move of the turn about to be made
        self.pending = None  # Marseillais: this turn's double step, for the opponent's turn
        if self.marseillais and len(fields) > 6:
            if fields[6] not in ("1", "2"):
                raise ValueError("the seventh field (move of the turn) must be 1 or 2")
            self.part = int(fields[6])
        if len(fields) > (7 if self.marseillais else 6):
            raise ValueError("too many fields in position text")
        self._parse_ep(fields[3] if len(fields) > 3 else "-")
        self.kings = {}
        for colour in (WHITE, BLACK):
            found = [(b, sq) for b in range(self.nboards) for sq in CELLS
                     if self.bd[b][sq] == KING | colour]
            if len(found) != 1:
                raise ValueError("%s must have exactly one king, found %d"
                                 % ("white" if colour == WHITE else "black", len(found)))
            self.kings[colour] = found[0]
        self.stack = []

    def _parse_placement(self, text):
        bd = [OFF] * 120
        ranks = text.split("/")
        if len(ranks) != 8:
            raise ValueError("placement '%s' needs 8 ranks, has %d" % (text, len(ranks)))
        allowed = "pnbrqk" + ("g" if self.grasshoppers else "")
        for i, row in enumerate(ranks):
            rank = 7 - i
            file = 0
            for ch in row:
                if ch.isdigit():
                    for _ in range(int(ch)):
                        if file < 8:
                            bd[cell(file, rank)] = EMPTY
                        file += 1
                elif ch.lower() in allowed:
                    if file < 8:
                        colour = WHITE if ch.isupper() else BLACK
                        bd[cell(file, rank)] = colour | LETTERS.index(ch.lower())
                    file += 1
                else:
                    raise ValueError("unknown piece letter '%s' in '%s'" % (ch, row))
            if file != 8:
                raise ValueError("rank %d of '%s' has %d cells, not 8" % (rank + 1, text, file))
        return bd

    def _parse_ep(self, text):
        """Set self.ep (and, in Marseillais, self.pending) from the en-passant field.

        Each is (passed board, passed cell, pawn board, pawn cell) or None. A field naming a
        cell no double step can have passed is refused; a field whose pawn is not there (taken
        already, say) is kept but allows no capture, as generation checks."""
        self.ep = self.pending = None
        if text == "-":
            return
        them = BOTH ^ self.us
        if self.marseillais:
            self._parse_marseillais_ep(text)
        elif self.berolina:
            self.ep = self._parse_berolina_ep(text, them)
        elif self.alice:
            if len(text) != 4 or text[0] not in "AB" or text[1] != ":":
                raise ValueError("Alice en-passant field must be like 'A:e3', not '%s'" % text)
            board = "AB".index(text[0])
            passed = self._passed_cell(text[2:], them)
            # The pawn stands beyond the passed cell on the other board.
            self.ep = (board, passed, 1 - board, passed + forward(them))
        else:
            passed = self._passed_cell(text, them)
            self.ep = (0, passed, 0, passed + forward(them))

    @staticmethod
    def _passed_cell(text, colour):
        """The cell named by text, which must be on the rank a double step of colour passes."""
        passed = parse_cell(text)
        if rank_of(passed) != (2 if colour == WHITE else 5):
            raise ValueError("en-passant cell %s is not on the rank a %s double step passes"
                             % (text, "white" if colour == WHITE else "black"))
        return passed

    def _parse_marseillais_ep(self, text):
        # Up to two cells, in any order: the one the side to move may take this turn (a double
        # step of the opponent) and the one the side to move made on the first move of this
        # turn. A cell's rank tells whose double step passed it.
        cells = text.split(",")
        if len(cells) > 2:
            raise ValueError("en-passant field '%s' lists more than two cells" % text)
        for name in cells:
            passed = parse_cell(name)
            if rank_of(passed) not in (2, 5):
                raise ValueError("en-passant cell %s is not on a rank a double step passes "
                                 "(3 or 6)" % name)
            colour = WHITE if rank_of(passed) == 2 else BLACK
            step = (0, passed, 0, passed + forward(colour))
            if colour != self.us:
                if self.ep:
                    raise ValueError("en-passant field '%s' lists two cells of the opponent; "
                                     "it has only one in force" % text)
                self.ep = step
            elif self.part == 1:
                raise ValueError("en-passant cell %s is a double step of the side to move, which "
                                 "has made no move of this turn yet (seventh field 1)" % name)
            elif self.pending:
                raise ValueError("en-passant field '%s' lists two cells of the side to move; "
                                 "one move of this turn is made" % text)
            else:
                self.pending = step

    def _parse_berolina_ep(self, text, them):
        # The passed cell, then the cell of the pawn that passed it: a pawn that went c2-d3-e4
        # is written d3e4, since the pawns on c4 (from e2) and e4 may both have passed d3.
        if len(text) not in (2, 4):
            raise ValueError("Berolina en-passant field must be the passed cell followed by the "
                             "pawn's cell, like 'd3e4', not '%s'" % text)
        fwd = forward(them)
        passed = self._passed_cell(text[:2], them)
        bd = self.bd[0]
        if len(text) == 4:
            pawn = parse_cell(text[2:])
            side = pawn - passed - fwd
            if side not in (-1, 1) or bd[passed - fwd - side] == OFF:
                raise ValueError("en-passant field '%s': no %s double step passes %s and ends "
                                 "on %s" % (text, "white" if them == WHITE else "black",
                                            text[:2], text[2:]))
            return (0, passed, 0, pawn)
        # A lone passed cell: the pawn stands beyond it on one side, and came from the mirror
        # cell on the other side (now empty). Accepted only when one pawn fits.
        found = [passed + fwd + side for side in (-1, 1)
                 if bd[passed + fwd + side] == PAWN | them and bd[passed - fwd - side] == EMPTY]
        if len(found) == 2:
            raise ValueError("en-passant cell %s: the pawns on %s and %s could both have passed "
                             "it; name the pawn after it, like '%s%s'"
                             % (text, cell_name(found[0]), cell_name(found[1]), text,
                                cell_name(found[0])))
        if not found:
            raise ValueError("en-passant cell %s: no %s pawn stands where a double step over it "
                             "ends, with the cell it came from empty"
                             % (text, "white" if them == WHITE else "black"))
        return (0, passed, 0, found[0])

    def fen(self):
        """The position in the comparison format of the game."""
        parts = []
        for bd in self.bd:
            rows = []
            for rank in range(7, -1, -1):
                row, gap = "", 0
                for file in range(8):
                    p = bd[cell(file, rank)]
                    if p == EMPTY:
                        gap += 1
                        continue
                    if gap:
                        row += str(gap)
                        gap = 0
                    letter = LETTERS[p & 7]
                    row += letter.upper() if p & WHITE else letter
                if gap:
                    row += str(gap)
                rows.append(row)
            parts.append("/".join(rows))
        castling = "".join(c for bit, c in RIGHTS if self.castle & bit) or "-"
        ep = "-"
        if self.marseillais:
            # The cell the side to move may take first, then the one it made this turn.
            ep = ",".join(cell_name(step[1]) for step in (self.ep, self.pending) if step) or "-"
        elif self.ep:
            ep = cell_name(self.ep[1])
            if self.alice:
                ep = "AB"[self.ep[0]] + ":" + ep
            elif self.berolina:
                ep += cell_name(self.ep[3])
        fields = ["|".join(parts), "w" if self.us == WHITE else "b", castling, ep,
                  str(self.half), str(self.full)]
        if self.marseillais:
            fields.append(str(self.part))
        return " ".join(fields)

    def move_text(self, m):
        b, fr, to, promo, flag = m
        text = cell_name(fr) + cell_name(to) + (LETTERS[promo] if promo else "")
        return "AB"[b] + ":" + text if self.alice else text

    # -----------------------------------------------------------------------------------------
    # Attacks
    # -----------------------------------------------------------------------------------------

    def attacked(self, b, sq, by):
        """Whether a piece of colour `by` on board b could capture on cell sq of that board."""
        bd = self.bd[b]
        pawn = PAWN | by
        behind = sq - forward(by)  # the rank a `by` pawn attacks sq from
        if self.berolina:
            if bd[behind] == pawn:  # Berolina pawns capture straight ahead
                return True
        elif bd[behind - 1] == pawn or bd[behind + 1] == pawn:
            return True
        knight = KNIGHT | by
        for d in KNIGHT_STEPS:
            if bd[sq + d] == knight:
                return True
        king = KING | by
        for d in QUEEN_DIRS:
            if bd[sq + d] == king:
                return True
        queen, rook, bishop = QUEEN | by, ROOK | by, BISHOP | by
        for d in ROOK_DIRS:
            s = sq + d
            while bd[s] == EMPTY:
                s += d
            if bd[s] == rook or bd[s] == queen:
                return True
        for d in BISHOP_DIRS:
            s = sq + d
            while bd[s] == EMPTY:
                s += d
            if bd[s] == bishop or bd[s] == queen:
                return True
        if self.grasshoppers:
            # A grasshopper lands just beyond its hurdle: the hurdle is the neighbour of sq,
            # and the grasshopper is the first piece behind the hurdle on the same line.
            hopper = GRASSHOPPER | by
            for d in QUEEN_DIRS:
                hurdle = sq + d
                if bd[hurdle] == EMPTY or bd[hurdle] == OFF:
                    continue
                s = hurdle + d
                while bd[s] == EMPTY:
                    s += d
                if bd[s] == hopper:
                    return True
        return False

    def in_check(self, colour):
        b, sq = self.kings[colour]
        return self.attacked(b, sq, BOTH ^ colour)

    # -----------------------------------------------------------------------------------------
    # Move generation
    # -----------------------------------------------------------------------------------------

    def pseudo_moves(self):
        """Moves by the rules of movement, before the test that the mover's king is safe."""
        us = self.us
        them = BOTH ^ us
        fwd = forward(us)
        start_rank = 1 if us == WHITE else 6
        last_rank = 7 if us == WHITE else 0
        moves = []
        add = moves.append
        for b in range(self.nboards):
            bd = self.bd[b]
            for sq in CELLS:
                p = bd[sq]
                if not p & us:
                    continue
                kind = p & 7
                if kind == PAWN:
                    self._pawn_moves(b, bd, sq, us, them, fwd, start_rank, last_rank, add)
                elif kind == KNIGHT or kind == KING:
                    for d in (KNIGHT_STEPS if kind == KNIGHT else QUEEN_DIRS):
                        t = sq + d
                        if bd[t] == EMPTY or bd[t] & them:
                            add((b, sq, t, 0, NORMAL))
                elif kind == GRASSHOPPER:
                    for d in QUEEN_DIRS:
                        s = sq + d
                        while bd[s] == EMPTY:  # over empty cells to the hurdle
                            s += d
                        if bd[s] == OFF:
                            continue
                        t = s + d  # just beyond the hurdle
                        if bd[t] == EMPTY or bd[t] & them:
                            add((b, sq, t, 0, NORMAL))
                else:
                    dirs = ROOK_DIRS if kind == ROOK else BISHOP_DIRS if kind == BISHOP else QUEEN_DIRS
                    for d in dirs:
                        t = sq + d
                        while bd[t] == EMPTY:
                            add((b, sq, t, 0, NORMAL))
                            t += d
                        if bd[t] & them:
                            add((b, sq, t, 0, NORMAL))
        self._en_passant_moves(us, them, fwd, add)
        self._castling_moves(us, them, add)
        if self.alice:
            # The moved piece goes to the same cell of the other board, which must be empty.
            moves = [m for m in moves if self.bd[1 - m[0]][m[2]] == EMPTY]
        return moves

    def _pawn_moves(self, b, bd, sq, us, them, fwd, start_rank, last_rank, add):
        def to(t):
            if rank_of(t) == last_rank:
                for kind in self.promotions:
                    add((b, sq, t, kind, NORMAL))
            else:
                add((b, sq, t, 0, NORMAL))

        first = rank_of(sq) == start_rank and self.double_step
        if self.berolina:
            # One cell diagonally forward without capturing, or two from the start rank in
            # one direction over an empty cell; captures one cell straight forward.
            for side in (-1, 1):
                t = sq + fwd + side
                if bd[t] == EMPTY:
                    to(t)
                    if first and bd[t + fwd + side] == EMPTY:
                        add((b, sq, t + fwd + side, 0, DOUBLE))
            if bd[sq + fwd] & them:
                to(sq + fwd)
            return
        t = sq + fwd
        if bd[t] == EMPTY:
            to(t)
            if first and bd[t + fwd] == EMPTY:
                add((b, sq, t + fwd, 0, DOUBLE))
        for t in (sq + fwd - 1, sq + fwd + 1):
            if bd[t] & them:
                to(t)

    def _en_passant_moves(self, us, them, fwd, add):
        if not self.ep:
            return
        _, passed, pawn_board, pawn_sq = self.ep
        bd = self.bd[pawn_board]  # the capture is made on the board where the pawn stands
        if bd[pawn_sq] != PAWN | them or bd[passed] != EMPTY:
            return
        if self.berolina:
            takers = (passed - fwd,)  # straight behind the passed cell: its capture lands there
        else:
            takers = (pawn_sq - 1, pawn_sq + 1)  # beside the pawn, capturing diagonally
        for t in takers:
            if bd[t] == PAWN | us:
                add((pawn_board, t, passed, 0, EN_PASSANT))

    def _castling_moves(self, us, them, add):
        # Castling starts on board 0 (board A in Alice). The cells the king passes are tested
        # in the position before the move; where the king lands is tested by the ordinary
        # legality test after the move.
        rights = self.castle & (3 if us == WHITE else 12)
        if not rights:
            return
        rank = 0 if us == WHITE else 7
        bd = self.bd[0]
        e = cell(4, rank)
        if bd[e] != KING | us or self.attacked(0, e, them):
            return
        # (right bit, rook's home, cells that must be empty, cell the king passes, king's landing,
        #  rook's landing)
        sides = ((1 if us == WHITE else 4, cell(7, rank), (cell(5, rank), cell(6, rank)),
                  cell(5, rank), cell(6, rank), cell(5, rank)),
                 (2 if us == WHITE else 8, cell(0, rank), (cell(1, rank), cell(2, rank), cell(3, rank)),
                  cell(3, rank), cell(2, rank), cell(3, rank)))
        for bit, rook_home, between, passed, king_to, rook_to in sides:
            if not rights & bit or bd[rook_home] != ROOK | us:
                continue
            if any(bd[s] != EMPTY for s in between) or self.attacked(0, passed, them):
                continue
            if self.alice and (self.bd[1][king_to] != EMPTY or self.bd[1][rook_to] != EMPTY):
                continue  # both go to board B, where their cells must be empty
            add((0, e, king_to, 0, CASTLE))

    @staticmethod
    def castle_rook(fr, to):
        """The rook's from and to cells for a castling king move fr-to."""
        if to > fr:
            return fr + 3, fr + 1
        return fr - 4, fr - 1

    def legal_moves(self):
        us = self.us
        legal = []
        for m in self.pseudo_moves():
            self.make(m)
            if not self.in_check(us):
                legal.append(m)
            self.unmake()
        return legal

    # -----------------------------------------------------------------------------------------
    # Make and unmake
    # -----------------------------------------------------------------------------------------

    def make(self, m, transfer=True):
        """Play move m. With transfer=False (Alice only, to find which moves the transfer
        makes illegal) the piece stays on the board it moved on."""
        b, fr, to, promo, flag = m
        us = self.us
        them = BOTH ^ us
        tb = 1 - b if self.alice and transfer else b  # the board the moved piece ends on
        bd, tbd = self.bd[b], self.bd[tb]
        changes = []  # (board, cell, old piece), undone in reverse order
        self.stack.append((changes, (self.castle, self.ep, self.half, self.full, self.us,
                                     self.part, self.pending, self.kings[us])))
        piece = bd[fr]
        captured = bd[to]
        changes.append((bd, fr, piece))
        bd[fr] = EMPTY
        if captured:
            changes.append((bd, to, captured))
            bd[to] = EMPTY
        if flag == EN_PASSANT:
            pawn_sq = self.ep[3]
            captured = bd[pawn_sq]
            changes.append((bd, pawn_sq, captured))
            bd[pawn_sq] = EMPTY
        elif flag == CASTLE:
            rook_from, rook_to = self.castle_rook(fr, to)
            rook = bd[rook_from]
            changes.append((bd, rook_from, rook))
            bd[rook_from] = EMPTY
            changes.append((tbd, rook_to, tbd[rook_to]))
            tbd[rook_to] = rook
        changes.append((tbd, to, tbd[to]))
        tbd[to] = promo | us if promo else piece
        if piece & 7 == KING:
            self.kings[us] = (tb, to)
        self.castle &= RIGHTS_KEPT[fr] & RIGHTS_KEPT[to]
        self.half = 0 if piece & 7 == PAWN or captured else self.half + 1
        double = (b, (fr + to) // 2, tb, to) if flag == DOUBLE else None
        if not self.marseillais:
            self.ep = double
            self.us = them
            if us == BLACK:
                self.full += 1
            return
        # Marseillais: two moves a turn, except White's first turn and a move giving check.
        if double:
            self.pending = double  # a later double step in the same turn replaces it
        if self.part == 2 or (us == WHITE and self.full == 1) or self.in_check(them):
            pending = self.pending
            # The opponent may take this turn's double step during its whole next turn,
            # as long as the pawn still stands where the double step put it.
            self.ep = pending if pending and self.bd[0][pending[3]] == PAWN | us else None
            self.pending = None
            self.part = 1
            self.us = them
            if us == BLACK:
                self.full += 1
        else:
            self.part = 2
            if self.ep and self.bd[0][self.ep[3]] != PAWN | them:
                self.ep = None  # taken en passant (used up) or taken otherwise

    def unmake(self):
        changes, state = self.stack.pop()
        for bd, sq, old in reversed(changes):
            bd[sq] = old
        (self.castle, self.ep, self.half, self.full, self.us, self.part, self.pending,
         king) = state
        self.kings[self.us] = king

    def play(self, text):
        """Play a legal move given as text; raises ValueError when it is not legal."""
        for m in self.legal_moves():
            if self.move_text(m) == text:
                self.make(m)
                return m
        raise ValueError("'%s' is not a legal move in %s" % (text, self.fen()))

    # -----------------------------------------------------------------------------------------
    # Counting and special rules
    # -----------------------------------------------------------------------------------------

    def perft(self, depth):
        if depth == 0:
            return 1
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        nodes = 0
        for m in moves:
            self.make(m)
            nodes += self.perft(depth - 1)
            self.unmake()
        return nodes

    def special_rules(self):
        """The special rules that apply at this position, as a set of names."""
        found = set()
        us, them = self.us, BOTH ^ self.us
        legal = self.legal_moves()
        for m in legal:
            if m[4] == CASTLE:
                found.add("castle")
            elif m[4] == EN_PASSANT:
                found.add("en-passant")
            if m[3]:
                found.add("promotion")
        if self.marseillais and self.part == 1:
            for m in legal:
                self.make(m)
                check = self.in_check(them)
                self.unmake()
                if check:
                    found.add("check-ends-turn")
                    break
        if self.alice:
            for m in self.pseudo_moves():
                if m in legal:
                    continue
                self.make(m, transfer=False)
                fine_without_transfer = not self.in_check(us)
                self.unmake()
                if fine_without_transfer:
                    found.add("transfer-into-check")
                    break
        return found


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------

SPECIAL_RULES = ("castle", "en-passant", "promotion", "transfer-into-check", "check-ends-turn")


def random_positions(game, count, plies, seed, special=None):
    """Positions from random play: each game plays uniformly random legal moves for `plies`
    moves or until it ends. Without `special` the last position of each game is given; with
    it ("any" or one of SPECIAL_RULES), one position (chosen at random) among those of the
    game where that special rule applies, playing further games when one has none."""
    rng = random.Random(seed)
    out = []
    misses = 0
    while len(out) < count:
        pos = Position(game)
        candidates = []
        for _ in range(plies):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.make(rng.choice(moves))
            if special:
                found = pos.special_rules()
                if found if special == "any" else special in found:
                    candidates.append(pos.fen())
        if not special:
            out.append(pos.fen())
        elif candidates:
            out.append(rng.choice(candidates))
        else:
            misses += 1
            if misses > 1000 + 100 * count:
                raise ValueError("no position where %s applies in %d games of %d plies"
                                 % ("a special rule" if special == "any" else special,
                                    misses, plies))
    return out


def main(argv):
    parser = argparse.ArgumentParser(
        prog="chess29.py", description="Reference move generator (%s)." % ", ".join(GAMES))
    parser.add_argument("game", choices=GAMES)
    sub = parser.add_subparsers(dest="command", required=True)
    p_perft = sub.add_parser("perft", help="count the move paths of DEPTH moves")
    p_perft.add_argument("depth", type=int)
    p_perft.add_argument("--fen")
    p_perft.add_argument("--divide", action="store_true", help="the count after each root move")
    p_moves = sub.add_parser("moves", help="the legal moves, one per line")
    p_moves.add_argument("--fen")
    p_random = sub.add_parser("random", help="positions from random play, one per line")
    p_random.add_argument("--count", type=int, default=1)
    p_random.add_argument("--plies", type=int, default=20)
    p_random.add_argument("--seed", type=int, default=1)
    p_random.add_argument("--special", nargs="?", const="any", choices=("any",) + SPECIAL_RULES,
                          help="only positions where a special rule (any, or the one named) "
                               "applies at the root")
    args = parser.parse_args(argv)
    try:
        if args.command == "random":
            if args.count < 0 or args.plies < 0:
                raise ValueError("--count and --plies must not be negative")
            for fen in random_positions(args.game, args.count, args.plies, args.seed, args.special):
                print(fen)
            return 0
        pos = Position(args.game, args.fen)
        if args.command == "moves":
            for text in sorted(pos.move_text(m) for m in pos.legal_moves()):
                print(text)
            return 0
        if args.depth < (1 if args.divide else 0):
            raise ValueError("depth must be at least %d" % (1 if args.divide else 0))
        if not args.divide:
            print("Nodes searched: %d" % pos.perft(args.depth))
            return 0
        total = 0
        lines = []
        for m in pos.legal_moves():
            pos.make(m)
            n = pos.perft(args.depth - 1)
            pos.unmake()
            total += n
            lines.append("%s: %d" % (pos.move_text(m), n))
        for line in sorted(lines):
            print(line)
        print("Nodes searched: %d" % total)
        return 0
    except ValueError as err:
        print("chess29.py: error: %s" % err, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
