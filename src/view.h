/* view.h - what one player may know of a position with hidden information (a minefield's
 * mines, deck orders arranged in the set-up), and positions sampled to agree with it: the
 * computer player searches those, never the truth (determinization). */
#ifndef VARIA_VIEW_H
#define VARIA_VIEW_H

#include "board.h"

/* What `player` knows of the tile on c: VIEW_NONE (no tile), VIEW_OWN_MINE, VIEW_OWN_BLANK
 * (its own tiles) or VIEW_UNKNOWN (another player's, face down). Cannot fail. */
typedef enum ViewTile { VIEW_NONE, VIEW_OWN_MINE, VIEW_OWN_BLANK, VIEW_UNKNOWN } ViewTile;
ViewTile view_tile(const Position *truth, int player, Cell c);

/* What `player` knows of card i (0 = bottom) of `owner`'s pile (index into Variant.piles;
 * owner is ignored for a pile of the game): its value, or -1 when it is another player's
 * secret: a card of a stack in the order its owner chose, but for the top card once the stack
 * is laid down, and every card of the pile such a stack is built from. player < 0 sees all. */
int view_card(const Position *truth, int player, int pile, int owner, int i);

/* Fills *out (board_init'ed for the same variant) with a position `player` cannot tell from
 * the truth: the same board, piles, counters and phase; its own tiles and deck as they are;
 * the other players' mines placed at random among their face-down tiles and the secret part
 * of their decks shuffled, so as to agree with everything `player` has seen (public events
 * and its own moves in the truth's history). The history is not copied (out->ply is 0). The
 * same truth-independent inputs (public facts, own secrets, seed) give the same sample. */
void view_sample(const Position *truth, int player, uint64_t seed, Position *out);

#endif
