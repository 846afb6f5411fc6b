/* search.c - iterative-deepening alpha-beta over the rule file's legal moves.
 * Teams make one negamax serve every game: with two players each player is a team; with more,
 * the root player is one team and everyone else the other (paranoid search). A child node of
 * the same team (turn orders with repeats, or two coalition members in a row) keeps the window
 * and the sign; a child of the other team negates them. */
#include "search.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#include "ending.h"
#include "gameend.h"
#include "mcts.h"
#include "notation.h"
#include "tt.h"
#include "view.h"

/* The one mutable global of the engine: a signal handler (Ctrl-C in the console) can reach
 * nothing else. Everything else a search or generation needs is passed in (Searcher,
 * GenContext). */
volatile sig_atomic_t search_interrupt = 0;

#define INF 32000
#define CHECK_EVERY 64 /* nodes between clock checks (slow games run a few thousand a second) */
#define QS_MULTI_PLIES \
    4 /* quiescence plies beyond the main search, more than two players
                                    * or no check rule */

#define QS_PLIES 8 /* quiescence plies beyond the main search, any game */

/* Move ordering tiers: hash move, captures (MVV-LVA), promotions, killers, quiet by history. */
#define ORDER_HASH 2000000000
#define ORDER_CAPTURE 1000000000
#define ORDER_PROMO 900000000
#define ORDER_KILLER 800000000
#define HISTORY_MAX 100000000
/* Static scores kept per searcher, keyed by the position: iterative deepening and the pruning's
 * look at the static score evaluate the same positions again and again. */
#define EVAL_CACHE_BITS 16

struct Searcher {
    const Variant *v;
    EvalTables et;
    TT *tt; /* &own_tt, or the main searcher's for a helper thread */
    TT own_tt;
    /* lazy SMP: helpers search the same root on threads of their own, sharing the table, until
     * the main search sets halt */
    int nthreads;
    Searcher *helpers[SEARCH_THREADS_MAX - 1];
    _Atomic bool halt;
    _Atomic bool *halted_by; /* a helper's: its main searcher's halt */
    int depth_skew;          /* a helper's: searches each iteration this much deeper */
    bool pondering;          /* no time limit until the ponder hit */
    _Atomic bool ponderhit;  /* set by search_ponderhit, taken by the search's thread */
    uint64_t skill_seed;     /* a weakened player's noise: drawn per move from this and the move */
    int skill_most;          /* the noise's most (0: full strength) */
    Position pos;
    GenContext gen; /* the search's own move generation state */
    MoveList *lists[MAX_PLY + 1];
    int *order[MAX_PLY + 1]; /* ordering scores parallel to lists[ply] */
    /* a tournament over order[ply] from which pick takes the best move of a long list (heap
     * layout: node k plays 2k and 2k+1, leaves from pick_size[ply]; -1: no move), 0: not built */
    int *pick_tree[MAX_PLY + 1];
    int pick_size[MAX_PLY + 1];
    uint32_t killers[MAX_PLY + 1][2];
    int *history; /* [from * ncells + to] */
    /* each slot: the key's high 48 bits above the score's 16 (0: empty); cleared per search,
     * for a score depends on the root player with more than two and on the settings */
    uint64_t *eval_cache;
    uint64_t nodes;
    SearchOptions opt;
    bool null_ok;                  /* the game allows null moves (search_null_move_allowed) */
    bool null_before[MAX_PLY + 2]; /* [ply]: the move into this ply was a null move */
    int root_player;
    int iter_depth;
    bool stop;
    bool timed;
    struct timespec start;
    clockid_t clock_id;  /* wall time, or the thread's CPU time (SearchLimits.cpu_clock) */
    double limit;        /* seconds: the hard limit */
    double soft;         /* seconds: the share of a clock (0: a fixed time per move) */
    uint64_t node_limit; /* 0: none */
};

/* ---- options ---------------------------------------------------------------------------------- */

void search_options_classic(SearchOptions *o) { *o = (SearchOptions){.skill = 20, .threads = 1}; }

void search_options_default(SearchOptions *o) {
    search_options_classic(o);
    o->null_move = o->lmr = o->aspiration = o->futility = o->see = o->stable = o->tuned = o->terms = true;
    o->rfp = o->lmp = o->iir = o->history = o->qtable = true;
    o->multi = o->early = true;
}

static const struct {
    const char *name;
    size_t offset;
} features[] = {
    {"null", offsetof(SearchOptions, null_move)},
    {"lmr", offsetof(SearchOptions, lmr)},
    {"aspiration", offsetof(SearchOptions, aspiration)},
    {"futility", offsetof(SearchOptions, futility)},
    {"see", offsetof(SearchOptions, see)},
    {"stable", offsetof(SearchOptions, stable)},
    {"tuned", offsetof(SearchOptions, tuned)},
    {"rfp", offsetof(SearchOptions, rfp)},
    {"lmp", offsetof(SearchOptions, lmp)},
    {"iir", offsetof(SearchOptions, iir)},
    {"history", offsetof(SearchOptions, history)},
    {"qtable", offsetof(SearchOptions, qtable)},
    {"terms", offsetof(SearchOptions, terms)},
    {"multi", offsetof(SearchOptions, multi)},
    {"early", offsetof(SearchOptions, early)},
};

bool search_options_parse(const char *spec, SearchOptions *o, char *err, size_t cap) {
    char copy[256];
    if (strlen(spec) >= sizeof copy) {
        snprintf(err, cap, "settings too long (at most %zu characters)", sizeof copy - 1);
        return false;
    }
    snprintf(copy, sizeof copy, "%s", spec);
    for (char *save = NULL, *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (!strcmp(w, "default")) {
            search_options_default(o);
            continue;
        }
        if (!strcmp(w, "classic")) {
            search_options_classic(o);
            continue;
        }
        if (!strcmp(w, "alphabeta") || !strcmp(w, "mcts")) {
            o->player = w[0] == 'm' ? SEARCH_MCTS : SEARCH_ALPHABETA;
            continue;
        }
        if (!strncmp(w, "skill=", 6) || !strncmp(w, "threads=", 8)) {
            bool skill = w[0] == 's';
            const char *num = w + (skill ? 6 : 8);
            char *end;
            long n = strtol(num, &end, 10);
            long most = skill ? 20 : SEARCH_THREADS_MAX;
            if (end == num || *end || n < !skill || n > most) {
                snprintf(err, cap, "bad %s '%s' (%d..%ld)", skill ? "skill" : "threads", num, !skill, most);
                return false;
            }
            *(skill ? &o->skill : &o->threads) = (int)n;
            continue;
        }
        bool on = w[0] != '-';
        const char *name = w + (w[0] == '-' || w[0] == '+');
        size_t i = 0;
        while (i < ARRAY_LEN(features) && strcmp(features[i].name, name)) i++;
        if (i == ARRAY_LEN(features)) {
            snprintf(err, cap,
                     "unknown setting '%s' (default, classic, null, lmr, aspiration, futility, see, stable, tuned, "
                     "rfp, lmp, iir, history, qtable, terms, multi, early, skill=N, threads=N, alphabeta, mcts)",
                     w);
            return false;
        }
        *(bool *)((char *)o + features[i].offset) = on;
    }
    return true;
}

void search_options_format(const SearchOptions *o, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < ARRAY_LEN(features); i++) {
        bool on = *(const bool *)((const char *)o + features[i].offset);
        at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, "%s%s%s", i ? "," : "", on ? "" : "-",
                               features[i].name);
    }
    if (o->skill != 20) at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, ",skill=%d", o->skill);
    if (o->threads != 1) at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, ",threads=%d", o->threads);
    if (o->player != SEARCH_GAMES_CHOICE)
        snprintf(buf + at, at < cap ? cap - at : 0, ",%s", o->player == SEARCH_MCTS ? "mcts" : "alphabeta");
}

bool search_null_move_allowed(const Variant *v) {
    return v->nplayers == 2 && v->nturns == 2 && !v->nphases && !v->pass_move && !v->must_capture && !v->nforced &&
        !variant_has_secrets(v) && (v->has_royal || (v->on_stalemate == RESULT_DRAW && !v->stalemate_by_player));
}

void search_time_budget(double clock, double increment, int moves_to_go, double *soft, double *hard) {
    if (clock < 0) clock = 0;
    int togo = moves_to_go > 0 ? moves_to_go : 30;
    double share = clock / togo + 0.8 * increment;
    double most = clock / 3;
    if (share > most) share = most;
    *soft = share < 0.005 ? 0.005 : share;
    /* an unsettled move may think longer, up to three shares, never a third of the clock */
    double h = 3 * share;
    *hard = h > most ? (most > *soft ? most : *soft) : h;
}

/* ---- small helpers --------------------------------------------------------------------------- */

uint32_t search_move_sig(const Move *m) {
    uint64_t h = 1469598103934665603ULL;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 1099511628211ULL)
    MIX(m->from);
    MIX(m->to);
    MIX(m->promo);
    MIX(m->castle);
    for (int i = 0; i < m->nfx; i++) {
        MIX(m->fx[i].kind);
        MIX(m->fx[i].a);
        MIX(m->fx[i].b);
        MIX(m->fx[i].piece);
    }
#undef MIX
    uint32_t s = (uint32_t)(h ^ (h >> 32));
    return s ? s : 1;
}

int search_capture_value(const EvalTables *et, const Position *pos, const Move *m) {
    return eval_capture_value(et, pos, m);
}

static double elapsed_on(clockid_t id, const struct timespec *t0) {
    struct timespec t;
    clock_gettime(id, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

#define PICK_TREE_LEAVES 1024 /* a power of two, at least MAX_MOVES */
_Static_assert(PICK_TREE_LEAVES >= MAX_MOVES, "the pick tree holds a whole move list");
#define PICK_TREE_FROM 3  /* pick scans the first moves: a node is often cut by then */
#define PICK_TREE_REST 48 /* and lists with fewer moves left */

static MoveList *list_at(Searcher *s, int ply) {
    if (!s->lists[ply]) {
        s->lists[ply] = xmalloc(sizeof(MoveList));
        s->order[ply] = xmalloc(sizeof(int) * MAX_MOVES);
        s->pick_tree[ply] = xmalloc(sizeof(int) * 2 * PICK_TREE_LEAVES);
    }
    return s->lists[ply];
}

static inline int team(const Searcher *s, int player) {
    if (s->v->nplayers <= 2) return player;
    return player == s->root_player ? 0 : 1;
}

/* Static score of the position for `player`, from the cache when it holds it. */
static int cached_eval(Searcher *s, int player) {
    uint64_t key = s->pos.key;
    uint64_t *slot = &s->eval_cache[key & ((1u << EVAL_CACHE_BITS) - 1)];
    uint64_t tag = key & ~0xffffull;
    if (*slot && (*slot & ~0xffffull) == tag) return (int16_t)(*slot & 0xffff);
    int e = eval_position(&s->et, &s->pos, player);
    if (e >= INT16_MIN && e <= INT16_MAX) *slot = tag | (uint16_t)e;
    return e;
}

/* Static score for the player to move (its team's view). */
static int evaluate(Searcher *s) {
    int mover = board_mover(&s->pos);
    if (s->v->nplayers <= 2) return cached_eval(s, mover);
    int e = cached_eval(s, s->root_player);
    return team(s, mover) == 0 ? e : -e;
}

/* Score of a finished game for the player to move at `ply`. */
static int outcome_score(Searcher *s, const GameResult *r, int ply) {
    const Variant *v = s->v;
    int mover = board_mover(&s->pos);
    int w = 0;
    if (r->winner >= 0)
        w = team(s, r->winner) == team(s, mover) ? 1 : -1;
    else if (v->nplayers > 2) {
        /* with more than two players a lost game has no single winner: the mover is out */
        ResultKind k = !strcmp(r->reason, "checkmate") ? v->on_checkmate
            : !strcmp(r->reason, "stalemate")          ? v->on_stalemate
                                                       : RESULT_DRAW;
        w = k == RESULT_LOSS ? -1 : k == RESULT_WIN ? 1 : 0;
    }
    return w > 0 ? SEARCH_MATE - ply : w < 0 ? -(SEARCH_MATE - ply) : 0;
}

void search_ponderhit(Searcher *s) { atomic_store(&s->ponderhit, true); }

static void check_time(Searcher *s) {
    if (s->pondering && atomic_load_explicit(&s->ponderhit, memory_order_relaxed)) {
        /* the move pondered on was played: the clock starts now */
        s->pondering = false;
        clock_gettime(s->clock_id, &s->start);
    }
    if (search_interrupt || (s->halted_by && atomic_load_explicit(s->halted_by, memory_order_relaxed)))
        s->stop = true;
    else if (s->timed && !s->pondering && elapsed_on(s->clock_id, &s->start) >= s->limit)
        s->stop = true;
    else if (s->node_limit && s->nodes >= s->node_limit)
        s->stop = true;
}

/* Mate scores are stored relative to the node, not the root. */
static int to_tt(int score, int ply) {
    return score > SEARCH_MATE_BOUND ? score + ply : score < -SEARCH_MATE_BOUND ? score - ply : score;
}
static int from_tt(int score, int ply) {
    return score > SEARCH_MATE_BOUND ? score - ply : score < -SEARCH_MATE_BOUND ? score + ply : score;
}

/* A move's slot in the history table (-1: a move with no cells, a pass). */
static int move_index(const Searcher *s, const Move *m) {
    if (m->from == NO_CELL || m->to == NO_CELL) return -1;
    return (int)((size_t)m->from * (size_t)s->v->ncells + m->to);
}

static void score_moves(Searcher *s, int ply, uint32_t hash_move) {
    MoveList *ml = s->lists[ply];
    int *sc = s->order[ply];
    const Position *pos = &s->pos;
    s->pick_size[ply] = 0;
    for (int i = 0; i < ml->count; i++) {
        const Move *m = &ml->moves[i];
        uint32_t sig = search_move_sig(m);
        int victim = (m->flags & MOVE_CAPTURE) ? search_capture_value(&s->et, pos, m) : 0;
        if (hash_move && sig == hash_move)
            sc[i] = ORDER_HASH;
        else if (victim > 0 || (m->flags & MOVE_CAPTURE)) {
            int attacker = eval_piece_value(&s->et, pos->cell[m->from]);
            sc[i] = ORDER_CAPTURE + victim * 64 - attacker / 16;
        } else if (m->promo != NO_TYPE)
            sc[i] = ORDER_PROMO + s->et.value[m->promo];
        else if (sig == s->killers[ply][0])
            sc[i] = ORDER_KILLER + 1;
        else if (sig == s->killers[ply][1])
            sc[i] = ORDER_KILLER;
        else {
            int at = move_index(s, m);
            sc[i] = at >= 0 ? s->history[at] : 0;
        }
    }
}

/* The better of two moves' slots in order[] (-1: none): the higher score, the first on a tie. */
static inline int pick_winner(const int *sc, int a, int b) {
    if (a < 0 || b < 0) return a < 0 ? b : a;
    return sc[b] > sc[a] ? b : a;
}

/* Plays the tournament again on the way up from leaf j. */
static void pick_tree_replay(int *tree, const int *sc, int size, int j) {
    for (int k = (size + j) >> 1; k >= 1; k >>= 1) tree[k] = pick_winner(sc, tree[2 * k], tree[2 * k + 1]);
}

/* Swaps the best-scored remaining move into slot i (selection sort, lazily; the first of the
 * best on a tie). Long lists, where drops make hundreds of moves, keep a tournament of their
 * remaining moves so that each pick costs the log of the list, not the list: the same moves
 * in the same order. */
static void pick(Searcher *s, int ply, int i) {
    MoveList *ml = s->lists[ply];
    int *sc = s->order[ply];
    int best = i;
    int *tree = s->pick_tree[ply];
    int size = s->pick_size[ply];
    if (!size && i >= PICK_TREE_FROM && ml->count - i > PICK_TREE_REST) {
        for (size = 1; size < ml->count; size *= 2) {}
        for (int j = 0; j < size; j++) tree[size + j] = j >= i && j < ml->count ? j : -1;
        for (int k = size - 1; k >= 1; k--) tree[k] = pick_winner(sc, tree[2 * k], tree[2 * k + 1]);
        s->pick_size[ply] = size;
    }
    if (size)
        best = tree[1];
    else
        for (int j = i + 1; j < ml->count; j++)
            if (sc[j] > sc[best]) best = j;
    if (best != i) {
        Move tm = ml->moves[i];
        ml->moves[i] = ml->moves[best];
        ml->moves[best] = tm;
        int t = sc[i];
        sc[i] = sc[best];
        sc[best] = t;
    }
    if (size) {
        tree[size + i] = -1;
        pick_tree_replay(tree, sc, size, i);
        if (best != i) pick_tree_replay(tree, sc, size, best);
    }
}

/* ---- the search -------------------------------------------------------------------------------- */

/* Pseudo-legal moves (restricted to the captures a must-capture rule demands, or to the
 * captures when one is legal under `must-capture`). Legality is
 * tested lazily, after making a move, so moves cut off are never tested. */
static void generate(Searcher *s, MoveList *ml) {
    VmFault f = {0};
    movegen_pseudo(&s->gen, &s->pos, ml, &f);
    Cell forced[MAX_FORCED];
    int nforced = movegen_forced(&s->pos, forced);
    bool captures_only = unlikely(s->v->must_capture) && movegen_must_capture(&s->gen, &s->pos, ml);
    if (!nforced && !captures_only) return;
    int n = 0;
    for (int i = 0; i < ml->count; i++)
        if (movegen_captures_all(&ml->moves[i], forced, nforced) && movegen_allowed(&ml->moves[i], captures_only))
            ml->moves[n++] = ml->moves[i];
    ml->count = n;
}

/* Makes m; false (and nothing made) when the history is full or m leaves the mover's royal
 * piece capturable. */
static bool make_legal(Searcher *s, const Move *m) {
    Position *pos = &s->pos;
    int mover = board_mover(pos);
    if (!board_make(pos, m)) return false;
    tt_prefetch(s->tt, pos->key);
    if (!movegen_made_is_legal(&s->gen, pos, m, mover)) {
        board_unmake(pos);
        return false;
    }
    return true;
}

static int qsearch(Searcher *s, int alpha, int beta, int ply);
static int search_node(Searcher *s, int depth, int alpha, int beta, int ply, bool in_check);
static bool settled(Searcher *s, int depth, int alpha, int beta, int ply, int *score);

/* Value of the child just made, seen from the parent's team (in_check: its mover is in check). */
static int child(Searcher *s, bool same, int depth, int alpha, int beta, int ply, bool in_check) {
    if (depth <= 0) return same ? qsearch(s, alpha, beta, ply) : -qsearch(s, -beta, -alpha, ply);
    return same ? search_node(s, depth, alpha, beta, ply, in_check)
                : -search_node(s, depth, -beta, -alpha, ply, in_check);
}

/* Does m take a piece of the other team? (With more than two players, captures among the
 * coalition change nothing the paranoid search cares about and would blow up quiescence.) */
static bool takes_from_other_team(Searcher *s, const Move *m, int mover_team) {
    const Position *pos = &s->pos;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        Cell c = e->kind == FX_REMOVE ? e->a : e->kind == FX_MOVE ? e->b : NO_CELL;
        if (c == NO_CELL || !pos->cell[c]) continue;
        if (team(s, pos->controller[PIECE_OWNER(pos->cell[c])]) != mover_team) return true;
    }
    return false;
}

#define SEE_MARGIN 50    /* a capture giving up this much more than it takes may lose */
#define DELTA_MARGIN 200 /* quiescence: a capture that cannot lift the score near alpha */

/* The static exchange, to its first reply, from the generic attack tests: after the capture m
 * (just made), does the piece that made it stand where the other side can take it, having
 * taken less than it is worth? (A capture by moving whose piece lands elsewhere is judged the
 * same way on its landing cell.) */
static bool losing_capture(Searcher *s, const Move *m, int taken) {
    Position *pos = &s->pos;
    Piece p = m->to != NO_CELL ? pos->cell[m->to] : 0;
    if (!p || (m->flags & (MOVE_PROMOTION | MOVE_DROP)) || variant_royal(s->v, PIECE_OWNER(p), PIECE_TYPE(p)))
        return false;
    if (eval_piece_value(&s->et, p) <= taken + SEE_MARGIN) return false;
    return attack_is_attacked(&s->gen, pos, m->to, PIECE_OWNER(p), p);
}

static int qsearch(Searcher *s, int alpha, int beta, int ply) {
    Position *pos = &s->pos;
    if ((++s->nodes & (CHECK_EVERY - 1)) == 0) check_time(s);
    if (s->stop) return 0;
    int settled_score;
    if (settled(s, 0, alpha, beta, ply, &settled_score)) return settled_score;
    /* a main search's result for this position holds here too (any depth is deep enough) */
    TTEntry e;
    if (s->opt.qtable && tt_probe(s->tt, pos->key, &e)) {
        int sc = from_tt(e.score, ply);
        if (e.bound == TT_EXACT || (e.bound == TT_LOWER && sc >= beta) || (e.bound == TT_UPPER && sc <= alpha))
            return sc;
    }
    int stand = evaluate(s);
    if (ply >= MAX_PLY - 1 || stand >= beta) return stand;
    /* more than two players: capture chains through several armies get long; without the check
     * rule (games where every move may capture, as in Clobber) they may never end: cut them short */
    bool long_chains = s->v->nplayers > 2 || !s->v->forbid_royal_capture;
    if (long_chains && ply >= 2 * s->iter_depth + QS_MULTI_PLIES) return stand;
    /* even with two players, an army of hoppers that take each other in any order can make the
     * exchanges explode: past a long chain the static score stands */
    if (ply >= 2 * s->iter_depth + QS_PLIES) return stand;
    if (stand > alpha) alpha = stand;
    MoveList *ml = list_at(s, ply);
    generate(s, ml);
    int mover_team = team(s, board_mover(pos));
    /* only captures (of the other team) and promotions: the position is quiet when none is left */
    int n = 0;
    for (int i = 0; i < ml->count; i++) {
        const Move *m = &ml->moves[i];
        if ((m->flags & MOVE_PROMOTION) || ((m->flags & MOVE_CAPTURE) && takes_from_other_team(s, m, mover_team)))
            ml->moves[n++] = *m;
    }
    /* where every move captures, captures do not settle anything: the static score stands */
    if (long_chains && n == ml->count) return alpha;
    ml->count = n;
    score_moves(s, ply, 0);
    bool prune = s->v->nplayers == 2 && !long_chains;
    for (int i = 0; i < ml->count; i++) {
        pick(s, ply, i);
        const Move *m = &ml->moves[i];
        int taken = (s->opt.see || s->opt.futility) && prune ? search_capture_value(&s->et, pos, m) : 0;
        /* delta pruning: even winning the piece leaves the score far below alpha */
        if (s->opt.futility && prune && !(m->flags & MOVE_PROMOTION) && stand + taken + DELTA_MARGIN <= alpha) continue;
        if (!make_legal(s, m)) continue;
        if (s->opt.see && prune && losing_capture(s, m, taken)) {
            board_unmake(pos);
            continue;
        }
        bool same = team(s, board_mover(pos)) == mover_team;
        int val = same ? qsearch(s, alpha, beta, ply + 1) : -qsearch(s, -beta, -alpha, ply + 1);
        board_unmake(pos);
        if (s->stop) return 0;
        if (val > alpha) {
            alpha = val;
            if (val >= beta) return val;
        }
    }
    return alpha;
}

/* More than two players: a defeated player leaves and the game goes on. The search plays the
 * elimination move (as the console does) and goes on at the same depth. */
static int after_elimination(Searcher *s, const GameResult *r, int depth, int alpha, int beta, int ply) {
    Position *pos = &s->pos;
    Move m;
    gameend_elimination(pos, r->eliminated, r->victor, &m);
    int mover_team = team(s, board_mover(pos));
    if (ply >= MAX_PLY - 2 || !board_make(pos, &m)) return evaluate(s);
    bool same = team(s, board_mover(pos)) == mover_team;
    int val = child(s, same, depth, alpha, beta, ply + 1, false);
    board_unmake(pos);
    return val;
}

/* The game's verdict where a move has just ended it, before any reply is tried: a royal piece
 * gone (captured with more than two players or where royal pieces may be captured, exploded,
 * or exposed by a mine), an ending the position decides (extinction, a bare king, a zone
 * reached, checks given), a player with too few pieces (`end pieces`). Scored here, where the
 * move that ended the game was made, so the search sees it at once and counts the distance to
 * it right. Returns true with *score when the node is settled. */
static bool settled(Searcher *s, int depth, int alpha, int beta, int ply, int *score) {
    const Variant *v = s->v;
    /* (with two players and the check rule a royal piece can be lost only to an explosion, to
     * a hidden mine, or where royal capture is allowed) */
    bool royal = (v->nplayers > 2 || v->minefield_zone || !v->forbid_royal_capture || v->blast_mask) &&
        gameend_royal_lost(&s->pos) >= 0;
    bool decided = !royal && unlikely(v->decided_by_position) && ending_decided(&s->gen, &s->pos, NULL);
    if (!royal && !decided && !(unlikely(v->pieces_limit) && gameend_pieces_out(&s->pos) >= 0)) return false;
    GameResult r;
    gameend_check(&s->gen, &s->pos, &r);
    if (r.over)
        *score = outcome_score(s, &r, ply);
    else if (r.eliminated >= 0)
        *score = after_elimination(s, &r, depth, alpha, beta, ply);
    else
        return false;
    return true;
}

/* Score of a node whose player to move has no legal move. */
static int no_move_score(Searcher *s, int depth, int alpha, int beta, int ply) {
    GameResult r;
    gameend_check(&s->gen, &s->pos, &r);
    if (r.eliminated >= 0 && !r.over) return after_elimination(s, &r, depth, alpha, beta, ply);
    return r.over ? outcome_score(s, &r, ply) : evaluate(s); /* (not over: history full) */
}

static bool gives_check(Searcher *s) {
    return s->v->has_royal && !movegen_safe_after(&s->gen, &s->pos, board_mover(&s->pos));
}

/* Is the checking move m (just made) worth a ply more? Not when the piece it moved or dropped
 * stands where the enemy takes it and none of its own could take back: with pieces in hand
 * such checks abound, and extending each of them kept the search shallow. (Two armies; a
 * royal piece that moves and uncovers a check is extended as any.) */
static bool check_extends(Searcher *s, const Move *m) {
    Position *pos = &s->pos;
    Piece p = m->to != NO_CELL ? pos->cell[m->to] : 0;
    if (!p || s->v->nowners != 2) return true;
    int o = PIECE_OWNER(p), t = PIECE_TYPE(p);
    if (variant_royal(s->v, o, t) || !attack_is_attacked(&s->gen, pos, m->to, o, p)) return true;
    return attack_is_attacked(&s->gen, pos, m->to, 1 - o, PIECE_MAKE(t, 1 - o));
}

/* Does the mover have pieces besides its royal ones and those that reset the n-move count
 * (pawns)? Where it has none, having to move may hurt (zugzwang): no null move there. */
static bool has_officers(const Position *pos) {
    const Variant *v = pos->v;
    int mover = board_mover(pos);
    for (int t = 0; t < v->ntypes; t++) {
        if (v->types[t].royal || v->types[t].resets_nmove) continue;
        for (int w = 0; w < v->cell_words; w++)
            if (pos->type_occ[t][w] & pos->occ[mover][w]) return true;
    }
    return false;
}

#define FUTILITY_MARGIN 120 /* per ply of depth left (at most FUTILITY_DEPTH) */
#define FUTILITY_DEPTH 2
#define LMR_FIRST 3    /* moves searched at full depth before reductions start */
#define RFP_MARGIN 100 /* per ply of depth left (at most RFP_DEPTH) */
#define RFP_DEPTH 6
#define LMP_DEPTH 4         /* late-move pruning at this depth and below */
#define HISTORY_LIMIT 16384 /* history scores stay within +-this (gravity) */

/* Late-move reductions: about half of ln(depth) * ln(move number), as deep searches of
 * many moves can spare more. */
static int lmr_table[64][64];
static pthread_once_t lmr_once = PTHREAD_ONCE_INIT;

static void lmr_init(void) {
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++) lmr_table[d][m] = (int)(0.5 + 0.5 * log(d) * log(m));
}

/* A history score moved toward +-HISTORY_LIMIT by bonus, the more slowly the nearer it is. */
static void history_add(int *h, int bonus) { *h += bonus - *h * abs(bonus) / HISTORY_LIMIT; }

static int search_node(Searcher *s, int depth, int alpha, int beta, int ply, bool in_check) {
    Position *pos = &s->pos;
    const Variant *v = s->v;
    if ((++s->nodes & (CHECK_EVERY - 1)) == 0) check_time(s);
    if (s->stop) return 0;
    if (ply >= MAX_PLY - 1) return evaluate(s);
    /* a repeated position is scored as a draw: going round in circles gains nothing */
    if (gameend_repetitions(pos) > 0) return 0;
    int settled_score;
    if (settled(s, depth, alpha, beta, ply, &settled_score)) return settled_score;

    int alpha0 = alpha;
    bool pv = beta - alpha > 1;
    uint32_t hash_move = 0;
    TTEntry e;
    if (tt_probe(s->tt, pos->key, &e)) {
        hash_move = e.move;
        if (e.depth >= depth) {
            int sc = from_tt(e.score, ply);
            if (e.bound == TT_EXACT || (e.bound == TT_LOWER && sc >= beta) || (e.bound == TT_UPPER && sc <= alpha))
                return sc;
        }
    }

    /* end conditions other than "no legal move" (which shows after the move loop) */
    if ((v->nmove && pos->halfmove >= v->nmove * (v->nplayers > 2 ? gameend_alive_count(pos) : v->nturns)) ||
        (pos->halfmove == 0 && v->nmaterial) || gameend_count_out(pos)) {
        GameResult r;
        gameend_check(&s->gen, pos, &r);
        if (r.over) return outcome_score(s, &r, ply);
    }

    /* the pruning below is for two players whose sides alternate; reductions, late-move
     * pruning and futility also serve more players who each move once a round (setting multi) */
    bool two = v->nplayers == 2 && v->nturns == 2 && !v->nphases;
    bool rounds = two || (s->opt.multi && v->nplayers > 2 && v->nturns == v->nplayers && !v->nphases);

    /* without a hash move this node is new, or was cut before: spend less on it */
    if (s->opt.iir && two && !hash_move && depth >= 4 && !in_check) depth--;

    /* the static score, for the pruning below */
    int stand = 0;
    if (rounds && !in_check && !pv && (s->opt.null_move || s->opt.futility || s->opt.rfp)) stand = evaluate(s);

    /* reverse futility: so far above beta near the leaves that no reply will bring it back */
    if (s->opt.rfp && s->null_ok && two && !pv && !in_check && depth <= RFP_DEPTH &&
        stand - RFP_MARGIN * depth >= beta && stand < SEARCH_MATE_BOUND && beta > -SEARCH_MATE_BOUND)
        return stand;

    /* null move: when passing still holds beta, a real move will (except in zugzwang) */
    if (s->opt.null_move && s->null_ok && !pv && !in_check && depth >= 3 && !s->null_before[ply] && stand >= beta &&
        beta < SEARCH_MATE_BOUND && pos->prelude >= v->nprelude && has_officers(pos)) {
        Move null;
        memset(&null, 0, sizeof null);
        null.promo = NO_TYPE;
        null.flags = MOVE_PASS;
        null.from = null.to = NO_CELL;
        if (board_make(pos, &null)) {
            /* deeper, and the further the static score stands above beta, the more */
            int surplus = (stand - beta) / 200;
            int r = 3 + depth / 3 + (surplus < 3 ? surplus : 3);
            s->null_before[ply + 1] = true;
            int val = child(s, false, depth - 1 - r, beta - 1, beta, ply + 1, false);
            s->null_before[ply + 1] = false;
            board_unmake(pos);
            if (s->stop) return 0;
            if (val >= beta) return val > SEARCH_MATE_BOUND ? beta : val;
        }
    }
    bool futile = s->opt.futility && rounds && !pv && !in_check && depth <= FUTILITY_DEPTH &&
        stand + FUTILITY_MARGIN * depth <= alpha && alpha > -SEARCH_MATE_BOUND && alpha < SEARCH_MATE_BOUND;

    MoveList *ml = list_at(s, ply);
    generate(s, ml);

    score_moves(s, ply, hash_move);
    int mover_team = team(s, board_mover(pos));
    int best = -INF, legal = 0;
    uint32_t best_sig = 0;
    bool late_prune = s->opt.lmp && rounds && !pv && !in_check && depth <= LMP_DEPTH;
    int quiets[64], nquiets = 0; /* the quiet moves tried, as history indices */
    for (int i = 0; i < ml->count; i++) {
        pick(s, ply, i);
        Move *m = &ml->moves[i];
        bool quiet = !(m->flags & MOVE_CAPTURE) && m->promo == NO_TYPE;
        if (!make_legal(s, m)) continue;
        legal++;
        bool same = team(s, board_mover(pos)) == mover_team;
        bool check = gives_check(s);
        int ext = (ply < 2 * s->iter_depth && check && check_extends(s, m)) ? 1 : 0;
        int d = depth - 1 + ext;
        /* futility: a quiet move that gives no check cannot lift a score this far below alpha */
        if (futile && quiet && !check && legal > 1) {
            board_unmake(pos);
            continue;
        }
        /* late-move pruning: near the leaves, quiet moves this late are not worth a look */
        if (late_prune && quiet && !check && legal > 3 + depth * depth && s->order[ply][i] < ORDER_KILLER &&
            best > -SEARCH_MATE_BOUND) {
            board_unmake(pos);
            continue;
        }
        int hist_index = move_index(s, m);
        if (quiet && hist_index >= 0 && nquiets < (int)ARRAY_LEN(quiets)) quiets[nquiets++] = hist_index;
        int val;
        if (legal == 1)
            val = child(s, same, d, alpha, beta, ply + 1, check);
        else {
            /* late quiet moves are searched shallower first; a move that beats alpha there is
             * searched again at full depth */
            int r = 0;
            if (s->opt.lmr && rounds && quiet && !check && !in_check && depth >= 3 && legal > LMR_FIRST) {
                r = lmr_table[depth < 64 ? depth : 63][legal < 64 ? legal : 63];
                if (pv) r--;
                if (s->order[ply][i] >= ORDER_KILLER) r--;
                /* moves that cut often elsewhere are reduced less, those that never do more */
                if (hist_index >= 0 && s->opt.history) r -= s->history[hist_index] * 2 / HISTORY_LIMIT;
                if (r > d - 1) r = d - 1;
                if (r < 0) r = 0;
            }
            /* principal variation search: prove the move is no better with a null window */
            val = child(s, same, d - r, alpha, alpha + 1, ply + 1, check);
            if (r > 0 && val > alpha && !s->stop) val = child(s, same, d, alpha, alpha + 1, ply + 1, check);
            if (val > alpha && val < beta && !s->stop) val = child(s, same, d, alpha, beta, ply + 1, check);
        }
        board_unmake(pos);
        if (s->stop) return 0;
        if (val > best) {
            best = val;
            best_sig = search_move_sig(m);
        }
        if (val > alpha) alpha = val;
        if (alpha >= beta) {
            if (quiet) {
                uint32_t sig = search_move_sig(m);
                if (s->killers[ply][0] != sig) {
                    s->killers[ply][1] = s->killers[ply][0];
                    s->killers[ply][0] = sig;
                }
                if (hist_index >= 0 && !s->opt.history) {
                    int *h = &s->history[hist_index];
                    *h += depth * depth;
                    if (*h > HISTORY_MAX) *h = HISTORY_MAX;
                } else if (hist_index >= 0) {
                    /* this move up, the quiet moves tried before it down */
                    int bonus = depth * depth < 1200 ? depth * depth * 8 : 9600;
                    for (int q = 0; q < nquiets; q++)
                        if (quiets[q] != hist_index) history_add(&s->history[quiets[q]], -bonus);
                    history_add(&s->history[hist_index], bonus);
                }
            }
            break;
        }
    }
    if (legal == 0) return no_move_score(s, depth, alpha, beta, ply);
    /* every move was futile but the first: the node stays below alpha */
    if (best == -INF) best = alpha0;
    int bound = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    tt_store(s->tt, pos->key, best_sig, to_tt(best, ply), depth, bound);
    return best;
}

/* ---- the root -------------------------------------------------------------------------------- */

/* The principal variation: the best root move, then hash moves as long as they are legal. */
static void collect_pv(Searcher *s, const Move *first, SearchInfo *info) {
    Position *pos = &s->pos;
    info->pvlen = 0;
    info->pv[info->pvlen++] = *first;
    int made = 0;
    if (board_make(pos, first)) {
        made++;
        while (info->pvlen < SEARCH_PV_MAX && made < MAX_PLY - 1) {
            TTEntry e;
            if (!tt_probe(s->tt, pos->key, &e) || !e.move || gameend_repetitions(pos) > 0) break;
            MoveList *ml = list_at(s, made);
            VmFault f = {0};
            movegen_legal(&s->gen, pos, ml, &f);
            int found = -1;
            for (int i = 0; i < ml->count && found < 0; i++)
                if (search_move_sig(&ml->moves[i]) == e.move) found = i;
            if (found < 0) break;
            info->pv[info->pvlen++] = ml->moves[found];
            if (!board_make(pos, &ml->moves[found])) break;
            made++;
        }
    }
    while (made--) board_unmake(pos);
}

/* The root moves' order for the first iteration: shuffled by seed (when not 0), then the
 * usual ordering, stable so the shuffle breaks ties. */
static void order_root_moves(Searcher *s, MoveList *rl, uint64_t seed) {
    if (seed) {
        uint64_t st = seed * 0x9E3779B97F4A7C15ULL | 1;
        for (int i = rl->count - 1; i > 0; i--) {
            int j = (int)(rng_next(&st) % (uint64_t)(i + 1));
            Move t = rl->moves[i];
            rl->moves[i] = rl->moves[j];
            rl->moves[j] = t;
        }
    }
    TTEntry e;
    score_moves(s, 0, tt_probe(s->tt, s->pos.key, &e) ? e.move : 0);
    for (int i = 1; i < rl->count; i++) {
        Move m = rl->moves[i];
        int sc = s->order[0][i], j = i;
        while (j > 0 && s->order[0][j - 1] < sc) {
            rl->moves[j] = rl->moves[j - 1];
            s->order[0][j] = s->order[0][j - 1];
            j--;
        }
        rl->moves[j] = m;
        s->order[0][j] = sc;
    }
}

/* Keeps the moves of rl that are among only[0..n) (all of them when none is). */
static void keep_only(MoveList *rl, const Move *only, int n) {
    int kept = 0;
    for (int i = 0; i < rl->count; i++) {
        uint32_t sig = search_move_sig(&rl->moves[i]);
        bool wanted = false;
        for (int j = 0; j < n && !wanted; j++) wanted = search_move_sig(&only[j]) == sig;
        if (wanted) rl->moves[kept++] = rl->moves[i];
    }
    if (kept > 0) rl->count = kept;
}

/* One iteration at the root: every move searched to depth within (alpha, beta) (the first with
 * the whole window, the others with a null window first), until one reaches beta. Returns the
 * best move's index (-1 when the search stopped before any move was searched) and its value in
 * *best_val (a bound when it is at most alpha or at least beta). */
/* A weakened player's noise on a root move: the same for that move all through one search. */
static int skill_noise(const Searcher *s, const Move *m) {
    uint64_t st = (s->skill_seed ^ search_move_sig(m)) * 0x9E3779B97F4A7C15ULL | 1;
    return (int)(rng_next(&st) % (uint64_t)(s->skill_most + 1));
}

static int search_root(Searcher *s, const Move *root_moves, int nroot, int depth, int alpha, int beta, int *best_val) {
    Position *pos = &s->pos;
    int root_team = team(s, s->root_player);
    int best = -1;
    *best_val = -INF;
    for (int i = 0; i < nroot; i++) {
        if (!board_make(pos, &root_moves[i])) continue;
        bool same = team(s, board_mover(pos)) == root_team;
        bool check = gives_check(s);
        int d = depth - 1 + (check ? 1 : 0);
        /* a weakened player maximises the move's value plus its noise: the window is shifted
         * by the noise so that alpha-beta still decides it exactly */
        int shift = s->skill_most ? skill_noise(s, &root_moves[i]) : 0, a = alpha - shift, b = beta - shift;
        int val;
        if (i == 0)
            val = child(s, same, d, a, b, 1, check);
        else {
            val = child(s, same, d, a, a + 1, 1, check);
            if (val > a && !s->stop) val = child(s, same, d, a, b, 1, check);
        }
        val += shift;
        board_unmake(pos);
        if (s->stop) break;
        if (val > *best_val) {
            *best_val = val;
            best = i;
        }
        if (val > alpha) alpha = val;
        if (alpha >= beta) break;
    }
    return best;
}

#define EARLY_MOVES_TO_GO 20 /* the moves a clock is shared over with the setting `early` */
#define SKILL_NOISE 20       /* centipawns of noise per skill level below 20 */
#define ASPIRATION_WINDOW 35 /* centipawns each side of the last score, doubled on each failure */
#define ASPIRATION_DEPTH 4   /* the first iteration searched in a window */

/* How long to think: the hard limit check_time enforces, and whether to start another
 * iteration after `seconds`, given how settled the best move is. */
static bool another_iteration(Searcher *s, double seconds, int stable_iters, int drop) {
    check_time(s); /* (a ponder hit since) */
    if (!s->timed || s->pondering) return true;
    seconds = elapsed_on(s->clock_id, &s->start);
    if (s->soft <= 0) return seconds <= s->limit * 0.45; /* a fixed time per move */
    double share = s->soft;
    if (s->opt.stable) {
        /* a move kept for several iterations needs less time; one just changed, or a score
         * falling, more (up to the hard limit, which check_time keeps) */
        if (stable_iters >= 3 && drop < 15) share *= 0.6;
        if (stable_iters == 0 || drop > 40) share *= 1.8;
    }
    return seconds <= share * 0.5;
}

typedef struct HelperJob {
    Searcher *s;
    const Position *root;
    SearchLimits lim;
} HelperJob;

static void *helper_main(void *arg) {
    HelperJob *j = arg;
    SearchResult r;
    search_run(j->s, j->root, &j->lim, &r, NULL, NULL);
    return NULL;
}

static bool search_run_one(Searcher *s, const Position *root, const SearchLimits *lim, SearchResult *out,
                           SearchInfoFn fn, void *user);

static bool mcts_stop(void *user) {
    Searcher *s = user;
    check_time(s);
    /* (no iterations to finish: the share of the clock is all there is) */
    if (s->timed && !s->pondering && s->soft > 0 && elapsed_on(s->clock_id, &s->start) >= s->soft) s->stop = true;
    return s->stop;
}

bool search_uses_mcts(const Searcher *s) {
    return s->opt.player == SEARCH_MCTS || (s->opt.player == SEARCH_GAMES_CHOICE && s->v->tuned.mcts);
}

/* The Monte Carlo tree search player: on the clock or the time of lim, or for 100 * 2^depth
 * playouts at a fixed depth (lim.nodes: that many playouts). */
static bool search_run_mcts(Searcher *s, const Position *root, const SearchLimits *lim, SearchResult *out,
                            SearchInfoFn fn, void *user) {
    memset(out, 0, sizeof *out);
    board_copy(&s->pos, root);
    s->stop = false;
    s->soft = 0;
    s->timed = lim->seconds > 0;
    s->limit = lim->seconds;
    if (!s->timed && lim->clock > 0) {
        search_time_budget(lim->clock, lim->increment, lim->moves_to_go, &s->soft, &s->limit);
        s->timed = true;
    }
    if (s->timed && s->soft <= 0) s->soft = s->limit;
    s->node_limit = 0;
    s->pondering = lim->ponder;
    s->clock_id = lim->cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    atomic_store(&s->ponderhit, false);
    clock_gettime(s->clock_id, &s->start);
    uint64_t playouts = lim->nodes;
    if (!playouts && !s->timed) playouts = 100ULL << (lim->depth > 0 && lim->depth < 20 ? lim->depth : 10);
    MctsResult r;
    if (!mcts_run(&s->gen, &s->pos, &s->et, playouts, lim->seed + s->pos.key, mcts_stop, s, &r)) return false;
    out->has_move = true;
    out->best = r.best;
    out->interrupted = search_interrupt != 0;
    SearchInfo *info = &out->info;
    info->depth = r.depth;
    double q = r.win_rate < 0.001 ? 0.001 : r.win_rate > 0.999 ? 0.999 : r.win_rate;
    info->score = (int)(-400.0 * log10(1.0 / q - 1.0));
    info->nodes = r.playouts;
    info->seconds = elapsed_on(s->clock_id, &s->start);
    info->pvlen = r.pvlen < SEARCH_PV_MAX ? r.pvlen : SEARCH_PV_MAX;
    memcpy(info->pv, r.pv, sizeof(Move) * (size_t)info->pvlen);
    if (fn) fn(info, user);
    return true;
}

bool search_run(Searcher *s, const Position *root, const SearchLimits *lim, SearchResult *out, SearchInfoFn fn,
                void *user) {
    if (search_uses_mcts(s)) return search_run_mcts(s, root, lim, out, fn, user);
    if (s->nthreads <= 1) return search_run_one(s, root, lim, out, fn, user);
    /* the helpers think until the main search is done (or their own depth limit) */
    atomic_store(&s->halt, false);
    HelperJob jobs[SEARCH_THREADS_MAX];
    pthread_t threads[SEARCH_THREADS_MAX];
    bool started[SEARCH_THREADS_MAX] = {false};
    for (int i = 0; i < s->nthreads - 1; i++) {
        Searcher *h = s->helpers[i];
        h->depth_skew = (i + 1) & 1;
        jobs[i] = (HelperJob){
            .s = h,
            .root = root,
            .lim = {.depth = lim->depth, .seed = (uint64_t)i + 1 + lim->seed, .only = lim->only, .nonly = lim->nonly}};
        started[i] = pthread_create(&threads[i], NULL, helper_main, &jobs[i]) == 0;
    }
    bool ok = search_run_one(s, root, lim, out, fn, user);
    atomic_store(&s->halt, true);
    for (int i = 0; i < s->nthreads - 1; i++)
        if (started[i]) {
            pthread_join(threads[i], NULL);
            out->info.nodes += s->helpers[i]->nodes;
        }
    return ok;
}

static bool search_run_one(Searcher *s, const Position *root, const SearchLimits *lim, SearchResult *out,
                           SearchInfoFn fn, void *user) {
    memset(out, 0, sizeof *out);
    Position *pos = &s->pos;
    board_copy(pos, root);
    s->nodes = 0;
    s->stop = false;
    s->root_player = board_mover(pos);
    s->soft = 0;
    s->timed = lim->seconds > 0;
    s->limit = lim->seconds;
    if (!s->timed && lim->clock > 0) {
        int togo = lim->moves_to_go > 0 ? lim->moves_to_go : s->opt.early ? EARLY_MOVES_TO_GO : 0;
        search_time_budget(lim->clock, lim->increment, togo, &s->soft, &s->limit);
        s->timed = true;
    }
    s->node_limit = lim->nodes;
    s->pondering = lim->ponder;
    s->clock_id = lim->cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    atomic_store(&s->ponderhit, false);
    clock_gettime(s->clock_id, &s->start);
    int max_depth = lim->depth > 0 ? lim->depth : MAX_PLY - 8;
    if (max_depth > MAX_PLY - 8) max_depth = MAX_PLY - 8;
    /* old history scores say less than new ones */
    size_t nh = (size_t)s->v->ncells * (size_t)s->v->ncells;
    for (size_t i = 0; i < nh; i++) s->history[i] /= 8;
    memset(s->killers, 0, sizeof s->killers);
    memset(s->null_before, 0, sizeof s->null_before);
    memset(s->eval_cache, 0, sizeof(uint64_t) << EVAL_CACHE_BITS);

    MoveList *rl = list_at(s, 0);
    VmFault f = {0};
    movegen_legal(&s->gen, pos, rl, &f);
    if (rl->count == 0) return false;
    if (lim->only) keep_only(rl, lim->only, lim->nonly);
    out->has_move = true;
    out->best = rl->moves[0];
    order_root_moves(s, rl, lim->seed);
    Move *root_moves = xmalloc(sizeof(Move) * (size_t)rl->count);
    int nroot = rl->count;
    memcpy(root_moves, rl->moves, sizeof(Move) * (size_t)nroot);

    /* a weakened player: shallower, and each root move's value blurred by noise of up to
     * SKILL_NOISE per level below 20 (drawn once per search and move) */
    s->skill_most = 0;
    if (s->opt.skill < 20) {
        int cap = 1 + s->opt.skill / 2;
        if (max_depth > cap) max_depth = cap;
        s->skill_seed = pos->key ^ (lim->seed + 1) * 0x9E3779B97F4A7C15ULL;
        s->skill_most = SKILL_NOISE * (20 - s->opt.skill);
    }
    /* with more than two players a root score swings with each seat's reply, so narrow
     * windows fail and research more than they save (measured: docs/strength.md) */
    const Variant *v = s->v;
    bool aspire = s->opt.aspiration && v->nplayers == 2;
    int last = 0, stable_iters = 0;
    for (int iter = 1; iter <= max_depth; iter++) {
        int depth = iter + s->depth_skew < max_depth ? iter + s->depth_skew : max_depth;
        s->iter_depth = depth;
        int alpha = -INF, beta = INF, delta = ASPIRATION_WINDOW;
        if (aspire && depth >= ASPIRATION_DEPTH && last > -SEARCH_MATE_BOUND && last < SEARCH_MATE_BOUND) {
            alpha = last - delta;
            beta = last + delta;
        }
        int best_val, best;
        for (;;) {
            best = search_root(s, root_moves, nroot, depth, alpha, beta, &best_val);
            if (s->stop) break;
            if (best_val <= alpha && alpha > -INF) {
                /* failed low: every move is worse than hoped; widen below (the order stays) */
                alpha = best_val - delta > -INF ? best_val - delta : -INF;
                best = -1;
            } else if (best_val >= beta && beta < INF) {
                beta = best_val + delta < INF ? best_val + delta : INF;
            } else
                break;
            if (best >= 0) {
                Move m = root_moves[best];
                memmove(root_moves + 1, root_moves, sizeof(Move) * (size_t)best);
                root_moves[0] = m;
            }
            delta *= 2;
        }
        if (best >= 0) {
            /* a move that beat the previous best in a cut-short iteration is still better */
            stable_iters = search_move_sig(&root_moves[best]) == search_move_sig(&out->best) ? stable_iters + 1 : 0;
            out->best = root_moves[best];
            Move m = root_moves[best];
            memmove(root_moves + 1, root_moves, sizeof(Move) * (size_t)best);
            root_moves[0] = m;
        }
        if (s->stop) break;
        tt_store(s->tt, pos->key, search_move_sig(&out->best), best_val, depth, TT_EXACT);
        int drop = depth > 1 ? last - best_val : 0;
        last = best_val;
        SearchInfo *info = &out->info;
        info->depth = depth;
        info->score = s->skill_most ? best_val - skill_noise(s, &out->best) : best_val;
        info->nodes = s->nodes;
        info->seconds = elapsed_on(s->clock_id, &s->start);
        collect_pv(s, &out->best, info);
        if (fn) fn(info, user);
        /* a forced mate found within this depth cannot get better by looking deeper */
        if (best_val > SEARCH_MATE_BOUND && SEARCH_MATE - best_val <= depth) break;
        if (best_val < -SEARCH_MATE_BOUND && SEARCH_MATE + best_val <= depth) break;
        if (lim->mate && best_val > SEARCH_MATE_BOUND && (SEARCH_MATE - best_val + 1) / 2 <= lim->mate) break;
        if (s->timed) {
            if (nroot == 1) break;
            /* the next iteration takes several times as long: do not start what cannot end */
            if (!another_iteration(s, info->seconds, stable_iters, drop)) break;
        }
    }
    out->info.nodes = s->nodes;
    out->info.seconds = elapsed_on(s->clock_id, &s->start);
    out->interrupted = search_interrupt != 0;
    free(root_moves);
    return true;
}

/* ---- lifetime and helpers -------------------------------------------------------------------- */

void search_set_threads(Searcher *s, int n);

static Searcher *searcher_alloc(const Variant *v) {
    Searcher *s = xcalloc(1, sizeof *s);
    s->v = v;
    eval_init(&s->et, v);
    board_init(&s->pos, v);
    genctx_init(&s->gen);
    s->history = xcalloc((size_t)v->ncells * (size_t)v->ncells, sizeof(int));
    s->eval_cache = xcalloc((size_t)1 << EVAL_CACHE_BITS, sizeof(uint64_t));
    pthread_once(&lmr_once, lmr_init);
    search_options_default(&s->opt);
    s->null_ok = search_null_move_allowed(v);
    s->nthreads = 1;
    return s;
}

Searcher *search_new(const Variant *v, size_t tt_mb) {
    Searcher *s = searcher_alloc(v);
    tt_init(&s->own_tt, tt_mb);
    s->tt = &s->own_tt;
    return s;
}

/* The evaluation with or without the rule file's `tuned` items. */
static void set_eval(Searcher *s, bool tuned) {
    if (tuned)
        eval_init(&s->et, s->v);
    else
        eval_init_untuned(&s->et, s->v);
}

void search_set_options(Searcher *s, const SearchOptions *o) {
    bool retune = o->tuned != s->opt.tuned;
    s->opt = *o;
    if (retune) set_eval(s, o->tuned);
    s->et.terms = o->terms;
    search_set_threads(s, o->threads);
    for (int i = 0; i < s->nthreads - 1; i++) {
        if (s->helpers[i]->opt.tuned != o->tuned) set_eval(s->helpers[i], o->tuned);
        s->helpers[i]->opt = *o;
        s->helpers[i]->et.terms = o->terms;
    }
}

const SearchOptions *search_options(const Searcher *s) { return &s->opt; }

static void free_searcher(Searcher *s) {
    for (int i = 0; i <= MAX_PLY; i++) {
        free(s->lists[i]);
        free(s->order[i]);
        free(s->pick_tree[i]);
    }
    free(s->history);
    free(s->eval_cache);
    board_free(&s->pos);
    free(s);
}

void search_set_threads(Searcher *s, int n) {
    if (n < 1) n = 1;
    if (n > SEARCH_THREADS_MAX) n = SEARCH_THREADS_MAX;
    s->opt.threads = n;
    while (s->nthreads > n) free_searcher(s->helpers[--s->nthreads - 1]);
    while (s->nthreads < n) {
        Searcher *h = searcher_alloc(s->v);
        h->tt = s->tt;
        h->opt = s->opt;
        if (!s->opt.tuned) set_eval(h, false);
        h->halted_by = &s->halt;
        s->helpers[s->nthreads++ - 1] = h;
    }
}

int search_threads(const Searcher *s) { return s->nthreads; }

void search_set_hash(Searcher *s, size_t megabytes) {
    tt_free(&s->own_tt);
    tt_init(&s->own_tt, megabytes);
}

size_t search_hash(const Searcher *s) { return tt_megabytes(&s->own_tt); }

void search_free(Searcher *s) {
    if (!s) return;
    search_set_threads(s, 1);
    tt_free(&s->own_tt);
    free_searcher(s);
}

void search_clear(Searcher *s) {
    tt_clear(s->tt);
    memset(s->killers, 0, sizeof s->killers);
    memset(s->history, 0, (size_t)s->v->ncells * (size_t)s->v->ncells * sizeof(int));
    for (int i = 0; i < s->nthreads - 1; i++) {
        Searcher *h = s->helpers[i];
        memset(h->killers, 0, sizeof h->killers);
        memset(h->history, 0, (size_t)h->v->ncells * (size_t)h->v->ncells * sizeof(int));
    }
}

const EvalTables *search_eval(const Searcher *s) { return &s->et; }

void search_format_score(int score, int nplayers, char *buf, size_t cap) {
    if (score > SEARCH_MATE_BOUND) {
        int plies = SEARCH_MATE - score;
        snprintf(buf, cap, "mate %d", nplayers == 2 ? (plies + 1) / 2 : plies);
    } else if (score < -SEARCH_MATE_BOUND) {
        int plies = SEARCH_MATE + score;
        snprintf(buf, cap, "-mate %d", nplayers == 2 ? plies / 2 : plies);
    } else {
        snprintf(buf, cap, "%+.2f", score / 100.0);
    }
}

int search_pick_random(const MoveList *ml, uint64_t *rng) { return (int)(rng_next(rng) % (uint64_t)ml->count); }

/* How many ways there are to finish set-up step `step` from pos (1 once it is over); each node
 * spends one unit of *budget, and at 0 the count stops (the caller then weighs nothing).
 * lists holds a move list for each move left in the step. */
static uint64_t setup_completions(GenContext *ctx, Position *pos, int step, MoveList *lists, long *budget) {
    if (pos->prelude != step) return 1;
    if (--*budget <= 0) return 0;
    VmFault f = {0};
    /* the step's last move: each one completes it */
    if (pos->prelude_moves + 1 == pos->v->prelude[step].moves) return (uint64_t)movegen_count_legal(ctx, pos, &f);
    MoveList *ml = &lists[pos->prelude_moves];
    movegen_legal(ctx, pos, ml, &f);
    uint64_t total = 0;
    for (int i = 0; i<ml->count && * budget> 0; i++) {
        if (!board_make(pos, &ml->moves[i])) continue;
        total += setup_completions(ctx, pos, step, lists, budget);
        board_unmake(pos);
    }
    return total;
}

int search_pick_setup(GenContext *ctx, Position *pos, const MoveList *ml, uint64_t *rng) {
    const Variant *v = pos->v;
    if (pos->prelude >= v->nprelude) return search_pick_random(ml, rng);
    /* A step made of several moves (four mines in ascending order, six cards one by one) has
     * outcomes reached by unequal numbers of first moves: weigh each move by the outcomes it
     * leads to, so that every outcome is equally likely. Too big a step is picked plainly. */
    int step = pos->prelude;
    long budget = 200000;
    MoveList *lists = xmalloc(sizeof *lists * (size_t)v->prelude[step].moves);
    uint64_t *weight = xmalloc(sizeof *weight * (size_t)ml->count), total = 0;
    for (int i = 0; i < ml->count && budget > 0; i++) {
        weight[i] = 0;
        if (!board_make(pos, &ml->moves[i])) continue;
        weight[i] = setup_completions(ctx, pos, step, lists, &budget);
        board_unmake(pos);
        total += weight[i];
    }
    int pick = -1;
    if (budget > 0 && total > 0) {
        uint64_t r = rng_next(rng) % total;
        for (pick = 0; r >= weight[pick]; pick++) r -= weight[pick];
    }
    free(weight);
    free(lists);
    return pick >= 0 ? pick : search_pick_random(ml, rng);
}

int search_pick_greedy(const EvalTables *et, const Position *pos, const MoveList *ml, uint64_t *rng) {
    return eval_pick_greedy(et, pos, ml, rng);
}

bool search_run_hidden(Searcher *s, const Position *truth, int samples, uint64_t seed, const SearchLimits *lim,
                       SearchResult *out) {
    memset(out, 0, sizeof *out);
    const Variant *v = s->v;
    int player = board_mover(truth);
    if (samples < 1) samples = 1;
    bool secret_step = false;
    if (truth->prelude < v->nprelude) {
        int kind = v->prelude[truth->prelude].kind;
        secret_step = v->minefield_zone && kind == v->mine_kind;
        for (int i = 0; i < v->ndraws; i++)
            if (v->draws[i].kind == kind && v->draws[i].own && !v->piles[v->draws[i].to].sorted) secret_step = true;
    }
    if (secret_step) {
        /* a secret set-up step (where the mines go, the deck's order) is chosen at random: the
         * search sees no difference, and a fixed choice would be easy to read */
        MoveList *ml = xmalloc(sizeof *ml);
        VmFault f = {0};
        board_copy(&s->pos, truth); /* (the searcher's own position: truth stays untouched) */
        movegen_legal(&s->gen, &s->pos, ml, &f);
        uint64_t rng = seed * 0x9E3779B97F4A7C15ULL | 1;
        if (ml->count) {
            out->best = ml->moves[search_pick_setup(&s->gen, &s->pos, ml, &rng)];
            out->has_move = true;
        }
        free(ml);
        return out->has_move;
    }
    SearchLimits each = *lim;
    if (each.seconds > 0) each.seconds /= samples;
    Position sample;
    board_init(&sample, v);
    /* each sample's best move gets a vote; the most voted wins (the first sample's among ties) */
    char texts[SEARCH_SAMPLES_MAX][64];
    int votes[SEARCH_SAMPLES_MAX] = {0}, nt = 0;
    SearchResult first = {0};
    for (int i = 0; i < samples && i < SEARCH_SAMPLES_MAX; i++) {
        view_sample(truth, player, seed * 1000003ULL + (uint64_t)i + 1, &sample);
        SearchResult r;
        if (!search_run(s, &sample, &each, &r, NULL, NULL)) continue;
        if (!nt) first = r;
        char text[64];
        notation_move(v, &r.best, text, sizeof text);
        int k = 0;
        while (k < nt && strcmp(texts[k], text)) k++;
        if (k == nt) snprintf(texts[nt++], sizeof texts[0], "%s", text);
        votes[k]++;
    }
    board_free(&sample);
    if (!nt) return false;
    int best = 0;
    for (int k = 1; k < nt; k++)
        if (votes[k] > votes[best]) best = k;
    /* the same move in the true position (its moves are the sample's: hidden things never
     * change which moves are legal) */
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    board_copy(&s->pos, truth);
    movegen_legal(&s->gen, &s->pos, ml, &f);
    bool found = false;
    char text[64];
    for (int i = 0; i < ml->count && !found; i++) {
        notation_move(v, &ml->moves[i], text, sizeof text);
        if (!strcmp(text, texts[best])) {
            out->best = ml->moves[i];
            found = true;
        }
    }
    free(ml);
    out->has_move = found;
    out->info = first.info;
    return found;
}
