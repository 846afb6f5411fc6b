/* bench.h - the search benchmark: a fixed-depth search over a fixed list of (rule file,
 * position) pairs; its total node count is the search's regression signature. */
#ifndef VARIA_BENCH_H
#define VARIA_BENCH_H

#include <stdio.h>

#include "variant.h"

/* Runs the list with rule files found in rules_dir, printing one line per position and then
 * "Nodes searched: N" to out (times and speed to err). depth 0 = the built-in depth.
 * Returns 0, or 1 when a rule file or position fails to load (message on err). */
int bench_run(const char *rules_dir, int depth, FILE *out, FILE *err);

/* Random playouts: games of uniformly random legal moves from the start position to the end the
 * rule file decides, or BENCH_PLAYOUT_PLIES plies. Playout i of a file starts from the start
 * of seed + i and draws its moves from its own generator seeded by seed + i, so the same count
 * of playouts repeats the same games. Each file plays `games` playouts, or when games is 0 as
 * many as fit in `seconds` of CPU time (at least one); one line per file with playouts per
 * CPU second. Returns 0, or 1 when a file fails to load or a program of its rules faults
 * (message on err). */
#define BENCH_PLAYOUT_PLIES 1000
typedef struct PlayoutConfig {
    const char *const *files; /* rule file paths */
    int nfiles;
    const OptionSetting *options; /* --option settings, for every file */
    int noptions;
    int games; /* playouts per file; 0 = as many as fit in seconds */
    double seconds;
    uint64_t seed;
    FILE *trace; /* each playout's seed, plies, result and final key, or NULL */
} PlayoutConfig;
int bench_playouts(const PlayoutConfig *cfg, FILE *out, FILE *err);

#endif
