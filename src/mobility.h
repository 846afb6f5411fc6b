/* mobility.h - which pieces may move now: freezing (immobilizers) and steering (armies no
 * player owns, moved by whoever has the influence over them). Move generation and the attack
 * tests ask these same questions. */
#ifndef VARIA_MOBILITY_H
#define VARIA_MOBILITY_H

#include "board.h"

/* Is the piece on c frozen by an adjacent enemy freezer (`freezes`)? The cells it looks at
 * join `seen` when given (board_look). Cannot fail. */
bool mobility_frozen(const Position *pos, Cell c, uint64_t *seen);
/* May the piece on c move as far as freezing goes? (Quick when the game has no freezer.) */
static inline bool mobility_can_move(const Position *pos, Cell c) {
    return !pos->v->freezer_mask || !mobility_frozen(pos, c, NULL);
}
/* The cells of the pieces that could freeze a piece of owner's (its enemies' freezers and
 * imitators): a piece next to none of them is not frozen (mobility_by_freezers). */
void mobility_freezers(const Position *pos, int owner, uint64_t *cells);
/* Is the piece on c next to one of those cells? When not, mobility_can_move is true. */
static inline bool mobility_by_freezers(const Position *pos, Cell c, const uint64_t *freezers) {
    const Variant *v = pos->v;
    const uint64_t *near = v->adjacent_cells + (size_t)c * (size_t)v->cell_words;
    for (int w = 0; w < v->cell_words; w++)
        if (near[w] & freezers[w]) return true;
    return false;
}
/* May `player` move the piece of a steered army on c (`steer`)? The steer rule's condition
 * over its influence there and its strongest rival's. */
bool mobility_may_steer(const Position *pos, int player, Cell c);
/* The piece that gives `player` its influence over c (its strongest on the linked cells, the
 * first link's among equals), which makes the copy of a steered move; NO_CELL when none. */
Cell mobility_influencer(const Position *pos, int player, Cell c);

#endif
