/* test_notation.c - coordinate and algebraic notation, out and in. */
#include "support.h"

static Variant *chess;
static MoveList ml;

static int setup(void **state) {
    (void)state;
    DiagSink sink;
    diag_init(&sink);
    chess = load_file("rules/chess.rules", NULL, 0, &sink);
    diag_free(&sink);
    return chess ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    variant_free(chess);
    return 0;
}

/* The SAN of the legal move whose coordinate form is coord, in position fen. */
static void expect_san(const char *fen, const char *coord, const char *san) {
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, fen);
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    int i = notation_find(chess, &ml, coord);
    if (i < 0) print_error("no move %s in %s\n", coord, fen);
    assert_true(i >= 0);
    char buf[64];
    uint64_t key = pos.key;
    notation_san(test_gen(), &pos, &ml, &ml.moves[i], buf, sizeof buf);
    assert_int_equal(pos.key, key);
    assert_string_equal(buf, san);
    board_free(&pos);
}

/* How many legal moves text names in fen; *coord gets the first one's coordinate form. */
static int parse(const char *fen, const char *text, char *coord) {
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, fen);
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    int found[8];
    int n = notation_parse(&pos, &ml, text, found, 8);
    if (n > 0 && coord) notation_move(chess, &ml.moves[found[0]], coord, 16);
    board_free(&pos);
    return n;
}

static const char *const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
static const char *const KIWI = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

static void test_notation_san_out(void **state) {
    (void)state;
    expect_san(START, "g1f3", "Nf3");
    expect_san(START, "e2e4", "e4");
    expect_san(KIWI, "e1g1", "O-O");
    expect_san(KIWI, "e1c1", "O-O-O");
    expect_san(KIWI, "e5f7", "Nxf7");
    expect_san(KIWI, "d5e6", "dxe6");
    expect_san(KIWI, "e2a6", "Bxa6");
    expect_san("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+");
    expect_san("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b8=N");
    expect_san("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", "Rd8#");
    /* disambiguation by file, then by rank */
    expect_san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2", "Nbd2");
    expect_san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3");
    expect_san("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6");
}

static void test_notation_parse_forms(void **state) {
    (void)state;
    char c[16];
    assert_int_equal(parse(START, "Nf3", c), 1);
    assert_string_equal(c, "g1f3");
    assert_int_equal(parse(START, "g1f3", c), 1);
    assert_int_equal(parse(START, "nf3", c), 1); /* lower-case piece letter */
    assert_string_equal(c, "g1f3");
    assert_int_equal(parse(START, "e4", c), 1);
    assert_string_equal(c, "e2e4");
    assert_int_equal(parse(START, "Ng1f3", c), 1);
    assert_int_equal(parse(START, "Nf3+!?", c), 1);
    assert_int_equal(parse(KIWI, "O-O", c), 1);
    assert_string_equal(c, "e1g1");
    assert_int_equal(parse(KIWI, "0-0-0", c), 1);
    assert_string_equal(c, "e1c1");
    assert_int_equal(parse(KIWI, "dxe6", c), 1);
    assert_int_equal(parse(KIWI, "Nxf7", c), 1);
    assert_int_equal(parse("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=Q", c), 1);
    assert_string_equal(c, "b7b8q");
    assert_int_equal(parse("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8N", c), 1);
    assert_string_equal(c, "b7b8n");
    assert_int_equal(parse("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6e.p.", c), 1);
}

static void test_notation_parse_ambiguous_and_bad(void **state) {
    (void)state;
    assert_int_equal(parse("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nd2", NULL), 2);
    assert_int_equal(parse("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8", NULL), 4); /* which piece? */
    assert_int_equal(parse(START, "e5", NULL), 0);
    assert_int_equal(parse(START, "Ke2", NULL), 0);
    assert_int_equal(parse(START, "", NULL), 0);
    assert_int_equal(parse(START, "+++", NULL), 0);
    assert_int_equal(parse(START, "zz9x@!", NULL), 0);
    /* a pawn push never names a capture: d5 is not exd5 */
    char c[16];
    assert_int_equal(parse("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "d5", c), 0);
    assert_int_equal(parse("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "exd5", c), 1);
    assert_string_equal(c, "e4d5");
}

/* Long algebraic notation: origin and destination with '-' or 'x', a piece letter, any case. */
static void test_notation_parse_long_algebraic(void **state) {
    (void)state;
    char c[16];
    const char *const forms[][2] = {
        {"e2-e4", "e2e4"},  {"E2E4", "e2e4"},  {"E2-E4", "e2e4"},  {"g1-f3", "g1f3"},
        {"Ng1-f3", "g1f3"}, {"ng1f3", "g1f3"}, {"Pe2-e4", "e2e4"}, {"e2xe4", "e2e4"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        if (parse(START, forms[i][0], c) != 1) print_error("'%s' is not read\n", forms[i][0]);
        assert_int_equal(parse(START, forms[i][0], c), 1);
        assert_string_equal(c, forms[i][1]);
    }
    assert_int_equal(parse(KIWI, "e5xf7", c), 1);
    assert_string_equal(c, "e5f7");
    assert_int_equal(parse(KIWI, "Ne5xf7", c), 1);
    assert_int_equal(parse(KIWI, "E1-G1", c), 1);
    assert_string_equal(c, "e1g1");
    assert_int_equal(parse("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7-b8=Q", c), 1);
    assert_string_equal(c, "b7b8q");
    /* the letter must be the moving piece's; a cell that cannot be reached names nothing */
    assert_int_equal(parse(START, "Bg1-f3", NULL), 0);
    assert_int_equal(parse(START, "e2-e5", NULL), 0);
}

/* Everything `varia moves` prints is accepted as typed. */
static void test_notation_coordinates_round_trip(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, KIWI);
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    char buf[64];
    for (int i = 0; i < ml.count; i++) {
        notation_move(chess, &ml.moves[i], buf, sizeof buf);
        int found[4];
        assert_int_equal(notation_parse(&pos, &ml, buf, found, 4), 1);
        assert_int_equal(found[0], i);
        /* and every SAN names its own move */
        notation_san(test_gen(), &pos, &ml, &ml.moves[i], buf, sizeof buf);
        assert_int_equal(notation_parse(&pos, &ml, buf, found, 4), 1);
        assert_int_equal(found[0], i);
    }
    board_free(&pos);
}

/* On several boards a move names its board; one to another board names the destination's. */
static void test_notation_moves_between_boards(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard top 4x4\nboard bottom 4x4\n"
                              "link up from bottom to top\npiece King { letter K royal step orth }\n"
                              "piece Lift { letter L slide up move-only }\n"
                              "setup \"3k/4/4/4|4/4/L3/K3 w - - 0 1\"\n");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    static MoveList list;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &list, &f);
    char buf[64], all[256] = "";
    for (int i = 0; i < list.count; i++) {
        notation_move(v, &list.moves[i], buf, sizeof buf);
        strcat(all, buf);
        strcat(all, ";");
        int found[2];
        assert_int_equal(notation_parse(&pos, &list, buf, found, 2), 1);
        assert_int_equal(found[0], i);
    }
    assert_string_equal(all, "bottom a1-b1;bottom a2-top:a2;");
    board_free(&pos);
    variant_free(v);
}

/* Games whose promoted types are written '+' (the shogi family): a promotion is "Bxh8+", the
 * promotion declined "Bxh8=", a check is not marked; each legal move's algebraic text, read
 * back, names that move alone (so a saved PGN loads), in positions of random play. */
static void test_notation_plus_promotions(void **state) {
    (void)state;
    static const char *const games[] = {"shogi", "minishogi", "kyotoshogi", "judkins", "dobutsu"};
    uint64_t seed = 7;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++) {
        char path[64];
        snprintf(path, sizeof path, "rules/%s.rules", games[g]);
        Variant *v = load_rules(path);
        Position pos;
        board_init(&pos, v);
        for (int game = 0; game < test_reps(6); game++) {
            set_fen(&pos, v->setup);
            for (int ply = 0; ply < 60; ply++) {
                VmFault f = {0};
                movegen_legal(test_gen(), &pos, &ml, &f);
                if (!ml.count) break;
                for (int i = 0; i < ml.count; i++) {
                    char san[64], coord[64];
                    notation_san(test_gen(), &pos, &ml, &ml.moves[i], san, sizeof san);
                    notation_move(v, &ml.moves[i], coord, sizeof coord);
                    int found[4];
                    int n = notation_parse(&pos, &ml, san, found, 4);
                    if (n != 1 || found[0] != i)
                        print_error("%s: '%s' (%s) reads as %d moves\n", games[g], san, coord, n);
                    assert_int_equal(n, 1);
                    assert_int_equal(found[0], i);
                    assert_null(strstr(san, "=+"));
                }
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                board_make(&pos, &ml.moves[(seed >> 33) % (uint64_t)ml.count]);
            }
        }
        board_free(&pos);
        variant_free(v);
    }
    /* the bishop takes on h8: promoting is "+", declining "=", the bare text is ambiguous */
    Variant *shogi = load_rules("rules/shogi.rules");
    Position pos;
    board_init(&pos, shogi);
    set_fen(&pos, "4k4/7p1/9/9/9/9/9/1B7/4K4[] w - - 0 1");
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    int found[4];
    char coord[64], san[64];
    assert_int_equal(notation_parse(&pos, &ml, "Bxh8+", found, 4), 1);
    notation_move(shogi, &ml.moves[found[0]], coord, sizeof coord);
    assert_string_equal(coord, "b2h8+");
    assert_int_equal(notation_parse(&pos, &ml, "Bxh8=", found, 4), 1);
    notation_move(shogi, &ml.moves[found[0]], coord, sizeof coord);
    assert_string_equal(coord, "b2h8");
    assert_int_equal(notation_parse(&pos, &ml, "Bxh8", found, 4), 2);
    /* a promotion that gives check is one promotion, not "=+B+" */
    assert_int_equal(notation_parse(&pos, &ml, "b2g7+", found, 4), 1);
    notation_san(test_gen(), &pos, &ml, &ml.moves[found[0]], san, sizeof san);
    assert_string_equal(san, "Bg7+");
    /* USI coordinates: files from the right, ranks from the top; drops with '*' */
    set_fen(&pos, shogi->setup);
    movegen_legal(test_gen(), &pos, &ml, &f);
    assert_int_equal(notation_parse(&pos, &ml, "7g7f", found, 4), 1);
    notation_move(shogi, &ml.moves[found[0]], coord, sizeof coord);
    assert_string_equal(coord, "c3c4");
    assert_true(notation_from_usi(shogi, "P*5e", coord, sizeof coord));
    assert_string_equal(coord, "P@e5");
    assert_true(notation_from_usi(shogi, "8h2b+", coord, sizeof coord));
    assert_string_equal(coord, "b2h8+");
    assert_false(notation_from_usi(shogi, "0a1a", coord, sizeof coord));
    assert_false(notation_from_usi(shogi, "7j7f", coord, sizeof coord));
    assert_false(notation_from_usi(shogi, "7g7f++", coord, sizeof coord));
    assert_int_equal(notation_parse(&pos, &ml, "7g7e", found, 4), 0);
    board_free(&pos);
    variant_free(shogi);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notation_san_out),
        cmocka_unit_test(test_notation_parse_forms),
        cmocka_unit_test(test_notation_parse_ambiguous_and_bad),
        cmocka_unit_test(test_notation_parse_long_algebraic),
        cmocka_unit_test(test_notation_coordinates_round_trip),
        cmocka_unit_test(test_notation_moves_between_boards),
        cmocka_unit_test(test_notation_plus_promotions),
    };
    return cmocka_run_group_tests_name("notation", tests, setup, teardown);
}
