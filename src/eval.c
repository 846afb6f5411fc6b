/* eval.c - static evaluation: material from the rule file (or estimated), mobility along the
 * pieces' plain rays, centralisation, and a mop-up term for won endings. */
#include "eval.h"

#include <stdlib.h>
#include <string.h>

#include "movegen.h"

/* Estimated value of one pseudo-legal move on an empty board (a knight's 5.25 -> ~260). */
#define EST_BASE 25
#define EST_PER_MOVE 45
#define MOBILITY_WEIGHT 3
#define CENTRE_WEIGHT 1      /* per step of EVAL_CENTRE_MAX */
#define MOPUP_MARGIN 300     /* material lead that turns the mop-up term on */
#define CARD_WEIGHT 8        /* per point of the cards a player pays its moves with */
#define REWARD_WEIGHT 15     /* per point of the counter captures pay into (experience) */
#define HAND_PERCENT 110     /* a piece in hand, free to go anywhere, against one on the board */
#define ROYAL_ATTACK_MAX 400 /* the most an attack on the royal piece is worth */
#define HAND_ATTACK_MAX 1200 /* the same where pieces in hand join it (hand-attack) */
/* The default weights of the named terms (TUNED_PROMOTION...): progress and passed in percent
 * of what promoting gains, one step from the zone in an ending; the royal terms per cell;
 * doubled and isolated in percent of the piece's value; open-column per piece; royal-attack
 * per square of the attack's units, in 256ths; guarded in percent of a cell's mobility;
 * threat per piece; hand-attack in percent of a piece's value in pawns. */
static const int term_defaults[TUNED_TERMS] = {10, 15, 3, 4, 2, 3, 12, 10, 15, 16, 100, 0, 0};

/* The moves of a lone piece of type t and owner o on every cell (out[c]); their total. */
static long reach_of(GenContext *ctx, Position *scratch, int t, int o, int *out) {
    const Variant *v = scratch->v;
    MoveList *ml = xmalloc(sizeof *ml);
    long total = 0;
    /* the first turn slot where owner o moves */
    int slot = 0;
    while (slot < v->nturns && v->turn_order[slot] != o) slot++;
    if (slot == v->nturns) slot = 0;
    for (int c = 0; c < v->ncells; c++) {
        board_clear(scratch);
        scratch->turn = (uint8_t)slot;
        board_put(scratch, (Cell)c, PIECE_MAKE(t, o));
        VmFault f = {0};
        movegen_pseudo(ctx, scratch, ml, &f);
        if (out) out[c] = ml->count;
        total += ml->count;
    }
    free(ml);
    return total;
}

/* Average number of moves of a lone piece of type t (owner 0) over every cell. */
static int mobility_estimate(GenContext *ctx, Position *scratch, int t) {
    const Variant *v = scratch->v;
    long total = reach_of(ctx, scratch, t, 0, NULL);
    int cells = v->ncells;
    int est = cells ? (int)(EST_BASE + EST_PER_MOVE * total / cells) : EST_BASE;
    return est < EST_BASE ? EST_BASE : est;
}

#define EVAL_RACE_STEP 60 /* a race to a zone: worth of each step closer */

/* King steps from every cell to the nearest of `cells` on its own board (255: none there). */
static void distances_to(const Variant *v, const uint64_t *cells, uint8_t *out) {
    for (int c = 0; c < v->ncells; c++) {
        int best = 255;
        for (int z = 0; z < v->ncells; z++) {
            if (!((cells[z >> 6] >> (z & 63)) & 1) || v->cells[z].board != v->cells[c].board) continue;
            int d = abs(v->cells[z].x - v->cells[c].x), dy = abs(v->cells[z].y - v->cells[c].y);
            if (dy > d) d = dy;
            if (d < best) best = d;
        }
        out[c] = (uint8_t)best;
    }
}

/* The distance tables of the race to a zone, if the game has one. */
static void init_race(EvalTables *et, const Variant *v) {
    et->race_type = NO_TYPE;
    const ReachRule *r = NULL;
    for (int i = 0; i < v->nreaches && !r; i++)
        if (v->reaches[i].result == RESULT_WIN) r = &v->reaches[i];
    if (!r || v->nplayers != 2) return;
    et->race_type = r->type;
    for (int p = 0; p < 2; p++) distances_to(v, v->zones[r->zone].cells[p], et->race_dist[p]);
}

/* A side's progress in the race: its racing piece nearest the zone, the closer the better. */
static int race_progress(const EvalTables *et, const Position *pos, int player) {
    int best = 255;
    for (int c = 0; c < pos->v->ncells; c++) {
        Piece p = pos->cell[c];
        if (p && PIECE_OWNER(p) == player && PIECE_TYPE(p) == et->race_type && et->race_dist[player][c] < best)
            best = et->race_dist[player][c];
    }
    return best == 255 ? 0 : EVAL_RACE_STEP * (MAX_BOARD_DIM - best);
}

static const TunedTerms no_terms;

/* The promotion zones a type's moves (owner o) promote on reaching, as cells (none when it
 * promotes only by leaving a zone or by capturing). */
static bool promotion_cells(const Variant *v, int t, int o, uint64_t *cells) {
    const Program *p = &v->types[t].per_owner[o].prog;
    bool any = false;
    for (int pc = 0; pc < p->count; pc += bc_instr_size((Opcode)p->code[pc])) {
        if (p->code[pc] != OP_ADD) continue;
        int k = bc_operands(p->code, pc).a;
        if (k <= 0 || k >= v->npromos || v->promos[k].zone == NO_ZONE || v->promos[k].on_capture) continue;
        const Zone *z = &v->zones[v->promos[k].zone];
        for (int w = 0; w < CELL_WORDS; w++) cells[w] |= z->cells[o][w];
        any = true;
    }
    return any;
}

/* The tables of the promotion term: for each type that promotes on reaching a zone, what it
 * gains, its king-step distance from every cell to the zone, and its progress. */
static void init_promotions(EvalTables *et, const Variant *v) {
    et->promoting = 0;
    for (int t = 0; t < v->ntypes; t++) {
        if (v->types[t].royal) continue;
        int gain = 0;
        for (int k = 1; k < v->npromos; k++)
            for (int i = 0; i < v->promos[k].count; i++) {
                int g = et->value[v->promos[k].types[i]] - et->value[t];
                if (g > gain) gain = g;
            }
        bool any = false;
        for (int o = 0; o < 2; o++) {
            uint64_t zone[CELL_WORDS] = {0};
            bool promotes = promotion_cells(v, t, o, zone);
            distances_to(v, zone, et->promo_dist[o][t]);
            int far = 0;
            for (int c = 0; c < v->ncells; c++) {
                int best = et->promo_dist[o][t][c];
                if (best != 255 && best > far) far = best;
            }
            /* steps done from the farthest cell, squared; full one step from the zone */
            for (int c = 0; c < v->ncells; c++) {
                int d = et->promo_dist[o][t][c], done = far - d;
                et->promo_progress[o][t][c] = d == 255 || d == 0 || far < 2
                    ? 0
                    : (uint8_t)(EVAL_PROGRESS_MAX * done * done / ((far - 1) * (far - 1)));
            }
            any |= promotes && far >= 2;
        }
        et->promo_gain[t] = gain;
        if (any && gain > 0) et->promoting |= 1u << t;
    }
}

/* The promoting types that start as a rank: some two of them side by side on the first
 * board's columns. Their columns make a structure (doubled, isolated) worth judging. */
static void init_ranks(EvalTables *et, const Variant *v) {
    et->ranked = 0;
    for (uint32_t ts = et->promoting; ts; ts &= ts - 1) {
        int t = __builtin_ctz(ts);
        if (v->start_columns[t] & (v->start_columns[t] >> 1)) et->ranked |= 1u << t;
    }
    /* pieces that slide along a column and never diagonally: columns free of a rank suit them */
    et->column_sliders = 0;
    for (int t = 0; et->ranked && t < v->ntypes; t++) {
        const PieceProgram *pp = &v->types[t].per_owner[0];
        bool along = false, diagonal = false;
        for (int i = 0; i < pp->ngen; i++) {
            const Direction *d = &v->dirs[pp->gen[i].dir];
            if (!pp->gen[i].slide || d->graph || d->link_board >= 0) continue;
            along |= d->dx == 0 && d->dy != 0;
            diagonal |= d->dx != 0 && d->dy != 0;
        }
        if (along && !diagonal && !v->types[t].royal) et->column_sliders |= 1u << t;
    }
}

/* What eval_terms needs besides its weights: the promotions, each army's starting material,
 * the queen's directions. */
static void init_terms(EvalTables *et, const Variant *v) {
    et->promoting = et->ranked = et->column_sliders = 0;
    et->nqueen_dirs = 0;
    et->least_type = NO_TYPE;
    if (v->nplayers != 2 || v->nowners != 2) return;
    /* the least piece (of two or more kinds) that both armies start with */
    int kinds = 0;
    for (int t = 0; t < v->ntypes; t++) {
        if (v->types[t].royal || !v->start_count[0][t] || !v->start_count[1][t]) continue;
        kinds++;
        if (et->least_type == NO_TYPE || et->value[t] < et->value[et->least_type]) et->least_type = (uint8_t)t;
    }
    if (kinds < 2) et->least_type = NO_TYPE;
    init_promotions(et, v);
    init_ranks(et, v);
    for (int o = 0; o < 2; o++) {
        et->start_material[o] = 0;
        for (int t = 0; t < v->ntypes; t++)
            if (!variant_royal(v, o, t)) et->start_material[o] += v->start_count[o][t] * et->value[t];
    }
    for (int d = 0; d < v->ndirs; d++) {
        const Direction *dir = &v->dirs[d];
        if (dir->graph || dir->link_board >= 0 || abs(dir->dx) > 1 || abs(dir->dy) > 1 || (!dir->dx && !dir->dy))
            continue;
        bool seen = false;
        for (int k = 0; k < et->nqueen_dirs; k++) {
            const Direction *o = &v->dirs[et->queen_dirs[k]];
            seen |= o->dx == dir->dx && o->dy == dir->dy;
        }
        if (!seen) et->queen_dirs[et->nqueen_dirs++] = (uint8_t)d;
    }
    /* a royal piece is open to the lines along which the enemy's pieces slide */
    for (int o = 0; o < 2; o++) {
        et->exposed[o] = 0;
        for (int t = 0; t < v->ntypes; t++) {
            const PieceProgram *pp = &v->types[t].per_owner[1 - o];
            for (int i = 0; i < pp->ngen; i++) {
                const Direction *r = &v->dirs[pp->gen[i].dir];
                for (int k = 0; pp->gen[i].slide && k < et->nqueen_dirs; k++) {
                    const Direction *q = &v->dirs[et->queen_dirs[k]];
                    if (abs(q->dx) == abs(r->dx) && abs(q->dy) == abs(r->dy))
                        et->exposed[o] |= 1ull << et->queen_dirs[k];
                }
            }
        }
    }
}

void eval_set_weights(EvalTables *et) {
    const TunedTerms *tt = et->untuned ? &no_terms : &et->v->tuned;
    et->any_squares = false;
    for (int t = 0; t < MAX_PIECE_TYPES; t++) {
        et->mobility[t] = (tt->mobility_set >> t) & 1 ? tt->mobility[t] : MOBILITY_WEIGHT;
        et->squares[t] = (tt->squares_set >> t) & 1 ? tt->squares[t] : 0;
        et->any_squares |= et->squares[t] != 0;
    }
    et->royal_safety = tt->royal_safety_set ? tt->royal_safety : 0;
    et->hand_percent = tt->hand_set ? tt->hand : HAND_PERCENT;
    for (int k = 0; k < TUNED_TERMS; k++) et->term[k] = (tt->terms_set >> k) & 1 ? tt->terms[k] : term_defaults[k];
}

void eval_prepare_squares(EvalTables *et) {
    const Variant *v = et->v;
    Position *scratch = xmalloc(sizeof *scratch);
    board_init(scratch, v);
    GenContext *ctx = xmalloc(sizeof *ctx);
    genctx_init(ctx);
    int *moves = xmalloc(sizeof(int) * (size_t)v->ncells);
    for (int o = 0; o < 2 && o < v->nowners; o++)
        for (int t = 0; t < v->ntypes; t++) {
            long total = reach_of(ctx, scratch, t, o, moves);
            int mean = (int)(total / (v->ncells ? v->ncells : 1));
            for (int c = 0; c < v->ncells; c++) {
                int d = moves[c] - mean;
                et->reach[o][t][c] = (int8_t)(d > 127 ? 127 : d < -127 ? -127 : d);
            }
        }
    free(moves);
    free(ctx);
    board_free(scratch);
    free(scratch);
}

static void init_tables(EvalTables *et, const Variant *v, bool untuned);

void eval_init(EvalTables *et, const Variant *v) { init_tables(et, v, false); }

void eval_init_untuned(EvalTables *et, const Variant *v) { init_tables(et, v, true); }

static void init_tables(EvalTables *et, const Variant *v, bool untuned) {
    et->v = v;
    et->untuned = untuned;
    eval_set_weights(et);
    if (et->any_squares) eval_prepare_squares(et);
    /* where running out of pieces wins, every piece held is a burden */
    et->material_sign = v->pieces_limit && v->on_pieces == RESULT_WIN ? -1 : 1;
    init_race(et, v);
    Position *scratch = NULL;
    GenContext *ctx = NULL;
    for (int t = 0; t < v->ntypes; t++) {
        bool tuned = !untuned && ((v->tuned.value_set >> t) & 1);
        et->value[t] = tuned ? v->tuned.value[t] : v->types[t].value;
        et->estimated[t] = false;
        if (et->value[t] == 0 && !v->types[t].royal && !tuned) {
            if (!scratch) {
                scratch = xmalloc(sizeof *scratch);
                board_init(scratch, v);
                ctx = xmalloc(sizeof *ctx);
                genctx_init(ctx);
            }
            et->value[t] = mobility_estimate(ctx, scratch, t);
            et->estimated[t] = true;
        }
    }
    if (scratch) {
        board_free(scratch);
        free(scratch);
        free(ctx);
    }
    et->terms = true;
    init_terms(et, v);
    for (int c = 0; c < v->ncells; c++) {
        const CellInfo *ci = &v->cells[c];
        const Board *b = &v->boards[ci->board];
        /* distances in half cells from the board's centre */
        int dx = abs(2 * ci->x - (b->width - 1)), dy = abs(2 * ci->y - (b->height - 1));
        int maxd = (b->width - 1) + (b->height - 1);
        et->centre[c] = maxd ? EVAL_CENTRE_MAX * (maxd - dx - dy) / maxd : EVAL_CENTRE_MAX;
    }
}

int eval_piece_value(const EvalTables *et, Piece p) {
    int t = PIECE_TYPE(p);
    if (t < 0) return 0;
    return et->v->types[t].royal ? EVAL_ROYAL_VALUE : et->value[t];
}

static bool in_cells(const uint64_t *cells, Cell c) { return (cells[c >> 6] >> (c & 63)) & 1; }

/* Cells a piece reaches along its plain rays, or where it has none (its moves promote, which
 * takes its program) along the rays of its captures, and by its line moves (pieces moved
 * only by programs count 0). With a zone, *hits counts the cells of it the piece attacks
 * along those rays: empty or hostile, on a ray that can capture. */
static int ray_mobility(const Position *pos, const PieceProgram *pp, int owner, Cell from, const uint64_t *zone,
                        int *hits, const uint64_t *guarded, int *unsafe) {
    /* (hostility is by controlling player: armies may change hands) */
    const Variant *v = pos->v;
    int n = movegen_count_lines(pos, pp, owner, from);
    /* (a capture's ray stands for a move too: promoting pieces mostly move as they capture) */
    bool captures = !pp->ngen;
    const Ray *rays = captures ? pp->atk : pp->gen;
    int nrays = captures ? pp->natk : pp->ngen;
    for (int i = 0; i < nrays; i++) {
        const Ray *r = &rays[i];
        int mode = captures ? RAY_BOTH : r->mode;
        Cell c = from;
        for (int k = 0; !r->range || k < r->range; k++) {
            c = variant_step(v, c, r->dir);
            if (c == NO_CELL) break;
            Piece p = pos->cell[c];
            bool hostile = p && board_hostile(pos, PIECE_OWNER(p), owner);
            if (zone && mode != RAY_MOVE && (!p || hostile) && in_cells(zone, c)) ++*hits;
            if (p ? mode != RAY_MOVE && hostile : mode != RAY_CAPTURE) {
                n++;
                if (guarded && in_cells(guarded, c)) ++*unsafe;
            }
            if (p || !r->slide) break;
        }
    }
    return n;
}

/* The cells the pieces of `owner`'s type t attack along the rays of their captures (into
 * *cells; captures made only by programs are not seen). */
static void attacked_by(const Position *pos, int owner, int t, uint64_t *cells) {
    const Variant *v = pos->v;
    const PieceProgram *pp = &v->types[t].per_owner[owner];
    memset(cells, 0, sizeof(uint64_t) * CELL_WORDS);
    for (int w = 0; w < v->cell_words; w++)
        for (uint64_t bits = pos->type_occ[t][w] & pos->occ[owner][w]; bits; bits &= bits - 1) {
            Cell from = (Cell)(w * 64 + __builtin_ctzll(bits));
            for (int i = 0; i < pp->natk; i++) {
                const Ray *r = &pp->atk[i];
                Cell c = from;
                for (int k = 0; !r->range || k < r->range; k++) {
                    c = variant_step(v, c, r->dir);
                    if (c == NO_CELL) break;
                    cells[c >> 6] |= 1ull << (c & 63);
                    if (pos->cell[c] || !r->slide) break;
                }
            }
        }
}

/* A player's pieces are those of every army it controls (its own, and any handed to it) and
 * of the army it helps. */
static bool plays_for(const Position *pos, int player, int o) {
    return pos->controller[o] == player || pos->allegiance[player] == o;
}

/* The pieces a player holds in hand (games with hands, two players). */
static int hand_value(const EvalTables *et, const Position *pos, int player) {
    int sum = 0;
    for (int t = 0; t < pos->v->ntypes; t++) sum += pos->hand[player][t] * et->value[t];
    return sum * et->hand_percent / 100;
}

static int material(const EvalTables *et, const Position *pos, int player) {
    int sum = pos->v->has_hands && player < 2 ? hand_value(et, pos, player) : 0;
    for (int o = 0; o < pos->v->nowners; o++) {
        if (!plays_for(pos, player, o)) continue;
        for (int w = 0; w < pos->v->cell_words; w++) {
            uint64_t bits = pos->occ[o][w];
            while (bits) {
                Cell c = (Cell)(w * 64 + __builtin_ctzll(bits));
                bits &= bits - 1;
                sum += et->value[PIECE_TYPE(pos->cell[c])];
            }
        }
    }
    return sum;
}

/* What a player holds besides its pieces: the cards it pays its moves with (a move it cannot
 * pay for is a move it does not have) and what its captures earned (experience to spend). */
static int resources(const Position *pos, int player) {
    const Variant *v = pos->v;
    int sum = 0;
    for (int i = 0; i < v->npays; i++) {
        bool seen = false; /* (a pile two pay rules share counts once) */
        for (int k = 0; k < i; k++) seen = seen || v->pays[k].from == v->pays[i].from;
        if (!seen) sum += CARD_WEIGHT * board_pile_sum(pos, board_pile_slot(&v->piles[v->pays[i].from], player));
    }
    if (v->capture_reward) {
        const CounterDef *cd = &v->counters[v->capture_reward - 1];
        sum += REWARD_WEIGHT * pos->counters[cd->slot + (cd->per_player ? player : 0)];
    }
    return sum;
}

/* Enemy pieces (of a player other than `player`) within two king steps of c on its board. */
static int enemies_near(const Position *pos, Cell c, int player) {
    const Variant *v = pos->v;
    const CellInfo *ci = &v->cells[c];
    const Board *b = &v->boards[ci->board];
    int n = 0;
    for (int y = ci->y - 2; y <= ci->y + 2; y++)
        for (int x = ci->x - 2; x <= ci->x + 2; x++) {
            if (x < 0 || y < 0 || x >= b->width || y >= b->height) continue;
            Cell d = b->at[y][x];
            if (d == NO_CELL || !pos->cell[d]) continue;
            if (pos->controller[PIECE_OWNER(pos->cell[d])] != player) n++;
        }
    return n;
}

/* Two players, each with its own army, and the terms on (eval_terms and the like apply). */
static bool two_armies(const EvalTables *et, const Position *pos) {
    const Variant *v = pos->v;
    return et->terms && v->nplayers == 2 && v->nowners == 2 && pos->controller[0] == 0 && pos->controller[1] == 1;
}

/* The cells the enemy's least piece guards, where a player's mobility counts `guarded`
 * percent and its other pieces are threatened. False when neither term applies or the game
 * has no such piece. */
static bool guarded_cells(const EvalTables *et, const Position *pos, int player, uint64_t *cells) {
    if (!two_armies(et, pos) || et->least_type == NO_TYPE ||
        (et->term[TUNED_GUARDED] >= 100 && !et->term[TUNED_THREAT]))
        return false;
    attacked_by(pos, 1 - player, et->least_type, cells);
    return true;
}

/* The cells of the enemy royal piece and those a king step from it, where a player's attack
 * on it is counted (two armies, the royal-attack term on). False when there is none. */
static bool royal_zone(const EvalTables *et, const Position *pos, int player, uint64_t *zone) {
    const Variant *v = pos->v;
    if (!two_armies(et, pos) || !et->term[TUNED_ROYAL_ATTACK] || !et->nqueen_dirs) return false;
    Cell k = board_royal(pos, 1 - player);
    if (k == NO_CELL) return false;
    memset(zone, 0, sizeof(uint64_t) * CELL_WORDS);
    zone[k >> 6] |= 1ull << (k & 63);
    for (int i = 0; i < et->nqueen_dirs; i++) {
        Cell c = variant_step(v, k, et->queen_dirs[i]);
        if (c != NO_CELL) zone[c >> 6] |= 1ull << (c & 63);
    }
    return true;
}

/* A player's attack on the enemy royal piece from units (per attacked cell of its zone, the
 * attacker's value in pawns), by two or more pieces: growing with the square of the units.
 * With `hand-attack`, where pieces are dropped, those in the attacker's hand join an attack
 * that a piece on the board has begun, each once at that percent of its value in pawns (at
 * least 1): in shogi a drop next to the royal piece is how games are won. */
static int royal_attack(const EvalTables *et, const Position *pos, int player, int units, int attackers) {
    const Variant *v = pos->v;
    int percent = v->has_hands && player < 2 ? et->term[TUNED_HAND_ATTACK] : 0;
    if (percent && units > 0)
        for (int t = 0; t < v->ntypes; t++) {
            int n = pos->hand[player][t];
            int pawns = et->value[t] * percent / 10000;
            units += n * (pawns > 1 ? pawns : 1);
            attackers += n;
        }
    if (attackers < 2) return 0;
    int bonus = et->term[TUNED_ROYAL_ATTACK] * units * units / 256;
    int most = percent ? HAND_ATTACK_MAX : ROYAL_ATTACK_MAX;
    return bonus < most ? bonus : most;
}

int eval_side(const EvalTables *et, const Position *pos, int player) {
    const Variant *v = pos->v;
    int sum = v->npays || v->capture_reward ? resources(pos, player) : 0;
    if (v->has_hands && player < 2) sum += hand_value(et, pos, player);
    uint64_t zone_cells[CELL_WORDS], guard_cells[CELL_WORDS];
    const uint64_t *zone = royal_zone(et, pos, player, zone_cells) ? zone_cells : NULL;
    const uint64_t *guarded = guarded_cells(et, pos, player, guard_cells) ? guard_cells : NULL;
    int units = 0, attackers = 0;
    for (int o = 0; o < v->nowners; o++) {
        if (!plays_for(pos, player, o)) continue;
        for (int w = 0; w < v->cell_words; w++) {
            uint64_t bits = pos->occ[o][w];
            while (bits) {
                Cell c = (Cell)(w * 64 + __builtin_ctzll(bits));
                bits &= bits - 1;
                int t = PIECE_TYPE(pos->cell[c]);
                const PieceType *pt = &v->types[t];
                sum += et->material_sign * et->value[t];
                /* royal pieces often want shelter, not the centre: no bonus; nor do they attack */
                bool royal = variant_royal(v, o, t);
                int hits = 0, unsafe = 0;
                bool least = t == et->least_type;
                int reach = ray_mobility(pos, &pt->per_owner[o], o, c, royal ? NULL : zone, &hits,
                                         least ? NULL : guarded, &unsafe);
                if (guarded && !least && !royal && in_cells(guarded, c)) sum -= et->term[TUNED_THREAT];
                sum += et->mobility[t] * (100 * reach - (100 - et->term[TUNED_GUARDED]) * unsafe) / 100;
                if (hits) {
                    int pawns = et->value[t] / 100;
                    units += hits * (pawns > 1 ? pawns : 1);
                    attackers += !((et->ranked >> t) & 1); /* (a rank's pieces add, but do not lead) */
                }
                if (!royal) sum += CENTRE_WEIGHT * et->centre[c];
                if (et->any_squares && o < 2) sum += et->squares[t] * et->reach[o][t][c] / 16;
                if (et->royal_safety && royal) sum -= et->royal_safety * enemies_near(pos, c, player);
            }
        }
    }
    return zone ? sum + royal_attack(et, pos, player, units, attackers) : sum;
}

/* Chebyshev distance between two cells on the same board (large when on different boards). */
static int distance(const Variant *v, Cell a, Cell b) {
    const CellInfo *x = &v->cells[a], *y = &v->cells[b];
    if (x->board != y->board) return MAX_BOARD_DIM;
    int dx = abs(x->x - y->x), dy = abs(x->y - y->y);
    return dx > dy ? dx : dy;
}

/* Owner o's non-royal material on the board and in its hand (what it can still fight with). */
static int army_material(const EvalTables *et, const Position *pos, int o) {
    const Variant *v = pos->v;
    int sum = 0;
    for (int w = 0; w < v->cell_words; w++)
        for (uint64_t bits = pos->occ[o][w]; bits; bits &= bits - 1) {
            int t = PIECE_TYPE(pos->cell[w * 64 + __builtin_ctzll(bits)]);
            if (!variant_royal(v, o, t)) sum += et->value[t];
        }
    if (v->has_hands && o < 2)
        for (int t = 0; t < v->ntypes; t++) sum += pos->hand[o][t] * et->value[t];
    return sum;
}

/* The phase as owner e's army sets it: 256 with all it started with (or more), 0 with none. */
static int army_phase(const EvalTables *et, int material, int e) {
    if (et->start_material[e] <= 0) return 0;
    int phase = 256 * material / et->start_material[e];
    return phase < 256 ? phase : 256;
}

/* Winning side: push the enemy royal to the edge and bring our royal near it, so won endings
 * get converted without variant knowledge (two players only). Where captured pieces go to a
 * hand, a lead is no ending: the term grows only as the weaker army, on the board and in hand,
 * goes (a royal piece walking toward the enemy's while it still holds pieces to drop walks
 * into an attack). */
static int mopup(const EvalTables *et, const Position *pos, int me, int mat_me, int mat_you) {
    const Variant *v = pos->v;
    int lead = mat_me - mat_you;
    if (lead < MOPUP_MARGIN && -lead < MOPUP_MARGIN) return 0;
    int strong = lead > 0 ? me : 1 - me, weak = 1 - strong;
    Cell wk = board_royal(pos, weak), sk = board_royal(pos, strong);
    if (wk == NO_CELL) return 0;
    int bonus = 4 * (EVAL_CENTRE_MAX - et->centre[wk]);
    if (sk != NO_CELL) bonus += 6 * (MAX_BOARD_DIM - distance(v, sk, wk)) / 4;
    if (v->has_hands && v->nowners == 2)
        bonus = bonus * (256 - army_phase(et, army_material(et, pos, weak), weak)) / 256;
    return strong == me ? bonus : -bonus;
}

/* Empty cells from c along the queen's lines an enemy piece slides along (exposure), and own
 * pieces next to it on any of them (shelter). */
static void royal_lines(const EvalTables *et, const Position *pos, Cell c, int owner, int *open, int *near) {
    const Variant *v = pos->v;
    for (int k = 0; k < et->nqueen_dirs; k++) {
        int dir = et->queen_dirs[k];
        Cell d = variant_step(v, c, dir);
        if (d != NO_CELL && pos->cell[d] && PIECE_OWNER(pos->cell[d]) == owner) ++*near;
        if (!((et->exposed[owner] >> dir) & 1)) continue;
        while (d != NO_CELL && !pos->cell[d]) {
            ++*open;
            d = variant_step(v, d, dir);
        }
    }
}

/* Owner o's promoting pieces of type t (cells `mine`), each worth its progress toward its zone,
 * more when passed: no enemy of its type (cells `theirs`) nearer the zone on its column or the
 * next ones of the first board. */
static int promotion_bonus(const EvalTables *et, const Variant *v, int o, int t, const uint64_t *mine,
                           const uint64_t *theirs) {
    const uint8_t *dist = et->promo_dist[o][t];
    /* per column, the enemy's least distance to o's zone (255: none), columns shifted by one */
    uint8_t front[MAX_BOARD_DIM + 2];
    memset(front, 255, sizeof front);
    if (et->term[TUNED_PASSED])
        for (int w = 0; w < v->cell_words; w++)
            for (uint64_t bits = theirs[w]; bits; bits &= bits - 1) {
                Cell c = (Cell)(w * 64 + __builtin_ctzll(bits));
                int x = v->cells[c].x + 1;
                if (v->cells[c].board == 0 && dist[c] < front[x]) front[x] = dist[c];
            }
    int sum = 0;
    for (int w = 0; w < v->cell_words; w++)
        for (uint64_t bits = mine[w]; bits; bits &= bits - 1) {
            Cell c = (Cell)(w * 64 + __builtin_ctzll(bits));
            int progress = et->promo_progress[o][t][c];
            if (!progress) continue;
            int weight = et->term[TUNED_PROMOTION], x = v->cells[c].x + 1, d = dist[c];
            if (v->cells[c].board == 0 && front[x - 1] >= d && front[x] >= d && front[x + 1] >= d)
                weight += et->term[TUNED_PASSED];
            sum += progress * weight;
        }
    return sum * et->promo_gain[t] / (100 * EVAL_PROGRESS_MAX);
}

/* Owner o's pieces of a ranked type t: the second and further on a column are doubled, one
 * with none of its type on the next columns isolated. Marks their columns of the first board
 * in *columns. */
static int structure_penalty(const EvalTables *et, const Position *pos, int o, int t, uint32_t *columns) {
    const Variant *v = pos->v;
    uint8_t count[MAX_BOARD_DIM + 2] = {0};
    for (int w = 0; w < v->cell_words; w++)
        for (uint64_t bits = pos->type_occ[t][w] & pos->occ[o][w]; bits; bits &= bits - 1) {
            const CellInfo *ci = &v->cells[w * 64 + __builtin_ctzll(bits)];
            if (ci->board != 0) continue;
            count[ci->x + 1]++;
            *columns |= 1u << ci->x;
        }
    int doubled = 0, isolated = 0;
    for (int x = 1; x <= v->boards[0].width; x++) {
        if (!count[x]) continue;
        doubled += count[x] - 1;
        if (!count[x - 1] && !count[x + 1]) isolated += count[x];
    }
    return (et->term[TUNED_DOUBLED] * doubled + et->term[TUNED_ISOLATED] * isolated) * et->value[t] / 100;
}

/* Owner o's column sliders on columns of the first board with no ranked piece (`open`, in
 * full) or only the enemy's (`half_open`, half). */
static int open_columns(const EvalTables *et, const Position *pos, int o, uint32_t open, uint32_t half_open) {
    const Variant *v = pos->v;
    int sum = 0;
    for (uint32_t ts = et->column_sliders; ts; ts &= ts - 1) {
        int t = __builtin_ctz(ts);
        for (int w = 0; w < v->cell_words; w++)
            for (uint64_t bits = pos->type_occ[t][w] & pos->occ[o][w]; bits; bits &= bits - 1) {
                const CellInfo *ci = &v->cells[w * 64 + __builtin_ctzll(bits)];
                if (ci->board != 0) continue;
                if ((open >> ci->x) & 1)
                    sum += 2;
                else if ((half_open >> ci->x) & 1)
                    sum += 1;
            }
    }
    return sum * et->term[TUNED_OPEN_COLUMN] / 2;
}

int eval_terms(const EvalTables *et, const Position *pos) {
    const Variant *v = pos->v;
    if (!et->terms || v->nplayers != 2 || v->nowners != 2 || pos->controller[0] != 0 || pos->controller[1] != 1)
        return 0;
    int words = v->cell_words, material[2] = {0, 0};
    for (int o = 0; o < 2; o++) material[o] = army_material(et, pos, o);
    int score[2] = {0, 0};
    /* each army's structure, and the columns its ranked pieces stand on */
    uint32_t columns[2] = {0, 0};
    for (int o = 0; o < 2; o++)
        for (uint32_t ts = et->ranked; ts; ts &= ts - 1)
            score[o] -= structure_penalty(et, pos, o, __builtin_ctz(ts), &columns[o]);
    if (et->column_sliders) {
        uint32_t open = ~(columns[0] | columns[1]);
        for (int o = 0; o < 2; o++) score[o] += open_columns(et, pos, o, open, columns[1 - o] & ~columns[o]);
    }
    for (int o = 0; o < 2; o++) {
        int e = 1 - o;
        /* the enemy's non-royal material, in hand too: 256 with all it started with, 0 with none */
        int phase = army_phase(et, material[e], e);
        int sum = 0;
        for (uint32_t ts = et->promoting; ts; ts &= ts - 1) {
            int t = __builtin_ctz(ts);
            uint64_t mine[CELL_WORDS], theirs[CELL_WORDS];
            bool any = false;
            for (int w = 0; w < words; w++) {
                mine[w] = pos->type_occ[t][w] & pos->occ[o][w];
                theirs[w] = pos->type_occ[t][w] & pos->occ[e][w];
                any |= mine[w] != 0;
            }
            if (any) sum += promotion_bonus(et, v, o, t, mine, theirs);
        }
        /* worth a quarter in the opening, all of it in a bare ending */
        sum = sum * (1024 - 3 * phase) / 1024;
        Cell royal = board_royal(pos, o);
        if (royal != NO_CELL && et->nqueen_dirs) {
            int open = 0, near = 0;
            royal_lines(et, pos, royal, o, &open, &near);
            sum += (et->term[TUNED_SHELTER] * near - et->term[TUNED_EXPOSURE] * open) * phase / 256;
            sum += et->term[TUNED_ROYAL_CENTRE] * et->centre[royal] * (256 - phase) / 256;
            sum -= et->term[TUNED_ROYAL_HIDDEN] * et->centre[royal] * phase / 256;
        }
        score[o] += sum;
    }
    return score[0] - score[1];
}

int eval_position(const EvalTables *et, const Position *pos, int player) {
    const Variant *v = pos->v;
    if (v->nplayers == 2) {
        int other = 1 - player;
        int s = eval_side(et, pos, player) - eval_side(et, pos, other);
        if (et->terms) s += player == 0 ? eval_terms(et, pos) : -eval_terms(et, pos);
        if (v->has_royal && et->material_sign > 0)
            s += mopup(et, pos, player, material(et, pos, player), material(et, pos, other));
        if (et->race_type != NO_TYPE) s += race_progress(et, pos, player) - race_progress(et, pos, other);
        return s;
    }
    /* an opponent out of the game counts 0: knocking one out is worth its whole army */
    int mine = 0, others = 0;
    for (int p = 0; p < v->nplayers; p++) {
        if (p != player && !((pos->alive >> p) & 1)) continue;
        int s = eval_side(et, pos, p);
        if (p == player)
            mine = s;
        else
            others += s;
    }
    return mine - others / (v->nplayers - 1);
}

int eval_capture_value(const EvalTables *et, const Position *pos, const Move *m) {
    int sum = 0;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if (e->kind == FX_REMOVE && pos->cell[e->a]) sum += eval_piece_value(et, pos->cell[e->a]);
        /* a move onto an occupied cell replaces (captures) what stands there */
        else if (e->kind == FX_MOVE && pos->cell[e->b] && e->b != e->a) {
            bool lifted = false; /* unless that piece moves away in the same move (castling) */
            for (int k = 0; k < m->nfx; k++)
                if (m->fx[k].kind == FX_MOVE && m->fx[k].a == e->b) lifted = true;
            if (!lifted) sum += eval_piece_value(et, pos->cell[e->b]);
        }
    }
    return sum;
}

int eval_pick_greedy(const EvalTables *et, const Position *pos, const MoveList *ml, uint64_t *rng) {
    int best = -1, best_val = 0, ties = 0;
    for (int i = 0; i < ml->count; i++) {
        int val = eval_capture_value(et, pos, &ml->moves[i]);
        if (val <= 0) continue;
        if (val > best_val) {
            best = i;
            best_val = val;
            ties = 1;
        } else if (val == best_val && rng_next(rng) % (uint64_t)++ties == 0) {
            best = i; /* reservoir choice: each equal capture equally likely */
        }
    }
    return best >= 0 ? best : (int)(rng_next(rng) % (uint64_t)ml->count);
}
