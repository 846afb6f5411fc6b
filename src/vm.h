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

/* Does some move of the program capture (remove, or land on) the piece on target? Stops at
 * the first such move and builds no Move records: the attack test's fast question. */
bool vm_captures(GenContext *ctx, const Program *prog, Position *pos, Cell origin, int owner, Cell target,
                 VmFault *fault);

#endif
