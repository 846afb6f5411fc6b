/* zrf_lower.h - shared by the parts of the Zillions lowering: zrf_lower.c (the game: players,
 * boards, zones, pieces, the start position, goals) and zrf_moves.c (the pieces' move
 * programs and drops). */
#ifndef VARIA_ZRF_LOWER_H
#define VARIA_ZRF_LOWER_H

#include "variant.h"
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

#define ZRF_MAX_CLASSES 16

/* One step of a direction given link by link: along vector direction vdir, from the cells of
 * zone (per player). */
typedef struct DirClass {
    int vdir;
    const char *zone;
} DirClass;

typedef struct Dir {
    const char *name; /* as the file writes it */
    int dx, dy;       /* the vector on the Varia board (a link's, or a split one's: >= 1000) */
    int same;         /* the first direction of the same vector (itself when none before) */
    char vname[MAX_NAME + 1];
    int nclass; /* > 0: split, steps by classes (a board of links, zrf_graph.c) */
    DirClass cls[ZRF_MAX_CLASSES];
    struct Dir *opposite; /* a board of links: the direction that goes back along its links */
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
    bool holes_ok;        /* no hole anywhere: a leap through two steps needs no middle cell */
    bool graph;           /* a board of links laid on one grid (zrf_graph.c) */
    bool links_failed;    /* links the grids cannot say: the board is one of links */
    bool symmetry_failed; /* a symmetry no orientation says: the board is one of links */
    Dir dirs[ZRF_MAX_DIRS];
    int ndirs;
    /* names */
    Names player_names, piece_names, zone_names, flag_names, tag_names, kind_names;
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
    bool has_hands;    /* pieces off the board are counted (`off` in the setup, recycled captures) */
    int nprelude;      /* set-up steps: the turns before `repeat` */
    bool recycle;      /* (option "recycle captures" true): captures fill the captor's hand */
    bool pass_partial; /* (option "pass partial" true): a move that goes on may stop */
    /* add-partial: the move types parts go on with; flags tell them apart when there are
     * several, or when the blocks that pause are not exactly that type's moves */
    const char *partial_types[7];
    int npartial_types;
    bool partial_flags;
    const char *go_flag, *type_flags[7], *visit_tag;
    const char *to_tag; /* the mover's destination, while a mark of the file is held */
    char castling[5];   /* the castles' letters (zrf_moves.c): the setup's castling rights */
    bool maximal;       /* (option "maximal captures" true) */
    bool maximal_kings; /* (option "maximal captures" 2): pieces but the first type count first */
    bool pass_forced;   /* (option "pass turn" forced): a player who cannot move passes */
    bool failed;        /* an error that stops the lowering */
} Lower;

/* ---- small helpers ---- */

static inline Ast *zrf_node(AstKind kind, const ZrfNode *at) { return ast_new(kind, at->loc); }
static inline Ast *zrf_node_text(AstKind kind, const ZrfNode *at, const char *text) {
    return ast_new_text(kind, at->loc, text);
}
/* An atom's or string's text; NULL for a list or no node. */
static inline const char *zrf_atom_text(const ZrfNode *n) { return n && n->kind != ZRF_LIST ? n->text : NULL; }
/* The first (HEAD ...) among a form's items, or NULL. */
static inline const ZrfNode *zrf_sub_form(const ZrfNode *f, const char *head) {
    for (int i = 1; f && i < f->nkids; i++)
        if (zrf_is_form(f->kids[i], head)) return f->kids[i];
    return NULL;
}

/* ---- zrf_lower.c ---- */

void zrf_set_text2(Ast *a, const char *text2);
/* Adds to `to` the text of form's (FIRST "...") item, or else its (SECOND "...") item, as a
 * `help` item for the rulebook (Zillions' '\' line breaks become new lines). */
void zrf_add_help(Ast *to, const ZrfNode *form, const char *first, const char *second);
/* The Varia name of a Zillions name in table t, or NULL; zrf_names_add makes one (letters,
 * digits, '_' and inner '-', at most MAX_NAME characters, unique in the table). */
const char *zrf_names_find(const Names *t, const char *zrf);
const char *zrf_names_add(Lower *L, Names *t, const char *zrf, const ZrfNode *at);
const ZrfNode *zrf_find_form(const Lower *L, const char *head);
bool zrf_symmetry_pair_unknown(const ZrfNode *bf, const ZrfNode *m);
/* Flags the players a (players...) list or a plain list names; false (after an error) for an
 * unknown one. */
bool zrf_read_players(Lower *L, const ZrfNode *list, bool *players);
Piece *zrf_piece_find(Lower *L, const char *name);
/* A position by name: as written, else ignoring case; -1 when none. */
int zrf_pos_index(const Lower *L, const char *name);
/* A position's cell name in the language (with its board when there are several). */
Ast *zrf_cell_name(const Lower *L, const Pos *p, const ZrfNode *at);
Dir *zrf_dir_find(Lower *L, const char *name);
/* The direction of a vector, declared (hidden) when the file names none. */
Dir *zrf_dir_for_vector(Lower *L, int dx, int dy, const ZrfNode *at);
/* A direction of vector (dx, dy), declared; NULL after an error. zrf_dir_add_split: one
 * whose steps are classes (no vector of its own). */
Dir *zrf_dir_add(Lower *L, const char *name, int dx, int dy, const ZrfNode *at);
Dir *zrf_dir_add_split(Lower *L, const char *name, const ZrfNode *at);
int zrf_player_index(const Lower *L, const char *zrf);
/* A zone's table entry by its Varia name (made when new; NULL when the table is full). */
ZoneInfo *zrf_zone_info(Lower *L, const char *vname);
/* Adds `zone NAME for PLAYER = cells` for each player flagged. */
void zrf_add_zone(Lower *L, const char *vname, const bool *in_pos, const bool *players, const ZrfNode *at);
/* A name for a zone the lowering makes. */
const char *zrf_hidden_name(Lower *L, const char *what);

/* ---- zrf_graph.c ---- */

/* The board of a (board ...) with positions, dummies or links that are not a grid's steps:
 * one grid of the language, with its directions and the players' orientations; false after
 * an error. */
bool zrf_lower_graph_board(Lower *L, const ZrfNode *bf);

/* ---- zrf_moves.c ---- */

/* Finds the attributes that only say a piece has not moved (lowered as `unmoved`). */
void zrf_declare_attrs(Lower *L);
Attr *zrf_attr_find(Lower *L, const char *name);
/* How moves that go on (add-partial) are told apart: before the pieces are lowered. */
void zrf_plan_partials(Lower *L);
/* Does move m capture: 1 on every way it goes, 0 never, -1 when that is not plain? */
int zrf_move_captures(Lower *L, const ZrfNode *m);
/* The piece item of pc: letter, flags, its moves and drops. */
void zrf_lower_piece(Lower *L, Piece *pc);

#endif
