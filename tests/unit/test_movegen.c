/* test_movegen.c - the fast ray path and the general program path agree; legality basics. */
#include "support.h"

/* Sorted coordinate texts of the legal moves, joined by spaces. */
static void legal_text(Position *pos, char *out, size_t cap) {
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(pos, &ml, &f);
    assert_false(f.set);
    char names[MAX_MOVES][16];
    for (int i = 0; i < ml.count; i++) notation_move(pos->v, &ml.moves[i], names[i], sizeof names[i]);
    qsort(names, (size_t)ml.count, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (int i = 0; i < ml.count; i++) {
        strncat(out, names[i], cap - strlen(out) - 1);
        strncat(out, " ", cap - strlen(out) - 1);
    }
}

static uint64_t rng(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random games from the start and from Kiwipete: at every position both paths must give the
 * same legal moves and the same check status. */
static void test_movegen_fast_and_general_agree(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    Position pos;
    board_init(&pos, v);
    static char fast[8192], general[8192];
    static MoveList ml;
    uint64_t seed = 12345;
    const char *starts[] = {v->setup, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"};
    int positions = 0;
    for (int game = 0; game < 60; game++) {
        set_fen(&pos, starts[game % 3]);
        for (int ply = 0; ply < 80; ply++) {
            movegen_fast_enabled = true;
            legal_text(&pos, fast, sizeof fast);
            bool check_fast = movegen_in_check(&pos, board_mover(&pos));
            movegen_fast_enabled = false;
            legal_text(&pos, general, sizeof general);
            bool check_general = movegen_in_check(&pos, board_mover(&pos));
            movegen_fast_enabled = true;
            assert_string_equal(fast, general);
            assert_int_equal(check_fast, check_general);
            positions++;
            VmFault f = {0};
            movegen_legal(&pos, &ml, &f);
            if (ml.count == 0) break;
            board_make(&pos, &ml.moves[rng(&seed) % (uint64_t)ml.count]);
            assert_true(board_is_ok(&pos));
        }
    }
    assert_true(positions > 2000);
    board_free(&pos);
    variant_free(v);
}

static void test_movegen_start_position_has_20_moves(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    static char text[8192];
    legal_text(&pos, text, sizeof text);
    assert_string_equal(text, "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 "
                              "g2g3 g2g4 h2h3 h2h4 ");
    board_free(&pos);
    variant_free(v);
}

static void test_movegen_castling_through_check_is_illegal(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    Position pos;
    board_init(&pos, v);
    /* the black rook on f8 covers f1: no O-O; d1 is free of attack: O-O-O allowed */
    set_fen(&pos, "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    static char text[8192];
    legal_text(&pos, text, sizeof text);
    assert_null(strstr(text, "e1g1"));
    assert_non_null(strstr(text, "e1c1"));
    board_free(&pos);
    variant_free(v);
}

static void test_movegen_en_passant_and_promotion(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1");
    static char text[8192];
    legal_text(&pos, text, sizeof text);
    assert_non_null(strstr(text, "e5d6 "));
    assert_non_null(strstr(text, "b7b8q "));
    assert_non_null(strstr(text, "b7b8n "));
    /* en passant removes the pawn on d5 */
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(&pos, &ml, &f);
    int i = notation_find(v, &ml, "e5d6");
    assert_true(i >= 0);
    board_make(&pos, &ml.moves[i]);
    assert_int_equal(pos.cell[variant_cell_by_name(v, "d5")], 0);
    board_unmake(&pos);
    assert_int_not_equal(pos.cell[variant_cell_by_name(v, "d5")], 0);
    assert_true(board_is_ok(&pos));
    board_free(&pos);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_movegen_start_position_has_20_moves),
        cmocka_unit_test(test_movegen_castling_through_check_is_illegal),
        cmocka_unit_test(test_movegen_en_passant_and_promotion),
        cmocka_unit_test(test_movegen_fast_and_general_agree),
    };
    return cmocka_run_group_tests_name("movegen", tests, NULL, NULL);
}
