/* mcts.h - the Monte Carlo tree search player (UCT): for games whose evaluation knows little
 * (more than two players, n-in-a-row, hidden cards), it plays many games to their end from the
 * position, lightly guided (a capture of the most valuable piece half the time), and chooses
 * the move whose games went best for its player. search_run plays it when the settings ask
 * for it (SearchOptions.mcts: the rule file's `tuned mcts 1`, or the engine's choice). */
#ifndef VARIA_MCTS_H
#define VARIA_MCTS_H

#include "eval.h"
#include "genctx.h"

/* How long the tree grows: until stop() says so (asked every few playouts), or after `playouts`
 * playouts (0: no such limit). */
typedef bool (*MctsStopFn)(void *user);

typedef struct MctsResult {
    bool has_move;
    Move best;
    uint64_t playouts;
    int depth;       /* the deepest node of the tree */
    double win_rate; /* the best move's share of wins for the player to move */
    int pvlen;
    Move pv[32];
} MctsResult;

/* Grows a tree from pos (restored before return) and picks the most visited root move.
 * seed makes the playouts' choices repeatable: the same position, seed and playout limit give
 * the same move. Returns false when the position has no legal move. */
bool mcts_run(GenContext *ctx, Position *pos, const EvalTables *et, uint64_t playouts, uint64_t seed, MctsStopFn stop,
              void *user, MctsResult *out);

#endif
