/* mobility.c - which pieces may move now: freezing (immobilizers) and steering (armies no
 * player owns, moved by whoever has the influence over them). Move generation and the attack
 * tests ask these same questions. */
#include "mobility.h"

/* A piece next to an enemy freezer cannot move, unless that freezer touches a piece of the
 * frozen piece's side (other than itself) able to freeze it back (a freezer, or an imitator,
 * since imitators freeze freezers). An imitator freezes adjacent enemy freezers outright. */
/* Does a piece that could freeze a piece of owner's of type bit xbit (an enemy freezer, or
 * imitator when xbit is a freezer's) stand next to c? */
static bool freezer_near(const Position *pos, Cell c, int owner, uint32_t xbit) {
    const Variant *v = pos->v;
    uint32_t kinds = v->freezer_mask | ((xbit & v->freezer_mask) ? v->imitator_mask : 0);
    const uint64_t *near = v->adjacent_cells + (size_t)c * (size_t)v->cell_words;
    for (int w = 0; w < v->cell_words; w++) {
        uint64_t enemies = 0, freezers = 0;
        for (int o = 0; o < v->nowners; o++)
            if (board_hostile(pos, o, owner)) enemies |= pos->occ[o][w];
        for (uint32_t k = kinds; k; k &= k - 1) freezers |= pos->type_occ[__builtin_ctz(k)][w];
        if (near[w] & enemies & freezers) return true;
    }
    return false;
}

void mobility_freezers(const Position *pos, int owner, uint64_t *cells) {
    const Variant *v = pos->v;
    for (int w = 0; w < v->cell_words; w++) {
        uint64_t enemies = 0, kinds = 0;
        for (int o = 0; o < v->nowners; o++)
            if (board_hostile(pos, o, owner)) enemies |= pos->occ[o][w];
        for (uint32_t k = v->freezer_mask | v->imitator_mask; k; k &= k - 1)
            kinds |= pos->type_occ[__builtin_ctz(k)][w];
        cells[w] = enemies & kinds;
    }
}

bool mobility_frozen(const Position *pos, Cell c, uint64_t *seen) {
    const Variant *v = pos->v;
    Piece x = board_look(pos, c, seen);
    int owner = PIECE_OWNER(x);
    uint32_t xbit = 1u << PIECE_TYPE(x);
    /* (a test that gathers the cells it looks at looks at every neighbour) */
    if (!seen && !freezer_near(pos, c, owner, xbit)) return false;
    for (int i = 0; i < v->nadjacent; i++) {
        Cell e = variant_step(v, c, v->adjacent_dirs[i]);
        if (e == NO_CELL || !board_look(pos, e, seen) || !board_hostile(pos, PIECE_OWNER(pos->cell[e]), owner))
            continue;
        uint32_t ebit = 1u << PIECE_TYPE(pos->cell[e]);
        if ((ebit & v->imitator_mask) && (xbit & v->freezer_mask)) return true;
        if (!(ebit & v->freezer_mask)) continue;
        bool neutralised = false;
        for (int k = 0; k < v->nadjacent && !neutralised; k++) {
            Cell y = variant_step(v, e, v->adjacent_dirs[k]);
            if (y == NO_CELL || y == c || !board_look(pos, y, seen) ||
                board_hostile(pos, PIECE_OWNER(pos->cell[y]), owner))
                continue;
            neutralised = ((1u << PIECE_TYPE(pos->cell[y])) & (v->freezer_mask | v->imitator_mask)) != 0;
        }
        if (!neutralised) return true;
    }
    return false;
}

/* Influence over the steered piece on c: `player`'s (the strongest influence among its pieces
 * on the cells the steer links reach, the first link's among equals, whose cell goes to *by)
 * and its rival's (the strongest of any other player's). */
static int influence(const Position *pos, int player, Cell c, int *rival, Cell *by) {
    const Variant *v = pos->v;
    int mine = 0;
    *rival = 0;
    *by = NO_CELL;
    for (int i = 0; i < v->nsteer_links; i++) {
        Cell t = variant_step(v, c, v->steer_links[i]);
        if (t == NO_CELL || !pos->cell[t]) continue;
        Piece p = pos->cell[t];
        int strength = v->types[PIECE_TYPE(p)].influence;
        if (pos->controller[PIECE_OWNER(p)] != player) {
            if (strength > *rival) *rival = strength;
        } else if (strength > mine) {
            mine = strength;
            *by = t;
        }
    }
    return mine;
}

bool mobility_may_steer(const Position *pos, int player, Cell c) {
    int rival;
    Cell by;
    int mine = influence(pos, player, c, &rival, &by);
    return pos->v->steer_allow[mine][rival];
}

Cell mobility_influencer(const Position *pos, int player, Cell c) {
    int rival;
    Cell by;
    influence(pos, player, c, &rival, &by);
    return by;
}
