/* test_vm.c - the movement-program interpreter: runaway loops fault at their rule-file line,
 * mark/back, either (fork), promotion on emit, and the effects a move records. */
#include <stdio.h>

#include "support.h"

/* A 5x5 game whose piece W has the given move block; white W on c3 against two kings. */
static Variant *load_wizard(const char *moves) {
    char text[2048];
    snprintf(text, sizeof text,
             "version 1\n"
             "players white(w) black(b)\n"
             "board 5x5\n"
             "zone last = rank 5\n"
             "piece King { letter K royal step n }\n"
             "piece Queen { letter Q step n }\n"
             "piece Rook { letter R step n }\n"
             "piece Wizard { letter W\n"
             "  %s\n"
             "}\n"
             "setup \"4k/5/2W2/5/K4 w - - 0 1\"\n",
             moves);
    Variant *v = load_text_ok(text);
    return v;
}

/* Runs the white wizard's program on `cell` of fen; returns its moves in *ml. */
static bool run_wizard_at(const Variant *v, const char *fen, const char *cell, MoveList *ml, VmFault *f) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    int w = variant_type_by_letter(v, 'W');
    ml->count = 0;
    bool ok =
        vm_run(test_fresh_gen(), &v->types[w].per_owner[0].prog, &pos, (Cell)variant_cell_by_name(v, cell), 0, ml, f);
    board_free(&pos);
    return ok;
}

/* The same on c3. */
static bool run_wizard(const Variant *v, const char *fen, MoveList *ml, VmFault *f) {
    return run_wizard_at(v, fen, "c3", ml, f);
}

/* Coordinate texts of the moves, sorted, joined by spaces. */
static void move_texts(const Variant *v, const MoveList *ml, char *out, size_t cap) {
    char names[64][16];
    int n = ml->count < 64 ? ml->count : 64;
    for (int i = 0; i < n; i++) notation_move(v, &ml->moves[i], names[i], sizeof names[i]);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i) strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, names[i], cap - strlen(out) - 1);
    }
}

static const Effect *find_effect(const Move *m, EffectKind kind) {
    for (int i = 0; i < m->nfx; i++)
        if (m->fx[i].kind == kind) return &m->fx[i];
    return NULL;
}

/* `while empty { }` on an empty cell never ends: the step budget stops it with a fault that
 * names the rule file, the line of the loop and a column, and no crash. */
static void test_vm_step_budget_fault_names_the_line(void **state) {
    (void)state;
    Variant *v = load_wizard("move {\n step n\n while empty { }\n add }");
    static MoveList ml;
    VmFault f = {0};
    assert_false(run_wizard(v, "4k/5/2W2/5/K4 w", &ml, &f));
    assert_true(f.set);
    assert_non_null(strstr(f.msg, "step budget"));
    assert_non_null(strstr(f.msg, "(limit is 200000 instructions)"));
    assert_non_null(strstr(f.msg, "Wizard/white"));
    assert_string_equal(f.file, "test.rules");
    assert_int_equal(f.line, 11); /* "while empty { }" */
    assert_true(f.col > 0);
    /* the same through the move generator: the fault comes back, not a crash */
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k/5/2W2/5/K4 w");
    VmFault g = {0};
    assert_false(movegen_legal(test_gen(), &pos, &ml, &g));
    assert_true(g.set);
    assert_int_equal(g.line, 11);
    board_free(&pos);
    variant_free(v);
}

/* Programs that each stay under the per-run budget, but that together cost too much for one
 * position (the legality test of each king move runs 15 programs of 2^14 paths; they may
 * capture, or the test would skip them): the position's budget stops them with a fault. */
static void test_vm_position_budget_stops_costly_positions(void **state) {
    (void)state;
    char text[2048], either[512] = "";
    for (int i = 0; i < 14; i++) strcat(either, "either { } or { } ");
    snprintf(text, sizeof text,
             "version 1\nplayers white(w) black(b)\nboard 8x8\n"
             "piece King { letter K royal step compass }\n"
             "piece Q { letter Q move { %s step s verify not friend add } }\n"
             "setup \"qqqqkqqq/qqqqqqqq/8/8/3K4/8/8/8 w\"\n",
             either);
    Variant *v = load_text_ok(text);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    static MoveList ml;
    VmFault f = {0};
    assert_false(movegen_legal(test_gen(), &pos, &ml, &f));
    assert_true(f.set);
    assert_non_null(strstr(f.msg, "step budget for one position exceeded (limit is 10000000 instructions)"));
    assert_int_equal(f.line, 5);
    board_free(&pos);
    variant_free(v);
}

/* A loop that ends (the cursor walks off the board) is no fault. */
static void test_vm_loop_that_ends_is_fine(void **state) {
    (void)state;
    Variant *v = load_wizard("move { while empty { step n } add }");
    static MoveList ml;
    VmFault f = {0};
    assert_true(run_wizard(v, "4k/5/2W2/5/K4 w", &ml, &f));
    assert_false(f.set);
    variant_free(v);
}

/* mark pushes the cursor, back returns to it. */
static void test_vm_mark_and_back_return_the_cursor(void **state) {
    (void)state;
    Variant *v = load_wizard("move { mark step n step n back step e add mark step w step w back step s add }");
    static MoveList ml;
    VmFault f = {0};
    assert_true(run_wizard(v, "4k/5/2W2/5/K4 w", &ml, &f));
    char text[256];
    move_texts(v, &ml, text, sizeof text);
    assert_string_equal(text, "c3d2 c3d3");
    variant_free(v);
}

/* either: every branch runs as its own path, from the same state; a failing branch only ends
 * itself. */
static void test_vm_either_forks_paths(void **state) {
    (void)state;
    Variant *v = load_wizard("move { step n either { step n add } or { step e add } or { fail } or { step w add } }");
    static MoveList ml;
    VmFault f = {0};
    assert_true(run_wizard(v, "4k/5/2W2/5/K4 w", &ml, &f));
    char text[256];
    move_texts(v, &ml, text, sizeof text);
    assert_string_equal(text, "c3b4 c3c5 c3d4");
    variant_free(v);
}

/* An add in the promotion zone emits one move per choice, plus the plain move when optional. */
static void test_vm_emit_with_promotion_set(void **state) {
    (void)state;
    /* (the capture south keeps it able to move on from the last rank: see the next test) */
    Variant *v = load_wizard("step n move-only step s capture-only promote in last to Queen Rook optional");
    static MoveList ml;
    VmFault f = {0};
    int q = variant_type_by_letter(v, 'Q'), r = variant_type_by_letter(v, 'R');
    assert_true(run_wizard_at(v, "4k/2W2/5/5/K4 w", "c4", &ml, &f));
    assert_int_equal(ml.count, 3);
    int plain = 0, promos = 0;
    for (int i = 0; i < ml.count; i++) {
        const Move *m = &ml.moves[i];
        assert_int_equal(m->to, variant_cell_by_name(v, "c5"));
        if (m->promo == NO_TYPE) {
            plain++;
            assert_false(m->flags & MOVE_PROMOTION);
            assert_null(find_effect(m, FX_CHANGE));
        } else {
            promos++;
            assert_true(m->promo == q || m->promo == r);
            assert_true(m->flags & MOVE_PROMOTION);
            const Effect *e = find_effect(m, FX_CHANGE);
            assert_non_null(e);
            assert_int_equal(PIECE_TYPE(e->piece), m->promo);
            assert_int_equal(PIECE_OWNER(e->piece), 0);
        }
    }
    assert_int_equal(plain, 1);
    assert_int_equal(promos, 2);
    /* outside the zone: one plain move */
    assert_true(run_wizard(v, "4k/5/2W2/5/K4 w", &ml, &f));
    assert_int_equal(ml.count, 1);
    assert_int_equal(ml.moves[0].promo, NO_TYPE);
    variant_free(v);
}

/* An optional promotion is forced onto a cell a never-stuck piece could never move from; lost-only
 * offers a type only while fewer of it stand on the board than at the start; a rule with
 * `from` applies to moves leaving its zone. */
static void test_vm_forced_and_lost_only_promotion(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\n"
                              "players white(w) black(b)\n"
                              "board 5x5\n"
                              "zone last = rank 5\n"
                              "piece King { letter K royal step n }\n"
                              "piece Queen { letter Q step n }\n"
                              "piece Rook { letter R step n }\n"
                              "piece Wizard { letter W never-stuck step n move-only\n"
                              "  promote in last to Queen Rook optional lost-only }\n"
                              "setup \"4k/5/2W2/5/K2QR w - - 0 1\"\n");
    static MoveList ml;
    VmFault f = {0};
    int r = variant_type_by_letter(v, 'R');
    /* the rook was lost: only it is offered, and the wizard may not stay one on the last rank */
    assert_true(run_wizard_at(v, "4k/2W2/5/5/K2Q1 w", "c4", &ml, &f));
    assert_int_equal(ml.count, 1);
    assert_int_equal(ml.moves[0].promo, r);
    /* nothing lost: no move at all */
    assert_true(run_wizard_at(v, "4k/2W2/5/5/K2QR w", "c4", &ml, &f));
    assert_int_equal(ml.count, 0);
    variant_free(v);
    v = load_wizard("step n move-only promote from last to Queen");
    assert_true(run_wizard(v, "4k/5/2W2/5/K4 w", &ml, &f));
    assert_int_equal(ml.count, 1);
    assert_int_equal(ml.moves[0].promo, NO_TYPE);
    variant_free(v);
}

/* capture records the removal of the piece under the cursor: the move lands elsewhere, the
 * victim goes, and unmake brings it back. change and set-ep are recorded too. */
static void test_vm_capture_change_and_ep_effects(void **state) {
    (void)state;
    Variant *v = load_wizard("move { step e verify enemy capture origin step n set-ep step n change Queen add }");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k/5/2Wr1/5/K4 w");
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    assert_false(f.set);
    int i = notation_find(v, &ml, "c3c5q");
    if (i < 0) i = notation_find(v, &ml, "c3c5");
    assert_true(i >= 0);
    const Move *m = &ml.moves[i];
    assert_true(m->flags & MOVE_CAPTURE);
    const Effect *rm = find_effect(m, FX_REMOVE);
    assert_non_null(rm);
    assert_int_equal(rm->a, variant_cell_by_name(v, "d3"));
    assert_non_null(find_effect(m, FX_EP));
    assert_non_null(find_effect(m, FX_CHANGE));
    char before[128], after[128];
    fen_write(&pos, before, sizeof before);
    board_make(&pos, m);
    fen_write(&pos, after, sizeof after);
    /* (the en-passant cell c4 is not kept: the piece past it is now a Queen, which makes none,
     * so position text could not name it) */
    assert_string_equal(after, "2Q1k/5/5/5/K4 b - - 0 1");
    assert_true(board_is_ok(&pos));
    board_unmake(&pos);
    fen_write(&pos, after, sizeof after);
    assert_string_equal(after, before);
    /* with a friend (or nothing) on d3 the path fails: no move */
    set_fen(&pos, "4k/5/2WR1/5/K4 w");
    ml.count = 0;
    assert_true(vm_run(test_fresh_gen(), &v->types[variant_type_by_letter(v, 'W')].per_owner[0].prog, &pos,
                       (Cell)variant_cell_by_name(v, "c3"), 0, &ml, &f));
    assert_int_equal(ml.count, 0);
    board_free(&pos);
    variant_free(v);
}

/* A program of the second player runs in its own frame: north is the board's south. */
static void test_vm_owner_frame(void **state) {
    (void)state;
    const char *text = "version 1\nplayers white(w) black(b)\nboard 3x3\norientation black flip\n"
                       "piece King { letter K royal move { step n add } }\nsetup \"k2/3/2K w\"\n";
    Variant *v = load_text(text, NULL);
    assert_non_null(v);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "k2/3/2K b");
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    char out[64];
    move_texts(v, &ml, out, sizeof out);
    assert_string_equal(out, "a3a2");
    board_free(&pos);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vm_step_budget_fault_names_the_line),
        cmocka_unit_test(test_vm_position_budget_stops_costly_positions),
        cmocka_unit_test(test_vm_loop_that_ends_is_fine),
        cmocka_unit_test(test_vm_mark_and_back_return_the_cursor),
        cmocka_unit_test(test_vm_either_forks_paths),
        cmocka_unit_test(test_vm_emit_with_promotion_set),
        cmocka_unit_test(test_vm_forced_and_lost_only_promotion),
        cmocka_unit_test(test_vm_capture_change_and_ep_effects),
        cmocka_unit_test(test_vm_owner_frame),
    };
    return cmocka_run_group_tests_name("vm", tests, NULL, NULL);
}
