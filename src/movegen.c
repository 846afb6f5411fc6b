/* movegen.c - move generation and legality.
 * Plain leaps and slides run as C loops over ray tables; everything else runs the piece's
 * program in the VM. Attack tests use the ray tables for pieces whose captures are all plain
 * and run the programs of the others (the general definition: "could capture it"). */
#include "movegen.h"

#include <string.h>

bool movegen_fast_enabled = true;


/* Freezing ("immobilizer"): a piece next to an enemy freezer cannot move, unless that freezer
 * touches a piece of the frozen piece's side (other than itself) able to freeze it back
 * (a freezer, or an imitator, since imitators freeze freezers). An imitator freezes adjacent
 * enemy freezers outright. */
static bool frozen(const Position *pos, Cell c) {
    const Variant *v = pos->v;
    Piece x = pos->cell[c];
    int owner = PIECE_OWNER(x);
    uint32_t xbit = 1u << PIECE_TYPE(x);
    for (int i = 0; i < v->nadjacent; i++) {
        Cell e = variant_step(v, c, v->adjacent_dirs[i]);
        if (e == NO_CELL || !pos->cell[e] || !board_hostile(pos, PIECE_OWNER(pos->cell[e]), owner)) continue;
        uint32_t ebit = 1u << PIECE_TYPE(pos->cell[e]);
        if ((ebit & v->imitator_mask) && (xbit & v->freezer_mask)) return true;
        if (!(ebit & v->freezer_mask)) continue;
        bool neutralised = false;
        for (int k = 0; k < v->nadjacent && !neutralised; k++) {
            Cell y = variant_step(v, e, v->adjacent_dirs[k]);
            if (y == NO_CELL || y == c || !pos->cell[y] || board_hostile(pos, PIECE_OWNER(pos->cell[y]), owner)) continue;
            neutralised = ((1u << PIECE_TYPE(pos->cell[y])) & (v->freezer_mask | v->imitator_mask)) != 0;
        }
        if (!neutralised) return true;
    }
    return false;
}

static inline bool can_move(const Position *pos, Cell c) {
    return !pos->v->freezer_mask || !frozen(pos, c);
}

/* Influence over the steered piece on c: `player`'s (the strongest influence among its pieces
 * on the cells the steer links reach, the first link's among equals, whose cell goes to *by)
 * and its rival's (the strongest of any other player's). */
static int influence(const Position *pos, int player, Cell c, int *rival, Cell *by) {
    const Variant *v = pos->v;
    int mine = 0;
    *rival = 0;
    *by = NO_CELL;
    for (int i = 0; i < v->nsteer_links; i++) {
        Cell t = variant_step(v, c, v->steer_links[i]);
        if (t == NO_CELL || !pos->cell[t]) continue;
        Piece p = pos->cell[t];
        int strength = v->types[PIECE_TYPE(p)].influence;
        if (pos->controller[PIECE_OWNER(p)] != player) {
            if (strength > *rival) *rival = strength;
        } else if (strength > mine) {
            mine = strength;
            *by = t;
        }
    }
    return mine;
}

/* Steering: may `player` move the steered piece on c? The steer rule's condition over its
 * influence there and its rival's. */
bool movegen_may_steer(const Position *pos, int player, Cell c) {
    int rival;
    Cell by;
    int mine = influence(pos, player, c, &rival, &by);
    return pos->v->steer_allow[mine][rival];
}

/* In an attack test: can the piece on c take part? Not when frozen; a steered piece only
 * when one of the threat players (the defender's opponents) may move it. */
static inline bool attacker_can_move(const Position *pos, Cell c) {
    const Variant *v = pos->v;
    if (!can_move(pos, c)) return false;
    if (!((v->steered >> PIECE_OWNER(pos->cell[c])) & 1)) return true;
    for (int q = 0; q < v->nplayers; q++)
        if (((pos->threat_players >> q) & 1) && movegen_may_steer(pos, q, c)) return true;
    return false;
}

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

static bool fault_full(VmFault *fault) {
    if (fault && !fault->set) {
        fault->set = true;
        snprintf(fault->msg, sizeof fault->msg, "too many moves in one position (limit is %d)", MAX_MOVES);
    }
    return false;
}

/* Two moves with the same effects are one move (several paths can reach one cell). */
static bool same_move(const Move *a, const Move *b) {
    if (a->from != b->from || a->to != b->to || a->promo != b->promo || a->nfx != b->nfx || a->kind != b->kind) return false;
    for (int i = 0; i < a->nfx; i++)
        if (a->fx[i].kind != b->fx[i].kind || a->fx[i].a != b->fx[i].a || a->fx[i].b != b->fx[i].b ||
            a->fx[i].piece != b->fx[i].piece)
            return false;
    return true;
}

static void merge_duplicates(MoveList *out, int start) {
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

/* Moves of the piece of `owner` on `from`. */
static bool gen_piece(Position *pos, int owner, Cell from, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    if (!can_move(pos, from)) return true;
    const PieceType *pt = &v->types[PIECE_TYPE(pos->cell[from])];
    const PieceProgram *pp = &pt->per_owner[owner];
    int start = out->count;
    if (movegen_fast_enabled) {
        if (!gen_rays(pos, pp, owner, from, out)) return fault_full(fault);
        if (pp->rest.count && !vm_run(&pp->rest, pos, from, owner, out, fault)) return false;
    } else {
        if (!vm_run(&pp->prog, pos, from, owner, out, fault)) return false;
    }
    if (pp->may_duplicate) merge_duplicates(out, start);
    return true;
}

/* Moves of every piece of `owner` (the mover's own pieces). */
static bool gen_owner(Position *pos, int owner, MoveList *out, VmFault *fault) {
    for (int w = 0; w < pos->v->cell_words; w++) {
        uint64_t bits = pos->occ[owner][w];
        while (bits) {
            Cell from = (Cell)(w * 64 + __builtin_ctzll(bits));
            bits &= bits - 1;
            if (!gen_piece(pos, owner, from, out, fault)) return false;
        }
    }
    return true;
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

Cell movegen_influencer(const Position *pos, int player, Cell c) {
    int rival;
    Cell by;
    influence(pos, player, c, &rival, &by);
    return by;
}

/* Adds, for each move of the steered piece on `from` in out[start..], the same move with the
 * copy made by the mover's influencing piece (the one that gives it the influence). */
static void add_copies(const Position *pos, int mover, Cell from, MoveList *out, int start) {
    Cell by = movegen_influencer(pos, mover, from);
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
static bool gen_steered(Position *pos, int mover, MoveList *out, VmFault *fault) {
    const Variant *v = pos->v;
    for (int o = v->nplayers; o < v->nowners; o++) {
        if (!((v->steered >> o) & 1)) continue;
        for (int w = 0; w < v->cell_words; w++) {
            uint64_t bits = pos->occ[o][w];
            while (bits) {
                Cell from = (Cell)(w * 64 + __builtin_ctzll(bits));
                bits &= bits - 1;
                if (!movegen_may_steer(pos, mover, from)) continue;
                int start = out->count;
                if (!gen_piece(pos, o, from, out, fault)) return false;
                if (v->steer_copy) add_copies(pos, mover, from, out, start);
                if (out->count >= MAX_MOVES) return fault_full(fault);
            }
        }
    }
    return true;
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
                    m->fx[m->nfx++] = (Effect){.kind = FX_CARD, .a = (Cell)slot, .b = (Cell)board_pile_slot(to, mover),
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
            if (board_pile_sum(pos, board_pile_slot(&v->piles[v->pays[r].from], mover)) < worth || m->nfx >= MAX_EFFECTS) {
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
            if (nv && values[nv - 1] == c) counts[nv - 1]++;
            else values[nv] = c, counts[nv++] = 1;
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
                        m->fx[m->nfx++] = (Effect){.kind = FX_CARD, .a = (Cell)hand, .b = (Cell)(to->slot + k), .piece = (Piece)values[i]};
                m->fx[m->nfx++] = (Effect){.kind = FX_DEBT, .piece = 0};
            }
        }
    }
    return true;
}

/* Does m take a royal piece of a player hostile to the mover? */
static bool takes_royal(const Position *pos, const Move *m, int mover) {
    const Variant *v = pos->v;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        Cell c = e->kind == FX_MOVE ? e->b : e->kind == FX_REMOVE ? e->a : NO_CELL;
        if (c == NO_CELL || !pos->cell[c]) continue;
        Piece p = pos->cell[c];
        if (v->types[PIECE_TYPE(p)].royal && board_hostile(pos, PIECE_OWNER(p), mover)) return true;
    }
    return false;
}

/* Could `mover` capture a royal piece of another player now? (With two players; with more,
 * an attack by a third player counts too.) */
static bool royal_open_now(Position *pos, int mover) {
    const Variant *v = pos->v;
    for (int o = 0; o < v->nowners; o++) {
        if (!board_hostile(pos, o, mover)) continue;
        for (int t = 0; t < v->ntypes; t++) {
            if (!v->types[t].royal) continue;
            for (int w = 0; w < v->cell_words; w++)
                for (uint64_t b = pos->occ[o][w] & pos->type_occ[t][w]; b; b &= b - 1) {
                    Cell c = (Cell)(w * 64 + __builtin_ctzll(b));
                    if (movegen_attacked(pos, c, o, pos->cell[c])) return true;
                }
        }
    }
    return false;
}

/* Turns of phases: a royal piece of another player may be taken only when it was open to
 * capture as the turn began (left exposed), never after the turn's own moves checked it. */
static void filter_royal_captures(Position *pos, MoveList *out, int mover) {
    if (pos->royal_open < 0) pos->royal_open = (int8_t)royal_open_now(pos, mover);
    if (pos->royal_open) return;
    int n = 0;
    for (int i = 0; i < out->count; i++)
        if (!takes_royal(pos, &out->moves[i], mover)) {
            if (n != i) out->moves[n] = out->moves[i];
            n++;
        }
    out->count = n;
}

bool movegen_pseudo(Position *pos, MoveList *out, VmFault *fault) {
    out->count = 0;
    pos->steps_left = POSITION_STEP_BUDGET; /* (for this position's programs and legality tests) */
    pos->attack_fault.set = false;          /* (one left from elsewhere is not this position's) */
    if (unlikely(pos->debt)) return gen_payments(pos, out, fault);
    int mover = board_mover(pos);
    /* the mover moves its own pieces and any army it has taken over */
    for (int o = 0; o < pos->v->nowners; o++)
        if (pos->controller[o] == mover && !gen_owner(pos, o, out, fault)) return false;
    if (pos->v->steered && !gen_steered(pos, mover, out, fault)) return false;
    if (unlikely(pos->v->nextra) && !add_extra_captures(pos, out, fault)) return false;
    if (unlikely(pos->v->ndraws) && !add_draws(pos, out, fault)) return false;
    if (unlikely(pos->v->minefield_zone) && pos->prelude < pos->v->nprelude && !add_mine_marks(pos, out, fault)) return false;
    if (unlikely(pos->prelude < pos->v->nprelude)) {
        filter_prelude(pos, out);
        return true;
    }
    if (unlikely(pos->v->nphases) && !filter_phase(pos, out, fault)) return false;
    if (unlikely(pos->v->nphases) && pos->v->has_royal) filter_royal_captures(pos, out, mover);
    if (unlikely(pos->v->npays)) require_payment(pos, out);
    return true;
}

/* Is the first piece on the way back from `from` against one of the pattern's directions an
 * unfrozen `want`? That piece can slide to `from`. */
static bool slider_reaches(const Position *pos, Cell from, const CapturePattern *cp, Piece want) {
    const Variant *v = pos->v;
    for (int i = 0; i < cp->ndirs; i++) {
        int back = v->dirs[cp->dirs[i]].reverse;
        if (back < 0) continue;
        for (Cell s = variant_step(v, from, back); s != NO_CELL; s = variant_step(v, s, back)) {
            Piece p = pos->cell[s];
            if (!p) continue;
            if (PIECE_KIND(p) == want && attacker_can_move(pos, s)) return true;
            break;
        }
    }
    return false;
}

/* A capture by moving (withdrawal, custodian, coordination, long leap), checked backwards
 * from the victim's cell c. */
static bool pattern_captures(const Position *pos, const CapturePattern *cp, Cell c, Piece want, int attacker) {
    const Variant *v = pos->v;
    switch ((CaptureMethod)cp->method) {
    case CAP_WITHDRAW:
        /* the withdrawer stands next to c and steps away from it along d */
        for (int i = 0; i < cp->ndirs; i++) {
            int d = cp->dirs[i];
            Cell a = variant_step(v, c, d);
            if (a == NO_CELL || PIECE_KIND(pos->cell[a]) != want) continue;
            Cell first = variant_step(v, a, d);
            if (first != NO_CELL && !pos->cell[first] && attacker_can_move(pos, a)) return true;
        }
        return false;
    case CAP_PINCER:
        /* it lands on c-e (empty) with a friend of its own on c+e, for an orthogonal e */
        for (int i = 0; i < 4; i++) {
            int e = v->orth_dirs[i];
            Cell partner = variant_step(v, c, e);
            if (partner == NO_CELL || !pos->cell[partner] || board_hostile(pos, PIECE_OWNER(pos->cell[partner]), attacker)) continue;
            int back = v->dirs[e].reverse;
            Cell land = back >= 0 ? variant_step(v, c, back) : NO_CELL;
            if (land == NO_CELL || pos->cell[land]) continue;
            if (slider_reaches(pos, land, cp, want)) return true;
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
                if (y != k->y && land != NO_CELL && !pos->cell[land] && slider_reaches(pos, land, cp, want)) return true;
            }
        }
        if (k->x == ci->x && k->y != ci->y) { /* land in c's row, off the king's column */
            for (int x = 0; x < bd->width; x++) {
                Cell land = bd->at[ci->y][x];
                if (x != k->x && land != NO_CELL && !pos->cell[land] && slider_reaches(pos, land, cp, want)) return true;
            }
        }
        return false;
    }
    case CAP_LEGS: {
        /* walk the legs backwards from c: the cells between must be empty, the start holds it */
        Cell s = c;
        for (int k = cp->ndirs - 1; k >= 0; k--) {
            int back = v->dirs[cp->dirs[k]].reverse;
            if (back < 0) return false;
            s = variant_step(v, s, back);
            if (s == NO_CELL || (k > 0 && pos->cell[s])) return false;
        }
        return PIECE_KIND(pos->cell[s]) == want && attacker_can_move(pos, s);
    }
    case CAP_LEAP:
        /* the leaper lands just past c, having come along d over empty cells and single
         * jumpable enemies (each followed by an empty cell) */
        for (int i = 0; i < cp->ndirs; i++) {
            int d = cp->dirs[i], back = v->dirs[d].reverse;
            Cell land = variant_step(v, c, d);
            if (land == NO_CELL || pos->cell[land] || back < 0) continue;
            Cell next = c;
            for (Cell s = variant_step(v, c, back); s != NO_CELL; next = s, s = variant_step(v, s, back)) {
                Piece p = pos->cell[s];
                if (!p) continue;
                if (PIECE_KIND(p) == want) {
                    if (attacker_can_move(pos, s)) return true;
                    break;
                }
                bool jumpable = board_hostile(pos, PIECE_OWNER(p), attacker) && ((cp->victims >> PIECE_TYPE(p)) & 1) && next != c &&
                                !pos->cell[next];
                if (!jumpable) break;
            }
        }
        return false;
    }
    return false;
}

/* Fast attack test: can a piece of `attacker`, of a type whose captures are all described by
 * rays and patterns, capture a piece of type victim_type standing on c? */
static bool attacked_by_rays(const Position *pos, Cell c, int attacker, int victim_type) {
    const Variant *v = pos->v;
    uint32_t vbit = 1u << victim_type;
    if (v->attack_lines_ok) {
        /* one walk per line: the first piece met decides */
        const AttackLine *lines = v->attack_lines[attacker];
        for (int k = 0; k < v->nattack_lines[attacker]; k++) {
            uint32_t leapers = lines[k].leapers[victim_type], sliders = lines[k].sliders[victim_type];
            if (!(leapers | sliders)) continue;
            int back = v->dirs[lines[k].dir].reverse;
            Cell s = variant_step(v, c, back);
            if (s == NO_CELL) continue;
            uint32_t types = leapers | sliders;
            while (!pos->cell[s] && sliders) {
                types = sliders;
                s = variant_step(v, s, back);
                if (s == NO_CELL) break;
            }
            if (s == NO_CELL || !pos->cell[s]) continue;
            Piece p = pos->cell[s];
            if (PIECE_OWNER(p) == attacker && ((types >> PIECE_TYPE(p)) & 1) && attacker_can_move(pos, s)) return true;
        }
        for (int k = 0; k < v->npattern_refs[attacker][victim_type]; k++) {
            int t = v->pattern_refs[attacker][victim_type][k].type;
            bool any = false;
            for (int w = 0; w < v->cell_words && !any; w++) any = (pos->type_occ[t][w] & pos->occ[attacker][w]) != 0;
            if (!any) continue;
            const CapturePattern *cp = &v->types[t].per_owner[attacker].patterns[v->pattern_refs[attacker][victim_type][k].pattern];
            if (pattern_captures(pos, cp, c, PIECE_MAKE(t, attacker), attacker)) return true;
        }
        return false;
    }
    for (int t = 0; t < v->ntypes; t++) {
        const PieceType *pt = &v->types[t];
        if (!pt->fast_attack) continue;
        /* Skip types with no piece of this owner on the board. */
        bool any = false;
        for (int w = 0; w < pos->v->cell_words; w++)
            if (pos->type_occ[t][w] & pos->occ[attacker][w]) { any = true; break; }
        if (!any) continue;
        Piece want = PIECE_MAKE(t, attacker);
        const PieceProgram *pp = &pt->per_owner[attacker];
        for (int i = 0; i < pp->natk; i++) {
            const Ray *r = &pp->atk[i];
            if (!(r->victims & vbit)) continue;
            int back = v->dirs[r->dir].reverse;
            Cell s = c;
            int range = r->range;
            for (int k = 0; !range || k < range; k++) {
                s = variant_step(v, s, back);
                if (s == NO_CELL) break;
                Piece p = pos->cell[s];
                if (p) {
                    if (PIECE_KIND(p) == want && attacker_can_move(pos, s)) return true;
                    break;
                }
                if (!r->slide) break;
            }
        }
        for (int i = 0; i < pp->npatterns; i++)
            if ((pp->patterns[i].victims & vbit) &&
                pattern_captures(pos, &pp->patterns[i], c, want, attacker))
                return true;
    }
    return false;
}

/* General attack test: run the capturing programs of `attacker` and look for a move that
 * removes or lands on the piece on c. */
static bool attacked_by_programs(Position *pos, Cell c, int attacker) {
    const Variant *v = pos->v;
    for (int w = 0; w < pos->v->cell_words; w++) {
        uint64_t bits = pos->occ[attacker][w];
        while (bits) {
            Cell from = (Cell)(w * 64 + __builtin_ctzll(bits));
            bits &= bits - 1;
            const PieceType *pt = &v->types[PIECE_TYPE(pos->cell[from])];
            if (movegen_fast_enabled && pt->fast_attack) continue;
            const PieceProgram *pp = &pt->per_owner[attacker];
            if (!pp->may_capture || !attacker_can_move(pos, from)) continue;
            VmFault f = {0};
            bool hit = vm_captures(&pp->prog, pos, from, attacker, c, &f);
            movegen_note_fault(pos, &f);
            if (hit) return true;
        }
    }
    return false;
}

void movegen_take_fault(Position *pos, VmFault *fault) {
    if (!pos->attack_fault.set) return;
    if (fault && !fault->set) *fault = pos->attack_fault;
    pos->attack_fault.set = false;
}

bool movegen_attacked(Position *pos, Cell c, int victim_owner, Piece as) {
    const Variant *v = pos->v;
    /* Programs run for an attack test may ask "attacked?" themselves (castling does); such a
     * nested question is answered "no": castling never captures, and it keeps tests finite. */
    if (pos->attack_depth) return false;
    Piece old = pos->cell[c];
    bool placed = false;
    if (v->steered) {
        /* a steered piece attacks when a player other than the victim's own may move it */
        pos->threat_players = 0;
        for (int q = 0; q < v->nplayers; q++)
            if (((pos->alive >> q) & 1) && !board_answers_for(pos, q, victim_owner)) pos->threat_players |= (uint8_t)(1u << q);
    }
    for (int o = 0; o < v->nowners; o++) {
        if (!board_hostile(pos, o, victim_owner) || !board_active(pos, o)) continue;
        bool any = false;
        for (int w = 0; w < pos->v->cell_words; w++)
            if (pos->occ[o][w]) { any = true; break; }
        if (!any) continue;
        int victim_type = as ? PIECE_TYPE(as) : old ? PIECE_TYPE(old) : 0;
        if (movegen_fast_enabled && attacked_by_rays(pos, c, o, victim_type)) {
            if (placed) board_put(pos, c, old);
            return true;
        }
        if (movegen_fast_enabled && v->all_fast) continue;
        /* Programs only capture pieces that are there: stand the victim on c for the test. */
        if (!placed && (old == 0 || PIECE_OWNER(old) != victim_owner)) {
            Piece p = as ? (Piece)PIECE_MAKE(PIECE_TYPE(as), victim_owner) : (Piece)PIECE_MAKE(0, victim_owner);
            board_put(pos, c, p);
            placed = true;
        }
        pos->attack_depth++;
        bool hit = attacked_by_programs(pos, c, o);
        pos->attack_depth--;
        if (hit) {
            if (placed) board_put(pos, c, old);
            return true;
        }
    }
    if (placed) board_put(pos, c, old);
    return false;
}

/* Can a royal piece of `owner` be captured? */
static bool royal_attacked(Position *pos, int owner) {
    const Variant *v = pos->v;
    for (int t = 0; t < v->ntypes; t++) {
        if (!v->types[t].royal) continue;
        for (int w = 0; w < pos->v->cell_words; w++) {
            uint64_t b = pos->type_occ[t][w] & pos->occ[owner][w];
            while (b) {
                Cell c = (Cell)(w * 64 + __builtin_ctzll(b));
                b &= b - 1;
                if (movegen_attacked(pos, c, owner, pos->cell[c])) return true;
            }
        }
    }
    return false;
}

/* Has the army no royal piece left? */
static bool royal_gone(const Position *pos, int owner) {
    const Variant *v = pos->v;
    for (int t = 0; t < v->ntypes; t++)
        for (int w = 0; v->types[t].royal && w < v->cell_words; w++)
            if (pos->type_occ[t][w] & pos->occ[owner][w]) return false;
    return true;
}

bool movegen_in_check(Position *pos, int player) {
    if (royal_attacked(pos, player)) return true;
    int army = pos->allegiance[player];
    if (army == NO_OWNER) return false;
    /* the army a player answers for may not lose its royal piece, even to a piece that player
     * moved: without it the player counts as in check */
    return royal_gone(pos, army) || royal_attacked(pos, army);
}

bool movegen_is_legal(Position *pos, const Move *m) {
    const Variant *v = pos->v;
    if (!movegen_tests_royal(v, m)) return true;
    int mover = board_mover(pos);
    if (v->all_fast && movegen_fast_enabled && !(m->flags & MOVE_ELIMINATION)) {
        /* every attack test reads only cells (rays and patterns): the cells are enough */
        CellJournal cj;
        board_cells_apply(pos, m, &cj);
        bool ok = !movegen_in_check(pos, mover);
        board_cells_revert(pos, &cj);
        return ok;
    }
    /* the test is made as if the moving piece arrives: a hidden mine does not count */
    pos->tiles_off = true;
    bool made = board_make(pos, m);
    pos->tiles_off = false;
    if (!made) return false;
    bool ok = !movegen_in_check(pos, mover);
    long left = pos->steps_left; /* (the test's instructions stay spent after the unmake) */
    board_unmake(pos);
    pos->steps_left = left;
    return ok;
}

bool movegen_made_is_legal_tiles(Position *pos, const Move *m, int mover) {
    if (!pos->ply || pos->history[pos->ply - 1].exploded == NO_CELL) return !movegen_in_check(pos, mover);
    board_unmake(pos);
    bool ok = movegen_is_legal(pos, m);
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
            hit = (m->fx[k].kind == FX_REMOVE && m->fx[k].a == cells[i]) || (m->fx[k].kind == FX_MOVE && m->fx[k].b == cells[i]);
        if (!hit) return false;
    }
    return true;
}

bool movegen_stalemate_pass(Position *pos, Move *m) {
    const Variant *v = pos->v;
    if (v->on_stalemate != RESULT_PASS || (v->has_royal && movegen_in_check(pos, board_mover(pos)))) return false;
    memset(m, 0, sizeof *m);
    m->promo = NO_TYPE;
    m->flags = MOVE_PASS;
    return true;
}

bool movegen_position_ok(Position *pos, char *err, size_t cap) {
    const Variant *v = pos->v;
    /* (only where a turn is one move between two players: elsewhere an exposed royal piece can
     * be a fact of the game, left by a mine or by a third player) */
    if (v->nplayers != 2 || v->nphases || v->minefield_zone || !v->has_royal || !v->forbid_royal_capture ||
        pos->setup_player >= 0)
        return true;
    int other = 1 - board_mover(pos);
    if (!movegen_in_check(pos, other)) return true;
    snprintf(err, cap, "%s, who is not to move, is in check (the last move would have been illegal)",
             v->player_names[other]);
    return false;
}

bool movegen_legal(Position *pos, MoveList *out, VmFault *fault) {
    bool ok = movegen_pseudo(pos, out, fault);
    Cell forced[MAX_FORCED];
    int nforced = movegen_forced(pos, forced);
    int n = 0;
    for (int i = 0; i < out->count; i++)
        if (movegen_captures_all(&out->moves[i], forced, nforced) && movegen_is_legal(pos, &out->moves[i])) {
            if (n != i) out->moves[n] = out->moves[i];
            n++;
        }
    out->count = n;
    if (n == 0 && !nforced && movegen_stalemate_pass(pos, &out->moves[0])) out->count = 1;
    movegen_take_fault(pos, fault);
    return ok && !(fault && fault->set);
}

int movegen_count_legal(Position *pos, VmFault *fault) {
    MoveList ml;
    movegen_pseudo(pos, &ml, fault);
    Cell forced[MAX_FORCED];
    int nforced = movegen_forced(pos, forced);
    int n = 0;
    for (int i = 0; i < ml.count; i++)
        if (movegen_captures_all(&ml.moves[i], forced, nforced) && movegen_is_legal(pos, &ml.moves[i])) n++;
    Move pass;
    if (n == 0 && !nforced && movegen_stalemate_pass(pos, &pass)) n = 1;
    movegen_take_fault(pos, fault);
    return n;
}
