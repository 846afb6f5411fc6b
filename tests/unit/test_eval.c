/* test_eval.c - evaluation: symmetry, declared and estimated piece values, centralisation. */
#include "support.h"

#include "eval.h"

static void test_eval_start_is_balanced(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    EvalTables et;
    eval_init(&et, v);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    assert_int_equal(eval_position(&et, &pos, 0), 0);
    assert_int_equal(eval_position(&et, &pos, 1), 0);
    /* a queen up is a lot better for its owner, worse for the other */
    set_fen(&pos, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_true(eval_position(&et, &pos, 0) > 800);
    assert_true(eval_position(&et, &pos, 1) < -800);
    assert_int_equal(et.value[variant_type_by_letter(v, 'Q')], 900);
    assert_false(et.estimated[variant_type_by_letter(v, 'Q')]);
    board_free(&pos);
    variant_free(v);
}

static void test_eval_estimates_missing_values(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 8x8\n"
                              "piece King { letter K royal step compass }\n"
                              "piece Knight { letter N leap sym(1,2) }\n"
                              "piece Rook { letter R slide orth }\n"
                              "piece Queen { letter Q slide compass }\n"
                              "setup \"4k3/8/8/8/8/8/8/4K3 w\"\n");
    EvalTables et;
    eval_init(&et, v);
    int n = et.value[variant_type_by_letter(v, 'N')], r = et.value[variant_type_by_letter(v, 'R')],
        q = et.value[variant_type_by_letter(v, 'Q')];
    assert_true(et.estimated[variant_type_by_letter(v, 'N')]);
    assert_int_equal(et.value[variant_type_by_letter(v, 'K')], 0);
    assert_true(n > 100 && n < r && r < q);
    variant_free(v);
}

static void test_eval_prefers_the_centre(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    EvalTables et;
    eval_init(&et, v);
    assert_true(et.centre[variant_cell_by_name(v, "d4")] > et.centre[variant_cell_by_name(v, "a1")]);
    assert_int_equal(et.centre[variant_cell_by_name(v, "d4")], et.centre[variant_cell_by_name(v, "e5")]);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
    int centre = eval_side(&et, &pos, 0);
    set_fen(&pos, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
    assert_true(centre > eval_side(&et, &pos, 0));
    board_free(&pos);
    variant_free(v);
}

static void test_eval_three_players(void **state) {
    (void)state;
    Variant *v = load_rules("tests/play/three.rules");
    EvalTables et;
    eval_init(&et, v);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    /* the armies are alike: each player's own score minus the others' mean is near zero */
    for (int p = 0; p < 3; p++) assert_true(abs(eval_position(&et, &pos, p)) < 60);
    board_free(&pos);
    variant_free(v);
}

/* The rule file's `tuned` items set the weights; untuned tables keep the defaults. */
static void test_eval_reads_tuned_items(void **state) {
    (void)state;
    const char *text = "version 1\nplayers white(w) black(b)\nboard 8x8\norientation black flip\n"
                       "piece King { letter K royal step compass }\n"
                       "piece Knight { letter N value 300 leap sym(1,2) }\n"
                       "setup \"4k3/8/8/8/8/8/8/N3K3 w\"\nend checkmate loss\n"
                       "tuned Knight value 350\ntuned Knight mobility 7\ntuned Knight squares 16\n"
                       "tuned royal-safety 20\n";
    Variant *v = load_text_ok(text);
    int n = variant_type_by_letter(v, 'N');
    EvalTables *et = xmalloc(sizeof *et), *plain = xmalloc(sizeof *plain);
    eval_init(et, v);
    eval_init_untuned(plain, v);
    assert_int_equal(et->value[n], 350);
    assert_int_equal(et->mobility[n], 7);
    assert_int_equal(et->squares[n], 16);
    assert_int_equal(et->royal_safety, 20);
    assert_int_equal(plain->value[n], 300);
    assert_int_equal(plain->mobility[n], 3);
    assert_int_equal(plain->squares[n], 0);
    /* a knight in a corner has 2 moves, 6 fewer than in the centre: its squares term sees it */
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k3/8/8/8/8/8/8/N3K3 w");
    int corner = eval_position(et, &pos, 0), plain_corner = eval_position(plain, &pos, 0);
    set_fen(&pos, "4k3/8/8/8/3N4/8/8/4K3 w");
    int centre = eval_position(et, &pos, 0), plain_centre = eval_position(plain, &pos, 0);
    /* 6 more moves: 4 more per cell reached (7 - 3), and 16/16 per move of the squares term */
    assert_int_equal((centre - corner) - (plain_centre - plain_corner), 6 * 4 + 6);
    assert_true(et->reach[0][n][variant_cell_by_name(v, "d4")] > et->reach[0][n][variant_cell_by_name(v, "a1")]);
    board_free(&pos);
    free(et);
    free(plain);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval_start_is_balanced),  cmocka_unit_test(test_eval_estimates_missing_values),
        cmocka_unit_test(test_eval_prefers_the_centre), cmocka_unit_test(test_eval_three_players),
        cmocka_unit_test(test_eval_reads_tuned_items),
    };
    return cmocka_run_group_tests_name("eval", tests, NULL, NULL);
}
