/* test_variant_ab.c - rules/above-below.rules: the start and its allegiance, every diagram of
 * the source (who may move which piece, which copy is possible, which king move is legal, the
 * final checkmate), promotion and its notation, the own King that may not be taken, draws
 * (bare Kings, 50 actions, stalemate, repetition). */
#include "gameend.h"
#include "perft.h"
#include "support.h"

#define RULES "rules/above-below.rules"

static Variant *load_with(const char *name, const char *value) {
    DiagSink sink;
    diag_init(&sink);
    OptionSetting opt = {name, value};
    Variant *v = load_file(RULES, &opt, name ? 1 : 0, &sink);
    diag_free(&sink);
    assert_non_null(v);
    return v;
}

/* The diagrams as position text (boards Above|Middle|Below; White ':3', Black ':4'). The
 * diagrams of the source write White in lower case and Black in upper case; here each piece
 * is where the diagram puts it. Diagrams 1-6 show no Kings: two are added. */
static const char *const diagram[11] = {
    NULL,
    /* 1: bN d3; Above Prince d3, Below d3 empty */
    "4/4/I1I1/1C2/1I1I/4/4|:4k3/4/4/4/3:4n/4/1:3k2|4/4/3i/3i/ici1/4/4 A 0 1 w,b",
    /* 2: Below Prince d3 */
    "4/4/I1I1/1C2/1I1I/4/4|:4k3/4/4/4/3:4n/4/1:3k2|4/4/3i/3i/ic1i/4/4 A 0 1 w,b",
    /* 3: Below Commander d3 */
    "4/4/I1I1/1C2/1I1I/4/4|:4k3/4/4/4/3:4n/4/1:3k2|4/4/3i/3i/i1ic/4/4 A 0 1 w,b",
    /* 4: Above Commander d3 against Below Commander d3 */
    "4/4/I1I1/1I2/1I1C/4/4|:4k3/4/4/4/3:4n/4/1:3k2|4/4/3i/3i/i1ic/4/4 A 0 1 w,b",
    /* 5: bR d3, Above Prince d3, Above d4-d7 empty */
    "4/4/4/4/3I/4/IIIC|2:4k1/4/4/4/3:4r/4/1:3k2|4/2c1/3i/3i/i1i1/4/4 A 0 1 w,b",
    /* 6: as 5 with an Above Prince on d5 */
    "4/4/3I/4/3I/4/4|2:4k1/4/4/4/3:4r/4/1:3k2|4/2c1/3i/3i/i1i1/4/4 A 0 1 w,b",
    /* 7: wK c7, Below Prince c7; bR d5 with d5 empty above and below; Below helps White */
    "4/4/1I2/3I/1I1C/4/4|2:3k1/4/3:4r/4/4/1:4k2/4|2i1/4/4/4/1iii/4/2c1 B 0 1 b,w",
    /* 8: bQ c3 (Above Prince, Below Prince), wK c2, Below Prince c6; Above helps White */
    "4/4/1I2/4/1IIC/4/I3|:4k3/4/4/4/2:4q1/2:3k1/4|4/2i1/4/4/i1ic/4/i3 A 0 1 w,b",
    /* 9: as 8 with the Above Commander on c3 */
    "4/4/1I2/4/1ICI/4/I3|:4k3/4/4/4/2:4q1/2:3k1/4|4/2i1/4/4/i1ic/4/i3 A 0 1 w,b",
    /* 10: wK d7, wP a6 b6 c6, bR d3 (Above Commander, Below Prince), Below Commander c6 */
    "4/4/1I1I/4/1I1C/4/I3|3:3k/:3p:3p:3p1/4/4/3:4r/1:4k2/4|4/2c1/4/4/i1ii/4/1i2 B 0 1 b,w",
};

/* The legal moves starting on the Middle cell `from`, in the console's notation, sorted. */
static void middle_moves(Position *pos, const char *from, char *out, size_t cap) {
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), pos, &ml, &f);
    static char names[MAX_MOVES][24];
    int n = 0;
    char cell[16];
    snprintf(cell, sizeof cell, "M:%s", from);
    int c = variant_cell_by_name(pos->v, cell);
    assert_true(c >= 0);
    for (int i = 0; i < ml.count; i++)
        if (ml.moves[i].from == c) notation_move(pos->v, &ml.moves[i], names[n++], sizeof names[0]);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i) strncat(out, ";", cap - strlen(out) - 1);
        strncat(out, names[i], cap - strlen(out) - 1);
    }
}

static void expect_middle(Position *pos, const char *from, const char *want) {
    char got[4096];
    middle_moves(pos, from, got, sizeof got);
    if (strcmp(got, want)) print_error("from %s: '%s'\nwant      '%s'\n", from, got, want);
    assert_string_equal(got, want);
}

static bool has_move(Position *pos, const char *text) {
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), pos, &ml, &f);
    int found[4];
    return notation_parse(pos, &ml, text, found, 4) == 1;
}

static int legal_count(Position *pos) {
    VmFault f = {0};
    return movegen_count_legal(test_gen(), pos, &f);
}

static void test_ab_start_and_allegiance(void **state) {
    (void)state;
    Variant *v = load_with("allegiance", "above-white");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    assert_int_equal(v->ncells, 84);
    /* only own-board moves: Princes 4 + 7 + 7 + 5, Commander 8 */
    assert_int_equal(legal_count(&pos), 31);
    VmFault f = {0};
    assert_int_equal(perft(test_gen(), &pos, 2, &f), 961);
    assert_int_equal(perft(test_gen(), &pos, 3, &f), 29818);
    char text[512];
    fen_write(&pos, text, sizeof text);
    assert_non_null(strstr(text, " A 0 1 w,b"));
    /* the allegiance is part of the position: another one is another key */
    uint64_t key = pos.key;
    set_fen(&pos,
            "4/4/I1I1/1C2/1I1I/4/4|:4r:4k:4q:4n/:4p:4p:4p:4p/4/4/4/:3p:3p:3p:3p/:3n:3q:3k:3r|4/4/1i1i/2c1/i1i1/4/4 A 0 "
            "1 b,w");
    assert_int_not_equal(pos.key, key);
    assert_int_equal(pos.allegiance[0], 3);
    assert_int_equal(pos.allegiance[1], 2);
    board_free(&pos);
    variant_free(v);

    /* above-black fixes it the other way; random deals it by the seed, both ways happen */
    v = load_with("allegiance", "above-black");
    char start[512];
    fen_start(v, 1, start, sizeof start);
    assert_non_null(strstr(start, " b,w"));
    variant_free(v);
    v = load_with(NULL, NULL);
    bool seen_wb = false, seen_bw = false;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        fen_start(v, seed, start, sizeof start);
        seen_wb = seen_wb || strstr(start, " w,b");
        seen_bw = seen_bw || strstr(start, " b,w");
    }
    assert_true(seen_wb && seen_bw);
    char again[512];
    fen_start(v, 5, start, sizeof start);
    fen_start(v, 5, again, sizeof again);
    assert_string_equal(start, again);
    variant_free(v);
}

static void test_ab_commander_exactly_two(void **state) {
    (void)state;
    Variant *v = load_with("commander", "exactly-two");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    /* the Commander b4 reaches b6, d4, d2 only */
    assert_int_equal(legal_count(&pos), 23 + 3);
    board_free(&pos);
    variant_free(v);
}

/* Diagrams 1-4: who may move the knight on d3. */
static void test_ab_influence_diagrams_1_to_4(void **state) {
    (void)state;
    Variant *v = load_with(NULL, NULL);
    Position pos;
    board_init(&pos, v);
    /* 1: 1/0, Above may move it; the Prince copies the knight's jump where it lands empty */
    set_fen(&pos, diagram[1]);
    expect_middle(&pos, "d3", "M d3-b2;M d3-b2 +;M d3-b4;M d3-c1;M d3-c1 +;M d3-c5");
    /* 2: 1/1, still */
    set_fen(&pos, diagram[2]);
    expect_middle(&pos, "d3", "M d3-b2;M d3-b2 +;M d3-b4;M d3-c1;M d3-c1 +;M d3-c5");
    /* 3: 1/2, the stronger Below Commander forbids it */
    set_fen(&pos, diagram[3]);
    expect_middle(&pos, "d3", "");
    /* ... and Below, to move, may */
    set_fen(&pos, "4/4/I1I1/1C2/1I1I/4/4|:4k3/4/4/4/3:4n/4/1:3k2|4/4/3i/3i/i1ic/4/4 B 0 1 w,b");
    expect_middle(&pos, "d3", "M d3-b2;M d3-b2 +;M d3-b4;M d3-b4 +;M d3-c1;M d3-c1 +;M d3-c5;M d3-c5 +");
    /* 4: 2/2, Above may, and so may Below */
    set_fen(&pos, diagram[4]);
    expect_middle(&pos, "d3", "M d3-b2;M d3-b2 +;M d3-b4;M d3-c1;M d3-c1 +;M d3-c5");
    set_fen(&pos, "4/4/I1I1/1I2/1I1C/4/4|:4k3/4/4/4/3:4n/4/1:3k2|4/4/3i/3i/i1ic/4/4 B 0 1 w,b");
    assert_true(has_move(&pos, "M d3-c5"));
    /* nobody moves a piece with both squares empty: the Kings here */
    expect_middle(&pos, "a7", "");
    expect_middle(&pos, "b1", "");
    board_free(&pos);
    variant_free(v);
}

/* Diagrams 5-6: the copy (a Prince copies a four-square slide; a blocked path forbids it). */
static void test_ab_copy_diagrams_5_and_6(void **state) {
    (void)state;
    Variant *v = load_with(NULL, NULL);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, diagram[5]);
    assert_true(has_move(&pos, "M d3-d7"));
    assert_true(has_move(&pos, "M d3-d7 +"));
    MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    int found[2];
    assert_int_equal(notation_parse(&pos, &ml, "M d3-d7 +", found, 2), 1);
    const Move *m = &ml.moves[found[0]];
    assert_true(m->flags & MOVE_COPY);
    assert_true(board_make(&pos, m));
    /* the rook and the Prince both went d3 -> d7, each on its board */
    assert_int_not_equal(pos.cell[variant_cell_by_name(v, "M:d7")], 0);
    assert_int_not_equal(pos.cell[variant_cell_by_name(v, "A:d7")], 0);
    assert_int_equal(pos.cell[variant_cell_by_name(v, "A:d3")], 0);
    board_unmake(&pos);
    assert_true(board_is_ok(&pos));
    /* 6: the Prince on d5 blocks copies that pass it; the rook's moves stay */
    set_fen(&pos, diagram[6]);
    expect_middle(&pos, "d3",
                  "M d3-a3;M d3-a3 +;M d3-b3;M d3-b3 +;M d3-c3;M d3-c3 +;M d3-d1;M d3-d1 +;M d3-d2;"
                  "M d3-d2 +;M d3-d4;M d3-d4 +;M d3-d5;M d3-d6;M d3-d7");
    /* a copy asked for that cannot be made is no move at all (never the move without it) */
    assert_false(has_move(&pos, "M d3-d7 +"));
    assert_false(has_move(&pos, "M d3-d7+"));
    assert_true(has_move(&pos, "m d3d7"));
    /* only the piece that gives the influence copies: a Prince of Below's standing on the
     * Above board as well (a position no game reaches) adds no second copy of the same move */
    set_fen(&pos, "4/4/4/4/4/1i2/4|:4k3/4/4/4/4/1:4p2/3:3k|4/4/4/4/4/1i2/4 B 0 1 w,b");
    expect_middle(&pos, "b2",
                  "M b2-b1=B;M b2-b1=B +;M b2-b1=N;M b2-b1=N +;M b2-b1=Q;M b2-b1=Q +;M b2-b1=R;M b2-b1=R +");
    board_free(&pos);
    variant_free(v);
}

/* Diagram 7: an attacker the opponent cannot influence gives no check. */
static void test_ab_king_move_diagram_7(void **state) {
    (void)state;
    Variant *v = load_with(NULL, NULL);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, diagram[7]);
    assert_true(has_move(&pos, "M c7-d7"));
    assert_true(has_move(&pos, "M c7-d7 +"));
    /* with an Above Prince on d5 the rook could take the King on d7: the move is illegal */
    set_fen(&pos, "4/4/1I1I/3I/1I1C/4/4|2:3k1/4/3:4r/4/4/1:4k2/4|2i1/4/4/4/1iii/4/2c1 B 0 1 b,w");
    assert_false(has_move(&pos, "M c7-d7"));
    assert_false(has_move(&pos, "M c7-d7 +"));
    assert_true(has_move(&pos, "M c7-b7"));
    board_free(&pos);
    variant_free(v);
}

/* Diagrams 8-9: check through the opponent's influence after the move, and the copy that
 * takes it away. */
static void test_ab_check_by_influence_diagrams_8_and_9(void **state) {
    (void)state;
    Variant *v = load_with(NULL, NULL);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, diagram[8]);
    /* the queen on c3 (1/1) checks the White King already: Below may move it */
    assert_true(attack_in_check(test_gen(), &pos, 0));
    assert_false(has_move(&pos, "M c3-c6"));
    assert_false(has_move(&pos, "M c3-c6 +"));
    assert_true(has_move(&pos, "M c3-c7"));
    set_fen(&pos, diagram[9]);
    assert_false(attack_in_check(test_gen(), &pos, 0));
    assert_false(has_move(&pos, "M c3-c6"));
    assert_true(has_move(&pos, "M c3-c6 +"));
    board_free(&pos);
    variant_free(v);
}

/* Diagram 10: Below, helping White, is checkmated although c7 is free. */
static void test_ab_checkmate_diagram_10(void **state) {
    (void)state;
    Variant *v = load_with(NULL, NULL);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, diagram[10]);
    assert_true(attack_in_check(test_gen(), &pos, 1));
    assert_int_equal(legal_count(&pos), 0);
    GameResult r;
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_string_equal(r.reason, "checkmate");
    assert_int_equal(r.winner, 0);
    board_free(&pos);
    variant_free(v);
}

/* A12: a player may not take the King of the army it helps, even with a piece it steers. */
static void test_ab_own_king_not_taken(void **state) {
    (void)state;
    Variant *v = load_with(NULL, NULL);
    Position pos;
    board_init(&pos, v);
    /* Above (helping White) steers the black rook d3 toward the White King d7 */
    set_fen(&pos, "4/4/4/4/3C/4/4|3:3k/4/4/4/3:4r/4/:4k3|4/4/4/4/4/4/i3 A 0 1 w,b");
    assert_true(has_move(&pos, "M d3-d6"));
    assert_false(has_move(&pos, "M d3-d7"));
    /* helping Black, it may */
    set_fen(&pos, "4/4/4/4/3C/4/4|3:3k/4/4/4/3:4r/4/:4k3|4/4/4/4/4/4/i3 A 0 1 b,w");
    assert_true(has_move(&pos, "M d3-d7"));
    board_free(&pos);
    variant_free(v);
}

/* Promotion: Q, R, B or N of the pawn's army, written "M c6-c7=Q", with or without copy. */
static void test_ab_promotion(void **state) {
    (void)state;
    Variant *v = load_with(NULL, NULL);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4/2I1/4/4/4/4/4|4/2:3p1/4/:3k3/4/4/3:4k|4/4/4/4/4/4/i3 A 0 1 w,b");
    expect_middle(&pos, "c6",
                  "M c6-c7=B;M c6-c7=B +;M c6-c7=N;M c6-c7=N +;M c6-c7=Q;M c6-c7=Q +;M c6-c7=R;M c6-c7=R +");
    MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    int found[2];
    assert_int_equal(notation_parse(&pos, &ml, "M c6-c7=Q", found, 2), 1);
    assert_true(board_make(&pos, &ml.moves[found[0]]));
    Piece q = pos.cell[variant_cell_by_name(v, "M:c7")];
    assert_int_equal(v->types[PIECE_TYPE(q)].letter, 'Q');
    assert_int_equal(PIECE_OWNER(q), 2);
    board_free(&pos);
    variant_free(v);
}

static void test_ab_draws(void **state) {
    (void)state;
    Variant *v = load_with(NULL, NULL);
    Position pos;
    board_init(&pos, v);
    GameResult r;
    /* bare Kings on the Middle board */
    set_fen(&pos, "4/4/I1I1/1C2/1I1I/4/4|:4k3/4/4/4/4/4/3:3k|4/4/1i1i/2c1/i1i1/4/4 A 0 1 w,b");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_string_equal(r.reason, "material");
    /* 50 actions each without capture or pawn move */
    set_fen(&pos,
            "4/4/I1I1/1C2/1I1I/4/4|:4r:4k:4q:4n/:4p:4p:4p:4p/4/4/4/:3p:3p:3p:3p/:3n:3q:3k:3r|4/4/1i1i/2c1/i1i1/4/4 A "
            "100 51 w,b");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_string_equal(r.reason, "n-move rule");
    /* no action at all and not in check: Above has no piece of its own and no influence */
    set_fen(&pos, "4/4/4/4/4/4/4|:4k:4r2/4/4/4/4/4/3:3k|4/4/1i1i/2c1/i1i1/4/4 A 0 1 w,b");
    gameend_check(test_gen(), &pos, &r);
    assert_true(r.over);
    assert_string_equal(r.reason, "stalemate");
    assert_int_equal(r.winner, -1);
    /* the same three boards with the same player to move a third time */
    set_fen(&pos, diagram[1]);
    const char *shuffle[] = {"A a5-a4", "B d5-c6", "A a4-a5", "B c6-d5"};
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 4; i++) {
            static MoveList ml;
            VmFault f = {0};
            movegen_legal(test_gen(), &pos, &ml, &f);
            int found[2];
            assert_int_equal(notation_parse(&pos, &ml, shuffle[i], found, 2), 1);
            assert_true(board_make(&pos, &ml.moves[found[0]]));
            gameend_check(test_gen(), &pos, &r);
            assert_int_equal(r.over, round == 1 && i == 3);
        }
    assert_string_equal(r.reason, "repetition");
    assert_int_equal(r.winner, -1);
    board_free(&pos);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ab_start_and_allegiance),
        cmocka_unit_test(test_ab_commander_exactly_two),
        cmocka_unit_test(test_ab_influence_diagrams_1_to_4),
        cmocka_unit_test(test_ab_copy_diagrams_5_and_6),
        cmocka_unit_test(test_ab_king_move_diagram_7),
        cmocka_unit_test(test_ab_check_by_influence_diagrams_8_and_9),
        cmocka_unit_test(test_ab_checkmate_diagram_10),
        cmocka_unit_test(test_ab_own_king_not_taken),
        cmocka_unit_test(test_ab_promotion),
        cmocka_unit_test(test_ab_draws),
    };
    return cmocka_run_group_tests_name("variant_ab", tests, NULL, NULL);
}
