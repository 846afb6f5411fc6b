/* vm.h - runs a piece's movement program on a position and emits pseudo-legal moves.
 *
 * vm and attack call each other, and this is meant: the `attacked` and `attackers` conditions
 * ask the attack module (attack.h), whose tests run enemy programs here (vm_captures). */
#ifndef VARIA_VM_H
#define VARIA_VM_H

#include "board.h"

/* Runs `prog` for the piece on `origin` (owned by `owner`), appending every move it emits
 * to `out`. Never allocates. On a fault (step budget, full move list, stack misuse) it stops,
 * fills *fault (first fault wins) and returns false; moves emitted so far stay in `out`. */
bool vm_run(const Program *prog, Position *pos, Cell origin, int owner, MoveList *out, VmFault *fault);

/* Does some move of the program capture (remove, or land on) the piece on target? Stops at
 * the first such move and builds no Move records: the attack test's fast question. */
bool vm_captures(const Program *prog, Position *pos, Cell origin, int owner, Cell target, VmFault *fault);

/* Optional trace hook: when set, called before every instruction (used by `varia trace`). */
typedef void (*VmTraceFn)(const Program *prog, int pc, Cell cur, bool flag, void *user);
void vm_set_trace(VmTraceFn fn, void *user);

#endif
