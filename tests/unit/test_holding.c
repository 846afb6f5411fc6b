/* test_holding.c - holding cells: the example of docs/language.md ("Three stones", read from
 * the document) against the figures of tests/holding/three-stones-oracle.py, a program written
 * from the game's rules in words; a stone leaving its holding cell for the board; no step, slide
 * or line through a holding cell (even one a link names); a store filled by captures; position
 * text in and out, and its faults; the rulebook's drawing of the cells, read back. */
#include "support.h"
#include "board.h"
#include "describe.h"
#include "ending.h"
#include "perft.h"

/* The code block of docs/language.md that holds `game "Three stones"`. */
static char *doc_example(void) {
    FILE *f = fopen("docs/language.md", "r");
    assert_non_null(f);
    char line[512], *block = calloc(1, 8192);
    size_t len = 0;
    bool inside = false, found = false;
    while (!found && fgets(line, sizeof line, f)) {
        if (!strcmp(line, "```\n")) {
            if (inside && strstr(block, "game \"Three stones\"")) found = true;
            inside = !inside;
            if (!found) len = 0, block[0] = 0;
            continue;
        }
        if (inside && len + strlen(line) < 8192) {
            memcpy(block + len, line, strlen(line) + 1);
            len += strlen(line);
        }
    }
    fclose(f);
    assert_true(found);
    return block;
}

static Variant *three;

static int setup(void **state) {
    (void)state;
    char *text = doc_example(), *diags = NULL;
    three = load_text(text, &diags);
    if (!three) fprintf(stderr, "%s", diags);
    free(diags);
    free(text);
    return three ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    variant_free(three);
    return 0;
}

/* Figures of tests/holding/three-stones-oracle.py (the start), and by hand (the moving phase:
 * 3 steps for Cross, then 4 + 3 + 4 answers). */
static void test_holding_doc_example_perft(void **state) {
    (void)state;
    static const uint64_t start[] = {27, 648, 9072, 108864, 544320, 1969920};
    int deepest = test_under_valgrind() ? 4 : 6;
    for (int d = 1; d <= deepest; d++) assert_int_equal(perft_of(three, "3/3/3{SSS/sss} x", d), start[d - 1]);
    assert_int_equal(perft_of(three, "1Ss/s2/SsS{3/3} x", 1), 3);
    assert_int_equal(perft_of(three, "1Ss/s2/SsS{3/3} x", 2), 11);
}

static void test_holding_stone_leaves_for_the_board(void **state) {
    (void)state;
    char fen[256];
    position_after(three, "3/3/3{SSS/sss} x", "x1b2", fen, sizeof fen);
    assert_string_equal(fen, "3/1S1/3{1SS/sss} o - - 1 1");
    position_after(three, "3/3/3{SSS/sss} x", "x1b2 o3a1 x3c3", fen, sizeof fen);
    assert_string_equal(fen, "2S/1S1/s2{1S1/ss1} o - - 3 2");
    /* from a holding cell: every empty cell of the board, none of the holding cells */
    Position pos;
    board_init(&pos, three);
    set_fen(&pos, "3/1S1/3{1SS/sss} x");
    char moves[2048];
    legal_moves_text(&pos, moves, sizeof moves);
    assert_string_equal(moves, "x2a1 x2b1 x2c1 x2a2 x2c2 x2a3 x2b3 x2c3 x3a1 x3b1 x3c1 x3a2 x3c2 x3a3 x3b3 x3c3");
    board_free(&pos);
}

/* Three stones on the holding cells of one row are no line; three on the board's diagonal are. */
static void test_holding_lines_ignore_holding_cells(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, three);
    Ending e;
    set_fen(&pos, "3/3/3{SSS/sss} x");
    assert_false(ending_decided(test_gen(), &pos, &e));
    set_fen(&pos, "2S/1S1/S2{3/sss} o");
    assert_true(ending_decided(test_gen(), &pos, &e));
    assert_int_equal(e.player, 0);
    board_free(&pos);
    /* a link that names a holding cell: a program steps along it, but a line stops there */
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\n"
                              "board 1x2 { cells a1 a2  holding h1 }\n"
                              "link up down = a1 a2 h1\n"
                              "piece Man { letter M  move { step up  verify empty  add } }\n"
                              "setup \"1/M{1} w\"\nend in-a-row 3 win\n");
    board_init(&pos, v);
    set_fen(&pos, "M/M{M} b");
    assert_false(ending_decided(test_gen(), &pos, &e));
    set_fen(&pos, "M/1{1} w");
    char moves[256];
    legal_moves_text(&pos, moves, sizeof moves);
    assert_string_equal(moves, "a2h1");
    board_free(&pos);
    variant_free(v);
}

/* No direction leads to or from a holding cell: a rook on one has no move, one on the board
 * slides past the end of its rank no further. */
static void test_holding_no_step_leads_there(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\n"
                              "board 3x1 { holding h1 h2 }\n"
                              "piece Rook { letter R  slide orth }\n"
                              "setup \"R2{1r} w\"\n");
    for (int c = v->board_cells; c < v->ncells; c++) {
        assert_true(v->cells[c].holding);
        for (int d = 0; d < v->ndirs; d++) assert_int_equal(variant_step(v, (Cell)c, d), NO_CELL);
    }
    for (int c = 0; c < v->board_cells; c++)
        for (int d = 0; d < v->ndirs; d++) {
            Cell t = variant_step(v, (Cell)c, d);
            assert_true(t == NO_CELL || t < v->board_cells);
        }
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "R2{1r} w");
    char moves[256];
    legal_moves_text(&pos, moves, sizeof moves);
    assert_string_equal(moves, "a1b1 a1c1");
    set_fen(&pos, "R2{1r} b");
    legal_moves_text(&pos, moves, sizeof moves);
    assert_string_equal(moves, "");
    board_free(&pos);
    variant_free(v);
}

/* The store of docs/language.md: a taker carries its victim to the first empty holding cell
 * along the store's link; with the store full it cannot take. */
static void test_holding_store_of_captures(void **state) {
    (void)state;
    Variant *v =
        load_text_ok("version 1\nplayers white(w) black(b)\n"
                     "board 4x1 { holding s1 s2 }\nlink next = s1 s2\n"
                     "piece Taker { letter T\n"
                     "    move { step e  verify empty  add }\n"
                     "    move { step e  verify enemy  from  mark  goto s1  while not empty { step next }  to  "
                     "back  add } }\n"
                     "setup \"Tt1t{2} w\"\nend stalemate loss\n");
    char fen[256];
    position_after(v, "Tt1t{2} w", "a1b1", fen, sizeof fen);
    assert_string_equal(fen, "1T1t{t1} b - - 1 1");
    position_after(v, "1Tt1{t1} w", "b1c1", fen, sizeof fen);
    assert_string_equal(fen, "2T1{tt} b - - 1 1");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "1Tt1{tt} w");
    char moves[256];
    legal_moves_text(&pos, moves, sizeof moves);
    assert_string_equal(moves, "");
    board_free(&pos);
    variant_free(v);
}

/* Position text: the holding part round-trips, may be left out (all empty), and each fault is
 * named with the board's row and its cells. */
static void test_holding_position_text(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, three);
    char out[256], err[200];
    set_fen(&pos, "S2/3/2s{S1S/1ss} o - - 0 3");
    fen_write(&pos, out, sizeof out);
    assert_string_equal(out, "S2/3/2s{S1S/1ss} o - - 0 3");
    set_fen(&pos, "3/3/3 x");
    fen_write(&pos, out, sizeof out);
    assert_string_equal(out, "3/3/3{3/3} x - - 0 1");
    static const struct {
        const char *fen, *err;
    } bad[] = {
        {"3/3/3{SSSS/sss} x", "holding row 1 of the board is too long at column 10 (3 cells: x1 ... x3)"},
        {"3/3/3{SS/sss} x", "holding row 1 of the board has too few cells (3: x1 ... x3)"},
        {"3/3/3{SSS/sss x", "the holding cells of the board have no closing '}'"},
        {"3/3/3{SSS} x", "expected '/' before holding row 2 of the board at column 10 (it has 2 rows)"},
        {"3/3/3{SSS/sss/3} x", "too many holding rows for the board at column 14 (it has 2)"},
        {"3/3/3{SSS/sQs} x", "unknown piece letter 'Q' at column 12"},
        {"3/3{SSS/sss}/3 x", "too few ranks in the board (expected 3)"},
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        assert_false(fen_read(&pos, bad[i].fen, err, sizeof err));
        assert_string_equal(err, bad[i].err);
    }
    board_free(&pos);
    /* a board without holding cells takes no braces */
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 2x1\n"
                              "piece Man { letter M  step e }\nsetup \"M1 w\"\n");
    board_init(&pos, v);
    assert_false(fen_read(&pos, "M1{M} w", err, sizeof err));
    assert_string_equal(err, "unexpected '{' at column 3: the board has no holding cells");
    board_free(&pos);
    variant_free(v);
}

/* The rulebook names the holding cells and draws them under the board, each with its name and
 * the piece on it, as the start position has them. */
static void test_holding_rulebook_draws_them(void **state) {
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    DescribeStyle plain = {false, false};
    describe_text(three, &plain, f);
    fclose(f);
    assert_non_null(
        strstr(text, "6 holding cells drawn under it, where pieces wait and no line leads: x1 x2 x3; o1 o2 o3"));
    /* the start position's drawing: the board's last line, then a line per row */
    const char *files = strstr(text, "    a  b  c    \n   x1 ");
    assert_non_null(files);
    const char *row1 = strchr(files, '\n') + 1, *row2 = strchr(row1, '\n') + 1;
    assert_memory_equal(row1, "   x1 S  x2 S  x3 S \n", 21);
    assert_memory_equal(row2, "   o1 s  o2 s  o3 s \n", 21);
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_holding_doc_example_perft),
        cmocka_unit_test(test_holding_stone_leaves_for_the_board),
        cmocka_unit_test(test_holding_lines_ignore_holding_cells),
        cmocka_unit_test(test_holding_no_step_leads_there),
        cmocka_unit_test(test_holding_store_of_captures),
        cmocka_unit_test(test_holding_position_text),
        cmocka_unit_test(test_holding_rulebook_draws_them),
    };
    return cmocka_run_group_tests_name("holding", tests, setup, teardown);
}
