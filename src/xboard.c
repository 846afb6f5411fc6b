/* xboard.c - the XBoard engine protocol (CECP version 2): features, game and position commands,
 * moves in XBoard's coordinate form, searches on a thread of their own (so `?` and `ping` are
 * answered while it thinks), results claimed by the rule file's end conditions, and the games
 * XBoard does not know described to it: `setup` (piece letters, board size, start position),
 * `piece` lines in Betza notation where the rule file's atoms allow, and `highlight` answers
 * to `lift` marking where a piece may go. Bad input is answered with an error line and changes
 * nothing. */
#include "xboard.h"

#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fen.h"
#include "gameend.h"
#include "search.h"

#define XB_MAX_WORDS 64
#define XB_NORMAL "chess" /* the rule file XBoard calls `normal` */

struct XboardSession {
    Engine e;               /* the output, the games, the game being played, the search thread */
    int first_file;         /* the game of `new`: the first file given, else chess (-1: none) */
    const EngineGame *game; /* the game being played, when e.v */
    bool force;             /* the engine plays neither side */
    int engine_side;        /* the player the engine plays when not in force mode */
    bool over;              /* a result was claimed or received: no more searches */
    Cell lifted;            /* the cell of the last `lift`, or NO_CELL */
    /* time control */
    int mps;       /* moves per time control period (0: the whole game) */
    double inc;    /* seconds added per move */
    double fixed;  /* `st`: seconds per move (0: none) */
    int depth;     /* `sd`: deepest iteration (0: none) */
    long clock_cs; /* `time`: the engine's clock in centiseconds (-1: not given) */
    bool post;     /* thinking output wanted; guarded by e.lock, read by the search thread */
    /* analysis (`analyze` until `exit`): the search runs until the position changes, never
     * moves, and always shows its thinking; the last iteration is kept for `.` (e.lock) */
    bool analyzing;
    SearchInfo last;
    bool has_last;
    /* pondering (`hard`): after its move the engine thinks on in the position after the reply
     * it expects (made on e.pos), until the reply comes: the same one lets that search answer,
     * another one (or any command that changes the game) drops it (e.lock guards pondering) */
    bool ponder;
    bool pondering;
    char expected[2][64]; /* the expected reply as XBoard may write it: plain, with its legs */
};

/* The name XBoard knows a game by. */
static const char *xb_name(const EngineGame *g) { return strcmp(g->name, XB_NORMAL) ? g->name : "normal"; }

/* XBoard's own variants (its names, with its own pieces and rules) whose rules and move
 * notation are those of the rule file of that name: XBoard plays them without a `setup`,
 * which would turn them into its `fairy` variant, one the other engine of a match may not
 * offer. (XBoard's other variants write castling, promotions or gating their own way, so they
 * are still described.) */
static const char *const xb_native[] = {"normal",   "nocastle", "crazyhouse", "losers",     "suicide",
                                        "giveaway", "atomic",   "3check",     "capablanca", "gothic",
                                        "xiangqi",  "shogi",    NULL};

static bool xb_is_native(const EngineGame *g) {
    for (int i = 0; xb_native[i]; i++)
        if (!strcmp(xb_name(g), xb_native[i])) return true;
    return false;
}

/* ---- moves and cells in XBoard's form ------------------------------------------------------ */

/* A cell as XBoard names it: file letter, then the rank counted from 1 (from 0 on boards of
 * exactly ten ranks). */
static int cell_name(const Variant *v, Cell c, char *buf, size_t cap) {
    const CellInfo *ci = &v->cells[c];
    int ranks = v->boards[0].height;
    return snprintf(buf, cap, "%c%d", 'a' + ci->x, ci->y + (ranks == 10 ? 0 : 1));
}

/* The letter after a promotion's cells: the new type's letter in lower case; in XBoard's own
 * variants a promotion to a piece's promoted form (a type lettered +X) is XBoard's `+`. */
static char promo_char(const Variant *v, const Move *m, bool native) {
    const PieceType *to = &v->types[m->promo];
    return native && to->promoted ? '+' : (char)(to->letter | 0x20);
}

/* A move of pos as XBoard writes it in its plain form: e2e4, e7e8q, P@e4 (a drop), f5e7+ (a
 * promotion to the promoted form, native: in one of XBoard's own variants); a pass as
 * Fairy-Stockfish writes it, the mover's royal piece's cell twice (e1e1), or XBoard's null move
 * @@@@ when the mover has no royal piece. (The pieces a capture by moving takes are left out:
 * xb_move_legs names them.) */
static void xb_move_as(const Position *pos, const Move *m, bool native, char *buf, size_t cap) {
    const Variant *v = pos->v;
    if (m->flags & MOVE_PASS) {
        Cell c = engine_pass_cell(pos);
        char at[16];
        if (c == NO_CELL)
            snprintf(buf, cap, "@@@@");
        else
            cell_name(v, c, at, sizeof at), snprintf(buf, cap, "%s%s", at, at);
        return;
    }
    char to[16];
    cell_name(v, m->to, to, sizeof to);
    if (m->nfx > 0 && m->fx[0].kind == FX_PLACE) {
        snprintf(buf, cap, "%c@%s", v->types[PIECE_TYPE(m->fx[0].piece)].letter, to);
        return;
    }
    char from[16], promo[2] = "";
    cell_name(v, m->from, from, sizeof from);
    if (m->promo != NO_TYPE) promo[0] = promo_char(v, m, native);
    snprintf(buf, cap, "%s%s%s", from, to, promo);
}

/* A move as written in a game XBoard learns from the engine, and in one of its own. */
static void xb_move(const Position *pos, const Move *m, char *buf, size_t cap) { xb_move_as(pos, m, false, buf, cap); }
static void xb_move_native(const Position *pos, const Move *m, char *buf, size_t cap) {
    xb_move_as(pos, m, true, buf, cap);
}

/* How moves of the game being played are written. */
static EngineMoveFn move_writer(const XboardSession *x) { return xb_is_native(x->game) ? xb_move_native : xb_move; }

/* The cells whose pieces m takes other than on its destination (captures by moving:
 * withdrawal, custodian captures, coordination, leaps over victims), in the order of its
 * effects; at most cap of them are written, and their number is returned. An en-passant
 * capture names none: XBoard takes the pawn itself. */
static int side_victims(const Position *pos, const Move *m, Cell *out, int cap) {
    if (m->flags & (MOVE_EP | MOVE_PASS)) return 0;
    int n = 0;
    for (int i = 0; i < m->nfx; i++) {
        const Effect *e = &m->fx[i];
        if (e->kind != FX_REMOVE || e->a == m->to || e->a == m->from || !pos->cell[e->a]) continue;
        if (n < cap) out[n] = e->a;
        n++;
    }
    return n;
}

/* The move as the engine tells it to XBoard: in a game XBoard learnt from the engine, a capture
 * by moving names its victims, for XBoard removes only what the move text says. One victim is a
 * second leg through it (d4c4,c4f4: from d4 over c4 to f4); two are XBoard's three-leg form
 * (d4c4xb4-f4), the most its moves hold (a third victim stays on XBoard's board; docs/engines.md).
 * In XBoard's own variants the plain form: XBoard applies their rules (atomic explosions). */
static void xb_move_legs(const XboardSession *x, const Position *pos, const Move *m, char *buf, size_t cap) {
    const Variant *v = pos->v;
    Cell victim[2];
    int n = xb_is_native(x->game) ? 0 : side_victims(pos, m, victim, 2);
    if (n == 0) {
        move_writer(x)(pos, m, buf, cap);
        return;
    }
    char from[16], to[16], a[16], b[16], promo[2] = "";
    cell_name(v, m->from, from, sizeof from);
    cell_name(v, m->to, to, sizeof to);
    cell_name(v, victim[0], a, sizeof a);
    if (m->promo != NO_TYPE) promo[0] = promo_char(v, m, false);
    if (n == 1) {
        snprintf(buf, cap, "%s%s,%s%s%s", from, a, a, to, promo);
        return;
    }
    cell_name(v, victim[1], b, sizeof b);
    snprintf(buf, cap, "%s%sx%s-%s%s", from, a, b, to, promo);
}

/* The cell XBoard names text (its leading file letter and rank digits), advancing *text past
 * it; NO_CELL when text does not start with one. */
static Cell read_cell(const Variant *v, const char **text) {
    const char *t = *text;
    if (*t < 'a' || *t > 'z' || t[1] < '0' || t[1] > '9') return NO_CELL;
    size_t len = 2;
    while (t[len] >= '0' && t[len] <= '9' && len < 6) len++;
    char name[16], want[8];
    snprintf(want, sizeof want, "%.*s", (int)len, t);
    for (int c = 0; c < v->ncells; c++) {
        cell_name(v, (Cell)c, name, sizeof name);
        if (!strcmp(name, want)) {
            *text = t + len;
            return (Cell)c;
        }
    }
    return NO_CELL;
}

/* A move in XBoard's multi-leg form, legs separated by commas, each starting where the last
 * ended (d4c4,c4f4 and d4c4,c4b4,b4f4 as XBoard passes on an engine's capture by moving): the
 * move of list from the first leg's start to the last leg's end (with the last leg's promotion)
 * that takes a piece on every cell the legs pass, the one taking exactly those when several do.
 * -1 when there is none, or when the text is no such chain. */
static int find_legs(const Position *pos, const MoveList *list, const char *text) {
    const Variant *v = pos->v;
    Cell via[MAX_EFFECTS];
    int nvia = 0;
    const char *t = text;
    Cell from = read_cell(v, &t), to = read_cell(v, &t);
    if (from == NO_CELL || to == NO_CELL) return -1;
    while (*t == ',') {
        t++;
        if (read_cell(v, &t) != to || nvia == MAX_EFFECTS) return -1; /* (each leg starts where the last ended) */
        via[nvia++] = to;
        to = read_cell(v, &t);
        if (to == NO_CELL) return -1;
    }
    if (nvia == 0 || (*t && (t[1] || *t < 'a' || *t > 'z'))) return -1;
    int best = -1, best_extra = 0;
    for (int i = 0; i < list->count; i++) {
        const Move *m = &list->moves[i];
        if (m->from != from || m->to != to || (m->flags & MOVE_PASS)) continue;
        if (*t ? m->promo == NO_TYPE || (char)(v->types[m->promo].letter | 0x20) != *t : m->promo != NO_TYPE) continue;
        Cell victim[MAX_EFFECTS];
        int n = side_victims(pos, m, victim, MAX_EFFECTS), found = 0;
        for (int k = 0; k < nvia; k++)
            for (int j = 0; j < n; j++) found += victim[j] == via[k];
        if (found < nvia) continue;
        if (best < 0 || n - nvia < best_extra) best = i, best_extra = n - nvia;
    }
    return best;
}

/* The move of list (pos's legal moves) named text, or -1; a pass is also read as `@@@@` or
 * `pass`, a capture by moving also with its victims as legs (find_legs). */
static int find_move(const Position *pos, const MoveList *list, const char *text, EngineMoveFn write) {
    char buf[32];
    if (strchr(text, ',')) return find_legs(pos, list, text);
    for (int i = 0; i < list->count; i++) {
        write(pos, &list->moves[i], buf, sizeof buf);
        if (!strcmp(buf, text)) return i;
    }
    bool pass = !strcmp(text, "@@@@") || !strcmp(text, "pass");
    for (int i = 0; pass && i < list->count; i++)
        if (list->moves[i].flags & MOVE_PASS) return i;
    /* XBoard adds a promotion to a pawn's move to the last rank of a game it learnt from the
     * engine even where pawns do not promote: the plain move, when legal, is meant */
    size_t len = strlen(text);
    if (len < 5 || len >= sizeof buf || text[len - 1] < 'a' || text[len - 1] > 'z' || text[len - 2] < '0' ||
        text[len - 2] > '9')
        return -1;
    char plain[32];
    snprintf(plain, sizeof plain, "%.*s", (int)len - 1, text);
    for (int i = 0; i < list->count; i++) {
        write(pos, &list->moves[i], buf, sizeof buf);
        if (!strcmp(buf, plain) && !(list->moves[i].flags & MOVE_PROMOTION)) return i;
    }
    return -1;
}

/* Does text look like a move (so that an unknown one is an illegal move, not a command)? Legs
 * of a multi-leg move are separated by commas. */
static bool looks_like_move(const char *t) {
    if (!strcmp(t, "@@@@") || !strcmp(t, "pass")) return true;
    if (t[0] >= 'A' && t[0] <= 'Z' && t[1] == '@') t += 2;
    for (;;) {
        int cells = 0;
        while (*t >= 'a' && *t <= 'z' && t[1] >= '0' && t[1] <= '9') {
            t++;
            while (*t >= '0' && *t <= '9') t++;
            cells++;
        }
        if (cells < 1 || cells > 2) return false;
        if (*t != ',') break;
        t++;
    }
    return !*t || (((t[0] >= 'a' && t[0] <= 'z') || t[0] == '+' || t[0] == '=') && !t[1]);
}

/* ---- games ----------------------------------------------------------------------------------- */

static int find_game(const XboardSession *x, const char *name) {
    return engine_game_find(&x->e, strcmp(name, "normal") ? name : XB_NORMAL);
}

/* ---- the search thread's output ----------------------------------------------------------------- */

static void claim_result(XboardSession *x);

static void show_info(const SearchInfo *info, void *user) {
    XboardSession *x = user;
    pthread_mutex_lock(&x->e.lock);
    bool post = x->post || x->analyzing;
    x->last = *info;
    x->has_last = true;
    pthread_mutex_unlock(&x->e.lock);
    if (!post) return;
    char pv[SEARCH_PV_MAX * 12];
    engine_pv(&x->e, info, move_writer(x), pv, sizeof pv);
    int moves, mate = engine_mate(info->score, &moves), score = info->score;
    if (mate > 0)
        score = 100000 + moves;
    else if (mate < 0)
        score = -100000 - moves;
    engine_say(&x->e, "%d %d %d %llu%s", info->depth, score, (int)(info->seconds * 100),
               (unsigned long long)info->nodes, pv);
}

/* The limits of a search for the engine's move: `st`, else the engine's clock (the search takes
 * its share: the moves left in the period, or a share of the game, and most of the increment),
 * else 2 s; `sd` besides. */
static SearchLimits move_limits(const XboardSession *x) {
    SearchLimits lim = {.depth = x->depth};
    if (x->fixed > 0)
        lim.seconds = x->fixed;
    else if (x->clock_cs >= 0) {
        lim.clock = (double)(x->clock_cs > 0 ? x->clock_cs : 1) / 100.0;
        lim.increment = x->inc;
        int played = x->e.pos.ply / 2;
        lim.moves_to_go = x->mps > 0 ? x->mps - played % x->mps : 0;
    } else if (!x->depth)
        lim.seconds = 2;
    return lim;
}

/* After the engine's move (on the search thread, e.lock held): think on in the position after
 * the reply the search expects, when pondering is on. */
static void start_pondering(XboardSession *x, const SearchResult *res) {
    if (!x->ponder || x->over || x->force || x->analyzing || res->info.pvlen < 2) return;
    const Move *reply = &res->info.pv[1];
    move_writer(x)(&x->e.pos, reply, x->expected[0], sizeof x->expected[0]);
    xb_move_legs(x, &x->e.pos, reply, x->expected[1], sizeof x->expected[1]);
    if (!board_make(&x->e.pos, reply)) return;
    GameResult r;
    gameend_check(&x->e.gen, &x->e.pos, &r);
    if (r.over || r.eliminated >= 0) {
        /* (a reply that ends the game is answered by the claim, not by a move) */
        board_unmake(&x->e.pos);
        return;
    }
    SearchLimits lim = move_limits(x);
    lim.ponder = true;
    x->pondering = true;
    engine_think_on(&x->e, lim);
}

/* The search's move is played and said, unless a command that changes the game came first. */
static void play_best(void *user, bool ok, const SearchResult *res, bool discarded) {
    XboardSession *x = user;
    char buf[64];
    if (!discarded && ok && res->has_move) xb_move_legs(x, &x->e.pos, &res->best, buf, sizeof buf);
    if (!discarded && ok && res->has_move && board_make(&x->e.pos, &res->best)) {
        engine_say(&x->e, "move %s", buf);
        claim_result(x);
        start_pondering(x, res);
    }
}

/* Ends the search thread; an expected reply it made to ponder on is taken back (the thread
 * may have set one up just before it was stopped). */
static void stop_search(XboardSession *x, EngineStop how) {
    engine_search_stop(&x->e, how);
    if (!x->e.searching && x->pondering) {
        x->pondering = false;
        board_unmake(&x->e.pos);
    }
}

/* Ends pondering, if the engine ponders: the search dropped, the expected reply taken back. */
static void stop_pondering(XboardSession *x) {
    pthread_mutex_lock(&x->e.lock);
    bool was = x->pondering;
    pthread_mutex_unlock(&x->e.lock);
    if (was) stop_search(x, ENGINE_STOP_DISCARD);
}

static void start_search(XboardSession *x) {
    if (!x->e.v || x->over) return;
    if (!engine_search_start(&x->e, move_limits(x), false)) engine_say(&x->e, "Error (cannot start the search): go");
}

/* Analysis of the current position, until it changes or analysis ends (its result dropped). */
static void start_analysis(XboardSession *x) {
    if (!x->e.v || x->over) return;
    pthread_mutex_lock(&x->e.lock);
    x->has_last = false;
    pthread_mutex_unlock(&x->e.lock);
    SearchLimits lim = {.depth = x->depth ? x->depth : MAX_PLY - 8}; /* (`sd` limits analysis too) */
    if (!engine_search_start(&x->e, lim, true)) engine_say(&x->e, "Error (cannot start the search): analyze");
}

/* `.` while analysing: stat01: TIME NODES DEPTH MOVES-LEFT TOTAL-MOVES, of the last iteration
 * (the moves left to search at that depth are not counted: 0). */
static void show_status(XboardSession *x) {
    if (!x->analyzing) return;
    pthread_mutex_lock(&x->e.lock);
    SearchInfo info = x->last;
    bool has = x->has_last;
    pthread_mutex_unlock(&x->e.lock);
    if (has)
        engine_say(&x->e, "stat01: %d %llu %d 0 0", (int)(info.seconds * 100), (unsigned long long)info.nodes,
                   info.depth);
}

/* ---- results ---------------------------------------------------------------------------------- */

/* Claims the result when the rule file's end conditions say the game is over. */
static void claim_result(XboardSession *x) {
    GameResult r;
    gameend_check(&x->e.gen, &x->e.pos, &r);
    if (!r.over) return;
    x->over = true;
    const char *why = r.name ? r.name : r.reason;
    if (r.winner < 0) {
        if (!strcmp(r.reason, "stalemate") && !r.name)
            engine_say(&x->e, "1/2-1/2 {Stalemate}");
        else
            engine_say(&x->e, "1/2-1/2 {Draw by %s}", why);
        return;
    }
    char who[16];
    snprintf(who, sizeof who, "%s", x->e.v->player_names[r.winner]);
    if (who[0] >= 'a' && who[0] <= 'z') who[0] = (char)(who[0] - 'a' + 'A');
    const char *code = r.winner == 0 ? "1-0" : "0-1";
    if (!strcmp(r.reason, "checkmate") && !r.name)
        engine_say(&x->e, "%s {%s mates}", code, who);
    else
        engine_say(&x->e, "%s {%s wins by %s}", code, who, why);
}

/* ---- describing a game XBoard does not know ------------------------------------------------- */

/* XBoard's piece types in the order of its piece-to-char table (one side; the last is the
 * king). */
static const char xb_pieces[] = "PNBRQFEACWMOHIJGDVLSUK";
#define XB_NPIECES ((int)sizeof xb_pieces - 1)

/* Can a move of type t promote (an ADD of some promotion set in one of its programs)? */
static bool type_promotes(const Variant *v, int t) {
    for (int o = 0; o < v->nowners; o++) {
        const Program *p = &v->types[t].per_owner[o].prog;
        for (int pc = 0; pc < p->count; pc += bc_instr_size((Opcode)p->code[pc]))
            if (p->code[pc] == OP_ADD && bc_operands(p->code, pc).a > 0) return true;
    }
    return false;
}

/* The piece-to-char table: each type of the game takes XBoard's piece of its letter when that
 * is free (the royal type the king), else the first free one; XBoard's pawn only a type that
 * promotes. False when there are too many. */
static bool piece_table(const Variant *v, char *buf, size_t cap) {
    char slot[XB_NPIECES + 1];
    memset(slot, '.', XB_NPIECES);
    slot[XB_NPIECES] = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int t = 0; t < v->ntypes; t++) {
            char l = v->types[t].letter;
            if (memchr(slot, l, XB_NPIECES)) continue;
            /* (XBoard promotes its pawn on the last rank, even where the engine taught it the game) */
            bool pawn = type_promotes(v, t);
            int at = -1;
            if (pass == 0) {
                const char *p = strchr(xb_pieces, l);
                if (v->types[t].royal && slot[XB_NPIECES - 1] == '.')
                    at = XB_NPIECES - 1;
                else if (p && l && slot[p - xb_pieces] == '.' && !(l == 'K' && !v->types[t].royal) &&
                         (p > xb_pieces || pawn))
                    at = (int)(p - xb_pieces);
            } else {
                for (int i = pawn ? 0 : 1; i < XB_NPIECES - 1 && at < 0; i++)
                    if (slot[i] == '.') at = i;
                if (at < 0) return false;
            }
            if (at >= 0) slot[at] = l;
        }
    char lower[XB_NPIECES + 1];
    for (int i = 0; i < XB_NPIECES; i++) lower[i] = slot[i] == '.' ? '.' : (char)(slot[i] | 0x20);
    lower[XB_NPIECES] = 0;
    snprintf(buf, cap, "%s%s", slot, lower);
    return true;
}

/* The position as XBoard reads a FEN: board, side, castling, en passant, half-moves, move
 * number (the fields the game's position text lacks take their plain values). */
static void xb_fen(const Position *pos, char *buf, size_t cap) {
    const Variant *v = pos->v;
    char text[4096], *field[FEN_MAX_FIELDS + 1];
    fen_write(pos, text, sizeof text);
    int n = 0;
    for (char *p = strtok(text, " "); p && n < FEN_MAX_FIELDS; p = strtok(NULL, " ")) field[n++] = p;
    const char *castling = "-", *ep = "-", *half = "0";
    int full = 1;
    for (int i = 0; i < n && i < v->nfen_fields; i++) switch (v->fen_fields[i]) {
        case FEN_CASTLING: castling = field[i]; break;
        case FEN_EP: ep = field[i]; break;
        case FEN_HALFMOVE: half = field[i]; break;
        case FEN_FULLMOVE: full = atoi(field[i]); break;
        case FEN_PLIES: full = atoi(field[i]) / 2 + 1; break;
        default: break;
        }
    snprintf(buf, cap, "%s %c %s %s %s %d", n ? field[0] : "8/8/8/8/8/8/8/8", board_mover(pos) == 0 ? 'w' : 'b',
             castling, ep, half, full);
}

/* An XBoard FEN (board side castling ep half-moves move-number) as the game's position text. */
static void from_xb_fen(const Variant *v, char **w, int n, char *buf, size_t cap) {
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < v->nfen_fields; i++) {
        char plies[16];
        const char *f = NULL;
        switch (v->fen_fields[i]) {
        case FEN_BOARD: f = n > 0 ? w[0] : NULL; break;
        case FEN_SIDE: f = n > 1 ? w[1] : NULL; break;
        case FEN_CASTLING: f = n > 2 ? w[2] : NULL; break;
        case FEN_EP: f = n > 3 ? w[3] : NULL; break;
        case FEN_HALFMOVE: f = n > 4 ? w[4] : NULL; break;
        case FEN_FULLMOVE: f = n > 5 ? w[5] : NULL; break;
        case FEN_PLIES:
            if (n > 5) {
                snprintf(plies, sizeof plies, "%d",
                         (atoi(w[5]) > 1 ? atoi(w[5]) - 1 : 0) * 2 + (n > 1 && !strcmp(w[1], "b")));
                f = plies;
            }
            break;
        default: break;
        }
        if (!f) break; /* (the fields after it take their defaults) */
        at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, "%s%s", at ? " " : "", f);
    }
}

/* The Betza atom of a leap or step (dx, dy), or 0 when it has none. */
static char betza_atom(int dx, int dy) {
    int a = abs(dx), b = abs(dy);
    if (a > b) a = abs(dy), b = abs(dx);
    static const char atoms[4][4] = {{0, 'W', 'D', 'H'}, {0, 'F', 'N', 'C'}, {0, 0, 'A', 'Z'}, {0, 0, 0, 'G'}};
    return a < 4 && b < 4 ? atoms[a][b] : 0;
}

/* The Betza modifier naming a set of directions of one atom ("" for all of them, "f", "v",
 * "fl", ...), or NULL when no single modifier does. d holds (dx, dy) pairs; forward is +dy. */
static const char *betza_dirs(int (*d)[2], int nd, char atom) {
    bool oblique = atom == 'N' || atom == 'C' || atom == 'Z';
    bool diagonal = atom == 'F' || atom == 'A' || atom == 'G';
    if (nd == (oblique ? 8 : 4)) return "";
    int f = 0, b = 0, l = 0, r = 0;
    for (int i = 0; i < nd; i++) f += d[i][1] > 0, b += d[i][1] < 0, l += d[i][0]<0, r += d[i][0]> 0;
    int half = oblique ? 4 : 2;
    if (diagonal || oblique) {
        if (nd == half) return f == nd ? "f" : b == nd ? "b" : l == nd ? "l" : r == nd ? "r" : NULL;
        if (nd == 1 && diagonal) return f ? (l ? "fl" : "fr") : (l ? "bl" : "br");
        return NULL;
    }
    if (nd == 1) return f ? "f" : b ? "b" : l ? "l" : "r";
    if (nd == 2 && f && b) return "v";
    if (nd == 2 && l && r) return "s";
    return NULL;
}

/* A type's moves in Betza notation, from its rays (player 0's frame; player 1's must be their
 * mirror image, as XBoard takes them). False when the type has moves rays do not describe: programs, castling,
 * promotion, captures by moving, freezing, or directions Betza cannot single out. */
static bool betza(const Variant *v, int t, char *buf, size_t cap) {
    const PieceType *pt = &v->types[t];
    const PieceProgram *p0 = &pt->per_owner[0], *p1 = &pt->per_owner[1];
    if (p0->rest.count || p1->rest.count || p0->nlines || p1->nlines || p0->npatterns || p0->ngen == 0 ||
        p0->ngen != p1->ngen)
        return false;
    if (((v->freezer_mask | v->imitator_mask) >> t) & 1) return false;
    for (int i = 0; i < p0->ngen; i++) {
        const Ray *a = &p0->gen[i];
        const Direction *da = &v->dirs[a->dir];
        bool mirrored = false;
        for (int j = 0; j < p1->ngen && !mirrored; j++) {
            const Ray *b = &p1->gen[j];
            const Direction *db = &v->dirs[b->dir];
            mirrored = da->dx == db->dx && da->dy == -db->dy && a->slide == b->slide && a->range == b->range &&
                a->mode == b->mode;
        }
        if (!mirrored || da->link_board >= 0 || !betza_atom(da->dx, da->dy)) return false;
    }
    size_t at = 0;
    buf[0] = 0;
    bool done[MAX_DIRECTIONS] = {false};
    for (int i = 0; i < p0->ngen; i++) {
        if (done[i]) continue;
        const Ray *r = &p0->gen[i];
        char atom = betza_atom(v->dirs[r->dir].dx, v->dirs[r->dir].dy);
        int d[MAX_DIRECTIONS][2], nd = 0;
        for (int j = i; j < p0->ngen; j++) {
            const Ray *s = &p0->gen[j];
            const Direction *ds = &v->dirs[s->dir];
            if (done[j] || betza_atom(ds->dx, ds->dy) != atom || s->slide != r->slide || s->range != r->range ||
                s->mode != r->mode)
                continue;
            d[nd][0] = ds->dx, d[nd][1] = ds->dy, nd++;
            done[j] = true;
        }
        /* directions no single modifier names are written one by one (d + g, one each) */
        bool together = betza_dirs(d, nd, atom) != NULL;
        for (int g = 0; g < (together ? 1 : nd); g++) {
            const char *dirs = together ? betza_dirs(d, nd, atom) : betza_dirs(d + g, 1, atom);
            if (!dirs) return false;
            const char *mode = r->mode == RAY_MOVE ? "m" : r->mode == RAY_CAPTURE ? "c" : "";
            char range[8] = "";
            if (r->slide && r->range != 1) snprintf(range, sizeof range, "%d", r->range);
            bool rider = r->slide && !r->range && (atom == 'W' || atom == 'F');
            at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, "%s%s%c%s", dirs, mode,
                                   rider ? (atom == 'W' ? 'R' : 'B') : atom, rider ? "" : range);
        }
    }
    /* (the usual short names of the two common compounds) */
    if (!strcmp(buf, "WF")) snprintf(buf, cap, "K");
    if (!strcmp(buf, "RB")) snprintf(buf, cap, "Q");
    return at < cap;
}

/* After `variant NAME` of a game XBoard does not know: its pieces, board and start position,
 * and how the pieces move where Betza notation can say it. */
static void describe_game(XboardSession *x) {
    const Variant *v = x->e.v;
    char table[2 * XB_NPIECES + 1], fen[4200];
    if (!piece_table(v, table, sizeof table)) {
        engine_say(&x->e, "telluser %s has too many piece types for XBoard", x->game->name);
        return;
    }
    xb_fen(&x->e.pos, fen, sizeof fen);
    engine_say(&x->e, "setup (%s) %dx%d+0_fairy %s", table, v->boards[0].width, v->boards[0].height, fen);
    for (int t = 0; t < v->ntypes; t++) {
        char desc[200];
        if (betza(v, t, desc, sizeof desc)) engine_say(&x->e, "piece %c& %s", v->types[t].letter, desc);
    }
}

/* ---- commands ---------------------------------------------------------------------------------- */

/* Makes game i the current one, at its start position. False when it cannot be loaded. */
static bool set_game(XboardSession *x, int i) {
    stop_search(x, ENGINE_STOP_DISCARD);
    Variant *v = i >= 0 ? engine_load(&x->e, x->e.games[i].path, NULL) : NULL;
    if (!v) return false;
    engine_set_game(&x->e, v, "telluser ");
    x->game = &x->e.games[i];
    x->over = false;
    x->lifted = NO_CELL;
    return true;
}

static void cmd_protover(XboardSession *x) {
    char list[1024] = "";
    size_t at = 0;
    for (int i = 0; i < x->e.ngames; i++)
        at += (size_t)snprintf(list + at, at < sizeof list ? sizeof list - at : 0, "%s%s", i ? "," : "",
                               xb_name(&x->e.games[i]));
    engine_say(&x->e,
               "feature myname=\"Varia\" setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 san=0 highlight=1 "
               "playother=1 colors=0 analyze=1 memory=1 smp=1");
    engine_say(&x->e, "feature variants=\"%s\"", list);
    engine_say(&x->e, "feature option=\"Skill Level -spin %d 0 20\"", x->e.skill);
    engine_say(&x->e, "feature option=\"UCI_LimitStrength -check %d\"", x->e.limit_strength);
    engine_say(&x->e, "feature option=\"UCI_Elo -spin %d %d %d\"", x->e.elo, ENGINE_ELO_MIN, ENGINE_ELO_MAX);
    engine_say(&x->e, "feature done=1");
}

/* option NAME=VALUE: the strength options offered in cmd_protover (the same as UCI's) */
static void cmd_option(XboardSession *x, const char *line) {
    const char *at = line + strspn(line, " \t") + strlen("option");
    at += strspn(at, " \t");
    const char *eq = strchr(at, '=');
    char name[64];
    int len = eq ? (int)(eq - at) : 0;
    while (len > 0 && (at[len - 1] == ' ' || at[len - 1] == '\t')) len--;
    if (!eq || len <= 0 || len >= (int)sizeof name) {
        engine_say(&x->e, "Error (option takes NAME=VALUE): %.60s", line);
        return;
    }
    snprintf(name, sizeof name, "%.*s", len, at);
    char *end;
    long v = strtol(eq + 1, &end, 10);
    bool skill = !strcmp(name, "Skill Level"), limit = !strcmp(name, "UCI_LimitStrength"),
         elo = !strcmp(name, "UCI_Elo");
    long lo = elo ? ENGINE_ELO_MIN : 0, hi = elo ? ENGINE_ELO_MAX : limit ? 1 : 20;
    if (!skill && !limit && !elo) {
        engine_say(&x->e, "Error (unknown option): %s", name);
        return;
    }
    if (end == eq + 1 || *end || v < lo || v > hi) {
        engine_say(&x->e, "Error (%s takes a number from %ld to %ld): %.40s", name, lo, hi, eq + 1);
        return;
    }
    stop_search(x, ENGINE_STOP_DISCARD);
    Engine *e = &x->e;
    engine_set_strength(e, skill ? (int)v : e->skill, limit ? v != 0 : e->limit_strength, elo ? (int)v : e->elo);
}

static void cmd_new(XboardSession *x) {
    stop_search(x, ENGINE_STOP_DISCARD);
    if (!set_game(x, x->first_file >= 0 ? x->first_file : find_game(x, XB_NORMAL)))
        engine_say(&x->e, "Error (no game can be loaded): new");
    x->force = false;
    x->engine_side = 1;
    x->depth = 0;
    if (x->e.searcher) search_clear(x->e.searcher);
}

static void cmd_variant(XboardSession *x, char **w, int n) {
    int i = n > 1 ? find_game(x, w[1]) : -1;
    if (i < 0 || !set_game(x, i)) {
        engine_say(&x->e, "Error (unknown variant): %s", n > 1 ? w[1] : "");
        return;
    }
    if (!xb_is_native(x->game)) describe_game(x);
}

static void cmd_setboard(XboardSession *x, char **w, int n) {
    stop_search(x, ENGINE_STOP_DISCARD);
    if (!x->e.v) {
        engine_say(&x->e, "tellusererror Illegal position: no game is loaded");
        return;
    }
    char text[4096], err[200];
    from_xb_fen(x->e.v, w + 1, n - 1, text, sizeof text);
    Position *pos = xmalloc(sizeof *pos);
    board_init(pos, x->e.v);
    bool ok = fen_read(pos, text, err, sizeof err) && movegen_position_ok(&x->e.gen, pos, err, sizeof err);
    if (ok) {
        board_copy(&x->e.pos, pos);
        x->over = false;
    } else {
        engine_say(&x->e, "tellusererror Illegal position: %s", err);
    }
    board_free(pos);
    free(pos);
}

/* The user's move (after `usermove`, or alone); the engine answers when it is its turn. XBoard
 * marks a move that could promote but does not with a trailing `=`: the plain move. */
static void cmd_move(XboardSession *x, const char *move) {
    char text[64];
    snprintf(text, sizeof text, "%s", move);
    size_t len = strlen(text);
    if (len > 1 && text[len - 1] == '=') text[len - 1] = 0;
    pthread_mutex_lock(&x->e.lock);
    bool hit = x->pondering && (!strcmp(text, x->expected[0]) || !strcmp(text, x->expected[1]));
    if (hit) x->pondering = false;
    pthread_mutex_unlock(&x->e.lock);
    if (hit) {
        /* the expected reply: the search thinking on it answers on its clock from now */
        engine_search_finite(&x->e);
        return;
    }
    stop_pondering(x);
    stop_search(x, ENGINE_STOP_DISCARD);
    if (!x->e.v) {
        engine_say(&x->e, "Illegal move (no game is loaded): %s", text);
        return;
    }
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    movegen_legal(&x->e.gen, &x->e.pos, ml, &f);
    int k = x->over || f.set ? -1 : find_move(&x->e.pos, ml, text, move_writer(x));
    if (k < 0)
        engine_say(&x->e, "Illegal move: %s", text);
    else if (!board_make(&x->e.pos, &ml->moves[k]))
        engine_say(&x->e, "Illegal move (too many moves): %s", text);
    else if (!x->analyzing) {
        claim_result(x);
        if (!x->force && board_mover(&x->e.pos) == x->engine_side) start_search(x);
    }
    free(ml);
}

static void cmd_undo(XboardSession *x, int plies, const char *name) {
    stop_search(x, ENGINE_STOP_DISCARD);
    if (!x->e.v || x->e.pos.ply < plies) {
        engine_say(&x->e, "Error (command not legal now): %s", name);
        return;
    }
    for (int i = 0; i < plies; i++) board_unmake(&x->e.pos);
    x->over = false;
}

/* level MPS BASE INC (BASE in minutes or minutes:seconds) */
static void cmd_level(XboardSession *x, char **w, int n) {
    if (n != 4) {
        engine_say(&x->e, "Error (level takes three values): level");
        return;
    }
    x->mps = atoi(w[1]);
    x->inc = atof(w[3]);
    x->fixed = 0;
}

/* lift SQ: the cells the piece there may go to (red: a capture, magenta: a promotion). */
static void cmd_lift(XboardSession *x, const char *sq, bool victims) {
    if (!x->e.v) return;
    const Board *bd = &x->e.v->boards[0];
    char mark[MAX_CELLS];
    memset(mark, 0, sizeof mark);
    Cell from = NO_CELL, at = NO_CELL;
    char name[16];
    for (int c = 0; c < x->e.v->ncells; c++) {
        cell_name(x->e.v, (Cell)c, name, sizeof name);
        if (!strcmp(name, sq)) at = (Cell)c;
    }
    if (!victims) x->lifted = at;
    from = x->lifted;
    Position *pos = xmalloc(sizeof *pos);
    MoveList *ml = xmalloc(sizeof *ml);
    board_init(pos, x->e.v);
    pthread_mutex_lock(&x->e.lock);
    board_copy(pos, &x->e.pos);
    pthread_mutex_unlock(&x->e.lock);
    VmFault f = {0};
    movegen_legal(&x->e.gen, pos, ml, &f);
    for (int i = 0; from != NO_CELL && at != NO_CELL && i < ml->count; i++) {
        const Move *m = &ml->moves[i];
        if (m->from != from || (m->flags & MOVE_PASS) || (m->nfx > 0 && m->fx[0].kind == FX_PLACE)) continue;
        if (!victims) {
            char c = (m->flags & MOVE_PROMOTION) ? 'M' : (m->flags & MOVE_CAPTURE) ? 'R' : 'Y';
            if (mark[m->to] != 'M' && mark[m->to] != 'R') mark[m->to] = c;
            continue;
        }
        /* hover SQ: the pieces a move to SQ takes, green */
        if (m->to != at) continue;
        for (int e = 0; e < m->nfx; e++)
            if (m->fx[e].kind == FX_REMOVE && m->fx[e].a != from)
                mark[m->fx[e].a] = 'G';
            else if (m->fx[e].kind == FX_MOVE && pos->cell[m->fx[e].b] && m->fx[e].b != from)
                mark[m->fx[e].b] = 'G';
    }
    board_free(pos);
    free(pos);
    free(ml);
    char out[MAX_CELLS * 2 + MAX_BOARD_DIM + 16];
    size_t len = 0;
    for (int y = bd->height - 1; y >= 0; y--) {
        int empty = 0;
        for (int xx = 0; xx < bd->width; xx++) {
            Cell c = bd->at[y][xx];
            if (c == NO_CELL || !mark[c]) {
                empty++;
                continue;
            }
            if (empty) len += (size_t)snprintf(out + len, sizeof out - len, "%d", empty);
            empty = 0;
            out[len++] = mark[c];
        }
        if (empty) len += (size_t)snprintf(out + len, sizeof out - len, "%d", empty);
        if (y) out[len++] = '/';
    }
    out[len] = 0;
    engine_say(&x->e, "highlight %s", out);
}

XboardSession *xboard_new(const char *rules_dir, const char *const *files, int nfiles, FILE *out) {
    XboardSession *x = xcalloc(1, sizeof *x);
    engine_init(&x->e, out, show_info, play_best, x);
    x->first_file = -1;
    x->clock_cs = -1;
    x->engine_side = 1;
    x->lifted = NO_CELL;
    engine_games_scan(&x->e, rules_dir);
    for (int i = 0; i < nfiles; i++) {
        int g = engine_game_add(&x->e, files[i]);
        if (g < 0)
            engine_say(&x->e,
                       "telluser %s cannot be played here: it does not load, or needs more than one board and two "
                       "players",
                       files[i]);
        else if (x->first_file < 0)
            x->first_file = g;
    }
    cmd_new(x);
    return x;
}

/* Commands XBoard may send that change nothing here. */
static const char *const ignored[] = {"xboard", "accepted", "rejected", "random", "computer", "name",
                                      "draw",   "otim",     "put",      "ics",    "nps",      NULL};

/* Commands that leave pondering on: the rest first end it. */
static const char *const keep_pondering[] = {"usermove", "ping",     "time",     "otim",     "post", "nopost",
                                             "hard",     "accepted", "rejected", "computer", "name", "random",
                                             "draw",     ".",        "ics",      "nps",      NULL};

bool xboard_line(XboardSession *x, const char *line) {
    char *w[XB_MAX_WORDS];
    int n;
    char *copy = engine_words(line, w, XB_MAX_WORDS, &n);
    bool go_on = true;
    const char *c = n ? w[0] : "";
    bool ignore = false;
    for (int i = 0; ignored[i]; i++) ignore |= !strcmp(c, ignored[i]);
    bool keep = n == 0 || (looks_like_move(c) && n == 1);
    for (int i = 0; keep_pondering[i]; i++) keep |= !strcmp(c, keep_pondering[i]);
    if (!keep) stop_pondering(x);
    if (n == 0 || ignore) {
    } else if (!strcmp(c, "protover"))
        cmd_protover(x);
    else if (!strcmp(c, "new"))
        cmd_new(x);
    else if (!strcmp(c, "variant"))
        cmd_variant(x, w, n);
    else if (!strcmp(c, "setboard"))
        cmd_setboard(x, w, n);
    else if (!strcmp(c, "option"))
        cmd_option(x, line);
    else if (!strcmp(c, "usermove")) {
        if (n == 2)
            cmd_move(x, w[1]);
        else
            engine_say(&x->e, "Error (usermove takes one move): usermove");
    } else if (!strcmp(c, "go")) {
        stop_search(x, ENGINE_STOP_DISCARD);
        x->force = false;
        if (x->e.v) x->engine_side = board_mover(&x->e.pos);
        start_search(x);
    } else if (!strcmp(c, "playother")) {
        stop_search(x, ENGINE_STOP_DISCARD);
        x->force = false;
        if (x->e.v) x->engine_side = 1 - board_mover(&x->e.pos);
    } else if (!strcmp(c, "force")) {
        stop_search(x, ENGINE_STOP_DISCARD);
        x->force = true;
    } else if (!strcmp(c, "?")) {
        if (!x->analyzing) stop_search(x, ENGINE_STOP_NOW);
    } else if (!strcmp(c, "analyze")) {
        stop_search(x, ENGINE_STOP_DISCARD);
        x->analyzing = true;
    } else if (!strcmp(c, "exit")) {
        stop_search(x, ENGINE_STOP_DISCARD);
        x->analyzing = false;
    } else if (!strcmp(c, "."))
        show_status(x);
    else if (!strcmp(c, "undo"))
        cmd_undo(x, 1, c);
    else if (!strcmp(c, "remove"))
        cmd_undo(x, 2, c);
    else if (!strcmp(c, "result")) {
        stop_search(x, ENGINE_STOP_DISCARD);
        x->over = true;
    } else if (!strcmp(c, "ping")) {
        pthread_mutex_lock(&x->e.lock);
        bool pondering = x->pondering;
        pthread_mutex_unlock(&x->e.lock);
        /* (the move comes before the pong; a search on the opponent's time goes on) */
        if (!x->analyzing && !pondering) stop_search(x, ENGINE_STOP_WAIT);
        engine_say(&x->e, "pong %s", n > 1 ? w[1] : "");
    } else if (!strcmp(c, "post") || !strcmp(c, "nopost")) {
        pthread_mutex_lock(&x->e.lock);
        x->post = c[0] == 'p';
        pthread_mutex_unlock(&x->e.lock);
    } else if (!strcmp(c, "hard") || !strcmp(c, "easy"))
        x->ponder = c[0] == 'h';
    else if ((!strcmp(c, "memory") || !strcmp(c, "cores")) && n == 2) {
        char *end;
        long v = strtol(w[1], &end, 10);
        bool memory = c[0] == 'm';
        if (end == w[1] || *end || v < 1 || v > (memory ? 1L << 20 : SEARCH_THREADS_MAX))
            engine_say(&x->e, "Error (bad value): %s %.40s", c, w[1]);
        else {
            stop_search(x, ENGINE_STOP_DISCARD);
            if (memory)
                engine_set_hash(&x->e, (size_t)v);
            else {
                SearchOptions o = x->e.opt;
                o.threads = (int)v;
                engine_set_options(&x->e, &o);
            }
        }
    } else if (!strcmp(c, "level") || !strcmp(c, "st") || !strcmp(c, "sd") || !strcmp(c, "time")) {
        /* (the search thread reads the time control when it starts pondering) */
        pthread_mutex_lock(&x->e.lock);
        if (c[0] == 'l')
            cmd_level(x, w, n);
        else if (!strcmp(c, "st") && n == 2 && atof(w[1]) > 0)
            x->fixed = atof(w[1]);
        else if (!strcmp(c, "sd") && n == 2 && atoi(w[1]) > 0)
            x->depth = atoi(w[1]) < MAX_PLY - 8 ? atoi(w[1]) : MAX_PLY - 8;
        else if (!strcmp(c, "time") && n == 2)
            x->clock_cs = atol(w[1]);
        else
            engine_say(&x->e, "Error (bad value): %s", c);
        pthread_mutex_unlock(&x->e.lock);
    } else if (!strcmp(c, "lift") && n == 2)
        cmd_lift(x, w[1], false);
    else if (!strcmp(c, "hover") && n == 2)
        cmd_lift(x, w[1], true);
    else if (!strcmp(c, "quit"))
        go_on = false;
    else if (looks_like_move(c) && n == 1)
        cmd_move(x, c);
    else
        engine_say(&x->e, "Error (unknown command): %.80s", c);
    /* analysis goes on in the position as the command left it */
    if (go_on && x->analyzing && !x->e.searching) start_analysis(x);
    free(copy);
    return go_on;
}

void xboard_free(XboardSession *x) {
    if (!x) return;
    engine_close(&x->e, ENGINE_STOP_WAIT);
    free(x);
}

int xboard_run(const char *rules_dir, const char *const *files, int nfiles, FILE *in, FILE *out) {
    XboardSession *x = xboard_new(rules_dir, files, nfiles, out);
    char *line = NULL;
    size_t cap = 0;
    bool go_on = true;
    while (go_on && engine_read_line(&x->e, in, &line, &cap, "Error (line holds a NUL byte): ?"))
        go_on = xboard_line(x, line);
    free(line);
    /* (quit ends at once; at the end of input a search under way is waited for, but not one
     * on the opponent's time) */
    stop_pondering(x);
    if (!go_on) stop_search(x, ENGINE_STOP_DISCARD);
    xboard_free(x);
    return 0;
}
