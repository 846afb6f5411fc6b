/* test_variant_ultra.c - rules/ultra-chess.rules: turns of phases, experience from captures,
 * every level-up path and its cost, the two bonus moves and their thresholds, legality after
 * every action, Out of Ammo and the turn-counted n-move rule. */
#include "gameend.h"
#include "perft.h"
#include "support.h"

static Variant *ultra;

static int setup(void **state) {
    (void)state;
    DiagSink sink;
    diag_init(&sink);
    ultra = variant_load("rules/ultra-chess.rules", NULL, 0, &sink);
    diag_free(&sink);
    return ultra ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    variant_free(ultra);
    return 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The legal moves of pos whose text starts with prefix, sorted, space-separated. */
static void legal_text(Position *pos, const char *prefix, char *out, size_t cap) {
    static MoveList ml;
    static char texts[MAX_MOVES][32];
    char *sorted[MAX_MOVES];
    VmFault f = {0};
    movegen_legal(pos, &ml, &f);
    assert_false(f.set);
    int n = 0;
    for (int i = 0; i < ml.count; i++) {
        notation_move(pos->v, &ml.moves[i], texts[n], sizeof texts[n]);
        if (!strncmp(texts[n], prefix, strlen(prefix))) {
            sorted[n] = texts[n];
            n++;
        }
    }
    qsort(sorted, (size_t)n, sizeof sorted[0], cmp_str);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i) strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, sorted[i], cap - strlen(out) - 1);
    }
}

static void expect_moves(const char *fen, const char *prefix, const char *want) {
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, fen);
    char got[4096];
    legal_text(&pos, prefix, got, sizeof got);
    if (strcmp(got, want)) print_error("%s [%s]: got '%s', want '%s'\n", fen, prefix, got, want);
    assert_string_equal(got, want);
    board_free(&pos);
}

/* Plays one legal move given in coordinate notation; fails the test when it is not legal. */
static void play(Position *pos, const char *text) {
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(pos, &ml, &f);
    int found[4];
    int n = notation_parse(pos, &ml, text, found, 4);
    if (n != 1) print_error("move '%s': %d matches\n", text, n);
    assert_int_equal(n, 1);
    assert_true(board_make(pos, &ml.moves[found[0]]));
    assert_true(board_is_ok(pos));
}

static void expect_fen(const Position *pos, const char *want) {
    char got[512];
    fen_write(pos, got, sizeof got);
    if (strcmp(got, want)) print_error("got '%s', want '%s'\n", got, want);
    assert_string_equal(got, want);
}

static void test_ultra_turn_is_bonus_normal_bonus_pass(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, ultra->setup);
    /* no bonus move and no pass before the normal move */
    char got[4096];
    legal_text(&pos, "pass", got, sizeof got);
    assert_string_equal(got, "");
    play(&pos, "e2e4");
    expect_fen(&pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1 0,0 bonus2");
    /* the normal phase is over: only the pass (no bonus move is possible) */
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "pass");
    play(&pos, "pass");
    expect_fen(&pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 0,0 bonus1");
    /* unmake goes back through the phases */
    board_unmake(&pos);
    board_unmake(&pos);
    expect_fen(&pos, ultra->setup);
    assert_true(board_is_ok(&pos));
    board_free(&pos);
}

static void test_ultra_perft_counts_every_action(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, ultra->setup);
    VmFault f = {0};
    /* white's 20 moves, its pass, black's 20 moves, its pass, white's 20 moves */
    assert_int_equal(perft(&pos, 1, &f), 20);
    assert_int_equal(perft(&pos, 2, &f), 20);
    assert_int_equal(perft(&pos, 3, &f), 400);
    assert_int_equal(perft(&pos, 4, &f), 400);
    assert_int_equal(perft(&pos, 5, &f), 8902);
    board_free(&pos);
}

static void test_ultra_en_passant_survives_the_movers_pass(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1 0,0 bonus1");
    play(&pos, "e2e4");
    play(&pos, "pass");
    play(&pos, "f4e3");
    /* (the cell is cleared when black's turn ends) */
    expect_fen(&pos, "4k3/8/8/8/8/4p3/8/4K3 b - e3 0 1 0,1 bonus2");
    play(&pos, "pass");
    expect_fen(&pos, "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2 0,1 bonus1");
    /* after the opponent's turn ends without taking, the cell is gone */
    set_fen(&pos, "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1 0,0 bonus1");
    play(&pos, "e2e4");
    play(&pos, "pass");
    play(&pos, "e8d8");
    play(&pos, "pass");
    play(&pos, "e1d1");
    play(&pos, "pass");
    char got[512];
    legal_text(&pos, "f4e3", got, sizeof got);
    assert_string_equal(got, "");
    board_free(&pos);
}

static void test_ultra_captures_give_experience(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    /* a rook takes a knight: 3 for white */
    set_fen(&pos, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1 0,0 bonus1");
    play(&pos, "d1d5");
    expect_fen(&pos, "4k3/8/8/3R4/8/8/8/4K3 w - - 0 1 3,0 bonus2");
    /* en passant gives a pawn's worth to black */
    set_fen(&pos, "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1 0,0 bonus1");
    play(&pos, "e2e4");
    play(&pos, "pass");
    play(&pos, "f4e3");
    expect_fen(&pos, "4k3/8/8/8/8/4p3/8/4K3 b - e3 0 1 0,1 bonus2");
    /* a queen is worth 9, a levelled-up chancellor 9 and an archbishop 7 */
    set_fen(&pos, "4k3/8/8/2qca3/8/8/8/2RRRK2 w - - 0 1 0,0 bonus1");
    play(&pos, "c1c5");
    expect_fen(&pos, "4k3/8/8/2Rca3/8/8/8/3RRK2 w - - 0 1 9,0 bonus2");
    set_fen(&pos, "4k3/8/8/2qca3/8/8/8/2RRRK2 w - - 0 1 0,0 bonus1");
    play(&pos, "d1d5");
    expect_fen(&pos, "4k3/8/8/2qRa3/8/8/8/2R1RK2 w - - 0 1 9,0 bonus2");
    set_fen(&pos, "4k3/8/8/2qca3/8/8/8/2RRRK2 w - - 0 1 0,0 bonus1");
    play(&pos, "e1e5");
    expect_fen(&pos, "4k3/8/8/2qcR3/8/8/8/2RR1K2 w - - 0 1 7,0 bonus2");
    board_free(&pos);
}

static void test_ultra_level_up_paths_and_costs(void **state) {
    (void)state;
    /* with 12 experience every path is open: exactly the listed ones */
    const char *fen = "4k3/8/8/8/8/8/P7/RNBQK3 w - - 0 1 12,0 bonus1";
    expect_moves(fen, "levelup:", "levelup:a1a1c levelup:a1a1q levelup:a2a2b levelup:a2a2n levelup:a2a2r "
                                  "levelup:b1b1a levelup:b1b1c levelup:c1c1a levelup:c1c1q");
    /* 8: all but knight to chancellor and bishop to queen (12) */
    expect_moves("4k3/8/8/8/8/8/P7/RNBQK3 w - - 0 1 8,0 bonus1", "levelup:",
                 "levelup:a1a1c levelup:a1a1q levelup:a2a2b levelup:a2a2n levelup:a2a2r levelup:b1b1a levelup:c1c1a");
    /* 7: only the pawn's 4-point paths; 3: nothing */
    expect_moves("4k3/8/8/8/8/8/P7/RNBQK3 w - - 0 1 7,0 bonus1", "levelup:", "levelup:a2a2b levelup:a2a2n");
    expect_moves("4k3/8/8/8/8/8/P7/RNBQK3 w - - 0 1 3,0 bonus1", "levelup:", "");
    /* archbishops, chancellors, queens and kings have no path */
    expect_moves("4k3/8/8/8/8/8/8/ACQK4 w - - 0 1 100,0 bonus1", "levelup:", "");
    /* the cost is paid; the piece changes in place; it is the normal move of the turn */
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 13,0 bonus1");
    play(&pos, "levelup:b1b1c");
    expect_fen(&pos, "4k3/8/8/8/8/8/8/1C2K3 w - - 0 1 1,0 bonus2");
    char got[512];
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "pass");
    /* a level-up is irreversible: it resets the n-move count */
    set_fen(&pos, "4k3/8/8/8/8/8/8/1N2K3 w - - 7 1 8,0 bonus1");
    play(&pos, "levelup:b1b1a");
    play(&pos, "pass");
    expect_fen(&pos, "4k3/8/8/8/8/8/8/1A2K3 b - - 0 1 0,0 bonus1");
    board_free(&pos);
}

static void test_ultra_level_up_must_keep_the_king_safe(void **state) {
    (void)state;
    /* the pawn shields the king from the rook: turning it into a bishop keeps the shield; so
     * the pawn may level up; in check, a level-up that does not answer it is illegal */
    expect_moves("4r1k1/8/8/8/8/8/4P3/4K3 w - - 0 1 4,0 bonus1", "levelup:", "levelup:e2e2b levelup:e2e2n");
    expect_moves("4r1k1/8/8/8/8/8/8/1N2K3 w - - 0 1 8,0 bonus1", "levelup:", "");
}

static void test_ultra_immediate_capture_needs_three_attackers(void **state) {
    (void)state;
    /* two attackers (pawn c4, knight f4): no bonus move */
    expect_moves("4k3/8/8/3n4/2P2N2/8/8/4K3 w - - 0 1 0,0 bonus1", "bonus:", "");
    /* three: each attacker may take it for free */
    expect_moves("4k3/8/8/3n4/2P1PN2/8/8/4K3 w - - 0 1 0,0 bonus1", "bonus:", "bonus:c4d5 bonus:e4d5 bonus:f4d5");
    /* the spec's example: queen and rook attack the rook; the bishop behind the queen does
     * not count (no x-rays) */
    expect_moves("4k3/8/8/3r4/8/1B6/8/3RK3 w - - 0 1 0,0 bonus1", "bonus:", "");
    expect_moves("4k3/8/8/3r4/2Q5/1B6/8/3RK3 w - - 0 1 0,0 bonus1", "bonus:", "");
    /* a pinned attacker counts (pseudo-legal), though it may not take */
    expect_moves("4k2b/8/8/3n4/2P1P3/2N5/8/K7 w - - 0 1 0,0 bonus1", "bonus:", "bonus:c4d5 bonus:e4d5");
    /* the king counts by adjacency */
    expect_moves("4k3/8/8/3n4/2P1K3/8/8/8 w - - 0 1 0,0 bonus1", "bonus:", "");
    expect_moves("4k3/8/8/3n4/2PKP3/8/8/8 w - - 0 1 0,0 bonus1", "bonus:", "bonus:c4d5 bonus:d4d5 bonus:e4d5");
}

static void test_ultra_bonus_capture_is_free_and_repeatable(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, "4k3/8/8/3n4/2P1PN2/8/8/4K3 w - - 0 1 0,0 bonus1");
    play(&pos, "bonus:f4d5");
    /* still the first bonus phase; experience gained */
    expect_fen(&pos, "4k3/8/8/3N4/2P1P3/8/8/4K3 w - - 0 1 3,0 bonus1");
    play(&pos, "e1d2");
    expect_fen(&pos, "4k3/8/8/3N4/2P1P3/8/3K4/8 w - - 0 1 3,0 bonus2");
    /* bonus moves after the normal move too */
    set_fen(&pos, "4k3/8/8/3n4/2P1P3/8/6N1/4K3 w - - 0 1 0,0 bonus1");
    play(&pos, "g2e3");
    char got[512];
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "bonus:c4d5 bonus:e3d5 bonus:e4d5 pass");
    board_free(&pos);
}

static void test_ultra_execute_needs_five_attackers(void **state) {
    (void)state;
    /* four attackers: immediate captures only */
    expect_moves("4k3/8/2Q5/3n4/2P1PN2/8/8/4K3 w - - 0 1 0,0 bonus1", "bonus:x", "");
    /* five: one Execute move removes the knight, nothing moves */
    expect_moves("4k3/8/2Q5/3n4/2P1PN2/8/8/3RK3 w - - 0 1 0,0 bonus1", "bonus:x", "bonus:xd5");
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, "4k3/8/2Q5/3n4/2P1PN2/8/8/3RK3 w - - 0 1 0,0 bonus1");
    play(&pos, "bonus:xd5");
    expect_fen(&pos, "4k3/8/2Q5/8/2P1PN2/8/8/3RK3 w - - 0 1 3,0 bonus1");
    board_free(&pos);
}

static void test_ultra_every_action_must_leave_the_king_safe(void **state) {
    (void)state;
    /* white is in check from the bishop on b4: a bonus capture elsewhere does not answer it */
    expect_moves("k7/8/8/3n4/1bP1PN2/8/8/4K3 w - - 0 1 0,0 bonus1", "bonus:", "");
    /* after the normal move the pass is the only way on, and it is legal (no check) */
    expect_moves("k7/8/8/8/8/8/8/4K3 w - - 0 1 0,0 bonus2", "", "pass");
}

static void test_ultra_out_of_ammo_loses(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    GameResult r;
    /* stalemate in FIDE: a loss here */
    set_fen(&pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1 0,0 bonus1");
    gameend_check(&pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 0);
    /* checkmate */
    set_fen(&pos, "7k/6pp/8/8/8/8/8/R6K w - - 0 1 0,0 bonus1");
    play(&pos, "a1a8");
    play(&pos, "pass");
    gameend_check(&pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 0);
    assert_string_equal(r.reason, "checkmate");
    board_free(&pos);
}

static void test_ultra_nmove_counts_turns(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, "4k3/8/8/8/8/8/8/4K2R w - - 98 1 0,0 bonus1");
    play(&pos, "h1h2");
    expect_fen(&pos, "4k3/8/8/8/8/8/7R/4K3 w - - 98 1 0,0 bonus2");
    play(&pos, "pass");
    expect_fen(&pos, "4k3/8/8/8/8/8/7R/4K3 b - - 99 1 0,0 bonus1");
    play(&pos, "e8d8");
    play(&pos, "pass");
    GameResult r;
    gameend_check(&pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, -1);
    assert_string_equal(r.reason, "n-move rule");
    board_free(&pos);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ultra_turn_is_bonus_normal_bonus_pass),
        cmocka_unit_test(test_ultra_perft_counts_every_action),
        cmocka_unit_test(test_ultra_en_passant_survives_the_movers_pass),
        cmocka_unit_test(test_ultra_captures_give_experience),
        cmocka_unit_test(test_ultra_level_up_paths_and_costs),
        cmocka_unit_test(test_ultra_level_up_must_keep_the_king_safe),
        cmocka_unit_test(test_ultra_immediate_capture_needs_three_attackers),
        cmocka_unit_test(test_ultra_bonus_capture_is_free_and_repeatable),
        cmocka_unit_test(test_ultra_execute_needs_five_attackers),
        cmocka_unit_test(test_ultra_every_action_must_leave_the_king_safe),
        cmocka_unit_test(test_ultra_out_of_ammo_loses),
        cmocka_unit_test(test_ultra_nmove_counts_turns),
    };
    return cmocka_run_group_tests_name("variant_ultra", tests, setup, teardown);
}
