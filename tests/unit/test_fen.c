/* test_fen.c - position text: round trips, defaults, and clear errors for bad input. */
#define SUPPORT_CHESS_FIXTURE
#include "support.h"

static void roundtrip(const char *fen) {
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, fen);
    char out[512];
    fen_write(&pos, out, sizeof out);
    assert_string_equal(out, fen);
    board_free(&pos);
}

static void test_fen_roundtrip(void **state) {
    (void)state;
    roundtrip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    roundtrip("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    roundtrip("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
    roundtrip("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 12 40");
}

static void test_fen_defaults_for_missing_fields(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, "4k3/8/8/8/8/8/8/4K3");
    char out[512];
    fen_write(&pos, out, sizeof out);
    assert_string_equal(out, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    board_free(&pos);
}

static void expect_error(const char *fen, const char *fragment) {
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, chess->setup);
    uint64_t key = pos.key;
    char err[200] = "";
    assert_false(fen_read(&pos, fen, err, sizeof err));
    if (!strstr(err, fragment)) print_error("message '%s' lacks '%s'\n", err, fragment);
    assert_non_null(strstr(err, fragment));
    assert_int_equal(pos.key, key); /* unchanged on error */
    board_free(&pos);
}

static void test_fen_bad_input_is_reported(void **state) {
    (void)state;
    expect_error("", "empty position");
    expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w", "too few ranks in the board (expected 8)");
    expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w", "rank 1 of the board has too few cells");
    expect_error("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w", "too long");
    expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w", "unknown piece letter 'Z'");
    expect_error("8/8/8/8/8/8/8/8 x", "unknown side to move 'x'");
    expect_error("8/8/8/8/8/8/8/8 w KX", "unknown castling right 'X'");
    expect_error("8/8/8/8/8/8/8/8 w - z9", "bad en-passant cell 'z9'");
    expect_error("8/8/8/8/8/8/8/8 w - - -1", "bad halfmove clock");
    expect_error("8/8/8/8/8/8/8/8 w - - 0 0", "bad move number");
    expect_error("8/8/8/8/8/8/8/8 w - - 0 1 extra", "too many fields");
    expect_error("8/8/8/8/8/8/8/8/8 w", "unexpected");
    expect_error("0/8/8/8/8/8/8/8 w", "count 0");
    expect_error("99999999999999999999/8/8/8/8/8/8/8 w", "too large");
    expect_error("8/8/8/8/8/8/8/8 w - - 0 1\x01", "");
}

/* Found by fuzzing: a king standing on a rook's home cell with that castling right listed. The
 * right must be dropped, or the extra king would castle "with itself" and move twice. */
static void test_fen_castling_right_needs_a_plain_rook(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/K3K2R w KQkq - 0 1");
    char out[512];
    fen_write(&pos, out, sizeof out);
    assert_string_equal(out, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/K3K2R w Kkq - 0 1");
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    for (int i = 0; i < ml.count; i++) {
        assert_true(board_make(&pos, &ml.moves[i]));
        assert_true(board_is_ok(&pos));
        board_unmake(&pos);
    }
    board_free(&pos);
}

/* With a turn order that gives a player two turns in a row, the text must say which of them it
 * is ("b.2"), or reading it back hands that player an extra move (seen next to a fuzzing find:
 * two players sharing one token). */
static void test_fen_names_a_repeated_turn(void **state) {
    (void)state;
    Variant *v = load_text("version 1\nplayers white(w) black(b)\nturn-order white black black\nboard 4x4\n"
                           "piece King { letter K royal step compass }\nsetup \"3k/4/4/K3 w\"\n",
                           NULL);
    assert_non_null(v);
    Position pos, back;
    board_init(&pos, v);
    board_init(&back, v);
    set_fen(&pos, v->setup);
    static MoveList ml;
    char text[3][64];
    for (int i = 0; i < 3; i++) {
        fen_write(&pos, text[i], sizeof text[i]);
        set_fen(&back, text[i]);
        assert_int_equal(back.turn, pos.turn);
        assert_int_equal(back.key, pos.key);
        VmFault f = {0};
        movegen_legal(test_gen(), &pos, &ml, &f);
        assert_true(board_make(&pos, &ml.moves[0]));
    }
    assert_string_equal(text[0], "3k/4/4/K3 w - - 0 1");
    assert_non_null(strstr(text[1], " b - - "));
    assert_non_null(strstr(text[2], " b.2 - - "));
    char err[200];
    assert_false(fen_read(&back, "3k/4/4/K3 b.3", err, sizeof err));
    assert_false(fen_read(&back, "3k/4/4/K3 w.2", err, sizeof err));
    assert_false(fen_read(&back, "3k/4/4/K3 b.x", err, sizeof err));
    assert_true(fen_read(&back, "3k/4/4/K3 b.1", err, sizeof err));
    assert_int_equal(back.turn, 1);
    board_free(&pos);
    board_free(&back);
    variant_free(v);
}

/* Counters read back whatever a long game can make of them; past the limit is an error. */
static void test_fen_counters_read_back(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white black\nboard 4x4\ncounter score per-player = 0\n"
                              "piece King { letter K royal step compass }\nsetup \"3k/4/4/K3 w\"\n");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "3k/4/4/K3 w - - 0 1 131699,-5");
    char text[128], err[200];
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "3k/4/4/K3 w - - 0 1 131699,-5");
    assert_false(fen_read(&pos, "3k/4/4/K3 w - - 0 1 1000000001,0", err, sizeof err));
    assert_string_equal(err, "counter value 1000000001 is out of range (limit is 1000000000)");
    board_free(&pos);
    variant_free(v);
}

/* Hands: written in brackets after the board, read also as one more rank; a promoted piece
 * keeps its '~'; the hash sees the hands; bad hands are refused with the reason. */
static void test_fen_hands(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white black\nboard 4x4\nhands demoted\nzone last = rank 4\n"
                              "piece King { letter K royal step compass }\n"
                              "piece Queen { letter Q slide compass drop }\n"
                              "piece Pawn { letter P step n promote in last to Queen drop }\n"
                              "setup \"3k/4/4/K3[] w\"\n");
    Position pos, back;
    board_init(&pos, v);
    board_init(&back, v);
    set_fen(&pos, "2Q~k/4/4/K3[QPPq] w - - 0 1");
    char text[128], err[200];
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "2Q~k/4/4/K3[QPPq] w - - 0 1");
    assert_int_equal(pos.hand[0][2], 2);
    set_fen(&back, "2Q~k/4/4/K3/PqQP w - - 0 1");
    assert_int_equal(back.key, pos.key);
    set_fen(&back, "2Q~k/4/4/K3[QPq] w - - 0 1");
    assert_true(back.key != pos.key);
    assert_false(fen_read(&back, "3k/4/4/K3[X] w", err, sizeof err));
    assert_non_null(strstr(err, "unknown piece letter 'X' in the hands"));
    assert_false(fen_read(&back, "3k/4/4/K3[QQQQQQQQQQQQQQQ] w", err, sizeof err));
    assert_non_null(strstr(err, "too many pieces"));
    assert_false(fen_read(&back, "3k/4/4/K3[Q w", err, sizeof err));
    board_free(&pos);
    board_free(&back);
    variant_free(v);
}

/* A type written as a mark: '*' for every owner, read back as the player to move's piece. */
static void test_fen_written_mark(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white black\nboard 4x4\n"
                              "piece King { letter K royal step compass }\n"
                              "piece Wall { letter W written \"*\" }\n"
                              "setup \"3k/4/4/K3 w\"\n");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "*2k/4/1*2/K3 b - - 0 1");
    char text[128];
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "*2k/4/1*2/K3 b - - 0 1");
    assert_int_equal(PIECE_OWNER(pos.cell[variant_cell_by_name(v, "a4")]), 1);
    assert_int_equal(PIECE_OWNER(pos.cell[variant_cell_by_name(v, "b2")]), 1);
    assert_null(board_inconsistency(&pos));
    board_free(&pos);
    variant_free(v);
}

/* A last field written NAME? is left out while it says what a text without it would mean. */
static void test_fen_optional_last_field(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white black\nboard 4x4\ncounter moves = 0\n"
                              "position-fields \"board side counters?\"\n"
                              "piece King { letter K royal step compass }\nsetup \"3k/4/4/K3 w\"\n");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "3k/4/4/K3 b 0");
    char text[128];
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "3k/4/4/K3 b");
    set_fen(&pos, "3k/4/4/K3 b 7");
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "3k/4/4/K3 b 7");
    board_free(&pos);
    variant_free(v);
}

/* A running count (`end counting`) is written where Fairy-Stockfish writes it: its length in
 * plies in the en-passant field, the plies counted in the halfmove field; it reads back, and
 * the hash sees its length but not its plies (positions still repeat while it runs). */
static void test_fen_count_reads_back(void **state) {
    (void)state;
    Variant *v = load_rules("rules/makruk.rules");
    Position pos, back;
    board_init(&pos, v);
    board_init(&back, v);
    set_fen(&pos, "8/8/8/8/8/4k3/R7/4K3 b - 32 7 1");
    char text[128], err[200];
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "8/8/8/8/8/4k3/R7/4K3 b - 32 7 1");
    assert_int_equal(pos.count_limit, 32);
    assert_int_equal(pos.count_ply, 7);
    set_fen(&back, "8/8/8/8/8/4k3/R7/4K3 b - 32 20 1");
    assert_int_equal(back.key, pos.key);
    set_fen(&back, "8/8/8/8/8/4k3/R7/4K3 b - - 7 1");
    assert_true(back.key != pos.key);
    assert_int_equal(back.halfmove, 7);
    assert_false(fen_read(&back, "8/8/8/8/8/4k3/R7/4K3 b - 5000 0 1", err, sizeof err));
    assert_string_equal(err, "bad count length '5000'");
    board_free(&pos);
    board_free(&back);
    variant_free(v);
}

/* Plays the moves (comma-separated, as typed) from the start and returns the position text. */
static void text_after(Variant *v, const char *moves, char *text, size_t cap) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    char copy[256];
    snprintf(copy, sizeof copy, "%s", moves);
    for (char *save = NULL, *m = strtok_r(copy, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
        static MoveList ml;
        VmFault f = {0};
        movegen_legal(test_gen(), &pos, &ml, &f);
        int found = notation_find(v, &ml, m);
        if (found < 0) print_error("no move '%s'\n", m);
        assert_true(found >= 0);
        assert_true(board_make(&pos, &ml.moves[found]));
    }
    fen_write(&pos, text, cap);
    board_free(&pos);
}

/* Reads text, expects it written back as is, and a position with the same moves. */
static void reads_back(Variant *v, const char *fen) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    char out[512];
    fen_write(&pos, out, sizeof out);
    assert_string_equal(out, fen);
    board_free(&pos);
}

static void expect_error_in(Variant *v, const char *fen, const char *message) {
    Position pos;
    board_init(&pos, v);
    char err[300] = "";
    assert_false(fen_read(&pos, fen, err, sizeof err));
    if (strcmp(err, message)) print_error("message '%s', not '%s'\n", err, message);
    assert_string_equal(err, message);
    board_free(&pos);
}

/* After a diagonal double step the en-passant field names the pawn as well (two pawns may have
 * passed one cell); a lone cell is read when one pawn could have passed it, coming from an
 * empty cell. */
static void test_fen_ep_names_its_pawn(void **state) {
    (void)state;
    Variant *v = load_rules("rules/berolina.rules");
    char text[256];
    text_after(v, "c2e4", text, sizeof text);
    assert_string_equal(text, "rnbqkbnr/pppppppp/8/8/4P3/8/PP1PPPPP/RNBQKBNR b KQkq d3e4 0 1");
    reads_back(v, text);
    reads_back(v, "4k3/8/8/8/2P1P3/8/8/4K3 b - d3c4 0 1");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k3/8/8/8/4P3/8/8/4K3 b - d3 0 1");
    assert_int_equal(pos.ep_victim, variant_cell_by_name(v, "e4"));
    board_free(&pos);
    /* (the pawn on c4 would have come from e2, which is taken) */
    board_init(&pos, v);
    set_fen(&pos, "4k3/8/8/8/2P1P3/8/4P3/4K3 b - d3 0 1");
    assert_int_equal(pos.ep_victim, variant_cell_by_name(v, "e4"));
    board_free(&pos);
    expect_error_in(v, "4k3/8/8/8/2P1P3/8/8/4K3 b - d3 0 1",
                    "en-passant cell 'd3' could have been passed by the pieces on e4 and c4: name the one "
                    "that made it after the cell ('d3e4')");
    expect_error_in(v, "4k3/8/8/8/4P3/8/8/4K3 b - d3c4 0 1", "no piece on c4 could have passed the en-passant cell d3");
    expect_error_in(v, "4k3/8/8/8/4P3/8/8/4K3 b - d3e4,f3 0 1", "bad en-passant field 'd3e4,f3' (at most 1 cell)");
    variant_free(v);
}

/* In a turn of phases the field lists the cell the mover may take and the one its own turn has
 * made; a cell whose pawn has gone is no longer named. */
static void test_fen_ep_cells_of_a_turn(void **state) {
    (void)state;
    Variant *v = load_rules("rules/marseillais.rules");
    char text[256];
    text_after(v, "e2e4,d7d5", text, sizeof text);
    assert_string_equal(text, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3,d6 0 1 second");
    reads_back(v, text);
    text_after(v, "e2e4,d7d5,d5d4", text, sizeof text);
    assert_string_equal(text, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 first");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d6,e3 0 1 second");
    assert_int_equal(pos.ep[0], variant_cell_by_name(v, "e3"));
    assert_int_equal(pos.ep_next[0], variant_cell_by_name(v, "d6"));
    board_free(&pos);
    expect_error_in(v, "4k3/8/8/3pp3/8/8/8/4K3 b - d6,e6 0 1 second", "two en-passant cells of one player ('e6')");
    expect_error_in(v, "4k3/8/8/3pp3/8/8/8/4K3 b - d6,e6,f6 0 1 second",
                    "bad en-passant field 'd6,e6,f6' (at most 2 cells)");
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fen_counters_read_back),
        cmocka_unit_test(test_fen_count_reads_back),
        cmocka_unit_test(test_fen_hands),
        cmocka_unit_test(test_fen_written_mark),
        cmocka_unit_test(test_fen_optional_last_field),
        cmocka_unit_test(test_fen_roundtrip),
        cmocka_unit_test(test_fen_defaults_for_missing_fields),
        cmocka_unit_test(test_fen_bad_input_is_reported),
        cmocka_unit_test(test_fen_castling_right_needs_a_plain_rook),
        cmocka_unit_test(test_fen_names_a_repeated_turn),
        cmocka_unit_test(test_fen_ep_names_its_pawn),
        cmocka_unit_test(test_fen_ep_cells_of_a_turn),
    };
    return cmocka_run_group_tests_name("fen", tests, setup, teardown);
}
