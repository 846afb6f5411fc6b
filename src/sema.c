/* sema.c - the checking pass: declarations into Variant tables, names resolved, every error
 * reported with its location. Programs are compiled afterwards by compile.c. */
#include "sema.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "source.h"

/* ---- small helpers ------------------------------------------------------------------------ */

static void copy_name(char *dst, size_t cap, const char *src) { snprintf(dst, cap, "%s", src ? src : ""); }

static bool name_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '-'; }

/* The parser keeps one location per item; this finds `word` in the item's first line, after
 * the item's first word, so that a message points at the offending name. */
SrcLoc sema_word_loc(const Sema *s, SrcLoc item, const char *word) {
    const struct Source *src = s->sink->source;
    size_t len = 0, wl = word ? strlen(word) : 0;
    const char *line = src && item.line > 0 ? source_line(src, item.line, &len) : NULL;
    if (!line || !wl || item.col < 1) return item;
    size_t end =
        item.end_line == item.line && item.end_col > 0 && (size_t)item.end_col < len ? (size_t)item.end_col : len;
    size_t i = (size_t)item.col - 1;
    while (i < end && name_char(line[i])) i++;
    for (; i + wl <= end; i++) {
        if (memcmp(line + i, word, wl) || (i > 0 && name_char(line[i - 1])) ||
            (i + wl < len && name_char(line[i + wl])))
            continue;
        return (SrcLoc){
            .file = item.file, .line = item.line, .col = (int)i + 1, .end_line = item.line, .end_col = (int)(i + wl)};
    }
    return item;
}

/* Same for a number written in the item. */
static SrcLoc num_loc(const Sema *s, SrcLoc item, long num) {
    char text[24];
    snprintf(text, sizeof text, "%ld", num);
    return sema_word_loc(s, item, text);
}

static const Ast *kid(const Ast *n, int i) { return (n && i < n->nkids) ? n->kids[i] : NULL; }

static ResultKind result_of(Keyword word) {
    switch (word) {
    case KEYWORD_WIN: return RESULT_WIN;
    case KEYWORD_LOSS: return RESULT_LOSS;
    case KEYWORD_PASS: return RESULT_PASS;
    case KEYWORD_WORTH: return RESULT_WORTH;
    case KEYWORD_MOST: return RESULT_MOST;
    default: return RESULT_DRAW;
    }
}

/* The conditions a steer rule may hold: comparisons of influence and rival. */
static bool is_steer_cond(Keyword word) { return word >= KEYWORD_INFLUENCE_AT_LEAST && word <= KEYWORD_RIVAL_AT_MOST; }

int sema_player(Sema *s, const char *name, SrcLoc loc) {
    for (int i = 0; i < s->v->nowners; i++)
        if (!strcmp(s->v->player_names[i], name)) return i;
    diag_error(s->sink, loc, "unknown player '%s'", name);
    return -1;
}

int sema_piece(Sema *s, const char *name, SrcLoc loc) {
    for (int i = 0; i < s->v->ntypes; i++)
        if (!strcmp(s->v->types[i].name, name)) return i;
    diag_error(s->sink, loc, "unknown piece '%s'", name);
    return -1;
}

int sema_zone(Sema *s, const char *name, SrcLoc loc) {
    for (int i = 0; i < s->v->nzones; i++)
        if (!strcmp(s->v->zones[i].name, name)) return i;
    diag_error(s->sink, loc, "unknown zone '%s'", name);
    return -1;
}

static int board_by_name(const Variant *v, const char *name) {
    for (int b = 0; b < v->nboards; b++)
        if (!strcmp(v->boards[b].name, name)) return b;
    return -1;
}

int sema_cell(Sema *s, const Ast *n) {
    char full[64];
    if (n->text2)
        snprintf(full, sizeof full, "%s:%s", n->text2, n->text);
    else
        snprintf(full, sizeof full, "%s", n->text);
    int c = variant_cell_by_name(s->v, full);
    if (c >= 0) return c;
    /* with several boards, a bare "e4" needs its board: suggest one that has it */
    for (int b = 0; b < s->v->nboards && !n->text2 && s->v->nboards > 1; b++) {
        char guess[64];
        snprintf(guess, sizeof guess, "%s:%s", s->v->boards[b].name, n->text);
        if (s->v->boards[b].name[0] && variant_cell_by_name(s->v, guess) >= 0) {
            diag_error(s->sink, n->loc, "unknown cell '%s' (with several boards, name the board: '%s')", full, guess);
            return -1;
        }
    }
    diag_error(s->sink, n->loc, "unknown cell '%s'", full);
    return c;
}

/* ---- orientation --------------------------------------------------------------------------- */

Cell sema_orient_cell(const Variant *v, Orientation o, Cell c) { return variant_orient_cell(v, o, c); }

int sema_orientation(const char *name) {
    for (int i = 0; i < ORIENT__COUNT; i++)
        if (!strcmp(variant_orientation_name((Orientation)i), name)) return i;
    return -1;
}

/* ---- directions ---------------------------------------------------------------------------- */

static const struct {
    const char *name;
    int dx, dy;
} builtin_dirs[] = {
    {"n", 0, 1}, {"s", 0, -1}, {"e", 1, 0}, {"w", -1, 0}, {"ne", 1, 1}, {"nw", -1, 1}, {"se", 1, -1}, {"sw", -1, -1},
};

/* ---- names declared twice ----------------------------------------------------------------- */

/* The word a declaration uses for its kind of item, in messages. */
static const char *declared_as(AstKind kind) {
    switch (kind) {
    case AST_DIRECTION: return "direction";
    case AST_LINK: return "link";
    case AST_DIRSET: return "direction set";
    case AST_MACRO: return "macro";
    case AST_DEFINE: return "define";
    case AST_BOARD: return "board";
    case AST_ZONE: return "zone";
    case AST_PIECE: return "piece";
    case AST_OPTION: return "option";
    case AST_COUNTER: return "counter";
    case AST_PHASE: return "phase";
    case AST_PILE: return "pile";
    default: return "item";
    }
}

/* The first item of s->items before n of the same kind and name (any of kinds, when given);
 * NULL when n is the first. */
static const Ast *declared_before(const Sema *s, const Ast *n, const AstKind *kinds, int nkinds) {
    /* (options are read before the items are chosen by them: from the file's own) */
    const Ast *items = s->items ? s->items : s->root;
    for (int i = 0; i < items->nkids && items->kids[i] != n; i++) {
        const Ast *it = items->kids[i];
        bool kind = it->kind == n->kind;
        for (int k = 0; k < nkinds; k++) kind = kind || it->kind == kinds[k];
        if (kind && it->text && n->text && !strcmp(it->text, n->text)) return it;
    }
    return NULL;
}

/* "KIND 'NAME' declared twice (first at line L)", at n's name. */
static void declared_twice(Sema *s, SrcLoc at, const Ast *n) {
    const Ast *first = declared_before(s, n, NULL, 0);
    if (first)
        diag_error(s->sink, at, "%s '%s' declared twice (first at line %d)", declared_as(n->kind), n->text,
                   first->loc.line);
    else
        diag_error(s->sink, at, "%s '%s' declared twice", declared_as(n->kind), n->text);
}

/* Names the declarations' own passes do not compare: directions, links and direction sets
 * share one set of names with the built-in ones, and macros and defines (both `use`d) have
 * theirs. Each one declared again is an error naming both lines. */
static void check_names(Sema *s) {
    static const AstKind directions[] = {AST_DIRECTION, AST_LINK, AST_DIRSET};
    static const AstKind macros[] = {AST_MACRO, AST_DEFINE};
    static const char *const builtin_sets[] = {"orth", "diag", "compass"};
    for (int i = 0; i < s->items->nkids; i++) {
        const Ast *n = s->items->kids[i];
        bool direction = n->kind == AST_DIRECTION || n->kind == AST_LINK || n->kind == AST_DIRSET;
        bool macro = n->kind == AST_MACRO || n->kind == AST_DEFINE;
        if ((!direction && !macro) || !n->text) continue;
        SrcLoc at = sema_word_loc(s, n->loc, n->text);
        bool builtin = false;
        for (size_t k = 0; direction && k < ARRAY_LEN(builtin_dirs); k++)
            builtin = builtin || !strcmp(builtin_dirs[k].name, n->text);
        for (size_t k = 0; direction && k < ARRAY_LEN(builtin_sets); k++)
            builtin = builtin || !strcmp(builtin_sets[k], n->text);
        const Ast *first = direction ? declared_before(s, n, directions, 3) : declared_before(s, n, macros, 2);
        if (builtin)
            diag_error(s->sink, at, "%s '%s' has the name of a built-in direction", declared_as(n->kind), n->text);
        else if (first && first->kind == n->kind)
            declared_twice(s, at, n);
        else if (first)
            diag_error(s->sink, at, "%s '%s' has the name of the %s at line %d", declared_as(n->kind), n->text,
                       declared_as(first->kind), first->loc.line);
    }
}

int sema_vector_dir(Sema *s, int dx, int dy, SrcLoc loc) {
    Variant *v = s->v;
    for (int i = 0; i < v->ndirs; i++)
        if (v->dirs[i].link_board < 0 && v->dirs[i].dx == dx && v->dirs[i].dy == dy) return i;
    if (v->ndirs >= MAX_DIRECTIONS) {
        diag_error(s->sink, loc, "too many directions (limit is %d)", MAX_DIRECTIONS);
        return -1;
    }
    if (dx < -MAX_BOARD_DIM || dx > MAX_BOARD_DIM || dy < -MAX_BOARD_DIM || dy > MAX_BOARD_DIM) {
        diag_error(s->sink, loc, "direction (%d,%d) is longer than any board (limit is %d)", dx, dy, MAX_BOARD_DIM);
        return -1;
    }
    s->dir_loc[v->ndirs] = loc;
    Direction *d = &v->dirs[v->ndirs];
    memset(d, 0, sizeof *d);
    d->dx = (int8_t)dx;
    d->dy = (int8_t)dy;
    d->link_board = -1;
    d->reverse = -1;
    return v->ndirs++;
}

static bool add_vec(DirList *out, int dx, int dy, int link) {
    for (int i = 0; i < out->count; i++)
        if (out->link[i] == link && (link >= 0 || (out->dx[i] == dx && out->dy[i] == dy))) return true;
    if (out->count >= MAX_DIRECTIONS) return false;
    out->dx[out->count] = (int8_t)dx;
    out->dy[out->count] = (int8_t)dy;
    out->link[out->count] = (int8_t)link;
    out->count++;
    return true;
}

static bool dirname(Sema *s, const char *name, SrcLoc loc, DirList *out, int depth) {
    Variant *v = s->v;
    for (int i = 0; i < v->ndirs; i++)
        if (v->dirs[i].name[0] && !strcmp(v->dirs[i].name, name))
            return add_vec(out, v->dirs[i].dx, v->dirs[i].dy, v->dirs[i].link_board >= 0 ? i : -1);
    for (size_t i = 0; i < ARRAY_LEN(builtin_dirs); i++)
        if (!strcmp(builtin_dirs[i].name, name)) return add_vec(out, builtin_dirs[i].dx, builtin_dirs[i].dy, -1);
    bool orth = !strcmp(name, "orth"), diag = !strcmp(name, "diag"), all = !strcmp(name, "compass");
    if (orth || diag || all) {
        for (int i = 0; i < 8; i++)
            if ((i < 4 && (orth || all)) || (i >= 4 && (diag || all)))
                add_vec(out, builtin_dirs[i].dx, builtin_dirs[i].dy, -1);
        return true;
    }
    for (int i = 0; i < s->ndirsets; i++) {
        const Ast *ds = s->dirsets[i];
        if (strcmp(ds->text, name)) continue;
        if (depth > 8) { /* sets name sets: only a cycle goes this deep */
            diag_error(s->sink, sema_word_loc(s, ds->loc, ds->text), "direction set '%s' refers to itself", name);
            return false;
        }
        bool ok = true;
        for (int k = 0; k < ds->nkids; k++) {
            const Ast *t = ds->kids[k];
            if (t->kind == AST_DIR)
                ok = dirname(s, t->text, t->loc, out, depth + 1) && ok;
            else
                ok = sema_dirterm(s, t, out) && ok;
        }
        return ok;
    }
    diag_error(s->sink, loc, "unknown direction '%s'", name);
    return false;
}

bool sema_dirterm(Sema *s, const Ast *t, DirList *out) {
    if (t->kind == AST_DIR || t->kind == AST_NAME) return dirname(s, t->text, t->loc, out, 0);
    if (t->kind != AST_VEC && t->kind != AST_SYM) {
        diag_error(s->sink, t->loc, "expected a direction");
        return false;
    }
    /* checked before the vector is narrowed to the table's small integers */
    if (labs(t->num[0]) > MAX_BOARD_DIM || labs(t->num[1]) > MAX_BOARD_DIM) {
        diag_error(s->sink, t->loc, "direction (%ld,%ld) is longer than any board (limit is %d)", t->num[0], t->num[1],
                   MAX_BOARD_DIM);
        return false;
    }
    int a = (int)t->num[0], b = (int)t->num[1];
    if (a == 0 && b == 0) {
        diag_error(s->sink, t->loc, "direction (0,0) goes nowhere");
        return false;
    }
    if (t->kind == AST_VEC) return add_vec(out, a, b, -1);
    int sx[2] = {1, -1};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            add_vec(out, sx[i] * a, sx[j] * b, -1);
            add_vec(out, sx[i] * b, sx[j] * a, -1);
        }
    return true;
}

/* ---- geometry ------------------------------------------------------------------------------ */

static void file_name(int x, char *buf) {
    if (x < 26) {
        buf[0] = (char)('a' + x);
        buf[1] = 0;
    } else {
        buf[0] = (char)('a' + x / 26 - 1);
        buf[1] = (char)('a' + x % 26);
        buf[2] = 0;
    }
}

/* The grid cell (x, y) named `name` by its place (d4), or false. */
static bool grid_cell_named(const Board *b, const char *name, int *x, int *y) {
    for (int xx = 0; xx < b->width; xx++)
        for (int yy = 0; yy < b->height; yy++) {
            char f[8], nm[24];
            file_name(xx, f);
            snprintf(nm, sizeof nm, "%s%d", f, (uint8_t)(yy + 1));
            if (!strcmp(nm, name)) {
                *x = xx, *y = yy;
                return true;
            }
        }
    return false;
}

/* A board's shape word (`board 11x11 hex`) and its `cells` items: with a list, every cell of
 * the grid not in it is a hole (hole[y][x]), and a cell listed with its place is named so
 * (named[y][x]). */
static void board_shape_and_cells(Sema *s, const Ast *n, Board *b, bool (*hole)[MAX_BOARD_DIM],
                                  const char *(*named)[MAX_BOARD_DIM]) {
    bool listed = false, keep[MAX_BOARD_DIM][MAX_BOARD_DIM] = {{false}};
    for (int i = 0; i < n->nkids; i++) {
        const Ast *k = n->kids[i];
        if (k->kind == AST_FLAG) {
            if (!strcmp(k->text, "hex"))
                b->shape = BOARD_HEX;
            else
                diag_error(s->sink, k->loc, "unknown board shape '%s' (expected hex)", k->text);
            continue;
        }
        if (k->kind != AST_CELLS) continue;
        listed = true;
        for (int j = 0; j < k->nkids; j++) {
            const Ast *c = k->kids[j];
            int x = -1, y = -1;
            if (c->sub == 1) {
                if (c->num[0] < 1 || c->num[0] > b->width || c->num[1] < 1 || c->num[1] > b->height) {
                    diag_error(s->sink, c->loc,
                               "cell '%s' at (%ld, %ld) is off the %dx%d board (file and rank count from 1)", c->text,
                               c->num[0], c->num[1], b->width, b->height);
                    continue;
                }
                x = (int)c->num[0] - 1, y = (int)c->num[1] - 1;
            } else if (!grid_cell_named(b, c->text, &x, &y)) {
                diag_error(s->sink, c->loc,
                           "unknown cell '%s' (a cell the grid does not name is given its place: %s (FILE, RANK))",
                           c->text, c->text);
                continue;
            }
            if (keep[y][x]) {
                diag_error(s->sink, c->loc, "cell '%s' is listed twice (or shares its place with another)", c->text);
                continue;
            }
            keep[y][x] = true;
            if (c->sub == 1) named[y][x] = c->text;
        }
    }
    if (!listed) return;
    b->graph = true;
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++)
            if (!keep[y][x]) hole[y][x] = true;
}

static void declare_board(Sema *s, const Ast *n) {
    Variant *v = s->v;
    if (v->nboards >= MAX_BOARDS) {
        diag_error(s->sink, n->loc, "too many boards (limit is %d)", MAX_BOARDS);
        return;
    }
    long w = n->num[0], h = n->num[1];
    if (w < 1 || h < 1) {
        diag_error(s->sink, n->loc, "board size %ldx%ld has no cells (a board is at least 1x1)", w, h);
        return;
    }
    if (w > MAX_BOARD_DIM || h > MAX_BOARD_DIM) {
        diag_error(s->sink, n->loc, "board size %ldx%ld is too large (limit is %dx%d)", w, h, MAX_BOARD_DIM,
                   MAX_BOARD_DIM);
        return;
    }
    if (v->ncells + w * h > MAX_CELLS) {
        diag_error(s->sink, n->loc, "too many cells (limit is %d)", MAX_CELLS);
        return;
    }
    Board *b = &v->boards[v->nboards];
    copy_name(b->name, sizeof b->name, n->text ? n->text : "");
    if (n->text2 && strlen(n->text2) >= sizeof b->title)
        diag_error(s->sink, sema_word_loc(s, n->loc, n->text2),
                   "board title \"%s\" is too long (limit is %d characters)", n->text2, (int)sizeof b->title - 1);
    copy_name(b->title, sizeof b->title, n->text2 ? n->text2 : "");
    /* cells of several boards are named "board:e4" */
    if (!n->text && v->nboards > 0) diag_error(s->sink, n->loc, "a second board needs a name (board NAME WxH)");
    if (n->text && v->nboards > 0 && !v->boards[0].name[0])
        diag_error(s->sink, n->loc, "the first board needs a name too, when there are several");
    if (n->text && board_by_name(v, n->text) >= 0) declared_twice(s, sema_word_loc(s, n->loc, n->text), n);
    b->width = (int)w;
    b->height = (int)h;
    b->first_cell = v->ncells;
    s->board_items[v->nboards] = n;
    v->nboards++;
    /* holes are collected first so cell ids stay dense; with `cells`, every cell not listed is
     * one, and a cell listed with its place takes the name given */
    bool hole[MAX_BOARD_DIM][MAX_BOARD_DIM] = {{false}};
    const char *named[MAX_BOARD_DIM][MAX_BOARD_DIM] = {{NULL}};
    board_shape_and_cells(s, n, b, hole, named);
    for (int i = 0; i < n->nkids; i++) {
        const Ast *hs = n->kids[i];
        if (hs->kind != AST_HOLES) continue;
        if (hs->sub != HOLES_LISTED)
            for (int y = 0; y < b->height; y++)
                for (int x = 0; x < b->width; x++)
                    if (((x + y) % 2 == 0) == (hs->sub == HOLES_DARK)) hole[y][x] = true;
        for (int k = 0; k < hs->nkids; k++) {
            const Ast *c = hs->kids[k];
            char f[8];
            int x = -1, y = -1;
            for (int xx = 0; xx < b->width && x < 0; xx++)
                for (int yy = 0; yy < b->height; yy++) {
                    char nm[16];
                    file_name(xx, f);
                    snprintf(nm, sizeof nm, "%s%d", f, (uint8_t)(yy + 1));
                    if (!strcmp(nm, c->text)) {
                        x = xx;
                        y = yy;
                        break;
                    }
                }
            if (x < 0)
                diag_error(s->sink, c->loc, "unknown cell '%s'", c->text);
            else
                hole[y][x] = true;
        }
    }
    for (int y = 0; y < b->height; y++)
        for (int x = 0; x < b->width; x++) {
            if (hole[y][x]) {
                b->at[y][x] = NO_CELL;
                continue;
            }
            Cell c = (Cell)v->ncells++;
            b->at[y][x] = c;
            CellInfo *ci = &v->cells[c];
            ci->board = (uint8_t)(v->nboards - 1);
            ci->x = (uint8_t)x;
            ci->y = (uint8_t)y;
            char f[8];
            file_name(x, f);
            if (named[y][x])
                snprintf(ci->name, sizeof ci->name, "%s", named[y][x]);
            else
                snprintf(ci->name, sizeof ci->name, "%s%d", f, (uint8_t)(y + 1));
            v->colour[c] = (uint8_t)((x + y) & 1);
        }
    b->count = v->ncells - b->first_cell;
    /* (a cell named freely may take the name another cell has by its place) */
    for (int c = b->first_cell; c < v->ncells; c++)
        for (int k = b->first_cell; k < c; k++)
            if (!strcmp(v->cells[c].name, v->cells[k].name)) {
                diag_error(s->sink, n->loc, "two cells of the board are named '%s'", v->cells[c].name);
                return;
            }
}

/* The holding cells of every board (`holding NAME ...`, a row each), after the cells of all
 * the grids: no grid place, no neighbour unless a link names them. */
static void declare_holding(Sema *s) {
    Variant *v = s->v;
    v->board_cells = v->ncells;
    for (int c = 0; c < v->ncells; c++) v->on_board[c >> 6] |= 1ULL << (c & 63);
    for (int b = 0; b < v->nboards; b++) {
        Board *bd = &v->boards[b];
        const Ast *n = s->board_items[b];
        bd->holding_first = v->ncells;
        for (int i = 0; n && i < n->nkids; i++) {
            const Ast *row = n->kids[i];
            if (row->kind != AST_HOLDING) continue;
            if (bd->holding_rows >= MAX_HOLDING_ROWS) {
                diag_error(s->sink, row->loc, "too many rows of holding cells on one board (limit is %d)",
                           MAX_HOLDING_ROWS);
                break;
            }
            if (row->nkids > MAX_BOARD_DIM) {
                diag_error(s->sink, row->kids[MAX_BOARD_DIM]->loc,
                           "too many holding cells in one row (limit is %d: write another 'holding' row)",
                           MAX_BOARD_DIM);
                continue;
            }
            int y = bd->holding_rows++;
            for (int k = 0; k < row->nkids; k++) {
                const Ast *c = row->kids[k];
                int gx, gy;
                if (grid_cell_named(bd, c->text, &gx, &gy)) {
                    diag_error(s->sink, c->loc,
                               "holding cell '%s' is named like a cell of the %dx%d grid (give it a name of its own)",
                               c->text, bd->width, bd->height);
                    continue;
                }
                bool twice = false;
                for (int e = bd->first_cell; e < v->ncells && !twice; e++) {
                    if (v->cells[e].board != b || strcmp(v->cells[e].name, c->text)) continue;
                    diag_error(s->sink, c->loc, "cell '%s' is named twice (a holding cell needs a name of its own)",
                               c->text);
                    twice = true;
                }
                if (twice) continue;
                if (strlen(c->text) > (v->nboards > 1 ? 6 : MAX_NAME)) {
                    diag_error(s->sink, c->loc, "holding cell name '%s' is too long (limit is %d characters)", c->text,
                               v->nboards > 1 ? 6 : MAX_NAME);
                    continue;
                }
                if (v->ncells >= MAX_CELLS) {
                    diag_error(s->sink, c->loc, "too many cells (limit is %d)", MAX_CELLS);
                    return;
                }
                CellInfo *ci = &v->cells[v->ncells++];
                *ci = (CellInfo){.board = (uint8_t)b, .x = (uint8_t)k, .y = (uint8_t)y, .holding = true};
                snprintf(ci->name, sizeof ci->name, "%s", c->text);
            }
        }
        bd->nholding = v->ncells - bd->holding_first;
    }
}

/* With several boards, cells are named "board:e4". */
static void qualify_cell_names(Variant *v) {
    if (v->nboards < 2) return;
    for (int c = 0; c < v->ncells; c++) {
        CellInfo *ci = &v->cells[c];
        char cell[12], board[16];
        snprintf(cell, sizeof cell, "%s", ci->name);
        snprintf(board, sizeof board, "%s", v->boards[ci->board].name);
        snprintf(ci->name, sizeof ci->name, "%.15s:%.6s", board, cell);
    }
}

/* ---- zones --------------------------------------------------------------------------------- */

static void zone_add_cell(Zone *z, int owner, Cell c) { z->cells[owner][c >> 6] |= 1ULL << (c & 63); }

/* The cells of a zone declared before, named among a zone's cells: the same for every player. */
static bool zone_by_name(Sema *s, const Ast *spec, uint64_t *bits) {
    Variant *v = s->v;
    if (spec->text2) return false;
    for (int z = 0; z < v->nzones; z++) {
        if (strcmp(v->zones[z].name, spec->text)) continue;
        for (int o = 1; o < v->nowners; o++)
            if (memcmp(v->zones[z].cells[o], v->zones[z].cells[0], sizeof v->zones[z].cells[0])) {
                diag_error(s->sink, spec->loc,
                           "zone '%s' differs from player to player: a zone made of it names its cells", spec->text);
                return true;
            }
        for (int w = 0; w < CELL_WORDS; w++) bits[w] |= v->zones[z].cells[0][w];
        return true;
    }
    return false;
}

static void zone_cells(Sema *s, const Ast *spec, uint64_t *bits) {
    Variant *v = s->v;
    switch (spec->kind) {
    case AST_NAME: {
        char full[64];
        snprintf(full, sizeof full, "%s%s%s", spec->text2 ? spec->text2 : "", spec->text2 ? ":" : "", spec->text);
        /* a cell, or a zone declared before */
        if (variant_cell_by_name(v, full) < 0 && zone_by_name(s, spec, bits)) break;
        int c = sema_cell(s, spec);
        if (c >= 0) bits[c >> 6] |= 1ULL << (c & 63);
        break;
    }
    case AST_EXCEPT: break; /* (declare_zone takes these cells out) */
    case AST_ALL:           /* (the board's cells: holding cells only by name) */
        for (int c = 0; c < v->board_cells; c++) bits[c >> 6] |= 1ULL << (c & 63);
        break;
    case AST_RANK:
    case AST_FILE_SPEC: {
        const char *bname = spec->kind == AST_RANK ? spec->text : spec->text2;
        int b = 0;
        if (bname) {
            b = board_by_name(v, bname);
            if (b < 0) {
                diag_error(s->sink, spec->loc, "unknown board '%s'", bname);
                return;
            }
        }
        if (v->nboards == 0) return;
        const Board *bd = &v->boards[b];
        int want = -1;
        if (spec->kind == AST_RANK) {
            want = (int)spec->num[0] - 1;
            if (want < 0 || want >= bd->height) {
                diag_error(s->sink, spec->loc, "rank %ld is not on the board", spec->num[0]);
                return;
            }
        } else {
            for (int x = 0; x < bd->width; x++) {
                char f[8];
                file_name(x, f);
                if (!strcmp(f, spec->text)) want = x;
            }
            if (want < 0) {
                diag_error(s->sink, spec->loc, "unknown file '%s'", spec->text);
                return;
            }
        }
        for (int y = 0; y < bd->height; y++)
            for (int x = 0; x < bd->width; x++) {
                if ((spec->kind == AST_RANK ? y : x) != want) continue;
                Cell c = bd->at[y][x];
                if (c != NO_CELL) bits[c >> 6] |= 1ULL << (c & 63);
            }
        break;
    }
    default: diag_error(s->sink, spec->loc, "expected a cell, rank, file or 'all'");
    }
}

static void declare_zone(Sema *s, const Ast *n) {
    Variant *v = s->v;
    int zi = -1;
    for (int i = 0; i < v->nzones; i++)
        if (!strcmp(v->zones[i].name, n->text)) zi = i;
    if (zi >= 0 && n->sub != ZONE_FOR) {
        declared_twice(s, sema_word_loc(s, n->loc, n->text), n);
        return;
    }
    if (zi < 0) {
        if (v->nzones >= MAX_ZONES) {
            diag_error(s->sink, n->loc, "too many zones (limit is %d)", MAX_ZONES);
            return;
        }
        zi = v->nzones++;
        copy_name(v->zones[zi].name, sizeof v->zones[zi].name, n->text);
    }
    Zone *z = &v->zones[zi];
    uint64_t bits[CELL_WORDS] = {0}, out[CELL_WORDS] = {0};
    for (int i = 0; i < n->nkids; i++) zone_cells(s, n->kids[i], bits);
    /* `except CELLS`: taken out again */
    const Ast *except = n->nkids ? n->kids[n->nkids - 1] : NULL;
    for (int i = 0; except && except->kind == AST_EXCEPT && i < except->nkids; i++) zone_cells(s, except->kids[i], out);
    for (int w = 0; w < CELL_WORDS; w++) bits[w] &= ~out[w];
    for (int o = 0; o < v->nowners; o++) {
        if (n->sub == ZONE_FOR) {
            int p = sema_player(s, n->text2, sema_word_loc(s, n->loc, n->text2));
            if (p < 0) return;
            if (p != o) continue;
        }
        for (int c = 0; c < v->ncells; c++) {
            if (!((bits[c >> 6] >> (c & 63)) & 1)) continue;
            Cell t = n->sub == ZONE_RELATIVE ? sema_orient_cell(v, v->orient[o], (Cell)c) : (Cell)c;
            if (t != NO_CELL) zone_add_cell(z, o, t);
        }
    }
}

/* ---- pieces -------------------------------------------------------------------------------- */

/* Expands USE (macros) and WHEN (options) inside a piece body into `out` (a BLOCK). */
static void expand_items(Sema *s, const Ast *body, int first, Ast *out, int depth, long *budget);

static void substitute(Ast *n, const Ast *macro, const Ast *use) {
    int np = (int)macro->num[0];
    for (int k = 0; k < n->nkids; k++) {
        Ast *c = n->kids[k];
        /* a direction, or an argument passed on to a nested macro (which may be a vector) */
        if (c->kind == AST_DIR || (c->kind == AST_NAME && n->kind == AST_USE)) {
            for (int p = 0; p < np && p < use->nkids; p++)
                if (!strcmp(c->text, macro->kids[p]->text)) {
                    Ast *rep = ast_clone(use->kids[p]);
                    if (rep->kind == AST_NAME) rep->kind = AST_DIR;
                    rep->loc = c->loc;
                    ast_free(c);
                    n->kids[k] = c = rep;
                    break;
                }
        }
        substitute(c, macro, use);
    }
    for (int p = 0; p < np && p < use->nkids; p++) {
        const Ast *arg = use->kids[p];
        if (arg->kind != AST_DIR && arg->kind != AST_NAME) continue;
        const char *pname = macro->kids[p]->text;
        if (n->text && n->kind != AST_DIR && !strcmp(n->text, pname)) {
            free(n->text);
            n->text = xstrdup(arg->text);
        }
        if (n->text2 && !strcmp(n->text2, pname)) {
            free(n->text2);
            n->text2 = xstrdup(arg->text);
        }
    }
}

static int option_index(const Variant *v, const char *name) {
    for (int i = 0; i < v->noptions; i++)
        if (!strcmp(v->options[i].name, name)) return i;
    return -1;
}

static bool when_holds(Sema *s, const Ast *n) {
    int oi = option_index(s->v, n->text);
    if (oi < 0) {
        diag_error(s->sink, sema_word_loc(s, n->loc, n->text), "unknown option '%s'", n->text);
        return false;
    }
    const OptionDef *od = &s->v->options[oi];
    for (int k = 0; k < od->nvalues; k++)
        if (!strcmp(od->values[k], n->text2)) return k == od->value;
    diag_error(s->sink, sema_word_loc(s, n->loc, n->text2), "option '%s' has no value '%s'", n->text, n->text2);
    return false;
}

static long ast_size(const Ast *n) {
    long k = 1;
    for (int i = 0; i < n->nkids; i++)
        if (n->kids[i]) k += ast_size(n->kids[i]);
    return k;
}

/* The macro (MACRO: piece items) or define (DEFINE: statements) of that name, or NULL. */
static const Ast *find_macro(const Sema *s, const char *name, AstKind kind) {
    for (int k = 0; k < s->nmacros; k++)
        if (s->macros[k]->kind == kind && !strcmp(s->macros[k]->text, name)) return s->macros[k];
    return NULL;
}

/* The defines being expanded, outermost first: a define met again inside itself would never
 * end (expansion is inline), so it is an error. */
typedef struct DefineStack {
    const Ast *defs[MAX_MACRO_DEPTH];
    int n;
} DefineStack;

static void expand_statements(Sema *s, Ast *block, DefineStack *stack, long *budget);

/* `use NAME(ARGS)` in a move block: the define's statements with its parameters replaced by
 * the arguments, themselves expanded (a BLOCK); NULL after an error. */
static Ast *expand_use(Sema *s, const Ast *use, DefineStack *stack, long *budget) {
    SrcLoc at = sema_word_loc(s, use->loc, use->text);
    const Ast *d = find_macro(s, use->text, AST_DEFINE);
    if (!d) {
        if (find_macro(s, use->text, AST_MACRO))
            diag_error(s->sink, at, "'%s' is a macro of piece items: a move block uses a define", use->text);
        else
            diag_error(s->sink, at, "unknown define '%s'", use->text);
        return NULL;
    }
    if (use->nkids != d->num[0]) {
        diag_error(s->sink, use->loc, "define '%s' takes %ld argument%s, not %d", use->text, d->num[0],
                   d->num[0] == 1 ? "" : "s", use->nkids);
        return NULL;
    }
    for (int i = 0; i < stack->n; i++)
        if (stack->defs[i] == d) {
            if (i == stack->n - 1)
                diag_error(s->sink, at, "define '%s' uses itself", use->text);
            else
                diag_error(s->sink, at, "define '%s' uses itself (through '%s')", use->text, stack->defs[i + 1]->text);
            return NULL;
        }
    if (stack->n >= MAX_MACRO_DEPTH) {
        diag_error(s->sink, use->loc, "macros nested too deep (limit is %d)", MAX_MACRO_DEPTH);
        return NULL;
    }
    const Ast *body = d->kids[d->num[0]];
    if ((*budget -= ast_size(body)) < 0) return NULL;
    Ast *copy = ast_clone(body);
    substitute(copy, d, use);
    stack->defs[stack->n++] = d;
    expand_statements(s, copy, stack, budget);
    stack->n--;
    return copy;
}

/* `for D in DIRS { BODY }`: an either of BODY once per direction of DIRS, with D replaced by
 * it (the body alone for a single direction); NULL after an error. */
static Ast *expand_for(Sema *s, const Ast *loop, DefineStack *stack, long *budget) {
    DirList dl = {0};
    const Ast *terms = loop->kids[0];
    bool ok = true;
    for (int i = 0; i < terms->nkids; i++) ok = sema_dirterm(s, terms->kids[i], &dl) && ok;
    if (!ok) return NULL;
    /* the loop's variable as a one-parameter macro, each direction as the argument of a use */
    Ast *param = ast_new_text(AST_NAME, loop->loc, loop->text);
    Ast *as_macro = ast_add(ast_new_text(AST_DEFINE, loop->loc, loop->text), param);
    as_macro->num[0] = 1;
    Ast *alts = ast_new(dl.count == 1 ? AST_BLOCK : AST_EITHER, loop->loc);
    for (int k = 0; k < dl.count && *budget >= 0; k++) {
        Ast *arg;
        if (dl.link[k] >= 0) {
            arg = ast_new_text(AST_DIR, terms->loc, s->v->dirs[dl.link[k]].name);
        } else {
            arg = ast_new(AST_VEC, terms->loc);
            arg->num[0] = dl.dx[k];
            arg->num[1] = dl.dy[k];
        }
        Ast *use = ast_add(ast_new_text(AST_USE, loop->loc, loop->text), arg);
        if ((*budget -= ast_size(loop->kids[1])) < 0) {
            ast_free(use);
            break;
        }
        Ast *body = ast_clone(loop->kids[1]);
        substitute(body, as_macro, use);
        expand_statements(s, body, stack, budget);
        ast_free(use);
        if (dl.count == 1) {
            ast_free(alts);
            alts = body;
        } else {
            ast_add(alts, body);
        }
    }
    ast_free(as_macro);
    return alts;
}

/* Expands, in place, every `use` of a define and every `for` loop among the statements of
 * block and the blocks inside them. */
static void expand_statements(Sema *s, Ast *block, DefineStack *stack, long *budget) {
    for (int i = 0; i < block->nkids && *budget >= 0; i++) {
        Ast *st = block->kids[i];
        if (st->kind == AST_USE || st->kind == AST_FOR) {
            Ast *rep = st->kind == AST_USE ? expand_use(s, st, stack, budget) : expand_for(s, st, stack, budget);
            block->kids[i] = rep ? rep : ast_new(AST_BLOCK, st->loc);
            ast_free(st);
            continue;
        }
        for (int k = 0; k < st->nkids; k++)
            if (st->kids[k]->kind == AST_BLOCK) expand_statements(s, st->kids[k], stack, budget);
    }
}

/* budget: syntax nodes this piece may still copy (MAX_EXPANSION). Macros that use each other
 * several times grow exponentially: the copying stops when the budget goes below 0 (the
 * caller reports it) instead of running out of memory. */
static void expand_items(Sema *s, const Ast *body, int first, Ast *out, int depth, long *budget) {
    for (int i = first; i < body->nkids && *budget >= 0; i++) {
        const Ast *it = body->kids[i];
        if (it->kind == AST_WHEN) {
            if (when_holds(s, it)) expand_items(s, it, 0, out, depth, budget);
            continue;
        }
        if ((*budget -= ast_size(it)) < 0) return;
        if (it->kind == AST_MOVEBLOCK || it->kind == AST_DROPBLOCK) {
            Ast *block = ast_clone(it);
            DefineStack stack = {.n = 0};
            expand_statements(s, block, &stack, budget);
            ast_add(out, block);
            continue;
        }
        if (it->kind != AST_USE) {
            ast_add(out, ast_clone(it));
            continue;
        }
        const Ast *m = find_macro(s, it->text, AST_MACRO);
        if (!m) {
            if (find_macro(s, it->text, AST_DEFINE))
                diag_error(s->sink, sema_word_loc(s, it->loc, it->text),
                           "'%s' is a define of statements: use it inside a move block", it->text);
            else
                diag_error(s->sink, sema_word_loc(s, it->loc, it->text), "unknown macro '%s'", it->text);
            continue;
        }
        if (it->nkids != m->num[0]) {
            diag_error(s->sink, it->loc, "macro '%s' takes %ld argument%s, not %d", it->text, m->num[0],
                       m->num[0] == 1 ? "" : "s", it->nkids);
            continue;
        }
        if (depth >= MAX_MACRO_DEPTH) {
            diag_error(s->sink, it->loc, "macros nested too deep (limit is %d)", MAX_MACRO_DEPTH);
            continue;
        }
        Ast *tmp = ast_new(AST_BLOCK, it->loc);
        for (int k = (int)m->num[0]; k < m->nkids; k++) {
            Ast *c = ast_clone(m->kids[k]);
            Ast *wrap = ast_new(AST_BLOCK, c->loc);
            ast_add(wrap, c);
            substitute(wrap, m, it);
            ast_add(tmp, wrap->kids[0]);
            wrap->nkids = 0;
            ast_free(wrap);
        }
        expand_items(s, tmp, 0, out, depth + 1, budget);
        ast_free(tmp);
    }
}

static void declare_piece(Sema *s, const Ast *n) {
    Variant *v = s->v;
    for (int i = 0; i < v->ntypes; i++)
        if (!strcmp(v->types[i].name, n->text)) {
            declared_twice(s, sema_word_loc(s, n->loc, n->text), n);
            return;
        }
    if (v->ntypes >= MAX_PIECE_TYPES) {
        diag_error(s->sink, n->loc, "too many piece types (limit is %d)", MAX_PIECE_TYPES);
        return;
    }
    int t = v->ntypes++;
    PieceType *pt = &v->types[t];
    copy_name(pt->name, sizeof pt->name, n->text);
    s->pieces[t] = n;
}

static void piece_attributes(Sema *s, int t) {
    Variant *v = s->v;
    PieceType *pt = &v->types[t];
    const Ast *items = s->piece_items[t];
    for (int i = 0; i < items->nkids; i++) {
        const Ast *it = items->kids[i];
        switch (it->kind) {
        case AST_LETTER: {
            char c = it->text[0];
            if (strlen(it->text) != 1 || !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
                diag_error(s->sink, it->loc, "a piece letter is one letter A-Z, not '%s'", it->text);
                break;
            }
            if (c >= 'a') c = (char)(c - 'a' + 'A');
            bool promoted = it->sub == 1;
            for (int k = 0; k < v->ntypes; k++)
                if (k != t && v->types[k].letter == c && v->types[k].promoted == promoted)
                    diag_error(s->sink, it->loc, "letter '%s%c' is already used by piece '%s'", promoted ? "+" : "", c,
                               v->types[k].name);
            pt->letter = c;
            pt->promoted = promoted;
            break;
        }
        case AST_SYMBOL:
            for (int k = 0; k < it->nkids && k < MAX_OWNERS; k++) {
                if (strlen(it->kids[k]->text) > MAX_SYMBOL)
                    diag_error(s->sink, it->kids[k]->loc, "symbol \"%s\" is too long (limit is %d bytes)",
                               it->kids[k]->text, MAX_SYMBOL);
                copy_name(pt->symbol[k], sizeof pt->symbol[k], it->kids[k]->text);
            }
            break;
        case AST_HELP:
            if (pt->help) diag_error(s->sink, it->loc, "piece '%s' has its help twice", pt->name);
            free(pt->help);
            pt->help = xstrdup(it->text);
            break;
        case AST_WRITTEN: {
            /* a mark no other part of the position text uses: not a letter, digit or separator */
            char c = it->text[0];
            if (strlen(it->text) != 1 || c <= ' ' || c > '~' || isalnum((unsigned char)c) || strchr("/|[]:+~-.,", c)) {
                diag_error(s->sink, it->loc,
                           "a piece is written as one mark such as '*' (not a letter, digit, space or one of / | [ ] : "
                           "+ ~ - . ,), not \"%s\"",
                           it->text);
                break;
            }
            for (int k = 0; k < v->ntypes; k++)
                if (k != t && v->types[k].written == c)
                    diag_error(s->sink, it->loc, "'%c' is already written for piece '%s'", c, v->types[k].name);
            pt->written = c;
            break;
        }
        case AST_VALUE:
            if (it->num[0] < 0 || it->num[0] > 100000)
                diag_error(s->sink, it->loc, "value %ld is out of range (0..100000)", it->num[0]);
            else
                pt->value = (int)it->num[0];
            break;
        case AST_INFLUENCE:
            if (it->num[0] < 0 || it->num[0] > MAX_INFLUENCE)
                diag_error(s->sink, it->loc, "influence %ld is out of range (0..%d)", it->num[0], MAX_INFLUENCE);
            else
                pt->influence = (int)it->num[0];
            break;
        case AST_WORTH:
            if (it->num[0] < 0 || it->num[0] > 1000)
                diag_error(s->sink, it->loc, "worth %ld is out of range (0..1000)", it->num[0]);
            else
                pt->worth = (int)it->num[0];
            break;
        case AST_FLAG:
            if (it->nkids && strcmp(it->text, "royal"))
                diag_error(s->sink, it->loc, "only 'royal' takes 'for PLAYER' (not '%s')", it->text);
            else if (!strcmp(it->text, "royal") && it->nkids) /* `royal for PLAYER...` */
                for (int k = 0; k < it->kids[0]->nkids; k++) {
                    const Ast *name = it->kids[0]->kids[k];
                    int o = sema_player(s, name->text, name->loc);
                    if (o >= 0) pt->royal_for |= (uint8_t)(1u << o);
                }
            else if (!strcmp(it->text, "royal"))
                pt->royal_for = 0xFF;
            else if (!strcmp(it->text, "resets-nmove"))
                pt->resets_nmove = true;
            else if (!strcmp(it->text, "freezes"))
                v->freezer_mask |= 1u << t;
            else if (!strcmp(it->text, "mine-proof"))
                pt->mine_proof = true;
            else if (!strcmp(it->text, "no-doubled-drop"))
                pt->drop_not_doubled = true;
            else if (!strcmp(it->text, "no-mate-drop"))
                pt->drop_no_mate = v->drop_no_mate = true;
            else if (!strcmp(it->text, "never-stuck"))
                pt->never_stuck = true;
            else if (!strcmp(it->text, "must-drop")) {
                v->must_drop_types |= 1u << t;
                if (!s->must_drop_loc.line) s->must_drop_loc = it->loc;
            } else if (!strcmp(it->text, "opposite-colour"))
                v->colour_apart_mask |= 1u << t;
            else if (!strcmp(it->text, "castling-rook")) {
                if (v->castling_rook != NO_TYPE && v->castling_rook != t)
                    diag_error(s->sink, it->loc, "one piece type is the castling rook ('%s' is already)",
                               v->types[v->castling_rook].name);
                v->castling_rook = (uint8_t)t;
            } else if (!strcmp(it->text, "explodes")) {
                v->blast_mask |= 1u << t;
                if (!s->blast_loc.line) s->blast_loc = it->loc;
            } else if (!strcmp(it->text, "blast-proof")) {
                v->blast_proof_mask |= 1u << t;
                if (!s->blast_proof_loc.line) s->blast_proof_loc = it->loc;
            } else
                diag_error(s->sink, it->loc,
                           "unknown piece property '%s' (expected royal, resets-nmove, freezes, mine-proof, explodes, "
                           "blast-proof, "
                           "opposite-colour, castling-rook, no-doubled-drop, no-mate-drop, must-drop or never-stuck)",
                           it->text);
            break;
        default: break;
        }
    }
    bool has_letter = false;
    for (int i = 0; i < items->nkids; i++) has_letter = has_letter || items->kids[i]->kind == AST_LETTER;
    /* a bad letter was reported already */
    if (!has_letter)
        diag_error(s->sink, sema_word_loc(s, s->pieces[t]->loc, pt->name), "piece '%s' has no letter", pt->name);
    pt->royal = pt->royal_for != 0;
    if (pt->royal) v->has_royal = true;
}

/* A promoted type (`letter +P`) demotes to the plain type lettered P. */
static void promoted_base(Sema *s, int t) {
    Variant *v = s->v;
    PieceType *pt = &v->types[t];
    pt->base = (uint8_t)t;
    if (!pt->promoted) return;
    int base = variant_type_by_letter(v, pt->letter);
    if (base >= 0) {
        pt->base = (uint8_t)base;
        return;
    }
    const Ast *items = s->piece_items[t];
    for (int i = 0; i < items->nkids; i++)
        if (items->kids[i]->kind == AST_LETTER && items->kids[i]->sub == 1)
            diag_error(s->sink, items->kids[i]->loc, "no piece has the letter '%c' that '+%c' promotes", pt->letter,
                       pt->letter);
}

/* ---- the top level ------------------------------------------------------------------------- */

int sema_kind(Sema *s, const char *name, SrcLoc loc) {
    for (int i = 0; i < s->v->nkinds; i++)
        if (!strcmp(s->v->kind_names[i], name)) return i;
    diag_error(s->sink, loc, "unknown move kind '%s' (a phase or a prelude step names it)", name);
    return -1;
}

int sema_pile(Sema *s, const char *name, SrcLoc loc) {
    for (int i = 0; i < s->v->npiles; i++)
        if (!strcmp(s->v->piles[i].name, name)) return i;
    diag_error(s->sink, loc, "unknown pile '%s'", name);
    return -1;
}

static void declare_pile(Sema *s, const Ast *n) {
    Variant *v = s->v;
    for (int i = 0; i < v->npiles; i++)
        if (!strcmp(v->piles[i].name, n->text)) {
            declared_twice(s, sema_word_loc(s, n->loc, n->text), n);
            return;
        }
    int slots = (n->sub & 1) ? v->nplayers : 1;
    if (v->npiles >= MAX_PILES || v->npile_slots + slots > MAX_PILE_SLOTS) {
        diag_error(s->sink, n->loc,
                   "too many piles (limit is %d declarations and %d piles; a per-player pile takes one per player)",
                   MAX_PILES, MAX_PILE_SLOTS);
        return;
    }
    if (n->nkids > MAX_PILE_CARDS) {
        diag_error(s->sink, n->kids[MAX_PILE_CARDS]->loc, "too many cards in one pile (limit is %d)", MAX_PILE_CARDS);
        return;
    }
    PileDef *p = &v->piles[v->npiles];
    memset(p, 0, sizeof *p);
    copy_name(p->name, sizeof p->name, n->text);
    p->per_player = (n->sub & 1) != 0;
    p->sorted = (n->sub & 2) != 0;
    for (int i = 0; i < n->nkids; i++) {
        long c = n->kids[i]->num[0];
        if (c < 1 || c > 255) {
            diag_error(s->sink, n->kids[i]->loc, "card %ld is out of range (1..255)", c);
            return;
        }
        p->init[p->ninit++] = (uint8_t)c;
    }
    p->slot = (uint8_t)v->npile_slots;
    v->npile_slots += slots;
    v->npiles++;
}

static void declare_card_rule(Sema *s, const Ast *n) {
    Variant *v = s->v;
    int kind = sema_kind(s, n->text, sema_word_loc(s, n->loc, n->text));
    int from = sema_pile(s, n->kids[0]->text, n->kids[0]->loc);
    int to = sema_pile(s, n->kids[1]->text, n->kids[1]->loc);
    if (kind < 0 || from < 0 || to < 0) return;
    int *count = n->sub ? &v->npays : &v->ndraws;
    if (*count >= MAX_CARD_RULES) {
        diag_error(s->sink, n->loc, "too many %s rules (limit is %d)", n->sub ? "pay" : "draw", MAX_CARD_RULES);
        return;
    }
    if (n->sub && from == to) {
        diag_error(s->sink, n->kids[1]->loc, "a payment goes to another pile than the one it is paid from");
        return;
    }
    /* (each card is an effect of the move, and no pile holds more than MAX_PILE_CARDS) */
    const int most_cards = MAX_PILE_CARDS < MAX_EFFECTS ? MAX_PILE_CARDS : MAX_EFFECTS;
    if (!n->sub && (n->num[0] < 1 || n->num[0] > most_cards)) {
        diag_error(s->sink, n->loc, "card count %ld is out of range (1..%d)", n->num[0], most_cards);
        return;
    }
    if (n->text2 && strcmp(n->text2, "own")) {
        diag_error(s->sink, sema_word_loc(s, n->loc, n->text2), "unknown word '%s' (expected own or a pile)", n->text2);
        return;
    }
    CardRule *cr = n->sub ? &v->pays[*count] : &v->draws[*count];
    *cr = (CardRule){.kind = (uint8_t)kind,
                     .from = (uint8_t)from,
                     .to = (uint8_t)to,
                     .count = (uint8_t)(n->sub ? 1 : n->num[0]),
                     .own = n->text2 != NULL};
    (*count)++;
}

/* The move kind NAME, declared by naming it (in a phase or a prelude step). */
int sema_name_kind(Sema *s, const char *name, SrcLoc loc) {
    Variant *v = s->v;
    for (int i = 0; i < v->nkinds; i++)
        if (!strcmp(v->kind_names[i], name)) return i;
    if (v->nkinds >= MAX_MOVE_KINDS) {
        diag_error(s->sink, loc, "too many move kinds (limit is %d)", MAX_MOVE_KINDS);
        return -1;
    }
    copy_name(v->kind_names[v->nkinds], sizeof v->kind_names[0], name);
    return v->nkinds++;
}

/* `priority KIND ...`: the kinds, most preferred first (declared by naming them). */
static void declare_priority(Sema *s, const Ast *n) {
    Variant *v = s->v;
    if (v->npriorities) {
        diag_error(s->sink, n->loc, "a game has one 'priority' list");
        return;
    }
    for (int i = 0; i < n->nkids; i++) {
        int k = sema_name_kind(s, n->kids[i]->text, n->kids[i]->loc);
        if (k < 0) return;
        for (int j = 0; j < v->npriorities; j++)
            if (v->priority[j] == k) {
                diag_error(s->sink, n->kids[i]->loc, "move kind '%s' is named twice", n->kids[i]->text);
                return;
            }
        v->priority[v->npriorities++] = (uint8_t)k;
    }
}

/* A phase of the turn; the move kinds it names are declared by naming them. */
static void declare_phase(Sema *s, const Ast *n) {
    Variant *v = s->v;
    if (v->nphases >= MAX_PHASES) {
        diag_error(s->sink, n->loc, "too many phases (limit is %d)", MAX_PHASES);
        return;
    }
    for (int i = 0; i < v->nphases; i++)
        if (!strcmp(v->phases[i].name, n->text)) {
            declared_twice(s, sema_word_loc(s, n->loc, n->text), n);
            return;
        }
    PhaseDef *ph = &v->phases[v->nphases];
    memset(ph, 0, sizeof *ph);
    copy_name(ph->name, sizeof ph->name, n->text);
    if (n->sub) {
        if (n->num[0] < 1 || n->num[0] > 100) {
            diag_error(s->sink, n->loc, "phase limit %ld is out of range (1..100)", n->num[0]);
            return;
        }
        ph->max = (uint8_t)n->num[0];
    } else if (!strcmp(n->text2, "once")) {
        ph->min = ph->max = 1;
    } else if (strcmp(n->text2, "any")) {
        diag_error(s->sink, sema_word_loc(s, n->loc, n->text2),
                   "unknown phase limit '%s' (expected once, any or at-most N)", n->text2);
        return;
    }
    for (int k = 0; k < n->nkids; k++) {
        int kind = sema_name_kind(s, n->kids[k]->text, n->kids[k]->loc);
        if (kind >= 0) ph->kinds |= 1u << kind;
    }
    v->nphases++;
}

/* A set-up step: PLAYER makes N moves of KIND (a kind named here exists). */
static void declare_prelude(Sema *s, const Ast *n) {
    Variant *v = s->v;
    if (v->nprelude >= MAX_PRELUDE) {
        diag_error(s->sink, n->loc, "too many prelude steps (limit is %d)", MAX_PRELUDE);
        return;
    }
    int player = sema_player(s, n->text, sema_word_loc(s, n->loc, n->text));
    int kind = sema_name_kind(s, n->text2, sema_word_loc(s, n->loc, n->text2));
    if (player < 0 || kind < 0) return;
    if (n->num[0] < 1 || n->num[0] > 100) {
        diag_error(s->sink, n->loc, "move count %ld is out of range (1..100)", n->num[0]);
        return;
    }
    v->prelude[v->nprelude++] =
        (PreludeStep){.player = (uint8_t)player, .kind = (uint8_t)kind, .moves = (uint8_t)n->num[0]};
}

static void declare_minefield(Sema *s, const Ast *n) {
    Variant *v = s->v;
    if (v->minefield_zone) {
        diag_error(s->sink, n->loc, "a game has one minefield");
        return;
    }
    if (v->nplayers != 2) {
        diag_error(s->sink, n->loc, "a minefield needs two players");
        return;
    }
    int z = sema_zone(s, n->text, sema_word_loc(s, n->loc, n->text));
    int kind = sema_kind(s, n->text2, sema_word_loc(s, n->loc, n->text2));
    if (z < 0 || kind < 0) return;
    if (n->num[0] < 0 || n->num[0] > MAX_CELLS) {
        diag_error(s->sink, n->loc, "mine count %ld is out of range (0..%d)", n->num[0], MAX_CELLS);
        return;
    }
    v->minefield_zone = z + 1;
    v->mines = (int)n->num[0];
    v->mine_kind = kind;
}

static void declare_extra_capture(Sema *s, const Ast *n) {
    Variant *v = s->v;
    int kind = sema_kind(s, n->text, sema_word_loc(s, n->loc, n->text));
    if (kind < 0) return;
    if (kind == 0) {
        diag_error(s->sink, sema_word_loc(s, n->loc, n->text),
                   "an extra capture needs a move kind other than 'normal'");
        return;
    }
    if (n->num[0] < 1 || n->num[0] > 32) {
        diag_error(s->sink, n->loc, "attacker count %ld is out of range (1..32)", n->num[0]);
        return;
    }
    if (n->text2 && strcmp(n->text2, "remote")) {
        diag_error(s->sink, sema_word_loc(s, n->loc, n->text2), "unknown word '%s' (expected remote or nothing)",
                   n->text2);
        return;
    }
    if (v->nextra >= MAX_EXTRA_CAPTURES) {
        diag_error(s->sink, n->loc, "too many extra-capture rules (limit is %d)", MAX_EXTRA_CAPTURES);
        return;
    }
    v->extra[v->nextra++] =
        (ExtraCapture){.kind = (uint8_t)kind, .attackers = (uint8_t)n->num[0], .remote = n->text2 != NULL};
}

int sema_counter(Sema *s, const char *name, SrcLoc loc) {
    for (int i = 0; i < s->v->ncounters; i++)
        if (!strcmp(s->v->counters[i].name, name)) return i;
    diag_error(s->sink, loc, "unknown counter '%s'", name);
    return -1;
}

static void declare_counter(Sema *s, const Ast *n) {
    Variant *v = s->v;
    for (int i = 0; i < v->ncounters; i++)
        if (!strcmp(v->counters[i].name, n->text)) {
            declared_twice(s, sema_word_loc(s, n->loc, n->text), n);
            return;
        }
    int slots = n->sub ? v->nplayers : 1;
    if (v->ncounter_slots + slots > MAX_COUNTERS) {
        diag_error(s->sink, n->loc, "too many counter values (limit is %d; a per-player counter takes one per player)",
                   MAX_COUNTERS);
        return;
    }
    if (n->num[0] < -100000 || n->num[0] > 100000) {
        diag_error(s->sink, n->loc, "counter value %ld is out of range (-100000..100000)", n->num[0]);
        return;
    }
    CounterDef *c = &v->counters[v->ncounters++];
    copy_name(c->name, sizeof c->name, n->text);
    c->per_player = n->sub != 0;
    c->initial = (int)n->num[0];
    c->slot = (uint8_t)v->ncounter_slots;
    v->ncounter_slots += slots;
}

static void declare_position_fields(Sema *s, const Ast *n) {
    Variant *v = s->v;
    char *copy = xstrdup(n->text);
    int count = 0;
    bool seen[FEN__COUNT] = {false};
    int optional_from = -1;
    bool misplaced = false;
    for (char *tok = strtok(copy, " \t"); tok; tok = strtok(NULL, " \t")) {
        /* NAME? : left out of the text when it holds what a text without it would mean */
        size_t len = strlen(tok);
        bool optional = len > 1 && tok[len - 1] == '?';
        if (optional) tok[len - 1] = 0;
        if (optional && optional_from < 0) optional_from = count;
        if (!optional && optional_from >= 0 && !misplaced) {
            diag_error(s->sink, n->loc,
                       "position field '%s' follows one that may be left out: only the last fields may be", tok);
            misplaced = true;
        }
        int f = fen_field_by_name(tok);
        if (f < 0) {
            char names[200];
            fen_field_list(names, sizeof names);
            diag_error(s->sink, n->loc, "unknown position field '%s' (expected %s)", tok, names);
            continue;
        }
        if (seen[f]) diag_error(s->sink, n->loc, "position field '%s' listed twice", tok);
        if (count >= (int)ARRAY_LEN(v->fen_fields)) break;
        seen[f] = true;
        v->fen_fields[count++] = (uint8_t)f;
    }
    free(copy);
    if (count == 0 || v->fen_fields[0] != FEN_BOARD)
        diag_error(s->sink, n->loc, "the position fields start with '%s'", fen_field_name(FEN_BOARD));
    if (seen[FEN_FULLMOVE] && seen[FEN_PLIES])
        diag_error(s->sink, n->loc, "'%s' and '%s' say the same thing: use one", fen_field_name(FEN_FULLMOVE),
                   fen_field_name(FEN_PLIES));
    if (optional_from == 0) diag_error(s->sink, n->loc, "the board field may not be left out");
    v->nfen_fields = count;
    v->fen_optional_from = optional_from > 0 && optional_from < count ? optional_from : 0;
}

static void declare_option(Sema *s, const Ast *n, const OptionSetting *settings, int nsettings) {
    Variant *v = s->v;
    if (option_index(v, n->text) >= 0) {
        declared_twice(s, sema_word_loc(s, n->loc, n->text), n);
        return;
    }
    if (v->noptions >= MAX_OPTIONS) {
        diag_error(s->sink, n->loc, "too many options (limit is %d)", MAX_OPTIONS);
        return;
    }
    OptionDef *od = &v->options[v->noptions++];
    copy_name(od->name, sizeof od->name, n->text);
    for (int i = 0; i < n->nkids && i < MAX_OPTION_VALUES; i++)
        copy_name(od->values[od->nvalues++], sizeof od->values[0], n->kids[i]->text);
    if (n->nkids > MAX_OPTION_VALUES)
        diag_error(s->sink, n->loc, "too many option values (limit is %d)", MAX_OPTION_VALUES);
    od->value = 0;
    if (n->text2) {
        od->value = -1;
        for (int i = 0; i < od->nvalues; i++)
            if (!strcmp(od->values[i], n->text2)) od->value = i;
        if (od->value < 0) {
            diag_error(s->sink, sema_word_loc(s, n->loc, n->text2), "default '%s' is not a value of option '%s'",
                       n->text2, n->text);
            od->value = 0;
        }
    }
    for (int i = 0; i < nsettings; i++) {
        if (strcmp(settings[i].name, od->name)) continue;
        int val = -1;
        for (int k = 0; k < od->nvalues; k++)
            if (!strcmp(od->values[k], settings[i].value)) val = k;
        if (val < 0) {
            char list[256] = "";
            for (int k = 0; k < od->nvalues; k++) {
                strncat(list, od->values[k], sizeof list - strlen(list) - 2);
                if (k + 1 < od->nvalues) strncat(list, ", ", sizeof list - strlen(list) - 1);
            }
            diag_error(s->sink, (SrcLoc){.file = s->root->loc.file}, "option '%s' has no value '%s' (allowed: %s)",
                       od->name, settings[i].value, list);
        } else {
            od->value = val;
        }
    }
}

/* Collects top-level items with WHEN applied; returns them in a new BLOCK (owned). */
static void select_items(Sema *s, const Ast *n, Ast *out) {
    for (int i = 0; i < n->nkids; i++) {
        const Ast *it = n->kids[i];
        if (it->kind == AST_WHEN) {
            if (when_holds(s, it)) select_items(s, it, out);
        } else {
            ast_add(out, ast_clone(it));
        }
    }
}

/* The rule file's own name for an ending, into dst ("" when it gives none). */
static void end_name(Sema *s, const Ast *n, char *dst, size_t size) {
    if (!n->text2) return;
    if (strlen(n->text2) >= size)
        diag_error(s->sink, n->loc, "end name \"%s\" is too long (limit is %d bytes)", n->text2, (int)size - 1);
    else
        copy_name(dst, size, n->text2);
}

static void declare_goal(Sema *s, const Ast *n, ResultKind r);

/* The players of an end rule's `for PLAYER...` (its BLOCK kid), as bits; 0: every player. */
static uint8_t end_players(Sema *s, const Ast *n) {
    uint8_t bits = 0;
    for (int i = 0; i < n->nkids; i++) {
        const Ast *b = n->kids[i];
        if (b->kind != AST_BLOCK || n->sub == END_REACH) continue;
        for (int k = 0; k < b->nkids; k++) {
            int p = sema_player(s, b->kids[k]->text, b->kids[k]->loc);
            if (p >= 0) bits |= (uint8_t)(1u << p);
        }
    }
    return bits;
}

/* The endings the position alone decides (extinction, bare king, a zone reached, checks
 * given): two sides, one rule of each kind but extinction and reach, up to four of those.
 * A game of one player may have extinction, reach (without a reply) and the placement goals. */
static void declare_position_end(Sema *s, const Ast *n, ResultKind r) {
    Variant *v = s->v;
    static const char *const what[] = {
        [END_EXTINCTION] = "extinction", [END_TOTAL] = "total-pieces", [END_BARE_KING] = "bare-king",
        [END_REACH] = "reach",           [END_CHECKS] = "checks",      [END_IN_A_ROW] = "in-a-row",
        [END_CONNECT] = "connect",       [END_OCCUPY] = "occupy"};
    bool one_ok = n->sub != END_BARE_KING && n->sub != END_CHECKS && !(n->sub == END_REACH && n->num[1]);
    if (v->nplayers != 2 && !(v->nplayers == 1 && one_ok)) {
        diag_error(s->sink, n->loc, "an 'end %s' rule needs two players (the game has %d)", what[n->sub], v->nplayers);
        return;
    }
    if (v->nplayers == 1 && r != RESULT_WIN && r != RESULT_LOSS && r != RESULT_DRAW) {
        diag_error(s->sink, n->loc, "a game of one player ends in a win, a loss or a draw");
        return;
    }
    v->decided_by_position = true;
    switch ((EndKind)n->sub) {
    case END_TOTAL:
    case END_EXTINCTION: {
        if (v->nextinctions >= (int)ARRAY_LEN(v->extinctions)) {
            diag_error(s->sink, n->loc, "too many extinction rules (limit is %d)", (int)ARRAY_LEN(v->extinctions));
            return;
        }
        if (n->num[0] < 0 || n->num[0] > MAX_CELLS) {
            diag_error(s->sink, num_loc(s, n->loc, n->num[0]), "piece count %ld is out of range (0..%d)", n->num[0],
                       MAX_CELLS);
            return;
        }
        if (n->num[2] < 0 || n->num[2] > MAX_CELLS) {
            diag_error(s->sink, num_loc(s, n->loc, n->num[2]), "piece count %ld is out of range (0..%d)", n->num[2],
                       MAX_CELLS);
            return;
        }
        ExtinctionRule *e = &v->extinctions[v->nextinctions++];
        e->total = n->sub == END_TOTAL;
        e->at_most = (uint16_t)n->num[0];
        e->rival_at_least = (uint16_t)n->num[2];
        e->board_only = (n->num[1] & 2) != 0;
        e->exactly = (n->num[1] & 4) != 0;
        e->result = r;
        e->players = end_players(s, n);
        for (int i = 0; i < n->nkids; i++) {
            const Ast *k = n->kids[i];
            if (k->kind == AST_GROUP) {
                /* TYPE and TYPE ...: none of each left */
                e->all_of = true;
                for (int j = 0; j < k->nkids; j++) {
                    int t = sema_piece(s, k->kids[j]->text, k->kids[j]->loc);
                    if (t >= 0) e->types |= 1u << t;
                }
            }
            if (k->kind != AST_NAME) continue;
            int t = sema_piece(s, k->text, k->loc);
            if (t >= 0) e->types |= 1u << t;
        }
        end_name(s, n, e->name, sizeof e->name);
        break;
    }
    case END_BARE_KING:
        if (v->on_bare_king != RESULT_NONE) diag_error(s->sink, n->loc, "a game has one bare-king rule");
        v->on_bare_king = r;
        v->bare_king_reply = n->num[1] != 0;
        end_name(s, n, v->bare_king_name, sizeof v->bare_king_name);
        break;
    case END_REACH: {
        if (v->nreaches >= (int)ARRAY_LEN(v->reaches)) {
            diag_error(s->sink, n->loc, "too many reach rules (limit is %d)", (int)ARRAY_LEN(v->reaches));
            return;
        }
        /* kids: NAME piece, NAME zone for each part (the first, then those joined by `and`),
         * then `for`'s BLOCK of players */
        Ast *const *parts = n->kids;
        const Ast *who = n->kids[n->nkids - 1]->kind == AST_BLOCK ? n->kids[n->nkids - 1] : NULL;
        int nparts = (n->nkids - (who != NULL)) / 2;
        if (nparts > MAX_REACH_PARTS) {
            diag_error(s->sink, parts[2 * MAX_REACH_PARTS]->loc, "too many pieces in one reach rule (limit is %d)",
                       MAX_REACH_PARTS);
            return;
        }
        if (nparts > 1 && n->num[1] == 3) {
            diag_error(s->sink, n->loc, "a 'safe' reach rule names one piece");
            return;
        }
        int types[MAX_REACH_PARTS] = {0}, zones[MAX_REACH_PARTS] = {0};
        bool ok = true;
        for (int i = 0; i < nparts; i++) {
            types[i] = sema_piece(s, parts[2 * i]->text, parts[2 * i]->loc);
            zones[i] = sema_zone(s, parts[2 * i + 1]->text, parts[2 * i + 1]->loc);
            ok = ok && types[i] >= 0 && zones[i] >= 0;
        }
        uint8_t players = 0;
        for (int k = 0; who && k < who->nkids; k++) {
            int p = sema_player(s, who->kids[k]->text, who->kids[k]->loc);
            if (p >= 0) players |= (uint8_t)(1u << p);
            ok = ok && p >= 0;
        }
        if (!ok) return;
        ReachRule *rr = &v->reaches[v->nreaches++];
        rr->type = (uint8_t)types[0];
        rr->zone = (uint8_t)zones[0];
        rr->nmore = (uint8_t)(nparts - 1);
        for (int i = 1; i < nparts; i++) {
            rr->more_type[i - 1] = (uint8_t)types[i];
            rr->more_zone[i - 1] = (uint8_t)zones[i];
        }
        rr->players = players;
        rr->reply = n->num[1] == 1 || n->num[1] == 2;
        rr->last_chance = n->num[1] == 2;
        rr->safe = n->num[1] == 3;
        rr->result = r;
        end_name(s, n, rr->name, sizeof rr->name);
        break;
    }
    case END_CHECKS:
        if (v->check_limit) diag_error(s->sink, n->loc, "a game has one checks rule");
        if (n->num[0] < 1 || n->num[0] > 9) {
            diag_error(s->sink, num_loc(s, n->loc, n->num[0]), "check count %ld is out of range (1..9)", n->num[0]);
            return;
        }
        v->check_limit = (int)n->num[0];
        v->on_checks = r;
        end_name(s, n, v->checks_name, sizeof v->checks_name);
        break;
    case END_IN_A_ROW:
    case END_CONNECT:
    case END_OCCUPY: declare_goal(s, n, r); break;
    default: break;
    }
}

/* The directions of dir terms (a BLOCK), as player 0 writes them, into dirs (up to
 * MAX_DIRECTIONS); none given: the board's own lines both ways (the six of a hexagonal board,
 * the links of a graph board, else the eight of a grid). Returns how many, -1 after an error. */
int sema_line_dirs(Sema *s, const Ast *terms, int *dirs) {
    Variant *v = s->v;
    DirList dl = {0};
    bool ok = true;
    if (terms && terms->nkids) {
        for (int i = 0; i < terms->nkids; i++) ok = sema_dirterm(s, terms->kids[i], &dl) && ok;
    } else {
        bool hex = false, graph = false;
        for (int b = 0; b < v->nboards; b++) hex = hex || v->boards[b].shape == BOARD_HEX;
        for (int d = 0; d < v->ndirs && !hex; d++)
            if (v->dirs[d].graph) {
                add_vec(&dl, 0, 0, d);
                graph = true;
            }
        static const int8_t hexdirs[6][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, -1}, {-1, 1}};
        for (int i = 0; i < (hex ? 6 : graph ? 0 : 8); i++)
            add_vec(&dl, hex ? hexdirs[i][0] : builtin_dirs[i].dx, hex ? hexdirs[i][1] : builtin_dirs[i].dy, -1);
    }
    if (!ok) return -1;
    int n = 0;
    for (int i = 0; i < dl.count; i++) {
        int d = dl.link[i] >= 0 ? dl.link[i] : sema_vector_dir(s, dl.dx[i], dl.dy[i], terms ? terms->loc : (SrcLoc){0});
        if (d < 0) return -1;
        dirs[n++] = d;
    }
    return n;
}

/* The lines along dirs (each direction with its reverse: one of the two is kept) as an index
 * of Variant.linesets; -1 with an error when a direction has no reverse or there are too many. */
int sema_lineset(Sema *s, const int *dirs, int n, SrcLoc loc) {
    Variant *v = s->v;
    LineSet set = {0};
    for (int i = 0; i < n; i++) {
        const Direction *d = &v->dirs[dirs[i]];
        int back = d->graph ? d->reverse : d->link_board >= 0 ? -1 : sema_vector_dir(s, -d->dx, -d->dy, loc);
        if (back < 0) {
            diag_error(s->sink, loc, "direction '%s' has no reverse: a line goes both ways (link D R = ...)",
                       d->name[0] ? d->name : "?");
            return -1;
        }
        bool known = false;
        for (int k = 0; k < set.n && !known; k++) known = set.dirs[k] == dirs[i] || set.dirs[k] == back;
        if (known) continue;
        if (set.n >= MAX_LINE_DIRS) {
            diag_error(s->sink, loc, "too many lines (limit is %d)", MAX_LINE_DIRS);
            return -1;
        }
        set.dirs[set.n++] = (uint8_t)dirs[i];
    }
    for (int i = 0; i < v->nlinesets; i++)
        if (!memcmp(&v->linesets[i], &set, sizeof set)) return i;
    if (v->nlinesets >= MAX_LINE_SETS) {
        diag_error(s->sink, loc, "too many sets of lines (limit is %d)", MAX_LINE_SETS);
        return -1;
    }
    v->linesets[v->nlinesets] = set;
    return v->nlinesets++;
}

/* The goals of placement and connection games (in-a-row, connect, occupy): decided by the
 * position, for the side that has them. */
static void declare_goal(Sema *s, const Ast *n, ResultKind r) {
    Variant *v = s->v;
    uint32_t types = 0;
    const Ast *group = NULL, *terms = NULL;
    if (n->sub == END_IN_A_ROW) group = kid(n, 0), terms = kid(n, 1);
    if (n->sub == END_CONNECT) terms = kid(n, 2);
    if (n->sub == END_OCCUPY) group = kid(n, 1);
    for (int i = 0; group && i < group->nkids; i++) {
        int t = sema_piece(s, group->kids[i]->text, group->kids[i]->loc);
        if (t >= 0) types |= 1u << t;
    }
    int dirs[MAX_DIRECTIONS], ndirs = n->sub == END_OCCUPY ? 0 : sema_line_dirs(s, terms, dirs);
    if (ndirs < 0) return;
    switch ((EndKind)n->sub) {
    case END_IN_A_ROW: {
        if (v->nrows >= (int)ARRAY_LEN(v->rows)) {
            diag_error(s->sink, n->loc, "too many in-a-row rules (limit is %d)", (int)ARRAY_LEN(v->rows));
            return;
        }
        if (n->num[0] < 2 || n->num[0] > MAX_BOARD_DIM) {
            diag_error(s->sink, num_loc(s, n->loc, n->num[0]), "row length %ld is out of range (2..%d)", n->num[0],
                       MAX_BOARD_DIM);
            return;
        }
        int lines = sema_lineset(s, dirs, ndirs, terms && terms->nkids ? terms->loc : n->loc);
        if (lines < 0) return;
        RowRule *rr = &v->rows[v->nrows++];
        *rr = (RowRule){.length = (uint8_t)n->num[0],
                        .exactly = n->num[1] != 0,
                        .types = types,
                        .lines = (uint8_t)lines,
                        .result = r};
        end_name(s, n, rr->name, sizeof rr->name);
        break;
    }
    case END_CONNECT: {
        if (v->nconnects >= (int)ARRAY_LEN(v->connects)) {
            diag_error(s->sink, n->loc, "too many connect rules (limit is %d)", (int)ARRAY_LEN(v->connects));
            return;
        }
        int a = sema_zone(s, n->kids[0]->text, n->kids[0]->loc), b = sema_zone(s, n->kids[1]->text, n->kids[1]->loc);
        if (a < 0 || b < 0) return;
        ConnectRule *cr = &v->connects[v->nconnects++];
        *cr = (ConnectRule){.zone_a = (uint8_t)a, .zone_b = (uint8_t)b, .ndirs = (uint8_t)ndirs, .result = r};
        for (int i = 0; i < ndirs; i++) cr->dirs[i] = (uint8_t)dirs[i];
        end_name(s, n, cr->name, sizeof cr->name);
        break;
    }
    case END_OCCUPY: {
        if (v->noccupies >= (int)ARRAY_LEN(v->occupies)) {
            diag_error(s->sink, n->loc, "too many occupy rules (limit is %d)", (int)ARRAY_LEN(v->occupies));
            return;
        }
        int z = sema_zone(s, n->kids[0]->text, n->kids[0]->loc);
        if (z < 0) return;
        OccupyRule *o = &v->occupies[v->noccupies++];
        *o = (OccupyRule){.zone = (uint8_t)z, .types = types, .result = r};
        end_name(s, n, o->name, sizeof o->name);
        break;
    }
    default: break;
    }
}

/* Does the game allow passing as a move (`allow pass`)? */
static bool allows_pass(const Sema *s) {
    for (int i = 0; i < s->items->nkids; i++) {
        const Ast *it = s->items->kids[i];
        if (it->kind == AST_FORBID && !it->sub && !strcmp(it->text, "pass")) return true;
    }
    return false;
}

/* `end counting RESULT ["NAME"] { ... }`: the count's items (see CountingRule). */
static void declare_counting(Sema *s, const Ast *n, ResultKind r) {
    CountingRule *cr = &s->v->counting;
    if (cr->on) diag_error(s->sink, n->loc, "a game has one counting rule");
    cr->on = true;
    cr->result = r;
    end_name(s, n, cr->name, sizeof cr->name);
    bool open_line = false; /* a `pieces N` line for any material came before */
    for (int i = 0; i < n->nkids; i++) {
        const Ast *it = n->kids[i];
        bool moves_item = it->sub == COUNTING_BOARD || it->sub == COUNTING_PIECES;
        if (moves_item && (it->num[0] < 1 || it->num[0] > MAX_COUNTING_MOVES)) {
            diag_error(s->sink, num_loc(s, it->loc, it->num[0]), "move count %ld is out of range (1..%d)", it->num[0],
                       MAX_COUNTING_MOVES);
            continue;
        }
        switch ((CountingItem)it->sub) {
        case COUNTING_BOARD:
            if (cr->board_moves) diag_error(s->sink, it->loc, "a counting rule has one 'board' item");
            cr->board_moves = (int)it->num[0];
            break;
        case COUNTING_PIECES: {
            if (open_line)
                diag_warn(s->sink, it->loc,
                          "this line is never used: a 'pieces N' line for any material comes before it");
            if (cr->nlines >= MAX_COUNTING_LINES) {
                diag_error(s->sink, it->loc, "too many 'pieces' lines (limit is %d)", MAX_COUNTING_LINES);
                break;
            }
            CountingLine *line = &cr->lines[cr->nlines++];
            memset(line, 0, sizeof *line);
            line->moves = (int)it->num[0];
            for (int k = 0; k < it->nkids; k++) {
                int t = sema_piece(s, it->kids[k]->text, it->kids[k]->loc);
                if (t >= 0 && line->need[t] < 255) line->need[t]++;
            }
            open_line = open_line || it->nkids == 0;
            break;
        }
        case COUNTING_WORD:
            if (strcmp(it->text, "pawns")) {
                diag_error(s->sink, it->loc, "unknown counting item '%s' (expected board, pieces, pawns or start)",
                           it->text);
                break;
            }
            for (int k = 0; k < it->nkids; k++) {
                int t = sema_piece(s, it->kids[k]->text, it->kids[k]->loc);
                if (t >= 0) cr->pawns |= 1u << t;
            }
            break;
        case COUNTING_WORD_PIECES:
            if (strcmp(it->text, "start")) {
                diag_error(s->sink, it->loc, "unknown counting item '%s' (expected board, pieces, pawns or start)",
                           it->text);
                break;
            }
            cr->start_pieces = true;
            break;
        }
    }
    bool length = false;
    for (int i = 0; i < n->nkids; i++)
        length = length || n->kids[i]->sub == COUNTING_BOARD || n->kids[i]->sub == COUNTING_PIECES;
    if (!length)
        diag_error(s->sink, n->loc, "a counting rule needs a 'board' item or 'pieces' lines (how long a count runs)");
}

/* `end stalemate pieces at-most N RESULT [for PLAYER...]`: a stalemate of a player left with at
 * most N pieces on the board (num[1] = N + 1). */
static void declare_stalemate_few(Sema *s, const Ast *n, ResultKind r) {
    Variant *v = s->v;
    long limit = n->num[1] - 1;
    if (limit < 0 || limit > MAX_CELLS) {
        diag_error(s->sink, num_loc(s, n->loc, limit), "piece count %ld is out of range (0..%d)", limit, MAX_CELLS);
        return;
    }
    if (v->nplayers > 2 || r == RESULT_PASS || r == RESULT_WORTH || r == RESULT_MOST) {
        diag_error(s->sink, n->loc,
                   "a stalemate decided by the mover's pieces needs at most two players and a win, a loss or a draw");
        return;
    }
    uint8_t players = end_players(s, n);
    if (n->nkids && !players) return; /* (players it does not know: said) */
    for (int p = 0; p < v->nplayers; p++) {
        if (players && !(players >> p & 1)) continue;
        if (v->stalemate_few_limit[p]) {
            diag_error(s->sink, n->loc, "%s already has a stalemate rule that counts its pieces", v->player_names[p]);
            return;
        }
        v->on_stalemate_few[p] = r;
        v->stalemate_few_limit[p] = (uint16_t)(limit + 1);
        end_name(s, n, v->stalemate_few_name[p], sizeof v->stalemate_few_name[p]);
    }
    v->stalemate_by_player = v->stalemate_by_player || r != RESULT_DRAW;
}

static void declare_end(Sema *s, const Ast *n) {
    Variant *v = s->v;
    ResultKind r = result_of(n->word);
    if (r == RESULT_PASS && n->sub != END_STALEMATE) {
        diag_error(s->sink, n->loc, "only a stalemate can be a pass");
        r = RESULT_DRAW;
    }
    if (n->text2 && !(n->sub == END_STALEMATE && n->num[1]) &&
        (n->sub == END_CHECKMATE || n->sub == END_STALEMATE || n->sub == END_EMPTY || n->sub == END_PIECES ||
         n->sub == END_ROYAL_CAPTURED)) {
        int k = n->sub == END_CHECKMATE ? 0 : n->sub == END_STALEMATE ? 1 : 2;
        char *name = n->sub == END_PIECES  ? v->pieces_name
            : n->sub == END_ROYAL_CAPTURED ? v->royal_name
                                           : v->end_name[k];
        if (strlen(n->text2) >= sizeof v->end_name[k])
            diag_error(s->sink, n->loc, "end name \"%s\" is too long (limit is %d bytes)", n->text2,
                       (int)sizeof v->end_name[k] - 1);
        else
            copy_name(name, sizeof v->end_name[k], n->text2);
    }
    /* the endings that compare or name one player's material speak of two sides */
    bool two_sides = n->sub == END_PIECES || n->sub == END_ROYAL_CAPTURED || (n->sub == END_STALEMATE && n->num[0]);
    if (two_sides && v->nplayers != 2) diag_error(s->sink, n->loc, "this ending needs two players");
    switch ((EndKind)n->sub) {
    case END_CHECKMATE: v->on_checkmate = r; break;
    case END_STALEMATE:
        if (n->num[0] && r == RESULT_PASS)
            diag_error(s->sink, n->loc, "a stalemate decided by the pieces left cannot be a pass");
        if (n->num[1]) {
            declare_stalemate_few(s, n, r);
            break;
        }
        if (n->nkids) {
            /* `for PLAYER...`: those players' stalemates only */
            if (v->nplayers > 2 || r == RESULT_PASS) {
                diag_error(s->sink, n->loc, "a stalemate for some players only needs at most two players and no pass");
                break;
            }
            for (int k = 0; k < n->kids[0]->nkids; k++) {
                const Ast *who = n->kids[0]->kids[k];
                int p = sema_player(s, who->text, who->loc);
                if (p >= 0) v->on_stalemate_of[p] = r;
            }
            v->stalemate_by_player = v->stalemate_by_player || r != RESULT_DRAW;
            break;
        }
        v->on_stalemate = r;
        v->stalemate_fewer = n->num[0] != 0;
        break;
    case END_PIECES:
        if (n->num[0] < 0 || n->num[0] > MAX_CELLS)
            diag_error(s->sink, num_loc(s, n->loc, n->num[0]), "piece count %ld is out of range (0..%d)", n->num[0],
                       MAX_CELLS);
        v->pieces_limit = (int)n->num[0] + 1;
        v->on_pieces = r;
        break;
    case END_ROYAL_CAPTURED: v->on_royal_captured = r; break;
    case END_BLOCKED:
        v->on_blocked = r;
        s->blocked_loc = n->loc;
        end_name(s, n, v->blocked_name, sizeof v->blocked_name);
        break;
    case END_REPETITION:
        if (n->num[0] < 2 || n->num[0] > 100)
            diag_error(s->sink, num_loc(s, n->loc, n->num[0]), "repetition count %ld is out of range (2..100)",
                       n->num[0]);
        v->repetition = (int)n->num[0];
        v->on_repetition = r;
        end_name(s, n, v->repetition_name, sizeof v->repetition_name);
        break;
    case END_NMOVE:
        if (n->num[0] < 1 || n->num[0] > 1000)
            diag_error(s->sink, num_loc(s, n->loc, n->num[0]), "move count %ld is out of range (1..1000)", n->num[0]);
        v->nmove = (int)n->num[0];
        v->on_nmove = r;
        end_name(s, n, v->nmove_name, sizeof v->nmove_name);
        break;
    case END_MUST_CAPTURE: {
        if (v->nforced >= (int)ARRAY_LEN(v->forced)) {
            diag_error(s->sink, n->loc, "too many must-capture rules (limit is %d)", (int)ARRAY_LEN(v->forced));
            break;
        }
        int t = sema_piece(s, n->kids[0]->text, n->kids[0]->loc);
        int z = sema_zone(s, n->kids[1]->text, n->kids[1]->loc);
        if (t < 0 || z < 0) break;
        ForcedCapture *fc = &v->forced[v->nforced++];
        fc->type = (uint8_t)t;
        fc->zone = (uint8_t)z;
        fc->result = r;
        end_name(s, n, fc->name, sizeof fc->name);
        break;
    }
    case END_EMPTY: {
        int p = sema_pile(s, n->kids[0]->text, n->kids[0]->loc);
        if (p < 0) break;
        v->empty_pile = p + 1;
        v->on_empty = r;
        break;
    }
    case END_MATERIAL:
        v->on_material = r;
        end_name(s, n, v->material_name, sizeof v->material_name);
        for (int i = 0; i < n->nkids; i++) {
            const Ast *ml = n->kids[i];
            if (v->nmaterial >= MAX_MATERIAL_RULES) {
                diag_error(s->sink, ml->loc, "too many material rules (limit is %d)", MAX_MATERIAL_RULES);
                break;
            }
            MaterialRule *mr = &v->material[v->nmaterial++];
            memset(mr, 0, sizeof *mr);
            mr->same_colour = ml->sub != 0;
            for (int side = 0; side < 2; side++) {
                const Ast *g = kid(ml, side);
                for (int k = 0; g && k < g->nkids; k++) {
                    int t = sema_piece(s, g->kids[k]->text, g->kids[k]->loc);
                    if (t >= 0) (side ? mr->b : mr->a)[t]++;
                }
            }
        }
        break;
    case END_EXTINCTION:
    case END_TOTAL:
    case END_BARE_KING:
    case END_REACH:
    case END_CHECKS:
    case END_IN_A_ROW:
    case END_CONNECT:
    case END_OCCUPY: declare_position_end(s, n, r); break;
    case END_COUNTING: declare_counting(s, n, r); break;
    case END_PASSES:
        if (n->num[0] < 1 || n->num[0] > 100)
            diag_error(s->sink, num_loc(s, n->loc, n->num[0]), "pass count %ld is out of range (1..100)", n->num[0]);
        else if (!allows_pass(s))
            diag_error(s->sink, n->loc, "'end pass' needs 'allow pass' (passing as a move)");
        v->passes_end = (int)n->num[0];
        v->on_passes = r;
        end_name(s, n, v->passes_name, sizeof v->passes_name);
        break;
    case END_FACING: {
        int t = sema_piece(s, n->kids[0]->text, n->kids[0]->loc);
        if (t < 0) break;
        if (!v->types[t].royal)
            diag_error(s->sink, n->kids[0]->loc, "'end facing' needs a royal piece type ('%s' is not royal)",
                       n->kids[0]->text);
        else if (v->nplayers != 2 || v->nowners != 2)
            diag_error(s->sink, n->loc, "'end facing' needs two players and no armies");
        else if (v->facing_type)
            diag_error(s->sink, n->loc, "a game has one 'end facing' rule");
        v->facing_type = t + 1;
        v->on_facing = r;
        end_name(s, n, v->facing_name, sizeof v->facing_name);
        break;
    }
    default: break;
    }
}

/* Armies: owners of pieces that take no turns, numbered after the players. */
static void declare_armies(Sema *s, const Ast *n) {
    Variant *v = s->v;
    for (int i = 0; i < n->nkids; i++) {
        const Ast *a = n->kids[i];
        if (v->nowners >= MAX_OWNERS) {
            diag_error(s->sink, a->loc, "too many players and armies (limit is %d)", MAX_OWNERS);
            return;
        }
        for (int k = 0; k < v->nowners; k++)
            if (!strcmp(v->player_names[k], a->text))
                diag_error(s->sink, a->loc, "'%s' is already a %s", a->text, k < v->nplayers ? "player" : "army");
        int o = v->nowners++;
        copy_name(v->player_names[o], sizeof v->player_names[o], a->text);
        if (a->text2 && strlen(a->text2) > MAX_TOKEN)
            diag_error(s->sink, sema_word_loc(s, a->loc, a->text2),
                       "army token '%s' is too long (limit is %d characters)", a->text2, MAX_TOKEN);
        if (a->text2)
            copy_name(v->player_token[o], sizeof v->player_token[o], a->text2);
        else
            snprintf(v->player_token[o], sizeof v->player_token[o], "%c", a->text[0]);
    }
}

/* An army by name: an owner that is not a player. */
static int army_by_name(Sema *s, const Ast *name) {
    int o = sema_player(s, name->text, name->loc);
    if (o >= 0 && o < s->v->nplayers) {
        diag_error(s->sink, name->loc, "'%s' is a player, not an army (declare armies with 'armies')", name->text);
        return -1;
    }
    return o;
}

/* Is c a condition a steer rule can hold (influence and rival comparisons, not/and/or)? */
static bool steer_cond_ok(Sema *s, const Ast *c) {
    switch (c->kind) {
    case AST_NOT: return steer_cond_ok(s, c->kids[0]);
    case AST_AND:
    case AST_OR: {
        bool left = steer_cond_ok(s, c->kids[0]), right = steer_cond_ok(s, c->kids[1]); /* (both report) */
        return left && right;
    }
    case AST_COND:
        if (is_steer_cond(c->word)) {
            if (c->num[0] < 0 || c->num[0] > MAX_INFLUENCE) {
                diag_error(s->sink, c->loc, "influence bound %ld is out of range (0..%d)", c->num[0], MAX_INFLUENCE);
                return false;
            }
            return true;
        }
        break;
    default: break;
    }
    diag_error(s->sink, c->loc,
               "a steer rule's condition compares 'influence' and 'rival' (with at-least, at-most, not, and, or)");
    return false;
}

/* The condition's value for a player of influence `mine` whose strongest rival has `rival`. */
static bool steer_cond(const Ast *c, int mine, int rival) {
    switch (c->kind) {
    case AST_NOT: return !steer_cond(c->kids[0], mine, rival);
    case AST_AND: return steer_cond(c->kids[0], mine, rival) && steer_cond(c->kids[1], mine, rival);
    case AST_OR: return steer_cond(c->kids[0], mine, rival) || steer_cond(c->kids[1], mine, rival);
    default: break;
    }
    long n = c->num[0];
    switch (c->word) {
    case KEYWORD_INFLUENCE_AT_LEAST: return mine >= n;
    case KEYWORD_INFLUENCE_AT_MOST: return mine <= n;
    case KEYWORD_INFLUENCE_AT_LEAST_RIVAL: return mine >= rival;
    case KEYWORD_INFLUENCE_AT_MOST_RIVAL: return mine <= rival;
    case KEYWORD_RIVAL_AT_LEAST: return rival >= n;
    default: return rival <= n; /* rival-at-most */
    }
}

static void declare_steer(Sema *s, const Ast *n) {
    Variant *v = s->v;
    if (v->steered) {
        diag_error(s->sink, n->loc, "steer declared twice");
        return;
    }
    const Ast *armies = n->kids[0], *links = n->kids[1];
    for (int i = 0; i < armies->nkids; i++) {
        int o = army_by_name(s, armies->kids[i]);
        if (o >= 0) v->steered |= (uint8_t)(1u << o);
    }
    for (int i = 0; i < links->nkids; i++) {
        const Ast *l = links->kids[i];
        int d = -1;
        for (int k = 0; k < v->ndirs; k++)
            if (!strcmp(v->dirs[k].name, l->text)) d = k;
        if (d < 0 || v->dirs[d].link_board < 0) {
            diag_error(s->sink, l->loc,
                       "'%s' is not a link (steer looks through links: 'link NAME from BOARD to BOARD')", l->text);
            continue;
        }
        v->steer_links[v->nsteer_links++] = (uint8_t)d;
    }
    v->steer_copy = n->sub != 0;
    /* the condition becomes a table over every pair of influences */
    const Ast *cond = n->nkids > 2 ? n->kids[2] : NULL;
    if (cond && !steer_cond_ok(s, cond)) cond = NULL;
    for (int mine = 0; mine <= MAX_INFLUENCE; mine++)
        for (int rival = 0; rival <= MAX_INFLUENCE; rival++)
            v->steer_allow[mine][rival] = cond ? steer_cond(cond, mine, rival) : mine >= 1 && mine >= rival;
    bool any = false;
    for (int t = 0; t < v->ntypes; t++) any = any || v->types[t].influence > 0;
    if (!any) diag_warn(s->sink, n->loc, "no piece has influence: nobody can move the steered armies");
}

static void declare_allegiance(Sema *s, const Ast *n) {
    Variant *v = s->v;
    if (v->has_allegiance) {
        diag_error(s->sink, n->loc, "helps declared twice");
        return;
    }
    if (n->nkids != v->nplayers) {
        diag_error(s->sink, n->loc, "'helps' names one army per player (%d, in seat order), not %d", v->nplayers,
                   n->nkids);
        return;
    }
    for (int i = 0; i < n->nkids; i++) {
        int o = army_by_name(s, n->kids[i]);
        if (o < 0) return;
        for (int k = 0; k < i; k++)
            if (v->allegiance[k] == o)
                diag_error(s->sink, n->kids[i]->loc, "army '%s' is named twice", n->kids[i]->text);
        v->allegiance[i] = (uint8_t)o;
    }
    v->has_allegiance = true;
    v->allegiance_random = n->sub != 0;
}

/* ---- the passes of the check, in order ---------------------------------------------------- */

/* Options first: WHEN anywhere depends on them. */
static void pass_options(Sema *s) {
    const Ast *root = s->root;
    for (int i = 0; i < root->nkids; i++)
        if (root->kids[i]->kind == AST_OPTION) declare_option(s, root->kids[i], s->settings, s->nsettings);
    for (int i = 0; i < s->nsettings; i++)
        if (option_index(s->v, s->settings[i].name) < 0)
            diag_error(s->sink, (SrcLoc){.file = root->loc.file}, "unknown option '%s'", s->settings[i].name);
}

/* The items the options select (WHEN), in source order: what every later pass reads. */
static void pass_select(Sema *s) {
    s->items = ast_new(AST_BLOCK, s->root->loc);
    select_items(s, s->root, s->items);
}

static void declare_players(Sema *s, const Ast *players) {
    Variant *v = s->v;
    if (players->nkids > MAX_PLAYERS)
        diag_error(s->sink, players->loc, "too many players: %d (limit is %d)", players->nkids, MAX_PLAYERS);
    else if (players->nkids < 1)
        diag_error(s->sink, players->loc, "a game has at least one player");
    for (int i = 0; i < players->nkids && i < MAX_PLAYERS; i++) {
        const Ast *p = players->kids[i];
        for (int k = 0; k < i; k++)
            if (!strcmp(v->player_names[k], p->text))
                diag_error(s->sink, p->loc, "player '%s' declared twice", p->text);
        copy_name(v->player_names[i], sizeof v->player_names[i], p->text);
        if (p->text2 && strlen(p->text2) > MAX_TOKEN)
            diag_error(s->sink, sema_word_loc(s, p->loc, p->text2),
                       "player token '%s' is too long (limit is %d characters)", p->text2, MAX_TOKEN);
        if (p->text2)
            copy_name(v->player_token[i], sizeof v->player_token[i], p->text2);
        else
            snprintf(v->player_token[i], sizeof v->player_token[i], "%c", p->text[0]);
        /* the position text names the side to move by its token: two alike are ambiguous */
        for (int k = 0; k < i; k++)
            if (strcmp(v->player_names[k], p->text) && !strcmp(v->player_token[k], v->player_token[i]))
                diag_error(s->sink, p->text2 ? sema_word_loc(s, p->loc, p->text2) : p->loc,
                           "player token '%s' is already used by player '%s'%s", v->player_token[i], v->player_names[k],
                           p->text2 ? "" : " (give another in parentheses: name(token))");
        v->nplayers = v->nowners = i + 1;
    }
}

/* The version, the title, players and armies; macros and direction sets are collected. */
static void pass_header(Sema *s) {
    Variant *v = s->v;
    bool have_version = false;
    const Ast *players = NULL, *armies = NULL;
    for (int i = 0; i < s->items->nkids; i++) {
        const Ast *it = s->items->kids[i];
        switch (it->kind) {
        case AST_VERSION:
            have_version = true;
            if (it->num[0] != 1)
                diag_error(s->sink, num_loc(s, it->loc, it->num[0]),
                           "unsupported rule-file version %ld (this Varia reads version 1)", it->num[0]);
            break;
        case AST_GAME:
            free(v->title);
            v->title = xstrdup(it->text);
            break;
        case AST_HELP:
            if (v->help) diag_error(s->sink, it->loc, "the game's help is given twice");
            free(v->help);
            v->help = xstrdup(it->text);
            break;
        case AST_PLAYERS:
            if (players)
                diag_error(s->sink, it->loc, "players declared twice");
            else
                players = it; /* the first one counts: its own errors are reported too */
            break;
        case AST_ARMIES:
            if (armies)
                diag_error(s->sink, it->loc, "armies declared twice");
            else
                armies = it;
            break;
        case AST_MACRO:
        case AST_DEFINE:
            if (s->nmacros < (int)ARRAY_LEN(s->macros))
                s->macros[s->nmacros++] = it;
            else
                diag_error(s->sink, it->loc, "too many macros and defines (limit is %d)", (int)ARRAY_LEN(s->macros));
            break;
        case AST_DIRSET:
            if (s->ndirsets < MAX_DIRECTIONS)
                s->dirsets[s->ndirsets++] = it;
            else
                diag_error(s->sink, it->loc, "too many direction sets (limit is %d)", MAX_DIRECTIONS);
            break;
        default: break;
        }
    }
    if (!have_version) diag_error(s->sink, s->root->loc, "missing 'version 1' line");
    if (!players)
        diag_error(s->sink, s->root->loc, "missing 'players' declaration");
    else
        declare_players(s, players);
    if (armies && players) declare_armies(s, armies);
    check_names(s);
}

static void declare_orientation(Sema *s, const Ast *it) {
    int p = sema_player(s, it->text, sema_word_loc(s, it->loc, it->text));
    int o = sema_orientation(it->text2);
    if (o < 0)
        diag_error(s->sink, sema_word_loc(s, it->loc, it->text2),
                   "unknown orientation '%s' (expected identity, flip, mirror, rot90, rot180, rot270, transpose or "
                   "antitranspose)",
                   it->text2);
    if (p >= 0 && o >= 0) s->v->orient[p] = (Orientation)o;
}

static void declare_turn_order(Sema *s, const Ast *it) {
    Variant *v = s->v;
    v->nturns = 0;
    for (int k = 0; k < it->nkids; k++) {
        int p = sema_player(s, it->kids[k]->text, it->kids[k]->loc);
        if (p < 0) continue;
        if (v->nturns >= (int)sizeof v->turn_order) {
            diag_error(s->sink, it->loc, "turn order too long (limit is %d)", (int)sizeof v->turn_order);
            break;
        }
        v->turn_order[v->nturns++] = (uint8_t)p;
    }
}

static void declare_direction(Sema *s, const Ast *it) {
    Variant *v = s->v;
    int d = sema_vector_dir(s, (int)it->num[0], (int)it->num[1], it->loc);
    if (d < 0) return;
    if (v->dirs[d].name[0])
        diag_error(s->sink, sema_word_loc(s, it->loc, it->text), "direction (%ld,%ld) already named '%s'", it->num[0],
                   it->num[1], v->dirs[d].name);
    else
        copy_name(v->dirs[d].name, sizeof v->dirs[d].name, it->text);
}

static void declare_link(Sema *s, const Ast *it) {
    Variant *v = s->v;
    int from = board_by_name(v, it->kids[0]->text), to = board_by_name(v, it->kids[1]->text);
    if (from < 0) diag_error(s->sink, it->kids[0]->loc, "unknown board '%s'", it->kids[0]->text);
    if (to < 0) diag_error(s->sink, it->kids[1]->loc, "unknown board '%s'", it->kids[1]->text);
    if (from < 0 || to < 0) return;
    if (v->ndirs >= MAX_DIRECTIONS) {
        diag_error(s->sink, it->loc, "too many directions (limit is %d)", MAX_DIRECTIONS);
        return;
    }
    Direction *d = &v->dirs[v->ndirs++];
    memset(d, 0, sizeof *d);
    copy_name(d->name, sizeof d->name, it->text);
    d->link_board = (int8_t)to;
    d->dx = (int8_t)from; /* for links, dx holds the board the link starts from */
    d->reverse = -1;
}

/* Is `name` a direction the language builds in (n, orth, compass...)? */
static bool builtin_direction(const char *name) {
    for (size_t i = 0; i < ARRAY_LEN(builtin_dirs); i++)
        if (!strcmp(builtin_dirs[i].name, name)) return true;
    return !strcmp(name, "orth") || !strcmp(name, "diag") || !strcmp(name, "compass");
}

/* The direction of graph links named `name`, made on first use; -1 (with an error) when the
 * name is taken by a direction of another kind, or there is no room. */
static int graph_direction(Sema *s, const char *name, SrcLoc loc) {
    Variant *v = s->v;
    for (int i = 0; i < v->ndirs; i++)
        if (v->dirs[i].name[0] && !strcmp(v->dirs[i].name, name)) {
            if (v->dirs[i].graph) return i;
            diag_error(s->sink, loc, "'%s' is already a direction of another kind (a vector or a link between boards)",
                       name);
            return -1;
        }
    if (builtin_direction(name)) {
        diag_error(s->sink, loc, "'%s' is a built-in direction (links between cells take a name of their own)", name);
        return -1;
    }
    for (int i = 0; i < s->ndirsets; i++)
        if (!strcmp(s->dirsets[i]->text, name)) {
            diag_error(s->sink, loc, "'%s' is already a direction set", name);
            return -1;
        }
    if (v->ndirs >= MAX_DIRECTIONS) {
        diag_error(s->sink, loc, "too many directions (limit is %d)", MAX_DIRECTIONS);
        return -1;
    }
    s->dir_loc[v->ndirs] = loc;
    Direction *d = &v->dirs[v->ndirs];
    memset(d, 0, sizeof *d);
    copy_name(d->name, sizeof d->name, name);
    d->graph = true;
    d->link_board = 0;
    d->dx = -1;
    d->reverse = -1;
    return v->ndirs++;
}

/* One link of a graph board: dir leads from `from` to `to`. */
static void add_graph_link(Sema *s, int dir, Cell from, Cell to, SrcLoc loc) {
    Variant *v = s->v;
    for (int i = 0; i < v->nlinks; i++)
        if (v->links[i].dir == dir && v->links[i].from == from) {
            if (v->links[i].to != to)
                diag_error(s->sink, loc, "cell %s already has a link '%s' (to %s)", v->cells[from].name,
                           v->dirs[dir].name, v->cells[v->links[i].to].name);
            return;
        }
    if (v->nlinks >= MAX_LINKS) {
        diag_error(s->sink, loc, "too many links between cells (limit is %d)", MAX_LINKS);
        return;
    }
    v->links = xrealloc(v->links, sizeof *v->links * (size_t)(v->nlinks + 1));
    v->links[v->nlinks++] = (GraphLink){.dir = (uint8_t)dir, .from = from, .to = to};
    v->boards[v->cells[from].board].graph = v->boards[v->cells[to].board].graph = true;
}

/* `link D [R] = a1 a4 a7, ...`: along each chain, D leads from each cell to the next and R
 * back. */
static void declare_graph_link(Sema *s, const Ast *it) {
    Variant *v = s->v;
    int d = graph_direction(s, it->text, sema_word_loc(s, it->loc, it->text));
    int r = it->text2 ? graph_direction(s, it->text2, sema_word_loc(s, it->loc, it->text2)) : -1;
    if (d < 0 || (it->text2 && r < 0)) return;
    if (d == r) {
        diag_error(s->sink, sema_word_loc(s, it->loc, it->text2), "a link's reverse needs a name of its own");
        return;
    }
    if (r >= 0) {
        if ((v->dirs[d].reverse >= 0 && v->dirs[d].reverse != r) ||
            (v->dirs[r].reverse >= 0 && v->dirs[r].reverse != d))
            diag_error(s->sink, it->loc, "'%s' and '%s' were declared with other reverses", it->text, it->text2);
        v->dirs[d].reverse = (int8_t)r;
        v->dirs[r].reverse = (int8_t)d;
    }
    for (int i = 0; i < it->nkids; i++) {
        const Ast *chain = it->kids[i];
        if (chain->nkids < 2) {
            diag_error(s->sink, chain->loc, "a chain of links joins two cells or more");
            continue;
        }
        Cell prev = NO_CELL;
        for (int k = 0; k < chain->nkids; k++) {
            int c = sema_cell(s, chain->kids[k]);
            if (c < 0) {
                prev = NO_CELL;
                continue;
            }
            if (prev == (Cell)c) diag_error(s->sink, chain->kids[k]->loc, "a cell is not linked to itself");
            if (prev != NO_CELL && prev != (Cell)c) {
                add_graph_link(s, d, prev, (Cell)c, chain->kids[k]->loc);
                if (r >= 0) add_graph_link(s, r, (Cell)c, prev, chain->kids[k]->loc);
            }
            prev = (Cell)c;
        }
    }
}

/* The index of a direction written as one name (a vector as player 0 writes it, or a link);
 * -1 with an error when it names none or several. */
static int one_direction(Sema *s, const Ast *name) {
    DirList dl = {0};
    if (!dirname(s, name->text, name->loc, &dl, 0)) return -1;
    if (dl.count != 1) {
        diag_error(s->sink, name->loc, "expected one direction, but '%s' names %d", name->text, dl.count);
        return -1;
    }
    return dl.link[0] >= 0 ? dl.link[0] : sema_vector_dir(s, dl.dx[0], dl.dy[0], name->loc);
}

/* `symmetry PLAYER D1 M1, D2 M2...`: the player's D1 is M1 (Zillions' symmetry: a direction
 * map, for boards whose directions no orientation turns, such as links between cells). */
static void declare_symmetry(Sema *s, const Ast *it) {
    Variant *v = s->v;
    int p = sema_player(s, it->text, sema_word_loc(s, it->loc, it->text));
    if (p < 0) return;
    if (!v->has_symmetry)
        for (int o = 0; o < MAX_OWNERS; o++)
            for (int d = 0; d < MAX_DIRECTIONS; d++) v->dir_map[o][d] = -1;
    v->has_symmetry = true;
    for (int i = 0; i < it->nkids; i++) {
        const Ast *pair = it->kids[i];
        int a = one_direction(s, pair->kids[0]), b = one_direction(s, pair->kids[1]);
        if (a < 0 || b < 0) continue;
        if (v->dir_map[p][a] >= 0)
            diag_error(s->sink, pair->loc, "direction '%s' of %s is mapped twice", pair->kids[0]->text, it->text);
        v->dir_map[p][a] = (int8_t)b;
    }
}

/* Geometry, orientation, directions, turn order; then the links between the boards. */
static void pass_geometry(Sema *s) {
    Variant *v = s->v;
    const Ast *items = s->items;
    for (int i = 0; i < items->nkids; i++) {
        const Ast *it = items->kids[i];
        switch (it->kind) {
        case AST_BOARD: declare_board(s, it); break;
        case AST_ORIENTATION: declare_orientation(s, it); break;
        case AST_TURN_ORDER: declare_turn_order(s, it); break;
        case AST_DIRECTION: declare_direction(s, it); break;
        default: break;
        }
    }
    bool any_board = false; /* (one that failed has had its error already) */
    for (int i = 0; i < items->nkids; i++) any_board = any_board || items->kids[i]->kind == AST_BOARD;
    if (!any_board) diag_error(s->sink, s->root->loc, "missing 'board' declaration");
    declare_holding(s);
    qualify_cell_names(v);
    if (v->nturns == 0)
        for (int p = 0; p < v->nplayers; p++) v->turn_order[v->nturns++] = (uint8_t)p;
    for (int i = 0; i < items->nkids; i++)
        if (items->kids[i]->kind == AST_LINK && items->kids[i]->sub != 1) declare_link(s, items->kids[i]);
    for (int i = 0; i < items->nkids; i++)
        if (items->kids[i]->kind == AST_LINK && items->kids[i]->sub == 1) declare_graph_link(s, items->kids[i]);
    for (int i = 0; i < items->nkids; i++)
        if (items->kids[i]->kind == AST_SYMMETRY) declare_symmetry(s, items->kids[i]);
}

/* Zones and pieces; each piece's items with its macros expanded. */
static void pass_pieces(Sema *s) {
    Variant *v = s->v;
    for (int i = 0; i < s->items->nkids; i++) {
        const Ast *it = s->items->kids[i];
        if (it->kind == AST_ZONE)
            declare_zone(s, it);
        else if (it->kind == AST_PIECE)
            declare_piece(s, it);
    }
    v->castling_rook = NO_TYPE;
    for (int t = 0; t < v->ntypes; t++) {
        s->piece_items[t] = ast_new(AST_BLOCK, s->pieces[t]->loc);
        long budget = MAX_EXPANSION;
        expand_items(s, s->pieces[t], 0, s->piece_items[t], 0, &budget);
        if (budget < 0)
            diag_error(s->sink, s->pieces[t]->loc,
                       "piece '%s' is too large after macro expansion (limit is %d syntax nodes)", v->types[t].name,
                       MAX_EXPANSION);
        piece_attributes(s, t);
    }
    for (int t = 0; t < v->ntypes; t++) promoted_base(s, t);
}

static void declare_each(Sema *s, AstKind kind, void (*declare)(Sema *s, const Ast *n)) {
    for (int i = 0; i < s->items->nkids; i++)
        if (s->items->kids[i]->kind == kind) declare(s, s->items->kids[i]);
}

/* "hands WORD...": the game keeps pieces in hand; what a capture keeps (none, captured,
 * demoted) and whether a player holding pieces must drop (must-drop). */
static void declare_hands(Sema *s, const Ast *n) {
    Variant *v = s->v;
    if (v->has_hands) {
        diag_error(s->sink, n->loc, "a game has one 'hands' item");
        return;
    }
    v->has_hands = true;
    v->hand_keep = HAND_CAPTURED;
    bool kept = false;
    for (int i = 0; i < n->nkids; i++) {
        const Ast *w = n->kids[i];
        int keep = !strcmp(w->text, "none") ? HAND_NONE
            : !strcmp(w->text, "captured")  ? HAND_CAPTURED
            : !strcmp(w->text, "demoted")   ? HAND_DEMOTED
                                            : -1;
        if (keep >= 0 && kept)
            diag_error(s->sink, w->loc, "'hands' says once what a capture keeps");
        else if (keep >= 0)
            v->hand_keep = (uint8_t)keep, kept = true;
        else if (!strcmp(w->text, "must-drop"))
            v->must_drop = true;
        else if (!strcmp(w->text, "castle-dropped"))
            v->castle_dropped = true;
        else
            diag_error(s->sink, w->loc,
                       "unknown hands word '%s' (expected none, captured, demoted, must-drop or castle-dropped)",
                       w->text);
    }
    if (v->nplayers > 2)
        diag_error(s->sink, n->loc, "hands need a game of two players (position text writes them in two cases)");
}

/* "gating ZONE": a piece leaving a gate (a cell of ZONE whose piece has not moved, as the
 * position text says) may let a piece of the hand enter behind it. */
static void declare_gating(Sema *s, const Ast *n) {
    Variant *v = s->v;
    if (v->gate_zone) {
        diag_error(s->sink, n->loc, "a game has one 'gating' item");
        return;
    }
    int z = sema_zone(s, n->text, sema_word_loc(s, n->loc, n->text));
    if (z < 0) return;
    if (!v->has_hands)
        diag_error(s->sink, n->loc, "'gating' needs a 'hands' item (the pieces that enter come from the hand)");
    else
        v->gate_zone = z + 1;
}

/* Counters, move kinds, phases, set-up steps, piles and minefields: the state a position
 * carries beyond its board. */
static void pass_state(Sema *s) {
    Variant *v = s->v;
    declare_each(s, AST_COUNTER, declare_counter);
    v->nkinds = 1;
    copy_name(v->kind_names[0], sizeof v->kind_names[0], "normal");
    declare_each(s, AST_PHASE, declare_phase);
    declare_each(s, AST_PRIORITY, declare_priority);
    declare_each(s, AST_PRELUDE, declare_prelude);
    declare_each(s, AST_PILE, declare_pile);
    declare_each(s, AST_MINEFIELD, declare_minefield);
    declare_each(s, AST_HANDS, declare_hands);
    declare_each(s, AST_GATING, declare_gating);
}

/* The position text's fields unless the rule file lists them: the standard six, then one for
 * each kind of state the game has. */
static void pass_default_fields(Sema *s) {
    Variant *v = s->v;
    static const uint8_t standard_fields[] = {FEN_BOARD, FEN_SIDE, FEN_CASTLING, FEN_EP, FEN_HALFMOVE, FEN_FULLMOVE};
    memcpy(v->fen_fields, standard_fields, sizeof standard_fields);
    v->nfen_fields = (int)sizeof standard_fields;
    bool allegiance = false, checks = false;
    for (int i = 0; i < s->items->nkids; i++) {
        const Ast *it = s->items->kids[i];
        allegiance = allegiance || it->kind == AST_ALLEGIANCE;
        checks = checks || (it->kind == AST_END && it->sub == END_CHECKS);
    }
    if (checks) {
        /* the checks left to give come after the en-passant cell (Fairy-Stockfish's "3+3") */
        memmove(v->fen_fields + 5, v->fen_fields + 4, 2);
        v->fen_fields[4] = FEN_CHECKS;
        v->nfen_fields++;
    }
    if (v->ncounters) v->fen_fields[v->nfen_fields++] = FEN_COUNTERS;
    if (allegiance) v->fen_fields[v->nfen_fields++] = FEN_ALLEGIANCE;
    if (v->nphases) v->fen_fields[v->nfen_fields++] = FEN_PHASE;
    if (v->npiles) v->fen_fields[v->nfen_fields++] = FEN_PILES;
    if (v->minefield_zone) v->fen_fields[v->nfen_fields++] = FEN_TILES;
    if (v->nprelude) v->fen_fields[v->nfen_fields++] = FEN_PRELUDE;
    if (v->nplayers > 2) v->fen_fields[v->nfen_fields++] = FEN_OUT; /* who is out, and who moves their army */
}

static void declare_shuffle(Sema *s, const Ast *it) {
    Variant *v = s->v;
    int z = sema_zone(s, it->text, it->loc);
    if (z < 0) return;
    if (v->nshuffles >= (int)ARRAY_LEN(v->shuffle_zones))
        diag_error(s->sink, it->loc, "too many shuffle items (limit is %d)", (int)ARRAY_LEN(v->shuffle_zones));
    else
        v->shuffle_zones[v->nshuffles++] = (uint8_t)z;
}

static void declare_defeated(Sema *s, const Ast *it) {
    Variant *v = s->v;
    if (!strcmp(it->text, "remove"))
        v->on_defeat = DEFEAT_REMOVE;
    else if (!strcmp(it->text, "stay"))
        v->on_defeat = DEFEAT_STAY;
    else if (!strcmp(it->text, "join-victor"))
        v->on_defeat = DEFEAT_JOIN_VICTOR;
    else
        diag_error(s->sink, it->loc, "unknown fate '%s' (expected remove, stay or join-victor)", it->text);
}

static void declare_capture_reward(Sema *s, const Ast *it) {
    Variant *v = s->v;
    int k = sema_counter(s, it->text, sema_word_loc(s, it->loc, it->text));
    if (k >= 0 && v->capture_reward)
        diag_error(s->sink, it->loc, "a game has one capture-reward");
    else if (k >= 0)
        v->capture_reward = k + 1;
}

/* `worth PLAYER N`: the player counts N on top of its pieces' worth. */
static void declare_worth_bonus(Sema *s, const Ast *it) {
    SrcLoc at = sema_word_loc(s, it->loc, it->text);
    int p = sema_player(s, it->text, at);
    if (p < 0) return;
    if (p >= s->v->nplayers)
        diag_error(s->sink, at, "'%s' is an army: only players count worth", it->text);
    else if (it->num[0] < 0 || it->num[0] > 10000)
        diag_error(s->sink, num_loc(s, it->loc, it->num[0]), "worth %ld is out of range (0..10000)", it->num[0]);
    else
        s->v->worth_bonus[p] = (int)it->num[0];
}

/* tuned TERM N, tuned PIECE TERM N: evaluation weights `varia tune` fitted (Variant.tuned) */
static void declare_tuned(Sema *s, const Ast *it) {
    TunedTerms *tt = &s->v->tuned;
    long n = it->num[0];
    SrcLoc at = sema_word_loc(s, it->loc, it->text);
    if (!it->text2) {
        bool hand = !strcmp(it->text, "hand");
        if (!strcmp(it->text, "mcts")) {
            if (n != 0 && n != 1)
                diag_error(s->sink, num_loc(s, it->loc, n), "tuned mcts is 1 (Monte Carlo tree search) or 0, not %ld",
                           n);
            else
                tt->mcts = n == 1;
        } else if (!hand && strcmp(it->text, "royal-safety")) {
            int k = 0;
            while (k < TUNED_TERMS && strcmp(it->text, tuned_term_name(k))) k++;
            if (k == TUNED_TERMS) {
                /* the named terms from their table, so a new one is never left out */
                char names[256] = "";
                size_t at_end = 0;
                for (int i = 0; i < TUNED_TERMS; i++)
                    at_end += (size_t)snprintf(names + at_end, at_end < sizeof names ? sizeof names - at_end : 0,
                                               "%s%s", i == 0 ? "" : i == TUNED_TERMS - 1 ? " or " : ", ",
                                               tuned_term_name(i));
                diag_error(s->sink, at,
                           "unknown tuned term '%s' (expected royal-safety, hand, mcts, %s, or a piece's name and "
                           "mobility or squares)",
                           it->text, names);
            }
            else if (n < 0 || n > 100)
                diag_error(s->sink, num_loc(s, it->loc, n), "tuned %s %ld is out of range (0..100)", it->text, n);
            else {
                tt->terms[k] = (int)n;
                tt->terms_set |= 1u << k;
            }
        } else if (n < 0 || n > (hand ? 400 : 1000)) {
            diag_error(s->sink, num_loc(s, it->loc, n), "tuned %s %ld is out of range (0..%d)", it->text, n,
                       hand ? 400 : 1000);
        } else if (hand) {
            tt->hand = (int)n;
            tt->hand_set = true;
        } else {
            tt->royal_safety = (int)n;
            tt->royal_safety_set = true;
        }
        return;
    }
    int t = sema_piece(s, it->text, at);
    if (t < 0) return;
    bool mobility = !strcmp(it->text2, "mobility");
    if (!strcmp(it->text2, "value")) {
        if (n < 0 || n > 100000)
            diag_error(s->sink, num_loc(s, it->loc, n), "tuned value %ld is out of range (0..100000)", n);
        else if (s->v->types[t].royal)
            diag_error(s->sink, at, "'%s' is royal: its value is not tuned", it->text);
        else {
            tt->value[t] = (int)n;
            tt->value_set |= 1u << t;
        }
    } else if (!mobility && strcmp(it->text2, "squares"))
        diag_error(s->sink, sema_word_loc(s, it->loc, it->text2),
                   "unknown tuned term '%s' for a piece (expected value, mobility or squares)", it->text2);
    else if (n < 0 || n > 100)
        diag_error(s->sink, num_loc(s, it->loc, n), "tuned %s %ld is out of range (0..100)", it->text2, n);
    else if (mobility) {
        tt->mobility[t] = (int)n;
        tt->mobility_set |= 1u << t;
    } else {
        tt->squares[t] = (int)n;
        tt->squares_set |= 1u << t;
    }
}

static void declare_forbid(Sema *s, const Ast *it) {
    if (!strcmp(it->text, "pass") && !it->sub) {
        if (s->v->nphases)
            diag_error(s->sink, it->loc, "'allow pass' needs turns of one move (this game has phases)");
        else
            s->v->pass_move = true;
        return;
    }
    if (!strcmp(it->text, "royal-flight")) {
        s->v->forbid_royal_flight = it->sub != 0;
        return;
    }
    if (!strcmp(it->text, "check"))
        s->v->forbid_check = it->sub != 0;
    else if (!strcmp(it->text, "drop-check"))
        s->v->forbid_drop_check = it->sub != 0;
    else if (strcmp(it->text, "royal-capture"))
        diag_error(s->sink, sema_word_loc(s, it->loc, it->text),
                   "unknown rule '%s' (expected royal-capture, check, drop-check or royal-flight)", it->text);
    else
        s->v->forbid_royal_capture = it->sub != 0;
}

/* `position-format pdn`: draughts position text. It names squares by number and carries only
 * the pieces and the side to move, so the game may have no more than that. */
static void declare_position_format(Sema *s, const Ast *n) {
    Variant *v = s->v;
    if (strcmp(n->text, "pdn")) {
        diag_error(s->sink, sema_word_loc(s, n->loc, n->text), "unknown position format '%s' (expected pdn)", n->text);
        return;
    }
    if (v->nplayers != 2 || v->nowners != 2 || v->nboards != 1 || v->has_hands || v->ncounters || v->nphases ||
        v->npiles || v->minefield_zone || v->nprelude) {
        diag_error(s->sink, n->loc,
                   "'position-format pdn' needs two players on one board and no state but the pieces and the side "
                   "to move (no armies, hands, counters, phases, piles, minefield or set-up steps)");
        return;
    }
    v->pdn = true;
    int n_squares = 0;
    const Board *b = &v->boards[0];
    for (int y = b->height - 1; y >= 0; y--)
        for (int x = 0; x < b->width; x++)
            if (b->at[y][x] != NO_CELL) v->square_number[b->at[y][x]] = (uint16_t)++n_squares;
}

/* `transfer LINK...`: the links every move's pieces go on along. */
static void declare_transfer(Sema *s, const Ast *it) {
    Variant *v = s->v;
    for (int i = 0; i < it->nkids; i++) {
        const Ast *n = it->kids[i];
        int d = -1;
        for (int k = 0; k < v->ndirs && d < 0; k++)
            if (!strcmp(v->dirs[k].name, n->text)) d = k;
        if (d < 0 || v->dirs[d].link_board < 0) {
            diag_error(s->sink, n->loc, "'%s' is not a link (a transfer goes along links between boards)", n->text);
            continue;
        }
        if (v->ntransfer >= MAX_DIRECTIONS) continue;
        v->transfer_dirs[v->ntransfer++] = (uint8_t)d;
    }
}

/* `kind NAME if gives-check`: the kind of the moves that give check. */
static void declare_check_kind(Sema *s, const Ast *it) {
    /* (a second one after one that was taken; one refused already had its message) */
    for (int i = 0; s->v->check_kind && i < s->items->nkids && s->items->kids[i] != it; i++) {
        const Ast *first = s->items->kids[i];
        if (first->kind == AST_CHECK_KIND && !strcmp(first->text, s->v->kind_names[s->v->check_kind])) {
            diag_error(s->sink, it->loc, "the kind of the moves that give check is declared twice (first at line %d)",
                       first->loc.line);
            return;
        }
    }
    int k = sema_kind(s, it->text, sema_word_loc(s, it->loc, it->text));
    if (k == 0)
        diag_error(s->sink, sema_word_loc(s, it->loc, it->text),
                   "the moves that give check need a kind of their own, not 'normal'");
    else if (k > 0)
        s->v->check_kind = k;
}

/* The start position and the rules of play: how a game ends, who steers and helps whom. */
/* The rules of custodian captures (`pincer`): hostile cells, pieces taken only when
 * surrounded, shield walls. */
static void declare_custodian(Sema *s, const Ast *it) {
    Variant *v = s->v;
    v->custodian_rules = true;
    if (it->kind == AST_SHIELDWALL) {
        v->shieldwall = true;
        return;
    }
    if (it->kind == AST_HOSTILE) {
        if (v->hostile_zone) diag_error(s->sink, it->loc, "a game has one 'hostile' zone");
        int z = sema_zone(s, it->text, sema_word_loc(s, it->loc, it->text));
        if (z >= 0) v->hostile_zone = z + 1;
        return;
    }
    if (v->surround_types) diag_error(s->sink, it->loc, "a game has one 'surround' rule");
    for (int i = 0; i < it->nkids; i++) {
        int t = sema_piece(s, it->kids[i]->text, it->kids[i]->loc);
        if (t >= 0) v->surround_types |= 1u << t;
    }
    if (it->text) {
        int z = sema_zone(s, it->text, sema_word_loc(s, it->loc, it->text));
        if (z >= 0) v->surround_zone = z + 1;
    }
}

static void pass_rules(Sema *s) {
    Variant *v = s->v;
    v->forbid_royal_capture = v->has_royal;
    v->on_checkmate = RESULT_LOSS;
    v->on_stalemate = RESULT_DRAW;
    for (int i = 0; i < s->items->nkids; i++) {
        const Ast *it = s->items->kids[i];
        switch (it->kind) {
        case AST_SETUP:
            free(v->setup);
            v->setup = xstrdup(it->text);
            s->setup_loc = it->loc;
            break;
        case AST_POSITION_FIELDS: declare_position_fields(s, it); break;
        case AST_SHUFFLE: declare_shuffle(s, it); break;
        case AST_DEFEATED: declare_defeated(s, it); break;
        case AST_END: declare_end(s, it); break;
        case AST_STEER: declare_steer(s, it); break;
        case AST_ALLEGIANCE: declare_allegiance(s, it); break;
        case AST_EXTRA_CAPTURE: declare_extra_capture(s, it); break;
        case AST_CARD_RULE: declare_card_rule(s, it); break;
        case AST_CAPTURE_REWARD: declare_capture_reward(s, it); break;
        case AST_FORBID: declare_forbid(s, it); break;
        case AST_MUST_CAPTURE:
            if (v->nphases) diag_error(s->sink, it->loc, "'must-capture' cannot be combined with phases");
            v->must_capture = true;
            if (it->sub) v->must_capture_most = true;
            for (int k = 0; k < it->nkids; k++) {
                int t = sema_piece(s, it->kids[k]->text, it->kids[k]->loc);
                if (t >= 0) v->most_first_types |= 1u << t;
            }
            break;
        case AST_MERGE_DUPLICATES: v->merge_same_captures = true; break;
        case AST_POSITION_FORMAT: declare_position_format(s, it); break;
        case AST_WORTH_BONUS: declare_worth_bonus(s, it); break;
        case AST_TUNED: declare_tuned(s, it); break;
        case AST_HOSTILE:
        case AST_SURROUND:
        case AST_SHIELDWALL: declare_custodian(s, it); break;
        case AST_TRANSFER: declare_transfer(s, it); break;
        case AST_CHECK_KIND: declare_check_kind(s, it); break;
        default: break;
        }
    }
}

/* What can only be judged once everything is declared. */
static void pass_whole_game(Sema *s) {
    Variant *v = s->v;
    bool allegiance_field = false;
    for (int i = 0; i < v->nfen_fields; i++) allegiance_field = allegiance_field || v->fen_fields[i] == FEN_ALLEGIANCE;
    const Ast *fields = NULL;
    for (int i = 0; i < s->items->nkids; i++)
        if (s->items->kids[i]->kind == AST_POSITION_FIELDS) fields = s->items->kids[i];
    /* the allegiance is part of the position: the text must carry it, and only then */
    if (fields && allegiance_field && !v->has_allegiance)
        diag_error(s->sink, fields->loc, "position field '%s' needs a 'helps' declaration",
                   fen_field_name(FEN_ALLEGIANCE));
    if (fields && !allegiance_field && v->has_allegiance)
        diag_error(s->sink, fields->loc, "a game with 'helps' needs '%s' among its position fields",
                   fen_field_name(FEN_ALLEGIANCE));
    if (!v->setup) diag_error(s->sink, s->root->loc, "missing 'setup' (the start position)");
    if (v->on_blocked && (v->on_stalemate != RESULT_PASS || v->nplayers != 2))
        diag_error(s->sink, s->blocked_loc, "'end blocked' needs two players and 'end stalemate pass'");
    /* explosions are a rule between two sides, played one move a turn */
    if (v->must_drop_types && !v->has_hands)
        diag_error(s->sink, s->must_drop_loc, "'must-drop' needs 'hands' (a piece held to be dropped)");
    if (v->blast_proof_mask && !v->blast_mask)
        diag_error(s->sink, s->blast_proof_loc, "'blast-proof' needs a piece that 'explodes'");
    if (v->blast_mask && (v->nplayers != 2 || v->nowners != 2 || v->nphases))
        diag_error(s->sink, s->blast_loc, "'explodes' needs two players, no armies and one move a turn");
    for (int i = 0; i < s->items->nkids; i++) {
        const Ast *it = s->items->kids[i];
        if (it->kind != AST_END || it->sub != END_ROYAL_CAPTURED) continue;
        if (!v->has_royal)
            diag_error(s->sink, it->loc, "'end royal-captured' needs a royal piece");
        else if (v->forbid_royal_capture && !v->blast_mask)
            diag_error(s->sink, it->loc,
                       "'end royal-captured' needs 'allow royal-capture' or a piece that 'explodes' "
                       "(a royal piece that may not be exposed is never captured)");
    }
    for (int i = 0; i < s->items->nkids; i++) {
        const Ast *it = s->items->kids[i];
        if (it->kind != AST_END || it->sub != END_COUNTING) continue;
        /* the count's length is read first: it says what the halfmove field holds */
        int ep = -1, halfmove = -1;
        for (int k = 0; k < v->nfen_fields; k++) {
            if (v->fen_fields[k] == FEN_EP) ep = k;
            if (v->fen_fields[k] == FEN_HALFMOVE) halfmove = k;
        }
        if (v->nplayers != 2 || v->nowners != 2 || v->nphases)
            diag_error(s->sink, it->loc, "'end counting' needs two players, no armies and one move a turn");
        else if (ep < 0 || halfmove < ep)
            diag_error(
                s->sink, fields ? fields->loc : it->loc,
                "a game with 'end counting' needs '%s' and then '%s' among its position fields (they carry the count)",
                fen_field_name(FEN_EP), fen_field_name(FEN_HALFMOVE));
    }
    /* (a game that ends when a player runs out of pieces or of moves needs no royal piece) */
    bool other_end =
        v->pieces_limit || v->on_stalemate == RESULT_WIN || v->on_stalemate == RESULT_LOSS || v->stalemate_by_player;
    if (!v->has_royal && !other_end && !v->decided_by_position && !v->on_blocked)
        diag_warn(s->sink, s->root->loc, "no piece is royal: checkmate never happens");
}

bool sema_check(Sema *s, const Ast *root, const OptionSetting *settings, int nsettings) {
    static void (*const passes[])(Sema * s) = {
        pass_options, pass_select,         pass_header, pass_geometry,   pass_pieces,
        pass_state,   pass_default_fields, pass_rules,  pass_whole_game,
    };
    s->root = root;
    s->settings = settings;
    s->nsettings = nsettings;
    int errors_before = s->sink->errors;
    for (size_t i = 0; i < ARRAY_LEN(passes); i++) passes[i](s);
    return s->sink->errors == errors_before;
}

/* ---- reverse directions ------------------------------------------------------------------- */

bool sema_close_directions(Sema *s) {
    Variant *v = s->v;
    int n = v->ndirs;
    for (int i = 0; i < n; i++) {
        Direction *d = &v->dirs[i];
        if (d->link_board >= 0 || d->graph) continue;
        bool known = false;
        for (int k = 0; k < v->ndirs && !known; k++)
            known = v->dirs[k].link_board < 0 && v->dirs[k].dx == -d->dx && v->dirs[k].dy == -d->dy;
        if (!known && v->ndirs >= MAX_DIRECTIONS) {
            diag_error(s->sink, s->dir_loc[i],
                       "too many directions: (%d,%d) needs its reverse (%d,%d) for attack tests (limit is %d)", d->dx,
                       d->dy, -d->dx, -d->dy, MAX_DIRECTIONS);
            return false;
        }
        int r = sema_vector_dir(s, -d->dx, -d->dy, s->dir_loc[i]);
        if (r < 0) return false;
        v->dirs[i].reverse = (int8_t)r;
    }
    for (int i = n; i < v->ndirs; i++) {
        Direction *d = &v->dirs[i];
        for (int k = 0; k < v->ndirs; k++)
            if (v->dirs[k].link_board < 0 && v->dirs[k].dx == -d->dx && v->dirs[k].dy == -d->dy) d->reverse = (int8_t)k;
    }
    /* links: the reverse is a link that goes back from the target board to the source board */
    for (int i = 0; i < v->ndirs; i++) {
        Direction *d = &v->dirs[i];
        if (d->link_board < 0 || d->graph) continue;
        for (int k = 0; k < v->ndirs; k++)
            if (v->dirs[k].link_board == d->dx && v->dirs[k].dx == d->link_board) d->reverse = (int8_t)k;
    }
    return true;
}

void sema_free(Sema *s) {
    for (int t = 0; t < MAX_PIECE_TYPES; t++) ast_free(s->piece_items[t]);
    ast_free(s->items);
    memset(s, 0, sizeof *s);
}
