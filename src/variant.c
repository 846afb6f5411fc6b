/* variant.c - the load pipeline (source -> parse -> sema -> compile -> verify -> conclude) and
 * the tables derived at the end: reverse directions, neighbour table, Zobrist keys. */
#include "variant.h"

#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "parse.h"
#include "sema.h"

/* The rule file's names are checked against MAX_NAME (and tokens, symbols against theirs) so
 * that they fit these buffers whole; a cell name is a board name, ':', and up to 4 more. */
_Static_assert(sizeof ((Board *)0)->name > MAX_NAME, "a board name fits");
_Static_assert(sizeof ((CellInfo *)0)->name > MAX_NAME + 5, "a cell name fits");
_Static_assert(sizeof ((Direction *)0)->name > MAX_NAME, "a direction name fits");
_Static_assert(sizeof ((PieceType *)0)->name > MAX_NAME, "a piece name fits");
_Static_assert(sizeof ((PieceType *)0)->symbol[0] > MAX_SYMBOL, "a symbol fits");
_Static_assert(sizeof ((Zone *)0)->name > MAX_NAME, "a zone name fits");
_Static_assert(sizeof ((OptionDef *)0)->name > MAX_NAME, "an option name fits");
_Static_assert(sizeof ((OptionDef *)0)->values[0] > MAX_NAME, "an option value fits");
_Static_assert(sizeof ((Variant *)0)->player_names[0] > MAX_NAME, "a player name fits");
_Static_assert(sizeof ((Variant *)0)->player_token[0] > MAX_TOKEN, "a player token fits");

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Adds reverse vectors so every vector direction has its opposite (attack tests walk back). */
static bool close_directions(Sema *s) {
    Variant *v = s->v;
    int n = v->ndirs;
    for (int i = 0; i < n; i++) {
        Direction *d = &v->dirs[i];
        if (d->link_board >= 0) continue;
        bool known = false;
        for (int k = 0; k < v->ndirs && !known; k++)
            known = v->dirs[k].link_board < 0 && v->dirs[k].dx == -d->dx && v->dirs[k].dy == -d->dy;
        if (!known && v->ndirs >= MAX_DIRECTIONS) {
            diag_error(s->sink, s->dir_loc[i], "too many directions: (%d,%d) needs its reverse (%d,%d) for attack tests (limit is %d)",
                       d->dx, d->dy, -d->dx, -d->dy, MAX_DIRECTIONS);
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
        if (d->link_board < 0) continue;
        for (int k = 0; k < v->ndirs; k++)
            if (v->dirs[k].link_board == d->dx && v->dirs[k].dx == d->link_board) d->reverse = (int8_t)k;
    }
    return true;
}

static void build_neighbours(Variant *v) {
    v->neighbour = xcalloc((size_t)(v->ncells ? v->ncells : 1) * (size_t)(v->ndirs ? v->ndirs : 1), sizeof(Cell));
    for (int c = 0; c < v->ncells; c++) {
        const CellInfo *ci = &v->cells[c];
        for (int d = 0; d < v->ndirs; d++) {
            const Direction *dir = &v->dirs[d];
            Cell to = NO_CELL;
            if (dir->link_board >= 0) {
                if (dir->dx == ci->board) {
                    const Board *b = &v->boards[dir->link_board];
                    if (ci->x < b->width && ci->y < b->height) to = b->at[ci->y][ci->x];
                }
            } else {
                const Board *b = &v->boards[ci->board];
                int x = ci->x + dir->dx, y = ci->y + dir->dy;
                if (x >= 0 && y >= 0 && x < b->width && y < b->height) to = b->at[y][x];
            }
            v->neighbour[(size_t)c * (size_t)v->ndirs + (size_t)d] = to;
        }
    }
}

static void build_zobrist(Variant *v) {
    uint64_t seed = 0x5641524941ULL; /* fixed: keys (and so search) are reproducible */
    size_t kinds = (size_t)(v->ntypes ? v->ntypes : 1) * (size_t)v->nowners;
    v->zobrist_piece = xmalloc((size_t)(v->ncells ? v->ncells : 1) * kinds * sizeof(uint64_t));
    for (size_t i = 0; i < (size_t)v->ncells * kinds; i++) v->zobrist_piece[i] = splitmix(&seed);
    for (size_t i = 0; i < ARRAY_LEN(v->zobrist_side); i++) v->zobrist_side[i] = splitmix(&seed);
    for (size_t i = 0; i < ARRAY_LEN(v->zobrist_ep); i++) v->zobrist_ep[i] = splitmix(&seed);
    for (size_t i = 0; i < ARRAY_LEN(v->zobrist_rights); i++) v->zobrist_rights[i] = splitmix(&seed);
    for (size_t i = 0; i < ARRAY_LEN(v->zobrist_out); i++) v->zobrist_out[i] = splitmix(&seed);
    for (size_t i = 0; i < MAX_OWNERS; i++)
        for (size_t k = 0; k < MAX_OWNERS; k++) v->zobrist_control[i][k] = splitmix(&seed);
    for (size_t i = 0; i < MAX_PLAYERS; i++)
        for (size_t k = 0; k < MAX_OWNERS; k++) v->zobrist_allegiance[i][k] = splitmix(&seed);
}

/* Groups every fast-attack type's rays by direction (see AttackLine). */
static void build_attack_lines(Variant *v) {
    v->attack_lines_ok = true;
    for (int o = 0; o < v->nowners; o++) {
        v->attack_lines[o] = xcalloc((size_t)(v->ndirs ? v->ndirs : 1), sizeof(AttackLine));
        for (int t = 0; t < v->ntypes; t++) {
            const PieceType *pt = &v->types[t];
            if (!pt->fast_attack) continue;
            if (pt->per_owner[o].npatterns) v->pattern_types |= 1u << t;
            for (int i = 0; i < pt->per_owner[o].npatterns; i++)
                for (int victim = 0; victim < v->ntypes; victim++) {
                    if (!((pt->per_owner[o].patterns[i].victims >> victim) & 1)) continue;
                    uint8_t *n = &v->npattern_refs[o][victim];
                    if (*n >= MAX_PATTERN_REFS) { v->attack_lines_ok = false; continue; }
                    v->pattern_refs[o][victim][*n].type = (uint8_t)t;
                    v->pattern_refs[o][victim][*n].pattern = (uint8_t)i;
                    (*n)++;
                }
            for (int i = 0; i < pt->per_owner[o].natk; i++) {
                const Ray *r = &pt->per_owner[o].atk[i];
                if (r->slide && r->range) v->attack_lines_ok = false;
                AttackLine *line = NULL;
                for (int k = 0; k < v->nattack_lines[o] && !line; k++)
                    if (v->attack_lines[o][k].dir == r->dir) line = &v->attack_lines[o][k];
                if (!line) {
                    line = &v->attack_lines[o][v->nattack_lines[o]++];
                    line->dir = r->dir;
                }
                for (int victim = 0; victim < v->ntypes; victim++)
                    if ((r->victims >> victim) & 1) (r->slide ? line->sliders : line->leapers)[victim] |= 1u << t;
            }
        }
    }
}

static Variant *load(const Source *src, const OptionSetting *settings, int nsettings, DiagSink *sink) {
    sink->source = src;
    Ast *root = parse_source(src, sink);
    if (sink->errors) {
        ast_free(root);
        return NULL;
    }
    Variant *v = xcalloc(1, sizeof *v);
    v->path = xstrdup(src->path);
    Sema s = {.v = v, .sink = sink};
    bool ok = sema_check(&s, root, settings, nsettings);
    if (ok) ok = cg_compile(&s);
    if (ok) ok = close_directions(&s);
    sema_free(&s);
    ast_free(root);
    if (ok) {
        v->cell_words = (v->ncells + 63) / 64;
        build_neighbours(v);
        for (int o = 0; o < MAX_OWNERS; o++) {
            int fx, fy;
            variant_orient_vector(v->orient[o], 0, 1, &fx, &fy);
            v->forward_dir[o] = -1;
            for (int d = 0; d < v->ndirs && v->forward_dir[o] < 0; d++)
                if (v->dirs[d].link_board < 0 && v->dirs[d].dx == fx && v->dirs[d].dy == fy) v->forward_dir[o] = (int8_t)d;
        }
        build_zobrist(v);
        build_attack_lines(v);
        for (int t = 0; t < v->ntypes; t++)
            for (int o = 0; o < v->nowners; o++) {
                ok = verify_program(v, &v->types[t].per_owner[o].prog, sink) && ok;
                ok = verify_program(v, &v->types[t].per_owner[o].rest, sink) && ok;
            }
    }
    if (ok) {
        /* The start position must be readable: report it at the setup line. */
        Position pos;
        board_init(&pos, v);
        char err[200];
        if (!fen_read(&pos, v->setup, err, sizeof err)) {
            diag_error(sink, (SrcLoc){.file = src->path}, "bad setup position: %s", err);
            ok = false;
        }
        /* castling goes with the type of piece the start position has on the rook's cell */
        for (int i = 0; ok && i < v->ncastles; i++) {
            Piece r = pos.cell[v->castles[i].rook_from];
            v->castles[i].rook_type = r ? (uint8_t)PIECE_TYPE(r) : NO_TYPE;
        }
        board_free(&pos);
    }
    if (!ok || sink->errors) {
        variant_free(v);
        return NULL;
    }
    return v;
}

Variant *variant_load_source(const Source *src, const OptionSetting *settings, int nsettings, DiagSink *sink) {
    const Source *old = sink->source;
    Variant *v = load(src, settings, nsettings, sink);
    sink->source = old ? old : src;
    if (v) {
        /* programs name the file in runtime faults: point them at the variant's own copy */
        for (int t = 0; t < v->ntypes; t++)
            for (int o = 0; o < v->nowners; o++) {
                v->types[t].per_owner[o].prog.file = v->path;
                v->types[t].per_owner[o].rest.file = v->path;
            }
    }
    return v;
}

Variant *variant_load(const char *path, const OptionSetting *settings, int nsettings, DiagSink *sink) {
    const char *err = NULL;
    Source *src = source_load(path, &err);
    if (!src) {
        diag_error(sink, (SrcLoc){.file = path}, "cannot read rule file: %s", err ? err : "unknown error");
        return NULL;
    }
    Variant *v = variant_load_source(src, settings, nsettings, sink);
    sink->source = NULL;
    source_free(src);
    return v;
}

Variant *variant_load_string(const char *name, const char *text, const OptionSetting *settings, int nsettings,
                             DiagSink *sink) {
    Source *src = source_from_string(name, text);
    Variant *v = variant_load_source(src, settings, nsettings, sink);
    sink->source = NULL;
    source_free(src);
    return v;
}

void variant_free(Variant *v) {
    if (!v) return;
    for (int t = 0; t < MAX_PIECE_TYPES; t++)
        for (int o = 0; o < MAX_OWNERS; o++) {
            bc_free(&v->types[t].per_owner[o].prog);
            bc_free(&v->types[t].per_owner[o].rest);
        }
    for (int o = 0; o < MAX_OWNERS; o++) free(v->attack_lines[o]);
    free(v->neighbour);
    free(v->zobrist_piece);
    free(v->title);
    free(v->path);
    free(v->setup);
    free(v);
}

bool variant_has_secrets(const Variant *v) {
    if (v->minefield_zone) return true;
    for (int i = 0; i < v->ndraws; i++)
        if (v->draws[i].own && !v->piles[v->draws[i].to].sorted) return true;
    return false;
}

int variant_type_by_letter(const Variant *v, char letter) {
    if (letter >= 'a' && letter <= 'z') letter = (char)(letter - 'a' + 'A');
    for (int t = 0; t < v->ntypes; t++)
        if (v->types[t].letter == letter) return t;
    return -1;
}

int variant_cell_by_name(const Variant *v, const char *name) {
    for (int c = 0; c < v->ncells; c++)
        if (!strcmp(v->cells[c].name, name)) return c;
    return -1;
}

void variant_orient_vector(Orientation o, int dx, int dy, int *ox, int *oy) {
    switch (o) {
    case ORIENT_IDENTITY: *ox = dx; *oy = dy; break;
    case ORIENT_FLIP: *ox = dx; *oy = -dy; break;
    case ORIENT_MIRROR: *ox = -dx; *oy = dy; break;
    case ORIENT_ROT90: *ox = -dy; *oy = dx; break;
    case ORIENT_ROT180: *ox = -dx; *oy = -dy; break;
    case ORIENT_ROT270: *ox = dy; *oy = -dx; break;
    case ORIENT_TRANSPOSE: *ox = dy; *oy = dx; break;
    case ORIENT_ANTITRANSPOSE: *ox = -dy; *oy = -dx; break;
    default: *ox = dx; *oy = dy; break;
    }
}
