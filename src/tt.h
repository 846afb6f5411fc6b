/* tt.h - the transposition table: search results keyed by the position's Zobrist key. */
#ifndef VARIA_TT_H
#define VARIA_TT_H

#include "common.h"

enum { TT_NONE = 0, TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct TTEntry {
    uint64_t key;
    uint32_t move; /* move signature (search_move_sig), 0 = none */
    int16_t score;
    int8_t depth;
    uint8_t bound; /* TT_EXACT / TT_LOWER / TT_UPPER */
} TTEntry;

typedef struct TT {
    TTEntry *entries;
    size_t mask; /* entry count - 1 (a power of two) */
} TT;

/* Allocates about `megabytes` MB (at least 1024 entries), cleared. Cannot fail (aborts on OOM). */
void tt_init(TT *tt, size_t megabytes);
void tt_free(TT *tt);
void tt_clear(TT *tt);
/* The entry for key, or NULL when the slot holds another position. */
const TTEntry *tt_probe(const TT *tt, uint64_t key);
/* Stores a result; keeps a deeper entry of the same position unless the new one is exact. */
void tt_store(TT *tt, uint64_t key, uint32_t move, int score, int depth, int bound);

#endif
