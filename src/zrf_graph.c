/* zrf_graph.c - a Zillions board of named positions and links, laid on one grid of the
 * language. The positions go where the file draws them (their pictures' centres, columns and
 * rows in the order they are drawn); each direction is the links given cell by cell (a grid's
 * steps, the `links`, less the `unlink`s). A direction whose every link is one same step, from
 * every cell that step leads from to another, is a direction of the language; any other is
 * split by its steps, each step taken only from the cells of a zone (those its links start
 * from): a move along it tries each step, and one at most applies. A symmetry is the board's
 * orientation that turns each direction's steps into its image's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "zrf_lower.h"

#define GRAPH_TOLERANCE 3.0 /* pixels: centres closer than this share a column or row */

typedef struct Place {
    double px, py;
    bool dummy;   /* (dummy ...), or drawn where another position is: not where the drawing says */
    bool holding; /* a dummy no link leads to or from: a holding cell of the language */
    int grid, idx[3];
} Place;

typedef struct Graph {
    Place *at; /* per position */
    int nlinks;
    const char *names[ZRF_MAX_DIRS]; /* the directions, by name */
    int *next[ZRF_MAX_DIRS];         /* per direction: the position each links to, or -1 */
    int ndirs;
    /* the grids' directions, for their links */
    struct {
        const char *name;
        int grid;
        long delta[3];
    } gdir[ZRF_MAX_DIRS * 4];
    int ngdirs;
    int gsize[MAX_BOARD_DIM][3]; /* (grids: at most MAX_BOARD_DIM here) */
    int ngrids;
} Graph;

static int find_dir(const Graph *G, const char *name) {
    for (int i = 0; i < G->ndirs; i++)
        if (!strcasecmp(G->names[i], name)) return i;
    return -1;
}

static int graph_dir(Lower *L, Graph *G, const char *name, const ZrfNode *at) {
    int found = find_dir(G, name);
    if (found >= 0) return found;
    if (G->ndirs >= ZRF_MAX_DIRS) {
        zrf_error(L->r, at, "too many directions (limit is %d)", ZRF_MAX_DIRS);
        return -1;
    }
    G->names[G->ndirs] = name;
    G->next[G->ndirs] = xmalloc(((size_t)ZRF_MAX_POSITIONS) * sizeof(int));
    for (int p = 0; p < ZRF_MAX_POSITIONS; p++) G->next[G->ndirs][p] = -1;
    return G->ndirs++;
}

static int add_position(Lower *L, Graph *G, const char *name, const ZrfNode *at) {
    int had = zrf_pos_index(L, name);
    if (had >= 0 && !strcmp(L->pos[had].name, name)) {
        zrf_error(L->r, at, "position '%s' is made twice", name);
        return -1;
    }
    if (L->npos >= ZRF_MAX_POSITIONS) {
        zrf_error(L->r, at, "too many positions (limit is %d)", ZRF_MAX_POSITIONS);
        return -1;
    }
    int p = L->npos++;
    memset(&L->pos[p], 0, sizeof L->pos[p]);
    L->pos[p].name = name;
    memset(&G->at[p], 0, sizeof G->at[p]);
    G->at[p].grid = -1;
    return p;
}

static bool read_long(const ZrfNode *n, long *out) {
    const char *t = zrf_atom_text(n);
    if (!t || !*t) return false;
    char *end;
    *out = strtol(t, &end, 10);
    return !*end;
}

/* A grid's positions (its dimensions' labels joined), drawn from its start rectangle. */
static bool graph_grid(Lower *L, Graph *G, const ZrfNode *g) {
    if (G->ngrids >= MAX_BOARD_DIM) {
        zrf_error(L->r, g, "too many grids (limit is %d)", MAX_BOARD_DIM);
        return false;
    }
    int gi = G->ngrids++;
    const ZrfNode *dims = zrf_sub_form(g, "dimensions"), *start = zrf_sub_form(g, "start-rectangle");
    if (!dims || dims->nkids < 2 || dims->nkids > 4) {
        zrf_error(L->r, g, "a grid needs (dimensions ...) of 1 to 3 dimensions");
        return false;
    }
    long rect[4] = {0, 0, 0, 0};
    for (int k = 0; start && k < 4 && k + 1 < start->nkids; k++) read_long(start->kids[k + 1], &rect[k]);
    int nd = dims->nkids - 1;
    char *labels[3][64];
    int nlab[3] = {1, 1, 1};
    long off[3][2] = {{0}};
    for (int k = 0; k < 3; k++) labels[k][0] = NULL;
    for (int k = 0; k < nd; k++) {
        const ZrfNode *d = dims->kids[k + 1];
        if (d->kind != ZRF_LIST || d->nkids < 1 || d->kids[0]->kind == ZRF_LIST) {
            zrf_error(L->r, d, "a dimension is (\"a/b/c\" (dx dy))");
            for (int j = 0; j < k; j++)
                for (int i = 0; i < nlab[j]; i++) free(labels[j][i]);
            return false;
        }
        nlab[k] = 0;
        const char *t = d->kids[0]->text, *s = t;
        for (const char *p = t;; p++)
            if (*p == '/' || !*p) {
                if (nlab[k] < 64) labels[k][nlab[k]++] = xstrndup(s, (size_t)(p - s));
                s = p + 1;
                if (!*p) break;
            }
        if (d->nkids >= 2 && d->kids[1]->kind == ZRF_LIST && d->kids[1]->nkids >= 2) {
            read_long(d->kids[1]->kids[0], &off[k][0]);
            read_long(d->kids[1]->kids[1], &off[k][1]);
        }
    }
    for (int k = 0; k < 3; k++) G->gsize[gi][k] = nlab[k];
    bool ok = true;
    for (int i = 0; ok && i < nlab[0]; i++)
        for (int j = 0; ok && j < nlab[1]; j++)
            for (int l = 0; ok && l < nlab[2]; l++) {
                char name[200];
                snprintf(name, sizeof name, "%s%s%s", labels[0][i] ? labels[0][i] : "",
                         nd > 1 && labels[1][j] ? labels[1][j] : "", nd > 2 && labels[2][l] ? labels[2][l] : "");
                int p = add_position(L, G, zrf_strdup(L->r, name), dims);
                if (p < 0) {
                    ok = false;
                    break;
                }
                int idx[3] = {i, j, l};
                G->at[p].grid = gi;
                memcpy(G->at[p].idx, idx, sizeof idx);
                G->at[p].px = (rect[0] + rect[2]) / 2.0;
                G->at[p].py = (rect[1] + rect[3]) / 2.0;
                for (int k = 0; k < nd; k++) {
                    G->at[p].px += (double)off[k][0] * idx[k];
                    G->at[p].py += (double)off[k][1] * idx[k];
                }
            }
    for (int k = 0; k < nd; k++)
        for (int i = 0; i < nlab[k]; i++) free(labels[k][i]);
    const ZrfNode *dirs = zrf_sub_form(g, "directions");
    for (int i = 1; ok && dirs && i < dirs->nkids; i++) {
        const ZrfNode *d = dirs->kids[i];
        if (d->kind != ZRF_LIST || d->nkids < 2 || d->nkids > nd + 1 || !zrf_atom_text(d->kids[0])) {
            zrf_error(L->r, d, "a direction is (NAME STEP...) with one step per dimension (%d)", nd);
            ok = false;
            break;
        }
        if (G->ngdirs >= (int)ARRAY_LEN(G->gdir)) break;
        G->gdir[G->ngdirs].name = d->kids[0]->text;
        G->gdir[G->ngdirs].grid = gi;
        memset(G->gdir[G->ngdirs].delta, 0, sizeof G->gdir[G->ngdirs].delta);
        for (int k = 0; k + 1 < d->nkids; k++)
            if (!read_long(d->kids[k + 1], &G->gdir[G->ngdirs].delta[k])) {
                zrf_error(L->r, d->kids[k + 1], "a direction's step is a number");
                ok = false;
            }
        G->ngdirs++;
    }
    return ok;
}

/* Centres closer than the tolerance share a column (or row): the index of v's. */
static int cluster_index(const double *sorted, int n, double v, int *count) {
    int index = -1, k = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || sorted[i] - sorted[i - 1] > GRAPH_TOLERANCE) index++;
        if (fabs(sorted[i] - v) < 1e-9) k = index;
    }
    *count = index + 1;
    return k;
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Does any link lead to or from position p? */
static bool linked(const Lower *L, const Graph *G, int p) {
    for (int d = 0; d < G->ndirs; d++) {
        if (G->next[d][p] >= 0) return true;
        for (int q = 0; q < L->npos; q++)
            if (G->next[d][q] == p) return true;
    }
    return false;
}

/* Columns and rows from the drawing. A dummy no link touches is a holding cell, off the grid:
 * named as the cells of the rows past the top would be (the language's holding cells take any
 * name the grid does not have). Other dummies, and positions drawn where another is, go in rows
 * above the top: their links say where they lead. */
static bool place_cells(Lower *L, Graph *G, const ZrfNode *bf) {
    double *xs = xmalloc(((size_t)L->npos + 1) * sizeof *xs), *ys = xmalloc(((size_t)L->npos + 1) * sizeof *ys);
    int n = 0, ndummy = 0, nholding = 0;
    for (int p = 0; p < L->npos; p++) {
        if (L->pos[p].killed) continue;
        if (G->at[p].dummy) {
            G->at[p].holding = !linked(L, G, p);
            if (G->at[p].holding)
                nholding++;
            else
                ndummy++;
            continue;
        }
        xs[n] = G->at[p].px;
        ys[n] = G->at[p].py;
        n++;
    }
    qsort(xs, (size_t)n, sizeof *xs, compare_double);
    qsort(ys, (size_t)n, sizeof *ys, compare_double);
    int W = 0, H = 0;
    for (int p = 0; p < L->npos; p++) {
        if (L->pos[p].killed || G->at[p].dummy) continue;
        L->pos[p].x = cluster_index(xs, n, G->at[p].px, &W);
        int row = cluster_index(ys, n, G->at[p].py, &H);
        L->pos[p].y = row; /* (turned below: the top row is the last rank) */
    }
    free(xs);
    free(ys);
    if (W == 0) W = 1;
    for (int p = 0; p < L->npos; p++)
        if (!L->pos[p].killed && !G->at[p].dummy) L->pos[p].y = H - 1 - L->pos[p].y;
    /* a position drawn where another is (a pile, a second grid over the first) goes with the
     * dummies: the links say where it leads, not the drawing */
    memset(L->cell_at, 0xff, sizeof L->cell_at);
    for (int p = 0; p < L->npos; p++) {
        if (L->pos[p].killed || G->at[p].dummy) continue;
        if (L->pos[p].x >= MAX_BOARD_DIM || L->pos[p].y >= MAX_BOARD_DIM) continue;
        int *c = &L->cell_at[0][L->pos[p].y][L->pos[p].x];
        if (*c >= 0) {
            G->at[p].dummy = true;
            ndummy++;
        } else
            *c = p;
    }
    int k = 0, top = H;
    for (int p = 0; p < L->npos; p++) {
        if (L->pos[p].killed || !G->at[p].dummy || G->at[p].holding) continue;
        L->pos[p].x = k % W;
        L->pos[p].y = top + k / W;
        k++;
    }
    if (ndummy) H += (ndummy + W - 1) / W;
    if (W > MAX_BOARD_DIM || H > MAX_BOARD_DIM) {
        zrf_error(L->r, bf,
                  "the board's drawing has %d columns and %d rows: laid on a grid it is too large (limit is %dx%d)", W,
                  H, MAX_BOARD_DIM, MAX_BOARD_DIM);
        return false;
    }
    /* the holding cells: rows of W past the grid's top, in the order the file makes them */
    k = 0;
    for (int p = 0; p < L->npos; p++) {
        if (L->pos[p].killed || !G->at[p].holding) continue;
        L->pos[p].x = k % W;
        L->pos[p].y = H + k / W;
        k++;
    }
    if (nholding && (nholding + W - 1) / W > MAX_HOLDING_ROWS) {
        zrf_error(L->r, bf, "%d dummy positions: laid in rows of %d they make more than %d rows of holding cells",
                  nholding, W, MAX_HOLDING_ROWS);
        return false;
    }
    L->nboards = 1;
    L->bw[0] = W;
    L->bh[0] = H;
    memset(L->cell_at, 0xff, sizeof L->cell_at);
    for (int p = 0; p < L->npos; p++) {
        if (L->pos[p].killed) continue;
        L->pos[p].board = 0;
        if (!G->at[p].holding) L->cell_at[0][L->pos[p].y][L->pos[p].x] = p;
    }
    return true;
}

/* The links: each grid's steps within it, then `links` (a later link of a direction from a
 * position replaces the one before), then `unlink`. */
static bool read_links(Lower *L, Graph *G, const ZrfNode *bf) {
    for (int i = 0; i < G->ngdirs; i++) {
        int d = graph_dir(L, G, G->gdir[i].name, bf);
        if (d < 0) return false;
        int gi = G->gdir[i].grid;
        for (int p = 0; p < L->npos; p++) {
            if (G->at[p].grid != gi || L->pos[p].killed) continue;
            int idx[3];
            bool in = true;
            for (int k = 0; k < 3; k++) {
                idx[k] = G->at[p].idx[k] + (int)G->gdir[i].delta[k];
                in = in && idx[k] >= 0 && idx[k] < G->gsize[gi][k];
            }
            for (int q = 0; in && q < L->npos; q++)
                if (G->at[q].grid == gi && !L->pos[q].killed && !memcmp(G->at[q].idx, idx, sizeof idx)) {
                    G->next[d][p] = q;
                    break;
                }
        }
    }
    for (int i = 1; i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "links")) continue;
        const char *name = f->nkids >= 2 ? zrf_atom_text(f->kids[1]) : NULL;
        int d = name ? graph_dir(L, G, name, f) : -1;
        if (d < 0) {
            if (!name) zrf_error(L->r, f, "links are (links DIRECTION (FROM TO)...)");
            return false;
        }
        for (int k = 2; k < f->nkids; k++) {
            const ZrfNode *pr = f->kids[k];
            int a = pr->kind == ZRF_LIST && pr->nkids == 2 && zrf_atom_text(pr->kids[0])
                ? zrf_pos_index(L, pr->kids[0]->text)
                : -1;
            int b = a >= 0 && zrf_atom_text(pr->kids[1]) ? zrf_pos_index(L, pr->kids[1]->text) : -1;
            if (a < 0 || b < 0) {
                zrf_error(L->r, pr, "a link is (FROM TO), two positions");
                continue;
            }
            if (L->pos[a].killed || L->pos[b].killed) continue;
            G->next[d][a] = b;
        }
    }
    for (int i = 1; i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "unlink")) continue;
        for (int k = 1; k < f->nkids; k++) {
            const ZrfNode *u = f->kids[k];
            if (u->kind == ZRF_LIST && u->nkids == 2 && zrf_atom_text(u->kids[0]) && zrf_atom_text(u->kids[1])) {
                /* (FROM TO): every link from FROM to TO; (POSITION DIRECTION): that link */
                int a = zrf_pos_index(L, u->kids[0]->text), b = zrf_pos_index(L, u->kids[1]->text);
                int dir = b < 0 ? find_dir(G, u->kids[1]->text) : -1;
                if (a < 0 || (b < 0 && dir < 0)) {
                    zrf_error(L->r, u, "an unlink's pair is (FROM TO) or (POSITION DIRECTION)");
                    continue;
                }
                for (int d = 0; d < G->ndirs; d++)
                    if (d == dir || (b >= 0 && G->next[d][a] == b)) G->next[d][a] = -1;
                continue;
            }
            int a = zrf_atom_text(u) ? zrf_pos_index(L, u->text) : -1;
            if (a < 0) {
                zrf_error(L->r, u, "an unlink names a position or (FROM TO)");
                continue;
            }
            for (int d = 0; d < G->ndirs; d++) {
                G->next[d][a] = -1;
                for (int p = 0; p < L->npos; p++)
                    if (G->next[d][p] == a) G->next[d][p] = -1;
            }
        }
    }
    return true;
}

/* The distinct steps of direction d's links (at most cap), their count. */
static int steps_of(Lower *L, const Graph *G, int d, int (*step)[2], int cap) {
    int n = 0;
    for (int p = 0; p < L->npos; p++) {
        int q = G->next[d][p];
        if (q < 0) continue;
        int dx = L->pos[q].x - L->pos[p].x, dy = L->pos[q].y - L->pos[p].y;
        bool seen = false;
        for (int k = 0; k < n && !seen; k++) seen = step[k][0] == dx && step[k][1] == dy;
        if (!seen) {
            if (n >= cap) return cap + 1;
            step[n][0] = dx;
            step[n][1] = dy;
            n++;
        }
    }
    return n;
}

/* Does every cell that step (dx,dy) leads from to another cell link there along d? */
static bool complete(Lower *L, const Graph *G, int d, int dx, int dy) {
    for (int p = 0; p < L->npos; p++) {
        if (L->pos[p].killed) continue;
        int x = L->pos[p].x + dx, y = L->pos[p].y + dy;
        bool lands = x >= 0 && y >= 0 && x < L->bw[0] && y < L->bh[0] && L->cell_at[0][y][x] >= 0;
        if (lands && G->next[d][p] != L->cell_at[0][y][x]) return false;
    }
    return true;
}

/* Player p's image of direction d under its symmetry (itself without one). */
typedef struct Images {
    int of[MAX_PLAYERS][ZRF_MAX_DIRS];
} Images;

static bool read_symmetries(Lower *L, Graph *G, const ZrfNode *bf, Images *im) {
    for (int p = 0; p < MAX_PLAYERS; p++)
        for (int d = 0; d < ZRF_MAX_DIRS; d++) im->of[p][d] = d;
    for (int i = 1; i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "symmetry")) continue;
        const char *pname = f->nkids >= 2 ? zrf_atom_text(f->kids[1]) : NULL;
        int p = pname ? zrf_player_index(L, pname) : -1;
        if (!pname) {
            zrf_error(L->r, f, "a symmetry names a player: (symmetry PLAYER (a b)...)");
            return false;
        }
        if (p < 0) continue; /* (ignored, with a warning as the board was first read) */
        for (int k = 2; k < f->nkids; k++) {
            const ZrfNode *m = f->kids[k];
            if (zrf_symmetry_pair_unknown(bf, m)) continue;
            int a = -1, b = -1;
            for (int d = 0; m->kind == ZRF_LIST && m->nkids == 2 && d < G->ndirs; d++) {
                if (zrf_is(m->kids[0], G->names[d])) a = d;
                if (zrf_is(m->kids[1], G->names[d])) b = d;
            }
            if (a < 0 || b < 0) {
                zrf_error(L->r, m, "a symmetry maps one direction to another: (a b)");
                return false;
            }
            im->of[p][a] = b;
        }
    }
    return true;
}

static void mark_used(Graph *G, const ZrfNode *n, bool *used) {
    if (n->kind == ZRF_ATOM) {
        for (int d = 0; d < G->ndirs; d++)
            if (!strcasecmp(n->text, G->names[d])) used[d] = true;
        return;
    }
    for (int i = 0; n->kind == ZRF_LIST && i < n->nkids; i++) mark_used(G, n->kids[i], used);
}

/* The orientation of player p: one that turns the steps of every direction the pieces use
 * into those of its image (-1 when none). */
static int orientation_for(Lower *L, Graph *G, const Images *im, int p, const bool *used) {
    for (int o = 0; o < ORIENT__COUNT; o++) {
        bool fits = true;
        for (int d = 0; d < G->ndirs && fits; d++) {
            if (!used[d]) continue;
            int e = im->of[p][d];
            int sd[16][2], se[16][2];
            int nd = steps_of(L, G, d, sd, 16), ne = steps_of(L, G, e, se, 16);
            fits = nd == ne && nd <= 16;
            for (int k = 0; k < nd && fits; k++) {
                int ox, oy;
                variant_orient_vector((Orientation)o, sd[k][0], sd[k][1], &ox, &oy);
                bool found = false;
                for (int j = 0; j < ne && !found; j++) found = se[j][0] == ox && se[j][1] == oy;
                fits = found;
            }
        }
        if (fits) return o;
    }
    return -1;
}

/* The vector in the first player's frame that orientation o turns into (wx, wy). */
static void frame_vector(Orientation o, int wx, int wy, int *v) {
    for (int x = -MAX_BOARD_DIM; x <= MAX_BOARD_DIM; x++)
        for (int y = -MAX_BOARD_DIM; y <= MAX_BOARD_DIM; y++) {
            int ox, oy;
            variant_orient_vector(o, x, y, &ox, &oy);
            if (ox == wx && oy == wy) {
                v[0] = x;
                v[1] = y;
                return;
            }
        }
    v[0] = wx;
    v[1] = wy;
}

bool zrf_lower_graph_board(Lower *L, const ZrfNode *bf) {
    Graph *G = xcalloc(1, sizeof *G);
    G->at = xcalloc(ZRF_MAX_POSITIONS, sizeof *G->at);
    bool ok = true;
    for (int i = 1; ok && i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (zrf_is_form(f, "grid"))
            ok = graph_grid(L, G, f);
        else if (zrf_is_form(f, "positions"))
            for (int k = 1; ok && k < f->nkids; k++) {
                const ZrfNode *ps = f->kids[k];
                long r[4] = {0, 0, 0, 0};
                bool good = ps->kind == ZRF_LIST && ps->nkids >= 5 && zrf_atom_text(ps->kids[0]);
                for (int j = 0; good && j < 4; j++) good = read_long(ps->kids[j + 1], &r[j]);
                if (!good) {
                    zrf_error(L->r, ps, "a position is (NAME LEFT TOP RIGHT BOTTOM)");
                    ok = false;
                    break;
                }
                int p = add_position(L, G, ps->kids[0]->text, ps);
                if (p < 0)
                    ok = false;
                else {
                    G->at[p].px = (r[0] + r[2]) / 2.0;
                    G->at[p].py = (r[1] + r[3]) / 2.0;
                }
            }
        else if (zrf_is_form(f, "dummy"))
            for (int k = 1; ok && k < f->nkids; k++) {
                int p = zrf_atom_text(f->kids[k]) ? add_position(L, G, f->kids[k]->text, f->kids[k]) : -1;
                if (p < 0)
                    ok = false;
                else
                    G->at[p].dummy = true;
            }
    }
    for (int i = 1; ok && i < bf->nkids; i++) {
        const ZrfNode *f = bf->kids[i];
        if (!zrf_is_form(f, "kill-positions")) continue;
        for (int k = 1; k < f->nkids; k++) {
            int p = zrf_atom_text(f->kids[k]) ? zrf_pos_index(L, f->kids[k]->text) : -1;
            if (p < 0)
                zrf_error(L->r, f->kids[k], "unknown position '%s'",
                          zrf_atom_text(f->kids[k]) ? f->kids[k]->text : "?");
            else
                L->pos[p].killed = true;
        }
    }
    int cells = 0;
    for (int p = 0; p < L->npos; p++) cells += !L->pos[p].killed;
    if (ok && cells > MAX_CELLS) {
        zrf_error(L->r, bf, "%d positions: this version plays at most %d", cells, MAX_CELLS);
        ok = false;
    }
    if (ok && cells == 0) {
        zrf_error(L->r, bf, "the board has no positions");
        ok = false;
    }
    ok = ok && read_links(L, G, bf) && place_cells(L, G, bf); /* (the links first: they say which dummies hold) */
    Images *im = xcalloc(1, sizeof *im);
    bool used[ZRF_MAX_DIRS] = {false};
    if (ok) ok = read_symmetries(L, G, bf, im);
    for (int k = 0; ok && k < L->forms->nkids; k++)
        if (zrf_is_form(L->forms->kids[k], "piece")) mark_used(G, L->forms->kids[k], used);
    /* the board: one grid, holes where no position is drawn */
    if (ok) {
        Ast *board = zrf_node(AST_BOARD, bf);
        board->num[0] = L->bw[0];
        board->num[1] = L->bh[0];
        Ast *holes = zrf_node(AST_HOLES, bf);
        for (int y = 0; y < L->bh[0]; y++)
            for (int x = 0; x < L->bw[0]; x++)
                if (L->cell_at[0][y][x] < 0) {
                    Pos tmp = {NULL, 0, x, y, false};
                    ast_add(holes, zrf_cell_name(L, &tmp, bf));
                }
        if (holes->nkids)
            ast_add(board, holes);
        else
            ast_free(holes);
        /* the holding cells, a row of the board's width each */
        Ast *row = NULL;
        for (int p = 0; p < L->npos; p++) {
            if (L->pos[p].killed || !G->at[p].holding) continue;
            if (L->pos[p].x == 0) ast_add(board, row = zrf_node(AST_HOLDING, bf));
            ast_add(row, zrf_cell_name(L, &L->pos[p], bf));
        }
        ast_add(L->root, board);
        L->holes_ok = false;
    }
    /* the players' orientations: each turns its directions' steps into their images'; when one
     * player has none, no player turns and each player's zones say where each step goes */
    bool per_player = false;
    int orient[MAX_PLAYERS] = {0};
    for (int p = 1; ok && p < L->nplayers; p++) {
        bool any = false;
        for (int d = 0; d < G->ndirs; d++) any = any || im->of[p][d] != d;
        if (!any) continue;
        orient[p] = orientation_for(L, G, im, p, used);
        if (orient[p] < 0) per_player = true;
    }
    for (int p = 1; ok && !per_player && p < L->nplayers; p++) {
        L->orient[p] = (Orientation)orient[p];
        if (orient[p] == ORIENT_IDENTITY) continue;
        static const char *const names[ORIENT__COUNT] = {"identity", "flip",   "mirror",    "rot90",
                                                         "rot180",   "rot270", "transpose", "antitranspose"};
        Ast *an = zrf_node_text(AST_ORIENTATION, bf, L->player_name[p]);
        zrf_set_text2(an, names[orient[p]]);
        ast_add(L->root, an);
    }
    /* the directions: a vector, or steps each from its zone. A step is said in the first
     * player's frame (turned for each player by its orientation); player p's zone of it holds
     * the cells its image of the direction goes along it from. */
    for (int d = 0; ok && d < G->ndirs; d++) {
        int step[ZRF_MAX_CLASSES][2];
        int n = 0;
        bool many = false;
        for (int p = 0; p < L->nplayers && !many; p++) {
            int e = im->of[p][d], se[ZRF_MAX_CLASSES][2];
            int ne = steps_of(L, G, e, se, ZRF_MAX_CLASSES);
            if (ne > ZRF_MAX_CLASSES) many = true;
            for (int k = 0; k < ne && !many; k++) {
                int v[2];
                frame_vector(L->orient[p], se[k][0], se[k][1], v);
                bool seen = false;
                for (int j = 0; j < n && !seen; j++) seen = step[j][0] == v[0] && step[j][1] == v[1];
                if (seen) continue;
                if (n >= ZRF_MAX_CLASSES)
                    many = true;
                else {
                    step[n][0] = v[0];
                    step[n][1] = v[1];
                    n++;
                }
            }
        }
        if (many) {
            if (used[d]) {
                zrf_error(L->r, bf, "direction '%s' goes more than %d ways on the board as drawn (not supported)",
                          G->names[d], ZRF_MAX_CLASSES);
                ok = false;
            }
            continue;
        }
        if (n == 0) continue; /* (no link: a move along it fails, as for an unknown cell) */
        bool plain = n == 1;
        for (int p = 0; plain && p < L->nplayers; p++) {
            int e = im->of[p][d], se[ZRF_MAX_CLASSES][2], ox, oy;
            variant_orient_vector(L->orient[p], step[0][0], step[0][1], &ox, &oy);
            plain = steps_of(L, G, e, se, ZRF_MAX_CLASSES) == 1 && se[0][0] == ox && se[0][1] == oy &&
                complete(L, G, e, ox, oy);
        }
        if (plain) {
            if (!zrf_dir_add(L, G->names[d], step[0][0], step[0][1], bf)) ok = false;
            continue;
        }
        Dir *sd = zrf_dir_add_split(L, G->names[d], bf);
        if (!sd) {
            ok = false;
            break;
        }
        for (int k = 0; k < n; k++) {
            Dir *v = zrf_dir_for_vector(L, step[k][0], step[k][1], bf);
            if (!v) {
                ok = false;
                break;
            }
            const char *zone = zrf_hidden_name(L, "links");
            for (int p = 0; p < L->nplayers; p++) {
                int e = im->of[p][d], ox, oy;
                variant_orient_vector(L->orient[p], step[k][0], step[k][1], &ox, &oy);
                bool *in = xcalloc((size_t)L->npos + 1, sizeof *in);
                for (int q = 0; q < L->npos; q++) {
                    int t = G->next[e][q];
                    in[q] = t >= 0 && L->pos[t].x - L->pos[q].x == ox && L->pos[t].y - L->pos[q].y == oy;
                }
                bool only[MAX_PLAYERS] = {false};
                only[p] = true;
                zrf_add_zone(L, zone, in, only, bf);
                free(in);
            }
            sd->cls[sd->nclass].vdir = (int)(v - L->dirs);
            sd->cls[sd->nclass].zone = zone;
            sd->nclass++;
        }
    }
    /* the opposite of each direction: the one whose links go back along its every link */
    for (int d = 0; ok && d < G->ndirs; d++) {
        Dir *dd = zrf_dir_find(L, G->names[d]);
        if (!dd) continue;
        for (int e = 0; e < G->ndirs && !dd->opposite; e++) {
            bool back = true, any = false;
            for (int p = 0; p < L->npos && back; p++) {
                int q = G->next[d][p];
                if (q < 0) continue;
                any = true;
                back = G->next[e][q] == p;
            }
            if (back && any) dd->opposite = zrf_dir_find(L, G->names[e]);
        }
    }
    for (int d = 0; d < G->ndirs; d++) free(G->next[d]);
    free(G->at);
    free(G);
    free(im);
    L->graph = true;
    return ok;
}
