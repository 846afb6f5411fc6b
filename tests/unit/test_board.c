/* test_board.c - make/unmake restore the whole position; the incremental key and occupancy
 * agree with a recomputation; transpositions reach equal keys. */
#define SUPPORT_CHESS_FIXTURE
#include "support.h"

/* Everything of a position but its history. */
static void assert_same_state(const Position *a, const Position *b) {
    assert_memory_equal(a->cell, b->cell, sizeof a->cell);
    assert_memory_equal(a->occ, b->occ, sizeof a->occ);
    assert_memory_equal(a->type_occ, b->type_occ, sizeof a->type_occ);
    assert_int_equal(a->turn, b->turn);
    assert_int_equal(a->rights, b->rights);
    assert_memory_equal(a->ep, b->ep, sizeof a->ep);
    assert_int_equal(a->ep_victim, b->ep_victim);
    assert_int_equal(a->halfmove, b->halfmove);
    assert_int_equal(a->fullmove, b->fullmove);
    assert_int_equal(a->last_from, b->last_from);
    assert_int_equal(a->last_to, b->last_to);
    assert_memory_equal(a->counters, b->counters, sizeof a->counters);
    assert_true(a->key == b->key);
    assert_int_equal(a->ply, b->ply);
}

static int play(Position *pos, const char *text) {
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), pos, &ml, &f);
    assert_false(f.set);
    int i = notation_find(pos->v, &ml, text);
    if (i < 0) print_error("no legal move %s\n", text);
    assert_true(i >= 0);
    assert_true(board_make(pos, &ml.moves[i]));
    return i;
}

/* Every legal move of positions with castling, en passant, promotion and captures: make then
 * unmake gives back the identical state, key included. */
static void test_board_make_unmake_restores_everything(void **state) {
    (void)state;
    const char *fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 17",
        "rnbqkbnr/pppp1ppp/8/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 3",
        "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 40",
    };
    Position pos, before;
    board_init(&pos, chess);
    board_init(&before, chess);
    static MoveList ml;
    int checked = 0;
    for (size_t k = 0; k < ARRAY_LEN(fens); k++) {
        set_fen(&pos, fens[k]);
        board_copy(&before, &pos);
        VmFault f = {0};
        movegen_legal(test_gen(), &pos, &ml, &f);
        assert_true(ml.count > 10);
        for (int i = 0; i < ml.count; i++) {
            assert_true(board_make(&pos, &ml.moves[i]));
            assert_true(board_is_ok(&pos));
            board_unmake(&pos);
            assert_same_state(&pos, &before);
            checked++;
        }
    }
    assert_true(checked > 80);
    board_free(&pos);
    board_free(&before);
}

/* Random games: after every move the incremental key and occupancy match a recomputation, and
 * unmaking the whole game returns to the start. */
static void test_board_is_ok_after_random_play(void **state) {
    (void)state;
    Position pos, start;
    board_init(&pos, chess);
    board_init(&start, chess);
    static MoveList ml;
    uint64_t seed = 99;
    for (int game = 0; game < 20; game++) {
        set_fen(&pos, chess->setup);
        board_copy(&start, &pos);
        int plies = 0;
        for (; plies < 120; plies++) {
            VmFault f = {0};
            movegen_legal(test_gen(), &pos, &ml, &f);
            if (ml.count == 0) break;
            assert_true(board_make(&pos, &ml.moves[rng_next(&seed) % (uint64_t)ml.count]));
            assert_true(board_is_ok(&pos));
            assert_true(pos.key == board_compute_key(&pos));
        }
        while (plies-- > 0) board_unmake(&pos);
        assert_same_state(&pos, &start);
    }
    board_free(&pos);
    board_free(&start);
}

/* Each kind of corruption is caught by board_is_ok, and board_inconsistency names it (so
 * the checks above, and the assertions after make and unmake, can fail). */
static void expect_inconsistency(const Position *pos, const char *what) {
    const char *why = board_inconsistency(pos);
    if (!why || !strstr(why, what)) print_error("expected '%s', got '%s'\n", what, why ? why : "(none)");
    assert_non_null(why);
    assert_non_null(strstr(why, what));
    assert_false(board_is_ok(pos));
}

static void test_board_is_ok_detects_corruption(void **state) {
    (void)state;
    Position good, pos;
    board_init(&good, chess);
    board_init(&pos, chess);
    set_fen(&good, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
    play(&good, "g8f6");
    assert_null(board_inconsistency(&good));
    assert_true(board_is_ok(&good));
    const Cell e4 = (Cell)variant_cell_by_name(chess, "e4"), e3 = (Cell)variant_cell_by_name(chess, "e3");

    board_copy(&pos, &good);
    pos.key ^= 1; /* a wrong key */
    expect_inconsistency(&pos, "key");

    board_copy(&pos, &good);
    pos.type_occ[PIECE_TYPE(pos.cell[e4])][e4 >> 6] &= ~(1ULL << (e4 & 63)); /* e4's pawn not in its type's set */
    expect_inconsistency(&pos, "type's occupancy");

    board_copy(&pos, &good);
    pos.occ[PIECE_OWNER(pos.cell[e4])][e4 >> 6] &= ~(1ULL << (e4 & 63)); /* ... nor in its owner's */
    expect_inconsistency(&pos, "owner's occupancy");

    board_copy(&pos, &good);
    pos.occ[0][e3 >> 6] |= 1ULL << (e3 & 63); /* an empty cell in a set */
    expect_inconsistency(&pos, "owner's occupancy");

    board_copy(&pos, &good);
    pos.cell[200] = pos.cell[e4]; /* a piece past the last cell */
    expect_inconsistency(&pos, "past the last cell");

    board_copy(&pos, &good);
    pos.turn = (uint8_t)chess->nturns;
    expect_inconsistency(&pos, "turn slot");

    board_copy(&pos, &good);
    pos.ep[0] = e3; /* an en-passant cell with no victim */
    expect_inconsistency(&pos, "en-passant");

    board_copy(&pos, &good);
    pos.setup_player = 0; /* a set-up step in a game that has none */
    expect_inconsistency(&pos, "set-up player");

    board_copy(&pos, &good);
    pos.counters[MAX_COUNTERS - 1] = 1;
    expect_inconsistency(&pos, "counter");

    board_copy(&pos, &good);
    pos.history[pos.ply - 1].njournal = MAX_JOURNAL + 1;
    expect_inconsistency(&pos, "journal");

    board_free(&pos);
    board_free(&good);
}

/* The same position reached by two move orders has the same key; the side to move, castling
 * rights and the en-passant cell all change the key. */
static void test_board_transpositions_have_equal_keys(void **state) {
    (void)state;
    Position a, b;
    board_init(&a, chess);
    board_init(&b, chess);
    set_fen(&a, chess->setup);
    set_fen(&b, chess->setup);
    play(&a, "g1f3");
    play(&a, "g8f6");
    play(&a, "b1c3");
    play(&a, "b8c6");
    play(&b, "b1c3");
    play(&b, "b8c6");
    play(&b, "g1f3");
    play(&b, "g8f6");
    assert_true(a.key == b.key);
    /* knights out and back: the start position again, same key */
    play(&a, "f3g1");
    play(&a, "f6g8");
    play(&a, "c3b1");
    play(&a, "c6b8");
    Position start;
    board_init(&start, chess);
    set_fen(&start, chess->setup);
    assert_true(a.key == start.key);
    /* the same placement with another side to move, no castling, or an ep cell differs */
    set_fen(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_true(b.key != start.key);
    set_fen(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1");
    assert_true(b.key != start.key);
    set_fen(&a, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
    set_fen(&b, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    assert_true(a.key != b.key);
    board_free(&a);
    board_free(&b);
    board_free(&start);
}

/* Moving a king or rook drops the castling rights tied to its cell; a capture on a rook's cell
 * drops the victim's right; the halfmove clock resets on captures and pawn moves only. */
static void test_board_rights_and_counters(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, "r3k2r/8/8/8/8/8/6N1/R3K2R w KQkq - 5 10");
    play(&pos, "h1h8"); /* rook takes rook: white's K and black's k rights go */
    char text[128];
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "r3k2R/8/8/8/8/8/6N1/R3K3 b Qq - 0 10");
    play(&pos, "e8d7");
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "r6R/3k4/8/8/8/8/6N1/R3K3 w Q - 1 11");
    play(&pos, "g2f4");
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "r6R/3k4/8/8/5N2/8/8/R3K3 b Q - 2 11");
    assert_true(board_is_ok(&pos));
    board_free(&pos);
}

/* board_make refuses a move when the history is full, and changes nothing then. */
static void test_board_make_fails_when_history_is_full(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    pos.ply = MAX_HISTORY;
    uint64_t key = pos.key;
    assert_false(board_make(&pos, &ml.moves[0]));
    assert_true(pos.key == key);
    pos.ply = 0;
    assert_true(board_is_ok(&pos));
    board_free(&pos);
}

/* Named counters: moves change them, make/unmake restore them and the hash follows them, and
 * the position text carries them. */
static void test_board_counters(void **state) {
    (void)state;
    Variant *v = load_rules("tests/rules/ok/counters.rules");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    char fen[256];
    fen_write(&pos, fen, sizeof fen);
    assert_string_equal(fen, "k3/4/4/R2K w - - 0 1 0,0,10");
    static MoveList ml;
    VmFault f = {0};
    const char *line[] = {"a1a2", "a4b4", "a2a3", "b4a4"};
    uint64_t keys[5];
    keys[0] = pos.key;
    for (int i = 0; i < 4; i++) {
        movegen_legal(test_gen(), &pos, &ml, &f);
        int k = notation_find(v, &ml, line[i]);
        assert_true(k >= 0);
        assert_true(board_make(&pos, &ml.moves[k]));
        assert_true(board_is_ok(&pos));
        keys[i + 1] = pos.key;
    }
    fen_write(&pos, fen, sizeof fen);
    assert_string_equal(fen, "k3/R3/4/3K w - - 4 3 2,0,8");
    /* the runner has used its two moves: no move from a3 any more */
    movegen_legal(test_gen(), &pos, &ml, &f);
    for (int i = 0; i < ml.count; i++) assert_int_not_equal(ml.moves[i].from, variant_cell_by_name(v, "a3"));
    /* same board and turn as after move 2 but other counters: another key */
    for (int i = 4; i > 0; i--) {
        assert_int_equal(pos.key, keys[i]);
        board_unmake(&pos);
    }
    assert_int_equal(pos.key, keys[0]);
    assert_int_equal(pos.counters[2], 10);
    /* reading the text back gives the same position and key */
    Position other;
    board_init(&other, v);
    set_fen(&other, "k3/R3/4/3K w - - 4 3 2,0,8");
    char again[256];
    fen_write(&other, again, sizeof again);
    assert_string_equal(again, "k3/R3/4/3K w - - 4 3 2,0,8");
    char err[200];
    assert_false(fen_read(&other, "k3/R3/4/3K w - - 4 3 2,0", err, sizeof err));
    assert_non_null(strstr(err, "expected 3 comma-separated numbers"));
    board_free(&other);
    board_free(&pos);
    variant_free(v);
}

/* A promoted piece (`~`, it returns to a hand demoted) is part of the key: the same placement
 * without the mark differs, and a promotion keeps the key equal to one computed from scratch. */
static void test_board_promoted_mark_is_in_the_key(void **state) {
    (void)state;
    Variant *v = load_rules("rules/crazyhouse.rules");
    Position a, b;
    board_init(&a, v);
    board_init(&b, v);
    set_fen(&a, "4k3/8/8/8/8/8/8/Q~3K3[] w - - 0 1");
    set_fen(&b, "4k3/8/8/8/8/8/8/Q3K3[] w - - 0 1");
    assert_true(a.key != b.key);
    set_fen(&a, "8/1P2k3/8/8/8/8/8/4K3[] w - - 0 1");
    play(&a, "b7b8q");
    assert_true(a.cell[variant_cell_by_name(v, "b8")] & PIECE_PROMOTED);
    assert_true(board_is_ok(&a));
    board_unmake(&a);
    assert_true(board_is_ok(&a));
    board_free(&a);
    board_free(&b);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_board_counters),
        cmocka_unit_test(test_board_make_unmake_restores_everything),
        cmocka_unit_test(test_board_is_ok_after_random_play),
        cmocka_unit_test(test_board_is_ok_detects_corruption),
        cmocka_unit_test(test_board_transpositions_have_equal_keys),
        cmocka_unit_test(test_board_rights_and_counters),
        cmocka_unit_test(test_board_make_fails_when_history_is_full),
        cmocka_unit_test(test_board_promoted_mark_is_in_the_key),
    };
    return cmocka_run_group_tests_name("board", tests, setup, teardown);
}
