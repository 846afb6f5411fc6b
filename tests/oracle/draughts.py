#!/usr/bin/env python3
"""Reference move generator for four draughts games, used as a test oracle.

Written from the rules of the games alone, independently of the rule files,
so that a disagreement between the two points at a mistake in one of them.

Games
  checkers       English draughts / American checkers, 8x8.  Black moves
                 first from 1-12, White from 21-32.  Men move and capture
                 diagonally forward only; kings move and capture one square
                 (short jumps) in all four directions.  Capture is compulsory,
                 any capture sequence may be chosen, and it must be continued
                 to its end.  A man reaching the far row is crowned and the
                 move ends there.
  international  10x10.  White moves first from 31-50, Black from 1-20.  Men
                 move forward and capture forward and backward.  Flying kings
                 move any distance and capture a piece at any distance with
                 empty squares before it, landing on any empty square beyond.
                 Majority rule: the sequence taking the most pieces must be
                 played (kings and men count the same).  A man crowns only if
                 the move ends on the far row; passing it mid-capture does not.
  brazilian      The international rules on 8x8: White first from 21-32.
  russian        Shashki, 8x8: White first from 21-32.  Men capture backward
                 too; flying kings; no majority rule (any sequence, continued
                 to its end).  A man reaching the far row during a capture is
                 crowned at once and goes on capturing as a king.

All four games: captured pieces are taken off only when the whole sequence is
over (the Turkish strike rule).  Until then they cannot be jumped a second
time and they block the way like any piece.  The capturing piece's own start
square is empty during the sequence (it may pass over it or land on it).  A
capture must be continued while it can: where a flying king may land on
several squares beyond a piece and the capture can go on from some of them,
it must land on one of those (this matters for the Russian game; under the
majority rule it follows anyway).

Square numbering (the same layout for all boards, N = 8 or 10)
  The board is seen from White's side, with White's men at the bottom.  Each
  player has a playing (dark) square in the corner at his left hand.  Squares
  are numbered left to right, row by row from the top (the row farthest from
  White): square 1 is the second square of the top row (b8 on 8x8, b10 on
  10x10), the first square of the second row is N/2 + 1 (a7 / a9), and the
  last row holds the highest numbers, from the lower left corner a1 (29 on
  8x8, 46 on 10x10) to g1 (32) or i1 (50).
  English checkers uses this numbering with Black's men on 1-12 at the top:
  seen from Black's side square 1 is in Black's right-hand (double) corner.
  The Brazilian and Russian games number the 8x8 board the same way, seen from
  White, with White on 21-32 (Russian players usually write a1-h8: on input a
  square may also be given as a letter and a digit, a1 being White's lower
  left corner; output always uses numbers).

Position text: PDN FEN, e.g. W:W31,32,33:B1,2,K3 -- side to move, then the
  pieces of each colour, K before a king's square.  Ranges (B1-12) are
  accepted on input; output lists every square.  A side without pieces is
  written as its letter alone (W:W:B5,9 -- White has lost).
Move text: a quiet move FROM-TO; a capture FROMxTO:C1,C2,... with the
  captured squares in ascending order.

Counting duplicates
  Two capture sequences may take the same pieces from the same square to the
  same square in a different order: a man or a king going round a loop of
  four pieces clockwise or anticlockwise.  Counted merged, they are one move
  (they give the same position).  Counted as paths (--paths), each order of
  capture is a move; the places where a flying king stopped on its way along
  one line never make two moves.  When two paths are counted, each is
  written with the squares the piece landed on, FROMxL1xL2x...xTO:C1,C2,...
  (only such moves; all others keep the plain text).
  international  merged (rules: the same move by two paths counts once).
  brazilian      merged.  The figures published for Brazilian draughts were
                 announced as keeping sequences that differ only in the order
                 of capture, but the first such duplicate from the start
                 position appears at depth 8 (a man taking four round a loop
                 both ways), so depths 1-7 (7 ... 187302) are the same either
                 way; at depths 8 and 9 the published 907830 and 4431766 are
                 the merged counts (keeping paths gives 907836 and 4431847).
  russian        merged, for the same reason: the published 929899, 4570586,
                 22444032 at depths 8-10 are merged counts (paths: 929905,
                 4570667, 22450628).
  checkers       paths: the rules of English draughts do not merge them,
                 and the published figures keep them.  Duplicates need a king
                 going round a loop; from the start position the first appear
                 at depth 12, where counting paths gives the published
                 388623673 and --merge gives 388617999 (depths 1-11 are the
                 same either way).

Usage
  draughts.py GAME perft DEPTH [--fen FEN] [--divide] [--memo]
                                [--paths|--merge]
  draughts.py GAME moves [--fen FEN] [--paths|--merge]
  draughts.py GAME random --count N --plies P --seed S [--kings]
      N positions, each after P plies of uniformly random play from the start
      (fewer if the game ends); --kings keeps only positions with a king.
  draughts.py GAME check DEPTH
      perft 1..DEPTH from the start against the published figures.
"""

import argparse
import random
import signal
import sys

WHITE = 1
BLACK = -1

# A cell holds 0 (empty) or colour * kind: a man is 1, a king 2, so that
# cell * side > 0 means "a piece of the side to move".
MAN = 1
KING = 2

# Diagonal directions as (row step, column step); row 0 is the top row, the
# one farthest from White.  White's men go up (directions 0 and 1), Black's
# go down (2 and 3).
DIRECTIONS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
FORWARD = {WHITE: (0, 1), BLACK: (2, 3)}
ALL_DIRECTIONS = (0, 1, 2, 3)


class Game:
    """The rules of one game: board size, who starts, how pieces capture."""

    def __init__(self, name, size, first, black_men, white_men,
                 men_capture_backward, flying_kings, majority,
                 crown_mid_capture, count_paths):
        self.name = name
        self.size = size
        self.first = first
        self.black_men = black_men
        self.white_men = white_men
        self.men_capture_backward = men_capture_backward
        self.flying_kings = flying_kings
        self.majority = majority
        # True: a man reaching the far row during a capture is crowned at once
        # and continues as a king (Russian).  False: it stays a man until the
        # move ends (international, Brazilian; in English checkers a man can
        # capture only forward, so from the far row it can never continue and
        # the move ends there by itself).
        self.crown_mid_capture = crown_mid_capture
        self.count_paths = count_paths
        self.board = Board(size)


class Board:
    """Geometry of an N x N board: square numbers, neighbours, rays."""

    def __init__(self, size):
        self.size = size
        half = size // 2
        self.squares = size * half
        self.row = [0] * (self.squares + 1)
        self.col = [0] * (self.squares + 1)
        at = {}
        for sq in range(1, self.squares + 1):
            r, i = divmod(sq - 1, half)
            c = 2 * i + 1 if r % 2 == 0 else 2 * i
            self.row[sq], self.col[sq] = r, c
            at[(r, c)] = sq
        self.at = at
        # rays[sq][d]: the squares met going from sq in direction d, nearest
        # first.  A short step is rays[sq][d][0], a short jump lands on [1].
        self.rays = [None] * (self.squares + 1)
        for sq in range(1, self.squares + 1):
            rays = []
            for dr, dc in DIRECTIONS:
                ray = []
                r, c = self.row[sq] + dr, self.col[sq] + dc
                while 0 <= r < size and 0 <= c < size:
                    ray.append(at[(r, c)])
                    r, c = r + dr, c + dc
                rays.append(tuple(ray))
            self.rays[sq] = rays
        # The row on which a side's men are crowned.
        self.crown_row = {WHITE: 0, BLACK: size - 1}

    def square_name(self, text):
        """Square number for text (a number, or a letter and a digit)."""
        text = text.strip()
        if text.isdigit():
            sq = int(text)
            if 1 <= sq <= self.squares:
                return sq
            raise ValueError("square %s is not on the board (1-%d)"
                             % (text, self.squares))
        if len(text) >= 2 and text[0].isalpha() and text[1:].isdigit():
            c = ord(text[0].lower()) - ord('a')
            r = self.size - int(text[1:])
            if (r, c) in self.at:
                return self.at[(r, c)]
            raise ValueError("square %s is not a playing square" % text)
        raise ValueError("bad square '%s'" % text)


GAMES = {
    'checkers': lambda: Game('checkers', 8, BLACK, range(1, 13),
                             range(21, 33), men_capture_backward=False,
                             flying_kings=False, majority=False,
                             crown_mid_capture=False, count_paths=True),
    'international': lambda: Game('international', 10, WHITE, range(1, 21),
                                  range(31, 51), men_capture_backward=True,
                                  flying_kings=True, majority=True,
                                  crown_mid_capture=False, count_paths=False),
    'brazilian': lambda: Game('brazilian', 8, WHITE, range(1, 13),
                              range(21, 33), men_capture_backward=True,
                              flying_kings=True, majority=True,
                              crown_mid_capture=False, count_paths=False),
    'russian': lambda: Game('russian', 8, WHITE, range(1, 13),
                            range(21, 33), men_capture_backward=True,
                            flying_kings=True, majority=False,
                            crown_mid_capture=True, count_paths=False),
}


# Perft from the start position as published, depth 1 first, in the counting
# each game uses by default (see "Counting duplicates" above).
PUBLISHED = {
    # Aart Bik, "perft for 8x8 checkers" (2009); his generator keeps
    # duplicate capture paths.
    'checkers': [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680,
                 18391564, 85242128, 388623673],
    # Aart Bik, BikDam (duplicate captures removed).
    'international': [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961,
                      41022423, 258895763],
    # Rein Halbersma's draughts library tests, citing the Russian shashki
    # forum; they are merged counts, though the thread says duplicates were
    # kept.
    'brazilian': [7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766,
                  21560022, 105491257],
    'russian': [7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586,
                22444032, 110917189, 544770444],
}


# Hand-checked positions, one rule each: (game, FEN, counting with paths?,
# the legal moves, {move: position after it}).
SELF_TESTS = [
    # Black starts in English checkers and moves down the board.
    ('checkers', 'B:W21-32:B1-12', None,
     ['9-13', '9-14', '10-14', '10-15', '11-15', '11-16', '12-16'], {}),
    # Men capture forward only; here they just move.
    ('checkers', 'W:W18:B22,23', None, ['18-14', '18-15'], {}),
    # Short kings capture one square away, in all directions.
    ('checkers', 'W:WK18:B22,23,15', None,
     ['18x11:15', '18x25:22', '18x27:23'], {}),
    # A man crowned by a capture stops, though as a king it could go on.
    ('checkers', 'W:W10:B7,8', None, ['10x3:7'], {'10x3:7': 'B:WK3:B8'}),
    # A king round a loop of four: two paths in English checkers.
    ('checkers', 'W:WK10:B14,15,22,23', None,
     ['10x17x26x19x10:14,15,22,23', '10x19x26x17x10:14,15,22,23'], {}),
    ('checkers', 'W:WK10:B14,15,22,23', False, ['10x10:14,15,22,23'], {}),
    # A flying king lands anywhere beyond the piece it takes...
    ('international', 'W:WK46:B37', None,
     ['46x5:37', '46x10:37', '46x14:37', '46x19:37', '46x23:37', '46x28:37',
      '46x32:37'], {}),
    # ... but cannot take two pieces standing next to each other.
    ('international', 'W:WK46:B37,32', None, ['46-41'], {}),
    # Turkish strike: the piece taken first still blocks the way back.
    ('international', 'W:WK19:B14,28', None,
     ['19x5:14', '19x10:14', '19x32:28', '19x37:28', '19x41:28', '19x46:28'],
     {}),
    # Majority: the three ways of taking two are legal, 33x22:28 is not.
    ('international', 'W:W32,33:B28,19,29', None,
     ['32x14:19,28', '32x34:28,29', '33x13:19,29'], {}),
    # A man passing the far row in a capture is not crowned.
    ('international', 'W:W13:B8,7', None, ['13x11:7,8'],
     {'13x11:7,8': 'B:W11:B'}),
    # Majority on 8x8: 23x14:18 takes one only.
    ('brazilian', 'W:W22,23:B18,11,19', None,
     ['22x8:11,18', '22x24:18,19', '23x7:11,19'], {}),
    ('brazilian', 'W:W11:B7,6', None, ['11x9:6,7'], {'11x9:6,7': 'B:W9:B'}),
    # A man taking four round a loop, both ways: one move, or two paths.
    ('brazilian',
     'B:W14,15,22,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12',
     False, ['10x10:14,15,22,23'], {}),
    ('brazilian',
     'B:W14,15,22,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12',
     True, ['10x17x26x19x10:14,15,22,23', '10x19x26x17x10:14,15,22,23'], {}),
    # Russian: no majority rule, but each sequence goes on to its end (not
    # 23x16:19, which can go on to 7).
    ('russian', 'W:W22,23:B18,11,19', None,
     ['22x8:11,18', '22x24:18,19', '23x7:11,19', '23x14:18'], {}),
    # A man reaching the far row mid-capture goes on as a king.
    ('russian', 'W:W11:B7,6', None, ['11x9:6,7', '11x13:6,7'],
     {'11x9:6,7': 'B:WK9:B', '11x13:6,7': 'B:WK13:B'}),
    # The new king must land where it can take again (24, not 20).
    ('russian', 'B:W17,19,21,23,25-30,32:B1-8,11,12,13', None,
     ['13x10:17,19,26,27', '13x15:17,19,26,27'], {}),
    ('russian', 'W:WK18:B14,23', None,
     ['18x5:14', '18x9:14', '18x27:23', '18x32:23'], {}),
]


class Position:
    """Cells indexed 1..squares (index 0 unused) and the side to move."""

    __slots__ = ('cells', 'side')

    def __init__(self, cells, side):
        self.cells = cells
        self.side = side


def start_position(game):
    cells = [0] * (game.board.squares + 1)
    for sq in game.black_men:
        cells[sq] = BLACK * MAN
    for sq in game.white_men:
        cells[sq] = WHITE * MAN
    return Position(cells, game.first)


# --- Position text -----------------------------------------------------------

def parse_fen(game, text):
    """Position from PDN FEN text; raises ValueError naming the fault."""
    try:
        return _parse_fen(game, text)
    except ValueError as e:
        raise ValueError("FEN '%s': %s" % (text, e))


def _parse_fen(game, text):
    board = game.board
    fen = text.strip().strip('"').strip()
    if fen.endswith('.'):
        fen = fen[:-1]
    fields = fen.split(':')
    turn = fields[0].strip().upper()
    if turn not in ('W', 'B'):
        raise ValueError("must start with W or B (the side to move)")
    side = WHITE if turn == 'W' else BLACK
    cells = [0] * (board.squares + 1)
    seen_colours = set()
    for field in fields[1:]:
        field = field.strip()
        if not field:
            continue
        letter = field[0].upper()
        if letter not in ('W', 'B'):
            raise ValueError("piece list '%s' must start with W or B" % field)
        if letter in seen_colours:
            raise ValueError("two piece lists for %s" % letter)
        seen_colours.add(letter)
        colour = WHITE if letter == 'W' else BLACK
        if not field[1:].strip():
            continue  # a side without pieces
        for item in field[1:].split(','):
            item = item.strip()
            if not item:
                raise ValueError("empty square in '%s'" % field)
            kind = MAN
            if item[0] in 'Kk':
                kind = KING
                item = item[1:]
            if '-' in item:
                lo, hi = item.split('-', 1)
                lo, hi = board.square_name(lo), board.square_name(hi)
                if lo > hi:
                    raise ValueError("empty range '%s'" % item)
                squares = range(lo, hi + 1)
            else:
                squares = [board.square_name(item)]
            for sq in squares:
                if cells[sq]:
                    raise ValueError("square %d given twice" % sq)
                # A man cannot stand on the row where it would be crowned.
                if kind == MAN and board.row[sq] == board.crown_row[colour]:
                    raise ValueError("%s man on its crowning row (square %d)"
                                     % ('white' if colour == WHITE
                                        else 'black', sq))
                cells[sq] = colour * kind
    return Position(cells, side)


def format_fen(game, pos):
    parts = ['W' if pos.side == WHITE else 'B']
    for colour, letter in ((WHITE, 'W'), (BLACK, 'B')):
        items = []
        for sq in range(1, game.board.squares + 1):
            v = pos.cells[sq] * colour
            if v == MAN:
                items.append(str(sq))
            elif v == KING:
                items.append('K%d' % sq)
        parts.append(letter + ','.join(items))
    return ':'.join(parts)


# --- Move generation ---------------------------------------------------------
#
# A move is a tuple (from, to, captured, landings, becomes) where captured is
# the tuple of captured squares in the order taken, landings the squares the
# piece stopped on (ending with to), and becomes the cell value the piece has
# when the move is over.

def generate_moves(game, pos, count_paths=None):
    """Legal moves of the side to move, as a list of move tuples."""
    if count_paths is None:
        count_paths = game.count_paths
    board = game.board
    cells = pos.cells
    side = pos.side
    captures = []
    for sq in range(1, board.squares + 1):
        v = cells[sq] * side
        if v > 0:
            # The piece leaves its square for the whole sequence.
            cells[sq] = 0
            _capture_search(game, cells, side, sq, sq, v == KING, (), (sq,),
                            captures)
            cells[sq] = v * side
    if captures:
        if game.majority:
            most = max(len(m[2]) for m in captures)
            captures = [m for m in captures if len(m[2]) == most]
        # Moves that differ only in where a flying king stopped before going
        # on along the same line are one move in every count; with
        # count_paths the order of capture still tells moves apart.
        unique = {}
        for m in captures:
            taken = m[2] if count_paths else frozenset(m[2])
            key = (m[0], m[1], taken, m[4])
            if key not in unique:
                unique[key] = m
        return list(unique.values())
    moves = []
    rays = board.rays
    crown_row = board.crown_row[side]
    row = board.row
    forward = FORWARD[side]
    for sq in range(1, board.squares + 1):
        v = cells[sq] * side
        if v == MAN:
            for d in forward:
                ray = rays[sq][d]
                if ray and cells[ray[0]] == 0:
                    to = ray[0]
                    becomes = side * (KING if row[to] == crown_row else MAN)
                    moves.append((sq, to, (), (sq, to), becomes))
        elif v == KING:
            for d in ALL_DIRECTIONS:
                for to in rays[sq][d]:
                    if cells[to] != 0:
                        break
                    moves.append((sq, to, (), (sq, to), side * KING))
                    if not game.flying_kings:
                        break
    return moves


def _capture_search(game, cells, side, origin, sq, is_king, captured,
                    landings, out):
    """Extend a capture sequence standing on sq; append finished moves.

    Returns whether the sequence could go on from sq.  cells still holds
    every captured piece (they come off only at the end), so a captured
    piece blocks and cannot be jumped again.
    """
    board = game.board
    rays = board.rays[sq]
    if is_king or game.men_capture_backward:
        directions = ALL_DIRECTIONS
    else:
        directions = FORWARD[side]
    flying = is_king and game.flying_kings
    extended = False
    for d in directions:
        ray = rays[d]
        n = len(ray)
        i = 0
        if flying:
            while i < n and cells[ray[i]] == 0:
                i += 1
        if i + 1 >= n:
            continue
        victim = ray[i]
        if cells[victim] * side >= 0 or victim in captured:
            continue
        # A flying king may land on any empty square beyond the victim, but
        # a capture must be continued: if the sequence can go on from some
        # of those squares, the king must land on one of them.
        ends = []
        continued = []
        j = i + 1
        while j < n and cells[ray[j]] == 0:
            land = ray[j]
            extended = True
            now_king = is_king
            if (not is_king and game.crown_mid_capture
                    and board.row[land] == board.crown_row[side]):
                now_king = True
            found = []
            if _capture_search(game, cells, side, origin, land, now_king,
                               captured + (victim,), landings + (land,),
                               found):
                continued.extend(found)
            else:
                ends.extend(found)
            if not flying:
                break
            j += 1
        out.extend(continued if continued else ends)
    if not extended and captured:
        crowned = is_king or board.row[sq] == board.crown_row[side]
        out.append((origin, sq, captured, landings,
                    side * (KING if crowned else MAN)))
    return extended


def make_move(pos, move):
    """Position after move (a new Position; pos is left unchanged)."""
    cells = pos.cells[:]
    frm, to, captured, _, becomes = move
    cells[frm] = 0
    for sq in captured:
        cells[sq] = 0
    cells[to] = becomes
    return Position(cells, -pos.side)


def move_text(move, with_landings=False):
    """FROM-TO, FROMxTO:C1,C2 or, with_landings, FROMxL1x..xTO:C1,C2."""
    frm, to, captured, landings, _ = move
    if not captured:
        return '%d-%d' % (frm, to)
    taken = ','.join(str(sq) for sq in sorted(captured))
    if with_landings:
        return '%s:%s' % ('x'.join(str(sq) for sq in landings), taken)
    return '%dx%d:%s' % (frm, to, taken)


def move_texts(moves):
    """Texts of a move list, one per move and all different.

    A move is written FROMxTO:captured unless another move in the list has
    the same text (two capture orders counted as two moves, or, in the
    Russian game, two ways of which only one crowns the man on its way);
    those are written with the squares the piece landed on.
    """
    plain = [move_text(m) for m in moves]
    seen = {}
    for text in plain:
        seen[text] = seen.get(text, 0) + 1
    return [move_text(m, True) if seen[text] > 1 else text
            for m, text in zip(moves, plain)]


def move_sort_key(move):
    return (move[0], move[1], sorted(move[2]), move[3])


# --- Commands ----------------------------------------------------------------

def perft(game, pos, depth, count_paths, memo=None):
    """Leaf count at depth; memo (a dict) shares counts between transposed
    positions, which makes deep counts several times faster."""
    if depth == 0:
        return 1
    if memo is not None and depth >= 2:
        key = (bytes(v + 2 for v in pos.cells), pos.side, depth)
        n = memo.get(key)
        if n is not None:
            return n
    moves = generate_moves(game, pos, count_paths)
    if depth == 1:
        return len(moves)
    n = sum(perft(game, make_move(pos, m), depth - 1, count_paths, memo)
            for m in moves)
    if memo is not None:
        memo[key] = n
    return n


def command_perft(game, pos, depth, divide, count_paths, memo):
    if depth < 1:
        print('Nodes searched: 1')
        return
    total = 0
    moves = sorted(generate_moves(game, pos, count_paths), key=move_sort_key)
    for m, text in zip(moves, move_texts(moves)):
        n = perft(game, make_move(pos, m), depth - 1, count_paths, memo)
        total += n
        if divide:
            print('%s: %d' % (text, n))
    print('Nodes searched: %d' % total)


def command_moves(game, pos, count_paths):
    moves = sorted(generate_moves(game, pos, count_paths), key=move_sort_key)
    for text in move_texts(moves):
        print(text)


def command_check(game, depth):
    """Compare perft from the start with the published figures."""
    published = PUBLISHED[game.name]
    if depth > len(published):
        sys.exit('draughts.py: %s figures are published to depth %d only'
                 % (game.name, len(published)))
    pos = start_position(game)
    bad = 0
    memo = {}
    for d in range(1, depth + 1):
        n = perft(game, pos, d, game.count_paths, memo)
        ok = n == published[d - 1]
        bad += not ok
        print('perft %d: %d %s' % (d, n, 'ok' if ok else
                                    'WRONG, published %d' % published[d - 1]))
    if bad:
        sys.exit(1)


def command_selftest(game):
    """Check the hand-checked positions of this game; exit 1 on a failure."""
    failures = 0
    cases = [c for c in SELF_TESTS if c[0] == game.name]
    for _, fen, paths, expected, after in cases:
        count_paths = game.count_paths if paths is None else paths
        pos = parse_fen(game, fen)
        moves = sorted(generate_moves(game, pos, count_paths),
                       key=move_sort_key)
        texts = move_texts(moves)
        problems = []
        if sorted(texts) != sorted(expected):
            problems.append('moves %s, expected %s' % (sorted(texts),
                                                        sorted(expected)))
        for text, want in sorted(after.items()):
            if text in texts:
                move = moves[texts.index(text)]
                got = format_fen(game, make_move(pos, move))
                if got != want:
                    problems.append('after %s: %s, expected %s'
                                    % (text, got, want))
        if problems:
            failures += 1
            print('FAIL %s %s: %s' % (game.name, fen, '; '.join(problems)))
    print('%s: %d of %d positions right' % (game.name, len(cases) - failures,
                                            len(cases)))
    if failures:
        sys.exit(1)


def has_king(pos):
    return any(abs(v) == KING for v in pos.cells)


def command_random(game, count, plies, seed, kings_only):
    rng = random.Random(seed)
    found = 0
    attempts = 0
    limit = max(1000, 200 * count)
    while found < count:
        attempts += 1
        if attempts > limit:
            sys.exit('draughts.py: found only %d positions with kings in %d '
                     'games of %d plies; try more plies'
                     % (found, limit, plies))
        pos = start_position(game)
        for _ in range(plies):
            moves = generate_moves(game, pos)
            if not moves:
                break
            pos = make_move(pos, rng.choice(moves))
        if kings_only and not has_king(pos):
            continue
        print(format_fen(game, pos))
        found += 1


def main(argv):
    parser = argparse.ArgumentParser(
        description='Reference draughts move generator (test oracle).')
    parser.add_argument('game', choices=sorted(GAMES))
    parser.add_argument('command',
                        choices=('perft', 'moves', 'random', 'check',
                                 'selftest'))
    parser.add_argument('depth', nargs='?', type=int,
                        help='perft or check depth in plies')
    parser.add_argument('--fen', help='start from this PDN FEN position')
    parser.add_argument('--divide', action='store_true',
                        help='perft: one line per root move')
    parser.add_argument('--memo', action='store_true',
                        help='perft: count each transposed position once '
                        '(faster when deep, uses memory)')
    group = parser.add_mutually_exclusive_group()
    group.add_argument('--paths', action='store_true',
                       help='count every capture path as its own move')
    group.add_argument('--merge', action='store_true',
                       help='count each from, to and captured set once')
    parser.add_argument('--count', type=int, default=1)
    parser.add_argument('--plies', type=int, default=20)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--kings', action='store_true',
                        help='random: keep only positions with a king')
    args = parser.parse_args(argv)

    game = GAMES[args.game]()
    count_paths = game.count_paths
    if args.paths:
        count_paths = True
    if args.merge:
        count_paths = False
    try:
        pos = (parse_fen(game, args.fen) if args.fen is not None
               else start_position(game))
    except ValueError as e:
        sys.exit('draughts.py: %s' % e)

    if args.command == 'perft':
        if args.depth is None or args.depth < 0:
            parser.error('perft needs a depth of 0 or more')
        command_perft(game, pos, args.depth, args.divide, count_paths,
                      {} if args.memo else None)
    elif args.command == 'check':
        if args.fen is not None:
            parser.error('check starts from the start position: no --fen')
        if args.depth is None or args.depth < 1:
            parser.error('check needs a depth of 1 or more')
        command_check(game, args.depth)
    elif args.command == 'selftest':
        command_selftest(game)
    elif args.command == 'moves':
        command_moves(game, pos, count_paths)
    else:
        if args.count < 1 or args.plies < 0:
            parser.error('random needs --count of 1 or more and --plies of '
                         '0 or more')
        command_random(game, args.count, args.plies, args.seed, args.kings)


if __name__ == '__main__':
    # Stop quietly when the reader of the output goes away (| head).
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main(sys.argv[1:])
