/* attack.h - attack tests: could a hostile piece capture the piece on a cell? The checks built
 * on them (in check, attacker counts) and the faults their programs meet.
 *
 * attack and vm call each other, and this is meant: a program's `attacked` and `attackers`
 * conditions (vm.c) ask this module, which runs the enemy's programs in the VM's attack mode
 * (vm_captures). The recursion is one level deep: inside an attack test the nested questions
 * answer "no" / 0. */
#ifndef VARIA_ATTACK_H
#define VARIA_ATTACK_H

#include "vm.h"

/* True when some owner hostile to victim_owner could capture a piece `as` standing on c
 * (as = 0: a piece of victim_owner of the first type). Position is restored before return.
 * A fault of a program it runs is kept in ctx for attack_take_fault. */
bool attack_is_attacked(GenContext *ctx, Position *pos, Cell c, int victim_owner, Piece as);
/* True when a piece of owner's side (owner's own and those of owners not hostile to it) could
 * capture an enemy piece `as` (of its type; as = 0: the piece on c, or the first type) standing
 * on c: c is defended. The position as it is, the pieces on it pseudo-legally; false inside an
 * attack test. Position is restored before return. */
bool attack_is_defended(GenContext *ctx, Position *pos, Cell c, int owner, Piece as);
/* For a game with Variant.pin_legal: how many attack lines hold a hostile piece that could
 * capture the piece of `owner` on c (0: none), and in pinned (cleared first) the cells of owner's pieces that
 * stand alone between c and a hostile slider that could capture it along that line. */
int attack_pins(const Position *pos, Cell c, int owner, uint64_t *pinned);
/* For a game with Variant.pin_legal: could a hostile piece capture a piece of victim_owner
 * and victim_type on c? (The attack lines read only the cells: a caller may write cells for
 * the test without the occupancy sets.) */
bool attack_lines_hit(const Position *pos, Cell c, int victim_owner, int victim_type);
/* Does a piece of type t of the attacker stand where capture pattern cp could capture on c
 * from, on an empty board (Variant.pattern_reach; cp->reach set)? Where none does, the pattern
 * captures nothing on c, whatever the other pieces. */
static inline bool attack_pattern_may_reach(const Position *pos, const CapturePattern *cp, Cell c, int t,
                                            int attacker) {
    const Variant *v = pos->v;
    const uint64_t *from = v->pattern_reach + ((size_t)(cp->reach - 1) * (size_t)v->ncells + c) * (size_t)v->cell_words;
    for (int w = 0; w < v->cell_words; w++)
        if (from[w] & pos->type_occ[t][w] & pos->occ[attacker][w]) return true;
    return false;
}
/* For a game with Variant.attack_lines_ok: could a piece of `attacker` capture a piece of
 * victim_type on c by one of its capture patterns (not its attack lines)? Reads only cells and
 * the occupancy sets. */
bool attack_patterns_hit(const Position *pos, Cell c, int attacker, int victim_type);
/* Could a piece of type t of `attacker` capture on c by capture pattern cp (one of its type's)? */
bool attack_pattern_hit(const Position *pos, const CapturePattern *cp, Cell c, int t, int attacker);
/* attack_lines_hit made ready for the many cells a royal piece could step to, in a game
 * with Variant.leap_from: the leaps are looked up by cell, the lines walked only when a piece
 * of one of their sliding types stands on them. */
typedef struct SliderRun {
    uint8_t first, end; /* refs[first..end): lines with the same sliding types */
    uint64_t occ;       /* the attacker's pieces of those types (none: no run) */
} SliderRun;
typedef struct RoyalLook {
    int ready; /* (for its user: 0 not readied yet, 1 ready, -1 not to be had) */
    int attacker, nleaps, nruns;
    const uint64_t *leap_from[MAX_PIECE_TYPES]; /* per leaping type the attacker has */
    uint64_t leap_occ[MAX_PIECE_TYPES];         /* its pieces of that type */
    const LineRef *refs;                        /* Variant.line_refs of the victim */
    SliderRun runs[MAX_DIRECTIONS];
} RoyalLook;
/* Readies rl for a piece of victim_owner and victim_type; false where the game has no
 * Variant.leap_from for it (then attack_lines_hit tests it). */
bool attack_royal_look_init(RoyalLook *rl, const Position *pos, int victim_owner, int victim_type);
/* attack_lines_hit(pos, c, victim_owner, victim_type) for rl's victim, on the position rl was
 * readied on with the victim on c and one of its owner's pieces moved (written on the cells),
 * taking the attacker's pieces on `taken` (cells, one word) if any. */
static inline bool attack_royal_look_hit(const RoyalLook *rl, const Position *pos, Cell c, uint64_t taken) {
    const Variant *v = pos->v;
    for (int i = 0; i < rl->nleaps; i++)
        if (rl->leap_from[i][c] & rl->leap_occ[i] & ~taken) return true;
    const uint64_t *lines = v->line_cells + (size_t)c * (size_t)v->ndirs;
    for (int r = 0; r < rl->nruns; r++) {
        uint64_t occ = rl->runs[r].occ;
        for (int k = rl->runs[r].first; k < rl->runs[r].end; k++) {
            int back = rl->refs[k].back;
            if (!(lines[back] & occ)) continue;
            Cell s = c;
            do s = variant_step(v, s, back);
            while (s != NO_CELL && !pos->cell[s]);
            if (s != NO_CELL && PIECE_OWNER(pos->cell[s]) == rl->attacker &&
                ((rl->refs[k].sliders >> PIECE_TYPE(pos->cell[s])) & 1))
                return true;
        }
    }
    return false;
}
/* attack_pins for rl's victim standing on c, as rl was readied (a game without privileges):
 * nonzero when in check, and the pinned pieces. */
int attack_royal_look_pins(const RoyalLook *rl, const Position *pos, Cell c, uint64_t *pinned);
/* The cells from which a piece of `attacker` would attack a piece of victim_type on c, per
 * type (`to`), the rest of the position as it is; `moves` the attacker's pieces first on a
 * line with sliders back from c, whose leaving could open that line. For a game with
 * Variant.pin_legal on a board of one word. A move of another of the attacker's pieces, that
 * only carries it to a cell other than c, attacks c afterwards exactly when its landing type's
 * set holds its destination. False (nothing set) when the piece on c is attacked already. */
typedef struct CheckCells {
    uint64_t to[MAX_PIECE_TYPES];
    uint64_t moves;
} CheckCells;
bool attack_check_cells(CheckCells *cc, const Position *pos, Cell c, int attacker, int victim_type);
/* ... and by a privilege's capture (Variant.privilege_types; the cells and the rights only)? */
bool attack_privilege_hit(const Position *pos, Cell c, int victim_owner);
/* Can a royal piece of `owner` be captured? */
bool attack_royal_attacked(GenContext *ctx, Position *pos, int owner);
/* The same, adding to `seen` every cell the test looked at. Where the test reads only cells
 * (Variant.all_fast, on the fast path), it gives the same answer on any position that differs
 * from this one only on other cells and has the same pieces of owner's enemies and the same
 * royal pieces of owner's. */
bool attack_royal_attacked_seen(GenContext *ctx, Position *pos, int owner, uint64_t *seen);
/* Is the army a player answers for (`helps`) in check: its royal piece attacked, or gone? */
bool attack_army_in_check(GenContext *ctx, Position *pos, int army);
/* True when a royal piece of `player` can be captured (check), or the army it answers for
 * has lost its royal piece (even to a piece that player moved). Inline: it is on the path of
 * every legality test. */
static inline bool attack_in_check(GenContext *ctx, Position *pos, int player) {
    if (attack_royal_attacked(ctx, pos, player)) return true;
    return pos->allegiance[player] != NO_OWNER && attack_army_in_check(ctx, pos, pos->allegiance[player]);
}
/* How many distinct pieces on the side of `owner` could capture the enemy piece on c now (each
 * runs its program in attack mode). Inside an attack test the answer is 0: the test is not
 * nested, which also keeps a program that asks this of its own captures finite. */
int attack_count_attackers(GenContext *ctx, Position *pos, Cell c, int owner);
/* Moves a fault met in an attack test (whose programs faulted: their answer is not to be
 * trusted) into *fault, when that has none yet. movegen_legal and movegen_count_legal do it. */
void attack_take_fault(GenContext *ctx, VmFault *fault);
/* Keeps f (a fault of a program run for an attack test) for attack_take_fault; the first wins. */
static inline void attack_note_fault(GenContext *ctx, const VmFault *f) {
    if (f->set && !ctx->attack_fault.set) ctx->attack_fault = *f;
}

#endif
