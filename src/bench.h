/* bench.h - the search benchmark: a fixed-depth search over a fixed list of (rule file,
 * position) pairs; its total node count is the search's regression signature. */
#ifndef VARIA_BENCH_H
#define VARIA_BENCH_H

#include <stdio.h>

/* Runs the list with rule files found in rules_dir, printing one line per position and then
 * "Nodes searched: N" to out (times and speed to err). depth 0 = the built-in depth.
 * Returns 0, or 1 when a rule file or position fails to load (message on err). */
int bench_run(const char *rules_dir, int depth, FILE *out, FILE *err);

#endif
