/* test_variant_4p.c - rules/ultimate-chess-4p.rules: setup per seat, the Warrior and the Mage,
 * pawns and castling per seat, promotion, and a defeat in each mode. */
#include "gameend.h"
#include "support.h"

static Variant *load_mode(const char *mode) {
    DiagSink sink;
    diag_init(&sink);
    OptionSetting opt = {"mode", mode};
    Variant *v = load_file("rules/ultimate-chess-4p.rules", &opt, 1, &sink);
    diag_free(&sink);
    assert_non_null(v);
    return v;
}

/* Sets pos from "sKh1 rKa8 ..." (seat letter s/r/b/g, piece letter, cell) with `side` to move. */
static void place(Position *pos, const char *spec, int side) {
    const Variant *v = pos->v;
    board_clear(pos);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        int owner = (int)(strchr("srbg", tok[0]) - "srbg");
        int t = variant_type_by_letter(v, tok[1]);
        int c = variant_cell_by_name(v, tok + 2);
        assert_true(owner >= 0 && t >= 0 && c >= 0);
        board_put(pos, (Cell)c, PIECE_MAKE(t, owner));
    }
    pos->turn = (uint8_t)side;
    pos->key = board_compute_key(pos);
}

static void moves_from(Position *pos, const char *from, char *out, size_t cap) {
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), pos, &ml, &f);
    char names[MAX_MOVES][12];
    int n = 0, c = variant_cell_by_name(pos->v, from);
    for (int i = 0; i < ml.count; i++)
        if (ml.moves[i].from == c) notation_move(pos->v, &ml.moves[i], names[n++], sizeof names[0]);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i) strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, names[i], cap - strlen(out) - 1);
    }
}

static void expect_from(Position *pos, const char *from, const char *want) {
    char got[2048];
    moves_from(pos, from, got, sizeof got);
    if (strcmp(got, want)) print_error("from %s: '%s'\nwant      '%s'\n", from, got, want);
    assert_string_equal(got, want);
}

static void expect_piece(const Position *pos, const char *cell, char letter, int owner) {
    Piece p = pos->cell[variant_cell_by_name(pos->v, cell)];
    assert_int_not_equal(p, 0);
    assert_int_equal(pos->v->types[PIECE_TYPE(p)].letter, letter);
    assert_int_equal(PIECE_OWNER(p), owner);
}

static void test_4p_start_position_per_seat(void **state) {
    (void)state;
    Variant *v = load_mode("standard");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    assert_int_equal(v->ncells, 240);
    const char *silver[] = {"c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1", "k1", "l1", "m1", "n1"};
    const char *red[] = {"a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11", "a12", "a13", "a14"};
    const char *black[] = {"c16", "d16", "e16", "f16", "g16", "h16", "i16", "j16", "k16", "l16", "m16", "n16"};
    const char *green[] = {"p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14"};
    const char *order = "MWRNBKQBNRWM";
    for (int i = 0; i < 12; i++) {
        expect_piece(&pos, silver[i], order[i], 0);
        expect_piece(&pos, red[i], order[i], 1);
        expect_piece(&pos, black[i], order[i], 2);
        expect_piece(&pos, green[i], order[i], 3);
    }
    expect_piece(&pos, "c2", 'P', 0);
    expect_piece(&pos, "b14", 'P', 1);
    expect_piece(&pos, "n15", 'P', 2);
    expect_piece(&pos, "o3", 'P', 3);
    assert_int_equal(variant_cell_by_name(v, "a1"), -1); /* the corners are holes */
    board_free(&pos);
    variant_free(v);
}

static void test_4p_warrior_and_mage(void **state) {
    (void)state;
    Variant *v = load_mode("standard");
    Position pos;
    board_init(&pos, v);
    place(&pos, "sKh1 rKa8 bKh16 gKp8 sWh8", 0);
    expect_from(&pos, "h8", "h8f10 h8f6 h8f8 h8g8 h8h10 h8h6 h8h7 h8h9 h8i8 h8j10 h8j6 h8j8");
    place(&pos, "sKh1 rKa8 bKh16 gKp8 sMh8", 0);
    expect_from(&pos, "h8", "h8e7 h8e9 h8g11 h8g5 h8g7 h8g9 h8i11 h8i5 h8i7 h8i9 h8k7 h8k9");
    /* the Warrior jumps over pieces (and holes), never steps diagonally */
    place(&pos, "sKh1 rKa8 bKh16 gKp8 sWh8 sPg8 sPh9 sPi9 sPg9", 0);
    expect_from(&pos, "h8", "h8f10 h8f6 h8f8 h8h10 h8h6 h8h7 h8i8 h8j10 h8j6 h8j8");
    board_free(&pos);
    variant_free(v);
}

static void test_4p_pawn_first_moves_per_seat(void **state) {
    (void)state;
    Variant *v = load_mode("standard");
    Position pos;
    board_init(&pos, v);
    place(&pos, "sKh1 rKa8 bKh16 gKp8 sPe2 rPb5 bPj15 gPo11", 0);
    expect_from(&pos, "e2", "e2e3 e2e4 e2e5");
    pos.turn = 1;
    expect_from(&pos, "b5", "b5c5 b5d5 b5e5");
    pos.turn = 2;
    expect_from(&pos, "j15", "j15j12 j15j13 j15j14");
    pos.turn = 3;
    expect_from(&pos, "o11", "o11l11 o11m11 o11n11");
    /* no jumping: a blocker on the second cell stops the two and three steps */
    place(&pos, "sKh1 rKa8 bKh16 gKp8 sPe2 rNe4", 0);
    expect_from(&pos, "e2", "e2e3");
    /* diagonal captures, and only one step after the first move */
    place(&pos, "sKh1 rKa8 bKh16 gKp8 sPe6 rNd7 gNf7", 0);
    expect_from(&pos, "e6", "e6d7 e6e7 e6f7");
    board_free(&pos);
    variant_free(v);
}

static void test_4p_castling_per_seat(void **state) {
    (void)state;
    Variant *v = load_mode("standard");
    Position pos;
    board_init(&pos, v);
    char err[200];
    /* every seat's king with both rooks at home and free paths */
    place(&pos, "sKh1 sRe1 sRl1 rKa8 rRa5 rRa12 bKh16 bRe16 bRl16 gKp8 gRp5 gRp12", 0);
    char fen[2048];
    fen_write(&pos, fen, sizeof fen);
    /* castling rights come from the position text */
    char *sp = strchr(fen, ' ');
    snprintf(sp, sizeof fen - (size_t)(sp - fen), " s KQkq:3K:3Q:4K:4Q - 0 1");
    assert_true(fen_read(&pos, fen, err, sizeof err));
    expect_from(&pos, "h1", "h1f1 h1g1 h1g2 h1h2 h1i1 h1i2 h1j1");
    pos.turn = 1;
    expect_from(&pos, "a8", "a8a10 a8a6 a8a7 a8a9 a8b7 a8b8 a8b9");
    pos.turn = 2;
    expect_from(&pos, "h16", "h16f16 h16g15 h16g16 h16h15 h16i15 h16i16 h16j16");
    pos.turn = 3;
    expect_from(&pos, "p8", "p8o7 p8o8 p8o9 p8p10 p8p6 p8p7 p8p9");
    /* making Silver's king-side castling moves the rook e1 to g1 */
    pos.turn = 0;
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    int i = notation_find(v, &ml, "h1f1");
    assert_true(i >= 0);
    board_make(&pos, &ml.moves[i]);
    expect_piece(&pos, "g1", 'R', 0);
    expect_piece(&pos, "f1", 'K', 0);
    board_free(&pos);
    variant_free(v);
}

static void test_4p_promotion_choices(void **state) {
    (void)state;
    Variant *v = load_mode("standard");
    Position pos;
    board_init(&pos, v);
    place(&pos, "sKh1 rKa8 bKh16 gKp8 sPe15", 0);
    expect_from(&pos, "e15", "e15e16b e15e16m e15e16n e15e16q e15e16r e15e16w");
    board_free(&pos);
    variant_free(v);
}

/* Green (to move) is mated: Silver's rook on p4 checks along the p-file (Green's own rook on
 * p12 cannot reach it past the king), Silver's queen on o10 guards o7-o9 and p9. */
static const char *mated_green = "sKh1 sQo10 sRp4 rKa8 bKh16 gKp8 gRp12";

static void defeat_green(Variant *v, Position *pos, GameResult *r) {
    place(pos, mated_green, 3);
    gameend_check(test_gen(), pos, r);
    assert_false(r->over);
    assert_int_equal(r->eliminated, 3);
    Move m;
    gameend_elimination(pos, r->eliminated, r->victor, &m);
    assert_true(board_make(pos, &m));
    assert_true(board_is_ok(pos));
    (void)v;
}

/* The position text ends with who is out (field 'out') and reads back as the same position. */
static void expect_text_round_trip(const Position *pos, const char *out_field) {
    char text[2048], again[2048], err[200];
    fen_write(pos, text, sizeof text);
    size_t n = strlen(text), k = strlen(out_field);
    if (n < k || strcmp(text + n - k, out_field))
        print_error("position text '%s' does not end with '%s'\n", text, out_field);
    assert_true(n >= k && !strcmp(text + n - k, out_field));
    Position back;
    board_init(&back, pos->v);
    assert_true(fen_read(&back, text, err, sizeof err));
    assert_int_equal(back.key, pos->key);
    assert_int_equal(back.alive, pos->alive);
    fen_write(&back, again, sizeof again);
    assert_string_equal(again, text);
    board_free(&back);
}

static void expect_bad_out(const Variant *v, const char *out_field, const char *message) {
    char text[2048], err[200];
    Position pos;
    board_init(&pos, v);
    assert_true(fen_read(&pos, v->setup, err, sizeof err));
    fen_write(&pos, text, sizeof text);
    assert_true(text[strlen(text) - 1] == '-'); /* nobody is out at the start */
    snprintf(text + strlen(text) - 1, sizeof text - strlen(text) + 1, "%s", out_field);
    assert_false(fen_read(&pos, text, err, sizeof err));
    if (!strstr(err, message)) print_error("'%s': got '%s'\n", out_field, err);
    assert_non_null(strstr(err, message));
    board_free(&pos);
}

static void test_4p_position_text_says_who_is_out(void **state) {
    (void)state;
    Variant *v = load_mode("devastation");
    expect_bad_out(v, "x", "bad players out 'x'");
    expect_bad_out(v, "g,g", "bad players out 'g,g'");
    expect_bad_out(v, "g>g", "bad players out 'g>g'");
    expect_bad_out(v, "g>b,b", "b is out and cannot move another army");
    expect_bad_out(v, "s", "the player to move (s) is out");
    variant_free(v);
}

static void test_4p_defeat_in_each_mode(void **state) {
    (void)state;
    GameResult r;
    char text[2048];
    /* standard: the whole army goes, Silver (whose pieces attack) is the victor */
    Variant *v = load_mode("standard");
    Position pos;
    board_init(&pos, v);
    defeat_green(v, &pos, &r);
    assert_string_equal(r.reason, "checkmate");
    assert_int_equal(r.victor, 0);
    assert_int_equal(pos.cell[variant_cell_by_name(v, "p12")], 0);
    assert_int_equal(pos.cell[variant_cell_by_name(v, "p8")], 0);
    assert_int_equal(board_mover(&pos), 0); /* Green's seat is skipped: Silver moves next */
    board_unmake(&pos);
    assert_int_equal(board_mover(&pos), 3);
    expect_piece(&pos, "p12", 'R', 3);
    board_free(&pos);
    variant_free(v);

    /* conquest: the army stays, inert: its rook no longer attacks anything */
    v = load_mode("conquest");
    board_init(&pos, v);
    defeat_green(v, &pos, &r);
    assert_int_equal(pos.cell[variant_cell_by_name(v, "p8")], 0);
    expect_piece(&pos, "p12", 'R', 3);
    assert_false(attack_is_attacked(test_gen(), &pos, (Cell)variant_cell_by_name(v, "p13"), 0, PIECE_MAKE(0, 0)));
    /* and anyone may capture it: Silver's rook goes up the p-file and takes it */
    moves_from(&pos, "p4", text, sizeof text);
    assert_non_null(strstr(text, "p4p12"));
    expect_text_round_trip(&pos, " g");
    board_free(&pos);
    variant_free(v);

    /* devastation: Silver takes over Green's army and moves it on Silver's turns */
    v = load_mode("devastation");
    board_init(&pos, v);
    defeat_green(v, &pos, &r);
    assert_int_equal(board_mover(&pos), 0);
    moves_from(&pos, "p12", text, sizeof text);
    assert_true(strlen(text) > 0);           /* Silver moves the former Green rook */
    assert_false(board_hostile(&pos, 0, 3)); /* ... the armies are friends ... */
    moves_from(&pos, "p4", text, sizeof text);
    assert_null(strstr(text, "p4p12")); /* ... so Silver's rook cannot take it */
    expect_text_round_trip(&pos, " g>s");
    board_free(&pos);
    variant_free(v);
}

static void test_4p_exposed_king_capture_eliminates(void **state) {
    (void)state;
    Variant *v = load_mode("standard");
    Position pos;
    board_init(&pos, v);
    /* Red's king stands attacked by Silver's rook (left so by another player): Silver takes it */
    place(&pos, "sKh1 sRa3 rKa8 bKh16 gKp8", 0);
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    int i = notation_find(v, &ml, "a3a8");
    assert_true(i >= 0);
    board_make(&pos, &ml.moves[i]);
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_int_equal(r.eliminated, 1);
    assert_int_equal(r.victor, 0);
    assert_string_equal(r.reason, "royal captured");
    board_free(&pos);
    variant_free(v);
}

static void test_4p_last_player_standing(void **state) {
    (void)state;
    Variant *v = load_mode("standard");
    Position pos;
    board_init(&pos, v);
    place(&pos, "sKh1 sQh8 rKa8 bKh16 gKp8", 0);
    Move m;
    for (int p = 1; p <= 3; p++) {
        gameend_elimination(&pos, p, 0, &m);
        board_make(&pos, &m);
    }
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 0);
    assert_string_equal(r.reason, "last player standing");
    board_free(&pos);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_4p_start_position_per_seat),
        cmocka_unit_test(test_4p_warrior_and_mage),
        cmocka_unit_test(test_4p_pawn_first_moves_per_seat),
        cmocka_unit_test(test_4p_castling_per_seat),
        cmocka_unit_test(test_4p_promotion_choices),
        cmocka_unit_test(test_4p_defeat_in_each_mode),
        cmocka_unit_test(test_4p_position_text_says_who_is_out),
        cmocka_unit_test(test_4p_exposed_king_capture_eliminates),
        cmocka_unit_test(test_4p_last_player_standing),
    };
    return cmocka_run_group_tests_name("variant_4p", tests, NULL, NULL);
}
