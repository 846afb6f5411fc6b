/* ending.h - the endings a position decides by itself, before any move is looked at:
 * extinction, a bare king, a zone reached, checks given. */
#ifndef VARIA_ENDING_H
#define VARIA_ENDING_H

#include "board.h"

typedef struct Ending {
    int player;              /* the side the result is for */
    ResultKind result;       /* RESULT_WIN, RESULT_LOSS or RESULT_DRAW */
    const char *reason;      /* "all pieces lost", "extinction", "bare king", "zone reached",
                              * "checks" */
    const char *name;        /* the rule file's own name for it, or NULL */
} Ending;

/* Has the game ended in this position by one of the rule file's position endings
 * (Variant.decided_by_position)? Fills *out (may be NULL) when it has. A decided position
 * has no moves. Cannot fail. */
bool ending_decided(const Position *pos, Ending *out);

#endif
