/* bench.c - the fixed search benchmark behind `varia bench` and tests/bench_signature. Each
 * position is searched from a cleared searcher at a fixed depth with no time limit, so the node
 * count depends only on the code and the rule files. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fen.h"
#include "load.h"
#include "notation.h"
#include "search.h"

#define BENCH_DEPTH 5

static const struct {
    const char *rules;   /* file name in the rules directory */
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
