/* test_variant_ultra.c - rules/ultra-chess.rules: turns of phases, experience from captures,
 * every level-up path and its cost, the two bonus moves and their thresholds, legality after
 * every action, Out of Ammo and the turn-counted n-move rule. */
#include "gameend.h"
#include "perft.h"
#include "savegame.h"
#include "search.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include "view.h"

static Variant *ultra;

/* Piles for positions in the middle of a game: no cards left to arrange, one card in each deck
 * (the game goes on), three nines in each hand (any regular move can be paid, with
 * "pay:9>w"); no tiles; the set-up over. */
#define CARDS " -/-/1/1/9.9.9/9.9.9 8/8/8/8/8/8/8/8 -"

/* The fixed position after the set-up (also the perft position): White's mines on b4 c3 f3
 * g4, Black's on b5 c6 f6 g5; the decks were arranged 9 5 3 3 1 1 (bottom to top); White
 * took 1 from its deck, Black 1 1 from its deck, White 3 3 from Black's, Black 1 3 from
 * White's. */
#define AFTER_SETUP \
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0,0 drawing " \
    "-/-/9.5.3~3/9.5~2/1.3.3/1.1.1.3 8/8/ttmttmtt/tmttttmt/TMTTTTMT/TTMTTMTT/8/8 -"
/* The same with Black's mines on a5 d6 e6 h5 instead: White cannot tell the two apart. */
#define AFTER_SETUP_2 \
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0,0 drawing " \
    "-/-/9.5.3~3/9.5~2/1.3.3/1.1.1.3 8/8/tttmmttt/mttttttm/TMTTTTMT/TTMTTMTT/8/8 -"

static int setup(void **state) {
    (void)state;
    DiagSink sink;
    diag_init(&sink);
    ultra = load_file("rules/ultra-chess.rules", NULL, 0, &sink);
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
    movegen_legal(test_gen(), pos, &ml, &f);
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
    movegen_legal(test_gen(), pos, &ml, &f);
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

static void test_ultra_turn_is_draw_bonus_normal_pay_bonus_pass(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, AFTER_SETUP);
    /* the turn starts with a draw from either deck; nothing else */
    char got[4096];
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "take:b take:w");
    play(&pos, "take:b");
    expect_fen(&pos,
               "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0,0 bonus1 "
               "-/-/9.5.3~3/9~1/1.3.3.5/1.1.1.3 8/8/ttmttmtt/tmttttmt/TMTTTTMT/TTMTTMTT/8/8 -");
    /* no bonus move and no pass before the normal move */
    legal_text(&pos, "pass", got, sizeof got);
    assert_string_equal(got, "");
    /* the double step lifts the tiles of both cells it passes and lands on */
    play(&pos, "e2e4");
    /* the pawn's 1 is owed: the next move pays it, onto either deck, highest card first */
    expect_fen(&pos,
               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1 0,0 bonus2 "
               "-/-/9.5.3~3/9~1/1.3.3.5/1.1.1.3:1 8/8/ttmttmtt/tmttttmt/TMTT1TMT/TTMT1MTT/8/8 -");
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got,
                        "pay:1>b pay:1>w pay:3+1>b pay:3+1>w pay:3+3+1>b pay:3+3+1>w pay:3+3>b pay:3+3>w "
                        "pay:3>b pay:3>w pay:5+1>b pay:5+1>w pay:5+3+1>b pay:5+3+1>w pay:5+3+3+1>b pay:5+3+3+1>w "
                        "pay:5+3+3>b pay:5+3+3>w pay:5+3>b pay:5+3>w pay:5>b pay:5>w");
    play(&pos, "pay:5+1>w");
    /* the normal phase is over: only the pass (no bonus move is possible) */
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "pass");
    play(&pos, "pass");
    /* the 3 that was on top of White's deck is covered, and no longer secret (all have seen
     * it): 2 cards stay in White's secret order */
    expect_fen(&pos,
               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 0,0 drawing "
               "-/-/9.5.3.5.1~2/9~1/3.3/1.1.1.3 8/8/ttmttmtt/tmttttmt/TMTT1TMT/TTMT1MTT/8/8 -");
    /* unmake goes back through the phases */
    for (int i = 0; i < 4; i++) board_unmake(&pos);
    expect_fen(&pos, AFTER_SETUP);
    assert_true(board_is_ok(&pos));
    board_free(&pos);
}

static void test_ultra_king_moves_and_castling_are_free(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    /* no cards at all: only the king may move (and castle); a pawn costs 1 */
    set_fen(&pos, "4k3/8/8/8/8/8/4P3/R3K3 w Q - 0 1 0,0 bonus1 -/-/1/1/-/- 8/8/8/8/8/8/8/8 -");
    char got[4096];
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "e1c1 e1d1 e1d2 e1f1 e1f2");
    play(&pos, "e1c1");
    expect_fen(&pos, "4k3/8/8/8/8/8/4P3/2KR4 w - - 0 1 0,0 bonus2 -/-/1/1/-/- 8/8/8/8/8/8/8/8 -");
    /* a knight (3) needs cards adding up to 3: 1+1 is not enough, 1+1+1 is */
    expect_moves("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 0,0 bonus1 -/-/1/1/1.1/- 8/8/8/8/8/8/8/8 -", "b1", "");
    expect_moves("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 0,0 bonus1 -/-/1/1/1.1.1/- 8/8/8/8/8/8/8/8 -", "b1",
                 "b1a3 b1c3 b1d2");
    /* a queen 9, a rook 5, an archbishop 7 */
    expect_moves("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1 0,0 bonus1 -/-/1/1/5.3/- 8/8/8/8/8/8/8/8 -", "a1", "");
    expect_moves("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 0,0 bonus1 -/-/1/1/1.3/- 8/8/8/8/8/8/8/8 -", "a1", "");
    expect_moves("4k3/8/8/8/8/8/8/A3K3 w - - 0 1 0,0 bonus1 -/-/1/1/1.5/- 8/8/8/8/8/8/8/8 -", "a1", "");
    expect_moves("4k3/8/8/8/8/8/8/A3K3 w - - 0 1 0,0 bonus1 -/-/1/1/1.1.5/- 8/8/8/8/8/8/8/8 -", "a1",
                 "a1b2 a1b3 a1c2 a1c3 a1d4 a1e5 a1f6 a1g7 a1h8");
    /* paying a knight with 1+1+1: the cards go onto the chosen deck, the last one on top */
    set_fen(&pos, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 0,0 bonus1 -/-/9/5/1.1.3/- 8/8/8/8/8/8/8/8 -");
    play(&pos, "b1c3");
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "pay:3+1+1>b pay:3+1+1>w pay:3+1>b pay:3+1>w pay:3>b pay:3>w");
    play(&pos, "pay:3+1>b");
    expect_fen(&pos, "4k3/8/8/8/8/2N5/8/4K3 w - - 0 1 0,0 bonus2 -/-/9/5.3.1/1/- 8/8/8/8/8/8/8/8 -");
    board_free(&pos);
}

static void test_ultra_perft_counts_every_action(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, AFTER_SETUP);
    VmFault f = {0};
    /* a draw from either deck; 20 moves each paid in every way (hand 1 3 3 3 after taking the
     * white 3: 16 pawn moves x 7 card choices x 2 decks + 4 knight moves x 6 x 2 = 272; hand
     * 1 3 3 5 after taking the black 5: 16 x 11 x 2 + 4 x 10 x 2 = 432); then the pass */
    assert_int_equal(perft(test_gen(), &pos, 1, &f), 2);
    assert_int_equal(perft(test_gen(), &pos, 2, &f), 40);
    assert_int_equal(perft(test_gen(), &pos, 3, &f), 704);
    assert_int_equal(perft(test_gen(), &pos, 4, &f), 704);
    assert_int_equal(perft(test_gen(), &pos, 5, &f), 1408);
    board_free(&pos);
}

static void test_ultra_ceasefire_when_both_decks_are_empty(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    GameResult r;
    set_fen(&pos, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 0,0 drawing -/-/-/-/9/9 8/8/8/8/8/8/8/8 -");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, -1);
    assert_string_equal(r.reason, "piles empty");
    assert_string_equal(r.name, "ceasefire");
    /* one card left in one deck: the game goes on, and that card is the only draw */
    set_fen(&pos, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 0,0 drawing -/-/-/3/9/9 8/8/8/8/8/8/8/8 -");
    gameend_check(test_gen(), &pos, &r);
    assert_false(r.over);
    expect_moves("4k3/8/8/8/8/8/8/4K3 w - - 0 1 0,0 drawing -/-/-/3/9/9 8/8/8/8/8/8/8/8 -", "", "take:b");
    board_free(&pos);
}

static void test_ultra_out_of_ammo_without_cards(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    GameResult r;
    /* the king is walled in by its own pawns and there is no card: no normal move */
    set_fen(&pos, "4k3/8/8/8/8/8/3PPP2/3PKP2 w - - 0 1 0,0 bonus1 -/-/1/1/-/- 8/8/8/8/8/8/8/8 -");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 1);
    assert_string_equal(r.reason, "stalemate");
    assert_string_equal(r.name, "out of ammo");
    /* one card: the pawns may move */
    set_fen(&pos, "4k3/8/8/8/8/8/3PPP2/3PKP2 w - - 0 1 0,0 bonus1 -/-/1/1/1/- 8/8/8/8/8/8/8/8 -");
    gameend_check(test_gen(), &pos, &r);
    assert_false(r.over);
    board_free(&pos);
}

static void test_ultra_en_passant_survives_the_movers_pass(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1 0,0 bonus1 -/-/1/1/9/9 8/8/8/8/8/8/8/8 -");
    play(&pos, "e2e4");
    play(&pos, "pay:9>w");
    play(&pos, "pass");
    play(&pos, "take:w");
    play(&pos, "f4e3");
    play(&pos, "pay:9>b");
    /* (taken en passant, the cell is of no more use: it goes) */
    expect_fen(&pos, "4k3/8/8/8/8/4p3/8/4K3 b - - 0 1 0,1 bonus2 -/-/1/1.9/-/9 8/8/8/8/8/8/8/8 -");
    play(&pos, "pass");
    expect_fen(&pos, "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2 0,1 drawing -/-/1/1.9/-/9 8/8/8/8/8/8/8/8 -");
    /* after the opponent's turn ends without taking, the cell is gone */
    set_fen(&pos, "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1 0,0 bonus1 -/-/1/1/9/9 8/8/8/8/8/8/8/8 -");
    play(&pos, "e2e4");
    play(&pos, "pay:9>w");
    play(&pos, "pass");
    play(&pos, "take:w");
    play(&pos, "e8d8");
    play(&pos, "pass");
    play(&pos, "take:b");
    play(&pos, "e1d1");
    play(&pos, "pass");
    play(&pos, "take:w");
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
    set_fen(&pos, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1 0,0 bonus1" CARDS);
    play(&pos, "d1d5");
    expect_fen(&pos, "4k3/8/8/3R4/8/8/8/4K3 w - - 0 1 3,0 bonus2 -/-/1/1/9.9.9/9.9.9:5 8/8/8/8/8/8/8/8 -");
    /* en passant gives a pawn's worth to black */
    set_fen(&pos, "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1 0,0 bonus1 -/-/1/1/9/9 8/8/8/8/8/8/8/8 -");
    play(&pos, "e2e4");
    play(&pos, "pay:9>w");
    play(&pos, "pass");
    play(&pos, "take:w");
    play(&pos, "f4e3");
    expect_fen(&pos, "4k3/8/8/8/8/4p3/8/4K3 b - - 0 1 0,1 bonus2 -/-/1/1/-/9.9:1 8/8/8/8/8/8/8/8 -");
    /* a queen is worth 9, a levelled-up chancellor 9 and an archbishop 7 */
    set_fen(&pos, "4k3/8/8/2qca3/8/8/8/2RRRK2 w - - 0 1 0,0 bonus1" CARDS);
    play(&pos, "c1c5");
    expect_fen(&pos, "4k3/8/8/2Rca3/8/8/8/3RRK2 w - - 0 1 9,0 bonus2 -/-/1/1/9.9.9/9.9.9:5 8/8/8/8/8/8/8/8 -");
    set_fen(&pos, "4k3/8/8/2qca3/8/8/8/2RRRK2 w - - 0 1 0,0 bonus1" CARDS);
    play(&pos, "d1d5");
    expect_fen(&pos, "4k3/8/8/2qRa3/8/8/8/2R1RK2 w - - 0 1 9,0 bonus2 -/-/1/1/9.9.9/9.9.9:5 8/8/8/8/8/8/8/8 -");
    set_fen(&pos, "4k3/8/8/2qca3/8/8/8/2RRRK2 w - - 0 1 0,0 bonus1" CARDS);
    play(&pos, "e1e5");
    expect_fen(&pos, "4k3/8/8/2qcR3/8/8/8/2RR1K2 w - - 0 1 7,0 bonus2 -/-/1/1/9.9.9/9.9.9:5 8/8/8/8/8/8/8/8 -");
    board_free(&pos);
}

static void test_ultra_level_up_paths_and_costs(void **state) {
    (void)state;
    /* with 12 experience every path is open: exactly the listed ones */
    const char *fen = "4k3/8/8/8/8/8/P7/RNBQK3 w - - 0 1 12,0 bonus1" CARDS;
    expect_moves(fen, "levelup:",
                 "levelup:a1a1c levelup:a1a1q levelup:a2a2b levelup:a2a2n levelup:a2a2r "
                 "levelup:b1b1a levelup:b1b1c levelup:c1c1a levelup:c1c1q");
    /* 8: all but knight to chancellor and bishop to queen (12) */
    expect_moves("4k3/8/8/8/8/8/P7/RNBQK3 w - - 0 1 8,0 bonus1" CARDS, "levelup:",
                 "levelup:a1a1c levelup:a1a1q levelup:a2a2b levelup:a2a2n levelup:a2a2r levelup:b1b1a levelup:c1c1a");
    /* 7: only the pawn's 4-point paths; 3: nothing */
    expect_moves("4k3/8/8/8/8/8/P7/RNBQK3 w - - 0 1 7,0 bonus1" CARDS, "levelup:", "levelup:a2a2b levelup:a2a2n");
    expect_moves("4k3/8/8/8/8/8/P7/RNBQK3 w - - 0 1 3,0 bonus1" CARDS, "levelup:", "");
    /* archbishops, chancellors, queens and kings have no path */
    expect_moves("4k3/8/8/8/8/8/8/ACQK4 w - - 0 1 100,0 bonus1" CARDS, "levelup:", "");
    /* the cost is paid; the piece changes in place; it is the normal move of the turn */
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 13,0 bonus1" CARDS);
    play(&pos, "levelup:b1b1c");
    expect_fen(&pos, "4k3/8/8/8/8/8/8/1C2K3 w - - 0 1 1,0 bonus2" CARDS);
    char got[512];
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "pass");
    /* a level-up is irreversible: it resets the n-move count */
    set_fen(&pos, "4k3/8/8/8/8/8/8/1N2K3 w - - 7 1 8,0 bonus1" CARDS);
    play(&pos, "levelup:b1b1a");
    play(&pos, "pass");
    expect_fen(&pos, "4k3/8/8/8/8/8/8/1A2K3 b - - 0 1 0,0 drawing" CARDS);
    /* a rook that became a queen is no rook to castle with: that side's right goes */
    set_fen(&pos, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 8,0 bonus1" CARDS);
    play(&pos, "levelup:h1h1q");
    expect_fen(&pos, "4k3/8/8/8/8/8/8/R3K2Q w Q - 0 1 0,0 bonus2" CARDS);
    board_free(&pos);
}

static void test_ultra_level_up_must_keep_the_king_safe(void **state) {
    (void)state;
    /* the pawn shields the king from the rook: turning it into a bishop keeps the shield; so
     * the pawn may level up; in check, a level-up that does not answer it is illegal */
    expect_moves("4r1k1/8/8/8/8/8/4P3/4K3 w - - 0 1 4,0 bonus1" CARDS, "levelup:", "levelup:e2e2b levelup:e2e2n");
    expect_moves("4r1k1/8/8/8/8/8/8/1N2K3 w - - 0 1 8,0 bonus1" CARDS, "levelup:", "");
}

static void test_ultra_immediate_capture_needs_three_attackers(void **state) {
    (void)state;
    /* two attackers (pawn c4, knight f4): no bonus move */
    expect_moves("4k3/8/8/3n4/2P2N2/8/8/4K3 w - - 0 1 0,0 bonus1" CARDS, "bonus:", "");
    /* three: each attacker may take it for free */
    expect_moves("4k3/8/8/3n4/2P1PN2/8/8/4K3 w - - 0 1 0,0 bonus1" CARDS, "bonus:", "bonus:c4d5 bonus:e4d5 bonus:f4d5");
    /* the spec's example: queen and rook attack the rook; the bishop behind the queen does
     * not count (no x-rays) */
    expect_moves("4k3/8/8/3r4/8/1B6/8/3RK3 w - - 0 1 0,0 bonus1" CARDS, "bonus:", "");
    expect_moves("4k3/8/8/3r4/2Q5/1B6/8/3RK3 w - - 0 1 0,0 bonus1" CARDS, "bonus:", "");
    /* a pinned attacker counts (pseudo-legal), though it may not take */
    expect_moves("4k2b/8/8/3n4/2P1P3/2N5/8/K7 w - - 0 1 0,0 bonus1" CARDS, "bonus:", "bonus:c4d5 bonus:e4d5");
    /* the king counts by adjacency */
    expect_moves("4k3/8/8/3n4/2P1K3/8/8/8 w - - 0 1 0,0 bonus1" CARDS, "bonus:", "");
    expect_moves("4k3/8/8/3n4/2PKP3/8/8/8 w - - 0 1 0,0 bonus1" CARDS, "bonus:", "bonus:c4d5 bonus:d4d5 bonus:e4d5");
}

static void test_ultra_bonus_capture_is_free_and_repeatable(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, "4k3/8/8/3n4/2P1PN2/8/8/4K3 w - - 0 1 0,0 bonus1" CARDS);
    play(&pos, "bonus:f4d5");
    /* still the first bonus phase; experience gained */
    expect_fen(&pos, "4k3/8/8/3N4/2P1P3/8/8/4K3 w - - 0 1 3,0 bonus1" CARDS);
    play(&pos, "e1d2");
    expect_fen(&pos, "4k3/8/8/3N4/2P1P3/8/3K4/8 w - - 0 1 3,0 bonus2" CARDS);
    /* bonus moves after the normal move too */
    set_fen(&pos, "4k3/8/8/3n4/2P1P3/8/6N1/4K3 w - - 0 1 0,0 bonus1" CARDS);
    play(&pos, "g2e3");
    play(&pos, "pay:9>w");
    char got[512];
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "bonus:c4d5 bonus:e3d5 bonus:e4d5 pass");
    board_free(&pos);
}

static void test_ultra_execute_needs_five_attackers(void **state) {
    (void)state;
    /* four attackers: immediate captures only */
    expect_moves("4k3/8/2Q5/3n4/2P1PN2/8/8/4K3 w - - 0 1 0,0 bonus1" CARDS, "bonus:x", "");
    /* five: one Execute move removes the knight, nothing moves */
    expect_moves("4k3/8/2Q5/3n4/2P1PN2/8/8/3RK3 w - - 0 1 0,0 bonus1" CARDS, "bonus:x", "bonus:xd5");
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, "4k3/8/2Q5/3n4/2P1PN2/8/8/3RK3 w - - 0 1 0,0 bonus1" CARDS);
    play(&pos, "bonus:xd5");
    expect_fen(&pos, "4k3/8/2Q5/8/2P1PN2/8/8/3RK3 w - - 0 1 3,0 bonus1" CARDS);
    board_free(&pos);
}

static void test_ultra_every_action_must_leave_the_king_safe(void **state) {
    (void)state;
    /* white is in check from the bishop on b4: a bonus capture elsewhere does not answer it */
    expect_moves("k7/8/8/3n4/1bP1PN2/8/8/4K3 w - - 0 1 0,0 bonus1" CARDS, "bonus:", "");
    /* after the normal move the pass is the only way on, and it is legal (no check) */
    expect_moves("k7/8/8/8/8/8/8/4K3 w - - 0 1 0,0 bonus2" CARDS, "", "pass");
}

static void test_ultra_out_of_ammo_loses(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    GameResult r;
    /* stalemate in FIDE: a loss here */
    set_fen(&pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1 0,0 bonus1" CARDS);
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 0);
    /* checkmate */
    set_fen(&pos, "7k/6pp/8/8/8/8/8/R6K w - - 0 1 0,0 bonus1" CARDS);
    play(&pos, "a1a8");
    play(&pos, "pay:9>w");
    play(&pos, "pass");
    play(&pos, "take:w");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 0);
    assert_string_equal(r.reason, "checkmate");
    board_free(&pos);
}

static void test_ultra_nmove_counts_turns(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, "4k3/8/8/8/8/8/8/4K2R w - - 98 1 0,0 bonus1" CARDS);
    play(&pos, "h1h2");
    play(&pos, "pay:9>w");
    expect_fen(&pos, "4k3/8/8/8/8/8/7R/4K3 w - - 98 1 0,0 bonus2 -/-/1.9/1/9.9/9.9.9 8/8/8/8/8/8/8/8 -");
    play(&pos, "pass");
    expect_fen(&pos, "4k3/8/8/8/8/8/7R/4K3 b - - 99 1 0,0 drawing -/-/1.9/1/9.9/9.9.9 8/8/8/8/8/8/8/8 -");
    play(&pos, "take:b");
    play(&pos, "e8d8");
    play(&pos, "pass");
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, -1);
    assert_string_equal(r.reason, "n-move rule");
    board_free(&pos);
}

static void test_ultra_setup_mines_decks_and_draft(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, ultra->setup);
    char got[4096];
    /* White marks 4 of its 16 tiles, in ascending order (one way to each set of mines) */
    legal_text(&pos, "", got, sizeof got);
    /* (the first mine leaves room for three more after it) */
    assert_string_equal(got,
                        "place:a3 place:a4 place:b3 place:b4 place:c3 place:c4 place:d3 place:d4 place:e3 place:e4 "
                        "place:f3 place:g3 place:h3");
    VmFault f = {0};
    assert_int_equal(perft(test_gen(), &pos, 4, &f), 1820); /* 16 choose 4 */
    play(&pos, "place:c3");
    legal_text(&pos, "place:a3", got, sizeof got);
    assert_string_equal(got, "");
    play(&pos, "place:f3");
    play(&pos, "place:b4");
    play(&pos, "place:g4");
    /* then it arranges its deck: any of its cards next, bottom first */
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "arrange:1 arrange:3 arrange:5 arrange:9");
    const char *white_deck[] = {"arrange:9", "arrange:5", "arrange:3", "arrange:3", "arrange:1", "arrange:1"};
    for (int i = 0; i < 6; i++) play(&pos, white_deck[i]);
    /* Black's turn to set up: its own tiles */
    legal_text(&pos, "place:a5", got, sizeof got);
    assert_string_equal(got, "place:a5");
    const char *black[] = {"place:b5",  "place:g5",  "place:c6",  "place:f6",  "arrange:9",
                           "arrange:5", "arrange:3", "arrange:3", "arrange:1", "arrange:1"};
    for (int i = 0; i < 10; i++) play(&pos, black[i]);
    /* the draft: White 1, Black 2 from one deck, White 2, Black 2 */
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "take:b take:w");
    play(&pos, "take:w");
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "take-two:b take-two:w");
    play(&pos, "take-two:b");
    play(&pos, "take-two:b");
    play(&pos, "take-two:w");
    expect_fen(&pos, AFTER_SETUP);
    board_free(&pos);
}

/* A set-up step at random ('random' in the console, the computer's own mines): every layout
 * equally likely, although the mines are placed one by one in ascending order. Over 200
 * layouts each of the 16 tiles holds a mine about 50 times (sd 6.1; a plain random pick of
 * each placement would leave a3, only ever the first mine, near 200 / 13 = 15). The bounds are
 * 3.6 sd either side; under valgrind a quarter of the layouts (test_reps), the bounds wider. */
static void test_ultra_random_setup_is_uniform_over_layouts(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, ultra->setup);
    static MoveList ml;
    int hits[MAX_CELLS] = {0};
    uint64_t rng = 12345;
    int layouts = test_reps(200);
    double mean = layouts / 4.0, spread = 3.6 * sqrt(layouts * 3.0 / 16);
    int low = (int)ceil(mean - spread), high = (int)floor(mean + spread); /* 200 layouts: 28 to 72 */
    for (int game = 0; game < layouts; game++) {
        for (int k = 0; k < 4; k++) {
            VmFault f = {0};
            movegen_legal(test_gen(), &pos, &ml, &f);
            int i = search_pick_setup(test_gen(), &pos, &ml, &rng);
            hits[ml.moves[i].to]++;
            assert_true(board_make(&pos, &ml.moves[i]));
        }
        for (int k = 0; k < 4; k++) board_unmake(&pos);
    }
    int cells = 0;
    for (int c = 0; c < ultra->ncells; c++) {
        if (!hits[c]) continue;
        cells++;
        if (hits[c] < low || hits[c] > high) print_error("cell %d: %d mines\n", c, hits[c]);
        assert_in_range(hits[c], low, high);
    }
    assert_int_equal(cells, 16);
    board_free(&pos);
}

static void test_ultra_enemy_mine_destroys_without_capture(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    /* a knight onto a Black mine: gone, no experience, the tile gone, the card still owed */
    set_fen(&pos, "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1 0,0 bonus1 -/-/1/1/9/9 8/8/3m1t2/8/8/8/8/8 -");
    play(&pos, "e4d6");
    expect_fen(&pos, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 0,0 bonus2 -/-/1/1/9/9:3 8/8/5t2/8/8/8/8/8 -");
    play(&pos, "pay:9>w");
    play(&pos, "pass");
    /* (a mine explosion resets the n-move count) */
    expect_fen(&pos, "4k3/8/8/8/8/8/8/4K3 b - - 0 1 0,0 drawing -/-/1.9/1/-/9 8/8/5t2/8/8/8/8/8 -");
    /* onto a blank enemy tile: the tile goes, the knight stays */
    set_fen(&pos, "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1 0,0 bonus1 -/-/1/1/9/9 8/8/3m1t2/8/8/8/8/8 -");
    play(&pos, "e4f6");
    expect_fen(&pos, "4k3/8/5N2/8/8/8/8/4K3 w - - 0 1 0,0 bonus2 -/-/1/1/9/9:3 8/8/3m4/8/8/8/8/8 -");
    /* pawns and kings never set off a mine: they only lift the tile */
    set_fen(&pos, "8/8/8/3P4/4K3/8/8/k7 w - - 0 1 0,0 bonus1 -/-/1/1/9/9 8/8/3m4/3m1m2/8/8/8/8 -");
    play(&pos, "d5d6");
    expect_fen(&pos, "8/8/3P4/8/4K3/8/8/k7 w - - 0 1 0,0 bonus2 -/-/1/1/9/9:1 8/8/8/3m1m2/8/8/8/8 -");
    set_fen(&pos, "8/8/8/3P4/4K3/8/8/k7 w - - 0 1 0,0 bonus1 -/-/1/1/9/9 8/8/3m4/3m1m2/8/8/8/8 -");
    play(&pos, "e4f5");
    expect_fen(&pos, "8/8/8/3P1K2/8/8/8/k7 w - - 0 1 0,0 bonus2 -/-/1/1/9/9 8/8/3m4/3m4/8/8/8/8 -");
    /* a piece on its own mine: the tile is lifted, nothing happens */
    set_fen(&pos, "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1 0,0 bonus1 -/-/1/1/9/9 8/8/8/8/8/2M5/8/8 -");
    play(&pos, "e4c3");
    expect_fen(&pos, "4k3/8/8/8/8/2N5/8/4K3 w - - 0 1 0,0 bonus2 -/-/1/1/9/9:3 8/8/8/8/8/8/8/8 -");
    /* sliding over a mine does nothing */
    set_fen(&pos, "4k3/8/8/8/8/8/8/3RK3 w - - 0 1 0,0 bonus1 -/-/1/1/9/9 8/8/3m4/8/8/8/8/8 -");
    play(&pos, "d1d7");
    expect_fen(&pos, "4k3/3R4/8/8/8/8/8/4K3 w - - 0 1 0,0 bonus2 -/-/1/1/9/9:5 8/8/3m4/8/8/8/8/8 -");
    board_free(&pos);
}

static void test_ultra_exposed_king_may_be_captured(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    /* the pinned rook stays on the pin line: legal as if it arrives; the mine takes it */
    set_fen(&pos, "4r2k/8/8/8/8/4R3/8/4K3 w - - 0 1 0,0 bonus1 -/-/1/1/9/9 8/8/4m3/8/8/8/8/8 -");
    play(&pos, "e3e6");
    play(&pos, "pay:9>w");
    /* in check, White may still end its turn */
    char got[512];
    legal_text(&pos, "", got, sizeof got);
    assert_string_equal(got, "pass");
    play(&pos, "pass");
    play(&pos, "take:w");
    legal_text(&pos, "e8e1", got, sizeof got);
    assert_string_equal(got, "e8e1");
    play(&pos, "e8e1");
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_int_equal(r.winner, 1);
    assert_string_equal(r.reason, "royal captured");
    board_free(&pos);
}

/* A king may be taken only when it was left exposed as the turn began, never after the turn's
 * own bonus move checked it; the position text marks the exposed case with '+'. */
static void test_ultra_king_checked_this_turn_is_not_taken(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    /* Black's king is safe as White's turn begins; Qc6xd5 (3 attackers on d5) checks it */
    set_fen(&pos, "6k1/8/2Q5/3n4/2P1PN2/8/8/3CK3 w - - 0 1 7,0 bonus1 -/-/-/-/1.1.3.5/1.9.9 8/8/8/8/8/8/8/8 -");
    play(&pos, "bonus:c6d5");
    char got[512];
    legal_text(&pos, "d5g8", got, sizeof got);
    assert_string_equal(got, "");
    expect_fen(&pos, "6k1/8/8/3Q4/2P1PN2/8/8/3CK3 w - - 0 1 10,0 bonus1 -/-/-/-/1.1.3.5/1.9.9 8/8/8/8/8/8/8/8 -");
    /* the same board with the king exposed since the turn began */
    set_fen(&pos, "6k1/8/8/3Q4/2P1PN2/8/8/3CK3 w - - 0 1 10,0 bonus1+ -/-/-/-/1.1.3.5/1.9.9 8/8/8/8/8/8/8/8 -");
    legal_text(&pos, "d5g8", got, sizeof got);
    assert_string_equal(got, "d5g8");
    expect_fen(&pos, "6k1/8/8/3Q4/2P1PN2/8/8/3CK3 w - - 0 1 10,0 bonus1+ -/-/-/-/1.1.3.5/1.9.9 8/8/8/8/8/8/8/8 -");
    char err[200];
    assert_false(fen_read(&pos,
                          "6k1/8/8/3Q4/2P1PN2/8/8/3CK3 w - - 0 1 10,0 bonus1++ -/-/-/-/1.1.3.5/1.9.9 8/8/8/8/8/8/8/8 -",
                          err, sizeof err));
    assert_string_equal(err, "unknown phase 'bonus1+'");
    /* at the turn's start the board tells: exposed (the king on g8 stands in the queen's line) */
    set_fen(&pos, "6k1/8/8/3Q4/2P1PN2/8/8/3CK3 w - - 0 1 10,0 drawing -/-/1/-/1.1.3.5/1.9.9 8/8/8/8/8/8/8/8 -");
    play(&pos, "take:w");
    legal_text(&pos, "d5g8", got, sizeof got);
    assert_string_equal(got, "d5g8");
    board_free(&pos);
}

static void test_ultra_samples_ignore_the_opponents_secrets(void **state) {
    (void)state;
    Position a, b, sa, sb;
    board_init(&a, ultra);
    board_init(&b, ultra);
    board_init(&sa, ultra);
    board_init(&sb, ultra);
    /* a white deck in a secret order, so that Black has something to guess too */
    set_fen(&a, AFTER_SETUP);
    set_fen(&b, AFTER_SETUP_2);
    char fa[512], fb[512];
    for (uint64_t seed = 1; seed <= 8; seed++) {
        view_sample(&a, 0, seed, &sa);
        view_sample(&b, 0, seed, &sb);
        fen_write(&sa, fa, sizeof fa);
        fen_write(&sb, fb, sizeof fb);
        assert_string_equal(fa, fb);
        /* White's own tiles are its own; Black has 4 mines among its 16 tiles */
        int mines = 0;
        for (int c = 0; c < ultra->ncells; c++) {
            if (sa.tiles[c] && TILE_OWNER(sa.tiles[c]) == 0) assert_int_equal(sa.tiles[c], a.tiles[c]);
            if (sa.tiles[c] && TILE_OWNER(sa.tiles[c]) == 1 && (sa.tiles[c] & TILE_MINE)) mines++;
        }
        assert_int_equal(mines, 4);
    }
    /* Black sees its own mines and not White's deck order below the top */
    view_sample(&a, 1, 3, &sa);
    for (int c = 0; c < ultra->ncells; c++)
        if (a.tiles[c] && TILE_OWNER(a.tiles[c]) == 1) assert_int_equal(sa.tiles[c], a.tiles[c]);
    assert_int_equal(sa.piles[2][sa.pile_len[2] - 1], 3); /* the top card is seen by all */
    board_free(&a);
    board_free(&b);
    board_free(&sa);
    board_free(&sb);
}

/* Black's samples of White's deck, whose two cards under the top are in White's secret order,
 * do not depend on that order: the same seed gives the same sample for 9 5 and for 5 9. */
static void test_ultra_samples_ignore_the_opponents_deck_order(void **state) {
    (void)state;
    Position a, b, sa, sb;
    board_init(&a, ultra);
    board_init(&b, ultra);
    board_init(&sa, ultra);
    board_init(&sb, ultra);
    set_fen(&a, AFTER_SETUP);
    set_fen(&b,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 0,0 drawing "
            "-/-/5.9.3~3/9.5~2/1.3.3/1.1.1.3 8/8/ttmttmtt/tmttttmt/TMTTTTMT/TTMTTMTT/8/8 -");
    char fa[512], fb[512];
    for (uint64_t seed = 1; seed <= 16; seed++) {
        view_sample(&a, 1, seed, &sa);
        view_sample(&b, 1, seed, &sb);
        fen_write(&sa, fa, sizeof fa);
        fen_write(&sb, fb, sizeof fb);
        assert_string_equal(fa, fb);
    }
    board_free(&a);
    board_free(&b);
    board_free(&sa);
    board_free(&sb);
}

/* The computer's choice where the truth would decide it: White's only moves are its knight's,
 * to g6 or to f5, each a face-down tile of Black's. A search of the truth avoids the one that
 * is a mine, so it plays differently in the two layouts; the computer player, searching
 * samples of what White knows, makes the same choice in both. */
static void test_ultra_ai_choice_reads_no_hidden_mine(void **state) {
    (void)state;
    const char *layout[2] = {
        "kr6/8/8/8/5p1N/2n2Pp1/6P1/K7 w - - 0 1 0,0 main -/-/1/1/3.3/1 8/8/6m1/5t2/8/8/8/8 -",
        "kr6/8/8/8/5p1N/2n2Pp1/6P1/K7 w - - 0 1 0,0 main -/-/1/1/3.3/1 8/8/6t1/5m2/8/8/8/8 -",
    };
    char truth_move[2][64], ai_move[2][64];
    Searcher *s = search_new(ultra, 4);
    for (int k = 0; k < 2; k++) {
        Position pos;
        board_init(&pos, ultra);
        set_fen(&pos, layout[k]);
        SearchLimits lim = {.depth = 2};
        SearchResult res;
        search_clear(s);
        assert_true(search_run(s, &pos, &lim, &res, NULL, NULL));
        notation_move(ultra, &res.best, truth_move[k], sizeof truth_move[k]);
        for (uint64_t seed = 1; seed <= 6; seed++) {
            search_clear(s);
            assert_true(search_run_hidden(s, &pos, 4, seed, &lim, &res));
            char text[64];
            notation_move(ultra, &res.best, text, sizeof text);
            if (seed == 1) snprintf(ai_move[k], sizeof ai_move[k], "%s", text);
            /* (each seed may choose otherwise, but never by the layout: checked below) */
            if (k == 1) {
                Position other;
                board_init(&other, ultra);
                set_fen(&other, layout[0]);
                SearchResult r0;
                search_clear(s);
                assert_true(search_run_hidden(s, &other, 4, seed, &lim, &r0));
                char text0[64];
                notation_move(ultra, &r0.best, text0, sizeof text0);
                assert_string_equal(text0, text);
                board_free(&other);
            }
        }
        board_free(&pos);
    }
    search_free(s);
    /* the position tells a reader of the truth apart */
    assert_string_equal(truth_move[0], "h4f5");
    assert_string_equal(truth_move[1], "h4g6");
    assert_string_equal(ai_move[0], ai_move[1]);
}

/* White's computer player against a fixed Black: the moves it chooses, as text, and before
 * each what White may know (a sample of its view with a fixed seed, as position text). */
#define AI_MOVES 24
static void ai_game(const char *fen, char moves[][64], char views[][512], int *nmoves) {
    Position pos, view;
    board_init(&pos, ultra);
    board_init(&view, ultra);
    set_fen(&pos, fen);
    Searcher *s = search_new(ultra, 4);
    /* Black: its king walks while it lifts two of its own tiles unseen (e7e5: e6 and e5) */
    const char *black[] = {"take:b", "e7e5", "pay:1>b", "pass",   "take:b", "e8e7", "pass",   "take:b", "e7e8", "pass",
                           "take:b", "e8e7", "pass",    "take:b", "e7e8",   "pass", "take:b", "e8e7",   "pass"};
    int nb = 0;
    *nmoves = 0;
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    while (*nmoves < AI_MOVES && !r.over) {
        if (board_mover(&pos) == 1) {
            /* (a scripted move that is no longer legal ends the game here) */
            static MoveList ml;
            VmFault f = {0};
            movegen_legal(test_gen(), &pos, &ml, &f);
            int found[2];
            if (nb >= (int)ARRAY_LEN(black) || notation_parse(&pos, &ml, black[nb], found, 2) != 1) break;
            nb++;
            assert_true(board_make(&pos, &ml.moves[found[0]]));
        } else {
            view_sample(&pos, 0, 1, &view);
            fen_write(&view, views[*nmoves], 512);
            SearchLimits lim = {.depth = 2};
            SearchResult res;
            assert_true(search_run_hidden(s, &pos, 4, 7 + (uint64_t)pos.ply, &lim, &res));
            notation_move(ultra, &res.best, moves[*nmoves], 64);
            assert_true(board_make(&pos, &res.best));
            (*nmoves)++;
        }
        gameend_check(test_gen(), &pos, &r);
    }
    search_free(s);
    board_free(&view);
    board_free(&pos);
}

static void test_ultra_ai_moves_do_not_depend_on_hidden_mines(void **state) {
    (void)state;
    static char m1[AI_MOVES][64], m2[AI_MOVES][64], v1[AI_MOVES][512], v2[AI_MOVES][512];
    int n1, n2;
    ai_game(AFTER_SETUP, m1, v1, &n1);
    ai_game(AFTER_SETUP_2, m2, v2, &n2);
    /* as long as White has seen the same things, it makes the same choices (its own moves
     * may later land on a tile whose content differs: from then on it knows more) */
    int same = 0;
    for (int i = 0; i < n1 && i < n2 && !strcmp(v1[i], v2[i]); i++) {
        if (strcmp(m1[i], m2[i])) print_error("move %d: %s / %s\n", i, m1[i], m2[i]);
        assert_string_equal(m1[i], m2[i]);
        same++;
    }
    assert_true(same >= 8);
}

static void test_ultra_saved_game_keeps_the_setup_and_says_it_has_secrets(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, ultra->setup);
    const char *moves[] = {"place:c3", "place:f3", "place:b4", "place:g4", "arrange:9", "arrange:5"};
    Move played[6];
    for (int i = 0; i < 6; i++) {
        static MoveList ml;
        VmFault f = {0};
        movegen_legal(test_gen(), &pos, &ml, &f);
        int found[2];
        assert_int_equal(notation_parse(&pos, &ml, moves[i], found, 2), 1);
        played[i] = ml.moves[found[0]];
        assert_true(board_make(&pos, &played[i]));
    }
    char path[256];
    temp_template(path, sizeof path, "ultra-save");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[256];
    assert_true(
        savegame_write(path, "rules/ultra-chess.rules", ultra, ultra->setup, played, 6, NULL, NULL, err, sizeof err));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    assert_non_null(strstr(text, "# contains secrets"));
    /* read back and replayed: the same hidden set-up */
    SavedGame g;
    assert_true(savegame_read(path, &g, err, sizeof err));
    Position back;
    board_init(&back, ultra);
    Move out[16];
    assert_true(savegame_replay(&g, path, &back, out, 16, err, sizeof err));
    char f1[512], f2[512];
    fen_write(&pos, f1, sizeof f1);
    fen_write(&back, f2, sizeof f2);
    assert_string_equal(f1, f2);
    savegame_free(&g);
    remove(path);
    board_free(&back);
    board_free(&pos);
}

/* A whole game from the set-up between two computer players, each searching samples of its
 * own view; returns the number of moves, with the result in *r. */
static int ai_vs_ai(uint64_t seed, GameResult *r, char *last, size_t cap) {
    Position pos;
    board_init(&pos, ultra);
    set_fen(&pos, ultra->setup);
    Searcher *s[2] = {search_new(ultra, 4), search_new(ultra, 4)};
    int plies = 0;
    gameend_check(test_gen(), &pos, r);
    while (!r->over && plies < 3000) {
        int side = board_mover(&pos);
        SearchLimits lim = {.depth = 2};
        SearchResult res;
        assert_true(search_run_hidden(s[side], &pos, 2, seed + (uint64_t)pos.ply, &lim, &res));
        assert_true(board_make(&pos, &res.best));
        plies++;
        gameend_check(test_gen(), &pos, r);
    }
    fen_write(&pos, last, cap);
    search_free(s[0]);
    search_free(s[1]);
    board_free(&pos);
    return plies;
}

static void test_ultra_seeded_ai_game_reaches_a_result(void **state) {
    (void)state;
    GameResult r1, r2;
    char f1[512], f2[512];
    int n1 = ai_vs_ai(11, &r1, f1, sizeof f1);
    assert_true(r1.over);
    assert_non_null(r1.reason);
    /* the same seed, the same game (not again under valgrind: the same code as the first) */
    if (test_under_valgrind()) return;
    int n2 = ai_vs_ai(11, &r2, f2, sizeof f2);
    assert_int_equal(n1, n2);
    assert_int_equal(r1.winner, r2.winner);
    assert_string_equal(r1.reason, r2.reason);
    assert_string_equal(f1, f2);
}

/* The attack-count condition in a movement program (the general form of the bonus moves). */
static void test_ultra_attackers_condition_in_programs(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white black\nboard 4x4\n"
                              "piece King { letter K royal step compass }\n"
                              "piece Man { letter M step ne nw capture-only }\n"
                              "piece Hunter { letter H move { step n verify enemy verify attackers at-least 2 add } }\n"
                              "setup \"3k/1m2/MHM1/3K w\"\n");
    Position pos;
    board_init(&pos, v);
    static MoveList ml;
    VmFault f = {0};
    int b2 = variant_cell_by_name(v, "b2");
    /* two men attack b3 (the hunter's own move does not count itself): it may take */
    set_fen(&pos, "3k/1m2/MHM1/3K w");
    movegen_legal(test_gen(), &pos, &ml, &f);
    int n = 0;
    for (int i = 0; i < ml.count; i++) n += ml.moves[i].from == b2;
    assert_int_equal(n, 1);
    /* one: it may not */
    set_fen(&pos, "3k/1m2/MH2/3K w");
    movegen_legal(test_gen(), &pos, &ml, &f);
    n = 0;
    for (int i = 0; i < ml.count; i++) n += ml.moves[i].from == b2;
    assert_int_equal(n, 0);
    assert_false(f.set);
    board_free(&pos);
    variant_free(v);
}

/* The fast generator (rays) and the general one (every program in the VM) agree. */
static void test_ultra_fast_and_general_paths_agree(void **state) {
    (void)state;
    static const char *const fens[] = {
        AFTER_SETUP,
        "7k/8/2Q5/3n4/2P1PN2/8/8/3RK3 w - - 0 1 12,0 bonus1 -/-/1/1/1.3.5/9.9 8/8/8/8/8/8/8/8 -",
        ("r3k2r/ppp2ppp/2n5/3pp3/3PP3/2N5/PPP2PPP/R3K2R w KQkq - 0 1 6,6 bonus1 -/-/9.5/9.5/1.3.3.5/1.1.3 "
         "8/8/tt1ttmtt/tmt2tmt/TMT2TMT/TT1TTMTT/8/8 -"),
    };
    Position pos;
    board_init(&pos, ultra);
    for (size_t i = 0; i < ARRAY_LEN(fens); i++) {
        set_fen(&pos, fens[i]);
        VmFault f = {0};
        uint64_t fast = perft(test_gen(), &pos, 4, &f);
        test_gen()->fast = false;
        uint64_t general = perft(test_gen(), &pos, 4, &f);
        test_gen()->fast = true;
        assert_false(f.set);
        assert_int_equal(fast, general);
    }
    board_free(&pos);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ultra_turn_is_draw_bonus_normal_pay_bonus_pass),
        cmocka_unit_test(test_ultra_king_moves_and_castling_are_free),
        cmocka_unit_test(test_ultra_perft_counts_every_action),
        cmocka_unit_test(test_ultra_ceasefire_when_both_decks_are_empty),
        cmocka_unit_test(test_ultra_out_of_ammo_without_cards),
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
        cmocka_unit_test(test_ultra_setup_mines_decks_and_draft),
        cmocka_unit_test(test_ultra_random_setup_is_uniform_over_layouts),
        cmocka_unit_test(test_ultra_enemy_mine_destroys_without_capture),
        cmocka_unit_test(test_ultra_exposed_king_may_be_captured),
        cmocka_unit_test(test_ultra_king_checked_this_turn_is_not_taken),
        cmocka_unit_test(test_ultra_samples_ignore_the_opponents_secrets),
        cmocka_unit_test(test_ultra_samples_ignore_the_opponents_deck_order),
        cmocka_unit_test(test_ultra_ai_choice_reads_no_hidden_mine),
        cmocka_unit_test(test_ultra_ai_moves_do_not_depend_on_hidden_mines),
        cmocka_unit_test(test_ultra_saved_game_keeps_the_setup_and_says_it_has_secrets),
        cmocka_unit_test(test_ultra_seeded_ai_game_reaches_a_result),
        cmocka_unit_test(test_ultra_attackers_condition_in_programs),
        cmocka_unit_test(test_ultra_fast_and_general_paths_agree),
    };
    return cmocka_run_group_tests_name("variant_ultra", tests, setup, teardown);
}
