/* zrf_lower.c - a Zillions game, read by zrf_read.c, lowered into the rule language's syntax
 * tree: players and turns, grid boards and zones, directions and their per-player meaning,
 * pieces (their moves: zrf_moves.c), the start position and the goals; and the front end's
 * entry points. What has no counterpart yet is named in a warning (the move or goal is left
 * out) or an error. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "zrf.h"
#include "zrf_lower.h"

/* ---- small helpers --------------------------------------------------------------------------- */

void zrf_set_text2(Ast *a, const char *text2) {
    free(a->text2);
    a->text2 = text2 ? xstrdup(text2) : NULL;
}

/* A name of the rule language: letters, digits, '_' and inner '-', at most MAX_NAME
 * characters, unique among the names of its table. */
const char *zrf_names_find(const Names *t, const char *zrf) {
    for (int i = 0; i < t->n; i++)
        if (!strcasecmp(t->zrf[i], zrf)) return t->varia[i];
    return NULL;
}

static bool names_taken(const Names *t, const char *v) {
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->varia[i], v)) return true;
    return false;
}

const char *zrf_names_add(Lower *L, Names *t, const char *zrf, const ZrfNode *at) {
    const char *had = zrf_names_find(t, zrf);
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

const ZrfNode *zrf_find_form(const Lower *L, const char *head) {
    const ZrfNode *f = NULL;
    find_forms(L, head, &f, 1);
    return f;
}

static bool parse_long(const ZrfNode *n, long *out) {
    const char *t = zrf_atom_text(n);
    if (!t || !*t) return false;
    char *end;
    long v = strtol(t, &end, 10);
    if (*end) return false;
    *out = v;
    return true;
}

/* ---- players and turns ----------------------------------------------------------------------- */

int zrf_player_index(const Lower *L, const char *zrf) {
    for (int i = 0; i < L->nplayers; i++)
        if (!strcasecmp(L->player_zrf[i], zrf)) return i;
    return -1;
}

static void lower_players(Lower *L) {
    const ZrfNode *f = zrf_find_form(L, "players");
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
    Ast *players = zrf_node(AST_PLAYERS, f);
    bool used[128] = {false};
    for (int i = 1; i < f->nkids; i++) {
        const char *name = zrf_atom_text(f->kids[i]);
        if (!name || f->kids[i]->kind != ZRF_ATOM) {
            zrf_error(L->r, f->kids[i], "a player is a name");
            L->failed = true;
            continue;
        }
        if (zrf_player_index(L, name) >= 0) {
            zrf_error(L->r, f->kids[i], "player '%s' named twice", name);
            continue;
        }
        int p = L->nplayers++;
        L->player_zrf[p] = name;
        snprintf(L->player_name[p], sizeof L->player_name[p], "%s",
                 zrf_names_add(L, &L->player_names, name, f->kids[i]));
        /* the side-to-move token: a letter of the name not taken, else a digit */
        char token[2] = {0, 0};
        for (const char *c = name; *c && !token[0]; c++) {
            char l = (char)tolower((unsigned char)*c);
            if (isalpha((unsigned char)l) && !used[(int)l]) token[0] = l;
        }
        for (char d = '1'; !token[0] && d <= '9'; d++)
            if (!used[(int)d]) token[0] = d;
        used[(int)token[0]] = true;
        Ast *pl = zrf_node_text(AST_PLAYER, f->kids[i], L->player_name[p]);
        zrf_set_text2(pl, token);
        ast_add(players, pl);
    }
    ast_add(L->root, players);
}

/* The player a turn names ("White" or "(White move-type)"); -1 after an error, -2 for a
 * passing turn (left out). */
static int turn_player(Lower *L, const ZrfNode *t) {
    const char *name = NULL;
    if (t->kind == ZRF_ATOM)
        name = t->text;
    else if (t->kind == ZRF_LIST && t->nkids >= 1 && t->kids[0]->kind == ZRF_ATOM) {
        name = t->kids[0]->text;
        zrf_warn(L->r, t, "a turn limited to some move types is played here with every move type");
    }
    if (name && !strcasecmp(name, "pass")) {
        zrf_warn(L->r, t, "a passing turn in the turn order is left out");
        return -2;
    }
    int p = name ? zrf_player_index(L, name) : -1;
    if (p < 0) zrf_error(L->r, t, "unknown player '%s' in the turn order", name ? name : zrf_print(L->r, t));
    return p;
}

/* (turn-order T... [repeat T...]): the turns after `repeat` (all when there is none) are the
 * turn order; those before it are played once first, as set-up steps (`prelude`) of every
 * move, one step per run of one player's turns. */
static void lower_turn_order(Lower *L) {
    const ZrfNode *f = zrf_find_form(L, "turn-order");
    if (!f) return;
    Ast *order = zrf_node(AST_TURN_ORDER, f);
    int first_repeat = 1;
    for (int i = 1; i < f->nkids; i++)
        if (zrf_is(f->kids[i], "repeat")) first_repeat = i + 1;
    Ast *step = NULL;
    int step_player = -1;
    for (int i = 1; i < first_repeat - 1; i++) {
        int p = turn_player(L, f->kids[i]);
        if (p < 0) continue;
        if (step && p == step_player && step->num[0] < 100) {
            step->num[0]++;
            continue;
        }
        if (L->nprelude >= MAX_PRELUDE) {
            zrf_error(L->r, f->kids[i], "too many turns before 'repeat' (at most %d runs of one player's turns)",
                      MAX_PRELUDE);
            break;
        }
        step = zrf_node_text(AST_PRELUDE, f->kids[i], L->player_name[p]);
        zrf_set_text2(step, "normal");
        step->num[0] = 1;
        step_player = p;
        L->nprelude++;
        ast_add(L->root, step);
    }
    bool any = false;
    for (int i = first_repeat; i < f->nkids; i++) {
        int p = turn_player(L, f->kids[i]);
        if (p < 0) continue;
        if (!any) L->first_mover = p;
        any = true;
        ast_add(order, zrf_node_text(AST_NAME, f->kids[i], L->player_name[p]));
    }
    if (order->nkids > 64) {
        zrf_error(L->r, f, "turn order too long (limit is 64)");
        L->failed = true;
    }
    ast_add(L->root, order);
}

/* ---- boards ---------------------------------------------------------------------------------- */

/* A position by name: as written, else ignoring case (two positions may differ by case only). */
int zrf_pos_index(const Lower *L, const char *name) {
    for (int i = 0; i < L->npos; i++)
        if (!strcmp(L->pos[i].name, name)) return i;
    for (int i = 0; i < L->npos; i++)
        if (!strcasecmp(L->pos[i].name, name)) return i;
    return -1;
}

/* The Varia name of a position (its board qualifier when there are several). */
Ast *zrf_cell_name(const Lower *L, const Pos *p, const ZrfNode *at) {
    char cell[16];
    if (p->x < 26)
        snprintf(cell, sizeof cell, "%c%d", 'a' + p->x, p->y + 1);
    else
        snprintf(cell, sizeof cell, "%c%c%d", 'a' + p->x / 26 - 1, 'a' + p->x % 26, p->y + 1);
    Ast *n = zrf_node_text(AST_NAME, at, cell);
    if (L->nboards > 1) {
        char b[16];
        snprintf(b, sizeof b, "b%d", p->board + 1);
        zrf_set_text2(n, b);
    }
    return n;
}

Dir *zrf_dir_find(Lower *L, const char *name) {
    for (int i = 0; i < L->ndirs; i++)
        if (!strcasecmp(L->dirs[i].name, name)) return &L->dirs[i];
    return NULL;
}

static Dir *dir_by_vector(Lower *L, int dx, int dy) {
    for (int i = 0; i < L->ndirs; i++)
        if (!L->dirs[i].nclass && L->dirs[i].dx == dx && L->dirs[i].dy == dy) return &L->dirs[L->dirs[i].same];
    return NULL;
}

Dir *zrf_dir_add_split(Lower *L, const char *name, const ZrfNode *at) {
    if (L->ndirs >= ZRF_MAX_DIRS) {
        zrf_error(L->r, at, "too many directions (limit is %d)", ZRF_MAX_DIRS);
        return NULL;
    }
    Dir *d = &L->dirs[L->ndirs];
    memset(d, 0, sizeof *d);
    d->name = name;
    d->dx = d->dy = 2000; /* (no vector) */
    d->same = L->ndirs++;
    snprintf(d->vname, sizeof d->vname, "%s", "split");
    return d;
}

/* The language's own directions: a name of theirs is never declared again. */
static const struct {
    const char *name;
    int dx, dy;
} builtin_dirs[] = {{"n", 0, 1},   {"s", 0, -1},   {"e", 1, 0},    {"w", -1, 0},   {"ne", 1, 1},     {"nw", -1, 1},
                    {"se", 1, -1}, {"sw", -1, -1}, {"orth", 0, 0}, {"diag", 0, 0}, {"compass", 0, 0}};

static int builtin_dir(const char *name) {
    for (size_t i = 0; i < ARRAY_LEN(builtin_dirs); i++)
        if (!strcmp(builtin_dirs[i].name, name)) return (int)i;
    return -1;
}

/* A Varia name for a direction or link named name, unique among tmp and not a built-in's. */
static const char *dir_vname(Lower *L, Names *tmp, const char *name, const ZrfNode *at) {
    const char *vname = zrf_names_add(L, tmp, name, at);
    if (builtin_dir(vname) < 0) return vname;
    char other[MAX_NAME + 1];
    snprintf(other, sizeof other, "%s0", vname);
    return zrf_names_add(L, tmp, zrf_strdup(L->r, other), at);
}

Dir *zrf_dir_add(Lower *L, const char *name, int dx, int dy, const ZrfNode *at) {
    if (L->ndirs >= ZRF_MAX_DIRS) {
        zrf_error(L->r, at, "too many directions (limit is %d)", ZRF_MAX_DIRS);
        L->failed = true;
        return NULL;
    }
    Dir *same = dir_by_vector(L, dx, dy);
    Dir *d = &L->dirs[L->ndirs];
    memset(d, 0, sizeof *d);
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
        /* (a name of the language's own direction of this vector is that direction) */
        Names probe = tmp; /* (the table is made anew for each direction) */
        int b = builtin_dir(zrf_names_add(L, &probe, name, at));
        if (b >= 0 && builtin_dirs[b].dx == dx && builtin_dirs[b].dy == dy && (dx || dy)) {
            snprintf(d->vname, sizeof d->vname, "%s", builtin_dirs[b].name);
            return d;
        }
        const char *vname = dir_vname(L, &tmp, name, at);
        memmove(d->vname, vname, strlen(vname) + 1);
        Ast *a = zrf_node_text(AST_DIRECTION, at, d->vname);
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
    memset(d, 0, sizeof *d);
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
    const char *vname = dir_vname(L, &tmp, name, at);
    memmove(d->vname, vname, strlen(vname) + 1);
    Ast *a = zrf_node_text(AST_LINK, at, d->vname);
    char b[16];
    snprintf(b, sizeof b, "b%d", from + 1);
    ast_add(a, zrf_node_text(AST_NAME, at, b));
    snprintf(b, sizeof b, "b%d", to + 1);
    ast_add(a, zrf_node_text(AST_NAME, at, b));
    ast_add(L->root, a);
    return d;
}

/* A hidden direction for a vector the file names no direction for (an opposite). */
Dir *zrf_dir_for_vector(Lower *L, int dx, int dy, const ZrfNode *at) {
    Dir *d = dir_by_vector(L, dx, dy);
    if (d) return d;
    /* (named by its vector: step_1_m2 is (1,-2)) */
    char buf[32];
    snprintf(buf, sizeof buf, "step_%s%d_%s%d", dx < 0 ? "m" : "", abs(dx), dy < 0 ? "m" : "", abs(dy));
    return zrf_dir_add(L, zrf_strdup(L->r, buf), dx, dy, at);
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
    const ZrfNode *dims = zrf_sub_form(g, "dimensions");
    const ZrfNode *dirs = zrf_sub_form(g, "directions");
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
                if (zrf_pos_index(L, name) >= 0 && !strcmp(L->pos[zrf_pos_index(L, name)].name, name)) {
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
        Dir *had = zrf_dir_find(L, d->kids[0]->text);
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
        zrf_dir_add(L, d->kids[0]->text, (int)dx, (int)dy, d);
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
        const char *name = f->nkids >= 2 ? zrf_atom_text(f->kids[1]) : NULL;
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
        if (zrf_dir_find(L, name)) {
            /* (a grid's steps and more links: a board of links) */
            L->links_failed = true;
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
                int a = pr->kind == ZRF_LIST && pr->nkids == 2 && zrf_atom_text(pr->kids[0])
                    ? zrf_pos_index(L, pr->kids[0]->text)
                    : -1;
                int b = a >= 0 && zrf_atom_text(pr->kids[1]) ? zrf_pos_index(L, pr->kids[1]->text) : -1;
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
            zrf_dir_add(L, name, dx, dy, f);
            continue;
        }
        if (npairs && link) {
            Dir *d = dir_add_link(L, name, from_b, to_b, f);
            if (d) continue;
        }
        L->links_failed = true; /* (a board of links) */
    }
}

/* Is the board one the grids of the language cannot say: positions, holding cells, unlinks,
 * more grids than boards? (Links that are no grid's steps are found as the grids are laid.) */
static bool needs_graph(const ZrfNode *bf) {
    int grids = 0;
    for (int i = 1; i < bf->nkids; i++) {
        const char *h = zrf_head(bf->kids[i]);
        if (h && (!strcasecmp(h, "positions") || !strcasecmp(h, "dummy") || !strcasecmp(h, "unlink"))) return true;
        grids += h && !strcasecmp(h, "grid");
    }
    return grids > MAX_BOARDS;
}

static void grid_board(Lower *L, const ZrfNode *bf);

/* Is NAME a direction the board names (in a grid's directions or as links)? */
static bool board_names_dir(const ZrfNode *bf, const char *name) {
    for (int i = 1; i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (zrf_is_form(f, "links") && f->nkids >= 2 && zrf_is(f->kids[1], name)) return true;
        const ZrfNode *ds = zrf_is_form(f, "grid") ? zrf_sub_form(f, "directions") : NULL;
        for (int k = 1; ds && k < ds->nkids; k++)
            if (ds->kids[k]->kind == ZRF_LIST && ds->kids[k]->nkids && zrf_is(ds->kids[k]->kids[0], name)) return true;
    }
    return false;
}

/* A symmetry of a player the game does not have, or of a direction the board does not name,
 * says nothing: it is ignored (with a warning here, once; the lowering skips it). */
static void check_symmetries(Lower *L, const ZrfNode *bf) {
    for (int i = 1; i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "symmetry")) continue;
        const char *pname = f->nkids >= 2 ? zrf_atom_text(f->kids[1]) : NULL;
        if (pname && zrf_player_index(L, pname) < 0) {
            zrf_warn(L->r, f, "symmetry of an unknown player '%s' is ignored", pname);
            continue;
        }
        for (int k = 2; k < f->nkids; k++) {
            const ZrfNode *m = f->kids[k];
            if (m->kind != ZRF_LIST || m->nkids != 2) continue;
            for (int j = 0; j < 2; j++) {
                const char *d = zrf_atom_text(m->kids[j]);
                if (d && !board_names_dir(bf, d)) {
                    zrf_warn(L->r, m, "symmetry of an unknown direction '%s' is ignored", d);
                    break;
                }
            }
        }
    }
}

/* Whether a symmetry's pair names two directions, one the board does not have (ignored). */
bool zrf_symmetry_pair_unknown(const ZrfNode *bf, const ZrfNode *m) {
    if (m->kind != ZRF_LIST || m->nkids != 2 || !zrf_atom_text(m->kids[0]) || !zrf_atom_text(m->kids[1])) return false;
    return !board_names_dir(bf, m->kids[0]->text) || !board_names_dir(bf, m->kids[1]->text);
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
    check_symmetries(L, bf);
    L->pos = xcalloc(ZRF_MAX_POSITIONS, sizeof *L->pos);
    if (!needs_graph(bf)) {
        /* grids first; links that are no grid's steps make it a board of links after all */
        int kids = L->root->nkids;
        grid_board(L, bf);
        if (!L->links_failed) return;
        for (int i = kids; i < L->root->nkids; i++) ast_free(L->root->kids[i]);
        L->root->nkids = kids;
        L->npos = L->ndirs = L->nboards = 0;
        L->failed = false;
    }
    if (!zrf_lower_graph_board(L, bf)) L->failed = true;
}

static void grid_board(Lower *L, const ZrfNode *bf) {
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
        }
        /* (links: after the grids, see lower_links) */
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
            const char *name = zrf_atom_text(f->kids[k]);
            int p = name ? zrf_pos_index(L, name) : -1;
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
        Ast *board = zrf_node(AST_BOARD, bf);
        if (L->nboards > 1) {
            char name[16];
            snprintf(name, sizeof name, "b%d", b + 1);
            board->text = xstrdup(name);
        }
        board->num[0] = L->bw[b];
        board->num[1] = L->bh[b];
        Ast *holes = zrf_node(AST_HOLES, bf);
        bool taken[MAX_BOARD_DIM][MAX_BOARD_DIM] = {{false}};
        for (int p = 0; p < L->npos; p++)
            if (L->pos[p].board == b && !L->pos[p].killed) taken[L->pos[p].y][L->pos[p].x] = true;
        for (int y = 0; y < L->bh[b]; y++)
            for (int x = 0; x < L->bw[b]; x++)
                if (!taken[y][x]) {
                    Pos tmp = {NULL, b, x, y, false};
                    Ast *n = zrf_cell_name(L, &tmp, bf);
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

/* Flags the directions n names anywhere (a piece's moves and drops). */
static void mark_used_dirs(Lower *L, const ZrfNode *n, bool *used) {
    if (n->kind == ZRF_ATOM) {
        Dir *d = zrf_dir_find(L, n->text);
        if (d) used[d - L->dirs] = true;
        return;
    }
    for (int i = 0; n->kind == ZRF_LIST && i < n->nkids; i++) mark_used_dirs(L, n->kids[i], used);
}

/* (symmetry PLAYER (a b) ...): player PLAYER's direction a is b. Lowered to the orientation
 * that turns the vector of every direction the pieces step along into its image's. */
static void lower_symmetry(Lower *L) {
    const ZrfNode *bf = zrf_find_form(L, "board");
    for (int i = 1; bf && i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "symmetry")) continue;
        const char *pname = f->nkids >= 2 ? zrf_atom_text(f->kids[1]) : NULL;
        int p = pname ? zrf_player_index(L, pname) : -1;
        if (!pname) {
            zrf_error(L->r, f, "a symmetry names a player: (symmetry PLAYER (a b)...)");
            L->failed = true;
            continue;
        }
        if (p < 0) continue; /* (said in check_symmetries) */
        int image[ZRF_MAX_DIRS];
        for (int d = 0; d < L->ndirs; d++) image[d] = d;
        bool ok = true;
        for (int k = 2; k < f->nkids; k++) {
            const ZrfNode *m = f->kids[k];
            if (zrf_symmetry_pair_unknown(bf, m)) continue;
            Dir *a = m->kind == ZRF_LIST && m->nkids == 2
                ? zrf_dir_find(L, zrf_atom_text(m->kids[0]) ? m->kids[0]->text : "")
                : NULL;
            Dir *b = a ? zrf_dir_find(L, zrf_atom_text(m->kids[1]) ? m->kids[1]->text : "") : NULL;
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
        bool used[ZRF_MAX_DIRS] = {false};
        for (int k = 0; k < L->forms->nkids; k++)
            if (zrf_is_form(L->forms->kids[k], "piece")) mark_used_dirs(L, L->forms->kids[k], used);
        int found = -1;
        for (int o = 0; o < ORIENT__COUNT && found < 0; o++) {
            bool fits = true;
            for (int d = 0; d < L->ndirs && fits; d++) {
                if (!used[d]) continue; /* (a direction no piece steps along turns as it may) */
                if (L->dirs[d].dx >= 1000) {
                    fits = image[d] == d; /* (a link between boards turns with no board) */
                    continue;
                }
                int ox, oy;
                variant_orient_vector((Orientation)o, L->dirs[d].dx, L->dirs[d].dy, &ox, &oy);
                fits = ox == L->dirs[image[d]].dx && oy == L->dirs[image[d]].dy;
            }
            if (fits) found = o;
        }
        static const char *const names[ORIENT__COUNT] = {"identity", "flip",   "mirror",    "rot90",
                                                         "rot180",   "rot270", "transpose", "antitranspose"};
        if (found < 0) {
            /* (no orientation says it: the board is laid again as one of links, where each
             * player's zones say where each step goes) */
            L->symmetry_failed = true;
            return;
        }
        L->orient[p] = (Orientation)found;
        if (found == ORIENT_IDENTITY) continue;
        Ast *o = zrf_node_text(AST_ORIENTATION, f, L->player_name[p]);
        zrf_set_text2(o, names[found]);
        ast_add(L->root, o);
    }
}

/* A zone made for the lowering (a goal's positions, a complement). */
const char *zrf_hidden_name(Lower *L, const char *what) {
    char buf[MAX_NAME + 1];
    snprintf(buf, sizeof buf, "%s-%d", what, ++L->hidden);
    return zrf_names_add(L, &L->zone_names, zrf_strdup(L->r, buf), NULL);
}

/* Adds `zone NAME for PLAYER = cells` for each player whose flag is set. */
ZoneInfo *zrf_zone_info(Lower *L, const char *vname) {
    for (int i = 0; i < L->nzones; i++)
        if (!strcmp(L->zones[i].vname, vname)) return &L->zones[i];
    if (L->nzones >= (int)ARRAY_LEN(L->zones)) return NULL;
    ZoneInfo *z = &L->zones[L->nzones++];
    memset(z, 0, sizeof *z);
    z->vname = vname;
    return z;
}

void zrf_add_zone(Lower *L, const char *vname, const bool *in_pos, const bool *players, const ZrfNode *at) {
    ZoneInfo *zi = zrf_zone_info(L, vname);
    for (int p = 0; p < L->nplayers; p++) {
        if (!players[p]) continue;
        if (zi) {
            if (!zi->in[p]) zi->in[p] = xcalloc((size_t)L->npos + 1, sizeof(bool));
            for (int i = 0; i < L->npos; i++) zi->in[p][i] = zi->in[p][i] || in_pos[i];
        }
        Ast *z = zrf_node_text(AST_ZONE, at, vname);
        z->sub = ZONE_FOR;
        zrf_set_text2(z, L->player_name[p]);
        for (int i = 0; i < L->npos; i++)
            if (in_pos[i] && !L->pos[i].killed) ast_add(z, zrf_cell_name(L, &L->pos[i], at));
        ast_add(L->root, z);
    }
}

bool zrf_read_players(Lower *L, const ZrfNode *list, bool *players) {
    memset(players, 0, MAX_PLAYERS * sizeof *players);
    if (!list || list->kind != ZRF_LIST) return false;
    for (int k = list == NULL ? 0 : (zrf_is(list->kids[0], "players") ? 1 : 0); k < list->nkids; k++) {
        const char *n = zrf_atom_text(list->kids[k]);
        int p = n ? zrf_player_index(L, n) : -1;
        if (p < 0) {
            zrf_error(L->r, list->kids[k], "unknown player '%s'", n ? n : zrf_print(L->r, list->kids[k]));
            return false;
        }
        players[p] = true;
    }
    return true;
}

static void lower_zones(Lower *L) {
    const ZrfNode *bf = zrf_find_form(L, "board");
    for (int i = 1; bf && i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "zone")) continue;
        const ZrfNode *name = zrf_sub_form(f, "name"), *pl = zrf_sub_form(f, "players"),
                      *ps = zrf_sub_form(f, "positions");
        if (!name || name->nkids < 2 || !zrf_atom_text(name->kids[1])) {
            zrf_error(L->r, f, "a zone needs (name ...)");
            continue;
        }
        bool players[MAX_PLAYERS];
        for (int p = 0; p < MAX_PLAYERS; p++) players[p] = !pl && p < L->nplayers;
        for (int k = 1; pl && k < pl->nkids; k++) {
            /* (a zone of a player the game does not have is no one's) */
            const char *n = zrf_atom_text(pl->kids[k]);
            int p = n ? zrf_player_index(L, n) : -1;
            if (p >= 0)
                players[p] = true;
            else
                zrf_warn(L->r, pl->kids[k], "zone of an unknown player '%s' is ignored",
                         n ? n : zrf_print(L->r, pl->kids[k]));
        }
        bool *in = xcalloc((size_t)L->npos + 1, sizeof *in);
        for (int k = 1; ps && k < ps->nkids; k++) {
            const char *pn = zrf_atom_text(ps->kids[k]);
            int p = pn ? zrf_pos_index(L, pn) : -1;
            if (p < 0)
                zrf_error(L->r, ps->kids[k], "unknown position '%s'", pn ? pn : "?");
            else
                in[p] = true;
        }
        const char *vname = zrf_names_add(L, &L->zone_names, name->kids[1]->text, name->kids[1]);
        zrf_add_zone(L, vname, in, players, f);
        free(in);
    }
}

/* ---- pieces ---------------------------------------------------------------------------------- */

Piece *zrf_piece_find(Lower *L, const char *name) {
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
        const ZrfNode *name = zrf_sub_form(f, "name");
        const char *n = name && name->nkids >= 2 ? zrf_atom_text(name->kids[1]) : NULL;
        if (!n) {
            zrf_error(L->r, f, "a piece needs (name ...)");
            L->failed = true;
            continue;
        }
        if (zrf_piece_find(L, n)) {
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
        snprintf(p->vname, sizeof p->vname, "%s", zrf_names_add(L, &L->piece_names, n, name));
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

/* ---- the start position ---------------------------------------------------------------------- */

typedef struct Setup {
    /* (rows past a board's grid: its holding cells) */
    int owner[MAX_BOARDS][MAX_BOARD_DIM + MAX_HOLDING_ROWS][MAX_BOARD_DIM]; /* -1: empty */
    int type[MAX_BOARDS][MAX_BOARD_DIM + MAX_HOLDING_ROWS][MAX_BOARD_DIM];
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

/* The piece on board b's cell (x, y) in position text: its letter, in the case of its owner. */
static void put_piece(const Lower *L, const Setup *S, int b, int y, int x, char **text, size_t *len, size_t *cap) {
    char tmp[24];
    int o = S->owner[b][y][x];
    char l = L->pieces[S->type[b][y][x]].letter;
    if (o == 0)
        snprintf(tmp, sizeof tmp, "%c", l);
    else if (o == 1)
        snprintf(tmp, sizeof tmp, "%c", tolower((unsigned char)l));
    else
        snprintf(tmp, sizeof tmp, ":%d%c", o + 1, tolower((unsigned char)l));
    put_text(text, len, cap, tmp);
}

/* A run of *n empty cells in position text; *n is reset. */
static void put_count(char **text, size_t *len, size_t *cap, int *n) {
    char tmp[16];
    snprintf(tmp, sizeof tmp, "%d", *n);
    put_text(text, len, cap, tmp);
    *n = 0;
}

static void lower_setup(Lower *L) {
    Setup *S = xmalloc(sizeof *S);
    memset(S->owner, 0xff, sizeof S->owner);
    memset(S->hand, 0, sizeof S->hand);
    const ZrfNode *bs = zrf_find_form(L, "board-setup");
    for (int i = 1; bs && i < bs->nkids; i++) {
        const ZrfNode *pf = bs->kids[i];
        const char *pn = pf->kind == ZRF_LIST && pf->nkids ? zrf_atom_text(pf->kids[0]) : NULL;
        int p = pn ? zrf_player_index(L, pn) : -1;
        if (!pn) {
            zrf_error(L->r, pf, "a board setup names a player: (PLAYER (PIECE POSITION...)...)");
            L->failed = true;
            continue;
        }
        if (p < 0) {
            zrf_warn(L->r, pf, "board setup of an unknown player '%s' is ignored", pn);
            continue;
        }
        for (int k = 1; k < pf->nkids; k++) {
            const ZrfNode *tf = pf->kids[k];
            const char *tn = tf->kind == ZRF_LIST && tf->nkids ? zrf_atom_text(tf->kids[0]) : NULL;
            Piece *pc = tn ? zrf_piece_find(L, tn) : NULL;
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
                const char *name = zrf_atom_text(x);
                int at = name ? zrf_pos_index(L, name) : -1;
                if (!name) {
                    zrf_error(L->r, x, "a board setup names positions: (PIECE POSITION...)");
                    L->failed = true;
                    continue;
                }
                if (at < 0 || L->pos[at].killed) {
                    /* (a piece set where the board has no position is not on the board) */
                    zrf_warn(L->r, x, "%s position '%s' in the board setup: the piece is left out",
                             at < 0 ? "unknown" : "removed", name);
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
    int empty_run = 0;
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
                put_piece(L, S, b, y, x, &text, &len, &cap);
            }
            if (empty) {
                snprintf(tmp, sizeof tmp, "%d", empty);
                put_text(&text, &len, &cap, tmp);
            }
            if (y) put_text(&text, &len, &cap, "/");
        }
        /* the holding cells (dummies no link touches), in rows of the board's width past its
         * grid, in position order: `{ROW/ROW}` */
        int row = -1;
        for (int p = 0; p < L->npos; p++) {
            const Pos *ps = &L->pos[p];
            if (ps->board != b || ps->killed || ps->y < L->bh[b]) continue;
            if (ps->y != row) {
                if (empty_run) put_count(&text, &len, &cap, &empty_run);
                put_text(&text, &len, &cap, row < 0 ? "{" : "/");
                row = ps->y;
            }
            if (S->owner[b][ps->y][ps->x] < 0) {
                empty_run++;
                continue;
            }
            if (empty_run) put_count(&text, &len, &cap, &empty_run);
            put_piece(L, S, b, ps->y, ps->x, &text, &len, &cap);
        }
        if (empty_run) put_count(&text, &len, &cap, &empty_run);
        if (row >= 0) put_text(&text, &len, &cap, "}");
    }
    if (L->has_hands) {
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
        const ZrfNode *at = bs ? bs : L->forms;
        ast_add(L->root,
                ast_add(zrf_node(AST_HANDS, at), zrf_node_text(AST_NAME, at, L->recycle ? "captured" : "none")));
    }
    /* the castling rights: every castle's, the first player's in upper case */
    char rights[2 * sizeof L->castling] = "-";
    size_t nc = strlen(L->castling);
    for (size_t i = 0; i < nc; i++) {
        rights[i] = L->castling[i];
        rights[nc + i] = (char)tolower((unsigned char)L->castling[i]);
        rights[2 * nc] = 0;
    }
    char side[64];
    snprintf(side, sizeof side, " %s %s - 0 1", "?", rights);
    /* the side is the first mover's token, which the players item holds */
    const Ast *players = NULL;
    for (int i = 0; i < L->root->nkids; i++)
        if (L->root->kids[i]->kind == AST_PLAYERS) players = L->root->kids[i];
    if (players && L->first_mover < players->nkids)
        snprintf(side, sizeof side, " %s %s - 0 1", players->kids[L->first_mover]->text2, rights);
    put_text(&text, &len, &cap, side);
    if (L->nprelude) put_text(&text, &len, &cap, " 1"); /* (the set-up steps are still to come) */
    ast_add(L->root, zrf_node_text(AST_SETUP, bs ? bs : L->forms, text));
    free(text);
    free(S);
}

/* ---- goals ----------------------------------------------------------------------------------- */

typedef enum GoalKind { GOAL_WIN, GOAL_LOSS, GOAL_DRAW } GoalKind;

static Ast *end_item(const ZrfNode *at, EndKind kind, GoalKind result) {
    Ast *e = zrf_node(AST_END, at);
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

/* (absolute-config T (POS-OR-ZONE...)) */
static bool is_config(const ZrfNode *c) {
    return c->kind == ZRF_LIST && c->nkids == 3 && zrf_is(c->kids[0], "absolute-config") &&
        c->kids[2]->kind == ZRF_LIST;
}

/* An absolute-config as one part of a reach rule: NAME piece and NAME zone (a zone made of its
 * positions, for the players flagged) added to parts. False, with a warning, when it cannot. */
static bool config_part(Lower *L, const bool *players, const ZrfNode *c, Ast *parts) {
    Piece *pc = zrf_atom_text(c->kids[1]) ? zrf_piece_find(L, c->kids[1]->text) : NULL;
    if (!pc) {
        goal_left_out(L, c, "a configuration of other than one piece type");
        return false;
    }
    bool *in = xcalloc((size_t)L->npos + 1, sizeof *in);
    const ZrfNode *where = c->kids[2];
    for (int k = 0; k < where->nkids; k++) {
        const char *name = zrf_atom_text(where->kids[k]);
        int q = name ? zrf_pos_index(L, name) : -1;
        if (q >= 0) {
            in[q] = true;
            continue;
        }
        /* a zone: its cells for each player (taken from the board's zone forms) */
        const ZrfNode *bf = zrf_find_form(L, "board");
        bool found = false;
        for (int i = 1; name && bf && i < bf->nkids; i++) {
            const ZrfNode *z = bf->kids[i];
            const ZrfNode *nm = zrf_sub_form(z, "name"), *ps = zrf_sub_form(z, "positions");
            if (!zrf_is_form(z, "zone") || !nm || nm->nkids < 2 || !zrf_is(nm->kids[1], name)) continue;
            found = true;
            if (zrf_sub_form(z, "players")) {
                bool zp[MAX_PLAYERS];
                if (!zrf_read_players(L, zrf_sub_form(z, "players"), zp)) continue;
                bool same = true;
                for (int p = 0; p < L->nplayers; p++) same = same && (zp[p] || !players[p]);
                if (!same) {
                    found = false;
                    break;
                }
            }
            for (int j = 1; ps && j < ps->nkids; j++) {
                int qq = zrf_atom_text(ps->kids[j]) ? zrf_pos_index(L, ps->kids[j]->text) : -1;
                if (qq >= 0) in[qq] = true;
            }
        }
        if (!found) {
            free(in);
            goal_left_out(L, where->kids[k], "a configuration over a zone that differs per player");
            return false;
        }
    }
    const char *zone = zrf_hidden_name(L, "goal");
    zrf_add_zone(L, zone, in, players, c);
    free(in);
    ast_add(parts, zrf_node_text(AST_NAME, c->kids[1], pc->vname));
    ast_add(parts, zrf_node_text(AST_NAME, c, zone));
    return true;
}

/* A reach rule of the parts (NAME piece, NAME zone, ...); parts is used up. */
static void add_reach(Lower *L, const ZrfNode *f, GoalKind result, Ast *parts) {
    Ast *e = end_item(f, END_REACH, result);
    for (int k = 0; k < parts->nkids; k++) ast_add(e, parts->kids[k]);
    parts->nkids = 0;
    ast_free(parts);
    ast_add(L->root, e);
}

/* (pieces-remaining N T...) or (captured T...): N (0 for captured) into *n and the types as
 * NAMEs into names; false when it is of no piece type or of an unknown one. */
static bool count_of_types(Lower *L, const ZrfNode *c, long *n, Ast *names) {
    int first = 2;
    if (c->kind != ZRF_LIST || c->nkids < 2) return false;
    if (zrf_is(c->kids[0], "captured")) {
        first = 1;
        *n = 0;
    } else if (!zrf_is(c->kids[0], "pieces-remaining") || !parse_long(c->kids[1], n) || *n < 0)
        return false;
    if (c->nkids <= first) return false;
    for (int k = first; k < c->nkids; k++) {
        Piece *pc = zrf_atom_text(c->kids[k]) ? zrf_piece_find(L, c->kids[k]->text) : NULL;
        if (!pc) return false;
        ast_add(names, zrf_node_text(AST_NAME, c->kids[k], pc->vname));
    }
    return true;
}

/* `for PLAYER...` of an end rule: a BLOCK of the players flagged (NULL for every player). */
static Ast *for_players(const Lower *L, const ZrfNode *at, const bool *players) {
    if (all_players(L, players)) return NULL;
    Ast *b = zrf_node(AST_BLOCK, at);
    for (int p = 0; p < L->nplayers; p++)
        if (players[p]) ast_add(b, zrf_node_text(AST_NAME, at, L->player_name[p]));
    return b;
}

/* Conditions joined by `and` that the language joins too: absolute-configs (a reach rule of
 * several pieces) and counts of piece types of one same N (an extinction of each type). */
static bool lower_and_goal(Lower *L, const ZrfNode *f, GoalKind result, const bool *players, const ZrfNode *c) {
    bool configs = result == GOAL_WIN, counts = true;
    for (int i = 1; i < c->nkids; i++) {
        configs = configs && is_config(c->kids[i]);
        counts = counts && c->kids[i]->kind == ZRF_LIST && c->kids[i]->nkids >= 2 &&
            (zrf_is(c->kids[i]->kids[0], "pieces-remaining") || zrf_is(c->kids[i]->kids[0], "captured"));
    }
    if (c->nkids < 2 || (!configs && !counts)) return false;
    if (configs) {
        if (c->nkids - 1 > MAX_REACH_PARTS) {
            goal_left_out(L, c, "an and of more than 8 configurations");
            return true;
        }
        Ast *parts = zrf_node(AST_BLOCK, c);
        for (int i = 1; i < c->nkids; i++)
            if (!config_part(L, players, c->kids[i], parts)) {
                ast_free(parts);
                return true;
            }
        add_reach(L, f, result, parts);
        return true;
    }
    Ast *group = zrf_node(AST_GROUP, c);
    long n = -1;
    for (int i = 1; i < c->nkids; i++) {
        long ni;
        if (!count_of_types(L, c->kids[i], &ni, group) || (n >= 0 && ni != n)) {
            ast_free(group);
            return false;
        }
        n = ni;
    }
    Ast *e = end_item(f, END_EXTINCTION, result);
    e->num[0] = n;
    bool remaining = true; /* (pieces-remaining counts the board; captured, every piece) */
    for (int i = 1; i < c->nkids; i++) remaining = remaining && zrf_is(c->kids[i]->kids[0], "pieces-remaining");
    if (L->has_hands && !L->count_off && remaining) e->num[1] = 2;
    ast_add(e, group);
    ast_add(e, for_players(L, c, players));
    ast_add(L->root, e);
    return true;
}

/* (and stalemated (pieces-remaining N)), in either order: a stalemate of a player left with at
 * most N pieces on the board, `end stalemate pieces at-most N RESULT [for PLAYER...]`. False
 * when the and is of other goals; true, with a warning, when it is of these but cannot be. */
static bool stalemate_with_count(Lower *L, const ZrfNode *f, GoalKind result, const bool *players, const ZrfNode *c) {
    if (c->nkids != 3) return false;
    int s = zrf_is(c->kids[1], "stalemated") ? 1 : zrf_is(c->kids[2], "stalemated") ? 2 : 0;
    const ZrfNode *count = s ? c->kids[3 - s] : NULL;
    long n;
    if (!count || count->kind != ZRF_LIST || count->nkids != 2 || !zrf_is(count->kids[0], "pieces-remaining"))
        return false;
    if (!parse_long(count->kids[1], &n) || n < 0) {
        goal_left_out(L, count, "this count of pieces");
        return true;
    }
    if (L->nplayers > 2 || L->pass_forced) {
        goal_left_out(L, c, "a stalemate with a count of pieces for more than two players, or with forced passing");
        return true;
    }
    /* one such rule a player: a second one for the same player is left out */
    for (int i = 0; i < L->root->nkids; i++) {
        const Ast *e = L->root->kids[i];
        if (e->kind != AST_END || e->sub != END_STALEMATE || !e->num[1]) continue;
        const Ast *who = e->nkids ? e->kids[0] : NULL;
        for (int p = 0; p < L->nplayers; p++) {
            bool named = !who;
            for (int k = 0; who && k < who->nkids; k++) named = named || !strcmp(who->kids[k]->text, L->player_name[p]);
            if (named && players[p]) {
                goal_left_out(L, c, "a second stalemate with a count of pieces for one player");
                return true;
            }
        }
    }
    Ast *e = end_item(f, END_STALEMATE, result);
    e->num[1] = n + 1;
    ast_add(e, for_players(L, c, players));
    ast_add(L->root, e);
    return true;
}

/* Does the board setup give player p a piece of type pc (on the board or off it)? */
static bool setup_has(Lower *L, int p, const Piece *pc) {
    const ZrfNode *bs = zrf_find_form(L, "board-setup");
    for (int i = 1; bs && i < bs->nkids; i++) {
        const ZrfNode *pf = bs->kids[i];
        const char *pn = pf->kind == ZRF_LIST && pf->nkids ? zrf_atom_text(pf->kids[0]) : NULL;
        if (!pn || zrf_player_index(L, pn) != p) continue;
        for (int k = 1; k < pf->nkids; k++) {
            const ZrfNode *tf = pf->kids[k];
            const char *tn = tf->kind == ZRF_LIST && tf->nkids >= 2 ? zrf_atom_text(tf->kids[0]) : NULL;
            if (tn && zrf_piece_find(L, tn) == pc) return true;
        }
    }
    return false;
}

/* (total-piece-count N [T...]): exactly N pieces (of those types) on the board, every player's
 * together, as a description of Zillions words it; the side that just moved is looked at
 * first. result_word: the end's result (a count condition's is `most`). */
static bool lower_total(Lower *L, const ZrfNode *f, Keyword result_word, const bool *players, const ZrfNode *c) {
    long n;
    if (c->kind != ZRF_LIST || c->nkids < 2 || !parse_long(c->kids[1], &n) || n < 0) return false;
    Ast *e = zrf_node(AST_END, f);
    e->sub = END_TOTAL;
    e->word = result_word;
    e->num[0] = n;
    for (int k = 2; k < c->nkids; k++) {
        Piece *pc = zrf_atom_text(c->kids[k]) ? zrf_piece_find(L, c->kids[k]->text) : NULL;
        if (!pc) {
            ast_free(e);
            return false;
        }
        ast_add(e, zrf_node_text(AST_NAME, c->kids[k], pc->vname));
    }
    ast_add(e, for_players(L, c, players));
    ast_add(L->root, e);
    return true;
}

/* One goal for the players flagged. */
static void lower_goal(Lower *L, const ZrfNode *f, GoalKind result, const bool *players, const ZrfNode *c) {
    const char *h = c->kind == ZRF_ATOM ? c->text : zrf_head(c);
    if (!h) {
        goal_left_out(L, c, "this goal");
        return;
    }
    bool everyone = all_players(L, players);
    if (!strcasecmp(h, "and") && c->kind == ZRF_LIST && stalemate_with_count(L, f, result, players, c)) return;
    if (!strcasecmp(h, "and") && c->kind == ZRF_LIST) {
        if (!lower_and_goal(L, f, result, players, c))
            goal_left_out(L, c,
                          "and of other than configurations (for a win) or counts of piece types (one same count)");
        return;
    }
    if (!strcasecmp(h, "or") && c->kind == ZRF_LIST) {
        /* either one: a rule for each */
        for (int i = 1; i < c->nkids; i++) lower_goal(L, f, result, players, c->kids[i]);
        return;
    }
    if (!strcasecmp(h, "stalemated")) {
        if (!everyone && L->nplayers > 2) {
            goal_left_out(L, c, "a stalemate goal for some of more than two players");
            return;
        }
        ast_add(L->root, ast_add(end_item(f, END_STALEMATE, result), for_players(L, c, players)));
        return;
    }
    if (!strcasecmp(h, "repetition")) {
        Ast *e = end_item(f, END_REPETITION, result);
        e->num[0] = 3;
        ast_add(L->root, e);
        return;
    }
    if (!strcasecmp(h, "checkmated")) {
        Piece *pc = c->kind == ZRF_LIST && c->nkids == 2 && zrf_atom_text(c->kids[1])
            ? zrf_piece_find(L, c->kids[1]->text)
            : NULL;
        if (!pc) {
            goal_left_out(L, c, "checkmate of other than one piece type");
            return;
        }
        /* for some players only: the same as for all when no other player is given such a
         * piece (only those players' can then be checkmated); else the piece is royal for
         * those players alone, the others' being ordinary pieces. A goal speaks of the named
         * players' own pieces, in a win as in a loss (as `(pieces-remaining 0)` in a
         * win-condition is a win by losing every piece): their piece checkmated, they win. */
        bool only_some = false;
        for (int p = 0; p < L->nplayers && !everyone; p++)
            only_some = only_some || (!players[p] && setup_has(L, p, pc));
        if (result == GOAL_DRAW) {
            goal_left_out(L, c, "a draw by checkmate");
            return;
        }
        pc->royal = true;
        for (int p = 0; p < L->nplayers; p++) pc->royal_for[p] = pc->royal_for[p] || !only_some || players[p];
        ast_add(L->root, end_item(f, END_CHECKMATE, result));
        return;
    }
    if (!strcasecmp(h, "pieces-remaining") && c->kind == ZRF_LIST && c->nkids == 2) {
        long n;
        if (!parse_long(c->kids[1], &n) || n < 0) {
            goal_left_out(L, c, "this count of pieces");
            return;
        }
        if (everyone) {
            Ast *e = end_item(f, END_PIECES, result);
            e->num[0] = n;
            ast_add(L->root, e);
            return;
        }
        /* for some players: an extinction of all their pieces on the board (those off the board,
         * in a hand, are not counted unless the file says so); a count above none is exact */
        Ast *e = end_item(f, END_EXTINCTION, result);
        e->num[0] = n;
        e->num[1] = (L->has_hands && !L->count_off ? 3 : 1) | (n > 0 ? 4 : 0);
        ast_add(e, for_players(L, c, players));
        ast_add(L->root, e);
        return;
    }
    if ((!strcasecmp(h, "pieces-remaining") || !strcasecmp(h, "captured")) && c->kind == ZRF_LIST && c->nkids >= 2) {
        long n;
        Ast *e = end_item(f, END_EXTINCTION, result);
        Ast *names = zrf_node(AST_BLOCK, c);
        if (!count_of_types(L, c, &n, names)) {
            ast_free(e);
            ast_free(names);
            goal_left_out(L, c, "a count of pieces of an unknown piece");
            return;
        }
        e->num[0] = n;
        if (zrf_is(c->kids[0], "pieces-remaining")) {
            if (L->has_hands && !L->count_off) e->num[1] = 2; /* (on the board) */
            if (n > 0) e->num[1] |= 4;                        /* (exactly N) */
        }
        for (int k = 0; k < names->nkids; k++) ast_add(e, names->kids[k]);
        names->nkids = 0;
        ast_free(names);
        ast_add(e, for_players(L, c, players));
        ast_add(L->root, e);
        return;
    }
    if (!strcasecmp(h, "relative-config") && c->kind == ZRF_LIST && c->nkids >= 4 && c->nkids % 2 == 0) {
        /* T D T D ... T, one type along one direction: a line of that many */
        Piece *pc = zrf_atom_text(c->kids[1]) ? zrf_piece_find(L, c->kids[1]->text) : NULL;
        Dir *d = zrf_atom_text(c->kids[2]) ? zrf_dir_find(L, c->kids[2]->text) : NULL;
        bool line = pc && d && !d->nclass && everyone;
        for (int k = 1; line && k < c->nkids; k += 2) {
            line = zrf_atom_text(c->kids[k]) && zrf_piece_find(L, c->kids[k]->text) == pc;
            if (k + 1 < c->nkids)
                line = line && zrf_atom_text(c->kids[k + 1]) && zrf_dir_find(L, c->kids[k + 1]->text) == d;
        }
        if (!line) {
            goal_left_out(L, c, "relative-config other than one piece type along one direction, for every player");
            return;
        }
        Ast *e = end_item(f, END_IN_A_ROW, result);
        e->num[0] = c->nkids / 2;
        ast_add(e, ast_add(zrf_node(AST_GROUP, c), zrf_node_text(AST_NAME, c->kids[1], pc->vname)));
        ast_add(e, ast_add(zrf_node(AST_BLOCK, c), zrf_node_text(AST_DIR, c->kids[2], d->vname)));
        ast_add(L->root, e);
        return;
    }
    if (!strcasecmp(h, "total-piece-count") && c->kind == ZRF_LIST) {
        Keyword w = result == GOAL_WIN ? KEYWORD_WIN : result == GOAL_LOSS ? KEYWORD_LOSS : KEYWORD_DRAW;
        if (!lower_total(L, f, w, players, c)) goal_left_out(L, c, "a total count of unknown pieces");
        return;
    }
    if (is_config(c) && result == GOAL_WIN) {
        /* a piece of the type on one of the positions (or zones) */
        Ast *parts = zrf_node(AST_BLOCK, c);
        if (!config_part(L, players, c, parts)) {
            ast_free(parts);
            return;
        }
        add_reach(L, f, result, parts);
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
            if (!zrf_read_players(L, f->kids[1], players)) continue;
            lower_goal(L, f, heads[k].kind, players, f->kids[2]);
        }
        if (zrf_is_form(f, "count-condition")) {
            /* when the condition holds, the player with the most pieces wins */
            bool players[MAX_PLAYERS];
            bool stalemate = f->nkids == 3 && zrf_is(f->kids[2], "stalemated");
            if (f->nkids == 3 && f->kids[2]->kind == ZRF_LIST && zrf_is(f->kids[2]->kids[0], "total-piece-count") &&
                zrf_read_players(L, f->kids[1], players) && L->nplayers == 2 &&
                lower_total(L, f, KEYWORD_MOST, players, f->kids[2]))
                continue;
            if (!stalemate || !zrf_read_players(L, f->kids[1], players) || !all_players(L, players) ||
                L->nplayers != 2) {
                goal_left_out(L, f, "a count condition other than stalemated or a total count, for two players");
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
        const char *name = f->kids[1]->text, *value = zrf_atom_text(f->kids[2]);
        bool off = value && (!strcasecmp(value, "false") || !strcmp(value, "0"));
        if (!strcasecmp(name, "recycle captures")) {
            /* a captured piece goes to its captor's pieces off the board, to be dropped */
            if (!off) L->recycle = true;
            continue;
        }
        if (!strcasecmp(name, "pass partial")) {
            L->pass_partial = !off;
            continue;
        }
        if (!strcasecmp(name, "include off-pieces")) {
            L->count_off = !off;
            continue;
        }
        if (!strcasecmp(name, "maximal captures")) {
            /* only the captures taking the most pieces (each piece counting one) */
            if (off) continue;
            L->maximal = true; /* (said with the move priorities) */
            /* 2: the pieces of other types than the first piece declared (kings, after men)
             * count first, as Dagaz reads it: Zillions describes it nowhere public */
            L->maximal_kings = value && !strcmp(value, "2");
            if (value && strcasecmp(value, "true") && !L->maximal_kings)
                zrf_warn(L->r, f, "option \"maximal captures\" %s is not supported yet: every piece counts one", value);
            continue;
        }
        if (!strcasecmp(name, "pass turn")) {
            if (off) continue;
            if (value && !strcasecmp(value, "forced")) {
                L->pass_forced = true;
                Ast *e = zrf_node(AST_END, f);
                e->sub = END_STALEMATE;
                e->word = KEYWORD_PASS;
                ast_add(L->root, e);
            } else
                ast_add(L->root, zrf_node_text(AST_FORBID, f, "pass"));
            continue;
        }
        /* (how the game is shown, and "progressive levels": which variant comes after a
         * puzzle is solved; none changes the rules of a game) */
        static const char *const display[] = {"animate captures", "animate drops",   "smart moves",
                                              "show moves list",  "chess invariant", "prevent flipping",
                                              "highlight goals",  "allow flipping",  "board rotation",
                                              "animate moves",    "show captures",   "progressive levels"};
        char spaced[64]; /* ("smart-moves" is "smart moves") */
        snprintf(spaced, sizeof spaced, "%s", name);
        for (char *c = spaced; *c; c++)
            if (*c == '-') *c = ' ';
        bool known = false;
        for (size_t k = 0; k < ARRAY_LEN(display); k++) known = known || !strcasecmp(spaced, display[k]);
        if (known) continue;
        if (off) continue;
        zrf_warn(L->r, f, "option \"%s\" is not supported yet: ignored", name);
    }
}

/* Flags the kinds of move-priorities' types whose every move captures; *rest: the moves of
 * the other types never capture. */
static void sort_captures(Lower *L, const ZrfNode *mp, bool *captures_first, bool *rest_quiet) {
    *captures_first = *rest_quiet = true;
    for (int p = 0; p < L->npieces; p++)
        for (int i = 1; i < L->pieces[p].form->nkids; i++) {
            const ZrfNode *f = L->pieces[p].form->kids[i];
            if (!zrf_is_form(f, "moves")) continue;
            bool first = false;
            for (int k = 1; k < f->nkids; k++) {
                const ZrfNode *m = f->kids[k];
                if (zrf_is_form(m, "move-type")) {
                    first = false;
                    for (int q = 1; q < mp->nkids - 1; q++)
                        first = first ||
                            (m->nkids == 2 && zrf_is(m->kids[1], zrf_atom_text(mp->kids[q]) ? mp->kids[q]->text : ""));
                    continue;
                }
                if (m->kind != ZRF_LIST) continue;
                int c = zrf_move_captures(L, m);
                if (first && c != 1) *captures_first = false;
                if (!first && c != 0) *rest_quiet = false;
            }
        }
}

/* (option "maximal captures" 2): `must-capture most` of every type but the first declared. */
static void most_kings(const Lower *L, Ast *most, const ZrfNode *at) {
    for (int i = 1; L->maximal_kings && i < L->npieces; i++)
        ast_add(most, zrf_node_text(AST_NAME, at, L->pieces[i].vname));
}

/* (move-priorities T1 T2 ... Tn): when the moves of T1 .. Tn-1 all capture and the others
 * never do, and no piece is royal (Zillions applies priorities before the check rule), that is
 * compulsory capture (`must-capture`); else `priority` of the move kinds T1 .. Tn-1, the moves
 * of Tn and of types not named being the language's normal moves, which come after every kind
 * named. (`maximal captures`: `must-capture most`.) */
static void lower_priorities(Lower *L) {
    const ZrfNode *mp = zrf_find_form(L, "move-priorities");
    bool royal = false;
    for (int i = 0; i < L->npieces; i++) royal = royal || L->pieces[i].royal;
    if (!mp || mp->nkids < 3) {
        if (L->maximal) {
            Ast *most = zrf_node(AST_MUST_CAPTURE, zrf_find_form(L, "option"));
            most->sub = 1;
            most_kings(L, most, zrf_find_form(L, "option"));
            ast_add(L->root, most);
        }
        return;
    }
    bool captures_first, rest_quiet;
    sort_captures(L, mp, &captures_first, &rest_quiet);
    if ((captures_first && rest_quiet && !royal) || L->maximal) {
        Ast *must = zrf_node(AST_MUST_CAPTURE, mp);
        must->sub = L->maximal;
        if (L->maximal) most_kings(L, must, mp);
        ast_add(L->root, must);
        if (captures_first && rest_quiet && !royal) return;
    }
    Ast *pr = zrf_node(AST_PRIORITY, mp);
    for (int i = 1; i < mp->nkids - 1; i++) {
        const char *t = zrf_atom_text(mp->kids[i]);
        if (!t) {
            zrf_error(L->r, mp->kids[i], "a move priority is a move type's name");
            continue;
        }
        if (zrf_names_find(&L->kind_names, t)) continue;
        if (L->kind_names.n >= MAX_MOVE_KINDS - 1) {
            zrf_error(L->r, mp->kids[i], "too many move priorities (limit is %d)", MAX_MOVE_KINDS - 1);
            break;
        }
        ast_add(pr, zrf_node_text(AST_NAME, mp->kids[i], zrf_names_add(L, &L->kind_names, t, mp->kids[i])));
    }
    ast_add(L->root, pr);
}

void zrf_add_help(Ast *to, const ZrfNode *form, const char *first, const char *second) {
    const ZrfNode *f = zrf_sub_form(form, first);
    if (!f || f->nkids < 2 || f->kids[1]->kind != ZRF_STRING) f = zrf_sub_form(form, second);
    if (!f || f->nkids < 2 || f->kids[1]->kind != ZRF_STRING) return;
    const char *s = f->kids[1]->text;
    char *text = xmalloc(strlen(s) + 1), *o = text;
    for (; *s; s++) {
        if (*s != '\\') {
            *o++ = *s;
            continue;
        }
        *o++ = '\n';
        while (s[1] == '\n' || s[1] == '\r' || s[1] == ' ' || s[1] == '\t') s++; /* (the file's own indent) */
    }
    while (o > text && (o[-1] == '\n' || o[-1] == ' ')) o--;
    *o = 0;
    if (*text) ast_add(to, zrf_node_text(AST_HELP, f, text));
    free(text);
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
}

/* Whether the game keeps pieces off the board (to drop): known before the moves are lowered,
 * which differ with it (a copy left behind comes from the hand then). */
static void find_hands(Lower *L) {
    const ZrfNode *bs = zrf_find_form(L, "board-setup");
    for (int i = 1; bs && i < bs->nkids; i++)
        for (int k = 1; bs->kids[i]->kind == ZRF_LIST && k < bs->kids[i]->nkids; k++) {
            const ZrfNode *tf = bs->kids[i]->kids[k];
            for (int q = 1; tf->kind == ZRF_LIST && q < tf->nkids; q++)
                L->has_off = L->has_off || zrf_is(tf->kids[q], "off");
        }
    for (int i = 0; i < L->npieces; i++) {
        const ZrfNode *d = zrf_sub_form(L->pieces[i].form, "drops");
        L->has_drops = L->has_drops || (d && d->nkids > 1);
    }
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
    zrf_add_help(L->root, r->entries[entry].form, "description", "description");
    check_forms(L);
    lower_players(L);
    if (!L->failed) lower_turn_order(L);
    int board_items = L->root->nkids;
    if (!L->failed) lower_board(L);
    if (!L->failed && !L->graph) {
        lower_symmetry(L);
        if (L->symmetry_failed) {
            for (int i = board_items; i < L->root->nkids; i++) ast_free(L->root->kids[i]);
            L->root->nkids = board_items;
            L->npos = L->ndirs = L->nboards = 0;
            memset(L->orient, 0, sizeof L->orient);
            if (!zrf_lower_graph_board(L, zrf_find_form(L, "board"))) L->failed = true;
        }
    }
    if (!L->failed) lower_zones(L);
    if (!L->failed) declare_pieces(L);
    if (!L->failed) zrf_declare_attrs(L);
    if (!L->failed) find_hands(L);
    if (!L->failed) zrf_plan_partials(L);
    if (!L->failed) lower_options(L);
    /* (without counts, Zillions drops as many pieces as the player likes) */
    L->has_hands = L->has_off || L->recycle;
    if (!L->failed) lower_goals(L); /* first: it marks the royal pieces */
    if (!L->failed) lower_priorities(L);
    for (int i = 0; !L->failed && i < L->npieces; i++) zrf_lower_piece(L, &L->pieces[i]);
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

void zrf_keep_annotate(ZrfKeep *keep, DiagSink *sink, int first) {
    if (keep) zrf_annotate(&keep->r, sink, first);
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
