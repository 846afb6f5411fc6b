/* gameend.h - the rule file's end conditions evaluated on a position. */
#ifndef VARIA_GAMEEND_H
#define VARIA_GAMEEND_H

#include "genctx.h"

typedef struct GameResult {
    bool over;
    int winner;         /* player index, or -1 for a draw */
    const char *reason; /* "checkmate", "stalemate", "repetition", "n-move rule", "material",
                          * "must-capture", "last player standing", "royal captured", "piles empty",
                          * "all pieces lost", "pieces left", "counting (board's honour)",
                          * "counting (pieces' honour)", and ending.h's */
    const char *name;   /* the rule file's own name for that end ("out of ammo"), or NULL */
    int eliminated;     /* game not over: this player is out (play its elimination move), or -1 */
    int victor;         /* who defeated it (-1: nobody, as after a concession) */
    VmFault fault;      /* a program of the rule file failed here: nothing was decided */
} GameResult;

/* Evaluates the end conditions for the player to move. Either the game is over
 * (out->over), or a player is defeated while others play on (out->eliminated >= 0: play
 * gameend_elimination's move, then check again), or the game goes on. With two players left a
 * checkmate ends the game; with more, it eliminates the player to move. */
void gameend_check(GenContext *ctx, Position *pos, GameResult *out);
/* The same when the caller has just generated the legal moves of pos (movegen_legal): legal is
 * their number, so they are not generated again; -1 = count them here. */
void gameend_check_counted(GenContext *ctx, Position *pos, int legal, GameResult *out);
/* (When a program of the rule file faults on the way, out->fault says where, and the game is
 * not over: a broken rule file decides nothing.) */
/* The move that takes `loser` out: its royal pieces are removed, its armies removed, left as
 * inert obstacles or handed to `victor` as the rule file's `defeated` says (removed when there
 * is no victor). Played with board_make like any move, so it can be undone. */
void gameend_elimination(const Position *pos, int loser, int victor, Move *out);
/* Plays every pending defeat (gameend_check's `eliminated`) with board_make and returns the
 * final verdict in *out. Each elimination move played is copied to played[] (up to cap; may be
 * NULL) so a caller keeping a move list can undo them; returns how many were played.
 * on_defeat (may be NULL) hears of each defeat, before its move is played. */
typedef void (*GameDefeatFn)(const GameResult *defeat, void *user);
int gameend_settle(GenContext *ctx, Position *pos, GameResult *out, Move *played, int cap, GameDefeatFn on_defeat,
                   void *user);
/* Who won and who lost by r (both -1 when the game goes on or is drawn). With more than two
 * players a checkmate or stalemate that the rules make a loss names the loser, not a winner. */
void gameend_sides(const Position *pos, const GameResult *r, int *winner, int *loser);
/* A player still in the game who has lost every royal piece (a captured king), or -1. */
int gameend_royal_lost(const Position *pos);
/* Under `end pieces at-most N`: a player left with N or fewer pieces (the player to move
 * first), or -1. */
int gameend_pieces_out(const Position *pos);
/* Players still in the game. */
int gameend_alive_count(const Position *pos);
/* Has a running count (`end counting`) reached its length? (Checkmate still comes first:
 * gameend_check looks at it only when the player to move has a legal move.) */
static inline bool gameend_count_out(const Position *pos) {
    return pos->count_limit && pos->count_ply >= pos->count_limit;
}
/* The name of a running count, "counting (board's honour)" or "counting (pieces' honour)"
 * (a side down to a single piece). Cannot fail; the text is static. */
const char *gameend_count_name(const Position *pos);
/* How many times the current position occurred before (same key, same player to move). */
int gameend_repetitions(const Position *pos);

#endif
