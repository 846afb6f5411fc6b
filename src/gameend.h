/* gameend.h - the rule file's end conditions evaluated on a position. */
#ifndef VARIA_GAMEEND_H
#define VARIA_GAMEEND_H

#include "board.h"

typedef struct GameResult {
    bool over;
    int winner;          /* player index, or -1 for a draw */
    const char *reason;  /* "checkmate", "stalemate", "repetition", "n-move rule", "material" */
} GameResult;

/* Evaluates the end conditions for the player to move. Cannot fail; *out.over = false when the
 * game goes on. */
void gameend_check(Position *pos, GameResult *out);
/* How many times the current position occurred before (same key, same player to move). */
int gameend_repetitions(const Position *pos);

#endif
