/* tt.c - a direct-mapped transposition table (one entry per slot, depth-preferred for the
 * same position, always replaced for another). */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

void tt_init(TT *tt, size_t megabytes) {
    size_t want = megabytes * 1024 * 1024 / sizeof(TTEntry), n = 1024;
    while (n * 2 <= want) n *= 2;
    tt->entries = xcalloc(n, sizeof(TTEntry));
    tt->mask = n - 1;
}

void tt_free(TT *tt) {
    free(tt->entries);
    tt->entries = NULL;
}

void tt_clear(TT *tt) { memset(tt->entries, 0, (tt->mask + 1) * sizeof(TTEntry)); }

const TTEntry *tt_probe(const TT *tt, uint64_t key) {
    const TTEntry *e = &tt->entries[key & tt->mask];
    return e->bound != TT_NONE && e->key == key ? e : NULL;
}

void tt_store(TT *tt, uint64_t key, uint32_t move, int score, int depth, int bound) {
    TTEntry *e = &tt->entries[key & tt->mask];
    if (e->key == key && e->bound != TT_NONE && e->depth > depth && bound != TT_EXACT) return;
    /* keep the old best move when the new result has none */
    if (!move && e->key == key) move = e->move;
    e->key = key;
    e->move = move;
    e->score = (int16_t)score;
    e->depth = (int8_t)(depth > 127 ? 127 : depth);
    e->bound = (uint8_t)bound;
}
