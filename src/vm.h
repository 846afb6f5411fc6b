/* vm.h - runs a piece's movement program on a position and emits pseudo-legal moves.
 *
 * vm and attack call each other, and this is meant: the `attacked` and `attackers` conditions
 * ask the attack module (attack.h), whose tests run enemy programs here (vm_captures). */
#ifndef VARIA_VM_H
#define VARIA_VM_H

#include "genctx.h"

/* Runs `prog` for the piece on `origin` (owned by `owner`), appending every move it emits
 * to `out`. Never allocates. On a fault (step budget, full move list, stack misuse) it stops,
 * fills *fault (first fault wins) and returns false; moves emitted so far stay in `out`.
 * The instructions are charged to pos's budget in ctx; ctx->trace, when set, sees each one. */
bool vm_run(GenContext *ctx, const Program *prog, Position *pos, Cell origin, int owner, MoveList *out, VmFault *fault);

/* vm_run from the instruction at `start` (an alternative's FORK, or the last HALT) rather than
 * from the first: the alternatives from there on. */
bool vm_run_at(GenContext *ctx, const Program *prog, int start, Position *pos, Cell origin, int owner, MoveList *out,
               VmFault *fault);

/* Recognises a program made only of alternatives of the shapes PlannedAlt lists, and a last
 * HALT: sets prog->plan (freed with the program) and returns true; else leaves it NULL. */
bool vm_plan(Program *prog);
/* What the runs of plans for the pieces of one owner on one position share, found when first
 * needed: set up by vm_share_init, used while the position stands unchanged. */
typedef struct PlanShare {
    /* with count_seen, a move that only carries its piece between two cells not in that set
     * is not written but counted in *counted */
    const uint64_t *count_seen;
    int *counted;
    Cell royal; /* the owner's royal piece (coordination) */
    bool royal_known;
    /* the enemies of custodian victim sets near_set[i] (-1: none yet), for a quick look next to
     * a landing before its custodian captures; and the owner's side */
    int near_set[2];
    uint64_t near[2][CELL_WORDS];
    uint64_t friends[CELL_WORDS];
} PlanShare;
static inline void vm_share_init(PlanShare *share, const uint64_t *count_seen, int *counted) {
    share->count_seen = count_seen;
    share->counted = counted;
    share->royal_known = false;
    share->near_set[0] = share->near_set[1] = -1;
}
/* vm_run for such a program: the same moves in the same order, made by C loops rather than by
 * the interpreter (no step is charged, no trace). share: the owner's (NULL: this run's own,
 * which counts nothing). */
bool vm_run_plan(const Program *prog, const Position *pos, Cell origin, int owner, MoveList *out, PlanShare *share,
                 VmFault *fault);

/* Emits what the program's ADD does for a path of an atom (no change of type): the move
 * origin -> cur with the pending effects and flags, or its promotions by promotion set
 * `promo` (0: none). Returns false when the list is full. The fast generator's atoms
 * (movegen.c) emit their moves through it. */
/* Would FREECASTLE castle (Variant.castles index castle) move the owner's piece on from: its
 * king and rook in place, the cells between them empty, the king's way unattacked where it must be? */
bool vm_free_castle_open(GenContext *ctx, Position *pos, int castle, Cell from, int owner);
bool vm_emit_atom(const Position *pos, MoveList *out, Cell origin, Cell cur, int owner, const Effect *pending,
                  int npending, uint8_t flags, int promo);

/* Might a move origin -> cur promote by promotion set `promo` (0: none)? False means that
 * vm_emit_atom emits it as it stands. (Inline: the fast generator asks it of every atom's
 * move; the same test as the program's ADD makes.) */
static inline bool vm_atom_promotes(const Variant *v, int promo, int owner, Cell origin, Cell cur) {
    return variant_atom_promotes(v, promo, owner, origin, cur);
}

/* Does some move of the program capture (remove, or land on) the piece on target? Stops at
 * the first such move and builds no Move records: the attack test's fast question. */
bool vm_captures(GenContext *ctx, const Program *prog, Position *pos, Cell origin, int owner, Cell target,
                 VmFault *fault);

#endif
