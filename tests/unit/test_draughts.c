/* test_draughts.c - the draughts games (rules/checkers, international, brazilian, russian):
 * capture chains as one move, the majority rule, promotion in the middle of a chain, merged
 * duplicates, flying kings that must land where they go on, PDN position text, and moves typed
 * along their cells. Positions are PDN text; the expected moves were worked out by hand and
 * agree with the independent generator tests/oracle/draughts.py. */
#include "support.h"
#include "board.h"
#include "perft.h"

static Variant *checkers, *international, *brazilian, *russian;

static int setup(void **state) {
    (void)state;
    DiagSink sink;
    diag_init(&sink);
    checkers = load_file("rules/checkers.rules", NULL, 0, &sink);
    international = load_file("rules/international.rules", NULL, 0, &sink);
    brazilian = load_file("rules/brazilian.rules", NULL, 0, &sink);
    russian = load_file("rules/russian.rules", NULL, 0, &sink);
    diag_free(&sink);
    return checkers && international && brazilian && russian ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    variant_free(checkers);
    variant_free(international);
    variant_free(brazilian);
    variant_free(russian);
    return 0;
}

/* How many legal moves of fen the typed text names; the first one's text into first. */
static int typed(const Variant *v, const char *fen, const char *text, char *first, size_t cap) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    MoveList *ml = malloc(sizeof *ml);
    VmFault fault = {0};
    assert_true(movegen_legal(test_gen(), &pos, ml, &fault));
    int found[MAX_MOVES];
    int n = notation_parse(&pos, ml, text, found, MAX_MOVES);
    if (first) {
        first[0] = 0;
        if (n > 0) notation_move(v, &ml->moves[found[0]], first, cap);
    }
    free(ml);
    board_free(&pos);
    return n;
}

/* Typed text names exactly the move written want. */
static void expect_typed(const Variant *v, const char *fen, const char *text, const char *want) {
    char got[128];
    int n = typed(v, fen, text, got, sizeof got);
    if (n != 1 || strcmp(got, want))
        print_error("%s: '%s' names %d moves (%s), expected %s\n", fen, text, n, got, want);
    assert_int_equal(n, 1);
    assert_string_equal(got, want);
}

/* The position text after the move typed as move (which must name one move). */
static void expect_after(const Variant *v, const char *fen, const char *move, const char *want) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    MoveList *ml = malloc(sizeof *ml);
    VmFault fault = {0};
    assert_true(movegen_legal(test_gen(), &pos, ml, &fault));
    int found[4];
    assert_int_equal(notation_parse(&pos, ml, move, found, 4), 1);
    assert_true(board_make(&pos, &ml->moves[found[0]]));
    char out[512];
    fen_write(&pos, out, sizeof out);
    if (strcmp(out, want)) print_error("%s after %s: %s, expected %s\n", fen, move, out, want);
    assert_string_equal(out, want);
    free(ml);
    board_free(&pos);
}

/* A king taking nine men set in a square, three by three: it may stop after 1, 3, 4, 5 or 6
 * jumps where no jump goes on, or take seven round the square, coming back over cells it has
 * landed on. English checkers keeps every path (no move is merged). */
static const char *const NINE = "W:WK27:B6,7,8,14,15,16,22,23,24";

static void test_draughts_king_chain_of_seven(void **state) {
    (void)state;
    expect_legal_moves(checkers, NINE,
                       "27x20x11x4 27x20x11x2x9x18x11x4 27x20x11x2x9x18x27 27x20x11x2x9x18x25 "
                       "27x20x11x18x9x2x11x4 27x20x11x18x27 27x20x11x18x25 27x18x11x4 27x18x11x2x9x18x25 "
                       "27x18x11x20x27 27x18x9x2x11x4 27x18x9x2x11x20x27 27x18x9x2x11x18x25 27x18x25");
    /* each seven-jump chain takes all but the two men a king coming back to 27 would need */
    expect_after(checkers, NINE, "27x20x11x2x9x18x11x4", "B:WK4:B22,23");
    expect_after(checkers, NINE, "27x20x11x18x9x2x11x4", "B:WK4:B22,23");
    /* back where it started, having taken six */
    expect_after(checkers, NINE, "27x18x9x2x11x20x27", "B:WK27:B8,15,22");
    assert_int_equal(perft_of(checkers, NINE, 4), 2628);
}

/* International: of the captures, only those taking the most pieces. The man on 33 could take
 * 28 alone (33x22); the three ways of taking two are the moves, and the king on 46, which
 * could take 41, takes nothing. */
static void test_draughts_majority_rule(void **state) {
    (void)state;
    expect_legal_moves(international, "W:W32,33:B28,19,29", "32x23x14 32x23x34 33x24x13");
    expect_legal_moves(international, "W:W32,33,K46:B28,19,29,41", "32x23x14 32x23x34 33x24x13");
    /* Russian has no majority rule: every chain, each carried to its end */
    expect_legal_moves(russian, "W:W22,23:B18,11,19", "22x15x8 22x15x24 23x14 23x16x7");
    /* Brazilian is the international rule on 8x8 */
    expect_legal_moves(brazilian, "W:W22,23:B18,11,19", "22x15x8 22x15x24 23x16x7");
}

/* Russian: a man reaching the far row in a capture is crowned at once and goes on as a king:
 * from 2 it flies over 6 to 9 or 13 (a man could land on 9 only). */
static void test_draughts_russian_crowned_mid_chain(void **state) {
    (void)state;
    expect_legal_moves(russian, "W:W11:B7,6", "11x2x9 11x2x13");
    expect_after(russian, "W:W11:B7,6", "11x2x13", "B:WK13:B");
    expect_after(russian, "W:W11:B7,6", "11x2x9", "B:WK9:B");
    /* crowned with nothing left to take: the move ends there, a king */
    expect_legal_moves(russian, "W:W10:B7", "10x3");
    expect_after(russian, "W:W10:B7", "10x3", "B:WK3:B");
}

/* International and Brazilian: a man that passes the far row in a capture stays a man; only a
 * move that ends there crowns. */
static void test_draughts_passing_the_far_row(void **state) {
    (void)state;
    expect_legal_moves(international, "W:W13:B8,7", "13x2x11");
    expect_after(international, "W:W13:B8,7", "13x2x11", "B:W11:B");
    expect_legal_moves(brazilian, "W:W11:B7,6", "11x2x9");
    expect_after(brazilian, "W:W11:B7,6", "11x2x9", "B:W9:B");
    /* ending on the far row crowns */
    expect_after(international, "W:W12:B7", "12x1", "B:WK1:B");
}

/* Four men round a square: the capturing piece can go round it either way. International
 * (merge-duplicates) counts the two ways as one move; English checkers keeps both, as its
 * published perft does. */
static void test_draughts_duplicates(void **state) {
    (void)state;
    const char *loop10 = "W:W22:B27,28,37,38";
    assert_int_equal(perft_of(international, loop10, 1), 1);
    expect_after(international, loop10, "22x22", "B:W22:B");
    assert_int_equal(perft_of(russian, "W:W10:B14,15,22,23", 1), 1);
    assert_int_equal(perft_of(brazilian, "W:W10:B14,15,22,23", 1), 1);
    expect_legal_moves(checkers, "W:WK10:B14,15,22,23", "10x17x26x19x10 10x19x26x17x10");
}

/* A flying king that takes a piece lands where it can go on taking when it can (Russian): over
 * 22 it may land on 18, 15, 11, 8 or 4, but only from 15 does it take again. */
static void test_draughts_flying_king_lands_to_go_on(void **state) {
    (void)state;
    expect_legal_moves(russian, "W:WK29:B22,19", "29x15x24 29x15x28");
    expect_legal_moves(brazilian, "W:WK29:B22,19", "29x15x24 29x15x28");
    /* with nothing to take after, any landing beyond */
    expect_legal_moves(russian, "W:WK29:B22", "29x18 29x15 29x11 29x8 29x4");
    /* a piece taken stays until the move ends: it blocks, and is not taken twice */
    expect_legal_moves(international, "W:WK19:B14,28", "19x5 19x10 19x32 19x37 19x41 19x46");
}

static void roundtrip(const Variant *v, const char *in, const char *out) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, in);
    char buf[1024];
    fen_write(&pos, buf, sizeof buf);
    assert_string_equal(buf, out);
    set_fen(&pos, buf); /* what is written reads back the same */
    char again[1024];
    fen_write(&pos, again, sizeof again);
    assert_string_equal(again, out);
    board_free(&pos);
}

static void test_draughts_pdn_read_and_written(void **state) {
    (void)state;
    roundtrip(checkers, "B:W21-32:B1-12", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    roundtrip(international, "W:W31-35,K50:BK1,2-3", "W:W31,32,33,34,35,K50:BK1,2,3");
    /* the letter of a type counts for its one square only */
    roundtrip(russian, "B:WK3,9,25:B2,4", "B:WK3,9,25:B2,4");
    /* either case, white space, a final '.', the players in any order, a side with no piece */
    roundtrip(checkers, " w : b 1 , k2 : w 21 - 22 . ", "W:W21,22:B1,K2");
    roundtrip(checkers, "W:W:B5,9", "W:W:B5,9");
    roundtrip(checkers, "B", "B:W:B");
    /* the start position as the setup says, written out */
    Position pos;
    board_init(&pos, international);
    set_fen(&pos, international->setup);
    char buf[512];
    fen_write(&pos, buf, sizeof buf);
    assert_string_equal(buf,
                        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                        "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
    board_free(&pos);
}

/* Bad position text is refused with the message, and the position is left as it was. */
static void expect_refused(const Variant *v, const char *fen, const char *message) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "W:W21:B1");
    uint64_t key = pos.key;
    char err[300] = "";
    assert_false(fen_read(&pos, fen, err, sizeof err));
    if (strcmp(err, message)) print_error("'%s': message '%s', expected '%s'\n", fen, err, message);
    assert_string_equal(err, message);
    assert_int_equal(pos.key, key);
    char out[128];
    fen_write(&pos, out, sizeof out);
    assert_string_equal(out, "W:W21:B1");
    board_free(&pos);
}

static void test_draughts_pdn_bad_input(void **state) {
    (void)state;
    expect_refused(checkers, "", "empty position");
    expect_refused(checkers, " . ", "empty position");
    expect_refused(checkers, "X:W1", "'X' is not the side to move (expected a player's letter, as in W:W21,22:B1,2)");
    expect_refused(checkers, "WB:W1", "'WB' is not the side to move (expected a player's letter, as in W:W21,22:B1,2)");
    expect_refused(checkers, "W:W1:B2:W3", "too many parts (expected the side to move and two players' pieces)");
    expect_refused(checkers, "W::B1", "an empty part (expected a player's letter and squares)");
    expect_refused(checkers, "W:X1", "'X' names no player (expected a player's letter)");
    expect_refused(checkers, "W:WQ1", "'Q' is no piece's letter");
    expect_refused(checkers, "W:W,1", "expected a square number at ',1'");
    expect_refused(checkers, "W:W1-", "expected a square number after '-'");
    expect_refused(checkers, "W:W5-3", "the range 5-3 runs backwards");
    expect_refused(checkers, "W:W33", "no square 33 (the board has 32)");
    expect_refused(international, "W:W0", "no square 0 (the board has 50)");
    expect_refused(checkers, "W:W1,1", "square 1 is given twice");
    expect_refused(checkers, "W:W1-4:B3", "square 3 is given twice");
    expect_refused(checkers, "W:W1;2", "unexpected ';' after square 1");
    char long_text[5000];
    memset(long_text, ' ', sizeof long_text);
    memcpy(long_text, "W:W1", 4);
    long_text[4097] = 0;
    expect_refused(checkers, long_text, "position text too long (limit is 4096 characters)");
}

/* A refusal quotes the text as it was written: chess position text given to a draughts game
 * is shown as typed (once it was quoted with its white space taken out,
 * '4k3/8/8/8/8/8/8/4K3w--01', which reads as a different text). */
static void test_draughts_pdn_message_quotes_the_text(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, checkers);
    char err[300] = "";
    assert_false(fen_read(&pos, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", err, sizeof err));
    board_free(&pos);
    if (!strstr(err, "4K3 w")) {
        print_message("(fen.c, pdn_read): the message quotes the position without its white space: %s\n", err);
        fail();
    }
}

/* A move along its cells is typed whole, by its ends when they name one move, or begun when
 * only one move begins so; several moves named is ambiguous. */
static void test_draughts_typed_moves(void **state) {
    (void)state;
    char first[128];
    /* 22x13x6 and 22x15 */
    const char *two = "W:W22:B17,9,18";
    expect_typed(checkers, two, "22x13x6", "22x13x6");
    expect_typed(checkers, two, "22x6", "22x13x6");
    expect_typed(checkers, two, "22x13", "22x13x6");
    expect_typed(checkers, two, "22-13-6", "22x13x6");
    expect_typed(checkers, two, "22x15", "22x15");
    assert_int_equal(typed(checkers, two, "22x14", first, sizeof first), 0);
    assert_int_equal(typed(checkers, two, "22", first, sizeof first), 0);
    assert_int_equal(typed(checkers, two, "13x6", first, sizeof first), 0);
    /* the king's chains of NINE */
    expect_typed(checkers, NINE, "27x20x11x2x9x18x11x4", "27x20x11x2x9x18x11x4");
    expect_typed(checkers, NINE, "27x20x11x2x9x18x11", "27x20x11x2x9x18x11x4"); /* begun */
    expect_typed(checkers, NINE, "27x9x18x4", "27x20x11x2x9x18x11x4");          /* ends and pauses */
    expect_typed(checkers, NINE, "27x18x25", "27x18x25");                       /* whole, though longer ones pass 18 */
    expect_typed(checkers, NINE, "27 x 18 x 25", "27x18x25");
    assert_int_equal(typed(checkers, NINE, "27x4", first, sizeof first), 5);
    assert_int_equal(typed(checkers, NINE, "27x2x4", first, sizeof first), 3);
    assert_int_equal(typed(checkers, NINE, "27x20x11x2", first, sizeof first), 3); /* ambiguous prefix */
    assert_int_equal(typed(checkers, NINE, "27x18", first, sizeof first), 7);
    assert_int_equal(typed(checkers, NINE, "27x20x4x11", first, sizeof first), 0);
    /* a quiet move */
    expect_typed(checkers, "B:W21-32:B1-12", "11-15", "11-15");
    expect_typed(checkers, "B:W21-32:B1-12", "11x15", "11-15");
    assert_int_equal(typed(checkers, "B:W21-32:B1-12", "11-14", first, sizeof first), 0);
    /* a flying king's capture, by its ends */
    expect_typed(russian, "W:WK29:B22,19", "29x24", "29x15x24");
}

/* A whole path typed with other separators than the written ones ("27-18-25", "27X18X25") is
 * the same whole path as "27x18x25": the whole path is preferred to the longer chains through
 * 18 that end on 25. */
static void test_draughts_typed_whole_path_other_separators(void **state) {
    (void)state;
    char first[128];
    int dashes = typed(checkers, NINE, "27-18-25", first, sizeof first);
    int capital = typed(checkers, NINE, "27X18X25", first, sizeof first);
    if (dashes != 1 || capital != 1) {
        print_message("(notation_parse): in %s the whole path 27x18x25 typed as '27-18-25' names %d "
                      "moves and as '27X18X25' %d, expected 1\n",
                      NINE, dashes, capital);
        fail();
    }
    expect_typed(checkers, NINE, "27-18-25", "27x18x25");
    expect_typed(checkers, NINE, "27X18X25", "27x18x25");
}

/* After merging, the one move stands for both ways round; either way typed whole (as a game
 * record from other software may write it) or begun names it, though its text is the way
 * found first. */
static void test_draughts_merged_move_typed_either_way(void **state) {
    (void)state;
    const char *loop10 = "W:W22:B27,28,37,38";
    char first[128];
    int found = -1;
    for (int way = 0; way < 2; way++) {
        const char *text = way ? "22x31x42x33x22" : "22x33x42x31x22";
        int n = typed(international, loop10, text, first, sizeof first);
        if (n != 1) {
            print_message("(notation_parse with merge-duplicates): in international %s the capture round "
                          "the square typed '%s' names %d moves, expected 1 (the merged move %s)\n",
                          loop10, text, n, first[0] ? first : "22x33x42x31x22");
            found = way;
        }
        int begun = typed(international, loop10, way ? "22x31" : "22x33", first, sizeof first);
        if (begun != 1) {
            print_message("(notation_parse with merge-duplicates): in international %s '%s' names %d "
                          "moves, expected 1\n",
                          loop10, way ? "22x31" : "22x33", begun);
            found = way;
        }
    }
    if (found >= 0) fail();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_draughts_king_chain_of_seven),
        cmocka_unit_test(test_draughts_majority_rule),
        cmocka_unit_test(test_draughts_russian_crowned_mid_chain),
        cmocka_unit_test(test_draughts_passing_the_far_row),
        cmocka_unit_test(test_draughts_duplicates),
        cmocka_unit_test(test_draughts_flying_king_lands_to_go_on),
        cmocka_unit_test(test_draughts_pdn_read_and_written),
        cmocka_unit_test(test_draughts_pdn_bad_input),
        cmocka_unit_test(test_draughts_pdn_message_quotes_the_text),
        cmocka_unit_test(test_draughts_typed_moves),
        cmocka_unit_test(test_draughts_typed_whole_path_other_separators),
        cmocka_unit_test(test_draughts_merged_move_typed_either_way),
    };
    return cmocka_run_group_tests_name("draughts", tests, setup, teardown);
}
