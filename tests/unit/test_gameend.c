/* test_gameend.c - end conditions of chess as the rule file states them: checkmate,
 * stalemate, threefold repetition, the 50-move rule and dead material. */
#include "gameend.h"
#include "source.h"
#define SUPPORT_CHESS_FIXTURE
#include "support.h"

static GameResult result_of(const char *fen) {
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, fen);
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    board_free(&pos);
    return r;
}

static void play(Position *pos, const char *text) {
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), pos, &ml, &f);
    int i = notation_find(pos->v, &ml, text);
    if (i < 0) print_error("no legal move %s\n", text);
    assert_true(i >= 0);
    board_make(pos, &ml.moves[i]);
}

static void test_gameend_checkmate(void **state) {
    (void)state;
    /* fool's mate: white to move, mated; black (player 1) wins */
    GameResult r = result_of("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_true(r.over);
    assert_string_equal(r.reason, "checkmate");
    assert_int_equal(r.winner, 1);
    /* back-rank mate of black */
    r = result_of("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    assert_true(r.over);
    assert_string_equal(r.reason, "checkmate");
    assert_int_equal(r.winner, 0);
}

static void test_gameend_in_check_but_not_mated_goes_on(void **state) {
    (void)state;
    GameResult r = result_of("3R2k1/5pp1/7p/8/8/8/8/6K1 b - - 0 1");
    assert_false(r.over);
}

static void test_gameend_stalemate(void **state) {
    (void)state;
    GameResult r = result_of("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_true(r.over);
    assert_string_equal(r.reason, "stalemate");
    assert_int_equal(r.winner, -1);
}

/* Knights out and back twice: the start position stands for the third time. */
static void test_gameend_threefold_repetition(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, chess->setup);
    GameResult r;
    for (int round = 0; round < 2; round++) {
        play(&pos, "g1f3");
        play(&pos, "g8f6");
        play(&pos, "f3g1");
        gameend_check(test_gen(), &pos, &r);
        assert_false(r.over);
        play(&pos, "f6g8");
        assert_int_equal(gameend_repetitions(&pos), round + 1);
        gameend_check(test_gen(), &pos, &r);
        assert_int_equal(r.over, round == 1);
    }
    assert_string_equal(r.reason, "repetition");
    assert_int_equal(r.winner, -1);
    /* an irreversible move (a pawn's) ends the history that can repeat */
    play(&pos, "e2e4");
    assert_int_equal(gameend_repetitions(&pos), 0);
    board_free(&pos);
}

/* The same placement with the other side to move is not a repetition. */
static void test_gameend_repetition_needs_same_side_to_move(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    play(&pos, "a1a2");
    play(&pos, "e8d8");
    play(&pos, "a2a1");
    play(&pos, "d8e8");
    assert_int_equal(gameend_repetitions(&pos), 1);
    board_free(&pos);
}

static void test_gameend_fifty_move_rule(void **state) {
    (void)state;
    GameResult r = result_of("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_false(r.over);
    r = result_of("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
    assert_true(r.over);
    assert_string_equal(r.reason, "n-move rule");
    assert_int_equal(r.winner, -1);
    /* a move that is not a capture or pawn move brings the clock to 100 */
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    play(&pos, "a1a2");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    board_free(&pos);
}

/* Checkmate on the move that reaches the 50-move limit is still checkmate. */
static void test_gameend_checkmate_beats_fifty_move_rule(void **state) {
    (void)state;
    GameResult r = result_of("3R2k1/5ppp/8/8/8/8/8/6K1 b - - 100 90");
    assert_true(r.over);
    assert_string_equal(r.reason, "checkmate");
    assert_int_equal(r.winner, 0);
}

static void test_gameend_insufficient_material(void **state) {
    (void)state;
    const char *dead[] = {
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",  "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",  "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1",
        "4kn2/8/8/8/8/8/8/4K3 w - - 0 1", "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1", /* c8 and f1: both light squares */
    };
    for (size_t i = 0; i < ARRAY_LEN(dead); i++) {
        GameResult r = result_of(dead[i]);
        if (!r.over) print_error("not dead: %s\n", dead[i]);
        assert_true(r.over);
        assert_string_equal(r.reason, "material");
        assert_int_equal(r.winner, -1);
    }
    const char *alive[] = {
        "1b2k3/8/8/8/8/8/8/4KB2 w - - 0 1", /* b8 dark, f1 light: mate is possible */
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",   "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", "4kb2/8/8/8/8/8/8/1N2K3 w - - 0 1",
    };
    for (size_t i = 0; i < ARRAY_LEN(alive); i++) {
        GameResult r = result_of(alive[i]);
        if (r.over) print_error("dead: %s\n", alive[i]);
        assert_false(r.over);
    }
}

/* Results as the rule file sets them: a checkmate that wins for the mated side's opponent and
 * a stalemate that loses, in a variant that says so. */
static void test_gameend_results_follow_the_rule_file(void **state) {
    (void)state;
    Variant *v = load_rules("tests/rules/ok/endings.rules");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "k7/2K5/8/8/8/4B3/8/8 b - - 0 1"); /* black king a8: no move, not in check */
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_string_equal(r.reason, "stalemate");
    assert_int_equal(r.winner, 0);                       /* "end stalemate loss": the stalemated side loses */
    set_fen(&pos, "1b2k3/8/8/8/8/8/8/3BK3 w - - 149 1"); /* bishops on both colours */
    gameend_check(test_gen(), &pos, &r);
    assert_false(r.over); /* 75 moves are 150 plies */
    set_fen(&pos, "1b2k3/8/8/8/8/8/8/3BK3 w - - 150 1");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_string_equal(r.reason, "n-move rule");
    board_free(&pos);
    variant_free(v);
}

/* `end stalemate pass`: the stalemated player's only move is a pass; the game goes on. */
static void test_gameend_stalemate_pass(void **state) {
    (void)state;
    char *chess_text = NULL;
    {
        Source *src = NULL;
        const char *err = NULL;
        src = source_load("rules/chess.rules", &err);
        assert_non_null(src);
        chess_text = xstrdup(src->text);
        source_free(src);
    }
    char *at = strstr(chess_text, "end stalemate draw");
    assert_non_null(at);
    memcpy(at, "end stalemate pass", 18);
    Variant *v = load_text_ok(chess_text);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    assert_int_equal(ml.count, 1);
    assert_true(ml.moves[0].flags & MOVE_PASS);
    char text[16];
    notation_move(v, &ml.moves[0], text, sizeof text);
    assert_string_equal(text, "pass");
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_false(r.over);
    assert_true(board_make(&pos, &ml.moves[0]));
    assert_int_equal(board_mover(&pos), 0);
    board_free(&pos);
    variant_free(v);
    free(chess_text);
}

/* A side that starts without royal pieces (horde's White) has not lost one: the game goes on. */
static void test_gameend_side_without_royals_plays_on(void **state) {
    (void)state;
    Variant *v = load_rules("rules/horde.rules");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1");
    assert_int_equal(gameend_royal_lost(&pos), -1);
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_false(r.over);
    board_free(&pos);
    variant_free(v);
}

/* Endings the position decides: each is over before any move, in the rule file's words. */
static void test_gameend_position_endings(void **state) {
    (void)state;
    static const struct {
        const char *rules, *fen, *reason, *name;
        int winner;
    } cases[] = {
        {"rules/horde.rules", "4k3/8/8/8/8/8/8/8 w - - 0 1", "all pieces lost", "all pieces lost", 1},
        {"rules/shatranj.rules", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "bare king", NULL, 0},
        {"rules/shatranj.rules", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "bare king", NULL, -1},
        {"rules/threekings.rules", "k3k3/8/8/8/8/8/8/K3K2K b - - 0 1", "extinction", "a king lost", 0},
        {"rules/3check.rules", "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 b - - 0+3 1 39", "checks", "three checks", 0},
        {"rules/kingofthehill.rules", "4k3/8/8/8/3K4/8/8/8 b - - 0 1", "zone reached", "king reached the hill", 0},
        /* White arrived first and no reply of Black's arrives too; both arrived: a draw */
        {"rules/racingkings.rules", "2K5/8/8/8/8/8/5k2/8 b - - 0 1", "zone reached", "king reached the goal", 0},
        {"rules/racingkings.rules", "2K2k2/8/8/8/8/8/8/8 w - - 0 1", "zone reached", "king reached the goal", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Variant *v = load_rules(cases[i].rules);
        Position pos;
        board_init(&pos, v);
        set_fen(&pos, cases[i].fen);
        GameResult r;
        gameend_check(test_gen(), &pos, &r);
        assert_true(r.over);
        assert_string_equal(r.reason, cases[i].reason);
        if (cases[i].name)
            assert_string_equal(r.name, cases[i].name);
        else
            assert_null(r.name);
        assert_int_equal(r.winner, cases[i].winner);
        static MoveList ml;
        VmFault f = {0};
        movegen_legal(test_gen(), &pos, &ml, &f);
        assert_int_equal(ml.count, 0);
        board_free(&pos);
        variant_free(v);
    }
}

/* A losing game's rule file at fen: the game is over or not (over), and when over won by
 * winner (-1: a draw), announced as name (NULL: not checked). The name lives in the variant:
 * it is checked before the variant goes. */
static void check_end(const char *rules, const char *fen, bool over, int winner, const char *name) {
    Variant *v = load_rules(rules);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_int_equal(r.over, over);
    if (over) assert_int_equal(r.winner, winner);
    if (over && name) assert_string_equal(r.name, name);
    board_free(&pos);
    variant_free(v);
}

/* The game at fen ends: won by winner, announced as name. */
static void expect_end(const char *rules, const char *fen, int winner, const char *name) {
    check_end(rules, fen, true, winner, name);
}

/* The game at fen goes on: no ending fires. */
static void expect_no_end(const char *rules, const char *fen) { check_end(rules, fen, false, 0, NULL); }

/* Endings for some players only, rules of pieces joined by `and`, and a game of one player. */
static void test_gameend_for_players_and_one_player(void **state) {
    (void)state;
    /* black has lost its hunter and its chief: black loses */
    expect_end("tests/zrf/goals.rules", "4/4/4/R3 w - - 0 1", 0, "hunters lost");
    /* white has lost its runners: white loses */
    expect_end("tests/zrf/goals.rules", "h3/4/4/4 w - - 0 1", 1, "runners lost");
    /* a stalemate loses for white, draws for black */
    expect_end("tests/zrf/goals.rules", "h3/4/P3/RP2 w - - 0 1", 1, NULL);
    expect_end("tests/zrf/goals.rules", "2pc/3p/4/R3 b - - 0 1", -1, NULL);
    /* one of the two is not enough: the game goes on */
    expect_no_end("tests/zrf/goals.rules", "h3/4/4/R3 w - - 0 1");
    /* the puzzle of one player is solved with both blocks home, not with one */
    expect_end("tests/zrf/puzzle.rules", "2A/2B y - - 0 1", 0, "solved");
    expect_no_end("tests/zrf/puzzle.rules", "2A/B2 y - - 0 1");
}

/* Losing games: the endings by material, a capturable royal piece, stalemates by pieces left,
 * each announced in the rule file's words. */
static void test_gameend_losing_games(void **state) {
    (void)state;
    /* black has lost every piece: black wins, though white is to move */
    expect_end("rules/antichess.rules", "8/8/8/8/8/8/8/4K3 w - - 0 1", 1, "all pieces lost");
    /* losers: a bare king wins */
    expect_end("rules/losers.rules", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1", 1, "bare king");
    /* codrus: the player whose king was captured wins */
    expect_end("rules/codrus.rules", "8/8/8/8/8/8/8/R3K3 b - - 0 1", 1, "king lost");
    /* suicide: white cannot move; it has more pieces than black and loses; equal numbers draw */
    expect_end("rules/suicide.rules", "8/8/8/8/p7/P7/P7/8 w - - 0 1", 1, NULL);
    expect_end("rules/suicide.rules", "8/8/8/8/p7/P7/8/8 w - - 0 1", -1, NULL);
    /* antichess: a capture is compulsory */
    Variant *v = load_rules("rules/antichess.rules");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    assert_int_equal(ml.count, 1);
    assert_true(ml.moves[0].flags & MOVE_CAPTURE);
    board_free(&pos);
    variant_free(v);
}

/* Given the number of legal moves just generated, the verdict is the one gameend_check reaches
 * by counting them itself. */
static void test_gameend_counted_agrees(void **state) {
    (void)state;
    static const char *const fens[] = {
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", /* checkmate */
        "3R2k1/5pp1/7p/8/8/8/8/6K1 b - - 0 1",                           /* check, not mate */
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                /* stalemate */
        "8/8/4k3/8/8/4K3/8/8 w - - 0 1",                                 /* dead material */
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",      /* the game goes on */
    };
    static MoveList ml;
    for (size_t i = 0; i < ARRAY_LEN(fens); i++) {
        Position pos;
        board_init(&pos, chess);
        set_fen(&pos, fens[i]);
        VmFault f = {0};
        movegen_legal(test_gen(), &pos, &ml, &f);
        GameResult counted, counting;
        gameend_check_counted(test_gen(), &pos, ml.count, &counted);
        gameend_check(test_gen(), &pos, &counting);
        assert_int_equal(counted.over, counting.over);
        assert_int_equal(counted.winner, counting.winner);
        if (counting.over) assert_string_equal(counted.reason, counting.reason);
        board_free(&pos);
    }
}

/* Makruk's counting (`end counting`): a move starts the count as Fairy-Stockfish does, each
 * ply counts, a count run out draws in the words of its honour, checkmate comes first, and
 * unmake takes the count back. */
static void test_gameend_counting(void **state) {
    (void)state;
    Variant *v = load_rules("rules/makruk.rules");
    Position pos;
    board_init(&pos, v);
    char text[128];
    GameResult r;
    /* the last pawn taken: the board's honour, 64 moves from 0 */
    set_fen(&pos, "8/8/4r3/8/4p3/4k3/8/R3K3 w - - 0 1");
    play(&pos, "a1a4");
    play(&pos, "e6e5");
    uint64_t before = pos.key;
    play(&pos, "a4e4");
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "8/8/8/4r3/4R3/4k3/8/4K3 b - 128 0 2");
    /* the rook taken: white has its king alone, the pieces' honour for one rook (16 moves)
     * counted from the three pieces on the board */
    play(&pos, "e3e4");
    fen_write(&pos, text, sizeof text);
    assert_string_equal(text, "8/8/8/4r3/4k3/8/8/4K3 w - 32 6 3");
    board_unmake(&pos);
    board_unmake(&pos);
    assert_int_equal(pos.key, before);
    assert_int_equal(pos.count_limit, 0);
    /* one ply before the end the game goes on; the count run out draws */
    set_fen(&pos, "8/8/8/8/8/4k3/R7/4K3 b - 32 30 1");
    play(&pos, "e3e4");
    gameend_check(test_gen(), &pos, &r);
    assert_false(r.over);
    play(&pos, "a2a3");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, -1);
    assert_string_equal(r.reason, "counting (pieces' honour)");
    set_fen(&pos, "8/8/8/4r3/4R3/4k3/8/4K3 b - 128 128 2");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_string_equal(r.reason, "counting (board's honour)");
    /* checkmate comes first */
    set_fen(&pos, "k7/2K5/8/8/8/8/8/R7 b - 32 40 1");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 0);
    assert_string_equal(r.reason, "checkmate");
    board_free(&pos);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gameend_counted_agrees),
        cmocka_unit_test(test_gameend_stalemate_pass),
        cmocka_unit_test(test_gameend_side_without_royals_plays_on),
        cmocka_unit_test(test_gameend_position_endings),
        cmocka_unit_test(test_gameend_checkmate),
        cmocka_unit_test(test_gameend_in_check_but_not_mated_goes_on),
        cmocka_unit_test(test_gameend_stalemate),
        cmocka_unit_test(test_gameend_threefold_repetition),
        cmocka_unit_test(test_gameend_repetition_needs_same_side_to_move),
        cmocka_unit_test(test_gameend_fifty_move_rule),
        cmocka_unit_test(test_gameend_checkmate_beats_fifty_move_rule),
        cmocka_unit_test(test_gameend_insufficient_material),
        cmocka_unit_test(test_gameend_results_follow_the_rule_file),
        cmocka_unit_test(test_gameend_losing_games),
        cmocka_unit_test(test_gameend_for_players_and_one_player),
        cmocka_unit_test(test_gameend_counting),
    };
    return cmocka_run_group_tests_name("gameend", tests, setup, teardown);
}
