#!/usr/bin/env python3
"""Self-checks of games28.py: the published game-tree counts, counts worked out by hand, then
each special rule on small positions whose legal moves are worked out by hand, reading back
the text of random positions, and the command line. Runs in a few seconds:

  python3 tests/oracle/test_games28.py
"""

import os
import random
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import games28  # noqa: E402
from games28 import new_game, perft  # noqa: E402

SCRIPT = os.path.join(HERE, "games28.py")


def moves(game, text, swap=False):
    pos = new_game(game, text, swap)
    return {pos.move_text(m) for m in pos.legal_moves()}


def play(pos, *texts):
    """Make the moves named by texts, each of which must be legal."""
    for text in texts:
        by_text = {pos.move_text(m): m for m in pos.legal_moves()}
        if text not in by_text:
            raise AssertionError("%s is not legal in %s" % (text, pos.text()))
        pos.make(by_text[text])
    return pos


def falling(n, k):
    """n (n-1) ... (n-k+1): k stones placed one by one on n cells, in order."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def run(*args):
    return subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True, text=True)


class PublishedCounts(unittest.TestCase):
    def test_tictactoe(self):
        want = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
        pos = new_game("tictactoe")
        self.assertEqual([perft(pos, d) for d in range(1, 10)], want)
        self.assertEqual(perft(pos, 10), 0)  # every game is over after nine moves

    def test_connect4(self):
        want = [7, 49, 343, 2401, 16807, 117649]  # 823536 and 5673234 at 7, 8: see README
        pos = new_game("connect4")
        self.assertEqual([perft(pos, d) for d in range(1, 7)], want)

    def test_gomoku(self):
        pos = new_game("gomoku")
        self.assertEqual([perft(pos, d) for d in range(1, 4)], [225, 50400, 11239200])
        self.assertEqual(11239200, falling(225, 3))

    def test_hex(self):
        # No chain is possible before Black's 11th stone: every order of placements counts.
        pos = new_game("hex")
        self.assertEqual([perft(pos, d) for d in range(1, 4)], [falling(121, d) for d in (1, 2, 3)])

    def test_hex_swap(self):
        # White's first move is one of 120 cells or the swap; after the swap 120 cells are free.
        pos = new_game("hex", None, True)
        self.assertEqual([perft(pos, d) for d in range(1, 4)],
                         [121, 121 * 121, 121 * (120 * 119 + 120)])

    def test_morris(self):
        # A mill is possible from White's third placement (ply 5) on.
        pos = new_game("morris")
        self.assertEqual([perft(pos, d) for d in range(1, 5)],
                         [falling(24, d) for d in (1, 2, 3, 4)])

    def test_morris_ply5_by_hand(self):
        # Ply 5: every order of five placements, plus one move more for each sequence where
        # White's three stones make one of the 16 mills (in 3! orders, Black's two stones on
        # any 21 x 20 of the other points): it can take either black man.
        if not os.environ.get("GAMES28_SLOW"):
            self.skipTest("set GAMES28_SLOW=1 (about 5 s)")
        self.assertEqual(perft(new_game("morris"), 5), falling(24, 5) + 16 * 6 * 21 * 20)

    def test_morris_ply6_by_hand(self):
        # Ply 6, Black's third placement. After one of the 5100480 - 40320 five-placement
        # sequences without a white mill, Black has 19 points, and two moves more (three
        # removals for one placement) where its two men share a line whose third point is
        # empty: 48 pairs of points on a line, in 2 orders, times the white placements that
        # avoid that third point and make no mill (21 x 20 x 19, less 12 lines x 3! of mills
        # clear of the black line). After a white mill (40320 sequences, 2 removals each)
        # Black places on any of 20 points.
        if not os.environ.get("GAMES28_SLOW"):
            self.skipTest("set GAMES28_SLOW=1 (about a minute)")
        no_mill = falling(24, 5) - 16 * 6 * 21 * 20
        black_lines = 48 * 2 * (21 * 20 * 19 - 12 * 6)
        want = no_mill * 19 + 2 * black_lines + 16 * 6 * 21 * 20 * 2 * 20
        self.assertEqual(want, 99274176)
        self.assertEqual(perft(new_game("morris"), 6), want)

    def test_tafl_first_moves(self):
        # Brandubh: each arm of the cross has a man that moves 4 ways (not onto the corners)
        # and one that moves 6 ways.
        self.assertEqual(perft(new_game("brandubh"), 1), 4 * (4 + 6))
        # The defenders' four men have 6 moves each; of one arm's 10 attacker moves, d2 to c2
        # or e2 and d1 to c1 or e1 take one away, d2 to a2, b2, f2 or g2 give d3 one more:
        # 240 replies per arm in all.
        self.assertEqual(perft(new_game("brandubh"), 2), 4 * 240)
        # Hnefatafl: per side, d11 (or h11) 2 + 4, e11 (or g11) 3, f11 none, f10 5 + 5 + 1.
        self.assertEqual(perft(new_game("hnefatafl"), 1), 4 * (6 + 3 + 0 + 3 + 6 + 11))


class LineGames(unittest.TestCase):
    def test_tictactoe_win_stops(self):
        self.assertEqual(moves("tictactoe", "xxx/oo1/3 o"), set())
        pos = play(new_game("tictactoe"), "a1", "b1", "a2", "b2")
        self.assertIn("a3", {pos.move_text(m) for m in pos.legal_moves()})
        play(pos, "a3")
        self.assertEqual(pos.legal_moves(), [])
        self.assertIn("x has 3 in a row", pos.result())
        self.assertEqual(pos.text(), "x2/xo1/xo1 o")

    def test_tictactoe_draw(self):
        pos = new_game("tictactoe", "xox/xoo/oxx o")
        self.assertEqual(pos.legal_moves(), [])
        self.assertIn("draw", pos.result())

    def test_connect4_gravity(self):
        pos = play(new_game("connect4"), "d", "d", "c")
        self.assertEqual(pos.text(), "7/7/7/7/3y3/2rr3 y")
        full = "r6/y6/r6/y6/r6/y6 r"  # column a is full
        self.assertEqual(moves("connect4", full), set("bcdefg"))
        with self.assertRaises(ValueError):
            new_game("connect4", "7/7/7/7/3r3/7 y")  # a disc in the air

    def test_connect4_diagonal_win(self):
        # Red on a1, b2, c3; d4 needs three discs below it first, then red wins there.
        pos = new_game("connect4", "7/7/7/2ryy2/1rryr2/ryyry2 r")
        self.assertIsNone(pos.result())
        play(pos, "d")
        self.assertIn("r has 4 in a row", pos.result())
        self.assertEqual(pos.legal_moves(), [])

    def test_gomoku_overline_wins(self):
        # Black a1 b1 c1 e1 f1: d1 makes six in a row, which wins in freestyle gomoku.
        text = "/".join(["15"] * 14 + ["bbb1bb9"]) + " b"
        pos = new_game("gomoku", "/".join(["15"] * 13 + ["wwww11", "bbb1bb9"]) + " b")
        play(pos, "d1")
        self.assertIn("b has 5 in a row", pos.result())
        self.assertEqual(len(moves("gomoku", text)), 220)

    def test_gomoku_four_does_not_win(self):
        pos = new_game("gomoku", "/".join(["15"] * 13 + ["wwww11", "bbb12"]) + " b")
        play(pos, "d1")
        self.assertIsNone(pos.result())
        play(pos, "e2")  # white's fifth in a row on rank 2
        self.assertIn("w has 5 in a row", pos.result())


def hex_text(cells, side, swap="0"):
    """An 11x11 Hex position from {cell name: 'b' or 'w'}."""
    found = {games28.parse_cell_name(c, 11, 11): v for c, v in cells.items()}
    return games28.write_rows(11, 11, lambda x, y: found.get((x, y), "")) + " " + side + " " + swap


class HexRules(unittest.TestCase):
    def test_neighbours(self):
        pos = new_game("hex")
        names = lambda c: sorted(pos.move_text(d) for d in pos.neighbours[c])  # noqa: E731
        self.assertEqual(names(0), ["a2", "b1"])  # a1: the acute corner
        self.assertEqual(names(10), ["j1", "j2", "k2"])  # k1: an obtuse corner
        self.assertEqual(names(5 * 11 + 5), ["e6", "e7", "f5", "f7", "g5", "g6"])  # f6

    def test_chain_around_the_edge(self):
        # Black runs along rank 1 from f1 to the corner k1, then up file k to k10: k11 joins.
        cells = {c: "b" for c in ["f1", "g1", "h1", "i1", "j1", "k1"]
                 + ["k%d" % r for r in range(2, 11)]}
        cells.update({"a%d" % r: "w" for r in range(1, 11)})
        cells.update({"b%d" % r: "w" for r in range(1, 6)})
        pos = new_game("hex", hex_text(cells, "b"))
        self.assertIsNone(pos.result())
        play(pos, "k11")
        self.assertIn("Black has connected", pos.result())
        self.assertEqual(pos.legal_moves(), [])

    def test_white_chain_around_the_corner(self):
        # White down file a from a6 to the corner a11, then along rank 11 to j11: k11 joins.
        cells = {"a%d" % r: "w" for r in range(6, 12)}
        cells.update({c + "11": "w" for c in "bcdefghij"})
        cells.update({c + "1": "b" for c in "abcdefghijk"})
        cells.update({c + "2": "b" for c in "abcd"})
        pos = new_game("hex", hex_text(cells, "w"))
        self.assertIsNone(pos.result())
        self.assertIn("k11", {pos.move_text(m) for m in pos.legal_moves()})
        play(pos, "k11")
        self.assertIn("White has connected", pos.result())

    def test_no_link_across_rows(self):
        # k5 and a6 follow each other in a row-major index but do not touch; a10 and b11 do
        # not touch either (only (x+1, y-1) and (x-1, y+1) are diagonal neighbours).
        cells = {"k%d" % r: "b" for r in range(1, 6)}
        cells.update({"a%d" % r: "b" for r in range(6, 11)})
        cells["b11"] = "b"
        cells.update({c + "3": "w" for c in "abcdefghij"})
        pos = new_game("hex", hex_text(cells, "w"))
        self.assertIsNone(pos.result())
        play(pos, "c5")
        self.assertIsNone(pos.result())
        self.assertEqual(len(pos.legal_moves()), 121 - 21 - 1)

    def test_swap(self):
        pos = new_game("hex", None, True)
        self.assertEqual(pos.text(), "/".join(["11"] * 11) + " b 1")
        play(pos, "c2")
        self.assertEqual(pos.text(), "/".join(["11"] * 9 + ["2b8", "11"]) + " w 1")
        self.assertIn("swap", {pos.move_text(m) for m in pos.legal_moves()})
        play(pos, "swap")  # c2 = (2, 1) becomes b3 = (1, 2), White's
        self.assertEqual(pos.text(), "/".join(["11"] * 8 + ["1w9", "11", "11"]) + " b 0")
        self.assertEqual(len(pos.legal_moves()), 120)
        pos.unmake()
        self.assertEqual(pos.text(), "/".join(["11"] * 9 + ["2b8", "11"]) + " w 1")
        play(pos, "e5")  # a placement uses up the chance to swap
        self.assertTrue(pos.text().endswith(" b 0"))
        play(pos, "f6")
        self.assertNotIn("swap", {pos.move_text(m) for m in pos.legal_moves()})

    def test_swap_off(self):
        pos = play(new_game("hex"), "c2")
        self.assertEqual(len(pos.legal_moves()), 120)
        self.assertTrue(pos.text().endswith(" w 0"))
        with self.assertRaises(ValueError):  # the swap field cannot be 1 later in the game
            new_game("hex", hex_text({"c2": "b", "d4": "w"}, "b", "1"))


class MorrisRules(unittest.TestCase):
    def test_mill_takes_a_man_not_in_a_mill(self):
        # White places g1: a1-d1-g1. Black's b2, d2, f2 are a mill, so only c3 may go.
        text = "a1,d1/b2,c3,d2,f2 w 5 5"
        got = moves("morris", text)
        self.assertIn("g1xc3", got)
        self.assertNotIn("g1", got)
        self.assertFalse({"g1xb2", "g1xd2", "g1xf2"} & got)
        self.assertEqual(len(got), 18)  # one move per empty point

    def test_mill_takes_any_when_all_in_mills(self):
        got = moves("morris", "a1,d1/b2,d2,f2 w 5 6")
        self.assertTrue({"g1xb2", "g1xd2", "g1xf2"} <= got)
        self.assertEqual(len(got), 19 - 1 + 3)

    def test_two_mills_take_one(self):
        got = moves("morris", "a1,d1,g4,g7/c3,e5 w 5 7")
        self.assertEqual({m for m in got if m.startswith("g1")}, {"g1xc3", "g1xe5"})

    def test_mill_by_moving(self):
        # Moving phase: g4-g1 closes a1-d1-g1, and any of the five black men may go (none is
        # in a mill); the standing mill a7-d7-g7 takes nothing by itself.
        text = "a1,a7,d1,d7,g4,g7/b2,b6,c3,e4,f4 w 0 0"
        got = moves("morris", text)
        self.assertEqual({m for m in got if m.startswith("g4-g1")},
                         {"g4-g1x" + p for p in ("b2", "b6", "c3", "e4", "f4")})
        self.assertNotIn("g4-g1", got)
        pos = play(new_game("morris", text), "g4-g1xc3")
        self.assertEqual(pos.text(), "a1,a7,d1,d7,g1,g7/b2,b6,e4,f4 b 0 0")

    def test_moving_back_into_a_line(self):
        # g1-g4 leaves the mill a1-d1-g1 and takes nothing; g4-g1 makes it again and takes.
        got = moves("morris", "a1,b6,d1,g1/c3,c5,e3,e5 w 0 0")
        self.assertIn("g1-g4", got)
        self.assertFalse(any("x" in m for m in got))
        got = moves("morris", "a1,b6,d1,g4/c3,c5,e3,e5 w 0 0")
        self.assertEqual({m for m in got if m.startswith("g4-g1")},
                         {"g4-g1x" + p for p in ("c3", "c5", "e3", "e5")})

    def test_flying(self):
        # White has three men and none in hand: any man to any empty point (3 x 17); c5-g1
        # closes a1-d1-g1 and takes e4, the one black man not in a mill.
        text = "a1,c5,d1/b2,d2,e4,f2 w 0 0"
        got = moves("morris", text)
        self.assertEqual(len(got), 3 * 17)
        self.assertIn("c5-g1xe4", got)
        self.assertIn("a1-g7", got)
        self.assertIn("a1-g1", got)  # a1 leaves the line it would close: no mill
        self.assertTrue(new_game("morris", text).special("flying"))
        # Black, with four men, only steps along the lines.
        black = moves("morris", "a1,c5,d1/b2,d2,e4,f2 b 0 0")
        self.assertEqual(black, {"b2-b4", "d2-d3", "e4-e3", "e4-e5", "e4-f4", "f2-f4"})

    def test_fewer_than_three_loses(self):
        pos = play(new_game("morris", "a1,d1,c5/b2,e4,f6 w 0 0"), "c5-g1xb2")
        self.assertEqual(pos.legal_moves(), [])
        self.assertIn("black has fewer than 3 men", pos.result())

    def test_blocked_loses(self):
        # Black's four men are shut in by white men (four men: Black does not fly).
        pos = new_game("morris", "a4,d2,d7,g1,g4/a1,a7,d1,g7 b 0 0")
        self.assertEqual(pos.legal_moves(), [])
        self.assertIn("black has no legal move", pos.result())
        self.assertEqual(moves("morris", "a4,d2,d7,g1/a1,a7,d1,g7 b 0 0"), {"g7-g4"})

    def test_one_side_still_placing(self):
        # White's hand is empty, Black's is not: White moves (g4-g1 closes a1-d1-g1 and takes
        # c3 or e5, as b2 d2 f2 are a mill), then Black places on one of the 15 empty points.
        pos = new_game("morris", "a1,b6,d1,g4/b2,c3,d2,e5,f2 w 0 1")
        got = {pos.move_text(m) for m in pos.legal_moves()}
        self.assertEqual(got, {"a1-a4", "d1-g1", "g4-f4", "g4-g7", "b6-b4", "b6-d6",
                               "g4-g1xc3", "g4-g1xe5"})
        play(pos, "a1-a4")
        got = {pos.move_text(m) for m in pos.legal_moves()}
        self.assertEqual(len(got), 15)
        self.assertTrue(all("-" not in m and "x" not in m for m in got))
        play(pos, "g1")
        self.assertEqual(pos.text(), "a4,b6,d1,g4/b2,c3,d2,e5,f2,g1 w 0 0")

    def test_text_round_trip(self):
        text = "a1,d2/g7 b 7 8"
        self.assertEqual(new_game("morris", text).text(), text)
        self.assertEqual(new_game("morris", "d2,a1/g7 b 7 8").text(), text)
        self.assertEqual(new_game("morris", "/ w 9 9").text(), "/ w 9 9")
        # a1,d2 with 8 still in hand would be ten white men.
        for bad in ("a1,d2/g7 b 8 8", "a1,d2 b 7 8", "a1,h2/ b 8 8", "a1,a1/ b 8 8", "/ x 9 9",
                    "/ w 10 9",
                    "a1,a4,a7/ w 7 9", "/ w 9"):
            with self.assertRaises(ValueError, msg=bad):
                new_game("morris", bad)


def brandubh(cells, side):
    found = {games28.parse_cell_name(c, 7, 7): v for c, v in cells.items()}
    return games28.write_rows(7, 7, lambda x, y: found.get((x, y), "")) + " " + side


def hnefatafl(cells, side):
    found = {games28.parse_cell_name(c, 11, 11): v for c, v in cells.items()}
    return games28.write_rows(11, 11, lambda x, y: found.get((x, y), "")) + " " + side


def captures(game, text):
    """The moves that take something."""
    return {m for m in moves(game, text) if "x" in m}


class BrandubhRules(unittest.TestCase):
    def test_start_text(self):
        self.assertEqual(new_game("brandubh").text(), "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 a")

    def test_king_next_to_throne_needs_three_attackers(self):
        # King d5 above the throne d4, attackers c5 e5: a6-d6 takes it (three and the throne).
        text = brandubh({"d5": "k", "c5": "a", "e5": "a", "a6": "a"}, "a")
        self.assertEqual(captures("brandubh", text), {"a6-d6xd5"})
        pos = play(new_game("brandubh", text), "a6-d6xd5")
        self.assertIn("king is captured", pos.result())
        self.assertEqual(pos.legal_moves(), [])
        # With c5 empty, d6 and the empty throne are not enough, though they would be for a
        # defender (see test_empty_throne_is_hostile).
        text = brandubh({"d5": "k", "e5": "a", "a6": "a"}, "a")
        self.assertEqual(captures("brandubh", text), set())
        self.assertIn("a6-d6", moves("brandubh", text))

    def test_king_on_throne_needs_four(self):
        text = brandubh({"d4": "k", "c4": "a", "e4": "a", "d3": "a", "a5": "a"}, "a")
        self.assertEqual(captures("brandubh", text), {"a5-d5xd4"})
        text = brandubh({"d4": "k", "c4": "a", "e4": "a", "a5": "a"}, "a")
        self.assertEqual(captures("brandubh", text), set())

    def test_king_elsewhere_taken_by_two_or_a_corner(self):
        # King b1 next to the corner a1: an attacker on c1 takes it. King on the edge at a3:
        # attackers on a2 and a4.
        text = brandubh({"b1": "k", "c5": "a", "g4": "a"}, "a")
        self.assertEqual(captures("brandubh", text), {"c5-c1xb1"})
        text = brandubh({"a3": "k", "a2": "a", "e4": "a"}, "a")
        self.assertEqual(captures("brandubh", text), {"e4-a4xa3"})

    def test_empty_throne_is_hostile(self):
        # Defender d5 between the empty throne and an attacker arriving on d6; attacker d3
        # between the empty throne and a defender arriving on d2 (the king is away on a2...).
        text = brandubh({"d5": "d", "a6": "a", "f2": "k"}, "a")
        self.assertEqual(captures("brandubh", text), {"a6-d6xd5"})
        text = brandubh({"d3": "a", "f2": "d", "b6": "k"}, "d")
        self.assertEqual(captures("brandubh", text), {"f2-d2xd3"})
        # ... but not while the king sits on it: the attacker's d6 does not take d5 then.
        text = brandubh({"d5": "d", "a6": "a", "d4": "k"}, "a")
        self.assertEqual(captures("brandubh", text), set())

    def test_king_is_armed(self):
        # The king on the throne is the far side of a capture, and the king moving takes.
        text = brandubh({"d4": "k", "d5": "a", "a6": "d", "g2": "a"}, "d")
        self.assertIn("a6-d6xd5", captures("brandubh", text))
        text = brandubh({"c6": "k", "e6": "a", "f6": "d", "g2": "a"}, "d")
        self.assertEqual(captures("brandubh", text), {"c6-d6xe6"})

    def test_corner_is_hostile_to_both(self):
        # An attacker on a2 next to the corner a1 falls to a defender arriving on a3.
        text = brandubh({"a2": "a", "c3": "d", "d4": "k"}, "d")
        self.assertEqual(captures("brandubh", text), {"c3-a3xa2"})
        # A defender on b7 falls to an attacker arriving on c7.
        text = brandubh({"b7": "d", "c3": "a", "d4": "k"}, "a")
        self.assertEqual(captures("brandubh", text), {"c3-c7xb7"})

    def test_moving_between_two_enemies_is_safe(self):
        text = brandubh({"d7": "a", "c6": "d", "e6": "d", "d4": "k"}, "a")
        got = moves("brandubh", text)
        self.assertIn("d7-d6", got)
        pos = play(new_game("brandubh", text), "d7-d6")
        self.assertEqual(pos.text(), brandubh({"d6": "a", "c6": "d", "e6": "d", "d4": "k"}, "d"))

    def test_several_at_once(self):
        # An attacker coming down from d7 over the empty throne to d2 takes c2 (against b2)
        # and e2 (against f2); with the king on the throne it cannot pass.
        cells = {"b2": "a", "c2": "d", "e2": "d", "f2": "a", "d7": "a", "b6": "k"}
        self.assertEqual(captures("brandubh", brandubh(cells, "a")), {"d7-d2xc2,e2"})
        del cells["b6"]
        cells["d4"] = "k"
        self.assertEqual(captures("brandubh", brandubh(cells, "a")), set())

    def test_throne_and_corners(self):
        # Only the king stops on the throne and the corners; others pass the empty throne.
        got = moves("brandubh", brandubh({"d2": "a", "a3": "d", "b6": "k"}, "a"))
        self.assertIn("d2-d7", got)
        self.assertNotIn("d2-d4", got)
        text = brandubh({"a3": "d", "b7": "k", "d2": "a"}, "d")
        self.assertEqual(moves("brandubh", text) & {"a3-a1", "a3-a7", "b7-a7", "a3-a2"},
                         {"b7-a7", "a3-a2"})
        pos = play(new_game("brandubh", text), "b7-a7")
        self.assertIn("escaped", pos.result())
        self.assertEqual(pos.legal_moves(), [])
        # The king may come back to the throne and go on past it; with it there, nothing passes.
        got = moves("brandubh", brandubh({"d6": "k", "a2": "a"}, "d"))
        self.assertTrue({"d6-d4", "d6-d1"} <= got)
        text = brandubh({"d4": "k", "d2": "a"}, "a")
        self.assertEqual({m for m in moves("brandubh", text) if m.startswith("d2-d")},
                         {"d2-d1", "d2-d3"})


class HnefataflRules(unittest.TestCase):
    def test_start(self):
        pos = new_game("hnefatafl")
        self.assertEqual(pos.text(), games28.HNEFATAFL_START)
        self.assertEqual(sum(1 for v in pos.board if v == games28.ATTACKER), 24)
        self.assertEqual(sum(1 for v in pos.board if v == games28.DEFENDER), 12)

    def test_king_needs_four_sides(self):
        # King e5 in the open with attackers d5 f5 e4: a6-e6 takes it.
        text = hnefatafl({"e5": "k", "d5": "a", "f5": "a", "e4": "a", "a6": "a"}, "a")
        self.assertEqual(captures("hnefatafl", text), {"a6-e6xe5"})
        # Two attackers are not enough, even in line.
        text = hnefatafl({"e5": "k", "e4": "a", "a6": "a"}, "a")
        self.assertEqual(captures("hnefatafl", text), set())

    def test_king_against_the_throne(self):
        # King f7 above the throne f6, attackers e7 g7: a8-f8 takes it; without e7, no.
        text = hnefatafl({"f7": "k", "e7": "a", "g7": "a", "a8": "a"}, "a")
        self.assertEqual(captures("hnefatafl", text), {"a8-f8xf7"})
        text = hnefatafl({"f7": "k", "g7": "a", "a8": "a"}, "a")
        self.assertEqual(captures("hnefatafl", text), set())
        # On the throne: all four.
        text = hnefatafl({"f6": "k", "e6": "a", "g6": "a", "f5": "a", "a7": "a"}, "a")
        self.assertEqual(captures("hnefatafl", text), {"a7-f7xf6"})

    def test_king_safe_on_the_edge(self):
        text = hnefatafl({"f1": "k", "e1": "a", "f2": "a", "g3": "a"}, "a")
        self.assertEqual(captures("hnefatafl", text), set())
        self.assertIn("g3-g1", moves("hnefatafl", text))

    def test_shieldwall_against_a_corner(self):
        # Defenders b1 c1 with attackers b2 c2 in front; the corner a1 closes one end and an
        # attacker arriving on d1 the other.
        text = hnefatafl({"b1": "d", "c1": "d", "b2": "a", "c2": "a", "d5": "a", "f6": "k"}, "a")
        self.assertEqual(captures("hnefatafl", text), {"d5-d1xb1,c1"})
        self.assertTrue(new_game("hnefatafl", text).special("shieldwall"))
        # Brandubh has no shieldwall: the same shape takes nothing there.
        text7 = brandubh({"b1": "d", "c1": "d", "b2": "a", "c2": "a", "d5": "a", "f6": "k"}, "a")
        self.assertEqual(captures("brandubh", text7), set())

    def test_shieldwall_between_pieces_keeps_the_king(self):
        # Attackers e11 f11 g11 under defenders e10 f10 g10, closed by defenders d11 and h11
        # arriving: all three are taken. With the king in a defenders' row, it stays.
        text = hnefatafl({"e11": "a", "f11": "a", "g11": "a", "e10": "d", "f10": "d", "g10": "k",
                          "d11": "d", "h5": "d"}, "d")
        self.assertEqual(captures("hnefatafl", text), {"h5-h11xe11,f11,g11"})
        text = hnefatafl({"c1": "k", "d1": "d", "e1": "d", "c2": "a", "d2": "a", "e2": "a",
                          "b1": "a", "f4": "a"}, "a")
        self.assertEqual(captures("hnefatafl", text), {"f4-f1xd1,e1"})

    def test_shieldwall_needs_every_front(self):
        text = hnefatafl({"b1": "d", "c1": "d", "b2": "a", "d5": "a", "f6": "k"}, "a")
        self.assertEqual(captures("hnefatafl", text), set())
        # A single piece, even with an enemy in front, is an ordinary custodian capture, not a
        # shieldwall.
        text = hnefatafl({"c1": "d", "c2": "a", "b1": "a", "d5": "a", "f6": "k"}, "a")
        self.assertEqual(captures("hnefatafl", text), {"d5-d1xc1"})
        pos = new_game("hnefatafl", text)
        self.assertFalse(pos.special("shieldwall"))
        self.assertEqual([pos.wall_captures(m) for m in pos.legal_moves() if m[2]], [set()])

    def test_capture_sort_order(self):
        # Cells after x are sorted by file, then rank as a number (a2 before a10).
        pos = new_game("hnefatafl", "11/11/11/11/11/5k5/11/11/11/11/11 a")
        self.assertEqual(pos.name_of(pos.sq(0, 9)), "a10")
        self.assertEqual(sorted([pos.sq(0, 9), pos.sq(0, 1)], key=pos.xy),
                         [pos.sq(0, 1), pos.sq(0, 9)])


class ReadBack(unittest.TestCase):
    def test_random_positions_read_back(self):
        """Every position of a few random games reads back to the same text, moves and perft 2
        (hex with the swap rule as well)."""
        rng = random.Random(28)
        for game, swap, plies in (("tictactoe", False, 9), ("connect4", False, 42),
                                  ("gomoku", False, 40), ("hex", False, 60), ("hex", True, 4),
                                  ("morris", False, 80), ("brandubh", False, 60),
                                  ("hnefatafl", False, 40)):
            pos = new_game(game, None, swap)
            for _ in range(plies):
                text = pos.text()
                copy = new_game(game, text, swap)
                self.assertEqual(copy.text(), text)
                mine = sorted(pos.move_text(m) for m in pos.legal_moves())
                self.assertEqual(sorted(copy.move_text(m) for m in copy.legal_moves()), mine)
                if game != "hnefatafl":
                    self.assertEqual(games28.divide(copy, 2), games28.divide(pos, 2))
                if not mine:
                    break
                pos.make(rng.choice(pos.legal_moves()))

    def test_make_unmake(self):
        rng = random.Random(7)
        for game in games28.GAMES:
            pos = new_game(game, None, game == "hex")
            texts = []
            for _ in range(30):
                ms = pos.legal_moves()
                if not ms:
                    break
                texts.append(pos.text())
                pos.make(rng.choice(ms))
            while texts:
                pos.unmake()
                self.assertEqual(pos.text(), texts.pop())


class CommandLine(unittest.TestCase):
    def test_divide(self):
        out = run("tictactoe", "perft", "3", "--divide")
        self.assertEqual(out.returncode, 0, out.stderr)
        lines = out.stdout.splitlines()
        self.assertEqual(len(lines), 10)
        self.assertEqual(lines[0], "a1: 56")
        self.assertEqual(lines[-1], "Nodes searched: 504")
        self.assertEqual(sum(int(line.split(": ")[1]) for line in lines[:-1]), 504)

    def test_moves(self):
        out = run("connect4", "moves", "--fen", "r6/y6/r6/y6/r6/y6 r")
        self.assertEqual(out.stdout.split(), list("bcdefg"))
        out = run("hex", "moves", "--fen", hex_text({"c2": "b"}, "w", "1"))
        self.assertIn("swap", out.stdout.split())
        self.assertEqual(len(out.stdout.split()), 121)

    def test_random(self):
        a = run("brandubh", "random", "--count", "3", "--plies", "20", "--seed", "5")
        b = run("brandubh", "random", "--count", "3", "--plies", "20", "--seed", "5")
        self.assertEqual(a.returncode, 0, a.stderr)
        self.assertEqual(a.stdout, b.stdout)
        self.assertEqual(len(a.stdout.splitlines()), 3)
        for line in a.stdout.splitlines():
            new_game("brandubh", line)
        out = run("tictactoe", "random", "--count", "4", "--plies", "9", "--seed", "1")
        ended = [new_game("tictactoe", t).result() for t in out.stdout.splitlines()]
        self.assertEqual(out.stderr.count("has ended"), sum(1 for e in ended if e))

    def test_random_special(self):
        for game, rule, extra in (("morris", "mill", []), ("brandubh", "capture", []),
                                  ("brandubh", "throne", []), ("hex", "swap", ["--swap"])):
            out = run(game, "random", "--count", "2", "--plies", "40", "--seed", "3",
                      "--special", rule, *extra)
            self.assertEqual(out.returncode, 0, out.stderr)
            for line in out.stdout.splitlines():
                self.assertTrue(new_game(game, line, "--swap" in extra).special(rule), line)

    def test_bad_input(self):
        cases = [
            (["chess", "perft", "1"], "unknown game 'chess'"),
            (["tictactoe", "perft"], "perft needs a depth"),
            (["tictactoe", "perft", "x"], "perft needs a depth"),
            (["tictactoe", "moves", "--fen", "3/3 x"], "needs 3 rows"),
            (["tictactoe", "moves", "--fen", "3/3/3 z"], "side to move 'z'"),
            (["tictactoe", "moves", "--fen", "3/3/2q x"], "unknown piece 'q'"),
            (["connect4", "moves", "--fen", "7/7/7/7/7/8 r"], "covers 8 cells"),
            (["hex", "moves", "--fen", "11 b 0"], "needs 11 rows"),
            (["hex", "moves", "--fen", "/".join(["11"] * 11) + " b 2"], "swap field '2'"),
            (["morris", "moves", "--fen", "a1,z9/ w 8 9"], "'z9' is not a point"),
            (["brandubh", "moves", "--fen", "3a3/3a3/3d3/aadadaa/3d3/3a3/3a3 a"],
             "only the king may stand on d4"),
            (["hnefatafl", "moves", "--fen", "k10/11/11/11/11/5k5/11/11/11/11/11 a"],
             "more than one king"),
            (["morris", "random", "--count", "1", "--plies", "5"], "random needs --seed"),
            (["gomoku", "random", "--count", "1", "--plies", "5", "--seed", "1", "--special"],
             "no special rules"),
            (["hex", "random", "--count", "1", "--plies", "5", "--seed", "1", "--special"],
             "add --swap"),
            (["morris", "perft", "1", "--swap"], "--swap is for hex only"),
            (["morris", "moves", "--fen", ""], "0 fields, not 4"),
            (["gomoku", "moves", "--fen", ""], "0 fields, not 2"),
            (["brandubh", "random", "--count", "1", "--plies", "5", "--seed", "1", "--special",
              "shieldwall"], "unknown rule 'shieldwall' for brandubh"),
            (["morris", "perft", "-1"], "perft needs a depth"),
            (["morris", "moves", "--fen", "/ w 9 9", "--count", "2"], "--count is for the random"),
        ]
        for args, message in cases:
            out = run(*args)
            self.assertEqual(out.returncode, 2, args)
            self.assertIn("games28.py: error: ", out.stderr, args)
            self.assertIn(message, out.stderr, args)
            self.assertNotIn("Traceback", out.stderr, args)


if __name__ == "__main__":
    unittest.main()
