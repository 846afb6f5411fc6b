/* tt.c - a direct-mapped transposition table (one entry per slot, depth-preferred for the
 * same position, always replaced for another), lock-free for several threads. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

void tt_init(TT *tt, size_t megabytes) {
    size_t want = megabytes * 1024 * 1024 / sizeof(TTSlot), n = 1024;
    while (n * 2 <= want) n *= 2;
    tt->slots = xcalloc(n, sizeof(TTSlot));
    tt->mask = n - 1;
}

void tt_free(TT *tt) {
    free(tt->slots);
    tt->slots = NULL;
}

void tt_clear(TT *tt) {
    for (size_t i = 0; i <= tt->mask; i++) {
        atomic_store_explicit(&tt->slots[i].check, 0, memory_order_relaxed);
        atomic_store_explicit(&tt->slots[i].data, 0, memory_order_relaxed);
    }
}

size_t tt_megabytes(const TT *tt) { return (tt->mask + 1) * sizeof(TTSlot) / (1024 * 1024); }

static uint64_t pack(uint32_t move, int score, int depth, int bound) {
    return (uint64_t)move | (uint64_t)(uint16_t)(int16_t)score << 32 | (uint64_t)(uint8_t)depth << 48 |
        (uint64_t)(uint8_t)bound << 56;
}

static void unpack(uint64_t key, uint64_t data, TTEntry *out) {
    out->key = key;
    out->move = (uint32_t)data;
    out->score = (int16_t)(uint16_t)(data >> 32);
    out->depth = (int8_t)(uint8_t)(data >> 48);
    out->bound = (uint8_t)(data >> 56);
}

bool tt_probe(const TT *tt, uint64_t key, TTEntry *out) {
    TTSlot *s = &tt->slots[key & tt->mask];
    uint64_t data = atomic_load_explicit(&s->data, memory_order_relaxed);
    uint64_t check = atomic_load_explicit(&s->check, memory_order_relaxed);
    if ((check ^ data) != key || (uint8_t)(data >> 56) == TT_NONE) return false;
    unpack(key, data, out);
    return true;
}

void tt_store(TT *tt, uint64_t key, uint32_t move, int score, int depth, int bound) {
    TTSlot *s = &tt->slots[key & tt->mask];
    TTEntry old;
    bool same = tt_probe(tt, key, &old);
    if (same && old.depth > depth && bound != TT_EXACT) return;
    /* keep the old best move when the new result has none */
    if (!move && same) move = old.move;
    uint64_t data = pack(move, score, depth > 127 ? 127 : depth, bound);
    atomic_store_explicit(&s->data, data, memory_order_relaxed);
    atomic_store_explicit(&s->check, key ^ data, memory_order_relaxed);
}
