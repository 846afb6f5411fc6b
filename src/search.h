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
    int depth;      /* deepest iteration, 1..MAX_PLY-8; 0 = as deep as time allows */
    double seconds; /* time for this move; 0 = no limit (then depth or clock must be set) */
    /* A clock instead: the time the mover has left for the game (or the period), what it gains
     * after each move, and the moves left in the period (0: the whole game). The search takes
     * its own share (search_time_budget); seconds must then be 0. */
    double clock, increment;
    int moves_to_go;
    bool ponder;      /* think on the opponent's time: no time limit until search_ponderhit */
    bool cpu_clock;   /* time is the search thread's CPU time, not the wall clock's (self-play
                     * on a busy machine stays fair; SearchInfo.seconds is then CPU time too) */
    uint64_t seed;    /* shuffles the root moves before the first iteration; 0 = no shuffle */
    uint64_t nodes;   /* stop after about this many nodes; 0 = no limit */
    int mate;         /* stop once a mate in at most this many moves is found; 0 = none */
    const Move *only; /* the root moves to search (legal ones; others ignored); NULL = all */
    int nonly;
} SearchLimits;

/* What the search does besides plain alpha-beta, each measured by self-play (docs/strength.md).
 * search_options_default gives every feature that gained; search_options_classic none, which
 * is the search as it was before them (the same nodes, move for move). */
typedef struct SearchOptions {
    bool null_move;  /* null-move pruning, where the game allows it (search_null_move_allowed) */
    bool lmr;        /* late quiet moves searched shallower first */
    bool aspiration; /* the root searched in a window around the last iteration's score */
    bool futility;   /* quiet moves near the leaves skipped when the score is far below alpha */
    bool see;        /* captures that lose the capturer for less (by the attack tests) skipped
                      * in quiescence */
    bool stable;     /* a move kept for several iterations ends the thinking early */
    bool rfp;        /* a node whose static score is far above beta near the leaves is cut */
    bool lmp;        /* late quiet moves near the leaves not searched at all */
    bool iir;        /* a node without a hash move searched a ply shallower */
    bool history;    /* history scores of both signs: a cut raises its move, lowers the quiet
                      * moves tried before it (else only raises) */
    bool qtable;     /* quiescence takes the transposition table's bounds */
    bool tuned;      /* the evaluation reads the rule file's `tuned` items */
    bool terms;      /* the evaluation's promotion and royal terms (eval_terms) */
    bool multi;      /* reductions, late-move pruning and futility also with more than two
                      * players, each moving once a round */
    bool early;      /* a clock with no moves to go is shared over 20 more moves, not 30: more
                      * thought in the opening and middle game, where games are decided */
    int skill;       /* 0..20 (20: full strength): weaker play by a shallower, noisy choice */
    int threads;     /* 1..SEARCH_THREADS_MAX: lazy SMP */
    int player;      /* SEARCH_GAMES_CHOICE, SEARCH_ALPHABETA or SEARCH_MCTS (mcts.h) */
} SearchOptions;

/* Which player searches: the one the rule file asks for (`tuned mcts 1`: Monte Carlo tree
 * search; else alpha-beta), or one of them whatever the rule file says. */
enum { SEARCH_GAMES_CHOICE, SEARCH_ALPHABETA, SEARCH_MCTS };

void search_options_default(SearchOptions *o);
void search_options_classic(SearchOptions *o);
/* Reads a comma-separated list of settings onto o: `default`, `classic`, a feature's name
 * (null, lmr, aspiration, futility, see, stable, tuned, rfp, lmp, iir, history, qtable, terms,
 * multi, early)
 * to turn it on or with a leading `-` off, `skill=N`, `threads=N`, and the player: `alphabeta` or `mcts` (`default` leaves the choice to
 * the rule file). False with a message naming the bad word in err. */
bool search_options_parse(const char *spec, SearchOptions *o, char *err, size_t cap);
/* The settings as such a list (every feature named, on or off). */
void search_options_format(const SearchOptions *o, char *buf, size_t cap);

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
/* Threads of one search (lazy SMP: helpers search the same position sharing the hash table;
 * the main thread's result is the answer), 1..SEARCH_THREADS_MAX. With more than one, node
 * counts and results vary from run to run. */
#define SEARCH_THREADS_MAX 64
void search_set_threads(Searcher *s, int n);
int search_threads(const Searcher *s);
/* A new hash table of about megabytes MB (cleared). */
void search_set_hash(Searcher *s, size_t megabytes);
size_t search_hash(const Searcher *s);
/* Sets what the search does (search_options_default until then). */
void search_set_options(Searcher *s, const SearchOptions *o);
const SearchOptions *search_options(const Searcher *s);
/* The time for one move on a clock: a share of what is left (the moves to go, or 30 more) and
 * most of the increment (*soft: the thinking may stop after it once the move is settled), and
 * never more than a third of what is left (*hard). Cannot fail. */
void search_time_budget(double clock, double increment, int moves_to_go, double *soft, double *hard);
/* Does the game allow null-move pruning (passing the move to see whether the other side can
 * still not reach beta)? Two players, turns of one move each, no pass that is a move of the
 * game, no capture that must be made, nothing hidden, and royal pieces or a stalemate that is
 * a draw: where having no move loses a game without royal pieces (Clobber), needing to move is
 * the game itself. Positions where the mover has only royal pieces and pawns-like pieces (those
 * that reset the n-move count) are left out at the node. */
bool search_null_move_allowed(const Variant *v);

/* The opponent played the move pondered on: the clock of lim starts now. Safe to call from
 * another thread while the search runs. */
void search_ponderhit(Searcher *s);

/* Does the searcher play by Monte Carlo tree search (its settings, or the rule file's choice)? */
bool search_uses_mcts(const Searcher *s);

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
