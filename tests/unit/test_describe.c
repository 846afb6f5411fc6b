/* test_describe.c - move diagrams found by running the move generator: chess pieces, a cannon
 * that captures over a screen, Ultima's captures away from the landing cell with their worked
 * examples; the set-up and phase words; and check's warnings for likely mistakes. */
#include "describe.h"
#include "source.h"
#define SUPPORT_CHESS_FIXTURE
#include "support.h"

static int cell(const Variant *v, const char *name) {
    int c = variant_cell_by_name(v, name);
    assert_true(c >= 0);
    return c;
}

static int count(const Variant *v, const PieceDiagram *d, uint8_t bits) {
    int n = 0;
    for (int c = 0; c < v->ncells; c++) n += (d->mark[c] & bits) == bits;
    return n;
}

static void test_describe_chess_pieces(void **state) {
    (void)state;
    PieceDiagram d;
    describe_piece(chess, variant_type_by_letter(chess, 'N'), &d);
    assert_int_equal(d.origin, cell(chess, "d4"));
    assert_int_equal(count(chess, &d, MARK_MOVE | MARK_CAPTURE), 8);
    assert_true(d.mark[cell(chess, "e6")] == (MARK_MOVE | MARK_CAPTURE));
    assert_false(d.needs_example);
    describe_piece(chess, variant_type_by_letter(chess, 'P'), &d);
    assert_int_equal(d.mark[cell(chess, "d5")], MARK_MOVE);
    assert_int_equal(d.mark[cell(chess, "c5")], MARK_CAPTURE);
    assert_int_equal(d.mark[cell(chess, "e5")], MARK_CAPTURE);
    assert_int_equal(d.mark[cell(chess, "d6")], MARK_FIRST); /* the double step from its start rank */
    assert_int_equal(count(chess, &d, MARK_MOVE) + count(chess, &d, MARK_CAPTURE) + count(chess, &d, MARK_FIRST), 4);
    assert_int_equal(d.promotes_to,
                     (1u << variant_type_by_letter(chess, 'Q')) | (1u << variant_type_by_letter(chess, 'R')) |
                         (1u << variant_type_by_letter(chess, 'B')) | (1u << variant_type_by_letter(chess, 'N')));
}

static void test_describe_cannon_hops_to_capture(void **state) {
    (void)state;
    Variant *v = load_rules("rules/xiangqi.rules");
    PieceDiagram d;
    describe_piece(v, variant_type_by_letter(v, 'C'), &d);
    /* from e5: the cells next to it are plain moves, the farther ones captures over a screen */
    assert_int_equal(d.origin, cell(v, "e5"));
    assert_int_equal(d.mark[cell(v, "e6")], MARK_MOVE);
    assert_int_equal(d.mark[cell(v, "e7")], MARK_MOVE | MARK_HOP);
    assert_int_equal(d.mark[cell(v, "a5")], MARK_MOVE | MARK_HOP);
    /* the king stays in its palace: its diagram is drawn there, not at the centre */
    describe_piece(v, variant_type_by_letter(v, 'K'), &d);
    assert_int_equal(d.origin, cell(v, "e2"));
    assert_int_equal(count(v, &d, MARK_MOVE | MARK_CAPTURE), 4);
    variant_free(v);
}

static void test_describe_ultima_examples(void **state) {
    (void)state;
    Variant *v = load_rules("rules/ultima.rules");
    PieceDiagram d;
    /* the withdrawer captures the enemy next to it by moving away: 8 victim cells */
    describe_piece(v, variant_type_by_letter(v, 'Q'), &d);
    assert_int_equal(count(v, &d, MARK_REMOTE), 8);
    assert_int_equal(count(v, &d, MARK_CAPTURE), 0);
    assert_true(d.needs_example && d.example.found);
    /* the example: the mover left its cell, and a piece is gone */
    int before = 0, after = 0;
    for (int c = 0; c < v->ncells; c++) before += d.example.before[c] != 0, after += d.example.after[c] != 0;
    assert_int_equal(after, before - 1);
    assert_int_equal(d.example.after[d.example.from], 0);
    assert_int_not_equal(d.example.after[d.example.to], 0);
    /* the pincer needs a friend beyond its victim: only the example shows its capture */
    describe_piece(v, variant_type_by_letter(v, 'P'), &d);
    assert_int_equal(count(v, &d, MARK_CAPTURE) + count(v, &d, MARK_REMOTE), 0);
    assert_true(d.needs_example && d.example.found);
    /* the immobilizer captures nothing: no example to look for */
    describe_piece(v, variant_type_by_letter(v, 'M'), &d);
    assert_false(d.needs_example);
    variant_free(v);
}

static void test_describe_step_words(void **state) {
    (void)state;
    Variant *v = load_rules("rules/ultra-chess.rules");
    Position pos;
    board_init(&pos, v);
    char start[4096], buf[512];
    fen_start(v, 1, start, sizeof start);
    set_fen(&pos, start);
    describe_step(&pos, buf, sizeof buf);
    assert_non_null(strstr(buf, "set-up step 1 of 8: White makes 4 more moves of kind 'place'"));
    board_free(&pos);
    variant_free(v);
    board_init(&pos, chess);
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    describe_step(&pos, buf, sizeof buf);
    assert_string_equal(buf, "");
    board_free(&pos);
}

static void test_describe_warnings(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\n"
                              "players white(w) black(b)\n"
                              "board 4x4\n"
                              "piece King { letter K royal step compass }\n"
                              "piece Guard { letter G symbol \"k\" \"k\" step orth }\n"
                              "piece Post { letter T }\n"
                              "setup \"k2t/4/4/K1GT w\"\n"
                              "end checkmate loss\n");
    DiagSink sink;
    diag_init(&sink);
    describe_warnings(v, NULL, &sink);
    char *text = diag_to_string(&sink);
    assert_int_equal(sink.errors, 0);
    assert_int_equal(sink.warnings, 2);
    assert_non_null(strstr(text, "piece 'Guard' looks like 'King': both are shown as \"k\" for white"));
    assert_non_null(strstr(text, "piece 'Post' can never move"));
    free(text);
    diag_free(&sink);
    variant_free(v);
    /* chess: nothing to warn about */
    diag_init(&sink);
    describe_warnings(chess, NULL, &sink);
    assert_int_equal(sink.warnings, 0);
    diag_free(&sink);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe_chess_pieces),    cmocka_unit_test(test_describe_cannon_hops_to_capture),
        cmocka_unit_test(test_describe_ultima_examples), cmocka_unit_test(test_describe_step_words),
        cmocka_unit_test(test_describe_warnings),
    };
    return cmocka_run_group_tests_name("describe", tests, setup, teardown);
}
