#!/usr/bin/env python3
"""Self-checks of chess29.py: orthodox perft figures, then each special rule of the four games
on small positions whose legal moves are worked out by hand. Runs in a few seconds:

  python3 tests/oracle/test_chess29.py
"""

import os
import random
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chess29  # noqa: E402
from chess29 import Position  # noqa: E402

SCRIPT = os.path.join(HERE, "chess29.py")


def moves(game, fen):
    pos = Position(game, fen)
    return {pos.move_text(m) for m in pos.legal_moves()}


def after(game, fen, *texts):
    pos = Position(game, fen)
    for text in texts:
        pos.play(text)
    return pos


def divide2(pos):
    """The legal moves, each with the number of replies: perft 2, move by move."""
    counts = {}
    for m in pos.legal_moves():
        pos.make(m)
        counts[pos.move_text(m)] = len(pos.legal_moves())
        pos.unmake()
    return counts


def state(pos):
    """Everything that decides the moves from here on."""
    return (pos.bd, pos.us, pos.castle, pos.ep, pos.pending, pos.part, pos.half, pos.full,
            pos.kings)


def read_back_problems(game, games, plies, seed):
    """Play random games and read back the text of every position reached: the text must come
    out the same, with the same state, legal moves and perft 2 move by move as the position as
    played. The state catches a lost en-passant cell even where no pawn can take it yet.
    Returns the number of positions checked and the texts that fail."""
    rng = random.Random(seed)
    checked, problems = 0, []
    for _ in range(games):
        pos = Position(game)
        for _ in range(plies + 1):
            text = pos.fen()
            again = Position(game, text)
            checked += 1
            if (again.fen() != text or state(again) != state(pos)
                    or divide2(again) != divide2(pos)):
                problems.append(text)
            moves = pos.legal_moves()
            if not moves:
                break
            pos.make(rng.choice(moves))
    return checked, problems


def run(*args):
    return subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True, text=True)


class Chess(unittest.TestCase):
    """The common machinery against published chess perft figures."""

    def perft(self, fen, figures):
        pos = Position("chess", fen)
        for depth, expected in enumerate(figures, 1):
            self.assertEqual(pos.perft(depth), expected, "depth %d of %s" % (depth, fen))
            self.assertEqual(pos.fen(), Position("chess", fen).fen(), "unmake restores")

    def test_start(self):
        self.perft(chess29.CHESS_START, [20, 400, 8902])

    def test_kiwipete(self):
        self.perft("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                   [48, 2039])

    def test_en_passant_and_pins(self):
        self.perft("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812])

    def test_promotions_and_castling(self):
        self.perft("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264])
        self.perft("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486])


class Alice(unittest.TestCase):
    EMPTY = "8/8/8/8/8/8/8/8"

    def test_start(self):
        pos = Position("alice")
        self.assertEqual([pos.perft(d) for d in (1, 2)], [20, 400])

    def test_moved_piece_goes_to_the_other_board(self):
        pos = after("alice", None, "A:e2e4")
        self.assertEqual(pos.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR|"
                                    "8/8/8/8/4P3/8/8/8 b KQkq A:e3 0 1")
        pos.play("A:g8f6")
        pos.play("B:e4e5")  # from board B back to board A
        self.assertEqual(pos.fen().split()[0], "rnbqkb1r/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR|"
                                               "8/8/5n2/8/8/8/8/8")

    def test_transfer_cell_must_be_empty_and_captures_stay_on_their_board(self):
        # The rook on A slides past a5 (empty on A) but may not stop there: B's a5 is taken,
        # and it cannot capture the knight, which stands on the other board.
        got = moves("alice", "4k3/8/8/8/8/8/8/R3K3|8/8/8/n7/8/8/8/8 w - - 0 1")
        rook = {m for m in got if m.startswith("A:a1")}
        self.assertEqual(rook, {"A:a1a2", "A:a1a3", "A:a1a4", "A:a1a6", "A:a1a7", "A:a1a8",
                                "A:a1b1", "A:a1c1", "A:a1d1"})

    def test_check_only_from_the_kings_board_and_transfer_into_check(self):
        # The rook on B does not check the king on A, but the king may not move to a cell of
        # B that the rook attacks: the e2 cell.
        fen = "4k3/8/8/8/8/8/8/4K3|4r3/8/8/8/8/8/8/8 w - - 0 1"
        pos = Position("alice", fen)
        self.assertFalse(pos.in_check(chess29.WHITE))
        self.assertEqual(moves("alice", fen), {"A:e1d1", "A:e1d2", "A:e1f1", "A:e1f2"})
        self.assertIn("transfer-into-check", pos.special_rules())
        # Along rank 2 of B every cell next to the king is attacked: only d1 and f1 remain.
        self.assertEqual(moves("alice", "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/r7/8 w - - 0 1"),
                         {"A:e1d1", "A:e1f1"})

    def test_leaving_the_board_escapes_attacks_there(self):
        # The rook on A's d-file attacks d1 and d2 of A, but the king arrives on B.
        fen = "3r3k/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8 w - - 0 1"
        self.assertEqual(moves("alice", fen), {"A:e1d1", "A:e1d2", "A:e1e2", "A:e1f1", "A:e1f2"})
        self.assertNotIn("transfer-into-check", Position("alice", fen).special_rules())

    def test_a_pinned_piece_cannot_move_along_the_pin(self):
        # Any rook move takes it to B and opens the e-file of A, except taking the pinner.
        got = moves("alice", "k3r3/8/8/8/8/8/4R3/4K3|8/8/8/8/8/8/8/8 w - - 0 1")
        self.assertEqual(got, {"A:e2e8", "A:e1d1", "A:e1d2", "A:e1f1", "A:e1f2"})

    def test_castling(self):
        base = "8/8/8/8/8/8/8/R3K2R|8/8/8/k7/8/8/8/8 w KQ - 0 1"
        self.assertTrue({"A:e1g1", "A:e1c1"} <= moves("alice", base))
        pos = after("alice", base, "A:e1g1")
        self.assertEqual(pos.fen(), "8/8/8/8/8/8/8/R7|8/8/8/k7/8/8/8/5RK1 b - - 1 1")
        pos = after("alice", base, "A:e1c1")
        self.assertEqual(pos.fen(), "8/8/8/8/8/8/8/7R|8/8/8/k7/8/8/8/2KR4 b - - 1 1")

        def castles(fen):
            return {m for m in moves("alice", fen) if m in ("A:e1g1", "A:e1c1")}

        # A castled cell taken on B; b1 of B is not one of them.
        self.assertEqual(castles("8/8/8/8/8/8/8/R3K2R|8/8/8/k7/8/8/8/1n3n2 w KQ - 0 1"),
                         {"A:e1c1"})
        # The king would be in check on B: refused; checks on B before the move do not count.
        self.assertEqual(castles("8/8/8/8/8/8/8/R3K2R|6r1/8/8/k7/8/8/8/8 w KQ - 0 1"),
                         {"A:e1c1"})
        self.assertEqual(castles("8/8/8/8/8/8/8/R3K2R|4r3/8/8/k7/8/8/8/8 w KQ - 0 1"),
                         {"A:e1c1", "A:e1g1"})
        # The king passes f1 of A, attacked: refused; g1 of A attacked does not matter, the
        # king lands on B.
        self.assertEqual(castles("5r2/8/8/8/8/8/8/R3K2R|8/8/8/k7/8/8/8/8 w KQ - 0 1"),
                         {"A:e1c1"})
        self.assertEqual(castles("6r1/8/8/8/8/8/8/R3K2R|8/8/8/k7/8/8/8/8 w KQ - 0 1"),
                         {"A:e1c1", "A:e1g1"})
        # In check on A: no castling.
        self.assertEqual(castles("4r3/8/8/8/8/8/8/R3K2R|8/8/8/k7/8/8/8/8 w KQ - 0 1"), set())
        # The king on B, or no right: no castling.
        self.assertEqual(castles("8/8/8/8/8/8/8/R6R|8/8/8/k7/8/8/8/4K3 w KQ - 0 1"), set())
        self.assertEqual(castles("8/8/8/8/8/8/8/R3K2R|8/8/8/k7/8/8/8/8 w - - 0 1"), set())

    def test_en_passant_across_boards(self):
        fen = "4k3/8/8/8/8/8/4P3/4K3|8/8/8/8/3p4/8/8/8 w - - 0 1"
        pos = after("alice", fen, "A:e2e4")
        self.assertEqual(pos.fen(), "4k3/8/8/8/8/8/8/4K3|8/8/8/8/3pP3/8/8/8 b - A:e3 0 1")
        self.assertIn("en-passant", pos.special_rules())
        pos.play("B:d4e3")  # moves on B, removes the pawn from B, lands on A
        self.assertEqual(pos.fen(), "4k3/8/8/8/8/4p3/8/4K3|8/8/8/8/8/8/8/8 w - - 0 2")
        # A pawn beside it on the other board (A) cannot take it.
        pos = after("alice", "4k3/8/8/8/3p4/8/4P3/4K3|8/8/8/8/8/8/8/8 w - - 0 1", "A:e2e4")
        self.assertNotIn("A:d4e3", {pos.move_text(m) for m in pos.legal_moves()})
        # Only on the very next move.
        pos = after("alice", fen, "A:e2e4", "A:e8d8", "A:e1d1")
        self.assertEqual(pos.fen().split()[3], "-")
        self.assertNotIn("B:d4e3", {pos.move_text(m) for m in pos.legal_moves()})

    def test_en_passant_needs_the_cell_free_on_both_boards(self):
        # The passed cell e3 is taken on A (by a piece put there in the position text).
        pos = Position("alice", "4k3/8/8/8/8/4N3/8/4K3|8/8/8/8/3pP3/8/8/8 b - A:e3 0 1")
        self.assertNotIn("B:d4e3", {pos.move_text(m) for m in pos.legal_moves()})

    def test_promotion_transfers(self):
        got = moves("alice", "4k3/P7/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8 w - - 0 1")
        self.assertTrue({"A:a7a8q", "A:a7a8r", "A:a7a8b", "A:a7a8n"} <= got)
        pos = after("alice", "4k3/P7/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8 w - - 0 1", "A:a7a8n")
        self.assertEqual(pos.fen(), "4k3/8/8/8/8/8/8/4K3|N7/8/8/8/8/8/8/8 b - - 0 1")

    def test_bad_position_text(self):
        for fen in ("4k3/8/8/8/8/8/8/4K3 w - - 0 1",  # one board
                    "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8 w - e3 0 1",  # ep without its board
                    "4k3/8/8/8/8/8/8/4K3|8/8/8/8/8/8/8/8 w - C:e6 0 1"):
            with self.assertRaises(ValueError):
                Position("alice", fen)


class Marseillais(unittest.TestCase):
    def test_start_and_turns(self):
        pos = Position("marseillais")
        self.assertEqual([pos.perft(d) for d in (1, 2, 3)], [20, 400, 8902])
        pos.play("e2e4")  # White's first turn is one move
        self.assertEqual(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 1")
        pos.play("d7d5")  # e3 for Black to take, d6 made this turn for White's next turn
        self.assertEqual(pos.fen(),
                         "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3,d6 0 1 2")
        pos.play("g8f6")
        self.assertEqual(pos.fen(),
                         "rnbqkb1r/ppp1pppp/5n2/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 1 2 1")
        pos.play("e4d5")  # takes the pawn that made the double step: its cell is gone
        self.assertEqual(pos.fen().split()[1:], ["w", "KQkq", "-", "0", "2", "2"])

    def test_a_pawn_that_moves_on_leaves_no_en_passant(self):
        pos = after("marseillais", None, "e2e4", "d7d5", "d5e4")
        self.assertEqual(pos.fen().split()[3], "-")

    def test_check_ends_the_turn(self):
        pos = after("marseillais", "4k3/8/8/8/8/8/8/R3K3 w - - 0 5 1", "a1a8")
        self.assertEqual(pos.fen(), "R3k3/8/8/8/8/8/8/4K3 b - - 1 5 1")
        self.assertIn("check-ends-turn",
                      Position("marseillais", "4k3/8/8/8/8/8/8/R3K3 w - - 0 5 1").special_rules())
        pos = after("marseillais", "4k3/8/8/8/8/8/8/R3K3 w - - 0 5 1", "a1a2")
        self.assertEqual(pos.fen(), "4k3/8/8/8/8/8/R7/4K3 w - - 1 5 2")
        self.assertNotIn("check-ends-turn", pos.special_rules())  # only for a first move
        # Castling that gives check ends the turn too.
        pos = after("marseillais", "5k2/8/8/8/8/8/8/4K2R w K - 0 5 1", "e1g1")
        self.assertEqual(pos.fen(), "5k2/8/8/8/8/8/8/5RK1 b - - 1 5 1")

    def test_check_answered_by_the_first_move(self):
        self.assertEqual(moves("marseillais", "4k3/8/8/8/8/8/8/4K2r w - - 0 5 1"),
                         {"e1d2", "e1e2", "e1f2"})

    def test_no_move_on_the_second_move(self):
        pos = Position("marseillais", "k7/P7/1K6/8/8/8/8/8 b - - 0 5 2")
        self.assertEqual(pos.legal_moves(), [])
        self.assertFalse(pos.in_check(chess29.BLACK))

    def test_en_passant_on_either_move(self):
        fen = "4k3/p7/8/8/3pP3/8/8/4K3 b - e3 0 5 1"
        self.assertIn("d4e3", moves("marseillais", fen))
        pos = after("marseillais", fen, "a7a6")
        self.assertEqual(pos.fen(), "4k3/8/p7/8/3pP3/8/8/4K3 b - e3 0 5 2")
        self.assertIn("d4e3", {pos.move_text(m) for m in pos.legal_moves()})
        pos.play("d4e3")
        self.assertEqual(pos.fen(), "4k3/8/p7/8/8/4p3/8/4K3 w - - 0 6 1")
        # Taken on the first move: used up.
        pos = after("marseillais", "4k3/8/8/8/2ppP3/8/8/4K3 b - e3 0 5 1", "d4e3")
        self.assertEqual(pos.fen(), "4k3/8/8/8/2p5/4p3/8/4K3 b - - 0 5 2")
        # Its pawn taken otherwise on the first move: gone too.
        pos = after("marseillais", "4k3/8/8/5n2/3pP3/8/8/4K3 b - e3 0 5 1", "f5e3")
        self.assertEqual(pos.fen().split()[3], "e3")  # the knight stands on the passed cell
        self.assertNotIn("d4e3", {pos.move_text(m) for m in pos.legal_moves()})
        pos = after("marseillais", "4k3/8/8/8/3pP3/8/5n2/4K3 b - e3 0 5 1", "f2e4")
        self.assertEqual(pos.fen(), "4k3/8/8/8/3pn3/8/8/4K3 b - - 0 5 2")

    def test_double_steps_in_one_turn(self):
        fen = "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 5 1"
        self.assertEqual(after("marseillais", fen, "d2d4").fen(),
                         "4k3/8/8/8/3P4/8/4P3/4K3 w - d3 0 5 2")  # written mid-turn
        self.assertEqual(after("marseillais", fen, "d2d4", "e2e4").fen(),
                         "4k3/8/8/8/3PP3/8/8/4K3 b - e3 0 5 1")  # the second replaces the first
        self.assertEqual(after("marseillais", fen, "d2d4", "e1f1").fen(),
                         "4k3/8/8/8/3P4/8/4P3/5K2 b - d3 1 5 1")  # the first lasts the turn
        self.assertEqual(after("marseillais", fen, "d2d4", "d4d5").fen(),
                         "4k3/8/8/3P4/8/8/4P3/4K3 b - - 0 5 1")  # its pawn moved on
        # A first move's double step that gives check ends the turn and leaves its cell.
        self.assertEqual(after("marseillais", "8/8/8/5k2/8/8/4P3/4K3 w - - 0 5 1", "e2e4").fen(),
                         "8/8/8/5k2/4P3/8/8/4K3 b - e3 0 5 1")


    def test_en_passant_field_of_both_sides(self):
        # Black is to make the second move of its turn: it may take e3 (White's last turn),
        # and its own d7-d5 of this turn gives White d6 for the whole next turn.
        fen = "4k3/8/8/3pP3/2P5/8/8/4K3 b - e3,d6 0 5 2"
        pos = Position("marseillais", fen)
        self.assertEqual(pos.fen(), fen)
        self.assertEqual(Position("marseillais", fen.replace("e3,d6", "d6,e3")).fen(), fen)
        pos.play("e8f8")
        self.assertEqual(pos.fen(), "5k2/8/8/3pP3/2P5/8/8/4K3 w - d6 1 6 1")
        self.assertIn("e5d6", {pos.move_text(m) for m in pos.legal_moves()})
        pos.play("c4c5")
        self.assertIn("e5d6", {pos.move_text(m) for m in pos.legal_moves()})  # either move
        # Without its own cell in the field, White could not take on d6.
        pos = after("marseillais", "4k3/8/8/3pP3/2P5/8/8/4K3 b - e3 0 5 2", "e8f8")
        self.assertNotIn("e5d6", {pos.move_text(m) for m in pos.legal_moves()})

    def test_bad_en_passant_field(self):
        place = "4k3/8/8/3pP3/2P5/8/8/4K3 b - %s 0 5 %s"
        for field, part, message in (
                ("d6", "1", "no move of this turn yet"),  # its own cell on its first move
                ("e3,c3", "2", "two cells of the opponent"),
                ("d6,c6", "2", "two cells of the side to move"),
                ("e3,d6,c6", "2", "more than two"),
                ("e4", "2", "not on a rank"),
                ("e3;d6", "2", "bad cell")):
            with self.assertRaisesRegex(ValueError, message, msg=field):
                Position("marseillais", place % (field, part))


class Grasshopper(unittest.TestCase):
    def test_start(self):
        pos = Position("grasshopper")
        # 8 single pawn steps, 20 grasshopper jumps over the pawns, no knight move.
        self.assertEqual([pos.perft(d) for d in (1, 2)], [28, 782])

    def test_grasshopper_moves(self):
        # Over d6 to d7, over f6 to g7, over b4 taking a4 (not the hurdle), over d2 to d1;
        # the other lines have no hurdle.
        got = moves("grasshopper", "4k3/8/3P1n2/8/pr1G4/8/3P4/4K3 w - - 0 1")
        self.assertEqual({m for m in got if m.startswith("d4")}, {"d4d7", "d4g7", "d4a4", "d4d1"})

    def test_grasshopper_check(self):
        # The knight on e2 is the hurdle: the king is in check and moving the knight answers it.
        pos = Position("grasshopper", "k7/8/4g3/8/8/8/4N3/4K3 w - - 0 1")
        self.assertTrue(pos.in_check(chess29.WHITE))
        # Putting a hurdle next to one's own king is illegal.
        got = moves("grasshopper", "k7/8/4g3/8/8/2N5/8/4K3 w - - 0 1")
        self.assertNotIn("c3e2", got)
        self.assertIn("c3d5", got)
        # The king itself never serves as its own hurdle: nothing attacks e1 here.
        self.assertFalse(Position("grasshopper", "k7/8/4g3/8/8/8/8/4K3 w - - 0 1")
                         .in_check(chess29.WHITE))

    def test_pawns(self):
        self.assertEqual(moves("grasshopper", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1") - {
            "e1d1", "e1d2", "e1f1", "e1f2"}, {"e2e3"})  # no double step
        got = moves("grasshopper", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
        self.assertEqual({m for m in got if m.startswith("a7")},
                         {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7a8g"})

    def test_castling(self):
        got = moves("grasshopper", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        self.assertTrue({"e1g1", "e1c1"} <= got)
        # A grasshopper jumping the king lands on f1: the king may not pass it.
        got = moves("grasshopper", "4k3/8/8/8/8/8/8/g3K2R w K - 0 1")
        self.assertNotIn("e1g1", got)
        # A grasshopper jumping h2 attacks h1, which castling does not pass: allowed; one
        # jumping g2 from h3 attacks f1: refused.
        self.assertIn("e1g1", moves("grasshopper", "4k3/8/8/8/7g/8/7P/4K2R w K - 0 1"))
        self.assertNotIn("e1g1", moves("grasshopper", "4k3/8/8/8/8/7g/6P1/4K2R w K - 0 1"))


class Berolina(unittest.TestCase):
    def test_start(self):
        pos = Position("berolina")
        # 14 single diagonal steps, 12 double ones, 4 knight moves.
        self.assertEqual([pos.perft(d) for d in (1, 2)], [30, 900])

    def test_pawn_moves(self):
        def pawn(fen):
            return {m for m in moves("berolina", fen) if m.startswith("d2")}
        self.assertEqual(pawn("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1"), {"d2c3", "d2e3", "d2b4", "d2f4"})
        # Captures straight ahead; a taken diagonal cell blocks both steps that way.
        self.assertEqual(pawn("4k3/8/8/8/8/2Nb4/3P4/4K3 w - - 0 1"), {"d2d3", "d2e3", "d2f4"})
        # A double step's landing cell must be empty too, and nothing is taken diagonally.
        self.assertEqual(pawn("4k3/8/8/8/1n3n2/8/3P4/4K3 w - - 0 1"), {"d2c3", "d2e3"})
        self.assertEqual(pawn("4k3/8/8/8/8/2n1n3/3P4/4K3 w - - 0 1"), set())

    def test_en_passant(self):
        pos = after("berolina", "4k3/2p5/8/3P1P2/8/8/8/4K3 b - - 0 1", "c7e5")
        self.assertEqual(pos.fen(), "4k3/8/8/3PpP2/8/8/8/4K3 w - d6e5 0 2")
        self.assertIn("en-passant", pos.special_rules())
        got = {pos.move_text(m) for m in pos.legal_moves()}
        self.assertEqual({m for m in got if m[:2] in ("d5", "f5")},
                         {"d5c6", "d5e6", "d5d6", "f5e6", "f5g6"})
        pos.play("d5d6")
        self.assertEqual(pos.fen(), "4k3/8/3P4/5P2/8/8/8/4K3 b - - 0 2")
        # Read back from the position text; a lone passed cell is enough when one pawn fits.
        for field in ("d6e5", "d6"):
            pos = Position("berolina", "4k3/8/8/3PpP2/8/8/8/4K3 w - %s 0 2" % field)
            self.assertEqual(pos.fen().split()[3], "d6e5")
            pos.play("d5d6")
            self.assertEqual(pos.fen(), "4k3/8/3P4/5P2/8/8/8/4K3 b - - 0 2")
        # Only on the very next move.
        pos = after("berolina", "4k3/2p5/8/3P1P2/8/8/8/4K3 b - - 0 1", "c7e5", "e1d1", "e8d8")
        self.assertNotIn("d5d6", {pos.move_text(m) for m in pos.legal_moves()})

    def test_en_passant_field_names_the_pawn(self):
        # The pawns on c5 (from e7) and e5 (from c7) may both have passed d6.
        fen = "4k3/8/8/2pPp3/8/8/8/4K3 w - %s 0 2"
        pos = after("berolina", fen % "d6e5", "d5d6")
        self.assertEqual(pos.fen(), "4k3/8/3P4/2p5/8/8/8/4K3 b - - 0 2")
        pos = after("berolina", fen % "d6c5", "d5d6")
        self.assertEqual(pos.fen(), "4k3/8/3P4/4p3/8/8/8/4K3 b - - 0 2")
        with self.assertRaisesRegex(ValueError, "c5 and e5 could both have passed it"):
            Position("berolina", fen % "d6")
        # With c7 taken, the pawn on e5 cannot have come from there: only c5 fits.
        pos = Position("berolina", "4k3/2n5/8/2pPp3/8/8/8/4K3 w - d6 0 2")
        self.assertEqual(pos.fen().split()[3], "d6c5")
        # The same from White's side, passing d3.
        pos = after("berolina", "4k3/8/8/8/2PpP3/8/8/4K3 b - d3c4 0 1", "d4d3")
        self.assertEqual(pos.fen(), "4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 2")

    def test_bad_en_passant_field(self):
        for field, message in (("d6", "not on the rank a white"),  # Black is to move
                               ("d3", "no white pawn"),  # no pawn where a double step ends
                               ("d3d4", "no white double step passes d3 and ends on d4"),
                               ("a3b4", "no white double step passes a3 and ends on b4"),
                               ("d3e4x", "like 'd3e4'"),
                               ("d4e5", "not on the rank")):
            with self.assertRaisesRegex(ValueError, message, msg=field):
                Position("berolina", "4k3/8/8/8/8/8/8/4K3 b - %s 0 1" % field)

    def test_check_is_straight_ahead(self):
        self.assertTrue(Position("berolina", "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1")
                        .in_check(chess29.WHITE))
        pos = Position("berolina", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1")
        self.assertFalse(pos.in_check(chess29.WHITE))
        self.assertEqual(moves("berolina", "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1"),
                         {"e1d2", "e1e2", "e1f1", "e1f2"})  # d1 is attacked

    def test_promotion(self):
        got = moves("berolina", "1r2k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
        promos = {m for m in got if m.startswith("b7")}
        self.assertEqual(promos, {"b7%s%s" % (to, p) for to in ("a8", "b8", "c8") for p in "qrbn"})


class CommandLine(unittest.TestCase):
    def test_divide_adds_up(self):
        out = run("berolina", "perft", "2", "--divide").stdout.splitlines()
        counts = [int(line.split(": ")[1]) for line in out[:-1]]
        self.assertEqual(len(counts), 30)
        self.assertEqual(out[-1], "Nodes searched: %d" % sum(counts))
        self.assertEqual(sum(counts), 900)

    def test_random_positions_read_back(self):
        games = int(os.environ.get("CHESS29_READ_BACK_GAMES", "1"))
        for game in chess29.GAMES:
            checked, problems = read_back_problems(game, games, 40, 11)
            self.assertEqual(problems, [], game)
            self.assertGreater(checked, 10 * games, game)
        for game in ("alice", "marseillais", "grasshopper", "berolina"):
            out = run(game, "random", "--count", "3", "--plies", "12", "--seed", "7")
            lines = out.stdout.splitlines()
            self.assertEqual(len(lines), 3, out.stderr)
            again = run(game, "random", "--count", "3", "--plies", "12", "--seed", "7")
            self.assertEqual(again.stdout.splitlines(), lines)  # the seed fixes the games
            for fen in lines:
                self.assertEqual(Position(game, fen).fen(), fen)

    def test_special_positions_have_a_special_rule(self):
        for game in ("alice", "marseillais"):
            out = run(game, "random", "--count", "2", "--plies", "16", "--seed", "3", "--special")
            lines = out.stdout.splitlines()
            self.assertEqual(len(lines), 2, out.stderr)
            for fen in lines:
                self.assertTrue(Position(game, fen).special_rules(), fen)
        out = run("marseillais", "random", "--count", "2", "--plies", "30", "--seed", "3",
                  "--special", "en-passant")
        lines = out.stdout.splitlines()
        self.assertEqual(len(lines), 2, out.stderr)
        for fen in lines:
            self.assertIn("en-passant", Position("marseillais", fen).special_rules(), fen)

    def test_bad_input(self):
        out = run("chess", "moves", "--fen", "rnbqkbnr/pppppppp/8/8 w - - 0 1")
        self.assertEqual(out.returncode, 2)
        self.assertIn("error: placement", out.stderr)
        out = run("marseillais", "moves", "--fen", chess29.CHESS_START + " 3")
        self.assertEqual(out.returncode, 2)
        self.assertIn("seventh field", out.stderr)
        out = run("marseillais", "moves", "--fen", "4k3/8/8/3pP3/8/8/8/4K3 b - d6 0 5 1")
        self.assertEqual(out.returncode, 2)
        self.assertIn("error: en-passant cell d6 is a double step of the side to move", out.stderr)
        out = run("berolina", "moves", "--fen", "4k3/8/8/2pPp3/8/8/8/4K3 w - d6 0 2")
        self.assertEqual(out.returncode, 2)
        self.assertIn("error: en-passant cell d6: the pawns on c5 and e5", out.stderr)
        out = run("berolina", "perft", "0", "--divide")
        self.assertEqual(out.returncode, 2)


if __name__ == "__main__":
    unittest.main()
