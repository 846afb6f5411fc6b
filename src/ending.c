/* ending.c - the endings a position decides by itself: extinction, a bare king, a zone
 * reached (at once, or after the other side's reply), checks given. Two sides (or one player:
 * extinction, reach and the placement goals). */
#include "ending.h"

#include "attack.h"

static int count_pieces(const Position *pos, int owner, uint32_t types) {
    const Variant *v = pos->v;
    int n = 0;
    for (int w = 0; w < v->cell_words; w++) {
        uint64_t mine = pos->occ[owner][w];
        if (types) {
            uint64_t of = 0;
            for (int t = 0; t < v->ntypes; t++)
                if ((types >> t) & 1) of |= pos->type_occ[t][w];
            mine &= of;
        }
        n += __builtin_popcountll(mine);
    }
    return n;
}

/* Pieces of those types (0: all) in the owner's hand, still to be dropped. */
static int count_in_hand(const Position *pos, int owner, uint32_t types) {
    const Variant *v = pos->v;
    int n = 0;
    if (!v->has_hands || owner >= v->nplayers) return 0;
    for (int t = 0; t < v->ntypes; t++)
        if (!types || ((types >> t) & 1)) n += pos->hand[owner][t];
    return n;
}

/* A side's pieces of those types on the board and (unless the rule counts the board only) in
 * its hand. */
static int count_held(const Position *pos, int owner, uint32_t types, const ExtinctionRule *e) {
    return count_pieces(pos, owner, types) + (e->board_only ? 0 : count_in_hand(pos, owner, types));
}

/* Has the owner a piece of type t on the board? */
static bool on_board(const Position *pos, int owner, int t) {
    for (int w = 0; w < pos->v->cell_words; w++)
        if (pos->type_occ[t][w] & pos->occ[owner][w]) return true;
    return false;
}

/* Pieces of those types (0: all) on the board, every owner's. */
static int count_on_board(const Position *pos, uint32_t types) {
    const Variant *v = pos->v;
    int n = 0;
    for (int w = 0; w < v->cell_words; w++) {
        uint64_t any = 0;
        for (int t = 0; t < v->ntypes; t++)
            if (!types || ((types >> t) & 1)) any |= pos->type_occ[t][w];
        n += __builtin_popcountll(any & v->on_board[w]);
    }
    return n;
}

/* Is a count of a side's pieces what the rule asks for (at most N, or exactly N)? */
static bool few_enough(const ExtinctionRule *e, int count) {
    return e->exactly ? count == e->at_most : count <= e->at_most;
}

static bool extinct(const Position *pos, int owner, const ExtinctionRule *e) {
    if (e->total) return count_on_board(pos, e->types) == e->at_most; /* (whoever owns them) */
    int rival = pos->v->nplayers == 1 ? owner : 1 - owner;
    if (e->all_of) {
        /* at most N of each type (while the rival holds M of each) */
        for (uint32_t types = e->types; types; types &= types - 1) {
            uint32_t t = types & -types;
            if (!few_enough(e, count_held(pos, owner, t, e)) || count_held(pos, rival, t, e) < e->rival_at_least)
                return false;
        }
        return true;
    }
    if (!e->types)
        return few_enough(e, count_held(pos, owner, 0, e)) && count_held(pos, rival, 0, e) >= e->rival_at_least;
    uint32_t types = e->types;
    if (!e->at_most && pos->v->cell_words == 1) {
        /* (a board of one word: the types the owner has on the board need no count) */
        const uint64_t mine = pos->occ[owner][0];
        for (uint32_t left = types; left; left &= left - 1)
            if (pos->type_occ[__builtin_ctz(left)][0] & mine) types &= ~(left & -left);
    }
    for (; types; types &= types - 1) {
        int t = __builtin_ctz(types);
        if (!e->at_most && on_board(pos, owner, t)) continue; /* (no count needed) */
        if (few_enough(e, count_held(pos, owner, 1u << t, e)) &&
            count_held(pos, rival, 1u << t, e) >= e->rival_at_least)
            return true;
    }
    return false;
}

/* Only royal pieces left (or none at all). */
static bool bare(const Position *pos, int owner) {
    const Variant *v = pos->v;
    for (int t = 0; t < v->ntypes; t++)
        if (!variant_royal(v, owner, t) && count_pieces(pos, owner, 1u << t)) return false;
    return true;
}

/* Has owner a piece of type t in its part of zone z? */
static bool has_in_zone(const Position *pos, int owner, int t, int z) {
    const Variant *v = pos->v;
    for (int w = 0; w < v->cell_words; w++)
        if (pos->type_occ[t][w] & pos->occ[owner][w] & v->zones[z].cells[owner][w]) return true;
    return false;
}

bool ending_reached(const Position *pos, int owner, const ReachRule *r) {
    if (r->players && !(r->players >> owner & 1)) return false;
    if (!has_in_zone(pos, owner, r->type, r->zone)) return false;
    for (int i = 0; i < r->nmore; i++)
        if (!has_in_zone(pos, owner, r->more_type[i], r->more_zone[i])) return false;
    return true;
}

/* A `safe` reach: owner has r's piece in its part of r's zone where no enemy could take it. */
static bool reached_safely(GenContext *ctx, Position *pos, int owner, const ReachRule *r) {
    const Variant *v = pos->v;
    if (r->players && !(r->players >> owner & 1)) return false;
    for (int w = 0; w < v->cell_words; w++) {
        uint64_t b = pos->type_occ[r->type][w] & pos->occ[owner][w] & v->zones[r->zone].cells[owner][w];
        for (; b; b &= b - 1) {
            Cell c = (Cell)(w * 64 + __builtin_ctzll(b));
            if (!attack_is_attacked(ctx, pos, c, owner, pos->cell[c])) return true;
        }
    }
    return false;
}

/* Does owner have `r->length` or more (exactly that many) pieces of r's types one after
 * another along one of r's lines? A run is counted from its first cell (the one with none of
 * the owner's before it along the line). */
static bool has_row(const Position *pos, int owner, const RowRule *r) {
    const Variant *v = pos->v;
    const LineSet *lines = &v->linesets[r->lines];
    uint64_t mine[CELL_WORDS];
    for (int w = 0; w < v->cell_words; w++) {
        mine[w] = pos->occ[owner][w] & v->on_board[w]; /* (holding cells are in no line) */
        if (r->types) {
            uint64_t of = 0;
            for (int t = 0; t < v->ntypes; t++)
                if ((r->types >> t) & 1) of |= pos->type_occ[t][w];
            mine[w] &= of;
        }
    }
    for (int w = 0; w < v->cell_words; w++)
        for (uint64_t b = mine[w]; b; b &= b - 1) {
            Cell c = (Cell)(w * 64 + __builtin_ctzll(b));
            for (int i = 0; i < lines->n; i++) {
                int d = lines->dirs[i], back = v->dirs[d].reverse;
                Cell prev = back >= 0 ? variant_step(v, c, back) : NO_CELL;
                if (prev != NO_CELL && bits_has(mine, prev)) continue; /* (not the run's first cell) */
                int n = 1;
                for (Cell k = variant_step(v, c, d); k != NO_CELL && bits_has(mine, k); k = variant_step(v, k, d)) n++;
                if (r->exactly ? n == r->length : n >= r->length) return true;
            }
        }
    return false;
}

/* Does a chain of owner's pieces, each next to the next along r's directions, join its part
 * of zone A to its part of zone B? */
static bool connected(const Position *pos, int owner, const ConnectRule *r) {
    const Variant *v = pos->v;
    const uint64_t *a = v->zones[r->zone_a].cells[owner], *b = v->zones[r->zone_b].cells[owner];
    uint64_t seen[CELL_WORDS] = {0}, mine[CELL_WORDS];
    for (int w = 0; w < v->cell_words; w++)
        mine[w] = pos->occ[owner][w] & v->on_board[w]; /* (no chain through a holding cell) */
    Cell todo[MAX_CELLS];
    int n = 0;
    for (int w = 0; w < v->cell_words; w++)
        for (uint64_t bits = mine[w] & a[w]; bits; bits &= bits - 1) {
            Cell c = (Cell)(w * 64 + __builtin_ctzll(bits));
            seen[w] |= 1ULL << (c & 63);
            todo[n++] = c;
        }
    while (n) {
        Cell c = todo[--n];
        if (bits_has(b, c)) return true;
        for (int i = 0; i < r->ndirs; i++) {
            Cell k = variant_step(v, c, r->dirs[i]);
            if (k == NO_CELL || !bits_has(mine, k) || bits_has(seen, k)) continue;
            seen[k >> 6] |= 1ULL << (k & 63);
            todo[n++] = k;
        }
    }
    return false;
}

/* Do owner's pieces (of r's types) stand on every cell of its part of r's zone (not empty)? */
static bool occupies(const Position *pos, int owner, const OccupyRule *r) {
    const Variant *v = pos->v;
    bool any = false;
    for (int w = 0; w < v->cell_words; w++) {
        uint64_t want = v->zones[r->zone].cells[owner][w] & v->on_board[w], mine = pos->occ[owner][w];
        if (r->types) {
            uint64_t of = 0;
            for (int t = 0; t < v->ntypes; t++)
                if ((r->types >> t) & 1) of |= pos->type_occ[t][w];
            mine &= of;
        }
        if (want & ~mine) return false;
        any = any || want;
    }
    return any;
}

static bool decide(Ending *out, int player, ResultKind result, const char *reason, const char *name) {
    if (out) *out = (Ending){.player = player, .result = result, .reason = reason, .name = name[0] ? name : NULL};
    return true;
}

bool ending_decided(GenContext *ctx, Position *pos, Ending *out) {
    const Variant *v = pos->v;
    if (!v->decided_by_position) return false;
    /* (a game of one player: that player is both) */
    int mover = board_mover(pos), prev = v->nplayers == 1 ? mover : 1 - mover;
    /* the side that just moved first: its move may have ended the game for either side */
    const int sides[2] = {prev, mover};
    const int nsides = v->nplayers == 1 ? 1 : 2;
    for (int i = 0; i < v->nextinctions; i++)
        for (int k = 0; k < nsides; k++)
            if ((!v->extinctions[i].players || v->extinctions[i].players >> sides[k] & 1) &&
                extinct(pos, sides[k], &v->extinctions[i]))
                return decide(out, sides[k], v->extinctions[i].result,
                              v->extinctions[i].total       ? "total pieces"
                                  : v->extinctions[i].types ? "extinction"
                                                            : "all pieces lost",
                              v->extinctions[i].name);
    if (v->check_limit)
        for (int k = 0; k < 2; k++)
            if (pos->checks[sides[k]] >= v->check_limit)
                return decide(out, sides[k], v->on_checks, "checks", v->checks_name);
    for (int i = 0; i < v->nreaches; i++) {
        const ReachRule *r = &v->reaches[i];
        /* safe: a piece that arrived where it could be taken counts once it no longer can,
         * for either side, the side that just moved first */
        if (r->safe) {
            for (int k = 0; k < 2; k++)
                if (reached_safely(ctx, pos, sides[k], r))
                    return decide(out, sides[k], r->result, "zone reached", r->name);
            continue;
        }
        if (!r->reply && ending_reached(pos, prev, r)) return decide(out, prev, r->result, "zone reached", r->name);
        /* with a reply: the mover reached before the other side answered; that answer drew
         * when it reached too and came later in the round */
        if (r->reply && ending_reached(pos, mover, r)) {
            bool drawn = ending_reached(pos, prev, r) && pos->turn == 0;
            return decide(out, mover, drawn ? RESULT_DRAW : r->result, "zone reached", r->name);
        }
        /* an answer from the first player of the round could not draw: no answer then */
        if (r->last_chance && pos->turn == 0 && ending_reached(pos, prev, r))
            return decide(out, prev, r->result, "zone reached", r->name);
    }
    for (int k = 0; k < nsides; k++) {
        for (int i = 0; i < v->nrows; i++)
            if (has_row(pos, sides[k], &v->rows[i]))
                return decide(out, sides[k], v->rows[i].result, "in a row", v->rows[i].name);
        for (int i = 0; i < v->nconnects; i++)
            if (connected(pos, sides[k], &v->connects[i]))
                return decide(out, sides[k], v->connects[i].result, "connected", v->connects[i].name);
        for (int i = 0; i < v->noccupies; i++)
            if (occupies(pos, sides[k], &v->occupies[i]))
                return decide(out, sides[k], v->occupies[i].result, "zone occupied", v->occupies[i].name);
    }
    if (v->on_bare_king != RESULT_NONE) {
        /* baring the other king with the reply the rule allows draws */
        if (bare(pos, prev))
            return decide(out, prev, bare(pos, mover) ? RESULT_DRAW : v->on_bare_king, "bare king", v->bare_king_name);
        if (!v->bare_king_reply && bare(pos, mover))
            return decide(out, mover, v->on_bare_king, "bare king", v->bare_king_name);
    }
    return false;
}

const ReachRule *ending_reply_due(const Position *pos) {
    const Variant *v = pos->v;
    int mover = board_mover(pos), prev = 1 - mover;
    for (int i = 0; i < v->nreaches; i++) {
        const ReachRule *r = &v->reaches[i];
        if (r->last_chance && pos->turn != 0 && ending_reached(pos, prev, r) && !ending_reached(pos, mover, r))
            return r;
    }
    return NULL;
}
