/* perft.c - leaf counting over legal moves, with the last ply counted without making moves. */
#include "perft.h"

#include <stdlib.h>

#include "gameend.h"
#include "notation.h"

/* Has a royal piece been captured, which ends the game (or a player's part in it) here? Only
 * where that can happen: more than two players, mines that can expose a royal piece,
 * explosions that can blow one up, or a game where royal pieces may be captured (whose turn
 * of phases is played to its end: the game is over when the next turn begins). Or has a
 * player too few pieces left (`end pieces`)? The game is then over: no move follows. */
static bool royal_taken(const Position *pos) {
    const Variant *v = pos->v;
    bool capturable = v->has_royal && !v->forbid_royal_capture && !(v->nphases && (pos->phase || pos->phase_moves));
    if ((v->nplayers > 2 || v->minefield_zone || v->blast_mask || capturable) && gameend_royal_lost(pos) >= 0)
        return true;
    return unlikely(v->pieces_limit) && gameend_pieces_out(pos) >= 0;
}

static uint64_t perft_rec(GenContext *ctx, Position *pos, int depth, MoveList *lists, VmFault *fault) {
    if (depth <= 0) return 1;
    if (depth == 1) return (uint64_t)movegen_count_legal(ctx, pos, fault);
    MoveList *ml = &lists[depth];
    uint64_t total = 0;
    movegen_pseudo(ctx, pos, ml, fault);
    Cell forced[MAX_FORCED];
    int nforced = movegen_forced(pos, forced);
    bool captures_only = unlikely(pos->v->must_capture) && movegen_must_capture(ctx, pos, ml);
    Pins pins;
    movegen_find_pins(ctx, pos, &pins);
    int legal = 0;
    for (int i = 0; i < ml->count && !(fault && fault->set); i++) {
        const Move *m = &ml->moves[i];
        if (!movegen_captures_all(m, forced, nforced) || !movegen_allowed(m, captures_only)) continue;
        int mover = board_mover(pos);
        int verdict = pins.on || pins.by_seen ? movegen_pin_verdict(&pins, pos, m) : -1;
        if (!board_make(pos, m)) break;
        bool ok = movegen_made_is_legal_pinned(ctx, pos, m, mover, verdict);
        attack_take_fault(ctx, fault); /* (before a child's generation starts afresh) */
        if (ok) {
            legal++;
            /* below a captured royal the game changes hands: that subtree counts 0 (a move is
             * a leaf only at depth 1) */
            if (!royal_taken(pos)) total += perft_rec(ctx, pos, depth - 1, lists, fault);
        }
        board_unmake(pos);
    }
    Move pass;
    if (legal == 0 && !nforced && movegen_stalemate_pass(ctx, pos, &pass) && board_make(pos, &pass)) {
        total += perft_rec(ctx, pos, depth - 1, lists, fault);
        board_unmake(pos);
    }
    attack_take_fault(ctx, fault);
    return total;
}

uint64_t perft(GenContext *ctx, Position *pos, int depth, VmFault *fault) {
    if (depth > 0 && royal_taken(pos)) return 0;
    if (depth <= 1) return depth <= 0 ? 1 : (uint64_t)movegen_count_legal(ctx, pos, fault);
    /* MoveLists are large: one per level, allocated once, off the C stack */
    MoveList *lists = malloc(sizeof(MoveList) * (size_t)(depth + 1));
    if (!lists) return 0;
    uint64_t total = perft_rec(ctx, pos, depth, lists, fault);
    free(lists);
    return total;
}

uint64_t perft_divide(GenContext *ctx, Position *pos, int depth, FILE *out, VmFault *fault) {
    if (royal_taken(pos)) return 0;
    MoveList *ml = malloc(sizeof *ml);
    if (!ml) return 0;
    movegen_legal(ctx, pos, ml, fault);
    uint64_t total = 0;
    char buf[64];
    for (int i = 0; i < ml->count; i++) {
        notation_move(pos->v, &ml->moves[i], buf, sizeof buf);
        board_make(pos, &ml->moves[i]);
        uint64_t n = perft(ctx, pos, depth - 1, fault);
        board_unmake(pos);
        fprintf(out, "%s: %llu\n", buf, (unsigned long long)n);
        total += n;
    }
    free(ml);
    return total;
}
