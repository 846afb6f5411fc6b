/* describe.c - the rulebook of a loaded game. Move diagrams come from the move generator run
 * on constructed positions (the piece alone, with one enemy, with a piece in between), never
 * from re-reading the rule file's atoms, so what they show is what the game plays. */
#include "describe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fen.h"
#include "movegen.h"
#include "notation.h"

#define EXAMPLE_GAMES 10 /* random games searched for a capture that needs other pieces */
#define EXAMPLE_PLIES 80
#define SVG_CELL 40
#define SVG_MARGIN 22

/* ---- probing the move generator ------------------------------------------------------------ */

/* A position to run the generator on: the start's counters, piles and turn, its set-up over,
 * no piece, no tile; the first player to move. */
typedef struct Probe {
    const Variant *v;
    Position pos;
    GenContext *gen;
    MoveList *list;
    int enemy;              /* an owner hostile to the first player (or 0 when none is) */
    int dummy;              /* the type placed as enemy or screen: one that does not freeze */
    Piece start[MAX_CELLS]; /* the start position's cells */
    Position *game;         /* random games for examples (made when first needed) */
} Probe;

static void probe_empty(Probe *p) {
    const Variant *v = p->v;
    for (int c = 0; c < v->ncells; c++)
        if (p->pos.cell[c]) board_put(&p->pos, (Cell)c, 0);
    memset(p->pos.tiles, 0, sizeof p->pos.tiles);
    for (int i = 0; i < MAX_EP_CELLS; i++) p->pos.ep[i] = NO_CELL;
    p->pos.ep_victim = NO_CELL;
    p->pos.rights = 0;
}

static void probe_init(Probe *p, const Variant *v) {
    memset(p, 0, sizeof *p);
    p->v = v;
    p->gen = xmalloc(sizeof *p->gen);
    genctx_init(p->gen);
    p->gen->diagram = true; /* (a piece alone on the board: no extinction rule ends it) */
    p->list = xmalloc(sizeof *p->list);
    board_init(&p->pos, v);
    char start[4096], err[200];
    fen_start(v, 1, start, sizeof start);
    if (!fen_read(&p->pos, start, err, sizeof err)) board_clear(&p->pos);
    memcpy(p->start, p->pos.cell, sizeof p->start);
    probe_empty(p);
    p->pos.prelude = (uint8_t)v->nprelude;
    board_sync_prelude(&p->pos);
    for (int t = 0; t < v->nturns; t++)
        if (v->turn_order[t] == 0) {
            p->pos.turn = (uint8_t)t;
            break;
        }
    /* moves that cost cards are offered only to a player who can pay */
    for (int r = 0; r < v->npays; r++) {
        int slot = board_pile_slot(&v->piles[v->pays[r].from], 0);
        p->pos.pile_len[slot] = MAX_PILE_CARDS;
        memset(p->pos.piles[slot], 200, MAX_PILE_CARDS);
    }
    p->enemy = 0;
    for (int o = 1; o < v->nowners && !p->enemy; o++)
        if (board_hostile(&p->pos, 0, o)) p->enemy = o;
    p->dummy = 0;
    for (int t = v->ntypes - 1; t >= 0; t--) {
        const PieceType *pt = &v->types[t];
        if (!pt->royal && !((v->freezer_mask | v->imitator_mask) >> t & 1)) p->dummy = t;
    }
}

static void probe_free(Probe *p) {
    if (p->game) board_free(p->game);
    free(p->game);
    board_free(&p->pos);
    free(p->gen);
    free(p->list);
}

/* Does m remove the piece standing on c (by landing on it, or away from it)? */
static bool move_removes(const Position *pos, const Move *m, Cell c) {
    if (!pos->cell[c] || c == m->from) return false;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if ((e->kind == FX_REMOVE && e->a == c) || (e->kind == FX_MOVE && e->b == c)) return true;
    }
    return false;
}

/* The cells m removes a piece from, as a bitset. */
static void move_victims(const Position *pos, const Move *m, uint64_t *bits) {
    memset(bits, 0, CELL_WORDS * sizeof *bits);
    for (int c = 0; c < pos->v->ncells; c++)
        if (move_removes(pos, m, (Cell)c)) bits[c >> 6] |= 1ull << (c & 63);
}

static bool move_captures(const Position *pos, const Move *m) {
    uint64_t bits[CELL_WORDS];
    move_victims(pos, m, bits);
    for (int w = 0; w < CELL_WORDS; w++)
        if (bits[w]) return true;
    return false;
}

/* The pseudo-legal moves of the piece on `from` (every phase of a turn), into out. */
static void probe_moves(Probe *p, Cell from, MoveList *out) {
    const Variant *v = p->v;
    out->count = 0;
    int nphases = v->nphases ? v->nphases : 1;
    for (int ph = 0; ph < nphases; ph++) {
        p->pos.phase = (uint8_t)ph;
        p->pos.phase_moves = 0;
        p->pos.royal_open = -1;
        VmFault fault = {0};
        if (!movegen_pseudo(p->gen, &p->pos, p->list, &fault)) continue; /* (it grants its own budget) */
        for (int i = 0; i < p->list->count && out->count < MAX_MOVES; i++) {
            const Move *m = &p->list->moves[i];
            if (m->flags & (MOVE_CARDS | MOVE_TILE | MOVE_PASS | MOVE_CASTLE | MOVE_ELIMINATION)) continue;
            if (m->from != from || m->to == from) continue;
            out->moves[out->count++] = *m;
        }
    }
    p->pos.phase = 0;
}

/* The cell of board b at (x, y), or NO_CELL off the board or in a hole. */
static Cell cell_at(const Variant *v, int b, int x, int y) {
    const Board *bd = &v->boards[b];
    if (x < 0 || y < 0 || x >= bd->width || y >= bd->height) return NO_CELL;
    return bd->at[y][x];
}

/* The board a type's diagram is drawn on: where the first player's piece of it starts, else
 * any army's, else the first board; and a cell near that board's centre. */
static Cell diagram_origin(const Variant *v, const Piece *start, int type) {
    int b = -1;
    for (int c = 0; c < v->ncells && b < 0; c++)
        if (start[c] && PIECE_KIND(start[c]) == PIECE_MAKE(type, 0)) b = v->cells[c].board;
    for (int c = 0; c < v->ncells && b < 0; c++) /* (a type only other armies start with) */
        if (start[c] && PIECE_TYPE(start[c]) == type) b = v->cells[c].board;
    if (b < 0) b = 0;
    const Board *bd = &v->boards[b];
    int cx = (bd->width - 1) / 2, cy = (bd->height - 1) / 2;
    for (int r = 0; r < MAX_BOARD_DIM; r++)
        for (int dy = -r; dy <= r; dy++)
            for (int dx = -r; dx <= r; dx++) {
                Cell c = cell_at(v, b, cx + dx, cy + dy);
                if (c != NO_CELL) return c;
            }
    return (Cell)bd->first_cell;
}

static void mark_plain_moves(Probe *p, Cell origin, Piece piece, uint8_t *mark, uint8_t kind, int type) {
    probe_empty(p);
    board_put(&p->pos, origin, piece);
    MoveList *ml = xmalloc(sizeof *ml);
    probe_moves(p, origin, ml);
    for (int i = 0; i < ml->count; i++) {
        const Move *m = &ml->moves[i];
        if (!(mark[m->to] & MARK_MOVE)) mark[m->to] |= kind;
    }
    /* drops: moves that place a piece of this type */
    p->list->count = 0;
    VmFault fault = {0};
    if (movegen_pseudo(p->gen, &p->pos, p->list, &fault))
        for (int i = 0; i < p->list->count; i++)
            for (int k = 0; k < p->list->moves[i].nfx; k++) {
                const Effect *e = &p->list->moves[i].fx[k];
                if (e->kind == FX_PLACE && PIECE_TYPE(e->piece) == type) mark[e->a] |= MARK_DROP;
            }
    free(ml);
}

static void find_example(const Variant *v, Probe *p, int type, DescribeExample *ex);

static void compute_diagram(Probe *p, int type, PieceDiagram *d, bool with_example) {
    const Variant *v = p->v;
    memset(d, 0, sizeof *d);
    d->type = type;
    const Piece *start = p->start;
    Cell o = diagram_origin(v, start, type);
    Piece moved = (Piece)(PIECE_MAKE(type, 0) | PIECE_MOVED), fresh = PIECE_MAKE(type, 0);
    MoveList *ml = xmalloc(sizeof *ml);
    /* the centre, unless the piece cannot move from there (a palace piece): then the cell of
     * that board with the most moves (the first of equals) */
    probe_empty(p);
    board_put(&p->pos, o, moved);
    probe_moves(p, o, ml);
    if (!ml->count) {
        int best = -1, best_moves = 0;
        for (int c = 0; c < v->ncells; c++) {
            if (v->cells[c].board != v->cells[o].board) continue;
            probe_empty(p);
            board_put(&p->pos, (Cell)c, moved);
            probe_moves(p, (Cell)c, ml);
            if (ml->count > best_moves) best = c, best_moves = ml->count;
        }
        if (best >= 0) o = (Cell)best;
    }
    /* the displacements it has from cells it does not start on (a start-only move is one
     * of none of them) */
    bool elsewhere[2 * MAX_BOARD_DIM][2 * MAX_BOARD_DIM];
    memset(elsewhere, 0, sizeof elsewhere);
    for (int c = 0; c < v->ncells; c++) {
        const CellInfo *ci = &v->cells[c];
        if (ci->board != v->cells[o].board || (start[c] && PIECE_KIND(start[c]) == fresh)) continue;
        probe_empty(p);
        board_put(&p->pos, (Cell)c, moved);
        probe_moves(p, (Cell)c, ml);
        for (int i = 0; i < ml->count; i++) {
            const CellInfo *ti = &v->cells[ml->moves[i].to];
            if (ti->board == ci->board) elsewhere[ti->x - ci->x + MAX_BOARD_DIM][ti->y - ci->y + MAX_BOARD_DIM] = true;
        }
    }
    d->origin = o;
    const CellInfo *oi = &v->cells[o];

    mark_plain_moves(p, o, moved, d->mark, MARK_MOVE, type);
    mark_plain_moves(p, o, fresh, d->mark, MARK_FIRST, type);
    /* moves from its start cells that it has nowhere else: a first move (pawn-start zones) */
    for (int s = 0; s < v->ncells; s++) {
        if (!start[s] || PIECE_KIND(start[s]) != fresh || v->cells[s].board != oi->board) continue;
        probe_empty(p);
        board_put(&p->pos, (Cell)s, fresh);
        probe_moves(p, (Cell)s, ml);
        for (int i = 0; i < ml->count; i++) {
            const CellInfo *ti = &v->cells[ml->moves[i].to];
            if (ti->board != oi->board) continue;
            int dx = ti->x - v->cells[s].x, dy = ti->y - v->cells[s].y;
            if (elsewhere[dx + MAX_BOARD_DIM][dy + MAX_BOARD_DIM]) continue; /* a zone's limit, not a first move */
            Cell t = cell_at(v, oi->board, oi->x + dx, oi->y + dy);
            if (t != NO_CELL && t != o && !(d->mark[t] & MARK_MOVE)) d->mark[t] |= MARK_FIRST;
        }
    }
    Piece enemy = PIECE_MAKE(p->dummy, p->enemy), screen = PIECE_MAKE(p->dummy, 0);
    /* one enemy on each cell in turn: captures by landing there, or from elsewhere */
    for (int c = 0; c < v->ncells && p->enemy; c++) {
        if (c == o) continue;
        probe_empty(p);
        board_put(&p->pos, o, moved);
        board_put(&p->pos, (Cell)c, enemy);
        probe_moves(p, o, ml);
        for (int i = 0; i < ml->count; i++)
            if (move_removes(&p->pos, &ml->moves[i], (Cell)c))
                d->mark[c] |= ml->moves[i].to == c ? MARK_CAPTURE : MARK_REMOTE;
    }
    /* a piece in between: moves it makes possible, and captures beyond it on its line */
    for (int s = 0; s < v->ncells; s++) {
        if (s == o) continue;
        probe_empty(p);
        board_put(&p->pos, o, moved);
        board_put(&p->pos, (Cell)s, screen);
        probe_moves(p, o, ml);
        for (int i = 0; i < ml->count; i++) {
            Cell t = ml->moves[i].to;
            if (!move_captures(&p->pos, &ml->moves[i]) && !(d->mark[t] & (MARK_MOVE | MARK_FIRST)))
                d->mark[t] |= MARK_HOP;
        }
        const CellInfo *si = &v->cells[s];
        if (si->board != oi->board || !p->enemy) continue;
        int dx = si->x - oi->x, dy = si->y - oi->y, g = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
        if ((dx && dy && abs(dx) != abs(dy))) continue; /* lines only: orthogonal and diagonal */
        dx /= g, dy /= g;
        for (int k = 1;; k++) {
            Cell t = cell_at(v, oi->board, si->x + k * dx, si->y + k * dy);
            if (t == NO_CELL) break;
            board_put(&p->pos, t, enemy);
            probe_moves(p, o, ml);
            for (int i = 0; i < ml->count; i++)
                if (ml->moves[i].to == t && move_removes(&p->pos, &ml->moves[i], t) && !(d->mark[t] & MARK_CAPTURE))
                    d->mark[t] |= MARK_HOP;
            board_put(&p->pos, t, 0);
        }
    }
    /* promotions: the piece alone on every cell */
    for (int c = 0; c < v->ncells; c++) {
        probe_empty(p);
        board_put(&p->pos, (Cell)c, moved);
        probe_moves(p, (Cell)c, ml);
        for (int i = 0; i < ml->count; i++) {
            const Move *m = &ml->moves[i];
            if (m->promo == NO_TYPE) continue;
            d->promotes_to |= 1u << m->promo;
            for (int s = 1; s < v->npromos; s++)
                if ((v->promos[s].zone != NO_ZONE && zone_has(&v->zones[v->promos[s].zone], 0, m->to)) ||
                    (v->promos[s].from_zone != NO_ZONE && zone_has(&v->zones[v->promos[s].from_zone], 0, m->from)))
                    for (int k = 0; k < v->promos[s].count; k++)
                        if (v->promos[s].types[k] == m->promo) d->promo_sets |= 1u << s;
        }
    }
    d->mark[o] = 0;
    bool captures = false;
    for (int c = 0; c < v->ncells; c++) captures |= (d->mark[c] & (MARK_CAPTURE | MARK_REMOTE | MARK_HOP)) != 0;
    bool remote = false;
    for (int c = 0; c < v->ncells; c++) remote |= (d->mark[c] & MARK_REMOTE) != 0;
    d->needs_example =
        remote || ((v->imitator_mask >> type) & 1) || (v->types[type].per_owner[0].may_capture && !captures);
    if (with_example && d->needs_example) find_example(v, p, type, &d->example);
    free(ml);
}

static Probe *probe_new(const Variant *v) {
    Probe *p = xmalloc(sizeof *p);
    probe_init(p, v);
    return p;
}

static void probe_delete(Probe *p) {
    probe_free(p);
    free(p);
}

void describe_piece(const Variant *v, int type, PieceDiagram *out) {
    Probe *p = probe_new(v);
    compute_diagram(p, type, out, true);
    probe_delete(p);
}

/* Every type's diagram (with examples), into d[ntypes]. */
static void all_diagrams(const Variant *v, PieceDiagram *d) {
    Probe *p = probe_new(v);
    for (int t = 0; t < v->ntypes; t++) compute_diagram(p, t, &d[t], true);
    probe_delete(p);
}

/* Is the move `want` (same cells, same victims) among the piece's moves in p? */
static const Move *find_same(Probe *p, MoveList *ml, const Move *want, const uint64_t *victims) {
    probe_moves(p, want->from, ml);
    for (int i = 0; i < ml->count; i++) {
        const Move *m = &ml->moves[i];
        uint64_t bits[CELL_WORDS];
        if (m->to != want->to || m->promo != want->promo) continue;
        move_victims(&p->pos, m, bits);
        if (!memcmp(bits, victims, sizeof bits)) return m;
    }
    return NULL;
}

/* Keeps of `pos` only the pieces the capture needs, then records it before and after. */
static bool shrink_example(Probe *p, const Position *pos, const Move *m, DescribeExample *ex) {
    const Variant *v = p->v;
    uint64_t victims[CELL_WORDS];
    move_victims(pos, m, victims);
    uint8_t turn = p->pos.turn;
    probe_empty(p);
    for (int c = 0; c < v->ncells; c++)
        if (pos->cell[c]) board_put(&p->pos, (Cell)c, pos->cell[c]);
    p->pos.turn = pos->turn;
    MoveList *ml = xmalloc(sizeof *ml);
    bool ok = find_same(p, ml, m, victims) != NULL;
    for (int c = 0; c < v->ncells && ok; c++) {
        Piece keep = p->pos.cell[c];
        if (!keep || c == m->from || bits_has(victims, (Cell)c)) continue;
        board_put(&p->pos, (Cell)c, 0);
        if (!find_same(p, ml, m, victims)) board_put(&p->pos, (Cell)c, keep);
    }
    const Move *found = ok ? find_same(p, ml, m, victims) : NULL;
    if (found) {
        Move mv = *found;
        memcpy(ex->before, p->pos.cell, sizeof ex->before);
        ex->from = mv.from;
        ex->to = mv.to;
        notation_move(v, &mv, ex->move, sizeof ex->move);
        /* only the cells: the probe's turn and piles are not a game's */
        CellJournal *cj = xmalloc(sizeof *cj);
        board_cells_apply(&p->pos, &mv, cj);
        memcpy(ex->after, p->pos.cell, sizeof ex->after);
        board_cells_revert(&p->pos, cj);
        free(cj);
        ex->found = true;
    }
    free(ml);
    p->pos.turn = turn;
    return ex->found;
}

static void find_example(const Variant *v, Probe *p, int type, DescribeExample *ex) {
    if (!p->game) {
        p->game = xmalloc(sizeof *p->game);
        board_init(p->game, v);
    }
    Position *pos = p->game;
    MoveList *ml = xmalloc(sizeof *ml);
    GenContext *gen = xmalloc(sizeof *gen);
    uint64_t rng = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(type + 1);
    char text[4096], err[200];
    for (int game = 0; game < EXAMPLE_GAMES && !ex->found; game++) {
        fen_start(v, 1, text, sizeof text);
        if (!fen_read(pos, text, err, sizeof err)) break;
        genctx_init(gen);
        for (int ply = 0; ply < EXAMPLE_PLIES && !ex->found; ply++) {
            VmFault fault = {0};
            if (!movegen_legal(gen, pos, ml, &fault) || ml->count == 0) break;
            for (int i = 0; i < ml->count && !ex->found; i++) {
                const Move *m = &ml->moves[i];
                Piece mover = pos->cell[m->from];
                if (!mover || PIECE_TYPE(mover) != type || !move_captures(pos, m)) continue;
                if (m->flags & (MOVE_CARDS | MOVE_TILE | MOVE_PASS | MOVE_CASTLE)) continue;
                shrink_example(p, pos, m, ex);
            }
            if (ex->found) break;
            Move pick = ml->moves[rng_next(&rng) % (uint64_t)ml->count];
            if (!board_make(pos, &pick)) break;
        }
    }
    free(gen);
    free(ml);
}

/* ---- words ----------------------------------------------------------------------------------- */

static const char *result_words(ResultKind r) {
    switch (r) {
    case RESULT_WIN: return "wins";
    case RESULT_LOSS: return "loses";
    case RESULT_DRAW: return "draws";
    case RESULT_PASS: return "passes the turn";
    default: return "plays on";
    }
}

static int gcd(int a, int b) {
    a = abs(a), b = abs(b);
    while (b) {
        int t = a % b;
        a = b, b = t;
    }
    return a;
}

/* A direction (primitive vector in the first player's frame) in words. */
static void direction_words(int dx, int dy, char *buf, size_t cap) {
    const char *fb = dy > 0 ? "forward" : dy < 0 ? "backward" : "";
    const char *lr = dx > 0 ? "right" : dx < 0 ? "left" : "";
    if (!dx || !dy || abs(dx) == abs(dy))
        snprintf(buf, cap, "%s%s%s", fb, *fb && *lr ? "-" : "", lr);
    else
        snprintf(buf, cap, "(%d,%d)", dx, dy);
}

/* The cells marked exactly `kind` (of the bits in `mask`) around the origin, in words: per
 * line (primitive direction) the distances reached, grouped when alike. */
static void reach_words(const Variant *v, const PieceDiagram *d, uint8_t mask, uint8_t kind, char *buf, size_t cap) {
    const CellInfo *oi = &v->cells[d->origin];
    int ndir = 0;
    struct {
        int dx, dy;
        uint32_t dist;
        bool to_edge;
    } dirs[128];
    buf[0] = 0;
    for (int c = 0; c < v->ncells; c++) {
        if ((d->mark[c] & mask) != kind || v->cells[c].board != oi->board) continue;
        int dx = v->cells[c].x - oi->x, dy = v->cells[c].y - oi->y, g = gcd(dx, dy);
        if (!g || g > 31) continue;
        int px = dx / g, py = dy / g, k;
        for (k = 0; k < ndir && !(dirs[k].dx == px && dirs[k].dy == py); k++) {}
        if (k == ndir) {
            if (ndir == (int)ARRAY_LEN(dirs)) continue;
            dirs[ndir].dx = px, dirs[ndir].dy = py, dirs[ndir].dist = 0, dirs[ndir].to_edge = false;
            ndir++;
        }
        dirs[k].dist |= 1u << g;
    }
    if (!ndir) return;
    for (int k = 0; k < ndir; k++) {
        /* reaching every cell up to the edge of the board is "any distance" */
        int last = 0;
        for (int g = 1; g < 32; g++)
            if (dirs[k].dist >> g & 1) last = g;
        bool full = dirs[k].dist == (((last >= 31) ? 0xFFFFFFFFu : (1u << (last + 1)) - 1) & ~1u);
        dirs[k].to_edge = full && last > 1 &&
            cell_at(v, oi->board, oi->x + (last + 1) * dirs[k].dx, oi->y + (last + 1) * dirs[k].dy) == NO_CELL;
    }
    /* one step to the edge is "any distance" too when the same kind of line (orthogonal or
     * diagonal) goes further elsewhere: a rook next to the edge */
    for (int k = 0; k < ndir; k++) {
        bool diagonal = dirs[k].dx && dirs[k].dy;
        if (dirs[k].to_edge || dirs[k].dist != 2u || (diagonal && abs(dirs[k].dx) != abs(dirs[k].dy)) ||
            cell_at(v, oi->board, oi->x + 2 * dirs[k].dx, oi->y + 2 * dirs[k].dy) != NO_CELL)
            continue;
        for (int j = 0; j < ndir; j++)
            if (dirs[j].to_edge && (dirs[j].dx && dirs[j].dy) == diagonal && abs(dirs[j].dx) <= 1 &&
                abs(dirs[j].dy) <= 1)
                dirs[k].to_edge = true;
    }
    bool done[128] = {0};
    size_t len = 0;
    for (int k = 0; k < ndir; k++) {
        if (done[k]) continue;
        char dist[48], names[256] = "";
        if (dirs[k].to_edge)
            snprintf(dist, sizeof dist, "any distance");
        else {
            size_t n = 0;
            dist[0] = 0;
            for (int g = 1; g < 32; g++)
                if (dirs[k].dist >> g & 1)
                    n += (size_t)snprintf(dist + n, n < sizeof dist ? sizeof dist - n : 0, "%s%d", n ? "," : "", g);
            if (n >= sizeof dist) snprintf(dist, sizeof dist, "several");
        }
        /* the directions with the same distances */
        int orth = 0, diag = 0, others = 0, nsame = 0;
        int same[128];
        for (int j = k; j < ndir; j++) {
            if (done[j] || dirs[j].to_edge != dirs[k].to_edge || (!dirs[k].to_edge && dirs[j].dist != dirs[k].dist))
                continue;
            done[j] = true;
            same[nsame++] = j;
            if (!dirs[j].dx || !dirs[j].dy)
                orth++;
            else if (abs(dirs[j].dx) == abs(dirs[j].dy))
                diag++;
            else
                others++;
        }
        size_t nn = 0;
        int la = -1, lb = -1;
        bool one_shape = false;
        if (orth == 4 && diag == 4)
            nn += (size_t)snprintf(names, sizeof names, "in all eight directions");
        else {
            if (orth == 4) nn += (size_t)snprintf(names + nn, sizeof names - nn, "orthogonally");
            if (diag == 4) nn += (size_t)snprintf(names + nn, sizeof names - nn, "%sdiagonally", nn ? ", " : "");
            /* leaps off the lines that are all one shape, (1,2) say: named by the shape */
            one_shape = others > 0;
            for (int i = 0; i < nsame && one_shape; i++) {
                int a = abs(dirs[same[i]].dx), b = abs(dirs[same[i]].dy);
                if (!a || !b || a == b) continue;
                if (a > b) a ^= b, b ^= a, a ^= b;
                if (la < 0) la = a, lb = b;
                one_shape = a == la && b == lb;
            }
            for (int i = 0; i < nsame && nn < sizeof names; i++) {
                int j = same[i];
                bool is_orth = !dirs[j].dx || !dirs[j].dy, is_diag = !is_orth && abs(dirs[j].dx) == abs(dirs[j].dy);
                if ((is_orth && orth == 4) || (is_diag && diag == 4) || (!is_orth && !is_diag && one_shape)) continue;
                char w[32];
                direction_words(dirs[j].dx, dirs[j].dy, w, sizeof w);
                nn += (size_t)snprintf(names + nn, sizeof names - nn, "%s%s", nn ? ", " : "", w);
            }
            if (one_shape && nn < sizeof names) {
                if (others == 8)
                    snprintf(names + nn, sizeof names - nn, "%sa (%d,%d) leap in all eight directions", nn ? ", " : "",
                             la, lb);
                else
                    snprintf(names + nn, sizeof names - nn, "%sa (%d,%d) leap (%d of its directions fit here)",
                             nn ? ", " : "", la, lb, others);
            }
        }
        const char *unit = !strcmp(dist, "1") ? "1 step" : dirs[k].to_edge ? "any distance" : NULL;
        char part[400];
        if (unit)
            snprintf(part, sizeof part, "%s %s", unit, names);
        else
            snprintf(part, sizeof part, "%s steps %s", dist, names);
        if (one_shape && !orth && !diag && !strcmp(dist, "1")) snprintf(part, sizeof part, "%s", names);
        len += (size_t)snprintf(buf + len, len < cap ? cap - len : 0, "%s%s", len ? "; " : "", part);
        if (len >= cap) break;
    }
}

static int count_marks(const Variant *v, const PieceDiagram *d, uint8_t bit) {
    int n = 0;
    for (int c = 0; c < v->ncells; c++) n += (d->mark[c] & bit) != 0;
    return n;
}

static void piece_words(const Variant *v, const PieceDiagram *d, bool utf8, FILE *out) {
    const PieceType *pt = &v->types[d->type];
    char buf[1024];
    fprintf(out, "%s (letter %c", pt->name, pt->letter);
    if (utf8 && pt->symbol[0][0])
        fprintf(out, ", shown %s%s%s", pt->symbol[0], v->nplayers > 1 && pt->symbol[1][0] ? " / " : "",
                v->nplayers > 1 ? pt->symbol[1] : "");
    if (pt->value) fprintf(out, ", value %d.%02d", pt->value / 100, pt->value % 100);
    if (pt->worth) fprintf(out, ", worth %d", pt->worth);
    fprintf(out, ")%s\n", pt->royal ? ": royal (losing it loses the game; it must not be left attacked)" : "");
    static const struct {
        uint8_t mask, kind;
        const char *what;
    } lines[] = {
        {MARK_MOVE | MARK_CAPTURE, MARK_MOVE | MARK_CAPTURE, "moves or captures"},
        {MARK_MOVE | MARK_CAPTURE, MARK_MOVE, "moves (never capturing)"},
        {MARK_MOVE | MARK_CAPTURE, MARK_CAPTURE, "captures only"},
        {MARK_FIRST, MARK_FIRST, "first move only"},
    };
    for (size_t i = 0; i < ARRAY_LEN(lines); i++) {
        reach_words(v, d, lines[i].mask, lines[i].kind, buf, sizeof buf);
        if (buf[0]) fprintf(out, "  %s: %s\n", lines[i].what, buf);
    }
    int hops = count_marks(v, d, MARK_HOP), remote = count_marks(v, d, MARK_REMOTE),
        drops = count_marks(v, d, MARK_DROP);
    if (hops) fprintf(out, "  reaches %d cells over a piece in between (^)\n", hops);
    if (remote) fprintf(out, "  captures without landing on the victim: enemies on %d cells (#)\n", remote);
    if (drops) fprintf(out, "  may be dropped on %d cells (+)\n", drops);
    /* captures made by moving, as the attack test knows them (an imitator's are its victims') */
    const PieceProgram *pp = &pt->per_owner[0];
    uint8_t said = 0;
    for (int i = 0; i < pp->npatterns && !((v->imitator_mask >> d->type) & 1); i++) {
        int m = pp->patterns[i].method;
        if (said >> m & 1) continue;
        said |= (uint8_t)(1u << m);
        static const char *const how[] = {
            [CAP_WITHDRAW] = "captures the enemy next to it by moving straight away from it",
            [CAP_PINCER] =
                "captures an enemy next to where it lands when a friendly piece stands just beyond that enemy",
            [CAP_COORDINATE] =
                "captures the enemies on the two cells where its row and column cross its royal piece's column and row",
            [CAP_LEAP] = "captures the enemies it leaps over",
            [CAP_LEGS] = NULL,
        };
        if (m < (int)ARRAY_LEN(how) && how[m]) fprintf(out, "  %s\n", how[m]);
    }
    if ((v->freezer_mask >> d->type) & 1) fprintf(out, "  freezes the enemy pieces next to it: they cannot move\n");
    if ((v->imitator_mask >> d->type) & 1) fprintf(out, "  captures each enemy the way that enemy captures\n");
    if (pt->influence) fprintf(out, "  influence %d over the steered armies' pieces it reaches\n", pt->influence);
    if (pt->sets_ep) fprintf(out, "  its multi-step moves may be taken en passant\n");
    if (pt->mine_proof) fprintf(out, "  never sets off an enemy mine\n");
    if (d->promotes_to) {
        fprintf(out, "  promotes to");
        for (int t = 0; t < v->ntypes; t++)
            if (d->promotes_to >> t & 1) fprintf(out, " %s", v->types[t].name);
        fprintf(out, "\n");
    }
    if (!count_marks(v, d, 0xFF)) fprintf(out, "  never moves by itself\n");
    if (d->needs_example && !d->example.found) fprintf(out, "  its captures depend on other pieces\n");
}

/* name with its first letter in upper case. */
static void capitalised(const char *name, char *buf, size_t cap) {
    snprintf(buf, cap, "%s", name);
    if (buf[0] >= 'a' && buf[0] <= 'z') buf[0] = (char)(buf[0] - 'a' + 'A');
}

static void kinds_words(const Variant *v, uint32_t kinds, char *buf, size_t cap);

static void zone_name_of(const Variant *v, int zone, char *buf, size_t cap) {
    snprintf(buf, cap, "'%s'", zone >= 0 && zone < v->nzones ? v->zones[zone].name : "?");
}

static void write_overview(const Variant *v, const Position *start, FILE *out) {
    fprintf(out, "%s\n", v->title ? v->title : "untitled game");
    for (size_t i = 0, n = strlen(v->title ? v->title : "untitled game"); i < n; i++) fputc('=', out);
    fprintf(out, "\n\nBoard%s:", v->nboards > 1 ? "s" : "");
    for (int b = 0; b < v->nboards; b++) {
        const Board *bd = &v->boards[b];
        int holes = bd->width * bd->height - bd->count;
        fprintf(out, "%s %s%s%s%dx%d", b ? "," : "", bd->title[0] ? bd->title : "", bd->title[0] ? " " : "",
                v->nboards > 1 ? bd->name : "", bd->width, bd->height);
        if (holes > 0) fprintf(out, " (%d holes)", holes);
    }
    fprintf(out, "\nPlayers:");
    for (int p = 0; p < v->nplayers; p++) {
        char name[20];
        capitalised(v->player_names[p], name, sizeof name);
        fprintf(out, "%s %s (%s)", p ? "," : "", name, v->player_token[p]);
    }
    fprintf(out, "\n");
    if (v->nowners > v->nplayers) {
        fprintf(out, "Armies no player owns:");
        for (int o = v->nplayers; o < v->nowners; o++)
            fprintf(out, "%s %s", o > v->nplayers ? "," : "", v->player_names[o]);
        fprintf(out, "\n");
    }
    bool plain = v->nturns == v->nplayers;
    for (int t = 0; t < v->nturns && plain; t++) plain = v->turn_order[t] == t;
    fprintf(out, "Turns:");
    for (int t = 0; t < v->nturns; t++) {
        char who[20];
        capitalised(v->player_names[v->turn_order[t]], who, sizeof who);
        fprintf(out, "%s %s", t ? "," : "", who);
    }
    fprintf(out, "%s\n", plain ? ", in turn" : ", then again from the start");
    if (v->nprelude) {
        fprintf(out, "Set-up before the first turn:\n");
        for (int k = 0; k < v->nprelude; k++) {
            const PreludeStep *s = &v->prelude[k];
            char who[20];
            capitalised(v->player_names[s->player], who, sizeof who);
            fprintf(out, "  %d. %s makes %d move%s of kind '%s'\n", k + 1, who, s->moves, s->moves == 1 ? "" : "s",
                    v->kind_names[s->kind]);
        }
    }
    if (v->nphases) {
        fprintf(out, "Each turn is made of phases, in order:\n");
        for (int i = 0; i < v->nphases; i++) {
            const PhaseDef *ph = &v->phases[i];
            char kinds[160];
            kinds_words(v, ph->kinds, kinds, sizeof kinds);
            fprintf(out, "  %s: ", ph->name);
            if (ph->max == 0 && ph->min == 0)
                fprintf(out, "any number of");
            else if (ph->max == 0)
                fprintf(out, "at least %d", ph->min);
            else if (ph->min == ph->max)
                fprintf(out, "exactly %d", ph->min);
            else
                fprintf(out, "%d to %d", ph->min, ph->max);
            fprintf(out, " move%s of kind %s\n", ph->max == 1 ? "" : "s", kinds);
        }
    }
    char fen[4096];
    fen_write(start, fen, sizeof fen);
    fprintf(out, "Start position: %s\n", fen);
    for (int i = 0; i < v->nshuffles; i++) {
        char z[40];
        zone_name_of(v, v->shuffle_zones[i], z, sizeof z);
        fprintf(out, "At the start each player's pieces in zone %s are shuffled.\n", z);
    }
    for (int i = 0; i < v->noptions; i++) {
        const OptionDef *op = &v->options[i];
        fprintf(out, "Option %s:", op->name);
        for (int k = 0; k < op->nvalues; k++) fprintf(out, " %s%s", op->values[k], k == op->value ? " (chosen)" : "");
        fprintf(out, "\n");
    }
}

static void write_special(const Variant *v, const Position *start, const PieceDiagram *diagrams, FILE *out) {
    fprintf(out, "\nSpecial rules\n-------------\n");
    int n = 0;
    for (int i = 0; i < v->ncastles; i++) {
        const Castle *c = &v->castles[i];
        char who[20];
        capitalised(v->player_names[c->owner], who, sizeof who);
        /* (a privilege names only its piece's cell; a free castle's start cells are the
         * position's own) */
        if (c->privilege) {
            Piece k = c->king_from != NO_CELL ? start->cell[c->king_from] : 0;
            fprintf(out, "- First-move right (%s): held by %s on %s while it stays there\n", who,
                    k ? v->types[PIECE_TYPE(k)].name : "the piece",
                    c->king_from != NO_CELL ? v->cells[c->king_from].name : "its cell");
            n++;
            continue;
        }
        if (c->free || c->king_from == NO_CELL || c->rook_from == NO_CELL) {
            fprintf(out, "- Castling (%s): %s to %s with %s to %s, from where they stand, when neither has moved\n",
                    who, c->king_type != NO_TYPE ? v->types[c->king_type].name : "the piece",
                    c->king_to != NO_CELL ? v->cells[c->king_to].name : "?",
                    c->rook_type != NO_TYPE ? v->types[c->rook_type].name : "the piece",
                    c->rook_to != NO_CELL ? v->cells[c->rook_to].name : "?");
            n++;
            continue;
        }
        Piece k = start->cell[c->king_from], r = start->cell[c->rook_from];
        fprintf(out, "- Castling (%s): %s %s-%s with %s %s-%s, when neither has moved\n", who,
                k ? v->types[PIECE_TYPE(k)].name : "the piece", v->cells[c->king_from].name, v->cells[c->king_to].name,
                r ? v->types[PIECE_TYPE(r)].name : "the piece", v->cells[c->rook_from].name, v->cells[c->rook_to].name);
        n++;
    }
    for (int s = 1; s < v->npromos; s++) {
        const PromoSet *ps = &v->promos[s];
        char z[40], from[40];
        zone_name_of(v, ps->zone, z, sizeof z);
        zone_name_of(v, ps->from_zone, from, sizeof from);
        fprintf(out, "- Promotion:");
        for (int t = 0; t < v->ntypes; t++)
            if (diagrams[t].promo_sets >> s & 1) fprintf(out, " %s", v->types[t].name);
        if (ps->zone != NO_ZONE) fprintf(out, " ending a move in zone %s%s", z, ps->from_zone != NO_ZONE ? " or" : "");
        if (ps->from_zone != NO_ZONE) fprintf(out, " starting a move in zone %s", from);
        fprintf(out, "%s becomes%s", ps->on_capture ? " by a capture" : "", ps->optional ? " (or stays)" : "");
        for (int k = 0; k < ps->count; k++) fprintf(out, "%s %s", k ? "," : "", v->types[ps->types[k]].name);
        fprintf(out, "\n");
        n++;
    }
    for (int t = 0; t < v->ntypes; t++)
        if (v->types[t].sets_ep) {
            fprintf(out, "- En passant: a %s passing over cells leaves them to be captured on for the next move\n",
                    v->types[t].name);
            n++;
        }
    if (v->steered) {
        fprintf(out, "- Steering: the pieces of");
        for (int o = 0; o < v->nowners; o++)
            if (v->steered >> o & 1) fprintf(out, " %s", v->player_names[o]);
        fprintf(out, " are moved by the player with the greater influence over their cell%s\n",
                v->steer_copy ? "; the influencing piece may copy the move" : "");
        n++;
    }
    if (v->has_allegiance)
        fprintf(out, "- Allegiance: each player answers for an army%s\n",
                v->allegiance_random ? ", dealt at random" : ""),
            n++;
    for (int i = 0; i < v->ncounters; i++) {
        const CounterDef *c = &v->counters[i];
        fprintf(out, "- Counter '%s'%s, starting at %d%s\n", c->name, c->per_player ? " per player" : "", c->initial,
                v->capture_reward == i + 1 ? "; a capture adds the captured piece's worth" : "");
        n++;
    }
    for (int i = 0; i < v->nextra; i++) {
        const ExtraCapture *e = &v->extra[i];
        fprintf(out, "- '%s': an enemy that %d or more pieces could capture may be %s\n", v->kind_names[e->kind],
                e->attackers, e->remote ? "removed with nothing moving" : "captured by any of them");
        n++;
    }
    for (int i = 0; i < v->npiles; i++) {
        const PileDef *p = &v->piles[i];
        fprintf(out, "- Cards: pile '%s'%s%s, starting with", p->name, p->per_player ? " per player" : "",
                p->sorted ? " (kept sorted)" : "");
        for (int k = 0; k < p->ninit; k++) fprintf(out, " %d", p->init[k]);
        fprintf(out, "%s\n", p->ninit ? "" : " none");
        n++;
    }
    for (int i = 0; i < v->ndraws; i++) {
        const CardRule *c = &v->draws[i];
        fprintf(out, "- A move of kind '%s' takes %d card%s from %s'%s' into '%s'\n", v->kind_names[c->kind],
                c->count ? c->count : 1, c->count > 1 ? "s" : "", c->own ? "the mover's own " : "",
                v->piles[c->from].name, v->piles[c->to].name);
        n++;
    }
    for (int i = 0; i < v->npays; i++) {
        const CardRule *c = &v->pays[i];
        fprintf(out,
                "- A move of kind '%s' costs the piece's worth in cards from '%s', paid onto '%s' by the next move\n",
                v->kind_names[c->kind], v->piles[c->from].name, v->piles[c->to].name);
        n++;
    }
    if (v->minefield_zone) {
        char z[40];
        zone_name_of(v, v->minefield_zone - 1, z, sizeof z);
        fprintf(out,
                "- Mines: each player's part of zone %s starts covered with its tiles; '%s' moves mark %d of them as "
                "mines, hidden from the others; an enemy mine destroys a piece landing on it\n",
                z, v->kind_names[v->mine_kind], v->mines);
        n++;
    }
    if (!n) fprintf(out, "None.\n");
}

/* `end counting`: when a count starts and how long it runs. */
static void write_counting(const Variant *v, FILE *out) {
    const CountingRule *cr = &v->counting;
    const char *result = cr->result == RESULT_DRAW ? "the game is drawn" : result_words(cr->result);
    fprintf(out, "- Counting: a count of moves (of both players) starts by itself; when it runs out %s.", result);
    if (cr->pawns) {
        fprintf(out, " No count starts while any");
        for (int t = 0, k = 0; t < v->ntypes; t++)
            if (cr->pawns >> t & 1) fprintf(out, "%s %s", k++ ? " or" : "", v->types[t].name);
        fprintf(out, " stands on the board.");
    }
    if (cr->board_moves) fprintf(out, " Board's honour: once none is left, %d moves.", cr->board_moves);
    if (cr->nlines) {
        fprintf(out, " Pieces' honour: a side left with its king alone has the other mate within");
        for (int i = 0; i < cr->nlines; i++) {
            const CountingLine *line = &cr->lines[i];
            fprintf(out, "%s %d moves", i ? ";" : "", line->moves);
            int k = 0;
            for (int t = 0; t < v->ntypes; t++)
                for (int j = 0; j < line->need[t]; j++) fprintf(out, "%s %s", k++ ? " and" : " with", v->types[t].name);
            if (!k) fprintf(out, " with other material");
        }
        fprintf(out, "%s.", cr->start_pieces ? ", counted from the number of pieces on the board" : "");
    }
    fprintf(out, "\n");
}

static void write_endings(const Variant *v, FILE *out) {
    fprintf(out, "\nHow the game ends\n-----------------\n");
    if (v->has_royal && v->forbid_royal_capture)
        fprintf(out, "- A move may not leave the mover's royal piece where it could be captured.\n");
    char mate[32], stale[32];
    capitalised(v->end_name[0][0] ? v->end_name[0] : "checkmate", mate, sizeof mate);
    capitalised(v->end_name[1][0] ? v->end_name[1] : "stalemate", stale, sizeof stale);
    if (v->on_checkmate != RESULT_NONE)
        fprintf(out, "- %s: the player to move has no legal move and is in check: it %s.\n", mate,
                result_words(v->on_checkmate));
    if (v->on_stalemate != RESULT_NONE)
        fprintf(out, "- %s: the player to move has no legal move and is not in check: it %s.\n", stale,
                result_words(v->on_stalemate));
    if (v->repetition)
        fprintf(out, "- The same position %d times: the player to move %s.\n", v->repetition,
                result_words(v->on_repetition));
    if (v->nmove) {
        fprintf(out, "- %d moves each without a capture or a move of", v->nmove);
        int k = 0;
        for (int t = 0; t < v->ntypes; t++)
            if (v->types[t].resets_nmove) fprintf(out, "%s %s", k++ ? "," : "", v->types[t].name);
        if (!k) fprintf(out, " a piece that resets it");
        fprintf(out, ": the player to move %s.\n", result_words(v->on_nmove));
    }
    for (int i = 0; i < v->nmaterial; i++) {
        const MaterialRule *r = &v->material[i];
        fprintf(out, "- Only");
        for (int side = 0; side < 2; side++) {
            const uint8_t *cnt = side ? r->b : r->a;
            int k = 0;
            fprintf(out, "%s", side ? " against" : "");
            for (int t = 0; t < v->ntypes; t++)
                for (int j = 0; j < cnt[t]; j++) fprintf(out, "%s %s", k++ ? " and" : "", v->types[t].name);
        }
        fprintf(out, "%s left: the game %s.\n", r->same_colour ? " (all on one square colour)" : "",
                v->on_material == RESULT_DRAW ? "is drawn" : result_words(v->on_material));
    }
    if (v->counting.on) write_counting(v, out);
    for (int i = 0; i < v->nforced; i++) {
        const ForcedCapture *f = &v->forced[i];
        char z[40];
        zone_name_of(v, f->zone, z, sizeof z);
        fprintf(out, "- A %s reaching its zone %s must be captured at once; if it cannot be, the player to move %s.\n",
                v->types[f->type].name, z, result_words(f->result));
    }
    if (v->empty_pile) {
        const PileDef *p = &v->piles[v->empty_pile - 1];
        char name[32];
        capitalised(v->end_name[2][0] ? v->end_name[2] : "empty pile", name, sizeof name);
        fprintf(out, "- %s: %s'%s' %s empty: the player to move %s.\n", name, p->per_player ? "every player's " : "",
                p->name, p->per_player ? "pile is" : "is", result_words(v->on_empty));
    }
    for (int i = 0; i < v->nextinctions; i++) {
        const ExtinctionRule *e = &v->extinctions[i];
        char name[40];
        capitalised(e->name[0] ? e->name : "extinction", name, sizeof name);
        fprintf(out, "- %s: a side with at most %d ", name, e->at_most);
        if (!e->types) fprintf(out, "pieces");
        for (int t = 0, k = 0; t < v->ntypes; t++)
            if (e->types >> t & 1) fprintf(out, "%s%s", k++ ? " or " : "", v->types[t].name);
        if (e->rival_at_least)
            fprintf(out, " left, while the other side holds at least %d of them,", e->rival_at_least);
        else
            fprintf(out, " left");
        fprintf(out, " %s.\n", result_words(e->result));
    }
    for (int i = 0; i < v->nreaches; i++) {
        const ReachRule *r = &v->reaches[i];
        char name[40], z[40];
        capitalised(r->name[0] ? r->name : "reaching the zone", name, sizeof name);
        zone_name_of(v, r->zone, z, sizeof z);
        fprintf(out, "- %s: a side with a %s in its part of zone %s %s%s.\n", name, v->types[r->type].name, z,
                result_words(r->result),
                r->reply             ? ", if it still stands there after the other side's answer"
                    : r->last_chance ? ", unless the other side's answer can draw by reaching too"
                                     : "");
    }
    if (v->on_bare_king != RESULT_NONE) {
        char name[40];
        capitalised(v->bare_king_name[0] ? v->bare_king_name : "bare king", name, sizeof name);
        fprintf(out, "- %s: a side left with nothing but its royal piece %s%s.\n", name, result_words(v->on_bare_king),
                v->bare_king_reply ? " (it moves once more: baring the other king too draws)" : "");
    }
    if (v->check_limit) {
        char name[40];
        capitalised(v->checks_name[0] ? v->checks_name : "checks", name, sizeof name);
        fprintf(out, "- %s: a side that has given check %d times %s.\n", name, v->check_limit,
                result_words(v->on_checks));
    }
    if (v->on_blocked != RESULT_NONE) {
        char name[40];
        capitalised(v->blocked_name[0] ? v->blocked_name : "piece count", name, sizeof name);
        fprintf(out, "- %s: when neither player can move, the one with more pieces %s (equal numbers draw).\n", name,
                result_words(v->on_blocked));
    }
    if (v->nplayers == 2 && v->has_royal && (!v->forbid_royal_capture || v->blast_mask)) {
        char name[40];
        capitalised(v->royal_name[0] ? v->royal_name : "royal captured", name, sizeof name);
        fprintf(out, "- %s: a side whose last royal piece is %s %s.\n", name,
                v->blast_mask ? "captured or blown up" : "captured",
                result_words(v->on_royal_captured != RESULT_NONE ? v->on_royal_captured : RESULT_LOSS));
    }
    if (v->pieces_limit) {
        char name[40];
        capitalised(v->pieces_name[0] ? v->pieces_name : "pieces left", name, sizeof name);
        if (v->pieces_limit == 1)
            fprintf(out, "- %s: a side left with no pieces %s.\n", name, result_words(v->on_pieces));
        else
            fprintf(out, "- %s: a side left with at most %d piece%s %s.\n", name, v->pieces_limit - 1,
                    v->pieces_limit == 2 ? "" : "s", result_words(v->on_pieces));
    }
    if (v->forbid_check) fprintf(out, "- No move may give check.\n");
    if (v->nplayers > 2)
        fprintf(out, "- A defeated player is out; its pieces %s.\n",
                v->on_defeat == DEFEAT_REMOVE     ? "are removed"
                    : v->on_defeat == DEFEAT_STAY ? "stay where they are"
                                                  : "join the victor's army");
}

/* The kinds (bit per kind) in words: "'place'", "'bonus' or 'normal'". */
static void kinds_words(const Variant *v, uint32_t kinds, char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < v->nkinds && n < cap; k++)
        if (kinds >> k & 1) n += (size_t)snprintf(buf + n, cap - n, "%s'%s'", n ? " or " : "", v->kind_names[k]);
}

void describe_step(const Position *pos, char *buf, size_t cap) {
    const Variant *v = pos->v;
    char kinds[160];
    buf[0] = 0;
    if (pos->prelude < v->nprelude) {
        const PreludeStep *st = &v->prelude[pos->prelude];
        int left = st->moves - pos->prelude_moves;
        kinds_words(v, 1u << st->kind, kinds, sizeof kinds);
        char who[20];
        capitalised(v->player_names[st->player], who, sizeof who);
        size_t n = (size_t)snprintf(buf, cap, "set-up step %d of %d: %s makes %d more move%s of kind %s",
                                    pos->prelude + 1, v->nprelude, who, left, left == 1 ? "" : "s", kinds);
        if (v->minefield_zone && st->kind == v->mine_kind && n < cap)
            n +=
                (size_t)snprintf(buf + n, cap - n, " (each marks one of its tiles as a mine, in ascending cell order)");
        for (int i = 0; i < v->ndraws && n < cap; i++)
            if (v->draws[i].kind == st->kind)
                n += (size_t)snprintf(buf + n, cap - n, " (each moves a card from %s'%s' to '%s')",
                                      v->draws[i].own ? "its own " : "", v->piles[v->draws[i].from].name,
                                      v->piles[v->draws[i].to].name);
        return;
    }
    if (!v->nphases) return;
    const PhaseDef *ph = &v->phases[pos->phase];
    kinds_words(v, ph->kinds, kinds, sizeof kinds);
    int made = pos->phase_moves;
    if (ph->max && made >= ph->max)
        snprintf(buf, cap, "phase '%s' is done: the turn moves on", ph->name);
    else if (made < ph->min)
        snprintf(buf, cap, "phase '%s': %d more move%s of kind %s", ph->name, ph->min - made,
                 ph->min - made == 1 ? "" : "s", kinds);
    else if (ph->max)
        snprintf(buf, cap, "phase '%s': up to %d more move%s of kind %s, or go on to the next phase", ph->name,
                 ph->max - made, ph->max - made == 1 ? "" : "s", kinds);
    else
        snprintf(buf, cap, "phase '%s': any number of moves of kind %s, or go on to the next phase", ph->name, kinds);
}

/* ---- text diagrams -------------------------------------------------------------------------- */

static const char *mark_text(uint8_t m) {
    if (m & MARK_REMOTE) return "#";
    if (m & MARK_HOP) return "^";
    if ((m & (MARK_MOVE | MARK_CAPTURE)) == (MARK_MOVE | MARK_CAPTURE)) return "*";
    if (m & MARK_MOVE) return "o";
    if (m & MARK_CAPTURE) return "x";
    if (m & MARK_FIRST) return "1";
    if (m & MARK_HOP) return "^";
    if (m & MARK_DROP) return "+";
    return NULL;
}

static const char *mark_colour(uint8_t m) {
    if (m & MARK_REMOTE) return "\033[1;31m";
    if (m & MARK_HOP) return "\033[1;35m";
    if ((m & (MARK_MOVE | MARK_CAPTURE)) == (MARK_MOVE | MARK_CAPTURE)) return "\033[1;33m";
    if (m & MARK_MOVE) return "\033[1;32m";
    if (m & MARK_CAPTURE) return "\033[1;31m";
    if (m & MARK_FIRST) return "\033[1;36m";
    if (m & MARK_HOP) return "\033[1;35m";
    return "\033[1;34m";
}

/* A piece as the console shows it: the glyph, or the letter in the owner's case (with the
 * owner's number from the third player on, or its token first for armies no player owns). */
static void piece_glyph(const Variant *v, Piece p, const DescribeStyle *st, char *buf, size_t cap) {
    const PieceType *pt = &v->types[PIECE_TYPE(p)];
    int owner = PIECE_OWNER(p);
    if (v->nowners > v->nplayers)
        snprintf(buf, cap, "%c%c", v->player_token[owner][0], pt->letter);
    else if (st->utf8 && pt->symbol[owner][0] && (owner < 2 || st->colour))
        snprintf(buf, cap, "%s", pt->symbol[owner]);
    else if (owner == 0)
        snprintf(buf, cap, "%c", pt->letter);
    else if (owner == 1)
        snprintf(buf, cap, "%c", pt->letter - 'A' + 'a');
    else
        snprintf(buf, cap, "%c%d", pt->letter, owner + 1);
}

typedef struct Lines {
    int n;
    char *line[MAX_BOARD_DIM + 4];
} Lines;

static void lines_free(Lines *l) {
    for (int i = 0; i < l->n; i++) free(l->line[i]);
    l->n = 0;
}

static void append(char **s, size_t *len, const char *add) {
    size_t n = strlen(add);
    *s = xrealloc(*s, *len + n + 1);
    memcpy(*s + *len, add, n + 1);
    *len += n;
}

/* Board b as lines of 3 columns a cell (3 more each side for the labels). */
static void board_lines(const Variant *v, int b, const Piece *cells, const uint8_t *marks, Cell hl1, Cell hl2,
                        const DescribeStyle *st, Lines *out) {
    const Board *bd = &v->boards[b];
    out->n = 0;
    char buf[96];
    char *s = NULL;
    size_t len = 0;
    snprintf(buf, sizeof buf, "%-*.*s", 3 * bd->width + 6, 3 * bd->width + 6, v->nboards > 1 ? bd->name : "");
    if (v->nboards > 1) {
        append(&s, &len, buf);
        out->line[out->n++] = s;
        s = NULL, len = 0;
    }
    append(&s, &len, "   ");
    for (int x = 0; x < bd->width; x++) {
        char file[8] = "";
        for (int y = 0; y < bd->height && !file[0]; y++)
            if (bd->at[y][x] != NO_CELL) {
                const char *name = strrchr(v->cells[bd->at[y][x]].name, ':');
                name = name ? name + 1 : v->cells[bd->at[y][x]].name;
                size_t k = strcspn(name, "0123456789");
                snprintf(file, sizeof file, "%.*s", (int)(k < 2 ? k : 2), name);
            }
        snprintf(buf, sizeof buf, " %-2s", file);
        append(&s, &len, buf);
    }
    append(&s, &len, "   ");
    char *files = xstrdup(s);
    out->line[out->n++] = s;
    for (int r = 0; r < bd->height; r++) {
        int y = bd->height - 1 - r;
        s = NULL, len = 0;
        snprintf(buf, sizeof buf, "%2d ", y + 1);
        append(&s, &len, buf);
        for (int x = 0; x < bd->width; x++) {
            Cell c = bd->at[y][x];
            if (c == NO_CELL) {
                append(&s, &len, "   ");
                continue;
            }
            char g[16] = "";
            const char *fg = "";
            if (cells[c]) {
                piece_glyph(v, cells[c], st, g, sizeof g);
                static const char *const owner_fg[] = {"\033[1;97m", "\033[1;30m", "\033[1;31m", "\033[1;34m",
                                                       "\033[1;32m", "\033[1;35m", "\033[1;36m", "\033[1;33m"};
                fg = owner_fg[PIECE_OWNER(cells[c]) & 7];
            } else if (marks && mark_text(marks[c])) {
                snprintf(g, sizeof g, "%s", mark_text(marks[c]));
                fg = mark_colour(marks[c]);
            } else
                snprintf(g, sizeof g, "%s", st->colour ? " " : ".");
            bool two = strlen(g) == 2 && (unsigned char)g[0] < 0x80;
            bool hl = c == hl1 || c == hl2;
            if (st->colour) {
                static const char *const bg[2][2] = {{"\033[48;5;137m", "\033[48;5;180m"},
                                                     {"\033[48;5;101m", "\033[48;5;143m"}};
                snprintf(buf, sizeof buf, "%s%s %s%s\033[0m", bg[hl][v->colour[c] ? 1 : 0], fg, g, two ? "" : " ");
            } else
                snprintf(buf, sizeof buf, "%c%s%s", hl ? '[' : ' ', g, two ? "" : hl ? "]" : " ");
            append(&s, &len, buf);
        }
        snprintf(buf, sizeof buf, " %-2d", y + 1);
        append(&s, &len, buf);
        out->line[out->n++] = s;
    }
    out->line[out->n++] = files;
}

/* Every board side by side, as lines (the caller frees them). */
static int boards_lines(const Variant *v, const Piece *cells, const uint8_t *marks, Cell hl1, Cell hl2,
                        const DescribeStyle *st, char **rows_out) {
    Lines all[MAX_BOARDS];
    int rows = 0;
    for (int b = 0; b < v->nboards; b++) {
        board_lines(v, b, cells, marks, hl1, hl2, st, &all[b]);
        if (all[b].n > rows) rows = all[b].n;
    }
    for (int r = 0; r < rows; r++) {
        char *s = NULL;
        size_t len = 0;
        append(&s, &len, "");
        for (int b = 0; b < v->nboards; b++) {
            char pad[128];
            int w = 3 * v->boards[b].width + 6;
            snprintf(pad, sizeof pad, "%*s", w, "");
            append(&s, &len, r < all[b].n ? all[b].line[r] : pad);
            if (b + 1 < v->nboards) append(&s, &len, "   ");
        }
        rows_out[r] = s;
    }
    for (int b = 0; b < v->nboards; b++) lines_free(&all[b]);
    return rows;
}

static void print_boards(const Variant *v, const Piece *cells, const uint8_t *marks, Cell hl1, Cell hl2,
                         const DescribeStyle *st, FILE *out) {
    char *rows[MAX_BOARD_DIM + 4];
    int n = boards_lines(v, cells, marks, hl1, hl2, st, rows);
    for (int r = 0; r < n; r++) {
        fprintf(out, "%s\n", rows[r]);
        free(rows[r]);
    }
}

/* An example: the position before and after, side by side when there is one board. */
static void print_example(const Variant *v, const DescribeExample *ex, const DescribeStyle *st, FILE *out) {
    if (v->nboards > 1) {
        print_boards(v, ex->before, NULL, ex->from, ex->to, st, out);
        fprintf(out, "  after %s:\n", ex->move);
        print_boards(v, ex->after, NULL, ex->from, ex->to, st, out);
        return;
    }
    char *before[MAX_BOARD_DIM + 4], *after[MAX_BOARD_DIM + 4];
    int n = boards_lines(v, ex->before, NULL, ex->from, ex->to, st, before);
    boards_lines(v, ex->after, NULL, ex->from, ex->to, st, after);
    for (int r = 0; r < n; r++) {
        fprintf(out, "%s %s %s\n", before[r], r == n / 2 ? "=>" : "  ", after[r]);
        free(before[r]);
        free(after[r]);
    }
}

static void print_legend(const Variant *v, const PieceDiagram *d, FILE *out) {
    static const struct {
        uint8_t bit;
        const char *text;
    } legend[] = {
        {MARK_MOVE, "o moves there"},
        {MARK_CAPTURE, "x captures there"},
        {MARK_FIRST, "1 first move only"},
        {MARK_HOP, "^ reached over a piece in between"},
        {MARK_REMOTE, "# captures an enemy there without landing on it"},
        {MARK_DROP, "+ dropped there"},
    };
    fprintf(out, "  ");
    bool shown[256] = {0};
    for (int c = 0; c < v->ncells; c++) {
        const char *t = mark_text(d->mark[c]);
        if (t) shown[(unsigned char)t[0]] = true;
    }
    if (shown['*']) fprintf(out, "* moves or captures there   ");
    for (size_t i = 0; i < ARRAY_LEN(legend); i++)
        if (shown[(unsigned char)legend[i].text[0]]) fprintf(out, "%s   ", legend[i].text);
    fprintf(out, "\n");
}

static void print_piece(const Variant *v, const PieceDiagram *d, const DescribeStyle *st, FILE *out) {
    piece_words(v, d, st->utf8, out);
    Piece cells[MAX_CELLS] = {0};
    cells[d->origin] = PIECE_MAKE(d->type, 0);
    print_boards(v, cells, d->mark, NO_CELL, NO_CELL, st, out);
    print_legend(v, d, out);
    if (d->example.found) {
        fprintf(out, "  example, its captures depend on other pieces: %s (before and after)\n", d->example.move);
        print_example(v, &d->example, st, out);
    }
}

static void start_position(const Variant *v, Position *pos) {
    char text[4096], err[200];
    board_init(pos, v);
    fen_start(v, 1, text, sizeof text);
    if (!fen_read(pos, text, err, sizeof err)) board_clear(pos);
}

void describe_piece_text(const Variant *v, int type, const DescribeStyle *style, FILE *out) {
    PieceDiagram *d = xmalloc(sizeof *d);
    describe_piece(v, type, d);
    print_piece(v, d, style, out);
    free(d);
}

void describe_text(const Variant *v, const DescribeStyle *style, FILE *out) { describe_game_text(v, NULL, style, out); }

void describe_game_text(const Variant *v, const char *start_text, const DescribeStyle *style, FILE *out) {
    Position *start = xmalloc(sizeof *start);
    start_position(v, start);
    char err[200];
    if (start_text) fen_read(start, start_text, err, sizeof err); /* (unchanged when it is bad) */
    PieceDiagram *d = xcalloc((size_t)v->ntypes, sizeof *d);
    all_diagrams(v, d);
    write_overview(v, start, out);
    fprintf(out, "\n");
    print_boards(v, start->cell, NULL, NO_CELL, NO_CELL, style, out);
    fprintf(out, "\nPieces (each alone on an empty board, as the first player's)\n------\n");
    for (int t = 0; t < v->ntypes; t++) {
        fprintf(out, "\n");
        print_piece(v, &d[t], style, out);
    }
    write_special(v, start, d, out);
    write_endings(v, out);
    free(d);
    board_free(start);
    free(start);
}

/* ---- SVG ------------------------------------------------------------------------------------ */

static void xml_text(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

/* The size of a panel: every board side by side, with labels around and a caption above. */
static void panel_size(const Variant *v, int *w, int *h) {
    *w = 0, *h = 0;
    for (int b = 0; b < v->nboards; b++) {
        *w += v->boards[b].width * SVG_CELL + 2 * SVG_MARGIN;
        int bh = v->boards[b].height * SVG_CELL + 2 * SVG_MARGIN;
        if (bh > *h) *h = bh;
    }
    *h += 24; /* caption */
}

static void svg_mark(FILE *f, uint8_t m, int x, int y) {
    int cx = x + SVG_CELL / 2, cy = y + SVG_CELL / 2;
    if ((m & MARK_HOP) && (m & MARK_MOVE)) {
        /* both: the dot to the left, the triangle to the right */
        fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"6\" fill=\"#2e8b2e\"/>\n", cx - 9, cy);
        fprintf(f, "<polygon points=\"%d,%d %d,%d %d,%d\" fill=\"#e07800\"/>\n", cx + 8, cy - 8, cx + 1, cy + 6,
                cx + 15, cy + 6);
        m &= (uint8_t) ~(MARK_HOP | MARK_MOVE);
    }
    if (m & MARK_MOVE) fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"#2e8b2e\"/>\n", cx, cy);
    if (m & MARK_CAPTURE)
        fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"15\" fill=\"none\" stroke=\"#c81e1e\" stroke-width=\"3\"/>\n", cx,
                cy);
    if ((m & MARK_FIRST) && !(m & MARK_MOVE))
        fprintf(f,
                "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"#1e64c8\"/><text x=\"%d\" y=\"%d\" font-size=\"9\" "
                "text-anchor=\"middle\" fill=\"#fff\" font-family=\"sans-serif\">1</text>\n",
                cx, cy, cx, cy + 3);
    if (m & MARK_HOP)
        fprintf(f, "<polygon points=\"%d,%d %d,%d %d,%d\" fill=\"#e07800\"/>\n", cx, cy - 9, cx - 8, cy + 6, cx + 8,
                cy + 6);
    if (m & MARK_REMOTE)
        fprintf(f, "<path d=\"M%d %d L%d %d M%d %d L%d %d\" stroke=\"#c81e1e\" stroke-width=\"4\"/>\n", cx - 10,
                cy - 10, cx + 10, cy + 10, cx - 10, cy + 10, cx + 10, cy - 10);
    if (m & MARK_DROP)
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"#8a2be2\"/>\n", cx - 6, cy - 6);
}

/* An owner's colour: the one its name says (a player called red is drawn red), else one of a
 * fixed list by its number. */
static const char *owner_colour(const Variant *v, int owner) {
    static const char *const by_number[] = {"#ffffff", "#202020", "#c81e1e", "#1e50c8",
                                            "#1e8c3c", "#8c1e8c", "#1e8c8c", "#c8a01e"};
    static const struct {
        const char *name, *rgb;
    } named[] = {
        {"white", "#ffffff"},  {"black", "#202020"},  {"red", "#c81e1e"},    {"blue", "#1e50c8"},
        {"green", "#1e8c3c"},  {"yellow", "#e6c81e"}, {"purple", "#8c1e8c"}, {"orange", "#e07800"},
        {"silver", "#c8c8c8"}, {"gold", "#d4af37"},
    };
    for (size_t i = 0; i < ARRAY_LEN(named); i++)
        if (!strcasecmp(v->player_names[owner], named[i].name)) return named[i].rgb;
    return by_number[owner & 7];
}

static void svg_piece(FILE *f, const Variant *v, Piece p, int x, int y) {
    const PieceType *pt = &v->types[PIECE_TYPE(p)];
    int owner = PIECE_OWNER(p);
    const char *fill = owner_colour(v, owner);
    bool light =
        !strcmp(fill, "#ffffff") || !strcmp(fill, "#e6c81e") || !strcmp(fill, "#c8c8c8") || !strcmp(fill, "#d4af37");
    int cx = x + SVG_CELL / 2;
    bool glyph =
        pt->symbol[owner][0] && (unsigned char)pt->symbol[owner][0] >= 0x80 && owner < 2 && v->nowners == v->nplayers;
    if (glyph) {
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" font-size=\"32\" text-anchor=\"middle\" fill=\"#000\" "
                "font-family=\"DejaVu Sans, sans-serif\">",
                cx, y + 31);
        xml_text(f, pt->symbol[owner]);
        fprintf(f, "</text>\n");
        /* the letter too: glyphs of different pieces may look alike */
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"9\" fill=\"#444\" font-family=\"sans-serif\">%c</text>\n",
                x + SVG_CELL - 8, y + SVG_CELL - 3, pt->letter);
    } else {
        char g[16];
        DescribeStyle plain = {false, false};
        piece_glyph(v, p, &plain, g, sizeof g);
        fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"15\" fill=\"%s\" stroke=\"#000\" stroke-width=\"1.5\"/>\n", cx,
                y + SVG_CELL / 2, fill);
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" fill=\"%s\" font-weight=\"bold\" "
                "font-family=\"sans-serif\">",
                cx, y + SVG_CELL / 2 + 6, strlen(g) > 1 ? 13 : 17, light ? "#000" : "#fff");
        xml_text(f, g);
        fprintf(f, "</text>\n");
    }
}

/* One panel at (x0, y0): every board with its pieces and marks, the caption above. */
static void svg_panel(FILE *f, const Variant *v, const Piece *cells, const uint8_t *marks, Cell hl1, Cell hl2,
                      const char *caption, int x0, int y0) {
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"15\" font-family=\"sans-serif\">", x0 + SVG_MARGIN, y0 + 17);
    xml_text(f, caption);
    fprintf(f, "</text>\n");
    int bx = x0;
    for (int b = 0; b < v->nboards; b++) {
        const Board *bd = &v->boards[b];
        int top = y0 + 24 + SVG_MARGIN;
        if (v->nboards > 1) {
            fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" font-family=\"sans-serif\">", bx + SVG_MARGIN,
                    top - 6);
            xml_text(f, bd->title[0] ? bd->title : bd->name);
            fprintf(f, "</text>\n");
        }
        for (int y = 0; y < bd->height; y++)
            for (int x = 0; x < bd->width; x++) {
                Cell c = bd->at[y][x];
                int px = bx + SVG_MARGIN + x * SVG_CELL, py = top + (bd->height - 1 - y) * SVG_CELL;
                if (c == NO_CELL) continue;
                const char *colour = (c == hl1 || c == hl2) ? (v->colour[c] ? "#f6f669" : "#baca2b")
                                                            : (v->colour[c] ? "#f0d9b5" : "#b58863");
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", px, py, SVG_CELL,
                        SVG_CELL, colour);
                if (cells[c]) svg_piece(f, v, cells[c], px, py);
                if (marks && marks[c]) svg_mark(f, marks[c], px, py);
            }
        /* labels: each column's file and each row's rank, from any cell of it */
        for (int i = 0; i < bd->width + bd->height; i++) {
            bool column = i < bd->width;
            Cell c = NO_CELL;
            for (int j = 0; j < (column ? bd->height : bd->width) && c == NO_CELL; j++)
                c = column ? bd->at[j][i] : bd->at[i - bd->width][j];
            if (c == NO_CELL) continue;
            const char *name = strrchr(v->cells[c].name, ':');
            name = name ? name + 1 : v->cells[c].name;
            size_t k = strcspn(name, "0123456789");
            int x = column ? bx + SVG_MARGIN + i * SVG_CELL + SVG_CELL / 2 : bx + SVG_MARGIN / 2;
            int y = column ? top + bd->height * SVG_CELL + 15
                           : top + (bd->height - 1 - (i - bd->width)) * SVG_CELL + SVG_CELL / 2 + 4;
            fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" font-family=\"sans-serif\">", x,
                    y);
            if (column)
                fprintf(f, "%.*s</text>\n", (int)k, name);
            else
                fprintf(f, "%s</text>\n", name + k);
        }
        bx += bd->width * SVG_CELL + 2 * SVG_MARGIN;
    }
}

static void svg_open(FILE *f, int w, int h) {
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", w, h, w,
            h);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
}

static void svg_start(FILE *f, const Variant *v, const Position *start) {
    int w, h;
    panel_size(v, &w, &h);
    svg_open(f, w, h);
    svg_panel(f, v, start->cell, NULL, NO_CELL, NO_CELL, v->title ? v->title : "start position", 0, 0);
    fprintf(f, "</svg>\n");
}

static void svg_diagram(FILE *f, const Variant *v, const PieceDiagram *d) {
    static const struct {
        uint8_t bit;
        const char *text;
    } legend[] = {
        {MARK_MOVE, "moves there"},
        {MARK_CAPTURE, "captures there"},
        {MARK_FIRST, "first move only"},
        {MARK_HOP, "over a piece in between"},
        {MARK_REMOTE, "captures an enemy there without landing"},
        {MARK_DROP, "dropped there"},
    };
    int w, h, nlegend = 0;
    panel_size(v, &w, &h);
    for (size_t i = 0; i < ARRAY_LEN(legend); i++) nlegend += count_marks(v, d, legend[i].bit) > 0;
    if (w < 320) w = 320;
    svg_open(f, w, h + 22 * nlegend + 8);
    Piece cells[MAX_CELLS] = {0};
    cells[d->origin] = PIECE_MAKE(d->type, 0);
    svg_panel(f, v, cells, d->mark, NO_CELL, NO_CELL, v->types[d->type].name, 0, 0);
    int y = h;
    for (size_t i = 0; i < ARRAY_LEN(legend); i++) {
        if (!count_marks(v, d, legend[i].bit)) continue;
        svg_mark(f, legend[i].bit, SVG_MARGIN - 8, y - 10);
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"13\" font-family=\"sans-serif\">%s</text>\n", SVG_MARGIN + 36,
                y + 14, legend[i].text);
        y += 22;
    }
    fprintf(f, "</svg>\n");
}

static void svg_example(FILE *f, const Variant *v, const PieceDiagram *d) {
    int w, h;
    panel_size(v, &w, &h);
    svg_open(f, 2 * w, h);
    char caption[128];
    snprintf(caption, sizeof caption, "%s: before %s (victims ringed)", v->types[d->type].name, d->example.move);
    /* the victims: pieces the move takes off the board */
    uint8_t victims[MAX_CELLS] = {0};
    for (int c = 0; c < v->ncells; c++)
        if (d->example.before[c] && !d->example.after[c] && c != d->example.from) victims[c] = MARK_CAPTURE;
    svg_panel(f, v, d->example.before, victims, d->example.from, d->example.to, caption, 0, 0);
    svg_panel(f, v, d->example.after, NULL, d->example.from, d->example.to, "after", w, 0);
    fprintf(f, "</svg>\n");
}

/* A file name part from a piece's name: letters, digits and '-' only. */
static void file_part(const char *name, char *buf, size_t cap) {
    size_t n = 0;
    for (; *name && n + 1 < cap; name++)
        buf[n++] =
            (char)(((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') || (*name >= '0' && *name <= '9'))
                       ? *name
                       : '-');
    buf[n] = 0;
}

static bool write_file(const char *path, char *err, size_t cap, FILE **f) {
    *f = fopen(path, "w");
    if (!*f) snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
    return *f != NULL;
}

static bool close_file(FILE *f, const char *path, char *err, size_t cap) {
    bool ok = !ferror(f);
    if (fclose(f) != 0) ok = false;
    if (!ok) snprintf(err, cap, "cannot write %s", path);
    return ok;
}

bool describe_svg(const Variant *v, const char *dir, char *err, size_t cap) {
    char path[1400], part[32];
    FILE *f;
    Position *start = xmalloc(sizeof *start);
    start_position(v, start);
    snprintf(path, sizeof path, "%s/start.svg", dir);
    bool ok = write_file(path, err, cap, &f);
    if (ok) {
        svg_start(f, v, start);
        ok = close_file(f, path, err, cap);
    }
    PieceDiagram *d = xmalloc(sizeof *d);
    Probe *p = probe_new(v);
    for (int t = 0; t < v->ntypes && ok; t++) {
        compute_diagram(p, t, d, true);
        file_part(v->types[t].name, part, sizeof part);
        snprintf(path, sizeof path, "%s/piece-%s.svg", dir, part);
        if (!(ok = write_file(path, err, cap, &f))) break;
        svg_diagram(f, v, d);
        if (!(ok = close_file(f, path, err, cap)) || !d->example.found) continue;
        snprintf(path, sizeof path, "%s/piece-%s-example.svg", dir, part);
        if (!(ok = write_file(path, err, cap, &f))) break;
        svg_example(f, v, d);
        ok = close_file(f, path, err, cap);
    }
    probe_delete(p);
    free(d);
    board_free(start);
    free(start);
    return ok;
}

/* ---- HTML ----------------------------------------------------------------------------------- */

/* Text sections are written into memory (html_text), then into the page escaped in a <pre>
 * (html_pre); when memory cannot be had the section is left out. */
static FILE *html_text(char **text, size_t *len) {
    *text = NULL;
    return open_memstream(text, len);
}

static void html_pre(FILE *f, FILE *mem, char **text) {
    if (!mem) return;
    fclose(mem); /* (sets *text: read it only now) */
    fputs("<pre>", f);
    if (*text) xml_text(f, *text);
    fputs("</pre>\n", f);
    free(*text);
}

bool describe_html(const Variant *v, const char *path, char *err, size_t cap) {
    FILE *f;
    if (!write_file(path, err, cap, &f)) return false;
    Position *start = xmalloc(sizeof *start);
    start_position(v, start);
    PieceDiagram *d = xcalloc((size_t)v->ntypes, sizeof *d);
    all_diagrams(v, d);
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta charset=\"utf-8\"/><title>", f);
    xml_text(f, v->title ? v->title : "untitled game");
    fputs("</title>\n<style>body{font-family:sans-serif;max-width:60em;margin:1em auto}pre{white-space:pre-wrap}"
          "svg{display:block;margin:0.5em 0}</style></head><body>\n",
          f);
    char *text;
    size_t len;
    FILE *mem = html_text(&text, &len);
    if (mem) write_overview(v, start, mem);
    html_pre(f, mem, &text);
    svg_start(f, v, start);
    fputs("<h2>Pieces</h2>\n", f);
    for (int t = 0; t < v->ntypes; t++) {
        fputs("<h3>", f);
        xml_text(f, v->types[t].name);
        fputs("</h3>\n", f);
        mem = html_text(&text, &len);
        if (mem) piece_words(v, &d[t], true, mem);
        html_pre(f, mem, &text);
        svg_diagram(f, v, &d[t]);
        if (d[t].example.found) svg_example(f, v, &d[t]);
    }
    mem = html_text(&text, &len);
    if (mem) {
        write_special(v, start, d, mem);
        write_endings(v, mem);
    }
    html_pre(f, mem, &text);
    fputs("</body></html>\n", f);
    free(d);
    board_free(start);
    free(start);
    return close_file(f, path, err, cap);
}

/* ---- warnings ------------------------------------------------------------------------------- */

/* Where piece `name` is declared (the file's start when unknown). */
static SrcLoc piece_loc(const Ast *root, const char *name, const char *file) {
    SrcLoc none = {0};
    none.file = file;
    for (int i = 0; root && i < root->nkids; i++) {
        const Ast *n = root->kids[i];
        if (n->kind == AST_PIECE && n->text && !strcmp(n->text, name)) return n->loc;
    }
    return none;
}

static SrcLoc promote_loc(const Ast *n, const char *zone, bool *found) {
    SrcLoc none = {0};
    if (!n) return none;
    if (n->kind == AST_PROMOTE && n->text && !strcmp(n->text, zone)) {
        *found = true;
        return n->loc;
    }
    for (int i = 0; i < n->nkids && !*found; i++) {
        SrcLoc l = promote_loc(n->kids[i], zone, found);
        if (*found) return l;
    }
    return none;
}

void describe_warnings(const Variant *v, const Ast *root, DiagSink *sink) {
    const char *file = v->path;
    /* which owners' pieces of each type stand in the start position */
    Position *start = xmalloc(sizeof *start);
    start_position(v, start);
    uint8_t owners[MAX_PIECE_TYPES] = {0};
    for (int c = 0; c < v->ncells; c++)
        if (start->cell[c]) owners[PIECE_TYPE(start->cell[c])] |= (uint8_t)(1u << PIECE_OWNER(start->cell[c]));
    board_free(start);
    free(start);
    /* pieces that look alike: the same glyph for one player, or letters equal but for case
     * (types that never meet in one army are told apart by their owner's token) */
    for (int b = 1; b < v->ntypes; b++)
        for (int a = 0; a < b; a++) {
            const PieceType *pa = &v->types[a], *pb = &v->types[b];
            for (int o = 0; o < v->nplayers; o++) {
                if (owners[a] && owners[b] && !((owners[a] & owners[b]) >> o & 1)) continue;
                const char *ga = pa->symbol[o][0] ? pa->symbol[o] : NULL, *gb = pb->symbol[o][0] ? pb->symbol[o] : NULL;
                /* (a promoted type is written and drawn with a '+': "+P" is not "P") */
                char la[3] = {pa->promoted ? '+' : pa->letter, pa->promoted ? pa->letter : 0, 0};
                char lb[3] = {pb->promoted ? '+' : pb->letter, pb->promoted ? pb->letter : 0, 0};
                if (!strcasecmp(ga ? ga : la, gb ? gb : lb)) {
                    diag_warn(sink, piece_loc(root, pb->name, file),
                              "piece '%s' looks like '%s': both are shown as \"%s\" for %s", pb->name, pa->name,
                              gb ? gb : lb, v->player_names[o]);
                    break;
                }
            }
        }
    PieceDiagram *d = xmalloc(sizeof *d);
    Probe *p = probe_new(v);
    uint32_t promo_used = 0;
    for (int t = 0; t < v->ntypes; t++) {
        compute_diagram(p, t, d, false);
        promo_used |= d->promo_sets;
        /* (in a game of drops a piece that never moves is a placed stone or a blocker) */
        if (!count_marks(v, d, 0xFF) && !v->has_drops)
            diag_warn(sink, piece_loc(root, v->types[t].name, file), "piece '%s' can never move", v->types[t].name);
    }
    for (int s = 1; s < v->npromos; s++) {
        const PromoSet *ps = &v->promos[s];
        if ((promo_used >> s & 1) || ps->on_capture) continue; /* (a lone piece captures nothing) */
        bool found = false;
        const char *zone = v->zones[ps->zone != NO_ZONE ? ps->zone : ps->from_zone].name;
        SrcLoc loc = promote_loc(root, zone, &found);
        if (!found) loc.file = file;
        diag_warn(sink, loc, "promotion to %s in zone '%s' never happens: no move of a piece that promotes %s there",
                  v->types[ps->types[0]].name, zone, ps->zone != NO_ZONE ? "ends" : "starts");
    }
    probe_delete(p);
    free(d);
}
