/* eval.h - static evaluation for any rule file: the piece values it declares (or values
 * estimated from mobility on an empty board), plus mobility and centralisation terms that need
 * no per-variant code. */
#ifndef VARIA_EVAL_H
#define VARIA_EVAL_H

#include "board.h"

/* Scores are in hundredths of a pawn. */
#define EVAL_ROYAL_VALUE 2000 /* worth of a royal piece in capture ordering only */

typedef struct EvalTables {
    const Variant *v;
    int value[MAX_PIECE_TYPES];      /* declared, or estimated when the rule file gives 0 */
    bool estimated[MAX_PIECE_TYPES]; /* value came from the mobility estimate */
    int centre[MAX_CELLS];           /* 0 (corner) .. EVAL_CENTRE_MAX (centre of its board) */
    int material_sign;               /* -1 where losing pieces wins (end pieces ... win), else 1 */
    /* A race to a zone (the game's first `end reach ... win` rule, race_type NO_TYPE when
     * none): each owner's king-step distance from every cell to its part of the zone. */
    uint8_t race_type;
    uint8_t race_dist[MAX_PLAYERS][MAX_CELLS];
    /* The weights (the rule file's `tuned` items, else the defaults; varia tune sets them):
     * per type, per cell reached along its rays and per move its cell gives it on an empty
     * board above its average (sixteenths); per enemy piece near a royal piece; a piece in
     * hand in percent of its value. */
    int mobility[MAX_PIECE_TYPES], squares[MAX_PIECE_TYPES];
    int royal_safety, hand_percent;
    bool any_squares;                            /* some squares weight is not 0 */
    bool untuned;                                /* the rule file's `tuned` items left out */
    int8_t reach[2][MAX_PIECE_TYPES][MAX_CELLS]; /* owners 0 and 1: moves from the cell above the average */
    /* The terms of two-player games of two armies (eval_terms; `terms` false: left out), with
     * their weights (TUNED_PROMOTION...). A promoting type (bit of `promoting`) gains promo_gain
     * on reaching its zone, promo_dist king steps away (0: in it, 255: never), and has done
     * promo_progress of the way there (0..EVAL_PROGRESS_MAX, growing with the square of the
     * steps done). The phase is each army's non-royal material against start_material. */
    bool terms;
    int term[TUNED_TERMS];
    uint32_t promoting;
    uint32_t ranked;         /* promoting types that start side by side: their structure is judged */
    uint32_t column_sliders; /* types that slide along columns, never diagonally */
    uint8_t least_type;      /* the least valued type both armies start with (NO_TYPE: none) */
    int promo_gain[MAX_PIECE_TYPES];
    uint8_t promo_dist[2][MAX_PIECE_TYPES][MAX_CELLS];
    uint8_t promo_progress[2][MAX_PIECE_TYPES][MAX_CELLS];
    int start_material[2];
    int nqueen_dirs; /* the board's directions of one step across or along (a queen's lines) */
    uint8_t queen_dirs[MAX_DIRECTIONS];
    uint64_t exposed[2]; /* per owner, those (bits by direction) along which an enemy piece slides */
} EvalTables;

#define EVAL_PROGRESS_MAX 64

#define EVAL_CENTRE_MAX 16

/* Fills the tables for v: declared values, estimates for non-royal types valued 0, the centre
 * table, the weights of the rule file's `tuned` items. Runs each such type's moves on an empty
 * board (a scratch position). Cannot fail. */
void eval_init(EvalTables *et, const Variant *v);
/* The same with the `tuned` items left out (the evaluation as before they were fitted). */
void eval_init_untuned(EvalTables *et, const Variant *v);

/* Material, mobility and centralisation of the pieces a player moves (every army it
 * controls). Cannot fail. */
int eval_side(const EvalTables *et, const Position *pos, int player);

/* The position as seen by `player`: its own score minus the mean of the other players' (one
 * out of the game counts 0; for two players: mine minus yours), plus a mop-up term that drives a lone defending royal
 * to the edge when one side is well ahead, and in a race to a zone each side's progress.
 * Cannot fail. */
int eval_position(const EvalTables *et, const Position *pos, int player);

/* The terms of two-player games of two armies, for player 0 (minus player 1's): a promoting
 * piece's progress toward its zone (more when no enemy of its type stands ahead of it on its
 * own or a neighbouring column), tapered up as the enemy's material goes; a royal piece's open
 * lines and own neighbours while the enemy has its material, its centralisation once it has
 * not. 0 where they do not apply or `terms` is off. Cannot fail. */
int eval_terms(const EvalTables *et, const Position *pos);

/* Sets the weights from the rule file's `tuned` items (or the defaults); eval_init calls it. */
void eval_set_weights(EvalTables *et);
/* The piece-square table's entries for the types and owners it serves (once squares weights
 * are not all 0). */
void eval_prepare_squares(EvalTables *et);

/* Total value of what m captures (pieces on its destination or removed), by et's values. */
int eval_capture_value(const EvalTables *et, const Position *pos, const Move *m);
/* An index into the legal list ml (count > 0): the capture of the highest value (random among
 * equals), else a random move. */
int eval_pick_greedy(const EvalTables *et, const Position *pos, const MoveList *ml, uint64_t *rng);

/* Value used to order captures: the piece value, EVAL_ROYAL_VALUE for royal pieces. */
int eval_piece_value(const EvalTables *et, Piece p);

#endif
