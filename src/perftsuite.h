/* perftsuite.h - checking a rule file's perft suite: lines of position text followed by the
 * expected leaf counts ("POSITION ;D1 20 ;D2 400 ;D3 8902"), all in one process. */
#ifndef VARIA_PERFTSUITE_H
#define VARIA_PERFTSUITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "movegen.h"

/* Which figures of a suite run. A figure may carry the word `deep` after its count: it is slow
 * for its size and runs with the deep ones. */
typedef struct PerftSelect {
    uint64_t max_nodes; /* run figures of at most this many leaves, not marked deep */
    bool deep;          /* instead: only the figures max_nodes leaves out */
} PerftSelect;

typedef struct PerftSuiteResult {
    int passed, failed, skipped;
} PerftSuiteResult;

/* Checks every selected figure of the suite read from in (named path in messages). A wrong
 * count, a bad position or a malformed line is reported on err as "path:line: error: ..." and
 * counts as a failure; with verbose, every figure checked is listed on out. */
PerftSuiteResult perft_suite(GenContext *ctx, Position *pos, const char *path, FILE *in, const PerftSelect *sel,
                             bool verbose, FILE *out, FILE *err);

#endif
