/* vm.c - the movement-program interpreter: a backtracking machine with a cursor cell, a
 * condition flag, a mark stack and a list of pending effects. FORK saves a choice point;
 * a failing path resumes at the newest one. No allocation: all state is on the C stack. */
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attack.h"

typedef struct Choice {
    int pc; /* where the path resumes; PC_FINISH: the end of an `add-partial`'s continuation */
    Cell cur;
    bool flag;
    uint8_t nmarks, npending;
    uint8_t change;
    uint8_t marks_flags, castle; /* MOVE_EP / MOVE_CASTLE and the castling rule, for emitted moves */
    uint8_t kind;                /* the move kind of emitted moves */
    uint8_t ntags;               /* cells tagged on the path so far */
    uint16_t move_flags;         /* the move's flags (`set-flag`) */
    int capture_mark;            /* the moves emitted at the path's last capture since it went on
                                  * from a pause, or -1; and which capture of the run it was */
    int capture_id;
    Cell here;           /* the cell the moving piece stands on (it moves on add-partial) */
    const Program *prog; /* the program the path runs (add-partial may go on in another) */
    Cell second;         /* the piece FROM chose for TO (NO_CELL: none) */
    Cell marks[MAX_MARKS];
    /* PC_FINISH only: the moves emitted when the continuation began (none more: the move ends
     * where it paused), and the pause's promotion set and mode */
    int since, group; /* group: the capture whose landings these are, or -1 */
    uint8_t promo, partial_mode;
} Choice;

#define PC_FINISH (-1)

/* A cell tagged (or untagged) on the path (`tag NAME`): the newest entry for a cell and tag
 * decides. */
typedef struct TagEntry {
    Cell cell;
    uint8_t tag;
    bool on;
} TagEntry;

/* Runtime limits name themselves, as the rule file's do. */
#define STR_(x) #x
#define STR(x) STR_(x)
#define STEP_BUDGET_EXCEEDED "step budget exceeded (limit is " STR(VM_STEP_BUDGET) " instructions)"
#define POSITION_BUDGET_EXCEEDED \
    "step budget for one position exceeded (limit is " STR(POSITION_STEP_BUDGET) " instructions)"
#define TOO_MANY_CHOICES "too many open choices (limit is " STR(MAX_FORKS) ")"
#define TOO_MANY_MARKS "mark stack overflow (limit is " STR(MAX_MARKS) ")"
#define TOO_MANY_TAGS "too many cells tagged in one move (limit is " STR(MAX_TAGGED) ")"
#define TOO_MANY_EFFECTS "too many effects in one move (limit is " STR(MAX_EFFECTS) ")"
#define TOO_MANY_MOVES "too many moves in one position (limit is " STR(MAX_MOVES) ")"

static bool fault_at(VmFault *fault, const Program *prog, int pc, const char *msg) {
    if (fault && !fault->set) {
        fault->set = true;
        snprintf(fault->msg, sizeof fault->msg, "%s (in %s)", msg, prog->name);
        fault->file = prog->file;
        fault->line = (pc >= 0 && pc < prog->count) ? prog->lines[pc] : 0;
        fault->col = (pc >= 0 && pc < prog->count) ? prog->cols[pc] : 0;
    }
    return false;
}

/* The value a counter instruction means: the game's, or the moving side's own. */
static inline int counter_slot(const Position *pos, int counter, int owner) {
    const CounterDef *c = &pos->v->counters[counter];
    return c->slot + (c->per_player ? pos->controller[owner] : 0);
}

/* An enemy of `owner` whose type is in `set`. */
static inline bool is_victim(const Position *pos, Cell c, int owner, uint32_t set) {
    Piece p = pos->cell[c];
    return p && board_hostile(pos, PIECE_OWNER(p), owner) && ((set >> PIECE_TYPE(p)) & 1);
}

/* The next free entry of the pending effects, zeroed, or NULL when no more fit in one move
 * (the move itself needs room for its displacement and a change of type). */
static inline Effect *pending_push(Effect *pending, int *npending) {
    if (unlikely(*npending >= MAX_PENDING || *npending >= MAX_EFFECTS - 2)) return NULL;
    Effect *e = &pending[(*npending)++];
    memset(e, 0, sizeof *e);
    return e;
}

/* Is the piece on c taken by the move so far (a capture recorded on the path)? */
static inline bool is_taken(const Effect *pending, int npending, Cell c) {
    for (int i = 0; i < npending; i++)
        if (pending[i].kind == FX_REMOVE && pending[i].a == c) return true;
    return false;
}

/* The newest entry of the tag list for cell c and tag t: whether c is tagged t. */
static bool is_tagged(const TagEntry *tags, int ntags, Cell c, int t) {
    for (int i = ntags - 1; i >= 0; i--)
        if (tags[i].cell == c && tags[i].tag == t) return tags[i].on;
    return false;
}

/* Records "remove the piece on c" once; false when the pending list is full. */
static bool record_capture(Effect *pending, int *npending, Cell c) {
    for (int i = 0; i < *npending; i++)
        if (pending[i].kind == FX_REMOVE && pending[i].a == c) return true;
    Effect *e = pending_push(pending, npending);
    if (!e) return false;
    e->kind = FX_REMOVE;
    e->a = c;
    return true;
}

/* Does cell c close a custodian capture of a piece of `victim` by a move of `owner` from
 * origin: a piece of the mover's side (the origin is empty after the move), or an empty cell of
 * the victim's part of the hostile zone? */
static bool closes_capture(const Position *pos, Cell c, Cell origin, int owner, int victim) {
    const Variant *v = pos->v;
    if (c == NO_CELL) return false;
    Piece p = c == origin ? 0 : pos->cell[c];
    if (p) return !board_hostile(pos, PIECE_OWNER(p), owner);
    return v->hostile_zone && zone_has(&v->zones[v->hostile_zone - 1], victim, c);
}

/* Is the piece on cell `at` one that custodian captures take only when it is surrounded? */
static bool needs_surround(const Variant *v, Cell at, Piece p) {
    return ((v->surround_types >> PIECE_TYPE(p)) & 1) &&
        (!v->surround_zone || zone_has(&v->zones[v->surround_zone - 1], PIECE_OWNER(p), at));
}

/* A shield wall along the edge from the landing cell: the run of enemies (types in set) from
 * land + e on, each on the edge with a piece of the mover's in front of it (inward), two or
 * more, closed at its far end; its pieces but the surround types are recorded as taken. */
static bool shieldwall_at(const Position *pos, Cell land, Cell origin, int owner, uint32_t set, int e, int inward,
                          int out, Effect *pending, int *npending) {
    const Variant *v = pos->v;
    Cell run[MAX_BOARD_DIM];
    int n = 0;
    Cell c = variant_step(v, land, e);
    for (;
         c != NO_CELL && n < MAX_BOARD_DIM && is_victim(pos, c, owner, ALL_TYPES) && variant_step(v, c, out) == NO_CELL;
         c = variant_step(v, c, e)) {
        Cell front = variant_step(v, c, inward);
        if (front == NO_CELL || front == origin || !pos->cell[front] ||
            board_hostile(pos, PIECE_OWNER(pos->cell[front]), owner))
            return true;
        run[n++] = c;
    }
    if (n < 2 || !closes_capture(pos, c, origin, owner, PIECE_OWNER(pos->cell[run[0]]))) return true;
    for (int i = 0; i < n; i++) {
        Piece p = pos->cell[run[i]];
        if (((set >> PIECE_TYPE(p)) & 1) && !((v->surround_types >> PIECE_TYPE(p)) & 1) &&
            !record_capture(pending, npending, run[i]))
            return false;
    }
    return true;
}

/* Custodian captures with the game's rules: hostile cells close them, the surround types (in
 * their zone) need every orthogonal side closed, shield walls on the edge. */
__attribute__((noinline)) static bool pincer_ruled(const Position *pos, Cell land, Cell origin, int owner, uint32_t set,
                                                   Effect *pending, int *npending) {
    const Variant *v = pos->v;
    for (int i = 0; i < 4; i++) {
        int e = v->orth_dirs[i];
        Cell victim = variant_step(v, land, e);
        if (victim == NO_CELL || !is_victim(pos, victim, owner, set)) continue;
        Piece p = pos->cell[victim];
        bool taken = true;
        if (needs_surround(v, victim, p)) {
            for (int k = 0; k < 4 && taken; k++) {
                Cell side = variant_step(v, victim, v->orth_dirs[k]);
                taken = side == land || closes_capture(pos, side, origin, owner, PIECE_OWNER(p));
            }
        } else {
            taken = closes_capture(pos, variant_step(v, victim, e), origin, owner, PIECE_OWNER(p));
        }
        if (taken && !record_capture(pending, npending, victim)) return false;
    }
    if (!v->shieldwall) return true;
    /* on the edge: each orthogonal way off the board gives the two ways along it */
    for (int i = 0; i < 4; i++) {
        int out = v->orth_dirs[i], inward = v->dirs[out].reverse;
        if (variant_step(v, land, out) != NO_CELL || inward < 0) continue;
        for (int k = 0; k < 4; k++) {
            int e = v->orth_dirs[k];
            if (e == out || e == inward) continue;
            if (!shieldwall_at(pos, land, origin, owner, set, e, inward, out, pending, npending)) return false;
        }
    }
    return true;
}

/* Custodian captures around the landing cell `land`: an enemy (type in set) on land+e with a
 * piece of the mover's side on land+2e, for the orthogonal e. False when pending is full. */
static bool pincer_at(const Position *pos, Cell land, Cell origin, int owner, uint32_t set, Effect *pending,
                      int *npending) {
    const Variant *v = pos->v;
    if (unlikely(v->custodian_rules)) return pincer_ruled(pos, land, origin, owner, set, pending, npending);
    for (int i = 0; i < 4; i++) {
        int e = v->orth_dirs[i];
        Cell victim = variant_step(v, land, e);
        if (victim == NO_CELL || !is_victim(pos, victim, owner, set)) continue;
        Cell partner = variant_step(v, victim, e);
        /* the mover's own origin is empty after the move: it is no partner */
        if (partner == NO_CELL || partner == origin || !pos->cell[partner] ||
            board_hostile(pos, PIECE_OWNER(pos->cell[partner]), owner))
            continue;
        if (!record_capture(pending, npending, victim)) return false;
    }
    return true;
}

/* Coordinator captures from the landing cell with the mover's royal piece. */
static bool coord_at(const Position *pos, Cell land, Cell origin, int owner, Cell king, uint32_t set, Effect *pending,
                     int *npending) {
    const Variant *v = pos->v;
    if (king == NO_CELL || king == origin) return true;
    const CellInfo *ki = &v->cells[king], *ci = &v->cells[land];
    if (ki->board != ci->board || ki->x == ci->x || ki->y == ci->y) return true;
    const Board *bd = &v->boards[ci->board];
    Cell corners[2] = {bd->at[ki->y][ci->x], bd->at[ci->y][ki->x]};
    for (int i = 0; i < 2; i++)
        if (corners[i] != NO_CELL && is_victim(pos, corners[i], owner, set) &&
            !record_capture(pending, npending, corners[i]))
            return false;
    return true;
}

/* Path marks of the VM's own (never move flags): the moves it emits hand the piece over; they
 * name the pieces they take elsewhere (MOVE_NAMES_TAKEN). */
#define PATH_HAND_OVER 0x80
#define PATH_CHOSEN 0x40

/* The player who takes the turn after the current one. */
static int next_player(const Position *pos) {
    const Variant *v = pos->v;
    return v->turn_order[(pos->turn + 1) % v->nturns];
}

/* What a path says about the moves it emits beyond their effects (for notation). */
typedef struct PathMarks {
    uint8_t flags;  /* MOVE_EP, MOVE_CASTLE */
    uint8_t castle; /* castling rule + 1, or 0 */
    uint8_t kind;   /* move kind */
} PathMarks;

/* `hand-over`: the piece m leaves on its destination goes to the next player (a change of
 * owner, added or folded into the move's change of type). This and the other helpers of the
 * newer statements stay out of line: inlined, they slowed the interpreter's loop for every
 * game. */
__attribute__((noinline)) static void hand_over(const Position *pos, Move *m, int owner) {
    m->flags &= (uint16_t)~PATH_HAND_OVER;
    int next = next_player(pos);
    if (next == owner) return;
    for (int i = 0; i < m->nfx; i++)
        if (m->fx[i].kind == FX_CHANGE && m->fx[i].a == m->to) {
            m->fx[i].piece = PIECE_MAKE(PIECE_TYPE(m->fx[i].piece), next);
            return;
        }
    if (pos->cell[m->from] && m->nfx < MAX_EFFECTS)
        m->fx[m->nfx++] =
            (Effect){.kind = FX_CHANGE, .a = m->to, .piece = PIECE_MAKE(PIECE_TYPE(pos->cell[m->from]), next)};
}

/* Appends a drop: a new piece of `type` of the owner on the empty cell cur, with the pending
 * effects; it is written from cur to cur. Returns false when the list is full. */
__attribute__((noinline)) static bool emit_drop(const Position *pos, MoveList *out, Cell cur, int owner, int type,
                                                const Effect *pending, int npending, PathMarks marks, bool placed) {
    /* with hands, the new piece comes from the mover's hand: none held, no drop */
    const bool from_hand = pos->v->has_hands && owner < pos->v->nplayers;
    if (from_hand && !pos->hand[owner][type]) return true;
    if (out->count >= MAX_MOVES) return false;
    Move *m = &out->moves[out->count++];
    m->from = m->to = cur;
    m->flags = marks.flags & ~(PATH_HAND_OVER | PATH_CHOSEN);
    if (marks.flags & PATH_CHOSEN) m->flags |= MOVE_NAMES_TAKEN;
    if (placed) m->flags |= MOVE_DROP; /* (a drop program's: no piece moves) */
    int holder = owner;
    if (marks.flags & PATH_HAND_OVER) owner = next_player(pos);
    m->promo = NO_TYPE;
    m->castle = 0;
    m->kind = marks.kind;
    m->nfx = 0;
    m->fx[m->nfx++] = (Effect){.kind = FX_PLACE, .a = cur, .piece = PIECE_MAKE(type, owner)};
    for (int i = 0; i < npending; i++) {
        m->fx[m->nfx++] = pending[i];
        if (pending[i].kind == FX_REMOVE && pos->cell[pending[i].a]) m->flags |= MOVE_CAPTURE;
    }
    /* (pending holds at most MAX_EFFECTS - 2: there is room) */
    if (from_hand) m->fx[m->nfx++] = (Effect){.kind = FX_HAND, .a = (Cell)holder, .piece = (Piece)type};
    return true;
}

/* Appends one emitted move (org NO_CELL: a drop of type `change`); returns false when the
 * list is full. */
static bool emit(const Position *pos, MoveList *out, Cell org, Cell cur, int owner, const Effect *pending, int npending,
                 int change, int promo_type, PathMarks marks) {
    if (unlikely(org == NO_CELL)) return emit_drop(pos, out, cur, owner, change, pending, npending, marks, false);
    if (out->count >= MAX_MOVES) return false;
    Move *m = &out->moves[out->count];
    m->from = org;
    m->to = cur;
    m->flags = marks.flags;
    m->promo = NO_TYPE;
    m->castle = marks.castle;
    m->kind = marks.kind;
    m->nfx = 0;
    for (int i = 0; i < npending; i++) {
        m->fx[m->nfx++] = pending[i];
        if (pending[i].kind == FX_REMOVE && pos->cell[pending[i].a]) m->flags |= MOVE_CAPTURE;
        /* (a second piece, `to`, landing on an enemy takes it) */
        if (pending[i].kind == FX_MOVE && pos->cell[pending[i].b] &&
            board_hostile(pos, PIECE_OWNER(pos->cell[pending[i].b]), owner))
            m->flags |= MOVE_CAPTURE;
    }
    if (org != cur) {
        if (pos->cell[cur] && board_hostile(pos, PIECE_OWNER(pos->cell[cur]), owner)) m->flags |= MOVE_CAPTURE;
        m->fx[m->nfx++] = (Effect){.kind = FX_MOVE, .a = org, .b = cur};
    }
    int newtype = promo_type != NO_TYPE ? promo_type : change;
    if (newtype != NO_TYPE) {
        m->fx[m->nfx++] = (Effect){.kind = FX_CHANGE, .a = cur, .piece = PIECE_MAKE(newtype, owner)};
        m->promo = (uint8_t)newtype;
        if (promo_type != NO_TYPE) m->flags |= MOVE_PROMOTION;
    }
    if (unlikely(marks.flags & PATH_HAND_OVER)) hand_over(pos, m, owner);
    if (unlikely(marks.flags & PATH_CHOSEN)) m->flags = (uint16_t)((m->flags & ~PATH_CHOSEN) | MOVE_NAMES_TAKEN);
    out->count++;
    return true;
}

/* Does a promote rule apply to a move from org to cur (it ends in its zone or starts in its
 * from-zone)? */
static inline bool promotes_here(const Variant *v, const PromoSet *ps, int owner, Cell org, Cell cur) {
    return (ps->zone != NO_ZONE && zone_has(&v->zones[ps->zone], owner, cur)) ||
        (ps->from_zone != NO_ZONE && zone_has(&v->zones[ps->from_zone], owner, org));
}

/* `capture-only` promotions: does the move capture (by landing or by its removals)? */
static bool captures_here(const Position *pos, const Effect *pending, int npending, Cell cur, Cell org, int owner) {
    if (cur != org && pos->cell[cur] && board_hostile(pos, PIECE_OWNER(pos->cell[cur]), owner)) return true;
    for (int i = 0; i < npending; i++)
        if (pending[i].kind == FX_REMOVE && pos->cell[pending[i].a]) return true;
    return false;
}

/* `lost-only`: may owner promote to type t, having fewer of them than it started with? */
static bool promotion_in_stock(const Position *pos, int owner, int t) {
    int n = 0;
    for (int w = 0; w < pos->v->cell_words; w++) n += __builtin_popcountll(pos->type_occ[t][w] & pos->occ[owner][w]);
    return n < pos->v->start_count[owner][t];
}

/* What ADD emits: the move org -> cur with the pending effects and the change of type, or,
 * where a promote rule applies, one move per choice (and the move without it, when the rule
 * is optional). False when the list is full. */
__attribute__((always_inline)) static inline bool add_moves(const Position *pos, MoveList *out, Cell org, Cell cur,
                                                            int owner, const Effect *pending, int npending, int change,
                                                            int promo, PathMarks marks) {
    const Variant *v = pos->v;
    const PromoSet *ps = promo ? &v->promos[promo] : NULL;
    if (!ps || !promotes_here(v, ps, owner, org, cur) ||
        (ps->on_capture && !captures_here(pos, pending, npending, cur, org, owner)))
        return emit(pos, out, org, cur, owner, pending, npending, change, NO_TYPE, marks);
    int mover = change != NO_TYPE ? change : PIECE_TYPE(pos->cell[org]);
    bool ok = true;
    if (ps->optional && !(v->types[mover].never_stuck && variant_stuck(v, mover, owner, cur)))
        ok = emit(pos, out, org, cur, owner, pending, npending, change, NO_TYPE, marks);
    for (int i = 0; ok && i < ps->count; i++)
        if (!ps->lost_only || promotion_in_stock(pos, owner, ps->types[i]))
            ok = emit(pos, out, org, cur, owner, pending, npending, change, ps->types[i], marks);
    return ok;
}

/* A free castle from kf with the rook on rf: every cell between the outermost of the four is
 * empty but for the king and the rook, and no cell of the king's way is attacked. */
static bool free_castle_open(GenContext *ctx, Position *pos, const Castle *c, Cell kf, Cell rf, int owner) {
    const Variant *v = pos->v;
    const CellInfo *k = &v->cells[kf];
    const Board *b = &v->boards[k->board];
    int xs[4] = {k->x, v->cells[c->king_to].x, v->cells[rf].x, v->cells[c->rook_to].x};
    int lo = xs[0], hi = xs[0];
    for (int i = 1; i < 4; i++) {
        if (xs[i] < lo) lo = xs[i];
        if (xs[i] > hi) hi = xs[i];
    }
    for (int x = lo; x <= hi; x++) {
        Cell cell = b->at[k->y][x];
        if (cell == NO_CELL || (cell != kf && cell != rf && pos->cell[cell])) return false;
    }
    /* the king may not pass through check; one that is not a protected royal piece (no check
     * rule) castles through attacked cells */
    if (!variant_royal(v, PIECE_OWNER(pos->cell[kf]), PIECE_TYPE(pos->cell[kf])) || !v->forbid_royal_capture)
        return true;
    int step = xs[1] >= xs[0] ? 1 : -1;
    for (int x = xs[0];; x += step) {
        if (attack_is_attacked(ctx, pos, b->at[k->y][x], owner, pos->cell[kf])) return false;
        if (x == xs[1]) break;
    }
    return true;
}

bool vm_free_castle_open(GenContext *ctx, Position *pos, int castle, Cell from, int owner) {
    Cell kf = pos->castle_king[castle], rf = pos->castle_rook[castle];
    return kf == from && rf != NO_CELL && free_castle_open(ctx, pos, &pos->v->castles[castle], kf, rf, owner);
}

/* CONVERT (the piece on cur, another player's, becomes the owner's), TURNOVER (the piece on
 * cur goes to the player seated after its owner) and OUTFLANK (the run of
 * enemy pieces from cur + dir on, closed by a piece of the owner's side, becomes the owner's):
 * records the effect in pending. False when pending is full. Kept out of the interpreter's
 * loop, which games without them run. */
__attribute__((noinline)) static bool record_conversion(const Position *pos, Opcode op, Cell cur, int dir, int owner,
                                                        Effect *pending, int *npending) {
    const Variant *v = pos->v;
    Effect e;
    if (op == OP_CONVERT || op == OP_TURNOVER) {
        Piece p = pos->cell[cur];
        if (!p) return true;
        int to = owner, from = PIECE_OWNER(p);
        if (op == OP_TURNOVER) {
            if (from >= v->nplayers) return true; /* (an army's piece: no player owns it) */
            to = (from + 1) % v->nplayers;
        }
        if (from == to) return true;
        e = (Effect){.kind = FX_CHANGE, .a = cur, .piece = PIECE_MAKE(PIECE_TYPE(p), to)};
    } else {
        Cell first = variant_step(v, cur, dir), c = first;
        int k = 0;
        while (c != NO_CELL && pos->cell[c] && board_hostile(pos, PIECE_OWNER(pos->cell[c]), owner) && k < 255) {
            c = variant_step(v, c, dir);
            k++;
        }
        if (!k || c == NO_CELL || !pos->cell[c] || board_hostile(pos, PIECE_OWNER(pos->cell[c]), owner)) return true;
        e = (Effect){.kind = FX_FLIP, .pad = (uint8_t)k, .a = first, .b = (Cell)dir, .piece = (Piece)owner};
    }
    Effect *slot = pending_push(pending, npending);
    if (!slot) return false;
    *slot = e;
    return true;
}

/* Does pending convert an enclosed run (OUTFLANKED)? */
__attribute__((noinline)) static bool any_flip(const Effect *pending, int npending) {
    for (int i = 0; i < npending; i++)
        if (pending[i].kind == FX_FLIP) return true;
    return false;
}

/* The next cell of zone z (255: any cell) for owner after cur, or NO_CELL. */
static Cell next_in_zone(const Variant *v, int z, int owner, Cell cur) {
    int c = cur + 1;
    if (z == 0xFF) return c < v->board_cells ? (Cell)c : NO_CELL; /* (holding cells only by name) */
    const uint64_t *bits = v->zones[z].cells[owner];
    for (int w = c >> 6; w < v->cell_words; w++) {
        uint64_t b = bits[w] & (w == c >> 6 ? ~0ULL << (c & 63) : ~0ULL);
        if (b) {
            int found = w * 64 + __builtin_ctzll(b);
            return found < v->ncells ? (Cell)found : NO_CELL;
        }
    }
    return NO_CELL;
}

/* INROW: is cur one of `length` or more (exactly `length`) pieces of one side in a row along
 * one of the lines? The side is that of the piece on cur, or the mover's when cur is empty or
 * holds the moving piece (`here`); elsewhere the moving piece's cell counts as empty, and so do
 * pieces the move takes. */
__attribute__((noinline)) static bool in_row(const Position *pos, Cell cur, Cell here, int owner, int length,
                                             bool exactly, const LineSet *lines, const Effect *pending, int npending) {
    const Variant *v = pos->v;
    if (cur >= v->board_cells) return false; /* (a holding cell is in no line) */
    Piece own = pos->cell[cur];
    int side = !own || cur == here || is_taken(pending, npending, cur) ? owner : PIECE_OWNER(own);
    for (int i = 0; i < lines->n; i++) {
        int n = 1;
        for (int k = 0; k < 2; k++) {
            int d = k ? v->dirs[lines->dirs[i]].reverse : lines->dirs[i];
            if (d < 0) continue;
            for (Cell c = variant_step(v, cur, d); c < v->board_cells && c != here && pos->cell[c] &&
                 !board_hostile(pos, PIECE_OWNER(pos->cell[c]), side) && !is_taken(pending, npending, c);
                 c = variant_step(v, c, d))
                n++;
        }
        if (exactly ? n == length : n >= length) return true;
    }
    return false;
}

/* The interpreter. With target == NO_CELL it emits moves into out; otherwise it only asks
 * whether some move would capture the piece on target, and stops at the first that does.
 * Returns RUN_DONE, RUN_FOUND or RUN_FAULT. */
enum { RUN_DONE, RUN_FOUND, RUN_FAULT };

static inline bool captures_target(const Effect *pending, int npending, Cell cur, Cell origin, Cell target) {
    if (cur == target && cur != origin) return true;
    for (int i = 0; i < npending; i++)
        if ((pending[i].kind == FX_REMOVE && pending[i].a == target) ||
            (pending[i].kind == FX_MOVE && pending[i].b == target))
            return true;
    return false;
}

/* OWNCOUNT: has owner n or more pieces of type t on the board? (Counted up to n only: the
 * bounds written are small.) */
__attribute__((noinline)) static bool own_count_at_least(const Position *pos, int owner, int t, int n) {
    int count = 0;
    for (int w = 0; w < pos->v->cell_words && count < n; w++)
        for (uint64_t b = pos->type_occ[t][w] & pos->occ[owner][w]; b && count < n; b &= b - 1) count++;
    return count >= n;
}

/* Would the move the path has made so far, emitted at cur, check a player other than the
 * mover's side? That is the piece on origin moved to cur (what stands there taken) with the
 * effects recorded (captures, en passant, a second piece moved, conversions), its change of
 * type, and, when its type explodes and it captures, the explosion. Inside an attack test the
 * answer is "no" (tests are not nested). */
__attribute__((noinline)) static bool vm_gives_check(GenContext *ctx, Position *pos, Cell origin, Cell cur, int owner,
                                                     const Effect *pending, int npending, int change) {
    if (ctx->attack_depth || (cur == origin && !npending && change == NO_TYPE)) return false;
    const Variant *v = pos->v;
    Move m = {.from = origin, .to = cur, .promo = NO_TYPE};
    for (int i = 0; i < npending; i++) {
        m.fx[m.nfx++] = pending[i];
        if ((pending[i].kind == FX_REMOVE && pos->cell[pending[i].a]) ||
            (pending[i].kind == FX_MOVE && pos->cell[pending[i].b]))
            m.flags |= MOVE_CAPTURE;
    }
    /* (pending holds at most MAX_EFFECTS - 2: there is room for these two) */
    if (cur != origin) {
        if (pos->cell[cur] && board_hostile(pos, PIECE_OWNER(pos->cell[cur]), owner)) m.flags |= MOVE_CAPTURE;
        m.fx[m.nfx++] = (Effect){.kind = FX_MOVE, .a = origin, .b = cur};
    }
    if (change != NO_TYPE) m.fx[m.nfx++] = (Effect){.kind = FX_CHANGE, .a = cur, .piece = PIECE_MAKE(change, owner)};
    if (unlikely(v->blast_mask) && (m.flags & MOVE_CAPTURE) && cur != origin && pos->cell[origin] &&
        ((v->blast_mask >> PIECE_TYPE(pos->cell[origin])) & 1))
        board_explode(pos, &m);
    CellJournal cj;
    board_cells_apply(pos, &m, &cj);
    bool check = false;
    for (int p = 0; p < v->nplayers && !check; p++)
        check = ((pos->alive >> p) & 1) && board_hostile(pos, p, owner) && attack_in_check(ctx, pos, p);
    board_cells_revert(pos, &cj);
    return check;
}

/* `traced` is a constant at each of the two calls, each an inlined copy: the untraced one
 * tests no hook per instruction. */
__attribute__((always_inline)) static inline int run(GenContext *ctx, const Program *prog, int start, Position *pos,
                                                     Cell from, int owner, MoveList *out, Cell target, VmFault *fault,
                                                     long *budget_left, const char *budget_msg, const bool traced,
                                                     const bool extended) {
    const Variant *v = pos->v;
    const VmTraceFn trace = traced ? ctx->trace : NULL;
    Cell royal = NO_CELL; /* the owner's royal piece, looked up once per run (coordination) */
    bool royal_known = false;
    const uint8_t *code = prog->code;
    Choice stack[MAX_FORKS];
    int nchoices = 0;
    Cell marks[MAX_MARKS];
    int nmarks = 0;
    Effect pending[MAX_PENDING];
    int npending = 0;
    int change = NO_TYPE;
    PathMarks pmarks = {0};
    int pc = start;
    Cell cur = from;
    bool flag = false;
    /* Multi-part moves: the moving piece stands on `here` (from, until an add-partial moves it
     * on), and `lifted` is its empty first cell while it is away (NO_CELL before); the path
     * runs `prog`, which add-partial may change to its new type's. Move-local memory: flags
     * and the tag list. */
    Cell here = from, lifted = NO_CELL;
    uint16_t move_flags = 0;
    TagEntry tags[MAX_TAGGED];
    int ntags = 0;
    int capture_mark = -1, capture_id = -1, ncaptures = 0;
    /* the finishes of one capture's landings come one after another: the moves those of
     * finish_group made (finish_made) are not a landing going on */
    int finish_group = -1, finish_made = 0;
    Cell second = NO_CELL; /* the second piece (`from`, `to`) */
    long budget = *budget_left;
    int result = RUN_DONE;
    const char *why = NULL; /* the fault met (goto fault) */
    int at = 0;             /* the offset of the instruction being run */

/* The path's state into choice point c, resuming at resume_pc. */
#define SAVE_PATH(c, resume_pc) \
    do { \
        (c)->pc = (resume_pc); \
        (c)->cur = cur; \
        (c)->flag = flag; \
        (c)->nmarks = (uint8_t)nmarks; \
        if (nmarks) memcpy((c)->marks, marks, sizeof(Cell) * (size_t)nmarks); \
        (c)->npending = (uint8_t)npending; \
        (c)->change = (uint8_t)change; \
        (c)->marks_flags = pmarks.flags; \
        (c)->castle = pmarks.castle; \
        (c)->kind = pmarks.kind; \
        if (extended) { \
            (c)->ntags = (uint8_t)ntags; \
            (c)->move_flags = move_flags; \
            (c)->here = here; \
            (c)->prog = prog; \
            (c)->capture_mark = capture_mark; \
            (c)->capture_id = capture_id; \
            (c)->second = second; \
        } \
    } while (0)

/* The path's state back from choice point c (but its pc). */
#define RESTORE_PATH(c) \
    do { \
        cur = (c)->cur; \
        flag = (c)->flag; \
        nmarks = (c)->nmarks; \
        if (nmarks) memcpy(marks, (c)->marks, sizeof(Cell) * (size_t)nmarks); \
        npending = (c)->npending; \
        change = (c)->change; \
        pmarks.flags = (c)->marks_flags; \
        pmarks.castle = (c)->castle; \
        pmarks.kind = (c)->kind; \
        if (extended) { \
            ntags = (c)->ntags; \
            move_flags = (c)->move_flags; \
            capture_mark = (c)->capture_mark; \
            capture_id = (c)->capture_id; \
            second = (c)->second; \
            if ((c)->here != here || (c)->prog != prog) { \
                here = (c)->here; \
                lifted = here == from ? NO_CELL : from; \
                prog = (c)->prog; \
                code = prog->code; \
            } \
        } \
    } while (0)

    for (;;) {
        at = pc;
        if (unlikely(--budget < 0)) {
            why = budget_msg;
            goto fault;
        }
        ASSERT(pc >= 0 && pc < prog->count, "the verifier keeps pc inside the program");
        if (traced) trace(prog, pc, cur, flag, ctx->trace_user);
        Opcode op = (Opcode)code[pc];
        const Operands operand = prog->ops[pc];
        const int a = operand.a, b = operand.b;
        pc += bc_instr_size(op);
        switch (op) {
        case OP_HALT:
        fail:
            if (nchoices == 0) goto out;
            {
                Choice *c = &stack[--nchoices];
                pc = c->pc;
                RESTORE_PATH(c);
                if (extended && c->pc == PC_FINISH) {
                    /* the continuation of an add-partial is over: when it made no move (or
                     * going on was optional), the move ends where it paused */
                    int made = c->group >= 0 && c->group == finish_group ? finish_made : 0;
                    if (target == NO_CELL && (c->partial_mode || out->count - c->since == made)) {
                        int before = out->count;
                        if (!add_moves(pos, out, from, cur, owner, pending, npending, change, c->promo, pmarks))
                            goto too_many_moves;
                        finish_made = made + (out->count - before);
                        finish_group = c->group;
                    }
                    goto fail;
                }
            }
            break;
        case OP_FORK:
            if (unlikely(nchoices >= MAX_FORKS)) {
                why = TOO_MANY_CHOICES;
                goto fault;
            }
            SAVE_PATH(&stack[nchoices], a);
            nchoices++;
            break;
        case OP_JUMP: pc = a; break;
        case OP_JT:
            if (flag) pc = a;
            break;
        case OP_JF:
            if (!flag) pc = a;
            break;
        case OP_ORIGIN: cur = here; break;
        case OP_STEP:
            cur = variant_step(v, cur, a);
            if (cur == NO_CELL) goto fail;
            break;
        case OP_GOTO: cur = (Cell)a; break;
        case OP_ONBOARD: flag = variant_step(v, cur, a) != NO_CELL; break;
        /* (a piece taken by the move so far is no enemy; the cell the piece left while it is
         * away is empty) */
        case OP_EMPTY: flag = pos->cell[cur] == 0 || cur == lifted; break;
        case OP_ENEMY:
            flag = pos->cell[cur] != 0 && board_hostile(pos, PIECE_OWNER(pos->cell[cur]), owner) &&
                !(npending && is_taken(pending, npending, cur));
            break;
        case OP_FRIEND:
            flag = pos->cell[cur] != 0 && !board_hostile(pos, PIECE_OWNER(pos->cell[cur]), owner) && cur != lifted;
            break;
        case OP_ISTYPE: flag = pos->cell[cur] != 0 && PIECE_TYPE(pos->cell[cur]) == a && cur != lifted; break;
        case OP_TAKEN: flag = is_taken(pending, npending, cur); break;
        case OP_FLAG: flag = (move_flags >> a) & 1; break;
        case OP_SETFLAG:
            move_flags = b ? (uint16_t)(move_flags | (1u << a)) : (uint16_t)(move_flags & ~(1u << a));
            break;
        case OP_TAGGED: flag = is_tagged(tags, ntags, cur, a); break;
        case OP_TAG:
            if (unlikely(ntags >= MAX_TAGGED)) {
                why = TOO_MANY_TAGS;
                goto fault;
            }
            tags[ntags++] = (TagEntry){.cell = cur, .tag = (uint8_t)a, .on = b != 0};
            break;
        case OP_INZONE: flag = zone_has(&v->zones[a], owner, cur); break;
        case OP_ISEP:
            flag = false;
            for (int i = 0; i < MAX_EP_CELLS; i++)
                if (pos->ep[i] == cur) flag = true;
            /* An en-passant cell belongs to the last move; never capture one's own piece. */
            if (flag &&
                (pos->ep_victim == NO_CELL || pos->cell[pos->ep_victim] == 0 ||
                 !board_hostile(pos, PIECE_OWNER(pos->cell[pos->ep_victim]), owner)))
                flag = false;
            break;
        case OP_ATTACKED: {
            Piece as = pos->cell[from];
            flag = attack_is_attacked(ctx, pos, cur, owner, as);
            break;
        }
        case OP_GIVESCHECK: flag = vm_gives_check(ctx, pos, from, cur, owner, pending, npending, change); break;
        case OP_UNMOVED: flag = pos->cell[cur] != 0 && !(pos->cell[cur] & PIECE_MOVED); break;
        case OP_RIGHT: flag = (pos->rights >> a) & 1; break;
        case OP_PRIVILEGE: flag = board_privilege_held(pos, owner, cur); break;
        case OP_ISORIGIN: flag = cur == here; break;
        case OP_LASTTO: flag = cur == pos->last_to; break;
        case OP_LASTFROM: flag = cur == pos->last_from; break;
        case OP_ONBOARDTYPE:
            flag = false;
            for (int w = 0; w < v->cell_words; w++) flag = flag || pos->type_occ[a][w] != 0;
            break;
        case OP_OWNCOUNT: flag = own_count_at_least(pos, owner, a, b); break;
        case OP_TYPEIN:
            flag = pos->cell[cur] != 0 && ((v->typesets[a] >> PIECE_TYPE(pos->cell[cur])) & 1) && cur != lifted;
            break;
        case OP_COUNTERGE: flag = pos->counters[counter_slot(pos, a, owner)] >= b; break;
        case OP_DEFENDED: flag = attack_is_defended(ctx, pos, cur, owner, pos->cell[from]); break;
        case OP_ATTACKERS: flag = attack_count_attackers(ctx, pos, cur, owner) >= a; break;
        case OP_NOT: flag = !flag; break;
        case OP_VERIFY:
            if (!flag) goto fail;
            break;
        case OP_MARK:
            if (unlikely(nmarks >= MAX_MARKS)) {
                why = TOO_MANY_MARKS;
                goto fault;
            }
            marks[nmarks++] = cur;
            break;
        case OP_BACK:
            if (unlikely(nmarks == 0)) {
                why = "back without mark";
                goto fault;
            }
            cur = marks[--nmarks];
            break;
        case OP_CAPTURE:
        case OP_CAPTUREEP:
        case OP_SETEP:
        case OP_CASCADE: {
            Effect *e = pending_push(pending, &npending);
            if (!e) goto too_many_effects;
            if (op == OP_CAPTURE) {
                e->kind = FX_REMOVE;
                e->a = cur;
                if (extended && out) {
                    capture_mark = out->count;
                    capture_id = ncaptures++;
                }
            } else if (op == OP_CAPTUREEP) {
                e->kind = FX_REMOVE;
                e->a = pos->ep_victim;
                pmarks.flags |= MOVE_EP;
            } else if (op == OP_SETEP) {
                e->kind = FX_EP;
                e->a = cur;
            } else {
                e->kind = FX_MOVE;
                e->a = (Cell)a;
                e->b = cur;
            }
            if (op == OP_CAPTUREEP && pos->ep_victim == NO_CELL) goto fail;
            break;
        }
        case OP_FREECASTLE: {
            if (target != NO_CELL) goto fail; /* (castling captures nothing) */
            const Castle *c = &v->castles[a];
            Cell rf = pos->castle_rook[a];
            if (!vm_free_castle_open(ctx, pos, a, from, owner)) goto fail;
            Effect *e = pending_push(pending, &npending);
            if (!e) goto too_many_effects;
            *e = (Effect){.kind = FX_MOVE, .a = rf, .b = c->rook_to};
            cur = c->king_to;
            break;
        }
        case OP_WITHDRAW: {
            Cell c = variant_step(v, here, a);
            if (c != NO_CELL && is_victim(pos, c, owner, v->typesets[b]) && !record_capture(pending, &npending, c))
                goto too_many_effects;
            break;
        }
        case OP_PINCER:
            if (!pincer_at(pos, cur, from, owner, v->typesets[a], pending, &npending)) goto too_many_effects;
            break;
        case OP_COORD:
            if (!royal_known) {
                royal = board_royal(pos, owner);
                royal_known = true;
            }
            if (!coord_at(pos, cur, from, owner, royal, v->typesets[a], pending, &npending)) goto too_many_effects;
            break;
        case OP_SLIDE: {
            /* C is decoded here only: live across the whole loop it slowed every instruction */
            int d = a, pset = b, cset = prog->ops[at].c;
            if (cset != 0xFF && !royal_known) {
                royal = board_royal(pos, owner);
                royal_known = true;
            }
            for (;;) {
                Cell c = variant_step(v, cur, d);
                if (c == NO_CELL) goto fail;
                cur = c;
                if (pos->cell[c]) break;
                /* this landing's captures extend pending for this move only */
                int n = npending;
                bool room = (pset == 0xFF || pincer_at(pos, c, from, owner, v->typesets[pset], pending, &n)) &&
                    (cset == 0xFF || coord_at(pos, c, from, owner, royal, v->typesets[cset], pending, &n));
                if (!room) goto too_many_effects;
                if (target != NO_CELL) {
                    if (captures_target(pending, n, c, from, target)) goto found;
                } else if (!emit(pos, out, from, c, owner, pending, n, change, NO_TYPE, pmarks)) {
                    goto too_many_moves;
                }
            }
            break;
        }
        case OP_RIDE:
            do {
                cur = variant_step(v, cur, a);
                if (cur == NO_CELL) goto fail;
            } while (!pos->cell[cur]);
            break;
        case OP_CHANGE: change = a; break;
        case OP_KIND: pmarks.kind = (uint8_t)a; break;
        case OP_COUNT: {
            Effect *e = pending_push(pending, &npending);
            if (!e) goto too_many_effects;
            e->kind = FX_COUNTER;
            e->a = (Cell)counter_slot(pos, a, owner);
            e->piece = (Piece)(int16_t)b;
            break;
        }
        case OP_CASTLED:
            pmarks.flags |= MOVE_CASTLE;
            pmarks.castle = (uint8_t)(a + 1);
            break;
        case OP_ADD:
        case OP_DROP: {
            /* DROP A: a new piece of type A on the empty cur, moving nothing (emit's NO_CELL from) */
            const bool drop = op == OP_DROP;
            /* (onto a cell the move empties, as a swap does) */
            if (unlikely(drop) && pos->cell[cur] && !is_taken(pending, npending, cur)) break;
            if (target != NO_CELL) {
                if (captures_target(pending, npending, drop ? NO_CELL : cur, from, target)) goto found;
                break;
            }
            bool ok = drop ? emit_drop(pos, out, cur, owner, a, pending, npending, pmarks, from == NO_CELL)
                           : add_moves(pos, out, from, cur, owner, pending, npending, change, a, pmarks);
            if (unlikely(!ok)) goto too_many_moves;
            break;
        }
        case OP_PARTIAL: {
            if (!extended) goto bad_opcode;
            /* The move pauses on cur and goes on from there: first the continuation (the
             * add-partial blocks of the piece's type, its new type after a change), then, when
             * that made no move, the move as it stands (PC_FINISH), then the rest of this path. */
            if (target != NO_CELL && captures_target(pending, npending, cur, from, target)) goto found;
            if (unlikely(nchoices + 2 > MAX_FORKS)) {
                why = TOO_MANY_CHOICES;
                goto fault;
            }
            /* After a capture, the move may end only where no landing after that capture goes on
             * (the finish waits below the rest of the path, which tries the other landings);
             * with nothing taken since it went on, where this pause leads nowhere. */
            const int since = capture_mark >= 0 ? capture_mark : (out ? out->count : 0);
            for (int k = 0; k < 2; k++) {
                bool finish = (k == 0) == (capture_mark >= 0);
                Choice *c = &stack[nchoices++];
                SAVE_PATH(c, finish ? PC_FINISH : pc);
                c->since = since;
                c->group = capture_mark >= 0 ? capture_id : -1;
                c->promo = (uint8_t)a;
                c->partial_mode = (uint8_t)b;
            }
            int type = change != NO_TYPE ? change : PIECE_TYPE(pos->cell[from]);
            const PieceProgram *pp = &v->types[type].per_owner[owner];
            if (!pp->has_chain) goto fail;
            Effect *e = pending_push(pending, &npending);
            if (!e) goto too_many_effects;
            e->kind = FX_VIA;
            e->a = cur;
            here = cur;
            lifted = cur == from ? NO_CELL : from;
            prog = &pp->prog;
            code = prog->code;
            pc = pp->chain_entry;
            capture_mark = -1;
            break;
        }
        case OP_CONVERT:
        case OP_TURNOVER:
        case OP_OUTFLANK:
            if (!record_conversion(pos, op, cur, a, owner, pending, &npending)) goto too_many_effects;
            break;
        case OP_HANDOVER: pmarks.flags |= PATH_HAND_OVER; break;
        case OP_CHOOSE: pmarks.flags |= PATH_CHOSEN; break;
        case OP_REFLECT:
            cur = variant_orient_cell(v, (Orientation)a, cur);
            if (cur == NO_CELL) goto fail;
            break;
        case OP_NEXTIN:
            cur = next_in_zone(v, a, owner, cur);
            if (cur == NO_CELL) goto fail;
            break;
        case OP_PROBE:
            if (unlikely(nchoices >= MAX_FORKS)) {
                why = TOO_MANY_CHOICES;
                goto fault;
            }
            SAVE_PATH(&stack[nchoices], a);
            stack[nchoices].flag = false;
            nchoices++;
            break;
        case OP_PROBED: {
            /* (the probe's choice point resumes right after this instruction) */
            int i = nchoices - 1;
            while (i >= 0 && stack[i].pc != pc) i--;
            if (unlikely(i < 0)) goto bad_opcode;
            nchoices = i;
            RESTORE_PATH(&stack[i]);
            flag = true;
            break;
        }
        case OP_INROW:
            flag = in_row(pos, cur, here, owner, a, b != 0, &v->linesets[prog->ops[at].c], pending, npending);
            break;
        case OP_PIECESGE: {
            int n = 0;
            for (int w = 0; w < v->cell_words; w++) n += __builtin_popcountll(pos->occ[owner][w]);
            flag = n >= a;
            break;
        }
        case OP_CREATE:
        case OP_SETTYPE: {
            Piece p = pos->cell[cur];
            if (op == OP_SETTYPE && !p) break;
            /* (a piece may be left on the cell the moving piece leaves) */
            if (op == OP_CREATE && p && cur != from && !is_taken(pending, npending, cur)) goto fail;
            Effect *e = pending_push(pending, &npending);
            if (!e) goto too_many_effects;
            *e = (Effect){.kind = op == OP_CREATE ? FX_PLACE : FX_CHANGE,
                          .a = cur,
                          .piece = PIECE_MAKE(a,
                                              op == OP_SETTYPE ? PIECE_OWNER(p)
                                                  : b == 0xFF  ? owner
                                                               : b)};
            break;
        }
        case OP_FROM:
            if (!extended) goto bad_opcode;
            second = cur;
            break;
        case OP_TO: {
            if (!extended) goto bad_opcode;
            if (second == NO_CELL || second == from || !pos->cell[second]) goto fail;
            Effect *e = pending_push(pending, &npending);
            if (!e) goto too_many_effects;
            *e = (Effect){.kind = FX_MOVE, .a = second, .b = cur};
            break;
        }
        case OP_OUTFLANKED: flag = any_flip(pending, npending); break;
        case OP__COUNT:
        default: goto bad_opcode;
        }
    }
#undef SAVE_PATH
#undef RESTORE_PATH
    /* the one way out: every exit hands back the budget left */
found:
    result = RUN_FOUND;
    goto out;
too_many_effects:
    why = TOO_MANY_EFFECTS;
    goto fault;
too_many_moves:
    why = TOO_MANY_MOVES;
    goto fault;
bad_opcode:
    why = "bad opcode";
fault:
    fault_at(fault, prog, at, why);
    result = RUN_FAULT;
out:
    *budget_left = budget;
    return result;
}

/* Runs prog within the smaller of the per-run budget and what the position has left, and takes
 * the steps it used from the position's. */
static int run_budgeted(GenContext *ctx, const Program *prog, int start, Position *pos, Cell origin, int owner,
                        MoveList *out, Cell target, VmFault *fault) {
    long *steps_left = genctx_budget(ctx, pos);
    bool by_position = *steps_left < VM_STEP_BUDGET;
    long limit = by_position ? *steps_left : VM_STEP_BUDGET, left = limit;
    const char *msg = by_position ? POSITION_BUDGET_EXCEEDED : STEP_BUDGET_EXCEEDED;
    /* a copy of the interpreter for each case: the one that runs most programs neither traces
     * nor keeps a move's memory (a program that pauses, flags or tags is `extended`) */
    int r;
    if (unlikely(ctx->trace != NULL))
        r = run(ctx, prog, start, pos, origin, owner, out, target, fault, &left, msg, true, true);
    else if (unlikely(prog->extended))
        r = run(ctx, prog, start, pos, origin, owner, out, target, fault, &left, msg, false, true);
    else
        r = run(ctx, prog, start, pos, origin, owner, out, target, fault, &left, msg, false, false);
    *steps_left -= limit - (left < 0 ? 0 : left);
    return r;
}

bool vm_emit_atom(const Position *pos, MoveList *out, Cell origin, Cell cur, int owner, const Effect *pending,
                  int npending, uint8_t flags, int promo) {
    return add_moves(pos, out, origin, cur, owner, pending, npending, NO_TYPE, promo, (PathMarks){.flags = flags});
}

/* Do two cell sets meet? */
static inline bool cells_meet(const uint64_t *a, const uint64_t *b, int words) {
    for (int w = 0; w < words; w++)
        if (a[w] & b[w]) return true;
    return false;
}

/* ---- programs run in C (vm_plan) ---------------------------------------------------------- */

/* The opcode at *pc when it is `op`: its operands, and *pc moves past it. */
static bool take(const Program *p, int *pc, int end, Opcode op, Operands *o) {
    if (*pc >= end || p->code[*pc] != op) return false;
    if (o) *o = p->ops[*pc];
    *pc += bc_instr_size(op);
    return true;
}

/* `ENEMY; VERIFY; TYPEIN s; VERIFY` (then `ADD 0` for a strike, `CAPTURE; STEP d; EMPTY;
 * VERIFY` for a jump): the victim set s. */
static bool take_victim(const Program *p, int *pc, int end, int *set) {
    Operands o;
    if (!take(p, pc, end, OP_ENEMY, NULL) || !take(p, pc, end, OP_VERIFY, NULL) || !take(p, pc, end, OP_TYPEIN, &o) ||
        !take(p, pc, end, OP_VERIFY, NULL))
        return false;
    *set = o.a;
    return true;
}

static bool take_jump(const Program *p, int *pc, int end, int d, int *set) {
    Operands o;
    return take_victim(p, pc, end, set) && take(p, pc, end, OP_CAPTURE, NULL) && take(p, pc, end, OP_STEP, &o) &&
        o.a == d && take(p, pc, end, OP_EMPTY, NULL) && take(p, pc, end, OP_VERIFY, NULL);
}

/* Only HALTs from pc to end? */
static bool halts_to(const Program *p, int pc, int end) {
    for (; pc < end; pc++)
        if (p->code[pc] != OP_HALT) return false;
    return true;
}

/* A leap's part after its first ride: jumps, landings and the slides between them. */
static bool plan_leap(const Program *p, int pc, int end, PlannedAlt *alt) {
    int set, again;
    Operands o, slide;
    if (!take_jump(p, &pc, end, alt->dir, &set)) return false;
    alt->victims = (uint8_t)set;
    const int landing = pc;
    alt->land_pincer = alt->land_coord = 0xFF;
    if (take(p, &pc, end, OP_FORK, &o)) {
        if (take(p, &pc, end, OP_PINCER, &slide)) alt->land_pincer = (uint8_t)slide.a;
        if (take(p, &pc, end, OP_COORD, &slide)) alt->land_coord = (uint8_t)slide.a;
        if (!take(p, &pc, end, OP_ADD, &slide) || slide.a || !take(p, &pc, end, OP_HALT, NULL) || o.a != pc)
            return false;
    } else if (!take(p, &pc, end, OP_ADD, &o) || o.a) {
        return false;
    }
    if (!take(p, &pc, end, OP_SLIDE, &slide) || slide.a != alt->dir) return false;
    if (alt->first_lands && (slide.b != alt->pincer || slide.c != alt->coord)) return false;
    alt->pincer = (uint8_t)slide.b;
    alt->coord = (uint8_t)slide.c;
    return take_jump(p, &pc, end, alt->dir, &again) && again == set && take(p, &pc, end, OP_JUMP, &o) &&
        o.a == landing && halts_to(p, pc, end);
}

/* The alternative from its FORK at `fork` to `end`, if of a known shape. */
static bool plan_alt(const Program *p, int fork, int end, PlannedAlt *alt) {
    int pc = fork + bc_instr_size(OP_FORK), set;
    Operands o;
    *alt = (PlannedAlt){.pc = (uint16_t)fork, .withdraw = 0xFF, .pincer = 0xFF, .coord = 0xFF};
    if (take(p, &pc, end, OP_WITHDRAW, &o)) {
        alt->withdraw_dir = (uint8_t)o.a;
        alt->withdraw = (uint8_t)o.b;
    }
    if (take(p, &pc, end, OP_SLIDE, &o)) {
        alt->dir = (uint8_t)o.a;
        alt->pincer = (uint8_t)o.b;
        alt->coord = (uint8_t)o.c;
        if (halts_to(p, pc, end)) return true; /* ALT_SLIDE */
        alt->kind = ALT_LEAP;
        alt->first_lands = true;
        return plan_leap(p, pc, end, alt);
    }
    if (take(p, &pc, end, OP_RIDE, &o)) {
        alt->kind = ALT_LEAP;
        alt->dir = (uint8_t)o.a;
        return plan_leap(p, pc, end, alt);
    }
    const int top = pc;
    if (alt->withdraw != 0xFF || !take(p, &pc, end, OP_STEP, &o)) return false;
    alt->kind = ALT_STRIKE;
    alt->dir = (uint8_t)o.a;
    Operands back;
    if (take(p, &pc, end, OP_EMPTY, NULL)) {
        if (!take(p, &pc, end, OP_JT, &back) || back.a != top) return false;
        alt->rides = true;
    }
    if (!take_victim(p, &pc, end, &set) || !take(p, &pc, end, OP_ADD, &o) || o.a) return false;
    alt->victims = (uint8_t)set;
    return halts_to(p, pc, end);
}

bool vm_plan(Program *prog) {
    free(prog->plan);
    prog->plan = NULL;
    prog->nplan = 0;
    PlannedAlt *alts = NULL;
    int n = 0, pc = 0;
    bool ok = true;
    while (ok && pc < prog->count && prog->code[pc] == OP_FORK) {
        int next = prog->ops[pc].a;
        alts = xrealloc(alts, sizeof *alts * (size_t)(n + 1));
        ok = next > pc && next <= prog->count && plan_alt(prog, pc, next, &alts[n++]);
        pc = next;
    }
    if (!ok || n == 0 || pc != prog->count - 1 || prog->code[pc] != OP_HALT) {
        free(alts);
        return false;
    }
    prog->plan = alts;
    prog->nplan = n;
    return true;
}

/* A run of vm_run_plan. */
typedef struct PlanRun {
    const Program *prog;
    const Position *pos;
    Cell origin;
    int owner;
    MoveList *out;
    const uint64_t *count_seen; /* (the share's, where origin is not among them) */
    VmFault *fault;
    PlanShare *share;
} PlanRun;

/* near_of for a set not found yet. */
__attribute__((noinline)) static const uint64_t *find_near(PlanRun *r, int set) {
    PlanShare *sh = r->share;
    int i = sh->near_set[0] < 0 ? 0 : 1; /* (a third set takes the second's place) */
    const Position *pos = r->pos;
    const Variant *v = pos->v;
    const uint32_t every = v->ntypes < 32 ? (1u << v->ntypes) - 1 : ~0u, types = v->typesets[set] & every;
    for (int w = 0; w < v->cell_words; w++) {
        uint64_t enemies = 0, friends = 0, victims = types == every ? ~0ull : 0;
        for (int o = 0; o < v->nowners; o++)
            if (board_hostile(pos, o, r->owner))
                enemies |= pos->occ[o][w];
            else
                friends |= pos->occ[o][w];
        for (uint32_t k = types == every ? 0 : types; k; k &= k - 1) victims |= pos->type_occ[__builtin_ctz(k)][w];
        sh->near[i][w] = enemies & victims;
        sh->friends[w] = friends;
    }
    sh->near_set[i] = set;
    return sh->near[i];
}

/* The enemies of custodian victim set `set` (the share's, found when first needed). */
static inline const uint64_t *near_of(PlanRun *r, int set) {
    PlanShare *sh = r->share;
    if (sh->near_set[0] == set) return sh->near[0];
    if (sh->near_set[1] == set) return sh->near[1];
    return find_near(r, set);
}

/* pincer_at with the victims known (`near`: near_of). */
__attribute__((noinline)) static bool plan_pincer(const PlanRun *r, const uint64_t *near, Cell land, Effect *pending,
                                                  int *npending) {
    const Position *pos = r->pos;
    const Variant *v = pos->v;
    for (int i = 0; i < 4; i++) {
        int e = v->orth_dirs[i];
        Cell victim = variant_step(v, land, e);
        if (victim == NO_CELL || !bits_has(near, victim)) continue;
        Cell partner = variant_step(v, victim, e);
        if (partner == NO_CELL || partner == r->origin || !pos->cell[partner] ||
            board_hostile(pos, PIECE_OWNER(pos->cell[partner]), r->owner))
            continue;
        if (!record_capture(pending, npending, victim)) return false;
    }
    return true;
}

/* Emits origin -> c with pending[0..npending) and the captures (type sets pset, cset) made by
 * landing on c, as the interpreter's SLIDE and ADD. */
static inline __attribute__((always_inline)) bool plan_land(PlanRun *r, const PlannedAlt *alt, Cell c, Effect *pending,
                                                            int npending, int pset, int cset) {
    const Position *pos = r->pos;
    const Variant *v = pos->v;
    int n = npending;
    if (pset != 0xFF && unlikely(v->custodian_rules)) {
        if (!pincer_ruled(pos, c, r->origin, r->owner, v->typesets[pset], pending, &n))
            return fault_at(r->fault, r->prog, alt->pc, TOO_MANY_EFFECTS);
    } else if (pset != 0xFF) {
        const uint64_t *near = near_of(r, pset);
        const uint64_t *around = v->custodian_cells + (size_t)c * 2 * (size_t)v->cell_words;
        if (cells_meet(around, near, v->cell_words) &&
            cells_meet(around + v->cell_words, r->share->friends, v->cell_words) &&
            !plan_pincer(r, near, c, pending, &n))
            return fault_at(r->fault, r->prog, alt->pc, TOO_MANY_EFFECTS);
    }
    if (cset != 0xFF) {
        PlanShare *sh = r->share;
        if (!sh->royal_known) {
            sh->royal = board_royal(pos, r->owner);
            sh->royal_known = true;
        }
        if (!coord_at(pos, c, r->origin, r->owner, sh->royal, v->typesets[cset], pending, &n))
            return fault_at(r->fault, r->prog, alt->pc, TOO_MANY_EFFECTS);
    }
    if (!n && r->count_seen && !bits_has(r->count_seen, c)) {
        (*r->share->counted)++;
        return true;
    }
    MoveList *out = r->out;
    if (n || out->count >= MAX_MOVES) {
        if (!emit(pos, out, r->origin, c, r->owner, pending, n, NO_TYPE, NO_TYPE, (PathMarks){0}))
            return fault_at(r->fault, r->prog, alt->pc, TOO_MANY_MOVES);
        return true;
    }
    /* (as emit writes a move that only carries the piece to an empty cell) */
    Move *m = &out->moves[out->count++];
    m->from = r->origin;
    m->to = c;
    m->flags = 0;
    m->promo = NO_TYPE;
    m->castle = 0;
    m->kind = 0;
    m->nfx = 1;
    m->fx[0] = (Effect){.kind = FX_MOVE, .a = r->origin, .b = c};
    return true;
}

/* Slides from `from` along the alternative's line, landing on each empty cell: the first piece
 * met, or NO_CELL at the board's edge. False on a fault. */
static inline __attribute__((always_inline)) bool plan_slide(PlanRun *r, const PlannedAlt *alt, Cell from,
                                                             Effect *pending, int npending, Cell *met) {
    const Position *pos = r->pos;
    Cell c = variant_step(pos->v, from, alt->dir);
    for (; c != NO_CELL && !pos->cell[c]; c = variant_step(pos->v, c, alt->dir))
        if (!plan_land(r, alt, c, pending, npending, alt->pincer, alt->coord)) return false;
    *met = c;
    return true;
}

/* The first piece along the alternative's line from `from`, or NO_CELL. */
static Cell plan_ride(const Position *pos, const PlannedAlt *alt, Cell from) {
    Cell c = variant_step(pos->v, from, alt->dir);
    while (c != NO_CELL && !pos->cell[c]) c = variant_step(pos->v, c, alt->dir);
    return c;
}

static bool plan_run_alt(PlanRun *r, const PlannedAlt *alt) {
    const Position *pos = r->pos;
    const Variant *v = pos->v;
    const Program *prog = r->prog;
    Effect pending[MAX_PENDING];
    int npending = 0;
    if (alt->kind == ALT_STRIKE) {
        Cell c = alt->rides ? plan_ride(pos, alt, r->origin) : variant_step(v, r->origin, alt->dir);
        if (c == NO_CELL || !is_victim(pos, c, r->owner, v->typesets[alt->victims])) return true;
        return emit(pos, r->out, r->origin, c, r->owner, pending, 0, NO_TYPE, NO_TYPE, (PathMarks){0}) ||
            fault_at(r->fault, prog, alt->pc, TOO_MANY_MOVES);
    }
    if (alt->withdraw != 0xFF) {
        Cell c = variant_step(v, r->origin, alt->withdraw_dir);
        if (c != NO_CELL && is_victim(pos, c, r->owner, v->typesets[alt->withdraw]) &&
            !record_capture(pending, &npending, c))
            return fault_at(r->fault, prog, alt->pc, TOO_MANY_EFFECTS);
    }
    Cell c;
    if (alt->kind == ALT_SLIDE || alt->first_lands) {
        if (!plan_slide(r, alt, r->origin, pending, npending, &c)) return false;
        if (alt->kind == ALT_SLIDE) return true;
    } else {
        c = plan_ride(pos, alt, r->origin);
    }
    /* c is the piece met: jump it when a victim with an empty cell beyond, land, slide on */
    while (c != NO_CELL && is_victim(pos, c, r->owner, v->typesets[alt->victims])) {
        Effect *e = pending_push(pending, &npending);
        if (!e) return fault_at(r->fault, prog, alt->pc, TOO_MANY_EFFECTS);
        e->kind = FX_REMOVE;
        e->a = c;
        c = variant_step(v, c, alt->dir);
        if (c == NO_CELL || pos->cell[c]) break;
        if (!plan_land(r, alt, c, pending, npending, alt->land_pincer, alt->land_coord) ||
            !plan_slide(r, alt, c, pending, npending, &c))
            return false;
    }
    return true;
}

bool vm_run_plan(const Program *prog, const Position *pos, Cell origin, int owner, MoveList *out, PlanShare *share,
                 VmFault *fault) {
    PlanShare own;
    if (!share) {
        vm_share_init(&own, NULL, NULL);
        share = &own;
    }
    PlanRun r;
    r.prog = prog;
    r.pos = pos;
    r.origin = origin;
    r.owner = owner;
    r.out = out;
    r.count_seen = share->count_seen && !bits_has(share->count_seen, origin) ? share->count_seen : NULL;
    r.fault = fault;
    r.share = share;
    const Variant *v = pos->v;
    const Cell *next = v->neighbour + (size_t)origin * (size_t)v->ndirs; /* (the cells next to origin) */
    const PlannedAlt *plan = prog->plan;
    const int nplan = prog->nplan;
    for (int i = 0; i < nplan; i++) {
        const PlannedAlt *alt = &plan[i];
        /* (most end at once: the first cell is off the board, or taken by no victim to jump or
         * strike, or empty where a strike must step onto a piece) */
        Cell first = next[alt->dir];
        if (first == NO_CELL ||
            (pos->cell[first] ? alt->kind == ALT_SLIDE || !is_victim(pos, first, owner, v->typesets[alt->victims])
                              : alt->kind == ALT_STRIKE && !alt->rides))
            continue;
        if (!plan_run_alt(&r, alt)) return false;
    }
    return true;
}

bool vm_run(GenContext *ctx, const Program *prog, Position *pos, Cell origin, int owner, MoveList *out,
            VmFault *fault) {
    return run_budgeted(ctx, prog, 0, pos, origin, owner, out, NO_CELL, fault) == RUN_DONE;
}

bool vm_run_at(GenContext *ctx, const Program *prog, int start, Position *pos, Cell origin, int owner, MoveList *out,
               VmFault *fault) {
    return run_budgeted(ctx, prog, start, pos, origin, owner, out, NO_CELL, fault) == RUN_DONE;
}

bool vm_captures(GenContext *ctx, const Program *prog, Position *pos, Cell origin, int owner, Cell target,
                 VmFault *fault) {
    return run_budgeted(ctx, prog, 0, pos, origin, owner, NULL, target, fault) == RUN_FOUND;
}
