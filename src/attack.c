/* attack.c - attack tests: could a hostile piece capture the piece on a cell? Plain leaps and
 * slides are walked backwards over ray tables, captures by moving (withdrawal, custodian,
 * coordination, long leaps) are matched as patterns, and every other piece runs its program
 * in the VM's attack mode. Also the checks built on them and the attacker count. */
#include "attack.h"

#include <string.h>

#include "mobility.h"

/* In an attack test: can the piece on c take part? Not when frozen; a steered piece only
 * when one of the `threat` players (bit per player: the defender's opponents) may move it.
 * Here and below, `seen` (when given) gathers the cells the test looks at (board_look), but
 * for looks that only ask whether a piece of the attacker's side stands there: no move that
 * leaves the attacker's pieces as they are can change their answer. */
static inline bool attacker_can_move(const Position *pos, Cell c, uint8_t threat, uint64_t *seen) {
    const Variant *v = pos->v;
    if (v->freezer_mask && mobility_frozen(pos, c, seen)) return false;
    if (!((v->steered >> PIECE_OWNER(pos->cell[c])) & 1)) return true;
    for (int q = 0; q < v->nplayers; q++)
        if (((threat >> q) & 1) && mobility_may_steer(pos, q, c)) return true;
    return false;
}

/* Could p, with an empty cell after it, be jumped by a long leap of the attacker's pattern? */
static inline bool jumpable(const Position *pos, const CapturePattern *cp, Piece p, int attacker) {
    return ((cp->jumps >> PIECE_TYPE(p)) & 1) && board_hostile(pos, PIECE_OWNER(p), attacker);
}

/* Is the first piece on the way back from the empty cell `from` against one of the pattern's
 * directions an unfrozen `want`? That piece can slide to `from` (or, with the pattern's jumps,
 * long-leap there over single enemies each followed by an empty cell). */
static bool slider_reaches(const Position *pos, Cell from, const CapturePattern *cp, Piece want, int attacker,
                           uint8_t threat, uint64_t *seen) {
    const Variant *v = pos->v;
    for (int i = 0; i < cp->ndirs; i++) {
        int back = v->dirs[cp->dirs[i]].reverse;
        if (back < 0) continue;
        bool after_empty = true;
        for (Cell s = variant_step(v, from, back); s != NO_CELL; s = variant_step(v, s, back)) {
            Piece p = board_look(pos, s, seen);
            if (!p) {
                after_empty = true;
                continue;
            }
            if (PIECE_KIND(p) == want) {
                if (attacker_can_move(pos, s, threat, seen)) return true;
                break;
            }
            if (!after_empty || !jumpable(pos, cp, p, attacker)) break;
            after_empty = false;
        }
    }
    return false;
}

/* Is zone (1-based; 0: none) no bar to attacker's piece at c? */
static inline bool zone_admits(const Variant *v, int zone, int attacker, Cell c) {
    return !zone || zone_has(&v->zones[zone - 1], attacker, c);
}

/* Does s hold a `want` that may move and stands in the pattern's from-zone? */
static inline bool pattern_piece_at(const Position *pos, const CapturePattern *cp, Cell s, Piece want, int attacker,
                                    uint8_t threat, uint64_t *seen) {
    return s != NO_CELL && PIECE_KIND(board_look(pos, s, seen)) == want && attacker_can_move(pos, s, threat, seen) &&
        zone_admits(pos->v, cp->from_zone, attacker, s);
}

/* Does a piece of type t of the attacker stand on the line from c along d (Variant.line_cells)? */
static inline bool leaper_on_line(const Position *pos, Cell c, int d, int t, int attacker) {
    const Variant *v = pos->v;
    const uint64_t *line = v->line_cells + ((size_t)c * (size_t)v->ndirs + (size_t)d) * (size_t)v->cell_words;
    for (int w = 0; w < v->cell_words; w++)
        if (line[w] & pos->type_occ[t][w] & pos->occ[attacker][w]) return true;
    return false;
}

/* A capture by moving (withdrawal, custodian, coordination, long leap), checked backwards
 * from the victim's cell c. */
static bool pattern_captures(const Position *pos, const CapturePattern *cp, Cell c, Piece want, int attacker,
                             uint8_t threat, uint64_t *seen) {
    const Variant *v = pos->v;
    switch ((CaptureMethod)cp->method) {
    case CAP_WITHDRAW:
        /* the withdrawer stands next to c and steps away from it along d */
        for (int i = 0; i < cp->ndirs; i++) {
            int d = cp->dirs[i];
            Cell a = variant_step(v, c, d);
            if (a == NO_CELL || PIECE_KIND(pos->cell[a]) != want) continue;
            Cell first = variant_step(v, a, d);
            if (first == NO_CELL) continue;
            /* (it moves to an empty cell, or long-leaps an enemy of its jumps just beyond it) */
            Piece p = board_look(pos, first, seen);
            Cell beyond = p ? variant_step(v, first, d) : NO_CELL;
            bool moves = !p || (jumpable(pos, cp, p, attacker) && beyond != NO_CELL && !board_look(pos, beyond, seen));
            if (moves && attacker_can_move(pos, a, threat, seen)) return true;
        }
        return false;
    case CAP_PINCER:
        /* it lands on c-e (empty) with a friend of its own on c+e, for an orthogonal e */
        for (int i = 0; i < 4; i++) {
            int e = v->orth_dirs[i];
            Cell partner = variant_step(v, c, e);
            if (partner == NO_CELL || !pos->cell[partner] ||
                board_hostile(pos, PIECE_OWNER(pos->cell[partner]), attacker))
                continue;
            int back = v->dirs[e].reverse;
            Cell land = back >= 0 ? variant_step(v, c, back) : NO_CELL;
            if (land == NO_CELL || board_look(pos, land, seen)) continue;
            if (slider_reaches(pos, land, cp, want, attacker, threat, seen)) return true;
        }
        return false;
    case CAP_COORDINATE: {
        /* it lands on c's row or column, where that line crosses its own royal's column or row */
        Cell king = board_royal(pos, attacker);
        if (king == NO_CELL || v->cells[king].board != v->cells[c].board) return false;
        const CellInfo *k = &v->cells[king], *ci = &v->cells[c];
        const Board *bd = &v->boards[ci->board];
        if (k->y == ci->y && k->x != ci->x) { /* land in c's column, off the king's row */
            for (int y = 0; y < bd->height; y++) {
                Cell land = bd->at[y][ci->x];
                if (y != k->y && land != NO_CELL && !board_look(pos, land, seen) &&
                    slider_reaches(pos, land, cp, want, attacker, threat, seen))
                    return true;
            }
        }
        if (k->x == ci->x && k->y != ci->y) { /* land in c's row, off the king's column */
            for (int x = 0; x < bd->width; x++) {
                Cell land = bd->at[ci->y][x];
                if (x != k->x && land != NO_CELL && !board_look(pos, land, seen) &&
                    slider_reaches(pos, land, cp, want, attacker, threat, seen))
                    return true;
            }
        }
        return false;
    }
    case CAP_LEGS:
        /* walk each move's legs backwards from c: the cells between must be empty, the start
         * holds the piece */
        if (!cp->nlegs || !zone_admits(v, cp->to_zone, attacker, c)) return false;
        for (int m = 0; m + cp->nlegs <= cp->ndirs; m += cp->nlegs) {
            Cell s = c;
            for (int k = cp->nlegs - 1; k >= 0 && s != NO_CELL; k--) {
                int back = v->dirs[cp->dirs[m + k]].reverse;
                s = back >= 0 ? variant_step(v, s, back) : NO_CELL;
                if (k > 0 && s != NO_CELL && board_look(pos, s, seen)) s = NO_CELL;
            }
            if (pattern_piece_at(pos, cp, s, want, attacker, threat, seen)) return true;
        }
        return false;
    case CAP_STEPS:
        if (!zone_admits(v, cp->to_zone, attacker, c)) return false;
        for (int i = 0; i < cp->ndirs; i++) {
            int back = v->dirs[cp->dirs[i]].reverse;
            Cell s = back >= 0 ? variant_step(v, c, back) : NO_CELL;
            if (pattern_piece_at(pos, cp, s, want, attacker, threat, seen)) return true;
        }
        return false;
    case CAP_HOP: {
        /* back from c over empty cells (none when near) to the screen, over empty cells to the
         * hopper, every cell after the hopper's in the path zone */
        if (!zone_admits(v, cp->to_zone, attacker, c) || !zone_admits(v, cp->path_zone, attacker, c)) return false;
        const Zone *path = cp->path_zone ? &v->zones[cp->path_zone - 1] : NULL;
        for (int i = 0; i < cp->ndirs; i++) {
            int back = v->dirs[cp->dirs[i]].reverse;
            if (back < 0) continue;
            Cell s = variant_step(v, c, back);
            while (!cp->near && s != NO_CELL && !board_look(pos, s, seen) && (!path || zone_has(path, attacker, s)))
                s = variant_step(v, s, back);
            if (s == NO_CELL || !board_look(pos, s, seen) || (path && !zone_has(path, attacker, s)) ||
                !((cp->screens >> PIECE_TYPE(pos->cell[s])) & 1))
                continue;
            s = variant_step(v, s, back);
            while (!cp->near && s != NO_CELL && !board_look(pos, s, seen) && (!path || zone_has(path, attacker, s)))
                s = variant_step(v, s, back);
            if (pattern_piece_at(pos, cp, s, want, attacker, threat, seen)) return true;
        }
        return false;
    }
    case CAP_SLIDES: {
        /* back from c over empty cells of the path zone to the slider */
        if (!zone_admits(v, cp->to_zone, attacker, c) || !zone_admits(v, cp->path_zone, attacker, c)) return false;
        const Zone *path = cp->path_zone ? &v->zones[cp->path_zone - 1] : NULL;
        for (int i = 0; i < cp->ndirs; i++) {
            int back = v->dirs[cp->dirs[i]].reverse;
            if (back < 0) continue;
            Cell s = variant_step(v, c, back);
            for (int k = 1; s != NO_CELL && !board_look(pos, s, seen) && (!cp->range || k < cp->range) &&
                 (!path || zone_has(path, attacker, s));
                 k++)
                s = variant_step(v, s, back);
            if (pattern_piece_at(pos, cp, s, want, attacker, threat, seen)) return true;
        }
        return false;
    }
    case CAP_PRIVILEGE: return false; /* (attacked_by_privilege looks from the privileges' cells) */
    case CAP_LEAP:
        /* the leaper lands just past c, having come along d over empty cells and single
         * jumpable enemies (each followed by an empty cell) */
        for (int i = 0; i < cp->ndirs; i++) {
            int d = cp->dirs[i], back = v->dirs[d].reverse;
            /* (no leaper on the line back from c: nothing to look at) */
            if (back < 0 || (v->line_cells && !leaper_on_line(pos, c, back, PIECE_TYPE(want), attacker))) continue;
            Cell land = variant_step(v, c, d);
            if (land == NO_CELL || board_look(pos, land, seen)) continue;
            Cell next = c;
            for (Cell s = variant_step(v, c, back); s != NO_CELL; next = s, s = variant_step(v, s, back)) {
                Piece p = board_look(pos, s, seen);
                if (!p) continue;
                if (PIECE_KIND(p) == want) {
                    if (attacker_can_move(pos, s, threat, seen)) return true;
                    break;
                }
                bool jumpable = board_hostile(pos, PIECE_OWNER(p), attacker) && ((cp->victims >> PIECE_TYPE(p)) & 1) &&
                    next != c && !pos->cell[next];
                if (!jumpable) break;
            }
        }
        return false;
    }
    return false;
}

/* Do the cells of line (words words) hold one of occ? */
static inline bool line_holds(const uint64_t *line, const uint64_t *occ, int words) {
    if (words == 1) return (line[0] & occ[0]) != 0;
    for (int w = 0; w < words; w++)
        if (line[w] & occ[w]) return true;
    return false;
}

/* Walking back from c along a line with sliders: is the first piece met one of the attacker's
 * that captures from there? */
static inline bool slide_hits(const Position *pos, Cell c, const LineRef *ref, int attacker, uint8_t threat,
                              uint64_t *seen) {
    const Variant *v = pos->v;
    Cell s = variant_step(v, c, ref->back);
    if (s == NO_CELL) return false;
    uint32_t types = ref->types;
    while (!board_look(pos, s, seen)) {
        types = ref->sliders;
        s = variant_step(v, s, ref->back);
        if (s == NO_CELL) return false;
    }
    Piece p = pos->cell[s];
    return PIECE_OWNER(p) == attacker && ((types >> PIECE_TYPE(p)) & 1) && attacker_can_move(pos, s, threat, seen);
}

/* Can a piece of `attacker` capture on c by a privileged move (CAP_PRIVILEGE)? Only from a
 * cell whose privilege it holds, where a piece of a type with such a move stands. Reads only
 * the cells and the rights. */
static bool attacked_by_privilege(const Position *pos, Cell c, int attacker, uint8_t threat, uint64_t *seen) {
    const Variant *v = pos->v;
    for (int k = 0; k < v->ncastles; k++) {
        const Castle *cs = &v->castles[k];
        if (!cs->privilege || cs->owner != attacker || !((pos->rights >> cs->right) & 1)) continue;
        Cell from = cs->king_from;
        Piece p = pos->cell[from];
        if (!p || PIECE_OWNER(p) != attacker || !((v->privilege_types >> PIECE_TYPE(p)) & 1)) continue;
        const PieceProgram *pp = &v->types[PIECE_TYPE(p)].per_owner[attacker];
        for (int i = 0; i < pp->npatterns; i++) {
            const CapturePattern *cp = &pp->patterns[i];
            if (cp->method != CAP_PRIVILEGE) continue;
            Cell s = from;
            for (int l = 0; l < cp->ndirs && s != NO_CELL; l++) s = variant_step(v, s, cp->dirs[l]);
            if (s == c && attacker_can_move(pos, from, threat, seen)) return true;
        }
    }
    return false;
}

static inline bool privilege_attacks(const Position *pos, Cell c, int attacker, uint8_t threat, uint64_t *seen) {
    return unlikely(pos->v->privilege_types) && pos->rights && bits_has(pos->v->privilege_reach[attacker], c) &&
        attacked_by_privilege(pos, c, attacker, threat, seen);
}

/* Can a piece of `attacker` capture a piece of type victim_type on c along one of its attack
 * lines (Variant.attack_lines_ok)? One walk per line: the first piece met decides. */
static inline __attribute__((always_inline)) bool attacked_on_lines(const Position *pos, Cell c, int attacker,
                                                                    int victim_type, uint8_t threat, uint64_t *seen) {
    const Variant *v = pos->v;
    const LineRef *refs = v->line_refs[attacker][victim_type];
    /* the cells of each line from c (Variant.line_cells): a line with none of the attacker's
     * pieces on it needs no walk */
    int words = v->cell_words, nrefs = v->nline_refs[attacker][victim_type],
        nslides = v->nline_slides[attacker][victim_type];
    const uint64_t *line_cells = v->line_cells + (size_t)c * (size_t)v->ndirs * (size_t)words,
                   *occ = pos->occ[attacker];
    if (words == 1) {
        /* (a board of one word, the usual: one load a line) */
        for (int k = 0; k < nslides; k++)
            if ((line_cells[refs[k].back] & occ[0]) && slide_hits(pos, c, &refs[k], attacker, threat, seen))
                return true;
    } else {
        for (int k = 0; k < nslides; k++)
            if (line_holds(line_cells + refs[k].back * words, occ, words) &&
                slide_hits(pos, c, &refs[k], attacker, threat, seen))
                return true;
    }
    /* the lines of leapers only: one cell each, looked at when a piece of the attacker stands
     * on one of them (only for the attacker's piece there) */
    if (nslides == nrefs ||
        !line_holds(v->leap_cells + ((size_t)attacker * (size_t)v->ncells + c) * (size_t)words, occ, words))
        return false;
    if (words == 1) {
        /* (one of the leaping types there? Other pieces of the attacker often are) */
        uint64_t leapers = 0;
        for (uint32_t types = v->leap_types[attacker][victim_type]; types; types &= types - 1)
            leapers |= pos->type_occ[__builtin_ctz(types)][0];
        if (!(v->leap_cells[(size_t)attacker * (size_t)v->ncells + c] & occ[0] & leapers)) return false;
    }
    for (int k = nslides; k < nrefs; k++) {
        Cell s = variant_step(v, c, refs[k].back);
        Piece p = s == NO_CELL ? 0 : pos->cell[s];
        if (p && PIECE_OWNER(p) == attacker && ((refs[k].types >> PIECE_TYPE(p)) & 1) &&
            attacker_can_move(pos, s, threat, seen))
            return true;
    }
    return false;
}

bool attack_lines_hit(const Position *pos, Cell c, int victim_owner, int victim_type) {
    for (int o = 0; o < pos->v->nowners; o++)
        if (board_hostile(pos, o, victim_owner) && attacked_on_lines(pos, c, o, victim_type, 0, NULL)) return true;
    return false;
}

bool attack_royal_look_init(RoyalLook *rl, const Position *pos, int victim_owner, int victim_type) {
    const Variant *v = pos->v;
    /* (pin_legal: two owners, neither steered nor frozen, so every piece of the enemy attacks) */
    int o = 1 - victim_owner;
    if (!v->leap_from[o][victim_type] || !board_hostile(pos, o, victim_owner)) return false;
    uint64_t occ = pos->occ[o][0];
    rl->attacker = o;
    rl->nleaps = 0;
    for (uint32_t types = v->leap_from_types[o][victim_type]; types; types &= types - 1) {
        int t = __builtin_ctz(types);
        uint64_t here = pos->type_occ[t][0] & occ;
        if (!here) continue;
        rl->leap_from[rl->nleaps] = v->leap_from[o][victim_type] + (size_t)t * (size_t)v->ncells;
        rl->leap_occ[rl->nleaps++] = here;
    }
    /* the lines of leapers only are in leap_from; those with sliders are walked for the
     * attacker's pieces of their sliding types, a run of lines with the same types at once */
    const LineRef *refs = rl->refs = v->line_refs[o][victim_type];
    int nslides = v->nline_slides[o][victim_type];
    rl->nruns = 0;
    for (int k = 0; k < nslides;) {
        int end = refs[k].run_end;
        uint64_t here = 0;
        for (uint32_t types = refs[k].sliders; types; types &= types - 1)
            here |= pos->type_occ[__builtin_ctz(types)][0];
        if (here & occ)
            rl->runs[rl->nruns++] = (SliderRun){.first = (uint8_t)k, .end = (uint8_t)end, .occ = here & occ};
        k = end;
    }
    return true;
}

int attack_royal_look_pins(const RoyalLook *rl, const Position *pos, Cell c, uint64_t *pinned) {
    const Variant *v = pos->v;
    int checks = 0;
    pinned[0] = 0;
    for (int i = 0; i < rl->nleaps; i++) checks += (rl->leap_from[i][c] & rl->leap_occ[i]) != 0;
    /* (a line with none of its sliding types on it gives neither a check by sliding nor a pin) */
    const uint64_t *lines = v->line_cells + (size_t)c * (size_t)v->ndirs;
    for (int r = 0; r < rl->nruns; r++) {
        uint64_t occ = rl->runs[r].occ;
        for (int k = rl->runs[r].first; k < rl->runs[r].end; k++) {
            int back = rl->refs[k].back;
            uint32_t sliders = rl->refs[k].sliders;
            if (!(lines[back] & occ)) continue;
            Cell s = c;
            do s = variant_step(v, s, back);
            while (s != NO_CELL && !pos->cell[s]);
            if (s == NO_CELL) continue;
            Piece p = pos->cell[s];
            if (PIECE_OWNER(p) == rl->attacker) {
                checks += (sliders >> PIECE_TYPE(p)) & 1;
                continue;
            }
            /* (two owners: the first piece is the victim's) a slider next behind it pins it */
            Cell shield = s;
            do s = variant_step(v, s, back);
            while (s != NO_CELL && !pos->cell[s]);
            if (s != NO_CELL && PIECE_OWNER(pos->cell[s]) == rl->attacker &&
                ((sliders >> PIECE_TYPE(pos->cell[s])) & 1))
                pinned[0] |= 1ULL << shield;
        }
    }
    return checks;
}

bool attack_check_cells(CheckCells *cc, const Position *pos, Cell c, int attacker, int victim_type) {
    const Variant *v = pos->v;
    if (attacked_on_lines(pos, c, attacker, victim_type, 0, NULL)) return false;
    memset(cc->to, 0, (size_t)v->ntypes * sizeof cc->to[0]);
    cc->moves = 0;
    const LineRef *refs = v->line_refs[attacker][victim_type];
    int nslides = v->nline_slides[attacker][victim_type], nrefs = v->nline_refs[attacker][victim_type];
    /* (as slide_hits walks them: the first cell's types, then the sliders up to the first
     * piece, whose cell a capture lands on) */
    for (int k = 0; k < nrefs; k++) {
        Cell s = variant_step(v, c, refs[k].back);
        if (s == NO_CELL) continue;
        for (uint32_t t = refs[k].types; t; t &= t - 1) cc->to[__builtin_ctz(t)] |= 1ULL << s;
        if (k >= nslides) continue; /* (a line of leapers only: its one cell) */
        uint64_t far = 0;
        while (!pos->cell[s] && (s = variant_step(v, s, refs[k].back)) != NO_CELL) far |= 1ULL << s;
        if (s != NO_CELL && PIECE_OWNER(pos->cell[s]) == attacker) cc->moves |= 1ULL << s;
        for (uint32_t t = refs[k].sliders; t && far; t &= t - 1) cc->to[__builtin_ctz(t)] |= far;
    }
    return true;
}

bool attack_privilege_hit(const Position *pos, Cell c, int victim_owner) {
    for (int o = 0; o < pos->v->nowners; o++)
        if (board_hostile(pos, o, victim_owner) && privilege_attacks(pos, c, o, 0, NULL)) return true;
    return false;
}

/* The capture patterns' part of the fast attack test (attack lines: Variant.attack_lines_ok). */
static inline bool attacked_by_patterns(const Position *pos, Cell c, int attacker, int victim_type, uint8_t threat,
                                        uint64_t *seen) {
    const Variant *v = pos->v;
    /* the types the attacker has on the board, found when first asked (bit per type) */
    uint32_t asked = 0, present = 0;
    for (int k = 0; k < v->npattern_refs[attacker][victim_type]; k++) {
        int t = v->pattern_refs[attacker][victim_type][k].type;
        const CapturePattern *cp =
            &v->types[t].per_owner[attacker].patterns[v->pattern_refs[attacker][victim_type][k].pattern];
        if (!zone_admits(v, cp->to_zone, attacker, c)) continue;
        if (cp->reach) {
            if (attack_pattern_may_reach(pos, cp, c, t, attacker) &&
                pattern_captures(pos, cp, c, PIECE_MAKE(t, attacker), attacker, threat, seen))
                return true;
            continue;
        }
        if (!((asked >> t) & 1)) {
            asked |= 1u << t;
            for (int w = 0; w < v->cell_words; w++)
                if (pos->type_occ[t][w] & pos->occ[attacker][w]) {
                    present |= 1u << t;
                    break;
                }
        }
        if (((present >> t) & 1) && pattern_captures(pos, cp, c, PIECE_MAKE(t, attacker), attacker, threat, seen))
            return true;
    }
    return false;
}

bool attack_patterns_hit(const Position *pos, Cell c, int attacker, int victim_type) {
    return attacked_by_patterns(pos, c, attacker, victim_type, 0, NULL);
}

bool attack_pattern_hit(const Position *pos, const CapturePattern *cp, Cell c, int t, int attacker) {
    return zone_admits(pos->v, cp->to_zone, attacker, c) &&
        pattern_captures(pos, cp, c, PIECE_MAKE(t, attacker), attacker, 0, NULL);
}

/* Fast attack test: can a piece of `attacker`, of a type whose captures are all described by
 * rays and patterns, capture a piece of type victim_type standing on c? */
static bool attacked_by_rays(const Position *pos, Cell c, int attacker, int victim_type, uint8_t threat,
                             uint64_t *seen) {
    const Variant *v = pos->v;
    uint32_t vbit = 1u << victim_type;
    if (privilege_attacks(pos, c, attacker, threat, seen)) return true;
    if (v->attack_lines_ok)
        return attacked_on_lines(pos, c, attacker, victim_type, threat, seen) ||
            attacked_by_patterns(pos, c, attacker, victim_type, threat, seen);
    for (int t = 0; t < v->ntypes; t++) {
        const PieceType *pt = &v->types[t];
        if (!pt->fast_attack) continue;
        /* Skip types with no piece of this owner on the board. */
        bool any = false;
        for (int w = 0; w < pos->v->cell_words; w++)
            if (pos->type_occ[t][w] & pos->occ[attacker][w]) {
                any = true;
                break;
            }
        if (!any) continue;
        Piece want = PIECE_MAKE(t, attacker);
        const PieceProgram *pp = &pt->per_owner[attacker];
        for (int i = 0; i < pp->natk; i++) {
            const Ray *r = &pp->atk[i];
            if (!(r->victims & vbit)) continue;
            if (!zone_admits(v, r->to_zone, attacker, c)) continue;
            int back = v->dirs[r->dir].reverse;
            Cell s = c;
            int range = r->range;
            for (int k = 0; !range || k < range; k++) {
                s = variant_step(v, s, back);
                if (s == NO_CELL) break;
                Piece p = board_look(pos, s, seen);
                if (p) {
                    if (PIECE_KIND(p) == want && attacker_can_move(pos, s, threat, seen) &&
                        zone_admits(v, r->from_zone, attacker, s))
                        return true;
                    break;
                }
                if (!r->slide) break;
            }
        }
        for (int i = 0; i < pp->npatterns; i++)
            if ((pp->patterns[i].victims & vbit) &&
                (!pp->patterns[i].reach || attack_pattern_may_reach(pos, &pp->patterns[i], c, t, attacker)) &&
                pattern_captures(pos, &pp->patterns[i], c, want, attacker, threat, seen))
                return true;
    }
    return false;
}

int attack_pins(const Position *pos, Cell c, int owner, uint64_t *pinned) {
    const Variant *v = pos->v;
    int victim_type = PIECE_TYPE(pos->cell[c]), checks = 0;
    for (int w = 0; w < v->cell_words; w++) pinned[w] = 0;
    for (int o = 0; o < v->nowners; o++) {
        if (!board_hostile(pos, o, owner)) continue;
        checks += privilege_attacks(pos, c, o, 0, NULL);
        const LineRef *refs = v->line_refs[o][victim_type];
        /* (the lines of leapers only give checks, and only with a piece of o on one) */
        int nrefs = v->nline_refs[o][victim_type];
        if (!line_holds(v->leap_cells + ((size_t)o * (size_t)v->ncells + c) * (size_t)v->cell_words, pos->occ[o],
                        v->cell_words))
            nrefs = v->nline_slides[o][victim_type];
        for (int k = 0; k < nrefs; k++) {
            uint32_t sliders = refs[k].sliders;
            int back = refs[k].back;
            /* (no piece of o on the line: neither a check nor a pin) */
            const uint64_t *line =
                v->line_cells + ((size_t)c * (size_t)v->ndirs + (size_t)back) * (size_t)v->cell_words;
            bool clear = !(line[0] & pos->occ[o][0]);
            for (int w = 1; clear && w < v->cell_words; w++) clear = !(line[w] & pos->occ[o][w]);
            if (clear) continue;
            Cell s = variant_step(v, c, back);
            uint32_t types = refs[k].types;
            while (s != NO_CELL && !pos->cell[s] && sliders) {
                types = sliders;
                s = variant_step(v, s, back);
            }
            if (s == NO_CELL || !pos->cell[s]) continue;
            Piece p = pos->cell[s];
            if (PIECE_OWNER(p) == o) {
                checks += (types >> PIECE_TYPE(p)) & 1;
                continue;
            }
            if (PIECE_OWNER(p) != owner || !sliders) continue;
            /* the first piece is owner's: pinned when a slider of the line stands next behind it */
            Cell shield = s;
            do s = variant_step(v, s, back);
            while (s != NO_CELL && !pos->cell[s]);
            if (s != NO_CELL && PIECE_OWNER(pos->cell[s]) == o && ((sliders >> PIECE_TYPE(pos->cell[s])) & 1))
                pinned[shield >> 6] |= 1ULL << (shield & 63);
        }
    }
    return checks;
}

/* General attack test: run the capturing programs of `attacker` and look for a move that
 * removes or lands on the piece on c. */
static bool attacked_by_programs(GenContext *ctx, Position *pos, Cell c, int attacker, uint8_t threat) {
    const Variant *v = pos->v;
    for (int w = 0; w < pos->v->cell_words; w++) {
        uint64_t bits = pos->occ[attacker][w];
        while (bits) {
            Cell from = (Cell)(w * 64 + __builtin_ctzll(bits));
            bits &= bits - 1;
            const PieceType *pt = &v->types[PIECE_TYPE(pos->cell[from])];
            if (ctx->fast && pt->fast_attack) continue;
            const PieceProgram *pp = &pt->per_owner[attacker];
            if (!pp->may_capture || !attacker_can_move(pos, from, threat, NULL)) continue;
            VmFault f = {0};
            bool hit = vm_captures(ctx, &pp->prog, pos, from, attacker, c, &f);
            attack_note_fault(ctx, &f);
            if (hit) return true;
        }
    }
    return false;
}

void attack_take_fault(GenContext *ctx, VmFault *fault) {
    if (!ctx->attack_fault.set) return;
    if (fault && !fault->set) *fault = ctx->attack_fault;
    ctx->attack_fault.set = false;
}

/* attack_is_attacked; `seen` as for attacker_can_move (the programs' reads are not gathered) */
static bool is_attacked(GenContext *ctx, Position *pos, Cell c, int victim_owner, Piece as, uint64_t *seen) {
    const Variant *v = pos->v;
    /* Programs run for an attack test may ask "attacked?" themselves (castling does); such a
     * nested question is answered "no": castling never captures, and it keeps tests finite. */
    if (ctx->attack_depth) return false;
    Piece old = board_look(pos, c, seen);
    bool placed = false;
    uint8_t threat = 0;
    if (v->steered) {
        /* a steered piece attacks when a player other than the victim's own may move it */
        for (int q = 0; q < v->nplayers; q++)
            if (((pos->alive >> q) & 1) && !board_answers_for(pos, q, victim_owner)) threat |= (uint8_t)(1u << q);
    }
    for (int o = 0; o < v->nowners; o++) {
        if (!board_hostile(pos, o, victim_owner) || !board_active(pos, o)) continue;
        bool any = false;
        for (int w = 0; w < pos->v->cell_words; w++)
            if (pos->occ[o][w]) {
                any = true;
                break;
            }
        if (!any) continue;
        int victim_type = as ? PIECE_TYPE(as) : old ? PIECE_TYPE(old) : 0;
        if (ctx->fast && attacked_by_rays(pos, c, o, victim_type, threat, seen)) {
            if (placed) board_put(pos, c, old);
            return true;
        }
        if (ctx->fast && v->all_fast) continue;
        /* Programs only capture pieces that are there: stand the victim on c for the test. */
        if (!placed && (old == 0 || PIECE_OWNER(old) != victim_owner)) {
            Piece p = as ? (Piece)PIECE_MAKE(PIECE_TYPE(as), victim_owner) : (Piece)PIECE_MAKE(0, victim_owner);
            board_put(pos, c, p);
            placed = true;
        }
        ctx->attack_depth++;
        bool hit = attacked_by_programs(ctx, pos, c, o, threat);
        ctx->attack_depth--;
        if (hit) {
            if (placed) board_put(pos, c, old);
            return true;
        }
    }
    if (placed) board_put(pos, c, old);
    return false;
}

bool attack_is_attacked(GenContext *ctx, Position *pos, Cell c, int victim_owner, Piece as) {
    return is_attacked(ctx, pos, c, victim_owner, as, NULL);
}

bool attack_is_defended(GenContext *ctx, Position *pos, Cell c, int owner, Piece as) {
    const Variant *v = pos->v;
    if (ctx->attack_depth) return false;
    /* the victim: a piece of the first owner hostile to the mover's side */
    int enemy = -1;
    for (int o = 0; o < v->nowners && enemy < 0; o++)
        if (board_hostile(pos, o, owner)) enemy = o;
    if (enemy < 0) return false;
    Piece old = pos->cell[c];
    int victim_type = as ? PIECE_TYPE(as) : old ? PIECE_TYPE(old) : 0;
    uint8_t threat = 0;
    if (v->steered) {
        for (int q = 0; q < v->nplayers; q++)
            if (((pos->alive >> q) & 1) && !board_answers_for(pos, q, enemy)) threat |= (uint8_t)(1u << q);
    }
    bool placed = false, hit = false;
    for (int o = 0; o < v->nowners && !hit; o++) {
        if (board_hostile(pos, o, owner) || !board_active(pos, o)) continue;
        bool any = false;
        for (int w = 0; w < v->cell_words && !any; w++) any = pos->occ[o][w] != 0;
        if (!any) continue;
        if (ctx->fast && attacked_by_rays(pos, c, o, victim_type, threat, NULL)) {
            hit = true;
            break;
        }
        if (ctx->fast && v->all_fast) continue;
        /* programs only capture pieces that are there: an enemy's stands on c for the test */
        if (!placed) {
            board_put(pos, c, (Piece)PIECE_MAKE(victim_type, enemy));
            placed = true;
        }
        ctx->attack_depth++;
        hit = attacked_by_programs(ctx, pos, c, o, threat);
        ctx->attack_depth--;
    }
    if (placed) board_put(pos, c, old);
    return hit;
}

static bool royal_attacked(GenContext *ctx, Position *pos, int owner, uint64_t *seen) {
    const Variant *v = pos->v;
    for (uint32_t types = v->royal_of[owner]; types; types &= types - 1) {
        int t = __builtin_ctz(types);
        for (int w = 0; w < pos->v->cell_words; w++) {
            uint64_t b = pos->type_occ[t][w] & pos->occ[owner][w];
            while (b) {
                Cell c = (Cell)(w * 64 + __builtin_ctzll(b));
                b &= b - 1;
                if (is_attacked(ctx, pos, c, owner, pos->cell[c], seen)) return true;
            }
        }
    }
    return false;
}

bool attack_royal_attacked(GenContext *ctx, Position *pos, int owner) { return royal_attacked(ctx, pos, owner, NULL); }

bool attack_royal_attacked_seen(GenContext *ctx, Position *pos, int owner, uint64_t *seen) {
    return royal_attacked(ctx, pos, owner, seen);
}

bool attack_army_in_check(GenContext *ctx, Position *pos, int army) {
    const Variant *v = pos->v;
    /* without its royal piece the army counts as in check */
    bool gone = true;
    for (int t = 0; t < v->ntypes && gone; t++)
        for (int w = 0; variant_royal(v, army, t) && w < v->cell_words; w++)
            if (pos->type_occ[t][w] & pos->occ[army][w]) gone = false;
    return gone || attack_royal_attacked(ctx, pos, army);
}

int attack_count_attackers(GenContext *ctx, Position *pos, Cell c, int owner) {
    const Variant *v = pos->v;
    Piece victim = pos->cell[c];
    if (ctx->attack_depth || !victim || !board_hostile(pos, PIECE_OWNER(victim), owner)) return 0;
    int n = 0;
    ctx->attack_depth++;
    for (int o = 0; o < v->nowners; o++) {
        if (pos->controller[o] != pos->controller[owner]) continue;
        for (int w = 0; w < v->cell_words; w++) {
            uint64_t bits = pos->occ[o][w];
            while (bits) {
                Cell from = (Cell)(w * 64 + __builtin_ctzll(bits));
                bits &= bits - 1;
                const PieceProgram *pp = &v->types[PIECE_TYPE(pos->cell[from])].per_owner[o];
                VmFault f = {0};
                if (pp->may_capture && vm_captures(ctx, &pp->prog, pos, from, o, c, &f)) n++;
                attack_note_fault(ctx, &f);
            }
        }
    }
    ctx->attack_depth--;
    return n;
}
