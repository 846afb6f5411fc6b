/* gameend.c - checkmate, stalemate, n-fold repetition, n-move rule and dead material. */
#include "gameend.h"

#include <string.h>

#include "movegen.h"

int gameend_repetitions(const Position *pos) {
    int count = 0;
    /* Only positions since the last irreversible move can repeat. */
    int back = pos->halfmove < pos->ply ? pos->halfmove : pos->ply;
    for (int k = 1; k <= back; k++)
        if (pos->history[pos->ply - k].key == pos->key) count++;
    return count;
}

static void result_for(const Position *pos, ResultKind r, const char *reason, GameResult *out) {
    const Variant *v = pos->v;
    int mover = board_mover(pos);
    out->over = true;
    out->reason = reason;
    out->winner = -1;
    if (r == RESULT_LOSS && v->nplayers == 2) out->winner = 1 - mover;
    else if (r == RESULT_WIN) out->winner = mover;
}

/* Does one side's material match a group exactly (piece counts by type)? */
static bool side_matches(const Position *pos, int owner, const uint8_t *want) {
    const Variant *v = pos->v;
    for (int t = 0; t < v->ntypes; t++) {
        int n = 0;
        for (int w = 0; w < pos->v->cell_words; w++) n += __builtin_popcountll(pos->type_occ[t][w] & pos->occ[owner][w]);
        if (n != want[t]) return false;
    }
    return true;
}

static bool one_colour(const Position *pos) {
    const Variant *v = pos->v;
    int seen = -1;
    for (int c = 0; c < v->ncells; c++) {
        Piece p = pos->cell[c];
        if (!p || v->types[PIECE_TYPE(p)].royal) continue;
        if (seen >= 0 && seen != v->colour[c]) return false;
        seen = v->colour[c];
    }
    return true;
}

static bool dead_material(const Position *pos) {
    const Variant *v = pos->v;
    if (v->nplayers != 2) return false;
    for (int i = 0; i < v->nmaterial; i++) {
        const MaterialRule *r = &v->material[i];
        bool match = (side_matches(pos, 0, r->a) && side_matches(pos, 1, r->b)) ||
                     (side_matches(pos, 0, r->b) && side_matches(pos, 1, r->a));
        if (match && (!r->same_colour || one_colour(pos))) return true;
    }
    return false;
}

void gameend_check(Position *pos, GameResult *out) {
    const Variant *v = pos->v;
    memset(out, 0, sizeof *out);
    out->winner = -1;
    VmFault f = {0};
    int legal = movegen_count_legal(pos, &f);
    Cell forced[MAX_FORCED];
    int nforced = movegen_forced(pos, forced);
    if (legal == 0 && nforced) {
        /* a must-capture piece nobody can take: the rule's result, whether in check or not */
        const ForcedCapture *fc = NULL;
        for (int r = 0; r < v->nforced; r++)
            if (PIECE_TYPE(pos->cell[forced[0]]) == v->forced[r].type) fc = &v->forced[r];
        result_for(pos, fc ? fc->result : RESULT_LOSS, "must-capture", out);
        return;
    }
    if (legal == 0) {
        bool check = v->has_royal && movegen_in_check(pos, board_mover(pos));
        if (check) result_for(pos, v->on_checkmate, "checkmate", out);
        else result_for(pos, v->on_stalemate, "stalemate", out);
        return;
    }
    if (v->nmove && pos->halfmove >= v->nmove * v->nturns) {
        result_for(pos, v->on_nmove, "n-move rule", out);
        return;
    }
    if (v->repetition && gameend_repetitions(pos) + 1 >= v->repetition) {
        result_for(pos, v->on_repetition, "repetition", out);
        return;
    }
    if (v->nmaterial && dead_material(pos)) result_for(pos, v->on_material, "material", out);
}
