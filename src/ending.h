/* ending.h - the endings a position decides by itself, before any move is looked at:
 * extinction, a bare king, a zone reached, checks given. */
#ifndef VARIA_ENDING_H
#define VARIA_ENDING_H

#include "board.h"
#include "genctx.h"

typedef struct Ending {
    int player;         /* the side the result is for */
    ResultKind result;  /* RESULT_WIN, RESULT_LOSS or RESULT_DRAW */
    const char *reason; /* "all pieces lost", "extinction", "total pieces", "bare king", "zone reached",
                              * "checks" */
    const char *name;   /* the rule file's own name for it, or NULL */
} Ending;

/* Has the game ended in this position by one of the rule file's position endings
 * (Variant.decided_by_position)? Fills *out (may be NULL) when it has. A decided position
 * has no moves. Cannot fail. (A `safe` reach rule asks the attack test: ctx.) */
bool ending_decided(GenContext *ctx, Position *pos, Ending *out);

/* Does owner have r's piece in its part of r's zone? */
bool ending_reached(const Position *pos, int owner, const ReachRule *r);
/* The `last-chance` rule under which the player to move, the second of the round, may answer
 * the other side's arrival in the zone, or NULL. The answer is only played when it can draw:
 * when no legal move reaches the zone too, the game is over (movegen gives no moves, and
 * gameend names the other side the winner). */
const ReachRule *ending_reply_due(const Position *pos);

#endif
