/* test_search.c - the computer player: classic mate problems at fixed depth, determinism,
 * the reference players, and more than two players (paranoid search). */
#define SUPPORT_CHESS_FIXTURE
#include "support.h"

#include "gameend.h"
#include "engine.h"
#include "search.h"

/* Searches fen to depth with a fresh searcher; returns the best move's coordinate text. */
static int best_move(const Variant *v, const char *fen, int depth, char *move, size_t cap, uint64_t *nodes) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    Searcher *s = search_new(v, 4);
    SearchLimits lim = {.depth = depth};
    SearchResult res;
    assert_true(search_run(s, &pos, &lim, &res, NULL, NULL));
    notation_move(v, &res.best, move, cap);
    if (nodes) *nodes = res.info.nodes;
    search_free(s);
    board_free(&pos);
    return res.info.score;
}

typedef struct Problem {
    const char *fen, *key, *source;
} Problem;

static void solve(const Problem *p, int moves) {
    char move[32];
    int score = best_move(chess, p->fen, 2 * moves - 1, move, sizeof move, NULL);
    if (strcmp(move, p->key) != 0 || score != SEARCH_MATE - (2 * moves - 1))
        print_error("%s: got %s (score %d), expected %s mating in %d\n", p->source, move, score, p->key, moves);
    assert_string_equal(move, p->key);
    assert_int_equal(score, SEARCH_MATE - (2 * moves - 1));
}

/* Each problem has one key (checked against an independent engine: the second-best move
 * does not mate as fast). Under valgrind a quarter of the problems (test_reps): the same search. */
static void test_search_mate_in_two(void **state) {
    (void)state;
    static const Problem problems[] = {
        {"kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "a1a6", "Morphy: 1.Ra6 bxa6 2.b7#"},
        {"4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 16", "b3b8", "Morphy, Opera game 1858: 16.Qb8+"},
        {"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10", "d5f6",
         "Legal's pattern: Nf6+ gxf6 Bxf7#"},
        {"2brrb2/8/p7/7Q/1p1kpPp1/1P1pN1K1/3P4/8 w - - 0 1", "h5a5", "quiet key: Qa5"},
        {"6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", "g2g1", "Black mates: Rg1+ Nxg1/Kxg1 ... "},
    };
    for (int i = 0; i < test_reps((int)ARRAY_LEN(problems)); i++) solve(&problems[i], 2);
}

static void test_search_mate_in_three(void **state) {
    (void)state;
    static const Problem problems[] = {
        {"r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", "f6a6", "rook switch: Ra6"},
        {"3r1r1k/1p3p1p/p2p4/4n1NN/6bQ/1BPq4/P3p1PP/1R5K w - - 0 1", "g5f7", "Nf7+ Rxf7 Qxh7+ ..."},
        {"r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", "f8c5", "king hunt: ...Bc5+"},
        {"2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", "b1g6", "Black: ...Qg6+"},
        {"r3k2r/ppp2Npp/1b5n/4p2b/2B1P2q/BQP2P2/P5PP/RN5K w kq - 1 1", "c4b5", "Bb5+ c6 Qe6+ ..."},
    };
    for (int i = 0; i < test_reps((int)ARRAY_LEN(problems)); i++) solve(&problems[i], 3);
}

static void test_search_is_deterministic(void **state) {
    (void)state;
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    char m1[32], m2[32];
    uint64_t n1, n2;
    int s1 = best_move(chess, fen, 4, m1, sizeof m1, &n1);
    int s2 = best_move(chess, fen, 4, m2, sizeof m2, &n2);
    assert_string_equal(m1, m2);
    assert_int_equal(s1, s2);
    assert_int_equal(n1, n2);
}

static void test_search_takes_free_material(void **state) {
    (void)state;
    char move[32];
    best_move(chess, "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", 3, move, sizeof move, NULL);
    assert_string_equal(move, "d1d5");
}

static void test_search_no_move_returns_false(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"); /* stalemate */
    Searcher *s = search_new(chess, 1);
    SearchLimits lim = {.depth = 3};
    SearchResult res;
    assert_false(search_run(s, &pos, &lim, &res, NULL, NULL));
    assert_false(res.has_move);
    search_free(s);
    board_free(&pos);
}

static void test_search_interrupt_keeps_a_move(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, chess->setup);
    Searcher *s = search_new(chess, 1);
    SearchLimits lim = {.depth = 30};
    SearchResult res;
    search_interrupt = 1; /* as if Ctrl-C came at once */
    assert_true(search_run(s, &pos, &lim, &res, NULL, NULL));
    search_interrupt = 0;
    assert_true(res.interrupted);
    assert_true(res.has_move);
    assert_true(movegen_is_legal(test_gen(), &pos, &res.best));
    search_free(s);
    board_free(&pos);
}

static void test_search_greedy_takes_the_biggest_capture(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, "4k3/8/8/1r1q4/2P5/8/8/4K3 w - - 0 1");
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    EvalTables et;
    eval_init(&et, chess);
    uint64_t rng = 7;
    char move[32];
    notation_move(chess, &ml.moves[search_pick_greedy(&et, &pos, &ml, &rng)], move, sizeof move);
    assert_string_equal(move, "c4d5");
    board_free(&pos);
}

static void test_search_formats_scores(void **state) {
    (void)state;
    char buf[32];
    search_format_score(35, 2, buf, sizeof buf);
    assert_string_equal(buf, "+0.35");
    search_format_score(SEARCH_MATE - 3, 2, buf, sizeof buf);
    assert_string_equal(buf, "mate 2");
    search_format_score(-(SEARCH_MATE - 4), 2, buf, sizeof buf);
    assert_string_equal(buf, "-mate 2");
}

/* Three players: the paranoid search plays legal moves and finds an immediate mate. */
static void test_search_three_players(void **state) {
    (void)state;
    Variant *v = load_rules("tests/play/three.rules");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    Searcher *s = search_new(v, 4);
    SearchLimits lim = {.depth = 3};
    SearchResult res;
    for (int ply = 0; ply < 9; ply++) {
        if (!search_run(s, &pos, &lim, &res, NULL, NULL)) break;
        assert_true(movegen_is_legal(test_gen(), &pos, &res.best));
        assert_true(board_make(&pos, &res.best));
    }
    /* red to move mates green's king with the knight (Nc5# or Ne5#): green is out, the game
     * goes on, and knocking a player out is worth its whole army */
    set_fen(&pos, "Rnkn:3n/2p1p2/3p1:3p:3k/5:3p1/3N1P:3n/2PP:3r2/2KNR r");
    assert_true(search_run(s, &pos, &lim, &res, NULL, NULL));
    assert_true(res.info.score > 300);
    assert_true(board_make(&pos, &res.best));
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_false(r.over);
    assert_int_equal(r.eliminated, 1);
    search_free(s);
    board_free(&pos);
    variant_free(v);
}

/* ---- endings a move brings about: scored where they happen, at once ---- */

/* Searches the shipped game's position fen to depth; the best move's text and score. */
static int best_in(const char *game, const char *fen, int depth, char *move, size_t cap) {
    char path[64];
    snprintf(path, sizeof path, "rules/%s.rules", game);
    Variant *v = load_rules(path);
    int score = best_move(v, fen, depth, move, cap, NULL);
    variant_free(v);
    return score;
}

/* expect_win GAME FEN DEPTH PLIES MOVES: a win PLIES plies away, by one of MOVES (space
 * separated) */
static void expect_win(const char *game, const char *fen, int depth, int plies, const char *moves) {
    char move[32];
    int score = best_in(game, fen, depth, move, sizeof move);
    bool listed = false;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", moves);
    for (char *t = strtok(copy, " "); t; t = strtok(NULL, " ")) listed |= !strcmp(t, move);
    if (!listed || score != SEARCH_MATE - plies)
        print_error("%s %s: got %s (score %d), expected %s winning in %d plies\n", game, fen, move, score, moves,
                    plies);
    assert_true(listed);
    assert_int_equal(score, SEARCH_MATE - plies);
}

/* Atomic: the knight's capture blows up the king next to its victim; a win at depth 1. */
static void test_search_sees_explosions(void **state) {
    (void)state;
    expect_win("atomic", "4k3/4pp2/8/6N1/8/8/8/4K3 w - - 0 1", 1, 1, "g5f7");
    /* after 1.Nf3 Nc6 2.Ng5 the knight to d4 loses to Nxf7 at once */
    char move[32];
    int score = best_in("atomic", "r1bqkbnr/pppppppp/2n5/6N1/8/8/PPPPPPPP/RNBQKB1R b KQkq - 3 2", 4, move, sizeof move);
    if (!strcmp(move, "c6d4")) print_error("atomic: Nd4 suggested (score %d)\n", score);
    assert_string_not_equal(move, "c6d4");
}

/* A royal piece taken where the rules allow it (Duck chess). */
static void test_search_sees_royal_capture(void **state) {
    (void)state;
    expect_win("duck", "4k3/8/8/8/8/8/8/4QK2 w - - 0 1", 1, 1, "e1e8");
}

/* With three players a king exposed by another player's move is taken: its owner is out (the
 * game goes on, so no mate score: its army is gone from the evaluation). */
static void test_search_sees_royal_capture_with_more_players(void **state) {
    (void)state;
    Variant *v = load_rules("tests/play/three.rules");
    char move[32];
    int score = best_move(v, "2k2/7/7/6:3k/7/7/K1R2 r", 1, move, sizeof move, NULL);
    assert_string_equal(move, "d1d7");
    assert_true(score > 300);
    variant_free(v);
}

/* Endings the position decides: extinction, a zone reached, checks given, a bare king after
 * the reply the rule allows, every piece lost. */
static void test_search_sees_position_endings(void **state) {
    (void)state;
    expect_win("extinction", "q1b1k2r/p7/8/3n4/8/8/P7/1NBQK2R w - - 0 1", 1, 1, "d1d5 h1h8");
    expect_win("kingofthehill", "4k3/8/8/8/8/4K3/8/8 w - - 0 1", 1, 1, "e3d4 e3e4");
    expect_win("3check", "4k3/8/8/8/8/8/8/3QK3 w - - 1+3 0 1", 1, 1, "d1d8 d1d7 d1a4 d1b3 d1h5 d1g4 d1e2");
    /* the bare king loses once the other side's reply could not bare the winner too */
    expect_win("shatranj", "4k3/8/8/8/3p4/8/8/3RK3 w - - 0 1", 2, 2, "d1d4");
    /* antichess: the only move takes Black's last piece, and losing every piece wins */
    char move[32];
    int score = best_in("antichess", "8/8/8/8/8/3p4/4P3/8 w - - 0 1", 1, move, sizeof move);
    assert_string_equal(move, "e2d3");
    assert_int_equal(score, -(SEARCH_MATE - 1));
}

/* Settings of the search read from text; a bad word is named. */
static void test_search_options_parse(void **state) {
    (void)state;
    SearchOptions o;
    search_options_default(&o);
    char err[200], text[200];
    assert_true(search_options_parse("classic,lmr,skill=7", &o, err, sizeof err));
    assert_true(o.lmr);
    assert_false(o.null_move);
    assert_int_equal(o.skill, 7);
    search_options_format(&o, text, sizeof text);
    assert_string_equal(
        text, "-null,lmr,-aspiration,-futility,-see,-stable,-tuned,-rfp,-lmp,-iir,-history,-qtable,-terms,-multi,-early,skill=7");
    assert_true(search_options_parse("default,-see", &o, err, sizeof err));
    assert_false(o.see);
    assert_true(o.null_move);
    assert_false(search_options_parse("default,nul", &o, err, sizeof err));
    assert_non_null(strstr(err, "unknown setting 'nul'"));
    assert_false(search_options_parse("skill=21", &o, err, sizeof err));
    assert_non_null(strstr(err, "bad skill '21'"));
}

/* UCI_Elo to skill: the fitted line to the nearest level, never falling as the rating rises,
 * the ends at the ends. */
static void test_engine_elo_skill(void **state) {
    (void)state;
    assert_int_equal(engine_elo_skill(ENGINE_ELO_MIN - 500), 0);
    assert_int_equal(engine_elo_skill(ENGINE_ELO_MIN), 0);
    assert_int_equal(engine_elo_skill(1230), 4);
    assert_int_equal(engine_elo_skill(1700), 12);
    assert_int_equal(engine_elo_skill(2120), 19);
    assert_int_equal(engine_elo_skill(ENGINE_ELO_MAX), 20);
    assert_int_equal(engine_elo_skill(ENGINE_ELO_MAX + 500), 20);
    for (int elo = ENGINE_ELO_MIN; elo < ENGINE_ELO_MAX; elo++)
        assert_true(engine_elo_skill(elo) <= engine_elo_skill(elo + 1));
}

/* The null move is for games where passing changes little. */
static void test_search_null_move_allowed(void **state) {
    (void)state;
    assert_true(search_null_move_allowed(chess));
    const char *off[] = {"rules/antichess.rules", "rules/clobber.rules", "rules/duck.rules", "rules/janggi.rules",
                         "rules/ultimate-chess-4p.rules"};
    for (size_t i = 0; i < ARRAY_LEN(off); i++) {
        Variant *v = load_rules(off[i]);
        if (search_null_move_allowed(v)) print_error("%s allows the null move\n", off[i]);
        assert_false(search_null_move_allowed(v));
        variant_free(v);
    }
}

/* Where drops make hundreds of moves a node, pick keeps a tournament of the moves left (instead
 * of scanning them all each time): the same moves in the same order, so the plain search makes
 * the nodes it made with the scan alone (counted before the tournament came). */
static void test_search_long_move_lists(void **state) {
    (void)state;
    Variant *v = load_rules("rules/shogi.rules");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "lnsgk2nl/5g1R1/1ppp+P4/6p1p/5p3/p1P6/1PSPP1P1P/6G2/LN1GK2+b1[SLPrbsnppp] b - - 1 28");
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    Searcher *s = search_new(v, 4);
    assert_true(movegen_legal(test_fresh_gen(), &pos, ml, &f));
    assert_true(ml->count > 200);
    SearchOptions classic;
    search_options_classic(&classic);
    search_set_options(s, &classic);
    SearchLimits lim = {.depth = 3};
    SearchResult res;
    assert_true(search_run(s, &pos, &lim, &res, NULL, NULL));
    char move[32];
    notation_move(v, &res.best, move, sizeof move);
    assert_string_equal(move, "P@e2");
    assert_int_equal(res.info.nodes, 88084);
    search_free(s);
    free(ml);
    board_free(&pos);
    variant_free(v);
}

/* The pruning features find the same mates as the plain search, with fewer nodes. */
static void test_search_features_keep_mates(void **state) {
    (void)state;
    const char *fen = "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1";
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, fen);
    SearchOptions classic;
    search_options_classic(&classic);
    Searcher *a = search_new(chess, 4), *b = search_new(chess, 4);
    search_set_options(b, &classic);
    SearchLimits lim = {.depth = 6};
    SearchResult ra, rb;
    assert_true(search_run(a, &pos, &lim, &ra, NULL, NULL));
    assert_true(search_run(b, &pos, &lim, &rb, NULL, NULL));
    assert_int_equal(ra.info.score, SEARCH_MATE - 5);
    assert_int_equal(rb.info.score, SEARCH_MATE - 5);
    search_free(a);
    search_free(b);
    board_free(&pos);
}

/* A clock's share: most of the increment plus a part of what is left, never more than a third. */
static void test_search_time_budget(void **state) {
    (void)state;
    double soft, hard;
    search_time_budget(60, 1, 0, &soft, &hard);
    assert_true(soft > 2.7 && soft < 2.9); /* 60/30 + 0.8 */
    assert_true(hard > soft && hard <= 20);
    search_time_budget(0.3, 0, 0, &soft, &hard);
    assert_true(soft <= 0.1 && hard <= 0.1);
    search_time_budget(10, 0, 1, &soft, &hard); /* the last move of a period */
    assert_true(soft <= 10.0 / 3 + 1e-9);
}

/* Monte Carlo tree search: a mate in one is the most visited move; the same seed gives the same
 * move; four players get a legal move. (Under valgrind a quarter of the playouts from the start:
 * every playout follows the same code.) */
static void test_search_mcts(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1");
    Searcher *s = search_new(chess, 1);
    SearchOptions o;
    search_options_default(&o);
    assert_true(search_options_parse("mcts", &o, NULL, 0));
    search_set_options(s, &o);
    assert_true(search_uses_mcts(s));
    SearchLimits lim = {.nodes = 2000, .seed = 3};
    SearchResult res;
    assert_true(search_run(s, &pos, &lim, &res, NULL, NULL));
    assert_true(board_make(&pos, &res.best));
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 0);
    board_unmake(&pos);
    SearchResult again;
    set_fen(&pos, chess->setup);
    lim.nodes = (uint64_t)test_reps(2000);
    assert_true(search_run(s, &pos, &lim, &res, NULL, NULL));
    assert_true(search_run(s, &pos, &lim, &again, NULL, NULL));
    assert_int_equal(search_move_sig(&res.best), search_move_sig(&again.best));
    search_free(s);
    board_free(&pos);
    Variant *v = load_rules("rules/ultimate-chess-4p.rules");
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    s = search_new(v, 1);
    search_set_options(s, &o);
    lim.nodes = 50;
    assert_true(search_run(s, &pos, &lim, &res, NULL, NULL));
    assert_true(movegen_is_legal(test_gen(), &pos, &res.best));
    search_free(s);
    board_free(&pos);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_search_mate_in_two),
        cmocka_unit_test(test_search_mate_in_three),
        cmocka_unit_test(test_search_is_deterministic),
        cmocka_unit_test(test_search_takes_free_material),
        cmocka_unit_test(test_search_no_move_returns_false),
        cmocka_unit_test(test_search_interrupt_keeps_a_move),
        cmocka_unit_test(test_search_greedy_takes_the_biggest_capture),
        cmocka_unit_test(test_search_formats_scores),
        cmocka_unit_test(test_search_three_players),
        cmocka_unit_test(test_search_sees_explosions),
        cmocka_unit_test(test_search_sees_royal_capture),
        cmocka_unit_test(test_search_sees_royal_capture_with_more_players),
        cmocka_unit_test(test_search_sees_position_endings),
        cmocka_unit_test(test_search_options_parse),
        cmocka_unit_test(test_search_null_move_allowed),
        cmocka_unit_test(test_engine_elo_skill),
        cmocka_unit_test(test_search_features_keep_mates),
        cmocka_unit_test(test_search_long_move_lists),
        cmocka_unit_test(test_search_time_budget),
        cmocka_unit_test(test_search_mcts),
    };
    return cmocka_run_group_tests_name("search", tests, setup, teardown);
}
