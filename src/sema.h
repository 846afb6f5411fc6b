/* sema.h - the checking pass: resolves every name in the syntax tree (players, boards, cells,
 * directions, zones, pieces, macros, options) into a Variant's tables and reports all errors.
 * compile.c then turns the checked piece bodies into programs using the same context. */
#ifndef VARIA_SEMA_H
#define VARIA_SEMA_H

#include "ast.h"
#include "variant.h"

/* A direction term resolved to a list of vectors/links (in player 0's frame, before the
 * per-owner orientation is applied). */
typedef struct DirList {
    int count;
    int8_t dx[MAX_DIRECTIONS], dy[MAX_DIRECTIONS];
    int8_t link[MAX_DIRECTIONS]; /* direction index of a link, or -1 for a vector */
} DirList;

typedef struct Sema {
    Variant *v;
    DiagSink *sink;
    const Ast *root;
    const OptionSetting *settings; /* the options chosen by the caller */
    int nsettings;
    Ast *items; /* top-level items after WHEN selection, owned */
    /* Items after option selection (WHEN) and macro expansion, in source order. */
    const Ast *pieces[MAX_PIECE_TYPES];
    Ast *piece_items[MAX_PIECE_TYPES]; /* BLOCK holding the expanded items, owned */
    int ndirsets;
    const Ast *dirsets[MAX_DIRECTIONS];
    SrcLoc dir_loc[MAX_DIRECTIONS]; /* where each direction was first needed */
    const Ast *macros[64];
    int nmacros;
    SrcLoc blocked_loc;                 /* the `end blocked` rule */
    SrcLoc blast_loc, blast_proof_loc;  /* the first `explodes` and `blast-proof` (0: none) */
    SrcLoc must_drop_loc;               /* the first `must-drop` piece flag (0: none) */
    SrcLoc setup_loc;                   /* the setup item: a bad start position is reported there */
    const Ast *board_items[MAX_BOARDS]; /* each declared board's item (its holding cells come later) */
} Sema;

/* Fills v from the tree; every error goes to sink. Returns false if there was any. */
bool sema_check(Sema *s, const Ast *root, const OptionSetting *settings, int nsettings);
/* Adds the reverse of every vector direction (attack tests walk rays backwards) and links each
 * direction to its reverse; run after compiling, which adds directions. Returns false, with an
 * error, when the reverses do not fit. */
bool sema_close_directions(Sema *s);
void sema_free(Sema *s);
/* Resolves one direction term; reports unknown names. Returns false on error. */
bool sema_dirterm(Sema *s, const Ast *term, DirList *out);
/* Index of a direction vector (dx,dy), adding it when new; -1 (with an error) when full. */
int sema_vector_dir(Sema *s, int dx, int dy, SrcLoc loc);
/* An orientation by its name, or -1. */
int sema_orientation(const char *name);
/* Turns a cell from player 0's frame into owner's frame (vectors: variant_orient_vector). */
Cell sema_orient_cell(const Variant *v, Orientation o, Cell c);
/* The place of `word` within an item (the parser locates whole items): for messages about one
 * name or number in it. Falls back to the item's own location. */
SrcLoc sema_word_loc(const Sema *s, SrcLoc item, const char *word);
/* Lookups; each reports an error at loc and returns -1 when the name is unknown. */
int sema_piece(Sema *s, const char *name, SrcLoc loc);
int sema_zone(Sema *s, const char *name, SrcLoc loc);
int sema_cell(Sema *s, const Ast *name_node);
int sema_player(Sema *s, const char *name, SrcLoc loc);
int sema_counter(Sema *s, const char *name, SrcLoc loc);
int sema_kind(Sema *s, const char *name, SrcLoc loc);
/* The kind of that name, declared when new; -1 (with an error) when there is no room. */
int sema_name_kind(Sema *s, const char *name, SrcLoc loc);
int sema_pile(Sema *s, const char *name, SrcLoc loc);
/* The directions of an `in-a-row` or `connect` (a BLOCK of dir terms; NULL or empty: the
 * board's own lines both ways) into dirs, as player 0 writes them; their number, or -1 after an
 * error. */
int sema_line_dirs(Sema *s, const Ast *terms, int *dirs);
/* Those directions as lines (each with its reverse) in Variant.linesets: the index, or -1 with
 * an error. */
int sema_lineset(Sema *s, const int *dirs, int n, SrcLoc loc);

#endif
