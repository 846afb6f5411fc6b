/* genctx.h - GenContext: the working state of move generation, kept apart from the game. A
 * Position holds the game and nothing else; what generating moves needs besides (the VM's step
 * budgets, the fault an attack test met, the nesting guard of attack tests, the fast-path
 * switch, the VM trace hook) lives here. Whoever generates moves (the search, perft, the
 * console, each command, each test) owns one context and passes it down. */
#ifndef VARIA_GENCTX_H
#define VARIA_GENCTX_H

#include "board.h"

/* Called before every VM instruction when set (used by `varia trace`). */
typedef void (*VmTraceFn)(const Program *prog, int pc, Cell cur, bool flag, void *user);

typedef struct GenContext {
    /* false: every move and attack test runs the programs (the general path, for tests and
     * `perft --general`), never the ray tables */
    bool fast;
    VmTraceFn trace;
    void *trace_user;
    /* true for the rulebook's diagrams: a piece alone on a board moves whatever the game's
     * position endings (extinction, a zone reached...) and a set-up's must-drop rule say */
    bool diagram;
    /* >0 while an attack test runs programs: nested attack questions answer "no" */
    uint8_t attack_depth;
    /* the first fault of a program run for an attack test, until a caller with a fault report
     * takes it (attack_take_fault) */
    VmFault attack_fault;
    /* VM instructions left for the position at each ply of the history. movegen_pseudo grants
     * the position POSITION_STEP_BUDGET; the legality tests of its moves are charged to it
     * (charge_ply names it while the test runs on the position after the move); a position
     * just made starts with what its parent had left, and its own subtree never uses up the
     * parent's: each ply has its own count. */
    int charge_ply; /* -1: charge the position's own ply */
    /* the cell of a piece known not to be attacked in the position whose moves are being
     * counted (from the pins' check count), else NO_CELL: it spares a privileged move's
     * `not attacked` test */
    Cell unattacked;
    /* while movegen_count_legal counts by the cells seen (out of check), those cells, else
     * NULL: a program run in C counts in `carried` a move that only carries its piece between
     * two cells not among them (legal, see movegen_pin_verdict) rather than write it */
    const uint64_t *count_seen;
    int carried;
    /* while the moves of one owner's pieces are made (gen_owner), what the runs of their
     * plans share (vm.h), else NULL */
    struct PlanShare *plan_share;
    /* the last position whose moves were generated and that its endings had not decided
     * (pseudo_moves): its ply (-1: none) and key; movegen_count_legal's known_undecided */
    int undecided_ply;
    uint64_t undecided_key;
    long steps_left[MAX_HISTORY + 2];
} GenContext;

/* Fast path on, no trace, every ply's budget full. Cannot fail. */
void genctx_init(GenContext *ctx);

/* The budget that VM runs on pos are charged to. */
static inline long *genctx_budget(GenContext *ctx, const Position *pos) {
    return &ctx->steps_left[ctx->charge_ply >= 0 ? ctx->charge_ply : pos->ply];
}

#endif
