#!/bin/sh
# draughts-crosscheck.sh VARIA [quick|deep] [GAME...] - compares Varia's four draughts games
# (rules/checkers, international, brazilian, russian) with the independent move generator
# tests/oracle/draughts.py: `varia perft --divide` move by move against the oracle's perft of
# each root move, from the start and on positions of the oracle's random play (with kings
# among them). Seeds are fixed: the same positions every run.
#   quick (make test): the start to depth 4, 22 random positions per game and the 8 of 120 more
#   with the longest captures to make, to depth 3; positions of long chains set by hand (and
#   the oracle's hand-checked ones) to depth 3 in every game of their board size.
#   deep (make perft-deep): the start to depth 5, 250 random positions per game and the 50 of
#   1000 more with the longest captures, to depth 4.
# Moves are compared by origin, destination and the pieces taken (in the order taken where a
# game counts capture paths apart: English checkers); Varia's path `22x13x6` gives the pieces
# taken as the one piece between each two landings. On a mismatch both move lists are shown.
varia=${1:?usage: draughts-crosscheck.sh VARIA [quick|deep] [GAME...]}
mode=${2:-quick}
[ $# -ge 2 ] && shift 2 || shift $#
command -v python3 > /dev/null || { echo "draughts-crosscheck: python3 is needed" >&2; exit 1; }
exec python3 - "$varia" "$mode" "$(dirname "$0")" "$@" << 'EOF'
import importlib.util, io, contextlib, subprocess, sys

varia, mode, here = sys.argv[1:4]
only = sys.argv[4:]
spec = importlib.util.spec_from_file_location("draughts", here + "/oracle/draughts.py")
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)

GAMES = ["checkers", "international", "brazilian", "russian"]
# (start depth, random depth, [(count, plies, seed, kings only)], (of how many random positions,
# how many with the longest captures to make))
PLANS = {
    "quick": (4, 3, [(10, 24, 27, False), (12, 50, 2027, True)], (120, 8)),
    "deep": (5, 4, [(80, 24, 127, False), (120, 50, 3027, True), (50, 90, 4027, True)], (1000, 50)),
}
if mode not in PLANS:
    sys.exit("draughts-crosscheck: mode is quick or deep, not '%s'" % mode)
start_depth, depth, batches, (pool, chains) = PLANS[mode]


def random_positions(name, count, plies, seed, kings):
    """The oracle's `random` command's positions (its text, one per line)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        oracle.command_random(oracle.GAMES[name](), count, plies, seed, kings)
    return out.getvalue().split()


# Positions with long chains, loops, crowning on the way and flying kings, tried in every game
# of their board size (with the oracle's own hand-checked positions).
HAND = {
    8: ["W:WK27:B6,7,8,14,15,16,22,23,24", "W:WK10:B14,15,22,23", "W:W10:B14,15,22,23",
        "W:WK29:B22,19", "W:W11:B7,6", "W:W22,23:B18,11,19", "W:WK29:B25,18,11,10,19,20,27",
        "B:WK3,10,11,19,20,27,28:BK32,K1"],
    10: ["W:W22:B27,28,37,38", "W:WK46:B41,32,23,24,33,34,43,44", "W:W32,33,K46:B28,19,29,41",
         "W:W13:B8,7", "W:WK50:B44,33,22,11,34,23,12,35,24,13"],
}


def hand_positions(name):
    game = oracle.GAMES[name]()
    size = game.board.size
    mine = [fen for g, fen, *_ in oracle.SELF_TESTS if oracle.GAMES[g]().board.size == size]
    out = []
    for fen in HAND[size] + mine:
        try:
            oracle.parse_fen(game, fen)
        except ValueError:
            continue  # a man on its crowning row in this game
        if fen not in out:
            out.append(fen)
    return out


def longest_captures(name, count, keep):
    """The keep positions of count from random play (kings among them) whose side to move has
    the longest capture to make: the chains to compare."""
    game = oracle.GAMES[name]()
    def longest(fen):
        moves = oracle.generate_moves(game, oracle.parse_fen(game, fen))
        return max((len(m[2]) for m in moves), default=0)
    found = [(longest(fen), i, fen) for i, fen in enumerate(random_positions(name, count, 40, 5027, True))]
    return [fen for n, i, fen in sorted(found, key=lambda f: (-f[0], f[1]))[:keep] if n > 0]


def oracle_divide(game, fen, d):
    """{move key: [perft d-1 after it, ...]} and the moves' texts, by the oracle."""
    pos = oracle.parse_fen(game, fen)
    moves = oracle.generate_moves(game, pos)
    counts, texts = {}, {}
    for m, text in zip(moves, oracle.move_texts(moves)):
        key = (m[0], m[1], m[2] if game.count_paths else tuple(sorted(m[2])))
        n = oracle.perft(game, oracle.make_move(pos, m), d - 1, game.count_paths, {})
        counts.setdefault(key, []).append(n)
        texts.setdefault(key, []).append(text)
    return counts, texts


def varia_key(game, pos, text):
    """The key of Varia's move text FROM-TO or FROMxL1x...xTO, or a reason it has none."""
    board = game.board
    parts = text.split("-") if "-" in text else text.split("x")
    if not all(p.isdigit() for p in parts) or len(parts) < 2 or ("-" in text and len(parts) != 2):
        return "%s: not a move of square numbers" % text
    if "-" in text:
        return (int(parts[0]), int(parts[1]), ())
    hops = [int(s) for s in parts]
    taken = []
    for a, b in zip(hops, hops[1:]):
        ray = next((r for r in board.rays[a] if b in r), None)
        if ray is None:
            return "%s: %d to %d is not along a diagonal" % (text, a, b)
        between = [s for s in ray[:ray.index(b)] if pos.cells[s] != 0 and s != hops[0]]
        if len(between) != 1 or pos.cells[between[0]] * pos.side >= 0:
            return "%s: %d to %d passes over %s, not one enemy piece" % (text, a, b, between)
        taken.append(between[0])
    return (hops[0], hops[-1], tuple(taken) if game.count_paths else tuple(sorted(taken)))


def varia_divide(name, game, fen, d):
    """Varia's divide as the oracle's: keys, counts, texts; or an error text."""
    run = subprocess.run([varia, "perft", "%s/../rules/%s.rules" % (here, name), str(d), "--divide", "--fen", fen],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        return None, None, "varia failed: %s" % run.stderr.strip()
    pos = oracle.parse_fen(game, fen)
    counts, texts, total = {}, {}, None
    for line in run.stdout.splitlines():
        if line.startswith("Nodes searched: "):
            total = int(line.split(": ")[1])
        elif ": " in line:
            text, n = line.split(": ")
            key = varia_key(game, pos, text)
            if isinstance(key, str):
                return None, None, key
            counts.setdefault(key, []).append(int(n))
            texts.setdefault(key, []).append(text)
    if total is None or total != sum(sum(v) for v in counts.values()):
        return None, None, "varia's divide does not add up to its total:\n" + run.stdout
    return counts, texts, None


def compare(name, game, fen, d, seen):
    ours, our_texts, error = varia_divide(name, game, fen, d)
    theirs, their_texts = oracle_divide(game, fen, d)
    longest = max((len(k[2]) for k in theirs), default=0)
    seen["captures"] += longest > 0
    seen["longest"] = max(seen["longest"], longest)
    if error is None and {k: sorted(v) for k, v in ours.items()} == \
            {k: sorted(v) for k, v in theirs.items()}:
        return True
    print("draughts-crosscheck: %s: MISMATCH at %s (perft %d)" % (name, fen, d), file=sys.stderr)
    if error:
        print("  " + error, file=sys.stderr)
        ours, our_texts = {}, {}
    print("  totals: varia %d, oracle %d" % (sum(sum(v) for v in ours.values()),
                                            sum(sum(v) for v in theirs.values())), file=sys.stderr)
    for key in sorted(set(ours) | set(theirs)):
        a, b = sorted(ours.get(key, [])), sorted(theirs.get(key, []))
        mark = "  " if a == b else "! "
        print("  %svaria %-28s %-10s oracle %-28s %s" % (
            mark, " ".join(our_texts.get(key, ["-"])), a or "",
            " ".join(their_texts.get(key, ["-"])), b or ""), file=sys.stderr)
    return False


total_pass = total_fail = 0
for name in GAMES:
    if only and name not in only:
        continue
    game = oracle.GAMES[name]()
    jobs = [(oracle.format_fen(game, oracle.start_position(game)), start_depth)]
    for count, plies, seed, kings in batches:
        jobs += [(fen, depth) for fen in random_positions(name, count, plies, seed, kings)]
    jobs += [(fen, depth) for fen in longest_captures(name, pool, chains)]
    jobs += [(fen, 3) for fen in hand_positions(name)]
    kings = sum(1 for fen, _ in jobs if "K" in fen)
    seen = {"captures": 0, "longest": 0}
    results = [compare(name, game, fen, d, seen) for fen, d in jobs]
    passed = results.count(True)
    total_pass += passed
    total_fail += len(results) - passed
    print("draughts-crosscheck: %s: %d positions (%d with kings, %d with a capture to make, the longest "
          "taking %d), %d passed, %d failed" % (name, len(results), kings, seen["captures"], seen["longest"],
                                                passed, len(results) - passed))
print("draughts-crosscheck: %d passed, %d failed" % (total_pass, total_fail))
sys.exit(1 if total_fail else 0)
EOF
