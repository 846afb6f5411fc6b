/* search.h - the computer player: iterative-deepening alpha-beta (negamax) with a
 * transposition table, move ordering, quiescence search and check extension. Two players:
 * plain negamax. More players: paranoid search (the mover against a coalition of the rest).
 * Also the weak reference players for self-play: greedy and random. */
#ifndef VARIA_SEARCH_H
#define VARIA_SEARCH_H

#include <signal.h>

#include "eval.h"
#include "movegen.h"

#define SEARCH_MATE 30000 /* a win at ply p scores SEARCH_MATE - p */
#define SEARCH_MATE_BOUND (SEARCH_MATE - MAX_PLY)
#define SEARCH_PV_MAX 32

/* Set (e.g. by a SIGINT handler) to stop a running search at once; the caller clears it. */
extern volatile sig_atomic_t search_interrupt;

typedef struct SearchLimits {
    int depth;        /* deepest iteration, 1..MAX_PLY-8; 0 = as deep as time allows */
    double seconds;   /* time for this move; 0 = no limit (then depth must be set) */
    uint64_t seed;    /* shuffles the root moves before the first iteration; 0 = no shuffle */
    uint64_t nodes;   /* stop after about this many nodes; 0 = no limit */
    int mate;         /* stop once a mate in at most this many moves is found; 0 = none */
    const Move *only; /* the root moves to search (legal ones; others ignored); NULL = all */
    int nonly;
} SearchLimits;

typedef struct SearchInfo {
    int depth; /* iteration just completed */
    int score; /* for the player to move at the root */
    uint64_t nodes;
    double seconds;
    int pvlen;
    Move pv[SEARCH_PV_MAX];
} SearchInfo;

typedef struct SearchResult {
    bool has_move; /* false when the root has no legal move */
    Move best;
    bool interrupted; /* search_interrupt stopped the search (best is from the last iteration) */
    SearchInfo info;  /* of the last completed iteration */
} SearchResult;

/* Called after every completed iteration (progress display). */
typedef void (*SearchInfoFn)(const SearchInfo *info, void *user);

typedef struct Searcher Searcher;

/* A searcher for one variant: evaluation tables, a transposition table of about tt_mb MB,
 * move lists per ply (allocated on first use). Cannot fail (aborts on out of memory). */
Searcher *search_new(const Variant *v, size_t tt_mb);
void search_free(Searcher *s);
/* Forgets everything learnt (transposition table, killers, history): a new game. */
void search_clear(Searcher *s);
/* The evaluation tables the searcher uses. */
const EvalTables *search_eval(const Searcher *s);

/* Searches pos (not modified) within limits; the result's best move is one of pos's legal
 * moves. With a depth limit and no time limit the result and node count depend only on the
 * position, the limits and what the searcher learnt before (search_clear for repeatability).
 * Returns false only when the position has no legal move. */
bool search_run(Searcher *s, const Position *pos, const SearchLimits *lim, SearchResult *out, SearchInfoFn fn,
                void *user);

/* The computer player in a game with hidden information: searches `samples` positions drawn
 * from what the player to move may know (view_sample, seeded by `seed`), never the truth, and
 * plays the move most of them choose (time is shared among them). With a depth limit, the
 * same public facts, own secrets and seed give the same move whatever the others' secrets
 * are. The result's best move is one of truth's legal moves; false when there is none. */
#define SEARCH_SAMPLES_MAX 16
bool search_run_hidden(Searcher *s, const Position *truth, int samples, uint64_t seed, const SearchLimits *lim,
                       SearchResult *out);

/* "+0.35", "-1.20", "mate 3" (the mover mates in 3 moves), "-mate 2" (is mated). */
void search_format_score(int score, int nplayers, char *buf, size_t cap);

/* An identity of a move for tables (from, to, promotion and effects hashed); never 0. */
uint32_t search_move_sig(const Move *m);

/* Total value of what m captures (pieces on its destination or removed), by et's values. */
int search_capture_value(const EvalTables *et, const Position *pos, const Move *m);

/* Reference players for self-play. Both return an index into the legal list `ml` (count > 0).
 * greedy: the capture of the highest value (random among equals), else a random move. */
int search_pick_greedy(const EvalTables *et, const Position *pos, const MoveList *ml, uint64_t *rng);
int search_pick_random(const MoveList *ml, uint64_t *rng);
/* A move of the set-up step under way at random, every outcome of the step equally likely (a
 * plain random move once the set-up is over, or when the step has too many outcomes to count:
 * more than 200000 positions on the way). pos is made and unmade, and left as it was. */
int search_pick_setup(GenContext *ctx, Position *pos, const MoveList *ml, uint64_t *rng);

#endif
