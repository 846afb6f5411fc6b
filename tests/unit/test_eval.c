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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval_start_is_balanced),
        cmocka_unit_test(test_eval_estimates_missing_values),
        cmocka_unit_test(test_eval_prefers_the_centre),
        cmocka_unit_test(test_eval_three_players),
    };
    return cmocka_run_group_tests_name("eval", tests, NULL, NULL);
}
