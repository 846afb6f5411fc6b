/* movegen.c - move generation and legality.
 * Plain leaps and slides run as C loops over ray tables, zoned atoms, legs and move blocks of
 * known shapes over line moves; everything else runs the piece's program in the VM. A move is
 * legal when the attack tests (attack.c) find the mover's royal pieces safe after it. */
#include "movegen.h"

#include <stddef.h>
#include <string.h>

#include "ending.h"
#include "mobility.h"

static inline void add_simple(MoveList *out, Cell from, Cell to, bool capture) {
    Move *m = &out->moves[out->count++];
    m->from = from;
    m->to = to;
    m->flags = capture ? MOVE_CAPTURE : 0;
    m->promo = NO_TYPE;
    m->castle = 0;
    m->kind = 0;
    m->nfx = 1;
    m->fx[0] = (Effect){.kind = FX_MOVE, .a = from, .b = to};
}

/* Generates a piece's ray moves. Returns false when the move list is full. */
static bool gen_rays(const Position *pos, const PieceProgram *pp, int owner, Cell from, MoveList *out) {
    const Variant *v = pos->v;
    for (int i = 0; i < pp->ngen; i++) {
        const Ray *r = &pp->gen[i];
        int range = r->range;
        int mode = r->mode;
        Cell c = from;
        for (int k = 0; !range || k < range; k++) {
            c = variant_step(v, c, r->dir);
            if (c == NO_CELL) break;
            if (out->count >= MAX_MOVES - 1) return false;
            Piece p = pos->cell[c];
            if (!p) {
                if (mode != RAY_CAPTURE) add_simple(out, from, c, false);
            } else {
                if (mode != RAY_MOVE && board_hostile(pos, PIECE_OWNER(p), owner)) add_simple(out, from, c, true);
                break;
            }
            if (!r->slide) break;
        }
    }
    return true;
}

static inline bool in_zone(const Variant *v, int zone, int owner, Cell c) {
    return !zone || zone_has(&v->zones[zone - 1], owner, c);
}

/* A piece's line moves (zoned atoms, legs, recognised move blocks; see LineMove): written to
 * out, or with count, only counted there. Returns false when the move list is full. */
static inline __attribute__((always_inline)) bool walk_lines(const Position *pos, const PieceProgram *pp, int owner,
                                                             Cell from, MoveList *out, int *count) {
    const Variant *v = pos->v;
    for (int i = 0; i < pp->nlines; i++) {
        const LineMove *l = &pp->lines[i];
        if (!in_zone(v, l->from_zone, owner, from)) continue;
        Cell c = from;
        int last = l->nlegs - 1, d = l->dirs[last];
        for (int k = 0; k < last && c != NO_CELL; k++) {
            c = variant_step(v, c, l->dirs[k]);
            if (c != NO_CELL && pos->cell[c]) c = NO_CELL;
        }
        if (c != NO_CELL && l->hop) {
            /* to the screen */
            c = variant_step(v, c, d);
            while (c != NO_CELL && !pos->cell[c] && !l->range && in_zone(v, l->path_zone, owner, c))
                c = variant_step(v, c, d);
            if (c != NO_CELL &&
                (!pos->cell[c] || !in_zone(v, l->path_zone, owner, c) ||
                 !((l->screens >> PIECE_TYPE(pos->cell[c])) & 1)))
                c = NO_CELL;
        }
        if (c == NO_CELL) continue;
        for (int k = 0; !l->range || k < l->range; k++) {
            c = variant_step(v, c, d);
            if (c == NO_CELL || !in_zone(v, l->path_zone, owner, c)) break;
            if (!count && out->count >= MAX_MOVES - 1) return false;
            Piece p = pos->cell[c];
            bool lands = in_zone(v, l->to_zone, owner, c);
            if (!p) {
                if (l->mode != RAY_CAPTURE && lands) {
                    if (count)
                        ++*count;
                    else
                        add_simple(out, from, c, false);
                }
            } else {
                if (l->mode != RAY_MOVE && lands && ((l->victims >> PIECE_TYPE(p)) & 1) &&
                    board_hostile(pos, PIECE_OWNER(p), owner)) {
                    if (count)
                        ++*count;
                    else
                        add_simple(out, from, c, true);
                }
                break;
            }
        }
    }
    return true;
}

/* Generates a piece's line moves (walk_lines). Out of line: inlined, it slowed the rays' loop
 * of games without line moves. */
__attribute__((noinline)) static bool gen_lines(const Position *pos, const PieceProgram *pp, int owner, Cell from,
                                                MoveList *out) {
    return walk_lines(pos, pp, owner, from, out, NULL);
}

/* How many line moves a piece has (as gen_lines writes them). */
__attribute__((noinline)) static int count_lines(const Position *pos, const PieceProgram *pp, int owner, Cell from) {
    int n = 0;
    walk_lines(pos, pp, owner, from, NULL, &n);
    return n;
}

int movegen_count_lines(const Position *pos, const PieceProgram *pp, int owner, Cell from) {
    return pp->nlines ? count_lines(pos, pp, owner, from) : 0;
}

static bool fault_full(VmFault *fault) {
    if (fault && !fault->set) {
        fault->set = true;
        snprintf(fault->msg, sizeof fault->msg, "too many moves in one position (limit is %d)", MAX_MOVES);
    }
    return false;
}

/* Two moves with the same effects are one move (several paths can reach one cell). */
static bool same_move(const Move *a, const Move *b) {
    if (a->from != b->from || a->to != b->to || a->promo != b->promo || a->nfx != b->nfx || a->kind != b->kind)
        return false;
    for (int i = 0; i < a->nfx; i++)
        if (a->fx[i].kind != b->fx[i].kind || a->fx[i].a != b->fx[i].a || a->fx[i].b != b->fx[i].b ||
            a->fx[i].piece != b->fx[i].piece)
            return false;
    return true;
}

static inline void merge_duplicates(MoveList *out, int start) {
    int n = start;
    for (int i = start; i < out->count; i++) {
        bool dup = false;
        for (int k = start; k < n && !dup; k++) dup = same_move(&out->moves[k], &out->moves[i]);
        if (!dup) {
            if (n != i) out->moves[n] = out->moves[i];
            n++;
        }
    }
    out->count = n;
}

/* Does the last cell c of an atom's path suit its mode (as the atom's code tests it)? */
static inline bool atom_target(const Position *pos, Cell c, int mode, int owner) {
    Piece p = pos->cell[c];
    if (mode == RAY_MOVE) return !p;
    bool enemy = p && board_hostile(pos, PIECE_OWNER(p), owner);
    return mode == RAY_CAPTURE ? enemy : !p || enemy;
}

/* Is c an en-passant cell whose victim is an enemy of owner (the code's ISEP)? */
static inline bool atom_ep_cell(const Position *pos, Cell c, int owner) {
    if (pos->ep_victim == NO_CELL) return false;
    bool listed = false;
    for (int i = 0; i < MAX_EP_CELLS; i++) listed = listed || pos->ep[i] == c;
    return listed && pos->ep_victim != NO_CELL && pos->cell[pos->ep_victim] &&
        board_hostile(pos, PIECE_OWNER(pos->cell[pos->ep_victim]), owner);
}

/* The move of an atom that neither promotes nor removes a piece but the one it lands on, from
 * one cell to another, as the VM's emit writes it: the pending en-passant cells, then the move.
 * Returns false when the list is full. */
static inline bool add_carry(const Position *pos, MoveList *out, Cell from, Cell to, int owner, const Effect *pending,
                             int npending) {
    if (out->count >= MAX_MOVES) return false;
    Move *m = &out->moves[out->count++];
    Piece p = pos->cell[to];
    m->from = from;
    m->to = to;
    m->flags = p && board_hostile(pos, PIECE_OWNER(p), owner) ? MOVE_CAPTURE : 0;
    m->promo = NO_TYPE;
    m->castle = 0;
    m->kind = 0;
    m->nfx = (uint8_t)(npending + 1);
    for (int i = 0; i < npending; i++) m->fx[i] = pending[i];
    m->fx[npending] = (Effect){.kind = FX_MOVE, .a = from, .b = to};
    return true;
}

/* An atom's move: carried as it stands, or (promotions) as the VM's ADD emits it. With
 * carried non-NULL, a move that only carries the piece is counted there, not written. */
static inline __attribute__((always_inline)) bool add_atom_move(const Position *pos, const FastAtom *fa, MoveList *out,
                                                                Cell from, Cell to, int owner, const Effect *pending,
                                                                int npending, int *carried) {
    if (from != to && !vm_atom_promotes(pos->v, fa->promo, owner, from, to)) {
        if (carried) {
            ++*carried;
            return true;
        }
        return add_carry(pos, out, from, to, owner, pending, npending);
    }
    return vm_emit_atom(pos, out, from, to, owner, pending, npending, 0, fa->promo);
}

/* A privileged atom's move (FAST_PRIVILEGE; carried: as in add_atom_move). *attacked: is the
 * piece attacked where it stands (-1: not asked yet)? Returns false when the move list is
 * full. Out of line, to keep the usual atoms' loop as it was. */
__attribute__((noinline)) static bool gen_privileged(GenContext *ctx, Position *pos, const FastAtom *fa, int owner,
                                                     Cell from, MoveList *out, int *carried, int *attacked) {
    if (!board_privilege_held(pos, owner, from)) return true;
    bool unattacked = fa->kind == FAST_PRIVILEGE_UNATTACKED;
    if (unattacked && *attacked < 0)
        *attacked = from != ctx->unattacked && attack_is_attacked(ctx, pos, from, owner, pos->cell[from]);
    if (unattacked && *attacked) return true;
    Cell c = from;
    for (int k = 0; k < fa->ndirs && c != NO_CELL; k++) c = variant_step(pos->v, c, fa->dirs[k]);
    return c == NO_CELL || !atom_target(pos, c, fa->mode, owner) ||
        add_atom_move(pos, fa, out, from, c, owner, NULL, 0, carried);
}

/* The move of a FAST_LEGS atom, if its path is open (carried: as in add_atom_move). */
static inline __attribute__((always_inline)) bool legs_atom(const Position *pos, const FastAtom *fa, MoveList *out,
                                                            int owner, Cell from, int *carried) {
    Effect pending[MAX_FAST_ATOM_DIRS];
    int npending = 0;
    Cell c = from;
    for (int k = 0; k < fa->ndirs && c != NO_CELL; k++) {
        c = variant_step(pos->v, c, fa->dirs[k]);
        if (c == NO_CELL || k == fa->ndirs - 1) break;
        if (pos->cell[c])
            c = NO_CELL;
        else if (fa->sets_ep)
            pending[npending++] = (Effect){.kind = FX_EP, .a = c};
    }
    return c == NO_CELL || !atom_target(pos, c, fa->mode, owner) ||
        add_atom_move(pos, fa, out, from, c, owner, pending, npending, carried);
}

/* The captures of a FAST_EN_PASSANT atom, where the position has en-passant cells. */
static inline bool en_passant_atom(const Position *pos, const FastAtom *fa, MoveList *out, int owner, Cell from) {
    for (int k = 0; k < fa->ndirs; k++) {
        Cell c = variant_step(pos->v, from, fa->dirs[k]);
        if (c == NO_CELL || !atom_ep_cell(pos, c, owner)) continue;
        Effect taken = {.kind = FX_REMOVE, .a = pos->ep_victim};
        if (!vm_emit_atom(pos, out, from, c, owner, &taken, 1, MOVE_EP, fa->promo)) return false;
    }
    return true;
}

/* The moves of a piece's rest program run in C (PieceProgram.rest_in_c), atom by atom in the
 * program's order, emitting what its code would (carried: as in add_atom_move). privileged:
 * the piece has privileged atoms (a constant where it is inlined: without, the loop is as it
 * was). Returns false when the move list is full. */
static inline __attribute__((always_inline)) bool walk_atoms(GenContext *ctx, Position *pos, const PieceProgram *pp,
                                                             int owner, Cell from, MoveList *out, int *carried,
                                                             bool privileged) {
    const Variant *v = pos->v;
    int attacked = -1;
    for (int a = 0; a < pp->natoms; a++) {
        const FastAtom *fa = &pp->atoms[a];
        if (fa->from_zone && !zone_has(&v->zones[fa->from_zone - 1], owner, from)) continue;
        if (fa->kind == FAST_LEGS) {
            if (!legs_atom(pos, fa, out, owner, from, carried)) return false;
            continue;
        }
        if (fa->kind == FAST_EN_PASSANT) {
            if (pos->ep_victim != NO_CELL && !en_passant_atom(pos, fa, out, owner, from)) return false;
            continue;
        }
        if (privileged && (fa->kind == FAST_PRIVILEGE || fa->kind == FAST_PRIVILEGE_UNATTACKED)) {
            if (!gen_privileged(ctx, pos, fa, owner, from, out, carried, &attacked)) return false;
            continue;
        }
        for (int k = 0; k < fa->ndirs; k++) {
            Cell c = variant_step(v, from, fa->dirs[k]);
            if (c != NO_CELL && atom_target(pos, c, fa->mode, owner) &&
                !add_atom_move(pos, fa, out, from, c, owner, NULL, 0, carried))
                return false;
        }
    }
    return true;
}

/* How many cells of set b (a board of at most 64 cells): the instruction where the build
 * targets one, else a few shifts (the library's call costs more than the count). */
static inline int cells_in(uint64_t b) {
#ifdef __POPCNT__
    return __builtin_popcountll(b);
#else
    b -= (b >> 1) & 0x5555555555555555ULL;
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((b * 0x0101010101010101ULL) >> 56);
#endif
}

/* count_owner_bits counts the most cells: where the build targets no popcnt instruction, GCC
 * makes it twice on x86-64 Linux, once for processors with the instruction, chosen when the
 * program starts; every x86-64 runs the other. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && !defined(__POPCNT__)
#define POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#define clone_cells_in(b) __builtin_popcountll(b)
#else
#define POPCNT_CLONES
#define clone_cells_in(b) cells_in(b)
#endif

/* The cells of a board of at most 64 cells that a piece of owner may land on by mode: empty,
 * enemy, or either. */
static inline uint64_t mode_targets(int mode, uint64_t empty, uint64_t enemy) {
    return mode == RAY_MOVE ? empty : mode == RAY_CAPTURE ? enemy : empty | enemy;
}

/* The cells a piece's slides reach from the cell whose sets are `set`: each ray up to its first
 * occupied cell (the lowest or highest occupied bit), that cell too when it holds an enemy and
 * the slide may capture. */
static inline uint64_t slide_targets(const BitCount *b, const uint64_t *set, uint64_t empty, uint64_t enemy) {
    const uint64_t occupied = ~empty;
    uint64_t to = 0;
    if (b->all_both) {
        /* (the slides up, then those down: each ray's cells up to its first occupied one, that
         * one included, every cell when none is; a ray down ends at the highest occupied bit,
         * where bit 0 alone stands for none) */
        int s = 0;
        for (; s < b->nslides_up; s++) {
            uint64_t ray = set[3 + s], block = ray & occupied;
            to |= ray & (block ^ (block - 1));
        }
        for (; s < b->nslides; s++) {
            uint64_t ray = set[3 + s], block = ray & occupied;
            to |= ray & ~((~0ULL >> __builtin_clzll(block | 1)) >> 1);
        }
        return to & (empty | enemy);
    }
    const uint64_t targets[3] = {[RAY_BOTH] = empty | enemy, [RAY_MOVE] = empty, [RAY_CAPTURE] = enemy};
    for (int s = 0; s < b->nslides; s++) {
        uint64_t ray = set[3 + s], block = ray & occupied;
        uint64_t upto = b->slide_up[s] ? block ^ (block - 1) : ~((~0ULL >> __builtin_clzll(block | 1)) >> 1);
        to |= ray & upto & targets[b->slide_mode[s]];
    }
    return to;
}

/* How many moves a free piece makes, as count_rays and count_atoms count them (its
 * promotions and en-passant captures written into out), from its cell sets (PieceProgram.bits,
 * empty and enemy: the board's cells): the cells its paths may land on make one set, since no
 * two reach one cell; a slide's are those its ray reaches before the first occupied cell, the
 * lowest (or highest) occupied bit of the ray. */
static inline bool count_bits(Position *pos, const PieceProgram *pp, int owner, Cell from, uint64_t empty,
                              uint64_t enemy, MoveList *out, int *n) {
    const BitCount *b = pp->bits;
    const uint64_t *set = &b->cells[(size_t)from * (size_t)b->stride];
    uint64_t to = (set[RAY_BOTH] & (empty | enemy)) | (set[RAY_MOVE] & empty) | (set[RAY_CAPTURE] & enemy);
    to |= slide_targets(b, set, empty, enemy);
    set += 3 + b->nslides;
    for (int k = 0; k < b->nsteps; k++, set += 2) {
        uint64_t reach = set[0] & mode_targets(b->step_mode[k], empty, enemy);
        if (!reach) continue;
        uint64_t promoted = reach & set[1];
        to |= reach & ~promoted;
        for (; promoted; promoted &= promoted - 1)
            if (!vm_emit_atom(pos, out, from, (Cell)__builtin_ctzll(promoted), owner, NULL, 0, 0, b->step_promo[k]))
                return false;
    }
    *n += cells_in(to);
    if (!b->walks) return true;
    const Variant *v = pos->v;
    for (int a = 0; a < pp->natoms; a++) {
        const FastAtom *fa = &pp->atoms[a];
        if (fa->kind == FAST_STEP || (fa->from_zone && !zone_has(&v->zones[fa->from_zone - 1], owner, from))) continue;
        if (fa->kind == FAST_LEGS) {
            if (!legs_atom(pos, fa, out, owner, from, n)) return false;
        } else if (pos->ep_victim != NO_CELL && !en_passant_atom(pos, fa, out, owner, from)) {
            return false;
        }
    }
    return true;
}

/* The cells of set x moved by delta (positive: to higher indices). */
static inline uint64_t shifted(uint64_t x, int delta) { return delta > 0 ? x << delta : x >> -delta; }

/* How many moves the free pieces of one type and owner on the cells of `pieces` make, as
 * count_rays and count_atoms count them (promotions and en-passant captures written into
 * out), where their leaps, steps and legs are BitShifts (BitCount.shifts): each path's moves
 * for all the pieces at once, the cells shifted; the slides piece by piece. */
static inline __attribute__((always_inline)) bool count_type_bits(Position *pos, const PieceProgram *pp, int owner,
                                                                  uint64_t pieces, uint64_t empty, uint64_t enemy,
                                                                  MoveList *out, int *n) {
    const BitCount *b = pp->bits;
    const uint64_t targets[3] = {[RAY_BOTH] = empty | enemy, [RAY_MOVE] = empty, [RAY_CAPTURE] = enemy};
    int count = 0;
    if (!b->walks && !b->nsteps && (b->nslides || 2 * clone_cells_in(pieces) <= b->nshift)) {
        /* (pieces that slide, or few: each one's leaps and slides make one set, no two of its
         * paths reaching one cell) */
        for (uint64_t bits = pieces; bits; bits &= bits - 1) {
            const uint64_t *set = &b->cells[(size_t)__builtin_ctzll(bits) * (size_t)b->stride];
            count += clone_cells_in((set[RAY_BOTH] & targets[RAY_BOTH]) | (set[RAY_MOVE] & empty) |
                                    (set[RAY_CAPTURE] & enemy) | slide_targets(b, set, empty, enemy));
        }
        *n += count;
        return true;
    }
    for (int i = 0; i < b->nshift; i++) {
        const BitShift *sh = &b->shift[i];
        uint64_t at = pieces & sh->from, promoting = at & sh->promotes;
        if (!at) continue;
        at &= ~promoting;
        for (int k = 0; k < sh->nlegs - 1; k++) at = shifted(at, sh->delta[k]) & empty;
        count += clone_cells_in(shifted(at, sh->delta[sh->nlegs - 1]) & targets[sh->mode]);
        /* (a promotion is written, from each piece: few pieces stand where they promote) */
        for (; promoting; promoting &= promoting - 1) {
            Cell from = (Cell)__builtin_ctzll(promoting);
            if (sh->nlegs > 1) {
                if (!legs_atom(pos, &pp->atoms[sh->atom], out, owner, from, &count)) return false;
                continue;
            }
            Cell to = (Cell)(from + sh->delta[0]);
            if (((targets[sh->mode] >> to) & 1) && !vm_emit_atom(pos, out, from, to, owner, NULL, 0, 0, sh->promo))
                return false;
        }
    }
    if (b->nslides) {
        for (uint64_t bits = pieces; bits; bits &= bits - 1) {
            const uint64_t *set = &b->cells[(size_t)__builtin_ctzll(bits) * (size_t)b->stride];
            count += clone_cells_in(slide_targets(b, set, empty, enemy));
        }
    }
    *n += count;
    if (!b->walks || pos->ep_victim == NO_CELL) return true;
    for (int a = 0; a < pp->natoms; a++) {
        const FastAtom *fa = &pp->atoms[a];
        if (fa->kind != FAST_EN_PASSANT) continue;
        for (uint64_t bits = pieces; bits; bits &= bits - 1) {
            Cell from = (Cell)__builtin_ctzll(bits);
            if ((!fa->from_zone || zone_has(&pos->v->zones[fa->from_zone - 1], owner, from)) &&
                !en_passant_atom(pos, fa, out, owner, from))
                return false;
        }
    }
    return true;
}

/* count_type_bits for each type of the owner's pieces on the cells of mine whose paths shift
 * (PieceProgram.bits with shifts), one call for them all; *together gets their cells. */
POPCNT_CLONES static bool count_owner_bits(Position *pos, int owner, uint64_t mine, uint64_t empty, uint64_t enemy,
                                           MoveList *out, int *n, uint64_t *together) {
    const Variant *v = pos->v;
    for (int t = 0; t < v->ntypes && mine; t++) {
        uint64_t pieces = mine & pos->type_occ[t][0];
        if (!pieces) continue;
        const PieceProgram *pp = &v->types[t].per_owner[owner];
        if (!pp->bits || !pp->bits->shifts) continue;
        mine &= ~pieces;
        *together |= pieces;
        if (!count_type_bits(pos, pp, owner, pieces, empty, enemy, out, n)) return false;
    }
    return true;
}

/* walk_atoms for a piece with privileged atoms, out of the usual paths' line. */
__attribute__((noinline)) static bool walk_privileged_atoms(GenContext *ctx, Position *pos, const PieceProgram *pp,
                                                            int owner, Cell from, MoveList *out, int *carried) {
    return walk_atoms(ctx, pos, pp, owner, from, out, carried, true);
}

static bool gen_atoms(GenContext *ctx, Position *pos, const PieceProgram *pp, int owner, Cell from, MoveList *out) {
    if (unlikely(pp->privileged_atoms)) return walk_privileged_atoms(ctx, pos, pp, owner, from, out, NULL);
    return walk_atoms(ctx, pos, pp, owner, from, out, NULL, false);
}

/* gen_atoms for counting, for a piece without privileged atoms (variant.c: find_single_paths
 * leaves such a piece may_duplicate, so it never comes here): the moves that only carry the
 * piece are added to *carried. */
static bool count_atoms(Position *pos, const PieceProgram *pp, int owner, Cell from, MoveList *out, int *carried) {
    return walk_atoms(NULL, pos, pp, owner, from, out, carried, false);
}

/* Does capture guard g hold for the piece on from, with the empty cells and the mover's
 * enemies as sets? */
static inline bool capture_guard_holds(const Variant *v, const CaptureGuard *g, Cell from, const uint64_t *empty,
                                       const uint64_t *enemy) {
    Cell c = variant_step(v, from, g->dir);
    while (g->rides && c != NO_CELL && bits_has(empty, c)) c = variant_step(v, c, g->dir);
    if (c == NO_CELL || !bits_has(enemy, c)) return false;
    if (!g->beyond) return true;
    Cell beyond = variant_step(v, c, g->dir);
    return beyond != NO_CELL && bits_has(empty, beyond);
}

/* Could the rest program emit a move for the piece on `from`? Not when every branch requires
 * it on another cell or a castling right not held (PieceProgram.rest_guards). */
static inline bool rest_may_emit(const Position *pos, const PieceProgram *pp, Cell from, int owner) {
    if (pp->ncapture_guards) {
        const Variant *v = pos->v;
        for (int i = 0; i < pp->ncapture_guards; i++) {
            const CaptureGuard *g = &pp->capture_guards[i];
            Cell c = variant_step(v, from, g->dir);
            while (g->rides && c != NO_CELL && !pos->cell[c]) c = variant_step(v, c, g->dir);
            if (c == NO_CELL || !pos->cell[c] || !board_hostile(pos, PIECE_OWNER(pos->cell[c]), owner)) continue;
            Cell beyond = g->beyond ? variant_step(v, c, g->dir) : c;
            if (beyond != NO_CELL && (!g->beyond || !pos->cell[beyond])) return true;
        }
        return false;
    }
    if (!pp->nrest_guards) return true;
    for (int i = 0; i < pp->nrest_guards; i++)
        if (pp->rest_guards[i].at == from && (pos->rights & pp->rest_guards[i].rights) == pp->rest_guards[i].rights)
            return true;
    return false;
}

/* The moves of a rest program run in C (Program.plan), with what the runs for the owner's pieces
 * share (which counts moves where ctx asks, GenContext.count_seen). */
static inline bool gen_planned(GenContext *ctx, Position *pos, const PieceProgram *pp, int owner, Cell from,
                               MoveList *out, VmFault *fault) {
    /* (moves merged as duplicates are written to be merged) */
    return vm_run_plan(&pp->rest, pos, from, owner, out, pp->may_duplicate ? NULL : ctx->plan_share, fault);
}

/* The rest program in the VM (or as planned), after the piece's line moves (a piece with line
 * moves has a rest, if only its HALT, and runs it here). Out of line, as the VM's call it
 * replaces. */
__attribute__((noinline)) static bool gen_rest_vm(GenContext *ctx, Position *pos, const PieceProgram *pp, int owner,
                                                  Cell from, MoveList *out, VmFault *fault) {
    if (pp->nlines && !gen_lines(pos, pp, owner, from, out)) return fault_full(fault);
    /* (a HALT alone: nothing to run) */
    if (pp->rest.count == 1 || !rest_may_emit(pos, pp, from, owner)) return true;
    if (pp->rest.plan) return gen_planned(ctx, pos, pp, owner, from, out, fault);
    return vm_run(ctx, &pp->rest, pos, from, owner, out, fault);
}

/* A rest program run in C: at once when nothing comes before it, else as gen_rest_vm does.
 * (Apart, so that a plan's run is called with little around it.) */
__attribute__((noinline)) static bool gen_rest_planned(GenContext *ctx, Position *pos, const PieceProgram *pp,
                                                       int owner, Cell from, MoveList *out, VmFault *fault) {
    if (!pp->nlines && !pp->nrest_guards) return gen_planned(ctx, pos, pp, owner, from, out, fault);
    return gen_rest_vm(ctx, pos, pp, owner, from, out, fault);
}

/* The moves of a piece's rest program: in C when its atoms allow, else in the VM. */
static inline bool gen_rest(GenContext *ctx, Position *pos, const PieceProgram *pp, int owner, Cell from, MoveList *out,
                            VmFault *fault) {
    if (pp->rest_in_c) return gen_atoms(ctx, pos, pp, owner, from, out) || fault_full(fault);
    if (pp->atoms_then_vm) {
        if (!gen_atoms(ctx, pos, pp, owner, from, out)) return fault_full(fault);
        return !rest_may_emit(pos, pp, from, owner) ||
            vm_run_at(ctx, &pp->rest, pp->rest_vm_entry, pos, from, owner, out, fault);
    }
    return pp->rest.plan ? gen_rest_planned(ctx, pos, pp, owner, from, out, fault)
                         : gen_rest_vm(ctx, pos, pp, owner, from, out, fault);
}

/* The cell of set x nearest the start of a line whose cells come in increasing order (up) or
 * decreasing order (0: none). */
static inline uint64_t nearest_cell(uint64_t x, bool up) {
    return up ? x & (0 - x) : x ? 1ULL << (63 - __builtin_clzll(x)) : 0;
}

/* The cells of a line before cell `first` of it (all of them when first is 0). */
static inline uint64_t cells_before(uint64_t line, uint64_t first, bool up) {
    if (!first) return line;
    return up ? line & (first - 1) : line & ~((first << 1) - 1);
}

/* count_lines by cell sets (PieceProgram.line_bits; empty and enemy: the board's cells, a board
 * of one word). */
static inline int count_line_bits(const Position *pos, const PieceProgram *pp, Cell from, uint64_t empty,
                                  uint64_t enemy) {
    const LineBits *lb = pp->line_bits;
    const uint64_t *set = &lb->cells[(size_t)from * (size_t)pp->nlines * 2];
    uint64_t occ = ~empty;
    int n = 0;
    for (int i = 0; i < pp->nlines; i++, set += 2) {
        uint64_t line = set[1];
        if (!line || (set[0] & occ)) continue;
        const LineMove *l = &pp->lines[i];
        uint64_t prey = 0;
        if (l->mode != RAY_MOVE) {
            prey = enemy;
            if (!lb->any_victim[i]) {
                uint64_t kinds = 0;
                for (uint32_t t = l->victims & ((1u << (pos->v->ntypes - 1)) * 2 - 1); t; t &= t - 1)
                    kinds |= pos->type_occ[__builtin_ctz(t)][0];
                prey &= kinds;
            }
        }
        if (lb->kind[i] == LINE_LEAP) {
            n += ((line & ((l->mode != RAY_CAPTURE ? empty : 0) | prey)) != 0);
            continue;
        }
        bool up = lb->up[i];
        uint64_t first = nearest_cell(line & occ, up);
        if (lb->kind[i] == LINE_HOP) {
            /* (the first piece met is the screen: the move goes on past it) */
            if (!first || (!lb->any_screen[i] && !((l->screens >> PIECE_TYPE(pos->cell[__builtin_ctzll(first)])) & 1)))
                continue;
            line = up ? line & ~((first << 1) - 1) : line & (first - 1);
            first = nearest_cell(line & occ, up);
        }
        if (l->mode != RAY_CAPTURE) n += cells_in(cells_before(line, first, up));
        n += (first & prey) != 0;
    }
    return n;
}

/* gen_rest for a free piece whose moves that only carry it need no test (count_by_pins): its
 * line moves, which only carry it, are added to *n, not written (by cell sets where sets
 * holds the empty cells and the enemy's, a board of one word). */
static inline bool count_rest(GenContext *ctx, Position *pos, const PieceProgram *pp, int owner, Cell from,
                              MoveList *out, int *n, const uint64_t *sets) {
    if (!pp->nlines || pp->rest_in_c || pp->atoms_then_vm) return gen_rest(ctx, pos, pp, owner, from, out, NULL);
    *n += sets && pp->line_bits ? count_line_bits(pos, pp, from, sets[0], sets[1]) : count_lines(pos, pp, owner, from);
    /* (the rest of gen_rest_vm) */
    if (pp->rest.count == 1 || !rest_may_emit(pos, pp, from, owner)) return true;
    if (pp->rest.plan) return gen_planned(ctx, pos, pp, owner, from, out, NULL);
    return vm_run(ctx, &pp->rest, pos, from, owner, out, NULL);
}

/* Moves of the piece of `owner` on `from`, known free to move. */
static inline bool gen_free_piece(GenContext *ctx, Position *pos, int owner, Cell from, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    const PieceType *pt = &v->types[PIECE_TYPE(pos->cell[from])];
    const PieceProgram *pp = &pt->per_owner[owner];
    int start = out->count;
    if (ctx->fast) {
        if (pp->ngen && !gen_rays(pos, pp, owner, from, out)) return fault_full(fault);
        if (pp->rest.count && !gen_rest(ctx, pos, pp, owner, from, out, fault)) return false;
    } else {
        if (!vm_run(ctx, &pp->prog, pos, from, owner, out, fault)) return false;
    }
    if (pp->may_duplicate) merge_duplicates(out, start);
    return true;
}

/* Moves of the piece of `owner` on `from`. */
static bool gen_piece(GenContext *ctx, Position *pos, int owner, Cell from, MoveList *out, VmFault *fault) {
    return !mobility_can_move(pos, from) || gen_free_piece(ctx, pos, owner, from, out, fault);
}

/* Moves of every piece of `owner` (the mover's own pieces). */
static bool gen_owner(GenContext *ctx, Position *pos, int owner, MoveList *out, VmFault *fault) {
    /* (the freezers found once: a piece next to none is free) */
    uint64_t freezers[CELL_WORDS];
    const bool freezing = pos->v->freezer_mask != 0;
    if (freezing) mobility_freezers(pos, owner, freezers);
    PlanShare share;
    vm_share_init(&share, ctx->count_seen, &ctx->carried);
    ctx->plan_share = &share;
    bool ok = true;
    for (int w = 0; ok && w < pos->v->cell_words; w++) {
        uint64_t bits = pos->occ[owner][w];
        while (ok && bits) {
            Cell from = (Cell)(w * 64 + __builtin_ctzll(bits));
            bits &= bits - 1;
            ok = freezing && mobility_by_freezers(pos, from, freezers)
                ? gen_piece(ctx, pos, owner, from, out, fault)
                : gen_free_piece(ctx, pos, owner, from, out, fault);
        }
    }
    ctx->plan_share = NULL;
    return ok;
}

/* The copy of a steered move (from -> to) by the mover's influencing piece on `by`: the same
 * displacement on by's board, every cell strictly between on a straight line empty (a move off
 * the lines jumps), the destination empty. NO_CELL when it cannot be made. */
static Cell copy_target(const Position *pos, Cell from, Cell to, Cell by) {
    const Variant *v = pos->v;
    const CellInfo *f = &v->cells[from], *t = &v->cells[to], *b = &v->cells[by];
    const Board *bd = &v->boards[b->board];
    int dx = t->x - f->x, dy = t->y - f->y;
    int x = b->x + dx, y = b->y + dy;
    if (x < 0 || y < 0 || x >= bd->width || y >= bd->height) return NO_CELL;
    Cell dest = bd->at[y][x];
    if (dest == NO_CELL || pos->cell[dest]) return NO_CELL;
    int adx = dx < 0 ? -dx : dx, ady = dy < 0 ? -dy : dy;
    if (dx == 0 || dy == 0 || adx == ady) {
        int n = adx > ady ? adx : ady, sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
        for (int k = 1; k < n; k++) {
            Cell c = bd->at[b->y + k * sy][b->x + k * sx];
            if (c == NO_CELL || pos->cell[c]) return NO_CELL;
        }
    }
    return dest;
}

/* Adds, for each move of the steered piece on `from` in out[start..], the same move with the
 * copy made by the mover's influencing piece (the one that gives it the influence). */
static void add_copies(const Position *pos, int mover, Cell from, MoveList *out, int start) {
    Cell by = mobility_influencer(pos, mover, from);
    if (by == NO_CELL) return;
    int end = out->count;
    for (int k = start; k < end && out->count < MAX_MOVES; k++) {
        const Move *m = &out->moves[k];
        if (m->from != from || m->nfx >= MAX_EFFECTS) continue;
        Cell dest = copy_target(pos, m->from, m->to, by);
        if (dest == NO_CELL) continue;
        Move *c = &out->moves[out->count++];
        *c = *m;
        c->fx[c->nfx++] = (Effect){.kind = FX_MOVE, .a = by, .b = dest};
        c->flags |= MOVE_COPY;
    }
}

/* Moves of the steered armies' pieces that the mover has the influence to move. */
static bool gen_steered(GenContext *ctx, Position *pos, int mover, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    for (int o = v->nplayers; o < v->nowners; o++) {
        if (!((v->steered >> o) & 1)) continue;
        for (int w = 0; w < v->cell_words; w++) {
            uint64_t bits = pos->occ[o][w];
            while (bits) {
                Cell from = (Cell)(w * 64 + __builtin_ctzll(bits));
                bits &= bits - 1;
                if (!mobility_may_steer(pos, mover, from)) continue;
                int start = out->count;
                if (!gen_piece(ctx, pos, o, from, out, fault)) return false;
                if (v->steer_copy) add_copies(pos, mover, from, out, start);
                if (out->count >= MAX_MOVES) return fault_full(fault);
            }
        }
    }
    return true;
}

/* Explosions (`explodes`): a capture by such a piece removes the capturer instead of landing
 * it, and with it every piece on the eight cells around the destination that is not
 * `blast-proof`. A move whose explosion would take one of the mover's own royal pieces is
 * dropped here: it is never legal. */
static void add_blasts(const Position *pos, MoveList *out) {
    const Variant *v = pos->v;
    int n = 0;
    for (int i = 0; i < out->count; i++) {
        Move *m = &out->moves[i];
        Piece capturer = pos->cell[m->from];
        if ((m->flags & MOVE_CAPTURE) && m->from != m->to && capturer &&
            ((v->blast_mask >> PIECE_TYPE(capturer)) & 1)) {
            Move b = *m;
            if (board_explode(pos, &b) && v->forbid_royal_capture) continue;
            *m = b;
        }
        if (n != i) out->moves[n] = *m;
        n++;
    }
    out->count = n;
}

/* `transfer`: the cell of another board that c's piece goes on to (the first of the links
 * that leaves c's board), or NO_CELL. */
static Cell transfer_cell(const Variant *v, Cell c) {
    for (int k = 0; k < v->ntransfer; k++) {
        Cell t = variant_step(v, c, v->transfer_dirs[k]);
        if (t != NO_CELL) return t;
    }
    return NO_CELL;
}

/* Does m lift a piece from c? */
static bool lifts_from(const Move *m, Cell c) {
    for (int k = 0; k < m->nfx; k++)
        if (m->fx[k].kind == FX_MOVE && m->fx[k].a == c) return true;
    return false;
}

/* m with each piece it carries within a board carried on to its transfer cell, which must be
 * empty (false: no such move). What stood where the piece arrived on its own board is taken
 * there; its change of type and the en-passant cells it marks go along. */
static bool transfer_move(const Position *pos, Move *m) {
    const Variant *v = pos->v;
    Move t = *m;
    t.nfx = 0;
    Cell on[MAX_EFFECTS], to[MAX_EFFECTS]; /* where carried pieces arrived, and went on to */
    int nto = 0;
    for (int k = 0; k < m->nfx; k++) {
        const Effect *e = &m->fx[k];
        Cell d = e->kind == FX_MOVE && v->cells[e->a].board == v->cells[e->b].board ? transfer_cell(v, e->b) : NO_CELL;
        if (d == NO_CELL) {
            if (t.nfx >= MAX_EFFECTS) return false;
            t.fx[t.nfx++] = *e;
            continue;
        }
        if (pos->cell[d]) return false;
        for (int i = 0; i < nto; i++)
            if (to[i] == d) return false;
        if (t.nfx + 2 > MAX_EFFECTS) return false;
        if (pos->cell[e->b] && !lifts_from(m, e->b)) t.fx[t.nfx++] = (Effect){.kind = FX_REMOVE, .a = e->b};
        t.fx[t.nfx++] = (Effect){.kind = FX_MOVE, .a = e->a, .b = d};
        on[nto] = e->b;
        to[nto++] = d;
    }
    for (int k = 0; k < t.nfx; k++) {
        Effect *e = &t.fx[k];
        if (e->kind == FX_CHANGE || e->kind == FX_EP) {
            Cell d = NO_CELL;
            for (int i = 0; i < nto && d == NO_CELL; i++)
                if (on[i] == e->a) d = to[i];
            if (d == NO_CELL && e->kind == FX_EP) d = transfer_cell(v, e->a);
            if (d != NO_CELL) e->a = d;
        }
    }
    for (int i = 0; i < nto; i++)
        if (on[i] == t.to) {
            t.to = to[i];
            break;
        }
    *m = t;
    return true;
}

/* `transfer`: every move carried on (those that cannot be are dropped). */
static void add_transfers(const Position *pos, MoveList *out) {
    int n = 0;
    for (int i = 0; i < out->count; i++) {
        Move *m = &out->moves[i];
        if (!transfer_move(pos, m)) continue;
        if (n != i) out->moves[n] = *m;
        n++;
    }
    out->count = n;
}

/* Does m land on (and so capture) an enemy piece? */
static Cell landing_capture(const Position *pos, const Move *m) {
    if (!(m->flags & MOVE_CAPTURE) || m->kind != 0 || m->from == m->to) return NO_CELL;
    Piece p = pos->cell[m->to], q = pos->cell[m->from];
    if (!p || !q || !board_hostile(pos, PIECE_OWNER(p), PIECE_OWNER(q))) return NO_CELL;
    return m->to;
}

int movegen_attackers(const Position *pos, const MoveList *list, int count, Cell target) {
    /* distinct origins of normal captures landing on target */
    Cell seen[MAX_MOVES];
    int n = 0;
    for (int i = 0; i < count; i++) {
        const Move *m = &list->moves[i];
        if (landing_capture(pos, m) != target) continue;
        bool dup = false;
        for (int k = 0; k < n && !dup; k++) dup = seen[k] == m->from;
        if (!dup) seen[n++] = m->from;
    }
    return n;
}

/* The extra-capture rules: copies of the normal captures onto well-attacked enemies, or one
 * remote removal of each such enemy. Attack counts come from the moves generated so far. */
static bool add_extra_captures(const Position *pos, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    int base = out->count;
    uint8_t count[MAX_CELLS];
    bool counted[MAX_CELLS] = {false};
    for (int i = 0; i < base; i++) {
        Cell t = landing_capture(pos, &out->moves[i]);
        if (t == NO_CELL || counted[t]) continue;
        counted[t] = true;
        count[t] = (uint8_t)movegen_attackers(pos, out, base, t);
    }
    for (int r = 0; r < v->nextra; r++) {
        const ExtraCapture *x = &v->extra[r];
        bool done[MAX_CELLS] = {false};
        for (int i = 0; i < base; i++) {
            Cell t = landing_capture(pos, &out->moves[i]);
            if (t == NO_CELL || count[t] < x->attackers || (x->remote && done[t])) continue;
            if (out->count >= MAX_MOVES) return fault_full(fault);
            Move *m = &out->moves[out->count++];
            if (!x->remote) {
                *m = out->moves[i];
            } else {
                done[t] = true;
                memset(m, 0, sizeof *m);
                m->from = m->to = t;
                m->promo = NO_TYPE;
                m->flags = MOVE_CAPTURE;
                m->nfx = 1;
                m->fx[0] = (Effect){.kind = FX_REMOVE, .a = t};
            }
            m->kind = x->kind;
        }
    }
    return true;
}

uint32_t movegen_phase_kinds(const Position *pos, bool *may_end) {
    const Variant *v = pos->v;
    uint32_t kinds = 0;
    int n = pos->phase_moves;
    for (int p = pos->phase; p < v->nphases; p++, n = 0) {
        const PhaseDef *ph = &v->phases[p];
        if (!ph->max || n < ph->max) kinds |= ph->kinds;
        if (n < ph->min) {
            *may_end = false;
            return kinds;
        }
    }
    *may_end = true;
    return kinds;
}

/* A phased turn: keep the moves of the kinds the current phase (or a later one it may skip
 * to) allows; add the pass that ends the turn when every phase left may be skipped. */
static bool filter_phase(const Position *pos, MoveList *out, VmFault *fault) {
    bool may_end;
    uint32_t kinds = movegen_phase_kinds(pos, &may_end);
    int n = 0;
    for (int i = 0; i < out->count; i++)
        if ((kinds >> out->moves[i].kind) & 1) {
            if (n != i) out->moves[n] = out->moves[i];
            n++;
        }
    out->count = n;
    if (may_end) {
        if (out->count >= MAX_MOVES) return fault_full(fault);
        Move *m = &out->moves[out->count++];
        memset(m, 0, sizeof *m);
        m->promo = NO_TYPE;
        m->flags = MOVE_PASS;
    }
    return true;
}

/* Slots of a pile: every player's, or the one. */
static inline int pile_slots(const Variant *v, const PileDef *p) { return p->per_player ? v->nplayers : 1; }

/* The draw rules: the top card of any non-empty source pile to the mover's own. */
static bool add_draws(const Position *pos, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    int mover = board_mover(pos);
    for (int r = 0; r < v->ndraws; r++) {
        const CardRule *cr = &v->draws[r];
        const PileDef *from = &v->piles[cr->from], *to = &v->piles[cr->to];
        for (int k = 0; k < pile_slots(v, from); k++) {
            int slot = from->slot + k, n = pos->pile_len[slot];
            if (n < cr->count || (cr->own && slot != board_pile_slot(from, mover))) continue;
            /* from a stack its top cards; from a sorted pile any card (one move per value) */
            for (int i = n - 1; i >= (from->sorted ? 0 : n - 1); i--) {
                if (from->sorted && i + 1 < n && pos->piles[slot][i] == pos->piles[slot][i + 1]) continue;
                if (out->count >= MAX_MOVES) return fault_full(fault);
                Move *m = &out->moves[out->count++];
                memset(m, 0, sizeof *m);
                m->promo = NO_TYPE;
                m->flags = MOVE_CARDS;
                m->kind = cr->kind;
                for (int c = 0; c < cr->count && c < MAX_EFFECTS; c++)
                    m->fx[m->nfx++] = (Effect){.kind = FX_CARD,
                                               .a = (Cell)slot,
                                               .b = (Cell)board_pile_slot(to, mover),
                                               .piece = pos->piles[slot][from->sorted ? i : n - 1 - c]};
            }
        }
    }
    return true;
}

/* A minefield's set-up: the mover marks one of its tiles as a mine, in ascending cell order
 * (so each set of mines is reached one way), until it has the game's number of mines. */
static bool add_mine_marks(const Position *pos, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    int mover = board_mover(pos), marked = 0, last = -1;
    for (int c = 0; c < v->ncells; c++)
        if (pos->tiles[c] && TILE_OWNER(pos->tiles[c]) == mover && (pos->tiles[c] & TILE_MINE)) marked++, last = c;
    if (marked >= v->mines) return true;
    int left = 0; /* own tiles past the last mine: the rest must fit after this one */
    for (int c = last + 1; c < v->ncells; c++) left += pos->tiles[c] && TILE_OWNER(pos->tiles[c]) == mover;
    for (int c = last + 1; c < v->ncells; c++) {
        if (!pos->tiles[c] || TILE_OWNER(pos->tiles[c]) != mover) continue;
        if (--left < v->mines - marked - 1) break;
        if (out->count >= MAX_MOVES) return fault_full(fault);
        Move *m = &out->moves[out->count++];
        memset(m, 0, sizeof *m);
        m->from = m->to = (Cell)c;
        m->promo = NO_TYPE;
        m->flags = MOVE_TILE;
        m->kind = (uint8_t)v->mine_kind;
        m->nfx = 1;
        m->fx[0] = (Effect){.kind = FX_MARK, .a = (Cell)c};
    }
    return true;
}

/* A set-up step: only its kind of move. */
static void filter_prelude(const Position *pos, MoveList *out) {
    int kind = pos->v->prelude[pos->prelude].kind, n = 0;
    for (int i = 0; i < out->count; i++)
        if (out->moves[i].kind == kind) out->moves[n++] = out->moves[i];
    out->count = n;
}

/* The pay rules: a move of a paid kind by a piece of worth W stays only when the mover's
 * cards add up to W, and then owes W (the next move pays). */
static void require_payment(const Position *pos, MoveList *out) {
    const Variant *v = pos->v;
    int mover = board_mover(pos);
    int n = 0;
    for (int i = 0; i < out->count; i++) {
        Move *m = &out->moves[i];
        bool keep = true;
        for (int r = 0; r < v->npays && !(m->flags & (MOVE_PASS | MOVE_CARDS)); r++) {
            if (m->kind != v->pays[r].kind || !pos->cell[m->from]) continue;
            int worth = v->types[PIECE_TYPE(pos->cell[m->from])].worth;
            if (worth <= 0) continue;
            if (board_pile_sum(pos, board_pile_slot(&v->piles[v->pays[r].from], mover)) < worth ||
                m->nfx >= MAX_EFFECTS) {
                keep = false;
                break;
            }
            m->fx[m->nfx++] = (Effect){.kind = FX_DEBT, .piece = (Piece)(worth > 255 ? 255 : worth)};
            break;
        }
        if (keep) {
            if (n != i) out->moves[n] = *m;
            n++;
        }
    }
    out->count = n;
}

/* While a payment is owed, the only moves are payments: every distinct choice of the mover's
 * cards adding up to the debt or more, put onto any one target pile, highest card first (so
 * the lowest ends on top). */
static bool gen_payments(const Position *pos, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    int mover = board_mover(pos);
    out->count = 0;
    for (int r = 0; r < v->npays; r++) {
        const CardRule *cr = &v->pays[r];
        int hand = board_pile_slot(&v->piles[cr->from], mover);
        const PileDef *to = &v->piles[cr->to];
        /* the hand as distinct values (descending) with counts */
        int values[MAX_PILE_CARDS], counts[MAX_PILE_CARDS], nv = 0;
        for (int i = pos->pile_len[hand] - 1; i >= 0; i--) {
            int c = pos->piles[hand][i];
            if (nv && values[nv - 1] == c)
                counts[nv - 1]++;
            else
                values[nv] = c, counts[nv++] = 1;
        }
        int take[MAX_PILE_CARDS] = {0};
        for (;;) {
            /* next choice: count up like an odometer */
            int d = 0;
            while (d < nv && take[d] == counts[d]) take[d++] = 0;
            if (d == nv) break;
            take[d]++;
            int sum = 0, ncards = 0;
            for (int i = 0; i < nv; i++) sum += take[i] * values[i], ncards += take[i];
            if (sum < pos->debt || ncards > MAX_EFFECTS - 1) continue;
            for (int k = 0; k < pile_slots(v, to); k++) {
                if (out->count >= MAX_MOVES) return fault_full(fault);
                Move *m = &out->moves[out->count++];
                memset(m, 0, sizeof *m);
                m->promo = NO_TYPE;
                m->flags = MOVE_CARDS;
                for (int i = 0; i < nv; i++)
                    for (int c = 0; c < take[i]; c++)
                        m->fx[m->nfx++] = (Effect){
                            .kind = FX_CARD, .a = (Cell)hand, .b = (Cell)(to->slot + k), .piece = (Piece)values[i]};
                m->fx[m->nfx++] = (Effect){.kind = FX_DEBT, .piece = 0};
            }
        }
    }
    return true;
}

/* The files holding a piece of type t of owner: a column bit per board. */
static void files_held(const Position *pos, int owner, int t, uint32_t *files) {
    memset(files, 0, MAX_BOARDS * sizeof *files);
    for (int w = 0; w < pos->v->cell_words; w++)
        for (uint64_t b = pos->type_occ[t][w] & pos->occ[owner][w]; b; b &= b - 1) {
            const CellInfo *ci = &pos->v->cells[w * 64 + __builtin_ctzll(b)];
            files[ci->board] |= 1u << ci->x;
        }
}

/* Types whose pieces must stand on different square colours (`opposite-colour`): may the
 * mover drop a piece of type t on c? Not a piece of such a type onto a colour where one of
 * them stands; nor any other piece where it leaves too few free colours, with an empty cell
 * the type may be dropped on, for the pieces of the type still in hand. */
static bool colours_allow(const Position *pos, int mover, int t, Cell c, const uint64_t *empty) {
    const Variant *v = pos->v;
    for (int u = 0; u < v->ntypes; u++) {
        if (!((v->colour_apart_mask >> u) & 1)) continue;
        bool taken[2] = {false, false}, room[2] = {false, false};
        for (int w = 0; w < v->cell_words; w++)
            for (uint64_t b = pos->occ[mover][w] & pos->type_occ[u][w]; b; b &= b - 1)
                taken[v->colour[w * 64 + __builtin_ctzll(b)]] = true;
        if (u == t) {
            if (taken[v->colour[c]]) return false;
            continue;
        }
        for (int w = 0; w < v->cell_words; w++)
            for (uint64_t b = empty[w] & v->types[u].drop_cells[mover][w]; b; b &= b - 1) {
                Cell e = (Cell)(w * 64 + __builtin_ctzll(b));
                if (e != c && e < v->ncells) room[v->colour[e]] = true;
            }
        if ((!taken[0] && room[0]) + (!taken[1] && room[1]) < pos->hand[mover][u]) return false;
    }
    return true;
}

/* Drops: each type in the mover's hand onto every empty cell its drop items allow. */
static bool add_drops(const Position *pos, int mover, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    uint64_t empty[CELL_WORDS];
    for (int w = 0; w < v->cell_words; w++) {
        uint64_t full = 0;
        for (int o = 0; o < v->nowners; o++) full |= pos->occ[o][w];
        empty[w] = ~full;
    }
    for (int t = 0; t < v->ntypes; t++) {
        /* a promoted type's drops put down a piece of its base type from the hand */
        int held = variant_base_type(v, t);
        if (!pos->hand[mover][held] || !v->types[t].droppable) continue;
        uint32_t files[MAX_BOARDS] = {0};
        bool not_doubled = v->types[t].drop_not_doubled;
        if (not_doubled) files_held(pos, mover, t, files);
        for (int w = 0; w < v->cell_words; w++)
            for (uint64_t b = empty[w] & v->types[t].drop_cells[mover][w]; b; b &= b - 1) {
                Cell c = (Cell)(w * 64 + __builtin_ctzll(b));
                if (c >= v->ncells) break;
                if (not_doubled && ((files[v->cells[c].board] >> v->cells[c].x) & 1)) continue;
                if (v->colour_apart_mask && !colours_allow(pos, mover, t, c, empty)) continue;
                if (out->count >= MAX_MOVES) return fault_full(fault);
                Move *m = &out->moves[out->count++];
                m->from = m->to = c;
                m->flags = MOVE_DROP;
                m->promo = NO_TYPE;
                m->castle = 0;
                m->kind = 0;
                m->nfx = 2;
                m->fx[0] = (Effect){.kind = FX_PLACE, .a = c, .piece = PIECE_MAKE(t, mover)};
                m->fx[1] = (Effect){.kind = FX_HAND, .a = (Cell)mover, .piece = (Piece)held};
            }
    }
    return true;
}

/* The moves of the types' drop programs (`drop { }`) for the mover: with hands, of the types it
 * holds. */
static bool gen_drop_programs(GenContext *ctx, Position *pos, int mover, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    for (int t = 0; t < v->ntypes; t++) {
        if (!v->types[t].drops || (v->has_hands && (mover >= v->nplayers || !pos->hand[mover][t]))) continue;
        if (!vm_run(ctx, &v->types[t].drops[mover], pos, NO_CELL, mover, out, fault)) return false;
    }
    return true;
}

/* Gating: each move in out[0..end) that lifts a piece of the mover from one of its gates is
 * also made with a piece of each type in the hand entering that gate (a castle: the king's or
 * the rook's cell, when it is a gate); a type that has drop items only where it may be
 * dropped (no pawn on its first rank). The move must be legal without the piece that enters:
 * entering does not block a check nor stand in for a pinned piece. */
static bool add_gating(GenContext *ctx, Position *pos, int mover, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    if (mover > 1) return true;
    bool holds = false;
    for (int t = 0; t < v->ntypes && !holds; t++) holds = pos->hand[mover][t] > 0;
    if (!holds) return true;
    const uint64_t *gates = pos->gates[mover];
    int end = out->count;
    for (int i = 0; i < end; i++) {
        const Move *m = &out->moves[i];
        if (m->flags & (MOVE_DROP | MOVE_PASS | MOVE_CARDS | MOVE_TILE) || m->nfx + 2 > MAX_EFFECTS) continue;
        Cell cells[2] = {m->from, NO_CELL};
        if (m->castle) cells[1] = v->castles[m->castle - 1].rook_from;
        if (!bits_has(gates, cells[0]) && (cells[1] == NO_CELL || !bits_has(gates, cells[1]))) continue;
        if (movegen_tests_royal(v, m) && !movegen_is_legal(ctx, pos, m)) continue;
        for (int k = 0; k < 2; k++) {
            Cell g = cells[k];
            if (g == NO_CELL || !bits_has(gates, g)) continue;
            for (int t = 0; t < v->ntypes; t++) {
                if (!pos->hand[mover][t] || (v->types[t].droppable && !bits_has(v->types[t].drop_cells[mover], g)))
                    continue;
                if (out->count >= MAX_MOVES) return fault_full(fault);
                Move *n = &out->moves[out->count++];
                *n = out->moves[i];
                n->flags |= MOVE_GATE;
                n->fx[n->nfx++] = (Effect){.kind = FX_PLACE, .a = g, .piece = PIECE_MAKE(t, mover)};
                n->fx[n->nfx++] = (Effect){.kind = FX_HAND, .a = (Cell)mover, .piece = (Piece)t};
            }
        }
    }
    return true;
}

/* `must-drop`: while some drop of the mover is legal, the drops (out[start..]) are its only
 * moves; with none legal, it moves as usual. */
static void keep_drops_if_legal(GenContext *ctx, Position *pos, MoveList *out, int start) {
    bool any = false;
    for (int i = start; i < out->count && !any; i++) any = movegen_is_legal(ctx, pos, &out->moves[i]);
    if (!any) return;
    memmove(&out->moves[0], &out->moves[start], (size_t)(out->count - start) * sizeof(Move));
    out->count -= start;
}

/* A `must-drop` type in the mover's hand: the drops (out[start..]) of such types are its only
 * drops, and its only moves when one is legal. */
static void keep_required_drops(GenContext *ctx, Position *pos, int mover, MoveList *out, int start) {
    const Variant *v = pos->v;
    uint32_t held = 0;
    for (int t = 0; t < v->ntypes; t++)
        if (((v->must_drop_types >> t) & 1) && pos->hand[mover][t]) held |= 1u << t;
    if (!held) return;
    int n = start;
    bool any = false;
    for (int i = start; i < out->count; i++) {
        int taken = -1; /* (the type taken from the hand) */
        for (int k = 0; k < out->moves[i].nfx; k++)
            if (out->moves[i].fx[k].kind == FX_HAND) taken = out->moves[i].fx[k].piece;
        if (taken < 0 || !((held >> taken) & 1)) continue;
        out->moves[n] = out->moves[i];
        any = any || movegen_is_legal(ctx, pos, &out->moves[n]);
        n++;
    }
    out->count = n;
    if (any) keep_drops_if_legal(ctx, pos, out, start);
}

/* Does m take a royal piece of a player hostile to the mover? */
static bool takes_royal(const Position *pos, const Move *m, int mover) {
    const Variant *v = pos->v;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        Cell c = e->kind == FX_MOVE ? e->b : e->kind == FX_REMOVE ? e->a : NO_CELL;
        if (c == NO_CELL || !pos->cell[c]) continue;
        Piece p = pos->cell[c];
        if (variant_royal(v, PIECE_OWNER(p), PIECE_TYPE(p)) && board_hostile(pos, PIECE_OWNER(p), mover)) return true;
    }
    return false;
}

/* Could `mover` capture a royal piece of another player now? (With two players; with more,
 * an attack by a third player counts too.) */
static bool royal_open_now(GenContext *ctx, Position *pos, int mover) {
    const Variant *v = pos->v;
    for (int o = 0; o < v->nowners; o++) {
        if (!board_hostile(pos, o, mover)) continue;
        for (int t = 0; t < v->ntypes; t++) {
            if (!variant_royal(v, o, t)) continue;
            for (int w = 0; w < v->cell_words; w++)
                for (uint64_t b = pos->occ[o][w] & pos->type_occ[t][w]; b; b &= b - 1) {
                    Cell c = (Cell)(w * 64 + __builtin_ctzll(b));
                    if (attack_is_attacked(ctx, pos, c, o, pos->cell[c])) return true;
                }
        }
    }
    return false;
}

/* Turns of phases: a royal piece of another player may be taken only when it was open to
 * capture as the turn began (left exposed), never after the turn's own moves checked it. */
static void filter_royal_captures(GenContext *ctx, Position *pos, MoveList *out, int mover) {
    if (pos->royal_open < 0) pos->royal_open = (int8_t)royal_open_now(ctx, pos, mover);
    if (pos->royal_open) return;
    int n = 0;
    for (int i = 0; i < out->count; i++)
        if (!takes_royal(pos, &out->moves[i], mover)) {
            if (n != i) out->moves[n] = out->moves[i];
            n++;
        }
    out->count = n;
}

/* Does m check a player other than the mover? (The test is made as for legality.) */
/* The cell of owner's one royal piece; NO_CELL when it has none or several. */
static inline Cell lone_royal(const Position *pos, int owner) {
    const Variant *v = pos->v;
    int royals = 0;
    Cell royal = NO_CELL;
    for (uint32_t types = v->royal_of[owner]; types; types &= types - 1)
        for (int w = 0; w < v->cell_words; w++) {
            uint64_t b = pos->type_occ[__builtin_ctz(types)][w] & pos->occ[owner][w];
            if (!b) continue;
            royals += (b & (b - 1)) ? 2 : 1; /* (one or more) */
            royal = (Cell)(w * 64 + __builtin_ctzll(b));
        }
    return royals == 1 ? royal : NO_CELL;
}

/* The piece a move that only carries one piece of mover's from -> to (changing it there or
 * not, marking en-passant cells or not) leaves on `to`; 0 for any other move. */
static inline Piece carried_landing(const Position *pos, const Move *m, int mover) {
    if (m->from == m->to) return 0;
    Piece p = pos->cell[m->from];
    if (!p || PIECE_OWNER(p) != mover) return 0;
    Piece landing = p;
    int carried = 0;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if (e->kind == FX_MOVE && e->a == m->from && e->b == m->to)
            carried++;
        else if (e->kind == FX_CHANGE && e->a == m->to && PIECE_OWNER(e->piece) == mover)
            landing = e->piece;
        else if (e->kind != FX_EP)
            return 0;
    }
    return carried == 1 ? landing : 0;
}

/* Whether the moves of one position give check, readied once for them (gives_check): the
 * cells from which each type would check the enemy's one royal piece (attack_check_cells). */
typedef struct CheckLook {
    int ready; /* 0 not readied yet, 1 ready, -1 not to be had */
    Cell royal;
    CheckCells cells;
} CheckLook;

/* gives_check, in a game whose attacks are all attack lines (pin_legal without patterns or
 * privileges), for a move that only carries one piece (carried_landing), the enemy having one
 * royal piece: that piece is tested on the lines with only the move's two cells and the moving
 * piece's occupancy written, no make; or, where look is given and the enemy is not in check,
 * by look's cells, unless the piece leaves a cell that could open a line. 1 or 0; -1 when the
 * move or the game is not of that kind. */
static bool check_written(const Position *cpos, const Move *m, int mover, Piece landing, Cell royal);

static inline int check_by_lines(const Position *cpos, const Move *m, int mover, CheckLook *look) {
    const Variant *v = cpos->v;
    if (!v->pin_legal || v->pattern_types || v->privilege_types) return -1;
    Piece landing = carried_landing(cpos, m, mover);
    if (!landing) return -1;
    int enemy = 1 - mover;
    if (look && !look->ready) {
        look->royal = lone_royal(cpos, enemy);
        look->ready = look->royal != NO_CELL && v->cell_words == 1 &&
                attack_check_cells(&look->cells, cpos, look->royal, mover, PIECE_TYPE(cpos->cell[look->royal]))
            ? 1
            : -1;
    }
    Cell royal = look && look->ready > 0 ? look->royal : lone_royal(cpos, enemy);
    if (royal == NO_CELL || royal == m->to) return -1;
    if (look && look->ready > 0 && !((look->cells.moves >> m->from) & 1) &&
        (!cpos->cell[m->to] || PIECE_OWNER(cpos->cell[m->to]) != mover))
        return (look->cells.to[PIECE_TYPE(landing)] >> m->to) & 1;
    return check_written(cpos, m, mover, landing, royal);
}

/* check_by_lines' test with the move written on the cells and occupancy sets, and put back:
 * the position is as it was when this returns. */
static bool check_written(const Position *cpos, const Move *m, int mover, Piece landing, Cell royal) {
    int enemy = 1 - mover;
    Position *pos = (Position *)cpos;
    Piece p = pos->cell[m->from], taken = pos->cell[m->to];
    uint64_t *occ = pos->occ[mover];
    uint64_t from_bit = 1ULL << (m->from & 63), to_bit = 1ULL << (m->to & 63);
    /* (the lines read the attacker's occupancy and the types' cells besides the cells) */
    uint64_t *type_from = &pos->type_occ[PIECE_TYPE(p)][m->from >> 6],
             *type_to = &pos->type_occ[PIECE_TYPE(landing)][m->to >> 6];
    uint64_t was_from = *type_from, was_to = *type_to;
    pos->cell[m->from] = 0;
    pos->cell[m->to] = landing;
    occ[m->from >> 6] &= ~from_bit;
    occ[m->to >> 6] |= to_bit;
    *type_from &= ~from_bit;
    *type_to |= to_bit;
    bool hit = attack_lines_hit(pos, royal, enemy, PIECE_TYPE(pos->cell[royal]));
    *type_to = was_to;
    *type_from = was_from;
    occ[m->to >> 6] &= ~to_bit;
    occ[m->from >> 6] |= from_bit;
    pos->cell[m->to] = taken;
    pos->cell[m->from] = p;
    return hit;
}

/* gives_check by making the move (or writing its cells) and testing the other players. */
static bool check_made(GenContext *ctx, Position *pos, const Move *m, int mover) {
    const Variant *v = pos->v;
    bool check = false;
    if (v->all_fast && ctx->fast) {
        CellJournal cj;
        board_cells_apply(pos, m, &cj);
        for (int p = 0; p < v->nplayers && !check; p++) check = p != mover && attack_in_check(ctx, pos, p);
        board_cells_revert(pos, &cj);
    } else if (board_make(pos, m)) {
        int charged = ctx->charge_ply;
        ctx->charge_ply = pos->ply - 1;
        for (int p = 0; p < v->nplayers && !check; p++) check = p != mover && attack_in_check(ctx, pos, p);
        ctx->charge_ply = charged;
        board_unmake(pos);
    }
    ctx->steps_left[pos->ply + 1] = ctx->steps_left[pos->ply];
    return check;
}

static inline bool gives_check(GenContext *ctx, Position *pos, const Move *m, int mover, CheckLook *look) {
    int verdict = ctx->fast ? check_by_lines(pos, m, mover, look) : -1;
    return verdict >= 0 ? verdict : check_made(ctx, pos, m, mover);
}

/* The rules on checks: `forbid check` drops every move that gives one (`forbid drop-check`:
 * every drop), `end checks` marks each as a check given (FX_CHECK). */
static void apply_check_rules(GenContext *ctx, Position *pos, MoveList *out, int mover) {
    const Variant *v = pos->v;
    int n = 0;
    CheckLook look = {.ready = 0};
    for (int i = 0; i < out->count; i++) {
        Move *m = &out->moves[i];
        const bool forbidden = v->forbid_check || (v->forbid_drop_check && (m->flags & MOVE_DROP));
        if (!(m->flags & (MOVE_CARDS | MOVE_TILE | MOVE_PASS)) && (forbidden || v->check_limit) &&
            gives_check(ctx, pos, m, mover, &look)) {
            if (forbidden) continue;
            ASSERT(m->nfx < MAX_EFFECTS, "a move has room to mark its check");
            if (m->nfx < MAX_EFFECTS) m->fx[m->nfx++] = (Effect){.kind = FX_CHECK, .a = (Cell)mover};
        }
        /* (a move is large: copied only to close a gap, and only its effects in use) */
        if (n != i) memcpy(&out->moves[n], m, offsetof(Move, fx) + (size_t)m->nfx * sizeof m->fx[0]);
        n++;
    }
    out->count = n;
}

/* `kind NAME if gives-check`: every normal move that gives check becomes of that kind
 * (Marseillais chess: a check ends the turn). */
static void mark_check_kind(GenContext *ctx, Position *pos, MoveList *out, int mover) {
    CheckLook look = {.ready = 0};
    for (int i = 0; i < out->count; i++) {
        Move *m = &out->moves[i];
        if (m->kind == 0 && !(m->flags & (MOVE_CARDS | MOVE_TILE | MOVE_PASS)) &&
            gives_check(ctx, pos, m, mover, &look))
            m->kind = (uint8_t)pos->v->check_kind;
    }
}

/* Under a reach rule's last chance: the moves stand only when one of them, legal, reaches
 * the zone too (the answer that draws); otherwise the game is over and there are none. */
static void require_reply(GenContext *ctx, Position *pos, MoveList *out, const ReachRule *r, int mover) {
    for (int i = 0; i < out->count; i++) {
        const Move *m = &out->moves[i];
        if (!movegen_is_legal(ctx, pos, m)) continue;
        CellJournal cj;
        board_cells_apply(pos, m, &cj);
        bool reaches = ending_reached(pos, mover, r);
        board_cells_revert(pos, &cj);
        if (reaches) return;
    }
    out->count = 0;
}

/* movegen_pseudo; mark_checks false leaves out the marks of `end checks` (FX_CHECK), which
 * cost a make and an attack test per move and change no move's legality: for counting. */
/* How many pieces m takes: those its removals find standing, and one it lands on. */
/* Pieces m takes: all of them, and in *first those of the types `must-capture most` names. */
static int pieces_taken(const Position *pos, const Move *m, int *first) {
    uint32_t types = pos->v->most_first_types;
    int n = 0;
    *first = 0;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        Piece p = 0;
        if (e->kind == FX_REMOVE && pos->cell[e->a]) p = pos->cell[e->a];
        if (e->kind == FX_MOVE && e->a != e->b && pos->cell[e->b] &&
            board_hostile(pos, PIECE_OWNER(pos->cell[e->b]), PIECE_OWNER(pos->cell[e->a])))
            p = pos->cell[e->b];
        if (!p) continue;
        n++;
        *first += (types >> PIECE_TYPE(p)) & 1;
    }
    return n;
}

/* Do a and b do the same, whatever way they went (the cells they passed and the order of
 * their captures aside)? */
static bool same_outcome(const Move *a, const Move *b) {
    if (a->from != b->from || a->to != b->to || a->promo != b->promo || a->kind != b->kind) return false;
    int na = 0, nb = 0;
    for (int i = 0; i < a->nfx; i++) na += a->fx[i].kind != FX_VIA;
    for (int i = 0; i < b->nfx; i++) nb += b->fx[i].kind != FX_VIA;
    if (na != nb) return false;
    for (int i = 0; i < a->nfx; i++) {
        const Effect *e = &a->fx[i];
        if (e->kind == FX_VIA) continue;
        bool found = false;
        for (int k = 0; k < b->nfx && !found; k++)
            found = b->fx[k].kind == e->kind && b->fx[k].a == e->a && b->fx[k].b == e->b && b->fx[k].piece == e->piece;
        if (!found) return false;
    }
    return true;
}

/* The rule file's filters of the moves as generated: the moves of the kind `priority` puts
 * first among those there are (kinds it does not name come last), the captures taking the most
 * pieces (`must-capture most`: moves that take nothing stay, for must-capture to judge; with
 * types named, the most of those when some capture takes any), and one move of several with
 * the same outcome (merge-duplicates). */
static void filter_moves(const Position *pos, MoveList *out) {
    const Variant *v = pos->v;
    int best = v->npriorities, most = 0, most_first = 0;
    for (int i = 0; i < out->count; i++) {
        const Move *m = &out->moves[i];
        for (int r = 0; r < best; r++)
            if (v->priority[r] == m->kind) best = r;
        if (v->must_capture_most) {
            int first, taken = pieces_taken(pos, m, &first);
            if (taken > most) most = taken;
            if (first > most_first) most_first = first;
        }
    }
    int n = 0;
    for (int i = 0; i < out->count; i++) {
        const Move *m = &out->moves[i];
        if (best < v->npriorities && m->kind != v->priority[best]) continue;
        if (most) {
            int first, taken = pieces_taken(pos, m, &first);
            if (taken && (most_first ? first < most_first : taken < most)) continue;
        }
        bool dup = false;
        for (int k = 0; k < n && v->merge_same_captures && !dup; k++) dup = same_outcome(&out->moves[k], m);
        if (dup) continue;
        if (n != i) out->moves[n] = *m;
        n++;
    }
    out->count = n;
}

static bool pseudo_moves(GenContext *ctx, Position *pos, MoveList *out, VmFault *fault, bool mark_checks) {
    out->count = 0;
    /* the budget of this position's programs and legality tests; a position made from it
     * starts with what it has left */
    ctx->steps_left[pos->ply] = ctx->steps_left[pos->ply + 1] = POSITION_STEP_BUDGET;
    ctx->attack_fault.set = false; /* (one left from elsewhere is not this position's) */
    /* a game the position has ended has no moves */
    if (unlikely(pos->v->decided_by_position) && !ctx->diagram) {
        if (ending_decided(ctx, pos, NULL)) return true;
        ctx->undecided_ply = pos->ply;
        ctx->undecided_key = pos->key;
    }
    if (unlikely(pos->debt)) return gen_payments(pos, out, fault);
    if (unlikely(pos->v->pass_move) && movegen_passing_ended(pos)) return true; /* (no moves: over) */
    int mover = board_mover(pos);
    /* the mover moves its own pieces and any army it has taken over */
    for (int o = 0; o < pos->v->nowners; o++)
        if (pos->controller[o] == mover && !gen_owner(ctx, pos, o, out, fault)) return false;
    if (pos->v->steered && !gen_steered(ctx, pos, mover, out, fault)) return false;
    /* (a move diagram shows how a piece moves on its board: the rulebook says where it goes on) */
    if (unlikely(pos->v->ntransfer) && !ctx->diagram) add_transfers(pos, out);
    if (unlikely(pos->v->has_hands) && mover < pos->v->nplayers) {
        if (pos->v->gate_zone && !add_gating(ctx, pos, mover, out, fault)) return false;
        int start = out->count;
        if (!add_drops(pos, mover, out, fault)) return false;
        if (pos->v->has_drop_programs && !gen_drop_programs(ctx, pos, mover, out, fault)) return false;
        if (pos->v->must_drop && out->count > start && !ctx->diagram) keep_drops_if_legal(ctx, pos, out, start);
        if (pos->v->must_drop_types && !ctx->diagram) keep_required_drops(ctx, pos, mover, out, start);
    } else if (unlikely(pos->v->has_drop_programs) && !gen_drop_programs(ctx, pos, mover, out, fault)) {
        return false;
    }
    if (unlikely(pos->v->pass_move)) {
        /* (legal unless it leaves the mover in check, as any move) */
        if (out->count >= MAX_MOVES) return fault_full(fault);
        Move *m = &out->moves[out->count++];
        memset(m, 0, sizeof *m);
        m->promo = NO_TYPE;
        m->flags = MOVE_PASS;
    }
    if (unlikely(pos->v->blast_mask)) add_blasts(pos, out);
    if (unlikely(pos->v->has_drops)) merge_duplicates(out, 0); /* (two pieces may drop the same) */
    if (unlikely(movegen_filters(pos->v))) filter_moves(pos, out);
    if (unlikely(pos->v->nextra) && !add_extra_captures(pos, out, fault)) return false;
    if (unlikely(pos->v->ndraws) && !add_draws(pos, out, fault)) return false;
    if (unlikely(pos->v->minefield_zone) && pos->prelude < pos->v->nprelude && !add_mine_marks(pos, out, fault))
        return false;
    if (unlikely(pos->prelude < pos->v->nprelude)) {
        filter_prelude(pos, out);
        return true;
    }
    /* (a move diagram shows how pieces move: its made-up positions play no moves) */
    if (unlikely(pos->v->check_kind) && !ctx->diagram) mark_check_kind(ctx, pos, out, mover);
    if (unlikely(pos->v->nphases) && !filter_phase(pos, out, fault)) return false;
    if (unlikely(pos->v->nphases) && pos->v->has_royal) filter_royal_captures(ctx, pos, out, mover);
    if (unlikely(pos->v->npays)) require_payment(pos, out);
    if (unlikely((pos->v->check_limit && mark_checks) || pos->v->forbid_check || pos->v->forbid_drop_check))
        apply_check_rules(ctx, pos, out, mover);
    if (unlikely(pos->v->nreaches)) {
        const ReachRule *r = ending_reply_due(pos);
        if (r) require_reply(ctx, pos, out, r, mover);
    }
    return true;
}

bool movegen_pseudo(GenContext *ctx, Position *pos, MoveList *out, VmFault *fault) {
    return pseudo_moves(ctx, pos, out, fault, true);
}

bool movegen_facing(const Position *pos) {
    const Variant *v = pos->v;
    int t = v->facing_type - 1;
    Cell at[2] = {NO_CELL, NO_CELL};
    for (int o = 0; o < 2; o++)
        for (int w = 0; w < v->cell_words && at[o] == NO_CELL; w++) {
            uint64_t b = pos->type_occ[t][w] & pos->occ[o][w];
            if (b) at[o] = (Cell)(w * 64 + __builtin_ctzll(b));
        }
    if (at[0] == NO_CELL || at[1] == NO_CELL) return false;
    const CellInfo *a = &v->cells[at[0]], *b = &v->cells[at[1]];
    if (a->board != b->board || (a->x != b->x && a->y != b->y)) return false;
    const Board *bd = &v->boards[a->board];
    int dx = (b->x > a->x) - (b->x < a->x), dy = (b->y > a->y) - (b->y < a->y);
    for (int x = a->x + dx, y = a->y + dy; x != b->x || y != b->y; x += dx, y += dy) {
        Cell c = bd->at[y][x];
        if (c == NO_CELL || pos->cell[c]) return false;
    }
    return true;
}

bool movegen_passing_ended(const Position *pos) {
    const Variant *v = pos->v;
    return (v->passes_end && pos->passes >= v->passes_end) || (v->facing_type && pos->passes && movegen_facing(pos));
}

/* `end facing`: while the royal pieces face each other, a pass is legal (even in check) and
 * no other move may leave them facing. 1: legal, 0: illegal, -1: the usual test decides. */
static int facing_verdict(Position *pos, const Move *m) {
    if (!movegen_facing(pos)) return -1;
    if (m->flags & MOVE_PASS) return 1;
    CellJournal cj;
    board_cells_apply(pos, m, &cj);
    bool still = movegen_facing(pos);
    board_cells_revert(pos, &cj);
    return still ? 0 : -1;
}

/* `forbid royal-flight`: does m move a royal piece in check other than onto the one piece
 * giving check? (With that piece taken away, the royal piece would still be attacked.) */
static bool royal_flees(GenContext *ctx, Position *pos, const Move *m) {
    Piece p = (m->flags & MOVE_PASS) ? 0 : pos->cell[m->from];
    if (!p || !variant_royal(pos->v, PIECE_OWNER(p), PIECE_TYPE(p)) ||
        !attack_is_attacked(ctx, pos, m->from, PIECE_OWNER(p), p))
        return false;
    if (m->to == m->from || !pos->cell[m->to]) return true;
    Move taken = {.from = m->to, .to = m->to, .promo = NO_TYPE, .nfx = 1};
    taken.fx[0] = (Effect){.kind = FX_REMOVE, .a = m->to};
    CellJournal cj;
    board_cells_apply(pos, &taken, &cj);
    bool more = attack_is_attacked(ctx, pos, m->from, PIECE_OWNER(p), p);
    board_cells_revert(pos, &cj);
    return more;
}

bool movegen_is_legal(GenContext *ctx, Position *pos, const Move *m) {
    const Variant *v = pos->v;
    if (!movegen_tests_royal(v, m)) return true;
    if (v->facing_type) {
        int verdict = facing_verdict(pos, m);
        if (verdict >= 0) return verdict;
    }
    if (v->forbid_royal_flight && royal_flees(ctx, pos, m)) return false;
    int mover = board_mover(pos);
    bool ok;
    if (v->all_fast && ctx->fast && !(m->flags & MOVE_ELIMINATION)) {
        /* every attack test reads only cells (rays and patterns): the cells are enough */
        CellJournal cj;
        board_cells_apply(pos, m, &cj);
        uint32_t rights = pos->rights;
        if (unlikely(v->privilege_types && v->privileges_lost) && rights) pos->rights &= board_privileges_kept(pos, m);
        ok = movegen_safe_after(ctx, pos, mover);
        pos->rights = rights;
        board_cells_revert(pos, &cj);
    } else {
        /* the test is made as if the moving piece arrives: a hidden mine does not count */
        pos->tiles_off = true;
        bool made = board_make(pos, m);
        pos->tiles_off = false;
        if (!made) return false;
        int charged = ctx->charge_ply;
        ctx->charge_ply = pos->ply - 1; /* (the test's instructions are this position's) */
        ok = movegen_safe_after(ctx, pos, mover);
        ctx->charge_ply = charged;
        board_unmake(pos);
    }
    ctx->steps_left[pos->ply + 1] = ctx->steps_left[pos->ply];
    return ok;
}

/* Does owner o have a royal piece standing next to cell c? */
static bool royal_next_to(const Position *pos, Cell c, int o) {
    const Variant *v = pos->v;
    for (int d = 0; d < v->nadjacent; d++) {
        Cell e = variant_step(v, c, v->adjacent_dirs[d]);
        Piece p = e == NO_CELL ? 0 : pos->cell[e];
        if (p && PIECE_OWNER(p) == o && variant_royal(v, o, PIECE_TYPE(p))) return true;
    }
    return false;
}

bool movegen_blast_safe(GenContext *ctx, Position *pos, int mover) {
    const Variant *v = pos->v;
    int enemy = 1 - mover; /* (explosions are a two-player rule) */
    bool enemy_royal = false;
    for (int t = 0; t < v->ntypes && !enemy_royal; t++)
        for (int w = 0; variant_royal(v, enemy, t) && w < v->cell_words && !enemy_royal; w++)
            enemy_royal = (pos->type_occ[t][w] & pos->occ[enemy][w]) != 0;
    if (!enemy_royal) return true; /* blown up: the game is won, whatever else holds */
    for (int t = 0; t < v->ntypes; t++) {
        if (!variant_royal(v, mover, t)) continue;
        for (int w = 0; w < v->cell_words; w++)
            for (uint64_t b = pos->type_occ[t][w] & pos->occ[mover][w]; b; b &= b - 1) {
                Cell c = (Cell)(w * 64 + __builtin_ctzll(b));
                /* taking it would blow up the taker's own royal piece next to it */
                if (!royal_next_to(pos, c, enemy) && attack_is_attacked(ctx, pos, c, mover, pos->cell[c])) return false;
            }
    }
    return true;
}

bool movegen_made_is_legal_tiles(GenContext *ctx, Position *pos, const Move *m, int mover) {
    /* (facing royal pieces and royal flight: the rules look at the position before the move;
     * but royal pieces that do not face after it leave the facing rule nothing to forbid) */
    if ((!pos->v->facing_type || !movegen_facing(pos)) && !pos->v->forbid_royal_flight &&
        (!pos->ply || pos->history[pos->ply - 1].exploded == NO_CELL))
        return movegen_safe_after(ctx, pos, mover);
    board_unmake(pos);
    bool ok = movegen_is_legal(ctx, pos, m);
    board_make(pos, m);
    return ok;
}

int movegen_forced(const Position *pos, Cell *cells) {
    const Variant *v = pos->v;
    int n = 0;
    if (!v->nforced) return 0;
    int prev = v->turn_order[(pos->turn + v->nturns - 1) % v->nturns];
    for (int r = 0; r < v->nforced; r++) {
        const ForcedCapture *fc = &v->forced[r];
        for (int w = 0; w < pos->v->cell_words; w++) {
            uint64_t b = pos->type_occ[fc->type][w] & pos->occ[prev][w] & v->zones[fc->zone].cells[prev][w];
            while (b && n < MAX_FORCED) {
                cells[n++] = (Cell)(w * 64 + __builtin_ctzll(b));
                b &= b - 1;
            }
        }
    }
    return n;
}

bool movegen_captures_all(const Move *m, const Cell *cells, int n) {
    for (int i = 0; i < n; i++) {
        bool hit = false;
        for (int k = 0; k < m->nfx && !hit; k++)
            hit = (m->fx[k].kind == FX_REMOVE && m->fx[k].a == cells[i]) ||
                (m->fx[k].kind == FX_MOVE && m->fx[k].b == cells[i]);
        if (!hit) return false;
    }
    return true;
}

bool movegen_stalemate_pass(GenContext *ctx, Position *pos, Move *m) {
    const Variant *v = pos->v;
    if (v->on_stalemate != RESULT_PASS || (v->has_royal && attack_in_check(ctx, pos, board_mover(pos)))) return false;
    memset(m, 0, sizeof *m);
    m->promo = NO_TYPE;
    m->flags = MOVE_PASS;
    return true;
}

bool movegen_position_ok(GenContext *ctx, Position *pos, char *err, size_t cap) {
    const Variant *v = pos->v;
    /* (only where a turn is one move between two players: elsewhere an exposed royal piece can
     * be a fact of the game, left by a mine or by a third player) */
    if (v->nplayers != 2 || v->nphases || v->minefield_zone || !v->has_royal || !v->forbid_royal_capture ||
        pos->setup_player >= 0)
        return true;
    int other = 1 - board_mover(pos);
    if (movegen_safe_after(ctx, pos, other)) return true;
    snprintf(err, cap, "%s, who is not to move, is in check (the last move would have been illegal)",
             v->player_names[other]);
    return false;
}

bool movegen_must_capture(GenContext *ctx, Position *pos, const MoveList *ml) {
    if (!pos->v->must_capture) return false;
    for (int i = 0; i < ml->count; i++)
        if ((ml->moves[i].flags & MOVE_CAPTURE) && movegen_is_legal(ctx, pos, &ml->moves[i])) return true;
    return false;
}

/* Pins.seen: where the legality test reads only cells, make it once as the position stands. */
static void find_seen(GenContext *ctx, Position *pos, Pins *pins) {
    const Variant *v = pos->v;
    if (!v->all_fast || !ctx->fast || !v->forbid_royal_capture || v->steered || v->has_allegiance || v->blast_mask ||
        v->facing_type || v->forbid_royal_flight || v->privilege_types || ctx->attack_depth)
        return;
    int mover = pins->mover = board_mover(pos);
    memset(pins->seen, 0, sizeof pins->seen);
    pins->seen_check = attack_royal_attacked_seen(ctx, pos, mover, pins->seen);
    /* the test also reads the enemies' pieces and the royal ones, as sets: their cells too */
    for (int w = 0; w < v->cell_words; w++) {
        for (int o = 0; o < v->nowners; o++)
            if (board_hostile(pos, o, mover)) pins->seen[w] |= pos->occ[o][w];
        for (uint32_t types = v->royal_types; types; types &= types - 1) /* (any owner's: a superset) */
            pins->seen[w] |= pos->type_occ[__builtin_ctz(types)][w];
    }
    pins->by_seen = true;
}

/* Does a piece of kind `want` stand on the line from c along dir? The farthest such cell, or
 * NO_CELL. (A line that comes back on itself is walked once round.) */
static Cell last_on_line(const Position *pos, Cell c, int dir, Piece want) {
    const Variant *v = pos->v;
    Cell last = NO_CELL, s = c;
    for (int n = 0; n < v->ncells; n++) {
        s = variant_step(v, s, dir);
        if (s == NO_CELL || s == c) break;
        if (PIECE_KIND(pos->cell[s]) == want) last = s;
    }
    return last;
}

/* For movegen_find_pins in a game with capture patterns or `end facing`: false when royal
 * pieces face each other (the pins are then off). Else the pins of the enemy's capture
 * patterns on the mover's royal piece, and whether one of them gives check: into pins->pinned
 * the cells a piece leaving could open a capture through (the legs before a lame leaper, the
 * line before the last enemy hopper or zoned slider on it), into pins->screens the cells a
 * piece landing on could make a hop's screen. Zones, ranges and screen types are not looked
 * at: a cell marked too many only costs its moves the full test. */
__attribute__((noinline)) static bool find_pattern_pins(GenContext *ctx, Position *pos, Pins *pins) {
    const Variant *v = pos->v;
    /* (royal pieces that face each other: every move takes the full test) */
    if (v->facing_type && movegen_facing(pos)) return false;
    if (!v->pattern_types) return true;
    Cell c = pins->royal;
    int victim = PIECE_TYPE(pos->cell[c]), enemy = 1 - pins->mover;
    for (int w = 0; w < v->cell_words; w++) pins->screens[w] = 0;
    /* (the attack lines' checks are counted; with privileges, the whole test decides a check
     * by a pattern, else each pattern with a piece in reach) */
    bool whole_test = v->privilege_types || !v->attack_lines_ok;
    int checks = 0;
    for (int k = 0; k < v->npattern_refs[enemy][victim]; k++) {
        int t = v->pattern_refs[enemy][victim][k].type;
        const CapturePattern *cp = &v->types[t].per_owner[enemy].patterns[v->pattern_refs[enemy][victim][k].pattern];
        Piece want = PIECE_MAKE(t, enemy);
        /* (no such piece where the pattern could capture from, even on an empty board: it
         * pins nothing, gives no check, and no move of the mover's opens it) */
        if (cp->reach && !attack_pattern_may_reach(pos, cp, c, t, enemy)) continue;
        if (!whole_test && !pins->checks && !checks) checks = attack_pattern_hit(pos, cp, c, t, enemy);
        if (cp->method == CAP_LEGS) {
            for (int m = 0; cp->nlegs && m + cp->nlegs <= cp->ndirs; m += cp->nlegs) {
                Cell legs[16], s = c;
                int n = 0;
                for (int l = cp->nlegs - 1; l >= 0 && s != NO_CELL; l--) {
                    int back = v->dirs[cp->dirs[m + l]].reverse;
                    s = back >= 0 ? variant_step(v, s, back) : NO_CELL;
                    if (l > 0 && s != NO_CELL) legs[n++] = s;
                }
                if (s == NO_CELL || PIECE_KIND(pos->cell[s]) != want) continue;
                for (int i = 0; i < n; i++) pins->pinned[legs[i] >> 6] |= 1ULL << (legs[i] & 63);
            }
        } else if (cp->method == CAP_HOP || cp->method == CAP_SLIDES) {
            for (int i = 0; i < cp->ndirs; i++) {
                int back = v->dirs[cp->dirs[i]].reverse;
                Cell last = back >= 0 ? last_on_line(pos, c, back, want) : NO_CELL;
                for (Cell s = last == NO_CELL ? last : variant_step(v, c, back); s != last;
                     s = variant_step(v, s, back)) {
                    pins->pinned[s >> 6] |= 1ULL << (s & 63);
                    if (cp->method == CAP_HOP) pins->screens[s >> 6] |= 1ULL << (s & 63);
                }
            }
        }
        /* (a zoned step is opened by no move of the mover's) */
    }
    for (int w = 0; w < v->cell_words; w++) pins->screened = pins->screened || pins->screens[w];
    /* in check by a pattern? */
    if (!pins->checks)
        pins->checks =
            whole_test ? attack_is_attacked(ctx, pos, c, pins->mover, pos->cell[c]) : !ctx->attack_depth && checks;
    return true;
}

/* pins->look for the royal piece (of type royal_type), readied for this position when first
 * asked; NULL where there is none. */
static inline const RoyalLook *ready_look(const Pins *pins, const Position *pos, int royal_type) {
    RoyalLook *look = pins->look;
    if (!look || look->ready < 0) return NULL;
    if (!look->ready) look->ready = attack_royal_look_init(look, pos, pins->mover, royal_type) ? 1 : -1;
    return look->ready > 0 ? look : NULL;
}

/* movegen_find_pins; with look (the caller's, pins->look), readied for the position, which
 * finds the pins where the game allows. */
static void find_pins(GenContext *ctx, Position *pos, Pins *pins, RoyalLook *look) {
    const Variant *v = pos->v;
    pins->look = look;
    if (look) look->ready = 0;
    pins->on = false;
    pins->by_seen = false;
    if (!v->pin_legal || !ctx->fast || !board_hostile(pos, 0, 1)) {
        find_seen(ctx, pos, pins);
        return;
    }
    int mover = board_mover(pos);
    pins->royal = lone_royal(pos, mover);
    if (pins->royal == NO_CELL) {
        find_seen(ctx, pos, pins);
        return;
    }
    pins->mover = mover;
    pins->privileges = v->privilege_types && pos->rights;
    const RoyalLook *ready =
        look && !v->privilege_types ? ready_look(pins, pos, PIECE_TYPE(pos->cell[pins->royal])) : NULL;
    pins->checks = ready ? attack_royal_look_pins(ready, pos, pins->royal, pins->pinned)
                         : attack_pins(pos, pins->royal, mover, pins->pinned);
    pins->screened = false;
    if (unlikely(v->pattern_types | v->facing_type) && !find_pattern_pins(ctx, pos, pins)) return;
    pins->quiet = !pins->checks && !pins->screened;
    pins->on = true;
}

void movegen_find_pins(GenContext *ctx, Position *pos, Pins *pins) { find_pins(ctx, pos, pins, NULL); }

/* May a piece p be written without changing the test by the cells seen: neither an enemy's
 * nor royal? */
static inline bool seen_quiet(const Position *pos, int mover, Piece p) {
    return !board_hostile(pos, PIECE_OWNER(p), mover) && !variant_royal(pos->v, PIECE_OWNER(p), PIECE_TYPE(p));
}

/* movegen_pin_verdict by the cells seen: the cells m writes (as board_cells_apply writes
 * them) against them. (A piece carried comes from a cell written, so it is no enemy's nor
 * royal when that cell is not among them.) */
static inline int seen_verdict(const Pins *pins, const Position *pos, const Move *m) {
    /* (most moves only carry a piece) */
    if (m->nfx == 1 && m->fx[0].kind == FX_MOVE &&
        !(m->flags & (MOVE_CARDS | MOVE_TILE | MOVE_PASS | MOVE_ELIMINATION)))
        return bits_has(pins->seen, m->fx[0].a) || bits_has(pins->seen, m->fx[0].b) ? -1 : !pins->seen_check;
    if (!movegen_tests_royal(pos->v, m) || (m->flags & MOVE_ELIMINATION)) return -1;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        switch ((EffectKind)e->kind) {
        case FX_MOVE:
            if (bits_has(pins->seen, e->a) || bits_has(pins->seen, e->b)) return -1;
            break;
        case FX_REMOVE:
            if (bits_has(pins->seen, e->a)) return -1;
            break;
        case FX_CHANGE:
        case FX_PLACE:
            if (bits_has(pins->seen, e->a) || !seen_quiet(pos, pins->mover, e->piece)) return -1;
            break;
        case FX_EP:
        case FX_COUNTER:
        case FX_CARD:
        case FX_DEBT:
        case FX_MARK:
        case FX_HAND:
        case FX_CHECK:
        case FX_VIA: break; /* (no cell written) */
        default: return -1;
        }
    }
    return !pins->seen_check;
}

/* pin_verdict_by_lines where a privilege's capture may attack: by its cells too, with the
 * rights m leaves (a privilege `lost-to` enemy types may end by m; a move that changes its
 * piece takes the full test then). */
__attribute__((noinline)) static int pin_verdict_with_privileges(const Pins *pins, Position *pos, const Move *m,
                                                                 Piece p) {
    bool lost = pos->v->privileges_lost;
    if (lost && m->nfx != 1) return -1;
    uint32_t rights = pos->rights;
    Piece taken = pos->cell[m->to];
    pos->cell[m->to] = p;
    pos->cell[m->from] = 0;
    if (lost) pos->rights &= board_privileges_kept(pos, m);
    Cell king = m->from == pins->royal ? m->to : pins->royal;
    bool hit = attack_lines_hit(pos, king, pins->mover, PIECE_TYPE(pos->cell[king])) ||
        attack_privilege_hit(pos, king, pins->mover);
    pos->rights = rights;
    pos->cell[m->from] = p;
    pos->cell[m->to] = taken;
    return !hit;
}

/* The rest of movegen_pin_verdict for a move of the royal piece, of a pinned piece or in
 * check: the attack lines with only the move's two cells written. (Apart, so that the usual
 * verdict stays a short leaf.) */
__attribute__((noinline)) static int pin_verdict_by_lines(const Pins *pins, Position *pos, const Move *m, Piece p) {
    if (unlikely(pins->privileges)) return pin_verdict_with_privileges(pins, pos, m, p);
    bool royal = m->from == pins->royal;
    Piece taken = pos->cell[m->to];
    pos->cell[m->to] = p;
    pos->cell[m->from] = 0;
    Cell king = royal ? m->to : pins->royal;
    const RoyalLook *look = ready_look(pins, pos, PIECE_TYPE(pos->cell[king]));
    bool hit = look ? attack_royal_look_hit(look, pos, king, taken ? 1ULL << m->to : 0)
                    : attack_lines_hit(pos, king, pins->mover, PIECE_TYPE(pos->cell[king]));
    /* (the patterns read the cells, and the enemy's occupancy sets, which the move does not
     * change but for a piece it takes: where one of its pieces was, its cell is looked at) */
    if (!hit && pos->v->pattern_types)
        hit = attack_patterns_hit(pos, king, 1 - pins->mover, PIECE_TYPE(pos->cell[king]));
    pos->cell[m->from] = p;
    pos->cell[m->to] = taken;
    return !hit;
}

/* movegen_pin_verdict for a drop of one of the mover's pieces, not royal, from its hand: a
 * piece put down can only block attack lines, so out of check it is legal and in check it
 * is tested on the lines with the piece written. -1 for any other move. */
static inline int drop_verdict(const Pins *pins, Position *pos, const Move *m) {
    const Variant *v = pos->v;
    const Effect *place = &m->fx[0];
    if (!(m->flags & MOVE_DROP) || m->nfx != 2 || place->kind != FX_PLACE || m->fx[1].kind != FX_HAND ||
        place->a != m->to || pos->cell[m->to] || PIECE_OWNER(place->piece) != pins->mover ||
        variant_royal(v, pins->mover, PIECE_TYPE(place->piece)) || v->pattern_types || v->facing_type)
        return -1;
    if (!pins->checks) return 1;
    pos->cell[m->to] = place->piece;
    const RoyalLook *look = ready_look(pins, pos, PIECE_TYPE(pos->cell[pins->royal]));
    bool hit = look ? attack_royal_look_hit(look, pos, pins->royal, 0)
                    : attack_lines_hit(pos, pins->royal, pins->mover, PIECE_TYPE(pos->cell[pins->royal]));
    pos->cell[m->to] = 0;
    return !hit;
}

int movegen_pin_verdict(const Pins *pins, Position *pos, const Move *m) {
    if (!pins->on) return pins->by_seen ? seen_verdict(pins, pos, m) : -1;
    if (m->from == m->to) return drop_verdict(pins, pos, m);
    Piece p = pos->cell[m->from];
    if (!p || pos->controller[PIECE_OWNER(p)] != pins->mover) return -1;
    /* one move from -> to; a change of the piece landing there, staying the mover's and no
     * royal piece before or after; en-passant cells (which write no cell) */
    const Variant *v = pos->v;
    int carried = 0, changes = 0;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        changes += e->kind == FX_CHANGE;
        if (e->kind == FX_MOVE && e->a == m->from && e->b == m->to)
            carried++;
        else if (e->kind == FX_CHANGE &&
                 (e->a != m->to || PIECE_OWNER(e->piece) != PIECE_OWNER(p) ||
                  variant_royal(v, PIECE_OWNER(p), PIECE_TYPE(e->piece)) ||
                  variant_royal(v, PIECE_OWNER(p), PIECE_TYPE(p))))
            return -1;
        else if (e->kind != FX_EP && e->kind != FX_CHANGE)
            return -1;
    }
    if (carried != 1) return -1;
    if (m->from != pins->royal && pins->quiet && !bits_has(pins->pinned, m->from)) return 1;
    /* (with screens, out of check: where the piece lands decides) */
    if (pins->screened && !pins->checks && m->from != pins->royal && !bits_has(pins->pinned, m->from) &&
        !bits_has(pins->screens, m->to))
        return 1;
    /* `forbid royal-flight`: the royal piece in check may only capture (what, the full test says) */
    if (v->forbid_royal_flight && m->from == pins->royal && pins->checks) return pos->cell[m->to] ? -1 : 0;
    /* (with capture patterns, the lines and the patterns decide with the two cells written:
     * not where royal pieces may face each other, privileges may attack, or a piece changes,
     * which as a screen a hop may tell apart) */
    if (v->pattern_types && (changes || v->facing_type || v->privilege_types || !v->attack_lines_ok)) return -1;
    return pin_verdict_by_lines(pins, pos, m, p);
}

/* Legal? By the pins when they decide, else by the full test. */
static inline bool legal_by_pins(GenContext *ctx, const Pins *pins, Position *pos, const Move *m) {
    if (!pins->on && !pins->by_seen) return movegen_is_legal(ctx, pos, m);
    int verdict = movegen_pin_verdict(pins, pos, m);
    return verdict >= 0 ? verdict : movegen_is_legal(ctx, pos, m);
}

bool movegen_legal(GenContext *ctx, Position *pos, MoveList *out, VmFault *fault) {
    bool ok = movegen_pseudo(ctx, pos, out, fault);
    Cell forced[MAX_FORCED];
    int nforced = movegen_forced(pos, forced);
    bool captures_only = unlikely(pos->v->must_capture) && movegen_must_capture(ctx, pos, out);
    Pins pins;
    movegen_find_pins(ctx, pos, &pins);
    int n = 0;
    for (int i = 0; i < out->count; i++)
        if ((!nforced || movegen_captures_all(&out->moves[i], forced, nforced)) &&
            movegen_allowed(&out->moves[i], captures_only) && legal_by_pins(ctx, &pins, pos, &out->moves[i])) {
            if (n != i) out->moves[n] = out->moves[i];
            n++;
        }
    out->count = n;
    if (n == 0 && !nforced && movegen_stalemate_pass(ctx, pos, &out->moves[0])) out->count = 1;
    attack_take_fault(ctx, fault);
    return ok && !(fault && fault->set);
}

/* Legal, as counted for a piece whose moves all only carry it when they are `carried` (a free
 * piece's, see count_by_pins)? All are but en passant (which removes another piece) and a
 * promotion to a royal type, which the pins decide. (pins NULL: every move is legal.) */
static inline bool counted_legal(GenContext *ctx, const Pins *pins, Position *pos, const Move *m, bool carried) {
    return !pins ||
        (carried && !(m->flags & MOVE_EP) && (m->promo == NO_TYPE || !variant_royal(pos->v, pins->mover, m->promo))) ||
        legal_by_pins(ctx, pins, pos, m);
}

/* legal_by_pins for a move of the royal piece: one that only carries it is tested on the
 * attack lines at once (movegen_pin_verdict's look at its effects is for other moves). */
/* Is the royal piece safe once carried from its cell to `to` (another cell)? */
static inline bool royal_safe_at(const Pins *pins, Position *pos, Cell to) {
    Cell from = pins->royal;
    Piece royal = pos->cell[from], taken = pos->cell[to];
    pos->cell[to] = royal;
    pos->cell[from] = 0;
    const RoyalLook *look = ready_look(pins, pos, PIECE_TYPE(royal));
    bool hit =
        look ? attack_royal_look_hit(look, pos, to, 0) : attack_lines_hit(pos, to, pins->mover, PIECE_TYPE(royal));
    pos->cell[from] = royal;
    pos->cell[to] = taken;
    return !hit;
}

/* Do the attack lines alone decide the royal piece's moves that only carry it (as
 * movegen_pin_verdict does)? Not where capture patterns, royal flight or privileges (which a
 * move may take away) have a say. */
static inline bool royal_by_lines(const Pins *pins, const Position *pos) {
    return !pos->v->pattern_types && !pos->v->forbid_royal_flight && !pins->privileges &&
        pos->controller[PIECE_OWNER(pos->cell[pins->royal])] == pins->mover;
}

static inline bool royal_move_legal(GenContext *ctx, const Pins *pins, Position *pos, const Move *m) {
    Cell from = pins->royal, to = m->to;
    if (m->nfx != 1 || m->fx[0].kind != FX_MOVE || m->fx[0].a != from || m->fx[0].b != to || to == from ||
        !royal_by_lines(pins, pos))
        return legal_by_pins(ctx, pins, pos, m);
    return royal_safe_at(pins, pos, to);
}

/* When the royal piece's moves are its rays alone (its rest program can emit nothing where it
 * stands), how many are legal, decided without writing them (bit i of *legal: its i-th ray
 * move, in gen_rays' order)? -1 when they are not so: then they are listed and tested. */
static inline int royal_rays_legal(const Pins *pins, Position *pos, const PieceProgram *pp, int owner,
                                   uint64_t *legal) {
    const Variant *v = pos->v;
    Cell from = pins->royal;
    bool rest_silent = pp->rest.count <= 1 || (!pp->rest_in_c && !pp->nlines && !rest_may_emit(pos, pp, from, owner));
    if (!rest_silent || pp->may_duplicate || !mobility_can_move(pos, from) || pos->controller[owner] != pins->mover ||
        !royal_by_lines(pins, pos))
        return -1;
    int n = 0, i = 0;
    *legal = 0;
    Piece royal = pos->cell[from];
    const RoyalLook *look = ready_look(pins, pos, PIECE_TYPE(royal));
    for (int k = 0; k < pp->ngen; k++) {
        const Ray *r = &pp->gen[k];
        Cell c = from;
        for (int s = 0; !r->range || s < r->range; s++) {
            c = variant_step(v, c, r->dir);
            if (c == NO_CELL) break;
            Piece p = pos->cell[c];
            if ((!p && r->mode != RAY_CAPTURE) ||
                (p && r->mode != RAY_MOVE && board_hostile(pos, PIECE_OWNER(p), owner))) {
                if (i == 64 || c == from) return -1; /* (a ray back to its start: the full test) */
                bool ok;
                if (look) {
                    /* (royal_safe_at with the look at hand) */
                    pos->cell[c] = royal;
                    pos->cell[from] = 0;
                    ok = !attack_royal_look_hit(look, pos, c, 0);
                    pos->cell[from] = royal;
                    pos->cell[c] = p;
                } else {
                    ok = royal_safe_at(pins, pos, c);
                }
                n += ok;
                *legal |= (uint64_t)ok << i++;
            }
            if (p || !r->slide) break;
        }
    }
    return n;
}

/* How many moves a piece's rays give (as gen_rays writes them). */
static inline int count_rays(const Position *pos, const PieceProgram *pp, int owner, Cell from) {
    const Variant *v = pos->v;
    int n = 0;
    for (int i = 0; i < pp->ngen; i++) {
        const Ray *r = &pp->gen[i];
        int range = r->range;
        Cell c = from;
        for (int k = 0; !range || k < range; k++) {
            c = variant_step(v, c, r->dir);
            if (c == NO_CELL) break;
            Piece p = pos->cell[c];
            if (!p) {
                n += r->mode != RAY_CAPTURE;
            } else {
                n += r->mode != RAY_MOVE && board_hostile(pos, PIECE_OWNER(p), owner);
                break;
            }
            if (!r->slide) break;
        }
    }
    return n;
}

/* The cells a move wrote (one word: Variant.move_reach). */
static inline uint64_t cells_written(const Undo *u) {
    uint64_t cells = 0;
    for (int i = 0; i < u->njournal; i++) cells |= 1ULL << u->journal[i].cell;
    return cells;
}

/* How many types the mover may gate onto gate cell g (add_gating): those in its hand that
 * may be dropped there, or that have no drop items. */
static int gate_types(const Position *pos, int mover, Cell g) {
    const Variant *v = pos->v;
    int k = 0;
    for (int t = 0; t < v->ntypes; t++)
        k += pos->hand[mover][t] && (!v->types[t].droppable || bits_has(v->types[t].drop_cells[mover], g));
    return k;
}

/* How many gated moves add_gating makes of move m, legal, of the mover (gates: its gate cells,
 * a board of one word): a piece from the hand onto its cell, or its rook's when it castles. */
static inline int gated_moves(const Position *pos, const Move *m, uint64_t gates, int mover) {
    if (m->flags & (MOVE_DROP | MOVE_PASS | MOVE_CARDS | MOVE_TILE) || m->nfx + 2 > MAX_EFFECTS) return 0;
    int k = (gates >> m->from) & 1 ? gate_types(pos, mover, m->from) : 0;
    Cell rook = m->castle ? pos->v->castles[m->castle - 1].rook_from : NO_CELL;
    if (rook != NO_CELL && ((gates >> rook) & 1)) k += gate_types(pos, mover, rook);
    return k;
}

/* The castling moves of the owner's piece on from whose rest program only castles
 * (PieceProgram.castle_branches), where every move is legal: those the program would make
 * (empty: the empty cells, a board of one word). */
static int count_castles(GenContext *ctx, Position *pos, const PieceProgram *pp, int owner, Cell from, uint64_t empty) {
    int n = 0;
    for (int i = 0; i < pp->ncastle_branches; i++) {
        const CastleBranch *cb = &pp->castle_branches[i];
        if ((pos->rights & cb->rights) != cb->rights) continue;
        if (cb->free_castle < 0) {
            n += cb->at == from && !(cb->empty & ~empty);
            continue;
        }
        /* (the cells king and rook go to must be empty or theirs: mostly one is not) */
        const Castle *c = &pos->v->castles[cb->free_castle];
        Cell kf = pos->castle_king[cb->free_castle], rf = pos->castle_rook[cb->free_castle];
        if (kf != from || rf == NO_CELL) continue;
        uint64_t open = empty | 1ULL << kf | 1ULL << rf;
        if ((open >> c->king_to) & (open >> c->rook_to) & 1)
            n += vm_free_castle_open(ctx, pos, cb->free_castle, from, owner);
    }
    return n;
}

/* movegen_count_legal in a game with Variant.bulk_count where the pins apply (pins NULL: a
 * game where every move is legal): the rays of a piece that needs no test are counted, not
 * written; every other move is generated (into scratch, piece by piece) and decided as in
 * movegen_legal. -1 when the count cannot be made so (a program's fault, too many moves):
 * then the caller counts the usual way. With a tally, also what movegen_tally_move needs,
 * and with memos (a constant where it is inlined) the tally's memo is taken and kept.
 * (Inlined: perft's copy, without a tally, keeps none of that work.) */
static inline __attribute__((always_inline)) int count_by_pins(GenContext *ctx, Position *pos, const Pins *pins,
                                                               MoveList *scratch, LegalTally *tally, bool memos,
                                                               bool gating) {
    const Variant *v = pos->v;
    ctx->steps_left[pos->ply] = ctx->steps_left[pos->ply + 1] = POSITION_STEP_BUDGET;
    ctx->attack_fault.set = false;
    /* (with screens, where a piece lands decides: the usual count judges every move) */
    if (pins && pins->screened) return -1;
    int mover = board_mover(pos), n = 0;
    /* (with gating, perft's copy on a board of one word: a legal move from a gate cell is
     * legal gated too, the piece put down only blocking lines, and an illegal one is not
     * gated; the pieces on gate cells are counted one by one) */
    const uint64_t gates = gating && mover < 2 ? pos->gates[mover][0] : 0;
    /* (a playout's tally: the free pieces' counts of the mover's last tally, two plies back,
     * stand where none of their cells changed since; those of this one are kept) */
    uint64_t changed = ~0ULL, held = 0, kept = 0;
    bool memoize = memos && tally && tally->reuse && v->move_reach && mover < 2;
    if (memoize) {
        if (pos->ply >= 2 && tally->memo[mover].ply == pos->ply - 2 &&
            tally->memo[mover].key == pos->history[pos->ply - 2].state.key && pos->ep_victim == NO_CELL) {
            held = tally->memo[mover].held;
            changed = cells_written(&pos->history[pos->ply - 2]) | cells_written(&pos->history[pos->ply - 1]);
        }
        tally->memo[mover].ply = -1; /* (until this tally is whole) */
    }
    /* (perft's copy, on a board of one word: the free pieces with cell sets count by them) */
    uint64_t empty = 0, enemy = 0;
    if (!tally && v->cell_words == 1) {
        empty = ~0ULL;
        for (int o = 0; o < v->nowners; o++) {
            empty &= ~pos->occ[o][0];
            if (pos->controller[o] != mover) enemy |= pos->occ[o][0];
        }
    }
    const uint64_t sets_made[2] = {empty, enemy};
    const uint64_t *sets = !tally && v->cell_words == 1 ? sets_made : NULL;
    for (int o = 0; o < v->nowners; o++) {
        if (pos->controller[o] != mover) continue;
        /* (perft's copy: the free pieces of a type whose paths shift are counted together) */
        uint64_t together = 0;
        if (!tally && v->cell_words == 1 && (!pins || !pins->checks)) {
            uint64_t mine = pos->occ[o][0];
            if (pins) mine &= ~pins->pinned[0] & ~(pins->royal == NO_CELL ? 0 : 1ULL << pins->royal);
            if (gating) mine &= ~gates;
            scratch->count = 0;
            if (!count_owner_bits(pos, o, mine, empty, enemy, scratch, &n, &together)) return -1;
            /* (what was written, promotions and en passant, is judged as a free piece's) */
            for (int i = 0; i < scratch->count; i++) n += counted_legal(ctx, pins, pos, &scratch->moves[i], true);
            if (n >= MAX_MOVES / 2 || ctx->attack_fault.set) return -1;
        }
        for (int w = 0; w < v->cell_words; w++)
            for (uint64_t bits = pos->occ[o][w] & ~(w ? 0 : together); bits; bits &= bits - 1) {
                Cell from = (Cell)(w * 64 + __builtin_ctzll(bits));
                bool free = !pins || (from != pins->royal && !pins->checks && !bits_has(pins->pinned, from));
                if (memoize && free && ((held >> from) & 1)) {
                    const TallyMemo *memo = &tally->memo[mover].at[from];
                    size_t reach =
                        ((size_t)o * (size_t)v->ntypes + (size_t)PIECE_TYPE(memo->piece)) * (size_t)v->ncells + from;
                    if (memo->piece == pos->cell[from] && !(v->move_reach[reach] & changed)) {
                        kept |= 1ULL << from;
                        if (!memo->moves) continue;
                        tally->pieces[tally->npieces++] = (TalliedPiece){.from = from,
                                                                         .owner = (uint8_t)o,
                                                                         .moves = memo->moves,
                                                                         .rays = memo->rays,
                                                                         .carried = memo->carried};
                        n += memo->moves;
                        if (n >= MAX_MOVES / 2) return -1;
                        continue;
                    }
                }
                const PieceProgram *pp = &v->types[PIECE_TYPE(pos->cell[from])].per_owner[o];
                int before = n, rays = 0, royal_moves = -1;
                uint64_t legal = 0;
                scratch->count = 0;
                /* (with a tally only: perft's copy of this loop, whose royal piece mostly still
                 * has its castling to run, was slower for the look) */
                if (tally && pins && from == pins->royal &&
                    (royal_moves = royal_rays_legal(pins, pos, pp, o, &legal)) >= 0) {
                    n += royal_moves;
                } else if (!tally && free && pp->bits) {
                    if (!count_bits(pos, pp, o, from, empty, enemy, scratch, &n)) return -1;
                    if (!pins && pp->ncastle_branches && !pp->nlines && !pp->atoms_then_vm)
                        n += count_castles(ctx, pos, pp, o, from, empty);
                    else if (!pp->rest_in_c && pp->rest.count && !count_rest(ctx, pos, pp, o, from, scratch, &n, sets))
                        return -1;
                } else if (free && !pp->may_duplicate) {
                    rays = count_rays(pos, pp, o, from);
                    n += rays;
                    if (pp->rest_in_c) {
                        if (!count_atoms(pos, pp, o, from, scratch, &n)) return -1;
                    } else if (pp->rest.count && !count_rest(ctx, pos, pp, o, from, scratch, &n, sets)) {
                        return -1;
                    }
                    /* (the moves it wrote, a promotion or en passant, are decided each time) */
                    if (memoize && !scratch->count && (pp->rest_in_c || (pp->rest.count <= 1 && !pp->nlines))) {
                        tally->memo[mover].at[from] = (TallyMemo){.piece = pos->cell[from],
                                                                  .moves = (uint16_t)(n - before),
                                                                  .rays = (uint16_t)rays,
                                                                  .carried = !pp->rest.count || pp->rest_in_c};
                        kept |= 1ULL << from;
                    }
                } else if (!gen_piece(ctx, pos, o, from, scratch, NULL)) {
                    return -1;
                }
                /* (the moves counted, not written, only carry the piece: each gated as many
                 * times as there are types to put down) */
                if (gating && ((gates >> from) & 1)) n += (n - before) * gate_types(pos, mover, from);
                /* a free piece's rays, line moves and atoms only carry it, but for en passant
                 * (which removes another piece) and a promotion to a royal type */
                bool carried = free && (!pp->rest.count || pp->rest_in_c);
                for (int i = 0; i < scratch->count; i++) {
                    bool ok = pins && from == pins->royal ? royal_move_legal(ctx, pins, pos, &scratch->moves[i])
                                                          : counted_legal(ctx, pins, pos, &scratch->moves[i], carried);
                    n += ok;
                    if (gating && ok) n += gated_moves(pos, &scratch->moves[i], gates, mover);
                    legal |= (uint64_t)ok << (i & 63);
                }
                if (n >= MAX_MOVES / 2 || ctx->attack_fault.set) return -1;
                if (tally && n > before) {
                    /* (scratch holds all the piece's moves unless its rays were counted) */
                    bool listed = !(free && !pp->may_duplicate) && scratch->count <= 64;
                    tally->pieces[tally->npieces++] = (TalliedPiece){.from = from,
                                                                     .owner = (uint8_t)o,
                                                                     .moves = (uint16_t)(n - before),
                                                                     .rays = (uint16_t)rays,
                                                                     .listed = listed,
                                                                     .carried = carried,
                                                                     .legal = legal};
                }
            }
    }
    if (memoize) {
        tally->memo[mover].ply = pos->ply;
        tally->memo[mover].key = pos->key;
        tally->memo[mover].held = kept;
    }
    return n ? n : -1;
}

/* May the moves that only carry a piece be counted as the pieces' moves are made (by the cells
 * seen, GenContext.count_seen)? Not where the list made is merged, added to or sorted out by
 * other rules after the pieces' moves. */
static bool counted_as_made(const Variant *v) {
    return !v->has_hands && !v->has_drops && !v->has_drop_programs && !v->steered && !v->blast_mask && !v->ntransfer &&
        !v->nextra && !v->ndraws && !v->minefield_zone && !v->nprelude && !v->nphases && !v->npays &&
        !v->forbid_check && !v->reach_sorts_moves && !v->must_capture && !movegen_filters(v);
}

/* movegen_count_legal where every move is legal but captures may be compulsory or filtered
 * (Variant.count_quiet: draughts): the moves that only carry a piece (its move-only rays and
 * atoms) are counted, the others (captures, promotions) listed into ml; when a capture is listed and
 * captures are compulsory, only the captures count. -1 when a piece needs more than that (the
 * usual count then decides, and reports any fault). */
static int count_quiet_and_listed(GenContext *ctx, Position *pos, MoveList *ml) {
    const Variant *v = pos->v;
    ctx->steps_left[pos->ply] = ctx->steps_left[pos->ply + 1] = POSITION_STEP_BUDGET;
    ctx->attack_fault.set = false;
    int mover = board_mover(pos), quiet = 0;
    uint64_t empty[CELL_WORDS], enemy[CELL_WORDS];
    for (int w = 0; w < v->cell_words; w++) {
        empty[w] = ~0ULL;
        enemy[w] = 0;
        for (int o = 0; o < v->nowners; o++) {
            empty[w] &= ~pos->occ[o][w];
            if (pos->controller[o] != mover) enemy[w] |= pos->occ[o][w];
        }
    }
    ml->count = 0;
    for (int o = 0; o < v->nowners; o++) {
        if (pos->controller[o] != mover) continue;
        for (int w = 0; w < v->cell_words; w++)
            for (uint64_t bits = pos->occ[o][w]; bits; bits &= bits - 1) {
                Cell from = (Cell)(w * 64 + __builtin_ctzll(bits));
                const PieceProgram *pp = &v->types[PIECE_TYPE(pos->cell[from])].per_owner[o];
                if (!pp->counts_quietly) return -1;
                int start = ml->count;
                if (pp->step_cells) {
                    /* (the steps' empty targets, a promoting one once per choice; a piece has
                     * few: counted bit by bit) */
                    const uint64_t *to = &pp->step_cells[(size_t)from * CELL_WORDS];
                    for (int k = 0; k < v->cell_words; k++) {
                        for (uint64_t open = to[k] & empty[k]; open; open &= open - 1)
                            quiet += (pp->step_promotes[k] >> __builtin_ctzll(open)) & 1 ? pp->promo_moves : 1;
                    }
                } else {
                    quiet += count_rays(pos, pp, o, from);
                    if ((pp->rest_in_c || pp->atoms_then_vm) && !count_atoms(pos, pp, o, from, ml, &quiet)) return -1;
                }
                if (pp->rest_in_c || pp->rest.count <= 1) continue;
                if (pp->ncapture_guards) {
                    /* (only the branches whose guard holds: the others fail at once) */
                    for (int i = 0; i < pp->ncapture_guards; i++)
                        if (capture_guard_holds(v, &pp->capture_guards[i], from, empty, enemy) &&
                            !vm_run_at(ctx, &pp->rest, pp->capture_guards[i].pc, pos, from, o, ml, NULL))
                            return -1;
                } else if (rest_may_emit(pos, pp, from, o) &&
                           !vm_run_at(ctx, &pp->rest, pp->atoms_then_vm ? pp->rest_vm_entry : 0, pos, from, o, ml,
                                      NULL)) {
                    return -1;
                }
                if (pp->may_duplicate && ml->count > start + 1) merge_duplicates(ml, start);
            }
    }
    if (movegen_filters(v)) filter_moves(pos, ml);
    int captures = 0;
    for (int i = 0; i < ml->count; i++) captures += (ml->moves[i].flags & MOVE_CAPTURE) != 0;
    return v->must_capture && captures ? captures : quiet + ml->count;
}

/* May the drops from the mover's hand be counted rather than listed (count_drops)? Where
 * add_drops alone makes them (and gating, which count_by_pins counts where the pins apply on a
 * board of one word) and no other rule adds to them, requires them or sorts them out (drop
 * programs, `must-drop`, square colours, `forbid drop-check`), and the attack
 * lines alone decide a drop (no capture patterns, no facing royal pieces). */
static inline bool drops_countable(const Variant *v) {
    return (!v->gate_zone || (v->cell_words == 1 && v->pin_legal && !v->every_move_legal)) && !v->has_drop_programs &&
        !v->must_drop && !v->must_drop_types && !v->colour_apart_mask && !v->forbid_drop_check && !v->pattern_types &&
        !v->facing_type;
}

/* The drops from the mover's hand, out of check (pins NULL: every move is legal), as add_drops
 * makes them, counted from the empty cells each type may be dropped on: a drop only blocks
 * attack lines, so out of check each is legal (drop_verdict). Each type puts down its own
 * piece, so no two drops are the same move. -1 when a type needs its drops judged (a royal
 * one). */
static __attribute__((noinline)) int count_drops(const Position *pos, const Pins *pins) {
    const Variant *v = pos->v;
    int mover = board_mover(pos), n = 0;
    if (mover >= v->nplayers) return 0;
    uint64_t empty[CELL_WORDS];
    for (int w = 0; w < v->cell_words; w++) {
        uint64_t full = 0;
        for (int o = 0; o < v->nowners; o++) full |= pos->occ[o][w];
        int left = v->ncells - w * 64; /* (the cells of the last word past the board) */
        empty[w] = ~full & (left >= 64 ? ~0ULL : (1ULL << left) - 1);
    }
    for (int t = 0; t < v->ntypes; t++) {
        if (!pos->hand[mover][variant_base_type(v, t)] || !v->types[t].droppable) continue;
        if (pins && variant_royal(v, mover, t)) return -1;
        uint32_t files[MAX_BOARDS] = {0};
        bool not_doubled = v->types[t].drop_not_doubled;
        if (not_doubled) files_held(pos, mover, t, files);
        for (int w = 0; w < v->cell_words; w++) {
            uint64_t open = empty[w] & v->types[t].drop_cells[mover][w];
            if (!not_doubled) {
                n += cells_in(open);
                continue;
            }
            for (; open; open &= open - 1) {
                const CellInfo *ci = &v->cells[w * 64 + __builtin_ctzll(open)];
                n += !((files[ci->board] >> ci->x) & 1);
            }
        }
    }
    return n;
}

/* Is pos known not to be ended by the position's endings, where only the pieces decide them
 * (Variant.ends_by_board_pieces)? So when its parent was found undecided (pseudo_moves, the
 * last generation) and the move made from it only carried a piece to an empty cell, leaving
 * the hands as they were: each side holds the same pieces. */
static bool known_undecided(const GenContext *ctx, const Position *pos) {
    if (!pos->v->ends_by_board_pieces || pos->ply == 0 || ctx->undecided_ply != pos->ply - 1) return false;
    const Undo *u = &pos->history[pos->ply - 1];
    if (ctx->undecided_key != u->state.key || u->njournal != 2) return false;
    if (pos->v->has_hands && memcmp(u->hands.hand, pos->hand, sizeof pos->hand)) return false;
    Piece old0 = u->journal[0].old, old1 = u->journal[1].old;
    Piece new0 = pos->cell[u->journal[0].cell], new1 = pos->cell[u->journal[1].cell];
    return PIECE_KIND(old0) == PIECE_KIND(new1) && PIECE_KIND(old1) == PIECE_KIND(new0) && !PIECE_KIND(old1) &&
        !PIECE_KIND(new0);
}

int movegen_count_legal(GenContext *ctx, Position *pos, VmFault *fault) {
    MoveList ml;
    const Variant *v = pos->v;
    Pins pins;
    bool found = false;
    Cell forced[MAX_FORCED];
    bool bulk = v->bulk_count && ctx->fast, holds = false;
    if (unlikely(v->bulk_by_position) && bulk) {
        /* (with a hand to drop from, counted by the pieces and the drops when out of check;
         * not where a capture is required) */
        holds = v->has_hands && !board_hand_empty(pos, board_mover(pos));
        bulk = (!holds || drops_countable(v)) && !movegen_forced(pos, forced);
    }
    /* (a game the position has ended has no moves, as in pseudo_moves: once for both counts) */
    if ((bulk || (v->count_quiet && ctx->fast)) && v->decided_by_position && !ctx->diagram &&
        !known_undecided(ctx, pos) && ending_decided(ctx, pos, NULL))
        return 0;
    if (v->count_quiet && ctx->fast) {
        int n = count_quiet_and_listed(ctx, pos, &ml);
        if (n >= 0) return n;
    }
    RoyalLook look;
    if (bulk) {
        /* (the look at the royal piece's attackers decides its moves where they are its rays
         * alone; where a rest program such as castling runs, readying it costs more than it
         * saves) */
        find_pins(ctx, pos, &pins, v->royal_rays_only ? &look : NULL);
        found = true;
        /* (out of check, the royal piece is known not attacked) */
        ctx->unattacked = pins.on && !pins.checks ? pins.royal : NO_CELL;
        int n = v->every_move_legal              ? count_by_pins(ctx, pos, NULL, &ml, NULL, false, false)
            : !pins.on || (holds && pins.checks) ? -1
            : unlikely(holds) && v->gate_zone    ? count_by_pins(ctx, pos, &pins, &ml, NULL, false, true)
                                                 : count_by_pins(ctx, pos, &pins, &ml, NULL, false, false);
        ctx->unattacked = NO_CELL;
        if (unlikely(holds) && n >= 0) {
            int drops = count_drops(pos, v->every_move_legal ? NULL : &pins);
            n = drops < 0 || n + drops >= MAX_MOVES / 2 ? -1 : n + drops;
        }
        if (n >= 0) return n;
    }
    int nforced = movegen_forced(pos, forced);
    if (!found && v->all_fast && ctx->fast) {
        /* (first, so that the cells seen may count moves as they are made; the test runs no
         * program) */
        movegen_find_pins(ctx, pos, &pins);
        found = true;
    }
    bool count_carried = found && pins.by_seen && !pins.seen_check && !nforced && counted_as_made(v);
    ctx->count_seen = count_carried ? pins.seen : NULL;
    ctx->carried = 0;
    pseudo_moves(ctx, pos, &ml, fault, false);
    ctx->count_seen = NULL;
    if (unlikely(ctx->carried && ctx->carried + ml.count >= MAX_MOVES)) {
        /* (so many moves that the list would be full: listed again, to fail as listing does) */
        ctx->carried = 0;
        pseudo_moves(ctx, pos, &ml, fault, false);
    }
    bool captures_only = unlikely(pos->v->must_capture) && movegen_must_capture(ctx, pos, &ml);
    if (!found) movegen_find_pins(ctx, pos, &pins);
    int n = ctx->carried;
    if (pins.by_seen && !nforced && !captures_only) {
        /* (the cells seen decide most moves, and nothing else sorts them out) */
        for (int i = 0; i < ml.count; i++) {
            int verdict = seen_verdict(&pins, pos, &ml.moves[i]);
            n += verdict >= 0 ? verdict : movegen_is_legal(ctx, pos, &ml.moves[i]);
        }
    } else {
        for (int i = 0; i < ml.count; i++)
            if (movegen_captures_all(&ml.moves[i], forced, nforced) && movegen_allowed(&ml.moves[i], captures_only) &&
                legal_by_pins(ctx, &pins, pos, &ml.moves[i]))
                n++;
    }
    Move pass;
    if (n == 0 && !nforced && movegen_stalemate_pass(ctx, pos, &pass)) n = 1;
    attack_take_fault(ctx, fault);
    return n;
}

bool movegen_tally_legal(GenContext *ctx, Position *pos, LegalTally *t, MoveList *scratch) {
    const Variant *v = pos->v;
    Cell forced[MAX_FORCED];
    t->count = -1;
    t->npieces = 0;
    /* (where movegen_count_legal counts so; a position that ended the game has no moves. With
     * capture patterns, a hop's screen often makes the count fall back on the list, and the
     * pins would be found twice: the list is cheaper there. Under `end checks` the moves played
     * must carry their check marks, which only the list writes) */
    if (!v->bulk_count || v->pattern_types || v->check_limit || !ctx->fast ||
        (v->has_hands && !board_hand_empty(pos, board_mover(pos))) || (v->nforced && movegen_forced(pos, forced)) ||
        (v->decided_by_position && !ctx->diagram && ending_decided(ctx, pos, NULL)))
        return false;
    find_pins(ctx, pos, &t->pins, &t->look);
    t->tested = !v->every_move_legal;
    if (t->tested && !t->pins.on) return false;
    ctx->unattacked = t->pins.on && !t->pins.checks ? t->pins.royal : NO_CELL; /* (as movegen_count_legal) */
    /* (a copy of the count without the memos where the game has none) */
    const Pins *pins = t->tested ? &t->pins : NULL;
    t->count = t->reuse && v->move_reach ? count_by_pins(ctx, pos, pins, scratch, t, true, false)
                                         : count_by_pins(ctx, pos, pins, scratch, t, false, false);
    ctx->unattacked = NO_CELL;
    return t->count > 0;
}

/* The ray move of that index of a tallied piece whose rays were counted, as gen_rays writes
 * it (into out): only that one is written. */
static const Move *nth_ray_move(const Position *pos, const TalliedPiece *tp, int index, MoveList *out) {
    const Variant *v = pos->v;
    const PieceProgram *pp = &v->types[PIECE_TYPE(pos->cell[tp->from])].per_owner[tp->owner];
    for (int i = 0; i < pp->ngen; i++) {
        const Ray *r = &pp->gen[i];
        Cell c = tp->from;
        for (int k = 0; !r->range || k < r->range; k++) {
            c = variant_step(v, c, r->dir);
            if (c == NO_CELL) break;
            Piece p = pos->cell[c];
            bool capture = p && r->mode != RAY_MOVE && board_hostile(pos, PIECE_OWNER(p), tp->owner);
            if (((!p && r->mode != RAY_CAPTURE) || capture) && index-- == 0) {
                add_simple(out, tp->from, c, capture);
                return &out->moves[out->count - 1];
            }
            if (p || !r->slide) break;
        }
    }
    return NULL;
}

const Move *movegen_tally_move(GenContext *ctx, Position *pos, const LegalTally *t, int index, MoveList *scratch) {
    int k = 0;
    while (k < t->npieces && index >= t->pieces[k].moves) index -= t->pieces[k++].moves;
    if (k == t->npieces) return NULL;
    /* the piece's moves again, with the budget a position starts with */
    ctx->steps_left[pos->ply] = ctx->steps_left[pos->ply + 1] = POSITION_STEP_BUDGET;
    scratch->count = 0;
    const TalliedPiece *tp = &t->pieces[k];
    if (index < tp->rays) return nth_ray_move(pos, tp, index, scratch);
    if (!gen_piece(ctx, pos, tp->owner, tp->from, scratch, NULL)) return NULL;
    for (int i = 0; i < scratch->count; i++)
        if ((tp->listed ? (tp->legal >> i) & 1
                        : counted_legal(ctx, t->tested ? &t->pins : NULL, pos, &scratch->moves[i], tp->carried)) &&
            index-- == 0)
            return &scratch->moves[i];
    return NULL;
}
