#!/usr/bin/env python3
"""three-stones-oracle.py [DEPTH] - perft of the holding-cell example of docs/language.md,
"Three stones", written from its rules in words, not from the rule file:

- a 3x3 board; each player's three stones start off the board, on three holding cells of its
  own (the first player's x1 x2 x3, the second's o1 o2 o3);
- while a player has a stone on a holding cell, its move is to put one of them (any one: a
  stone from each holding cell is a move of its own) on any empty cell of the board;
- once all three are on the board, a move steps a stone one cell orthogonally onto an empty
  cell;
- three stones of one side in a line (row, column or diagonal) win: the position has no moves;
  a player without a move loses (no moves either).

Prints "DEPTH NODES" for each depth from 1."""
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def neighbours(c):
    x, y = c % 3, c // 3
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= x + dx < 3 and 0 <= y + dy < 3:
            yield (y + dy) * 3 + x + dx


def won(board, side):
    return any(all(board[c] == side for c in line) for line in LINES)


def moves(board, held, side):
    """board: 9 cells (None or side); held[side]: the holding cells still full (a tuple of
    three booleans)."""
    if won(board, 0) or won(board, 1):
        return []
    out = []
    if any(held[side]):
        for h in range(3):
            if held[side][h]:
                for c in range(9):
                    if board[c] is None:
                        out.append(('put', h, c))
        return out
    for c in range(9):
        if board[c] == side:
            for n in neighbours(c):
                if board[n] is None:
                    out.append(('step', c, n))
    return out


def play(board, held, side, m):
    board = list(board)
    held = [list(held[0]), list(held[1])]
    if m[0] == 'put':
        held[side][m[1]] = False
        board[m[2]] = side
    else:
        board[m[1]] = None
        board[m[2]] = side
    return board, (tuple(held[0]), tuple(held[1]))


def perft(board, held, side, depth):
    ms = moves(board, held, side)
    if depth == 1:
        return len(ms)
    total = 0
    for m in ms:
        b, h = play(board, held, side, m)
        total += perft(b, h, 1 - side, depth - 1)
    return total


if __name__ == '__main__':
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    start = ([None] * 9, ((True,) * 3, (True,) * 3))
    for d in range(1, top + 1):
        print(d, perft(start[0], start[1], 0, d))
