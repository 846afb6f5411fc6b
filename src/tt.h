/* tt.h - the transposition table: search results keyed by the position's Zobrist key, shared
 * by the threads of one search (lazy SMP) without locks. */
#ifndef VARIA_TT_H
#define VARIA_TT_H

#include <stdatomic.h>

#include "common.h"

enum { TT_NONE = 0, TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct TTEntry {
    uint64_t key;
    uint32_t move; /* move signature (search_move_sig), 0 = none */
    int16_t score;
    int8_t depth;
    uint8_t bound; /* TT_EXACT / TT_LOWER / TT_UPPER */
} TTEntry;

/* A slot holds the entry's data in one word and the key xor that word in the other: a slot
 * half written by one thread while another reads it shows a key that matches nothing. */
typedef struct TTSlot {
    _Atomic uint64_t check, data;
} TTSlot;

typedef struct TT {
    TTSlot *slots;
    size_t mask; /* slot count - 1 (a power of two) */
} TT;

/* Allocates about `megabytes` MB (at least 1024 slots), cleared. Cannot fail (aborts on OOM). */
void tt_init(TT *tt, size_t megabytes);
void tt_free(TT *tt);
void tt_clear(TT *tt);
/* The entry for key copied to *out; false when the slot holds another position. */
bool tt_probe(const TT *tt, uint64_t key, TTEntry *out);
/* Starts loading key's slot into the cache: called as soon as a move is made, the slot is
 * there when the child node probes it. */
static inline void tt_prefetch(const TT *tt, uint64_t key) { __builtin_prefetch(&tt->slots[key & tt->mask]); }
/* Stores a result; keeps a deeper entry of the same position unless the new one is exact. */
void tt_store(TT *tt, uint64_t key, uint32_t move, int score, int depth, int bound);
/* The table's size in megabytes (as tt_init rounded it). */
size_t tt_megabytes(const TT *tt);

#endif
