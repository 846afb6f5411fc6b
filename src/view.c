/* view.c - per-player knowledge of hidden tiles and deck orders, and determinized samples. */
#include "view.h"

#include <string.h>

ViewTile view_tile(const Position *truth, int player, Cell c) {
    uint8_t t = truth->tiles[c];
    if (!t) return VIEW_NONE;
    if (TILE_OWNER(t) != player) return VIEW_UNKNOWN;
    return (t & TILE_MINE) ? VIEW_OWN_MINE : VIEW_OWN_BLANK;
}

/* Does a set-up step still to come (or under way) have `owner` stack its own cards onto pile? */
static bool stacking_left(const Position *truth, int owner, int pile) {
    const Variant *v = truth->v;
    for (int k = truth->prelude; k < v->nprelude; k++) {
        if (v->prelude[k].player != owner) continue;
        for (int i = 0; i < v->ndraws; i++)
            if (v->draws[i].kind == v->prelude[k].kind && v->draws[i].own && v->draws[i].to == pile) return true;
    }
    return false;
}

int view_card(const Position *truth, int player, int pile, int owner, int i) {
    const Variant *v = truth->v;
    const PileDef *pd = &v->piles[pile];
    int slot = pd->slot + (pd->per_player ? owner : 0);
    if (player < 0 || !pd->per_player || owner == player) return truth->piles[slot][i];
    /* the pile its owner stacks a secret order from: which card went is secret too */
    for (int k = 0; k < v->ndraws; k++)
        if (v->draws[k].from == pile && v->draws[k].own && !v->piles[v->draws[k].to].sorted) return -1;
    /* the secret order: only the top card shows, once the stack is laid down */
    bool top = i + 1 == truth->pile_len[slot] && !stacking_left(truth, owner, pile);
    return i < truth->pile_secret[slot] && !top ? -1 : truth->piles[slot][i];
}

/* The player who made the move recorded in u. */
static int mover_of(const Variant *v, const Undo *u) {
    if (u->state.prelude < v->nprelude) return v->prelude[u->state.prelude].player;
    return v->turn_order[u->state.turn];
}

/* Has `enemy` finished marking its mines? (Before that its tiles say nothing.) */
static bool marks_done(const Position *truth, int enemy) {
    const Variant *v = truth->v;
    for (int k = truth->prelude; k < v->nprelude; k++)
        if (v->prelude[k].player == enemy && v->prelude[k].kind == v->mine_kind) return false;
    return true;
}

static void sample_mines(const Position *truth, int player, uint64_t *rng, Position *out) {
    const Variant *v = truth->v;
    const Zone *home = &v->zones[v->minefield_zone - 1];
    for (int enemy = 0; enemy < v->nplayers; enemy++) {
        if (enemy == player) continue;
        /* what `player` knows of the enemy's tiles that are gone: mines it saw go off or
         * lifted itself, blanks it lifted itself; the rest were lifted unseen */
        int zone_tiles = 0, known_gone = 0, known_mines = 0;
        for (int c = 0; c < v->ncells; c++) zone_tiles += zone_has(home, enemy, (Cell)c);
        for (int k = 0; k < truth->ply; k++) {
            const Undo *u = &truth->history[k];
            if (u->marked) continue;
            int who = mover_of(v, u);
            for (int j = 0; j < u->ntiles; j++) {
                uint8_t old = u->tile_old[j];
                if (!old || TILE_OWNER(old) != enemy) continue;
                /* a tile that went off was the landing cell's, and public */
                bool public_mine = u->exploded == u->tile_cell[j];
                if (who == player || public_mine) {
                    known_gone++;
                    if (old & TILE_MINE) known_mines++;
                }
            }
        }
        Cell unknown[MAX_CELLS];
        int nunknown = 0;
        for (int c = 0; c < v->ncells; c++) {
            uint8_t t = truth->tiles[c];
            if (t && TILE_OWNER(t) == enemy) {
                out->tiles[c] = (uint8_t)(enemy + 1); /* face down: blank until sampled */
                unknown[nunknown++] = (Cell)c;
            }
        }
        if (!marks_done(truth, enemy)) continue;
        /* tiles gone unseen are unknown too: they may have held some of the mines */
        int unseen_gone = zone_tiles - nunknown - known_gone;
        if (unseen_gone < 0) unseen_gone = 0;
        int pool = nunknown + unseen_gone, mines = v->mines - known_mines;
        if (mines > pool) mines = pool;
        /* choose `mines` of the pool uniformly (a partial shuffle of indexes) */
        int idx[MAX_CELLS * 2];
        for (int i = 0; i < pool; i++) idx[i] = i;
        for (int i = 0; i < mines; i++) {
            int r = i + (int)(rng_next(rng) % (uint64_t)(pool - i));
            int t = idx[i];
            idx[i] = idx[r];
            idx[r] = t;
            if (idx[i] < nunknown) out->tiles[unknown[idx[i]]] |= TILE_MINE;
        }
    }
}

static void shuffle_secret_decks(const Position *truth, int player, uint64_t *rng, Position *out) {
    const Variant *v = truth->v;
    for (int i = 0; i < v->npiles; i++) {
        const PileDef *p = &v->piles[i];
        if (p->sorted || !p->per_player) continue;
        for (int k = 0; k < v->nplayers; k++) {
            int slot = p->slot + k;
            if (k == player) continue;
            /* the secret part, less its top card when that is the pile's (visible) top; put
             * in order first, so that the shuffle starts from what `player` knows (which
             * cards) and not from the truth (their order) */
            int n = out->pile_secret[slot];
            if (n >= out->pile_len[slot]) n = out->pile_len[slot] - 1;
            uint8_t *cards = out->piles[slot];
            for (int a = 1; a < n; a++)
                for (int b = a; b > 0 && cards[b - 1] > cards[b]; b--) {
                    uint8_t t = cards[b];
                    cards[b] = cards[b - 1];
                    cards[b - 1] = t;
                }
            for (int a = n - 1; a > 0; a--) {
                int b = (int)(rng_next(rng) % (uint64_t)(a + 1));
                uint8_t t = cards[a];
                cards[a] = cards[b];
                cards[b] = t;
            }
        }
    }
}

void view_sample(const Position *truth, int player, uint64_t seed, Position *out) {
    Undo *h = out->history;
    memcpy(out, truth, offsetof(Position, history));
    out->history = h;
    out->ply = 0;
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    if (!rng) rng = 1;
    if (truth->v->minefield_zone) sample_mines(truth, player, &rng, out);
    shuffle_secret_decks(truth, player, &rng, out);
    out->key = board_compute_key(out);
}
