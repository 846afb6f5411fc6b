/* perft.h - counting leaf nodes of the legal move tree: the move generator's test. */
#ifndef VARIA_PERFT_H
#define VARIA_PERFT_H

#include <stdio.h>

#include "movegen.h"

/* Leaf count at depth (depth 0 = 1). A program fault stops counting and fills *fault. */
uint64_t perft(GenContext *ctx, Position *pos, int depth, VmFault *fault);
/* Prints "move: count" for each legal root move, then returns the total. */
uint64_t perft_divide(GenContext *ctx, Position *pos, int depth, FILE *out, VmFault *fault);

#endif
