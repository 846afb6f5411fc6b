/* movegen.h - pseudo-legal moves (fast rays for plain pieces, the VM for the rest), attack
 * tests, and the legality filter. */
#ifndef VARIA_MOVEGEN_H
#define VARIA_MOVEGEN_H

#include "vm.h"

/* Global switch for tests: when false, every move and attack test goes through the VM
 * (the general path), never through the ray tables. */
extern bool movegen_fast_enabled;

/* All pseudo-legal moves of the player to move. Returns false on a program fault. */
bool movegen_pseudo(Position *pos, MoveList *out, VmFault *fault);
/* How many distinct pieces have a normal capture landing on target among the first count
 * moves of list (pseudo-legal moves of the player to move): the attack count. */
int movegen_attackers(const Position *pos, const MoveList *list, int count, Cell target);
/* In a game whose turns have phases: the move kinds (bit per kind) allowed now, from the
 * current phase and the later ones it may skip to; *may_end says whether the turn may end
 * now (a pass). */
uint32_t movegen_phase_kinds(const Position *pos, bool *may_end);
/* All legal moves of the player to move. */
bool movegen_legal(Position *pos, MoveList *out, VmFault *fault);
/* Could the position have been reached? In a game of two players with one move a turn, the
 * player not to move may not be in check. False with the reason in err. */
bool movegen_position_ok(Position *pos, char *err, size_t cap);
/* Moves a fault met in an attack test (whose programs faulted: their answer is not to be
 * trusted) into *fault, when that has none yet. movegen_legal and movegen_count_legal do it. */
void movegen_take_fault(Position *pos, VmFault *fault);
/* Keeps f (a fault of a program run for an attack test) for movegen_take_fault; the first wins. */
static inline void movegen_note_fault(Position *pos, const VmFault *f) {
    if (f->set && !pos->attack_fault.set) pos->attack_fault = *f;
}
/* Number of legal moves (perft's last ply). */
int movegen_count_legal(Position *pos, VmFault *fault);
/* True when some owner hostile to victim_owner could capture a piece `as` standing on c
 * (as = 0: a piece of victim_owner of the first type). Position is restored before return. */
bool movegen_attacked(Position *pos, Cell c, int victim_owner, Piece as);
/* True when a royal piece of `player` can be captured (check). */
bool movegen_in_check(Position *pos, int player);
/* Cells the player to move must capture this turn (end must-capture rules): pieces of the
 * previous player standing in its zone. Returns how many (at most MAX_FORCED). */
int movegen_forced(const Position *pos, Cell *cells);
/* Does m capture every one of cells? (true when n == 0) */
bool movegen_captures_all(const Move *m, const Cell *cells, int n);
/* Under `end stalemate pass`, the pass a stalemated player makes (false when the rule does
 * not apply: the variant has no such rule, or the player is in check). The caller has found
 * no other legal move. */
bool movegen_stalemate_pass(Position *pos, Move *m);
/* May `player` move the piece of a steered army on c (`steer`)? The steer rule's condition
 * over its influence there and its strongest rival's. */
bool movegen_may_steer(const Position *pos, int player, Cell c);
/* The piece that gives `player` its influence over c (its strongest on the linked cells, the
 * first link's among equals), which makes the copy of a steered move; NO_CELL when none. */
Cell movegen_influencer(const Position *pos, int player, Cell c);
/* Does m's legality depend on the mover's royal pieces afterwards? Not for moves that only
 * move cards, nor for the pass that ends a turn of phases (the turn's moves were tested). */
static inline bool movegen_tests_royal(const Variant *v, const Move *m) {
    return v->forbid_royal_capture && !(m->flags & (MOVE_CARDS | MOVE_TILE)) && !(v->nphases && (m->flags & MOVE_PASS));
}
/* Legal after making m? (make, test, unmake). The test is made as if the moving piece
 * arrived: a hidden mine that destroys it does not make the move legal or illegal. */
bool movegen_is_legal(Position *pos, const Move *m);
/* The same for m, just made by `mover` (the last move of pos). */
bool movegen_made_is_legal_tiles(Position *pos, const Move *m, int mover);
static inline bool movegen_made_is_legal(Position *pos, const Move *m, int mover) {
    if (!movegen_tests_royal(pos->v, m)) return true;
    bool ok = likely(!pos->v->minefield_zone) ? !movegen_in_check(pos, mover) : movegen_made_is_legal_tiles(pos, m, mover);
    /* the test's instructions count against the position m was made from: unmake keeps them */
    pos->history[pos->ply - 1].steps_left = pos->steps_left;
    return ok;
}

#endif
