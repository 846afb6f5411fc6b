/* test_games28.c - placement, connection, morris and tafl: a mill and the choice of the man it
 * takes, a Hex chain along the board's edge (and cells that only look adjacent), a king taken
 * against the throne (and not on the hnefatafl edge), the shield wall; and the mechanisms under
 * them on small rule texts: drop programs, goto a zone, exists, create and change-type, reflect,
 * in-a-row (exactly), connect, occupy, most, symmetry and graph links. The expected moves were
 * worked out by hand; the games' own files agree with the independent generator
 * tests/oracle/games28.py (tests/games-compare.py). */
#include "support.h"
#include "board.h"
#include "ending.h"
#include "gameend.h"
#include "perft.h"

static Variant *morris, *hex, *brandubh, *hnefatafl;

static int setup(void **state) {
    (void)state;
    DiagSink sink;
    diag_init(&sink);
    morris = load_file("rules/morris.rules", NULL, 0, &sink);
    hex = load_file("rules/hex.rules", NULL, 0, &sink);
    brandubh = load_file("rules/brandubh.rules", NULL, 0, &sink);
    hnefatafl = load_file("rules/hnefatafl.rules", NULL, 0, &sink);
    diag_free(&sink);
    return morris && hex && brandubh && hnefatafl ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    variant_free(morris);
    variant_free(hex);
    variant_free(brandubh);
    variant_free(hnefatafl);
    return 0;
}

/* How the game stands in fen: the ending's reason ("" while it goes on) and the winner. */
static const char *ending_of(const Variant *v, const char *fen, int *winner) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    GameResult r = {0};
    gameend_check(test_gen(), &pos, &r);
    *winner = r.over ? r.winner : -2;
    const char *why = r.over ? (r.name ? r.name : r.reason) : "";
    board_free(&pos);
    return why;
}

/* ---- morris ---------------------------------------------------------------------------------- */

/* White places on g1 and closes the mill a1-d1-g1: it takes one black man, either one, each a
 * move of its own; the other points are placements alone. */
static void test_mill_takes_a_man_of_the_mover_s_choice(void **state) {
    (void)state;
    expect_legal_moves(morris, "3/3/3/6/3/mm1/MM1[MMMMMMMmmmmmmm] w",
                       "M@g1xb2 M@g1xd2 M@f2 M@c3 M@d3 M@e3 M@a4 M@b4 M@c4 M@e4 M@f4 M@g4 M@c5 M@d5 M@e5 M@b6 M@d6 "
                       "M@f6 M@a7 M@d7 M@g7");
    char fen[256];
    position_after(morris, "3/3/3/6/3/mm1/MM1[MMMMMMMmmmmmmm] w", "g1xd2", fen, sizeof fen);
    assert_string_equal(fen, "3/3/3/6/3/m2/MMM[MMMMMMmmmmmmm] b - - 0 1");
}

/* A man in a mill is not taken while another is not: black's a7-d7-g7 stands, b6 may be taken;
 * once every black man is in a mill, any may be. */
static void test_mill_spares_men_in_a_mill_unless_all_are(void **state) {
    (void)state;
    /* white: a1 d1 on the board, g1 to place; black: a7 d7 g7 (a mill) and b6 */
    Position pos;
    board_init(&pos, morris);
    set_fen(&pos, "mmm/m2/3/6/3/3/MM1[MMMMMMMmmmmm] w");
    char got[8192];
    legal_moves_text(&pos, got, sizeof got);
    assert_non_null(strstr(got, "M@g1xb6"));
    assert_null(strstr(got, "M@g1xa7"));
    assert_null(strstr(got, "M@g1xd7"));
    board_free(&pos);
    /* without b6: every black man is in the mill, each may go */
    board_init(&pos, morris);
    set_fen(&pos, "mmm/3/3/6/3/3/MM1[MMMMMMMmmmmm] w");
    legal_moves_text(&pos, got, sizeof got);
    assert_non_null(strstr(got, "M@g1xa7"));
    assert_non_null(strstr(got, "M@g1xd7"));
    assert_non_null(strstr(got, "M@g1xg7"));
    board_free(&pos);
}

/* Two mills at once take one man; a mill with no enemy man on the board takes nothing; a man
 * moved away from a mill point does not count there (the moving man's cell is empty). */
static void test_mill_corner_cases(void **state) {
    (void)state;
    /* d1 closes a1-d1-g1 and d1-d2-d3 at once: one man of b6's and f6's taken, not two */
    Position pos;
    board_init(&pos, morris);
    set_fen(&pos, "3/m1m/3/6/1M1/1M1/M1M[MMMMMmmmmmmmm] w");
    char got[8192];
    legal_moves_text(&pos, got, sizeof got);
    assert_non_null(strstr(got, "M@d1xb6"));
    assert_non_null(strstr(got, "M@d1xf6"));
    board_free(&pos);
    expect_legal_moves(morris, "3/3/3/6/3/3/MM1[MMMMMMMmmmmmmmmm] w",
                       "M@g1 M@b2 M@d2 M@f2 M@c3 M@d3 M@e3 M@a4 M@b4 M@c4 M@e4 M@f4 M@g4 M@c5 M@d5 M@e5 M@b6 M@d6 "
                       "M@f6 M@a7 M@d7 M@g7");
    /* moving: the man on d2 steps to d3 beside c3 and e3 (a mill) and takes one of three; it
     * leaves d2, so d1-d2-d3 is no mill: d1 is taken by nobody's moving back */
    board_init(&pos, morris);
    set_fen(&pos, "m1m/3/m2/6/M1M/1M1/1M1[] w");
    legal_moves_text(&pos, got, sizeof got);
    assert_non_null(strstr(got, "d2d3xc5"));
    assert_non_null(strstr(got, "d2d3xa7"));
    assert_non_null(strstr(got, "d2d3xg7"));
    assert_non_null(strstr(got, "d2f2 "));
    board_free(&pos);
}

/* Flying with three men (to any empty point, not only along a line); fewer than three, or no
 * move, loses. */
static void test_morris_flying_and_losing(void **state) {
    (void)state;
    int winner;
    assert_string_equal(ending_of(morris, "m1m/1m1/3/6/3/3/M1M[] w", &winner), "fewer than three men");
    assert_int_equal(winner, 1);
    /* three white men on rank 1, black's on a7 g7 b6: a1 goes anywhere empty (18 points) */
    Position pos;
    board_init(&pos, morris);
    set_fen(&pos, "m1m/m2/3/6/3/3/MMM[] w");
    MoveList *ml = malloc(sizeof *ml);
    VmFault fault = {0};
    assert_true(movegen_legal(test_gen(), &pos, ml, &fault));
    int from_a1 = 0;
    for (int i = 0; i < ml->count; i++) from_a1 += ml->moves[i].from == (Cell)variant_cell_by_name(morris, "a1");
    assert_int_equal(from_a1, 18);
    free(ml);
    board_free(&pos);
    /* black blocked: its four men hemmed in with no empty neighbour (with three it would fly) */
    assert_string_equal(ending_of(morris, "mmm/1M1/3/mM3M/3/3/M2[] b", &winner), "no move");
    assert_int_equal(winner, 0);
}

/* ---- hex ------------------------------------------------------------------------------------- */

/* Black's chain up file a, along the board's edge, joins rank 1 to rank 11; a chain of cells
 * that only look adjacent on the diagonal (a1 b2 c3...) does not. */
static void test_hex_connection_around_the_edge(void **state) {
    (void)state;
    int winner;
    /* a1..a11: black along the left edge */
    assert_string_equal(ending_of(hex, "S10/S10/S10/S10/S10/S10/S10/S10/S10/S10/S10 w", &winner), "connected");
    assert_int_equal(winner, 0);
    /* around a corner: up file a to a6, along rank 6 to k6, up file k to k11 */
    assert_string_equal(ending_of(hex, "10S/10S/10S/10S/10S/SSSSSSSSSSS/S10/S10/S10/S10/S10 w", &winner), "connected");
    /* a1 b2 c3 ... k11 (up-right steps are no neighbours on this board): nothing yet */
    assert_string_equal(ending_of(hex, "10S/9S1/8S2/7S3/6S4/5S5/4S6/3S7/2S8/1S9/S10 w", &winner), "");
    /* the same stones with their other neighbours (b1 c2 ...): a chain, and a win */
    assert_string_equal(ending_of(hex, "10S/9SS/8SS1/7SS2/6SS3/5SS4/4SS5/3SS6/2SS7/1SS8/SS9 w", &winner), "connected");
    /* White joins file a to file k: rank 6 across, white stones */
    assert_string_equal(ending_of(hex, "11/11/11/11/11/sssssssssss/11/11/11/11/11 b", &winner), "connected");
    assert_int_equal(winner, 1);
    /* a black row across is no chain of Black's: its edges are ranks 1 and 11 */
    assert_string_equal(ending_of(hex, "11/11/11/11/11/SSSSSSSSSSS/11/11/11/11/11 w", &winner), "");
}

/* The swap: as White's first move, Black's stone is taken and White's goes on its mirror image;
 * afterwards it is gone. */
static void test_hex_swap(void **state) {
    (void)state;
    Variant *v = NULL;
    DiagSink sink;
    diag_init(&sink);
    OptionSetting on = {"swap", "on"};
    v = load_file("rules/hex.rules", &on, 1, &sink);
    diag_free(&sink);
    assert_non_null(v);
    char fen[512];
    position_after(v, "11/11/11/11/11/11/11/11/11/11/11 b 1", "c2 swap", fen, sizeof fen);
    assert_string_equal(fen, "11/11/11/11/11/11/11/11/1s9/11/11 b 0"); /* c2 = (2,1): b3 */
    position_after(v, "11/11/11/11/11/11/11/11/11/11/11 b 1", "f6 swap", fen, sizeof fen);
    assert_string_equal(fen, "11/11/11/11/11/5s5/11/11/11/11/11 b 0");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "11/11/11/11/11/11/11/11/11/1S9/s10 b 0");
    char got[8192];
    legal_moves_text(&pos, got, sizeof got);
    assert_null(strstr(got, "swap"));
    board_free(&pos);
    variant_free(v);
}

/* ---- tafl ------------------------------------------------------------------------------------ */

/* Brandubh: the king next to the empty throne falls to three attackers, the throne the fourth
 * side; with a defender on the throne it stands; elsewhere two attackers take it. */
static void test_king_captured_against_the_throne(void **state) {
    (void)state;
    char fen[256];
    position_after(brandubh, "3A3/7/2AkA2/7/7/7/7 a", "d7d6", fen, sizeof fen);
    assert_string_equal(fen, "7/3A3/2A1A2/7/7/7/7 d - - 0 1");
    int winner;
    assert_string_equal(ending_of(brandubh, "7/3A3/2A1A2/7/7/7/7 d - - 0 1", &winner), "king captured");
    assert_int_equal(winner, 0);
    position_after(brandubh, "3A3/7/2AkA2/3d3/7/7/7 a", "d7d6", fen, sizeof fen);
    assert_string_equal(fen, "7/3A3/2AkA2/3d3/7/7/7 d - - 1 1");
    /* on the throne: four attackers needed */
    position_after(brandubh, "7/3A3/7/2AkA2/3A3/7/7 a", "d6d5", fen, sizeof fen);
    assert_string_equal(fen, "7/7/3A3/2A1A2/3A3/7/7 d - - 0 1");
    /* away from the throne, two attackers, and an attacker against a corner */
    position_after(brandubh, "7/7/7/7/1A5/1k5/2A4 a", "c1b1", fen, sizeof fen);
    assert_string_equal(fen, "7/7/7/7/1A5/7/1A5 d - - 0 1");
    position_after(brandubh, "7/7/7/7/7/1k5/2A4 a", "c1b1", fen, sizeof fen);
    assert_string_equal(fen, "7/7/7/7/7/1k5/1A5 d - - 1 1");
    /* a piece moves between two enemies safely; a defender is taken against the empty throne */
    position_after(brandubh, "7/7/7/3k3/2A4/7/1dA4 d", "b1b3", fen, sizeof fen);
    assert_string_equal(fen, "7/7/7/3k3/1dA4/7/2A4 a - - 1 2");
    position_after(brandubh, "7/5k1/7/4d2/7/7/5A1 a", "f1f4", fen, sizeof fen);
    assert_string_equal(fen, "7/5k1/7/5A1/7/7/7 d - - 0 1");
    position_after(brandubh, "7/5k1/7/4d2/7/7/4A2 a", "e1e3", fen, sizeof fen); /* (e5 beyond: empty) */
    assert_string_equal(fen, "7/5k1/7/4d2/4A2/7/7 d - - 1 1");
    /* only the king stops on the throne: an attacker rides over it */
    expect_legal_moves(brandubh, "7/7/7/A6/7/7/6k d", "g1g2 g1g3 g1g4 g1g5 g1g6 g1f1 g1e1 g1d1 g1c1 g1b1 g1a1 g1g7");
}

/* Hnefatafl: the king is taken only enclosed on all four sides (the empty throne may be one),
 * so never on the edge. */
static void test_hnefatafl_king(void **state) {
    (void)state;
    char fen[256];
    /* three attackers around the king on the edge: still standing */
    position_after(hnefatafl, "11/11/11/11/11/11/11/11/11/4A6/3Ak5A a", "k1f1", fen, sizeof fen);
    assert_string_equal(fen, "11/11/11/11/11/11/11/11/11/4A6/3AkA5 d - - 1 1");
    /* four attackers around it in the open: taken */
    position_after(hnefatafl, "11/11/11/11/11/11/4A6/3AkA5/11/4A6/11 a", "e2e3", fen, sizeof fen);
    assert_string_equal(fen, "11/11/11/11/11/11/4A6/3A1A5/4A6/11/11 d - - 0 1");
    /* next to the throne: three attackers and the empty throne */
    position_after(hnefatafl, "11/11/11/11/11/11/4AkA4/11/11/5A5/11 a", "f2f4", fen, sizeof fen);
    assert_string_equal(fen, "11/11/11/11/11/11/4A1A4/5A5/11/11/11 d - - 0 1");
}

/* The shield wall: two defenders on the edge with attackers in front, bracketed by the piece
 * that moves and another attacker (or a corner), are taken together; a king in the row stays;
 * a row with a gap in front stays. */
static void test_shieldwall(void **state) {
    (void)state;
    char fen[256];
    position_after(hnefatafl, "11/11/11/7k3/11/11/11/11/4A6/2AA7/1Add7 a", "e3e1", fen, sizeof fen);
    assert_string_equal(fen, "11/11/11/7k3/11/11/11/11/11/2AA7/1A2A6 d - - 0 1");
    position_after(hnefatafl, "11/11/11/7k3/11/11/11/11/4A6/2AA7/1Adk7 a", "e3e1", fen, sizeof fen);
    assert_string_equal(fen, "11/11/11/7k3/11/11/11/11/11/2AA7/1A1kA6 d - - 0 1");
    position_after(hnefatafl, "11/11/11/7k3/11/11/11/11/4A6/3A7/1Add7 a", "e3e1", fen, sizeof fen);
    assert_string_equal(fen, "11/11/11/7k3/11/11/11/11/11/3A7/1AddA6 d - - 1 1");
    /* against the corner a1 */
    position_after(hnefatafl, "11/11/11/7k3/11/11/11/11/3A7/1AA8/1dd8 a", "d3d1", fen, sizeof fen);
    assert_string_equal(fen, "11/11/11/7k3/11/11/11/11/11/1AA8/3A7 d - - 0 1");
}

/* ---- the mechanisms on small rule texts ------------------------------------------------------ */

/* A drop program with gravity, and in-a-row exactly: five in a row wins, six does not. */
static void test_drop_program_and_exact_rows(void **state) {
    (void)state;
    Variant *v =
        load_text_ok("version 1\nplayers black(b) white(w)\nboard 7x3\n"
                     "piece Stone { letter S  drop { verify not on-board s  while not empty { step n }  add } }\n"
                     "setup \"7/7/7 b\"\nend in-a-row 5 exactly win \"five\"\nend stalemate draw\n");
    expect_legal_moves(v, "7/7/SS5 w", "S@c1 S@d1 S@e1 S@f1 S@g1 S@a2 S@b2");
    int winner;
    assert_string_equal(ending_of(v, "7/7/SSSSS2 w", &winner), "five");
    assert_string_equal(ending_of(v, "7/7/SSSSSS1 w", &winner), "");
    variant_free(v);
}

/* occupy: a side's pieces on every cell of its part of a zone; most: a full board goes to the
 * side with more pieces on it, equal numbers draw. */
static void test_occupy_and_most(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 3x3\n"
                              "zone goal for white = a3 b3 c3\nzone goal for black = a1 b1 c1\n"
                              "piece P { letter P  drop { verify empty  add } }\n"
                              "setup \"3/3/3 w\"\nend occupy goal win \"goal\"\nend stalemate most \"count\"\n");
    int winner;
    assert_string_equal(ending_of(v, "PPP/3/3 b", &winner), "goal");
    assert_int_equal(winner, 0);
    assert_string_equal(ending_of(v, "3/3/ppp w", &winner), "goal");
    assert_int_equal(winner, 1);
    assert_string_equal(ending_of(v, "PP1/3/ppP w", &winner), ""); /* (a goal's cell held by the other side) */
    assert_string_equal(ending_of(v, "PpP/pPp/pPP b", &winner), "count");
    assert_int_equal(winner, 0);
    assert_string_equal(ending_of(v, "pPp/PpP/pPp w", &winner), "count");
    assert_int_equal(winner, 1);
    variant_free(v);
    v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 2x1\n"
                     "piece P { letter P  drop { verify empty  add } }\n"
                     "setup \"2 w\"\nend stalemate most\n");
    assert_string_not_equal(ending_of(v, "Pp w", &winner), "");
    assert_int_equal(winner, -1);
    assert_string_equal(ending_of(v, "P1 b", &winner), "");
    variant_free(v);
}

/* create puts a piece of the mover's on another cell, change-type turns another piece, goto a
 * zone visits its cells; exists asks; reflect goes to the mirror image. */
static void test_effects_on_other_cells(void **state) {
    (void)state;
    Variant *v = load_text_ok(
        "version 1\nplayers white(w) black(b)\nboard 3x3\nzone top = rank 3\n"
        "piece Seed { letter S  move { step n  verify empty  mark  goto top  verify empty  create Seed  back  add } }\n"
        "piece Lamp { letter L  move { step e  verify enemy  change-type Seed  origin  add } }\n"
        "piece Mirror { letter M  move { reflect transpose  verify empty  verify exists { goto top  verify empty }"
        "  add } }\n"
        "setup \"3/3/3 w\"\nend stalemate draw\n");
    /* the seed steps to a2 and a seed grows on each empty cell of rank 3 in turn */
    expect_legal_moves(v, "1s1/3/S2 w", "a1a2@a3 a1a2@c3");
    char fen[64];
    position_after(v, "1s1/3/S2 w", "a1a2@c3", fen, sizeof fen);
    assert_string_equal(fen, "1sS/S2/3 b - - 1 1");
    /* the lamp turns the enemy piece beside it into a seed, still the enemy's (a move in place) */
    position_after(v, "3/3/Lm1 w", "a1a1", fen, sizeof fen);
    assert_string_equal(fen, "3/3/Ls1 b - - 0 1");
    /* the mirror goes to its image across the diagonal while rank 3 has an empty cell */
    expect_legal_moves(v, "3/3/1M1 w", "b1a2");
    expect_legal_moves(v, "sss/3/1M1 w", "");
    variant_free(v);
}

/* symmetry maps a player's directions: black's `up` link is white's `down`. */
static void test_symmetry_and_links(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 5x1 { cells a1 c1 e1 }\n"
                              "link up down = a1 c1 e1\nsymmetry black up down, down up\n"
                              "piece Runner { letter R  step up }\n"
                              "setup \"R1r w\"\nend stalemate loss\n");
    expect_legal_moves(v, "R1r w", "a1c1");
    expect_legal_moves(v, "R1r b", "e1c1");
    variant_free(v);
}

/* The bad inputs of the new items get messages at their place. */
static void test_bad_inputs(void **state) {
    (void)state;
    static const struct {
        const char *item, *message;
    } cases[] = {
        {"board 3x3 { cells a1 z9 }", "unknown cell 'z9'"},
        {"board 3x3 { cells a1 a1 }", "listed twice"},
        {"board 3x3 { cells top (4, 1) }", "is off the 3x3 board"},
        {"board 3x3 hexx", "unknown board shape 'hexx' (expected hex)"},
        {"board 3x3\nlink n = a1 a2", "'n' is a built-in direction"},
        {"board 3x3\nlink up = a1", "a chain of links joins two cells or more"},
        {"board 3x3\nlink up = a1 a2\nlink up = a1 a3", "cell a1 already has a link 'up' (to a2)"},
        {"board 3x3\nend in-a-row 1 win", "row length 1 is out of range"},
        {"board 3x3\nlink up = a1 a2\nend in-a-row 2 by up win", "direction 'up' has no reverse"},
        {"board 3x3\nhostile nowhere", "unknown zone 'nowhere'"},
        {"board 3x3\npiece P { letter P  drop { verify attacked  add } }", "'attacked' needs a piece that moves"},
        {"board 3x3\npiece P { letter P  drop { origin  add } }", "'origin' needs a piece that moves"},
        {"board 3x3\npiece P { letter P  move { verify exists { add }  add } }", "'add' cannot be in an 'exists'"},
        {"board 3x3\npiece P { letter P  move { reflect sideways  add } }", "unknown orientation 'sideways'"},
        {"board 3x3\nzone z = all except q7", "unknown cell 'q7'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024], *diags = NULL;
        snprintf(text, sizeof text,
                 "version 1\nplayers white(w) black(b)\n%s\n%s\nsetup \"3/3/3 w\"\nend stalemate draw\n", cases[i].item,
                 strstr(cases[i].item, "piece") ? "" : "piece P { letter P step n }");
        Variant *v = load_text(text, &diags);
        if (v || !strstr(diags, cases[i].message))
            print_error("%s: expected '%s', got:\n%s\n", cases[i].item, cases[i].message, diags);
        assert_null(v);
        assert_non_null(strstr(diags, cases[i].message));
        free(diags);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mill_takes_a_man_of_the_mover_s_choice),
        cmocka_unit_test(test_mill_spares_men_in_a_mill_unless_all_are),
        cmocka_unit_test(test_mill_corner_cases),
        cmocka_unit_test(test_morris_flying_and_losing),
        cmocka_unit_test(test_hex_connection_around_the_edge),
        cmocka_unit_test(test_hex_swap),
        cmocka_unit_test(test_king_captured_against_the_throne),
        cmocka_unit_test(test_hnefatafl_king),
        cmocka_unit_test(test_shieldwall),
        cmocka_unit_test(test_drop_program_and_exact_rows),
        cmocka_unit_test(test_occupy_and_most),
        cmocka_unit_test(test_effects_on_other_cells),
        cmocka_unit_test(test_symmetry_and_links),
        cmocka_unit_test(test_bad_inputs),
    };
    return cmocka_run_group_tests_name("games28", tests, setup, teardown);
}
