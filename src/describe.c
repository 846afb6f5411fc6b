/* describe.c - the rulebook of a loaded game. What a piece does is found by running the move
 * generator on constructed positions (the piece alone on every cell, then with one blocker, one
 * enemy, one screen), never by reading the rule file's atoms. Those runs give rules: a
 * displacement, the cells that must be empty on its way (or the one piece it must jump), the
 * cells it may start from, the pieces it may take. The rules are then checked against the
 * generator on hundreds of other positions; the words say only what the rules that held say,
 * and a move no rule explains is called a program and shown in real positions. Every diagram is
 * a position (printed with it as position text) whose marks are the generator's legal moves. */
#include "describe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "boardart.h"
#include "fen.h"
#include "movegen.h"
#include "notation.h"

#define EXAMPLE_GAMES 10 /* random games searched for a capture that needs other pieces */
#define EXAMPLE_PLIES 80
#define CHECK_POSITIONS 240 /* random positions a piece's rules are checked on */
#define MAX_SECOND_LOOKS 24 /* rules the checks found wrong that are looked at again */
#define SVG_CELL 40
#define SVG_MARGIN 22

/* ---- probing the move generator ------------------------------------------------------------ */

/* A position to run the generator on: the start's counters, piles and turn, its set-up over,
 * no piece, no tile; the first player to move. */
typedef struct Probe {
    const Variant *v;
    Position pos;
    GenContext *gen; /* diagram mode: the position's endings decide nothing */
    MoveList *list, *spare;
    int enemy;              /* an owner hostile to the first player (or 0 when none is) */
    int dummy;              /* the type placed as enemy, blocker or screen: one that does not freeze */
    Piece start[MAX_CELLS]; /* the start position's cells */
    Position *game;         /* random games for examples (made when first needed) */
    Position *copy;         /* a diagram's position read back from its text */
    uint64_t rng;
} Probe;

static void probe_empty(Probe *p) {
    const Variant *v = p->v;
    for (int c = 0; c < v->ncells; c++)
        if (p->pos.cell[c]) board_put(&p->pos, (Cell)c, 0);
    memset(p->pos.tiles, 0, sizeof p->pos.tiles);
    for (int i = 0; i < MAX_EP_CELLS; i++) p->pos.ep[i] = NO_CELL;
    p->pos.ep_victim = NO_CELL;
    p->pos.rights = 0;
    p->pos.phase = 0;
    p->pos.phase_moves = 0;
    p->pos.last_from = p->pos.last_to = NO_CELL;
}

/* Types that may stand anywhere in a probe without changing how other pieces move. */
static bool plain_type(const Variant *v, int t) { return !((v->freezer_mask | v->imitator_mask) >> t & 1); }

static void probe_init(Probe *p, const Variant *v) {
    memset(p, 0, sizeof *p);
    p->v = v;
    p->gen = xmalloc(sizeof *p->gen);
    genctx_init(p->gen);
    p->gen->diagram = true;
    p->list = xmalloc(sizeof *p->list);
    p->spare = xmalloc(sizeof *p->spare);
    p->rng = 0x2545F4914F6CDD1DULL;
    board_init(&p->pos, v);
    char start[4096], err[200];
    fen_start(v, 1, start, sizeof start);
    if (!fen_read(&p->pos, start, err, sizeof err)) board_clear(&p->pos);
    memcpy(p->start, p->pos.cell, sizeof p->start);
    probe_empty(p);
    /* (nothing in hand: a piece's drops are shown from a hand holding it alone; but a reserve
     * of a type that is never dropped, which programs put pieces down from, stays) */
    for (int pl = 0; pl < MAX_PLAYERS; pl++)
        for (int t = 0; t < v->ntypes; t++)
            if (v->hand_keep != HAND_NONE || v->types[t].droppable) p->pos.hand[pl][t] = 0;
    memset(p->pos.gates, 0, sizeof p->pos.gates);
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
    for (int t = v->ntypes - 1; t >= 0; t--)
        if (!v->types[t].royal && plain_type(v, t) && !v->types[t].written) p->dummy = t;
}

static void probe_free(Probe *p) {
    if (p->game) board_free(p->game);
    free(p->game);
    if (p->copy) board_free(p->copy);
    free(p->copy);
    board_free(&p->pos);
    free(p->gen);
    free(p->list);
    free(p->spare);
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

static void bit_set(uint64_t *bits, Cell c) { bits[c >> 6] |= 1ull << (c & 63); }
static void bit_clear(uint64_t *bits, Cell c) { bits[c >> 6] &= ~(1ull << (c & 63)); }
static bool bits_any(const uint64_t *bits) {
    for (int w = 0; w < CELL_WORDS; w++)
        if (bits[w]) return true;
    return false;
}
static int bits_count(const uint64_t *bits) {
    int n = 0;
    for (int w = 0; w < CELL_WORDS; w++) n += __builtin_popcountll(bits[w]);
    return n;
}

/* The cell of board b at (x, y), or NO_CELL off the board or in a hole. */
static Cell cell_at(const Variant *v, int b, int x, int y) {
    const Board *bd = &v->boards[b];
    if (x < 0 || y < 0 || x >= bd->width || y >= bd->height) return NO_CELL;
    return bd->at[y][x];
}

/* The cell (dx, dy) from c on c's board. */
static Cell cell_off(const Variant *v, Cell c, int dx, int dy) {
    const CellInfo *ci = &v->cells[c];
    return cell_at(v, ci->board, ci->x + dx, ci->y + dy);
}

static int gcd(int a, int b) {
    a = abs(a), b = abs(b);
    while (b) {
        int t = a % b;
        a = b, b = t;
    }
    return a;
}

/* (dx, dy) as g steps of a primitive vector (*ux, *uy); returns g. */
static int primitive(int dx, int dy, int *ux, int *uy) {
    int g = gcd(dx, dy);
    *ux = dx / g, *uy = dy / g;
    return g;
}

/* ---- what a piece does in one position ------------------------------------------------------ */

/* The moves of one piece in one position, by what they do to each cell. */
typedef struct Reach {
    uint64_t moves[CELL_WORDS];        /* lands on an empty cell */
    uint64_t takes[CELL_WORDS];        /* lands on a piece, taking it */
    uint64_t remote[CELL_WORDS];       /* takes the piece there without landing on it */
    uint64_t places[CELL_WORDS];       /* puts a new piece there and stays where it is */
    uint64_t changes_at[CELL_WORDS];   /* turns the piece there into another (or another's) */
    uint64_t others_place[CELL_WORDS]; /* where the others put a piece down too (not told its) */
    uint32_t placed;                   /* the types it puts down */
    uint32_t changes;                  /* types it may turn into where it stands */
    uint32_t promotes;                 /* types its moves may promote to */
    uint32_t promo_sets;               /* PromoSet indexes those promotions come from */
    bool elsewhere;                    /* some move goes to another board */
} Reach;

static bool reach_same(const Reach *a, const Reach *b) {
    return !memcmp(a->moves, b->moves, sizeof a->moves) && !memcmp(a->takes, b->takes, sizeof a->takes) &&
        !memcmp(a->places, b->places, sizeof a->places);
}

/* Is m a new piece put down by a program (a copy of itself, an arrow)? Such a move names the
 * cell it puts it on, not the piece that made it: see moves_reach. */
static bool is_placing(const Move *m) {
    return !(m->flags & MOVE_DROP) && m->from == m->to && m->nfx && m->fx[0].kind == FX_PLACE;
}

/* Adds m (a move of pos) to r when it is a move of the piece on from (placings aside). */
static void reach_add(const Position *pos, const Move *m, Cell from, Reach *r) {
    const Variant *v = pos->v;
    if (m->flags & (MOVE_CARDS | MOVE_TILE | MOVE_PASS | MOVE_CASTLE | MOVE_ELIMINATION | MOVE_DROP)) return;
    if (m->from != from || is_placing(m)) return;
    Piece mover = pos->cell[from];
    bool blast = mover && (v->blast_mask >> PIECE_TYPE(mover) & 1);
    bool moved = false;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if (e->kind == FX_MOVE && e->a == from) moved = true;
        if (e->kind == FX_CHANGE && e->a == from && m->to == from) r->changes |= 1u << PIECE_TYPE(e->piece);
        if (e->kind == FX_CHANGE && e->a != from && e->a != m->to && pos->cell[e->a]) bit_set(r->changes_at, e->a);
        if (e->kind == FX_FLIP) bit_set(r->changes_at, e->a);
        /* (an explosion's other victims are the blast, not the piece's reach) */
        if (e->kind == FX_REMOVE && e->a != from && e->a != m->to && pos->cell[e->a] && !blast)
            bit_set(r->remote, e->a);
    }
    if (m->promo != NO_TYPE) {
        r->promotes |= 1u << m->promo;
        for (int s = 1; s < v->npromos; s++)
            if ((v->promos[s].zone != NO_ZONE && zone_has(&v->zones[v->promos[s].zone], 0, m->to)) ||
                (v->promos[s].from_zone != NO_ZONE && zone_has(&v->zones[v->promos[s].from_zone], 0, m->from)))
                for (int k = 0; k < v->promos[s].count; k++)
                    if (v->promos[s].types[k] == m->promo) r->promo_sets |= 1u << s;
    }
    if (m->to == from) return;
    if (v->cells[m->to].board != v->cells[from].board) {
        r->elsewhere = true;
        return;
    }
    /* (a capture that blows the capturer up lands there too, as far as the reach goes) */
    if (pos->cell[m->to])
        bit_set(r->takes, m->to);
    else if (moved)
        bit_set(r->moves, m->to);
}

/* The moves of the piece on from among the list's (of pos): its own, and the placings that
 * are there only while it is (a second list is made without it, when there are placings). */
static void moves_reach(GenContext *gen, Position *pos, MoveList *list, MoveList *spare, Cell from, Reach *r) {
    uint64_t placed[CELL_WORDS] = {0};
    uint32_t types[MAX_CELLS] = {0};
    for (int i = 0; i < list->count; i++) {
        const Move *m = &list->moves[i];
        reach_add(pos, m, from, r);
        if (is_placing(m)) bit_set(placed, m->to), types[m->to] |= 1u << PIECE_TYPE(m->fx[0].piece);
    }
    if (!bits_any(placed)) return;
    Piece piece = pos->cell[from];
    board_put(pos, from, 0);
    VmFault fault = {0};
    if (movegen_pseudo(gen, pos, spare, &fault))
        for (int i = 0; i < spare->count; i++) {
            const Move *m = &spare->moves[i];
            if (!is_placing(m)) continue;
            types[m->to] &= ~(1u << PIECE_TYPE(m->fx[0].piece));
            bit_set(r->others_place, m->to);
        }
    board_put(pos, from, piece);
    for (int c = 0; c < pos->v->board_cells; c++)
        if (types[c]) bit_set(r->places, (Cell)c), r->placed |= types[c];
    /* (what a placing of its own changes besides) */
    for (int i = 0; i < list->count; i++) {
        const Move *m = &list->moves[i];
        if (!is_placing(m) || !types[m->to]) continue;
        for (int k = 0; k < m->nfx; k++)
            if ((m->fx[k].kind == FX_CHANGE && m->fx[k].a != m->to) || m->fx[k].kind == FX_FLIP)
                bit_set(r->changes_at, m->fx[k].a);
    }
}

/* The pseudo-legal moves of the piece on from, in every phase of a turn, as it stands in p
 * (where a phase needs the piece to have just moved there, it has). */
static void probe_reach(Probe *p, Cell from, Reach *r) {
    const Variant *v = p->v;
    memset(r, 0, sizeof *r);
    int nphases = v->nphases ? v->nphases : 1;
    p->pos.last_to = from;
    for (int ph = 0; ph < nphases; ph++) {
        p->pos.phase = (uint8_t)ph;
        p->pos.phase_moves = 0;
        p->pos.royal_open = -1;
        VmFault fault = {0};
        if (!movegen_pseudo(p->gen, &p->pos, p->list, &fault)) continue; /* (a fault: nothing) */
        moves_reach(p->gen, &p->pos, p->list, p->spare, from, r);
    }
    p->pos.phase = 0;
    p->pos.last_to = NO_CELL;
}

/* The cells a piece of the first player's of this kind reaches alone from c. */
static void probe_alone(Probe *p, Cell c, Piece piece, Reach *r) {
    probe_empty(p);
    board_put(&p->pos, c, piece);
    probe_reach(p, c, r);
}

/* ---- rules ---------------------------------------------------------------------------------- */

/* A rule found by probing: from a cell of `from`, the piece goes (dx, dy) on its board, when
 * its way allows: WAY_OPEN, every cell of one of its ways is empty (a way of no cells: a leap);
 * WAY_SCREEN, exactly one of the cells on the line between is occupied, by a piece of a type in
 * `screens` (a hop). RULE_MOVE lands on an empty cell, RULE_TAKE on an enemy of a type in
 * `victims`, RULE_PLACE puts a new piece (of `placed`) on an empty cell. */
enum { RULE_MOVE = 1, RULE_TAKE = 2, RULE_PLACE = 4 };
enum { WAY_OPEN, WAY_SCREEN };
#define MAX_WAYS 4
#define MAX_WAY_CELLS 6
#define MAX_RULES 480

typedef struct Rule {
    int8_t dx, dy;
    uint8_t mode, kind, nways;
    uint8_t waylen[MAX_WAYS];
    int8_t way[MAX_WAYS][MAX_WAY_CELLS][2];
    uint32_t victims, screens, placed;
    uint8_t victim;  /* the type put on the target in probes of a take */
    bool fresh_only; /* only a piece that has not moved yet */
    bool doubtful;   /* the generator did otherwise in some position */
    Cell ref;        /* the cell its ways were found from */
    uint64_t from[CELL_WORDS];
} Rule;

typedef DescribeDiagram Diagram;

/* What one piece type does, in rules and diagrams. */
typedef struct Behaviour {
    int type;
    uint8_t dummy; /* the probes' type (as victim of a take) */
    int nrules;
    Rule rules[MAX_RULES];
    bool too_many;      /* more rules than fit: no words */
    bool unexplained;   /* some move of the generator fits no rule that held */
    bool remote;        /* it captures without landing on its victim */
    bool elsewhere;     /* it moves onto other boards */
    bool never_moves;   /* no move from any cell, alone or with an enemy or a screen near */
    bool takes_shown;   /* some take held (its captures are in words and diagrams) */
    bool captures_away; /* it captures without landing (withdrawal, pincer, coordination...) */
    bool converts;      /* its moves change other pieces (turn them over) */
    uint32_t changes;   /* types it may turn into where it stands */
    uint32_t promotes_to, promo_sets;
    uint32_t placed; /* types it puts down */
    Cell origin;     /* the cell of its first diagram */
    int ndiagrams;
    Diagram diagrams[DESCRIBE_MAX_DIAGRAMS];
} Behaviour;

/* The rule of that displacement, action, way and (for a take) probe victim (-1: the dummy). */
static int rule_find(const Behaviour *b, int dx, int dy, uint8_t mode, uint8_t kind, int victim) {
    if (victim < 0) victim = b->dummy;
    for (int i = 0; i < b->nrules; i++) {
        const Rule *r = &b->rules[i];
        if (r->dx == dx && r->dy == dy && r->mode == mode && r->kind == kind &&
            (mode != RULE_TAKE || r->victim == victim))
            return i;
    }
    return -1;
}

static Rule *rule_add(Behaviour *b, int dx, int dy, uint8_t mode, uint8_t kind, int victim) {
    int i = rule_find(b, dx, dy, mode, kind, victim);
    if (i >= 0) return &b->rules[i];
    if (b->nrules == MAX_RULES) {
        b->too_many = true;
        return NULL;
    }
    Rule *r = &b->rules[b->nrules++];
    memset(r, 0, sizeof *r);
    r->dx = (int8_t)dx, r->dy = (int8_t)dy, r->mode = mode, r->kind = kind;
    r->nways = 1;
    r->victims = r->screens = ALL_TYPES;
    r->victim = (uint8_t)(victim < 0 ? b->dummy : victim);
    r->ref = NO_CELL;
    return r;
}

static bool is_enemy(const Position *pos, Piece q) { return q && board_hostile(pos, 0, PIECE_OWNER(q)); }

/* The cells strictly between c and c + (dx, dy) on its line, in order; -1 when one is off the board. */
static int line_cells(const Variant *v, Cell c, int dx, int dy, Cell *out) {
    int g = gcd(dx, dy), n = 0;
    for (int k = 1; k < g; k++) {
        Cell x = cell_off(v, c, k * (dx / g), k * (dy / g));
        if (x == NO_CELL) return -1;
        out[n++] = x;
    }
    return n;
}

/* Does the way of r open from c in pos? (nways 0: the line between must be empty.) */
static bool way_open(const Rule *r, const Position *pos, Cell c) {
    const Variant *v = pos->v;
    if (r->nways == 0) {
        Cell line[MAX_BOARD_DIM];
        int n = line_cells(v, c, r->dx, r->dy, line);
        if (n < 0) return false;
        for (int k = 0; k < n; k++)
            if (pos->cell[line[k]]) return false;
        return true;
    }
    for (int w = 0; w < r->nways; w++) {
        bool open = true;
        for (int k = 0; k < r->waylen[w] && open; k++) {
            Cell x = cell_off(v, c, r->way[w][k][0], r->way[w][k][1]);
            open = x != NO_CELL && !pos->cell[x];
        }
        if (open) return true;
    }
    return false;
}

/* Does r take the piece on c to its target in pos? (The target in *t.) */
static bool rule_fires(const Rule *r, const Position *pos, Cell c, Cell *t) {
    const Variant *v = pos->v;
    if (!bits_has(r->from, c)) return false;
    Cell to = cell_off(v, c, r->dx, r->dy);
    if (to == NO_CELL) return false;
    Piece q = pos->cell[to];
    if (r->mode == RULE_TAKE ? !(is_enemy(pos, q) && (r->victims >> PIECE_TYPE(q) & 1)) : q != 0) return false;
    *t = to;
    if (r->kind == WAY_SCREEN) {
        int g = gcd(r->dx, r->dy), ux = r->dx / g, uy = r->dy / g, n = 0;
        for (int k = 1; k < g; k++) {
            Piece s = pos->cell[cell_off(v, c, k * ux, k * uy)];
            if (s && (++n > 1 || !(r->screens >> PIECE_TYPE(s) & 1))) return false;
        }
        return n == 1;
    }
    return way_open(r, pos, c);
}

/* What the rules say the piece on c does in pos. */
static void rules_predict(const Behaviour *b, const Position *pos, Cell c, Reach *out) {
    memset(out, 0, sizeof *out);
    bool fresh = !(pos->cell[c] & PIECE_MOVED);
    for (int i = 0; i < b->nrules; i++) {
        const Rule *r = &b->rules[i];
        Cell t;
        if ((r->fresh_only && !fresh) || !rule_fires(r, pos, c, &t)) continue;
        bit_set(r->mode == RULE_MOVE ? out->moves : r->mode == RULE_TAKE ? out->takes : out->places, t);
    }
}

/* ---- finding a piece's rules ------------------------------------------------------------------ */

/* The board a type is shown on: where the first player's piece of it starts, else any army's,
 * else the first board. */
static int home_board(const Variant *v, const Piece *start, int type) {
    for (int c = 0; c < v->ncells; c++)
        if (start[c] && PIECE_KIND(start[c]) == PIECE_MAKE(type, 0)) return v->cells[c].board;
    for (int c = 0; c < v->ncells; c++) /* (a type only other armies start with) */
        if (start[c] && PIECE_TYPE(start[c]) == type) return v->cells[c].board;
    return 0;
}

/* How far c is from the centre of its board (in half cells; the longer side first). */
static int centre_distance(const Variant *v, Cell c) {
    const CellInfo *ci = &v->cells[c];
    const Board *bd = &v->boards[ci->board];
    int dx = abs(2 * ci->x - (bd->width - 1)), dy = abs(2 * ci->y - (bd->height - 1));
    return (dx > dy ? dx : dy) * 128 + dx + dy;
}

static int cell_distance(const Variant *v, Cell a, Cell b) {
    const CellInfo *ai = &v->cells[a], *bi = &v->cells[b];
    if (ai->board != bi->board) return 1 << 20;
    int dx = abs(ai->x - bi->x), dy = abs(ai->y - bi->y);
    return (dx > dy ? dx : dy) * 128 + dx + dy;
}

static bool rule_has(const Reach *r, uint8_t mode, Cell t) {
    return bits_has(mode == RULE_MOVE ? r->moves : mode == RULE_TAKE ? r->takes : r->places, t);
}

/* Sets r's way to the cells of `cells` (relative to ref) as its only way, as the line when they
 * are the cells between. */
static void rule_set_way(const Variant *v, Rule *r, Cell ref, const uint64_t *cells) {
    Cell line[MAX_BOARD_DIM];
    int n = line_cells(v, ref, r->dx, r->dy, line);
    bool is_line = n == bits_count(cells);
    for (int k = 0; k < n && is_line; k++) is_line = bits_has(cells, line[k]);
    r->ref = ref;
    r->nways = 1;
    r->waylen[0] = 0;
    if (is_line) {
        r->kind = WAY_OPEN;
        r->nways = 0; /* (the line) */
        return;
    }
    const CellInfo *oi = &v->cells[ref];
    for (int c = 0; c < v->board_cells; c++) {
        if (!bits_has(cells, (Cell)c)) continue;
        if (r->waylen[0] == MAX_WAY_CELLS) {
            r->doubtful = true;
            return;
        }
        r->way[0][r->waylen[0]][0] = (int8_t)(v->cells[c].x - oi->x);
        r->way[0][r->waylen[0]][1] = (int8_t)(v->cells[c].y - oi->y);
        r->waylen[0]++;
    }
}

typedef struct Finder {
    Probe *p;
    Behaviour *b;
    Piece piece;        /* the first player's piece of the type, as position text makes it */
    int board;          /* its home board */
    Reach *alone;       /* per cell: what it does alone there */
    Reach *alone_moved; /* the same, once it has moved */
    Reach scratch;
} Finder;

/* Puts the piece on c, and q on each of the cells (x may be NO_CELL). */
static void setup2(Finder *f, Cell c, Cell x, Piece qx, Cell y, Piece qy) {
    probe_empty(f->p);
    board_put(&f->p->pos, c, f->piece);
    if (x != NO_CELL) board_put(&f->p->pos, x, qx);
    if (y != NO_CELL) board_put(&f->p->pos, y, qy);
}

static Piece friend_blocker(const Finder *f) { return PIECE_MAKE(f->p->dummy, 0); }
static Piece blocker_for(const Finder *f, uint8_t mode);
/* A blocker for a rule: a friend, or (for a piece put down, which a friend could put there too)
 * an enemy. */
static Piece blocker_for(const Finder *f, uint8_t mode) {
    return mode == RULE_PLACE && f->p->enemy ? PIECE_MAKE(f->p->dummy, f->p->enemy) : friend_blocker(f);
}
static Piece enemy_of(const Finder *f, int type) { return PIECE_MAKE(type, f->p->enemy); }

/* The cells of the rule's line from c: the first (the screen's place in probes), or NO_CELL. */
static Cell first_line_cell(const Variant *v, Cell c, int dx, int dy) {
    int g = gcd(dx, dy);
    return g < 2 ? NO_CELL : cell_off(v, c, dx / g, dy / g);
}

/* The cells r applies from on an otherwise empty board, found one by one: the piece, its
 * victim (of type `victim`) for a take, a screen on the first cell between for a hop. */
static void exact_from(Finder *f, Rule *r, int victim) {
    const Variant *v = f->p->v;
    memset(r->from, 0, sizeof r->from);
    for (int c = 0; c < v->board_cells; c++) {
        Cell t = cell_off(v, (Cell)c, r->dx, r->dy);
        if (t == NO_CELL) continue;
        Cell s = r->kind == WAY_SCREEN ? first_line_cell(v, (Cell)c, r->dx, r->dy) : NO_CELL;
        if (r->kind == WAY_SCREEN && s == NO_CELL) continue;
        setup2(f, (Cell)c, t, r->mode == RULE_TAKE ? enemy_of(f, victim) : 0, s, friend_blocker(f));
        probe_reach(f->p, (Cell)c, &f->scratch);
        if (rule_has(&f->scratch, r->mode, t)) bit_set(r->from, (Cell)c);
    }
}

/* The types r takes (victims) or jumps (screens), tried one by one from its reference cell. */
static void find_types(Finder *f, Rule *r) {
    const Variant *v = f->p->v;
    Cell ref = r->ref;
    /* (from a cell where no other rule of that move applies, when there is one) */
    Cell alone = NO_CELL;
    for (int c = 0; c < v->board_cells; c++) {
        if (!bits_has(r->from, (Cell)c)) continue;
        bool other = false;
        for (int i = 0; i < f->b->nrules && !other; i++) {
            const Rule *o = &f->b->rules[i];
            other = o != r && o->dx == r->dx && o->dy == r->dy && o->mode == r->mode && bits_has(o->from, (Cell)c);
        }
        if (!other && (alone == NO_CELL || cell_distance(v, ref, (Cell)c) < cell_distance(v, ref, alone)))
            alone = (Cell)c;
    }
    if (alone != NO_CELL) ref = alone;
    Cell t = cell_off(v, ref, r->dx, r->dy);
    if (t == NO_CELL) return;
    Cell s = r->kind == WAY_SCREEN ? first_line_cell(v, ref, r->dx, r->dy) : NO_CELL;
    if (r->mode == RULE_TAKE) {
        r->victims = 0;
        for (int ty = 0; ty < v->ntypes; ty++) {
            if (!plain_type(v, ty)) continue;
            setup2(f, ref, t, enemy_of(f, ty), s, friend_blocker(f));
            probe_reach(f->p, ref, &f->scratch);
            if (bits_has(f->scratch.takes, t)) r->victims |= 1u << ty;
        }
        /* (types no probe may place are as the dummy is) */
        for (int ty = 0; ty < v->ntypes; ty++)
            if (!plain_type(v, ty) && (r->victims >> f->p->dummy & 1)) r->victims |= 1u << ty;
    }
    if (r->kind == WAY_SCREEN) {
        r->screens = 0;
        for (int ty = 0; ty < v->ntypes; ty++) {
            if (!plain_type(v, ty)) {
                r->screens |= 1u << ty;
                continue;
            }
            bool both = true;
            for (int side = 0; side < 2 && both; side++) {
                Piece q = side ? enemy_of(f, ty) : PIECE_MAKE(ty, 0);
                setup2(f, ref, t, r->mode == RULE_TAKE ? enemy_of(f, f->p->dummy) : 0, s, q);
                probe_reach(f->p, ref, &f->scratch);
                both = rule_has(&f->scratch, r->mode, t);
            }
            if (both) r->screens |= 1u << ty;
        }
    }
}

/* The generator's answer for the piece on ref going to t (taking a `victim` there for a take)
 * with the cells of `empty` empty and every other cell of its board holding a blocker. */
static bool way_test(Finder *f, const Rule *r, Cell ref, Cell t, const uint64_t *empty) {
    const Variant *v = f->p->v;
    probe_empty(f->p);
    board_put(&f->p->pos, ref, f->piece);
    for (int c = 0; c < v->board_cells; c++)
        if (c != ref && c != t && v->cells[c].board == v->cells[ref].board && !bits_has(empty, (Cell)c))
            board_put(&f->p->pos, (Cell)c, blocker_for(f, r->mode));
    if (r->mode == RULE_TAKE) board_put(&f->p->pos, t, enemy_of(f, r->victim));
    probe_reach(f->p, ref, &f->scratch);
    return rule_has(&f->scratch, r->mode, t);
}

/* One smallest set of cells that must be empty for the move (none of `blocked` in it): from
 * every cell empty, each cell is filled in turn, the farthest first, unless the move then goes. */
static bool find_way(Finder *f, const Rule *r, Cell ref, Cell t, const uint64_t *blocked, uint64_t *way) {
    const Variant *v = f->p->v;
    memset(way, 0, CELL_WORDS * sizeof *way);
    int order[MAX_CELLS], n = 0;
    for (int c = 0; c < v->board_cells; c++)
        if (c != ref && c != t && v->cells[c].board == v->cells[ref].board && !bits_has(blocked, (Cell)c)) {
            bit_set(way, (Cell)c);
            order[n++] = c;
        }
    if (!way_test(f, r, ref, t, way)) return false;
    for (int i = 0; i < n; i++) /* (farthest from ref first) */
        for (int j = i + 1; j < n; j++)
            if (cell_distance(v, ref, (Cell)order[j]) > cell_distance(v, ref, (Cell)order[i])) {
                int x = order[i];
                order[i] = order[j], order[j] = x;
            }
    for (int i = 0; i < n; i++) {
        bit_clear(way, (Cell)order[i]);
        if (!way_test(f, r, ref, t, way)) bit_set(way, (Cell)order[i]);
    }
    return true;
}

/* Every way of r from its reference cell (up to MAX_WAYS): the smallest sets of cells that,
 * empty, let it go with every other cell filled. */
static void find_ways(Finder *f, Rule *r) {
    const Variant *v = f->p->v;
    Cell ref = r->ref, t = cell_off(v, ref, r->dx, r->dy);
    uint64_t blocked[CELL_WORDS] = {0}, ways[MAX_WAYS][CELL_WORDS];
    int n = 0;
    if (t == NO_CELL || !find_way(f, r, ref, t, blocked, ways[n])) {
        r->doubtful = true;
        return;
    }
    n++;
    /* the others: a way with some cell of each found way blocked (one cell of the first, then
     * one of the second...) */
    for (int i = 0; i < n && n < MAX_WAYS; i++)
        for (int c = 0; c < v->board_cells && n < MAX_WAYS; c++) {
            if (!bits_has(ways[i], (Cell)c)) continue;
            memset(blocked, 0, sizeof blocked);
            bit_set(blocked, (Cell)c);
            for (int j = 0; j < i; j++) /* (and a cell of each earlier way, so as not to find it again) */
                for (int k = 0; k < v->board_cells; k++)
                    if (bits_has(ways[j], (Cell)k) && !bits_has(ways[i], (Cell)k)) {
                        bit_set(blocked, (Cell)k);
                        break;
                    }
            uint64_t w[CELL_WORDS];
            if (!find_way(f, r, ref, t, blocked, w)) continue;
            bool seen = false;
            for (int j = 0; j < n && !seen; j++) seen = !memcmp(w, ways[j], sizeof w);
            if (!seen) memcpy(ways[n++], w, sizeof w);
        }
    rule_set_way(v, r, ref, ways[0]);
    if (n == 1) return;
    const CellInfo *oi = &v->cells[ref];
    r->nways = (uint8_t)n;
    for (int w = 0; w < n; w++) {
        r->waylen[w] = 0;
        for (int c = 0; c < v->board_cells; c++) {
            if (!bits_has(ways[w], (Cell)c)) continue;
            if (r->waylen[w] == MAX_WAY_CELLS) {
                r->doubtful = true;
                break;
            }
            r->way[w][r->waylen[w]][0] = (int8_t)(v->cells[c].x - oi->x);
            r->way[w][r->waylen[w]][1] = (int8_t)(v->cells[c].y - oi->y);
            r->waylen[w]++;
        }
    }
}

/* The cell r is best studied from: the origin when it applies there, else the nearest. */
static Cell rule_ref(const Variant *v, const Rule *r, Cell origin) {
    if (bits_has(r->from, origin)) return origin;
    Cell best = NO_CELL;
    for (int c = 0; c < v->board_cells; c++)
        if (bits_has(r->from, (Cell)c) &&
            (best == NO_CELL || cell_distance(v, origin, (Cell)c) < cell_distance(v, origin, best)))
            best = (Cell)c;
    return best;
}

/* How many rules apply from c. */
static int rules_from(const Behaviour *b, Cell c) {
    int n = 0;
    for (int i = 0; i < b->nrules; i++) n += bits_has(b->rules[i].from, c);
    return n;
}

/* How many kinds of move apply from c: rules along distinct lines, actions or ways (a slide's
 * longer moves along its line are one kind). */
static int kinds_from(const Behaviour *b, Cell c) {
    int n = 0;
    for (int i = 0; i < b->nrules; i++) {
        const Rule *r = &b->rules[i];
        if (!bits_has(r->from, c)) continue;
        int ux, uy, g = primitive(r->dx, r->dy, &ux, &uy);
        bool first = true;
        for (int j = 0; j < i && first; j++) {
            const Rule *q = &b->rules[j];
            int qx, qy;
            primitive(q->dx, q->dy, &qx, &qy);
            first = !(bits_has(q->from, c) && qx == ux && qy == uy && q->mode == r->mode && q->kind == r->kind &&
                      q->victim == r->victim && (q->nways == 0) == (r->nways == 0));
        }
        n += first;
        (void)g;
    }
    return n;
}

/* The origin of the first diagram: on the home board, the cell most rules apply from, the
 * nearest the centre of those. */
static Cell choose_origin(const Variant *v, const Behaviour *b, int board) {
    Cell best = NO_CELL;
    int best_n = -1;
    for (int c = 0; c < v->board_cells; c++) {
        if (v->cells[c].board != board) continue;
        int n = kinds_from(b, (Cell)c);
        if (n > best_n || (n == best_n && centre_distance(v, (Cell)c) < centre_distance(v, best)))
            best = (Cell)c, best_n = n;
    }
    return best != NO_CELL ? best : (Cell)v->boards[board].first_cell;
}

/* The most cells a line along (ux, uy) has on any board. */
static int longest_line(const Variant *v, int ux, int uy) {
    int best = 0;
    for (int c = 0; c < v->board_cells; c++) {
        int k = 0;
        while (cell_off(v, (Cell)c, (k + 1) * ux, (k + 1) * uy) != NO_CELL) k++;
        if (k + 1 > best) best = k + 1;
    }
    return best;
}

/* The single-blocker scan from ref: for each rule studied from there, the cells whose blocker
 * stops it; moves a blocker makes possible become hops. */
static void blocker_scan(Finder *f, Cell ref) {
    const Variant *v = f->p->v;
    Behaviour *b = f->b;
    int nr = b->nrules;
    uint64_t(*stops)[CELL_WORDS] = xcalloc((size_t)nr, sizeof *stops);
    bool places = false;
    for (int i = 0; i < nr; i++) places |= b->rules[i].ref == ref && b->rules[i].mode == RULE_PLACE;
    for (int s = 0; s < v->board_cells; s++) {
        if (s == ref || v->cells[s].board != v->cells[ref].board) continue;
        /* (a friend for its moves, an enemy for what it puts down: a friend could put it there too) */
        for (int pass = 0; pass < 1 + places; pass++) {
            uint8_t mode = pass ? RULE_PLACE : RULE_MOVE;
            setup2(f, ref, (Cell)s, blocker_for(f, mode), NO_CELL, 0);
            probe_reach(f->p, ref, &f->scratch);
            for (int i = 0; i < nr; i++) {
                Rule *r = &b->rules[i];
                if (r->ref != ref || r->mode != mode || r->kind != WAY_OPEN) continue;
                Cell t = cell_off(v, ref, r->dx, r->dy);
                if (t != (Cell)s && !rule_has(&f->scratch, r->mode, t)) bit_set(stops[i], (Cell)s);
            }
        }
    }
    for (int i = 0; i < nr; i++)
        if (b->rules[i].ref == ref && b->rules[i].mode != RULE_TAKE && b->rules[i].kind == WAY_OPEN)
            rule_set_way(v, &b->rules[i], ref, stops[i]);
    free(stops);
}

/* The single-enemy scan from ref: takes by landing (one rule each), takes from afar. Each
 * royal type is tried as the enemy too (an attack on a king alone: xiangqi's flying general). */
static void enemy_scan(Finder *f, Cell ref) {
    const Variant *v = f->p->v;
    if (!f->p->enemy) return;
    for (int ty = -1; ty < v->ntypes; ty++) {
        if (ty >= 0 && (!v->types[ty].royal || ty == f->p->dummy || v->forbid_check)) continue;
        int victim = ty < 0 ? f->p->dummy : ty;
        for (int t = 0; t < v->board_cells; t++) {
            if (t == ref) continue;
            setup2(f, ref, (Cell)t, enemy_of(f, victim), NO_CELL, 0);
            probe_reach(f->p, ref, &f->scratch);
            if (bits_any(f->scratch.remote)) f->b->remote = true;
            if (f->scratch.elsewhere) f->b->elsewhere = true;
            if (!bits_has(f->scratch.takes, (Cell)t) || v->cells[t].board != v->cells[ref].board) continue;
            int dx = v->cells[t].x - v->cells[ref].x, dy = v->cells[t].y - v->cells[ref].y;
            if (ty >= 0 && rule_find(f->b, dx, dy, RULE_TAKE, WAY_OPEN, -1) >= 0) continue; /* (checked below) */
            Rule *r = rule_add(f->b, dx, dy, RULE_TAKE, WAY_OPEN, victim);
            if (r && r->ref == NO_CELL) r->ref = ref;
            /* a take along a line to the edge may reach farther from elsewhere: one rule per
             * distance the board has (each one's cells found one by one later) */
            int ux, uy, g = primitive(dx, dy, &ux, &uy);
            if (cell_off(v, (Cell)t, ux, uy) == NO_CELL && abs(ux) <= 1 && abs(uy) <= 1)
                for (int e = g + 1; e < longest_line(v, ux, uy); e++)
                    rule_add(f->b, e * ux, e * uy, RULE_TAKE, WAY_OPEN, victim);
        }
    }
}

/* Does the piece on ref make the move to ref + k (ux, uy) with the first `screens` cells of
 * that line holding blockers, and (for a take) an enemy on it? */
static bool screened(Finder *f, Cell ref, int ux, int uy, int k, int screens, uint8_t mode) {
    const Variant *v = f->p->v;
    probe_empty(f->p);
    board_put(&f->p->pos, ref, f->piece);
    for (int i = 1; i <= screens; i++) {
        Cell s = cell_off(v, ref, i * ux, i * uy);
        if (s == NO_CELL) return false; /* (a hole on the line: no screen there) */
        board_put(&f->p->pos, s, friend_blocker(f));
    }
    Cell t = cell_off(v, ref, k * ux, k * uy);
    if (mode == RULE_TAKE) board_put(&f->p->pos, t, enemy_of(f, f->p->dummy));
    probe_reach(f->p, ref, &f->scratch);
    return rule_has(&f->scratch, mode, t);
}

/* The screen scan from ref along each line: a move (or take) over one blocker that goes when
 * the blocker goes (two away), or when a second blocker stands beside it (farther), jumps a
 * screen: then one rule per distance the board has along that line, each one's cells found one
 * by one later. Distances up to `far`. True when some. */
static bool screen_scan(Finder *f, Cell ref, int far) {
    const Variant *v = f->p->v;
    bool any = false;
    for (int ux = -1; ux <= 1; ux++)
        for (int uy = -1; uy <= 1; uy++) {
            if ((!ux && !uy) || cell_off(v, ref, 2 * ux, 2 * uy) == NO_CELL) continue;
            for (int mode = RULE_MOVE; mode <= RULE_TAKE; mode++) {
                if (mode == RULE_TAKE && !f->p->enemy) continue;
                bool hops = false;
                for (int k = 2; k <= far && cell_off(v, ref, k * ux, k * uy) != NO_CELL && !hops; k++)
                    hops = screened(f, ref, ux, uy, k, 1, (uint8_t)mode) &&
                        !screened(f, ref, ux, uy, k, k == 2 ? 0 : 2, (uint8_t)mode);
                if (!hops) continue;
                any = true;
                for (int e = 2; e < longest_line(v, ux, uy); e++) {
                    Rule *r = rule_add(f->b, e * ux, e * uy, (uint8_t)mode, WAY_SCREEN, -1);
                    if (r && r->ref == NO_CELL) r->ref = ref;
                }
            }
        }
    return any;
}

/* Checks the rules against the generator on constructed positions: enemies around each cell,
 * then random positions. Marks the rules that predicted a move the generator did not make, and
 * returns in `missing` (up to max) the moves the generator made that no rule predicted. */
typedef struct Miss {
    int8_t dx, dy;
    uint8_t mode, victim;
    Cell at;
} Miss;

static void note_miss(Miss *missing, int *n, int max, int dx, int dy, uint8_t mode, int victim, Cell at) {
    for (int i = 0; i < *n; i++)
        if (missing[i].dx == dx && missing[i].dy == dy && missing[i].mode == mode && missing[i].victim == victim)
            return;
    if (*n < max) missing[(*n)++] = (Miss){(int8_t)dx, (int8_t)dy, mode, (uint8_t)victim, at};
}

/* Compares in one position (built in p) the generator with the rules for the piece on c. */
static void compare_at(Finder *f, Cell c, Miss *missing, int *nmissing, int max) {
    const Variant *v = f->p->v;
    Behaviour *b = f->b;
    Reach got, want;
    probe_reach(f->p, c, &got);
    if (bits_any(got.remote)) b->remote = true;
    if (bits_any(got.changes_at)) b->converts = true;
    if (got.elsewhere) b->elsewhere = true;
    rules_predict(b, &f->p->pos, c, &want);
    /* (a piece put down names no maker: where another piece puts one down too, it is not told
     * whose it is) */
    for (int w = 0; w < CELL_WORDS; w++) want.places[w] &= ~got.others_place[w] | got.places[w];
    if (reach_same(&got, &want)) return;
    const CellInfo *ci = &v->cells[c];
    static const uint8_t modes[3] = {RULE_MOVE, RULE_TAKE, RULE_PLACE};
    for (int m = 0; m < 3; m++) {
        const uint64_t *g = m == 0 ? got.moves : m == 1 ? got.takes : got.places;
        const uint64_t *w = m == 0 ? want.moves : m == 1 ? want.takes : want.places;
        for (int t = 0; t < v->board_cells; t++) {
            bool gt = bits_has(g, (Cell)t), wt = bits_has(w, (Cell)t);
            if (gt == wt) continue;
            int dx = v->cells[t].x - ci->x, dy = v->cells[t].y - ci->y;
            if (wt) { /* predicted, not made: every rule that fired is wrong */
                for (int i = 0; i < b->nrules; i++) {
                    Rule *r = &b->rules[i];
                    Cell to;
                    if (r->dx == dx && r->dy == dy && r->mode == modes[m] && rule_fires(r, &f->p->pos, c, &to))
                        r->doubtful = true;
                }
            } else
                note_miss(missing, nmissing, max, dx, dy, modes[m],
                          modes[m] == RULE_TAKE ? PIECE_TYPE(f->p->pos.cell[t]) : b->dummy, c);
        }
    }
}

static int rnd(Probe *p, int n) { return n > 0 ? (int)(rng_next(&p->rng) % (uint64_t)n) : 0; }

/* The types random positions are filled with: enemies of any plain type but a royal one (a
 * royal piece brings the game's rules on checks and zones reached in), friends of the dummy's
 * (which promotions to lost pieces and captures with a friend's help do not hang on). */
static int random_type(Finder *f) {
    const Variant *v = f->p->v;
    for (int tries = 0; tries < 16; tries++) {
        int t = rnd(f->p, v->ntypes);
        if (plain_type(v, t) && !v->types[t].royal) return t;
    }
    return f->p->dummy;
}

static void check_rules(Finder *f, Miss *missing, int *nmissing, int max) {
    const Variant *v = f->p->v;
    const Board *bd = &v->boards[f->board];
    *nmissing = 0;
    /* enemies all around each cell, next to it, then two away */
    for (int c = 0; c < v->board_cells && f->p->enemy; c++) {
        if (v->cells[c].board != f->board) continue;
        /* (the dummy next to it; each royal type next to it) */
        for (int round = 0; round < 1 + v->ntypes; round++) {
            int ring = 1, victim = round < 1 ? f->p->dummy : round - 1;
            if (round >= 1 && (!v->types[victim].royal || !plain_type(v, victim) || v->forbid_check)) continue;
            probe_empty(f->p);
            board_put(&f->p->pos, (Cell)c, f->piece);
            for (int dx = -ring; dx <= ring; dx++)
                for (int dy = -ring; dy <= ring; dy++) {
                    Cell x = (abs(dx) == ring || abs(dy) == ring) ? cell_off(v, (Cell)c, dx, dy) : NO_CELL;
                    if (x != NO_CELL) board_put(&f->p->pos, x, enemy_of(f, victim));
                }
            compare_at(f, (Cell)c, missing, nmissing, max);
        }
    }
    /* random positions: a few pieces of any plain type and either side around it */
    for (int i = 0; i < CHECK_POSITIONS; i++) {
        probe_empty(f->p);
        Cell c = bd->at[rnd(f->p, bd->height)][rnd(f->p, bd->width)];
        if (c == NO_CELL) continue;
        bool moved = rnd(f->p, 5) == 0;
        board_put(&f->p->pos, c, (Piece)(f->piece | (moved ? PIECE_MOVED : 0)));
        int density = 5 + rnd(f->p, 40);
        for (int x = 0; x < v->board_cells; x++) {
            if (x == c || v->cells[x].board != f->board || rnd(f->p, 100) >= density) continue;
            int owner = (f->p->enemy && rnd(f->p, 2)) ? f->p->enemy : 0;
            board_put(&f->p->pos, (Cell)x, PIECE_MAKE(owner ? random_type(f) : f->p->dummy, owner));
        }
        /* (the first positions hold each type in turn, a friend's then an enemy's: a move that
         * hangs on some type standing anywhere shows) */
        int t = i / 2, owner = i % 2 ? f->p->enemy : 0;
        Cell x = bd->at[rnd(f->p, bd->height)][rnd(f->p, bd->width)];
        if (t < v->ntypes && (owner || i % 2 == 0) && plain_type(v, t) && !v->types[t].royal && x != NO_CELL && x != c)
            board_put(&f->p->pos, x, PIECE_MAKE(t, owner));
        compare_at(f, c, missing, nmissing, max);
    }
}

/* Makes the rule for a move the checks found and no rule predicted, from the cell it was seen
 * from: a plain move or take when the piece makes it on an otherwise empty board (with its
 * victim), else a hop when it makes it over a screen; false when it is neither. */
static bool rule_for_miss(Finder *f, const Miss *m) {
    const Variant *v = f->p->v;
    Rule probe = {0};
    probe.dx = m->dx, probe.dy = m->dy, probe.mode = m->mode, probe.kind = WAY_OPEN;
    probe.victims = probe.screens = ALL_TYPES;
    for (int kind = WAY_OPEN; kind <= WAY_SCREEN; kind++) {
        probe.kind = (uint8_t)kind;
        if (kind == WAY_SCREEN && gcd(m->dx, m->dy) < 2) break;
        exact_from(f, &probe, m->victim);
        if (!bits_any(probe.from)) continue;
        Rule *r = rule_add(f->b, m->dx, m->dy, m->mode, (uint8_t)kind, m->victim);
        if (!r) return false;
        memcpy(r->from, probe.from, sizeof r->from);
        r->doubtful = false;
        r->ref = rule_ref(v, r, m->at);
        if (kind == WAY_OPEN) find_ways(f, r);
        find_types(f, r);
        return true;
    }
    return false;
}

/* Drops a take that another take of the same move does already (the same cells, ways and
 * victims or fewer). */
static void drop_repeats(Behaviour *b) {
    int kept = 0;
    for (int i = 0; i < b->nrules; i++) {
        const Rule *r = &b->rules[i];
        bool repeat = false;
        for (int j = 0; j < b->nrules && !repeat && r->mode == RULE_TAKE; j++) {
            const Rule *o = &b->rules[j];
            if (j == i || o->mode != RULE_TAKE || o->dx != r->dx || o->dy != r->dy || o->kind != r->kind ||
                o->nways != r->nways || o->fresh_only != r->fresh_only || memcmp(o->from, r->from, sizeof r->from) ||
                memcmp(o->waylen, r->waylen, sizeof r->waylen) || memcmp(o->way, r->way, sizeof r->way))
                continue;
            repeat = (r->victims & ~o->victims) == 0 && (r->victims != o->victims || j < i);
        }
        if (!repeat) b->rules[kept++] = *r;
    }
    b->nrules = kept;
}

static bool rule_tangled(const Rule *r);

static void analyse(Probe *p, int type, Behaviour *b) {
    const Variant *v = p->v;
    memset(b, 0, sizeof *b);
    b->type = type;
    b->dummy = (uint8_t)p->dummy;
    p->rng = 0x2545F4914F6CDD1DULL ^ ((uint64_t)(type + 1) << 32); /* (the same checks, however it is asked for) */
    Finder F = {.p = p, .b = b, .piece = PIECE_MAKE(type, 0)};
    Finder *f = &F;
    f->board = home_board(v, p->start, type);
    f->alone = xcalloc((size_t)v->ncells, sizeof *f->alone);
    f->alone_moved = xcalloc((size_t)v->ncells, sizeof *f->alone_moved);
    /* 1. alone on every cell: its moves and puttings-down; fresh and once moved */
    for (int c = 0; c < v->board_cells; c++) {
        probe_alone(p, (Cell)c, f->piece, &f->alone[c]);
        probe_alone(p, (Cell)c, (Piece)(f->piece | PIECE_MOVED), &f->alone_moved[c]);
        const Reach *r = &f->alone[c];
        b->changes |= r->changes | f->alone_moved[c].changes;
        b->promotes_to |= r->promotes, b->promo_sets |= r->promo_sets;
        b->placed |= r->placed;
        if (r->elsewhere) b->elsewhere = true;
        for (int t = 0; t < v->board_cells; t++) {
            bool mv = bits_has(r->moves, (Cell)t), pl = bits_has(r->places, (Cell)t);
            if (!mv && !pl) continue;
            int dx = v->cells[t].x - v->cells[c].x, dy = v->cells[t].y - v->cells[c].y;
            Rule *rule = rule_add(b, dx, dy, mv ? RULE_MOVE : RULE_PLACE, WAY_OPEN, -1);
            if (rule) bit_set(rule->from, (Cell)c);
            if (mv && pl) {
                rule = rule_add(b, dx, dy, RULE_PLACE, WAY_OPEN, -1);
                if (rule) bit_set(rule->from, (Cell)c);
            }
        }
    }
    for (int i = 0; i < b->nrules; i++) { /* a move a piece that has moved never makes */
        Rule *r = &b->rules[i];
        bool later = false;
        for (int c = 0; c < v->board_cells && !later; c++) {
            Cell t = cell_off(v, (Cell)c, r->dx, r->dy);
            later = t != NO_CELL && rule_has(&f->alone_moved[c], r->mode, t);
        }
        r->fresh_only = !later;
        r->placed = r->mode == RULE_PLACE ? b->placed : 0;
    }
    b->origin = choose_origin(v, b, f->board);
    /* changes where it stands that the game's counters allow (experience): with every counter
     * at its start, then high */
    for (int high = 0; high < 2 && v->ncounter_slots; high++) {
        int32_t saved[MAX_COUNTERS];
        memcpy(saved, p->pos.counters, sizeof saved);
        for (int i = 0; high && i < v->ncounter_slots; i++) p->pos.counters[i] = 1000;
        probe_alone(p, b->origin, f->piece, &f->scratch);
        b->changes |= f->scratch.changes;
        memcpy(p->pos.counters, saved, sizeof saved);
    }
    /* 2. the ways of each move, from the origin or, for a move that does not apply there, from
     * as few other cells as cover them all (each one's scans cost a run per cell) */
    Cell refs[MAX_CELLS];
    int nrefs = 0;
    refs[nrefs++] = b->origin;
    for (;;) {
        Cell best = NO_CELL;
        int best_n = 0;
        for (int c = 0; c < v->board_cells; c++) {
            int n = 0;
            for (int i = 0; i < b->nrules; i++) {
                bool covered = false;
                for (int k = 0; k < nrefs && !covered; k++) covered = bits_has(b->rules[i].from, refs[k]);
                n += !covered && bits_has(b->rules[i].from, (Cell)c);
            }
            if (n > best_n ||
                (n == best_n && n && cell_distance(v, b->origin, (Cell)c) < cell_distance(v, b->origin, best)))
                best = (Cell)c, best_n = n;
        }
        if (best == NO_CELL) break;
        refs[nrefs++] = best;
    }
    for (int i = 0; i < b->nrules; i++) {
        Rule *r = &b->rules[i];
        r->ref = NO_CELL;
        for (int k = 0; k < nrefs; k++)
            if (bits_has(r->from, refs[k]) &&
                (r->ref == NO_CELL || cell_distance(v, b->origin, refs[k]) < cell_distance(v, b->origin, r->ref)))
                r->ref = refs[k];
    }
    for (int k = 0; k < nrefs; k++) blocker_scan(f, refs[k]);
    /* 3. takes: with one enemy on each cell; over a screen */
    for (int k = 0; k < nrefs; k++) enemy_scan(f, refs[k]);
    /* (a piece that jumps a screen somewhere is looked at from every cell: a screen may count
     * only in some zone) */
    bool hops = screen_scan(f, b->origin, MAX_BOARD_DIM);
    for (int i = 0; i < b->nrules && !hops; i++) hops = b->rules[i].kind == WAY_SCREEN;
    for (int c = 0; c < v->board_cells && hops; c++)
        if (v->cells[c].board == f->board && c != b->origin) screen_scan(f, (Cell)c, 3);
    for (int i = 0; i < b->nrules; i++) {
        Rule *r = &b->rules[i];
        if (r->mode == RULE_TAKE && r->kind == WAY_OPEN) {
            int mv = r->victim == b->dummy ? rule_find(b, r->dx, r->dy, RULE_MOVE, WAY_OPEN, -1) : -1;
            if (mv >= 0) { /* as it moves (the checks below will tell) */
                const Rule *m = &b->rules[mv];
                memcpy(r->from, m->from, sizeof r->from);
                r->nways = m->nways;
                memcpy(r->waylen, m->waylen, sizeof r->waylen);
                memcpy(r->way, m->way, sizeof r->way);
                r->fresh_only = m->fresh_only;
                r->ref = m->ref;
            } else {
                exact_from(f, r, r->victim);
                if (r->ref == NO_CELL || !bits_has(r->from, r->ref)) r->ref = rule_ref(v, r, b->origin);
                if (r->ref != NO_CELL) find_ways(f, r);
            }
        } else if (r->kind == WAY_SCREEN)
            exact_from(f, r, r->victim);
        if (r->ref == NO_CELL || !bits_has(r->from, r->ref)) r->ref = rule_ref(v, r, b->origin);
        if (r->ref == NO_CELL) {
            r->doubtful = true;
            continue;
        }
        /* the types are those of the nearest move along its line of the same kind (the checks
         * below try every type on every distance) */
        int ux, uy, g = primitive(r->dx, r->dy, &ux, &uy), same = -1;
        for (int j = 0; j < i && same < 0; j++) {
            const Rule *q = &b->rules[j];
            int qx, qy;
            primitive(q->dx, q->dy, &qx, &qy);
            if (qx == ux && qy == uy && q->mode == r->mode && q->kind == r->kind && q->victim == r->victim &&
                !q->doubtful && g > 1 && q->nways == r->nways)
                same = j;
        }
        if (same >= 0)
            r->victims = b->rules[same].victims, r->screens = b->rules[same].screens;
        else
            find_types(f, r);
    }
    /* (rules of a screen at a distance nothing reaches; a take found again with another victim) */
    int kept = 0;
    for (int i = 0; i < b->nrules; i++)
        if (bits_any(b->rules[i].from)) b->rules[kept++] = b->rules[i];
    b->nrules = kept;
    drop_repeats(b);
    /* 4. the checks, and a second look at what they found wrong */
    Miss missing[64];
    int nmissing = 0;
    check_rules(f, missing, &nmissing, (int)ARRAY_LEN(missing));
    if (getenv("DESCRIBE_DEBUG") && !strcmp(getenv("DESCRIBE_DEBUG"), v->types[type].name)) {
        fprintf(stderr, "first check: %d missing\n", nmissing);
        for (int i = 0; i < nmissing; i++)
            fprintf(stderr, "  miss (%d,%d) mode %d victim %d at %s\n", missing[i].dx, missing[i].dy, missing[i].mode,
                    missing[i].victim, v->cells[missing[i].at].name);
        for (int i = 0; i < b->nrules; i++)
            if (b->rules[i].doubtful)
                fprintf(stderr, "  doubtful (%d,%d) mode %d kind %d\n", b->rules[i].dx, b->rules[i].dy,
                        b->rules[i].mode, b->rules[i].kind);
    }
    bool again = nmissing > 0;
    int second_looks = 0;
    for (int i = 0; i < b->nrules; i++) {
        Rule *r = &b->rules[i];
        if (!r->doubtful || r->ref == NO_CELL) continue;
        again = true;
        if (++second_looks > MAX_SECOND_LOOKS) continue; /* (so many wrong: a program, not worth the runs) */
        r->doubtful = false;
        if (r->kind == WAY_OPEN) {
            if (r->mode == RULE_TAKE) exact_from(f, r, r->victim);
            if (!bits_has(r->from, r->ref)) r->ref = rule_ref(v, r, b->origin);
            if (r->ref != NO_CELL) find_ways(f, r);
        } else
            exact_from(f, r, r->victim);
        if (r->ref != NO_CELL) find_types(f, r);
    }
    bool unexplained = false;
    for (int i = 0; i < nmissing; i++)
        if (!rule_for_miss(f, &missing[i])) unexplained = true;
    if (again) {
        drop_repeats(b);
        for (int i = 0; i < b->nrules; i++) b->rules[i].doubtful = b->rules[i].ref == NO_CELL;
        check_rules(f, missing, &nmissing, (int)ARRAY_LEN(missing));
        if (nmissing) unexplained = true;
    }
    for (int i = 0; i < b->nrules; i++) {
        unexplained |= b->rules[i].doubtful || rule_tangled(&b->rules[i]);
        b->takes_shown |= !b->rules[i].doubtful && b->rules[i].mode == RULE_TAKE;
    }
    const PieceProgram *pp = &v->types[type].per_owner[0];
    for (int i = 0; i < pp->npatterns; i++)
        b->captures_away |= pp->patterns[i].method <= CAP_LEAP; /* (withdraw, pincer, coordinate, leap) */
    b->captures_away |= b->remote || ((v->imitator_mask >> type) & 1);
    b->unexplained = unexplained || b->too_many || b->elsewhere;
    if (getenv("DESCRIBE_DEBUG") && !strcmp(getenv("DESCRIBE_DEBUG"), v->types[type].name)) {
        fprintf(stderr, "type %s: %d rules unexplained %d\n", v->types[type].name, b->nrules, b->unexplained);
        for (int i = 0; i < b->nrules; i++) {
            Rule *r = &b->rules[i];
            fprintf(stderr, "  rule (%d,%d) mode %d kind %d nways %d len0 %d doubtful %d ref %s from %d victims %x\n",
                    r->dx, r->dy, r->mode, r->kind, r->nways, r->waylen[0], r->doubtful,
                    r->ref == NO_CELL ? "-" : v->cells[r->ref].name, bits_count(r->from), r->victims);
        }
    }
    b->never_moves = !b->nrules && !b->remote && !b->changes && !b->unexplained;
    free(f->alone);
    free(f->alone_moved);
}

/* ---- diagrams ------------------------------------------------------------------------------- */

/* Writes the position d holds as text and reads it back into p->copy (so that what the diagram
 * shows is what `varia moves --diagram` lists for that text). False when it does not read back. */
static bool diagram_position(Probe *p, Diagram *d, int type) {
    const Variant *v = p->v;
    probe_empty(p);
    for (int c = 0; c < v->ncells; c++)
        if (d->cells[c]) board_put(&p->pos, (Cell)c, d->cells[c]);
    p->pos.phase = d->phase;
    if (d->in_hand) p->pos.hand[0][type] = 1;
    fen_write(&p->pos, d->fen, sizeof d->fen);
    if (d->in_hand) p->pos.hand[0][type] = 0;
    p->pos.phase = 0;
    if (!p->copy) {
        p->copy = xmalloc(sizeof *p->copy);
        board_init(p->copy, v);
    }
    char err[200];
    return fen_read(p->copy, d->fen, err, sizeof err);
}

/* What the piece on d's origin (or the type from the hand) does in p->copy: its moves as its
 * rules make them (the rule that a royal piece may not be left attacked is the game's, said in
 * words), in the position's phase of the turn. */
static void copy_reach(Probe *p, const Diagram *d, int type, Reach *r, uint64_t *drops) {
    memset(r, 0, sizeof *r);
    if (drops) memset(drops, 0, CELL_WORDS * sizeof *drops);
    VmFault fault = {0};
    if (!movegen_pseudo(p->gen, p->copy, p->list, &fault)) return;
    for (int i = 0; i < p->list->count; i++) {
        const Move *m = &p->list->moves[i];
        if ((m->flags & MOVE_DROP) && drops && m->nfx && PIECE_TYPE(m->fx[0].piece) == type &&
            m->fx[0].kind == FX_PLACE)
            bit_set(drops, m->to);
    }
    if (!d->in_hand) moves_reach(p->gen, p->copy, p->list, p->spare, d->origin, r);
}

/* Fills d->mark from the generator: what the piece does in the position, and on each empty cell
 * what it would do to an enemy put there. False when the position is not one (d is dropped). */
static bool diagram_marks(Probe *p, Diagram *d, int type) {
    const Variant *v = p->v;
    memset(d->mark, 0, sizeof d->mark);
    if (!diagram_position(p, d, type)) return false;
    Reach r;
    uint64_t drops[CELL_WORDS];
    copy_reach(p, d, type, &r, drops);
    for (int c = 0; c < v->board_cells; c++) {
        if (c == d->origin && !d->in_hand) continue;
        uint8_t m = 0;
        if (bits_has(r.moves, (Cell)c)) m |= DESCRIBE_MOVE;
        if (bits_has(r.takes, (Cell)c)) m |= DESCRIBE_TAKE;
        if (bits_has(r.remote, (Cell)c)) m |= DESCRIBE_REMOTE;
        if (bits_has(r.places, (Cell)c) || (d->in_hand && bits_has(drops, (Cell)c))) m |= DESCRIBE_PLACE;
        if (d->cells[c]) m |= DESCRIBE_DRAWN;
        d->mark[c] = m;
    }
    /* an enemy put on each empty cell in turn */
    Probe *q = p;
    for (int c = 0; c < v->board_cells && p->enemy && !d->in_hand; c++) {
        if (c == d->origin || d->cells[c]) continue;
        board_put(q->copy, (Cell)c, PIECE_MAKE(p->dummy, p->enemy));
        Reach e;
        copy_reach(p, d, type, &e, NULL);
        if (bits_has(e.takes, (Cell)c)) d->mark[c] |= DESCRIBE_TAKE;
        if (bits_has(e.remote, (Cell)c)) d->mark[c] |= DESCRIBE_REMOTE;
        board_put(q->copy, (Cell)c, 0);
    }
    return true;
}

static int count_dmarks(const Variant *v, const Diagram *d) {
    int n = 0;
    for (int c = 0; c < v->board_cells; c++) n += (d->mark[c] & ~DESCRIBE_DRAWN) != 0;
    return n;
}

/* Starts a diagram of the piece alone on origin (in the first phase where it moves). */
static Diagram *diagram_new(Behaviour *b, Cell origin) {
    if (b->ndiagrams == DESCRIBE_MAX_DIAGRAMS) return NULL;
    Diagram *d = &b->diagrams[b->ndiagrams];
    memset(d, 0, sizeof *d);
    d->origin = origin;
    d->hl_from = d->hl_to = NO_CELL;
    if (origin != NO_CELL) d->cells[origin] = PIECE_MAKE(b->type, 0);
    return d;
}

/* Keeps the diagram being made (b->diagrams[b->ndiagrams]) when its position is one (and, for a
 * diagram of the piece alone elsewhere, when it shows some move). */
static bool diagram_keep_marked(Probe *p, Behaviour *b, Diagram *d);
static bool diagram_keep(Probe *p, Behaviour *b, Diagram *d) {
    const Variant *v = p->v;
    int nphases = v->nphases ? v->nphases : 1;
    for (int ph = 0; ph < nphases; ph++) {
        d->phase = (uint8_t)ph;
        if (!diagram_marks(p, d, b->type)) return false;
        if (count_dmarks(v, d) || ph + 1 == nphases) break;
    }
    if (!count_dmarks(v, d) && d->phase) {
        d->phase = 0;
        if (!diagram_marks(p, d, b->type)) return false;
    }
    b->ndiagrams++;
    return true;
}

static bool diagram_keep_marked(Probe *p, Behaviour *b, Diagram *d) {
    if (!diagram_keep(p, b, d)) return false;
    if (count_dmarks(p->v, d)) return true;
    b->ndiagrams--;
    return false;
}

static void cell_name(const Variant *v, Cell c, char *buf, size_t cap) {
    snprintf(buf, cap, "%s", c == NO_CELL ? "?" : v->cells[c].name);
}

/* The cells a rule could apply from if only the board limited it: its target and the cells
 * of one of its ways are on the board. */
static bool rule_natural(const Variant *v, const Rule *r, Cell c) {
    if (cell_off(v, c, r->dx, r->dy) == NO_CELL) return false;
    if (r->kind == WAY_SCREEN || r->nways == 0) {
        Cell line[MAX_BOARD_DIM];
        return line_cells(v, c, r->dx, r->dy, line) >= 0;
    }
    for (int w = 0; w < r->nways; w++) {
        bool on = true;
        for (int k = 0; k < r->waylen[w] && on; k++) on = cell_off(v, c, r->way[w][k][0], r->way[w][k][1]) != NO_CELL;
        if (on) return true;
    }
    return false;
}

static bool rule_restricted(const Variant *v, const Rule *r) {
    for (int c = 0; c < v->board_cells; c++)
        if (bits_has(r->from, (Cell)c) != rule_natural(v, r, (Cell)c)) return true;
    return false;
}

/* Is r a move over cells it could not stop on (a lame leap, a leg, a two-step)? */
static bool rule_lame(const Behaviour *b, const Rule *r) {
    if (r->kind != WAY_OPEN) return false;
    if (r->nways > 1) return true;
    if (r->nways == 1) return r->waylen[0] > 0;
    int g = gcd(r->dx, r->dy);
    if (g < 2) return false;
    /* a line it rides along is not lame; a line whose nearer cells it cannot stop on is */
    int i = rule_find(b, r->dx / g, r->dy / g, r->mode, WAY_OPEN, r->victim);
    return i < 0 || b->rules[i].doubtful;
}

/* Is r blocked from c by the pieces in cells? */
static bool rule_blocked_by(const Variant *v, const Rule *r, Cell c, const Piece *cells) {
    if (r->nways == 0) {
        Cell line[MAX_BOARD_DIM];
        int n = line_cells(v, c, r->dx, r->dy, line);
        for (int k = 0; k < n; k++)
            if (cells[line[k]]) return true;
        return false;
    }
    for (int w = 0; w < r->nways; w++) {
        bool open = true;
        for (int k = 0; k < r->waylen[w] && open; k++) {
            Cell x = cell_off(v, c, r->way[w][k][0], r->way[w][k][1]);
            open = x != NO_CELL && !cells[x];
        }
        if (open) return false;
    }
    return true;
}

/* The type of the friendly pieces drawn in a piece's way: the probes' dummy, or another plain
 * type when the piece is of the dummy's (so that the piece stands out). */
static int drawn_blocker(const Probe *p, int type) {
    const Variant *v = p->v;
    if (type != p->dummy) return p->dummy;
    for (int t = 0; t < v->ntypes; t++)
        if (t != type && !v->types[t].royal && plain_type(v, t) && !v->types[t].written) return t;
    return p->dummy;
}

/* The blocker diagram: up to two blockers on the ways of its lame moves from o, where they
 * stop the most of them. */
static void add_blocker_diagram(Probe *p, Behaviour *b) {
    const Variant *v = p->v;
    Cell o = b->origin;
    Cell cand[64];
    int ncand = 0;
    for (int i = 0; i < b->nrules; i++) {
        const Rule *r = &b->rules[i];
        if (r->doubtful || !bits_has(r->from, o) || !rule_lame(b, r)) continue;
        Cell line[MAX_BOARD_DIM];
        int n = 0;
        if (r->nways == 0)
            n = line_cells(v, o, r->dx, r->dy, line);
        else
            for (int w = 0; w < r->nways; w++)
                for (int k = 0; k < r->waylen[w] && n < MAX_BOARD_DIM; k++) {
                    Cell x = cell_off(v, o, r->way[w][k][0], r->way[w][k][1]);
                    if (x != NO_CELL) line[n++] = x;
                }
        for (int k = 0; k < n; k++) {
            bool seen = false;
            for (int j = 0; j < ncand && !seen; j++) seen = cand[j] == line[k];
            if (!seen && ncand < (int)ARRAY_LEN(cand)) cand[ncand++] = line[k];
        }
    }
    if (!ncand) return;
    int best = -1, best_a = -1, best_b = -1;
    Piece cells[MAX_CELLS];
    for (int a = 0; a < ncand; a++)
        for (int c = a; c < ncand; c++) {
            memset(cells, 0, sizeof cells);
            cells[cand[a]] = cells[cand[c]] = 1;
            int stopped = 0;
            for (int i = 0; i < b->nrules; i++) {
                const Rule *r = &b->rules[i];
                if (!r->doubtful && bits_has(r->from, o) && rule_lame(b, r) && r->mode != RULE_TAKE)
                    stopped += rule_blocked_by(v, r, o, cells);
            }
            stopped = stopped * 2 - (c != a); /* (one blocker when it does as well) */
            if (stopped > best) best = stopped, best_a = a, best_b = c;
        }
    if (best <= 0) return;
    Diagram *d = diagram_new(b, o);
    if (!d) return;
    d->cells[cand[best_a]] = d->cells[cand[best_b]] = PIECE_MAKE(drawn_blocker(p, b->type), 0);
    char x[24], y[24], at[24];
    cell_name(v, o, at, sizeof at);
    cell_name(v, cand[best_a], x, sizeof x);
    cell_name(v, cand[best_b], y, sizeof y);
    if (best_a == best_b)
        snprintf(d->caption, sizeof d->caption, "on %s with a piece on %s, in its way:", at, x);
    else
        snprintf(d->caption, sizeof d->caption, "on %s with pieces on %s and %s, in its way:", at, x, y);
    diagram_keep(p, b, d);
}

/* The screen diagram: on each line along which it jumps, a piece to jump and an enemy beyond. */
static bool shown_at(const Variant *v, const Behaviour *b, const Rule *r, Cell o);
static void add_screen_diagram(Probe *p, Behaviour *b, Cell o) {
    const Variant *v = p->v;
    bool any = false;
    Diagram *d = diagram_new(b, o);
    if (!d) return;
    for (int ux = -1; ux <= 1; ux++)
        for (int uy = -1; uy <= 1; uy++) {
            /* the farthest distance (up to 4) it jumps to along this line from o */
            int e = 0;
            for (int i = 0; i < b->nrules; i++) {
                const Rule *r = &b->rules[i];
                int rx, ry, g = primitive(r->dx, r->dy, &rx, &ry);
                if (!r->doubtful && r->kind == WAY_SCREEN && rx == ux && ry == uy && bits_has(r->from, o) && g <= 4 &&
                    g > e)
                    e = g;
            }
            if (e < 2) continue;
            int s = e >= 4 ? 2 : 1;
            d->cells[cell_off(v, o, s * ux, s * uy)] = PIECE_MAKE(drawn_blocker(p, b->type), 0);
            if (p->enemy) d->cells[cell_off(v, o, e * ux, e * uy)] = PIECE_MAKE(p->dummy, p->enemy);
            any = true;
        }
    if (!any) return;
    char at[24];
    cell_name(v, o, at, sizeof at);
    snprintf(d->caption, sizeof d->caption, "on %s with pieces to jump on its lines:", at);
    diagram_keep(p, b, d);
}

/* Screen diagrams: from the origin, and from the cell where the most of the jumps it cannot
 * make from there apply. */
static void add_screen_diagrams(Probe *p, Behaviour *b) {
    const Variant *v = p->v;
    Cell o = b->origin, best = NO_CELL;
    add_screen_diagram(p, b, o);
    int best_n = 0;
    for (int c = 0; c < v->board_cells; c++) {
        if (v->cells[c].board != v->cells[o].board) continue;
        int n = 0;
        for (int i = 0; i < b->nrules; i++) {
            const Rule *r = &b->rules[i];
            n += r->kind == WAY_SCREEN && !shown_at(v, b, r, o) && bits_has(r->from, (Cell)c);
        }
        if (n > best_n || (n == best_n && n && cell_distance(v, o, (Cell)c) < cell_distance(v, o, best)))
            best = (Cell)c, best_n = n;
    }
    if (best != NO_CELL) add_screen_diagram(p, b, best);
}

/* The diagram of a take that only an enemy royal piece suffers (an attack on it, which the
 * game's rule on royal pieces turns into a move neither may leave open): that piece where it
 * is taken so, the nearest its own start. */
static void add_royal_diagram(Probe *p, Behaviour *b) {
    const Variant *v = p->v;
    Cell o = b->origin;
    if (!p->enemy) return;
    Piece cells[MAX_CELLS] = {0};
    Cell best = NO_CELL;
    int best_type = -1;
    for (int i = 0; i < b->nrules; i++) {
        const Rule *r = &b->rules[i];
        if (r->doubtful || r->mode != RULE_TAKE || !r->victims || (r->victims & ~v->royal_types) ||
            !bits_has(r->from, o))
            continue;
        Cell t = cell_off(v, o, r->dx, r->dy), home = NO_CELL;
        if (t == NO_CELL) continue;
        /* (the other takes of that move must not take there) */
        bool plain = false;
        for (int j = 0; j < b->nrules && !plain; j++) {
            const Rule *q = &b->rules[j];
            plain = !q->doubtful && q->mode == RULE_TAKE && q->dx == r->dx && q->dy == r->dy &&
                (q->victims & ~v->royal_types) && bits_has(q->from, o);
        }
        if (plain) continue;
        int rt = __builtin_ctz(r->victims);
        for (int c = 0; c < v->board_cells && home == NO_CELL; c++)
            if (p->start[c] && PIECE_TYPE(p->start[c]) == rt && PIECE_OWNER(p->start[c]) == p->enemy) home = (Cell)c;
        if (home == NO_CELL) home = t;
        memset(cells, 0, sizeof cells);
        cells[o] = 1;
        Cell x;
        Position *pos = &p->pos;
        probe_empty(p);
        board_put(pos, o, PIECE_MAKE(b->type, 0));
        board_put(pos, t, PIECE_MAKE(rt, p->enemy));
        if (!rule_fires(r, pos, o, &x)) continue;
        if (best == NO_CELL || cell_distance(v, home, t) < cell_distance(v, home, best)) best = t, best_type = rt;
    }
    if (best == NO_CELL) return;
    Diagram *d = diagram_new(b, o);
    if (!d) return;
    d->cells[best] = PIECE_MAKE(best_type, p->enemy);
    char at[24], there[24];
    cell_name(v, o, at, sizeof at);
    cell_name(v, best, there, sizeof there);
    snprintf(d->caption, sizeof d->caption, "on %s with the enemy %s on %s, which it attacks:", at,
             v->types[best_type].name, there);
    diagram_keep(p, b, d);
}

static void find_example(Probe *p, const Behaviour *b, Diagram *d);
static bool same_zone(const Variant *v, const Rule *a, const Rule *b);

/* Does a diagram from o show what r does: it applies there, or it is a longer move along a line
 * that applies there with the same zones (or it is doubtful: no diagram is owed to it)? */
static bool shown_at(const Variant *v, const Behaviour *b, const Rule *r, Cell o) {
    if (r->doubtful || bits_has(r->from, o) || !rule_restricted(v, r)) return true;
    int ux, uy;
    primitive(r->dx, r->dy, &ux, &uy);
    for (int j = 0; j < b->nrules; j++) {
        const Rule *s = &b->rules[j];
        int sx, sy;
        primitive(s->dx, s->dy, &sx, &sy);
        if (sx == ux && sy == uy && s->mode == r->mode && s->kind == r->kind && !s->doubtful && bits_has(s->from, o) &&
            same_zone(v, r, s))
            return true;
    }
    return false;
}

static void choose_diagrams(Probe *p, Behaviour *b) {
    const Variant *v = p->v;
    Cell o = b->origin;
    char at[24];
    /* the piece alone where the most of its moves apply */
    Diagram *d = diagram_new(b, o);
    cell_name(v, o, at, sizeof at);
    snprintf(d->caption, sizeof d->caption, "alone on %s:", at);
    if (!diagram_keep(p, b, d)) return;
    /* alone there in the turn's other phases, where it does otherwise (a duck put down) */
    int first = b->ndiagrams - 1;
    for (int ph = 0; ph < v->nphases; ph++) {
        if (ph == b->diagrams[first].phase || !(d = diagram_new(b, o))) continue;
        d->phase = (uint8_t)ph;
        if (!diagram_marks(p, d, b->type) || !count_dmarks(v, d) ||
            !memcmp(d->mark, b->diagrams[first].mark, sizeof d->mark))
            continue;
        snprintf(d->caption, sizeof d->caption, "alone on %s, in the turn's phase '%s':", at, v->phases[ph].name);
        b->ndiagrams++;
    }
    /* alone elsewhere: where the moves it lacks there apply, and where a move limited to
     * some cells stops applying */
    bool covered[MAX_RULES] = {0};
    for (int i = 0; i < b->nrules; i++) covered[i] = shown_at(v, b, &b->rules[i], o);
    for (int extra = 0; extra < 2; extra++) {
        Cell best = NO_CELL;
        int best_n = 0;
        for (int c = 0; c < v->board_cells; c++) {
            if (v->cells[c].board != v->cells[o].board) continue;
            int n = 0;
            for (int i = 0; i < b->nrules; i++) n += !covered[i] && bits_has(b->rules[i].from, (Cell)c);
            if (n > best_n || (n == best_n && n && cell_distance(v, o, (Cell)c) < cell_distance(v, o, best)))
                best = (Cell)c, best_n = n;
        }
        if (best == NO_CELL) break;
        for (int i = 0; i < b->nrules; i++) covered[i] |= bits_has(b->rules[i].from, best);
        d = diagram_new(b, best);
        if (!d) break;
        cell_name(v, best, at, sizeof at);
        snprintf(d->caption, sizeof d->caption, "alone on %s:", at);
        diagram_keep_marked(p, b, d);
    }
    Cell outside = NO_CELL;
    for (int c = 0; c < v->board_cells; c++) {
        if (c == o || v->cells[c].board != v->cells[o].board || !rules_from(b, (Cell)c)) continue;
        if (outside != NO_CELL &&
            cell_distance(v, o, (Cell)c) * 4096 + centre_distance(v, (Cell)c) >=
                cell_distance(v, o, outside) * 4096 + centre_distance(v, outside))
            continue;
        for (int i = 0; i < b->nrules; i++) {
            const Rule *r = &b->rules[i];
            if (!r->doubtful && bits_has(r->from, o) && !bits_has(r->from, (Cell)c) && rule_natural(v, r, (Cell)c) &&
                rule_restricted(v, r)) {
                outside = (Cell)c;
                break;
            }
        }
    }
    bool shown = false;
    for (int i = 0; i < b->ndiagrams; i++) shown |= b->diagrams[i].origin == outside;
    if (outside != NO_CELL && !shown && (d = diagram_new(b, outside))) {
        cell_name(v, outside, at, sizeof at);
        snprintf(d->caption, sizeof d->caption, "alone on %s:", at);
        diagram_keep_marked(p, b, d);
    }
    add_blocker_diagram(p, b);
    add_screen_diagrams(p, b);
    add_royal_diagram(p, b);
    /* a capture that needs other pieces, or moves no rule explains: a real position */
    const PieceType *pt = &v->types[b->type];
    if ((b->captures_away || b->converts || b->unexplained || (pt->per_owner[0].may_capture && !b->takes_shown)) &&
        (d = diagram_new(b, NO_CELL))) {
        find_example(p, b, d);
        if (d->origin != NO_CELL && diagram_marks(p, d, b->type)) b->ndiagrams++;
    }
    /* put down by its drop program, in the start position */
    if (pt->drops && (d = diagram_new(b, NO_CELL))) {
        d->in_hand = true;
        memcpy(d->cells, p->start, sizeof d->cells);
        snprintf(d->caption, sizeof d->caption, "put on the board, in the start position:");
        diagram_keep(p, b, d);
    }
    /* from the hand */
    if (v->has_hands && pt->droppable && (d = diagram_new(b, NO_CELL))) {
        d->in_hand = true;
        snprintf(d->caption, sizeof d->caption, "in the hand, on an empty board:");
        diagram_keep(p, b, d);
    }
}

/* ---- words ----------------------------------------------------------------------------------- */

static const char *result_words(ResultKind r) {
    switch (r) {
    case RESULT_WIN: return "wins";
    case RESULT_LOSS: return "loses";
    case RESULT_DRAW: return "draws";
    case RESULT_PASS: return "passes the turn";
    case RESULT_WORTH: return "is decided by worth (the more worth wins)";
    case RESULT_MOST: return "is decided by the pieces on the board (the most win)";
    default: return "plays on";
    }
}

/* A board displacement in the first player's frame (the inverse of its orientation). */
static void to_frame(const Variant *v, int dx, int dy, int *fx, int *fy) {
    static const Orientation inverse[ORIENT__COUNT] = {
        [ORIENT_IDENTITY] = ORIENT_IDENTITY,   [ORIENT_FLIP] = ORIENT_FLIP,
        [ORIENT_MIRROR] = ORIENT_MIRROR,       [ORIENT_ROT90] = ORIENT_ROT270,
        [ORIENT_ROT180] = ORIENT_ROT180,       [ORIENT_ROT270] = ORIENT_ROT90,
        [ORIENT_TRANSPOSE] = ORIENT_TRANSPOSE, [ORIENT_ANTITRANSPOSE] = ORIENT_ANTITRANSPOSE,
    };
    variant_orient_vector(inverse[v->orient[0]], dx, dy, fx, fy);
}

/* A direction (primitive vector in the first player's frame) in words. */
static void direction_words(int dx, int dy, char *buf, size_t cap) {
    const char *fb = dy > 0 ? "forward" : dy < 0 ? "backward" : "";
    const char *lr = dx > 0 ? "right" : dx < 0 ? "left" : "";
    if (!dx || !dy || abs(dx) == abs(dy))
        snprintf(buf, cap, "%s%s%s", fb, *fb && *lr ? "-" : "", lr);
    else
        snprintf(buf, cap, "%d %s and %d %s", abs(dy), fb, abs(dx), lr);
}

/* Appends to buf (at *n, capacity cap) as snprintf does. */
static void add(char *buf, size_t cap, size_t *n, const char *fmt, ...) {
    if (*n >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf + *n, cap - *n, fmt, ap);
    va_end(ap);
    if (k > 0) *n += (size_t)k;
    if (*n >= cap) *n = cap - 1;
}

/* A set of types in words: "King", "Rook or Cannon". */
static void types_words(const Variant *v, uint32_t types, const char *join, char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = 0;
    int k = 0, total = __builtin_popcount(types);
    for (int t = 0; t < v->ntypes; t++)
        if (types >> t & 1) {
            k++;
            add(buf, cap, &n, "%s%s", k == 1 ? "" : k == total ? join : ", ", v->types[t].name);
        }
}

/* How the zones limit where a rule applies. */
enum { ZONE_NONE, ZONE_ONTO, ZONE_FROM, ZONE_WITHIN, ZONE_FROM_ONTO, ZONE_FROM_EITHER, ZONE_CELLS };
typedef struct ZoneCond {
    uint8_t kind, z1, z2;
} ZoneCond;

static bool zone_in(const Variant *v, int z, Cell c) { return zone_has(&v->zones[z], 0, c); }

/* Would a rule of displacement (dx, dy) with r's way apply from c under the condition? */
static bool zone_allows(const Variant *v, const ZoneCond *zc, const Rule *r, int dx, int dy, Cell c) {
    Rule probe = *r;
    probe.dx = (int8_t)dx, probe.dy = (int8_t)dy;
    if (!rule_natural(v, &probe, c)) return false;
    Cell t = cell_off(v, c, dx, dy);
    switch (zc->kind) {
    case ZONE_NONE: return true;
    case ZONE_ONTO: return zone_in(v, zc->z1, t);
    case ZONE_FROM: return zone_in(v, zc->z1, c);
    case ZONE_FROM_ONTO: return zone_in(v, zc->z1, c) && zone_in(v, zc->z2, t);
    case ZONE_FROM_EITHER: return zone_in(v, zc->z1, c) || zone_in(v, zc->z2, c);
    case ZONE_WITHIN: {
        if (!zone_in(v, zc->z1, c) || !zone_in(v, zc->z1, t)) return false;
        Cell line[MAX_BOARD_DIM];
        int n = r->nways == 0 || r->kind == WAY_SCREEN ? line_cells(v, c, dx, dy, line) : 0;
        for (int k = 0; k < n; k++)
            if (!zone_in(v, zc->z1, line[k])) return false;
        for (int k = 0; r->nways && r->kind == WAY_OPEN && k < r->waylen[0]; k++) {
            Cell x = cell_off(v, c, r->way[0][k][0], r->way[0][k][1]);
            if (x == NO_CELL || !zone_in(v, zc->z1, x)) return false;
        }
        return true;
    }
    default: return bits_has(r->from, c);
    }
}

static bool zone_fits(const Variant *v, const ZoneCond *zc, const Rule *r) {
    for (int c = 0; c < v->board_cells; c++)
        if (zone_allows(v, zc, r, r->dx, r->dy, (Cell)c) != bits_has(r->from, (Cell)c)) return false;
    return true;
}

/* The simplest condition that names r's cells exactly (ZONE_CELLS when none does). */
static ZoneCond zone_of(const Variant *v, const Rule *r) {
    ZoneCond zc = {ZONE_NONE, 0, 0};
    if (zone_fits(v, &zc, r)) return zc;
    static const uint8_t kinds[] = {ZONE_FROM, ZONE_ONTO, ZONE_WITHIN};
    for (size_t k = 0; k < ARRAY_LEN(kinds); k++)
        for (int z = 0; z < v->nzones; z++) {
            zc = (ZoneCond){kinds[k], (uint8_t)z, 0};
            if (zone_fits(v, &zc, r)) return zc;
        }
    for (int z1 = 0; z1 < v->nzones; z1++)
        for (int z2 = 0; z2 < v->nzones; z2++) {
            zc = (ZoneCond){ZONE_FROM_ONTO, (uint8_t)z1, (uint8_t)z2};
            if (zone_fits(v, &zc, r)) return zc;
        }
    for (int z1 = 0; z1 < v->nzones; z1++)
        for (int z2 = z1 + 1; z2 < v->nzones; z2++) {
            zc = (ZoneCond){ZONE_FROM_EITHER, (uint8_t)z1, (uint8_t)z2};
            if (zone_fits(v, &zc, r)) return zc;
        }
    return (ZoneCond){ZONE_CELLS, 0, 0};
}

/* Do a and b have the same condition on where they apply? */
static bool same_zone(const Variant *v, const Rule *a, const Rule *b) {
    ZoneCond za = zone_of(v, a), zb = zone_of(v, b);
    return za.kind == zb.kind && za.kind != ZONE_CELLS && za.z1 == zb.z1 && za.z2 == zb.z2;
}

static void zone_words(const Variant *v, const ZoneCond *zc, const Rule *r, uint32_t *zones_used, char *buf,
                       size_t cap) {
    size_t n = 0;
    buf[0] = 0;
    switch (zc->kind) {
    case ZONE_ONTO: add(buf, cap, &n, ", only onto zone '%s'", v->zones[zc->z1].name); break;
    case ZONE_FROM: add(buf, cap, &n, ", only from zone '%s'", v->zones[zc->z1].name); break;
    case ZONE_WITHIN: add(buf, cap, &n, ", only within zone '%s'", v->zones[zc->z1].name); break;
    case ZONE_FROM_ONTO:
        add(buf, cap, &n, ", only from zone '%s' onto zone '%s'", v->zones[zc->z1].name, v->zones[zc->z2].name);
        break;
    case ZONE_FROM_EITHER:
        add(buf, cap, &n, ", only from zones '%s' and '%s'", v->zones[zc->z1].name, v->zones[zc->z2].name);
        break;
    case ZONE_CELLS:
        if (bits_count(r->from) <= 10) {
            add(buf, cap, &n, ", only from");
            for (int c = 0; c < v->board_cells; c++)
                if (bits_has(r->from, (Cell)c)) add(buf, cap, &n, " %s", v->cells[c].name);
        } else
            add(buf, cap, &n, ", only from some cells (see the diagrams)");
        break;
    default: break;
    }
    if (zc->kind != ZONE_NONE && zc->kind != ZONE_CELLS) *zones_used |= 1u << zc->z1;
    if (zc->kind == ZONE_FROM_ONTO || zc->kind == ZONE_FROM_EITHER) *zones_used |= 1u << zc->z2;
}

/* How a rule's way reads: a leap, a line, a jump over anything, or the steps of a lame move. */
enum { FORM_LINE, FORM_JUMP, FORM_LAME };

/* How many steps of the last kind end the chain. */
static int kinds_last_run(const int *kinds, int n) {
    int k = 1;
    while (k < n && kinds[n - 1 - k] == kinds[n - 1]) k++;
    return k;
}

/* The steps from the origin through a way's cells to (dx, dy), in words ("1 orthogonal then 1
 * diagonal step"); false when they are not a chain of single steps. */
static bool chain_words(int8_t (*way)[2], int len, int dx, int dy, char *buf, size_t cap) {
    int order[MAX_WAY_CELLS + 1], px = 0, py = 0;
    bool used[MAX_WAY_CELLS] = {0};
    for (int i = 0; i < len; i++) { /* each next cell is one step from the last */
        order[i] = -1;
        for (int k = 0; k < len; k++)
            if (!used[k] && abs(way[k][0] - px) <= 1 && abs(way[k][1] - py) <= 1) {
                order[i] = k;
                used[k] = true;
                px = way[k][0], py = way[k][1];
                break;
            }
        if (order[i] < 0) return false;
    }
    if (abs(dx - px) > 1 || abs(dy - py) > 1) return false;
    /* the kinds of step, runs counted */
    int kinds[MAX_WAY_CELLS + 1], n = 0;
    px = py = 0;
    for (int i = 0; i <= len; i++) {
        int x = i < len ? way[order[i]][0] : dx, y = i < len ? way[order[i]][1] : dy;
        kinds[n++] = (x != px && y != py) ? 1 : 0;
        px = x, py = y;
    }
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && kinds[j] == kinds[i]) j++;
        add(buf, cap, &at, "%s%d %s", i ? " then " : "", j - i, kinds[i] ? "diagonal" : "orthogonal");
        i = j;
    }
    add(buf, cap, &at, " step%s", kinds_last_run(kinds, n) > 1 ? "s" : "");
    return true;
}

typedef struct WordRule {
    int8_t dx, dy;
    uint8_t modes, kind, shape;
    uint32_t victims, screens, placed;
    bool fresh_only;
    ZoneCond zone;
    char zone_text[160], way_text[200];
    const Rule *rule; /* (the move's, else the take's) */
} WordRule;

static bool same_way(const Rule *a, const Rule *b) {
    if (a->kind != b->kind || a->nways != b->nways || a->fresh_only != b->fresh_only) return false;
    if (memcmp(a->from, b->from, sizeof a->from)) return false;
    if (a->kind == WAY_SCREEN) return a->screens == b->screens;
    for (int w = 0; w < a->nways; w++) {
        if (a->waylen[w] != b->waylen[w]) return false;
        if (memcmp(a->way[w], b->way[w], (size_t)a->waylen[w] * 2)) return false;
    }
    return true;
}

/* The rules that held, as word rules: a move and a take that do the same merged. */
/* Are r's ways too tangled to read (several ways of several cells each)? */
static bool rule_tangled(const Rule *r) {
    if (r->kind != WAY_OPEN || r->nways < 2) return false;
    for (int w = 0; w < r->nways; w++)
        if (r->waylen[w] > 1 || r->nways > 2) return true;
    return false;
}

/* Is r of a class (action, way, victim) some rule of which the checks found wrong, or too
 * tangled to read? The words leave such a class to the diagrams whole rather than say part of
 * it. */
static bool class_doubtful(const Behaviour *b, const Rule *r) {
    for (int i = 0; i < b->nrules; i++) {
        const Rule *q = &b->rules[i];
        if ((q->doubtful || rule_tangled(q)) && q->mode == r->mode && q->kind == r->kind && q->victim == r->victim)
            return true;
    }
    return false;
}

static int word_rules(const Variant *v, const Behaviour *b, WordRule *out, uint32_t *zones_used) {
    int n = 0;
    bool done[MAX_RULES] = {0};
    for (int i = 0; i < b->nrules; i++) {
        const Rule *r = &b->rules[i];
        if (r->doubtful || done[i] || class_doubtful(b, r)) continue;
        WordRule *w = &out[n++];
        memset(w, 0, sizeof *w);
        w->dx = r->dx, w->dy = r->dy, w->modes = r->mode, w->kind = r->kind;
        w->victims = r->mode == RULE_TAKE ? r->victims : ALL_TYPES;
        w->screens = r->kind == WAY_SCREEN ? r->screens : ALL_TYPES;
        w->placed = r->placed;
        w->fresh_only = r->fresh_only;
        w->rule = r;
        done[i] = true;
        for (int j = i + 1; j < b->nrules; j++) {
            const Rule *s = &b->rules[j];
            if (done[j] || s->doubtful || class_doubtful(b, s) || s->dx != r->dx || s->dy != r->dy || !same_way(r, s))
                continue;
            if ((r->mode | s->mode) != (RULE_MOVE | RULE_TAKE)) continue;
            /* (a take of only a few types reads better apart: "captures only an enemy King") */
            uint32_t victims = r->mode == RULE_TAKE ? r->victims : s->victims;
            if (victims != ALL_TYPES && __builtin_popcount(victims & ((1u << v->ntypes) - 1)) * 2 <= v->ntypes &&
                (victims & ((1u << v->ntypes) - 1)) != (uint32_t)((1u << v->ntypes) - 1))
                continue;
            w->modes = RULE_MOVE | RULE_TAKE;
            if (s->mode == RULE_TAKE) w->victims = s->victims;
            done[j] = true;
        }
        /* types: a take of every type there is, is a take of anything */
        uint32_t all = v->ntypes >= 32 ? ALL_TYPES : (1u << v->ntypes) - 1;
        if ((w->victims & all) == all) w->victims = ALL_TYPES;
        if ((w->screens & all) == all) w->screens = ALL_TYPES;
        w->zone = zone_of(v, r);
        zone_words(v, &w->zone, r, zones_used, w->zone_text, sizeof w->zone_text);
        int ux, uy, g = primitive(r->dx, r->dy, &ux, &uy);
        if (r->kind == WAY_SCREEN || r->nways == 0)
            w->shape = FORM_LINE;
        else if (r->nways == 1 && r->waylen[0] == 0)
            w->shape = g > 1 ? FORM_JUMP : FORM_LINE;
        else {
            w->shape = FORM_LAME;
            size_t at = 0;
            char chain[120];
            bool all_same = true;
            char first[120] = "";
            for (int k = 0; k < r->nways; k++) {
                if (!chain_words((int8_t(*)[2])r->way[k], r->waylen[k], r->dx, r->dy, chain, sizeof chain))
                    all_same = false;
                else if (!k)
                    snprintf(first, sizeof first, "%s", chain);
                else if (strcmp(first, chain))
                    all_same = false;
            }
            if (all_same && r->nways == 1)
                add(w->way_text, sizeof w->way_text, &at, ", as %s: blocked by a piece on the way", first);
            else if (all_same)
                add(w->way_text, sizeof w->way_text, &at,
                    ", as %s by either of %d ways: blocked only when each way has a piece on it", first, r->nways);
            else {
                add(w->way_text, sizeof w->way_text, &at, ", blocked by a piece on");
                for (int k = 0; k < r->nways; k++) {
                    add(w->way_text, sizeof w->way_text, &at, "%s", k ? " and one on" : "");
                    for (int c = 0; c < r->waylen[k]; c++) {
                        int fx, fy;
                        to_frame(v, r->way[k][c][0], r->way[k][c][1], &fx, &fy);
                        add(w->way_text, sizeof w->way_text, &at, "%s(%d,%d)", c ? " or " : " ", fx, fy);
                    }
                }
                add(w->way_text, sizeof w->way_text, &at, " (cells counted from it)");
            }
        }
    }
    return n;
}

/* The longest distance along (ux, uy) a word rule like w could have anywhere on the board. */
static int longest_reach(const Variant *v, const WordRule *w, int ux, int uy) {
    int best = 0, most = longest_line(v, ux, uy);
    for (int k = 1; k < most; k++)
        for (int c = 0; c < v->board_cells; c++)
            if (zone_allows(v, &w->zone, w->rule, k * ux, k * uy, (Cell)c)) {
                best = k;
                break;
            }
    return best;
}

/* The direction set's name: "orthogonally", "diagonally", "in all eight directions", or the
 * directions one by one (in the first player's frame); leaps by their shape. */
static void directions_words(const Variant *v, const int (*u)[2], int n, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = 0;
    int orth = 0, diag = 0, la = -1, lb = -1, others = 0;
    bool one_shape = true;
    for (int i = 0; i < n; i++) {
        int a = abs(u[i][0]), b = abs(u[i][1]);
        if ((!a || !b) && a + b == 1)
            orth++;
        else if (a == 1 && b == 1)
            diag++;
        else {
            others++;
            if (a > b) a ^= b, b ^= a, a ^= b;
            if (la < 0) la = a, lb = b;
            one_shape &= a == la && b == lb;
        }
    }
    if (orth == 4 && diag == 4 && !others) {
        add(buf, cap, &at, "in all eight directions");
        return;
    }
    if (orth == 4) add(buf, cap, &at, "orthogonally");
    if (diag == 4) add(buf, cap, &at, "%sdiagonally", at ? ", " : "");
    for (int i = 0; i < n; i++) {
        int a = abs(u[i][0]), b = abs(u[i][1]);
        bool is_orth = (!a || !b) && a + b == 1, is_diag = a == 1 && b == 1;
        if ((is_orth && orth == 4) || (is_diag && diag == 4) || (!is_orth && !is_diag)) continue;
        int fx, fy;
        char w[80];
        to_frame(v, u[i][0], u[i][1], &fx, &fy);
        direction_words(fx, fy, w, sizeof w);
        add(buf, cap, &at, "%s%s", at ? ", " : "", w);
    }
    if (!others) return;
    if (one_shape && others == 8 && la != lb && la > 0) {
        add(buf, cap, &at, "%sa (%d,%d) leap in all eight directions", at ? ", " : "", la, lb);
        return;
    }
    if (one_shape && others == 4 && (la == 0 || la == lb)) {
        add(buf, cap, &at, "%sa (%d,%d) leap %s", at ? ", " : "", la, lb, la ? "diagonally" : "orthogonally");
        return;
    }
    if (one_shape) add(buf, cap, &at, "%sa (%d,%d) leap:", at ? ", " : "", la, lb);
    bool first = true;
    for (int i = 0; i < n; i++) {
        int a = abs(u[i][0]), b = abs(u[i][1]);
        if ((((!a || !b) && a + b == 1)) || (a == 1 && b == 1)) continue;
        int fx, fy;
        char w[80];
        to_frame(v, u[i][0], u[i][1], &fx, &fy);
        direction_words(fx, fy, w, sizeof w);
        add(buf, cap, &at, "%s%s", first ? " " : ", ", w);
        first = false;
    }
}

/* The order directions are named in: forward, backward, left, right, then the diagonals, then
 * the others (in the first player's frame). */
static int direction_rank(const Variant *v, int dx, int dy) {
    int fx, fy;
    to_frame(v, dx, dy, &fx, &fy);
    static const int unit[8][2] = {{0, 1}, {0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {1, 1}, {-1, -1}, {1, -1}};
    for (int i = 0; i < 8; i++)
        if (unit[i][0] == fx && unit[i][1] == fy) return i;
    return 8 + (8 - fy) * 64 + (fx + 32);
}

/* One phrase: the word rules of indices idx (alike but for their displacement) in words. */
static void phrase_words(const Variant *v, const WordRule *rules, const int *idx, int n, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = 0;
    const WordRule *w0 = &rules[idx[0]];
    int shortest = w0->kind == WAY_SCREEN ? 2 : 1;
    /* per primitive direction, the distances, then those in words */
    struct {
        int u[2];
        uint64_t dist;
        bool done;
        char words[64];
    } dirs[128];
    int nd = 0;
    for (int i = 0; i < n; i++) {
        int ux, uy, g = primitive(rules[idx[i]].dx, rules[idx[i]].dy, &ux, &uy), k;
        for (k = 0; k < nd && !(dirs[k].u[0] == ux && dirs[k].u[1] == uy); k++) {}
        if (k == nd) {
            if (nd == (int)ARRAY_LEN(dirs)) continue;
            dirs[nd].u[0] = ux, dirs[nd].u[1] = uy, dirs[nd].dist = 0, dirs[nd].done = false;
            nd++;
        }
        if (g < 64) dirs[k].dist |= 1ull << g;
    }
    for (int i = 0; i < nd; i++) /* (in the order directions are named) */
        for (int j = i + 1; j < nd; j++)
            if (direction_rank(v, dirs[j].u[0], dirs[j].u[1]) < direction_rank(v, dirs[i].u[0], dirs[i].u[1])) {
                __typeof__(dirs[0]) x = dirs[i];
                dirs[i] = dirs[j], dirs[j] = x;
            }
    for (int k = 0; k < nd; k++) {
        bool unit = abs(dirs[k].u[0]) <= 1 && abs(dirs[k].u[1]) <= 1;
        uint64_t dist = dirs[k].dist;
        int lo = __builtin_ctzll(dist), hi = 63 - __builtin_clzll(dist);
        bool run = dist == (((hi >= 63) ? ~0ull : (1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1));
        /* reaching as far as such a move could anywhere is "any distance" */
        int longest = longest_reach(v, w0, dirs[k].u[0], dirs[k].u[1]);
        char *dw = dirs[k].words;
        size_t cap_dw = sizeof dirs[k].words;
        if (lo == shortest && run && hi >= longest && hi > 1)
            snprintf(dw, cap_dw, unit ? "any distance" : "any number of");
        else if (lo == shortest && run && hi > lo)
            snprintf(dw, cap_dw, unit ? "up to %d steps" : "up to %d", hi);
        else if (lo == hi && !unit && lo == 1)
            dw[0] = 0;
        else if (lo == hi)
            snprintf(dw, cap_dw, unit ? "%d step%s" : "%d", lo, lo == 1 ? "" : "s");
        else {
            size_t m = 0;
            dw[0] = 0;
            for (int g = lo; g <= hi; g++)
                if (dist >> g & 1) add(dw, cap_dw, &m, "%s%d", m ? "," : "", g);
            add(dw, cap_dw, &m, unit ? " steps" : "");
        }
    }
    for (int k = 0; k < nd; k++) {
        if (dirs[k].done) continue;
        int us[128][2], nu = 0;
        bool unit = abs(dirs[k].u[0]) <= 1 && abs(dirs[k].u[1]) <= 1;
        for (int j = k; j < nd; j++) {
            bool unit_j = abs(dirs[j].u[0]) <= 1 && abs(dirs[j].u[1]) <= 1;
            if (dirs[j].done || unit_j != unit || strcmp(dirs[j].words, dirs[k].words)) continue;
            dirs[j].done = true;
            us[nu][0] = dirs[j].u[0], us[nu][1] = dirs[j].u[1], nu++;
        }
        char names[400];
        const char *dw = dirs[k].words;
        directions_words(v, (const int(*)[2])us, nu, names, sizeof names);
        if (unit)
            add(buf, cap, &at, "%s%s %s", at ? "; " : "", dw, names);
        else if (!*dw)
            add(buf, cap, &at, "%s%s", at ? "; " : "", names);
        else
            add(buf, cap, &at, "%s%s %s in a line", at ? "; " : "", dw, names);
        uint64_t dist = dirs[k].dist;
        if (w0->shape == FORM_LINE && w0->kind == WAY_OPEN && __builtin_ctzll(dist) > 1)
            add(buf, cap, &at, ", not over a piece");
    }
    if (w0->shape == FORM_JUMP) add(buf, cap, &at, ", jumping over anything");
    add(buf, cap, &at, "%s%s", w0->way_text, w0->zone_text);
    if (w0->fresh_only) add(buf, cap, &at, ", only as its first move");
}

/* The head of a line of moves: what they do ("moves or captures", "captures only an enemy King",
 * "moves or captures by jumping exactly one piece on the way (never jumping nor capturing a
 * Cannon)"...). */
static void mode_words(const Variant *v, const Behaviour *b, const WordRule *w, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = 0;
    char types[200], never_take[200] = "", only_take[200] = "", never_jump[200] = "";
    uint32_t all = v->ntypes >= 32 ? ALL_TYPES : (1u << v->ntypes) - 1;
    if ((w->modes & RULE_TAKE) && w->victims != ALL_TYPES) {
        if (__builtin_popcount(w->victims) * 2 <= v->ntypes)
            types_words(v, w->victims, " or ", only_take, sizeof only_take);
        else
            types_words(v, all & ~w->victims, " nor ", never_take, sizeof never_take);
    }
    if (w->kind == WAY_SCREEN && w->screens != ALL_TYPES)
        types_words(v, all & ~w->screens, " nor ", never_jump, sizeof never_jump);
    if (w->modes == RULE_PLACE) {
        if (w->placed == 1u << b->type)
            add(buf, cap, &at, "puts down a copy of itself (staying where it is)");
        else {
            types_words(v, w->placed, " or ", types, sizeof types);
            add(buf, cap, &at, "puts down a new %s", types);
        }
    } else if (w->modes == RULE_TAKE && *only_take) {
        add(buf, cap, &at, "captures only an enemy %s", only_take);
        only_take[0] = 0;
    } else
        add(buf, cap, &at, "%s",
            w->modes == (RULE_MOVE | RULE_TAKE) ? "moves or captures"
                : w->modes == RULE_MOVE
                ? (b->captures_away ? "moves (onto empty cells only)" : "moves (never capturing)")
                : "captures only");
    if (w->kind == WAY_SCREEN) add(buf, cap, &at, " by jumping exactly one piece on the way");
    if (*never_take && *never_jump && !strcmp(never_take, never_jump))
        add(buf, cap, &at, " (never jumping nor capturing a %s)", never_take);
    else {
        const char *notes[3] = {*only_take ? "capturing only an enemy " : NULL,
                                *never_take ? "never capturing a " : NULL, *never_jump ? "never jumping a " : NULL};
        const char *what[3] = {only_take, never_take, never_jump};
        int n = 0;
        for (int i = 0; i < 3; i++)
            if (notes[i]) add(buf, cap, &at, "%s%s%s", n++ ? "; " : " (", notes[i], what[i]);
        if (n) add(buf, cap, &at, ")");
    }
}

static int count_kind(const Variant *v, const Behaviour *b, uint8_t bit) {
    int n = 0;
    for (int i = 0; i < b->ndiagrams; i++)
        for (int c = 0; c < v->ncells; c++) n += (b->diagrams[i].mark[c] & bit) != 0;
    return n;
}

/* The lines of words about a piece's moves. */
/* Does nothing on the way stop r (a leap)? */
static bool rule_unblocked(const Rule *r) {
    return r->kind == WAY_OPEN && ((r->nways == 1 && r->waylen[0] == 0) || (r->nways == 0 && gcd(r->dx, r->dy) == 1));
}

/* Rules that together go anywhere on the board, whatever stands between: one line, "to any
 * empty cell" (those word rules are marked done). */
static void anywhere_words(const Variant *v, const Behaviour *b, const WordRule *rules, int n, bool *done, FILE *out) {
    int board = v->cells[b->origin].board;
    const Board *bd = &v->boards[board];
    int all = 0;
    static bool possible[2 * MAX_BOARD_DIM][2 * MAX_BOARD_DIM];
    memset(possible, 0, sizeof possible);
    for (int c = bd->first_cell; c < bd->first_cell + bd->count; c++)
        for (int t = bd->first_cell; t < bd->first_cell + bd->count; t++) {
            int dx = v->cells[t].x - v->cells[c].x + MAX_BOARD_DIM, dy = v->cells[t].y - v->cells[c].y + MAX_BOARD_DIM;
            if (c != t && !possible[dx][dy]) possible[dx][dy] = true, all++;
        }
    for (int i = 0; i < n; i++) {
        const WordRule *w = &rules[i];
        if (done[i] || w->zone.kind != ZONE_NONE || !rule_unblocked(w->rule)) continue;
        static bool seen[2 * MAX_BOARD_DIM][2 * MAX_BOARD_DIM];
        memset(seen, 0, sizeof seen);
        int got = 0;
        for (int j = i; j < n; j++) {
            const WordRule *x = &rules[j];
            if (done[j] || x->modes != w->modes || x->victims != w->victims || x->placed != w->placed ||
                x->fresh_only != w->fresh_only || x->zone.kind != ZONE_NONE || !rule_unblocked(x->rule))
                continue;
            int dx = x->dx + MAX_BOARD_DIM, dy = x->dy + MAX_BOARD_DIM;
            if (dx >= 0 && dy >= 0 && dx < 2 * MAX_BOARD_DIM && dy < 2 * MAX_BOARD_DIM && !seen[dx][dy])
                seen[dx][dy] = true, got++;
        }
        if (got < all || all < 9) continue;
        for (int j = i; j < n; j++) {
            const WordRule *x = &rules[j];
            if (x->modes == w->modes && x->victims == w->victims && x->placed == w->placed &&
                x->fresh_only == w->fresh_only && x->zone.kind == ZONE_NONE && rule_unblocked(x->rule))
                done[j] = true;
        }
        char head[300];
        mode_words(v, b, w, head, sizeof head);
        fprintf(out, "  %s: %s any %scell of the board, whatever stands between%s\n", head,
                w->modes == RULE_PLACE ? "on" : "to", w->modes & RULE_TAKE ? "" : "empty ",
                w->fresh_only ? ", only as its first move" : "");
    }
}

static void moves_words(const Variant *v, const Behaviour *b, uint32_t *zones_used, FILE *out) {
    WordRule *rules = xcalloc(MAX_RULES, sizeof *rules);
    int n = word_rules(v, b, rules, zones_used);
    bool done[MAX_RULES] = {0};
    int idx[MAX_RULES];
    anywhere_words(v, b, rules, n, done, out);
    /* one line per kind of action, its phrases joined */
    static const uint8_t order[] = {RULE_MOVE | RULE_TAKE, RULE_MOVE, RULE_TAKE, RULE_PLACE};
    for (size_t o = 0; o < ARRAY_LEN(order); o++)
        for (int i = 0; i < n; i++) {
            if (done[i] || rules[i].modes != order[o]) continue;
            char head[300], line[1600] = "";
            mode_words(v, b, &rules[i], head, sizeof head);
            size_t at = 0;
            /* every phrase with the same head */
            for (int j = i; j < n; j++) {
                if (done[j] || rules[j].modes != order[o]) continue;
                char other[300];
                mode_words(v, b, &rules[j], other, sizeof other);
                if (strcmp(other, head)) continue;
                /* the phrase of j: the rules alike but for their displacement */
                int k = 0;
                for (int m = j; m < n; m++) {
                    const WordRule *a = &rules[j], *c = &rules[m];
                    if (done[m] || c->modes != a->modes || c->kind != a->kind || c->shape != a->shape ||
                        c->victims != a->victims || c->screens != a->screens || c->placed != a->placed ||
                        c->fresh_only != a->fresh_only || strcmp(c->zone_text, a->zone_text))
                        continue;
                    if (a->shape == FORM_LAME && strcmp(c->way_text, a->way_text)) continue;
                    idx[k++] = m;
                    done[m] = true;
                }
                char phrase[800];
                phrase_words(v, rules, idx, k, phrase, sizeof phrase);
                add(line, sizeof line, &at, "%s%s", at ? "; " : "", phrase);
            }
            fprintf(out, "  %s: %s\n", head, line);
            /* a take only a royal piece suffers, by a royal piece: the two may never face so */
            const WordRule *w = &rules[i];
            if ((w->modes & RULE_TAKE) && w->victims != ALL_TYPES && !(w->victims & ~v->royal_types) &&
                v->types[b->type].royal && v->forbid_royal_capture)
                fprintf(out,
                        "  (no move may leave its own %s open to such a capture: the two may never face each "
                        "other so)\n",
                        v->types[b->type].name);
        }
    free(rules);
}

/* The piece's first line: name, letter, glyphs, value, royalty. */
static void piece_headline(const Variant *v, int type, bool utf8, FILE *out) {
    const PieceType *pt = &v->types[type];
    fprintf(out, "%s (letter %s%c", pt->name, pt->promoted ? "+" : "", pt->letter);
    if (utf8 && pt->symbol[0][0])
        fprintf(out, ", shown %s%s%s", pt->symbol[0], v->nplayers > 1 && pt->symbol[1][0] ? " / " : "",
                v->nplayers > 1 ? pt->symbol[1] : "");
    if (pt->value) fprintf(out, ", value %d.%02d", pt->value / 100, pt->value % 100);
    if (pt->worth) fprintf(out, ", worth %d", pt->worth);
    fprintf(out, ")%s",
            !pt->royal                    ? ""
                : v->forbid_royal_capture ? ": royal (losing it loses the game; it must not be left attacked)"
                                          : ": royal (losing it loses the game)");
}

/* A capture chain (a piece whose captures go on with add-partial), found by probing: from a cell
 * near the middle of the first board, in which directions the piece takes an enemy next to it
 * by landing just beyond (a jump), or one further away along an empty line (a flying capture),
 * and whether it goes on from there to take a second. Lines of words, or nothing when the
 * probes find none. */
static void chain_capture_words(const Variant *v, int type, FILE *out) {
    const Board *bd = &v->boards[0];
    Probe *p = probe_new(v);
    if (!p->enemy) {
        probe_delete(p);
        return;
    }
    Cell c = NO_CELL;
    for (int r = 0; r < bd->width + bd->height && c == NO_CELL; r++)
        for (int dy = -r; dy <= r && c == NO_CELL; dy++)
            for (int dx = -r; dx <= r && c == NO_CELL; dx++) c = cell_at(v, 0, bd->width / 2 + dx, bd->height / 2 + dy);
    Piece me = PIECE_MAKE(type, 0), them = PIECE_MAKE(p->dummy, p->enemy);
    int jumps[8][2], njumps = 0, flies[8][2], nflies = 0;
    bool goes_on = false;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy) continue;
            const CellInfo *ci = &v->cells[c];
            Cell n1 = cell_at(v, 0, ci->x + dx, ci->y + dy), n2 = cell_at(v, 0, ci->x + 2 * dx, ci->y + 2 * dy);
            Cell n3 = cell_at(v, 0, ci->x + 3 * dx, ci->y + 3 * dy);
            for (int far = 0; far < 2; far++) {
                Cell victim = far ? n2 : n1, land = far ? n3 : n2;
                if (victim == NO_CELL || land == NO_CELL || (far && n1 == NO_CELL)) continue;
                probe_empty(p);
                board_put(&p->pos, c, me);
                board_put(&p->pos, victim, them);
                VmFault fault = {0};
                if (!movegen_pseudo(p->gen, &p->pos, p->list, &fault)) continue;
                bool takes = false;
                for (int i = 0; i < p->list->count && !takes; i++) {
                    const Move *m = &p->list->moves[i];
                    for (int k = 0; k < m->nfx; k++)
                        takes |= m->from == c && m->to == land && m->fx[k].kind == FX_REMOVE && m->fx[k].a == victim;
                }
                if (!takes) continue;
                if (far) {
                    flies[nflies][0] = dx, flies[nflies++][1] = dy;
                } else {
                    jumps[njumps][0] = dx, jumps[njumps++][1] = dy;
                }
                /* a second enemy beside the landing, in a direction that does not come back */
                for (int ey = -1; ey <= 1 && !goes_on && !far; ey++)
                    for (int ex = -1; ex <= 1 && !goes_on; ex++) {
                        if ((!ex && !ey) || (ex == -dx && ey == -dy)) continue;
                        const CellInfo *li = &v->cells[land];
                        Cell v2 = cell_at(v, 0, li->x + ex, li->y + ey),
                             l2 = cell_at(v, 0, li->x + 2 * ex, li->y + 2 * ey);
                        if (v2 == NO_CELL || l2 == NO_CELL || p->pos.cell[v2] || p->pos.cell[l2] || v2 == c || l2 == c)
                            continue;
                        board_put(&p->pos, v2, them);
                        VmFault f2 = {0};
                        if (movegen_pseudo(p->gen, &p->pos, p->spare, &f2))
                            for (int i = 0; i < p->spare->count; i++) {
                                const Move *m = &p->spare->moves[i];
                                int taken = 0;
                                for (int k = 0; k < m->nfx; k++) taken += m->fx[k].kind == FX_REMOVE;
                                goes_on |= m->from == c && taken >= 2;
                            }
                        board_put(&p->pos, v2, 0);
                    }
            }
        }
    probe_delete(p);
    char dirs[200];
    if (njumps) {
        directions_words(v, (const int(*)[2])jumps, njumps, dirs, sizeof dirs);
        fprintf(out, "  captures by jumping an enemy piece next to it onto the empty cell just beyond: %s\n", dirs);
    }
    if (nflies) {
        directions_words(v, (const int(*)[2])flies, nflies, dirs, sizeof dirs);
        fprintf(out,
                "  captures by jumping an enemy piece any distance away along an empty line, landing on\n"
                "  an empty cell beyond it: %s\n",
                dirs);
    }
    if (goes_on || njumps || nflies)
        fprintf(out,
                "  a capture goes on from where it lands while it can take again: the whole series is one\n"
                "  move, and the pieces it takes stay (blocking, never taken twice) until the move ends\n");
}

/* Does the program hold the instruction op anywhere? */
static bool program_uses(const Program *p, Opcode op) {
    for (int pc = 0; pc < p->count; pc += bc_instr_size((Opcode)p->code[pc]))
        if (p->code[pc] == op) return true;
    return false;
}

/* What a drop program does besides putting the piece down, from its instructions: the pieces
 * it takes or changes, the kinds of moves it makes. */
static void drop_program_words(const Variant *v, const PieceType *pt, const Program *p, FILE *out) {
    if (program_uses(p, OP_CAPTURE))
        fprintf(out, "  a placing may also take pieces%s\n",
                program_uses(p, OP_CHOOSE) ? ", on cells the player chooses among those its program allows (the "
                                             "move is written with them, after an x)"
                                           : "");
    if (program_uses(p, OP_CREATE) || program_uses(p, OP_SETTYPE) || program_uses(p, OP_CONVERT))
        fprintf(out, "  a placing may also put down or change other pieces\n");
    if (program_uses(p, OP_REFLECT))
        fprintf(out, "  a placing may put the piece on the mirror image of a cell its program picks\n");
    for (int pc = 0; pc < p->count; pc += bc_instr_size((Opcode)p->code[pc]))
        if (p->code[pc] == OP_KIND) {
            const char *kind = v->kind_names[bc_operands(p->code, pc).a];
            fprintf(out, "  some placings are moves of their own, '%s' (written %s:%c@ and the cell)\n", kind, kind,
                    pt->letter);
        }
}

/* What the piece does, in lines of words. */
static void piece_words(const Variant *v, const Behaviour *b, uint32_t *zones_used, FILE *out) {
    const PieceType *pt = &v->types[b->type];
    bool any_rule = false;
    for (int i = 0; i < b->nrules; i++) any_rule |= !b->rules[i].doubtful;
    if (!b->too_many) moves_words(v, b, zones_used, out);
    /* captures made by moving, as the compiled program's attack patterns know them */
    const PieceProgram *pp = &pt->per_owner[0];
    uint8_t said = 0;
    for (int i = 0; i < pp->npatterns && !((v->imitator_mask >> b->type) & 1); i++) {
        int m = pp->patterns[i].method;
        if (said >> m & 1) continue;
        said |= (uint8_t)(1u << m);
        static const char *const how[] = {
            [CAP_WITHDRAW] = "captures the enemy next to it by moving straight away from it",
            [CAP_COORDINATE] =
                "captures the enemies on the two cells where its row and column cross its royal piece's column and row",
            [CAP_LEAP] = "captures the enemies it leaps over",
        };
        if (m < (int)ARRAY_LEN(how) && how[m]) fprintf(out, "  %s\n", how[m]);
    }
    /* custodian captures, those the attack patterns leave out too (a slide limited by `to`) */
    bool imitator = (v->imitator_mask >> b->type) & 1; /* (its captures are said below) */
    if (said >> CAP_PINCER & 1 || (!imitator && program_uses(&pp->prog, OP_PINCER)))
        fprintf(out,
                "  captures an enemy next to where it lands when a friendly piece stands just beyond that enemy%s\n",
                v->hostile_zone ? ", or a hostile cell lies there (see the special rules)" : "");
    if ((v->freezer_mask >> b->type) & 1) fprintf(out, "  freezes the enemy pieces next to it: they cannot move\n");
    if ((v->imitator_mask >> b->type) & 1) fprintf(out, "  captures each enemy the way that enemy captures\n");
    if (pt->influence) fprintf(out, "  influence %d over the steered armies' pieces it reaches\n", pt->influence);
    if (pt->sets_ep) fprintf(out, "  its multi-step moves may be taken en passant\n");
    if (pt->mine_proof) fprintf(out, "  never sets off an enemy mine\n");
    if (b->elsewhere) fprintf(out, "  moves onto other boards too (see the diagrams)\n");
    if (b->converts) fprintf(out, "  some of its moves change other pieces too (see the position from play)\n");
    if (b->changes) {
        char types[200];
        types_words(v, b->changes, " or ", types, sizeof types);
        fprintf(out, "  may turn into a %s where it stands, when the game's counters allow\n", types);
    }
    if (b->promotes_to) {
        fprintf(out, "  promotes to");
        for (int t = 0; t < v->ntypes; t++)
            if (b->promotes_to >> t & 1) fprintf(out, " %s", v->types[t].name);
        fprintf(out, "\n");
    }
    if (count_kind(v, b, DESCRIBE_PLACE) && v->has_hands && pt->droppable)
        fprintf(out, "  may be dropped from its player's hand (+ in the last diagram)\n");
    if (pt->drops)
        fprintf(out,
                "  is put on the board by a program of its own%s, where the generator allows (+ in the "
                "diagram of the start position)\n",
                v->has_hands ? ", from its player's hand" : "");
    if (pt->drops) drop_program_words(v, pt, &pt->drops[0], out);
    if (b->never_moves) fprintf(out, "  never moves by itself\n");
    bool chains = pp->has_chain;
    if (chains) chain_capture_words(v, b->type, out);
    if (b->unexplained && any_rule && !chains)
        fprintf(out,
                "  its other moves are a program these words do not cover: the diagrams show them in real "
                "positions\n");
    else if (!chains && (b->unexplained || (b->too_many && !b->never_moves)))
        fprintf(out,
                "  its moves are a program the rulebook cannot put in words: the diagrams show them in real "
                "positions\n");
}
static void capitalised(const char *name, char *buf, size_t cap) {
    snprintf(buf, cap, "%s", name);
    if (buf[0] >= 'a' && buf[0] <= 'z') buf[0] = (char)(buf[0] - 'a' + 'A');
}

static void kinds_words(const Variant *v, uint32_t kinds, char *buf, size_t cap);

static void zone_name_of(const Variant *v, int zone, char *buf, size_t cap) {
    snprintf(buf, cap, "'%s'", zone >= 0 && zone < v->nzones ? v->zones[zone].name : "?");
}

static void write_overview(const Variant *v, const Position *start, FILE *out) {
    fprintf(out, "Board%s:", v->nboards > 1 ? "s" : "");
    for (int b = 0; b < v->nboards; b++) {
        const Board *bd = &v->boards[b];
        int holes = bd->width * bd->height - bd->count;
        fprintf(out, "%s %s%s%s%dx%d", b ? "," : "", bd->title[0] ? bd->title : "", bd->title[0] ? " " : "",
                v->nboards > 1 ? bd->name : "", bd->width, bd->height);
        if (bd->shape == BOARD_HEX)
            fprintf(out,
                    " hexagons, each rank half a cell right of the one below: a cell touches six (n, s, e, w, se, nw)");
        if (bd->graph)
            fprintf(out, " grid of which %d cells are points joined by the lines drawn", bd->count);
        else if (holes > 0)
            fprintf(out, " (%d holes)", holes);
        if (bd->nholding) {
            fprintf(out, "; off the board, %d holding cell%s drawn under it, where pieces wait and no line leads:",
                    bd->nholding, bd->nholding > 1 ? "s" : "");
            for (int c = bd->holding_first; c < bd->holding_first + bd->nholding; c++)
                fprintf(out, "%s %s", c > bd->holding_first && v->cells[c].y != v->cells[c - 1].y ? ";" : "",
                        v->cells[c].name);
        }
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
    if (v->check_kind)
        fprintf(out, "A move of kind 'normal' that gives check, castling included, is of kind '%s' instead.\n",
                v->kind_names[v->check_kind]);
    if (v->ntransfer) {
        fprintf(out, "After every move, each piece it carried goes on to the same cell of the other board");
        fprintf(out, " (along %s", v->dirs[v->transfer_dirs[0]].name);
        for (int i = 1; i < v->ntransfer; i++) fprintf(out, " or %s", v->dirs[v->transfer_dirs[i]].name);
        fprintf(out, "), which must be empty.\n");
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

/* What else a castle needs (docs/language.md, "Castling"). */
static const char *castle_terms(const Variant *v, int king) {
    bool royal = king >= 0 && v->types[king].royal;
    return royal && v->forbid_royal_capture
        ? ", the cells between them empty and none of the king's cells, from where it starts to where it ends, "
          "attacked"
        : ", the cells between them empty";
}

/* What a castle onto another board needs (docs/language.md, "Castling"). */
static void castle_across(const Variant *v, const Castle *c, int king, FILE *out) {
    const char *from = v->boards[v->cells[c->king_from].board].name;
    fprintf(out, ", the cells between them on board %s empty and %s and %s empty", from, v->cells[c->king_to].name,
            v->cells[c->rook_to].name);
    if (king >= 0 && v->types[king].royal && v->forbid_royal_capture)
        fprintf(out,
                ", the king neither in check nor passing over an attacked cell on board %s, nor left in check on %s",
                from, v->cells[c->king_to].name);
}

/* The moves a first-move right gives its piece, found by running the generator on the piece
 * alone on its cell, with the right and without: "to b2 or f2". False when none. */
static bool privilege_moves(const Variant *v, const Castle *c, Piece piece, char *buf, size_t cap) {
    Probe *p = probe_new(v);
    Reach with, without;
    probe_empty(p);
    board_put(&p->pos, c->king_from, PIECE_KIND(piece));
    uint8_t turn = p->pos.turn;
    for (int t = 0; t < v->nturns; t++)
        if (v->turn_order[t] == c->owner) {
            p->pos.turn = (uint8_t)t;
            break;
        }
    probe_reach(p, c->king_from, &without);
    p->pos.rights = 1u << c->right;
    probe_reach(p, c->king_from, &with);
    p->pos.rights = 0;
    p->pos.turn = turn;
    size_t at = 0;
    buf[0] = 0;
    for (int x = 0; x < v->board_cells; x++)
        if ((bits_has(with.moves, (Cell)x) || bits_has(with.takes, (Cell)x)) && !bits_has(without.moves, (Cell)x) &&
            !bits_has(without.takes, (Cell)x))
            add(buf, cap, &at, "%s%s", at ? " or " : "to ", v->cells[x].name);
    probe_delete(p);
    return at > 0;
}

/* The game's rules of custodian captures (hostile cells, pieces taken only when surrounded,
 * shield walls), as lines; how many. */
static int custodian_words(const Variant *v, FILE *out) {
    int n = 0;
    if (v->hostile_zone) {
        char z[40];
        zone_name_of(v, v->hostile_zone - 1, z, sizeof z);
        fprintf(out,
                "- Hostile cells: an empty cell of zone %s closes a custodian capture as a piece of the capturer "
                "would, against either side\n",
                z);
        n++;
    }
    if (v->surround_types) {
        char types[200], z[40] = "";
        types_words(v, v->surround_types, " or ", types, sizeof types);
        if (v->surround_zone) zone_name_of(v, v->surround_zone - 1, z, sizeof z);
        fprintf(
            out,
            "- Surrounded: a %s%s%s is captured only when every orthogonal neighbour is an enemy of it or a hostile "
            "empty cell (never against the board's edge)\n",
            types, z[0] ? " standing in zone " : "", z);
        n++;
    }
    if (v->shieldwall) {
        fprintf(out,
                "- Shield wall: a row of two or more pieces along the board's edge, each with an enemy piece in "
                "front of it, is captured together when an enemy piece moves onto the edge at one end of the row "
                "with another enemy piece or a hostile cell at the other end");
        if (v->surround_types) {
            char types[200];
            types_words(v, v->surround_types, " or ", types, sizeof types);
            fprintf(out, "; a %s in the row stays", types);
        }
        fprintf(out, "\n");
        n++;
    }
    return n;
}

static void write_special(const Variant *v, const Position *start, const Behaviour *const *behaviours, FILE *out) {
    int n = 0;
    for (int i = 0; i < v->ncastles; i++) {
        const Castle *c = &v->castles[i];
        char who[20];
        capitalised(v->player_names[c->owner], who, sizeof who);
        /* (a privilege names only its piece's cell; a free castle's start cells are the
         * position's own) */
        if (c->privilege) {
            Piece k = c->king_from != NO_CELL ? start->cell[c->king_from] : 0;
            fprintf(out, "- First-move right (%s): held by %s on %s while it stays there", who,
                    k ? v->types[PIECE_TYPE(k)].name : "the piece",
                    c->king_from != NO_CELL ? v->cells[c->king_from].name : "its cell");
            char more[200];
            if (k && privilege_moves(v, c, k, more, sizeof more)) fprintf(out, "; it may then also go %s", more);
            fprintf(out, "\n");
            n++;
            continue;
        }
        if (c->free || c->king_from == NO_CELL || c->rook_from == NO_CELL) {
            fprintf(out, "- Castling (%s): %s to %s with %s to %s, from where they stand, when neither has moved%s\n",
                    who, c->king_type != NO_TYPE ? v->types[c->king_type].name : "the piece",
                    c->king_to != NO_CELL ? v->cells[c->king_to].name : "?",
                    c->rook_type != NO_TYPE ? v->types[c->rook_type].name : "the piece",
                    c->rook_to != NO_CELL ? v->cells[c->rook_to].name : "?",
                    castle_terms(v, c->king_type != NO_TYPE ? c->king_type : -1));
            n++;
            continue;
        }
        Piece k = start->cell[c->king_from], r = start->cell[c->rook_from];
        fprintf(out, "- Castling (%s): %s %s-%s with %s %s-%s, when neither has moved", who,
                k ? v->types[PIECE_TYPE(k)].name : "the piece", v->cells[c->king_from].name, v->cells[c->king_to].name,
                r ? v->types[PIECE_TYPE(r)].name : "the piece", v->cells[c->rook_from].name, v->cells[c->rook_to].name);
        if (v->cells[c->king_to].board != v->cells[c->king_from].board)
            castle_across(v, c, k ? PIECE_TYPE(k) : -1, out);
        else
            fprintf(out, "%s", castle_terms(v, k ? PIECE_TYPE(k) : -1));
        if (c->kind) fprintf(out, "; a move of kind '%s'", v->kind_names[c->kind]);
        fprintf(out, "\n");
        n++;
    }
    for (int s = 1; s < v->npromos; s++) {
        const PromoSet *ps = &v->promos[s];
        char z[40], from[40];
        zone_name_of(v, ps->zone, z, sizeof z);
        zone_name_of(v, ps->from_zone, from, sizeof from);
        fprintf(out, "- Promotion:");
        for (int t = 0; t < v->ntypes; t++)
            if (behaviours[t]->promo_sets >> s & 1) fprintf(out, " %s", v->types[t].name);
        if (ps->zone != NO_ZONE) fprintf(out, " ending a move in zone %s%s", z, ps->from_zone != NO_ZONE ? " or" : "");
        if (ps->from_zone != NO_ZONE) fprintf(out, " starting a move in zone %s", from);
        fprintf(out, "%s becomes%s", ps->on_capture ? " by a capture" : "", ps->optional ? " (or stays)" : "");
        for (int k = 0; k < ps->count; k++) fprintf(out, "%s %s", k ? "," : "", v->types[ps->types[k]].name);
        if (ps->lost_only) fprintf(out, ", only a type its side has fewer of on the board than it started with");
        fprintf(out, "\n");
        n++;
    }
    bool stuck = false;
    for (int t = 0; t < v->ntypes; t++) stuck |= v->types[t].never_stuck;
    if (stuck) {
        fprintf(out, "- A");
        for (int t = 0, k = 0; t < v->ntypes; t++)
            if (v->types[t].never_stuck) fprintf(out, "%s %s", k++ ? " or" : "", v->types[t].name);
        fprintf(out,
                " never stands where it could never move again: it is not dropped there, and promotes "
                "there when it may\n");
        n++;
    }
    if (v->has_hands) {
        static const char *const keep[] = {
            [HAND_NONE] = "captures put nothing in a hand (the position text fills them)",
            [HAND_CAPTURED] = "a captured piece goes to the captor's hand, as the captor's",
            [HAND_DEMOTED] = ("a captured piece goes to the captor's hand, as the captor's, and a promoted one "
                              "as what it promoted from"),
        };
        fprintf(out,
                "- Hands: %s; instead of moving, a player may put a piece from its hand on an empty cell its "
                "kind may be dropped on (see each piece)%s\n",
                keep[v->hand_keep % 3], v->must_drop ? "; while it can drop, it must" : "");
        n++;
        for (int t = 0; t < v->ntypes; t++) {
            const PieceType *pt = &v->types[t];
            if (pt->drop_not_doubled)
                fprintf(out, "- A %s is never dropped on a file where its side has a %s\n", pt->name, pt->name), n++;
            if (pt->drop_no_mate)
                fprintf(out, "- A %s dropped to give checkmate loses the game for the one who dropped it\n", pt->name),
                    n++;
            if ((v->must_drop_types >> t & 1))
                fprintf(out,
                        "- While a player holds a %s in its hand, it must drop it when it can, and drops nothing "
                        "else\n",
                        pt->name),
                    n++;
        }
        if (v->castle_dropped)
            fprintf(out,
                    "- A king or rook dropped on its castling cell, its partner at home, gives the castling "
                    "right\n"),
                n++;
    }
    if (v->gate_zone) {
        char z[40];
        zone_name_of(v, v->gate_zone - 1, z, sizeof z);
        fprintf(out,
                "- Gating: a piece leaving its first cell in zone %s for the first time may bring a piece of "
                "the hand onto the cell it leaves\n",
                z);
        n++;
    }
    if (v->colour_apart_mask) {
        fprintf(out, "- A player's");
        for (int t = 0, k = 0; t < v->ntypes; t++)
            if (v->colour_apart_mask >> t & 1) fprintf(out, "%s %s", k++ ? " and" : "", v->types[t].name);
        fprintf(out, " pieces stand on cells of different colours\n");
        n++;
    }
    if (v->blast_mask) {
        char types[200];
        uint32_t all = v->ntypes >= 32 ? ALL_TYPES : (1u << v->ntypes) - 1;
        types_words(v, v->blast_mask, " or ", types, sizeof types);
        fprintf(out,
                "- Explosions: a capture by %s%s removes the captured piece, the capturer and every piece on the "
                "eight cells around",
                (v->blast_mask & all) == all ? "any piece" : "a ", (v->blast_mask & all) == all ? "" : types);
        if (v->blast_proof_mask) {
            types_words(v, v->blast_proof_mask, " or ", types, sizeof types);
            fprintf(out, ", but not a %s there", types);
        }
        fprintf(out, "\n");
        n++;
    }
    if (v->must_capture && v->must_capture_most && v->most_first_types) {
        fprintf(out, "- Captures are compulsory, and a capture must take the most pieces of the types");
        for (int t = 0; t < v->ntypes; t++)
            if (v->most_first_types >> t & 1) fprintf(out, " %s", v->types[t].name);
        fprintf(out, " a capture can take; when none takes any of them, the most pieces (each counts one)\n");
        n++;
    } else if (v->must_capture && v->must_capture_most)
        fprintf(out,
                "- Captures are compulsory, and a capture must take the most pieces a capture can take (each "
                "piece counts one)\n"),
            n++;
    else if (v->must_capture)
        fprintf(out, "- Captures are compulsory: a player who can capture must (any capture it likes)\n"), n++;
    if (v->merge_same_captures)
        fprintf(out,
                "- Moves that go between the same two cells and take the same pieces, in another order, are "
                "one move\n"),
            n++;
    if (v->npriorities) {
        fprintf(out, "- Moves of a kind come before those of the kinds after it, in this order:");
        for (int i = 0; i < v->npriorities; i++) fprintf(out, "%s %s", i ? "," : "", v->kind_names[v->priority[i]]);
        fprintf(out, " (a player with a move of an earlier kind may make none of a later one)\n"), n++;
    }
    if (v->forbid_royal_flight)
        fprintf(out, "- A royal piece in check may not move, except to capture the one piece giving check\n"), n++;
    if (v->pass_move) fprintf(out, "- A player may pass instead of moving, unless in check\n"), n++;
    /* a royal piece that attacks the enemy royal pieces alone (the flying general) */
    for (int t = 0; t < v->ntypes && v->forbid_royal_capture; t++) {
        const Behaviour *b = behaviours[t];
        uint32_t royals = 0;
        for (int i = 0; i < b->nrules && v->types[t].royal; i++) {
            const Rule *r = &b->rules[i];
            if (!r->doubtful && r->mode == RULE_TAKE && r->victims && !(r->victims & ~v->royal_types))
                royals |= r->victims;
        }
        if (!royals) continue;
        char types[200];
        types_words(v, royals, " or ", types, sizeof types);
        fprintf(out,
                "- A %s attacks an enemy %s as the %s's moves say ('captures only an enemy %s'): as no move may "
                "leave a royal piece attacked, no move may leave the two open to each other that way\n",
                v->types[t].name, types, v->types[t].name, types);
        n++;
    }
    for (int t = 0; t < v->ntypes; t++)
        if (v->types[t].sets_ep) {
            fprintf(out, "- En passant: a %s passing over cells leaves them%s to be captured on %s\n", v->types[t].name,
                    v->ntransfer ? ", on the board it goes on to," : "",
                    v->nphases ? "during the next player's whole turn, while it stands past them"
                               : "for the next move");
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
    n += custodian_words(v, out);
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

/* An ending's result as a clause: "the player to move loses", or the count of worth. */
static void outcome_words(ResultKind r, char *buf, size_t cap) {
    if (r == RESULT_WORTH)
        snprintf(buf, cap, "the player whose pieces (and own count) are worth more wins, equal worth draws");
    else
        snprintf(buf, cap, "the player to move %s", result_words(r));
}

/* The directions of a line set, or of a connection, as words ("n, e, ne, se"). */
static void dirs_words(const Variant *v, const uint8_t *dirs, int n, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < n && at < cap; i++) {
        const Direction *d = &v->dirs[dirs[i]];
        if (d->name[0])
            at += (size_t)snprintf(buf + at, cap - at, "%s%s", i ? ", " : "", d->name);
        else {
            char w[32];
            direction_words(d->dx, d->dy, w, sizeof w);
            at += (size_t)snprintf(buf + at, cap - at, "%s%s", i ? ", " : "", w);
        }
    }
}

/* The goals of placement and connection games: in a row, connected, a zone occupied. */
static void goal_words(const Variant *v, FILE *out) {
    for (int i = 0; i < v->nrows; i++) {
        const RowRule *r = &v->rows[i];
        char name[40], types[200] = "pieces", lines[200];
        capitalised(r->name[0] ? r->name : "in a row", name, sizeof name);
        if (r->types) types_words(v, r->types, " or ", types, sizeof types);
        const LineSet *ls = &v->linesets[r->lines];
        dirs_words(v, ls->dirs, ls->n, lines, sizeof lines);
        fprintf(out,
                "- %s: a side with %s%d of its %s%s one after another along a line (lines: %s, each both ways) %s.\n",
                name, r->exactly ? "exactly " : "", r->length, types, r->exactly ? " (not more)" : " or more", lines,
                result_words(r->result));
    }
    for (int i = 0; i < v->nconnects; i++) {
        const ConnectRule *r = &v->connects[i];
        char name[40], a[40], b[40], dirs[300];
        capitalised(r->name[0] ? r->name : "connected", name, sizeof name);
        zone_name_of(v, r->zone_a, a, sizeof a);
        zone_name_of(v, r->zone_b, b, sizeof b);
        dirs_words(v, r->dirs, r->ndirs, dirs, sizeof dirs);
        fprintf(out,
                "- %s: a side whose pieces make a chain, each next to the next (%s), from its part of zone %s to its "
                "part of zone %s %s.\n",
                name, dirs, a, b, result_words(r->result));
    }
    for (int i = 0; i < v->noccupies; i++) {
        const OccupyRule *r = &v->occupies[i];
        char name[40], z[40], types[200] = "pieces";
        capitalised(r->name[0] ? r->name : "zone occupied", name, sizeof name);
        zone_name_of(v, r->zone, z, sizeof z);
        if (r->types) types_words(v, r->types, " or ", types, sizeof types);
        fprintf(out, "- %s: a side whose %s stand on every cell of its part of zone %s %s.\n", name, types, z,
                result_words(r->result));
    }
}

static void write_endings(const Variant *v, FILE *out) {
    if (v->has_royal && v->forbid_royal_capture)
        fprintf(out, "- A move may not leave the mover's royal piece where it could be captured.\n");
    char mate[32], stale[32];
    capitalised(v->end_name[0][0] ? v->end_name[0] : "checkmate", mate, sizeof mate);
    capitalised(v->end_name[1][0] ? v->end_name[1] : "stalemate", stale, sizeof stale);
    /* (without a royal piece nobody is in check: a player without a move is stalemated) */
    if (v->on_checkmate != RESULT_NONE && v->has_royal && v->forbid_royal_capture)
        fprintf(out, "- %s: the player to move has no legal move and is in check: it %s.\n", mate,
                result_words(v->on_checkmate));
    if (v->on_stalemate != RESULT_NONE)
        fprintf(out, "- %s: the player to move has no legal move%s: it %s.\n", stale,
                v->has_royal && v->forbid_royal_capture ? " and is not in check" : "", result_words(v->on_stalemate));
    for (int p = 0; p < v->nplayers; p++)
        if (v->on_stalemate_of[p] != RESULT_NONE)
            fprintf(out, "- %s of %s: %s has no legal move: it %s, whatever the rule above says.\n", stale,
                    v->player_names[p], v->player_names[p], result_words(v->on_stalemate_of[p]));
    for (int p = 0; p < v->nplayers; p++)
        if (v->stalemate_few_limit[p]) {
            char name[40];
            capitalised(v->stalemate_few_name[p][0] ? v->stalemate_few_name[p] : "stalemate", name, sizeof name);
            fprintf(out,
                    "- %s: %s has no legal move and at most %d piece%s on the board: it %s, "
                    "whatever the rules above say.\n",
                    name, v->player_names[p], v->stalemate_few_limit[p] - 1, v->stalemate_few_limit[p] == 2 ? "" : "s",
                    result_words(v->on_stalemate_few[p]));
        }
    goal_words(v, out);
    if (v->repetition)
        fprintf(out, "- The same position %d times: the player to move %s.\n", v->repetition,
                result_words(v->on_repetition));
    if (v->nmove) {
        fprintf(out, "- %d %s each without a capture or a move of", v->nmove, v->nphases ? "turns" : "moves");
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
        capitalised(e->name[0] ? e->name : e->total ? "total pieces" : "extinction", name, sizeof name);
        if (e->total) {
            fprintf(out, "- %s: when the board holds exactly %d ", name, e->at_most);
            for (int t = 0, k = 0; t < v->ntypes; t++)
                if (e->types >> t & 1) fprintf(out, "%s%s", k++ ? " or " : "", v->types[t].name);
            fprintf(out, "%s (every side's counted), ", e->types ? "" : "pieces");
            if (e->result == RESULT_MOST) {
                fprintf(out, "the side with more pieces on the board wins; equal numbers draw.\n");
                continue;
            }
            if (!e->players) fprintf(out, "the side that just moved");
            for (int p = 0, k = 0; p < v->nplayers; p++)
                if (e->players >> p & 1) fprintf(out, "%s%s", k++ ? " (or else " : "", v->player_names[p]);
            fprintf(out, "%s %s.\n", __builtin_popcount(e->players) > 1 ? ", the one that just moved first)" : "",
                    result_words(e->result));
            continue;
        }
        fprintf(out, "- %s: a side with at most %d ", name, e->at_most);
        if (!e->types) fprintf(out, "pieces");
        for (int t = 0, k = 0; t < v->ntypes; t++)
            if (e->types >> t & 1) fprintf(out, "%s%s", k++ ? (e->all_of ? " and of " : " or ") : "", v->types[t].name);
        fprintf(out, " left%s", e->board_only ? " on the board (those in hand not counted)" : "");
        if (e->rival_at_least) fprintf(out, ", while the other side holds at least %d of them,", e->rival_at_least);
        for (int p = 0, k = 0; p < v->nplayers; p++)
            if (e->players >> p & 1) fprintf(out, "%s%s", k++ ? " or " : ", being ", v->player_names[p]);
        fprintf(out, " %s.\n", result_words(e->result));
    }
    for (int i = 0; i < v->nreaches; i++) {
        const ReachRule *r = &v->reaches[i];
        char name[40], z[40];
        capitalised(r->name[0] ? r->name : "reaching the zone", name, sizeof name);
        zone_name_of(v, r->zone, z, sizeof z);
        fprintf(out, "- %s: a side with a %s in its part of zone %s", name, v->types[r->type].name, z);
        for (int k = 0; k < r->nmore; k++) {
            zone_name_of(v, r->more_zone[k], z, sizeof z);
            fprintf(out, " and a %s in its part of zone %s", v->types[r->more_type[k]].name, z);
        }
        for (int p = 0, k = 0; p < v->nplayers; p++)
            if (r->players >> p & 1) fprintf(out, "%s%s", k++ ? " or " : ", being ", v->player_names[p]);
        fprintf(out, " %s%s.\n", result_words(r->result),
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
    if (v->passes_end) {
        char name[40];
        capitalised(v->passes_name[0] ? v->passes_name : "passing", name, sizeof name);
        char outcome[160];
        outcome_words(v->on_passes, outcome, sizeof outcome);
        fprintf(out, "- %s: %d passes in a row end the game: %s.\n", name, v->passes_end, outcome);
    }
    if (v->facing_type) {
        char name[40];
        const char *k = v->types[v->facing_type - 1].name;
        capitalised(v->facing_name[0] ? v->facing_name : "facing royal pieces", name, sizeof name);
        char outcome[160];
        outcome_words(v->on_facing, outcome, sizeof outcome);
        fprintf(out,
                "- %s: while the two %ss face each other on a rank or file with nothing between, no move may leave "
                "them so, and a pass is allowed even in check; if they still face each other after that pass, the "
                "game ends: %s.\n",
                name, k, outcome);
    }
    if (v->stalemate_fewer) fprintf(out, "- A stalemate goes to the player with fewer pieces (equal numbers draw).\n");
    for (int p = 0; p < v->nplayers; p++)
        if (v->worth_bonus[p]) {
            char who[20];
            capitalised(v->player_names[p], who, sizeof who);
            fprintf(out, "- Worth: %s counts %d besides its pieces' worth.\n", who, v->worth_bonus[p]);
        }
    if (v->forbid_drop_check && !v->forbid_check) fprintf(out, "- No drop may give check.\n");
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

/* ---- examples from play ------------------------------------------------------------------- */

/* What makes a position a good example for the piece on c, in p->pos: a capture away from
 * its landing cell, another piece changed, a move its rules do not predict, or (for a piece
 * whose captures its rules do not show) any capture. The cell it happens on in *t and how in
 * *how (a REASON_ bit); false when none. With want, only that reason on *t counts. */
enum { REASON_REMOTE = 1, REASON_CHANGE = 2, REASON_UNRULED = 4, REASON_TAKE = 8 };

static bool example_reason(Probe *p, const Behaviour *b, Cell c, uint8_t want, Cell *t, uint8_t *how) {
    const Variant *v = p->v;
    Reach got, rules;
    probe_reach(p, c, &got);
    rules_predict(b, &p->pos, c, &rules);
    bool any_take = ((v->imitator_mask >> b->type) & 1) || !b->takes_shown;
    uint8_t best = 0;
    for (int x = 0; x < v->board_cells; x++) {
        uint8_t r = 0;
        if (bits_has(got.remote, (Cell)x)) r |= REASON_REMOTE;
        if (bits_has(got.changes_at, (Cell)x)) r |= REASON_CHANGE;
        if (b->unexplained &&
            ((bits_has(got.moves, (Cell)x) && !bits_has(rules.moves, (Cell)x)) ||
             (bits_has(got.takes, (Cell)x) && !bits_has(rules.takes, (Cell)x)) ||
             (bits_has(got.places, (Cell)x) && !bits_has(rules.places, (Cell)x))))
            r |= REASON_UNRULED;
        if (any_take && bits_has(got.takes, (Cell)x)) r |= REASON_TAKE;
        if (want) {
            if ((r & want) && *t == (Cell)x) return *how = want, true;
            continue;
        }
        /* (the first reason in that order, on the first cell it is met) */
        if (r && (!best || (r & -r) < best)) best = (uint8_t)(r & -r), *t = (Cell)x;
    }
    *how = best;
    return best != 0;
}

/* A position met in random games from the start (a fixed seed) where the first player's piece
 * does what example_reason looks for, kept to the pieces it needs; d->origin stays NO_CELL when
 * none is met. */
static void find_example(Probe *p, const Behaviour *b, Diagram *d) {
    const Variant *v = p->v;
    int type = b->type;
    if (!p->game) {
        p->game = xmalloc(sizeof *p->game);
        board_init(p->game, v);
    }
    Position *pos = p->game;
    MoveList *ml = xmalloc(sizeof *ml);
    GenContext *gen = xmalloc(sizeof *gen);
    uint64_t rng = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(type + 1);
    char text[4096], err[200];
    d->origin = NO_CELL;
    Cell from = NO_CELL, t = NO_CELL;
    uint8_t how = 0;
    for (int game = 0; game < EXAMPLE_GAMES && from == NO_CELL; game++) {
        fen_start(v, 1, text, sizeof text);
        if (!fen_read(pos, text, err, sizeof err)) break;
        genctx_init(gen);
        for (int ply = 0; ply < EXAMPLE_PLIES && from == NO_CELL; ply++) {
            VmFault fault = {0};
            if (!movegen_legal(gen, pos, ml, &fault) || ml->count == 0) break;
            /* (looked at in the probe: its turn is the first player's) */
            for (int c = 0; c < v->board_cells && from == NO_CELL; c++) {
                Piece q = pos->cell[c];
                if (!q || PIECE_TYPE(q) != type || PIECE_OWNER(q) != 0) continue;
                probe_empty(p);
                for (int x = 0; x < v->board_cells; x++)
                    if (pos->cell[x]) board_put(&p->pos, (Cell)x, (Piece)(pos->cell[x] & ~PIECE_MOVED));
                if (example_reason(p, b, (Cell)c, 0, &t, &how)) from = (Cell)c;
            }
            if (from != NO_CELL) break;
            Move pick = ml->moves[rng_next(&rng) % (uint64_t)ml->count];
            if (!board_make(pos, &pick)) break;
        }
    }
    free(gen);
    free(ml);
    if (from == NO_CELL) return;
    /* the pieces it needs: each other one taken away while it still happens */
    for (int x = 0; x < v->board_cells; x++) {
        Piece keep = p->pos.cell[x];
        if (!keep || x == from || x == t) continue;
        board_put(&p->pos, (Cell)x, 0);
        Cell same = t;
        uint8_t h;
        if (!example_reason(p, b, from, how, &same, &h)) board_put(&p->pos, (Cell)x, keep);
    }
    memcpy(d->cells, p->pos.cell, sizeof d->cells);
    d->origin = from;
    /* a move that shows it, and the position after */
    static const char *const what[] = {"",
                                       "a capture away from where it lands",
                                       "it changes another piece",
                                       "",
                                       "a move its words do not cover",
                                       "",
                                       "",
                                       "",
                                       "a capture"};
    snprintf(d->caption, sizeof d->caption, "a position from play (%s, on %s):", what[how], v->cells[t].name);
    VmFault fault = {0};
    if (!movegen_pseudo(p->gen, &p->pos, p->list, &fault)) return;
    const Move *shown = NULL;
    for (int i = 0; i < p->list->count && !shown; i++) {
        const Move *m = &p->list->moves[i];
        bool mine = m->from == from || (is_placing(m) && (how & REASON_UNRULED));
        bool at_t = m->to == t;
        for (int k = 0; k < m->nfx && !at_t; k++)
            at_t = m->fx[k].a == t &&
                (m->fx[k].kind == FX_REMOVE || m->fx[k].kind == FX_CHANGE || m->fx[k].kind == FX_FLIP);
        if (mine && at_t) shown = m;
    }
    if (!shown) return;
    Move mv = *shown;
    d->hl_from = mv.from, d->hl_to = mv.to;
    notation_move(v, &mv, d->move, sizeof d->move);
    CellJournal *cj = xmalloc(sizeof *cj);
    board_cells_apply(&p->pos, &mv, cj);
    memcpy(d->after, p->pos.cell, sizeof d->after);
    board_cells_revert(&p->pos, cj);
    free(cj);
    d->has_after = true;
    char move[64];
    memcpy(move, d->move, sizeof move);
    snprintf(d->caption, sizeof d->caption, "a position from play: %s, %s (its moves there marked):", what[how], move);
}

/* Every type's behaviour and diagrams. The caller frees each with free(). */
static Behaviour **all_behaviours(const Variant *v) {
    Probe *p = probe_new(v);
    Behaviour **b = xcalloc((size_t)v->ntypes, sizeof *b);
    for (int t = 0; t < v->ntypes; t++) {
        b[t] = xmalloc(sizeof *b[t]);
        analyse(p, t, b[t]);
        choose_diagrams(p, b[t]);
    }
    probe_delete(p);
    return b;
}

static void free_behaviours(const Variant *v, Behaviour **b) {
    for (int t = 0; t < v->ntypes; t++) free(b[t]);
    free(b);
}

/* ---- drawing a position as text ------------------------------------------------------------ */

/* The mark of an empty cell, by its DMARK bits (move, take, remote, place): one character each
 * combination, '.' for none. */
static char mark_char(uint8_t m) {
    static const char table[] = ".ox*#&%@+~!?=^$;";
    return table[m & 15];
}

static const char *mark_meaning(char c) {
    switch (c) {
    case 'o': return "moves there";
    case 'x': return "captures an enemy there (one put there, if none stands there)";
    case '*': return "moves there, or captures an enemy there";
    case '#': return "an enemy there is captured by a move that does not land there";
    case '&': return "moves there, and an enemy there would be captured by a move that does not land there";
    case '%': return "captures an enemy there, landing there or not";
    case '@': return "moves there, or captures an enemy there, landing there or not";
    case '+': return "a new piece is put there (from the hand, or by this piece)";
    default: return "moves, captures and puts pieces there";
    }
}

static const char *mark_colour(char c) {
    switch (c) {
    case 'o': return "\033[1;32m";
    case 'x': return "\033[1;31m";
    case '*': return "\033[1;33m";
    case '+': return "\033[1;35m";
    default: return "\033[1;31m";
    }
}

/* A piece as the console shows it: the glyph, or the letter in the owner's case (with the
 * owner's number from the third player on, or its token first for armies no player owns); a
 * promoted type with its '+'. */
static void piece_glyph(const Variant *v, Piece p, const DescribeStyle *st, char *buf, size_t cap) {
    const PieceType *pt = &v->types[PIECE_TYPE(p)];
    int owner = PIECE_OWNER(p);
    char letter = owner == 1 ? (char)(pt->letter - 'A' + 'a') : pt->letter;
    if (v->nowners > v->nplayers)
        snprintf(buf, cap, "%c%c", v->player_token[owner][0], pt->letter);
    else if (st->utf8 && pt->symbol[owner][0] && (owner < 2 || st->colour))
        snprintf(buf, cap, "%s", pt->symbol[owner]);
    else if (pt->promoted)
        snprintf(buf, cap, "+%c", letter);
    else if (owner < 2)
        snprintf(buf, cap, "%c", letter);
    else
        snprintf(buf, cap, "%c%d", pt->letter, owner + 1);
}

/* A piece as position text writes it ("N", "n", ":3n", "+P"). */
static void piece_token(const Variant *v, Piece p, char *buf, size_t cap) {
    const PieceType *pt = &v->types[PIECE_TYPE(p)];
    int o = PIECE_OWNER(p);
    char letter = o ? (char)(pt->letter - 'A' + 'a') : pt->letter;
    if (pt->written)
        snprintf(buf, cap, "%c", pt->written);
    else if (o < 2)
        snprintf(buf, cap, "%s%c", pt->promoted ? "+" : "", letter);
    else
        snprintf(buf, cap, ":%d%s%c", o + 1, pt->promoted ? "+" : "", letter);
}

typedef struct Lines {
    int n;
    char *line[MAX_BOARD_DIM + 4 + MAX_HOLDING_ROWS];
} Lines;

static void lines_free(Lines *l) {
    for (int i = 0; i < l->n; i++) free(l->line[i]);
    l->n = 0;
}

static void append(char **s, size_t *len, const char *more) {
    size_t n = strlen(more);
    *s = xrealloc(*s, *len + n + 1);
    memcpy(*s + *len, more, n + 1);
    *len += n;
}

/* The file name of column x of a board (from any cell of it). */
static void file_name(const Variant *v, const Board *bd, int x, char *buf, size_t cap) {
    buf[0] = 0;
    for (int y = 0; y < bd->height && !buf[0]; y++)
        if (bd->at[y][x] != NO_CELL) {
            const char *name = strrchr(v->cells[bd->at[y][x]].name, ':');
            name = name ? name + 1 : v->cells[bd->at[y][x]].name;
            size_t k = strcspn(name, "0123456789");
            snprintf(buf, cap, "%.*s", (int)(k < 2 ? k : 2), name);
        }
}

/* One cell of a diagram in 3 columns, appended to *s. */
static void cell_text3(const Variant *v, Cell c, const Piece *cells, const uint8_t *marks, Cell hl1, Cell hl2,
                       const DescribeStyle *st, char **s, size_t *len) {
    char buf[96];
    uint8_t m = marks ? marks[c] : 0;
    char g[16] = "", lead = c == hl1 || c == hl2 ? '[' : ' ';
    const char *fg = "";
    if (cells[c]) {
        piece_glyph(v, cells[c], st, g, sizeof g);
        static const char *const owner_fg[] = {"\033[1;97m", "\033[1;30m", "\033[1;31m", "\033[1;34m",
                                               "\033[1;32m", "\033[1;35m", "\033[1;36m", "\033[1;33m"};
        fg = owner_fg[PIECE_OWNER(cells[c]) & 7];
        if (m & DESCRIBE_TAKE) lead = 'x';
        if (m & DESCRIBE_REMOTE) lead = '#';
    } else if (m & 15) {
        snprintf(g, sizeof g, "%c", mark_char(m));
        fg = mark_colour(g[0]);
    } else
        snprintf(g, sizeof g, "%s", st->colour ? " " : ".");
    bool two = strlen(g) == 2 && (unsigned char)g[0] < 0x80;
    if (st->colour) {
        static const char *const bg[2][2] = {{"\033[48;5;137m", "\033[48;5;180m"},
                                             {"\033[48;5;101m", "\033[48;5;143m"}};
        bool hl = lead != ' ';
        snprintf(buf, sizeof buf, "%s%s%c%s%s\033[0m", bg[hl][v->colour[c] ? 1 : 0], fg, lead == '[' ? ' ' : lead, g,
                 two ? "" : " ");
    } else
        snprintf(buf, sizeof buf, "%c%s%s", lead, g, two ? "" : lead == '[' ? "]" : " ");
    append(s, len, buf);
}

/* The file labels of a hexagonal board, placed over the cells of rank y. */
static char *hex_files(const Variant *v, int b, int y) {
    const Board *bd = &v->boards[b];
    int width = 3 + art_text_width(v, b) + 3;
    char *s = xmalloc((size_t)width + 1);
    memset(s, ' ', (size_t)width);
    s[width] = 0;
    for (int x = 0; x < bd->width; x++) {
        char file[8];
        file_name(v, bd, x, file, sizeof file);
        int at = 3 + art_text_column(v, b, x, y, false) + 1;
        for (int i = 0; file[i] && at + i < width; i++) s[at + i] = file[i];
    }
    return s;
}

/* A hexagonal board as lines: each rank half a cell right of the one below, its number just
 * before its first cell. */
static void hex_lines(const Variant *v, int b, const Piece *cells, const uint8_t *marks, Cell hl1, Cell hl2,
                      const DescribeStyle *st, Lines *out) {
    const Board *bd = &v->boards[b];
    int width = 3 + art_text_width(v, b) + 3;
    out->n = 0;
    out->line[out->n++] = hex_files(v, b, bd->height - 1);
    for (int r = 0; r < bd->height; r++) {
        int y = bd->height - 1 - r, at = art_text_column(v, b, 0, y, false), used;
        char *s = NULL, buf[32];
        size_t len = 0;
        snprintf(buf, sizeof buf, "%*s%2d ", at, "", y + 1);
        append(&s, &len, buf);
        for (int x = 0; x < bd->width; x++) {
            Cell c = bd->at[y][x];
            if (c == NO_CELL)
                append(&s, &len, "   ");
            else
                cell_text3(v, c, cells, marks, hl1, hl2, st, &s, &len);
            append(&s, &len, " ");
        }
        used = at + 3 + 4 * bd->width;
        snprintf(buf, sizeof buf, "%-2d", y + 1);
        append(&s, &len, buf);
        for (used += 2; used < width; used++) append(&s, &len, " ");
        out->line[out->n++] = s;
    }
    out->line[out->n++] = hex_files(v, b, 0);
}

/* Board b's holding cells under it, a line per row: each cell's name and what stands there
 * ("x1 X  x2 ."). */
static void holding_lines(const Variant *v, int b, const Piece *cells, const uint8_t *marks, Cell hl1, Cell hl2,
                          const DescribeStyle *st, Lines *out) {
    const Board *bd = &v->boards[b];
    for (int row = 0; row < bd->holding_rows; row++) {
        char *s = NULL;
        size_t len = 0;
        append(&s, &len, "  ");
        for (int c = bd->holding_first; c < bd->holding_first + bd->nholding; c++) {
            if (v->cells[c].y != row) continue;
            const char *colon = strchr(v->cells[c].name, ':');
            append(&s, &len, " ");
            append(&s, &len, colon ? colon + 1 : v->cells[c].name);
            cell_text3(v, (Cell)c, cells, marks, hl1, hl2, st, &s, &len);
        }
        out->line[out->n++] = s;
    }
}

/* Board b as lines of 3 columns a cell (3 more each side for the labels). A drawn piece the
 * marks say is captured has 'x' (by landing) or '#' (from afar) before it; a highlighted one '['. */
static void board_lines(const Variant *v, int b, const Piece *cells, const uint8_t *marks, Cell hl1, Cell hl2,
                        const DescribeStyle *st, Lines *out) {
    const Board *bd = &v->boards[b];
    if (bd->shape == BOARD_HEX) {
        hex_lines(v, b, cells, marks, hl1, hl2, st, out);
        holding_lines(v, b, cells, marks, hl1, hl2, st, out);
        return;
    }
    out->n = 0;
    char buf[96];
    char *s = NULL;
    size_t len = 0;
    if (v->nboards > 1) {
        snprintf(buf, sizeof buf, "   %-*.*s", 3 * bd->width + 3, 3 * bd->width + 3, bd->name);
        append(&s, &len, buf);
        out->line[out->n++] = s;
        s = NULL, len = 0;
    }
    append(&s, &len, "   ");
    for (int x = 0; x < bd->width; x++) {
        char file[8];
        file_name(v, bd, x, file, sizeof file);
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
            if (c == NO_CELL) /* a hole, or the line of a link over it */
                append(&s, &len, bd->graph ? art_hole(v, b, x, y, !st->utf8) : "   ");
            else
                cell_text3(v, c, cells, marks, hl1, hl2, st, &s, &len);
        }
        snprintf(buf, sizeof buf, " %-2d", y + 1);
        append(&s, &len, buf);
        out->line[out->n++] = s;
    }
    out->line[out->n++] = files;
    holding_lines(v, b, cells, marks, hl1, hl2, st, out);
}

/* Every board side by side. */
static void print_boards(const Variant *v, const Piece *cells, const uint8_t *marks, Cell hl1, Cell hl2,
                         const DescribeStyle *st, FILE *out) {
    Lines all[MAX_BOARDS];
    int rows = 0;
    for (int b = 0; b < v->nboards; b++) {
        board_lines(v, b, cells, marks, hl1, hl2, st, &all[b]);
        if (all[b].n > rows) rows = all[b].n;
    }
    for (int r = 0; r < rows; r++) {
        for (int b = 0; b < v->nboards; b++) {
            int w = art_text_width(v, b) + 6;
            fprintf(out, "%-*s%s", w, r < all[b].n ? all[b].line[r] : "", b + 1 < v->nboards ? "   " : "");
        }
        fprintf(out, "\n");
    }
    for (int b = 0; b < v->nboards; b++) lines_free(&all[b]);
}

/* The legend of the marks the diagrams of a piece use. */
static void legend_lines(const Variant *v, const Behaviour *b, FILE *out) {
    bool shown[256] = {0}, taken = false, remote = false;
    for (int i = 0; i < b->ndiagrams; i++)
        for (int c = 0; c < v->ncells; c++) {
            uint8_t m = b->diagrams[i].mark[c];
            if (m & DESCRIBE_DRAWN) {
                taken |= (m & DESCRIBE_TAKE) != 0;
                remote |= (m & DESCRIBE_REMOTE) != 0;
            } else if (m & 15)
                shown[(unsigned char)mark_char(m)] = true;
        }
    static const char order[] = "o*x#&%@+~!?=^$;";
    for (const char *c = order; *c; c++)
        if (shown[(unsigned char)*c]) fprintf(out, "  %c %s\n", *c, mark_meaning(*c));
    if (taken) fprintf(out, "  x before a piece: it captures that piece\n");
    if (remote) fprintf(out, "  # before a piece: a move that does not land there captures that piece\n");
}

/* ---- the rulebook's output: text, or HTML --------------------------------------------------- */

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

/* Text goes out as it is, or on an HTML page inside <pre> (each line as the terminal shows it);
 * headings become <h1>..<h3>, diagrams pictures. */
typedef struct Out {
    FILE *f;
    DescribeStyle style;
    bool html, in_pre;
} Out;

static void out_close_pre(Out *o) {
    if (o->in_pre) fputs("</pre>\n", o->f);
    o->in_pre = false;
}

static void out_text(Out *o, const char *text) {
    if (!o->html) {
        fputs(text, o->f);
        return;
    }
    if (!*text) return;
    if (!o->in_pre) fputs("<pre>", o->f);
    o->in_pre = true;
    xml_text(o->f, text);
}

static void out_printf(Out *o, const char *fmt, ...) {
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    out_text(o, buf);
}

/* What a writer of text puts into a FILE, sent through o. */
typedef void (*TextWriter)(const Variant *v, const void *arg, FILE *out);

static void out_writer(Out *o, const Variant *v, TextWriter w, const void *arg) {
    if (!o->html) {
        w(v, arg, o->f);
        return;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) return;
    w(v, arg, mem);
    fclose(mem); /* (text is valid only from here on) */
    if (text) out_text(o, text);
    free(text);
}

/* A heading: level 1 the title (underlined with '='), 2 a section (with '-'), 3 a piece. */
static void out_heading(Out *o, int level, const char *text) {
    if (!o->html) {
        fprintf(o->f, "%s%s\n", level == 2 ? "\n" : "", text);
        if (level < 3) {
            for (size_t i = 0; i < strlen(text); i++) fputc(level == 1 ? '=' : '-', o->f);
            fputc('\n', o->f);
        }
        return;
    }
    out_close_pre(o);
    fprintf(o->f, "<h%d>", level);
    xml_text(o->f, text);
    fprintf(o->f, "</h%d>\n", level);
}

/* ---- SVG ------------------------------------------------------------------------------------ */

/* The size of a panel: every board side by side, with labels around and a caption above. */
/* Holding cells are drawn under their board, a row of cells each, with their names. */
#define SVG_HOLDING_ROW (SVG_CELL + 16)

/* The cells one of board b's holding rows has. */
static int holding_row_length(const Variant *v, int b, int row) {
    const Board *bd = &v->boards[b];
    int n = 0;
    for (int c = bd->holding_first; c < bd->holding_first + bd->nholding; c++) n += v->cells[c].y == row;
    return n;
}

/* The columns board b takes in a picture: its grid's, or its longest row of holding cells. */
static int svg_board_columns(const Variant *v, int b) {
    int w = v->boards[b].width;
    for (int row = 0; row < v->boards[b].holding_rows; row++)
        if (holding_row_length(v, b, row) > w) w = holding_row_length(v, b, row);
    return w;
}

static void panel_size(const Variant *v, int *w, int *h) {
    *w = 0, *h = 0;
    for (int b = 0; b < v->nboards; b++) {
        *w += svg_board_columns(v, b) * SVG_CELL + 2 * SVG_MARGIN;
        int bh = v->boards[b].height * SVG_CELL + 2 * SVG_MARGIN + v->boards[b].holding_rows * SVG_HOLDING_ROW;
        if (bh > *h) *h = bh;
    }
    *h += 24; /* caption */
}

/* The shapes of a mark on an empty cell, or around a drawn piece. */
static void svg_mark(FILE *f, uint8_t m, int x, int y) {
    int cx = x + SVG_CELL / 2, cy = y + SVG_CELL / 2;
    bool drawn = m & DESCRIBE_DRAWN;
    if ((m & DESCRIBE_MOVE) && !drawn)
        fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"#2e8b2e\"/>", cx - ((m & DESCRIBE_REMOTE) ? 9 : 0), cy);
    if (m & DESCRIBE_TAKE)
        fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"16\" fill=\"none\" stroke=\"#c81e1e\" stroke-width=\"3\"/>", cx,
                cy);
    if (m & DESCRIBE_REMOTE)
        fprintf(f, "<path d=\"M%d %d L%d %d M%d %d L%d %d\" stroke=\"#c81e1e\" stroke-width=\"4\"/>", cx - 10, cy - 10,
                cx + 10, cy + 10, cx - 10, cy + 10, cx + 10, cy - 10);
    if ((m & DESCRIBE_PLACE) && !drawn)
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"#8a2be2\"/>", cx - 6, cy - 6);
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
        fprintf(f, "</text>");
        /* the letter too: glyphs of different pieces may look alike */
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"9\" fill=\"#444\" font-family=\"sans-serif\">%c</text>",
                x + SVG_CELL - 8, y + SVG_CELL - 3, pt->letter);
    } else {
        char g[16];
        DescribeStyle plain = {false, false};
        piece_glyph(v, p, &plain, g, sizeof g);
        fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"15\" fill=\"%s\" stroke=\"#000\" stroke-width=\"1.5\"/>", cx,
                y + SVG_CELL / 2, fill);
        fprintf(f,
                "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" fill=\"%s\" font-weight=\"bold\" "
                "font-family=\"sans-serif\">",
                cx, y + SVG_CELL / 2 + 6, strlen(g) > 1 ? 13 : 17, light ? "#000" : "#fff");
        xml_text(f, g);
        fprintf(f, "</text>");
    }
}

/* Cell c drawn at (px, py): its square, and a group naming the cell, the mark (as the text
 * shows it) and the piece (its letter as position text writes it) when it has either. */
static void svg_cell(FILE *f, const Variant *v, const Piece *cells, const uint8_t *marks, Cell hl1, Cell hl2, Cell c,
                     int px, int py) {
    const char *colour =
        (c == hl1 || c == hl2) ? (v->colour[c] ? "#f6f669" : "#baca2b") : (v->colour[c] ? "#f0d9b5" : "#b58863");
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", px, py, SVG_CELL, SVG_CELL,
            colour);
    uint8_t m = marks ? marks[c] : 0;
    if (!cells[c] && !(m & 15)) return;
    fprintf(f, "<g data-cell=\"%s\"", v->cells[c].name);
    if (cells[c]) {
        char g[16];
        DescribeStyle plain = {false, false};
        piece_glyph(v, cells[c], &plain, g, sizeof g);
        fprintf(f, " data-piece=\"");
        xml_text(f, g);
        fprintf(f, "\"");
        if (m & (DESCRIBE_TAKE | DESCRIBE_REMOTE)) fprintf(f, " data-mark=\"%c\"", (m & DESCRIBE_REMOTE) ? '#' : 'x');
    } else {
        char mark[2] = {mark_char(m), 0};
        fprintf(f, " data-mark=\"");
        xml_text(f, mark);
        fprintf(f, "\"");
    }
    fprintf(f, ">");
    if (cells[c]) svg_piece(f, v, cells[c], px, py);
    if (m & 15) svg_mark(f, m, px, py);
    fprintf(f, "</g>\n");
}

/* One panel at (x0, y0): every board with its pieces and marks, the caption above. Each cell
 * with a piece or a mark is a group naming the cell, the mark (as the text shows it) and the
 * piece (its letter as position text writes it). */
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
                if (c != NO_CELL) svg_cell(f, v, cells, marks, hl1, hl2, c, px, py);
            }
        /* the holding cells under the board (under its file labels), each with its name */
        for (int c = bd->holding_first; c < bd->holding_first + bd->nholding; c++) {
            int px = bx + SVG_MARGIN + v->cells[c].x * SVG_CELL,
                py = top + bd->height * SVG_CELL + 20 + v->cells[c].y * SVG_HOLDING_ROW + 14;
            const char *name = strrchr(v->cells[c].name, ':');
            fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" font-family=\"sans-serif\">",
                    px + SVG_CELL / 2, py - 3);
            xml_text(f, name ? name + 1 : v->cells[c].name);
            fprintf(f, "</text>\n");
            svg_cell(f, v, cells, marks, hl1, hl2, (Cell)c, px, py);
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
        bx += svg_board_columns(v, b) * SVG_CELL + 2 * SVG_MARGIN;
    }
}

static void svg_open(FILE *f, int w, int h, const char *what) {
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "data-what=\"%s\">\n",
            w, h, w, h, what);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
}

static void svg_start(FILE *f, const Variant *v, const Position *start) {
    int w, h;
    panel_size(v, &w, &h);
    svg_open(f, w, h, "start");
    svg_panel(f, v, start->cell, NULL, NO_CELL, NO_CELL, v->title ? v->title : "start position", 0, 0);
    fprintf(f, "</svg>\n");
}

/* One diagram as a picture (its after-position beside it); y0: where it goes in a taller one. */
static void svg_diagram_panel(FILE *f, const Variant *v, const Diagram *d, int y0) {
    int w, h;
    panel_size(v, &w, &h);
    svg_panel(f, v, d->cells, d->mark, d->hl_from, d->hl_to, d->caption, 0, y0);
    if (d->has_after) {
        char caption[96];
        snprintf(caption, sizeof caption, "after %s", d->move);
        svg_panel(f, v, d->after, NULL, d->hl_from, d->hl_to, caption, w, y0);
    }
}

static void svg_diagram(FILE *f, const Variant *v, const Diagram *d) {
    int w, h;
    panel_size(v, &w, &h);
    svg_open(f, d->has_after ? 2 * w : w, h, "diagram");
    svg_diagram_panel(f, v, d, 0);
    fprintf(f, "</svg>\n");
}

/* Every diagram of a piece, one above the other. */
static void svg_piece_diagrams(FILE *f, const Variant *v, const Behaviour *b) {
    int w, h;
    panel_size(v, &w, &h);
    bool after = false;
    for (int i = 0; i < b->ndiagrams; i++) after |= b->diagrams[i].has_after;
    svg_open(f, after ? 2 * w : w, h * (b->ndiagrams ? b->ndiagrams : 1), "piece");
    for (int i = 0; i < b->ndiagrams; i++) svg_diagram_panel(f, v, &b->diagrams[i], i * h);
    fprintf(f, "</svg>\n");
}

/* ---- the rulebook ------------------------------------------------------------------------- */

static void start_position(const Variant *v, Position *pos) {
    char text[4096], err[200];
    board_init(pos, v);
    fen_start(v, 1, text, sizeof text);
    if (!fen_read(pos, text, err, sizeof err)) board_clear(pos);
}

/* A zone's cells in words: whole ranks or files, a rectangle, or the cells one by one. */
static void zone_cells_words(const Variant *v, int z, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = 0;
    uint64_t cells[CELL_WORDS];
    memcpy(cells, v->zones[z].cells[0], sizeof cells);
    for (int b = 0; b < v->nboards; b++) {
        const Board *bd = &v->boards[b];
        int x0 = 99, x1 = -1, y0 = 99, y1 = -1, n = 0;
        for (int c = bd->first_cell; c < bd->first_cell + bd->count; c++)
            if (bits_has(cells, (Cell)c)) {
                const CellInfo *ci = &v->cells[c];
                n++;
                if (ci->x < x0) x0 = ci->x;
                if (ci->x > x1) x1 = ci->x;
                if (ci->y < y0) y0 = ci->y;
                if (ci->y > y1) y1 = ci->y;
            }
        if (!n) continue;
        int box = 0;
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) box += bd->at[y][x] != NO_CELL;
        const char *prefix = v->nboards > 1 ? bd->name : "";
        if (n == box && x0 == 0 && x1 == bd->width - 1 && y0 == y1)
            add(buf, cap, &at, "%s%s%srank %d", at ? ", " : "", prefix, *prefix ? ":" : "", y0 + 1);
        else if (n == box && x0 == 0 && x1 == bd->width - 1)
            add(buf, cap, &at, "%s%s%sranks %d to %d", at ? ", " : "", prefix, *prefix ? ":" : "", y0 + 1, y1 + 1);
        else if (n == box && n > 2) {
            char a[24], z2[24];
            snprintf(a, sizeof a, "%s", v->cells[bd->at[y0][x0]].name);
            snprintf(z2, sizeof z2, "%s", v->cells[bd->at[y1][x1]].name);
            add(buf, cap, &at, "%sthe cells from %s to %s", at ? ", " : "", a, z2);
        } else
            for (int c = bd->first_cell; c < bd->first_cell + bd->count; c++)
                if (bits_has(cells, (Cell)c)) add(buf, cap, &at, "%s%s", at ? " " : "", v->cells[c].name);
    }
}

static void write_zones(const Variant *v, const void *arg, FILE *out) {
    uint32_t used = *(const uint32_t *)arg;
    for (int z = 0; z < v->nzones; z++) {
        if (!(used >> z & 1)) continue;
        char cells[1024];
        zone_cells_words(v, z, cells, sizeof cells);
        fprintf(out, "- '%s': %s\n", v->zones[z].name, cells);
    }
    if (v->nplayers > 1)
        fprintf(out, "(the first player's cells; a zone given for each player is turned for the others)\n");
}

typedef struct PieceArg {
    const Behaviour *b;
    bool utf8;
    uint32_t *zones_used;
} PieceArg;

static void write_piece_words(const Variant *v, const void *arg, FILE *out) {
    const PieceArg *a = arg;
    piece_words(v, a->b, a->zones_used, out);
}

static void write_legend(const Variant *v, const void *arg, FILE *out) { legend_lines(v, arg, out); }

/* The piece's heading line (its name, letter, glyphs, value). */
static void piece_heading(const Variant *v, const Behaviour *b, bool utf8, char *buf, size_t cap) {
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    buf[0] = 0;
    if (!mem) return;
    piece_headline(v, b->type, utf8, mem);
    fclose(mem);
    if (text) snprintf(buf, cap, "%s", text);
    free(text);
}

/* One diagram: caption, board (text, or picture), position text, and the position after an
 * example's move. */
static void out_diagram(Out *o, const Variant *v, const Behaviour *b, const Diagram *d) {
    out_printf(o, "  %s\n", d->caption);
    if (o->html) {
        out_close_pre(o);
        svg_diagram(o->f, v, d);
    } else
        print_boards(v, d->cells, d->mark, d->hl_from, d->hl_to, &o->style, o->f);
    if (d->in_hand && !v->has_hands)
        out_printf(o, "  position: %s (a %s put down by the player to move)\n", d->fen, v->types[b->type].name);
    else if (d->in_hand)
        out_printf(o, "  position: %s (a %s in the hand)\n", d->fen, v->types[b->type].name);
    else
        out_printf(o, "  position: %s (the %s on %s)\n", d->fen, v->types[b->type].name, v->cells[d->origin].name);
    if (d->has_after) {
        out_printf(o, "  after %s:\n", d->move);
        if (!o->html) print_boards(v, d->after, NULL, d->hl_from, d->hl_to, &o->style, o->f);
    }
}

/* The rule file's own `help` text, as its author wrote it (the rest of the rulebook is read
 * from the rules themselves). */
static void out_author_words(Out *o, const char *help) {
    if (!help || !*help) return;
    out_printf(o, "In the rule file's words: %s\n", help);
    if (!o->html) fputc('\n', o->f);
}

static void out_piece(Out *o, const Variant *v, const Behaviour *b, uint32_t *zones_used) {
    char head[400];
    piece_heading(v, b, o->style.utf8, head, sizeof head);
    out_heading(o, 3, head);
    out_author_words(o, v->types[b->type].help);
    PieceArg arg = {b, o->style.utf8, zones_used};
    out_writer(o, v, write_piece_words, &arg);
    for (int i = 0; i < b->ndiagrams; i++) out_diagram(o, v, b, &b->diagrams[i]);
    out_writer(o, v, write_legend, b);
}

static void write_overview_text(const Variant *v, const void *arg, FILE *out) { write_overview(v, arg, out); }

typedef struct SpecialArg {
    const Position *start;
    Behaviour *const *b;
} SpecialArg;

static void write_special_text(const Variant *v, const void *arg, FILE *out) {
    const SpecialArg *a = arg;
    write_special(v, a->start, (const Behaviour *const *)a->b, out);
}

static void write_endings_text(const Variant *v, const void *arg, FILE *out) {
    (void)arg;
    write_endings(v, out);
}

/* start_text: the position text of the game's own start (a shuffle's or a random allegiance's
 * deal), or NULL for the rule file's. */
static void rulebook(Out *o, const Variant *v, const char *start_text) {
    Position *start = xmalloc(sizeof *start);
    start_position(v, start);
    char err[200];
    if (start_text) fen_read(start, start_text, err, sizeof err); /* (unchanged when it is bad) */
    Behaviour **b = all_behaviours(v);
    out_heading(o, 1, v->title ? v->title : "untitled game");
    if (!o->html) fputc('\n', o->f);
    out_author_words(o, v->help);
    out_writer(o, v, write_overview_text, start);
    if (o->html) {
        out_close_pre(o);
        svg_start(o->f, v, start);
    } else {
        fputc('\n', o->f);
        print_boards(v, start->cell, NULL, NO_CELL, NO_CELL, &o->style, o->f);
    }
    out_heading(o, 2, "Pieces");
    Probe *p = probe_new(v);
    char enemy[16] = "";
    if (p->enemy) piece_token(v, PIECE_MAKE(p->dummy, p->enemy), enemy, sizeof enemy);
    out_printf(o,
               "Each diagram is a position (its text below it): the first player's piece, alone or with the\n"
               "pieces drawn, and its moves there. A mark that says it captures on an empty cell is about\n"
               "an enemy %s (%s) put there.\n",
               v->types[p->dummy].name, enemy);
    probe_delete(p);
    uint32_t zones_used = 0;
    for (int t = 0; t < v->ntypes; t++) {
        if (!o->html) fputc('\n', o->f);
        out_piece(o, v, b[t], &zones_used);
    }
    /* (and the zones the special rules and endings name) */
    for (int s = 1; s < v->npromos; s++) {
        if (v->promos[s].zone != NO_ZONE) zones_used |= 1u << v->promos[s].zone;
        if (v->promos[s].from_zone != NO_ZONE) zones_used |= 1u << v->promos[s].from_zone;
    }
    if (v->gate_zone) zones_used |= 1u << (v->gate_zone - 1);
    if (v->minefield_zone) zones_used |= 1u << (v->minefield_zone - 1);
    for (int i = 0; i < v->nshuffles; i++) zones_used |= 1u << v->shuffle_zones[i];
    for (int i = 0; i < v->nforced; i++) zones_used |= 1u << v->forced[i].zone;
    for (int i = 0; i < v->nreaches; i++) zones_used |= 1u << v->reaches[i].zone;
    for (int i = 0; i < v->nconnects; i++) zones_used |= 1u << v->connects[i].zone_a | 1u << v->connects[i].zone_b;
    for (int i = 0; i < v->noccupies; i++) zones_used |= 1u << v->occupies[i].zone;
    if (v->hostile_zone) zones_used |= 1u << (v->hostile_zone - 1);
    if (v->surround_zone) zones_used |= 1u << (v->surround_zone - 1);
    if (zones_used) {
        out_heading(o, 2, "Zones");
        out_writer(o, v, write_zones, &zones_used);
    }
    out_heading(o, 2, "Special rules");
    SpecialArg sa = {start, b};
    out_writer(o, v, write_special_text, &sa);
    out_heading(o, 2, "How the game ends");
    out_writer(o, v, write_endings_text, NULL);
    out_close_pre(o);
    free_behaviours(v, b);
    board_free(start);
    free(start);
}

void describe_text(const Variant *v, const DescribeStyle *style, FILE *out) { describe_game_text(v, NULL, style, out); }

void describe_game_text(const Variant *v, const char *start, const DescribeStyle *style, FILE *out) {
    Out o = {out, *style, false, false};
    rulebook(&o, v, start);
}

void describe_piece_text(const Variant *v, int type, const DescribeStyle *style, FILE *out) {
    Probe *p = probe_new(v);
    Behaviour *b = xmalloc(sizeof *b);
    analyse(p, type, b);
    choose_diagrams(p, b);
    probe_delete(p);
    Out o = {out, *style, false, false};
    uint32_t zones_used = 0;
    out_piece(&o, v, b, &zones_used);
    if (zones_used) write_zones(v, &zones_used, out);
    free(b);
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
    Behaviour *b = xmalloc(sizeof *b);
    Probe *p = probe_new(v);
    for (int t = 0; t < v->ntypes && ok; t++) {
        analyse(p, t, b);
        choose_diagrams(p, b);
        file_part(v->types[t].name, part, sizeof part);
        snprintf(path, sizeof path, "%s/piece-%s.svg", dir, part);
        if (!(ok = write_file(path, err, cap, &f))) break;
        svg_piece_diagrams(f, v, b);
        ok = close_file(f, path, err, cap);
    }
    probe_delete(p);
    free(b);
    board_free(start);
    free(start);
    return ok;
}

bool describe_html(const Variant *v, const char *path, char *err, size_t cap) {
    FILE *f;
    if (!write_file(path, err, cap, &f)) return false;
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta charset=\"utf-8\"/><title>", f);
    xml_text(f, v->title ? v->title : "untitled game");
    fputs("</title>\n<style>body{font-family:sans-serif;max-width:60em;margin:1em auto}pre{white-space:pre-wrap}"
          "svg{display:block;margin:0.5em 0}</style></head><body>\n",
          f);
    /* (the words as a terminal without UTF-8 has them: the pictures show the glyphs) */
    Out o = {f, {false, false}, true, false};
    rulebook(&o, v, NULL);
    fputs("</body></html>\n", f);
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
    Probe *p = probe_new(v);
    uint32_t promo_used = 0;
    Reach r;
    for (int t = 0; t < v->ntypes; t++) {
        /* alone on each cell, and with enemies on every other cell of its board (a piece that
         * only captures, or jumps a screen to capture) */
        Piece piece = PIECE_MAKE(t, 0);
        bool moves = false;
        for (int c = 0; c < v->board_cells; c++) {
            probe_alone(p, (Cell)c, piece, &r);
            promo_used |= r.promo_sets;
            moves |= bits_any(r.moves) || bits_any(r.places) || r.changes || r.elsewhere;
        }
        for (int c = 0; c < v->board_cells && !moves && p->enemy; c++) {
            probe_empty(p);
            board_put(&p->pos, (Cell)c, piece);
            for (int x = 0; x < v->board_cells; x++)
                if (x != c && v->cells[x].board == v->cells[c].board)
                    board_put(&p->pos, (Cell)x, PIECE_MAKE(p->dummy, p->enemy));
            probe_reach(p, (Cell)c, &r);
            moves |= bits_any(r.takes) || bits_any(r.remote);
        }
        /* (in a game of drops a piece that never moves is a placed stone or a blocker) */
        if (!moves && !v->has_drops && !v->types[t].drops)
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
}

/* ---- for front ends and tests ---------------------------------------------------------------- */

int describe_piece_diagrams(const Variant *v, int type, DescribeDiagram *out, int max) {
    Probe *p = probe_new(v);
    Behaviour *b = xmalloc(sizeof *b);
    analyse(p, type, b);
    choose_diagrams(p, b);
    probe_delete(p);
    int n = b->ndiagrams < max ? b->ndiagrams : max;
    memcpy(out, b->diagrams, (size_t)n * sizeof *out);
    free(b);
    return n;
}

int describe_probe_enemy(const Variant *v, int *owner) {
    Probe *p = probe_new(v);
    int type = p->enemy ? p->dummy : -1;
    *owner = p->enemy;
    probe_delete(p);
    return type;
}

void describe_piece_svg(const Variant *v, int type, FILE *out) {
    Probe *p = probe_new(v);
    Behaviour *b = xmalloc(sizeof *b);
    analyse(p, type, b);
    choose_diagrams(p, b);
    probe_delete(p);
    svg_piece_diagrams(out, v, b);
    free(b);
}
