/* test_variant_ultima.c - rules/ultima.rules: the rules page's captions (exactly which cells a
 * move captures), freezing and its neutralisation, and indirect check. */
#include "support.h"

static Variant *ultima;

static int setup(void **state) {
    (void)state;
    DiagSink sink;
    diag_init(&sink);
    ultima = load_file("rules/ultima.rules", NULL, 0, &sink);
    diag_free(&sink);
    return ultima ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    variant_free(ultima);
    return 0;
}

/* The cells the legal move `text` removes, sorted and space-separated; "illegal" if none. */
static void captured_by(const char *fen, const char *text, char *out, size_t cap) {
    Position pos;
    board_init(&pos, ultima);
    set_fen(&pos, fen);
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    int i = notation_find(ultima, &ml, text);
    snprintf(out, cap, "illegal");
    if (i >= 0) {
        char names[MAX_EFFECTS][8];
        int n = 0;
        const Move *m = &ml.moves[i];
        for (int k = 0; k < m->nfx; k++)
            if (m->fx[k].kind == FX_REMOVE) snprintf(names[n++], sizeof names[0], "%s", ultima->cells[m->fx[k].a].name);
        qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
        out[0] = 0;
        for (int k = 0; k < n; k++) {
            if (k) strncat(out, " ", cap - strlen(out) - 1);
            strncat(out, names[k], cap - strlen(out) - 1);
        }
    }
    board_free(&pos);
}

static void expect_captures(const char *fen, const char *move, const char *want) {
    char got[128];
    captured_by(fen, move, got, sizeof got);
    if (strcmp(got, want)) print_error("%s %s: captured '%s', want '%s'\n", fen, move, got, want);
    assert_string_equal(got, want);
}

/* Destinations of the legal moves from `from`, sorted. */
static void expect_moves_from(const char *fen, const char *from, const char *want) {
    Position pos;
    board_init(&pos, ultima);
    set_fen(&pos, fen);
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    char names[MAX_MOVES][8];
    int n = 0, c = variant_cell_by_name(ultima, from);
    for (int i = 0; i < ml.count; i++)
        if (ml.moves[i].from == c) snprintf(names[n++], sizeof names[0], "%s", ultima->cells[ml.moves[i].to].name);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    char got[1024] = "";
    for (int i = 0; i < n; i++) {
        if (i) strcat(got, " ");
        strcat(got, names[i]);
    }
    if (strcmp(got, want)) print_error("%s from %s: '%s', want '%s'\n", fen, from, got, want);
    assert_string_equal(got, want);
    board_free(&pos);
}

static void test_ultima_pincer_caption(void **state) {
    (void)state;
    /* 1.Pc2-c4 captures c5 (with c6) and d4 (with e4) */
    expect_captures("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", "c2c4", "c5 d4");
    /* a pawn that moves between two enemies is not captured; a diagonal partner does not count */
    expect_captures("7k/8/8/8/1n1n4/8/2P5/K7 w 0", "c2c4", "");
    expect_captures("7k/8/8/3N4/2n5/8/2P5/K7 w 0", "c2c3", "");
}

static void test_ultima_coordinator_caption(void **state) {
    (void)state;
    /* 1.Rc5 captures c7 and h5 (crossings with the king on h7) */
    expect_captures("8/2b4K/2q5/3p1N1p/8/8/2R5/k7 w 0", "c2c5", "c7 h5");
    /* on the king's row nothing is coordinated */
    expect_captures("8/2b4K/2q5/3p1N1p/8/8/2R5/k7 w 0", "c2c7", "illegal");
}

static void test_ultima_long_leaper_caption(void **state) {
    (void)state;
    const char *fen = "2n4k/3r4/5b2/3p4/1m6/3b4/3N4/K7 w 0";
    expect_captures(fen, "d2d4", "d3");
    expect_captures(fen, "d2d6", "d3 d5");
    expect_captures(fen, "d2d8", "d3 d5 d7");
    expect_captures(fen, "d2a5", "b4");
    expect_captures(fen, "d2d3", "illegal"); /* never lands on a piece */
    /* two pieces in a row cannot be jumped, nor can a friend */
    expect_captures("7k/8/8/8/3p4/3p4/3N4/K7 w 0", "d2d5", "illegal");
    expect_captures("7k/8/8/8/8/3P4/3N4/K7 w 0", "d2d4", "illegal");
}

static void test_ultima_withdrawer_caption(void **state) {
    (void)state;
    const char *fen = "7k/8/8/3Qr3/8/8/8/K7 w 0";
    expect_captures(fen, "d5a5", "e5");
    expect_captures(fen, "d5b5", "e5");
    expect_captures(fen, "d5c5", "e5");
    expect_captures(fen, "d5d7", ""); /* not moving away from it */
}

static void test_ultima_chameleon_caption(void **state) {
    (void)state;
    /* 1.Bd5 captures c4 (leaping the leaper) and a5 (coordinating with the king on a1), but
     * not e5: the move is diagonal, and a pawn is only pinched by an orthogonal move */
    expect_captures("7k/8/8/r3pP2/2n5/8/B7/K7 w 0", "a2d5", "a5 c4");
    /* moving orthogonally it does pinch a pawn */
    expect_captures("7k/8/8/4pP2/8/8/8/K2B4 w 0", "d1d5", "e5");
    /* it withdraws from a withdrawer, but not from a pawn */
    expect_captures("7k/8/8/3Bq3/8/8/8/K7 w 0", "d5a5", "e5");
    expect_captures("7k/8/8/3Bp3/8/8/8/K7 w 0", "d5a5", "");
    /* chameleons never capture chameleons */
    expect_captures("7k/8/8/3Bb3/8/8/8/K7 w 0", "d5a5", "");
}

/* Option chameleon-leaps=alone (MacKay): a leaping move captures only the leapers it jumps. */
static void test_ultima_chameleon_leaps_alone_option(void **state) {
    (void)state;
    Variant *combined = ultima;
    DiagSink sink;
    diag_init(&sink);
    OptionSetting opt = {"chameleon-leaps", "alone"};
    ultima = load_file("rules/ultima.rules", &opt, 1, &sink);
    diag_free(&sink);
    assert_non_null(ultima);
    expect_captures("7k/8/8/r3pP2/2n5/8/B7/K7 w 0", "a2d5", "c4");
    /* a move that leaps nothing still combines its captures */
    expect_captures("7k/8/8/r7/8/8/B7/K7 w 0", "a2d5", "a5");
    variant_free(ultima);
    ultima = combined;
}

/* Option start=random: each back rank is a shuffle of the same eight pieces, fixed by the seed. */
static void test_ultima_random_start(void **state) {
    (void)state;
    DiagSink sink;
    diag_init(&sink);
    OptionSetting opt = {"start", "random"};
    Variant *v = load_file("rules/ultima.rules", &opt, 1, &sink);
    diag_free(&sink);
    assert_non_null(v);
    char a[256], b[256], c[256];
    fen_start(v, 7, a, sizeof a);
    fen_start(v, 7, b, sizeof b);
    fen_start(v, 8, c, sizeof c);
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    /* the pawns and the counts of every piece stay */
    assert_non_null(strstr(a, "/pppppppp/8/8/8/8/PPPPPPPP/"));
    char black[9], white[9];
    memcpy(black, a, 8);
    black[8] = 0;
    memcpy(white, strstr(a, "PPPPPPPP/") + 9, 8);
    white[8] = 0;
    const char *kinds = "rnbkqm";
    for (const char *k = kinds; *k; k++) {
        int nb = 0, nw = 0;
        for (int i = 0; i < 8; i++) {
            nb += black[i] == *k;
            nw += white[i] == *k - 'a' + 'A';
        }
        int want = (*k == 'k' || *k == 'q' || *k == 'm' || *k == 'r') ? 1 : 2;
        assert_int_equal(nb, want);
        assert_int_equal(nw, want);
    }
    variant_free(v);
    /* the default start is the fixed one */
    fen_start(ultima, 7, a, sizeof a);
    assert_string_equal(a, "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0");
}

static void test_ultima_chameleon_checks_like_a_king(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultima);
    set_fen(&pos, "8/8/8/3k4/3B4/8/8/K7 b 0");
    assert_true(attack_in_check(test_gen(), &pos, 1));
    /* two steps away it does not */
    set_fen(&pos, "8/8/3k4/8/3B4/8/8/K7 b 0");
    assert_false(attack_in_check(test_gen(), &pos, 1));
    board_free(&pos);
}

static void test_ultima_indirect_check_caption(void **state) {
    (void)state;
    /* Ke4-e5 is illegal: the pawn a5 would slide to d5 and pinch the king against f5; every
     * other king move is legal (Kxf5 included) */
    expect_moves_from("7k/8/8/p4r2/4K3/8/8/8 w 0", "e4", "d3 d4 d5 e3 f3 f4 f5");
}

static void test_ultima_freezing(void **state) {
    (void)state;
    /* an enemy immobilizer next to it: the pawn cannot move */
    expect_moves_from("7k/8/8/8/3m4/3P4/8/K7 w 0", "d3", "");
    /* the immobilizer touches a white immobilizer (not the frozen piece): neutralised */
    expect_moves_from("7k/8/8/8/3m4/3PM3/8/K7 w 0", "d3", "a3 b3 c3 d1 d2");
    /* ... or a white chameleon */
    expect_moves_from("7k/8/8/8/3m4/3PB3/8/K7 w 0", "d3", "a3 b3 c3 d1 d2");
    /* two immobilizers side by side freeze each other */
    expect_moves_from("7k/8/8/8/3mM3/8/8/K7 w 0", "e4", "");
    /* a chameleon freezes an immobilizer, and is frozen by it unless helped */
    expect_moves_from("7k/8/8/8/3mB3/8/8/K7 w 0", "e4", "");
    expect_moves_from("7k/8/8/8/3mB3/8/8/K7 b 0", "d4", "");
    /* two chameleons next to an enemy immobilizer both move */
    expect_moves_from("7k/8/8/8/3mB3/4B3/8/K7 w 0", "e4",
                      "a8 b1 b7 c2 c6 d3 d5 e5 e6 e7 e8 f3 f4 f5 g2 g4 g6 h1 h4 h7");
}

static void test_ultima_frozen_pieces_do_not_check(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultima);
    /* the black withdrawer on e5 could withdraw from the king on e4... */
    set_fen(&pos, "7k/8/8/4q3/4K3/8/8/8 w 0");
    assert_true(attack_in_check(test_gen(), &pos, 0));
    /* ...unless a white immobilizer freezes it */
    set_fen(&pos, "7k/8/5M2/4q3/4K3/8/8/8 w 0");
    assert_false(attack_in_check(test_gen(), &pos, 0));
    /* a frozen piece is still a pincer partner: c3 moves to c4 and pinches d4? no - the
     * partner e4 is a frozen white pawn next to the black immobilizer f5; it still counts */
    expect_captures("7k/8/8/5m2/3pP3/8/2P5/K7 w 0", "c2c4", "d4");
    board_free(&pos);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ultima_pincer_caption),
        cmocka_unit_test(test_ultima_coordinator_caption),
        cmocka_unit_test(test_ultima_long_leaper_caption),
        cmocka_unit_test(test_ultima_withdrawer_caption),
        cmocka_unit_test(test_ultima_chameleon_caption),
        cmocka_unit_test(test_ultima_chameleon_leaps_alone_option),
        cmocka_unit_test(test_ultima_random_start),
        cmocka_unit_test(test_ultima_chameleon_checks_like_a_king),
        cmocka_unit_test(test_ultima_indirect_check_caption),
        cmocka_unit_test(test_ultima_freezing),
        cmocka_unit_test(test_ultima_frozen_pieces_do_not_check),
    };
    return cmocka_run_group_tests_name("variant_ultima", tests, setup, teardown);
}
