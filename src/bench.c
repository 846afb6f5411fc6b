/* bench.c - the fixed search benchmark behind `varia bench` and tests/bench_signature. Each
 * position is searched from a cleared searcher at a fixed depth with no time limit, so the node
 * count depends only on the code and the rule files. Also random playouts per second
 * (`varia bench --playouts`), the speed figure general game systems publish. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fen.h"
#include "gameend.h"
#include "load.h"
#include "movegen.h"
#include "notation.h"
#include "search.h"

#define BENCH_DEPTH 5

static const struct {
    const char *rules; /* file name in the rules directory */
    const char *fen;
} bench_positions[] = {
    {"chess.rules", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
    {"chess.rules", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
    {"chess.rules", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
    {"chess.rules", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"},
    {"chess.rules", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"},
    {"chess.rules", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"},
    {"chess.rules", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"},
    {"chess.rules", "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"},
};

int bench_run(const char *rules_dir, int depth, FILE *out, FILE *err) {
    if (depth <= 0) depth = BENCH_DEPTH;
    uint64_t total = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < sizeof bench_positions / sizeof bench_positions[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", rules_dir, bench_positions[i].rules);
        DiagSink sink;
        diag_init(&sink);
        Variant *v = load_file(path, NULL, 0, &sink);
        diag_render(&sink, err);
        diag_free(&sink);
        if (!v) return 1;
        Position pos;
        board_init(&pos, v);
        char ferr[200];
        if (!fen_read(&pos, bench_positions[i].fen, ferr, sizeof ferr)) {
            fprintf(err, "varia: error: bench position %zu: %s\n", i + 1, ferr);
            board_free(&pos);
            variant_free(v);
            return 1;
        }
        Searcher *s = search_new(v, 16);
        SearchLimits lim = {.depth = depth, .seconds = 0, .seed = 0};
        SearchResult res;
        char move[64] = "(none)", score[32] = "";
        if (search_run(s, &pos, &lim, &res, NULL, NULL)) {
            notation_move(v, &res.best, move, sizeof move);
            search_format_score(res.info.score, v->nplayers, score, sizeof score);
        }
        fprintf(out, "%zu %s depth %d: %s %s nodes %llu\n", i + 1, bench_positions[i].rules, depth, move, score,
                (unsigned long long)res.info.nodes);
        total += res.info.nodes;
        search_free(s);
        board_free(&pos);
        variant_free(v);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    fprintf(err, "time %.3f s, %.0f nodes/s\n", secs, secs > 0 ? (double)total / secs : 0.0);
    fprintf(out, "Nodes searched: %llu\n", (unsigned long long)total);
    return 0;
}

/* CPU seconds of this process since t0: other work on the machine does not count. */
static double cpu_seconds_since(const struct timespec *t0) {
    struct timespec t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

typedef struct PlayoutTotals {
    long games, plies, capped;
} PlayoutTotals;

/* One random game from the start of `seed`; false when a program of the rules faults. */
static bool playout_one(GenContext *ctx, Position *pos, MoveList *ml, LegalTally *tally, uint64_t seed,
                        PlayoutTotals *t, FILE *trace, FILE *err) {
    const Variant *v = pos->v;
    char start[4096], ferr[200];
    fen_start(v, seed, start, sizeof start);
    if (!fen_read(pos, start, ferr, sizeof ferr)) {
        fprintf(err, "varia: error: %s: start position: %s\n", v->title ? v->title : "?", ferr);
        return false;
    }
    uint64_t rng = (seed + 1) * 0x9E3779B97F4A7C15ULL | 1;
    tally->reuse = true; /* (its tallies follow the plies of this game) */
    GameResult r = {0};
    int plies = 0;
    for (;;) {
        /* the legal moves, counted once a ply: the ending is judged on their number. Where
         * they can be tallied, only the piece of the move drawn writes its moves. */
        bool tallied = movegen_tally_legal(ctx, pos, tally, ml);
        if (!tallied) {
            VmFault f = {0};
            movegen_legal(ctx, pos, ml, &f);
            if (f.set) {
                r.fault = f;
                break;
            }
        }
        int count = tallied ? tally->count : ml->count;
        gameend_check_counted(ctx, pos, count, &r);
        if (r.eliminated >= 0) {
            /* a player is out while the others play on: play its defeat, then look again */
            gameend_settle(ctx, pos, &r, NULL, 0, NULL, NULL);
            if (r.over || r.fault.set) break;
            continue;
        }
        if (r.over || r.fault.set) break;
        if (plies == BENCH_PLAYOUT_PLIES) {
            t->capped++;
            break;
        }
        if (count == 0) break; /* (no move, yet the rules name no end: the game stops) */
        int drawn = (int)(rng_next(&rng) % (uint64_t)count);
        const Move *m = tallied ? movegen_tally_move(ctx, pos, tally, drawn, ml) : &ml->moves[drawn];
        if (!m) {
            /* (a fault on the way: the full list says which) */
            VmFault f = {0};
            movegen_legal(ctx, pos, ml, &f);
            r.fault = f;
            if (!f.set || ml->count != count) {
                snprintf(r.fault.msg, sizeof r.fault.msg, "the tallied move %d of %d is missing", drawn, count);
                r.fault.set = true;
            }
            break;
        }
        board_make(pos, m);
        plies++;
    }
    t->games++;
    t->plies += plies;
    if (trace && !r.fault.set) {
        /* (to compare the games of two builds: the same seed must give the same line) */
        fprintf(trace, "seed %llu: %d plies, ", (unsigned long long)seed, plies);
        if (!r.over)
            fprintf(trace, "not over");
        else if (r.winner < 0)
            fprintf(trace, "draw by %s", r.reason ? r.reason : "?");
        else
            fprintf(trace, "player %d wins by %s", r.winner + 1, r.reason ? r.reason : "?");
        fprintf(trace, ", key %016llx\n", (unsigned long long)pos->key);
    }
    if (r.fault.set) {
        fprintf(err, "%s:%d:%d: error: runtime fault: %s\n", r.fault.file ? r.fault.file : "?", r.fault.line,
                r.fault.col, r.fault.msg);
        return false;
    }
    return true;
}

int bench_playouts(const PlayoutConfig *cfg, FILE *out, FILE *err) {
    Position *pos = xmalloc(sizeof *pos);
    GenContext *ctx = xmalloc(sizeof *ctx);
    MoveList *ml = xmalloc(sizeof *ml);
    LegalTally *tally = xmalloc(sizeof *tally);
    genctx_init(ctx);
    int rc = 0;
    fprintf(out, "random playouts per CPU second (to the end of the game or %d plies; %s):\n", BENCH_PLAYOUT_PLIES,
            cfg->games ? "a fixed number each" : "for a fixed time each");
    for (int i = 0; i < cfg->nfiles && rc == 0; i++) {
        DiagSink sink;
        diag_init(&sink);
        Variant *v = load_file(cfg->files[i], cfg->options, cfg->noptions, &sink);
        diag_render(&sink, err);
        diag_free(&sink);
        if (!v) {
            rc = 1;
            break;
        }
        board_init(pos, v);
        PlayoutTotals t = {0};
        struct timespec t0;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        double secs = 0;
        do {
            if (!playout_one(ctx, pos, ml, tally, cfg->seed + (uint64_t)t.games, &t, cfg->trace, err)) rc = 1;
            secs = cpu_seconds_since(&t0);
        } while (rc == 0 && (cfg->games ? t.games < cfg->games : secs < cfg->seconds));
        const char *name = strrchr(cfg->files[i], '/');
        name = name ? name + 1 : cfg->files[i];
        int len = (int)strcspn(name, ".");
        if (rc == 0)
            fprintf(
                out,
                "%.*s: %.0f playouts/s, %ld playouts in %.2f s, %.1f plies each (%ld plies), %ld stopped at %d plies\n",
                len, name, secs > 0 ? (double)t.games / secs : 0.0, t.games, secs, (double)t.plies / (double)t.games,
                t.plies, t.capped, BENCH_PLAYOUT_PLIES);
        board_free(pos);
        variant_free(v);
    }
    free(tally);
    free(ml);
    free(ctx);
    free(pos);
    return rc;
}
