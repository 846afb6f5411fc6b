/* movegen.h - pseudo-legal moves (fast rays for plain pieces, the VM for the rest) and the
 * legality filter (the attack tests it uses are in attack.h). */
#ifndef VARIA_MOVEGEN_H
#define VARIA_MOVEGEN_H

#include "attack.h"

/* All pseudo-legal moves of the player to move. Returns false on a program fault. */
bool movegen_pseudo(GenContext *ctx, Position *pos, MoveList *out, VmFault *fault);
/* How many line moves (LineMove: zoned atoms, lame leaps, hops) the piece of `owner` on from
 * has, by its program pp: a count for the evaluation's mobility. */
int movegen_count_lines(const Position *pos, const PieceProgram *pp, int owner, Cell from);
/* How many distinct pieces have a normal capture landing on target among the first count
 * moves of list (pseudo-legal moves of the player to move): the attack count. */
int movegen_attackers(const Position *pos, const MoveList *list, int count, Cell target);
/* In a game whose turns have phases: the move kinds (bit per kind) allowed now, from the
 * current phase and the later ones it may skip to; *may_end says whether the turn may end
 * now (a pass). */
uint32_t movegen_phase_kinds(const Position *pos, bool *may_end);
/* All legal moves of the player to move. */
bool movegen_legal(GenContext *ctx, Position *pos, MoveList *out, VmFault *fault);
/* Could the position have been reached? In a game of two players with one move a turn, the
 * player not to move may not be in check. False with the reason in err. */
bool movegen_position_ok(GenContext *ctx, Position *pos, char *err, size_t cap);
/* Number of legal moves (perft's last ply). */
int movegen_count_legal(GenContext *ctx, Position *pos, VmFault *fault);
/* Cells the player to move must capture this turn (end must-capture rules): pieces of the
 * previous player standing in its zone. Returns how many (at most MAX_FORCED). */
int movegen_forced(const Position *pos, Cell *cells);
/* Under `must-capture`: is one of ml's pseudo-legal moves a legal capture? Then only captures
 * are legal. False when the game has no such rule. */
bool movegen_must_capture(GenContext *ctx, Position *pos, const MoveList *ml);
/* May m be played when only captures are (captures_only)? */
/* Does the rule file filter the moves as generated (priority, must-capture most,
 * merge-duplicates)? */
static inline bool movegen_filters(const Variant *v) {
    return v->npriorities || v->must_capture_most || v->merge_same_captures;
}
static inline bool movegen_allowed(const Move *m, bool captures_only) {
    return !captures_only || (m->flags & MOVE_CAPTURE);
}
/* Does m capture every one of cells? (true when n == 0) */
bool movegen_captures_all(const Move *m, const Cell *cells, int n);
/* Under `end stalemate pass`, the pass a stalemated player makes (false when the rule does
 * not apply: the variant has no such rule, or the player is in check). The caller has found
 * no other legal move. */
bool movegen_stalemate_pass(GenContext *ctx, Position *pos, Move *m);
/* Does m's legality depend on the mover's royal pieces afterwards? Not for moves that only
 * move cards, nor for the pass that ends a turn of phases (the turn's moves were tested). */
static inline bool movegen_tests_royal(const Variant *v, const Move *m) {
    return v->forbid_royal_capture && !(m->flags & (MOVE_CARDS | MOVE_TILE)) && !(v->nphases && (m->flags & MOVE_PASS));
}
/* After a move in a game with explosions (`explodes`), is the mover safe? An enemy royal
 * piece blown up wins at once; a royal piece next to an enemy royal cannot be taken (the
 * taker's own would go with it); otherwise no royal piece of the mover may be capturable. */
bool movegen_blast_safe(GenContext *ctx, Position *pos, int mover);
/* The legality test after a move: the mover's royal pieces are safe. */
static inline bool movegen_safe_after(GenContext *ctx, Position *pos, int mover) {
    if (unlikely(pos->v->blast_mask)) return movegen_blast_safe(ctx, pos, mover);
    return !attack_in_check(ctx, pos, mover);
}
/* Legal after making m? (make, test, unmake). The test is made as if the moving piece
 * arrived: a hidden mine that destroys it does not make the move legal or illegal. Its VM
 * instructions are charged to pos's budget in ctx. */
bool movegen_is_legal(GenContext *ctx, Position *pos, const Move *m);
/* Legality by pins (Variant.pin_legal): on when the mover has one royal piece, on `royal`;
 * checks: how many attack lines reach it (0: not in check; with capture patterns, 1 when
 * only a pattern does); pinned: the cells of the mover's pieces that stand alone between it
 * and an enemy slider, and the cells a piece leaving could open a pattern's capture through;
 * screens: the cells a piece landing on could make the screen of an enemy hop. */
typedef struct Pins {
    bool on;
    bool privileges; /* a privilege's capture may attack (Variant.privilege_types) */
    int mover;       /* the player to move */
    int checks;
    Cell royal;
    uint64_t pinned[CELL_WORDS];
    bool screened; /* some cell of screens is set (else they are not written) */
    bool quiet;    /* no check and no screen: an unpinned piece may land anywhere */
    uint64_t screens[CELL_WORDS];
    /* Where the pins are off but the legality test reads only cells (Variant.all_fast, no
     * steering, allegiance, explosion, privilege, `end facing` nor royal-flight rule): the test made
     * once on the position as it stands, whether the mover is in check and the cells it looked
     * at, with those of the enemies' and the royal pieces. A move that writes none of those
     * cells and puts no enemy or royal piece gets the same answer (attack_royal_attacked_seen). */
    bool by_seen;
    bool seen_check;
    uint64_t seen[CELL_WORDS];
    /* where the caller keeps one (a playout's tally), the attack lines of the royal piece
     * made ready once for the tests of the position's moves (RoyalLook.ready 0 at first) */
    RoyalLook *look;
} Pins;
/* Finds the pins of the player to move (off in every game and position they do not fit, while
 * royal pieces face each other under `end facing`, and on the general path), else the cells
 * its legality test looks at, where they decide. */
void movegen_find_pins(GenContext *ctx, Position *pos, Pins *pins);
/* Legal, by the pins (or the cells seen)? 1 or 0; -1 when they do not decide (the move must
 * take the full test). They decide every move that only carries one of the mover's pieces to another cell
 * (promoting or not, staying the mover's and not royal, marking en-passant cells or not): out of check, a piece that is not royal nor pinned
 * and lands on no screen opens no line to the royal piece, so it needs no test; any other such
 * move is tested on the attack lines with only its two cells written (with capture patterns:
 * -1). */
int movegen_pin_verdict(const Pins *pins, Position *pos, const Move *m);
/* Random play where a turn is a move of the pieces (Variant.bulk_count) and the pins apply or
 * every move is legal: the legal moves counted piece by piece as movegen_count_legal counts
 * them (the rays of pieces that need no test are not written), so that only the piece of the
 * move drawn generates its moves. */
typedef struct TalliedPiece {
    Cell from;
    uint8_t owner;
    uint16_t moves; /* its legal moves */
    uint16_t rays;  /* the first of them: its ray moves, counted without a test */
    bool listed;    /* legal says which of its moves (as gen_piece lists them) are legal */
    bool carried;   /* else: its moves but a few need no test (see count_by_pins) */
    uint64_t legal;
} TalliedPiece;
/* A free piece's moves as a tally counted them (its rays, the moves only carrying it). */
typedef struct TallyMemo {
    Piece piece;
    uint16_t moves, rays;
    bool carried;
} TallyMemo;
typedef struct LegalTally {
    bool tested; /* the moves are decided by the pins (else every move is legal) */
    /* set by the caller while each tally is of the position after the last one's (the plies
     * of one game): a free piece none of whose cells (Variant.move_reach) changed since its
     * player's last tally has the moves it had then, and is not counted again */
    bool reuse;
    Pins pins;
    RoyalLook look; /* (pins.look) */
    int count;      /* legal moves of the player to move */
    int npieces;    /* pieces with a legal move, in the order movegen_legal lists them */
    TalliedPiece pieces[MAX_CELLS];
    /* per player, of its last tally: the ply and key, the cells with a memo (-1: none) */
    struct {
        int ply;
        uint64_t key, held;
        TallyMemo at[64];
    } memo[2];
} LegalTally;
/* Counts the legal moves into t (scratch: room for one piece's moves). False when they cannot
 * be counted so (the game or position does not allow it, no legal move, a fault): then
 * movegen_legal lists them. */
bool movegen_tally_legal(GenContext *ctx, Position *pos, LegalTally *t, MoveList *scratch);
/* The legal move of that index (0 <= index < t->count) in movegen_legal's order, written in
 * scratch; NULL if it cannot be found (a fault). */
const Move *movegen_tally_move(GenContext *ctx, Position *pos, const LegalTally *t, int index, MoveList *scratch);
/* Do the two players' royal pieces of the `end facing` type face each other on an open line? */
bool movegen_facing(const Position *pos);
/* Has the game ended by passing: `end pass N` after N passes in a row, or `end facing` after a
 * pass while the royal pieces face each other (a pass leaves them as they were)? Then there
 * are no moves. */
bool movegen_passing_ended(const Position *pos);
/* The same for m, just made by `mover` (the last move of pos). */
bool movegen_made_is_legal_tiles(GenContext *ctx, Position *pos, const Move *m, int mover);
static inline bool movegen_made_is_legal(GenContext *ctx, Position *pos, const Move *m, int mover) {
    int from = pos->ply - 1;
    bool ok = true;
    if (movegen_tests_royal(pos->v, m)) {
        /* the test's instructions count against the position m was made from */
        int charged = ctx->charge_ply;
        ctx->charge_ply = from;
        ok = likely(!pos->v->slow_legality) ? movegen_safe_after(ctx, pos, mover)
                                            : movegen_made_is_legal_tiles(ctx, pos, m, mover);
        ctx->charge_ply = charged;
    }
    ctx->steps_left[from + 1] = ctx->steps_left[from]; /* (what a made position starts with) */
    return ok;
}

/* movegen_made_is_legal for m, given the pins' verdict on it found before it was made
 * (movegen_pin_verdict on the position it was made from): a verdict of 0 or 1 stands. */
static inline bool movegen_made_is_legal_pinned(GenContext *ctx, Position *pos, const Move *m, int mover, int verdict) {
    if (verdict < 0) return movegen_made_is_legal(ctx, pos, m, mover);
    ctx->steps_left[pos->ply] = ctx->steps_left[pos->ply - 1]; /* (what a made position starts with) */
    return verdict;
}

#endif
