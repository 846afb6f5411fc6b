/* mcts.c - UCT: selection by the upper confidence bound of each move's results for the player
 * who makes it, expansion of a node's moves on its second visit, playouts to the end of the
 * game (half of their moves the most valuable capture, the rest random), every player's result
 * carried back up the path. */
#include "mcts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gameend.h"
#include "movegen.h"

#define MCTS_NODES_MAX 200000 /* nodes of one tree (then it stops growing, playouts go on) */
#define MCTS_PLAYOUT_PLIES 300
#define MCTS_EXPLORE 1.2 /* the weight of the confidence bound */
#define MCTS_CHECK 1     /* playouts between asking whether to stop (one may take long) */

typedef struct Node {
    Move move;    /* the move into this node */
    int mover;    /* the player who made it */
    int first, n; /* its children: nodes first..first+n-1 (n < 0: not expanded yet) */
    uint32_t visits;
    float reward;  /* the mover's results, summed */
    bool terminal; /* the game is over here (its result is in result[]) */
    float result[MAX_PLAYERS];
} Node;

typedef struct Tree {
    Node *nodes;
    int count, cap;
    GenContext *ctx;
    Position *pos;
    const EvalTables *et;
    MoveList *ml;
    uint64_t rng;
    int depth;
} Tree;

/* Every player's share of a finished game: the winner all of it, a draw shared among those
 * still in, a game cut short by the evaluation's odds. */
static void result_of(Tree *t, const GameResult *r, bool over, float *res) {
    const Position *pos = t->pos;
    const Variant *v = pos->v;
    int n = v->nplayers;
    for (int p = 0; p < n; p++) res[p] = 0;
    if (over && r->winner >= 0) {
        res[r->winner] = 1;
        return;
    }
    if (over && n > 2 && !strcmp(r->reason, "checkmate")) {
        /* more players: the mated player is out and the others share */
        int alive = __builtin_popcount(pos->alive) - 1;
        for (int p = 0; p < n; p++)
            if (((pos->alive >> p) & 1) && p != board_mover(pos)) res[p] = alive > 0 ? 1.0f / (float)alive : 0;
        return;
    }
    if (over) {
        int alive = __builtin_popcount(pos->alive);
        for (int p = 0; p < n; p++)
            if ((pos->alive >> p) & 1) res[p] = alive ? 1.0f / (float)alive : 0;
        return;
    }
    /* cut short: each player's odds from the evaluation, summing to 1 */
    float sum = 0;
    for (int p = 0; p < n; p++) {
        if (!((pos->alive >> p) & 1)) continue;
        res[p] = (float)(1.0 / (1.0 + pow(10.0, -eval_position(t->et, pos, p) / 400.0)));
        sum += res[p];
    }
    for (int p = 0; p < n && sum > 0; p++) res[p] /= sum;
}

/* Plays on from pos to the end (or the ply cap); the result; pos restored. */
static void playout(Tree *t, float *res) {
    Position *pos = t->pos;
    int made = 0;
    GameResult r;
    bool over = false;
    for (int ply = 0; ply < MCTS_PLAYOUT_PLIES && pos->ply < MAX_HISTORY - 8; ply++) {
        int eliminated = gameend_settle(t->ctx, pos, &r, NULL, 0, NULL, NULL);
        made += eliminated;
        if (r.over) {
            over = true;
            break;
        }
        VmFault f = {0};
        movegen_legal(t->ctx, pos, t->ml, &f);
        if (t->ml->count == 0) break;
        int k = rng_next(&t->rng) & 1 ? eval_pick_greedy(t->et, pos, t->ml, &t->rng)
                                      : (int)(rng_next(&t->rng) % (uint64_t)t->ml->count);
        if (!board_make(pos, &t->ml->moves[k])) break;
        made++;
    }
    result_of(t, &r, over, res);
    while (made--) board_unmake(pos);
}

/* The children of node i: pos's legal moves (pos is at node i). False when the tree is full. */
static bool expand(Tree *t, int i) {
    VmFault f = {0};
    movegen_legal(t->ctx, t->pos, t->ml, &f);
    if (t->count + t->ml->count > MCTS_NODES_MAX) return false;
    if (t->count + t->ml->count > t->cap) {
        while (t->count + t->ml->count > t->cap) t->cap *= 2;
        t->nodes = xrealloc(t->nodes, sizeof(Node) * (size_t)t->cap);
    }
    int mover = board_mover(t->pos);
    t->nodes[i].first = t->count;
    t->nodes[i].n = t->ml->count;
    for (int k = 0; k < t->ml->count; k++) {
        Node *c = &t->nodes[t->count++];
        memset(c, 0, sizeof *c);
        c->move = t->ml->moves[k];
        c->mover = mover;
        c->n = -1;
    }
    return true;
}

/* The child of node i to follow: unvisited ones first, then the best upper confidence bound. */
static int select_child(Tree *t, int i) {
    const Node *p = &t->nodes[i];
    double log_n = log((double)p->visits + 1);
    int best = -1;
    double best_ucb = -1;
    for (int k = 0; k < p->n; k++) {
        const Node *c = &t->nodes[p->first + k];
        if (c->visits == 0) return p->first + k;
        double ucb = c->reward / c->visits + MCTS_EXPLORE * sqrt(log_n / c->visits);
        if (ucb > best_ucb) best_ucb = ucb, best = p->first + k;
    }
    return best;
}

/* One playout: down the tree, a node expanded, a game played out, the results carried up. */
static void iterate(Tree *t) {
    int path[MAX_PLY + 8], len = 0, made = 0;
    int i = 0;
    float res[MAX_PLAYERS];
    path[len++] = 0;
    for (;;) {
        Node *node = &t->nodes[i];
        if (node->terminal) {
            memcpy(res, node->result, sizeof res);
            break;
        }
        bool grow = node->n < 0 && (node->visits > 0 || i == 0);
        /* (more players: a defeat is a move the game plays itself, on every way down) */
        if (grow || (t->pos->v->nplayers > 2 && i != 0)) {
            GameResult r;
            made += gameend_settle(t->ctx, t->pos, &r, NULL, 0, NULL, NULL);
            node = &t->nodes[i];
            if (r.over) {
                node->terminal = true;
                result_of(t, &r, true, node->result);
                memcpy(res, node->result, sizeof res);
                break;
            }
        }
        if (grow) {
            if (!expand(t, i)) node->n = 0; /* (full: this node plays out from now on) */
            node = &t->nodes[i];
        }
        if (node->n <= 0 || len >= MAX_PLY) {
            playout(t, res);
            break;
        }
        int c = select_child(t, i);
        if (!board_make(t->pos, &t->nodes[c].move)) {
            playout(t, res);
            break;
        }
        made++;
        i = c;
        path[len++] = i;
    }
    if (len > t->depth) t->depth = len;
    for (int k = 0; k < len; k++) {
        Node *n = &t->nodes[path[k]];
        n->visits++;
        if (k > 0) n->reward += res[n->mover];
    }
    while (made--) board_unmake(t->pos);
}

bool mcts_run(GenContext *ctx, Position *pos, const EvalTables *et, uint64_t playouts, uint64_t seed, MctsStopFn stop,
              void *user, MctsResult *out) {
    memset(out, 0, sizeof *out);
    Tree t = {.cap = 1024, .ctx = ctx, .pos = pos, .et = et, .rng = (seed + 1) * 0x9E3779B97F4A7C15ULL | 1};
    t.nodes = xmalloc(sizeof(Node) * (size_t)t.cap);
    t.ml = xmalloc(sizeof *t.ml);
    memset(&t.nodes[0], 0, sizeof(Node));
    t.nodes[0].n = -1;
    t.nodes[0].mover = -1;
    t.count = 1;
    int ply0 = pos->ply;
    for (uint64_t k = 0; !playouts || k < playouts; k++) {
        iterate(&t);
        out->playouts++;
        if (t.nodes[0].terminal || t.nodes[0].n == 0) break;
        if (k % MCTS_CHECK == MCTS_CHECK - 1 && stop && stop(user)) break;
    }
    (void)ply0;
    const Node *root = &t.nodes[0];
    if (root->n > 0) {
        int best = -1;
        for (int k = 0; k < root->n; k++) {
            const Node *c = &t.nodes[root->first + k];
            if (best < 0 || c->visits > t.nodes[best].visits) best = root->first + k;
        }
        out->has_move = true;
        out->best = t.nodes[best].move;
        out->win_rate = t.nodes[best].visits ? t.nodes[best].reward / t.nodes[best].visits : 0;
        out->depth = t.depth;
        /* the line: the most visited child, again and again */
        for (int i = best; i >= 0 && out->pvlen < 32;) {
            out->pv[out->pvlen++] = t.nodes[i].move;
            const Node *n = &t.nodes[i];
            int next = -1;
            for (int k = 0; k < n->n; k++)
                if (t.nodes[n->first + k].visits && (next < 0 || t.nodes[n->first + k].visits > t.nodes[next].visits))
                    next = n->first + k;
            i = next;
        }
    }
    free(t.ml);
    free(t.nodes);
    return out->has_move;
}
