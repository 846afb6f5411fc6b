/* compile.c - code generation: each piece type's items (atoms, castling, move blocks) become
 * one program per owner, a chain of alternatives joined by FORK. Plain leaps and slides are
 * also recorded as rays for the fast generator and the fast attack test. */
#include "compile.h"

#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "vm.h"

typedef struct CG {
    Sema *s;
    Variant *v;
    int type, owner;
    int promo; /* promotion set for this type, 0 = none */
    bool ok;
    bool in_drop; /* compiling a drop program: no piece moves, `add` puts a new one down */
    int probes;   /* inside so many `exists` blocks (which only ask whether a path gets through) */
} CG;

#define L(n) (n)->loc.line, (n)->loc.col

static bool has_mod(const Ast *atom, ModKind m, const Ast **out) {
    for (int i = 0; i < atom->nkids; i++)
        if (atom->kids[i]->kind == AST_MOD && atom->kids[i]->sub == (int)m) {
            if (out) *out = atom->kids[i];
            return true;
        }
    return false;
}

/* A plain step/leap/slide that can capture by landing on an enemy (no capture-by-moving
 * modifier): what a king or rook captures with. */
static bool atom_is_plain_capture(const Ast *atom) {
    if (atom->sub != ATOM_STEP && atom->sub != ATOM_LEAP && atom->sub != ATOM_SLIDE) return false;
    for (int i = 0; i < atom->nkids; i++) {
        const Ast *k = atom->kids[i];
        if (k->kind == AST_MOD &&
            (k->sub == MOD_MOVE_ONLY || k->sub == MOD_WITHDRAW || k->sub == MOD_PINCER || k->sub == MOD_COORDINATE ||
             k->sub == MOD_IMITATE || k->sub == MOD_LEAPS_ALONE || k->sub == MOD_FROM || k->sub == MOD_TO ||
             k->sub == MOD_SETS_EP))
            return false;
    }
    return true;
}

/* A resolved direction (a link, or a vector as player 0 writes it) for this owner: its
 * `symmetry` maps it where it names it, else its orientation turns a vector. -1 after an
 * error. */
static int owner_dir(CG *cg, int dx, int dy, int link, SrcLoc loc) {
    Variant *v = cg->v;
    if (v->has_symmetry) {
        int written = link >= 0 ? link : sema_vector_dir(cg->s, dx, dy, loc);
        if (written < 0) return -1;
        if (v->dir_map[cg->owner][written] >= 0) return v->dir_map[cg->owner][written];
    }
    if (link >= 0) return link;
    int ox, oy;
    variant_orient_vector(v->orient[cg->owner], dx, dy, &ox, &oy);
    return sema_vector_dir(cg->s, ox, oy, loc);
}

/* Resolves an atom's direction terms for this owner into direction indexes. */
static int atom_dirs(CG *cg, const Ast *atom, int *dirs, int cap) {
    DirList dl = {0};
    for (int i = 0; i < atom->nkids; i++) {
        const Ast *t = atom->kids[i];
        if (t->kind == AST_MOD) continue;
        if (!sema_dirterm(cg->s, t, &dl)) cg->ok = false;
    }
    int n = 0;
    for (int i = 0; i < dl.count && n < cap; i++) {
        int d = owner_dir(cg, dl.dx[i], dl.dy[i], dl.link[i], atom->loc);
        if (d < 0) {
            cg->ok = false;
            continue;
        }
        dirs[n++] = d;
    }
    return n;
}

/* One direction term that must name exactly one direction (STEP, ONBOARD in move blocks). */
static int single_dir(CG *cg, const Ast *t) {
    DirList dl = {0};
    if (!sema_dirterm(cg->s, t, &dl)) {
        cg->ok = false;
        return -1;
    }
    if (dl.count != 1) {
        diag_error(cg->s->sink, t->loc, "expected one direction, but '%s' names %d", t->text ? t->text : "sym",
                   dl.count);
        cg->ok = false;
        return -1;
    }
    int d = owner_dir(cg, dl.dx[0], dl.dy[0], dl.link[0], t->loc);
    if (d < 0) cg->ok = false;
    return d;
}

static int zone_operand(CG *cg, const char *name, SrcLoc loc) {
    int z = sema_zone(cg->s, name, sema_word_loc(cg->s, loc, name));
    if (z < 0) cg->ok = false;
    return z < 0 ? 0 : z;
}

/* Target test for an atom's last cell: move-only, capture-only or either (not a friend). */
static void emit_target(CG *cg, Program *p, const Ast *atom) {
    if (has_mod(atom, MOD_MOVE_ONLY, NULL)) {
        bc_emit(p, OP_EMPTY, 0, L(atom));
    } else if (has_mod(atom, MOD_CAPTURE_ONLY, NULL)) {
        bc_emit(p, OP_ENEMY, 0, L(atom));
    } else {
        bc_emit(p, OP_FRIEND, 0, L(atom));
        bc_emit(p, OP_NOT, 0, L(atom));
    }
    bc_emit(p, OP_VERIFY, 0, L(atom));
    const Ast *to;
    if (has_mod(atom, MOD_TO, &to)) {
        bc_emit(p, OP_INZONE, zone_operand(cg, to->text, to->loc), L(to));
        bc_emit(p, OP_VERIFY, 0, L(to));
    }
}

static void emit_from(CG *cg, Program *p, const Ast *atom) {
    const Ast *from;
    if (has_mod(atom, MOD_FROM, &from)) {
        bc_emit(p, OP_INZONE, zone_operand(cg, from->text, from->loc), L(from));
        bc_emit(p, OP_VERIFY, 0, L(from));
    }
}

/* Starts an alternative; returns the FORK to patch with the next alternative's offset. */
static int alt_begin(Program *p, const Ast *n) { return bc_emit(p, OP_FORK, 0, L(n)); }
static void alt_end(Program *p, const Ast *n, int fork) {
    bc_emit(p, OP_HALT, 0, L(n));
    bc_patch(p, fork, p->count);
}

/* A slide's step limit, 0 for none. No line on a board is longer than MAX_BOARD_DIM cells, so a
 * larger range is no limit (and a bad one, reported by compile_piece, counts as none). */
static int slide_range(const Ast *atom) {
    const Ast *range = NULL;
    if (!has_mod(atom, MOD_RANGE, &range) || range->num[0] < 1 || range->num[0] >= MAX_BOARD_DIM) return 0;
    return (int)range->num[0];
}

struct Captures;
static int slide_operand(CG *cg, const Ast *atom, int d, const struct Captures *c);

static void emit_slide(CG *cg, Program *p, const Ast *atom, int d) {
    int r = slide_range(atom);
    bool move_only = has_mod(atom, MOD_MOVE_ONLY, NULL), capture_only = has_mod(atom, MOD_CAPTURE_ONLY, NULL);
    const Ast *to = NULL;
    has_mod(atom, MOD_TO, &to);
    if (!r && !to && !cg->promo && !capture_only) {
        bc_emit(p, OP_SLIDE, slide_operand(cg, atom, d, NULL), L(atom));
        if (move_only) {
            bc_emit(p, OP_HALT, 0, L(atom));
            return;
        }
        bc_emit(p, OP_ENEMY, 0, L(atom));
        bc_emit(p, OP_VERIFY, 0, L(atom));
        bc_emit(p, OP_ADD, cg->promo, L(atom));
        return;
    }
    int steps = r ? r : 1;
    int loop_start = p->count;
    int occupied_jumps[MAX_BOARD_DIM * 2 + 2];
    int nocc = 0;
    for (int k = 0; k < steps; k++) {
        if (k == 0) loop_start = p->count;
        bc_emit(p, OP_STEP, d, L(atom));
        bc_emit(p, OP_EMPTY, 0, L(atom));
        occupied_jumps[nocc++] = bc_emit(p, OP_JF, 0, L(atom));
        if (!capture_only) {
            int skip = -1;
            if (to) {
                bc_emit(p, OP_INZONE, zone_operand(cg, to->text, to->loc), L(to));
                skip = bc_emit(p, OP_JF, 0, L(to));
            }
            bc_emit(p, OP_ADD, cg->promo, L(atom));
            if (skip >= 0) bc_patch(p, skip, p->count);
        }
    }
    if (!r)
        bc_emit(p, OP_JUMP, loop_start, L(atom));
    else
        bc_emit(p, OP_HALT, 0, L(atom));
    int occupied = p->count;
    for (int i = 0; i < nocc; i++) bc_patch(p, occupied_jumps[i], occupied);
    if (move_only) {
        bc_emit(p, OP_HALT, 0, L(atom));
        return;
    }
    bc_emit(p, OP_ENEMY, 0, L(atom));
    bc_emit(p, OP_VERIFY, 0, L(atom));
    if (to) {
        bc_emit(p, OP_INZONE, zone_operand(cg, to->text, to->loc), L(to));
        bc_emit(p, OP_VERIFY, 0, L(to));
    }
    bc_emit(p, OP_ADD, cg->promo, L(atom));
}

/* Compiles one atom into p (one alternative per direction). */
static void emit_atom(CG *cg, Program *p, const Ast *atom) {
    int dirs[MAX_DIRECTIONS];
    int nd;
    if (atom->sub == ATOM_LEGS) {
        /* one path: every leg but the last must land on an empty cell */
        int fork = alt_begin(p, atom);
        emit_from(cg, p, atom);
        int nlegs = 0;
        for (int i = 0; i < atom->nkids; i++)
            if (atom->kids[i]->kind != AST_MOD) nlegs++;
        if (nlegs < 1) {
            diag_error(cg->s->sink, atom->loc, "legs needs at least one direction");
            cg->ok = false;
        }
        int leg = 0;
        for (int i = 0; i < atom->nkids; i++) {
            const Ast *t = atom->kids[i];
            if (t->kind == AST_MOD) continue;
            int d = single_dir(cg, t);
            bc_emit(p, OP_STEP, d < 0 ? 0 : d, L(t));
            if (++leg < nlegs) {
                bc_emit(p, OP_EMPTY, 0, L(t));
                bc_emit(p, OP_VERIFY, 0, L(t));
                if (has_mod(atom, MOD_SETS_EP, NULL)) bc_emit(p, OP_SETEP, 0, L(t));
            }
        }
        emit_target(cg, p, atom);
        bc_emit(p, OP_ADD, cg->promo, L(atom));
        alt_end(p, atom, fork);
        return;
    }
    nd = atom_dirs(cg, atom, dirs, MAX_DIRECTIONS);
    bool named = false; /* directions that failed to resolve were reported already */
    for (int i = 0; i < atom->nkids; i++) named = named || atom->kids[i]->kind != AST_MOD;
    if (!named) {
        diag_error(cg->s->sink, atom->loc, "this move names no direction");
        cg->ok = false;
    }
    for (int i = 0; i < nd; i++) {
        int fork = alt_begin(p, atom);
        emit_from(cg, p, atom);
        int d = dirs[i];
        switch (atom->sub) {
        case ATOM_STEP:
        case ATOM_LEAP:
            bc_emit(p, OP_STEP, d, L(atom));
            emit_target(cg, p, atom);
            bc_emit(p, OP_ADD, cg->promo, L(atom));
            break;
        case ATOM_SLIDE: emit_slide(cg, p, atom, d); break;
        case ATOM_HOP: {
            int loop = p->count;
            bc_emit(p, OP_STEP, d, L(atom));
            bc_emit(p, OP_EMPTY, 0, L(atom));
            bc_emit(p, OP_JT, loop, L(atom));
            bc_emit(p, OP_STEP, d, L(atom));
            emit_target(cg, p, atom);
            bc_emit(p, OP_ADD, cg->promo, L(atom));
            break;
        }
        case ATOM_EN_PASSANT:
            bc_emit(p, OP_STEP, d, L(atom));
            bc_emit(p, OP_ISEP, 0, L(atom));
            bc_emit(p, OP_VERIFY, 0, L(atom));
            bc_emit(p, OP_CAPTUREEP, 0, L(atom));
            bc_emit(p, OP_ADD, cg->promo, L(atom));
            break;
        default: UNREACHABLE();
        }
        alt_end(p, atom, fork);
    }
}

/* ---- capture by moving: withdrawal, custodian, coordination, long leaps, imitation ---------- */

/* Index of a piece-type set in the variant's table, adding it when new. */
static int typeset(CG *cg, uint32_t mask, SrcLoc loc) {
    Variant *v = cg->v;
    for (int i = 0; i < v->ntypesets; i++)
        if (v->typesets[i] == mask) return i;
    if (v->ntypesets >= MAX_TYPESETS) {
        diag_error(cg->s->sink, loc, "too many distinct capture victim sets (limit is %d)", MAX_TYPESETS);
        cg->ok = false;
        return 0;
    }
    v->typesets[v->ntypesets] = mask;
    return v->ntypesets++;
}

/* Which captures a move along one direction makes, as victim type masks (0 = none). */
typedef struct Captures {
    uint32_t withdraw, pincer, coordinate, leap;
} Captures;

static bool atom_has_dir(CG *cg, const Ast *atom, int d) {
    int dirs[MAX_DIRECTIONS];
    int nd = atom_dirs(cg, atom, dirs, MAX_DIRECTIONS);
    for (int i = 0; i < nd; i++)
        if (dirs[i] == d) return true;
    return false;
}

static bool is_imitator(const Ast *items) {
    for (int i = 0; i < items->nkids; i++)
        if (items->kids[i]->kind == AST_ATOM && has_mod(items->kids[i], MOD_IMITATE, NULL)) return true;
    return false;
}

/* The captures an imitator makes moving along d: each other type's capture method, against
 * that type only, when that type could make the same move. */
static Captures imitated(CG *cg, int d) {
    Captures c = {0};
    for (int t = 0; t < cg->v->ntypes; t++) {
        const Ast *items = cg->s->piece_items[t];
        if (!items || is_imitator(items)) continue;
        for (int i = 0; i < items->nkids; i++) {
            const Ast *a = items->kids[i];
            if (a->kind != AST_ATOM) continue;
            bool w = has_mod(a, MOD_WITHDRAW, NULL), p = has_mod(a, MOD_PINCER, NULL);
            bool co = has_mod(a, MOD_COORDINATE, NULL), l = a->sub == ATOM_LONG_LEAP;
            if (!(w || p || co || l) || !atom_has_dir(cg, a, d)) continue;
            if (w) c.withdraw |= 1u << t;
            if (p) c.pincer |= 1u << t;
            if (co) c.coordinate |= 1u << t;
            if (l) c.leap |= 1u << t;
        }
    }
    return c;
}

/* The captures a capturing atom's move along d makes (an imitator's from the other types). */
static Captures captures_along(CG *cg, const Ast *atom, int d) {
    Captures c = {0};
    if (has_mod(atom, MOD_IMITATE, NULL)) c = imitated(cg, d);
    if (has_mod(atom, MOD_WITHDRAW, NULL)) c.withdraw = ALL_TYPES;
    if (has_mod(atom, MOD_PINCER, NULL)) c.pincer = ALL_TYPES;
    if (has_mod(atom, MOD_COORDINATE, NULL)) c.coordinate = ALL_TYPES;
    if (atom->sub == ATOM_LONG_LEAP) c.leap = ALL_TYPES;
    return c;
}

/* A landing: emit the move with the captures that depend on where it ends. Those captures
 * are scoped by a FORK so they do not carry over to the next landing of the same slide. */
static void emit_landing(CG *cg, Program *p, const Ast *atom, const Captures *c) {
    if (!c->pincer && !c->coordinate) {
        bc_emit(p, OP_ADD, cg->promo, L(atom));
        return;
    }
    int fork = bc_emit(p, OP_FORK, 0, L(atom));
    if (c->pincer) bc_emit(p, OP_PINCER, typeset(cg, c->pincer, atom->loc), L(atom));
    if (c->coordinate) bc_emit(p, OP_COORD, typeset(cg, c->coordinate, atom->loc), L(atom));
    bc_emit(p, OP_ADD, cg->promo, L(atom));
    bc_emit(p, OP_HALT, 0, L(atom));
    bc_patch(p, fork, p->count);
}

static void emit_withdraw(CG *cg, Program *p, const Ast *atom, int d, const Captures *c) {
    if (!c->withdraw) return;
    const Direction *dir = &cg->v->dirs[d];
    if (dir->link_board >= 0) return;
    int back = sema_vector_dir(cg->s, -dir->dx, -dir->dy, atom->loc);
    if (back < 0) {
        cg->ok = false;
        return;
    }
    bc_emit(p, OP_WITHDRAW, back | (typeset(cg, c->withdraw, atom->loc) << 8), L(atom));
}

/* SLIDE along d with the landing captures of c: its operand (dir, pincer set, coordinator set). */
static int slide_operand(CG *cg, const Ast *atom, int d, const struct Captures *c) {
    int ps = c && c->pincer ? typeset(cg, c->pincer, atom->loc) : 0xFF;
    int cs = c && c->coordinate ? typeset(cg, c->coordinate, atom->loc) : 0xFF;
    return d | (ps << 8) | (cs << 16);
}

/* Jumping one enemy of the victim set: it is captured, and the cell beyond must be empty. */
static void emit_jump(Program *p, const Ast *atom, int d, int victims) {
    bc_emit(p, OP_ENEMY, 0, L(atom));
    bc_emit(p, OP_VERIFY, 0, L(atom));
    bc_emit(p, OP_TYPEIN, victims, L(atom));
    bc_emit(p, OP_VERIFY, 0, L(atom));
    bc_emit(p, OP_CAPTURE, 0, L(atom));
    bc_emit(p, OP_STEP, d, L(atom));
    bc_emit(p, OP_EMPTY, 0, L(atom));
    bc_emit(p, OP_VERIFY, 0, L(atom));
}

/* Rides along d over empty cells, each one a landing when `land`; cur ends on the first piece
 * (the path fails at the board's edge). One SLIDE or RIDE when it can, else a STEP loop. */
static void emit_ride(CG *cg, Program *p, const Ast *atom, int d, const Captures *c, bool land) {
    if (land && !cg->promo) {
        bc_emit(p, OP_SLIDE, slide_operand(cg, atom, d, c), L(atom));
        return;
    }
    if (!land) {
        bc_emit(p, OP_RIDE, d, L(atom));
        return;
    }
    int top = p->count;
    bc_emit(p, OP_STEP, d, L(atom));
    bc_emit(p, OP_EMPTY, 0, L(atom));
    int occupied = bc_emit(p, OP_JF, 0, L(atom));
    if (land) emit_landing(cg, p, atom, c);
    bc_emit(p, OP_JUMP, top, L(atom));
    bc_patch(p, occupied, p->count);
}

/* Long leap along d: slide over empty cells (landings only when `plain`), jump single enemies
 * of c->leap, and land on any empty cell after a jump. */
static void emit_long_leap(CG *cg, Program *p, const Ast *atom, int d, const Captures *c, bool plain) {
    int victims = typeset(cg, c->leap, atom->loc);
    emit_ride(cg, p, atom, d, c, plain);
    /* cur is on the first piece: jump it, land, and go on */
    emit_jump(p, atom, d, victims);
    int after = p->count;
    emit_landing(cg, p, atom, c);
    emit_ride(cg, p, atom, d, c, true);
    emit_jump(p, atom, d, victims);
    bc_emit(p, OP_JUMP, after, L(atom));
}

/* Slide along d landing on empty cells (and on an enemy unless move-only), with captures; with
 * `to ZONE`, landing only in the zone (riding on over the cells outside it). */
static void emit_capturing_slide(CG *cg, Program *p, const Ast *atom, int d, const Captures *c) {
    const Ast *to = NULL;
    if (has_mod(atom, MOD_TO, &to)) {
        int z = zone_operand(cg, to->text, to->loc);
        int top = bc_emit(p, OP_STEP, d, L(atom));
        bc_emit(p, OP_EMPTY, 0, L(atom));
        int occupied = bc_emit(p, OP_JF, 0, L(atom));
        bc_emit(p, OP_INZONE, z, L(to));
        bc_emit(p, OP_JF, top, L(to));
        emit_landing(cg, p, atom, c);
        bc_emit(p, OP_JUMP, top, L(atom));
        bc_patch(p, occupied, p->count);
        if (has_mod(atom, MOD_MOVE_ONLY, NULL)) {
            bc_emit(p, OP_HALT, 0, L(atom));
            return;
        }
        bc_emit(p, OP_ENEMY, 0, L(atom));
        bc_emit(p, OP_VERIFY, 0, L(atom));
        bc_emit(p, OP_INZONE, z, L(to));
        bc_emit(p, OP_VERIFY, 0, L(to));
        emit_landing(cg, p, atom, c);
        return;
    }
    emit_ride(cg, p, atom, d, c, true);
    if (has_mod(atom, MOD_MOVE_ONLY, NULL)) {
        bc_emit(p, OP_HALT, 0, L(atom));
        return;
    }
    bc_emit(p, OP_ENEMY, 0, L(atom));
    bc_emit(p, OP_VERIFY, 0, L(atom));
    emit_landing(cg, p, atom, c);
}

/* The imitator's displacement captures: another type's capturing steps/leaps/slides, against
 * that type only (a chameleon stepping onto a king). */
static void emit_imitated_displacements(CG *cg, Program *p, const Ast *atom) {
    for (int t = 0; t < cg->v->ntypes; t++) {
        const Ast *items = cg->s->piece_items[t];
        if (!items || is_imitator(items)) continue;
        for (int i = 0; i < items->nkids; i++) {
            const Ast *a = items->kids[i];
            if (a->kind != AST_ATOM || !atom_is_plain_capture(a)) continue;
            int dirs[MAX_DIRECTIONS];
            int nd = atom_dirs(cg, a, dirs, MAX_DIRECTIONS);
            int victims = typeset(cg, 1u << t, atom->loc);
            for (int k = 0; k < nd; k++) {
                int fork = alt_begin(p, atom);
                int top = p->count;
                bc_emit(p, OP_STEP, dirs[k], L(atom));
                if (a->sub == ATOM_SLIDE) {
                    bc_emit(p, OP_EMPTY, 0, L(atom));
                    bc_emit(p, OP_JT, top, L(atom));
                }
                bc_emit(p, OP_ENEMY, 0, L(atom));
                bc_emit(p, OP_VERIFY, 0, L(atom));
                bc_emit(p, OP_TYPEIN, victims, L(atom));
                bc_emit(p, OP_VERIFY, 0, L(atom));
                bc_emit(p, OP_ADD, cg->promo, L(atom));
                alt_end(p, atom, fork);
            }
        }
    }
}

static bool atom_captures_by_moving(const Ast *atom) {
    return atom->sub == ATOM_LONG_LEAP || has_mod(atom, MOD_WITHDRAW, NULL) || has_mod(atom, MOD_PINCER, NULL) ||
        has_mod(atom, MOD_COORDINATE, NULL) || has_mod(atom, MOD_IMITATE, NULL);
}

/* Adds direction dir to the pattern (method, victims, jumps), creating it when new. */
static void add_pattern(PieceProgram *pp, bool *fast_attack, int method, int dir, uint32_t victims, uint32_t jumps) {
    if (!victims) return;
    CapturePattern *cp = NULL;
    for (int i = 0; i < pp->npatterns && !cp; i++)
        if (pp->patterns[i].method == method && pp->patterns[i].victims == victims && pp->patterns[i].jumps == jumps)
            cp = &pp->patterns[i];
    if (!cp) {
        if (pp->npatterns >= MAX_PATTERNS) {
            *fast_attack = false;
            return;
        }
        cp = &pp->patterns[pp->npatterns++];
        *cp = (CapturePattern){.method = (uint8_t)method, .victims = victims, .jumps = jumps};
    }
    for (int i = 0; i < cp->ndirs; i++)
        if (cp->dirs[i] == dir) return;
    if (cp->ndirs >= (int)sizeof cp->dirs) {
        *fast_attack = false;
        return;
    }
    cp->dirs[cp->ndirs++] = (uint8_t)dir;
}

/* The attack-test description of a capturing atom: patterns for captures by moving, rays with
 * a victim filter for an imitator's displacements. Clears *fast_attack when it cannot be
 * described (ranges, zones, links): then the attack test runs the program. */
static void describe_capturing_atom(CG *cg, PieceProgram *pp, const Ast *atom, bool *fast_attack) {
    if (has_mod(atom, MOD_LEAPS_ALONE, NULL) && !has_mod(atom, MOD_IMITATE, NULL)) {
        diag_error(cg->s->sink, atom->loc, "leaps-alone goes with imitate");
        cg->ok = false;
    }
    const Ast *limit = NULL;
    /* (`to` limits the landings of a slide that withdraws or pincers) */
    bool to_fits = atom->sub == ATOM_SLIDE && !has_mod(atom, MOD_IMITATE, NULL) && !has_mod(atom, MOD_COORDINATE, NULL);
    if (has_mod(atom, MOD_RANGE, &limit)) {
        /* (the code of these moves has no such limit: refused rather than ignored) */
        diag_error(cg->s->sink, limit->loc,
                   "'range' does not go with long-leap, withdraw, pincer, coordinate or imitate");
        cg->ok = false;
    } else if (!to_fits && has_mod(atom, MOD_TO, &limit)) {
        diag_error(cg->s->sink, limit->loc, "'to' does not go with long-leap, coordinate or imitate");
        cg->ok = false;
    }
    if (has_mod(atom, MOD_RANGE, NULL) || has_mod(atom, MOD_FROM, NULL) || has_mod(atom, MOD_TO, NULL) ||
        (!has_mod(atom, MOD_MOVE_ONLY, NULL) && atom->sub == ATOM_SLIDE)) {
        *fast_attack = false;
        return;
    }
    int dirs[MAX_DIRECTIONS];
    int nd = atom_dirs(cg, atom, dirs, MAX_DIRECTIONS);
    bool imitate = has_mod(atom, MOD_IMITATE, NULL);
    for (int i = 0; i < nd; i++) {
        int d = dirs[i];
        if (cg->v->dirs[d].link_board >= 0) {
            *fast_attack = false;
            return;
        }
        Captures c = captures_along(cg, atom, d);
        /* a long leap lands, and withdraws, after jumps too; so does an imitator's leap over
         * the leapers it imitates, unless its leaps capture only what they leap */
        uint32_t jumps = atom->sub == ATOM_LONG_LEAP || !has_mod(atom, MOD_LEAPS_ALONE, NULL) ? c.leap : 0;
        add_pattern(pp, fast_attack, CAP_WITHDRAW, d, c.withdraw, jumps);
        add_pattern(pp, fast_attack, CAP_PINCER, d, c.pincer, jumps);
        add_pattern(pp, fast_attack, CAP_COORDINATE, d, c.coordinate, jumps);
        add_pattern(pp, fast_attack, CAP_LEAP, d, c.leap, 0);
    }
    if (!imitate) return;
    /* an imitator's displacements: the other types' capturing rays, against that type only */
    for (int t = 0; t < cg->v->ntypes; t++) {
        const Ast *items = cg->s->piece_items[t];
        if (!items || is_imitator(items)) continue;
        for (int i = 0; i < items->nkids; i++) {
            const Ast *a = items->kids[i];
            if (a->kind != AST_ATOM || !atom_is_plain_capture(a)) continue;
            if (has_mod(a, MOD_RANGE, NULL)) {
                *fast_attack = false;
                continue;
            }
            int ad[MAX_DIRECTIONS];
            int n = atom_dirs(cg, a, ad, MAX_DIRECTIONS);
            for (int k = 0; k < n && pp->natk < MAX_DIRECTIONS; k++)
                pp->atk[pp->natk++] = (Ray){.dir = (uint8_t)ad[k],
                                            .slide = a->sub == ATOM_SLIDE,
                                            .range = 0,
                                            .mode = RAY_CAPTURE,
                                            .victims = 1u << t};
            if (pp->natk >= MAX_DIRECTIONS) *fast_attack = false;
        }
    }
}

/* The zone a `from`/`to` modifier names, as index + 1 (0: no such modifier). */
static uint8_t mod_zone(CG *cg, const Ast *atom, int mod) {
    const Ast *m = NULL;
    if (!has_mod(atom, mod, &m)) return 0;
    return (uint8_t)(zone_operand(cg, m->text, m->loc) + 1);
}

/* A capturing `legs` atom as an attack pattern: the legs in order, checked backwards from the
 * victim (each cell before the last must be empty), with its zones. Atoms of the same length
 * and zones share one pattern (a horse's eight moves are one test). En-passant cells: not
 * described. */
static void describe_legs(CG *cg, PieceProgram *pp, const Ast *atom, bool *fast_attack) {
    if (has_mod(atom, MOD_SETS_EP, NULL)) {
        *fast_attack = false;
        return;
    }
    CapturePattern seq = {.method = CAP_LEGS,
                          .victims = ALL_TYPES,
                          .from_zone = mod_zone(cg, atom, MOD_FROM),
                          .to_zone = mod_zone(cg, atom, MOD_TO)};
    for (int i = 0; i < atom->nkids; i++) {
        const Ast *t = atom->kids[i];
        if (t->kind == AST_MOD) continue;
        int d = single_dir(cg, t);
        if (d < 0 || cg->v->dirs[d].link_board >= 0 || seq.ndirs >= (int)sizeof seq.dirs) {
            *fast_attack = false;
            return;
        }
        seq.dirs[seq.ndirs++] = (uint8_t)d;
    }
    seq.nlegs = seq.ndirs;
    for (int i = 0; i < pp->npatterns; i++) {
        CapturePattern *cp = &pp->patterns[i];
        if (cp->method == CAP_LEGS && cp->nlegs == seq.nlegs && cp->from_zone == seq.from_zone &&
            cp->to_zone == seq.to_zone && cp->ndirs + seq.ndirs <= (int)sizeof cp->dirs) {
            memcpy(cp->dirs + cp->ndirs, seq.dirs, seq.ndirs);
            cp->ndirs = (uint8_t)(cp->ndirs + seq.ndirs);
            return;
        }
    }
    if (pp->npatterns >= MAX_PATTERNS) {
        *fast_attack = false;
        return;
    }
    pp->patterns[pp->npatterns++] = seq;
}

/* Slides and long leaps whose captures come from how they move. */
static void emit_capturing_atom(CG *cg, Program *p, const Ast *atom) {
    if (atom->sub != ATOM_SLIDE && atom->sub != ATOM_LONG_LEAP) {
        diag_error(cg->s->sink, atom->loc, "withdraw, pincer, coordinate and imitate go with slide or long-leap");
        cg->ok = false;
        return;
    }
    int dirs[MAX_DIRECTIONS];
    int nd = atom_dirs(cg, atom, dirs, MAX_DIRECTIONS);
    bool imitate = has_mod(atom, MOD_IMITATE, NULL);
    for (int i = 0; i < nd; i++) {
        int d = dirs[i];
        Captures c = captures_along(cg, atom, d);
        int fork = alt_begin(p, atom);
        emit_from(cg, p, atom);
        emit_withdraw(cg, p, atom, d, &c);
        if (atom->sub == ATOM_LONG_LEAP)
            emit_long_leap(cg, p, atom, d, &c, true);
        else
            emit_capturing_slide(cg, p, atom, d, &c);
        alt_end(p, atom, fork);
        /* an imitator's leaps over leapers start afresh from the origin; with leaps-alone a
         * leaping move captures only what it leaps */
        if (atom->sub == ATOM_SLIDE && c.leap) {
            Captures leap = has_mod(atom, MOD_LEAPS_ALONE, NULL) ? (Captures){.leap = c.leap} : c;
            fork = alt_begin(p, atom);
            emit_from(cg, p, atom);
            emit_withdraw(cg, p, atom, d, &leap);
            emit_long_leap(cg, p, atom, d, &leap, false);
            alt_end(p, atom, fork);
        }
    }
    if (imitate) emit_imitated_displacements(cg, p, atom);
}

/* ---- castling ------------------------------------------------------------------------------ */

/* Castling cells lie on one row or one column; pos_on_line gives a cell's coordinate along it. */
static bool castle_horizontal(const Variant *v, const Castle *c) {
    return v->cells[c->king_from].y == v->cells[c->rook_from].y;
}

static int pos_on_line(const Variant *v, const Castle *c, Cell cell) {
    return castle_horizontal(v, c) ? v->cells[cell].x : v->cells[cell].y;
}

static Cell cell_on_line(const Variant *v, const Castle *c, int u) {
    const CellInfo *k = &v->cells[c->king_from];
    const Board *b = &v->boards[k->board];
    return castle_horizontal(v, c) ? b->at[k->y][u] : b->at[u][k->x];
}

static void emit_castle(CG *cg, Program *p, const Ast *n, const Castle *c) {
    const Variant *v = cg->v;
    int fork = alt_begin(p, n);
    /* only the piece on the king's cell castles (another royal piece of the type does not) */
    bc_emit(p, OP_GOTO, c->king_from, L(n));
    bc_emit(p, OP_ISORIGIN, 0, L(n));
    bc_emit(p, OP_VERIFY, 0, L(n));
    bc_emit(p, OP_RIGHT, c->right, L(n));
    bc_emit(p, OP_VERIFY, 0, L(n));
    int us[4] = {pos_on_line(v, c, c->king_from), pos_on_line(v, c, c->king_to), pos_on_line(v, c, c->rook_from),
                 pos_on_line(v, c, c->rook_to)};
    int lo = us[0], hi = us[0];
    for (int i = 1; i < 4; i++) {
        if (us[i] < lo) lo = us[i];
        if (us[i] > hi) hi = us[i];
    }
    for (int u = lo; u <= hi; u++) {
        Cell cell = cell_on_line(v, c, u);
        if (cell == NO_CELL || cell == c->king_from || cell == c->rook_from) continue;
        bc_emit(p, OP_GOTO, cell, L(n));
        bc_emit(p, OP_EMPTY, 0, L(n));
        bc_emit(p, OP_VERIFY, 0, L(n));
    }
    /* a landing on another board: that cell empty too */
    const int board = v->cells[c->king_from].board;
    const bool king_crosses = v->cells[c->king_to].board != board;
    Cell lands[2] = {c->king_to, c->rook_to};
    for (int i = 0; i < 2; i++) {
        if (v->cells[lands[i]].board == board) continue;
        bc_emit(p, OP_GOTO, lands[i], L(n));
        bc_emit(p, OP_EMPTY, 0, L(n));
        bc_emit(p, OP_VERIFY, 0, L(n));
    }
    /* the king may not pass through check; a piece that is not a protected royal piece (no
     * check rule) castles through attacked cells. A king that lands on another board only
     * passes the cells before its landing's place on its own board: where it lands, the
     * legality rule judges it. */
    bool through_check = v->types[cg->type].royal && v->forbid_royal_capture;
    int step = us[1] >= us[0] ? 1 : -1;
    for (int u = us[0]; through_check; u += step) {
        if (king_crosses && u == us[1] && u != us[0]) break;
        Cell cell = cell_on_line(v, c, u);
        if (cell != NO_CELL) {
            bc_emit(p, OP_GOTO, cell, L(n));
            bc_emit(p, OP_ATTACKED, 0, L(n));
            bc_emit(p, OP_NOT, 0, L(n));
            bc_emit(p, OP_VERIFY, 0, L(n));
        }
        if (u == us[1]) break;
    }
    bc_emit(p, OP_GOTO, c->rook_to, L(n));
    bc_emit(p, OP_CASCADE, c->rook_from, L(n));
    bc_emit(p, OP_GOTO, c->king_to, L(n));
    bc_emit(p, OP_CASTLED, c->right, L(n));
    if (c->kind) bc_emit(p, OP_KIND, c->kind, L(n));
    bc_emit(p, OP_ADD, 0, L(n));
    alt_end(p, n, fork);
}

/* A free castle: the king to K2 and the rook to R2 from where the position has them. */
static void emit_free_castle(Program *p, const Ast *n, const Castle *c, int index) {
    int fork = alt_begin(p, n);
    bc_emit(p, OP_RIGHT, c->right, L(n));
    bc_emit(p, OP_VERIFY, 0, L(n));
    bc_emit(p, OP_FREECASTLE, index, L(n));
    bc_emit(p, OP_CASTLED, c->right, L(n));
    if (c->kind) bc_emit(p, OP_KIND, c->kind, L(n));
    bc_emit(p, OP_ADD, 0, L(n));
    alt_end(p, n, fork);
}

static void declare_castle(CG *cg, const Ast *n) {
    Variant *v = cg->v;
    Cell cells[4];
    bool ok = true;
    bool privilege = n->sub == 1, free_castle = !privilege && n->nkids == 2;
    const Ast *lost_to =
        privilege && n->nkids && n->kids[n->nkids - 1]->kind == AST_GROUP ? n->kids[n->nkids - 1] : NULL;
    if (privilege && n->nkids - (lost_to != NULL) != cg->v->nplayers) {
        if (cg->owner == 0) diag_error(cg->s->sink, n->loc, "a privilege needs two players (one cell each)");
        cg->ok = false;
        return;
    }
    for (int i = 0; i < 4; i++) {
        if (privilege) {
            /* (the owner's own cell, as written: the letter is its file) */
            int c = i == 0 ? sema_cell(cg->s, n->kids[cg->owner]) : 0;
            if (i == 0 && c < 0) ok = false;
            cells[i] = i == 0 && c >= 0 ? (Cell)c : NO_CELL;
            continue;
        }
        if (free_castle && (i == 0 || i == 2)) {
            cells[i] = NO_CELL;
            continue;
        }
        int c = sema_cell(cg->s, n->kids[free_castle ? i / 2 : i]);
        if (c < 0) {
            ok = false;
            continue;
        }
        cells[i] = sema_orient_cell(v, v->orient[cg->owner], (Cell)c);
        if (cells[i] == NO_CELL) {
            diag_error(cg->s->sink, n->kids[free_castle ? i / 2 : i]->loc,
                       "castling cell '%s' turned for %s is not on the board", v->cells[c].name,
                       v->player_names[cg->owner]);
            ok = false;
        }
    }
    if (!ok) {
        cg->ok = false;
        return;
    }
    for (int i = 0; privilege && i < v->ncastles; i++)
        if (v->castles[i].privilege && v->castles[i].king_from == cells[0]) {
            diag_error(cg->s->sink, n->kids[cg->owner]->loc, "a privilege on %s is declared twice",
                       v->cells[cells[0]].name);
            cg->ok = false;
            return;
        }
    if (free_castle &&
        (cells[1] == cells[3] || v->cells[cells[1]].board != v->cells[cells[3]].board ||
         v->cells[cells[1]].y != v->cells[cells[3]].y || cg->owner >= 2)) {
        diag_error(cg->s->sink, n->loc,
                   "a castle without start cells needs the king's and the rook's cells apart on one row (two players)");
        cg->ok = false;
        return;
    }
    /* two pieces move: from one cell both would be lifted, onto one cell one would vanish */
    if (!free_castle && !privilege && (cells[0] == cells[2] || cells[1] == cells[3])) {
        diag_error(cg->s->sink, n->loc, "castling moves two pieces: the king and the rook need cells of their own");
        cg->ok = false;
        return;
    }
    /* (the king and the rook start on one board; they may castle onto another, Alice's
     * looking-glass board, where their cells stand on the same line) */
    if (!free_castle && !privilege && v->cells[cells[2]].board != v->cells[cells[0]].board) {
        diag_error(cg->s->sink, n->loc, "castling needs the king and the rook to start on one board");
        cg->ok = false;
        return;
    }
    bool row = true, column = true;
    for (int i = 1; i < 4 && !free_castle && !privilege; i++) {
        if (v->cells[cells[i]].y != v->cells[cells[0]].y) row = false;
        if (v->cells[cells[i]].x != v->cells[cells[0]].x) column = false;
    }
    if (!row && !column) {
        diag_error(cg->s->sink, n->loc, "castling needs the king and rook cells on one row or column");
        cg->ok = false;
        return;
    }
    int mine = 0;
    for (int i = 0; i < v->ncastles; i++) mine += v->castles[i].owner == cg->owner;
    if (mine >= MAX_CASTLES || v->ncastles >= (int)ARRAY_LEN(v->castles)) {
        diag_error(cg->s->sink, n->loc, "too many castling rules (limit is %d per player)", MAX_CASTLES);
        cg->ok = false;
        return;
    }
    Castle *c = &v->castles[v->ncastles];
    c->owner = (uint8_t)cg->owner;
    c->king_from = cells[0];
    c->king_to = cells[1];
    c->rook_from = cells[2];
    c->rook_to = cells[3];
    c->right = (uint8_t)v->ncastles;
    c->rook_type = NO_TYPE; /* (known once the setup is read) */
    c->free = free_castle;
    c->privilege = privilege;
    c->king_type = (uint8_t)cg->type;
    c->lost_to = 0;
    c->kind = 0;
    if (n->text2) {
        /* (said once, for the first player: each player's castle names the same kind) */
        DiagSink quiet, *sink = cg->s->sink;
        diag_init(&quiet);
        if (cg->owner) cg->s->sink = &quiet;
        int k = sema_kind(cg->s, n->text2, sema_word_loc(cg->s, n->loc, n->text2));
        cg->s->sink = sink;
        diag_free(&quiet);
        if (k < 0) cg->ok = false;
        c->kind = (uint8_t)(k < 0 ? 0 : k);
    }
    for (int i = 0; lost_to && i < lost_to->nkids; i++) {
        int t = sema_piece(cg->s, lost_to->kids[i]->text, lost_to->kids[i]->loc);
        if (t < 0)
            cg->ok = false;
        else
            c->lost_to |= 1u << t;
    }
    if (c->lost_to) v->privileges_lost = true;
    char letter = privilege ? v->cells[cells[0]].name[0] : n->text ? n->text[0] : (char)('A' + v->ncastles);
    if (letter >= 'a' && letter <= 'z') letter = (char)(letter - 'a' + 'A');
    c->letter = cg->owner == 1 ? (char)(letter - 'A' + 'a') : letter;
    if (free_castle) {
        v->free_castles = true;
    } else if (privilege) {
        v->castle_mask[c->king_from] &= ~(1u << c->right);
    } else {
        v->castle_mask[c->king_from] &= ~(1u << c->right);
        v->castle_mask[c->rook_from] &= ~(1u << c->right);
    }
    v->ncastles++;
}

/* ---- move blocks --------------------------------------------------------------------------- */

/* The index of a move flag or cell tag by name, added on first use (names[cap][16]); -1,
 * with an error naming the limit, when there is no room. */
static int move_name(CG *cg, char (*names)[16], int *n, int cap, const char *name, const char *what, SrcLoc loc) {
    for (int i = 0; i < *n; i++)
        if (!strcmp(names[i], name)) return i;
    if (*n >= cap) {
        diag_error(cg->s->sink, loc, "too many %ss (limit is %d)", what, cap);
        cg->ok = false;
        return -1;
    }
    snprintf(names[*n], sizeof names[*n], "%s", name);
    return (*n)++;
}

static int flag_operand(CG *cg, const char *name, SrcLoc loc) {
    int f = move_name(cg, cg->v->move_flag_names, &cg->v->nmove_flags, MAX_MOVE_FLAGS, name, "move flag", loc);
    return f < 0 ? 0 : f;
}

static int tag_operand(CG *cg, const char *name, SrcLoc loc) {
    int t = move_name(cg, cg->v->tag_names, &cg->v->ntags, MAX_TAGS, name, "cell tag", loc);
    return t < 0 ? 0 : t;
}

static void emit_cond(CG *cg, Program *p, const Ast *c);
static void emit_stmts(CG *cg, Program *p, const Ast *block);

static void emit_counter_cond(CG *cg, Program *p, const Ast *c) {
    bool most = c->word == KEYWORD_COUNTER_AT_MOST;
    int k = sema_counter(cg->s, c->text2, sema_word_loc(cg->s, c->loc, c->text2));
    long bound = most ? c->num[0] + 1 : c->num[0]; /* at most N = not at least N+1 */
    if (bound < -128 || bound > 127) {
        diag_error(cg->s->sink, c->loc, "counter bound %ld is out of range (-127..127)", c->num[0]);
        cg->ok = false;
    }
    if (k < 0) cg->ok = false;
    bc_emit(p, OP_COUNTERGE, (k < 0 ? 0 : k) | (((int)bound & 0xFF) << 8), L(c));
    if (most) bc_emit(p, OP_NOT, 0, L(c));
}

/* `in-a-row N [exactly] [by DIRS]`: INROW over the lines of DIRS (for this owner), or the
 * board's own lines. */
static void emit_in_a_row(CG *cg, Program *p, const Ast *c) {
    int dirs[MAX_DIRECTIONS], n = 0;
    if (c->nkids) {
        DirList dl = {0};
        for (int i = 0; i < c->nkids; i++)
            if (!sema_dirterm(cg->s, c->kids[i], &dl)) cg->ok = false;
        for (int i = 0; i < dl.count; i++) {
            int d = owner_dir(cg, dl.dx[i], dl.dy[i], dl.link[i], c->loc);
            if (d < 0)
                cg->ok = false;
            else
                dirs[n++] = d;
        }
    } else {
        n = sema_line_dirs(cg->s, NULL, dirs);
    }
    int lines = n > 0 ? sema_lineset(cg->s, dirs, n, c->loc) : -1;
    if (c->num[0] < 2 || c->num[0] > MAX_BOARD_DIM) {
        diag_error(cg->s->sink, c->loc, "row length %ld is out of range (2..%d)", c->num[0], MAX_BOARD_DIM);
        cg->ok = false;
    }
    if (lines < 0) cg->ok = false;
    int length = c->num[0] < 2 || c->num[0] > MAX_BOARD_DIM ? 2 : (int)c->num[0];
    bc_emit(p, OP_INROW, length | ((c->num[1] != 0) << 8) | ((lines < 0 ? 0 : lines) << 16), L(c));
}

/* A condition or statement that needs a piece that moves, in a drop program (which has none). */
static void no_piece_moves(CG *cg, const Ast *n, const char *what) {
    diag_error(cg->s->sink, n->loc, "'%s' needs a piece that moves: a drop program has none", what);
    cg->ok = false;
}

/* `pieces TYPE at-least N` / `at-most N`: the mover's pieces of TYPE on the board. */
static void emit_pieces_cond(CG *cg, Program *p, const Ast *c) {
    bool most = c->word == KEYWORD_PIECES_AT_MOST;
    int t = sema_piece(cg->s, c->text2, sema_word_loc(cg->s, c->loc, c->text2));
    long bound = most ? c->num[0] + 1 : c->num[0]; /* at most N = not at least N+1 */
    if (c->num[0] < 0 || c->num[0] > 126) {
        diag_error(cg->s->sink, c->loc, "piece count %ld is out of range (0..126)", c->num[0]);
        cg->ok = false;
        bound = 0;
    }
    if (t < 0) cg->ok = false;
    bc_emit(p, OP_OWNCOUNT, (t < 0 ? 0 : t) | ((int)bound << 8), L(c));
    if (most) bc_emit(p, OP_NOT, 0, L(c));
}

/* One condition keyword (a COND node) as the instructions that set the flag. */
static void emit_keyword_cond(CG *cg, Program *p, const Ast *c) {
    if (cg->in_drop && (c->word == KEYWORD_ATTACKED || c->word == KEYWORD_DEFENDED || c->word == KEYWORD_GIVES_CHECK)) {
        no_piece_moves(cg, c, ast_keyword_name(c->word));
        return;
    }
    if (c->word == KEYWORD_IN_A_ROW) {
        emit_in_a_row(cg, p, c);
        return;
    }
    if ((c->word == KEYWORD_PIECES_AT_LEAST || c->word == KEYWORD_PIECES_AT_MOST) && !c->text2) {
        /* (without a type: all the mover's pieces on the board) */
        bool most = c->word == KEYWORD_PIECES_AT_MOST;
        long bound = most ? c->num[0] + 1 : c->num[0]; /* at most N = not at least N+1 */
        if (bound < 1 || bound > 64) {
            diag_error(cg->s->sink, c->loc, "piece count %ld is out of range (%d..%d)", c->num[0], most ? 0 : 1,
                       most ? 63 : 64);
            cg->ok = false;
        }
        bc_emit(p, OP_PIECESGE, bound < 1 || bound > 64 ? 1 : (int)bound, L(c));
        if (most) bc_emit(p, OP_NOT, 0, L(c));
        return;
    }
    switch (c->word) {
    case KEYWORD_EMPTY: bc_emit(p, OP_EMPTY, 0, L(c)); return;
    case KEYWORD_ENEMY: bc_emit(p, OP_ENEMY, 0, L(c)); return;
    case KEYWORD_FRIEND: bc_emit(p, OP_FRIEND, 0, L(c)); return;
    case KEYWORD_EP: bc_emit(p, OP_ISEP, 0, L(c)); return;
    case KEYWORD_ATTACKED: bc_emit(p, OP_ATTACKED, 0, L(c)); return;
    case KEYWORD_DEFENDED: bc_emit(p, OP_DEFENDED, 0, L(c)); return;
    case KEYWORD_GIVES_CHECK: bc_emit(p, OP_GIVESCHECK, 0, L(c)); return;
    case KEYWORD_UNMOVED: bc_emit(p, OP_UNMOVED, 0, L(c)); return;
    case KEYWORD_PRIVILEGE: bc_emit(p, OP_PRIVILEGE, 0, L(c)); return;
    case KEYWORD_LAST_TO: bc_emit(p, OP_LASTTO, 0, L(c)); return;
    case KEYWORD_LAST_FROM: bc_emit(p, OP_LASTFROM, 0, L(c)); return;
    case KEYWORD_TAKEN: bc_emit(p, OP_TAKEN, 0, L(c)); return;
    case KEYWORD_FLAG:
        bc_emit(p, OP_FLAG, flag_operand(cg, c->text2, sema_word_loc(cg->s, c->loc, c->text2)), L(c));
        return;
    case KEYWORD_TAGGED:
        bc_emit(p, OP_TAGGED, tag_operand(cg, c->text2, sema_word_loc(cg->s, c->loc, c->text2)), L(c));
        return;
    case KEYWORD_PIECE: {
        int t = sema_piece(cg->s, c->text2, sema_word_loc(cg->s, c->loc, c->text2));
        if (t < 0) cg->ok = false;
        bc_emit(p, OP_ISTYPE, t < 0 ? 0 : t, L(c));
        return;
    }
    case KEYWORD_PIECE_ON_BOARD: {
        int t = sema_piece(cg->s, c->text2, sema_word_loc(cg->s, c->loc, c->text2));
        if (t < 0) cg->ok = false;
        bc_emit(p, OP_ONBOARDTYPE, t < 0 ? 0 : t, L(c));
        return;
    }
    case KEYWORD_COUNTER_AT_LEAST:
    case KEYWORD_COUNTER_AT_MOST: emit_counter_cond(cg, p, c); return;
    case KEYWORD_PIECES_AT_LEAST:
    case KEYWORD_PIECES_AT_MOST: emit_pieces_cond(cg, p, c); return;
    case KEYWORD_ATTACKERS_AT_LEAST:
        if (c->num[0] < 1 || c->num[0] > 64) {
            diag_error(cg->s->sink, c->loc, "attacker count %ld is out of range (1..64)", c->num[0]);
            cg->ok = false;
        }
        bc_emit(p, OP_ATTACKERS, c->num[0] < 1 || c->num[0] > 64 ? 1 : (int)c->num[0], L(c));
        return;
    case KEYWORD_IN: bc_emit(p, OP_INZONE, zone_operand(cg, c->text2, c->loc), L(c)); return;
    case KEYWORD_INFLUENCE_AT_LEAST:
    case KEYWORD_INFLUENCE_AT_MOST:
    case KEYWORD_INFLUENCE_AT_LEAST_RIVAL:
    case KEYWORD_INFLUENCE_AT_MOST_RIVAL:
    case KEYWORD_RIVAL_AT_LEAST:
    case KEYWORD_RIVAL_AT_MOST:
        diag_error(cg->s->sink, c->loc, "'influence' and 'rival' are conditions of a steer rule, not of a move");
        cg->ok = false;
        return;
    default:
        diag_error(cg->s->sink, c->loc, "unknown condition '%s'", ast_keyword_name(c->word));
        cg->ok = false;
        return;
    }
}

static void emit_cond(CG *cg, Program *p, const Ast *c) {
    switch (c->kind) {
    case AST_COND: emit_keyword_cond(cg, p, c); return;
    case AST_ONBOARD: {
        int d = single_dir(cg, c->kids[0]);
        bc_emit(p, OP_ONBOARD, d < 0 ? 0 : d, L(c));
        return;
    }
    case AST_NOT:
        emit_cond(cg, p, c->kids[0]);
        bc_emit(p, OP_NOT, 0, L(c));
        return;
    case AST_EXISTS: {
        /* a probe: the flag says whether some path through the block got to its end */
        int probe = bc_emit(p, OP_PROBE, 0, L(c));
        cg->probes++;
        emit_stmts(cg, p, c->kids[0]);
        cg->probes--;
        bc_emit(p, OP_PROBED, 0, L(c));
        bc_patch(p, probe, p->count);
        return;
    }
    case AST_AND:
    case AST_OR: {
        emit_cond(cg, p, c->kids[0]);
        int j = bc_emit(p, c->kind == AST_AND ? OP_JF : OP_JT, 0, L(c));
        emit_cond(cg, p, c->kids[1]);
        bc_patch(p, j, p->count);
        return;
    }
    default: diag_error(cg->s->sink, c->loc, "expected a condition"); cg->ok = false;
    }
}

static void emit_stmts(CG *cg, Program *p, const Ast *block);

static void emit_if(CG *cg, Program *p, const Ast *st) {
    emit_cond(cg, p, st->kids[0]);
    int jf = bc_emit(p, OP_JF, 0, L(st));
    emit_stmts(cg, p, st->kids[1]);
    if (st->nkids > 2) {
        int jend = bc_emit(p, OP_JUMP, 0, L(st));
        bc_patch(p, jf, p->count);
        emit_stmts(cg, p, st->kids[2]);
        bc_patch(p, jend, p->count);
    } else {
        bc_patch(p, jf, p->count);
    }
}

static void emit_while(CG *cg, Program *p, const Ast *st) {
    int top = p->count;
    emit_cond(cg, p, st->kids[0]);
    int jf = bc_emit(p, OP_JF, 0, L(st));
    emit_stmts(cg, p, st->kids[1]);
    bc_emit(p, OP_JUMP, top, L(st));
    bc_patch(p, jf, p->count);
}

/* Each alternative but the last forks, and jumps past the others when it is done. The jumps
 * past the end wait in a list as long as the alternatives (no fixed table: loops over
 * directions write long chains). */
static void emit_either(CG *cg, Program *p, const Ast *st) {
    int *ends = xmalloc(sizeof *ends * (size_t)(st->nkids > 0 ? st->nkids : 1));
    int nends = 0;
    for (int i = 0; i < st->nkids; i++) {
        int fork = -1;
        if (i + 1 < st->nkids) fork = bc_emit(p, OP_FORK, 0, L(st->kids[i]));
        emit_stmts(cg, p, st->kids[i]);
        if (i + 1 < st->nkids) {
            ends[nends++] = bc_emit(p, OP_JUMP, 0, L(st->kids[i]));
            bc_patch(p, fork, p->count);
        }
    }
    for (int i = 0; i < nends; i++) bc_patch(p, ends[i], p->count);
    free(ends);
}

/* The cursor to each cell of zone z (0xFF: every cell) in turn, each a path of its own:
 * GOTO first; L: FORK N; JUMP B; N: NEXTIN z; JUMP L; B: (what follows). */
static void emit_each_cell(CG *cg, Program *p, int z, const Ast *st) {
    const Variant *v = cg->v;
    int first = 0;
    int end = z == 0xFF ? v->board_cells : v->ncells; /* (every cell: those of the board) */
    while (first < end && z != 0xFF && !zone_has(&v->zones[z], cg->owner, (Cell)first)) first++;
    if (first >= end) {
        bc_emit(p, OP_HALT, 0, L(st)); /* (no cell: no path) */
        return;
    }
    if (st->kind == AST_GOTO) bc_emit(p, OP_CHOOSE, 0, L(st)); /* (a cell the mover chooses) */
    bc_emit(p, OP_GOTO, first, L(st));
    int top = bc_emit(p, OP_FORK, 0, L(st));
    int go = bc_emit(p, OP_JUMP, 0, L(st));
    bc_patch(p, top, p->count);
    bc_emit(p, OP_NEXTIN, z, L(st));
    bc_emit(p, OP_JUMP, top, L(st));
    bc_patch(p, go, p->count);
}

/* Statements that make a move or need a moving piece: not in an `exists` block (it only asks),
 * nor in a drop program (no piece moves). */
static bool stmt_allowed(CG *cg, const Ast *st) {
    static const struct {
        AstKind kind;
        const char *word;
        bool emits;
    } limited[] = {{AST_ADD, "add", true},        {AST_ADD_PARTIAL, "add-partial", true}, {AST_DROP, "drop", true},
                   {AST_ORIGIN, "origin", false}, {AST_CHANGE, "change", false},          {AST_SETEP, "set-ep", false}};
    for (size_t i = 0; i < ARRAY_LEN(limited); i++) {
        if (limited[i].kind != st->kind) continue;
        if (cg->probes && limited[i].emits) {
            diag_error(cg->s->sink, st->loc,
                       "'%s' cannot be in an 'exists' block (it only asks whether a path gets through)",
                       limited[i].word);
            cg->ok = false;
            return false;
        }
        if (cg->in_drop && (st->kind == AST_ADD_PARTIAL || !limited[i].emits)) {
            no_piece_moves(cg, st, limited[i].word);
            return false;
        }
    }
    return true;
}

static void emit_stmt(CG *cg, Program *p, const Ast *st) {
    if (!stmt_allowed(cg, st)) return;
    switch (st->kind) {
    case AST_BLOCK: emit_stmts(cg, p, st); break;
    case AST_STEP: {
        int d = single_dir(cg, st->kids[0]);
        bc_emit(p, OP_STEP, d < 0 ? 0 : d, L(st));
        break;
    }
    case AST_VERIFY:
        emit_cond(cg, p, st->kids[0]);
        bc_emit(p, OP_VERIFY, 0, L(st));
        break;
    case AST_IF: emit_if(cg, p, st); break;
    case AST_WHILE: emit_while(cg, p, st); break;
    case AST_EITHER: emit_either(cg, p, st); break;
    case AST_ADD:
        /* (in a drop program: a new piece of the type on the cursor's cell) */
        if (cg->in_drop)
            bc_emit(p, OP_DROP, cg->type, L(st));
        else
            bc_emit(p, OP_ADD, cg->promo, L(st));
        break;
    case AST_ADD_PARTIAL: bc_emit(p, OP_PARTIAL, cg->promo | (st->sub << 8), L(st)); break;
    case AST_SET_FLAG:
        bc_emit(p, OP_SETFLAG, flag_operand(cg, st->text, sema_word_loc(cg->s, st->loc, st->text)) | (st->sub << 8),
                L(st));
        break;
    case AST_TAG:
        bc_emit(p, OP_TAG, tag_operand(cg, st->text, sema_word_loc(cg->s, st->loc, st->text)) | (st->sub << 8), L(st));
        break;
    case AST_CAPTURE: bc_emit(p, OP_CAPTURE, 0, L(st)); break;
    case AST_MARK: bc_emit(p, OP_MARK, 0, L(st)); break;
    case AST_BACK: bc_emit(p, OP_BACK, 0, L(st)); break;
    case AST_ORIGIN: bc_emit(p, OP_ORIGIN, 0, L(st)); break;
    case AST_SETEP: bc_emit(p, OP_SETEP, 0, L(st)); break;
    case AST_FAIL: bc_emit(p, OP_HALT, 0, L(st)); break;
    case AST_GOTO: {
        if (st->sub == 1) {
            emit_each_cell(cg, p, 0xFF, st);
            break;
        }
        /* a zone: each of its cells in turn */
        char full[64];
        snprintf(full, sizeof full, "%s%s%s", st->text2 ? st->text2 : "", st->text2 ? ":" : "", st->text);
        if (!st->text2 && variant_cell_by_name(cg->v, full) < 0) {
            int z = -1;
            for (int i = 0; i < cg->v->nzones; i++)
                if (!strcmp(cg->v->zones[i].name, st->text)) z = i;
            if (z >= 0) {
                emit_each_cell(cg, p, z, st);
                break;
            }
        }
        Ast tmp = *st;
        tmp.kind = AST_NAME;
        tmp.loc = sema_word_loc(cg->s, st->loc, st->text2 ? st->text2 : st->text);
        int c = sema_cell(cg->s, &tmp);
        if (c < 0) cg->ok = false;
        bc_emit(p, OP_GOTO, c < 0 ? 0 : c, L(st));
        break;
    }
    case AST_COUNT: {
        int k = sema_counter(cg->s, st->text, sema_word_loc(cg->s, st->loc, st->text));
        if (st->num[0] < -128 || st->num[0] > 127) {
            diag_error(cg->s->sink, st->loc, "counter step %ld is out of range (-128..127)", st->num[0]);
            cg->ok = false;
        }
        if (k < 0) cg->ok = false;
        bc_emit(p, OP_COUNT, (k < 0 ? 0 : k) | (((int)st->num[0] & 0xFF) << 8), L(st));
        break;
    }
    case AST_CHANGE: {
        int t = sema_piece(cg->s, st->text, sema_word_loc(cg->s, st->loc, st->text));
        if (t < 0) cg->ok = false;
        bc_emit(p, OP_CHANGE, t < 0 ? 0 : t, L(st));
        break;
    }
    case AST_CONVERT: bc_emit(p, st->sub ? OP_TURNOVER : OP_CONVERT, 0, L(st)); break;
    case AST_REFLECT: {
        int o = sema_orientation(st->text);
        if (o < 0) {
            diag_error(cg->s->sink, sema_word_loc(cg->s, st->loc, st->text),
                       "unknown orientation '%s' (expected identity, flip, mirror, rot90, rot180, rot270, transpose or "
                       "antitranspose)",
                       st->text);
            cg->ok = false;
        }
        bc_emit(p, OP_REFLECT, o < 0 ? 0 : o, L(st));
        break;
    }
    case AST_CREATE:
    case AST_CHANGE_TYPE: {
        int t = st->text ? sema_piece(cg->s, st->text, sema_word_loc(cg->s, st->loc, st->text)) : cg->type;
        /* (create PLAYER TYPE: a piece of that player's; else the mover's) */
        int who = st->text2 ? sema_player(cg->s, st->text2, sema_word_loc(cg->s, st->loc, st->text2)) : 0xFF;
        if (t < 0 || who < 0) cg->ok = false;
        if (st->kind == AST_CREATE)
            bc_emit(p, OP_CREATE, (t < 0 ? 0 : t) | ((who < 0 ? 0xFF : who) << 8), L(st));
        else
            bc_emit(p, OP_SETTYPE, t < 0 ? 0 : t, L(st));
        break;
    }
    case AST_HAND_OVER: bc_emit(p, OP_HANDOVER, 0, L(st)); break;
    case AST_FROM: bc_emit(p, OP_FROM, 0, L(st)); break;
    case AST_TO: bc_emit(p, OP_TO, 0, L(st)); break;
    case AST_OUTFLANK: {
        /* one OUTFLANK per direction, then the path fails unless some run was converted */
        const Ast *terms = st->kids[0];
        for (int i = 0; i < terms->nkids; i++) {
            DirList dl = {0};
            if (!sema_dirterm(cg->s, terms->kids[i], &dl)) {
                cg->ok = false;
                continue;
            }
            for (int k = 0; k < dl.count; k++) {
                int d = owner_dir(cg, dl.dx[k], dl.dy[k], dl.link[k], terms->kids[i]->loc);
                if (d < 0)
                    cg->ok = false;
                else
                    bc_emit(p, OP_OUTFLANK, d, L(terms->kids[i]));
            }
        }
        bc_emit(p, OP_OUTFLANKED, 0, L(st));
        bc_emit(p, OP_VERIFY, 0, L(st));
        break;
    }
    case AST_DROP: {
        int t = st->text ? sema_piece(cg->s, st->text, sema_word_loc(cg->s, st->loc, st->text)) : cg->type;
        if (t < 0) cg->ok = false;
        cg->v->has_drops = true;
        bc_emit(p, OP_DROP, t < 0 ? 0 : t, L(st));
        break;
    }
    case AST_KIND: {
        /* (without phases a kind only names moves: it is declared where it is used) */
        SrcLoc at = sema_word_loc(cg->s, st->loc, st->text);
        int k = cg->v->nphases ? sema_kind(cg->s, st->text, at) : sema_name_kind(cg->s, st->text, at);
        if (k < 0) cg->ok = false;
        bc_emit(p, OP_KIND, k < 0 ? 0 : k, L(st));
        break;
    }
    default: diag_error(cg->s->sink, st->loc, "unexpected %s in a move block", ast_kind_name(st->kind)); cg->ok = false;
    }
}

static void emit_stmts(CG *cg, Program *p, const Ast *block) {
    for (int i = 0; i < block->nkids; i++) emit_stmt(cg, p, block->kids[i]);
}

static bool block_uses(const Ast *n, AstKind kind) {
    if (n->kind == kind) return true;
    for (int i = 0; i < n->nkids; i++)
        if (block_uses(n->kids[i], kind)) return true;
    return false;
}

/* ---- per piece ----------------------------------------------------------------------------- */

static bool atom_is_plain(const Ast *atom) {
    if (atom->sub != ATOM_STEP && atom->sub != ATOM_LEAP && atom->sub != ATOM_SLIDE) return false;
    for (int i = 0; i < atom->nkids; i++) {
        const Ast *k = atom->kids[i];
        if (k->kind != AST_MOD) continue;
        if (k->sub != MOD_MOVE_ONLY && k->sub != MOD_CAPTURE_ONLY && k->sub != MOD_RANGE) return false;
    }
    return true;
}

static bool atom_may_capture(const Ast *atom) { return !has_mod(atom, MOD_MOVE_ONLY, NULL); }

/* A step, leap or slide limited by `from`/`to` zones and nothing else the attack rays cannot
 * say (`step orth to palace`). */
static bool atom_is_zoned_plain(const Ast *atom) {
    if (atom->sub != ATOM_STEP && atom->sub != ATOM_LEAP && atom->sub != ATOM_SLIDE) return false;
    for (int i = 0; i < atom->nkids; i++) {
        const Ast *k = atom->kids[i];
        if (k->kind == AST_MOD && k->sub != MOD_MOVE_ONLY && k->sub != MOD_CAPTURE_ONLY && k->sub != MOD_RANGE &&
            k->sub != MOD_FROM && k->sub != MOD_TO)
            return false;
    }
    return true;
}

/* An attack ray with zones (and a victim filter), unless the same ray is there already. */
static bool add_attack_ray(PieceProgram *pp, Ray r) {
    for (int i = 0; i < pp->natk; i++) {
        const Ray *o = &pp->atk[i];
        if (o->dir == r.dir && o->slide == r.slide && o->range == r.range && o->victims == r.victims &&
            o->from_zone == r.from_zone && o->to_zone == r.to_zone)
            return true;
    }
    if (pp->natk >= MAX_DIRECTIONS) return false;
    pp->atk[pp->natk++] = r;
    return true;
}

/* A zoned slide (CAP_SLIDES with one direction) joins a pattern alike but for its
 * directions, or becomes one. False when there is no room. */
static bool add_zoned_slide(PieceProgram *pp, CapturePattern slide) {
    for (int i = 0; i < pp->npatterns; i++) {
        CapturePattern *cp = &pp->patterns[i];
        if (cp->method != CAP_SLIDES || cp->victims != slide.victims || cp->from_zone != slide.from_zone ||
            cp->to_zone != slide.to_zone || cp->path_zone != slide.path_zone || cp->range != slide.range)
            continue;
        for (int k = 0; k < cp->ndirs; k++)
            if (cp->dirs[k] == slide.dirs[0]) return true;
        if (cp->ndirs >= (int)sizeof cp->dirs) continue;
        cp->dirs[cp->ndirs++] = slide.dirs[0];
        return true;
    }
    if (pp->npatterns >= MAX_PATTERNS) return false;
    pp->patterns[pp->npatterns++] = slide;
    return true;
}

/* The attack description of a capturing zoned atom: a step or leap becomes one CAP_STEPS
 * pattern (checked only against the victim types it can meet), a slide zoned rays. */
static void describe_zoned_atom(CG *cg, PieceProgram *pp, const Ast *atom, bool *fast_attack) {
    int dirs[MAX_DIRECTIONS];
    int nd = atom_dirs(cg, atom, dirs, MAX_DIRECTIONS);
    bool slide = atom->sub == ATOM_SLIDE;
    if (!slide) {
        if (pp->npatterns >= MAX_PATTERNS || nd > 16) {
            *fast_attack = false;
            return;
        }
        CapturePattern *cp = &pp->patterns[pp->npatterns++];
        *cp = (CapturePattern){.method = CAP_STEPS,
                               .victims = ALL_TYPES,
                               .from_zone = mod_zone(cg, atom, MOD_FROM),
                               .to_zone = mod_zone(cg, atom, MOD_TO)};
        for (int k = 0; k < nd; k++) {
            if (cg->v->dirs[dirs[k]].link_board >= 0) *fast_attack = false;
            cp->dirs[cp->ndirs++] = (uint8_t)dirs[k];
        }
        return;
    }
    CapturePattern cp = {.method = CAP_SLIDES,
                         .ndirs = 1,
                         .victims = ALL_TYPES,
                         .from_zone = mod_zone(cg, atom, MOD_FROM),
                         .to_zone = mod_zone(cg, atom, MOD_TO),
                         .range = (uint8_t)slide_range(atom)};
    for (int k = 0; k < nd; k++) {
        cp.dirs[0] = (uint8_t)dirs[k];
        if (cg->v->dirs[dirs[k]].link_board >= 0 || !add_zoned_slide(pp, cp)) *fast_attack = false;
    }
}

static void add_ray(Ray *rays, int *n, int d, bool slide, int range, int mode) {
    for (int i = 0; i < *n; i++)
        if (rays[i].dir == d && rays[i].slide == slide && rays[i].range == range && rays[i].mode == mode) return;
    if (*n >= MAX_DIRECTIONS) return;
    rays[*n] = (Ray){.dir = (uint8_t)d,
                     .slide = (uint8_t)slide,
                     .range = (uint8_t)range,
                     .mode = (uint8_t)mode,
                     .victims = 0xFFFFFFFFu};
    (*n)++;
}

/* Do the atom's `from`/`to` zones hold every cell of the board for this owner? Then they
 * limit nothing, and the atom is a plain ray. */
static bool zones_hold_every_cell(CG *cg, const Ast *atom) {
    const Variant *v = cg->v;
    int zones[2] = {mod_zone(cg, atom, MOD_FROM), mod_zone(cg, atom, MOD_TO)};
    for (int i = 0; i < 2; i++)
        for (int c = 0; zones[i] && c < v->board_cells; c++) /* (no ray leads to or from a holding cell) */
            if (!zone_has(&v->zones[zones[i] - 1], cg->owner, (Cell)c)) return false;
    return true;
}

/* Appends a line move (the caller checked there is room). */
static void add_line(PieceProgram *pp, LineMove l) {
    if (!pp->lines) pp->lines = xcalloc(MAX_LINE_MOVES, sizeof *pp->lines);
    pp->lines[pp->nlines++] = l;
}

/* A `legs` atom the fast generator can make: no modifier but move-only, capture-only, from
 * and to (en-passant cells need the VM). */
static bool atom_is_plain_legs(const Ast *atom) {
    if (atom->sub != ATOM_LEGS) return false;
    int nlegs = 0;
    for (int i = 0; i < atom->nkids; i++) {
        const Ast *k = atom->kids[i];
        if (k->kind != AST_MOD)
            nlegs++;
        else if (k->sub != MOD_MOVE_ONLY && k->sub != MOD_CAPTURE_ONLY && k->sub != MOD_FROM && k->sub != MOD_TO)
            return false;
    }
    return nlegs >= 1 && nlegs <= MAX_LINE_LEGS;
}

/* A zoned step, leap or slide, or plain legs, as line moves for the fast generator (one per
 * direction); false when it is not one of those (or there is no room): then the VM makes it. */
static bool add_atom_lines(CG *cg, PieceProgram *pp, const Ast *atom) {
    if (cg->promo || !cg->ok) return false;
    int mode = has_mod(atom, MOD_MOVE_ONLY, NULL) ? RAY_MOVE
        : has_mod(atom, MOD_CAPTURE_ONLY, NULL)   ? RAY_CAPTURE
                                                  : RAY_BOTH;
    LineMove l = {.nlegs = 1,
                  .range = 1,
                  .mode = (uint8_t)mode,
                  .from_zone = mod_zone(cg, atom, MOD_FROM),
                  .to_zone = mod_zone(cg, atom, MOD_TO),
                  .screens = ALL_TYPES,
                  .victims = ALL_TYPES};
    if (atom_is_plain_legs(atom)) {
        if (pp->nlines >= MAX_LINE_MOVES) return false;
        l.nlegs = 0;
        for (int i = 0; i < atom->nkids; i++) {
            if (atom->kids[i]->kind == AST_MOD) continue;
            int d = single_dir(cg, atom->kids[i]);
            if (d < 0) return false;
            l.dirs[l.nlegs++] = (uint8_t)d;
        }
        add_line(pp, l);
        return true;
    }
    if (!atom_is_zoned_plain(atom)) return false;
    int dirs[MAX_DIRECTIONS];
    int nd = atom_dirs(cg, atom, dirs, MAX_DIRECTIONS);
    if (pp->nlines + nd > MAX_LINE_MOVES) return false;
    if (atom->sub == ATOM_SLIDE) l.range = (uint8_t)slide_range(atom);
    for (int k = 0; k < nd; k++) {
        l.dirs[0] = (uint8_t)dirs[k];
        add_line(pp, l);
    }
    return true;
}

/* Where an atom's moves may first step (PieceType.exit_dirs): steps, leaps, slides and the
 * first leg of legs (a path that leaves the board later is still counted); a hop or a
 * program is taken as always able to move. */
static void note_exits(CG *cg, const Ast *it) {
    PieceType *pt = &cg->v->types[cg->type];
    if (it->sub == ATOM_EN_PASSANT) return;
    if (it->sub != ATOM_STEP && it->sub != ATOM_LEAP && it->sub != ATOM_SLIDE && it->sub != ATOM_LEGS) {
        pt->always_mobile = true;
        return;
    }
    /* the atom's own compilation reports bad directions */
    DiagSink quiet, *sink = cg->s->sink;
    diag_init(&quiet);
    cg->s->sink = &quiet;
    bool ok = cg->ok;
    int dirs[MAX_DIRECTIONS];
    int nd = atom_dirs(cg, it, dirs, MAX_DIRECTIONS);
    if (it->sub == ATOM_LEGS && nd > 1) nd = 1;
    for (int k = 0; k < nd; k++) pt->exit_dirs[cg->owner] |= 1ULL << dirs[k];
    cg->ok = ok;
    cg->s->sink = sink;
    diag_free(&quiet);
}

/* An atom that goes into rest: also into pp->atoms when the fast generator can run it in C
 * (a step or leap, legs, en passant, with no modifier but move-only, capture-only, `from` and,
 * on legs, sets-ep); any other atom leaves rest to the VM (rest_in_c false). Its directions
 * were reported when the atom was compiled: none is reported here. */
static void note_fast_atom(CG *cg, PieceProgram *pp, const Ast *it) {
    if (!pp->rest_in_c) return;
    pp->rest_in_c = false;
    if (pp->natoms >= MAX_FAST_ATOMS) return;
    FastAtom fa = {.mode = RAY_BOTH, .promo = (uint8_t)cg->promo};
    switch (it->sub) {
    case ATOM_STEP:
    case ATOM_LEAP: fa.kind = FAST_STEP; break;
    case ATOM_LEGS: fa.kind = FAST_LEGS; break;
    case ATOM_EN_PASSANT: fa.kind = FAST_EN_PASSANT; break;
    default: return;
    }
    const Ast *from = NULL;
    for (int i = 0; i < it->nkids; i++) {
        const Ast *k = it->kids[i];
        if (k->kind != AST_MOD) continue;
        if (k->sub == MOD_MOVE_ONLY)
            fa.mode = RAY_MOVE;
        else if (k->sub == MOD_CAPTURE_ONLY)
            fa.mode = RAY_CAPTURE;
        else if (k->sub == MOD_SETS_EP && fa.kind == FAST_LEGS)
            fa.sets_ep = true;
        else if (k->sub == MOD_FROM && !from)
            from = k; /* (the first, as the code tests) */
        else if (k->sub == MOD_FROM)
            continue;
        else
            return;
    }
    if (has_mod(it, MOD_MOVE_ONLY, NULL) && has_mod(it, MOD_CAPTURE_ONLY, NULL)) return;
    DiagSink quiet, *sink = cg->s->sink;
    diag_init(&quiet);
    cg->s->sink = &quiet;
    bool ok = cg->ok;
    if (from) fa.from_zone = (uint8_t)(zone_operand(cg, from->text, from->loc) + 1);
    int dirs[MAX_DIRECTIONS], nd = 0;
    if (fa.kind == FAST_LEGS) {
        for (int i = 0; i < it->nkids && nd < MAX_DIRECTIONS; i++)
            if (it->kids[i]->kind != AST_MOD) dirs[nd++] = single_dir(cg, it->kids[i]);
    } else {
        nd = atom_dirs(cg, it, dirs, MAX_DIRECTIONS);
    }
    bool resolved = cg->ok;
    cg->ok = ok;
    cg->s->sink = sink;
    diag_free(&quiet);
    if (!resolved || nd < 1 || nd > MAX_FAST_ATOM_DIRS) return;
    for (int i = 0; i < nd; i++) {
        if (dirs[i] < 0) return;
        fa.dirs[i] = (uint8_t)dirs[i];
    }
    fa.ndirs = (uint8_t)nd;
    pp->atoms[pp->natoms++] = fa;
    pp->rest_in_c = true;
}

/* A `sets-ep` legs atom: the direction of its last step joins the owner's en-passant
 * directions (Variant.ep_dirs), along which its victim stands past its cells. Its directions
 * were reported when the atom was compiled: none is reported here. */
static void note_ep_dir(CG *cg, const Ast *it) {
    const Ast *last = NULL;
    for (int i = 0; i < it->nkids; i++)
        if (it->kids[i]->kind != AST_MOD) last = it->kids[i];
    if (it->sub != ATOM_LEGS || !last) return;
    DiagSink quiet, *sink = cg->s->sink;
    diag_init(&quiet);
    cg->s->sink = &quiet;
    bool ok = cg->ok;
    int d = single_dir(cg, last);
    cg->ok = ok;
    cg->s->sink = sink;
    diag_free(&quiet);
    if (d >= 0 && d < 64) cg->v->ep_dirs[cg->owner] |= 1ull << d;
}

/* One movement atom into prog; into rest as well unless it is a plain leap or slide, which
 * becomes rays for the fast generator and attack tests instead. */
static void compile_atom(CG *cg, PieceProgram *pp, const Ast *it, bool *fast_attack) {
    Variant *v = cg->v;
    PieceType *pt = &v->types[cg->type];
    const Ast *range = NULL;
    note_exits(cg, it);
    if (has_mod(it, MOD_RANGE, &range) && range->num[0] < 1) {
        diag_error(cg->s->sink, range->loc, "range %ld is out of range (at least 1)", range->num[0]);
        cg->ok = false;
    }
    if (atom_captures_by_moving(it)) {
        emit_capturing_atom(cg, &pp->prog, it);
        emit_capturing_atom(cg, &pp->rest, it);
        pp->rest_in_c = false;
        pp->may_capture = true;
        describe_capturing_atom(cg, pp, it, fast_attack);
        if (has_mod(it, MOD_IMITATE, NULL)) cg->v->imitator_mask |= 1u << cg->type;
        return;
    }
    emit_atom(cg, &pp->prog, it);
    bool capture = atom_may_capture(it);
    if (capture) pp->may_capture = true;
    if (has_mod(it, MOD_SETS_EP, NULL)) {
        pt->sets_ep = true;
        note_ep_dir(cg, it);
    }
    if (it->sub == ATOM_LEGS) pp->may_duplicate = true;
    if (!atom_is_plain(it) && !(atom_is_zoned_plain(it) && zones_hold_every_cell(cg, it))) {
        if (!add_atom_lines(cg, pp, it)) {
            emit_atom(cg, &pp->rest, it);
            note_fast_atom(cg, pp, it);
        }
        if (capture && it->sub == ATOM_LEGS)
            describe_legs(cg, pp, it, fast_attack);
        else if (capture && atom_is_zoned_plain(it))
            describe_zoned_atom(cg, pp, it, fast_attack);
        else if (capture && it->sub != ATOM_EN_PASSANT)
            *fast_attack = false;
        return;
    }
    int dirs[MAX_DIRECTIONS];
    int nd = atom_dirs(cg, it, dirs, MAX_DIRECTIONS);
    int r = it->sub == ATOM_SLIDE ? slide_range(it) : 1;
    bool slide = it->sub == ATOM_SLIDE;
    int mode = has_mod(it, MOD_MOVE_ONLY, NULL) ? RAY_MOVE
        : has_mod(it, MOD_CAPTURE_ONLY, NULL)   ? RAY_CAPTURE
                                                : RAY_BOTH;
    for (int k = 0; k < nd; k++) {
        if (v->dirs[dirs[k]].link_board >= 0 && capture) *fast_attack = false;
        if (cg->promo) {
            /* promotion needs the VM's ADD; the ray still serves attack tests */
        } else {
            add_ray(pp->gen, &pp->ngen, dirs[k], slide, r, mode);
        }
        if (capture) add_ray(pp->atk, &pp->natk, dirs[k], slide, r, RAY_CAPTURE);
    }
    if (cg->promo) {
        emit_atom(cg, &pp->rest, it);
        note_fast_atom(cg, pp, it);
    }
}

/* A drop item: the cells of the zone (every cell without `to`) join the cells this owner may
 * drop the type on. A drop has no directions and no other modifier. */
static void compile_drop(CG *cg, const Ast *it) {
    Variant *v = cg->v;
    PieceType *pt = &v->types[cg->type];
    if (!v->has_hands) {
        if (cg->owner == 0) diag_error(cg->s->sink, it->loc, "'drop' needs a 'hands' item (pieces in hand)");
        cg->ok = false;
        return;
    }
    const Ast *to = NULL;
    for (int i = 0; i < it->nkids; i++) {
        const Ast *k = it->kids[i];
        if (k->kind == AST_MOD && k->sub == MOD_TO && !to) {
            to = k;
            continue;
        }
        if (cg->owner == 0)
            diag_error(cg->s->sink, k->loc,
                       k->kind == AST_MOD ? "a drop takes only 'to ZONE' (onto empty cells of the zone)"
                                          : "a drop has no directions (it goes onto empty cells)");
        cg->ok = false;
        return;
    }
    pt->droppable = true;
    uint64_t *cells = pt->drop_cells[cg->owner];
    if (!to) { /* (onto the board: holding cells only by a zone that names them) */
        for (int c = 0; c < v->board_cells; c++) cells[c >> 6] |= 1ULL << (c & 63);
        return;
    }
    int z = sema_zone(cg->s, to->text, sema_word_loc(cg->s, to->loc, to->text));
    if (z < 0) {
        cg->ok = false;
        return;
    }
    for (int w = 0; w < CELL_WORDS; w++) cells[w] |= v->zones[z].cells[cg->owner][w];
}

/* A `verify` condition made only of `and`-joined facts about one cell (CondFacts). */
typedef struct CondFacts {
    uint8_t zone; /* in ZONE (index + 1; 0: none) */
    bool enemy, empty, occupied, not_friend;
    uint32_t types; /* `piece T` narrows to T, `not piece T` takes T out */
} CondFacts;

static bool cond_facts(CG *cg, const Ast *c, CondFacts *f) {
    if (c->kind == AST_AND) return cond_facts(cg, c->kids[0], f) && cond_facts(cg, c->kids[1], f);
    bool negated = c->kind == AST_NOT;
    if (negated) c = c->kids[0];
    if (c->kind != AST_COND) return false;
    switch (c->word) {
    case KEYWORD_ENEMY: f->enemy = !negated; return !negated;
    case KEYWORD_FRIEND: f->not_friend = negated; return negated;
    case KEYWORD_EMPTY:
        if (negated)
            f->occupied = true;
        else
            f->empty = true;
        return true;
    case KEYWORD_PIECE: {
        int t = sema_piece(cg->s, c->text2, sema_word_loc(cg->s, c->loc, c->text2));
        if (t < 0) return false;
        f->types &= negated ? ~(1u << t) : 1u << t;
        return true;
    }
    case KEYWORD_IN:
        if (negated || f->zone) return false;
        f->zone = (uint8_t)(zone_operand(cg, c->text2, c->loc) + 1);
        return true;
    default: return false;
    }
}

/* The facts of the statement at b->kids[*i] when it is a `verify` (then *i moves past it). */
static bool verify_at(CG *cg, const Ast *b, int *i, CondFacts *f) {
    *f = (CondFacts){.types = ALL_TYPES};
    if (*i >= b->nkids || b->kids[*i]->kind != AST_VERIFY) return false;
    if (!cond_facts(cg, b->kids[*i]->kids[0], f)) return false;
    (*i)++;
    return true;
}

/* No fact but (perhaps) a zone. */
static bool no_facts(const CondFacts *f) {
    return !f->enemy && !f->empty && !f->occupied && !f->not_friend && f->types == ALL_TYPES;
}
static bool only_zone(const CondFacts *f) { return f->zone && no_facts(f); }

/* One leg of a shaped block at b->kids[*i]: `step D [verify in Z]`, optionally followed by
 * `while empty { [add] step D [verify in Z] }` (a ride over empty cells, each a landing when
 * the loop adds). The facts of the verify after the first step are left in *first. */
typedef struct Leg {
    int dir;
    bool ride, lands;
    uint8_t zone; /* the zone every cell of the leg is checked in (0: none) */
    CondFacts first;
} Leg;

static bool leg_at(CG *cg, const Ast *b, int *i, Leg *leg) {
    if (*i >= b->nkids || b->kids[*i]->kind != AST_STEP) return false;
    leg->dir = single_dir(cg, b->kids[*i]->kids[0]);
    if (leg->dir < 0 || cg->v->dirs[leg->dir].link_board >= 0) return false;
    (*i)++;
    /* (a verify naming an enemy is the block's end, not the leg's) */
    int j = *i;
    if (verify_at(cg, b, &j, &leg->first) && !leg->first.enemy)
        *i = j;
    else
        leg->first = (CondFacts){.types = ALL_TYPES};
    leg->zone = leg->first.zone;
    leg->ride = leg->lands = false;
    if (*i >= b->nkids || b->kids[*i]->kind != AST_WHILE) return true;
    const Ast *w = b->kids[*i], *body = w->kids[1];
    if (w->kids[0]->kind != AST_COND || w->kids[0]->word != KEYWORD_EMPTY) return false;
    int k = 0;
    if (k < body->nkids && body->kids[k]->kind == AST_ADD) leg->lands = true, k++;
    if (k >= body->nkids || body->kids[k]->kind != AST_STEP || single_dir(cg, body->kids[k]->kids[0]) != leg->dir)
        return false;
    k++;
    CondFacts again = {.types = ALL_TYPES};
    if (k < body->nkids && !verify_at(cg, body, &k, &again)) return false;
    if (k != body->nkids || again.zone != leg->zone || (again.zone && !only_zone(&again)) || !no_facts(&leg->first))
        return false;
    (*i)++;
    leg->ride = true;
    return true;
}

/* A move block of a shape the fast generator and the attack test know, as a LineMove:
 *   [verify in Z] LEG [verify SCREEN] [LEG] END
 * with END `verify VICTIM add`, `if empty { add } else { verify VICTIM add }` or nothing (when
 * the leg adds): a step or a slide (onto victims, kept inside a zone: a palace's diagonals), or
 * a hop over one screen (the cannons'). VICTIM is `enemy [and piece T | and not piece T]...
 * [and in ZONE]`. False for any other block. */
static bool block_line(CG *cg, const Ast *b, LineMove *l) {
    if (!cg->ok) return false; /* its errors are reported already */
    *l = (LineMove){.nlegs = 1, .screens = ALL_TYPES, .victims = ALL_TYPES};
    int i = 0;
    CondFacts f;
    if (i < b->nkids && b->kids[i]->kind == AST_VERIFY) {
        if (!verify_at(cg, b, &i, &f) || !only_zone(&f)) return false;
        l->from_zone = f.zone;
    }
    Leg first, second;
    if (!leg_at(cg, b, &i, &first)) return false;
    bool hop = false;
    uint32_t screens = ALL_TYPES;
    if (first.ride) {
        /* the ride ends on a piece: a screen when a second leg follows */
        int j = i;
        if (j + 1 < b->nkids && b->kids[j + 1]->kind == AST_STEP && verify_at(cg, b, &j, &f)) {
            if (f.zone || f.enemy || f.empty || f.not_friend) return false;
            screens = f.types;
            i = j;
            hop = true;
        }
    } else if (first.first.occupied) {
        /* the first cell holds the screen */
        if (first.first.empty || first.first.enemy || first.first.not_friend) return false;
        screens = first.first.types;
        hop = true;
    } else if (first.first.enemy || first.first.types != ALL_TYPES) {
        return false;
    }
    Leg last = first;
    if (i < b->nkids && b->kids[i]->kind == AST_STEP) {
        /* a ride ends on a piece; after a single step only a checked screen makes a hop (an
         * unchecked cell would be leapt over, empty or not) */
        hop = hop || first.ride;
        if (!hop || first.lands || !leg_at(cg, b, &i, &second) || second.dir != first.dir ||
            second.ride != first.ride || second.zone != first.zone || second.first.types != ALL_TYPES ||
            second.first.occupied || second.first.enemy)
            return false;
        hop = true;
        last = second;
    } else if (hop) {
        return false;
    }
    l->dirs[0] = (uint8_t)last.dir;
    l->hop = hop;
    l->screens = screens;
    l->range = last.ride ? 0 : 1;
    l->path_zone = first.zone;
    bool lands = last.lands, captures = false;
    bool checked = last.first.empty || last.first.not_friend; /* the landing's own verify ... */
    bool victim_given = true;
    CondFacts victim = {.types = ALL_TYPES};
    if (i < b->nkids && b->kids[i]->kind == AST_IF && !last.ride) {
        /* if empty { add } else { verify VICTIM add } */
        const Ast *st = b->kids[i];
        const Ast *then = st->kids[1], *other = st->nkids > 2 ? st->kids[2] : NULL;
        int k = 0;
        if (st->kids[0]->kind != AST_COND || st->kids[0]->word != KEYWORD_EMPTY || then->nkids != 1 ||
            then->kids[0]->kind != AST_ADD || !other || !verify_at(cg, other, &k, &victim) || k + 1 != other->nkids ||
            other->kids[k]->kind != AST_ADD)
            return false;
        lands = captures = true;
        i++;
    } else if (checked && !last.ride && i + 1 == b->nkids && b->kids[i]->kind == AST_ADD) {
        /* ... `verify empty` or `verify not friend`, then add: a step that moves (or captures) */
        lands = true;
        captures = last.first.not_friend;
        checked = victim_given = false;
        i++;
    } else if (i + 2 == b->nkids && verify_at(cg, b, &i, &victim)) {
        if (b->kids[i]->kind != AST_ADD) return false;
        captures = true;
        i++;
    }
    if (checked) return false;
    if (i != b->nkids || (!lands && !captures)) return false;
    if (captures && victim_given) {
        if (!victim.enemy || victim.empty || victim.not_friend || !victim.types) return false;
        l->victims = victim.types;
        /* a zone on the victim alone limits landings too: only where no empty cell lands */
        if (victim.zone && victim.zone != l->path_zone) {
            if (lands) return false;
            l->to_zone = victim.zone;
        }
    }
    l->mode = lands && captures ? RAY_BOTH : lands ? RAY_MOVE : RAY_CAPTURE;
    return true;
}

/* Does the condition require the cursor's cell to be empty (`empty` as a conjunct)? */
static bool cond_needs_empty(const Ast *c) {
    if (c->kind == AST_AND) return cond_needs_empty(c->kids[0]) || cond_needs_empty(c->kids[1]);
    return c->kind == AST_COND && c->word == KEYWORD_EMPTY;
}

/* Is every `add` of the statements right after a `verify` that needs an empty cell (other
 * verifies between)? Then, with no `capture`, the block never takes anything. */
static bool adds_only_on_empty(const Ast *block) {
    bool empty = false;
    for (int i = 0; i < block->nkids; i++) {
        const Ast *st = block->kids[i];
        switch (st->kind) {
        case AST_VERIFY: empty = empty || cond_needs_empty(st->kids[0]); break;
        case AST_ADD:
            if (!empty) return false;
            break;
        default:
            /* nested blocks on their own; an add anywhere else (an else-if) is not known quiet */
            for (int k = 0; k < st->nkids; k++)
                if (st->kids[k]->kind == AST_BLOCK ? !adds_only_on_empty(st->kids[k])
                                                   : block_uses(st->kids[k], AST_ADD))
                    return false;
            empty = false;
        }
    }
    return true;
}

/* What the statements of a block tell of the cursor when it adds: `safe` while it stands on a
 * cell a `verify` (or an `if`) found empty, or on the piece's own cell (no step since the start
 * or an `origin`); `dead` once the path has failed (nothing it would do counts). */
typedef struct CursorFacts {
    bool safe, dead;
} CursorFacts;

#define QUIET_MARKS 8
typedef struct QuietWalk {
    CursorFacts at;
    CursorFacts marks[QUIET_MARKS]; /* what `back` returns to */
    int nmarks;
} QuietWalk;

/* What holds on both of two paths that join. */
static CursorFacts facts_meet(CursorFacts a, CursorFacts b) {
    if (a.dead) return b;
    if (b.dead) return a;
    return (CursorFacts){.safe = a.safe && b.safe};
}

/* Two walks joined (false when they leave different numbers of marks: not followed). */
static bool walk_meet(QuietWalk *into, const QuietWalk *other) {
    if (into->nmarks != other->nmarks) return false;
    into->at = facts_meet(into->at, other->at);
    for (int i = 0; i < into->nmarks; i++) into->marks[i] = facts_meet(into->marks[i], other->marks[i]);
    return true;
}

static bool walk_same(const QuietWalk *a, const QuietWalk *b) {
    if (a->nmarks != b->nmarks || memcmp(&a->at, &b->at, sizeof a->at)) return false;
    return !memcmp(a->marks, b->marks, sizeof a->marks[0] * (size_t)a->nmarks);
}

static bool quiet_block(const Ast *block, QuietWalk *w);

/* One statement of quiet_block: false when it may take something, or is not followed. */
static bool quiet_stmt(const Ast *st, QuietWalk *w) {
    switch (st->kind) {
    case AST_VERIFY:
        if (cond_needs_empty(st->kids[0])) w->at.safe = true;
        return true;
    case AST_ADD: return w->at.dead || w->at.safe;
    case AST_STEP:
    case AST_GOTO: w->at = (CursorFacts){.dead = w->at.dead}; return true;
    case AST_ORIGIN: w->at = (CursorFacts){.safe = true, .dead = w->at.dead}; return true;
    case AST_FAIL: w->at.dead = true; return true;
    case AST_MARK:
        if (w->nmarks >= QUIET_MARKS) return false;
        w->marks[w->nmarks++] = w->at;
        return true;
    case AST_BACK: {
        if (!w->nmarks) return false;
        bool dead = w->at.dead;
        w->at = w->marks[--w->nmarks];
        w->at.dead = w->at.dead || dead;
        return true;
    }
    case AST_IF: {
        QuietWalk then = *w, other = *w;
        if (cond_needs_empty(st->kids[0])) then.at.safe = true;
        if (!quiet_block(st->kids[1], &then) || (st->nkids > 2 && !quiet_block(st->kids[2], &other))) return false;
        *w = then;
        return walk_meet(w, &other);
    }
    case AST_WHILE: {
        /* (the body runs any number of times: until what holds no longer changes) */
        for (int round = 0; round < 4; round++) {
            QuietWalk body = *w, joined = *w;
            if (cond_needs_empty(st->kids[0])) body.at.safe = true;
            if (!quiet_block(st->kids[1], &body) || !walk_meet(&joined, &body)) return false;
            if (walk_same(&joined, w)) return true;
            *w = joined;
        }
        return false;
    }
    case AST_EITHER: {
        QuietWalk out = {.at = {.dead = true}, .nmarks = -1};
        for (int i = 0; i < st->nkids; i++) {
            QuietWalk alt = *w;
            if (!quiet_block(st->kids[i], &alt)) return false;
            if (out.nmarks < 0)
                out = alt;
            else if (!walk_meet(&out, &alt))
                return false;
        }
        if (out.nmarks >= 0) *w = out;
        return true;
    }
    case AST_CHANGE:
    case AST_KIND:
    case AST_SETEP:
    case AST_COUNT:
    case AST_FROM:
    case AST_HAND_OVER:
    case AST_BLOCK: return st->kind != AST_BLOCK || quiet_block(st, w);
    default: return false; /* (a capture, a second piece, anything else: not known quiet) */
    }
}

static bool quiet_block(const Ast *block, QuietWalk *w) {
    for (int i = 0; i < block->nkids; i++)
        if (!quiet_stmt(block->kids[i], w)) return false;
    return true;
}

/* Does every `add` of the block land on a cell a `verify` found empty, or stay on the piece's
 * own cell (a change of type in place, after looking around with mark and back)? Then, with no
 * `capture` nor second piece, the block never takes anything. */
static bool adds_take_nothing(const Ast *block) {
    QuietWalk w = {.at = {.safe = true}};
    return quiet_block(block, &w);
}

/* Attack tests need not run a move block that has one of the shapes block_line knows: its
 * captures become an attack ray (steps and slides) or a hop pattern. True when described. */
static bool describe_moveblock(CG *cg, PieceProgram *pp, const Ast *b) {
    LineMove l;
    if (!block_line(cg, b, &l)) return false;
    if (l.mode == RAY_MOVE) return true;
    if (!l.hop && !l.from_zone && !l.to_zone && !l.path_zone)
        return add_attack_ray(pp,
                              (Ray){.dir = l.dirs[0],
                                    .slide = l.range != 1,
                                    .range = l.range == 1 ? 1 : 0,
                                    .mode = RAY_CAPTURE,
                                    .victims = l.victims});
    if (!l.hop)
        return add_zoned_slide(pp,
                               (CapturePattern){.method = CAP_SLIDES,
                                                .ndirs = 1,
                                                .dirs = {l.dirs[0]},
                                                .victims = l.victims,
                                                .from_zone = l.from_zone,
                                                .to_zone = l.to_zone,
                                                .path_zone = l.path_zone,
                                                .range = l.range});
    CapturePattern hop = {.method = CAP_HOP,
                          .ndirs = 1,
                          .dirs = {l.dirs[0]},
                          .victims = l.victims,
                          .from_zone = l.from_zone,
                          .to_zone = l.to_zone,
                          .path_zone = l.path_zone,
                          .near = l.range == 1,
                          .screens = l.screens};
    /* hops alike but for their direction are one pattern (one test for the four lines) */
    for (int i = 0; i < pp->npatterns; i++) {
        CapturePattern *cp = &pp->patterns[i];
        if (cp->method == CAP_HOP && cp->victims == hop.victims && cp->from_zone == hop.from_zone &&
            cp->to_zone == hop.to_zone && cp->path_zone == hop.path_zone && cp->near == hop.near &&
            cp->screens == hop.screens && cp->ndirs < (int)sizeof cp->dirs) {
            cp->dirs[cp->ndirs++] = hop.dirs[0];
            return true;
        }
    }
    if (pp->npatterns >= MAX_PATTERNS) return false;
    pp->patterns[pp->npatterns++] = hop;
    return true;
}

/* A `step D` as one more leg of fa; false for another statement or one leg too many. */
static bool add_leg(CG *cg, const Ast *st, FastAtom *fa) {
    if (st->kind != AST_STEP) return false;
    int d = single_dir(cg, st->kids[0]);
    if (d < 0 || cg->v->dirs[d].link_board >= 0 || fa->ndirs >= MAX_FAST_ATOM_DIRS) return false;
    fa->dirs[fa->ndirs++] = (uint8_t)d;
    return true;
}

/* A move block `verify privilege [and not attacked]  PATH  verify empty | not friend | enemy
 * add`, PATH made of steps and `either { steps } or { steps }`: from a cell whose privilege the
 * owner holds (and, with `not attacked`, where the piece is not attacked), along fixed legs
 * (the cells between unchecked) onto the last cell. Into fa[], one FAST_PRIVILEGE atom per way
 * through PATH in the order the program takes them; returns how many (0: another block). */
static int block_privilege_moves(CG *cg, const Ast *b, FastAtom *fa, int cap) {
    if (!cg->ok || b->nkids < 4 || b->kids[0]->kind != AST_VERIFY) return 0;
    const Ast *c = b->kids[0]->kids[0];
    bool unattacked = false;
    if (c->kind == AST_AND && c->kids[1]->kind == AST_NOT && c->kids[1]->kids[0]->kind == AST_COND &&
        c->kids[1]->kids[0]->word == KEYWORD_ATTACKED) {
        unattacked = true;
        c = c->kids[0];
    }
    if (c->kind != AST_COND || c->word != KEYWORD_PRIVILEGE) return 0;
    int n = 1;
    fa[0] = (FastAtom){.kind = unattacked ? FAST_PRIVILEGE_UNATTACKED : FAST_PRIVILEGE, .promo = (uint8_t)cg->promo};
    int i = 1;
    for (; i < b->nkids && (b->kids[i]->kind == AST_STEP || b->kids[i]->kind == AST_EITHER); i++) {
        const Ast *st = b->kids[i];
        if (st->kind == AST_STEP) {
            for (int k = 0; k < n; k++)
                if (!add_leg(cg, st, &fa[k])) return 0;
            continue;
        }
        /* each way so far goes on along each alternative, the first alternative first */
        if (n * st->nkids > cap) return 0;
        FastAtom ways[MAX_FAST_ATOMS];
        int m = 0;
        for (int k = 0; k < n; k++)
            for (int alt = 0; alt < st->nkids; alt++) {
                const Ast *steps = st->kids[alt];
                ways[m] = fa[k];
                if (steps->kind != AST_BLOCK) return 0;
                for (int l = 0; l < steps->nkids; l++)
                    if (!add_leg(cg, steps->kids[l], &ways[m])) return 0;
                m++;
            }
        for (int k = 0; k < m; k++) fa[k] = ways[k];
        n = m;
    }
    CondFacts f;
    if (!verify_at(cg, b, &i, &f) || i + 1 != b->nkids || b->kids[i]->kind != AST_ADD) return 0;
    if (f.zone || f.occupied || f.types != ALL_TYPES || f.empty + f.not_friend + f.enemy != 1) return 0;
    for (int k = 0; k < n; k++) {
        if (!fa[k].ndirs) return 0;
        fa[k].mode = f.empty ? RAY_MOVE : f.enemy ? RAY_CAPTURE : RAY_BOTH;
    }
    return n;
}

/* The captures of privileged moves as patterns for the attack tests; false when there is no
 * room. (`not attacked` is no part of the pattern: inside an attack test the program's own
 * question is answered "no" too.) */
static bool describe_privilege_moves(CG *cg, PieceProgram *pp, const FastAtom *fa, int n) {
    for (int k = 0; k < n; k++) {
        if (fa[k].mode == RAY_MOVE) continue;
        if (pp->npatterns >= MAX_PATTERNS) return false;
        CapturePattern cp = {.method = CAP_PRIVILEGE, .ndirs = fa[k].ndirs, .nlegs = fa[k].ndirs, .victims = ALL_TYPES};
        for (int l = 0; l < fa[k].ndirs; l++) cp.dirs[l] = fa[k].dirs[l];
        pp->patterns[pp->npatterns++] = cp;
        cg->v->privilege_types |= 1u << cg->type;
    }
    return true;
}

/* A move { } block: one more alternative in both programs. */
static void compile_moveblock(CG *cg, PieceProgram *pp, const Ast *it, bool *fast_attack) {
    PieceType *pt = &cg->v->types[cg->type];
    int fork = alt_begin(&pp->prog, it);
    emit_stmts(cg, &pp->prog, it);
    alt_end(&pp->prog, it, fork);
    /* a shape the generator knows runs in C on the fast path (promotions need the VM's ADD) */
    LineMove line;
    FastAtom privileged[MAX_FAST_ATOMS];
    int nprivileged = block_privilege_moves(cg, it, privileged, MAX_FAST_ATOMS);
    if (!cg->promo && pp->nlines < MAX_LINE_MOVES && block_line(cg, it, &line)) {
        add_line(pp, line);
    } else {
        /* (the block runs in the VM, or in C when it is a privileged move and so far every
         * atom of rest is) */
        if (nprivileged && pp->rest_in_c && pp->natoms + nprivileged <= MAX_FAST_ATOMS) {
            for (int k = 0; k < nprivileged; k++) pp->atoms[pp->natoms++] = privileged[k];
            pp->privileged_atoms = true;
        } else {
            pp->rest_in_c = false;
        }
        fork = alt_begin(&pp->rest, it);
        emit_stmts(cg, &pp->rest, it);
        alt_end(&pp->rest, it, fork);
    }
    pp->may_duplicate = true;
    /* a block that never leaves the origin nor captures (a change of type in place)
     * takes nothing: attack tests can skip it */
    bool stays = !block_uses(it, AST_STEP) && !block_uses(it, AST_GOTO) && !block_uses(it, AST_CAPTURE);
    if (block_uses(it, AST_ADD) && !stays) {
        pp->may_capture = true;
        /* (a block that adds only on empty cells takes nothing: nothing to describe) */
        bool quiet = !block_uses(it, AST_CAPTURE) && !block_uses(it, AST_TO) &&
            (adds_only_on_empty(it) || adds_take_nothing(it));
        if (!quiet &&
            !(nprivileged ? describe_privilege_moves(cg, pp, privileged, nprivileged) : describe_moveblock(cg, pp, it)))
            *fast_attack = false;
    }
    if (block_uses(it, AST_SETEP)) pt->sets_ep = true;
}

/* One piece item into the piece's programs and fast tables. */
static void compile_item(CG *cg, PieceProgram *pp, const Ast *it, bool *fast_attack) {
    Variant *v = cg->v;
    PieceType *pt = &v->types[cg->type];
    switch (it->kind) {
    case AST_ATOM:
        if (it->sub == ATOM_DROP)
            compile_drop(cg, it);
        else
            compile_atom(cg, pp, it, fast_attack);
        break;
    case AST_CASTLE: {
        declare_castle(cg, it);
        /* (castles run in the VM; a privilege is only a right, which the piece's own
         * programs test) */
        if (it->sub != 1) pp->rest_in_c = false;
        if (cg->ok && v->ncastles > 0) {
            const Castle *c = &v->castles[v->ncastles - 1];
            if (c->privilege) {
                /* (no code) */
            } else if (c->free) {
                emit_free_castle(&pp->prog, it, c, v->ncastles - 1);
                emit_free_castle(&pp->rest, it, c, v->ncastles - 1);
            } else {
                emit_castle(cg, &pp->prog, it, c);
                emit_castle(cg, &pp->rest, it, c);
            }
        }
        break;
    }
    case AST_MOVEBLOCK:
        compile_moveblock(cg, pp, it, fast_attack);
        pt->always_mobile = true;
        break;
    default: break;
    }
}

/* The type's `drop { }` blocks: for this owner one program that starts on every cell in turn
 * and tries each block there (PieceType.drops). */
static void compile_drops(CG *cg, const Ast *items) {
    Variant *v = cg->v;
    PieceType *pt = &v->types[cg->type];
    bool any = false;
    for (int i = 0; i < items->nkids; i++) any = any || items->kids[i]->kind == AST_DROPBLOCK;
    if (!any) return;
    if (!pt->drops) pt->drops = xcalloc(MAX_OWNERS, sizeof *pt->drops);
    Program *p = &pt->drops[cg->owner];
    char name[48];
    snprintf(name, sizeof name, "%s/%s drop", pt->name, v->player_names[cg->owner]);
    bc_init(p, name, v->path);
    cg->in_drop = true;
    emit_each_cell(cg, p, 0xFF, items);
    for (int i = 0; i < items->nkids; i++) {
        const Ast *it = items->kids[i];
        if (it->kind != AST_DROPBLOCK) continue;
        int fork = alt_begin(p, it);
        emit_stmts(cg, p, it);
        alt_end(p, it, fork);
    }
    bc_emit(p, OP_HALT, 0, L(items));
    cg->in_drop = false;
    v->has_drop_programs = true;
    if (p->count > MAX_CODE) {
        diag_error(cg->s->sink, items->loc, "the drops of piece '%s' compile to %d bytes of code (limit is %d)",
                   pt->name, p->count, MAX_CODE);
        cg->ok = false;
    }
}

static void compile_piece(CG *cg, const Ast *items, bool *fast_attack) {
    Variant *v = cg->v;
    PieceType *pt = &v->types[cg->type];
    PieceProgram *pp = &pt->per_owner[cg->owner];
    char name[48];
    snprintf(name, sizeof name, "%s/%s", pt->name, v->player_names[cg->owner]);
    bc_init(&pp->prog, name, v->path);
    bc_init(&pp->rest, name, v->path);
    pp->rest_in_c = true;
    /* The move blocks with add-partial come last, together: the continuation of a paused move
     * runs them from chain_entry on. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < items->nkids; i++) {
            const Ast *it = items->kids[i];
            bool chain = it->kind == AST_MOVEBLOCK && block_uses(it, AST_ADD_PARTIAL);
            if (chain != (pass == 1)) continue;
            if (chain && !pp->has_chain) {
                pp->has_chain = true;
                v->has_chains = true;
                /* atoms that run in C before the blocks that go on from a pause: those run in
                 * the VM after them (the same order as the program's) */
                if (pp->rest_in_c && pp->natoms && !pp->privileged_atoms && !pp->nlines) {
                    pp->atoms_then_vm = true;
                    pp->rest_vm_entry = pp->rest.count;
                }
                pp->chain_entry = pp->prog.count;
            }
            compile_item(cg, pp, it, fast_attack);
        }
    bc_emit(&pp->prog, OP_HALT, 0, L(items));
    compile_drops(cg, items);
    /* (line moves are made with the rest, on its VM side: a piece with them has one) */
    if (pp->nlines) pp->rest_in_c = false;
    if (pp->rest.count || pp->nlines) bc_emit(&pp->rest, OP_HALT, 0, L(items));
    if (pp->rest.count > 1) vm_plan(&pp->rest); /* (a HALT alone runs nothing) */
    if (pp->prog.count > MAX_CODE) {
        diag_error(cg->s->sink, items->loc, "piece '%s' compiles to %d bytes of code (limit is %d)", pt->name,
                   pp->prog.count, MAX_CODE);
        cg->ok = false;
    }
}

static int declare_promotion(CG *cg, const Ast *items) {
    Variant *v = cg->v;
    int found = 0;
    for (int i = 0; i < items->nkids; i++) {
        const Ast *it = items->kids[i];
        if (it->kind != AST_PROMOTE) continue;
        if (found) {
            diag_error(cg->s->sink, it->loc, "a piece has one promote rule");
            cg->ok = false;
            continue;
        }
        if (v->npromos == 0) v->npromos = 1;
        if (v->npromos >= MAX_PROMO_SETS) {
            diag_error(cg->s->sink, it->loc, "too many promote rules (limit is %d)", MAX_PROMO_SETS - 1);
            cg->ok = false;
            continue;
        }
        PromoSet *ps = &v->promos[v->npromos];
        memset(ps, 0, sizeof *ps);
        ps->zone = it->text ? (uint8_t)zone_operand(cg, it->text, it->loc) : NO_ZONE;
        ps->from_zone = it->text2 ? (uint8_t)zone_operand(cg, it->text2, it->loc) : NO_ZONE;
        ps->optional = (it->sub & 1) != 0;
        ps->lost_only = (it->sub & 2) != 0;
        ps->on_capture = (it->sub & 4) != 0;
        for (int k = 0; k < it->nkids; k++) {
            int t = sema_piece(cg->s, it->kids[k]->text, it->kids[k]->loc);
            if (t < 0) {
                cg->ok = false;
                continue;
            }
            if (ps->count >= MAX_PROMO_CHOICES) {
                diag_error(cg->s->sink, it->kids[k]->loc, "too many promotion choices (limit is %d)",
                           MAX_PROMO_CHOICES);
                cg->ok = false;
                break;
            }
            ps->types[ps->count++] = (uint8_t)t;
        }
        found = v->npromos++;
    }
    return found;
}

/* Groups every fast-attack type's rays by direction (see AttackLine). */
static void build_attack_lines(Variant *v) {
    v->attack_lines_ok = true;
    for (int o = 0; o < v->nowners; o++) {
        v->attack_lines[o] = xcalloc((size_t)(v->ndirs ? v->ndirs : 1), sizeof(AttackLine));
        for (int t = 0; t < v->ntypes; t++) {
            const PieceType *pt = &v->types[t];
            if (!pt->fast_attack) continue;
            for (int i = 0; i < pt->per_owner[o].npatterns; i++) {
                /* (a privilege's capture is found through the privileges: no reference) */
                if (pt->per_owner[o].patterns[i].method == CAP_PRIVILEGE) continue;
                v->pattern_types |= 1u << t;
                for (int victim = 0; victim < v->ntypes; victim++) {
                    if (!((pt->per_owner[o].patterns[i].victims >> victim) & 1)) continue;
                    uint8_t *n = &v->npattern_refs[o][victim];
                    if (*n >= MAX_PATTERN_REFS) {
                        v->attack_lines_ok = false;
                        continue;
                    }
                    v->pattern_refs[o][victim][*n].type = (uint8_t)t;
                    v->pattern_refs[o][victim][*n].pattern = (uint8_t)i;
                    (*n)++;
                }
            }
            for (int i = 0; i < pt->per_owner[o].natk; i++) {
                const Ray *r = &pt->per_owner[o].atk[i];
                if ((r->slide && r->range) || r->from_zone || r->to_zone) v->attack_lines_ok = false;
                AttackLine *line = NULL;
                for (int k = 0; k < v->nattack_lines[o] && !line; k++)
                    if (v->attack_lines[o][k].dir == r->dir) line = &v->attack_lines[o][k];
                if (!line) {
                    line = &v->attack_lines[o][v->nattack_lines[o]++];
                    line->dir = r->dir;
                }
                for (int victim = 0; victim < v->ntypes; victim++)
                    if ((r->victims >> victim) & 1) (r->slide ? line->sliders : line->leapers)[victim] |= 1u << t;
            }
        }
    }
}

bool cg_compile(Sema *s) {
    Variant *v = s->v;
    bool ok = true;
    for (int c = 0; c < MAX_CELLS; c++) v->castle_mask[c] = 0xFFFFFFFFu;
    v->all_fast = true;
    v->ntypesets = 1;
    v->typesets[0] = ALL_TYPES;
    for (int t = 0; t < v->ntypes; t++) {
        bool fast_attack = true;
        int promo = 0;
        for (int o = 0; o < v->nowners; o++) {
            CG cg = {.s = s, .v = v, .type = t, .owner = o, .ok = true};
            if (o == 0) promo = declare_promotion(&cg, s->piece_items[t]);
            cg.promo = promo;
            compile_piece(&cg, s->piece_items[t], &fast_attack);
            ok = ok && cg.ok;
        }
        v->types[t].fast_attack = fast_attack;
    }
    /* a promoted piece that returns to a hand demoted goes back as the first type that
     * promotes to it */
    for (int t = 0; t < v->ntypes; t++) v->demote_to[t] = (uint8_t)t;
    for (int t = v->ntypes - 1; t >= 0; t--)
        for (int i = 0; i < s->piece_items[t]->nkids; i++) {
            const Ast *it = s->piece_items[t]->kids[i];
            if (it->kind != AST_PROMOTE) continue;
            for (int k = 0; k < it->nkids; k++) {
                int u = sema_piece(s, it->kids[k]->text, it->kids[k]->loc);
                if (u >= 0) v->demote_to[u] = (uint8_t)t;
            }
        }
    /* the drop conditions need drops */
    for (int t = 0; t < v->ntypes; t++)
        for (int i = 0; i < s->piece_items[t]->nkids; i++) {
            const Ast *it = s->piece_items[t]->kids[i];
            if (it->kind == AST_FLAG && !v->types[t].droppable &&
                (!strcmp(it->text, "no-doubled-drop") || !strcmp(it->text, "no-mate-drop"))) {
                diag_error(s->sink, it->loc, "'%s' needs a 'drop' item in piece '%s'", it->text, v->types[t].name);
                ok = false;
            }
        }
    /* En passant only counts as a non-capture for attack tests when no royal piece can be its victim. */
    bool royal_ep = false;
    for (int t = 0; t < v->ntypes; t++)
        if (v->types[t].sets_ep && v->types[t].royal) royal_ep = true;
    for (int t = 0; t < v->ntypes; t++) {
        if (royal_ep) {
            for (int i = 0; i < s->piece_items[t]->nkids; i++) {
                const Ast *it = s->piece_items[t]->kids[i];
                if (it->kind == AST_ATOM && it->sub == ATOM_EN_PASSANT) v->types[t].fast_attack = false;
            }
        }
        if (!v->types[t].fast_attack) v->all_fast = false;
        if (!v->types[t].fast_attack) v->privilege_types &= ~(1u << t); /* (its program runs) */
    }
    /* custodian captures and freezing look at fixed neighbourhoods */
    static const int8_t unit[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
    for (int i = 0; i < 8; i++) {
        int d = sema_vector_dir(s, unit[i][0], unit[i][1], (SrcLoc){0});
        if (d < 0) return false;
        if (i < 4) v->orth_dirs[i] = (uint8_t)d;
        v->adjacent_dirs[i] = (uint8_t)d;
    }
    v->nadjacent = 8;
    if (ok) build_attack_lines(v);
    return ok;
}
