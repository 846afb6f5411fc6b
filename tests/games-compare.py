#!/usr/bin/env python3
"""games-compare.py - compares Varia with the independent generator tests/oracle/games28.py on
the placement, connection, morris and tafl games: perft --divide move by move, from the start
and from positions the generator reached by random play (tests/games28/positions.txt, with
positions where a special rule applies: a mill, flying, a capture, the king by the throne, a
shield wall, the swap); `deep` plays more games for fresh positions and goes deeper.

    python3 tests/games-compare.py VARIA [quick|deep] [GAME...]

Each game's position text and moves are converted between the two (the generator writes them
as the comparison formats of the games, Varia as its rule files do). Prints one line per game
and a total; exits 1 on any difference, printing the position and the moves that differ."""
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLE = os.environ.get("GAMES28_ORACLE") or os.path.join(HERE, "oracle", "games28.py")
RULES = os.path.join(HERE, "..", "rules")

# game: (more random positions, depth) of quick runs (the stored positions) and deep ones (fresh
# positions too)
PLAN = {
    "quick": {"tictactoe": (0, 3), "connect4": (0, 3), "gomoku": (0, 1), "hex": (0, 2), "hex-swap": (0, 2),
              "morris": (0, 2), "brandubh": (0, 2), "hnefatafl": (0, 1)},
    "deep": {"tictactoe": (40, 9), "connect4": (40, 5), "gomoku": (10, 2), "hex": (40, 3), "hex-swap": (40, 3),
             "morris": (60, 4), "brandubh": (40, 3), "hnefatafl": (30, 2)},
}

MORRIS_ROWS = [["a7", "d7", "g7"], ["b6", "d6", "f6"], ["c5", "d5", "e5"], ["a4", "b4", "c4", "e4", "f4", "g4"],
               ["c3", "d3", "e3"], ["b2", "d2", "f2"], ["a1", "d1", "g1"]]


def run(cmd, stdin=None):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()[:400]))
    return p.stdout


def rules_of(game):
    return os.path.join(RULES, ("hex" if game == "hex-swap" else game) + ".rules")


def oracle_args(game):
    return ["hex", "--swap"] if game == "hex-swap" else [game]


_generator = None


def generator():
    """The independent generator as a module: run in this process, not once per position."""
    global _generator
    if _generator is None:
        spec = importlib.util.spec_from_file_location("games28_oracle", ORACLE)
        _generator = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_generator)
    return _generator


def generator_divide(game, text, depth):
    """The generator's perft --divide: {move: count}."""
    g = generator()
    name = "hex" if game == "hex-swap" else game
    return g.divide(g.new_game(name, text, game == "hex-swap"), depth)


def varia_args(game):
    return ["--option", "swap=on"] if game == "hex-swap" else []


# ---- position text: the generator's into Varia's ----------------------------------------------

def rows_to_varia(rows, table):
    return "/".join("".join(table.get(ch, ch) for ch in row) for row in rows)


def position_to_varia(game, text):
    f = text.split()
    if game == "morris":
        white, black = f[0].split("/")
        white = set(x for x in white.split(",") if x)
        black = set(x for x in black.split(",") if x)
        ranks = []
        for row in MORRIS_ROWS:
            out, empty = "", 0
            for cell in row:
                piece = "M" if cell in white else "m" if cell in black else None
                if piece is None:
                    empty += 1
                    continue
                out += (str(empty) if empty else "") + piece
                empty = 0
            ranks.append(out + (str(empty) if empty else ""))
        hands = "M" * int(f[2]) + "m" * int(f[3])
        return "%s[%s] %s" % ("/".join(ranks), hands, f[1])
    table = {"tictactoe": {"x": "S", "o": "s"}, "connect4": {"r": "D", "y": "d"}, "gomoku": {"b": "S", "w": "s"},
             "hex": {"b": "S", "w": "s"}, "hex-swap": {"b": "S", "w": "s"},
             "brandubh": {"a": "A"}, "hnefatafl": {"a": "A"}}[game]
    board = rows_to_varia(f[0].split("/"), table)
    if game == "hex-swap":
        return "%s %s %s" % (board, f[1], f[2] if len(f) > 2 else "0")
    return "%s %s" % (board, f[1])


# ---- moves: Varia's into the generator's -------------------------------------------------------

def board_cells(game, varia_text):
    """cell name -> piece letter of a Varia tafl position (rows from the top, files from a)."""
    rows = varia_text.split()[0].split("/")
    size = len(rows)
    cells = {}
    for r, row in enumerate(rows):
        x, i = 0, 0
        while i < len(row):
            if row[i].isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                x += int(row[i:j])
                i = j
                continue
            cells["%s%d" % (chr(ord("a") + x), size - r)] = row[i]
            x += 1
            i += 1
    return cells


def split_cells(text):
    """'a10b3' -> ['a10', 'b3'] (a file letter, then digits)."""
    out, i = [], 0
    while i < len(text):
        j = i + 1
        while j < len(text) and text[j].isdigit():
            j += 1
        out.append(text[i:j])
        i = j
    return out


def move_to_oracle(game, move, before=None, after=None):
    if move.startswith("swap:"):
        return "swap"
    if game in ("tictactoe", "gomoku", "hex", "hex-swap"):
        return move.split("@", 1)[1]
    if game == "connect4":
        return move.split("@", 1)[1][0]
    if game == "morris":
        main, _, taken = move.partition("x")
        if "@" in main:
            text = main.split("@", 1)[1]
        else:
            a, b = split_cells(main)
            text = a + "-" + b
        return text + ("x" + taken if taken else "")
    # tafl: the cells taken, from the positions before and after
    a, b = split_cells(move)
    old, new = board_cells(game, before), board_cells(game, after)
    taken = [c for c in old if c not in new and c != a]
    taken.sort(key=lambda c: (c[0], int(c[1:])))
    return a + "-" + b + ("x" + ",".join(taken) if taken else "")


# ---- one position ---------------------------------------------------------------------------

def divide_lines(out):
    moves = {}
    for line in out.splitlines():
        if ": " in line and not line.startswith("Nodes"):
            m, n = line.rsplit(": ", 1)
            moves[m.strip()] = int(n)
    return moves


def compare(varia, game, text, depth):
    """None when both agree on the position, else a report."""
    ours_fen = position_to_varia(game, text)
    theirs = generator_divide(game, text, depth)
    out = run([varia, "perft", rules_of(game), str(depth), "--fen", ours_fen, "--divide"] + varia_args(game))
    ours_raw = divide_lines(out)
    after = {}
    if game in ("brandubh", "hnefatafl"):
        for line in run([varia, "moves", rules_of(game), "--fen", ours_fen, "--after"]).splitlines():
            m, _, pos = line.partition(" ")
            after[m] = pos
    ours = {}
    for m, n in ours_raw.items():
        key = move_to_oracle(game, m, ours_fen, after.get(m))
        if key in ours:
            return "two of Varia's moves read %s" % key
        ours[key] = n
    if ours == theirs:
        return None
    lines = ["%s: MISMATCH at %s (Varia: %s, depth %d)" % (game, text, ours_fen, depth)]
    for m in sorted(set(ours) | set(theirs)):
        if ours.get(m) != theirs.get(m):
            lines.append("  %-16s varia %-10s generator %s" % (m, ours.get(m, "-"), theirs.get(m, "-")))
    return "\n".join(lines[:25])


def stored_positions(game):
    """The positions kept in tests/games28/positions.txt for the game (quick runs)."""
    out = []
    with open(os.path.join(HERE, "games28", "positions.txt")) as f:
        for line in f:
            if line.startswith("#") or "\t" not in line:
                continue
            g, text = line.rstrip("\n").split("\t", 1)
            if g == game:
                out.append(text)
    return out


def positions(game, count, fresh):
    """The start, the stored positions, and with `fresh` more from random play (seed 28)."""
    args = ["python3", ORACLE] + oracle_args(game)
    g = generator()
    found = [g.new_game("hex" if game == "hex-swap" else game, None, game == "hex-swap").text()]
    found += stored_positions(game)
    if fresh:
        plies = {"tictactoe": 6, "connect4": 20, "gomoku": 30, "hex": 40, "hex-swap": 3, "morris": 40,
                 "brandubh": 40, "hnefatafl": 60}[game]
        found += run(args + ["random", "--count", str(count), "--plies", str(plies), "--seed", "2028"]).split("\n")
    return [p.strip() for p in found if p.strip()]


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    varia = sys.argv[1]
    if not os.path.exists(ORACLE):
        print("games-compare: the generator %s is missing" % ORACLE, file=sys.stderr)
        return 1
    mode = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] in PLAN else "quick"
    only = [g for g in sys.argv[2:] if g in PLAN[mode]]
    failed = passed = 0
    for game, (count, depth) in PLAN[mode].items():
        if only and game not in only:
            continue
        ok = bad = 0
        for text in positions(game, count, mode == "deep"):
            report = compare(varia, game, text, depth)
            if report:
                print(report, file=sys.stderr)
                bad += 1
            else:
                ok += 1
        print("games-compare: %s (depth %d): %d passed, %d failed" % (game, depth, ok, bad))
        passed += ok
        failed += bad
    print("games-compare: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
