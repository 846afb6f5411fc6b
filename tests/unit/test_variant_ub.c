/* test_variant_ub.c - rules/ultimate-battle.rules: every piece's exact destinations, the
 * one-sided king attack, the last-rank (must-capture) rule, and perft with both options. */
#include "gameend.h"
#include "perft.h"
#include "support.h"

static Variant *load_ub(const char *king_step) {
    DiagSink sink;
    diag_init(&sink);
    OptionSetting opt = {"king-step", king_step};
    Variant *v = load_file("rules/ultimate-battle.rules", &opt, 1, &sink);
    diag_free(&sink);
    assert_non_null(v);
    return v;
}

/* Sorted destinations of the legal moves from `from`, space-separated. */
static void targets(const Variant *v, const char *fen, const char *from, char *out, size_t cap) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    char names[64][8];
    int n = 0;
    int c = variant_cell_by_name(v, from);
    for (int i = 0; i < ml.count; i++)
        if (ml.moves[i].from == c) snprintf(names[n++], sizeof names[0], "%s", v->cells[ml.moves[i].to].name);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i) strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, names[i], cap - strlen(out) - 1);
    }
    board_free(&pos);
}

static void expect_targets(const Variant *v, const char *fen, const char *from, const char *want) {
    char got[512];
    targets(v, fen, from, got, sizeof got);
    if (strcmp(got, want)) print_error("%s from %s: got '%s', want '%s'\n", fen, from, got, want);
    assert_string_equal(got, want);
}

static void test_ub_mao_is_blocked_by_its_orthogonal_neighbour(void **state) {
    (void)state;
    Variant *v = load_ub("any");
    expect_targets(v, "7k/8/8/8/3Q4/8/8/K7 w", "d4", "b3 b5 c2 c6 e2 e6 f3 f5");
    expect_targets(v, "7k/8/8/3P4/3Q4/8/8/K7 w", "d4", "b3 b5 c2 e2 f3 f5"); /* d5 blocks c6, e6 */
    expect_targets(v, "7k/8/8/8/3QP3/8/8/K7 w", "d4", "b3 b5 c2 c6 e2 e6");  /* e4 blocks f5, f3 */
    expect_targets(v, "7k/8/8/8/3Q4/3P4/8/K7 w", "d4", "b3 b5 c6 e6 f3 f5"); /* d3 blocks c2, e2 */
    expect_targets(v, "7k/8/8/8/2PQ4/8/8/K7 w", "d4", "c2 c6 e2 e6 f3 f5");  /* c4 blocks b5, b3 */
    /* a diagonal neighbour blocks nothing; an enemy on a target is captured */
    expect_targets(v, "7k/8/8/2ppp3/2pQp3/2ppp3/8/K7 w", "d4", "");
    expect_targets(v, "7k/8/2p5/8/3Q4/8/8/K7 w", "d4", "b3 b5 c2 c6 e2 e6 f3 f5");
    variant_free(v);
}

static void test_ub_camel_jumps_over_everything(void **state) {
    (void)state;
    Variant *v = load_ub("any");
    expect_targets(v, "7k/8/8/8/3N4/8/8/K7 w", "d4", "a3 a5 c1 c7 e1 e7 g3 g5");
    expect_targets(v, "7k/8/2ppp3/2ppp3/2pNp3/2ppp3/2ppp3/K7 w", "d4", "a3 a5 c1 c7 e1 e7 g3 g5");
    expect_targets(v, "7k/8/8/8/3N4/8/8/K3P3 w", "d4", "a3 a5 c1 c7 e7 g3 g5"); /* own piece on e1 */
    variant_free(v);
}

static void test_ub_king_diagonal_then_orthogonal(void **state) {
    (void)state;
    Variant *v = load_ub("any");
    /* 8 knight squares + 4 orthogonal neighbours, never a diagonal neighbour */
    expect_targets(v, "7k/8/8/8/3K4/8/8/8 w", "d4", "b3 b5 c2 c4 c6 d3 d5 e2 e4 e6 f3 f5");
    /* e5 occupied: e6 and f5 go; d5 (via c5) and e4 (via e3) stay */
    expect_targets(v, "7k/8/8/4P3/3K4/8/8/8 w", "d4", "b3 b5 c2 c4 c6 d3 d5 e2 e4 f3");
    /* c5 and e5 occupied: d5 has no path left */
    expect_targets(v, "7k/8/8/2P1P3/3K4/8/8/8 w", "d4", "b3 c2 c4 d3 e2 e4 f3");
    /* all four diagonals occupied: the king cannot move */
    expect_targets(v, "7k/8/8/2P1P3/3K4/2P1P3/8/8 w", "d4", "");
    variant_free(v);
    v = load_ub("outward");
    expect_targets(v, "7k/8/8/8/3K4/8/8/8 w", "d4", "b3 b5 c2 c6 e2 e6 f3 f5");
    variant_free(v);
}

static void test_ub_pawn_diagonal_and_first_double_step(void **state) {
    (void)state;
    Variant *v = load_ub("any");
    expect_targets(v, "7k/8/8/8/8/8/3P4/K7 w", "d2", "c3 d4 e3");
    expect_targets(v, "7k/8/8/8/8/3p4/3P4/K7 w", "d2", "c3 e3"); /* d3 blocked */
    expect_targets(v, "7k/8/8/8/3p4/8/3P4/K7 w", "d2", "c3 e3"); /* d4 blocked: never captures */
    expect_targets(v, "7k/8/8/8/3P4/8/8/K7 w", "d4", "c5 e5");   /* no straight step */
    expect_targets(v, "7k/8/8/2p1P3/3P4/8/8/K7 w", "d4", "c5");  /* captures c5, own e5 */
    expect_targets(v, "k7/8/8/8/8/8/3p4/7K b", "d2", "c1 e1");   /* black goes down */
    variant_free(v);
}

static void test_ub_king_attack_can_be_one_sided(void **state) {
    (void)state;
    Variant *v = load_ub("any");
    Position pos;
    board_init(&pos, v);
    /* the white knight on f2 stands on the white king's only path to f3: the black king
     * attacks e1 through e2, the white king cannot reach f3 */
    set_fen(&pos, "8/8/8/8/8/5k2/5N2/4K3 w");
    assert_true(attack_in_check(test_gen(), &pos, 0));
    assert_false(attack_in_check(test_gen(), &pos, 1));
    board_free(&pos);
    variant_free(v);
}

static void make_text(Position *pos, const char *text) {
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), pos, &ml, &f);
    int i = notation_find(pos->v, &ml, text);
    if (i < 0) print_error("move %s is not legal\n", text);
    assert_true(i >= 0);
    board_make(pos, &ml.moves[i]);
}

static void legal_list(Position *pos, char *out, size_t cap) {
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), pos, &ml, &f);
    out[0] = 0;
    for (int i = 0; i < ml.count; i++) {
        char buf[16];
        notation_move(pos->v, &ml.moves[i], buf, sizeof buf);
        if (i) strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, buf, cap - strlen(out) - 1);
    }
}

static void test_ub_pawn_on_last_rank_must_be_captured(void **state) {
    (void)state;
    Variant *v = load_ub("any");
    Position pos;
    board_init(&pos, v);
    GameResult r;
    char text[512];
    /* c7-d8: the black king can take it (via d7), and that is its only legal move */
    set_fen(&pos, "4k3/2P5/8/8/8/8/8/K7 w");
    make_text(&pos, "c7d8");
    legal_list(&pos, text, sizeof text);
    assert_string_equal(text, "e8d8");
    gameend_check(test_gen(), &pos, &r);
    assert_false(r.over);
    /* c7-b8: nothing can take it: White wins at once */
    set_fen(&pos, "4k3/2P5/8/8/8/8/8/K7 w");
    make_text(&pos, "c7b8");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 0);
    assert_string_equal(r.reason, "must-capture");
    board_free(&pos);
    variant_free(v);
}

static void test_ub_pawn_check_with_ordinary_check(void **state) {
    (void)state;
    Variant *v = load_ub("any");
    Position pos;
    board_init(&pos, v);
    GameResult r;
    char text[512];
    /* in check from the rook on e1 and under pawn-check: taking d8 answers both */
    set_fen(&pos, "3Pk3/8/8/8/8/8/8/K3R3 b");
    assert_true(attack_in_check(test_gen(), &pos, 1));
    legal_list(&pos, text, sizeof text);
    assert_string_equal(text, "e8d8");
    /* a rook on d1 guards d8: the only capture is illegal, so White wins */
    set_fen(&pos, "3Pk3/8/8/8/8/8/8/K2RR3 b");
    legal_list(&pos, text, sizeof text);
    assert_string_equal(text, "");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 0);
    /* no pawn-check: the game goes on */
    set_fen(&pos, "4k3/8/8/8/8/8/8/K2R4 b");
    gameend_check(test_gen(), &pos, &r);
    assert_false(r.over);
    board_free(&pos);
    variant_free(v);
}

static void test_ub_perft_both_king_options(void **state) {
    (void)state;
    /* the two settings first differ at depth 4 (482447 / 482441, in tests/perft and bench) */
    static const uint64_t want[2][3] = {{26, 676, 18136}, {26, 676, 18136}};
    for (int k = 0; k < 2; k++) {
        Variant *v = load_ub(k ? "outward" : "any");
        Position pos;
        board_init(&pos, v);
        set_fen(&pos, v->setup);
        for (int d = 1; d <= 3; d++) {
            VmFault f = {0};
            assert_int_equal(perft(test_gen(), &pos, d, &f), want[k][d - 1]);
        }
        /* the options differ where a king can step sideways: a bare king on d4 */
        set_fen(&pos, "7k/8/8/8/3K4/8/8/8 w");
        VmFault f = {0};
        assert_int_equal(perft(test_gen(), &pos, 1, &f), k ? 8 : 12);
        board_free(&pos);
        variant_free(v);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ub_mao_is_blocked_by_its_orthogonal_neighbour),
        cmocka_unit_test(test_ub_camel_jumps_over_everything),
        cmocka_unit_test(test_ub_king_diagonal_then_orthogonal),
        cmocka_unit_test(test_ub_pawn_diagonal_and_first_double_step),
        cmocka_unit_test(test_ub_king_attack_can_be_one_sided),
        cmocka_unit_test(test_ub_pawn_on_last_rank_must_be_captured),
        cmocka_unit_test(test_ub_pawn_check_with_ordinary_check),
        cmocka_unit_test(test_ub_perft_both_king_options),
    };
    return cmocka_run_group_tests_name("variant_ub", tests, NULL, NULL);
}
