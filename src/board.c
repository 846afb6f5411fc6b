/* board.c - Position state, make/unmake through an undo journal, incremental Zobrist key. */
#include "board.h"

#include <stdlib.h>
#include <string.h>

/* A piece's share of the hash; a promoted piece (`~`, it returns to a hand demoted) differs from
 * an unpromoted one of its type by a rotation of the same number. */
static inline uint64_t piece_key(const Variant *v, Cell c, Piece p) {
    int kinds = v->ntypes * v->nowners;
    uint64_t k = v->zobrist_piece[(size_t)c * (size_t)kinds + (size_t)(PIECE_TYPE(p) * v->nowners + PIECE_OWNER(p))];
    return (p & PIECE_PROMOTED) ? (k << 1 | k >> 63) : k;
}

/* A counter's value in the hash (counters take part in repetition like any state). */
static inline uint64_t counter_key(int slot, int32_t value) {
    uint64_t z = ((uint64_t)(uint32_t)slot << 32 | (uint32_t)value) + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The checks a player has given, in the hash of a game that counts them. */
static inline uint64_t checks_key(int player, int given) { return counter_key(0x7300 + player, given); }

/* The length of a running count (`end counting`) in the hash. (The plies it has counted are
 * not, as the n-move clock is not: positions repeat while a count runs.) */
static inline uint64_t count_key(int limit) { return limit ? counter_key(0x7B00, limit) : 0; }

/* The phase state's share of the hash (games whose turns have phases), with the en-passant
 * cells the turn has made (keys of their own: they are not those the mover may take). */
static inline uint64_t phase_key(const Position *pos) {
    uint64_t k = counter_key(0x7000 + pos->phase, (int32_t)(pos->phase_moves << 2 | pos->turn_reset));
    if (pos->ep_next[0] != NO_CELL) {
        uint64_t z = pos->v->zobrist_ep[pos->ep_next[0]];
        k ^= (z << 17) | (z >> 47);
    }
    return k;
}

/* A pile's share of the hash: its cards in order. */
static uint64_t pile_key(const Position *pos, int slot) {
    uint64_t k = counter_key(0x7100 + slot, pos->pile_len[slot]);
    for (int i = 0; i < pos->pile_len[slot]; i++)
        k = counter_key((int)(k & 0xFFFF) + 0x7200, pos->piles[slot][i] | i << 8) ^ (k >> 16);
    return k;
}

static inline uint64_t tile_key(int cell, uint8_t tile) { return tile ? counter_key(0x7400 + cell, tile) : 0; }
static inline uint64_t prelude_key(const Position *pos) {
    return counter_key(0x7500 + pos->prelude, pos->prelude_moves);
}

static inline uint64_t debt_key(const Position *pos) { return pos->debt ? counter_key(0x7300, pos->debt) : 0; }

/* A hand's share of the hash: how many pieces of a type a player holds (none: nothing). */
static inline uint64_t hand_key(int player, int type, int count) {
    return count ? counter_key(0x7600 + player * MAX_PIECE_TYPES + type, count) : 0;
}

/* A gate's share of the hash. */
static inline uint64_t gate_key(int player, Cell c) { return counter_key(0x7800 + player * MAX_CELLS + c, 1); }

/* One piece of a type more (+1) or less (-1) in a player's hand, the hash kept in step. */
static inline void hand_add(Position *pos, int player, int type, int delta) {
    int n = pos->hand[player][type];
    if (n + delta < 0 || n + delta > 255) return;
    pos->key ^= hand_key(player, type, n) ^ hand_key(player, type, n + delta);
    pos->hand[player][type] = (uint8_t)(n + delta);
}

/* Takes a card of the given value from a pile: its top (a stack), or one of that value (a
 * sorted pile, which stays sorted). False when there is none. */
static bool pile_take(Position *pos, int slot, bool sorted, int card) {
    int n = pos->pile_len[slot];
    int at = -1;
    if (!sorted)
        at = n > 0 && pos->piles[slot][n - 1] == card ? n - 1 : -1;
    else
        for (int i = n - 1; i >= 0 && at < 0; i--)
            if (pos->piles[slot][i] == card) at = i;
    if (at < 0) return false;
    memmove(&pos->piles[slot][at], &pos->piles[slot][at + 1], (size_t)(n - 1 - at));
    pos->pile_len[slot] = (uint8_t)(n - 1);
    return true;
}

/* Puts a card on a pile: on top, or in order. False when the pile is full. */
static bool pile_put(Position *pos, int slot, bool sorted, int card) {
    int n = pos->pile_len[slot];
    if (n >= MAX_PILE_CARDS) return false;
    int at = n;
    if (sorted)
        while (at > 0 && pos->piles[slot][at - 1] > card) at--;
    memmove(&pos->piles[slot][at + 1], &pos->piles[slot][at], (size_t)(n - at));
    pos->piles[slot][at] = (uint8_t)card;
    pos->pile_len[slot] = (uint8_t)(n + 1);
    return true;
}

/* The pile definition a slot belongs to. */
static const PileDef *pile_of_slot(const Variant *v, int slot) {
    for (int i = 0; i < v->npiles; i++) {
        const PileDef *p = &v->piles[i];
        if (slot >= p->slot && slot < p->slot + (p->per_player ? v->nplayers : 1)) return p;
    }
    return NULL;
}

static inline void bits_set(uint64_t *bits, Cell c) { bits[c >> 6] |= 1ULL << (c & 63); }
static inline void bits_clear(uint64_t *bits, Cell c) { bits[c >> 6] &= ~(1ULL << (c & 63)); }

/* Writes a cell keeping occupancy sets and (when keyed) the hash in step. */
static inline void write_cell(Position *pos, Cell c, Piece p, bool keyed) {
    Piece old = pos->cell[c];
    if (old) {
        bits_clear(pos->occ[PIECE_OWNER(old)], c);
        bits_clear(pos->type_occ[PIECE_TYPE(old)], c);
        if (keyed) pos->key ^= piece_key(pos->v, c, old);
    }
    pos->cell[c] = p;
    if (p) {
        bits_set(pos->occ[PIECE_OWNER(p)], c);
        bits_set(pos->type_occ[PIECE_TYPE(p)], c);
        if (keyed) pos->key ^= piece_key(pos->v, c, p);
    }
}

void board_init(Position *pos, const Variant *v) {
    memset(pos, 0, sizeof *pos);
    pos->v = v;
    pos->history = xcalloc(MAX_HISTORY, sizeof(Undo));
    board_clear(pos);
}

void board_free(Position *pos) {
    free(pos->history);
    pos->history = NULL;
}

void board_copy(Position *dst, const Position *src) {
    ASSERT(dst->history, "board_copy needs a destination made by board_init");
    Undo *h = dst->history;
    memcpy(dst, src, offsetof(Position, history));
    dst->history = h;
    if (src->ply) memcpy(dst->history, src->history, (size_t)src->ply * sizeof(Undo));
}

void board_clear(Position *pos) {
    const Variant *v = pos->v;
    memset(pos->cell, 0, sizeof pos->cell);
    memset(pos->occ, 0, sizeof pos->occ);
    memset(pos->type_occ, 0, sizeof pos->type_occ);
    pos->turn = 0;
    pos->rights = 0;
    for (int i = 0; i < MAX_EP_CELLS; i++) pos->ep[i] = pos->ep_next[i] = NO_CELL;
    pos->ep_victim = pos->ep_next_victim = NO_CELL;
    pos->halfmove = 0;
    pos->count_limit = pos->count_ply = 0;
    pos->fullmove = 1;
    pos->last_from = pos->last_to = NO_CELL;
    memset(pos->checks, 0, sizeof pos->checks);
    memset(pos->counters, 0, sizeof pos->counters);
    for (int i = 0; v && i < v->ncounters; i++) {
        const CounterDef *c = &v->counters[i];
        for (int k = 0; k < (c->per_player ? v->nplayers : 1); k++) pos->counters[c->slot + k] = c->initial;
    }
    pos->alive = v ? (uint8_t)((1u << v->nplayers) - 1) : 0;
    for (int o = 0; o < MAX_OWNERS; o++) pos->controller[o] = (uint8_t)o;
    for (int p = 0; p < MAX_PLAYERS; p++)
        pos->allegiance[p] = v && v->has_allegiance && p < v->nplayers ? v->allegiance[p] : NO_OWNER;
    pos->phase = pos->phase_moves = pos->turn_reset = 0;
    pos->royal_open = -1;
    for (int i = 0; i < MAX_PLAYERS * MAX_CASTLES; i++) pos->castle_king[i] = pos->castle_rook[i] = NO_CELL;
    pos->debt = 0;
    pos->prelude = pos->prelude_moves = 0;
    pos->passes = 0;
    pos->setup_player = (int8_t)(v && v->nprelude ? v->prelude[0].player : -1);
    pos->tiles_off = false;
    memset(pos->tiles, 0, sizeof pos->tiles);
    if (v && v->minefield_zone)
        for (int p = 0; p < v->nplayers; p++)
            for (int c = 0; c < v->ncells; c++)
                if (zone_has(&v->zones[v->minefield_zone - 1], p, (Cell)c)) pos->tiles[c] = (uint8_t)(p + 1);
    memset(pos->hand, 0, sizeof pos->hand);
    memset(pos->gates, 0, sizeof pos->gates);
    memset(pos->pile_len, 0, sizeof pos->pile_len);
    memset(pos->pile_secret, 0, sizeof pos->pile_secret);
    for (int i = 0; v && i < v->npiles; i++) {
        const PileDef *p = &v->piles[i];
        for (int k = 0; k < (p->per_player ? v->nplayers : 1); k++)
            for (int c = 0; c < p->ninit; c++) pile_put(pos, p->slot + k, p->sorted, p->init[c]);
    }
    pos->ply = 0;
    pos->key = v ? board_compute_key(pos) : 0;
}

void board_put(Position *pos, Cell c, Piece p) {
    ASSERT(c < pos->v->ncells, "board_put writes a cell of the board");
    ASSERT(!p || (PIECE_TYPE(p) >= 0 && PIECE_TYPE(p) < pos->v->ntypes && PIECE_OWNER(p) < pos->v->nowners),
           "board_put places a piece of a known type and owner");
    write_cell(pos, c, p, true);
}

uint64_t board_compute_key(const Position *pos) {
    const Variant *v = pos->v;
    uint64_t k = v->zobrist_side[pos->turn];
    for (int c = 0; c < v->ncells; c++)
        if (pos->cell[c]) k ^= piece_key(v, (Cell)c, pos->cell[c]);
    if (pos->ep[0] != NO_CELL) k ^= v->zobrist_ep[pos->ep[0]];
    for (int r = 0; r < 32; r++)
        if (pos->rights >> r & 1) k ^= v->zobrist_rights[r];
    for (int p = 0; p < v->nplayers; p++)
        if (!((pos->alive >> p) & 1)) k ^= v->zobrist_out[p];
    for (int o = 0; o < v->nowners; o++)
        if (pos->controller[o] != o) k ^= v->zobrist_control[o][pos->controller[o]];
    for (int i = 0; i < v->ncounter_slots; i++) k ^= counter_key(i, pos->counters[i]);
    for (int p = 0; v->check_limit && p < v->nplayers; p++) k ^= checks_key(p, pos->checks[p]);
    k ^= count_key(pos->count_limit);
    for (int p = 0; p < v->nplayers; p++)
        if (pos->allegiance[p] != NO_OWNER) k ^= v->zobrist_allegiance[p][pos->allegiance[p]];
    if (v->nphases) k ^= phase_key(pos);
    for (int i = 0; i < v->npile_slots; i++) k ^= pile_key(pos, i);
    k ^= debt_key(pos);
    if (v->minefield_zone)
        for (int c = 0; c < v->ncells; c++) k ^= tile_key(c, pos->tiles[c]);
    if (v->nprelude) k ^= prelude_key(pos);
    if (v->has_hands)
        for (int p = 0; p < v->nplayers; p++)
            for (int t = 0; t < v->ntypes; t++) k ^= hand_key(p, t, pos->hand[p][t]);
    for (int p = 0; v->gate_zone && p < 2; p++)
        for (int c = 0; c < v->ncells; c++)
            if (bits_has(pos->gates[p], (Cell)c)) k ^= gate_key(p, (Cell)c);
    return k;
}

/* What applying a move's cell effects found out, for the rest of make. */
typedef struct CellOutcome {
    bool capture, resets;
    uint32_t keep; /* castling rights that survive the cells touched */
} CellOutcome;

/* Records c's old content in the journal and writes p (keyed: keep the hash in step). */
static inline void write_journaled(Position *pos, JournalEntry *j, int *n, Cell c, Piece p, bool keyed) {
    ASSERT(*n < MAX_JOURNAL, "a move writes at most MAX_JOURNAL cells");
    j[*n].cell = c;
    j[*n].old = pos->cell[c];
    (*n)++;
    write_cell(pos, c, p, keyed);
}

/* Applies the effects that change cells: lifts and removals first, then drops and placements,
 * then type changes, so a move's effects act at once. Journals every cell written. */
static CellOutcome apply_cells(Position *pos, const Move *m, JournalEntry *j, int *n, bool keyed) {
    const Variant *v = pos->v;
    CellOutcome out = {.keep = 0xFFFFFFFFu};
    Piece lifted[MAX_EFFECTS];
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if (e->kind == FX_MOVE) {
            ASSERT(e->a < v->ncells && e->b < v->ncells, "a piece moves between cells of the board");
            lifted[i] = pos->cell[e->a];
            int t = PIECE_TYPE(lifted[i]);
            if (t >= 0 && v->types[t].resets_nmove) out.resets = true;
            write_journaled(pos, j, n, e->a, 0, keyed);
            out.keep &= v->castle_mask[e->a];
        } else if (e->kind == FX_REMOVE) {
            ASSERT(e->a < v->ncells, "a piece is removed from a cell of the board");
            if (pos->cell[e->a]) out.capture = true;
            write_journaled(pos, j, n, e->a, 0, keyed);
            out.keep &= v->castle_mask[e->a];
        } else if (e->kind == FX_REMOVE_ARMY) {
            for (int w = 0; w < v->cell_words; w++) {
                uint64_t b = pos->occ[e->a][w];
                while (b && *n < MAX_JOURNAL) {
                    Cell c = (Cell)(w * 64 + __builtin_ctzll(b));
                    b &= b - 1;
                    write_journaled(pos, j, n, c, 0, keyed);
                    out.keep &= v->castle_mask[c];
                }
            }
        } else if (e->kind == FX_FLIP) {
            /* (the pieces it turns are no other effect's: the order does not matter) */
            Cell c = e->a;
            for (int k = 0; k < e->pad && c != NO_CELL && *n < MAX_JOURNAL; k++, c = variant_step(v, c, e->b))
                if (pos->cell[c])
                    write_journaled(pos, j, n, c, (Piece)((pos->cell[c] & ~(7u << 6)) | ((unsigned)e->piece << 6)),
                                    keyed);
        }
    }
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if (e->kind == FX_MOVE) {
            if (!lifted[i]) continue; /* nothing stood there: nothing to drop */
            if (pos->cell[e->b]) out.capture = true;
            write_journaled(pos, j, n, e->b, lifted[i] | PIECE_MOVED, keyed);
            out.keep &= v->castle_mask[e->b];
        } else if (e->kind == FX_PLACE) {
            ASSERT(e->a < v->ncells, "a piece is placed on a cell of the board");
            write_journaled(pos, j, n, e->a, e->piece, keyed);
        }
    }
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if (e->kind == FX_CHANGE && pos->cell[e->a]) {
            out.resets = true;                /* a piece that changed type cannot change back by moving */
            out.keep &= v->castle_mask[e->a]; /* nor castle as the piece it was */
            write_journaled(pos, j, n, e->a, (Piece)((pos->cell[e->a] & ~0x1FF) | PIECE_KIND(e->piece)), keyed);
        }
    }
    return out;
}

/* The privileges that survive m, made: a `lost-to` privilege ends when an enemy piece of one
 * of its types moves onto its cell's rank or file (cambodian: a rook aimed at the king). */
uint32_t board_privileges_kept(const Position *pos, const Move *m) {
    const Variant *v = pos->v;
    uint32_t keep = 0xFFFFFFFFu;
    for (int i = 0; i < m->nfx; i++) {
        if (m->fx[i].kind != FX_MOVE) continue;
        Cell to = m->fx[i].b;
        Piece p = pos->cell[to];
        if (!p) continue;
        const CellInfo *at = &v->cells[to];
        for (int k = 0; k < v->ncastles; k++) {
            const Castle *c = &v->castles[k];
            if (!((c->lost_to >> PIECE_TYPE(p)) & 1) || !board_hostile(pos, PIECE_OWNER(p), c->owner)) continue;
            const CellInfo *home = &v->cells[c->king_from];
            if (to != c->king_from && home->board == at->board && (home->x == at->x || home->y == at->y))
                keep &= ~(1u << c->right);
        }
    }
    return keep;
}

/* The rights of free castles that survive m: those whose king and rook cells it leaves alone. */
static uint32_t free_castles_kept(const Position *pos, const Move *m) {
    const Variant *v = pos->v;
    uint32_t keep = 0xFFFFFFFFu;
    /* (a castling king may end where it stood: it has castled all the same) */
    int castler = m->castle ? v->castles[m->castle - 1].owner : -1;
    for (int k = 0; k < v->ncastles; k++)
        if (v->castles[k].free && v->castles[k].owner == castler) keep &= ~(1u << v->castles[k].right);
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if (e->kind != FX_MOVE && e->kind != FX_REMOVE && e->kind != FX_CHANGE) continue;
        for (int k = 0; k < v->ncastles; k++) {
            const Castle *c = &v->castles[k];
            if (!c->free) continue;
            Cell kc = pos->castle_king[k], rc = pos->castle_rook[k];
            if (e->a == kc || e->a == rc || (e->kind == FX_MOVE && (e->b == kc || e->b == rc)))
                keep &= ~(1u << c->right);
        }
    }
    return keep;
}

static void revert_cells(Position *pos, const JournalEntry *j, int n) {
    for (int k = n - 1; k >= 0; k--) write_cell(pos, j[k].cell, j[k].old, false);
}

void board_cells_apply(Position *pos, const Move *m, CellJournal *cj) {
    cj->n = 0;
    apply_cells(pos, m, cj->entries, &cj->n, false);
}

void board_cells_revert(Position *pos, const CellJournal *cj) { revert_cells(pos, cj->entries, cj->n); }

/* The piece of a `sets-ep` type of prev that stands past the en-passant cell ep along d,
 * over empty cells, or NO_CELL. */
static inline Cell ep_victim_along(const Position *pos, Cell ep, int prev, int d) {
    const Variant *v = pos->v;
    Cell c = ep;
    for (int k = 0; k < MAX_EP_CELLS + 1; k++) {
        c = variant_step(v, c, d);
        if (c == NO_CELL) break;
        Piece p = pos->cell[c];
        if (p && PIECE_OWNER(p) == prev && v->types[PIECE_TYPE(p)].sets_ep) return c;
        if (p) break;
    }
    return NO_CELL;
}

int board_ep_makers(const Position *pos, Cell ep, int prev, Cell out[2]) {
    const Variant *v = pos->v;
    ASSERT(prev >= 0 && prev < v->nowners, "en-passant cells belong to a known owner");
    uint64_t dirs = v->ep_dirs[prev];
    if (!dirs && v->forward_dir[prev] >= 0) dirs = 1ull << v->forward_dir[prev];
    /* (of several, only those whose cell before ep, where they came from, is empty) */
    int n = 0, came = 0;
    Cell found[2], from_empty[2];
    for (; dirs; dirs &= dirs - 1) {
        int d = __builtin_ctzll(dirs);
        Cell c = ep_victim_along(pos, ep, prev, d);
        if (c == NO_CELL) continue;
        if (n < 2) found[n] = c;
        n++;
        Cell origin = v->dirs[d].reverse >= 0 ? variant_step(v, ep, v->dirs[d].reverse) : NO_CELL;
        if (origin == NO_CELL || pos->cell[origin]) continue;
        if (came < 2) from_empty[came] = c;
        came++;
    }
    const Cell *pick = n > 1 && came ? from_empty : found;
    if (n > 1 && came) n = came;
    for (int i = 0; i < n && i < 2; i++) out[i] = pick[i];
    return n;
}

bool board_ep_named_by_cell(const Position *pos, Cell ep, int prev, Cell victim) {
    const int forward = pos->v->forward_dir[prev];
    Cell makers[2];
    return forward >= 0 && ep_victim_along(pos, ep, prev, forward) == victim &&
        board_ep_makers(pos, ep, prev, makers) == 1 && makers[0] == victim;
}

/* (Forward first: a double step straight ahead is the common case.) */
static inline bool ep_could_make(const Position *pos, Cell ep, int prev, Cell to) {
    const int forward = pos->v->forward_dir[prev];
    if (forward >= 0 && ep_victim_along(pos, ep, prev, forward) == to) return true;
    uint64_t others = pos->v->ep_dirs[prev] & ~(forward >= 0 ? 1ull << forward : 0);
    for (; others; others &= others - 1)
        if (ep_victim_along(pos, ep, prev, __builtin_ctzll(others)) == to) return true;
    return false;
}

bool board_ep_could_make(const Position *pos, Cell ep, int prev, Cell to) { return ep_could_make(pos, ep, prev, to); }

/* Writes a tile, keeping the hash and the move's undo list. */
static void set_tile(Position *pos, Undo *u, Cell c, uint8_t tile) {
    ASSERT(c < pos->v->ncells, "tiles lie on cells of the board");
    if (u->ntiles >= (int)ARRAY_LEN(u->tile_cell)) return;
    u->tile_cell[u->ntiles] = c;
    u->tile_old[u->ntiles++] = pos->tiles[c];
    pos->key ^= tile_key(c, pos->tiles[c]) ^ tile_key(c, tile);
    pos->tiles[c] = tile;
}

/* A minefield: a piece that lands on a tile lifts it, and so does a move on the cells it
 * passes and marks for en passant (a double step). An enemy mine under a piece that is not
 * mine-proof destroys it (no capture). */
static void step_on_tiles(Position *pos, const Move *m, Undo *u, int *nj, CellOutcome *co) {
    const Variant *v = pos->v;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if (e->kind == FX_EP && pos->tiles[e->a]) set_tile(pos, u, e->a, 0);
        if (e->kind != FX_MOVE || e->a == e->b || !pos->tiles[e->b]) continue;
        uint8_t tile = pos->tiles[e->b];
        set_tile(pos, u, e->b, 0);
        Piece p = pos->cell[e->b];
        if (!p || !(tile & TILE_MINE) || TILE_OWNER(tile) == pos->controller[PIECE_OWNER(p)] ||
            v->types[PIECE_TYPE(p)].mine_proof)
            continue;
        write_journaled(pos, u->journal, nj, e->b, 0, true);
        u->exploded = e->b;
        co->resets = true;
    }
}

/* Worth of the enemy pieces m takes (read before m is applied; a capture reward). */
static int captured_worth(const Position *pos, const Move *m, int mover) {
    const Variant *v = pos->v;
    int worth = 0;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        Cell c = e->kind == FX_REMOVE ? e->a : e->kind == FX_MOVE && e->a != e->b ? e->b : NO_CELL;
        Piece p = c == NO_CELL ? 0 : pos->cell[c];
        if (p && pos->controller[PIECE_OWNER(p)] != mover) worth += v->types[PIECE_TYPE(p)].worth;
    }
    return worth;
}

static bool move_sets_ep(const Move *m) {
    for (int i = 0; i < m->nfx; i++)
        if (m->fx[i].kind == FX_EP) return true;
    return false;
}

#define PHASE_HELD 0xFF /* phase_moves while a payment owed by the turn's last move is due */

/* A phased turn: m is counted in the first phase from the current one that allows its kind
 * and has room (the move generator offers only such moves); a phase that is full is left. A
 * pass ends the turn. Returns true when the turn ends. */
static bool phase_step(Position *pos, const Move *m, bool paying) {
    const Variant *v = pos->v;
    int p = pos->phase, n = pos->phase_moves;
    if (paying) {
        /* a payment is part of the move that owed it: it ends the turn that move ended */
        if (n != PHASE_HELD) return false;
        p = v->nphases;
    } else if (!(m->flags & (MOVE_PASS | MOVE_ELIMINATION))) {
        while (p < v->nphases - 1 &&
               !(((v->phases[p].kinds >> m->kind) & 1) && (!v->phases[p].max || n < v->phases[p].max))) {
            p++;
            n = 0;
        }
        /* a phase without a limit needs no count */
        if (v->phases[p].max) n++;
        if (v->phases[p].max && n >= v->phases[p].max) {
            p++;
            n = 0;
        }
    } else {
        p = v->nphases;
    }
    bool ends = p >= v->nphases;
    if (ends && pos->debt) {
        /* the turn's last move owes a payment: the turn ends with it */
        p = v->nphases - 1;
        n = PHASE_HELD;
        ends = false;
    } else if (ends) {
        p = n = 0;
    }
    pos->phase = (uint8_t)p;
    pos->phase_moves = (uint8_t)n;
    return ends;
}

/* The key's share of the state a move rewrites as a whole: the en-passant cell, the phase
 * and the set-up step. make takes it out before the move and puts it back after. */
static inline uint64_t turn_state_key(const Position *pos) {
    const Variant *v = pos->v;
    uint64_t k = 0;
    if (pos->ep[0] != NO_CELL) k ^= v->zobrist_ep[pos->ep[0]];
    if (v->nphases) k ^= phase_key(pos);
    if (v->nprelude) k ^= prelude_key(pos);
    return k;
}

/* Saves what unmake restores and starts the move's own records. */
static inline void save_state(const Position *pos, Undo *u) {
    u->state = pos->state;
    u->ntiles = 0;
    u->exploded = NO_CELL;
    u->marked = false;
    if (pos->v->npiles) u->piles = pos->pile_state;
    if (pos->v->has_hands) u->hands = pos->hand_state;
}

/* No en-passant cells, and so no victim. */
static inline void clear_ep(Position *pos) {
    for (int i = 0; i < MAX_EP_CELLS; i++) pos->ep[i] = NO_CELL;
    pos->ep_victim = NO_CELL;
}

/* In a turn of phases, en-passant cells of owner o a piece has landed on since they were
 * made are passed over no more, and none is of use once the piece that made them has left
 * its cell or been taken: they go. */
static void drop_taken_ep(Position *pos, Cell *ep, Cell *victim, int o) {
    if (*victim == NO_CELL) return;
    if (!pos->cell[*victim] || PIECE_OWNER(pos->cell[*victim]) != o) {
        for (int i = 0; i < MAX_EP_CELLS; i++) ep[i] = NO_CELL;
        *victim = NO_CELL;
        return;
    }
    int kept = 0;
    for (int i = 0; i < MAX_EP_CELLS; i++)
        if (ep[i] != NO_CELL && !pos->cell[ep[i]]) ep[kept++] = ep[i];
    for (int i = kept; i < MAX_EP_CELLS; i++) ep[i] = NO_CELL;
    if (!kept) *victim = NO_CELL;
}

/* The same for the cells a turn of phases has made. */
static inline void clear_ep_next(Position *pos) {
    for (int i = 0; i < MAX_EP_CELLS; i++) pos->ep_next[i] = NO_CELL;
    pos->ep_next_victim = NO_CELL;
}

/* Moves a card from pile a to pile b (FX_CARD), keeping the secret part of each stack. */
static void move_card(Position *pos, const Effect *e, int mover) {
    const Variant *v = pos->v;
    ASSERT(e->a < v->npile_slots && e->b < v->npile_slots, "a card moves between piles the rules declare");
    pos->key ^= pile_key(pos, e->a) ^ pile_key(pos, e->b);
    const PileDef *from = pile_of_slot(v, e->a), *to = pile_of_slot(v, e->b);
    if (from && to && pile_take(pos, e->a, from->sorted, e->piece) && pile_put(pos, e->b, to->sorted, e->piece)) {
        /* a card its owner stacks in the set-up is in a secret order; a card taken off a
         * stack shortens the secret part under it; a card put on a stack whose top was
         * secret covers a card everyone has seen, which is no longer secret */
        if (pos->pile_secret[e->a] > pos->pile_len[e->a]) pos->pile_secret[e->a] = pos->pile_len[e->a];
        if (pos->pile_secret[e->b] + 1 == pos->pile_len[e->b]) {
            if (!to->sorted && pos->prelude < v->nprelude && to->per_player && e->b - to->slot == mover)
                pos->pile_secret[e->b]++;
            else if (pos->pile_secret[e->b])
                pos->pile_secret[e->b]--;
        }
    }
    pos->key ^= pile_key(pos, e->a) ^ pile_key(pos, e->b);
}

static void close_all_gates(Position *pos, int player);

/* Applies the effects that change no cell (en passant, counters, control, cards, mines,
 * debts, eliminations). Returns how many en-passant cells the move marked. */
static int apply_state_effects(Position *pos, const Move *m, Undo *u, int mover) {
    const Variant *v = pos->v;
    int nep = 0;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        switch (e->kind) {
        case FX_EP:
            /* (in a turn of phases they are the next player's, once the turn ends) */
            if (v->nphases) {
                if (nep < MAX_EP_CELLS) pos->ep_next[nep++] = e->a;
                pos->ep_next_victim = m->to;
            } else {
                if (nep < MAX_EP_CELLS) pos->ep[nep++] = e->a;
                pos->ep_victim = m->to;
            }
            break;
        case FX_COUNTER:
            ASSERT(e->a < v->ncounter_slots, "a move adds to a counter the rules declare");
            pos->key ^= counter_key(e->a, pos->counters[e->a]);
            pos->counters[e->a] += (int16_t)e->piece;
            pos->key ^= counter_key(e->a, pos->counters[e->a]);
            break;
        case FX_CHECK:
            ASSERT(e->a < v->nplayers && v->check_limit, "a game that counts checks counts a player's");
            pos->key ^= checks_key(e->a, pos->checks[e->a]);
            pos->checks[e->a]++;
            pos->key ^= checks_key(e->a, pos->checks[e->a]);
            break;
        case FX_CONTROL:
            ASSERT(e->a < v->nowners && e->b < v->nowners, "control passes between known owners");
            if (pos->controller[e->a] != e->a) pos->key ^= v->zobrist_control[e->a][pos->controller[e->a]];
            pos->controller[e->a] = (uint8_t)e->b;
            if (e->b != e->a) pos->key ^= v->zobrist_control[e->a][e->b];
            break;
        case FX_CARD: move_card(pos, e, mover); break;
        case FX_MARK:
            set_tile(pos, u, e->a, (uint8_t)(pos->tiles[e->a] | TILE_MINE));
            u->marked = true;
            break;
        case FX_DEBT:
            pos->key ^= debt_key(pos);
            pos->debt = (uint8_t)e->piece;
            pos->key ^= debt_key(pos);
            break;
        case FX_HAND:
            ASSERT(e->a < v->nplayers && e->piece < v->ntypes, "a drop takes a known type from a player's hand");
            hand_add(pos, e->a, e->piece, -1);
            if (v->gate_zone && v->hand_keep == HAND_NONE && e->a < 2 && board_hand_empty(pos, e->a))
                close_all_gates(pos, e->a);
            break;
        case FX_ELIMINATE:
            ASSERT(e->a < v->nplayers, "only a player can be eliminated");
            if ((pos->alive >> e->a) & 1) {
                pos->alive &= (uint8_t) ~(1u << e->a);
                pos->key ^= v->zobrist_out[e->a];
            }
            break;
        default: break;
        }
    }
    return nep;
}

/* Keeps of the nep en-passant cells just marked those position text can name: empty, with
 * the piece that moved to `to` standing "forward" past them (a program may mark any cell;
 * others would not read back as they were written). */
static void keep_nameable_ep(Position *pos, int nep, Cell to, int mover) {
    Cell *ep = pos->v->nphases ? pos->ep_next : pos->ep;
    int kept = 0;
    for (int i = 0; i < nep; i++)
        if (!pos->cell[ep[i]] && ep_could_make(pos, ep[i], mover, to)) ep[kept++] = ep[i];
    for (int i = kept; i < MAX_EP_CELLS; i++) ep[i] = NO_CELL;
    if (!kept) *(pos->v->nphases ? &pos->ep_next_victim : &pos->ep_victim) = NO_CELL;
}

/* The pieces m captures (read before m is applied) go into the mover's hand: each as its own
 * type, or, when it had promoted and the game demotes, as the type it promoted from. */
static void capture_to_hand(Position *pos, const Move *m, int mover) {
    const Variant *v = pos->v;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        Cell c = e->kind == FX_REMOVE ? e->a : e->kind == FX_MOVE && e->a != e->b ? e->b : NO_CELL;
        Piece p = c == NO_CELL ? 0 : pos->cell[c];
        if (!p || pos->controller[PIECE_OWNER(p)] == mover) continue;
        int t = variant_base_type(v, PIECE_TYPE(p)); /* a promoted type (`letter +P`) returns as its base */
        if (v->hand_keep == HAND_DEMOTED && (p & PIECE_PROMOTED)) t = v->demote_to[t];
        hand_add(pos, mover, t, +1);
    }
}

/* `hands demoted`: a piece that promotes is marked, to go back to a hand as the type it was.
 * (The mark is an attribute: the cell's journal entry restores the piece without it.) */
static void mark_promoted(Position *pos, const Move *m) {
    for (int i = 0; i < m->nfx; i++) {
        Cell c = m->fx[i].a;
        Piece p = pos->cell[c];
        if (m->fx[i].kind != FX_CHANGE || !p || (p & PIECE_PROMOTED)) continue;
        pos->key ^= piece_key(pos->v, c, p) ^ piece_key(pos->v, c, p | PIECE_PROMOTED);
        pos->cell[c] = p | PIECE_PROMOTED;
    }
}

/* Gating: a cell a move lifts a piece from or captures on is no gate any more (for either
 * player). Read before the move is applied. */
static void close_gates(Position *pos, const Move *m) {
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if (e->kind != FX_MOVE && e->kind != FX_REMOVE) continue;
        for (int k = 0; k < 2; k++) {
            Cell c = k ? e->b : e->a;
            if (k && e->kind != FX_MOVE) continue;
            for (int p = 0; p < 2; p++)
                if (bits_has(pos->gates[p], c)) {
                    pos->gates[p][c >> 6] &= ~(1ULL << (c & 63));
                    pos->key ^= gate_key(p, c);
                }
        }
    }
}

/* A hand that can never be filled again leaves its player's gates useless: they go. */
static void close_all_gates(Position *pos, int player) {
    for (int c = 0; c < pos->v->ncells; c++)
        if (bits_has(pos->gates[player], (Cell)c)) pos->key ^= gate_key(player, (Cell)c);
    memset(pos->gates[player], 0, sizeof pos->gates[player]);
}

/* `castle-dropped`: a drop that puts a king or a rook on its castling cell, the other one at
 * home, gives the mover that castling right. */
static void castle_on_drop(Position *pos, Cell c, int mover) {
    const Variant *v = pos->v;
    for (int i = 0; i < v->ncastles; i++) {
        const Castle *k = &v->castles[i];
        if (k->owner != mover || (c != k->king_from && c != k->rook_from) || (pos->rights >> k->right & 1)) continue;
        Piece king = pos->cell[k->king_from], rook = pos->cell[k->rook_from];
        if (!king || !rook || PIECE_OWNER(king) != mover || PIECE_OWNER(rook) != mover ||
            !variant_royal(v, mover, PIECE_TYPE(king)) || variant_royal(v, mover, PIECE_TYPE(rook)) ||
            (k->rook_type != NO_TYPE && PIECE_TYPE(rook) != k->rook_type))
            continue;
        pos->rights |= 1u << k->right;
        pos->key ^= v->zobrist_rights[k->right];
    }
}

/* Adds the worth of the pieces captured to the mover's capture-reward counter. */
static void reward_capture(Position *pos, int worth, int mover) {
    const CounterDef *c = &pos->v->counters[pos->v->capture_reward - 1];
    int slot = c->slot + (c->per_player ? mover : 0);
    pos->key ^= counter_key(slot, pos->counters[slot]);
    pos->counters[slot] += worth;
    pos->key ^= counter_key(slot, pos->counters[slot]);
}

/* Keeps only the castling rights in `keep` (those of the cells the move left alone). */
static inline void keep_rights(Position *pos, uint32_t keep) {
    uint32_t lost = pos->rights & ~keep;
    if (!lost) return;
    for (int r = 0; r < 32; r++)
        if (lost >> r & 1) pos->key ^= pos->v->zobrist_rights[r];
    pos->rights &= keep;
}

/* Counts a move in the set-up step, the n-move clock or the turn's phases. Returns whether
 * the turn passes to the next player. (The key's share of these is handled by the caller.) */
static bool count_move(Position *pos, const Move *m, CellOutcome co, bool paying) {
    const Variant *v = pos->v;
    if (pos->setup_player >= 0) {
        /* a set-up step: the game's first turn starts after the last one */
        ASSERT(pos->prelude < v->nprelude, "a set-up player means a set-up step under way");
        if (++pos->prelude_moves >= v->prelude[pos->prelude].moves) {
            pos->prelude++;
            pos->prelude_moves = 0;
            board_sync_prelude(pos);
        }
        return false;
    }
    if (!v->nphases) {
        pos->halfmove = (co.capture || co.resets) ? 0 : (uint16_t)(pos->halfmove + 1);
        return !pos->debt; /* a move that owes a payment: the payment ends the turn */
    }
    /* the n-move count counts turns: a turn that captured or reset leaves it at 0 */
    if (co.capture || co.resets) {
        pos->halfmove = 0;
        pos->turn_reset = 1;
    }
    if (!phase_step(pos, m, paying)) return false;
    pos->royal_open = -1; /* (the next turn's start: movegen_pseudo looks) */
    if (!pos->turn_reset) pos->halfmove++;
    pos->turn_reset = 0;
    /* the en-passant cells made in this turn are the next player's, for its whole turn */
    for (int i = 0; i < MAX_EP_CELLS; i++) pos->ep[i] = pos->ep_next[i];
    pos->ep_victim = pos->ep_next_victim;
    clear_ep_next(pos);
    return true;
}

/* Pieces of owner o on the board: all of them (type < 0), or of one type. */
static int pieces_on_board(const Position *pos, int o, int type) {
    int n = 0;
    for (int w = 0; w < pos->v->cell_words; w++)
        n += __builtin_popcountll(pos->occ[o][w] & (type < 0 ? ~0ULL : pos->type_occ[type][w]));
    return n;
}

/* Does a piece of a `pawns` type of `end counting` stand on the board? (Bit tests: this runs
 * after every move.) */
static bool count_pawns_left(const Position *pos) {
    const Variant *v = pos->v;
    for (uint32_t types = v->counting.pawns; types; types &= types - 1) {
        int t = __builtin_ctz(types);
        for (int w = 0; w < v->cell_words; w++)
            if (pos->type_occ[t][w] & (pos->occ[0][w] | pos->occ[1][w])) return true;
    }
    return false;
}

/* Has owner o exactly one piece on the board? */
static bool single_piece(const Position *pos, int o) {
    bool one = false;
    for (int w = 0; w < pos->v->cell_words; w++) {
        uint64_t b = pos->occ[o][w];
        if (!b) continue;
        if (one || (b & (b - 1))) return false;
        one = true;
    }
    return one;
}

/* The length in moves of a count that starts with `side` to move (0: none starts). */
static int count_length(const Position *pos, int side) {
    const CountingRule *cr = &pos->v->counting;
    int other = 1 - side;
    if (pieces_on_board(pos, other, -1) <= 1 || count_pawns_left(pos)) return 0;
    if (pieces_on_board(pos, side, -1) > 1) return cr->board_moves;
    for (int i = 0; i < cr->nlines; i++) {
        const CountingLine *line = &cr->lines[i];
        bool has = true;
        for (int t = 0; t < pos->v->ntypes && has; t++)
            has = !line->need[t] || pieces_on_board(pos, other, t) >= line->need[t];
        if (has) return line->moves;
    }
    return 0;
}

/* `end counting`, after a move (the turn passed): a running count counts the ply; a count
 * starts when none runs and no pawn is left, or when the player to move is left with a single
 * piece (again after a capture that leaves it so). */
__attribute__((noinline)) static void count_after_move(Position *pos, bool capture) {
    const CountingRule *cr = &pos->v->counting;
    if (pos->count_limit && pos->count_ply < UINT16_MAX) pos->count_ply++;
    int side = board_mover(pos);
    bool bare = single_piece(pos, side);
    if (!(bare && (!pos->count_limit || capture)) && !(!pos->count_limit && !count_pawns_left(pos))) return;
    int moves = count_length(pos, side);
    pos->key ^= count_key(pos->count_limit);
    pos->count_limit = (uint16_t)(2 * moves);
    pos->count_ply =
        (uint16_t)(moves && bare && cr->start_pieces ? 2 * (pieces_on_board(pos, 0, -1) + pieces_on_board(pos, 1, -1))
                                                     : 0);
    pos->key ^= count_key(pos->count_limit);
}

/* Gives the turn to the next player still in the game. */
static inline void pass_turn(Position *pos) {
    const Variant *v = pos->v;
    pos->key ^= v->zobrist_side[pos->turn];
    for (int k = 0; k < v->nturns; k++) {
        pos->turn = (uint8_t)((pos->turn + 1) % v->nturns);
        if (pos->turn == 0) pos->fullmove++;
        if ((pos->alive >> v->turn_order[pos->turn]) & 1) break;
    }
    pos->key ^= v->zobrist_side[pos->turn];
}

/* Debug builds check the whole position after every make and unmake, and name what is wrong. */
static inline void assert_consistent(const Position *pos) {
#ifdef NDEBUG
    (void)pos;
#else
    const char *why = board_inconsistency(pos);
    ASSERT(why == NULL, why);
#endif
}

bool board_explode(const Position *pos, Move *m) {
    const Variant *v = pos->v;
    const Piece capturer = pos->cell[m->from];
    Move b = *m;
    b.nfx = 0;
    for (int k = 0; k < m->nfx; k++) {
        const Effect *e = &m->fx[k];
        if (e->kind != FX_MOVE) {
            b.fx[b.nfx++] = *e;
            continue;
        }
        b.fx[b.nfx++] = (Effect){.kind = FX_REMOVE, .a = e->a};
        if (pos->cell[e->b] && b.nfx < MAX_EFFECTS) b.fx[b.nfx++] = (Effect){.kind = FX_REMOVE, .a = e->b};
    }
    for (int d = 0; d < v->nadjacent && b.nfx < MAX_EFFECTS; d++) {
        Cell c = variant_step(v, m->to, v->adjacent_dirs[d]);
        if (c == NO_CELL || c == m->from || !pos->cell[c] || ((v->blast_proof_mask >> PIECE_TYPE(pos->cell[c])) & 1))
            continue;
        bool listed = false;
        for (int k = 0; k < b.nfx && !listed; k++) listed = b.fx[k].kind == FX_REMOVE && b.fx[k].a == c;
        if (!listed) b.fx[b.nfx++] = (Effect){.kind = FX_REMOVE, .a = c};
    }
    bool own_royal = false;
    for (int k = 0; k < b.nfx && !own_royal; k++) {
        Piece p = b.fx[k].kind == FX_REMOVE ? pos->cell[b.fx[k].a] : 0;
        own_royal = p && variant_royal(v, PIECE_OWNER(p), PIECE_TYPE(p)) &&
            !board_hostile(pos, PIECE_OWNER(p), PIECE_OWNER(capturer));
    }
    *m = b;
    return own_royal;
}

bool board_make(Position *pos, const Move *m) {
    const Variant *v = pos->v;
    if (pos->ply >= MAX_HISTORY) return false;
    ASSERT(m->nfx <= MAX_EFFECTS, "a move has at most MAX_EFFECTS effects");
    Undo *u = &pos->history[pos->ply];
    save_state(pos, u);
    const bool phased = v->nphases > 0;
    const bool paying = pos->debt > 0;
    int mover = board_mover(pos);
    pos->key ^= turn_state_key(pos);
    /* en-passant cells belong to the last move; in a turn of phases, to the last turn (a
     * second double step in a turn replaces the first one's) */
    if (!phased)
        clear_ep(pos);
    else if (move_sets_ep(m))
        clear_ep_next(pos);

    int worth = v->capture_reward && !(m->flags & MOVE_ELIMINATION) ? captured_worth(pos, m, mover) : 0;
    if (unlikely(v->has_hands)) {
        if (v->hand_keep != HAND_NONE && (m->flags & MOVE_CAPTURE) && mover < v->nplayers)
            capture_to_hand(pos, m, mover);
        if (v->gate_zone) close_gates(pos, m);
    }
    int nj = 0;
    CellOutcome co = apply_cells(pos, m, u->journal, &nj, true);
    if (unlikely(v->free_castles) && pos->rights) co.keep &= free_castles_kept(pos, m);
    if (unlikely(v->privileges_lost) && pos->rights) co.keep &= board_privileges_kept(pos, m);
    if (v->minefield_zone && !pos->tiles_off && !(m->flags & (MOVE_CARDS | MOVE_TILE | MOVE_PASS)))
        step_on_tiles(pos, m, u, &nj, &co);
    u->njournal = (uint8_t)nj;
    if (unlikely(v->hand_keep == HAND_DEMOTED) && (m->flags & MOVE_PROMOTION)) mark_promoted(pos, m);
    int nep = apply_state_effects(pos, m, u, mover);
    if (nep) keep_nameable_ep(pos, nep, m->to, mover);
    if (worth) reward_capture(pos, worth, mover);
    keep_rights(pos, co.keep);
    if (unlikely(v->castle_dropped) && (m->flags & MOVE_DROP)) castle_on_drop(pos, m->to, mover);
    if (phased) {
        drop_taken_ep(pos, pos->ep, &pos->ep_victim, v->turn_order[(pos->turn + v->nturns - 1) % v->nturns]);
        drop_taken_ep(pos, pos->ep_next, &pos->ep_next_victim, mover);
    }
    bool turn_ends = count_move(pos, m, co, paying);
    if (!(m->flags & MOVE_CARDS) && (!phased || !(m->flags & MOVE_PASS))) {
        /* (card moves and the pass that ends a turn of phases leave the last move as it was) */
        pos->last_from = m->from;
        pos->last_to = m->to;
        pos->passes = (m->flags & MOVE_PASS) && pos->passes < 255 ? (uint8_t)(pos->passes + 1) : 0;
    }
    if (turn_ends) pass_turn(pos);
    if (unlikely(v->counting.on)) count_after_move(pos, co.capture);
    pos->key ^= turn_state_key(pos);
    pos->ply++;
    assert_consistent(pos);
    return true;
}

void board_unmake(Position *pos) {
    ASSERT(pos->ply > 0, "unmake needs a move to undo");
    Undo *u = &pos->history[--pos->ply];
    revert_cells(pos, u->journal, u->njournal);
    for (int k = u->ntiles - 1; k >= 0; k--) pos->tiles[u->tile_cell[k]] = u->tile_old[k];
    pos->state = u->state;
    if (pos->v->npiles) pos->pile_state = u->piles;
    if (pos->v->has_hands) pos->hand_state = u->hands;
    assert_consistent(pos);
}

/* board_inconsistency's parts, each naming what is wrong in its share of the position. */

/* Every piece is of a known type and owner, no cell past the board holds one, and the
 * occupancy sets (per owner and per type) are exactly the cells' pieces. Position keeps no
 * piece counts or royal cells: they are read from these sets, so checking the sets covers
 * them. */
static const char *cells_inconsistency(const Position *pos) {
    const Variant *v = pos->v;
    uint64_t occ[MAX_OWNERS][CELL_WORDS] = {{0}};
    uint64_t type_occ[MAX_PIECE_TYPES][CELL_WORDS] = {{0}};
    for (int c = 0; c < MAX_CELLS; c++) {
        Piece p = pos->cell[c];
        if (!p) continue;
        if (c >= v->ncells) return "a piece stands past the last cell";
        int t = PIECE_TYPE(p), o = PIECE_OWNER(p);
        if (t < 0 || t >= v->ntypes || o >= v->nowners) return "a piece of no known type or owner";
        bits_set(occ[o], (Cell)c);
        bits_set(type_occ[t], (Cell)c);
    }
    if (memcmp(occ, pos->occ, sizeof occ) != 0) return "an owner's occupancy set differs from the cells";
    if (memcmp(type_occ, pos->type_occ, sizeof type_occ) != 0) return "a type's occupancy set differs from the cells";
    return NULL;
}

/* The turn, the players still in, who moves each army, the set-up step and the phase. */
static const char *turn_inconsistency(const Position *pos) {
    const Variant *v = pos->v;
    if (pos->turn >= v->nturns) return "the turn slot is past the turn order";
    if (pos->alive & ~((1u << v->nplayers) - 1)) return "a player who does not exist is in the game";
    for (int o = 0; o < MAX_OWNERS; o++)
        if (o < v->nowners ? pos->controller[o] >= v->nowners : pos->controller[o] != o)
            return "an army is moved by no known player";
    for (int p = 0; p < MAX_PLAYERS; p++)
        if (pos->allegiance[p] != NO_OWNER && (p >= v->nplayers || pos->allegiance[p] >= v->nowners))
            return "a player answers for no known army";
    if (pos->prelude > v->nprelude) return "the set-up step is past the last one";
    bool in_setup = pos->prelude < v->nprelude;
    if (pos->setup_player != (in_setup ? v->prelude[pos->prelude].player : -1))
        return "the set-up player is not the one of the set-up step";
    if (in_setup ? pos->prelude_moves >= v->prelude[pos->prelude].moves : pos->prelude_moves != 0)
        return "the set-up step has made more moves than it has";
    if (!v->nphases) {
        if (pos->phase || pos->phase_moves || pos->turn_reset) return "phase state in a game without phases";
    } else {
        if (pos->phase >= v->nphases) return "the phase is past the last one";
        int max = v->phases[pos->phase].max;
        if (pos->phase_moves != PHASE_HELD && pos->phase_moves >= (max ? max : 1))
            return "the phase has made more moves than it allows";
    }
    if (pos->royal_open < -1 || pos->royal_open > 1) return "royal_open is not -1, 0 or 1";
    return NULL;
}

/* En-passant cells (packed at the front, on the board, with a victim exactly when there is
 * one), counters past the declared ones, piles, the debt and the tiles. */
static const char *state_inconsistency(const Position *pos) {
    const Variant *v = pos->v;
    for (int i = 0; i < MAX_EP_CELLS; i++) {
        if (pos->ep[i] == NO_CELL) continue;
        if (pos->ep[i] >= v->ncells) return "an en-passant cell is off the board";
        if (i > 0 && pos->ep[i - 1] == NO_CELL) return "the en-passant cells are not packed at the front";
    }
    if ((pos->ep[0] == NO_CELL) != (pos->ep_victim == NO_CELL))
        return "en-passant cells without a victim, or a victim without cells";
    if (pos->ep_victim != NO_CELL && pos->ep_victim >= v->ncells) return "the en-passant victim is off the board";
    for (int i = 0; i < MAX_EP_CELLS; i++) {
        if (pos->ep_next[i] == NO_CELL) continue;
        if (!v->nphases) return "en-passant cells of a turn in a game without phases";
        if (pos->ep_next[i] >= v->ncells) return "an en-passant cell is off the board";
        if (i > 0 && pos->ep_next[i - 1] == NO_CELL) return "the en-passant cells are not packed at the front";
    }
    if ((pos->ep_next[0] == NO_CELL) != (pos->ep_next_victim == NO_CELL))
        return "en-passant cells without a victim, or a victim without cells";
    if (pos->ep_next_victim != NO_CELL && pos->ep_next_victim >= v->ncells)
        return "the en-passant victim is off the board";
    for (int i = v->ncounter_slots; i < MAX_COUNTERS; i++)
        if (pos->counters[i]) return "a counter no rule declares has a value";
    for (int s = 0; s < MAX_PILE_SLOTS; s++) {
        if (s >= v->npile_slots) {
            if (pos->pile_len[s] || pos->pile_secret[s]) return "a pile no rule declares has cards";
            continue;
        }
        if (pos->pile_len[s] > MAX_PILE_CARDS) return "a pile holds more than MAX_PILE_CARDS cards";
        if (pos->pile_secret[s] > pos->pile_len[s]) return "a pile has more secret cards than cards";
        const PileDef *def = pile_of_slot(v, s);
        for (int i = 1; def && def->sorted && i < pos->pile_len[s]; i++)
            if (pos->piles[s][i - 1] > pos->piles[s][i]) return "a sorted pile is out of order";
    }
    if (pos->debt && !v->npiles) return "a payment is owed in a game without piles";
    if ((pos->count_limit || pos->count_ply) && !v->counting.on) return "a count runs in a game without 'end counting'";
    if (pos->count_ply && !pos->count_limit) return "a count has counted plies but no length";
    for (int p = 0; p < MAX_PLAYERS; p++)
        for (int t = 0; t < MAX_PIECE_TYPES; t++)
            if (pos->hand[p][t] && (!v->has_hands || p >= v->nplayers || t >= v->ntypes))
                return "a hand holds a piece the game cannot have in hand";
    for (int p = 0; p < 2; p++)
        for (int w = 0; w < CELL_WORDS; w++) {
            if (pos->gates[p][w] & ~(v->gate_zone ? v->zones[v->gate_zone - 1].cells[p][w] : 0))
                return "a gate outside the gating zone";
            if (pos->gates[p][w] && v->hand_keep == HAND_NONE && board_hand_empty(pos, p))
                return "gates of a player whose hand is empty for good";
        }
    for (int c = 0; c < MAX_CELLS; c++)
        if (pos->tiles[c] && (!v->minefield_zone || c >= v->ncells || TILE_OWNER(pos->tiles[c]) >= v->nplayers))
            return "a tile that no minefield put there";
    return NULL;
}

/* The history: allocated, its depth within bounds, the last move's journal within its arrays. */
static const char *history_inconsistency(const Position *pos) {
    if (!pos->history) return "no history (board_init was not called)";
    if (pos->ply < 0 || pos->ply > MAX_HISTORY) return "the history depth is out of bounds";
    if (pos->ply) {
        const Undo *u = &pos->history[pos->ply - 1];
        if (u->njournal > MAX_JOURNAL) return "the last move journalled more cells than the journal holds";
        if (u->ntiles > ARRAY_LEN(u->tile_cell)) return "the last move changed more tiles than it records";
    }
    return NULL;
}

const char *board_inconsistency(const Position *pos) {
    const char *why = cells_inconsistency(pos);
    if (!why) why = turn_inconsistency(pos);
    if (!why) why = state_inconsistency(pos);
    if (!why) why = history_inconsistency(pos);
    /* (last: the most work, and meaningless if the parts above are wrong) */
    if (!why && pos->key != board_compute_key(pos)) why = "the key differs from one computed from scratch";
    return why;
}

bool board_is_ok(const Position *pos) { return board_inconsistency(pos) == NULL; }

Cell board_royal(const Position *pos, int owner) {
    const Variant *v = pos->v;
    ASSERT(owner >= 0 && owner < MAX_OWNERS, "board_royal looks for a known owner's royal piece");
    for (int t = 0; t < v->ntypes; t++) {
        if (!variant_royal(v, owner, t)) continue;
        for (int w = 0; w < pos->v->cell_words; w++) {
            uint64_t b = pos->type_occ[t][w] & pos->occ[owner][w];
            if (b) return (Cell)(w * 64 + __builtin_ctzll(b));
        }
    }
    return NO_CELL;
}
