/* test_effects.c - what a move does beyond carrying its piece: a second piece moved by a program
 * (`from`/`to`), `gives-check` seeing all of it, castling onto another board, moves carried on
 * through a `transfer`, checks that end a turn (`kind NAME if gives-check`), en-passant cells
 * of any direction and those a turn of phases keeps for the next player. */
#include <stdio.h>

#include "perft.h"
#include "support.h"

/* chess perft 3 of r3k2r/8/8/8/8/8/8/R3K2R w KQkq */
#define CASTLES_PERFT3 13744

/* Is `move` (coordinate text) among the legal moves of fen? */
static bool has_move(const Variant *v, const char *fen, const char *move) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    char text[8192];
    legal_moves_text(&pos, text, sizeof text);
    board_free(&pos);
    char padded[8200];
    snprintf(padded, sizeof padded, " %s ", text);
    char want[64];
    snprintf(want, sizeof want, " %s ", move);
    return strstr(padded, want) != NULL;
}

/* The position text after the legal move `move` from fen. */
static void after(const Variant *v, const char *fen, const char *move, char *out, size_t cap) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    static MoveList ml;
    VmFault fault = {0};
    assert_true(movegen_legal(test_gen(), &pos, &ml, &fault));
    int i = notation_find(v, &ml, move);
    assert_true(i >= 0);
    assert_true(board_make(&pos, &ml.moves[i]));
    fen_write(&pos, out, cap);
    board_free(&pos);
}

#define CHESS_ARMY \
    "version 1\nplayers white(w) black(b)\nboard 8x8\norientation black flip\n" \
    "zone last-rank relative = rank 8\nzone pawn-start relative = rank 2\n" \
    "piece Queen { letter Q slide compass }\npiece Rook { letter R slide orth }\n" \
    "piece Bishop { letter B slide diag }\npiece Knight { letter N leap sym(1,2) }\n" \
    "piece Pawn { letter P step n move-only legs n n move-only from pawn-start sets-ep\n" \
    "  step ne nw capture-only en-passant ne nw promote in last-rank to Queen Rook Bishop Knight }\n"

/* Castling written as a program: the rook is a second piece the program chooses (`from`) and
 * moves (`to`). It gives chess's figures. */
static void test_effects_castling_as_a_second_piece(void **state) {
    (void)state;
    Variant *v = load_text_ok(
        CHESS_ARMY
        "piece King { letter K royal step compass\n"
        "  move { verify unmoved and not attacked  step e  verify empty and not attacked  step e  verify empty\n"
        "         mark  step e  verify friend and piece Rook and unmoved  from  back  step w  to  step e  add }\n"
        "  move { verify unmoved and not attacked  step w  verify empty and not attacked  step w  verify empty\n"
        "         mark  step w  verify empty  step w  verify friend and piece Rook and unmoved  from  back\n"
        "         step e  to  step w  add } }\n"
        "setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"\n");
    /* Kiwipete, and two rooks each side (chess's figures with every right) */
    assert_int_equal(perft_of(v, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1", 3), 97862);
    assert_int_equal(perft_of(v, "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", 3), CASTLES_PERFT3);
    char fen[256];
    after(v, "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "e1c1", fen, sizeof fen);
    assert_string_equal(fen, "r3k2r/8/8/8/8/8/8/2KR3R b - - 1 1");
    variant_free(v);
    /* gives-check sees the rook the program moves: a castle only when it checks */
    v = load_text_ok(CHESS_ARMY "piece King { letter K royal step compass\n"
                                "  move { step e  verify empty  step e  verify empty  mark  step e  from  back\n"
                                "         step w  to  step e  verify gives-check  add } }\n"
                                "setup \"5k2/8/8/8/8/8/8/4K2R w - - 0 1\"\n");
    assert_true(has_move(v, "5k2/8/8/8/8/8/8/4K2R w - - 0 1", "e1g1"));
    assert_false(has_move(v, "k7/8/8/8/8/8/8/4K2R w - - 0 1", "e1g1"));
    variant_free(v);
    v = load_text_ok(
        CHESS_ARMY
        "piece King { letter K royal step compass\n"
        "  move { verify unmoved and not attacked  step e  verify empty and not attacked  step e  verify empty\n"
        "         mark  step e  verify friend and piece Rook and unmoved  from  back  step w  to  step e  add }\n"
        "  move { verify unmoved and not attacked  step w  verify empty and not attacked  step w  verify empty\n"
        "         mark  step w  verify empty  step w  verify friend and piece Rook and unmoved  from  back\n"
        "         step e  to  step w  add } }\n"
        "setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"\n");
    /* a piece between: no castle; a knight on the rook's cell: no castle */
    assert_false(has_move(v, "r3k2r/8/8/8/8/8/8/R3KB1R w - - 0 1", "e1g1"));
    assert_false(has_move(v, "r3k2r/8/8/8/8/8/8/R3K2N w - - 0 1", "e1g1"));
    variant_free(v);
}

/* gives-check sees the change of type, the piece taken en passant, the second piece, and the
 * explosion. */
static void test_effects_gives_check_sees_the_whole_move(void **state) {
    (void)state;
    /* a pawn that may only become a queen with check (`change`) */
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 8x8\norientation black flip\n"
                              "piece King { letter K royal step compass }\npiece Queen { letter Q slide compass }\n"
                              "piece Pawn { letter P\n"
                              "  move { step n verify empty change Queen verify gives-check add } }\n"
                              "setup \"4k3/P7/8/8/8/8/8/K7 w - - 0 1\"\n");
    assert_true(has_move(v, "4k3/P7/8/8/8/8/8/K7 w - - 0 1", "a7a8q"));
    assert_false(has_move(v, "4k3/8/8/8/8/8/P7/K7 w - - 0 1", "a2a3q"));
    variant_free(v);
}

/* The same for a capture en passant whose victim shielded the enemy king (a discovered check
 * through the removed pawn), written as a program that takes the pawn past the cell; and the
 * en-passant atom's move, marked as a check by `kind check if gives-check`. */
static void test_effects_gives_check_sees_en_passant(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 8x8\norientation black flip\n"
                              "zone pawn-start relative = rank 2\n"
                              "piece King { letter K royal step compass }\npiece Rook { letter R slide orth }\n"
                              "piece Pawn { letter P step n move-only legs n n move-only from pawn-start sets-ep\n"
                              "  move { step ne verify ep mark step s capture back verify gives-check add }\n"
                              "  move { step nw verify ep mark step s capture back verify gives-check add } }\n"
                              "setup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n");
    /* the black pawn d5 shields h5's king from the rook on a5 */
    assert_true(has_move(v, "8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", "e5d6"));
    assert_false(has_move(v, "8/8/8/3pP2k/8/8/8/R3K3 w - d6 0 1", "e5d6"));
    variant_free(v);
    v = load_rules("rules/marseillais.rules");
    assert_true(has_move(v, "8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 2 first", "check:e5d6"));
    assert_true(has_move(v, "8/8/8/3pP2k/8/8/8/R3K3 w - d6 0 2 first", "e5d6"));
    variant_free(v);
}

/* gives-check and a piece that explodes: the explosion takes a blocker. */
static void test_effects_gives_check_sees_an_explosion(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 8x8\norientation black flip\n"
                              "piece King { letter K royal step compass move-only }\n"
                              "piece Rook { letter R slide orth }\n"
                              "piece Knight { letter N leap sym(1,2) }\n"
                              "piece Bomb { letter B explodes\n"
                              "  move { step n verify enemy verify gives-check add } }\n"
                              "setup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n");
    /* d2xd3 blows up the knight on e3 that shielded h3's king from the rook on a3; with the
     * knight on f3, out of the blast, it gives no check */
    assert_true(has_move(v, "8/8/8/8/8/R2nN2k/3B4/K7 w - - 0 1", "d2d3"));
    assert_false(has_move(v, "8/8/8/8/8/R2n1N1k/3B4/K7 w - - 0 1", "d2d3"));
    variant_free(v);
}

/* Alice chess: a move goes through to the other board, onto an empty cell only; castling
 * lands both pieces on board B; a king is in check whatever stands beyond its attacker. */
static void test_effects_alice_transfer_and_castling(void **state) {
    (void)state;
    Variant *v = load_rules("rules/alice.rules");
    const char *start = "4k3/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/8 w KQ - 0 1";
    assert_true(has_move(v, start, "A e1-B:g1"));
    assert_true(has_move(v, start, "A e1-B:c1"));
    char fen[256];
    after(v, start, "A e1-B:g1", fen, sizeof fen);
    assert_string_equal(fen, "4k3/8/8/8/8/8/8/R7|8/8/8/8/8/8/8/5RK1 b - - 1 1");
    /* B:g1 taken: no castling; B:e2 taken: the king cannot go there */
    assert_false(has_move(v, "4k3/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/8/6n1 w KQ - 0 1", "A e1-B:g1"));
    assert_false(has_move(v, "4k3/8/8/8/8/8/8/R3K2R|8/8/8/8/8/8/4n3/8 w KQ - 0 1", "A e1-B:e2"));
    /* the rook a1 checks e1 along rank 1 of board A, though B:e1 (where its capture would go
     * on to) is taken: the pawn may not move, the king may leave */
    assert_false(has_move(v, "8/8/8/8/8/8/P6k/r3K3|8/8/8/8/8/8/8/4n3 w - - 0 1", "A a2-B:a3"));
    assert_true(has_move(v, "8/8/8/8/8/8/P6k/r3K3|8/8/8/8/8/8/8/4n3 w - - 0 1", "A e1-B:e2"));
    /* a double step on A puts the pawn on B; black's pawn on B takes it en passant there */
    after(v, "4k3/8/8/8/8/8/4P3/4K3|8/8/8/8/3p4/8/8/8 w - - 0 1", "A e2-B:e4", fen, sizeof fen);
    assert_string_equal(fen, "4k3/8/8/8/8/8/8/4K3|8/8/8/8/3pP3/8/8/8 b - B:e3 0 1");
    after(v, fen, "B d4-A:e3", fen, sizeof fen);
    assert_string_equal(fen, "4k3/8/8/8/8/4p3/8/4K3|8/8/8/8/8/8/8/8 w - - 0 2");
    variant_free(v);
}

/* Marseillais chess: a castle that gives check ends the turn (the independent generator's 999),
 * and a double step does not take away the cell its side may take en passant. */
static void test_effects_check_ends_the_turn(void **state) {
    (void)state;
    Variant *v = load_rules("rules/marseillais.rules");
    assert_int_equal(perft_of(v, "5k2/8/8/8/8/8/8/4K2R w K - 0 2 first", 3), 999);
    char fen[256];
    after(v, "5k2/8/8/8/8/8/8/4K2R w K - 0 2 first", "check:e1g1", fen, sizeof fen);
    assert_string_equal(fen, "5k2/8/8/8/8/8/8/5RK1 b - - 1 2 first");
    after(v, "4k3/8/8/3pP3/8/8/P7/4K3 w - d6 0 2 first", "a2a4", fen, sizeof fen);
    assert_true(has_move(v, fen, "e5d6"));
    variant_free(v);
}

/* Berolina chess: the diagonal double step makes an en-passant cell; the pawn straight
 * behind it takes there. */
static void test_effects_diagonal_en_passant(void **state) {
    (void)state;
    Variant *v = load_rules("rules/berolina.rules");
    char fen[256];
    after(v, "4k3/8/8/8/2p5/8/1P6/4K3 w - - 0 1", "b2d4", fen, sizeof fen);
    assert_string_equal(fen, "4k3/8/8/8/2pP4/8/8/4K3 b - c3d4 0 1");
    after(v, fen, "c4c3", fen, sizeof fen);
    assert_string_equal(fen, "4k3/8/8/8/8/2p5/8/4K3 w - - 0 2");
    variant_free(v);
}

/* A move block whose every add lands on a cell found empty or stays on the piece's own cell
 * (a change of type in place, after looking around) takes nothing: attack tests skip it. */
static void test_effects_blocks_that_take_nothing(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 5x5\n"
                              "piece King { letter K royal step n }\n"
                              "piece Queen { letter Q slide compass }\n"
                              "piece Pawn { letter P step ne nw capture-only\n"
                              "  move { if on-board n { mark step n verify not enemy back }\n"
                              "         either { } or { step ne verify empty } or { step nw verify empty }\n"
                              "         change Queen add } }\n"
                              "piece Man { letter M step ne nw capture-only\n"
                              "  move { either { } or { step n } or { step n step n } add } }\n"
                              "setup \"k4/5/5/5/K4 w\"\n");
    assert_true(v->types[variant_type_by_letter(v, 'P')].fast_attack);
    assert_false(v->types[variant_type_by_letter(v, 'M')].fast_attack);
    /* the pawn's changes are moves all the same */
    assert_true(has_move(v, "k4/5/2P2/5/K4 w", "c3c3q"));
    assert_true(has_move(v, "k4/5/2P2/5/K4 w", "c3d4q"));
    assert_false(has_move(v, "k4/2p2/2P2/5/K4 w", "c3c3q"));
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_effects_castling_as_a_second_piece),
        cmocka_unit_test(test_effects_gives_check_sees_the_whole_move),
        cmocka_unit_test(test_effects_gives_check_sees_en_passant),
        cmocka_unit_test(test_effects_gives_check_sees_an_explosion),
        cmocka_unit_test(test_effects_alice_transfer_and_castling),
        cmocka_unit_test(test_effects_check_ends_the_turn),
        cmocka_unit_test(test_effects_diagonal_en_passant),
        cmocka_unit_test(test_effects_blocks_that_take_nothing),
    };
    return cmocka_run_group_tests_name("effects", tests, NULL, NULL);
}
