/* notation.c - coordinate notation and standard algebraic notation for moves. */
#include "notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>

#include "movegen.h"

/* A move of a kind other than normal is written with its kind in front: "bonus:e4d5". */
static size_t kind_prefix(const Variant *v, const Move *m, char *buf, size_t cap) {
    if (!m->kind || m->kind >= v->nkinds || cap == 0) return 0;
    int n = snprintf(buf, cap, "%s:", v->kind_names[m->kind]);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

/* A capture where nothing moves: the victim is removed from where it stands. */
static bool is_remote(const Move *m) { return m->from == m->to && m->nfx == 1 && m->fx[0].kind == FX_REMOVE; }

/* How a pile is named in a move: its player's token, or the pile's name. */
static const char *pile_label(const Variant *v, int slot) {
    for (int i = 0; i < v->npiles; i++) {
        const PileDef *p = &v->piles[i];
        int n = p->per_player ? v->nplayers : 1;
        if (slot >= p->slot && slot < p->slot + n) return p->per_player ? v->player_token[slot - p->slot] : p->name;
    }
    return "?";
}

/* Card moves: a payment "pay:9+1>w" (cards, highest first, onto w's pile), a draw
 * "draw:w" (the top card of w's pile; the kind in front). */
static void card_move(const Variant *v, const Move *m, char *buf, size_t cap, size_t at) {
    bool payment = false;
    for (int i = 0; i < m->nfx; i++) payment = payment || m->fx[i].kind == FX_DEBT;
    if (!payment) {
        /* from a stack: whose; from a sorted pile (any card may be taken): which card */
        const PileDef *from = NULL;
        for (int i = 0; m->nfx && i < v->npiles; i++)
            if (m->fx[0].a >= v->piles[i].slot &&
                m->fx[0].a < v->piles[i].slot + (v->piles[i].per_player ? v->nplayers : 1))
                from = &v->piles[i];
        if (from && from->sorted)
            snprintf(buf + at, cap - at, "%d", m->fx[0].piece);
        else
            snprintf(buf + at, cap - at, "%s", m->nfx ? pile_label(v, m->fx[0].a) : "?");
        return;
    }
    at += (size_t)snprintf(buf + at, cap - at, "pay:");
    int to = -1;
    for (int i = 0; i < m->nfx && at < cap; i++) {
        if (m->fx[i].kind != FX_CARD) continue;
        at += (size_t)snprintf(buf + at, cap - at, "%s%d", to >= 0 ? "+" : "", m->fx[i].piece);
        to = m->fx[i].b;
    }
    if (at < cap) snprintf(buf + at, cap - at, ">%s", to >= 0 ? pile_label(v, to) : "?");
}

/* A type's letter as notation writes it: "+P" for a promoted type. */
static const char *type_text(const Variant *v, int t, char *buf) {
    buf[0] = '+';
    buf[1] = v->types[t].letter;
    buf[2] = 0;
    return v->types[t].promoted ? buf : buf + 1;
}

/* A gating move's entering piece: the cell (NO_CELL when m does not gate) and the piece. */
static Cell gate_cell(const Move *m) {
    if (!(m->flags & MOVE_GATE)) return NO_CELL;
    for (int i = 0; i < m->nfx; i++)
        if (m->fx[i].kind == FX_PLACE) return m->fx[i].a;
    return NO_CELL;
}

static Piece gate_piece(const Move *m) {
    for (int i = 0; i < m->nfx; i++)
        if (m->fx[i].kind == FX_PLACE) return m->fx[i].piece;
    return 0;
}

/* Does m pause on its way (a multi-part move)? */
static bool has_via(const Move *m) {
    for (int i = 0; i < m->nfx; i++)
        if (m->fx[i].kind == FX_VIA) return true;
    return false;
}

/* A cell as moves name it: its number under `position-format pdn`, else its name. */
static void cell_text(const Variant *v, Cell c, char *buf, size_t cap) {
    if (v->pdn)
        snprintf(buf, cap, "%d", v->square_number[c]);
    else
        snprintf(buf, cap, "%s", v->cells[c].name);
}

/* A move along its cells: the origin, every cell it paused on, the destination. Draughts
 * numbers are joined by 'x' for a capture and '-' otherwise ("22x13x6", "11-15"); cell names
 * are written one after another ("b6d4f6") with the promotion's letter after. */
static void path_text(const Variant *v, const Move *m, char *buf, size_t cap) {
    bool capture = (m->flags & MOVE_CAPTURE) != 0;
    for (int i = 0; i < m->nfx; i++) capture = capture || m->fx[i].kind == FX_REMOVE;
    const char *sep = v->pdn ? (capture ? "x" : "-") : "";
    size_t at = 0;
    char c[32];
    cell_text(v, m->from, c, sizeof c);
    at += (size_t)snprintf(buf + at, cap - at, "%s", c);
    for (int i = 0; i < m->nfx && at < cap; i++)
        if (m->fx[i].kind == FX_VIA) {
            cell_text(v, m->fx[i].a, c, sizeof c);
            at += (size_t)snprintf(buf + at, cap - at, "%s%s", sep, c);
        }
    cell_text(v, m->to, c, sizeof c);
    if (at < cap) at += (size_t)snprintf(buf + at, cap - at, "%s%s", sep, c);
    if (!v->pdn && m->promo != NO_TYPE && at < cap)
        snprintf(buf + at, cap - at, "%c", (char)tolower((unsigned char)v->types[m->promo].letter));
}

/* After the text of a move whose mover chose the cells it acts on (MOVE_NAMES_TAKEN): each
 * cell but its destination it takes a piece on ('x'), puts a piece on ('@') or changes a
 * piece on ('='), in the order the move does them ("a1d1xg7", "M@d2xg7", "a1a2@c3"). */
static void taken_suffix(const Variant *v, const Move *m, char *buf, size_t cap) {
    if (!(m->flags & MOVE_NAMES_TAKEN)) return;
    size_t at = strlen(buf);
    for (int i = 0; i < m->nfx && at < cap; i++) {
        const Effect *e = &m->fx[i];
        char mark = e->kind == FX_REMOVE ? 'x' : e->kind == FX_PLACE ? '@' : e->kind == FX_CHANGE ? '=' : 0;
        if (!mark || e->a == m->to || (i == 0 && e->kind == FX_PLACE && (m->flags & MOVE_DROP))) continue;
        at += (size_t)snprintf(buf + at, cap - at, "%c%s", mark, v->cells[e->a].name);
    }
}

static void move_text(const Variant *v, const Move *m, char *buf, size_t cap);

void notation_move(const Variant *v, const Move *m, char *buf, size_t cap) {
    move_text(v, m, buf, cap);
    if (cap) taken_suffix(v, m, buf, cap);
}

static void move_text(const Variant *v, const Move *m, char *buf, size_t cap) {
    if (m->flags & MOVE_PASS) {
        snprintf(buf, cap, "pass");
        return;
    }
    size_t at = kind_prefix(v, m, buf, cap);
    if (m->flags & MOVE_CARDS) {
        card_move(v, m, buf, cap, at);
        return;
    }
    if (m->flags & MOVE_TILE) {
        snprintf(buf + at, cap - at, "%s", v->cells[m->to].name);
        return;
    }
    if (m->flags & MOVE_DROP) {
        /* a drop: the piece's letter, '@' and the cell ("P@e4") */
        int t = m->nfx ? PIECE_TYPE(m->fx[0].piece) : -1;
        char text[3];
        snprintf(buf + at, cap - at, "%s@%s", t >= 0 ? type_text(v, t, text) : "?", v->cells[m->to].name);
        return;
    }
    if ((v->pdn || has_via(m)) && !is_remote(m) && !(m->flags & MOVE_DROP)) {
        path_text(v, m, buf + at, cap - at);
        return;
    }
    const CellInfo *from = &v->cells[m->from], *to = &v->cells[m->to];
    if (v->nboards > 1 && m->nfx > 0 && m->fx[0].kind == FX_PLACE && !(m->flags & MOVE_GATE)) {
        /* a piece a program drops, as a drop from the hand is written: "T@main:b1" */
        snprintf(buf + at, cap - at, "%c@%s", v->types[PIECE_TYPE(m->fx[0].piece)].letter, to->name);
        return;
    }
    if (v->nboards > 1 && !is_remote(m)) {
        /* on one of several boards: "M d3-d7", "M c6-c7=Q", " +" when the move is copied; to
         * another board, the destination with its board: "C d1-G:d1" */
        const char *f = strchr(from->name, ':'), *t = strchr(to->name, ':');
        char promo[4] = "";
        if (m->promo != NO_TYPE) snprintf(promo, sizeof promo, "=%c", v->types[m->promo].letter);
        snprintf(buf + at, cap - at, "%s %s-%s%s%s", v->boards[from->board].name, f ? f + 1 : from->name,
                 from->board == to->board && t ? t + 1 : to->name, promo, (m->flags & MOVE_COPY) ? " +" : "");
        return;
    }
    if (m->castle && v->castles[m->castle - 1].free && m->nfx && m->fx[0].kind == FX_MOVE)
        to = &v->cells[m->fx[0].a]; /* a free castle is written as the king onto its rook (Chess960) */
    char promo[4] = "";
    /* a promoted type (`letter +P`) is written '+', as shogi's promotions are, and a change
     * back to a type some promoted type demotes to '-' */
    if (m->promo != NO_TYPE && v->types[m->promo].promoted)
        snprintf(promo, sizeof promo, "+");
    else if (m->promo != NO_TYPE && variant_promoted_type(v, m->promo) >= 0)
        snprintf(promo, sizeof promo, "-");
    else if (m->promo != NO_TYPE)
        snprintf(promo, sizeof promo, "%c", (char)tolower((unsigned char)v->types[m->promo].letter));
    Cell gate = gate_cell(m);
    if (gate != NO_CELL) {
        /* a piece from the hand enters the gate: its letter after the move; entering a castle's
         * rook cell, the move is written from the rook's cell to the king's ("h1e1h") */
        snprintf(promo, sizeof promo, "%c", (char)tolower((unsigned char)v->types[PIECE_TYPE(gate_piece(m))].letter));
        if (m->castle && gate != m->from) from = &v->cells[gate], to = &v->cells[m->from];
    }
    if (is_remote(m))
        snprintf(buf + at, cap - at, "x%s", to->name);
    else if (m->nfx > 0 && m->fx[0].kind == FX_PLACE && m->from == m->to)
        snprintf(buf + at, cap - at, "%c@%s", v->types[PIECE_TYPE(m->fx[0].piece)].letter, to->name);
    else
        snprintf(buf + at, cap - at, "%s%s%s", from->name, to->name, promo);
}

/* text without white space. */
static void squeeze(const char *text, char *out, size_t cap) {
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < cap; p++)
        if (!isspace((unsigned char)*p)) out[n++] = *p;
    out[n] = 0;
}

int notation_find(const Variant *v, const MoveList *list, const char *text) {
    int found = -1;
    char buf[64];
    for (int i = 0; i < list->count; i++) {
        notation_move(v, &list->moves[i], buf, sizeof buf);
        if (strcmp(buf, text) != 0) continue;
        if (found >= 0) return -2;
        found = i;
    }
    return found;
}

/* ---- algebraic notation -------------------------------------------------------------------- */

/* A cell name splits into a file part (everything before the trailing digits, board prefix
 * included) and a rank part (the trailing digits). */
static void split_cell(const char *name, char *file, char *rank, size_t cap) {
    size_t n = strlen(name), k = n;
    while (k > 0 && isdigit((unsigned char)name[k - 1])) k--;
    snprintf(file, cap, "%.*s", (int)k, name);
    snprintf(rank, cap, "%s", name + k);
}

static bool is_drop(const Move *m) { return m->nfx > 0 && m->fx[0].kind == FX_PLACE && m->from == m->to; }

/* The type that moves: the piece on the origin, or the dropped piece. */
static int moving_type(const Position *pos, const Move *m) {
    if (is_drop(m)) return PIECE_TYPE(m->fx[0].piece);
    return PIECE_TYPE(pos->cell[m->from]);
}

static bool pawn_like(const Variant *v, int t) { return t >= 0 && v->types[t].letter == 'P' && !v->types[t].promoted; }

static bool is_capture(const Position *pos, const Move *m) {
    if (m->flags & MOVE_CAPTURE) return true;
    for (int i = 0; i < m->nfx; i++)
        if (m->fx[i].kind == FX_REMOVE && pos->cell[m->fx[i].a]) return true;
    return false;
}

/* The castle m performs, or NULL: the royal goes from king_from to king_to and the rook moves
 * in the same move (the move generator tags castling moves). */
static const Castle *castle_of(const Position *pos, const Move *m) {
    return m->castle ? &pos->v->castles[m->castle - 1] : NULL;
}

/* "O-O" when the castle's rook starts right of the king on the board, else "O-O-O". */
static const char *castle_text(const Variant *v, const Castle *c) {
    if (c->free) return v->cells[c->rook_to].x < v->cells[c->king_to].x ? "O-O" : "O-O-O";
    return v->cells[c->rook_from].x > v->cells[c->king_from].x ? "O-O" : "O-O-O";
}

/* The disambiguation SAN needs: "" or the origin's file, rank or whole name. */
static void disambiguation(const Position *pos, const MoveList *list, const Move *m, char *out, size_t cap) {
    const Variant *v = pos->v;
    int t = moving_type(pos, m);
    bool others = false, same_file = false, same_rank = false;
    char f0[24], r0[24], f1[24], r1[24];
    split_cell(v->cells[m->from].name, f0, r0, sizeof f0);
    for (int i = 0; i < list->count; i++) {
        const Move *o = &list->moves[i];
        if (o->to != m->to || o->from == m->from || is_drop(o) || castle_of(pos, o) || moving_type(pos, o) != t)
            continue;
        others = true;
        split_cell(v->cells[o->from].name, f1, r1, sizeof f1);
        if (!strcmp(f0, f1)) same_file = true;
        if (!strcmp(r0, r1)) same_rank = true;
    }
    if (!others)
        out[0] = 0;
    else if (v->cells[m->from].holding) /* (a holding cell's name is not a file and a rank) */
        snprintf(out, cap, "%s", v->cells[m->from].name);
    else if (!same_file)
        snprintf(out, cap, "%s", f0);
    else if (!same_rank)
        snprintf(out, cap, "%s", r0);
    else
        snprintf(out, cap, "%s", v->cells[m->from].name);
}

/* The cells other than the destination whose pieces m takes (a withdrawer's or a long leaper's
 * victims), en passant aside: SAN names them after the destination, each after a ':'. */
static int remote_victims(const Position *pos, const Move *m, Cell *out, int max) {
    int n = 0;
    if (m->flags & MOVE_EP) return 0;
    for (int i = 0; i < m->nfx && n < max; i++)
        if (m->fx[i].kind == FX_REMOVE && m->fx[i].a != m->to && m->fx[i].a != m->from && pos->cell[m->fx[i].a])
            out[n++] = m->fx[i].a;
    return n;
}

/* ":d3:f3" for the remote victims, "" when there are none. */
static void victims_text(const Position *pos, const Move *m, char *out, size_t cap) {
    Cell cells[MAX_EFFECTS];
    int n = remote_victims(pos, m, cells, MAX_EFFECTS);
    size_t at = 0;
    out[0] = 0;
    for (int i = 0; i < n && at < cap; i++)
        at += (size_t)snprintf(out + at, cap - at, ":%s", pos->v->cells[cells[i]].name);
}

/* SAN without the check mark. */
/* The end of a gating move's algebraic form: "/H", with the gate's cell when the move is a
 * castle ("O-O/Hh1"); "" for other moves. */
static void gate_suffix(const Variant *v, const Move *m, char *out, size_t cap) {
    Cell g = gate_cell(m);
    if (g == NO_CELL) {
        snprintf(out, cap, "%s", "");
        return;
    }
    snprintf(out, cap, "/%c%s", v->types[PIECE_TYPE(gate_piece(m))].letter, m->castle ? v->cells[g].name : "");
}

static void san_body(const Position *pos, const MoveList *list, const Move *m, char *buf, size_t cap);

/* ---- promotions written as shogi writes them ------------------------------------------------ */

/* Does the game have promoted types (`letter +P`)? Then its promotions are written '+' after
 * the move, as shogi writes them, and a '+' never marks a check. */
static bool plus_promotions(const Variant *v) {
    for (int t = 0; t < v->ntypes; t++)
        if (v->types[t].promoted) return true;
    return false;
}

/* How SAN writes m's change of type: '+' onto a promoted type, '-' back to a type a promoted
 * type demotes to (as coordinate notation writes them), "=Q" onto any other type, "=" when m
 * declines a '+' promotion another legal move makes (shogi's mark: "Bxh8=" and "Bxh8+" are
 * two moves), "" otherwise. */
static bool declines_promotion(const Position *pos, const MoveList *list, const Move *m) {
    const Variant *v = pos->v;
    if (m->promo != NO_TYPE || !list) return false;
    for (int i = 0; i < list->count; i++) {
        const Move *o = &list->moves[i];
        if (o->from == m->from && o->to == m->to && o->kind == m->kind && o->promo != NO_TYPE &&
            v->types[o->promo].promoted && !is_drop(o))
            return true;
    }
    return false;
}

static void promotion_text(const Position *pos, const MoveList *list, const Move *m, char *out, size_t cap) {
    const Variant *v = pos->v;
    char text[3];
    if (m->promo != NO_TYPE && v->types[m->promo].promoted)
        snprintf(out, cap, "+");
    else if (m->promo != NO_TYPE && variant_promoted_type(v, m->promo) >= 0)
        snprintf(out, cap, "-");
    else if (m->promo != NO_TYPE)
        snprintf(out, cap, "=%s", type_text(v, m->promo, text));
    else
        snprintf(out, cap, "%s", declines_promotion(pos, list, m) ? "=" : "");
}

static bool san_accepts(const Position *pos, const Move *m, const char *text);

/* Algebraic text whose last mark is a shogi promotion ("Bxh8+", "Lxe4-") or a declined one
 * ("Bxh8="): the moves it names. Read before a trailing '+' could be taken for a check mark.
 * Writes up to max indices into found; returns how many (0: none reads so). */
static int match_promotion_mark(Position *pos, const MoveList *list, const char *text, int *found, int max) {
    const Variant *v = pos->v;
    char t[96];
    snprintf(t, sizeof t, "%s", text);
    size_t n = strlen(t);
    while (n > 0 && strchr("#!?", t[n - 1])) t[--n] = 0;
    if (!plus_promotions(v) || n < 2 || !strchr("+-=", t[n - 1])) return 0;
    char mark = t[n - 1];
    t[--n] = 0;
    int count = 0;
    for (int i = 0; i < list->count; i++) {
        const Move *m = &list->moves[i];
        char want[128], text3[3];
        if (mark == '=') {
            if (!declines_promotion(pos, list, m) || !san_accepts(pos, m, t)) continue;
        } else {
            bool up = m->promo != NO_TYPE && v->types[m->promo].promoted;
            bool down = m->promo != NO_TYPE && !up && variant_promoted_type(v, m->promo) >= 0;
            if (!(mark == '+' ? up : down)) continue;
            snprintf(want, sizeof want, "%s=%s", t, type_text(v, m->promo, text3));
            if (!san_accepts(pos, m, want)) continue;
        }
        if (count < max) found[count] = i;
        count++;
    }
    return count;
}

/* ---- USI coordinates ------------------------------------------------------------------------- */

/* A cell in USI coordinates: the file numbered from the right (1 = the rightmost), the rank
 * lettered from the top (a = the top rank), as the first player sees the board. */
static const char *usi_cell(const Variant *v, const char *s) {
    const Board *bd = &v->boards[0];
    int file = s[0] - '0', rank = s[1] - 'a';
    if (file < 1 || file > bd->width || rank < 0 || rank >= bd->height) return NULL;
    Cell c = bd->at[bd->height - 1 - rank][bd->width - file];
    return c == NO_CELL ? NULL : v->cells[c].name;
}

bool notation_from_usi(const Variant *v, const char *text, char *out, size_t cap) {
    if (v->nboards != 1 || v->boards[0].width > 9 || v->boards[0].height > 26) return false;
    size_t n = strlen(text);
    const char *a, *b;
    if (n == 4 && isupper((unsigned char)text[0]) && text[1] == '*' && (a = usi_cell(v, text + 2)))
        return (size_t)snprintf(out, cap, "%c@%s", text[0], a) < cap; /* a drop: "P*5e" */
    if ((n == 4 || (n == 5 && text[4] == '+')) && (a = usi_cell(v, text)) && (b = usi_cell(v, text + 2)))
        return (size_t)snprintf(out, cap, "%s%s%s", a, b, n == 5 ? "+" : "") < cap;
    return false;
}

static void san_core(const Position *pos, const MoveList *list, const Move *m, char *buf, size_t cap) {
    san_body(pos, list, m, buf, cap);
    char suffix[32];
    gate_suffix(pos->v, m, suffix, sizeof suffix);
    size_t n = strlen(buf);
    snprintf(buf + n, cap > n ? cap - n : 0, "%s", suffix);
}

static void san_body(const Position *pos, const MoveList *list, const Move *m, char *buf, size_t cap) {
    const Variant *v = pos->v;
    size_t at = kind_prefix(v, m, buf, cap);
    buf += at;
    cap -= at;
    if (is_remote(m)) {
        snprintf(buf, cap, "x%s", v->cells[m->to].name);
        return;
    }
    int t = moving_type(pos, m);
    const Castle *castle = castle_of(pos, m);
    if (castle) {
        snprintf(buf, cap, "%s", castle_text(v, castle));
        return;
    }
    if (is_drop(m)) {
        char text[3];
        snprintf(buf, cap, "%s@%s", t >= 0 ? type_text(v, t, text) : "?", v->cells[m->to].name);
        if (cap) taken_suffix(v, m, buf, cap);
        return;
    }
    char dis[32] = "", promo[8] = "", from_file[24], from_rank[24], victims[96];
    victims_text(pos, m, victims, sizeof victims);
    /* with its victims named, the 'x' is for a piece taken on the destination */
    bool cap_ = victims[0] ? pos->cell[m->to] != 0 : is_capture(pos, m);
    disambiguation(pos, list, m, dis, sizeof dis);
    if (pawn_like(v, t)) {
        /* a pawn's capture names its file; where pawns move sideways (several reach one cell)
         * the origin tells them apart, as for pieces */
        split_cell(v->cells[m->from].name, from_file, from_rank, sizeof from_file);
        if (dis[0] && strcmp(dis, from_file))
            snprintf(dis, sizeof dis, "%s", v->cells[m->from].name);
        else if (cap_)
            snprintf(dis, sizeof dis, "%s", from_file);
    }
    char text[3];
    promotion_text(pos, list, m, promo, sizeof promo);
    const char *letter = pawn_like(v, t) || t < 0 ? "" : type_text(v, t, text);
    snprintf(buf, cap, "%s%s%s%s%s%s", letter, dis, cap_ ? "x" : "", v->cells[m->to].name, promo, victims);
}

void notation_san(GenContext *ctx, Position *pos, const MoveList *list, const Move *m, char *buf, size_t cap) {
    /* moves on several boards have no algebraic form: they are written as coordinates */
    if ((m->flags & (MOVE_PASS | MOVE_ELIMINATION | MOVE_CARDS | MOVE_TILE)) || pos->v->nboards > 1 || pos->v->pdn ||
        has_via(m)) {
        notation_move(pos->v, m, buf, cap);
        return;
    }
    san_core(pos, list, m, buf, cap);
    if (!pos->v->has_royal || !board_make(pos, m)) return;
    const char *mark = "";
    if (!movegen_safe_after(ctx, pos, board_mover(pos))) {
        VmFault f = {0};
        /* (where '+' is a promotion, a check goes unmarked; a mate keeps its '#') */
        mark = movegen_count_legal(ctx, pos, &f) == 0 ? "#" : plus_promotions(pos->v) ? "" : "+";
    }
    board_unmake(pos);
    size_t n = strlen(buf);
    snprintf(buf + n, cap > n ? cap - n : 0, "%s", mark);
}

/* Every spelling of m that the parser accepts, tested against text. */
static bool san_accepts(const Position *pos, const Move *m, const char *text) {
    const Variant *v = pos->v;
    if (m->flags & (MOVE_PASS | MOVE_ELIMINATION | MOVE_CARDS | MOVE_TILE))
        return false; /* (coordinate notation only) */
    char gate[32], body[96];
    gate_suffix(v, m, gate, sizeof gate);
    if (gate[0]) {
        /* a gating move: its suffix, and before it any spelling of the move itself */
        size_t n = strlen(text), g = strlen(gate);
        if (n <= g || strcmp(text + n - g, gate)) return false;
        snprintf(body, sizeof body, "%.*s", (int)(n - g), text);
        text = body;
    }
    char prefix[24];
    size_t plen = kind_prefix(v, m, prefix, sizeof prefix);
    if (strncmp(text, prefix, plen)) return false;
    text += plen;
    if (is_remote(m)) {
        char rb[32];
        snprintf(rb, sizeof rb, "x%s", v->cells[m->to].name);
        return !strcmp(text, rb);
    }
    const char *to = v->cells[m->to].name;
    int t = moving_type(pos, m);
    if (t < 0) return false;
    char buf[96];
    const Castle *castle = castle_of(pos, m);
    if (castle && !strcmp(text, castle_text(v, castle))) return true;
    if (is_drop(m)) {
        char dtext[3];
        snprintf(buf, sizeof buf, "%s@%s", type_text(v, t, dtext), to);
        /* "@e4": a drop onto e4 of any type (ambiguous when several types may go there) */
        return !strcmp(text, buf) || (text[0] == '@' && !strcmp(text + 1, to));
    }
    /* the remote victims, when named, come last: ":d3" */
    char victims[96];
    victims_text(pos, m, victims, sizeof victims);
    size_t tl = strlen(text), vl = strlen(victims);
    char rest[96];
    if (vl && tl > vl && !strcmp(text + tl - vl, victims)) {
        snprintf(rest, sizeof rest, "%.*s", (int)(tl - vl), text);
        text = rest;
    }
    char file[24], rank[24];
    split_cell(v->cells[m->from].name, file, rank, sizeof file);
    bool pawn = pawn_like(v, t), capture = is_capture(pos, m);
    Cell victim_cells[MAX_EFFECTS];
    bool remote = remote_victims(pos, m, victim_cells, MAX_EFFECTS) > 0;
    const char *letters[2] = {pawn ? "" : NULL, NULL};
    char lbuf[3], ltext[3];
    snprintf(lbuf, sizeof lbuf, "%s", type_text(v, t, ltext));
    if (pawn)
        letters[1] = lbuf;
    else
        letters[0] = lbuf;
    const char *dis[4] = {"", file, rank, v->cells[m->from].name};
    const char *caps[2] = {"", "x"};
    /* a promotion may leave out the new piece: then it matches every choice (ambiguous) */
    char promos[5][8] = {"", "", "", "", ""};
    int npromo = 1;
    if (m->promo != NO_TYPE) {
        char ptext[3];
        const char *P = type_text(v, m->promo, ptext);
        snprintf(promos[1], 8, "=%s", P);
        snprintf(promos[2], 8, "%s", P);
        snprintf(promos[3], 8, "(%s)", P);
        snprintf(promos[4], 8, "/%s", P);
        npromo = 5;
    }
    for (int l = 0; l < 2; l++) {
        if (!letters[l]) continue;
        for (int d = 0; d < 4; d++) {
            /* a pawn's capture names at least the file (its push may name the origin, where
             * pawns move sideways) */
            if (pawn && capture && d == 0 && !remote) continue;
            for (int c = 0; c < 2; c++) {
                if (c == 1 && !capture) continue;
                for (int p = 0; p < npromo; p++) {
                    snprintf(buf, sizeof buf, "%s%s%s%s%s", letters[l], dis[d], caps[c], to, promos[p]);
                    if (!strcmp(buf, text)) return true;
                }
            }
        }
    }
    return false;
}

static int match_all(Position *pos, const MoveList *list, const char *text, int *found, int max) {
    int n = 0;
    for (int i = 0; i < list->count; i++)
        if (san_accepts(pos, &list->moves[i], text)) {
            if (n < max) found[n] = i;
            n++;
        }
    return n;
}

/* Coordinate text reduced to what tells moves apart: no '-' or '=', lower case ("M c6c7q" for
 * "M c6-c7=Q"). */
static void loosen(char *t) {
    char *o = t;
    for (const char *p = t; *p; p++)
        if (*p != '-' && *p != '=') *o++ = (char)tolower((unsigned char)*p);
    *o = 0;
}

/* The moves whose coordinate text is t (spaces squeezed out), exactly or, with `loose`, both
 * loosened. */
static int match_coordinates(const Variant *v, const MoveList *list, const char *t, bool loose, int *found, int max) {
    char want[96], buf[64], mine[64];
    snprintf(want, sizeof want, "%s", t);
    if (loose) loosen(want);
    int count = 0;
    for (int i = 0; i < list->count; i++) {
        notation_move(v, &list->moves[i], buf, sizeof buf);
        squeeze(buf, mine, sizeof mine);
        if (loose) loosen(mine);
        if (strcmp(mine, want) != 0) continue;
        if (count < max) found[count] = i;
        count++;
    }
    return count;
}

/* On several boards, a move typed without its board ("b4-b6", the drop "T@b1"), or a drop
 * typed with its board first ("main T@b1"): the moves that read so with the board's name in
 * its place, loosened as coordinates on several boards are. When several boards have such a
 * move, all of them are returned (the caller lists them as ambiguous). */
static int match_any_board(const Variant *v, const MoveList *list, const char *t, int *found, int max) {
    int count = 0;
    const char *at = strchr(t, '@');
    for (int b = 0; b < v->nboards; b++) {
        const char *name = v->boards[b].name;
        size_t len = strlen(name);
        char with[160];
        if (at && at == t + len + 1 && !strncasecmp(t, name, len))
            snprintf(with, sizeof with, "%c@%s:%s", t[len], name, at + 1);
        else if (at)
            snprintf(with, sizeof with, "%.*s%s:%s", (int)(at - t + 1), t, name, at + 1);
        else
            snprintf(with, sizeof with, "%s%s", name, t);
        int got[16];
        int n = match_coordinates(v, list, with, true, got, 16);
        for (int i = 0; i < n && i < 16; i++, count++)
            if (count < max) found[count] = got[i];
    }
    return count;
}

/* Long algebraic notation, the last reading tried on one board: an optional piece letter, the
 * origin, '-', 'x' or ':' and the destination, in any case ("e2-e4", "Ng1-f3", "e2xe4", "E2E4",
 * "e7-e8=Q"). Reduced to the loosened coordinate text; with a piece letter, that letter must be
 * the moving piece's. */
static int match_long_algebraic(const Position *pos, const MoveList *list, const char *t, int *found, int max) {
    char want[96], buf[64], mine[64];
    size_t n = 0;
    for (const char *p = t; *p && n + 1 < sizeof want; p++) {
        bool takes = (*p == 'x' || *p == 'X' || *p == ':') && p > t && isdigit((unsigned char)p[-1]) &&
            isalpha((unsigned char)p[1]);
        if (!takes) want[n++] = *p;
    }
    want[n] = 0;
    loosen(want);
    int count = 0;
    for (int i = 0; i < list->count; i++) {
        const Move *m = &list->moves[i];
        notation_move(pos->v, m, buf, sizeof buf);
        squeeze(buf, mine, sizeof mine);
        loosen(mine);
        int type = moving_type(pos, m);
        bool lettered =
            type >= 0 && tolower((unsigned char)pos->v->types[type].letter) == want[0] && !strcmp(want + 1, mine);
        if (strcmp(want, mine) != 0 && !lettered) continue;
        if (count < max) found[count] = i;
        count++;
    }
    return count;
}

/* The cells a typed move names, in order: draughts numbers, or cell names (the longest that
 * fits at each place), separated or not by '-', 'x' or ':'. False when the text is something
 * else. */
static bool typed_cells(const Variant *v, const char *t, Cell *cells, int *n, int cap) {
    *n = 0;
    for (const char *p = t; *p;) {
        int best = -1;
        size_t len = 0;
        if (v->pdn && isdigit((unsigned char)*p)) {
            char *end;
            long num = strtol(p, &end, 10);
            for (int c = 0; c < v->ncells; c++)
                if (v->square_number[c] == num) best = c;
            len = (size_t)(end - p);
        } else if (!v->pdn) {
            for (int c = 0; c < v->ncells; c++) {
                size_t l = strlen(v->cells[c].name);
                if (l > len && !strncasecmp(p, v->cells[c].name, l)) best = c, len = l;
            }
        }
        if (best >= 0) {
            if (*n >= cap) return false;
            cells[(*n)++] = (Cell)best;
            p += len;
        } else if (strchr("-xX:", *p)) {
            p++;
        } else {
            return false;
        }
    }
    return *n >= 2;
}

/* The pieces a way through the typed cells would take: for each two cells in a row, the pieces
 * standing on the line between them (false when some two are on no line of the board's
 * directions). */
static bool way_takes(const Position *pos, const Cell *cells, int n, uint64_t *taken) {
    const Variant *v = pos->v;
    memset(taken, 0, sizeof(uint64_t) * CELL_WORDS);
    for (int i = 0; i + 1 < n; i++) {
        bool joined = false;
        for (int d = 0; d < v->ndirs && !joined; d++) {
            if (v->dirs[d].link_board >= 0) continue;
            uint64_t between[CELL_WORDS] = {0};
            for (Cell c = variant_step(v, cells[i], d); c != NO_CELL; c = variant_step(v, c, d)) {
                if (c == cells[i + 1]) {
                    joined = true;
                    break;
                }
                if (pos->cell[c]) between[c >> 6] |= 1ULL << (c & 63);
            }
            if (joined)
                for (int w = 0; w < CELL_WORDS; w++) taken[w] |= between[w];
        }
        if (!joined) return false;
    }
    return true;
}

/* The moves whose way through the board fits the typed cells: all of it; else its origin and
 * destination with some of the cells it paused on between; else (merge-duplicates: a move stands
 * for every way that takes the same pieces) a way from its origin to its destination that takes
 * its pieces; failing those, the moves whose way begins with the typed cells (a long move entered
 * hop by hop; with merge-duplicates, a way that takes some of its pieces). */
static int match_path(const Position *pos, const MoveList *list, const char *t, int *found, int max) {
    const Variant *v = pos->v;
    Cell typed[MAX_EFFECTS + 2];
    int ntyped;
    if (!typed_cells(v, t, typed, &ntyped, (int)ARRAY_LEN(typed))) return 0;
    uint64_t typed_takes[CELL_WORDS];
    bool typed_way = v->merge_same_captures && way_takes(pos, typed, ntyped, typed_takes);
    for (int pass = 0; pass < 4; pass++) {
        int count = 0;
        for (int i = 0; i < list->count; i++) {
            const Move *m = &list->moves[i];
            if (m->flags & (MOVE_DROP | MOVE_PASS | MOVE_CARDS | MOVE_TILE)) continue;
            Cell way[MAX_EFFECTS + 2];
            int nway = 0;
            uint64_t takes[CELL_WORDS] = {0};
            way[nway++] = m->from;
            for (int k = 0; k < m->nfx; k++) {
                if (m->fx[k].kind == FX_VIA) way[nway++] = m->fx[k].a;
                if (m->fx[k].kind == FX_REMOVE) takes[m->fx[k].a >> 6] |= 1ULL << (m->fx[k].a & 63);
            }
            way[nway++] = m->to;
            bool fits = typed[0] == way[0];
            if (pass == 0) {
                fits = fits && ntyped == nway;
                for (int k = 1; fits && k < ntyped; k++) fits = typed[k] == way[k];
            } else if (pass == 1) {
                /* origin and destination, and the cells between in order among the pauses */
                fits = fits && typed[ntyped - 1] == way[nway - 1];
                for (int k = 1, w = 1; fits && k < ntyped - 1; k++) {
                    while (w < nway - 1 && way[w] != typed[k]) w++;
                    fits = w < nway - 1;
                    w++;
                }
            } else if (pass == 2) {
                fits = fits && typed_way && typed[ntyped - 1] == way[nway - 1] &&
                    !memcmp(typed_takes, takes, sizeof takes);
            } else {
                bool begins = ntyped < nway;
                for (int k = 0; begins && k < ntyped; k++) begins = typed[k] == way[k];
                bool part = typed_way;
                for (int w = 0; part && w < CELL_WORDS; w++) part = (typed_takes[w] & ~takes[w]) == 0;
                fits = fits && (begins || (part && ntyped < nway));
            }
            if (!fits) continue;
            if (count < max) found[count] = i;
            count++;
        }
        if (count) return count;
    }
    return 0;
}

/* The last readings: a move kind's name alone ("swap") for the moves of that kind, and a drop
 * written without its piece ("e6", "@e6", "g1xd2" for M@g1xd2), as placement games write it. */
static int match_short(const Variant *v, const MoveList *list, const char *t, int *found, int max) {
    int count = 0;
    for (int i = 0; i < list->count; i++) {
        const Move *m = &list->moves[i];
        char buf[64];
        notation_move(v, m, buf, sizeof buf);
        const char *at = strchr(buf, '@');
        bool kind_alone = m->kind && m->kind < v->nkinds && !strcasecmp(t, v->kind_names[m->kind]);
        bool drop =
            (m->flags & MOVE_DROP) && at && (!strcasecmp(t, at + 1) || (t[0] == '@' && !strcasecmp(t + 1, at + 1)));
        if (!kind_alone && !drop) continue;
        if (count < max) found[count] = i;
        count++;
    }
    return count;
}

static int parse_as_written(Position *pos, const MoveList *list, const char *text, int *found, int max);

int notation_parse(Position *pos, const MoveList *list, const char *text, int *found, int max) {
    int count = parse_as_written(pos, list, text, found, max);
    const Variant *v = pos->v;
    if (count || !v->check_kind || strchr(text, ':')) return count;
    /* the kind of a move that gives check (`kind NAME if gives-check`) is no choice of the
     * player's: it may be typed without it ("e1g1" for check:e1g1) */
    char prefixed[160];
    snprintf(prefixed, sizeof prefixed, "%s:%s", v->kind_names[v->check_kind], text);
    return parse_as_written(pos, list, prefixed, found, max);
}

static int parse_as_written(Position *pos, const MoveList *list, const char *text, int *found, int max) {
    const Variant *v = pos->v;
    char t[96];
    squeeze(text, t, sizeof t);
    size_t n = strlen(t);
    /* coordinate notation first: everything `varia moves` prints is accepted as typed (spaces
     * aside), then, on several boards (where there is no algebraic notation), without its
     * dashes and '=', in any case; on one board "B7f3" is a bishop's move, not b7f3 */
    bool loose = v->nboards > 1;
    int count = match_coordinates(v, list, t, false, found, max);
    if (!count && loose) count = match_coordinates(v, list, t, true, found, max);
    if (count) return count;
    char usi[64];
    if (notation_from_usi(v, t, usi, sizeof usi) && (count = match_coordinates(v, list, usi, false, found, max)))
        return count;
    if ((count = match_promotion_mark(pos, list, t, found, max))) return count;
    /* a move along its cells ("22x6", "b6xd4xf6"), whole or begun */
    if (v->pdn || v->has_chains) count = match_path(pos, list, t, found, max);
    if (count) return count;
    /* annotations and check marks say nothing about which move it is; but where a move may
     * carry a copy, a trailing "+" asks for the copy, and is never dropped */
    while (n > 0 && strchr(v->steer_copy ? "#!?" : "+#!?", t[n - 1])) t[--n] = 0;
    /* a check mark after the copy's '+' ("M c6-c5 ++") */
    if (v->steer_copy && n > 1 && t[n - 1] == '+' && t[n - 2] == '+') t[--n] = 0;
    if (n >= 4 && !strcmp(t + n - 4, "e.p.")) t[n -= 4] = 0;
    if (n == 0) return 0;
    count = match_coordinates(v, list, t, false, found, max);
    if (!count && loose) count = match_coordinates(v, list, t, true, found, max);
    if (!count && loose) count = match_any_board(v, list, t, found, max);
    if (count) return count;
    for (char *p = t; *p; p++)
        if (*p == '0') {
            /* 0-0 and 0-0-0 are common spellings of castling */
            if ((p == t || p[-1] == '-') && (p[1] == '-' || p[1] == 0)) *p = 'O';
        }
    count = match_all(pos, list, t, found, max);
    if (count == 0 && islower((unsigned char)t[0])) {
        /* a lower-case piece letter ("nf3") when no pawn move reads that way */
        t[0] = (char)toupper((unsigned char)t[0]);
        count = match_all(pos, list, t, found, max);
    }
    if (count == 0 && !loose) count = match_long_algebraic(pos, list, t, found, max);
    if (count == 0) count = match_short(v, list, t, found, max);
    return count;
}
