/* tune.h - the evaluation learnt per game (Texel's method): fast self-play games give quiet
 * positions and their results; the weights the evaluation reads (piece values, mobility and
 * piece-square weights per type, royal safety, pieces in hand) are fitted by coordinate descent
 * to the results' logistic curve, and written as the rule file's `tuned` items. */
#ifndef VARIA_TUNE_H
#define VARIA_TUNE_H

#include <stdio.h>

#include "variant.h"

typedef struct TuneConfig {
    const char *rules; /* the rule file's path */
    const OptionSetting *options;
    int noptions;
    int games;       /* self-play games that give the positions */
    int depth;       /* their search depth */
    uint64_t seed;   /* their openings */
    int open_plies;  /* random plies at the start of each game */
    int passes;      /* coordinate-descent passes at most */
    const char *out; /* rewrite this file: the rule file with the `tuned` items in place of any it had
                       * (NULL: print the items) */
    bool verbose;
} TuneConfig;

/* Tunes; prints what it does on out (the items when cfg->out is NULL), errors on err. Returns
 * 0, or 1 when the rule file does not load, cannot be tuned (more than two players, cards,
 * hidden information) or out cannot be written. */
int tune_run(const TuneConfig *cfg, FILE *out, FILE *err);

#endif
