/* test_eval.c - evaluation: symmetry, declared and estimated piece values, centralisation. */
#include "support.h"

#include "eval.h"

static void test_eval_start_is_balanced(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    EvalTables et;
    eval_init(&et, v);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    assert_int_equal(eval_position(&et, &pos, 0), 0);
    assert_int_equal(eval_position(&et, &pos, 1), 0);
    /* a queen up is a lot better for its owner, worse for the other */
    set_fen(&pos, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_true(eval_position(&et, &pos, 0) > 800);
    assert_true(eval_position(&et, &pos, 1) < -800);
    assert_int_equal(et.value[variant_type_by_letter(v, 'Q')], 900);
    assert_false(et.estimated[variant_type_by_letter(v, 'Q')]);
    board_free(&pos);
    variant_free(v);
}

static void test_eval_estimates_missing_values(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 8x8\n"
                              "piece King { letter K royal step compass }\n"
                              "piece Knight { letter N leap sym(1,2) }\n"
                              "piece Rook { letter R slide orth }\n"
                              "piece Queen { letter Q slide compass }\n"
                              "setup \"4k3/8/8/8/8/8/8/4K3 w\"\n");
    EvalTables et;
    eval_init(&et, v);
    int n = et.value[variant_type_by_letter(v, 'N')], r = et.value[variant_type_by_letter(v, 'R')],
        q = et.value[variant_type_by_letter(v, 'Q')];
    assert_true(et.estimated[variant_type_by_letter(v, 'N')]);
    assert_int_equal(et.value[variant_type_by_letter(v, 'K')], 0);
    assert_true(n > 100 && n < r && r < q);
    variant_free(v);
}

static void test_eval_prefers_the_centre(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    EvalTables et;
    eval_init(&et, v);
    assert_true(et.centre[variant_cell_by_name(v, "d4")] > et.centre[variant_cell_by_name(v, "a1")]);
    assert_int_equal(et.centre[variant_cell_by_name(v, "d4")], et.centre[variant_cell_by_name(v, "e5")]);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
    int centre = eval_side(&et, &pos, 0);
    set_fen(&pos, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
    assert_true(centre > eval_side(&et, &pos, 0));
    board_free(&pos);
    variant_free(v);
}

static void test_eval_three_players(void **state) {
    (void)state;
    Variant *v = load_rules("tests/play/three.rules");
    EvalTables et;
    eval_init(&et, v);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    /* the armies are alike: each player's own score minus the others' mean is near zero */
    for (int p = 0; p < 3; p++) assert_true(abs(eval_position(&et, &pos, p)) < 60);
    board_free(&pos);
    variant_free(v);
}

/* The rule file's `tuned` items set the weights; untuned tables keep the defaults. */
static void test_eval_reads_tuned_items(void **state) {
    (void)state;
    const char *text = "version 1\nplayers white(w) black(b)\nboard 8x8\norientation black flip\n"
                       "piece King { letter K royal step compass }\n"
                       "piece Knight { letter N value 300 leap sym(1,2) }\n"
                       "setup \"4k3/8/8/8/8/8/8/N3K3 w\"\nend checkmate loss\n"
                       "tuned Knight value 350\ntuned Knight mobility 7\ntuned Knight squares 16\n"
                       "tuned royal-safety 20\n";
    Variant *v = load_text_ok(text);
    int n = variant_type_by_letter(v, 'N');
    EvalTables *et = xmalloc(sizeof *et), *plain = xmalloc(sizeof *plain);
    eval_init(et, v);
    eval_init_untuned(plain, v);
    assert_int_equal(et->value[n], 350);
    assert_int_equal(et->mobility[n], 7);
    assert_int_equal(et->squares[n], 16);
    assert_int_equal(et->royal_safety, 20);
    assert_int_equal(plain->value[n], 300);
    assert_int_equal(plain->mobility[n], 3);
    assert_int_equal(plain->squares[n], 0);
    /* a knight in a corner has 2 moves, 6 fewer than in the centre: its squares term sees it */
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k3/8/8/8/8/8/8/N3K3 w");
    int corner = eval_position(et, &pos, 0), plain_corner = eval_position(plain, &pos, 0);
    set_fen(&pos, "4k3/8/8/8/3N4/8/8/4K3 w");
    int centre = eval_position(et, &pos, 0), plain_centre = eval_position(plain, &pos, 0);
    /* 6 more moves: 4 more per cell reached (7 - 3), and 16/16 per move of the squares term */
    assert_int_equal((centre - corner) - (plain_centre - plain_corner), 6 * 4 + 6);
    assert_true(et->reach[0][n][variant_cell_by_name(v, "d4")] > et->reach[0][n][variant_cell_by_name(v, "a1")]);
    board_free(&pos);
    free(et);
    free(plain);
    variant_free(v);
}

/* A promoting piece is worth more the nearer its zone, more again with no enemy of its type
 * ahead on its column or the next ones; without the terms the cells are alike. */
static void test_eval_promotion_progress(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    EvalTables *et = xmalloc(sizeof *et);
    eval_init(et, v);
    int pawn = variant_type_by_letter(v, 'P');
    assert_true((et->promoting >> pawn) & 1);
    assert_false((et->promoting >> variant_type_by_letter(v, 'N')) & 1);
    assert_int_equal(et->promo_gain[pawn], 800);
    assert_int_equal(et->promo_dist[0][pawn][variant_cell_by_name(v, "e7")], 1);
    assert_int_equal(et->promo_dist[1][pawn][variant_cell_by_name(v, "e7")], 6);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    int home = eval_terms(et, &pos);
    set_fen(&pos, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
    int middle = eval_terms(et, &pos);
    set_fen(&pos, "8/4P3/8/8/8/8/8/4K2k w - - 0 1");
    int near = eval_terms(et, &pos);
    set_fen(&pos, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    int none = eval_terms(et, &pos);
    assert_true(home - none < middle - none && middle - none < near - none);
    /* quadratic: the last steps count most */
    assert_true((near - none) > 4 * (middle - none) / 2);
    /* the same as black's: the sign turns */
    set_fen(&pos, "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1");
    assert_int_equal(eval_terms(et, &pos), -(home - none) + none);
    /* a black pawn on d6 stands ahead of a white pawn on e5: it is not passed */
    set_fen(&pos, "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1");
    int free_pawn = eval_terms(et, &pos);
    set_fen(&pos, "4k3/8/3p4/4P3/8/8/8/4K3 w - - 0 1");
    int stopped = eval_terms(et, &pos);
    /* ... nor on e4 (behind): then it is */
    set_fen(&pos, "4k3/8/8/4P3/3p4/8/8/4K3 w - - 0 1");
    int behind = eval_terms(et, &pos);
    set_fen(&pos, "4k3/8/3p4/8/8/8/8/4K3 w - - 0 1");
    int black_d6 = eval_terms(et, &pos) - none;
    set_fen(&pos, "4k3/8/8/8/3p4/8/8/4K3 w - - 0 1");
    int black_d4 = eval_terms(et, &pos) - none;
    /* (the black pawns are passed either way: e5 is behind them) */
    assert_true(stopped - black_d6 < free_pawn - 20);
    assert_int_equal(behind - black_d4, free_pawn);
    et->terms = false;
    assert_int_equal(eval_terms(et, &pos), 0);
    board_free(&pos);
    free(et);
    variant_free(v);
}

/* In a middle game a royal piece on open lines scores lower than one among its own pieces, and
 * one nearer the centre lower than one in a corner; in an ending it wants the centre. */
static void test_eval_royal_shelter(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    EvalTables *et = xmalloc(sizeof *et);
    eval_init(et, v);
    Position pos;
    board_init(&pos, v);
    /* the same pieces; white's king castled behind its pawns, or out in the open on e4 */
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w kq - 0 1");
    int sheltered = eval_terms(et, &pos);
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQ1R2 w kq - 0 1");
    int open = eval_terms(et, &pos);
    assert_true(sheltered > open + 40);
    /* ... and off the centre: on h1 one step further from it than on g1, royal-hidden a step */
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1R1K w kq - 0 1");
    int corner = eval_terms(et, &pos);
    int step = et->centre[variant_cell_by_name(v, "g1")] - et->centre[variant_cell_by_name(v, "h1")];
    et->term[TUNED_ROYAL_HIDDEN] = 0;
    int corner_plain = eval_terms(et, &pos);
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1RK1 w kq - 0 1");
    assert_true(step > 0);
    assert_int_equal((corner - sheltered) - (corner_plain - eval_terms(et, &pos)), 3 * step);
    /* kings alone: the one in the centre is better off than the one in the corner */
    set_fen(&pos, "7k/8/8/8/3K4/8/8/8 w - - 0 1");
    int centre = eval_terms(et, &pos);
    assert_true(centre > 20);
    set_fen(&pos, "7k/8/8/8/8/8/8/K7 w - - 0 1");
    assert_int_equal(eval_terms(et, &pos), 0);
    /* every line of the board is one an enemy piece slides along */
    assert_int_equal(et->nqueen_dirs, 8);
    assert_int_equal(__builtin_popcountll(et->exposed[0]), 8);
    board_free(&pos);
    variant_free(v);
    /* in xiangqi the chariots and cannons slide along columns and rows only */
    v = load_rules("rules/xiangqi.rules");
    eval_init(et, v);
    assert_int_equal(et->nqueen_dirs, 8);
    assert_int_equal(__builtin_popcountll(et->exposed[0]), 4);
    assert_int_equal(__builtin_popcountll(et->exposed[1]), 4);
    free(et);
    variant_free(v);
}

/* Pawns that start side by side make a structure: a second pawn on a column (doubled) and a
 * pawn with none of its own on the next columns (isolated) cost a share of a pawn each. Pieces
 * that start apart (xiangqi's soldiers) and pieces that do not promote have none. */
static void test_eval_pawn_structure(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    EvalTables *et = xmalloc(sizeof *et);
    eval_init(et, v);
    int pawn = variant_type_by_letter(v, 'P');
    assert_int_equal(et->ranked, 1u << pawn);
    Position pos;
    board_init(&pos, v);
    /* the pawns on their second rank, where progress counts nothing */
    set_fen(&pos, "4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1");
    int pair = eval_terms(et, &pos);
    set_fen(&pos, "4k3/8/8/8/8/8/2P1P3/4K3 w - - 0 1");
    int apart = eval_terms(et, &pos);
    assert_int_equal(pair - apart, 2 * et->term[TUNED_ISOLATED] * et->value[pawn] / 100);
    /* e3 and e2: one doubled, both isolated; d3 and e2 (as far on) neither */
    set_fen(&pos, "4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1");
    int doubled = eval_terms(et, &pos);
    set_fen(&pos, "4k3/8/8/8/8/3P4/4P3/4K3 w - - 0 1");
    int healthy = eval_terms(et, &pos);
    assert_int_equal(healthy - doubled,
                     (et->term[TUNED_DOUBLED] + 2 * et->term[TUNED_ISOLATED]) * et->value[pawn] / 100);
    board_free(&pos);
    free(et);
    variant_free(v);
    /* xiangqi's soldiers start a column apart and never promote; shogi's pawns stand in a row */
    v = load_rules("rules/xiangqi.rules");
    et = xmalloc(sizeof *et);
    eval_init(et, v);
    assert_int_equal(et->ranked, 0);
    variant_free(v);
    v = load_rules("rules/shogi.rules");
    eval_init(et, v);
    assert_int_equal(et->ranked, 1u << variant_type_by_letter(v, 'P'));
    free(et);
    variant_free(v);
}

/* A piece that slides along columns (a rook, not a queen) gains on a column without pawns,
 * half as much where only the enemy's stand. */
static void test_eval_open_column(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    EvalTables *et = xmalloc(sizeof *et);
    eval_init(et, v);
    assert_int_equal(et->column_sliders, 1u << variant_type_by_letter(v, 'R'));
    Position pos;
    board_init(&pos, v);
    /* the same pawns and kings, the rook on the open c column, behind its pawn on d, or on e
     * where only black's pawn stands */
    set_fen(&pos, "4k3/8/4p3/8/8/8/3P4/2R4K w - - 0 1");
    int open = eval_terms(et, &pos);
    set_fen(&pos, "4k3/8/4p3/8/8/8/3P4/3R3K w - - 0 1");
    int closed = eval_terms(et, &pos);
    set_fen(&pos, "4k3/8/4p3/8/8/8/3P4/4R2K w - - 0 1");
    int half = eval_terms(et, &pos);
    assert_int_equal(open - closed, et->term[TUNED_OPEN_COLUMN]);
    assert_int_equal(half - closed, et->term[TUNED_OPEN_COLUMN] / 2);
    board_free(&pos);
    free(et);
    variant_free(v);
}

/* With `hand-attack` (shogi.rules: 50), pieces in the attacker's hand join an attack begun on
 * the board, each once at that percent of its value in pawns; with no piece on the board
 * attacking they add nothing, nor with the weight at 0 (the default). */
static void test_eval_royal_attack_hands(void **state) {
    (void)state;
    Variant *v = load_rules("rules/shogi.rules");
    EvalTables *et = xmalloc(sizeof *et);
    eval_init(et, v);
    assert_int_equal(et->term[TUNED_HAND_ATTACK], 50);
    Position pos;
    board_init(&pos, v);
    int weight = et->term[TUNED_ROYAL_ATTACK];
    assert_true(weight > 0);
    /* the gold on b7 hits a8 and b8 (2 x 5), the lance on a6 hits a8 and the king on a9 (2 x 3):
     * 16 units; in hand a rook (5) and a bishop (4) make 25 */
    const char *fens[] = {"k8/9/1G7/L8/9/9/9/9/8K[] w - - 0 1", "k8/9/1G7/L8/9/9/9/9/8K[RB] w - - 0 1",
                          "k8/9/9/9/9/9/1G7/2L6/8K[RB] w - - 0 1", "k8/9/1G7/L8/9/9/9/9/8K[RB] w - - 0 1"};
    int percent[] = {50, 50, 50, 0};
    int expect[] = {weight * 16 * 16 / 256, weight * 25 * 25 / 256, 0, weight * 16 * 16 / 256};
    for (int i = 0; i < 4; i++) {
        set_fen(&pos, fens[i]);
        et->term[TUNED_HAND_ATTACK] = percent[i];
        et->term[TUNED_ROYAL_ATTACK] = weight;
        int on = eval_side(et, &pos, 0);
        et->term[TUNED_ROYAL_ATTACK] = 0;
        assert_int_equal(on - eval_side(et, &pos, 0), expect[i]);
    }
    board_free(&pos);
    free(et);
    variant_free(v);
}

/* Two pieces that attack the cells of the enemy king and those next to it earn the square of
 * their attack units (hits times the attacker's value in pawns); one alone earns nothing. */
static void test_eval_royal_attack(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    EvalTables *et = xmalloc(sizeof *et);
    eval_init(et, v);
    Position pos;
    board_init(&pos, v);
    int weight = et->term[TUNED_ROYAL_ATTACK];
    assert_true(weight > 0);
    /* the queen on d5 hits f7 and the king on g8 (2 x 9), the knight on h5 hits g7 (1 x 3) */
    set_fen(&pos, "6k1/8/8/3Q3N/8/8/8/K7 w - - 0 1");
    int on = eval_side(et, &pos, 0);
    et->term[TUNED_ROYAL_ATTACK] = 0;
    int off = eval_side(et, &pos, 0);
    assert_int_equal(on - off, weight * 21 * 21 / 256);
    /* the knight away on a5: the queen alone is no attack */
    set_fen(&pos, "6k1/8/8/N2Q4/8/8/8/K7 w - - 0 1");
    off = eval_side(et, &pos, 0);
    et->term[TUNED_ROYAL_ATTACK] = weight;
    assert_int_equal(eval_side(et, &pos, 0), off);
    /* black's side is not attacked: its own pieces near its king earn nothing */
    set_fen(&pos, "5nk1/6q1/8/8/8/8/8/K7 w - - 0 1");
    on = eval_side(et, &pos, 1);
    et->term[TUNED_ROYAL_ATTACK] = 0;
    assert_int_equal(eval_side(et, &pos, 1), on);
    board_free(&pos);
    free(et);
    variant_free(v);
}

/* A cell the enemy's least piece (a pawn) guards counts `guarded` percent in a piece's mobility;
 * a piece standing on one loses `threat`. */
static void test_eval_guarded_mobility(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    EvalTables *et = xmalloc(sizeof *et);
    eval_init(et, v);
    assert_int_equal(et->least_type, variant_type_by_letter(v, 'P'));
    Position pos;
    board_init(&pos, v);
    /* the knight on d4 reaches eight cells, f5 among them, which the pawn on e6 guards */
    set_fen(&pos, "4k3/8/4p3/8/3N4/8/8/4K3 w - - 0 1");
    et->term[TUNED_GUARDED] = 100;
    int full = eval_side(et, &pos, 0);
    et->term[TUNED_GUARDED] = 0;
    assert_int_equal(full - eval_side(et, &pos, 0), et->mobility[variant_type_by_letter(v, 'N')]);
    /* at half, seven cells and a half (rounded down) */
    int knight = et->mobility[variant_type_by_letter(v, 'N')];
    et->term[TUNED_GUARDED] = 50;
    assert_int_equal(full - eval_side(et, &pos, 0), 8 * knight - knight * 750 / 100);
    /* on d5 the pawn threatens the knight itself: it loses `threat` */
    set_fen(&pos, "4k3/8/4p3/3N4/8/8/8/4K3 w - - 0 1");
    et->term[TUNED_THREAT] = 30;
    int threatened = eval_side(et, &pos, 0);
    et->term[TUNED_THREAT] = 0;
    assert_int_equal(eval_side(et, &pos, 0) - threatened, 30);
    board_free(&pos);
    free(et);
    variant_free(v);
}

/* Where captured pieces go to a hand they still fight: the phase counts the enemy's pieces in
 * hand as its army. Kings alone on the board, black's whole army in its hand: white's king in
 * the centre is judged as in the middle game (royal-hidden, exposure), not rewarded as in an
 * ending (royal-centre) as it is when black holds nothing. */
static void test_eval_phase_counts_hands(void **state) {
    (void)state;
    Variant *v = load_rules("rules/shogi.rules");
    EvalTables *et = xmalloc(sizeof *et);
    eval_init(et, v);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "8k/9/9/9/4K4/9/9/9/9[] w - - 0 1");
    int bare = eval_terms(et, &pos);
    set_fen(&pos, "8k/9/9/9/4K4/9/9/9/9[rbggssnnllppppppppp] w - - 0 1");
    int armed = eval_terms(et, &pos);
    int c = et->centre[variant_cell_by_name(v, "e5")];
    assert_true(c > 0);
    /* bare: +royal-centre per step; armed: -royal-hidden per step and exposure besides */
    assert_true(bare - armed >= (et->term[TUNED_ROYAL_CENTRE] + et->term[TUNED_ROYAL_HIDDEN]) * c);
    board_free(&pos);
    free(et);
    variant_free(v);
}

/* `tuned` items set the terms' weights; a game of three players has none of the terms. */
static void test_eval_terms_tuned(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 8x8\norientation black flip\n"
                              "piece King { letter K royal step compass }\n"
                              "piece Knight { letter N value 300 leap sym(1,2) }\n"
                              "setup \"4k3/8/8/8/8/8/8/N3K3 w\"\nend checkmate loss\n"
                              "tuned promotion 7\ntuned passed 0\ntuned exposure 9\ntuned shelter 1\n"
                              "tuned royal-centre 5\n");
    EvalTables *et = xmalloc(sizeof *et), *plain = xmalloc(sizeof *plain);
    eval_init(et, v);
    eval_init_untuned(plain, v);
    assert_int_equal(et->term[TUNED_PROMOTION], 7);
    assert_int_equal(et->term[TUNED_PASSED], 0);
    assert_int_equal(et->term[TUNED_EXPOSURE], 9);
    assert_int_equal(et->term[TUNED_SHELTER], 1);
    assert_int_equal(et->term[TUNED_ROYAL_CENTRE], 5);
    assert_int_equal(plain->term[TUNED_PROMOTION], 10);
    assert_int_equal(plain->term[TUNED_ROYAL_CENTRE], 2);
    assert_int_equal(et->promoting, 0);
    variant_free(v);
    v = load_rules("tests/play/three.rules");
    eval_init(et, v);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    assert_int_equal(eval_terms(et, &pos), 0);
    board_free(&pos);
    free(et);
    free(plain);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval_start_is_balanced),  cmocka_unit_test(test_eval_estimates_missing_values),
        cmocka_unit_test(test_eval_prefers_the_centre), cmocka_unit_test(test_eval_three_players),
        cmocka_unit_test(test_eval_reads_tuned_items),  cmocka_unit_test(test_eval_promotion_progress),
        cmocka_unit_test(test_eval_royal_shelter),      cmocka_unit_test(test_eval_pawn_structure),
        cmocka_unit_test(test_eval_open_column),        cmocka_unit_test(test_eval_terms_tuned),
        cmocka_unit_test(test_eval_phase_counts_hands), cmocka_unit_test(test_eval_royal_attack),
        cmocka_unit_test(test_eval_royal_attack_hands), cmocka_unit_test(test_eval_guarded_mobility),
    };
    return cmocka_run_group_tests_name("eval", tests, NULL, NULL);
}
