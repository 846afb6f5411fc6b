#!/usr/bin/env python3
"""Reference move generator for tic-tac-toe, Connect Four, gomoku, Hex, Nine Men's Morris,
brandubh and hnefatafl.

It is written from the rules of these games as fixed for the comparison (README-games28 sums
them up), not from Varia's rule files, so that its move lists, perft figures and positions can
be compared with what those rule files produce.

  games28.py GAME perft DEPTH [--fen TEXT] [--divide] [--swap]
  games28.py GAME moves [--fen TEXT] [--swap]
  games28.py GAME random --count N --plies P --seed S [--special [RULE]] [--swap]

GAME is tictactoe, connect4, gomoku, hex, morris, brandubh or hnefatafl. Standard library only.

Every game is a class with the same interface:
  legal_moves()   the legal moves (none once the game has ended)
  make(m)         play a move; unmake() takes the last one back
  move_text(m)    the move as written in the comparison format
  text()          the position as written in the comparison format
  result()        None while the game goes on, else a sentence saying how it ended
  special(rule)   whether a rule of interest applies at the root (for `random --special`)
"""

import argparse
import random
import sys

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def cell_name(x, y):
    """Cell (file x, rank y), both from 0: `a1` is (0, 0)."""
    return LETTERS[x] + str(y + 1)


def parse_cell_name(text, width, height):
    """(x, y) of a cell name such as `h8`, or ValueError."""
    if len(text) < 2 or text[0] not in LETTERS[:width] or not text[1:].isdigit() \
            or text[1] == "0" or not 1 <= int(text[1:]) <= height:
        raise ValueError("bad cell '%s' (files a-%s, ranks 1-%d)"
                         % (text, LETTERS[width - 1], height))
    return LETTERS.index(text[0]), int(text[1:]) - 1


def parse_rows(text, width, height, pieces):
    """Read a FEN-like placement: rows from the top rank down, separated by `/`, letters from
    `pieces`, decimal numbers for runs of empty cells. Returns {(x, y): letter}."""
    rows = text.split("/")
    if len(rows) != height:
        raise ValueError("the placement needs %d rows separated by '/', got %d"
                         % (height, len(rows)))
    found = {}
    for i, row in enumerate(rows):
        y = height - 1 - i
        x = 0
        j = 0
        while j < len(row):
            ch = row[j]
            if ch.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                run = int(row[j:k])
                if run == 0 or row[j] == "0":
                    raise ValueError("row %d: bad empty run '%s'" % (i + 1, row[j:k]))
                x += run
                j = k
                continue
            if ch not in pieces:
                raise ValueError("row %d: unknown piece '%s' (expected one of '%s' or a digit)"
                                 % (i + 1, ch, pieces))
            if x < width:
                found[(x, y)] = ch
            x += 1
            j += 1
        if x != width:
            raise ValueError("row %d ('%s') covers %d cells, not %d" % (i + 1, row, x, width))
    return found


def write_rows(width, height, letter_at):
    """The inverse of parse_rows: letter_at(x, y) gives a letter or '' for an empty cell."""
    rows = []
    for y in range(height - 1, -1, -1):
        out, run = "", 0
        for x in range(width):
            ch = letter_at(x, y)
            if ch:
                if run:
                    out += str(run)
                    run = 0
                out += ch
            else:
                run += 1
        if run:
            out += str(run)
        rows.append(out)
    return "/".join(rows)


def split_fields(text, count, what):
    fields = text.split()
    if len(fields) != count:
        raise ValueError("%s position text has %d fields, not %d: '%s'"
                         % (what, len(fields), count, text))
    return fields


# =============================================================================================
# Tic-tac-toe, Connect Four, gomoku: stones placed (or dropped) on a grid, N in a row wins.
# =============================================================================================

class LineGame:
    """A board of width x height cells, index = y * width + x. Two players place stones in turn;
    a line of `need` or more of one player's stones (row, column or diagonal) wins at once, a
    full board without one is a draw. With `gravity` a move names a column and the stone lands
    on its lowest empty cell."""

    def __init__(self, name, width, height, need, gravity, stones, text=None):
        self.name, self.width, self.height, self.need = name, width, height, need
        self.gravity = gravity
        self.stones = stones  # the two players' letters, first player first
        size = width * height
        # For each cell and each of the four line directions, the cells that follow it one way
        # and the other, at most need-1 each: a line through the cell is counted along them.
        self.rays = []
        for c in range(size):
            x, y = c % width, c // width
            lines = []
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                both = []
                for sign in (1, -1):
                    ray = []
                    for k in range(1, need):
                        nx, ny = x + sign * k * dx, y + sign * k * dy
                        if not (0 <= nx < width and 0 <= ny < height):
                            break
                        ray.append(ny * width + nx)
                    both.append(ray)
                lines.append(both)
            self.rays.append(lines)
        if text is None:
            text = "/".join([str(width)] * height) + " " + stones[0]
        self.set_text(text)

    def set_text(self, text):
        placement, side = split_fields(text, 2, self.name)
        found = parse_rows(placement, self.width, self.height, self.stones)
        if side not in self.stones:
            raise ValueError("side to move '%s' is not '%s' or '%s'"
                             % (side, self.stones[0], self.stones[1]))
        self.board = [0] * (self.width * self.height)  # 0 empty, 1 first player, 2 second
        for (x, y), ch in found.items():
            self.board[y * self.width + x] = 1 + self.stones.index(ch)
        self.side = 1 + self.stones.index(side)
        self.heights = [0] * self.width  # Connect Four: the discs in each column
        if self.gravity:
            for x in range(self.width):
                h = 0
                while h < self.height and self.board[h * self.width + x]:
                    h += 1
                if any(self.board[y * self.width + x] for y in range(h, self.height)):
                    raise ValueError("column %s has a disc above an empty cell" % LETTERS[x])
                self.heights[x] = h
        self.empties = self.board.count(0)
        # The winner if a line is already on the board (a line of each player is refused).
        winners = {self.board[c] for c in range(len(self.board))
                   if self.board[c] and self.line_through(c)}
        if len(winners) > 1:
            raise ValueError("both players have %d in a row" % self.need)
        self.winner = winners.pop() if winners else 0
        self.history = []

    def line_through(self, c):
        """Whether the stone on c is part of `need` or more in a row."""
        board, who = self.board, self.board[c]
        for forward, backward in self.rays[c]:
            n = 1
            for d in forward:
                if board[d] != who:
                    break
                n += 1
            for d in backward:
                if board[d] != who:
                    break
                n += 1
            if n >= self.need:
                return True
        return False

    def result(self):
        if self.winner:
            return "%s has %d in a row" % (self.stones[self.winner - 1], self.need)
        if self.empties == 0:
            return "the board is full: a draw"
        return None

    def legal_moves(self):
        """Moves are cell indexes (Connect Four: column indexes)."""
        if self.winner or self.empties == 0:
            return []
        if self.gravity:
            return [x for x in range(self.width) if self.heights[x] < self.height]
        board = self.board
        return [c for c in range(len(board)) if not board[c]]

    def make(self, m):
        if self.gravity:
            c = self.heights[m] * self.width + m
            self.heights[m] += 1
        else:
            c = m
        self.board[c] = self.side
        self.empties -= 1
        self.history.append(c)
        if self.line_through(c):
            self.winner = self.side
        self.side = 3 - self.side

    def unmake(self):
        c = self.history.pop()
        self.side = 3 - self.side
        self.board[c] = 0
        self.empties += 1
        self.winner = 0  # a move is only ever made while nobody has won
        if self.gravity:
            self.heights[c % self.width] -= 1

    def move_text(self, m):
        if self.gravity:
            return LETTERS[m]
        return cell_name(m % self.width, m // self.width)

    def text(self):
        w, stones, board = self.width, self.stones, self.board
        rows = write_rows(w, self.height,
                          lambda x, y: stones[board[y * w + x] - 1] if board[y * w + x] else "")
        return rows + " " + stones[self.side - 1]

    SPECIALS = ()

    def special(self, rule):
        return False


# =============================================================================================
# Hex: an 11x11 rhombus, Black joins rank 1 to rank 11, White file a to file k.
# =============================================================================================

SWAP = -1  # the swap move


class Hex:
    name = "hex"
    size = 11
    SPECIALS = ("swap",)

    def __init__(self, text=None, swap_rule=False):
        n = self.size
        # Cell (x, y) touches (x+-1, y), (x, y+-1), (x+1, y-1) and (x-1, y+1).
        self.neighbours = []
        for c in range(n * n):
            x, y = c % n, c // n
            near = []
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
                if 0 <= x + dx < n and 0 <= y + dy < n:
                    near.append((y + dy) * n + x + dx)
            self.neighbours.append(near)
        self.swap_rule = swap_rule
        if text is None:
            text = "/".join([str(n)] * n) + " b " + ("1" if swap_rule else "0")
        self.set_text(text)

    def set_text(self, text):
        n = self.size
        fields = text.split()
        if len(fields) == 2:  # no swap field: the swap is possible where the rule allows it
            fields.append("?")
        if len(fields) != 3:
            raise ValueError("hex position text has %d fields, not 3 (rows, side, swap 1/0): '%s'"
                             % (len(fields), text))
        placement, side, swap = fields
        found = parse_rows(placement, n, n, "bw")
        if side not in ("b", "w"):
            raise ValueError("side to move '%s' is not 'b' or 'w'" % side)
        self.board = [0] * (n * n)  # 0 empty, 1 black, 2 white
        for (x, y), ch in found.items():
            self.board[y * n + x] = 1 if ch == "b" else 2
        self.side = 1 if side == "b" else 2
        blacks, whites = self.board.count(1), self.board.count(2)
        # The swap is still possible on the empty board with Black to move, and with one black
        # stone and White to move (the second player's first move).
        eligible = (blacks, whites, self.side) in ((0, 0, 1), (1, 0, 2))
        if swap == "?":
            self.swap = 1 if self.swap_rule and eligible else 0
        elif swap in ("0", "1"):
            self.swap = int(swap)
            if self.swap and not eligible:
                raise ValueError("swap field is 1, but the swap is possible only on the empty "
                                 "board (Black to move) or with one black stone (White to move)")
        else:
            raise ValueError("swap field '%s' is not 1 or 0" % swap)
        self.stones = [0, blacks, whites]  # by player, to skip the chain test while too few
        self.winner = 0
        for who in (1, 2):
            if self.connected_from_edge(who):
                if self.winner:
                    raise ValueError("both players have a connecting chain")
                self.winner = who
        self.history = []

    def touches(self, who, x, y):
        """Which of who's two edges (bit 1: the first, bit 2: the second) cell (x, y) lies on."""
        k = y if who == 1 else x
        return (1 if k == 0 else 0) | (2 if k == self.size - 1 else 0)

    def chain_edges(self, start):
        """The edges (bits as in touches) reached by the chain of same-coloured stones through
        start."""
        n, board, who = self.size, self.board, self.board[start]
        seen = {start}
        todo = [start]
        edges = 0
        while todo:
            c = todo.pop()
            edges |= self.touches(who, c % n, c // n)
            for d in self.neighbours[c]:
                if board[d] == who and d not in seen:
                    seen.add(d)
                    todo.append(d)
        return edges

    def connected_from_edge(self, who):
        n = self.size
        for i in range(n):
            c = i if who == 1 else i * n  # rank 1 cells for Black, file a cells for White
            if self.board[c] == who and self.chain_edges(c) == 3:
                return True
        return False

    def result(self):
        if self.winner:
            return "%s has connected its edges" % ("Black" if self.winner == 1 else "White")
        return None  # a full board always holds a chain, so there is no other ending

    def legal_moves(self):
        if self.winner:
            return []
        board = self.board
        moves = [c for c in range(len(board)) if not board[c]]
        if self.swap and self.side == 2:
            moves.append(SWAP)
        return moves

    def make(self, m):
        n = self.size
        if m == SWAP:
            black = self.board.index(1)
            mirror = (black % n) * n + black // n  # (x, y) -> (y, x)
            self.board[black] = 0
            self.board[mirror] = 2
            self.history.append((m, black, self.swap))
            self.swap = 0
            self.side = 1
            return
        self.history.append((m, None, self.swap))
        if self.side == 2:
            self.swap = 0  # White's first move has been made: the chance to swap is gone
        self.board[m] = self.side
        # A chain needs a stone on each of the 11 ranks (or files): test only from then on.
        self.stones[self.side] += 1
        if self.stones[self.side] >= n and self.chain_edges(m) == 3:
            self.winner = self.side
        self.side = 3 - self.side

    def unmake(self):
        m, black, swap = self.history.pop()
        self.swap = swap
        self.side = 3 - self.side
        if m == SWAP:
            n = self.size
            self.board[(black % n) * n + black // n] = 0
            self.board[black] = 1
            self.side = 2
            return
        self.board[m] = 0
        self.stones[self.side] -= 1
        self.winner = 0

    def move_text(self, m):
        if m == SWAP:
            return "swap"
        return cell_name(m % self.size, m // self.size)

    def text(self):
        n, board = self.size, self.board
        rows = write_rows(n, n, lambda x, y: " bw"[board[y * n + x]].strip())
        return "%s %s %d" % (rows, "b" if self.side == 1 else "w", self.swap)

    def special(self, rule):
        return SWAP in self.legal_moves()


# =============================================================================================
# Nine Men's Morris
# =============================================================================================

MORRIS_POINTS = ("a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7"
                 .split())
MORRIS_LINES = ("a1-d1-g1 b2-d2-f2 c3-d3-e3 a4-b4-c4 e4-f4-g4 c5-d5-e5 b6-d6-f6 a7-d7-g7 "
                "a1-a4-a7 b2-b4-b6 c3-c4-c5 d1-d2-d3 d5-d6-d7 e3-e4-e5 f2-f4-f6 g1-g4-g7").split()


def morris_order(name):
    """Points are written by file, then rank: a1, a4, a7, b2, ..."""
    return (name[0], int(name[1:]))


class Morris:
    name = "morris"
    SPECIALS = ("mill", "flying")
    MEN = 9

    def __init__(self, text=None):
        index = {p: i for i, p in enumerate(MORRIS_POINTS)}
        self.index = index
        self.mills = [tuple(index[p] for p in line.split("-")) for line in MORRIS_LINES]
        # The mills through each point (two each), as the other two points of the line.
        self.mills_at = [[] for _ in MORRIS_POINTS]
        self.adjacent = [set() for _ in MORRIS_POINTS]
        for a, b, c in self.mills:
            self.mills_at[a].append((b, c))
            self.mills_at[b].append((a, c))
            self.mills_at[c].append((a, b))
            self.adjacent[a].add(b)
            self.adjacent[b].update((a, c))
            self.adjacent[c].add(b)
        self.adjacent = [sorted(s) for s in self.adjacent]
        self.set_text("/ w 9 9" if text is None else text)

    def set_text(self, text):
        placement, side, white_hand, black_hand = split_fields(text, 4, "morris")
        if placement.count("/") != 1:
            raise ValueError("morris placement '%s' needs the white points, '/', the black points"
                             % placement)
        self.board = [0] * len(MORRIS_POINTS)  # 0 empty, 1 white, 2 black
        for who, part in zip((1, 2), placement.split("/")):
            for name in part.split(",") if part else []:
                if name not in self.index:
                    raise ValueError("'%s' is not a point of the morris board" % name)
                if self.board[self.index[name]]:
                    raise ValueError("point %s is given twice" % name)
                self.board[self.index[name]] = who
        if side not in ("w", "b"):
            raise ValueError("side to move '%s' is not 'w' or 'b'" % side)
        self.side = 1 if side == "w" else 2
        self.hand = [0, 0, 0]  # indexed by player 1 and 2
        for who, field in ((1, white_hand), (2, black_hand)):
            if not field.isdigit() or int(field) > self.MEN:
                raise ValueError("men in hand '%s' is not a number from 0 to %d"
                                 % (field, self.MEN))
            self.hand[who] = int(field)
            if self.hand[who] + self.board.count(who) > self.MEN:
                raise ValueError("%s has more than %d men"
                                 % (("white", "black")[who - 1], self.MEN))
        self.history = []

    def in_mill(self, p):
        """Whether the man on p is part of a line of three of its colour."""
        who, board = self.board[p], self.board
        return any(board[a] == who and board[b] == who for a, b in self.mills_at[p])

    def lost(self):
        """The player who has lost on men (fewer than 3 on board and in hand), or 0."""
        for who in (1, 2):
            if self.board.count(who) + self.hand[who] < 3:
                return who
        return 0

    def result(self):
        loser = self.lost()
        if loser:
            return "%s has fewer than 3 men and loses" % ("white", "black")[loser - 1]
        if not self.legal_moves():
            return "%s has no legal move and loses" % ("white", "black")[self.side - 1]
        return None

    def flying(self):
        return self.hand[self.side] == 0 and self.board.count(self.side) == 3

    def steps(self):
        """The (from, to) pairs before removals; from is None for a placement."""
        board, us = self.board, self.side
        empty = [p for p in range(len(board)) if not board[p]]
        if self.hand[us]:
            return [(None, p) for p in empty]
        mine = [p for p in range(len(board)) if board[p] == us]
        if len(mine) == 3:
            return [(f, t) for f in mine for t in empty]
        return [(f, t) for f in mine for t in self.adjacent[f] if not board[t]]

    def legal_moves(self):
        """Moves are (from or None, to, removed point or None)."""
        if self.lost():
            return []
        board, us, them = self.board, self.side, 3 - self.side
        moves = []
        for f, t in self.steps():
            if f is not None:
                board[f] = 0
            board[t] = us
            if self.in_mill(t):
                enemies = [p for p in range(len(board)) if board[p] == them]
                free = [p for p in enemies if not self.in_mill(p)]
                targets = free or enemies
                if targets:
                    moves.extend((f, t, r) for r in targets)
                else:  # no enemy man on the board: the mill takes nothing
                    moves.append((f, t, None))
            else:
                moves.append((f, t, None))
            board[t] = 0
            if f is not None:
                board[f] = us
        return moves

    def make(self, m):
        f, t, r = m
        us = self.side
        if f is None:
            self.hand[us] -= 1
        else:
            self.board[f] = 0
        self.board[t] = us
        if r is not None:
            self.board[r] = 0
        self.history.append(m)
        self.side = 3 - us

    def unmake(self):
        f, t, r = self.history.pop()
        self.side = us = 3 - self.side
        if r is not None:
            self.board[r] = 3 - us
        self.board[t] = 0
        if f is None:
            self.hand[us] += 1
        else:
            self.board[f] = us

    def move_text(self, m):
        f, t, r = m
        out = MORRIS_POINTS[t] if f is None else MORRIS_POINTS[f] + "-" + MORRIS_POINTS[t]
        return out + ("x" + MORRIS_POINTS[r] if r is not None else "")

    def text(self):
        parts = []
        for who in (1, 2):
            names = [MORRIS_POINTS[p] for p in range(len(self.board)) if self.board[p] == who]
            parts.append(",".join(sorted(names, key=morris_order)))
        return "%s %s %d %d" % ("/".join(parts), "w" if self.side == 1 else "b",
                                self.hand[1], self.hand[2])

    def special(self, rule):
        if rule in ("flying", "any") and not self.lost() and self.flying() \
                and self.legal_moves():
            return True
        if rule in ("mill", "any"):
            for f, t, r in self.legal_moves():
                if r is not None:
                    return True
        return False


# =============================================================================================
# Tafl: brandubh (7x7) and hnefatafl (11x11, Copenhagen without edge forts)
# =============================================================================================

EMPTY, ATTACKER, DEFENDER, KING, OFF = 0, 1, 2, 3, 4
TAFL_LETTERS = ".adk"
ATTACKERS, DEFENDERS = 0, 1  # the sides
OWN = ({ATTACKER}, {DEFENDER, KING})  # OWN[side]: the pieces of that side


class Tafl:
    """The board has a border of OFF cells: index = (y + 1) * (n + 2) + x + 1."""

    def __init__(self, name, n, start_text, text=None):
        self.name, self.n = name, n
        self.big = name == "hnefatafl"  # king taken on four sides only; shieldwall
        self.SPECIALS = ("capture", "throne") + (("shieldwall",) if self.big else ())
        w = n + 2
        self.w = w
        self.dirs = (1, -1, w, -w)
        mid = n // 2
        self.throne = self.sq(mid, mid)
        self.corners = {self.sq(0, 0), self.sq(n - 1, 0), self.sq(0, n - 1), self.sq(n - 1, n - 1)}
        self.near_throne = {self.throne + d for d in self.dirs}
        # For each edge cell that is not a corner: the direction towards the inside and the two
        # directions along the edge (for the shieldwall).
        self.edge = {}
        for x in range(n):
            for y in range(n):
                s = self.sq(x, y)
                if s in self.corners:
                    continue
                if y == 0:
                    self.edge[s] = (w, (1, -1))
                elif y == n - 1:
                    self.edge[s] = (-w, (1, -1))
                elif x == 0:
                    self.edge[s] = (1, (w, -w))
                elif x == n - 1:
                    self.edge[s] = (-1, (w, -w))
        self.set_text(start_text if text is None else text)

    def sq(self, x, y):
        return (y + 1) * self.w + x + 1

    def xy(self, s):
        return s % self.w - 1, s // self.w - 1

    def name_of(self, s):
        return cell_name(*self.xy(s))

    def set_text(self, text):
        n = self.n
        placement, side = split_fields(text, 2, self.name)
        found = parse_rows(placement, n, n, "adk")
        if side not in ("a", "d"):
            raise ValueError("side to move '%s' is not 'a' or 'd'" % side)
        self.board = [OFF] * (self.w * self.w)
        for x in range(n):
            for y in range(n):
                self.board[self.sq(x, y)] = EMPTY
        kings = []
        for (x, y), ch in found.items():
            s = self.sq(x, y)
            piece = TAFL_LETTERS.index(ch)
            if piece != KING and (s == self.throne or s in self.corners):
                raise ValueError("only the king may stand on %s" % self.name_of(s))
            self.board[s] = piece
            if piece == KING:
                kings.append(s)
        if len(kings) > 1:
            raise ValueError("more than one king")
        self.king = kings[0] if kings else None  # None: the king has been captured
        self.side = ATTACKERS if side == "a" else DEFENDERS
        self.history = []

    # --- moves --------------------------------------------------------------------------------

    def hostile(self, s, side):
        """Whether cell s closes a capture made by `side`: a piece of that side, a corner, or the
        throne when it is empty."""
        v = self.board[s]
        return v in OWN[side] or s in self.corners or (s == self.throne and v == EMPTY)

    def king_taken(self, k):
        """Whether the king on k is surrounded: each of its four neighbours an attacker or the
        throne (empty, since the king is not on it)."""
        board = self.board
        for d in self.dirs:
            s = k + d
            if not (board[s] == ATTACKER or s == self.throne):
                return False
        return True

    def captures(self, to, side):
        """The enemy cells taken by a piece of `side` that has just arrived on `to` (the board
        already shows it there), sorted by file, then rank."""
        board, taken = self.board, set()
        for d in self.dirs:
            e = to + d
            v = board[e]
            if v == EMPTY or v == OFF or v in OWN[side]:
                continue
            if v == KING:
                # Surrounded on four sides (the throne counting as one) if on or next to the
                # throne, or always in hnefatafl; otherwise in brandubh taken like any piece.
                if self.big or e == self.throne or e in self.near_throne:
                    if self.king_taken(e):
                        taken.add(e)
                elif self.hostile(e + d, side):
                    taken.add(e)
            elif self.hostile(e + d, side):
                taken.add(e)
        if self.big and to in self.edge:
            taken |= self.shieldwall(to, side)
        return sorted(taken, key=lambda s: self.xy(s))

    def shieldwall(self, to, side):
        """Rows of two or more enemy pieces along the edge, starting next to `to`, closed at the
        far end by a piece of `side` or a corner, each with a piece of `side` in front of it:
        every piece of such a row but the king is taken."""
        board, taken = self.board, set()
        inward, along = self.edge[to]
        mine = OWN[side]
        for a in along:
            row = []
            s = to + a
            while board[s] in OWN[1 - side]:
                row.append(s)
                s += a
            if len(row) >= 2 and (board[s] in mine or s in self.corners) \
                    and all(board[r + inward] in mine for r in row):
                taken.update(r for r in row if board[r] != KING)
        return taken

    def wall_captures(self, m):
        """The cells a move takes by the shieldwall rule alone (for --special)."""
        f, to, taken = m
        if not (self.big and to in self.edge):
            return set()
        piece = self.board[f]
        self.board[f], self.board[to] = EMPTY, piece
        wall = self.shieldwall(to, self.side)
        self.board[to], self.board[f] = EMPTY, piece
        return wall

    def ended(self):
        return self.king is None or self.king in self.corners

    def result(self):
        if self.king is None:
            return "the king is captured: the attackers win"
        if self.king in self.corners:
            return "the king has escaped: the defenders win"
        if not self.legal_moves():
            return "the %s have no legal move and lose" % ("attackers", "defenders")[self.side]
        return None

    def legal_moves(self):
        """Moves are (from, to, taken cells)."""
        if self.ended():
            return []
        board, side, throne, corners = self.board, self.side, self.throne, self.corners
        moves = []
        for f in range(len(board)):
            piece = board[f]
            if piece not in OWN[side]:
                continue
            king = piece == KING
            board[f] = EMPTY
            for d in self.dirs:
                t = f + d
                while board[t] == EMPTY:
                    # Only the king stops on the throne or a corner; others pass the empty throne.
                    if king or not (t == throne or t in corners):
                        board[t] = piece
                        moves.append((f, t, self.captures(t, side)))
                        board[t] = EMPTY
                    t += d
            board[f] = piece
        return moves

    def make(self, m):
        f, t, taken = m
        board = self.board
        piece = board[f]
        lost = [(s, board[s]) for s in taken]
        for s in taken:
            board[s] = EMPTY
        board[f], board[t] = EMPTY, piece
        self.history.append((m, lost, self.king))
        if piece == KING:
            self.king = t
        elif any(v == KING for _, v in lost):
            self.king = None
        self.side = 1 - self.side

    def unmake(self):
        (f, t, taken), lost, king = self.history.pop()
        board = self.board
        board[f], board[t] = board[t], EMPTY
        for s, v in lost:
            board[s] = v
        self.king = king
        self.side = 1 - self.side

    def move_text(self, m):
        f, t, taken = m
        out = self.name_of(f) + "-" + self.name_of(t)
        if taken:
            out += "x" + ",".join(self.name_of(s) for s in taken)
        return out

    def text(self):
        board = self.board
        rows = write_rows(self.n, self.n,
                          lambda x, y: TAFL_LETTERS[board[self.sq(x, y)]].strip("."))
        return rows + " " + "ad"[self.side]

    def special(self, rule):
        if self.ended():
            return False
        if rule in ("throne", "any") and self.king in self.near_throne:
            return True
        if rule in ("capture", "any") and any(m[2] for m in self.legal_moves()):
            return True
        if rule in ("shieldwall", "any") and self.big:
            # Only a move onto the edge that takes two or more can be a shieldwall capture.
            for m in self.legal_moves():
                if len(m[2]) >= 2 and m[1] in self.edge and self.wall_captures(m):
                    return True
        return False


BRANDUBH_START = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a"
HNEFATAFL_START = ("3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a")


def new_game(name, text=None, swap=False):
    if name == "tictactoe":
        return LineGame(name, 3, 3, 3, False, "xo", text)
    if name == "connect4":
        return LineGame(name, 7, 6, 4, True, "ry", text)
    if name == "gomoku":
        return LineGame(name, 15, 15, 5, False, "bw", text)
    if name == "hex":
        return Hex(text, swap)
    if name == "morris":
        return Morris(text)
    if name == "brandubh":
        return Tafl(name, 7, BRANDUBH_START, text)
    if name == "hnefatafl":
        return Tafl(name, 11, HNEFATAFL_START, text)
    raise ValueError("unknown game '%s' (one of %s)" % (name, ", ".join(GAMES)))


GAMES = ("tictactoe", "connect4", "gomoku", "hex", "morris", "brandubh", "hnefatafl")


# =============================================================================================
# Commands
# =============================================================================================

def perft(pos, depth):
    """The number of move sequences of `depth` legal moves from pos."""
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        pos.make(m)
        total += perft(pos, depth - 1)
        pos.unmake()
    return total


def divide(pos, depth):
    """{move text: perft(depth - 1) after it} for each legal move (depth >= 1)."""
    out = {}
    for m in pos.legal_moves():
        pos.make(m)
        out[pos.move_text(m)] = perft(pos, depth - 1)
        pos.unmake()
    return out


def random_position(game, swap, plies, rng):
    """Play up to `plies` uniformly random legal moves from the start (fewer if the game
    ends) and return the position reached."""
    pos = new_game(game, None, swap)
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.make(rng.choice(moves))
    return pos


def random_special(game, swap, plies, rng, rule, tries):
    """A position of a random game (up to `plies` plies) where `rule` applies at the root,
    picked at random among those of the first game that has any."""
    for _ in range(tries):
        pos = new_game(game, None, swap)
        found = []
        for ply in range(plies + 1):
            if pos.special(rule):
                found.append(pos.text())
            moves = pos.legal_moves()
            if ply == plies or not moves:
                break
            pos.make(rng.choice(moves))
        if found:
            return rng.choice(found)
    return None


def main(argv):
    parser = argparse.ArgumentParser(
        prog="games28.py",
        description="Reference move generator for tictactoe, connect4, gomoku, hex, morris, "
                    "brandubh and hnefatafl.")
    parser.add_argument("game", help="one of " + ", ".join(GAMES))
    parser.add_argument("command", choices=("perft", "moves", "random"))
    parser.add_argument("depth", nargs="?", help="perft depth")
    parser.add_argument("--fen", help="position text (the start position if left out)")
    parser.add_argument("--divide", action="store_true", help="perft: count each root move")
    parser.add_argument("--swap", action="store_true", help="hex: play with the swap rule")
    parser.add_argument("--count", type=int, help="random: how many positions")
    parser.add_argument("--plies", type=int, help="random: plies per game (at most)")
    parser.add_argument("--seed", type=int, help="random: seed")
    parser.add_argument("--special", nargs="?", const="any", metavar="RULE",
                        help="random: keep positions where a rule of interest applies at the "
                             "root (morris: mill, flying; brandubh: capture, throne; hnefatafl: "
                             "capture, throne, shieldwall; hex: swap)")
    parser.add_argument("--tries", type=int, default=2000,
                        help="random --special: games tried per position before giving up")
    args = parser.parse_args(argv)

    if args.game not in GAMES:
        parser.error("unknown game '%s' (one of %s)" % (args.game, ", ".join(GAMES)))
    if args.swap and args.game != "hex":
        parser.error("--swap is for hex only")
    if args.command == "perft":
        if args.depth is None or not args.depth.isdigit():
            parser.error("perft needs a depth, a whole number >= 0 (got %r)" % args.depth)
    elif args.depth is not None:
        parser.error("unexpected argument '%s'" % args.depth)
    if args.command != "random":
        for opt in ("count", "plies", "seed", "special"):
            if getattr(args, opt) is not None:
                parser.error("--%s is for the random command" % opt)
    if args.divide and args.command != "perft":
        parser.error("--divide is for the perft command")

    try:
        if args.command == "random":
            if args.fen is not None:
                parser.error("random plays from the start position: --fen does not apply")
            for opt in ("count", "plies", "seed"):
                if getattr(args, opt) is None:
                    parser.error("random needs --%s" % opt)
            if args.count < 0 or args.plies < 0:
                parser.error("--count and --plies must be >= 0")
            rng = random.Random(args.seed)
            specials = new_game(args.game, None, args.swap).SPECIALS
            rule = args.special
            if rule is not None:
                if not specials:
                    parser.error("%s has no special rules for --special" % args.game)
                if rule != "any" and rule not in specials:
                    parser.error("unknown rule '%s' for %s (one of %s)"
                                 % (rule, args.game, ", ".join(specials)))
                if args.game == "hex" and not args.swap:
                    parser.error("hex --special looks for the swap: add --swap")
            for i in range(args.count):
                if rule is None:
                    pos = random_position(args.game, args.swap, args.plies, rng)
                    text = pos.text()
                else:
                    text = random_special(args.game, args.swap, args.plies, rng, rule, args.tries)
                    if text is None:
                        raise ValueError("no position where '%s' applies in %d games of %d plies"
                                         % (rule, args.tries, args.plies))
                    pos = new_game(args.game, text, args.swap)
                ending = pos.result()
                if ending:
                    print("games28.py: note: position %d has ended: %s" % (i + 1, ending),
                          file=sys.stderr)
                print(text)
            return 0

        pos = new_game(args.game, args.fen, args.swap)
        if args.command == "moves":
            for text in sorted(pos.move_text(m) for m in pos.legal_moves()):
                print(text)
            return 0
        depth = int(args.depth)
        if args.divide and depth > 0:
            counts = divide(pos, depth)
            for text in sorted(counts):
                print("%s: %d" % (text, counts[text]))
            print("Nodes searched: %d" % sum(counts.values()))
        else:
            print("Nodes searched: %d" % perft(pos, depth))
        return 0
    except ValueError as err:
        print("games28.py: error: %s" % err, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
