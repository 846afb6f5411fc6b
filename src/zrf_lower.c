/* zrf_lower.c - a Zillions game, read by zrf_read.c, lowered into the rule language's syntax
 * tree: players and turns, grid boards and zones, directions and their per-player meaning,
 * pieces with their move programs (the common shapes as atoms, so they run as fast as the
 * same atoms written by hand), drops, the start position and the goals. What has no
 * counterpart yet is named in a warning (the move or goal is left out) or an error. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "variant.h"
#include "zrf.h"
#include "zrf_internal.h"

#define ZRF_MAX_POSITIONS 1024
#define ZRF_MAX_DIRS 64
#define ZRF_MAX_NAMES 256

typedef struct Names {
    const char *zrf[ZRF_MAX_NAMES];
    char varia[ZRF_MAX_NAMES][MAX_NAME + 1];
    int n;
} Names;

typedef struct Pos {
    const char *name;
    int board, x, y;
    bool killed;
} Pos;

typedef struct Dir {
    const char *name; /* as the file writes it */
    int dx, dy;       /* the vector on the Varia board */
    int same;         /* the first direction of the same vector (itself when none before) */
    char vname[MAX_NAME + 1];
} Dir;

typedef struct Piece {
    const char *name;
    const ZrfNode *form;
    char vname[MAX_NAME + 1];
    char letter;
    bool royal;
    const char *promo_zone; /* a promotion its moves make (split_promotion) */
    const ZrfNode *promo_types;
} Piece;

/* A piece attribute. One that starts true, and that every move of each piece having it sets
 * false, says only that the piece has not moved yet: the language's `unmoved`. */
typedef struct Attr {
    const char *name;
    bool starts_true;
    bool unmoved; /* lowered as `unmoved` */
} Attr;

#define ZRF_MAX_ATTRS 16

/* A zone's positions for each player (also the hidden zones the lowering makes). */
typedef struct ZoneInfo {
    const char *vname;
    bool *in[MAX_PLAYERS]; /* by position index; NULL: none for that player */
} ZoneInfo;

typedef struct Lower {
    ZrfReader *r;
    DiagSink *sink;
    const ZrfNode *forms; /* the chosen game's forms */
    SrcLoc at;            /* the game form, for what has no place of its own */
    Ast *root;
    /* players */
    int nplayers;
    const char *player_zrf[MAX_PLAYERS];
    char player_name[MAX_PLAYERS][MAX_NAME + 1];
    int first_mover;
    /* boards */
    Pos *pos;
    int npos;
    int nboards;
    int bw[MAX_BOARDS], bh[MAX_BOARDS];
    bool holes_ok; /* no hole anywhere: a leap through two steps needs no middle cell */
    Dir dirs[ZRF_MAX_DIRS];
    int ndirs;
    /* names */
    Names player_names, piece_names, zone_names;
    Piece pieces[MAX_PIECE_TYPES];
    int npieces;
    bool letters[26];
    ZoneInfo zones[MAX_ZONES + 8];
    int nzones;
    Orientation orient[MAX_PLAYERS];
    int cell_at[MAX_BOARDS][MAX_BOARD_DIM][MAX_BOARD_DIM]; /* position index of each cell; -1: none */
    Attr attrs[ZRF_MAX_ATTRS];
    int nattrs;
    int hidden; /* hidden zones and directions made so far */
    bool has_drops, has_off;
    bool pass_forced; /* (option "pass turn" forced): a player who cannot move passes */
    bool failed;      /* an error that stops the lowering */
} Lower;

/* ---- small helpers --------------------------------------------------------------------------- */

static SrcLoc loc_of(const ZrfNode *n) { return n->loc; }

static Ast *node(AstKind kind, const ZrfNode *at) { return ast_new(kind, loc_of(at)); }

static Ast *node_text(AstKind kind, const ZrfNode *at, const char *text) {
    return ast_new_text(kind, loc_of(at), text);
}

static void set_text2(Ast *a, const char *text2) {
    free(a->text2);
    a->text2 = text2 ? xstrdup(text2) : NULL;
}

static const char *atom_text(const ZrfNode *n) { return n && n->kind != ZRF_LIST ? n->text : NULL; }

/* A name of the rule language: letters, digits, '_' and inner '-', at most MAX_NAME
 * characters, unique among the names of its table. */
static const char *names_find(const Names *t, const char *zrf) {
    for (int i = 0; i < t->n; i++)
        if (!strcasecmp(t->zrf[i], zrf)) return t->varia[i];
    return NULL;
}

static bool names_taken(const Names *t, const char *v) {
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->varia[i], v)) return true;
    return false;
}

static const char *names_add(Lower *L, Names *t, const char *zrf, const ZrfNode *at) {
    const char *had = names_find(t, zrf);
    if (had) return had;
    if (t->n >= ZRF_MAX_NAMES) {
        zrf_error(L->r, at, "too many names (limit is %d)", ZRF_MAX_NAMES);
        L->failed = true;
        return "x";
    }
    char base[MAX_NAME + 1];
    int k = 0;
    for (const char *p = zrf; *p && k < MAX_NAME; p++) {
        char c = *p;
        if (isalnum((unsigned char)c) || c == '_')
            base[k++] = c;
        else if (k > 0 && base[k - 1] != '-' && base[k - 1] != '_')
            base[k++] = c == '-' ? '-' : '_';
    }
    while (k > 0 && (base[k - 1] == '-' || base[k - 1] == '_')) k--;
    if (k == 0) base[k++] = 'x';
    base[k] = 0;
    char *out = t->varia[t->n];
    snprintf(out, MAX_NAME + 1, "%s", base);
    for (int i = 2; names_taken(t, out); i++) {
        char suffix[12];
        int sl = snprintf(suffix, sizeof suffix, "%d", i);
        int keep = k + sl > MAX_NAME ? MAX_NAME - sl : k;
        snprintf(out, MAX_NAME + 1, "%.*s%s", keep, base, suffix);
    }
    t->zrf[t->n] = zrf;
    return t->varia[t->n++];
}

/* Forms of the game with this head, in order. */
static int find_forms(const Lower *L, const char *head, const ZrfNode **out, int cap) {
    int n = 0;
    for (int i = 0; i < L->forms->nkids; i++)
        if (zrf_is_form(L->forms->kids[i], head)) {
            if (n < cap) out[n] = L->forms->kids[i];
            n++;
        }
    return n;
}

static const ZrfNode *find_form(const Lower *L, const char *head) {
    const ZrfNode *f = NULL;
    find_forms(L, head, &f, 1);
    return f;
}

static const ZrfNode *sub_form(const ZrfNode *f, const char *head) {
    for (int i = 1; f && i < f->nkids; i++)
        if (zrf_is_form(f->kids[i], head)) return f->kids[i];
    return NULL;
}

static bool parse_long(const ZrfNode *n, long *out) {
    const char *t = atom_text(n);
    if (!t || !*t) return false;
    char *end;
    long v = strtol(t, &end, 10);
    if (*end) return false;
    *out = v;
    return true;
}

/* ---- players and turns ----------------------------------------------------------------------- */

static int player_index(const Lower *L, const char *zrf) {
    for (int i = 0; i < L->nplayers; i++)
        if (!strcasecmp(L->player_zrf[i], zrf)) return i;
    return -1;
}

static void lower_players(Lower *L) {
    const ZrfNode *f = find_form(L, "players");
    if (!f) {
        diag_error(L->sink, L->at, "the game has no (players ...)");
        L->failed = true;
        return;
    }
    if (f->nkids - 1 > MAX_PLAYERS) {
        zrf_error(L->r, f, "%d players: this version plays at most %d", f->nkids - 1, MAX_PLAYERS);
        L->failed = true;
        return;
    }
    if (f->nkids < 2) {
        zrf_error(L->r, f, "(players ...) names no player");
        L->failed = true;
        return;
    }
    Ast *players = node(AST_PLAYERS, f);
    bool used[128] = {false};
    for (int i = 1; i < f->nkids; i++) {
        const char *name = atom_text(f->kids[i]);
        if (!name || f->kids[i]->kind != ZRF_ATOM) {
            zrf_error(L->r, f->kids[i], "a player is a name");
            L->failed = true;
            continue;
        }
        if (player_index(L, name) >= 0) {
            zrf_error(L->r, f->kids[i], "player '%s' named twice", name);
            continue;
        }
        int p = L->nplayers++;
        L->player_zrf[p] = name;
        snprintf(L->player_name[p], sizeof L->player_name[p], "%s", names_add(L, &L->player_names, name, f->kids[i]));
        /* the side-to-move token: a letter of the name not taken, else a digit */
        char token[2] = {0, 0};
        for (const char *c = name; *c && !token[0]; c++) {
            char l = (char)tolower((unsigned char)*c);
            if (isalpha((unsigned char)l) && !used[(int)l]) token[0] = l;
        }
        for (char d = '1'; !token[0] && d <= '9'; d++)
            if (!used[(int)d]) token[0] = d;
        used[(int)token[0]] = true;
        Ast *pl = node_text(AST_PLAYER, f->kids[i], L->player_name[p]);
        set_text2(pl, token);
        ast_add(players, pl);
    }
    ast_add(L->root, players);
}

static void lower_turn_order(Lower *L) {
    const ZrfNode *f = find_form(L, "turn-order");
    if (!f) return;
    Ast *order = node(AST_TURN_ORDER, f);
    int first_repeat = 1;
    for (int i = 1; i < f->nkids; i++)
        if (zrf_is(f->kids[i], "repeat")) first_repeat = i + 1;
    if (first_repeat > 1)
        zrf_warn(L->r, f,
                 "the turns before 'repeat' are played once in Zillions; here the game starts with the "
                 "repeated part");
    bool any = false;
    for (int i = first_repeat; i < f->nkids; i++) {
        const ZrfNode *t = f->kids[i];
        const char *name = NULL;
        if (t->kind == ZRF_ATOM)
            name = t->text;
        else if (t->kind == ZRF_LIST && t->nkids >= 1 && t->kids[0]->kind == ZRF_ATOM) {
            name = t->kids[0]->text;
            zrf_warn(L->r, t, "a turn limited to some move types is played here with every move type");
        }
        if (name && !strcasecmp(name, "pass")) {
            zrf_warn(L->r, t, "a passing turn in the turn order is left out");
            continue;
        }
        int p = name ? player_index(L, name) : -1;
        if (p < 0) {
            zrf_error(L->r, t, "unknown player '%s' in the turn order", name ? name : zrf_print(L->r, t));
            continue;
        }
        if (!any) L->first_mover = p;
        any = true;
        ast_add(order, node_text(AST_NAME, t, L->player_name[p]));
    }
    if (order->nkids > 64) {
        zrf_error(L->r, f, "turn order too long (limit is 64)");
        L->failed = true;
    }
    ast_add(L->root, order);
}

/* ---- boards ---------------------------------------------------------------------------------- */

/* A position by name: as written, else ignoring case (two positions may differ by case only). */
static int pos_index(const Lower *L, const char *name) {
    for (int i = 0; i < L->npos; i++)
        if (!strcmp(L->pos[i].name, name)) return i;
    for (int i = 0; i < L->npos; i++)
        if (!strcasecmp(L->pos[i].name, name)) return i;
    return -1;
}

/* The Varia name of a position (its board qualifier when there are several). */
static Ast *cell_name(const Lower *L, const Pos *p, const ZrfNode *at) {
    char cell[16];
    if (p->x < 26)
        snprintf(cell, sizeof cell, "%c%d", 'a' + p->x, p->y + 1);
    else
        snprintf(cell, sizeof cell, "%c%c%d", 'a' + p->x / 26 - 1, 'a' + p->x % 26, p->y + 1);
    Ast *n = node_text(AST_NAME, at, cell);
    if (L->nboards > 1) {
        char b[16];
        snprintf(b, sizeof b, "b%d", p->board + 1);
        set_text2(n, b);
    }
    return n;
}

static Dir *dir_find(Lower *L, const char *name) {
    for (int i = 0; i < L->ndirs; i++)
        if (!strcasecmp(L->dirs[i].name, name)) return &L->dirs[i];
    return NULL;
}

static Dir *dir_by_vector(Lower *L, int dx, int dy) {
    for (int i = 0; i < L->ndirs; i++)
        if (L->dirs[i].dx == dx && L->dirs[i].dy == dy) return &L->dirs[L->dirs[i].same];
    return NULL;
}

static Dir *dir_add(Lower *L, const char *name, int dx, int dy, const ZrfNode *at) {
    if (L->ndirs >= ZRF_MAX_DIRS) {
        zrf_error(L->r, at, "too many directions (limit is %d)", ZRF_MAX_DIRS);
        L->failed = true;
        return NULL;
    }
    Dir *same = dir_by_vector(L, dx, dy);
    Dir *d = &L->dirs[L->ndirs];
    d->name = name;
    d->dx = dx;
    d->dy = dy;
    d->same = same ? (int)(same - L->dirs) : L->ndirs;
    L->ndirs++;
    if (!same) {
        /* the directions' names are kept, made unique among themselves */
        Names tmp = {.n = 0};
        for (int i = 0; i < L->ndirs - 1; i++)
            if (L->dirs[i].same == i) {
                tmp.zrf[tmp.n] = L->dirs[i].name;
                snprintf(tmp.varia[tmp.n++], MAX_NAME + 1, "%s", L->dirs[i].vname);
            }
        const char *vname = names_add(L, &tmp, name, at);
        memmove(d->vname, vname, strlen(vname) + 1);
        Ast *a = node_text(AST_DIRECTION, at, d->vname);
        a->num[0] = dx;
        a->num[1] = dy;
        ast_add(L->root, a);
    } else
        memcpy(d->vname, same->vname, sizeof d->vname);
    return d;
}

/* A link to the same column and row of another board. */
static Dir *dir_add_link(Lower *L, const char *name, int from, int to, const ZrfNode *at) {
    if (L->ndirs >= ZRF_MAX_DIRS) return NULL;
    Dir *d = &L->dirs[L->ndirs];
    d->name = name;
    d->dx = 1000 + from; /* (no vector: never equal to one) */
    d->dy = 1000 + to;
    d->same = L->ndirs++;
    Names tmp = {.n = 0};
    for (int i = 0; i < L->ndirs - 1; i++)
        if (L->dirs[i].same == i) {
            tmp.zrf[tmp.n] = L->dirs[i].name;
            snprintf(tmp.varia[tmp.n++], MAX_NAME + 1, "%s", L->dirs[i].vname);
        }
    const char *vname = names_add(L, &tmp, name, at);
    memmove(d->vname, vname, strlen(vname) + 1);
    Ast *a = node_text(AST_LINK, at, d->vname);
    char b[16];
    snprintf(b, sizeof b, "b%d", from + 1);
    ast_add(a, node_text(AST_NAME, at, b));
    snprintf(b, sizeof b, "b%d", to + 1);
    ast_add(a, node_text(AST_NAME, at, b));
    ast_add(L->root, a);
    return d;
}

/* A hidden direction for a vector the file names no direction for (an opposite). */
static Dir *dir_for_vector(Lower *L, int dx, int dy, const ZrfNode *at) {
    Dir *d = dir_by_vector(L, dx, dy);
    if (d) return d;
    char *name = zrf_strdup(L->r, "opposite");
    return dir_add(L, name, dx, dy, at);
}

typedef struct Grid {
    const ZrfNode *form;
    int ndims;
    int size[3];
    const char **labels[3];
    long off[3][2]; /* screen offset per step of each dimension */
} Grid;

/* Splits "a/b/c" into its labels (in the arena). */
static int split_labels(Lower *L, const char *text, const char ***out) {
    int n = 1;
    for (const char *p = text; *p; p++) n += *p == '/';
    const char **labels = xcalloc((size_t)n, sizeof *labels);
    int k = 0;
    const char *start = text;
    for (const char *p = text;; p++) {
        if (*p == '/' || !*p) {
            char *s = xstrndup(start, (size_t)(p - start));
            labels[k++] = zrf_strdup(L->r, s);
            free(s);
            start = p + 1;
            if (!*p) break;
        }
    }
    *out = labels;
    return n;
}

/* Reads one (grid ...) into positions of board b and its directions; false on error. Two
 * dimensions are the board's columns and rows (the one more across the screen the columns,
 * the top row the last rank); a third lays its levels side by side, with columns of holes
 * between them as wide as the longest sideways step, so no step leaves a level but by its
 * own third coordinate. */
static bool lower_grid(Lower *L, const ZrfNode *g, int b) {
    Grid G = {.form = g};
    const ZrfNode *dims = sub_form(g, "dimensions");
    const ZrfNode *dirs = sub_form(g, "directions");
    if (!dims || dims->nkids < 2) {
        zrf_error(L->r, g, "a grid needs (dimensions ...)");
        return false;
    }
    G.ndims = dims->nkids - 1;
    if (G.ndims > 3) {
        zrf_error(L->r, dims, "a grid of %d dimensions (at most 3)", G.ndims);
        return false;
    }
    bool ok = true;
    for (int k = 0; k < 3; k++) {
        if (k >= G.ndims) {
            G.size[k] = 1;
            G.labels[k] = xcalloc(1, sizeof *G.labels[k]);
            G.labels[k][0] = "";
            continue;
        }
        const ZrfNode *d = dims->kids[k + 1];
        if (d->kind != ZRF_LIST || d->nkids < 1 || d->kids[0]->kind == ZRF_LIST) {
            zrf_error(L->r, d, "a dimension is (\"a/b/c\" (dx dy))");
            G.size[k] = 1;
            G.labels[k] = xcalloc(1, sizeof *G.labels[k]);
            G.labels[k][0] = "";
            ok = false;
            continue;
        }
        G.size[k] = split_labels(L, d->kids[0]->text, &G.labels[k]);
        if (d->nkids >= 2 && d->kids[1]->kind == ZRF_LIST && d->kids[1]->nkids >= 2) {
            parse_long(d->kids[1]->kids[0], &G.off[k][0]);
            parse_long(d->kids[1]->kids[1], &G.off[k][1]);
        }
    }
    /* which dimension runs across the screen, and which way is up */
    int h = 0;
    if (G.ndims >= 2) {
        double r0 = (double)labs(G.off[0][0]) / (double)(labs(G.off[0][1]) + 1);
        double r1 = (double)labs(G.off[1][0]) / (double)(labs(G.off[1][1]) + 1);
        h = r1 > r0 ? 1 : 0;
    }
    int v = 1 - h, lv = 2;
    int W = G.size[h], H = G.size[v], levels = G.size[lv];
    bool flip_x = G.off[h][0] < 0, flip_y = G.ndims >= 2 && G.off[v][1] >= 0;
    /* the directions, in index steps per dimension */
    long(*delta)[3] = xcalloc((size_t)(dirs ? dirs->nkids : 1), sizeof *delta);
    int gap = 1;
    for (int i = 1; dirs && i < dirs->nkids; i++) {
        const ZrfNode *d = dirs->kids[i];
        /* (steps left out are 0) */
        bool good = d->kind == ZRF_LIST && d->nkids >= 2 && d->nkids <= G.ndims + 1 && d->kids[0]->kind == ZRF_ATOM;
        for (int k = 0; good && k + 1 < d->nkids; k++) good = parse_long(d->kids[k + 1], &delta[i][k]);
        if (!good) {
            zrf_error(L->r, d, "a direction is (NAME STEP...) with one step per dimension (%d)", G.ndims);
            delta[i][0] = delta[i][1] = delta[i][2] = 0;
            ok = false;
            continue;
        }
        if (labs(delta[i][h]) > gap && labs(delta[i][h]) <= MAX_BOARD_DIM) gap = (int)labs(delta[i][h]);
    }
    int width = levels * W + (levels - 1) * gap;
    if (width > MAX_BOARD_DIM || H > MAX_BOARD_DIM) {
        zrf_error(L->r, dims, "a grid of %dx%d cells%s is too large (limit is %dx%d)", width, H,
                  levels > 1 ? " (its levels side by side)" : "", MAX_BOARD_DIM, MAX_BOARD_DIM);
        ok = false;
    }
    L->bw[b] = width;
    L->bh[b] = H;
    for (int i = 0; ok && i < G.size[0]; i++)
        for (int j = 0; ok && j < G.size[1]; j++)
            for (int l = 0; ok && l < G.size[2]; l++) {
                char name[160];
                snprintf(name, sizeof name, "%s%s%s", G.labels[0][i], G.labels[1][j], G.labels[2][l]);
                if (pos_index(L, name) >= 0 && !strcmp(L->pos[pos_index(L, name)].name, name)) {
                    zrf_error(L->r, dims, "position '%s' is made twice", name);
                    continue;
                }
                if (L->npos >= ZRF_MAX_POSITIONS) {
                    zrf_error(L->r, dims, "too many positions (limit is %d)", ZRF_MAX_POSITIONS);
                    ok = false;
                    break;
                }
                int idx[3] = {i, j, l};
                Pos *p = &L->pos[L->npos++];
                p->name = zrf_strdup(L->r, name);
                p->board = b;
                p->x = (flip_x ? W - 1 - idx[h] : idx[h]) + idx[lv] * (W + gap);
                p->y = flip_y ? H - 1 - idx[v] : idx[v];
                p->killed = false;
            }
    for (int k = 0; k < 3; k++) free(G.labels[k]);
    for (int i = 1; ok && dirs && i < dirs->nkids; i++) {
        const ZrfNode *d = dirs->kids[i];
        long dx = delta[i][h] * (flip_x ? -1 : 1) + delta[i][lv] * (W + gap), dy = delta[i][v] * (flip_y ? -1 : 1);
        if (dx == 0 && dy == 0) {
            zrf_error(L->r, d, "direction '%s' goes nowhere", d->kids[0]->text);
            continue;
        }
        if (labs(dx) > MAX_BOARD_DIM || labs(dy) > MAX_BOARD_DIM) {
            zrf_error(L->r, d, "direction '%s' is longer than any board", d->kids[0]->text);
            continue;
        }
        Dir *had = dir_find(L, d->kids[0]->text);
        if (had) {
            if (had->dx != dx || had->dy != dy) {
                zrf_error(L->r, d,
                          "direction '%s' means another step on this grid than on the one before (not "
                          "supported yet)",
                          d->kids[0]->text);
                ok = false;
            }
            continue;
        }
        dir_add(L, d->kids[0]->text, (int)dx, (int)dy, d);
    }
    free(delta);
    return ok;
}

/* (links DIR (A B) ...): a direction given cell by cell. It is the language's direction when
 * every link is one same step on one board and every cell that step leads to another from
 * is linked; or a link between two boards (the same column and row) when every cell of one
 * is linked to the other's. Other links need boards as graphs. */
static void lower_links(Lower *L, const ZrfNode *bf) {
    for (int i = 1; i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "links")) continue;
        const char *name = f->nkids >= 2 ? atom_text(f->kids[1]) : NULL;
        if (!name) {
            zrf_error(L->r, f, "links are (links DIRECTION (FROM TO)...)");
            L->failed = true;
            continue;
        }
        bool first_form = true;
        for (int k = 1; k < i; k++)
            if (zrf_is_form(bf->kids[k], "links") && bf->kids[k]->nkids >= 2 && zrf_is(bf->kids[k]->kids[1], name))
                first_form = false;
        if (!first_form) continue;
        if (dir_find(L, name)) {
            zrf_error(L->r, f, "links of direction '%s', which a grid declares too, are not supported yet", name);
            L->failed = true;
            continue;
        }
        /* every pair of every links form of this direction */
        int dx = 0, dy = 0, from_b = -1, to_b = -1, npairs = 0;
        bool step = true, link = true;
        bool *linked = xcalloc((size_t)L->npos + 1, sizeof(bool));
        for (int k = i; k < bf->nkids; k++) {
            const ZrfNode *g = bf->kids[k];
            if (!zrf_is_form(g, "links") || g->nkids < 2 || !zrf_is(g->kids[1], name)) continue;
            for (int q = 2; q < g->nkids; q++) {
                const ZrfNode *pr = g->kids[q];
                int a = pr->kind == ZRF_LIST && pr->nkids == 2 && atom_text(pr->kids[0])
                    ? pos_index(L, pr->kids[0]->text)
                    : -1;
                int b = a >= 0 && atom_text(pr->kids[1]) ? pos_index(L, pr->kids[1]->text) : -1;
                if (a < 0 || b < 0) {
                    zrf_error(L->r, pr, "a link is (FROM TO), two positions");
                    L->failed = true;
                    continue;
                }
                const Pos *pa = &L->pos[a], *pb = &L->pos[b];
                if (npairs == 0) {
                    dx = pb->x - pa->x;
                    dy = pb->y - pa->y;
                    from_b = pa->board;
                    to_b = pb->board;
                }
                step = step && pa->board == pb->board && pb->x - pa->x == dx && pb->y - pa->y == dy;
                link = link && pa->board == from_b && pb->board == to_b && pa->x == pb->x && pa->y == pb->y &&
                    from_b != to_b;
                linked[a] = true;
                npairs++;
            }
        }
        /* complete: every cell the step (or link) leads to another from is linked */
        for (int p = 0; p < L->npos && (step || link); p++) {
            const Pos *pp = &L->pos[p];
            int x = pp->x + (step ? dx : 0), y = pp->y + (step ? dy : 0), b = step ? pp->board : to_b;
            if (link && pp->board != from_b) continue;
            bool lands = x >= 0 && y >= 0 && x < L->bw[b] && y < L->bh[b];
            bool has_target = false;
            for (int q = 0; lands && q < L->npos && !has_target; q++)
                has_target = L->pos[q].board == b && L->pos[q].x == x && L->pos[q].y == y;
            if (has_target && !linked[p]) step = link = false;
        }
        free(linked);
        if (npairs && step && (dx || dy) && abs(dx) <= MAX_BOARD_DIM && abs(dy) <= MAX_BOARD_DIM) {
            dir_add(L, name, dx, dy, f);
            continue;
        }
        if (npairs && link) {
            Dir *d = dir_add_link(L, name, from_b, to_b, f);
            if (d) continue;
        }
        zrf_error(L->r, f, "links of '%s' that are not one step of the grid: boards as graphs are not supported yet",
                  name);
        L->failed = true;
    }
}

static void lower_board(Lower *L) {
    const ZrfNode *boards[2];
    int nb = find_forms(L, "board", boards, 2);
    if (nb == 0) {
        diag_error(L->sink, L->at, "the game has no (board ...)");
        L->failed = true;
        return;
    }
    if (nb > 1) zrf_warn(L->r, boards[1], "a second (board ...) form is ignored");
    const ZrfNode *bf = boards[0];
    L->pos = xcalloc(ZRF_MAX_POSITIONS, sizeof *L->pos);
    for (int i = 1; i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        const char *h = zrf_head(f);
        if (!h) {
            zrf_warn(L->r, f, "'%s' in a board is ignored", zrf_print(L->r, f));
            continue;
        }
        if (!strcasecmp(h, "grid")) {
            if (L->nboards >= MAX_BOARDS) {
                zrf_error(L->r, f, "too many grids (limit is %d)", MAX_BOARDS);
                L->failed = true;
                continue;
            }
            if (!lower_grid(L, f, L->nboards)) {
                L->failed = true;
                continue;
            }
            L->nboards++;
        } else if (!strcasecmp(h, "links"))
            ; /* after the grids: see lower_links */
        else if (!strcasecmp(h, "positions") || !strcasecmp(h, "unlink") || !strcasecmp(h, "dummy")) {
            zrf_error(L->r, f, "(%s ...): boards of named positions and links are not supported yet", h);
            L->failed = true;
        }
    }
    if (L->nboards == 0) {
        if (!L->failed) zrf_error(L->r, bf, "the board has no (grid ...)");
        L->failed = true;
        return;
    }
    lower_links(L, bf);
    /* kill-positions: holes */
    for (int i = 1; i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "kill-positions")) continue;
        for (int k = 1; k < f->nkids; k++) {
            const char *name = atom_text(f->kids[k]);
            int p = name ? pos_index(L, name) : -1;
            if (p < 0)
                zrf_error(L->r, f->kids[k], "unknown position '%s'", name ? name : "?");
            else
                L->pos[p].killed = true;
        }
    }
    memset(L->cell_at, 0xff, sizeof L->cell_at);
    for (int p = 0; p < L->npos; p++)
        if (!L->pos[p].killed) L->cell_at[L->pos[p].board][L->pos[p].y][L->pos[p].x] = p;
    int cells = 0;
    L->holes_ok = true;
    for (int p = 0; p < L->npos; p++) {
        cells += !L->pos[p].killed;
        if (L->pos[p].killed) L->holes_ok = false;
    }
    if (cells > MAX_CELLS) {
        zrf_error(L->r, bf, "%d positions: this version plays at most %d", cells, MAX_CELLS);
        L->failed = true;
        return;
    }
    for (int b = 0; b < L->nboards; b++) {
        Ast *board = node(AST_BOARD, bf);
        if (L->nboards > 1) {
            char name[16];
            snprintf(name, sizeof name, "b%d", b + 1);
            board->text = xstrdup(name);
        }
        board->num[0] = L->bw[b];
        board->num[1] = L->bh[b];
        Ast *holes = node(AST_HOLES, bf);
        bool taken[MAX_BOARD_DIM][MAX_BOARD_DIM] = {{false}};
        for (int p = 0; p < L->npos; p++)
            if (L->pos[p].board == b && !L->pos[p].killed) taken[L->pos[p].y][L->pos[p].x] = true;
        for (int y = 0; y < L->bh[b]; y++)
            for (int x = 0; x < L->bw[b]; x++)
                if (!taken[y][x]) {
                    Pos tmp = {NULL, b, x, y, false};
                    Ast *n = cell_name(L, &tmp, bf);
                    free(n->text2); /* holes are named on their own board */
                    n->text2 = NULL;
                    ast_add(holes, n);
                    L->holes_ok = false;
                }
        if (holes->nkids)
            ast_add(board, holes);
        else
            ast_free(holes);
        ast_add(L->root, board);
    }
}

/* (symmetry PLAYER (a b) ...): player PLAYER's direction a is b. Lowered to the orientation
 * that turns every direction's vector into its image's. */
static void lower_symmetry(Lower *L) {
    const ZrfNode *bf = find_form(L, "board");
    for (int i = 1; bf && i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "symmetry")) continue;
        const char *pname = f->nkids >= 2 ? atom_text(f->kids[1]) : NULL;
        int p = pname ? player_index(L, pname) : -1;
        if (p < 0) {
            zrf_error(L->r, f, "symmetry of an unknown player '%s'", pname ? pname : "?");
            L->failed = true;
            continue;
        }
        int image[ZRF_MAX_DIRS];
        for (int d = 0; d < L->ndirs; d++) image[d] = d;
        bool ok = true;
        for (int k = 2; k < f->nkids; k++) {
            const ZrfNode *m = f->kids[k];
            Dir *a = m->kind == ZRF_LIST && m->nkids == 2 ? dir_find(L, atom_text(m->kids[0]) ? m->kids[0]->text : "")
                                                          : NULL;
            Dir *b = a ? dir_find(L, atom_text(m->kids[1]) ? m->kids[1]->text : "") : NULL;
            if (!a || !b) {
                zrf_error(L->r, m, "a symmetry maps one direction to another: (a b)");
                ok = false;
                continue;
            }
            image[a - L->dirs] = (int)(b - L->dirs);
        }
        if (!ok) {
            L->failed = true;
            continue;
        }
        int found = -1;
        for (int o = 0; o < ORIENT__COUNT && found < 0; o++) {
            bool fits = true;
            for (int d = 0; d < L->ndirs && fits; d++) {
                int ox, oy;
                variant_orient_vector((Orientation)o, L->dirs[d].dx, L->dirs[d].dy, &ox, &oy);
                fits = ox == L->dirs[image[d]].dx && oy == L->dirs[image[d]].dy;
            }
            if (fits) found = o;
        }
        static const char *const names[ORIENT__COUNT] = {"identity", "flip",   "mirror",    "rot90",
                                                         "rot180",   "rot270", "transpose", "antitranspose"};
        if (found < 0) {
            zrf_error(L->r, f,
                      "this symmetry is not a turn or reflection of the board: per-player direction maps "
                      "are not supported yet");
            L->failed = true;
            continue;
        }
        L->orient[p] = (Orientation)found;
        if (found == ORIENT_IDENTITY) continue;
        Ast *o = node_text(AST_ORIENTATION, f, L->player_name[p]);
        set_text2(o, names[found]);
        ast_add(L->root, o);
    }
}

/* A zone made for the lowering (a goal's positions, a complement). */
static const char *hidden_name(Lower *L, const char *what) {
    char buf[MAX_NAME + 1];
    snprintf(buf, sizeof buf, "%s-%d", what, ++L->hidden);
    return names_add(L, &L->zone_names, zrf_strdup(L->r, buf), NULL);
}

/* Adds `zone NAME for PLAYER = cells` for each player whose flag is set. */
static ZoneInfo *zone_info(Lower *L, const char *vname) {
    for (int i = 0; i < L->nzones; i++)
        if (!strcmp(L->zones[i].vname, vname)) return &L->zones[i];
    if (L->nzones >= (int)ARRAY_LEN(L->zones)) return NULL;
    ZoneInfo *z = &L->zones[L->nzones++];
    memset(z, 0, sizeof *z);
    z->vname = vname;
    return z;
}

static void add_zone(Lower *L, const char *vname, const bool *in_pos, const bool *players, const ZrfNode *at) {
    ZoneInfo *zi = zone_info(L, vname);
    for (int p = 0; p < L->nplayers; p++) {
        if (!players[p]) continue;
        if (zi) {
            if (!zi->in[p]) zi->in[p] = xcalloc((size_t)L->npos + 1, sizeof(bool));
            for (int i = 0; i < L->npos; i++) zi->in[p][i] = zi->in[p][i] || in_pos[i];
        }
        Ast *z = node_text(AST_ZONE, at, vname);
        z->sub = ZONE_FOR;
        set_text2(z, L->player_name[p]);
        for (int i = 0; i < L->npos; i++)
            if (in_pos[i] && !L->pos[i].killed) ast_add(z, cell_name(L, &L->pos[i], at));
        ast_add(L->root, z);
    }
}

static bool read_players(Lower *L, const ZrfNode *list, bool *players) {
    memset(players, 0, MAX_PLAYERS * sizeof *players);
    if (!list || list->kind != ZRF_LIST) return false;
    for (int k = list == NULL ? 0 : (zrf_is(list->kids[0], "players") ? 1 : 0); k < list->nkids; k++) {
        const char *n = atom_text(list->kids[k]);
        int p = n ? player_index(L, n) : -1;
        if (p < 0) {
            zrf_error(L->r, list->kids[k], "unknown player '%s'", n ? n : zrf_print(L->r, list->kids[k]));
            return false;
        }
        players[p] = true;
    }
    return true;
}

static void lower_zones(Lower *L) {
    const ZrfNode *bf = find_form(L, "board");
    for (int i = 1; bf && i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "zone")) continue;
        const ZrfNode *name = sub_form(f, "name"), *pl = sub_form(f, "players"), *ps = sub_form(f, "positions");
        if (!name || name->nkids < 2 || !atom_text(name->kids[1])) {
            zrf_error(L->r, f, "a zone needs (name ...)");
            continue;
        }
        bool players[MAX_PLAYERS];
        if (!pl) {
            for (int p = 0; p < MAX_PLAYERS; p++) players[p] = p < L->nplayers;
        } else if (!read_players(L, pl, players))
            continue;
        bool *in = xcalloc((size_t)L->npos + 1, sizeof *in);
        for (int k = 1; ps && k < ps->nkids; k++) {
            const char *pn = atom_text(ps->kids[k]);
            int p = pn ? pos_index(L, pn) : -1;
            if (p < 0)
                zrf_error(L->r, ps->kids[k], "unknown position '%s'", pn ? pn : "?");
            else
                in[p] = true;
        }
        const char *vname = names_add(L, &L->zone_names, name->kids[1]->text, name->kids[1]);
        add_zone(L, vname, in, players, f);
        free(in);
    }
}

/* ---- pieces ---------------------------------------------------------------------------------- */

static Piece *piece_find(Lower *L, const char *name) {
    for (int i = 0; i < L->npieces; i++)
        if (!strcasecmp(L->pieces[i].name, name)) return &L->pieces[i];
    return NULL;
}

/* A letter for position text: the conventional one of a chess piece's name, else the first
 * letter of the name not taken, else any. */
static char pick_letter(Lower *L, const char *name) {
    static const struct {
        const char *name;
        char letter;
    } conventional[] = {{"knight", 'N'}};
    for (size_t i = 0; i < ARRAY_LEN(conventional); i++)
        if (!strcasecmp(name, conventional[i].name) && !L->letters[conventional[i].letter - 'A'])
            return conventional[i].letter;
    for (const char *p = name; *p; p++)
        if (isalpha((unsigned char)*p) && !L->letters[toupper((unsigned char)*p) - 'A'])
            return (char)toupper((unsigned char)*p);
    for (int c = 0; c < 26; c++)
        if (!L->letters[c]) return (char)('A' + c);
    return 0;
}

static void declare_pieces(Lower *L) {
    for (int i = 0; i < L->forms->nkids; i++) {
        const ZrfNode *f = L->forms->kids[i];
        if (!zrf_is_form(f, "piece")) continue;
        const ZrfNode *name = sub_form(f, "name");
        const char *n = name && name->nkids >= 2 ? atom_text(name->kids[1]) : NULL;
        if (!n) {
            zrf_error(L->r, f, "a piece needs (name ...)");
            L->failed = true;
            continue;
        }
        if (piece_find(L, n)) {
            zrf_error(L->r, name, "piece '%s' defined twice", n);
            L->failed = true;
            continue;
        }
        if (L->npieces >= MAX_PIECE_TYPES) {
            zrf_error(L->r, f, "too many piece types (limit is %d)", MAX_PIECE_TYPES);
            L->failed = true;
            return;
        }
        Piece *p = &L->pieces[L->npieces++];
        p->name = n;
        p->form = f;
        snprintf(p->vname, sizeof p->vname, "%s", names_add(L, &L->piece_names, n, name));
    }
    /* letters: first the pieces whose first letter is theirs alone, so a clash moves the
     * later piece only */
    for (int i = 0; i < L->npieces; i++) {
        char l = pick_letter(L, L->pieces[i].name);
        if (!l) {
            zrf_error(L->r, L->pieces[i].form, "no letter left for piece '%s' (at most 26 piece types)",
                      L->pieces[i].name);
            L->failed = true;
            continue;
        }
        L->pieces[i].letter = l;
        L->letters[l - 'A'] = true;
    }
}

/* ---- attributes ------------------------------------------------------------------------------ */

static Attr *attr_find(Lower *L, const char *name) {
    for (int i = 0; i < L->nattrs; i++)
        if (!strcasecmp(L->attrs[i].name, name)) return &L->attrs[i];
    return NULL;
}

/* Does n set attribute a (to false: *to_false)? Any set-attribute of a anywhere in n. */
static bool sets_attr(const ZrfNode *n, const char *a, bool *to_true) {
    if (zrf_is_form(n, "set-attribute") && n->nkids >= 2 && zrf_is(n->kids[1], a)) {
        if (!(n->nkids == 3 && zrf_is(n->kids[2], "false"))) *to_true = true;
        return true;
    }
    bool any = false;
    for (int i = 0; n->kind == ZRF_LIST && i < n->nkids; i++) any = sets_attr(n->kids[i], a, to_true) || any;
    return any;
}

static void declare_attrs(Lower *L) {
    for (int i = 0; i < L->npieces; i++) {
        const ZrfNode *pf = L->pieces[i].form;
        for (int k = 1; k < pf->nkids; k++) {
            const ZrfNode *f = pf->kids[k];
            if (!zrf_is_form(f, "attribute") || f->nkids != 3 || f->kids[1]->kind != ZRF_ATOM) continue;
            Attr *a = attr_find(L, f->kids[1]->text);
            if (!a && L->nattrs < ZRF_MAX_ATTRS) {
                a = &L->attrs[L->nattrs++];
                a->name = f->kids[1]->text;
                a->starts_true = true;
                a->unmoved = true;
            }
            if (!a) continue;
            if (!zrf_is(f->kids[2], "true")) a->starts_true = a->unmoved = false;
        }
    }
    /* every move of a piece with the attribute sets it false; nothing sets it true */
    for (int i = 0; i < L->nattrs; i++) {
        Attr *a = &L->attrs[i];
        for (int p = 0; a->unmoved && p < L->npieces; p++) {
            const ZrfNode *pf = L->pieces[p].form;
            bool has = false;
            for (int k = 1; k < pf->nkids; k++)
                has = has ||
                    (zrf_is_form(pf->kids[k], "attribute") && pf->kids[k]->nkids == 3 &&
                     zrf_is(pf->kids[k]->kids[1], a->name));
            for (int k = 1; k < pf->nkids; k++) {
                const ZrfNode *f = pf->kids[k];
                if (!zrf_is_form(f, "moves") && !zrf_is_form(f, "drops")) continue;
                for (int m = 1; m < f->nkids; m++) {
                    if (zrf_is_form(f->kids[m], "move-type")) continue;
                    bool to_true = false;
                    bool sets = sets_attr(f->kids[m], a->name, &to_true);
                    if (to_true || (has && zrf_is_form(f, "moves") && !sets)) a->unmoved = false;
                }
            }
        }
    }
}

/* n without its (set-attribute A false) of attributes lowered as `unmoved` (the language
 * keeps that itself), so the shapes of atoms show through. */
static const ZrfNode *strip_unmoved(Lower *L, const ZrfNode *n) {
    if (n->kind != ZRF_LIST) return n;
    bool any = false;
    for (int i = 0; i < n->nkids && !any; i++) {
        const ZrfNode *k = n->kids[i];
        Attr *a = zrf_is_form(k, "set-attribute") && k->nkids == 3 && atom_text(k->kids[1])
            ? attr_find(L, k->kids[1]->text)
            : NULL;
        any = (a && a->unmoved) || (k->kind == ZRF_LIST && strip_unmoved(L, k) != k);
    }
    if (!any) return n;
    ZrfNode *copy = zrf_new(L->r, ZRF_LIST, NULL, n->loc, n->exp);
    for (int i = 0; i < n->nkids; i++) {
        const ZrfNode *k = n->kids[i];
        Attr *a = zrf_is_form(k, "set-attribute") && k->nkids == 3 && atom_text(k->kids[1])
            ? attr_find(L, k->kids[1]->text)
            : NULL;
        if (a && a->unmoved) continue;
        zrf_push(L->r, copy, (ZrfNode *)strip_unmoved(L, k));
    }
    return copy;
}

/* ---- move programs --------------------------------------------------------------------------- */

/* The lowering of one move or drop: statements into a block. An unsupported construct sets
 * `left_out` (named in one warning) and the move is dropped. */
typedef struct Prog {
    Lower *L;
    const ZrfNode *move;
    const char *left_out; /* the construct that could not be lowered */
    const ZrfNode *left_at;
    int marks;              /* Varia marks held for Zillions' mark register (0 or 1) */
    const ZrfNode **events; /* the move's marks and backs in the order written */
    int nevents;
} Prog;

static void unsupported(Prog *g, const ZrfNode *at, const char *what) {
    if (g->left_out) return;
    g->left_out = what;
    g->left_at = at;
}

static bool is_stmt_list(const ZrfNode *n) { return n->kind == ZRF_LIST; }

/* A direction named by an atom, or NULL. */
static Dir *as_dir(Lower *L, const ZrfNode *n) { return n && n->kind == ZRF_ATOM ? dir_find(L, n->text) : NULL; }

static Ast *dir_ast(const Dir *d, const ZrfNode *at) { return node_text(AST_DIR, at, d->vname); }

static Ast *cond_word(Keyword w, const ZrfNode *at) {
    Ast *c = node(AST_COND, at);
    c->word = w;
    return c;
}

static Ast *cond_not(Ast *c, const ZrfNode *at) { return ast_add(node(AST_NOT, at), c); }

static Ast *cond_bin(AstKind k, Ast *a, Ast *b, const ZrfNode *at) { return ast_add(ast_add(node(k, at), a), b); }

typedef enum Pred { PRED_NONE, PRED_EMPTY, PRED_FRIEND, PRED_ENEMY, PRED_LAST_FROM, PRED_LAST_TO, PRED_ATTACKED } Pred;

/* A one-word condition: its predicate and whether it is negated. */
static Pred word_pred(const char *w, bool *neg) {
    static const struct {
        const char *word;
        Pred pred;
        bool neg;
    } words[] = {
        {"empty?", PRED_EMPTY, false},         {"not-empty?", PRED_EMPTY, true},
        {"friend?", PRED_FRIEND, false},       {"not-friend?", PRED_FRIEND, true},
        {"enemy?", PRED_ENEMY, false},         {"not-enemy?", PRED_ENEMY, true},
        {"last-from?", PRED_LAST_FROM, false}, {"not-last-from?", PRED_LAST_FROM, true},
        {"last-to?", PRED_LAST_TO, false},     {"not-last-to?", PRED_LAST_TO, true},
        {"attacked?", PRED_ATTACKED, false},   {"not-attacked?", PRED_ATTACKED, true},
    };
    for (size_t i = 0; i < ARRAY_LEN(words); i++)
        if (!strcasecmp(w, words[i].word)) {
            *neg = words[i].neg;
            return words[i].pred;
        }
    return PRED_NONE;
}

static Keyword pred_keyword(Pred p) {
    switch (p) {
    case PRED_EMPTY: return KEYWORD_EMPTY;
    case PRED_FRIEND: return KEYWORD_FRIEND;
    case PRED_ENEMY: return KEYWORD_ENEMY;
    case PRED_LAST_FROM: return KEYWORD_LAST_FROM;
    case PRED_LAST_TO: return KEYWORD_LAST_TO;
    case PRED_ATTACKED: return KEYWORD_ATTACKED;
    default: return KEYWORD_NONE;
    }
}

static const char *zone_vname(Lower *L, const char *zrf) { return names_find(&L->zone_names, zrf); }

/* Conditions that have no counterpart yet, by the feature they need. */
static const struct {
    const char *word;
    const char *why;
} later_conds[] = {
    {"flag?", "flags local to a move (flag?)"},
    {"not-flag?", "flags local to a move (not-flag?)"},
    {"position-flag?", "flags on cells (position-flag?)"},
    {"not-position-flag?", "flags on cells (not-position-flag?)"},
    {"neutral?", "neutral pieces (neutral?)"},
    {"not-neutral?", "neutral pieces (not-neutral?)"},
    {"defended?", "asking whether a cell is defended (defended?)"},
    {"not-defended?", "asking whether a cell is defended (not-defended?)"},
    {"adjacent-to-enemy?", "asking for an adjacent enemy (adjacent-to-enemy?)"},
    {"not-adjacent-to-enemy?", "asking for an adjacent enemy (not-adjacent-to-enemy?)"},
    {"attribute?", "piece attributes (attribute?)"},
    {"on-board?", "on-board? of other than one direction or position"},
};

static void unsupported_cond(Prog *g, const ZrfNode *at, const char *word) {
    for (size_t i = 0; i < ARRAY_LEN(later_conds); i++)
        if (!strcasecmp(word, later_conds[i].word)) {
            unsupported(g, at, later_conds[i].why);
            return;
        }
    unsupported(g, at, word);
}

/* A condition the rule language says at the cursor, or NULL (with *needs_move when it names
 * another cell: a direction or position argument). */
static Ast *lower_cond(Prog *g, const ZrfNode *c, bool *needs_move) {
    Lower *L = g->L;
    if (c->kind == ZRF_ATOM) {
        bool neg = false;
        Pred p = word_pred(c->text, &neg);
        if (p != PRED_NONE) {
            Ast *a = cond_word(pred_keyword(p), c);
            return neg ? cond_not(a, c) : a;
        }
        Attr *at = attr_find(L, c->text);
        if (at && at->unmoved) return cond_word(KEYWORD_UNMOVED, c);
        if (at)
            unsupported(g, c, "piece attributes other than one every move clears (set-attribute)");
        else
            unsupported_cond(g, c, c->text);
        return NULL;
    }
    const char *h = zrf_head(c);
    if (!h) {
        unsupported(g, c, "a condition that is a list of lists");
        return NULL;
    }
    if (!strcasecmp(h, "not") && c->nkids == 2) {
        Ast *a = lower_cond(g, c->kids[1], needs_move);
        return a ? cond_not(a, c) : NULL;
    }
    if ((!strcasecmp(h, "and") || !strcasecmp(h, "or")) && c->nkids >= 2) {
        Ast *acc = NULL;
        for (int i = 1; i < c->nkids; i++) {
            Ast *a = lower_cond(g, c->kids[i], needs_move);
            if (!a) {
                ast_free(acc);
                return NULL;
            }
            acc = acc ? cond_bin(!strcasecmp(h, "and") ? AST_AND : AST_OR, acc, a, c) : a;
        }
        return acc;
    }
    bool neg = false;
    Pred p = word_pred(h, &neg);
    if (p != PRED_NONE) {
        if (c->nkids == 1) {
            Ast *a = cond_word(pred_keyword(p), c);
            return neg ? cond_not(a, c) : a;
        }
        *needs_move = true;
        return NULL;
    }
    bool not_piece = !strcasecmp(h, "not-piece?");
    if (!strcasecmp(h, "piece?") || not_piece) {
        Piece *pc = c->nkids >= 2 && atom_text(c->kids[1]) ? piece_find(L, c->kids[1]->text) : NULL;
        if (!pc) {
            unsupported(g, c, "(piece? ...) of an unknown piece");
            return NULL;
        }
        if (c->nkids > 2) {
            *needs_move = true;
            return NULL;
        }
        Ast *a = cond_word(KEYWORD_PIECE, c);
        set_text2(a, pc->vname);
        return not_piece ? cond_not(a, c) : a;
    }
    bool not_zone = !strcasecmp(h, "not-in-zone?");
    if (!strcasecmp(h, "in-zone?") || not_zone) {
        const char *z = c->nkids >= 2 ? atom_text(c->kids[1]) : NULL;
        const char *vz = z ? zone_vname(L, z) : NULL;
        if (!vz) {
            unsupported(g, c, "(in-zone? ...) of an unknown zone");
            return NULL;
        }
        if (c->nkids > 2) {
            *needs_move = true;
            return NULL;
        }
        Ast *a = cond_word(KEYWORD_IN, c);
        set_text2(a, vz);
        return not_zone ? cond_not(a, c) : a;
    }
    if (!strcasecmp(h, "on-board?") && c->nkids == 2) {
        Dir *d = as_dir(L, c->kids[1]);
        if (d) return ast_add(node(AST_ONBOARD, c), dir_ast(d, c->kids[1]));
        if (atom_text(c->kids[1]) && pos_index(L, c->kids[1]->text) >= 0 &&
            !L->pos[pos_index(L, c->kids[1]->text)].killed)
            return cond_bin(AST_OR, cond_word(KEYWORD_EMPTY, c), cond_not(cond_word(KEYWORD_EMPTY, c), c), c);
    }
    unsupported_cond(g, c, h);
    return NULL;
}

/* Statements that go to the cell a condition's argument names and back: a direction or a
 * position. Returns the statements' first node (a BLOCK to splice), or NULL. */
static bool cond_target(Prog *g, const ZrfNode *arg, Ast *block) {
    Lower *L = g->L;
    Dir *d = as_dir(L, arg);
    if (d) {
        ast_add(block, ast_add(node(AST_STEP, arg), dir_ast(d, arg)));
        return true;
    }
    int p = atom_text(arg) ? pos_index(L, arg->text) : -1;
    if (p >= 0 && !L->pos[p].killed) {
        Ast *go = node(AST_GOTO, arg);
        Ast *cn = cell_name(L, &L->pos[p], arg);
        go->text = cn->text;
        go->text2 = cn->text2;
        cn->text = cn->text2 = NULL;
        ast_free(cn);
        ast_add(block, go);
        return true;
    }
    unsupported(g, arg, "a condition's argument that is neither a direction nor a position");
    return false;
}

/* Appends to block statements that go on only when c holds (want) or fails (!want), the
 * cursor where it was. */
static void guard(Prog *g, const ZrfNode *c, bool want, Ast *block) {
    Lower *L = g->L;
    bool needs_move = false;
    Ast *simple = lower_cond(g, c, &needs_move);
    if (simple) {
        ast_add(block, ast_add(node(AST_VERIFY, c), want ? simple : cond_not(simple, c)));
        return;
    }
    if (!needs_move || g->left_out) return;
    g->left_out = NULL;
    const char *h = zrf_head(c);
    if (!strcasecmp(h, "not")) {
        guard(g, c->kids[1], !want, block);
        return;
    }
    bool is_and = !strcasecmp(h, "and"), is_or = !strcasecmp(h, "or");
    if (is_and || is_or) {
        /* all must hold: one after another; one must: the first that holds, the others
         * failing before it, so a path is taken once */
        if (is_and == want) {
            for (int i = 1; i < c->nkids; i++) guard(g, c->kids[i], want, block);
            return;
        }
        Ast *either = node(AST_EITHER, c);
        for (int i = 1; i < c->nkids; i++) {
            Ast *alt = node(AST_BLOCK, c);
            for (int k = 1; k < i; k++) guard(g, c->kids[k], !want, alt);
            guard(g, c->kids[i], want, alt);
            ast_add(either, alt);
        }
        if (either->nkids == 1) ast_add(either, ast_add(node(AST_BLOCK, c), node(AST_FAIL, c)));
        ast_add(block, either);
        return;
    }
    /* (pred ARG ...): at the argument's cell; off the board it is false */
    ZrfNode bare = *c;
    ZrfNode *kids[2] = {c->kids[0], NULL};
    int arg = c->nkids - 1;
    bool has_type = !strcasecmp(h, "piece?") || !strcasecmp(h, "not-piece?") || !strcasecmp(h, "in-zone?") ||
        !strcasecmp(h, "not-in-zone?");
    if (has_type) {
        kids[1] = c->kids[1];
        bare.nkids = 2;
    } else
        bare.nkids = 1;
    bare.kids = kids;
    Ast *at_cell = lower_cond(g, &bare, &needs_move);
    if (!at_cell) return;
    Ast *go = node(AST_BLOCK, c);
    ast_add(go, node(AST_MARK, c));
    if (!cond_target(g, c->kids[arg], go)) {
        ast_free(go);
        ast_free(at_cell);
        return;
    }
    bool by_dir = as_dir(L, c->kids[arg]) != NULL;
    ast_add(go, ast_add(node(AST_VERIFY, c), want ? at_cell : cond_not(at_cell, c)));
    ast_add(go, node(AST_BACK, c));
    if (want || !by_dir) {
        for (int i = 0; i < go->nkids; i++) ast_add(block, go->kids[i]);
        go->nkids = 0;
        ast_free(go);
        return;
    }
    /* false off the board too */
    Ast *iff = node(AST_IF, c);
    ast_add(iff, ast_add(node(AST_ONBOARD, c), dir_ast(as_dir(L, c->kids[arg]), c)));
    go->kind = AST_BLOCK;
    ast_add(iff, go);
    ast_add(block, iff);
}

static void lower_stmts(Prog *g, const ZrfNode *list, int first, Ast *block, bool tail);

/* The mark register: is its value read again after the back at events[i] before a mark sets
 * it anew? (In the order written; a back inside a loop may also read the mark its body set
 * before it, which the next turn of the loop sets again.) */
static bool read_again(const Prog *g, const ZrfNode *back) {
    int i = 0;
    while (i < g->nevents && g->events[i] != back) i++;
    for (int k = i + 1; k < g->nevents; k++) {
        if (zrf_is(g->events[k], "back") || zrf_is_form(g->events[k], "back")) return true;
        return false; /* a mark comes first */
    }
    return false;
}

static void collect_events(Prog *g, const ZrfNode *n) {
    if (zrf_is(n, "mark") || zrf_is(n, "back") || zrf_is_form(n, "mark") || zrf_is_form(n, "back")) {
        g->events = xrealloc((void *)g->events, (size_t)(g->nevents + 1) * sizeof *g->events);
        g->events[g->nevents++] = n;
        return;
    }
    if (n->kind == ZRF_LIST)
        for (int i = 0; i < n->nkids; i++) collect_events(g, n->kids[i]);
}

/* The piece types of (add T...) / (add-partial T...). */
static bool promo_types(Prog *g, const ZrfNode *f, Piece **out, int *n) {
    *n = 0;
    for (int i = 1; i < f->nkids; i++) {
        Piece *p = atom_text(f->kids[i]) ? piece_find(g->L, f->kids[i]->text) : NULL;
        if (!p) {
            unsupported(g, f->kids[i], "a promotion to an unknown piece");
            return false;
        }
        if (*n < MAX_PIECE_TYPES) out[(*n)++] = p;
    }
    return true;
}

static void lower_add(Prog *g, const ZrfNode *f, Ast *block, bool tail) {
    Piece *types[MAX_PIECE_TYPES];
    int n = 0;
    if (f->kind == ZRF_LIST && !promo_types(g, f, types, &n)) return;
    if (n == 0) {
        ast_add(block, node(AST_ADD, f));
        return;
    }
    if (n == 1 && tail) {
        ast_add(block, node_text(AST_CHANGE, f, types[0]->vname));
        ast_add(block, node(AST_ADD, f));
        return;
    }
    /* each choice its own path; a path that goes on afterwards goes on unchanged */
    Ast *either = node(AST_EITHER, f);
    for (int i = 0; i < n; i++) {
        Ast *alt = node(AST_BLOCK, f);
        ast_add(alt, node_text(AST_CHANGE, f, types[i]->vname));
        ast_add(alt, node(AST_ADD, f));
        if (!tail) ast_add(alt, node(AST_FAIL, f));
        ast_add(either, alt);
    }
    if (!tail) ast_add(either, node(AST_BLOCK, f));
    if (either->nkids == 1) ast_add(either, ast_add(node(AST_BLOCK, f), node(AST_FAIL, f)));
    ast_add(block, either);
}

static void lower_if(Prog *g, const ZrfNode *f, Ast *block, bool tail) {
    if (f->nkids < 2) {
        unsupported(g, f, "an (if) without a condition");
        return;
    }
    int els = -1;
    for (int i = 2; i < f->nkids; i++)
        if (zrf_is(f->kids[i], "else")) {
            els = i;
            break;
        }
    int marks = g->marks;
    Ast *then_b = node(AST_BLOCK, f), *else_b = node(AST_BLOCK, f);
    /* the then-part: kids 2..els-1; the else-part: kids els+1.. */
    ZrfNode then_list = *f, else_list = *f;
    then_list.kids = f->kids + 2;
    then_list.nkids = (els < 0 ? f->nkids : els) - 2;
    else_list.kids = els < 0 ? NULL : f->kids + els + 1;
    else_list.nkids = els < 0 ? 0 : f->nkids - els - 1;
    lower_stmts(g, &then_list, 0, then_b, tail);
    int then_marks = g->marks;
    g->marks = marks;
    lower_stmts(g, &else_list, 0, else_b, tail);
    int else_marks = g->marks;
    if (then_marks != else_marks) {
        /* a branch that did not mark holds no register value: mark anything there */
        if (marks == 0)
            ast_add(then_marks < else_marks ? then_b : else_b, node(AST_MARK, f));
        else
            unsupported(g, f, "a mark set again in one branch of an (if) only");
    }
    g->marks = then_marks > else_marks ? then_marks : else_marks;
    bool needs_move = false;
    Ast *c = lower_cond(g, f->kids[1], &needs_move);
    if (c) {
        Ast *iff = ast_add(ast_add(node(AST_IF, f), c), then_b);
        if (else_b->nkids)
            ast_add(iff, else_b);
        else
            ast_free(else_b);
        ast_add(block, iff);
        return;
    }
    if (!needs_move) {
        ast_free(then_b);
        ast_free(else_b);
        return;
    }
    g->left_out = NULL;
    /* a condition on another cell: two exclusive paths */
    Ast *either = node(AST_EITHER, f);
    Ast *a = node(AST_BLOCK, f), *b = node(AST_BLOCK, f);
    guard(g, f->kids[1], true, a);
    guard(g, f->kids[1], false, b);
    for (int i = 0; i < then_b->nkids; i++) ast_add(a, then_b->kids[i]);
    for (int i = 0; i < else_b->nkids; i++) ast_add(b, else_b->kids[i]);
    then_b->nkids = else_b->nkids = 0;
    ast_free(then_b);
    ast_free(else_b);
    ast_add(either, a);
    ast_add(either, b);
    ast_add(block, either);
}

static void lower_while(Prog *g, const ZrfNode *f, Ast *block) {
    if (f->nkids < 2) {
        unsupported(g, f, "a (while) without a condition");
        return;
    }
    bool needs_move = false;
    Ast *c = lower_cond(g, f->kids[1], &needs_move);
    if (!c) {
        if (needs_move) unsupported(g, f->kids[1], "a (while) whose condition looks at another cell");
        return;
    }
    int marks = g->marks;
    Ast *body = node(AST_BLOCK, f);
    lower_stmts(g, f, 2, body, false);
    if (g->marks != marks) unsupported(g, f, "a mark set inside a (while) and read after it");
    ast_add(block, ast_add(ast_add(node(AST_WHILE, f), c), body));
}

/* Statements that have no counterpart yet, by the feature they need. */
static const struct {
    const char *word;
    const char *why;
} later[] = {
    {"add-partial", "multi-part moves (add-partial)"},
    {"add-copy", "moves that leave a copy (add-copy)"},
    {"cascade", "moving a second piece (cascade)"},
    {"from", "moving another piece than the one the move started with (from)"},
    {"to", "a destination set before the move goes on (to)"},
    {"set-flag", "flags local to a move (set-flag)"},
    {"set-position-flag", "flags on cells (set-position-flag)"},
    {"set-attribute", "piece attributes (set-attribute)"},
    {"create", "creating pieces (create)"},
    {"change-type", "changing another piece's type (change-type)"},
    {"change-owner", "changing another piece's owner (change-owner)"},
    {"flip", "flipping a piece's owner (flip)"},
    {"go", "going to a remembered position (go)"},
};

static void lower_stmt(Prog *g, const ZrfNode *s, Ast *block, bool tail) {
    Lower *L = g->L;
    if (g->left_out) return;
    if (s->kind == ZRF_STRING) {
        unsupported(g, s, "a string as a statement");
        return;
    }
    if (s->kind == ZRF_ATOM) {
        Dir *d = as_dir(L, s);
        if (d) {
            ast_add(block, ast_add(node(AST_STEP, s), dir_ast(d, s)));
            return;
        }
        if (zrf_is(s, "add")) {
            lower_add(g, s, block, tail);
            return;
        }
        if (zrf_is(s, "capture")) {
            ast_add(block, node(AST_CAPTURE, s));
            return;
        }
    }
    const char *h = s->kind == ZRF_ATOM ? s->text : zrf_head(s);
    if (!h || (s->kind == ZRF_LIST && as_dir(L, s->kids[0]))) {
        /* statements grouped in a list */
        lower_stmts(g, s, 0, block, tail);
        return;
    }
    if (!strcasecmp(h, "mark")) {
        if (s->kind == ZRF_LIST && s->nkids > 1) {
            unsupported(g, s, "(mark POSITION)");
            return;
        }
        if (g->marks) {
            unsupported(g, s, "a second mark before the first is read back");
            return;
        }
        ast_add(block, node(AST_MARK, s));
        g->marks = 1;
        return;
    }
    if (!strcasecmp(h, "back")) {
        if (s->kind == ZRF_LIST && s->nkids > 1) {
            unsupported(g, s, "(back POSITION)");
            return;
        }
        if (!g->marks) {
            unsupported(g, s, "back without a mark before it");
            return;
        }
        ast_add(block, node(AST_BACK, s));
        if (read_again(g, s))
            ast_add(block, node(AST_MARK, s));
        else
            g->marks = 0;
        return;
    }
    if (s->kind == ZRF_ATOM) {
        for (size_t i = 0; i < ARRAY_LEN(later); i++)
            if (!strcasecmp(h, later[i].word)) {
                unsupported(g, s, later[i].why);
                return;
            }
        unsupported(g, s, s->text);
        return;
    }
    if (!strcasecmp(h, "verify")) {
        if (s->nkids != 2) {
            unsupported(g, s, "a (verify) of other than one condition");
            return;
        }
        guard(g, s->kids[1], true, block);
        return;
    }
    if (!strcasecmp(h, "if")) {
        lower_if(g, s, block, tail);
        return;
    }
    if (!strcasecmp(h, "while")) {
        lower_while(g, s, block);
        return;
    }
    if (!strcasecmp(h, "add")) {
        lower_add(g, s, block, tail);
        return;
    }
    if (!strcasecmp(h, "opposite") && s->nkids == 2) {
        Dir *d = as_dir(L, s->kids[1]);
        if (!d) {
            unsupported(g, s, "(opposite ...) of an unknown direction");
            return;
        }
        Dir *o = dir_for_vector(L, -d->dx, -d->dy, s);
        if (o) ast_add(block, ast_add(node(AST_STEP, s), dir_ast(o, s)));
        return;
    }
    if (!strcasecmp(h, "capture") && s->nkids == 2) {
        Ast *go = node(AST_BLOCK, s);
        ast_add(block, node(AST_MARK, s));
        if (!cond_target(g, s->kids[1], go)) {
            ast_free(go);
            return;
        }
        for (int i = 0; i < go->nkids; i++) ast_add(block, go->kids[i]);
        go->nkids = 0;
        ast_free(go);
        ast_add(block, node(AST_CAPTURE, s));
        ast_add(block, node(AST_BACK, s));
        return;
    }
    if (!strcasecmp(h, "set-attribute") && s->nkids == 3 &&
        attr_find(L, atom_text(s->kids[1]) ? s->kids[1]->text : "") && attr_find(L, s->kids[1]->text)->unmoved)
        return; /* the piece moves: it is no longer unmoved */
    if (!strcasecmp(h, "change-owner") && s->nkids == 1) {
        ast_add(block, node(AST_CONVERT, s));
        return;
    }
    for (size_t i = 0; i < ARRAY_LEN(later); i++)
        if (!strcasecmp(h, later[i].word)) {
            unsupported(g, s, later[i].why);
            return;
        }
    unsupported(g, s, h);
}

static void lower_stmts(Prog *g, const ZrfNode *list, int first, Ast *block, bool tail) {
    for (int i = first; i < list->nkids && !g->left_out; i++) {
        int before = block->nkids;
        lower_stmt(g, list->kids[i], block, tail && i == list->nkids - 1);
        /* checks in a row are one (the shapes the compiler runs in C are written so) */
        if (block->nkids == before + 1 && before > 0 && block->kids[before]->kind == AST_VERIFY &&
            block->kids[before - 1]->kind == AST_VERIFY) {
            Ast *prev = block->kids[before - 1], *next = block->kids[before];
            Ast *both = cond_bin(AST_AND, prev->kids[0], next->kids[0], list->kids[i]);
            both->loc = prev->loc;
            prev->kids[0] = both;
            next->nkids = 0;
            ast_free(next);
            block->nkids--;
        }
    }
}

/* ---- the shapes that are atoms --------------------------------------------------------------- */

/* Is n the one-word condition w (or (verify w))? */
static bool is_verify(const ZrfNode *n, const char *w) {
    return zrf_is_form(n, "verify") && n->nkids == 2 && zrf_is(n->kids[1], w);
}

static Ast *atom(int kind, const ZrfNode *at) {
    Ast *a = node(AST_ATOM, at);
    a->sub = kind;
    return a;
}

static Ast *mod(int kind, const ZrfNode *at) {
    Ast *m = node(AST_MOD, at);
    m->sub = kind;
    return m;
}

/* The modifier of the last check before `add`: not-friend? (none), empty? (move-only),
 * enemy? (capture-only); -2 when it is none of these. */
static int end_mod(const ZrfNode *n) {
    if (is_verify(n, "not-friend?")) return -1;
    if (is_verify(n, "empty?")) return MOD_MOVE_ONLY;
    if (is_verify(n, "enemy?")) return MOD_CAPTURE_ONLY;
    return -2;
}

/* A move that rides along one direction while cells are empty, adding each, and takes what
 * ends the line (or not): the atom `slide D`. NULL when it is not one. */
static Ast *as_slide(Lower *L, const ZrfNode *m) {
    int n = m->nkids;
    /* D (while empty? add D) [(verify X) add]: a slide */
    Dir *d = n >= 2 ? as_dir(L, m->kids[0]) : NULL;
    if (!d) return NULL;
    const ZrfNode *w = m->kids[1];
    if (!zrf_is_form(w, "while") || w->nkids != 4 || !zrf_is(w->kids[1], "empty?") || !zrf_is(w->kids[2], "add") ||
        as_dir(L, w->kids[3]) != d)
        return NULL;
    int em;
    if (n == 2)
        em = MOD_MOVE_ONLY;
    else if (n == 4 && zrf_is(m->kids[3], "add")) {
        em = end_mod(m->kids[2]);
        if (em == -2) return NULL;
        if (em == MOD_MOVE_ONLY) return NULL; /* (verify empty?) after the loop never holds */
        em = -1;                              /* after the loop the cell is not empty */
    } else
        return NULL;
    Ast *a = atom(ATOM_SLIDE, m);
    ast_add(a, dir_ast(d, m->kids[0]));
    if (em >= 0) ast_add(a, mod(em, m));
    return a;
}

static void warn_left_out(Lower *L, const Prog *g, const char *kind, const char *piece) {
    zrf_warn(L->r, g->left_at, "%s of '%s' left out: %s is not supported yet", kind, piece, g->left_out);
}

/* ---- straight paths -------------------------------------------------------------------------- */

/* A move without branches, run symbolically: the cells it visits as offsets from the origin
 * (in the first player's frame), what it checks and captures where, and where it adds. */
typedef enum FactKind {
    FACT_EMPTY,
    FACT_NOT_EMPTY,
    FACT_ENEMY,
    FACT_FRIEND,
    FACT_NOT_FRIEND,
    FACT_NOT_ENEMY,
    FACT_PIECE,
    FACT_ZONE,
    FACT_LAST_TO,
    FACT_LAST_FROM,
    FACT_CAPTURE,
} FactKind;

#define PATH_MAX_CELLS 16

typedef struct Path {
    int ncells;
    int x[PATH_MAX_CELLS], y[PATH_MAX_CELLS]; /* visited offsets; [0] is the origin */
    const Dir *dir[PATH_MAX_CELLS];           /* the step that reached it; NULL for a back */
    bool back;                                /* the cursor went back (mark/back, opposite) */
    struct {
        int at;
        FactKind kind;
        const char *arg; /* piece or zone (Varia name) */
    } facts[PATH_MAX_CELLS * 2];
    int nfacts;
    int add_at;
} Path;

static bool path_fact(Path *p, int at, FactKind k, const char *arg) {
    if (p->nfacts >= (int)ARRAY_LEN(p->facts)) return false;
    p->facts[p->nfacts].at = at;
    p->facts[p->nfacts].kind = k;
    p->facts[p->nfacts].arg = arg;
    p->nfacts++;
    return true;
}

static bool path_cond(Lower *L, Path *p, int at, const ZrfNode *c) {
    static const struct {
        const char *word;
        FactKind kind;
    } words[] = {{"empty?", FACT_EMPTY},     {"not-empty?", FACT_NOT_EMPTY},   {"enemy?", FACT_ENEMY},
                 {"friend?", FACT_FRIEND},   {"not-friend?", FACT_NOT_FRIEND}, {"not-enemy?", FACT_NOT_ENEMY},
                 {"last-to?", FACT_LAST_TO}, {"last-from?", FACT_LAST_FROM}};
    if (c->kind == ZRF_ATOM) {
        for (size_t i = 0; i < ARRAY_LEN(words); i++)
            if (!strcasecmp(c->text, words[i].word)) return path_fact(p, at, words[i].kind, NULL);
        return false;
    }
    if (zrf_is_form(c, "and")) {
        for (int i = 1; i < c->nkids; i++)
            if (!path_cond(L, p, at, c->kids[i])) return false;
        return true;
    }
    if (zrf_is_form(c, "piece?") && c->nkids == 2 && atom_text(c->kids[1])) {
        Piece *pc = piece_find(L, c->kids[1]->text);
        return pc && path_fact(p, at, FACT_PIECE, pc->vname);
    }
    if (zrf_is_form(c, "in-zone?") && c->nkids == 2 && atom_text(c->kids[1])) {
        const char *z = zone_vname(L, c->kids[1]->text);
        return z && path_fact(p, at, FACT_ZONE, z);
    }
    return false;
}

/* Runs move m (no branch, no loop) into p; false when it is not such a move. */
static bool path_of(Lower *L, const ZrfNode *m, Path *p) {
    memset(p, 0, sizeof *p);
    p->ncells = 1;
    p->add_at = -1;
    int cur = 0, mark = -1;
    for (int i = 0; i < m->nkids; i++) {
        const ZrfNode *s = m->kids[i];
        Dir *d = as_dir(L, s);
        int sign = 1;
        if (!d && zrf_is_form(s, "opposite") && s->nkids == 2) {
            d = as_dir(L, s->kids[1]);
            sign = -1;
            if (!d) return false;
            p->back = true;
        }
        if (d) {
            if (p->ncells >= PATH_MAX_CELLS) return false;
            p->x[p->ncells] = p->x[cur] + sign * d->dx;
            p->y[p->ncells] = p->y[cur] + sign * d->dy;
            p->dir[p->ncells] = sign > 0 ? d : NULL;
            cur = p->ncells++;
            continue;
        }
        if (zrf_is(s, "mark") || (zrf_is_form(s, "mark") && s->nkids == 1)) {
            mark = cur;
            continue;
        }
        if (zrf_is(s, "back") || (zrf_is_form(s, "back") && s->nkids == 1)) {
            if (mark < 0) return false;
            cur = mark;
            p->back = true;
            continue;
        }
        if (zrf_is_form(s, "verify") && s->nkids == 2) {
            if (!path_cond(L, p, cur, s->kids[1])) return false;
            continue;
        }
        if (zrf_is(s, "capture")) {
            if (!path_fact(p, cur, FACT_CAPTURE, NULL)) return false;
            continue;
        }
        if (zrf_is(s, "add") && i == m->nkids - 1) {
            p->add_at = cur;
            continue;
        }
        return false;
    }
    return p->add_at >= 0;
}

/* The facts at one visited cell, as a bit set. */
static unsigned facts_at(const Path *p, int at) {
    unsigned bits = 0;
    for (int i = 0; i < p->nfacts; i++)
        if (p->facts[i].at == at) bits |= 1u << p->facts[i].kind;
    return bits;
}

static const char *fact_arg(const Path *p, int at, FactKind k) {
    for (int i = 0; i < p->nfacts; i++)
        if (p->facts[i].at == at && p->facts[i].kind == k) return p->facts[i].arg;
    return NULL;
}

/* The atom modifier of a landing cell's checks: -1 none (not friend), MOD_MOVE_ONLY,
 * MOD_CAPTURE_ONLY; -2 when the checks are other than one of these (a zone aside). */
static int landing_mod(unsigned bits) {
    bits &= ~(1u << FACT_ZONE);
    if (bits == 1u << FACT_NOT_FRIEND) return -1;
    if (bits == 1u << FACT_EMPTY) return MOD_MOVE_ONLY;
    if (bits == 1u << FACT_ENEMY || bits == ((1u << FACT_ENEMY) | (1u << FACT_NOT_FRIEND))) return MOD_CAPTURE_ONLY;
    return -2;
}

static void add_zone_mod(Ast *a, int kind, const char *zone, const ZrfNode *at) {
    if (!zone) return;
    Ast *z = node_text(AST_MOD, at, zone);
    z->sub = kind;
    ast_add(a, z);
}

/* A straight path as an atom: a step or leap (checks on the landing cell only), or legs (every
 * cell before the landing checked empty); zones checked at the origin and the landing become
 * `from` and `to`. NULL when it is neither. */
static Ast *path_atom(Lower *L, const Path *p, const ZrfNode *m) {
    int k = p->ncells - 1;
    if (p->back || k < 1 || p->add_at != k) return NULL;
    unsigned origin = facts_at(p, 0), landing = facts_at(p, k);
    if (origin & ~(1u << FACT_ZONE)) return NULL;
    int em = landing_mod(landing);
    if (em == -2) return NULL;
    /* (one zone at each end at most) */
    int nz0 = 0, nzk = 0;
    for (int i = 0; i < p->nfacts; i++) {
        nz0 += p->facts[i].at == 0 && p->facts[i].kind == FACT_ZONE;
        nzk += p->facts[i].at == k && p->facts[i].kind == FACT_ZONE;
    }
    if (nz0 > 1 || nzk > 1) return NULL;
    bool all_empty = true, none = true;
    for (int i = 1; i < k; i++) {
        unsigned b = facts_at(p, i);
        all_empty = all_empty && b == 1u << FACT_EMPTY;
        none = none && b == 0;
    }
    Ast *a;
    if (k == 1 || none) {
        if (k > 1) {
            /* a leap: its middle cells must exist wherever the landing does */
            if (!L->holes_ok) return NULL;
            for (int i = 1; i < k; i++) {
                bool between_x = (p->x[i] >= 0 && p->x[i] <= p->x[k]) || (p->x[i] <= 0 && p->x[i] >= p->x[k]);
                bool between_y = (p->y[i] >= 0 && p->y[i] <= p->y[k]) || (p->y[i] <= 0 && p->y[i] >= p->y[k]);
                if (!between_x || !between_y) return NULL;
            }
        }
        if (p->x[k] == 0 && p->y[k] == 0) return NULL;
        if (k == 1) {
            a = atom(ATOM_STEP, m);
            ast_add(a, dir_ast(p->dir[1], m));
        } else {
            a = atom(ATOM_LEAP, m);
            Ast *vec = node(AST_VEC, m);
            vec->num[0] = p->x[k];
            vec->num[1] = p->y[k];
            ast_add(a, vec);
        }
    } else if (all_empty) {
        a = atom(ATOM_LEGS, m);
        for (int i = 1; i <= k; i++) ast_add(a, dir_ast(p->dir[i], m));
    } else
        return NULL;
    if (em >= 0) ast_add(a, mod(em, m));
    add_zone_mod(a, MOD_FROM, fact_arg(p, 0, FACT_ZONE), m);
    add_zone_mod(a, MOD_TO, fact_arg(p, k, FACT_ZONE), m);
    return a;
}

/* En passant as Zillions writes it: beside the piece (X) an enemy that made the last move
 * (last-to), from two cells further (last-from at Y), is captured and the piece lands on the
 * cell between (A). That is the language's `en-passant` when the victim's double step sets
 * the en-passant cell. Returns the atom, and the victim type in *victim (NULL: any). */
static Ast *path_en_passant(Lower *L, const Path *p, const ZrfNode *m, const char **victim) {
    int x = -1, y = -1, a = p->add_at;
    for (int i = 0; i < p->ncells; i++) {
        unsigned b = facts_at(p, i);
        if (b & (1u << FACT_LAST_TO)) {
            if (x >= 0 && (p->x[x] != p->x[i] || p->y[x] != p->y[i])) return NULL;
            if (x < 0) x = i;
        }
        if (b & (1u << FACT_LAST_FROM)) y = i;
    }
    if (x < 0 || y < 0 || a < 0) return NULL;
    int fx = p->x[a] - p->x[x], fy = p->y[a] - p->y[x];
    if (p->x[y] - p->x[x] != 2 * fx || p->y[y] - p->y[x] != 2 * fy || (fx == 0 && fy == 0) || abs(fx) > 1 ||
        abs(fy) > 1)
        return NULL;
    /* what the path checks and does, cell by cell (several visits of one cell together) */
    *victim = NULL;
    bool captured = false, enemy = false;
    for (int i = 0; i < p->nfacts; i++) {
        int at = p->facts[i].at;
        bool at_x = p->x[at] == p->x[x] && p->y[at] == p->y[x];
        bool at_y = p->x[at] == p->x[y] && p->y[at] == p->y[y];
        bool at_a = p->x[at] == p->x[a] && p->y[at] == p->y[a];
        switch (p->facts[i].kind) {
        case FACT_LAST_TO:
        case FACT_NOT_EMPTY:
        case FACT_NOT_FRIEND:
            if (!at_x) return NULL;
            break;
        case FACT_ENEMY:
            if (!at_x) return NULL;
            enemy = true;
            break;
        case FACT_PIECE:
            if (!at_x) return NULL;
            *victim = p->facts[i].arg;
            break;
        case FACT_CAPTURE:
            if (!at_x) return NULL;
            captured = true;
            break;
        case FACT_LAST_FROM:
            if (!at_y) return NULL;
            break;
        case FACT_EMPTY:
            if (!at_a) return NULL;
            break;
        default: return NULL;
        }
    }
    if (!captured || !enemy) return NULL;
    /* the piece steps from the origin onto A */
    Dir *d = dir_for_vector(L, p->x[a], p->y[a], m);
    if (!d) return NULL;
    Ast *ep = atom(ATOM_EN_PASSANT, m);
    ast_add(ep, dir_ast(d, m));
    return ep;
}

/* The cells a straight path may land on from each origin, for each player (in the board's
 * frame): bits by position index. The path's every visited cell must exist; its zone checks
 * hold. */
static void path_landings(Lower *L, const Path *p, int player, bool *out) {
    for (int o = 0; o < L->npos; o++) {
        const Pos *org = &L->pos[o];
        if (org->killed) continue;
        int land = -1;
        bool ok = true;
        for (int i = 0; i < p->ncells && ok; i++) {
            int dx, dy;
            variant_orient_vector(L->orient[player], p->x[i], p->y[i], &dx, &dy);
            int x = org->x + dx, y = org->y + dy, b = org->board;
            int at = x >= 0 && y >= 0 && x < L->bw[b] && y < L->bh[b] ? L->cell_at[b][y][x] : -1;
            if (at < 0) {
                ok = false;
                break;
            }
            for (int f = 0; f < p->nfacts; f++) {
                if (p->facts[f].at != i || p->facts[f].kind != FACT_ZONE) continue;
                ZoneInfo *z = zone_info(L, p->facts[f].arg);
                ok = ok && z && z->in[player] && z->in[player][at];
            }
            if (i == p->add_at) land = at;
        }
        if (ok && land >= 0) out[land] = true;
    }
}

/* The cells a slide may land on: every cell of its line from any origin. */
static void slide_landings(Lower *L, const Dir *d, int player, bool *out) {
    int dx, dy;
    variant_orient_vector(L->orient[player], d->dx, d->dy, &dx, &dy);
    for (int o = 0; o < L->npos; o++) {
        const Pos *org = &L->pos[o];
        if (org->killed) continue;
        int x = org->x + dx, y = org->y + dy, b = org->board;
        if (x >= 0 && y >= 0 && x < L->bw[b] && y < L->bh[b] && L->cell_at[b][y][x] >= 0)
            out[L->cell_at[b][y][x]] = true;
    }
}

/* ---- moves ----------------------------------------------------------------------------------- */

/* The lowering of a piece's moves, before it is known whether its promotions can be a rule
 * of the piece (`promote in ZONE to TYPE...`). */
typedef struct MoveOut {
    const ZrfNode *src;  /* the move as written, without attributes lowered as unmoved */
    Ast *item;           /* the atom or block */
    bool promotes;       /* its promotion was taken off (the atom adds plainly) */
    bool landings_known; /* land[] holds every cell it may land on, per player */
    bool *land[MAX_PLAYERS];
    const char *ep_victim; /* an en-passant atom: the victim type (NULL: any) */
    bool is_ep;
} MoveOut;

/* A move that ends (if (in-zone? Z) (add T...) else add): the zone and the types, and the
 * move with a plain add in place of the if. NULL when it does not end so. */
static const ZrfNode *split_promotion(Lower *L, const ZrfNode *m, const char **zone, const ZrfNode **types) {
    if (m->nkids < 2) return NULL;
    const ZrfNode *last = m->kids[m->nkids - 1];
    if (!zrf_is_form(last, "if") || last->nkids != 5 || !zrf_is(last->kids[3], "else")) return NULL;
    const ZrfNode *c = last->kids[1], *then = last->kids[2], *other = last->kids[4];
    bool neg = zrf_is_form(c, "not-in-zone?");
    if ((!zrf_is_form(c, "in-zone?") && !neg) || c->nkids != 2 || !atom_text(c->kids[1])) return NULL;
    if (neg) {
        const ZrfNode *t = then;
        then = other;
        other = t;
    }
    if (!zrf_is_form(then, "add") || then->nkids < 2 || !zrf_is(other, "add")) return NULL;
    for (int i = 1; i < then->nkids; i++)
        if (!atom_text(then->kids[i]) || !piece_find(L, then->kids[i]->text)) return NULL;
    *zone = zone_vname(L, c->kids[1]->text);
    if (!*zone) return NULL;
    *types = then;
    ZrfNode *copy = zrf_new(L->r, ZRF_LIST, NULL, m->loc, m->exp);
    for (int i = 0; i < m->nkids - 1; i++) zrf_push(L->r, copy, m->kids[i]);
    zrf_push(L->r, copy, zrf_new(L->r, ZRF_ATOM, "add", other->loc, other->exp));
    return copy;
}

/* The move as a block of statements; NULL (after a warning) when a construct has no
 * counterpart. */
static Ast *move_block(Lower *L, Piece *pc, const ZrfNode *m, const char *what) {
    Prog g = {.L = L, .move = m};
    collect_events(&g, m);
    Ast *block = node(AST_MOVEBLOCK, m);
    lower_stmts(&g, m, 0, block, true);
    free((void *)g.events);
    if (g.left_out) {
        warn_left_out(L, &g, what, pc->name);
        ast_free(block);
        return NULL;
    }
    return block;
}

/* One (moves ...) item: an atom when its shape is one, else a block. */
static void lower_move(Lower *L, Piece *pc, const ZrfNode *m, MoveOut *out) {
    memset(out, 0, sizeof *out);
    m = strip_unmoved(L, m);
    out->src = m;
    const char *zone = NULL;
    const ZrfNode *types = NULL;
    const ZrfNode *plain = split_promotion(L, m, &zone, &types);
    const ZrfNode *shape = plain ? plain : m;
    Ast *a = as_slide(L, shape);
    Path path;
    bool straight = !a && path_of(L, shape, &path);
    if (straight) a = path_atom(L, &path, shape);
    if (!a && straight && !plain) {
        const char *victim = NULL;
        a = path_en_passant(L, &path, shape, &victim);
        if (a) {
            out->is_ep = true;
            out->ep_victim = victim;
        }
    }
    if (a) {
        out->item = a;
        out->promotes = plain != NULL;
        /* where it lands, for the promotion rule */
        out->landings_known = true;
        for (int p = 0; p < L->nplayers; p++) {
            out->land[p] = xcalloc((size_t)L->npos + 1, sizeof(bool));
            if (a->sub == ATOM_SLIDE)
                slide_landings(L, as_dir(L, shape->kids[0]), p, out->land[p]);
            else
                path_landings(L, &path, p, out->land[p]);
        }
        if (plain) {
            pc->promo_zone = zone;
            pc->promo_types = types;
        }
        return;
    }
    out->item = move_block(L, pc, m, "a move");
}

static bool same_types(const ZrfNode *a, const ZrfNode *b) {
    if (a->nkids != b->nkids) return false;
    for (int i = 1; i < a->nkids; i++)
        if (strcasecmp(a->kids[i]->text, b->kids[i]->text)) return false;
    return true;
}

/* Can the promotions of the piece's moves be one rule of the piece? They name the same zone
 * and types, and no other move may land in the zone. */
static bool promotion_is_rule(Lower *L, MoveOut *mv, int n) {
    const char *zone = NULL;
    const ZrfNode *types = NULL;
    for (int i = 0; i < n; i++) {
        if (!mv[i].promotes) continue;
        const char *z = NULL;
        const ZrfNode *t = NULL;
        split_promotion(L, mv[i].src, &z, &t);
        if (zone && (strcmp(zone, z) || !same_types(types, t))) return false;
        zone = z;
        types = t;
    }
    if (!zone) return false;
    ZoneInfo *zi = zone_info(L, zone);
    for (int i = 0; i < n; i++) {
        if (mv[i].promotes || !mv[i].item) continue;
        if (!mv[i].landings_known) return false;
        for (int p = 0; p < L->nplayers; p++)
            for (int c = 0; c < L->npos; c++)
                if (mv[i].land[p][c] && zi && zi->in[p] && zi->in[p][c]) return false;
    }
    return true;
}

static void lower_moves(Lower *L, Piece *pc, Ast *piece) {
    MoveOut *mv = NULL;
    int n = 0;
    for (int i = 1; i < pc->form->nkids; i++) {
        const ZrfNode *f = pc->form->kids[i];
        if (!zrf_is_form(f, "moves")) continue;
        for (int k = 1; k < f->nkids; k++) {
            const ZrfNode *m = f->kids[k];
            if (zrf_is_form(m, "move-type")) continue;
            if (m->kind != ZRF_LIST) {
                zrf_warn(L->r, m, "a move of '%s' left out: '%s' is not a move (a list of statements)", pc->name,
                         zrf_print(L->r, m));
                continue;
            }
            mv = xrealloc(mv, (size_t)(n + 1) * sizeof *mv);
            lower_move(L, pc, m, &mv[n++]);
        }
    }
    bool rule = promotion_is_rule(L, mv, n);
    if (!rule) {
        /* each promotion stays in its move's program */
        for (int i = 0; i < n; i++)
            if (mv[i].promotes) {
                ast_free(mv[i].item);
                mv[i].item = move_block(L, pc, mv[i].src, "a move");
            }
    }
    /* en passant needs the victim's double step to mark the cell it passes */
    for (int i = 0; i < n; i++) {
        if (!mv[i].is_ep) continue;
        Ast *legs = NULL;
        for (int k = 0; k < n && !legs; k++)
            if (mv[k].item && mv[k].item->kind == AST_ATOM && mv[k].item->sub == ATOM_LEGS && mv[k].item->nkids >= 2 &&
                mv[k].item->kids[0]->kind == AST_DIR && mv[k].item->kids[1]->kind == AST_DIR &&
                !strcmp(mv[k].item->kids[0]->text, mv[k].item->kids[1]->text) &&
                (mv[k].item->nkids == 2 || mv[k].item->kids[2]->kind == AST_MOD))
                legs = mv[k].item;
        bool self = !mv[i].ep_victim || !strcmp(mv[i].ep_victim, pc->vname);
        if (legs && self) {
            bool has = false;
            for (int k = 0; k < legs->nkids; k++)
                has = has || (legs->kids[k]->kind == AST_MOD && legs->kids[k]->sub == MOD_SETS_EP);
            if (!has) ast_add(legs, mod(MOD_SETS_EP, mv[i].src));
        } else {
            ast_free(mv[i].item);
            mv[i].item = move_block(L, pc, mv[i].src, "a move");
        }
    }
    for (int i = 0; i < n; i++) {
        if (mv[i].item) ast_add(piece, mv[i].item);
        for (int p = 0; p < MAX_PLAYERS; p++) free(mv[i].land[p]);
    }
    if (rule) {
        const char *zone = NULL;
        const ZrfNode *types = NULL;
        for (int i = 0; i < n && !zone; i++)
            if (mv[i].promotes) split_promotion(L, mv[i].src, &zone, &types);
        Ast *pr = node_text(AST_PROMOTE, types, zone);
        for (int k = 1; k < types->nkids; k++)
            ast_add(pr, node_text(AST_NAME, types->kids[k], piece_find(L, types->kids[k]->text)->vname));
        ast_add(piece, pr);
    }
    free(mv);
}

/* One (drops ...) item: the placement shapes the language has, `drop [to ZONE]`. */
static void lower_drop(Lower *L, Piece *pc, const ZrfNode *m, Ast *piece) {
    L->has_drops = true;
    if (!is_stmt_list(m) || m->nkids < 2 || !zrf_is(m->kids[m->nkids - 1], "add")) {
        zrf_warn(L->r, m,
                 "a drop of '%s' left out: only drops that verify an empty cell (in a zone) and add are "
                 "supported yet",
                 pc->name);
        return;
    }
    bool empty = false;
    const char *zone = NULL;
    bool not_zone = false;
    for (int i = 0; i < m->nkids - 1; i++) {
        const ZrfNode *s = m->kids[i];
        if (is_verify(s, "empty?")) {
            empty = true;
            continue;
        }
        if (zrf_is_form(s, "verify") && s->nkids == 2 &&
            (zrf_is_form(s->kids[1], "in-zone?") || zrf_is_form(s->kids[1], "not-in-zone?")) &&
            s->kids[1]->nkids == 2 && atom_text(s->kids[1]->kids[1]) && !zone) {
            zone = s->kids[1]->kids[1]->text;
            not_zone = zrf_is_form(s->kids[1], "not-in-zone?");
            continue;
        }
        zone = NULL;
        empty = false;
        break;
    }
    if (!empty) {
        zrf_warn(L->r, m, "a drop of '%s' left out: placement programs are not supported yet", pc->name);
        return;
    }
    Ast *a = atom(ATOM_DROP, m);
    if (zone) {
        const char *vz = zone_vname(L, zone);
        if (!vz) {
            zrf_warn(L->r, m, "a drop of '%s' left out: unknown zone '%s'", pc->name, zone);
            ast_free(a);
            return;
        }
        if (not_zone) {
            /* the complement, per player */
            const ZrfNode *bf = find_form(L, "board");
            const char *hname = hidden_name(L, "outside");
            for (int p = 0; p < L->nplayers; p++) {
                bool *in = xcalloc((size_t)L->npos + 1, sizeof *in);
                for (int i = 0; i < L->npos; i++) in[i] = true;
                for (int i = 1; bf && i < bf->nkids; i++) {
                    const ZrfNode *f = bf->kids[i];
                    const ZrfNode *nm = sub_form(f, "name"), *pl = sub_form(f, "players"),
                                  *ps = sub_form(f, "positions");
                    if (!zrf_is_form(f, "zone") || !nm || nm->nkids < 2 || !zrf_is(nm->kids[1], zone)) continue;
                    bool players[MAX_PLAYERS];
                    if (pl && !read_players(L, pl, players)) continue;
                    if (pl && !players[p]) continue;
                    for (int k = 1; ps && k < ps->nkids; k++) {
                        int q = atom_text(ps->kids[k]) ? pos_index(L, ps->kids[k]->text) : -1;
                        if (q >= 0) in[q] = false;
                    }
                }
                bool only[MAX_PLAYERS] = {false};
                only[p] = true;
                add_zone(L, hname, in, only, m);
                free(in);
            }
            vz = hname;
        }
        Ast *to = node_text(AST_MOD, m, vz);
        to->sub = MOD_TO;
        ast_add(a, to);
    }
    ast_add(piece, a);
}

static void lower_piece(Lower *L, Piece *pc) {
    Ast *piece = node_text(AST_PIECE, pc->form, pc->vname);
    char letter[2] = {pc->letter, 0};
    ast_add(piece, node_text(AST_LETTER, pc->form, letter));
    if (pc->royal) ast_add(piece, node_text(AST_FLAG, pc->form, "royal"));
    lower_moves(L, pc, piece);
    for (int i = 1; i < pc->form->nkids; i++) {
        const ZrfNode *f = pc->form->kids[i];
        const char *h = zrf_head(f);
        if (!h) continue;
        if (!strcasecmp(h, "drops")) {
            for (int k = 1; k < f->nkids; k++)
                if (!zrf_is_form(f->kids[k], "move-type")) lower_drop(L, pc, f->kids[k], piece);
        } else if (!strcasecmp(h, "attribute") && f->nkids == 3 && atom_text(f->kids[1]) &&
                   !(attr_find(L, f->kids[1]->text) && attr_find(L, f->kids[1]->text)->unmoved))
            zrf_warn(L->r, f, "attribute of '%s' ignored: piece attributes are not supported yet", pc->name);
    }
    ast_add(L->root, piece);
}

/* ---- the start position ---------------------------------------------------------------------- */

typedef struct Setup {
    int owner[MAX_BOARDS][MAX_BOARD_DIM][MAX_BOARD_DIM]; /* -1: empty */
    int type[MAX_BOARDS][MAX_BOARD_DIM][MAX_BOARD_DIM];
    int hand[MAX_PLAYERS][MAX_PIECE_TYPES];
} Setup;

static void put_text(char **buf, size_t *len, size_t *cap, const char *s) {
    size_t k = strlen(s);
    if (*len + k + 1 > *cap) {
        *cap = (*len + k + 1) * 2;
        *buf = xrealloc(*buf, *cap);
    }
    memcpy(*buf + *len, s, k + 1);
    *len += k;
}

static void lower_setup(Lower *L) {
    Setup *S = xmalloc(sizeof *S);
    memset(S->owner, 0xff, sizeof S->owner);
    memset(S->hand, 0, sizeof S->hand);
    const ZrfNode *bs = find_form(L, "board-setup");
    for (int i = 1; bs && i < bs->nkids; i++) {
        const ZrfNode *pf = bs->kids[i];
        const char *pn = pf->kind == ZRF_LIST && pf->nkids ? atom_text(pf->kids[0]) : NULL;
        int p = pn ? player_index(L, pn) : -1;
        if (p < 0) {
            zrf_error(L->r, pf, "a board setup names a player: (PLAYER (PIECE POSITION...)...)");
            L->failed = true;
            continue;
        }
        for (int k = 1; k < pf->nkids; k++) {
            const ZrfNode *tf = pf->kids[k];
            const char *tn = tf->kind == ZRF_LIST && tf->nkids ? atom_text(tf->kids[0]) : NULL;
            Piece *pc = tn ? piece_find(L, tn) : NULL;
            if (!pc) {
                zrf_error(L->r, tf, "unknown piece '%s' in the board setup", tn ? tn : zrf_print(L->r, tf));
                L->failed = true;
                continue;
            }
            int t = (int)(pc - L->pieces);
            for (int q = 1; q < tf->nkids; q++) {
                const ZrfNode *x = tf->kids[q];
                long count;
                if (zrf_is(x, "off") && q + 1 < tf->nkids && parse_long(tf->kids[q + 1], &count)) {
                    if (count < 0 || count > 255) {
                        zrf_error(L->r, tf->kids[q + 1], "%ld pieces off the board (limit is 255)", count);
                        L->failed = true;
                    } else
                        S->hand[p][t] += (int)count;
                    L->has_off = true;
                    q++;
                    continue;
                }
                const char *name = atom_text(x);
                int at = name ? pos_index(L, name) : -1;
                if (at < 0 || L->pos[at].killed) {
                    zrf_error(L->r, x, "unknown position '%s' in the board setup", name ? name : zrf_print(L->r, x));
                    L->failed = true;
                    continue;
                }
                const Pos *ps = &L->pos[at];
                S->owner[ps->board][ps->y][ps->x] = p;
                S->type[ps->board][ps->y][ps->x] = t;
            }
        }
    }
    /* position text: boards from the first, ranks from the top, then the hands */
    size_t len = 0, cap = 256;
    char *text = xmalloc(cap);
    text[0] = 0;
    for (int b = 0; b < L->nboards; b++) {
        if (b) put_text(&text, &len, &cap, "|");
        bool hole[MAX_BOARD_DIM][MAX_BOARD_DIM];
        for (int y = 0; y < L->bh[b]; y++)
            for (int x = 0; x < L->bw[b]; x++) hole[y][x] = true;
        for (int p = 0; p < L->npos; p++)
            if (L->pos[p].board == b && !L->pos[p].killed) hole[L->pos[p].y][L->pos[p].x] = false;
        for (int y = L->bh[b] - 1; y >= 0; y--) {
            int empty = 0;
            char tmp[24];
            for (int x = 0; x < L->bw[b]; x++) {
                if (hole[y][x]) continue;
                int o = S->owner[b][y][x];
                if (o < 0) {
                    empty++;
                    continue;
                }
                if (empty) {
                    snprintf(tmp, sizeof tmp, "%d", empty);
                    put_text(&text, &len, &cap, tmp);
                    empty = 0;
                }
                char l = L->pieces[S->type[b][y][x]].letter;
                if (o == 0)
                    snprintf(tmp, sizeof tmp, "%c", l);
                else if (o == 1)
                    snprintf(tmp, sizeof tmp, "%c", tolower((unsigned char)l));
                else
                    snprintf(tmp, sizeof tmp, ":%d%c", o + 1, tolower((unsigned char)l));
                put_text(&text, &len, &cap, tmp);
            }
            if (empty) {
                snprintf(tmp, sizeof tmp, "%d", empty);
                put_text(&text, &len, &cap, tmp);
            }
            if (y) put_text(&text, &len, &cap, "/");
        }
    }
    if (L->has_off || L->has_drops) {
        if (L->nplayers != 2) {
            diag_error(L->sink, bs ? bs->loc : L->at,
                       "pieces off the board (to drop) are supported for two players only");
            L->failed = true;
        }
        put_text(&text, &len, &cap, "[");
        for (int p = 0; p < 2 && p < L->nplayers; p++)
            for (int t = 0; t < L->npieces; t++)
                for (int n = 0; n < S->hand[p][t]; n++) {
                    char tmp[4] = {p ? (char)tolower((unsigned char)L->pieces[t].letter) : L->pieces[t].letter, 0};
                    put_text(&text, &len, &cap, tmp);
                }
        put_text(&text, &len, &cap, "]");
        ast_add(L->root, ast_add(node(AST_HANDS, bs ? bs : L->forms), node_text(AST_NAME, bs ? bs : L->forms, "none")));
    }
    char side[40];
    snprintf(side, sizeof side, " %s - - 0 1", "?");
    /* the side is the first mover's token, which the players item holds */
    const Ast *players = NULL;
    for (int i = 0; i < L->root->nkids; i++)
        if (L->root->kids[i]->kind == AST_PLAYERS) players = L->root->kids[i];
    if (players && L->first_mover < players->nkids)
        snprintf(side, sizeof side, " %s - - 0 1", players->kids[L->first_mover]->text2);
    put_text(&text, &len, &cap, side);
    ast_add(L->root, node_text(AST_SETUP, bs ? bs : L->forms, text));
    free(text);
    free(S);
}

/* ---- goals ----------------------------------------------------------------------------------- */

typedef enum GoalKind { GOAL_WIN, GOAL_LOSS, GOAL_DRAW } GoalKind;

static Ast *end_item(const ZrfNode *at, EndKind kind, GoalKind result) {
    Ast *e = node(AST_END, at);
    e->sub = kind;
    e->word = result == GOAL_WIN ? KEYWORD_WIN : result == GOAL_LOSS ? KEYWORD_LOSS : KEYWORD_DRAW;
    return e;
}

static bool all_players(const Lower *L, const bool *players) {
    for (int p = 0; p < L->nplayers; p++)
        if (!players[p]) return false;
    return true;
}

static void goal_left_out(Lower *L, const ZrfNode *c, const char *why) {
    zrf_warn(L->r, c, "goal left out: %s is not supported yet", why);
}

/* One goal for the players flagged. Conditions joined by `and`/`or` are not split yet. */
static void lower_goal(Lower *L, const ZrfNode *f, GoalKind result, const bool *players, const ZrfNode *c) {
    const char *h = c->kind == ZRF_ATOM ? c->text : zrf_head(c);
    if (!h) {
        goal_left_out(L, c, "this goal");
        return;
    }
    bool everyone = all_players(L, players);
    if (!strcasecmp(h, "or") && c->kind == ZRF_LIST) {
        /* either one: a rule for each */
        for (int i = 1; i < c->nkids; i++) lower_goal(L, f, result, players, c->kids[i]);
        return;
    }
    if (!strcasecmp(h, "stalemated")) {
        if (!everyone) {
            goal_left_out(L, c, "a stalemate goal for some players only");
            return;
        }
        ast_add(L->root, end_item(f, END_STALEMATE, result));
        return;
    }
    if (!strcasecmp(h, "repetition")) {
        Ast *e = end_item(f, END_REPETITION, result);
        e->num[0] = 3;
        ast_add(L->root, e);
        return;
    }
    if (!strcasecmp(h, "checkmated")) {
        Piece *pc =
            c->kind == ZRF_LIST && c->nkids == 2 && atom_text(c->kids[1]) ? piece_find(L, c->kids[1]->text) : NULL;
        if (!pc) {
            goal_left_out(L, c, "checkmate of other than one piece type");
            return;
        }
        if (!everyone) {
            goal_left_out(L, c, "checkmate for some players only");
            return;
        }
        if (result == GOAL_DRAW) {
            goal_left_out(L, c, "a draw by checkmate");
            return;
        }
        pc->royal = true;
        ast_add(L->root, end_item(f, END_CHECKMATE, result));
        return;
    }
    if (!strcasecmp(h, "pieces-remaining") && c->kind == ZRF_LIST && c->nkids >= 2) {
        long n;
        if (!parse_long(c->kids[1], &n) || n < 0) {
            goal_left_out(L, c, "this count of pieces");
            return;
        }
        if (!everyone) {
            goal_left_out(L, c, "pieces remaining for some players only");
            return;
        }
        if (c->nkids == 2) {
            Ast *e = end_item(f, END_PIECES, result);
            e->num[0] = n;
            ast_add(L->root, e);
            return;
        }
        Ast *e = end_item(f, END_EXTINCTION, result);
        e->num[0] = n;
        for (int k = 2; k < c->nkids; k++) {
            Piece *pc = atom_text(c->kids[k]) ? piece_find(L, c->kids[k]->text) : NULL;
            if (!pc) {
                ast_free(e);
                goal_left_out(L, c, "pieces remaining of an unknown piece");
                return;
            }
            ast_add(e, node_text(AST_NAME, c->kids[k], pc->vname));
        }
        ast_add(L->root, e);
        return;
    }
    if (!strcasecmp(h, "captured") && c->kind == ZRF_LIST && c->nkids >= 2) {
        if (!everyone) {
            goal_left_out(L, c, "a capture goal for some players only");
            return;
        }
        Ast *e = end_item(f, END_EXTINCTION, result);
        for (int k = 1; k < c->nkids; k++) {
            Piece *pc = atom_text(c->kids[k]) ? piece_find(L, c->kids[k]->text) : NULL;
            if (!pc) {
                ast_free(e);
                goal_left_out(L, c, "capture of an unknown piece");
                return;
            }
            ast_add(e, node_text(AST_NAME, c->kids[k], pc->vname));
        }
        ast_add(L->root, e);
        return;
    }
    if (!strcasecmp(h, "absolute-config") && c->kind == ZRF_LIST && c->nkids == 3 && c->kids[2]->kind == ZRF_LIST &&
        result == GOAL_WIN) {
        /* a piece of the type on one of the positions (or zones) */
        Piece *pc = atom_text(c->kids[1]) ? piece_find(L, c->kids[1]->text) : NULL;
        if (!pc) {
            goal_left_out(L, c, "a configuration of other than one piece type");
            return;
        }
        bool *in = xcalloc((size_t)L->npos + 1, sizeof *in);
        const ZrfNode *where = c->kids[2];
        for (int k = 0; k < where->nkids; k++) {
            const char *name = atom_text(where->kids[k]);
            int q = name ? pos_index(L, name) : -1;
            if (q >= 0) {
                in[q] = true;
                continue;
            }
            /* a zone: its cells for each player (taken from the board's zone forms) */
            const ZrfNode *bf = find_form(L, "board");
            bool found = false;
            for (int i = 1; name && bf && i < bf->nkids; i++) {
                const ZrfNode *z = bf->kids[i];
                const ZrfNode *nm = sub_form(z, "name"), *ps = sub_form(z, "positions");
                if (!zrf_is_form(z, "zone") || !nm || nm->nkids < 2 || !zrf_is(nm->kids[1], name)) continue;
                found = true;
                if (sub_form(z, "players")) {
                    bool zp[MAX_PLAYERS];
                    if (!read_players(L, sub_form(z, "players"), zp)) continue;
                    bool same = true;
                    for (int p = 0; p < L->nplayers; p++) same = same && (zp[p] || !players[p]);
                    if (!same) {
                        found = false;
                        break;
                    }
                }
                for (int j = 1; ps && j < ps->nkids; j++) {
                    int qq = atom_text(ps->kids[j]) ? pos_index(L, ps->kids[j]->text) : -1;
                    if (qq >= 0) in[qq] = true;
                }
            }
            if (!found) {
                free(in);
                goal_left_out(L, where->kids[k], "a configuration over a zone that differs per player");
                return;
            }
        }
        const char *zone = hidden_name(L, "goal");
        add_zone(L, zone, in, players, c);
        free(in);
        Ast *e = end_item(f, END_REACH, result);
        ast_add(e, node_text(AST_NAME, c->kids[1], pc->vname));
        ast_add(e, node_text(AST_NAME, c, zone));
        ast_add(L->root, e);
        return;
    }
    goal_left_out(L, c, h);
}

static void lower_goals(Lower *L) {
    static const struct {
        const char *head;
        GoalKind kind;
    } heads[] = {{"win-condition", GOAL_WIN}, {"loss-condition", GOAL_LOSS}, {"draw-condition", GOAL_DRAW}};
    for (int i = 0; i < L->forms->nkids; i++) {
        const ZrfNode *f = L->forms->kids[i];
        for (size_t k = 0; k < ARRAY_LEN(heads); k++) {
            if (!zrf_is_form(f, heads[k].head)) continue;
            if (f->nkids != 3 || f->kids[1]->kind != ZRF_LIST) {
                zrf_warn(L->r, f, "goal left out: a goal is (%s (PLAYER...) CONDITION)", heads[k].head);
                continue;
            }
            bool players[MAX_PLAYERS];
            if (!read_players(L, f->kids[1], players)) continue;
            lower_goal(L, f, heads[k].kind, players, f->kids[2]);
        }
        if (zrf_is_form(f, "count-condition")) {
            /* when the condition holds, the player with the most pieces wins */
            bool players[MAX_PLAYERS];
            bool stalemate = f->nkids == 3 && zrf_is(f->kids[2], "stalemated");
            if (!stalemate || !read_players(L, f->kids[1], players) || !all_players(L, players) || L->nplayers != 2) {
                goal_left_out(L, f, "a count condition other than stalemated, for two players");
                continue;
            }
            Ast *e = end_item(f, L->pass_forced ? END_BLOCKED : END_STALEMATE, L->pass_forced ? GOAL_WIN : GOAL_LOSS);
            if (!L->pass_forced) e->num[0] = 1; /* fewer pieces: the loss */
            ast_add(L->root, e);
        }
    }
}

/* ---- options and the rest -------------------------------------------------------------------- */

static void lower_options(Lower *L) {
    for (int i = 0; i < L->forms->nkids; i++) {
        const ZrfNode *f = L->forms->kids[i];
        if (!zrf_is_form(f, "option")) continue;
        if (f->nkids != 3 || f->kids[1]->kind != ZRF_STRING) {
            zrf_warn(L->r, f, "an option is (option \"NAME\" VALUE): ignored");
            continue;
        }
        const char *name = f->kids[1]->text, *value = atom_text(f->kids[2]);
        bool off = value && (!strcasecmp(value, "false") || !strcmp(value, "0"));
        if (!strcasecmp(name, "pass turn")) {
            if (off) continue;
            if (value && !strcasecmp(value, "forced")) {
                L->pass_forced = true;
                Ast *e = node(AST_END, f);
                e->sub = END_STALEMATE;
                e->word = KEYWORD_PASS;
                ast_add(L->root, e);
            } else
                ast_add(L->root, node_text(AST_FORBID, f, "pass"));
            continue;
        }
        static const char *const display[] = {"animate captures", "animate drops",   "smart moves",
                                              "show moves list",  "chess invariant", "prevent flipping",
                                              "highlight goals",  "allow flipping",  "board rotation",
                                              "animate moves",    "show captures"};
        bool known = false;
        for (size_t k = 0; k < ARRAY_LEN(display); k++) known = known || !strcasecmp(name, display[k]);
        if (known) continue;
        if (off) continue;
        zrf_warn(L->r, f, "option \"%s\" is not supported yet: ignored", name);
    }
}

static void check_forms(Lower *L) {
    static const char *const known[] = {
        "title",          "description",     "history",         "strategy",   "players",       "turn-order",
        "board",          "board-setup",     "piece",           "option",     "win-condition", "loss-condition",
        "draw-condition", "count-condition", "move-priorities", "default",    "music",         "opening-sound",
        "win-sound",      "loss-sound",      "draw-sound",      "move-sound", "release-sound", "capture-sound",
        "drop-sound",     "change-sound",    "click-sound",     "credits",    "engine",        "version",
    };
    for (int i = 0; i < L->forms->nkids; i++) {
        const ZrfNode *f = L->forms->kids[i];
        const char *h = zrf_head(f);
        if (!h) {
            zrf_warn(L->r, f, "'%s' in the game is ignored", zrf_print(L->r, f));
            continue;
        }
        bool ok = false;
        for (size_t k = 0; k < ARRAY_LEN(known) && !ok; k++) ok = !strcasecmp(h, known[k]);
        if (!ok) zrf_warn(L->r, f->kids[0], "unknown form '%s' in the game ignored", h);
    }
    const ZrfNode *mp = find_form(L, "move-priorities");
    if (mp) zrf_warn(L->r, mp, "move priorities are not supported yet: every move type is allowed");
}

/* ---- the whole game -------------------------------------------------------------------------- */

static Ast *lower_game(ZrfReader *r, int entry, DiagSink *sink) {
    Lower *L = xcalloc(1, sizeof *L);
    L->r = r;
    L->sink = sink;
    L->forms = zrf_entry_forms(r, entry);
    L->at = r->entries[entry].form->loc;
    L->root = ast_new(AST_FILE, L->at);
    Ast *ver = ast_new(AST_VERSION, L->at);
    ver->num[0] = 1;
    ast_add(L->root, ver);
    ast_add(L->root, ast_new_text(AST_GAME, L->at, r->entries[entry].title));
    check_forms(L);
    lower_players(L);
    if (!L->failed) lower_turn_order(L);
    if (!L->failed) lower_board(L);
    if (!L->failed) lower_symmetry(L);
    if (!L->failed) lower_zones(L);
    if (!L->failed) declare_pieces(L);
    if (!L->failed) declare_attrs(L);
    if (!L->failed) lower_options(L);
    if (!L->failed) lower_goals(L); /* first: it marks the royal pieces */
    for (int i = 0; !L->failed && i < L->npieces; i++) lower_piece(L, &L->pieces[i]);
    if (!L->failed) lower_setup(L);
    Ast *root = L->root;
    if (L->failed) {
        ast_free(root);
        root = NULL;
    }
    for (int i = 0; i < L->nzones; i++)
        for (int p = 0; p < MAX_PLAYERS; p++) free(L->zones[i].in[p]);
    free(L->pos);
    free(L);
    return root;
}

/* ---- the front end's entry points ------------------------------------------------------------ */

struct ZrfKeep {
    ZrfReader r;
};

bool zrf_detect(const Source *src) {
    size_t n = strlen(src->path);
    if (n >= 4 && !strcasecmp(src->path + n - 4, ".zrf")) return true;
    const char *p = src->text;
    for (;;) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (*p != ';') break;
        while (*p && *p != '\n') p++;
    }
    return *p == '(';
}

/* The entry a --variant value names: a number of the listing, or a title. -1 when none. */
static int pick_entry(ZrfReader *r, const char *variant, DiagSink *sink, const Source *src) {
    int listed = 0;
    if (!variant) {
        for (int i = 0; i < r->nentries; i++)
            if (r->entries[i].is_default && !r->entries[i].separator) return i;
        for (int i = 0; i < r->nentries; i++)
            if (!r->entries[i].separator) return i;
        return -1;
    }
    char *end;
    long k = strtol(variant, &end, 10);
    for (int i = 0; i < r->nentries; i++) {
        if (r->entries[i].separator) continue;
        listed++;
        if ((*variant && !*end && k == listed) || !strcasecmp(variant, r->entries[i].title)) return i;
    }
    diag_error(sink, (SrcLoc){.file = src->path}, "no game or variant '%s' in this file (%d listed by 'varia check')",
               variant, listed);
    return -1;
}

Ast *zrf_load(const Source *src, const char *variant, DiagSink *sink, ZrfKeep **keep) {
    ZrfKeep *k = xcalloc(1, sizeof *k);
    *keep = k;
    int before = sink->errors;
    zrf_read(&k->r, src, sink);
    if (k->r.engine) {
        diag_error(sink, k->r.engine_at,
                   "this game needs an Axiom engine (a program of its own beside the rule file), which Varia cannot "
                   "run");
        return NULL;
    }
    if (sink->errors > before) return NULL;
    int e = pick_entry(&k->r, variant, sink, src);
    if (e < 0) return NULL;
    Ast *root = lower_game(&k->r, e, sink);
    /* the choice is an option of the game, so saved games and the console keep it: its one
     * value, the entry's number in the listing */
    int listed = 0, number = 0;
    for (int i = 0; i < k->r.nentries; i++)
        if (!k->r.entries[i].separator) {
            listed++;
            if (i == e) number = listed;
        }
    if (root && listed > 1) {
        char value[16];
        snprintf(value, sizeof value, "%d", number);
        Ast *opt = ast_new_text(AST_OPTION, k->r.entries[e].form->loc, ZRF_VARIANT_SETTING);
        opt->text2 = xstrdup(value);
        ast_add(opt, ast_new_text(AST_NAME, opt->loc, value));
        ast_add(root, opt);
    }
    if (sink->errors > before) {
        ast_free(root);
        return NULL;
    }
    return root;
}

void zrf_keep_free(ZrfKeep *keep) {
    if (!keep) return;
    zrf_reader_free(&keep->r);
    free(keep);
}

bool zrf_list_variants(const Source *src, DiagSink *sink, FILE *out) {
    ZrfReader r;
    int before = sink->errors;
    zrf_read(&r, src, sink);
    bool ok = sink->errors == before;
    int listed = 0, def = pick_entry(&r, NULL, sink, src);
    for (int i = 0; ok && i < r.nentries; i++) {
        const ZrfEntry *e = &r.entries[i];
        if (e->separator) continue;
        listed++;
        fprintf(out, "  %2d%s %s", listed, i == def ? "*" : " ", e->title);
        if (e->is_variant) fprintf(out, " (variant of %s)", r.entries[e->game].title);
        fputc('\n', out);
    }
    zrf_reader_free(&r);
    return ok;
}
