/* zrf_internal.h - shared by the Zillions front end's reader (zrf_read.c) and its lowering
 * (zrf_lower.c): the s-expression nodes, the macro expansions they came through, and the
 * reader's state that owns them. */
#ifndef VARIA_ZRF_INTERNAL_H
#define VARIA_ZRF_INTERNAL_H

#include "ast.h"
#include "source.h"

#define ZRF_MAX_NESTING 200    /* nested parentheses in one file */
#define ZRF_MAX_INCLUDES 16    /* nested includes */
#define ZRF_MAX_MACRO_DEPTH 64 /* macros expanding macros */
#define ZRF_MAX_NODES 400000   /* nodes after macro expansion (the largest real files: about 110000) */
#define ZRF_MAX_INCLUDE_BYTES (16L * 1024 * 1024)

typedef enum ZrfKind { ZRF_ATOM, ZRF_STRING, ZRF_LIST } ZrfKind;

typedef struct ZrfNode {
    ZrfKind kind;
    const char *text; /* atom or string contents (the reader's arena) */
    SrcLoc loc;       /* where it was written; a list: its '(' (end_line/end_col: its ')') */
    int exp;          /* the macro expansion it came from (index into ZrfReader.exps; 0: none) */
    struct ZrfNode **kids;
    int nkids, capkids;
} ZrfNode;

/* One use of a macro: a node whose exp is e was written inside the body of exps[e].macro, used
 * at exps[e].at, itself perhaps inside another expansion (parent). */
typedef struct ZrfExpansion {
    const char *macro;
    SrcLoc at;
    int parent;
} ZrfExpansion;

typedef struct ZrfDefine {
    const char *name;
    const ZrfNode *form; /* the whole (define NAME BODY...) */
    int next;            /* the define before it in its hash bucket, or -1 */
} ZrfDefine;

#define ZRF_DEFINE_BUCKETS 256

/* A game or variant form of the file, in file order. */
typedef struct ZrfEntry {
    const ZrfNode *form;
    const char *title;
    int game;        /* the entry of the game a variant inherits from (itself for a game) */
    bool is_variant; /* (variant ...) */
    bool is_default; /* has (default) */
    bool separator;  /* a variant titled "-": a menu separator, not a game */
} ZrfEntry;

typedef struct ZrfChunk ZrfChunk;

typedef struct ZrfReader {
    DiagSink *sink;
    ZrfChunk *arena;
    Source **sources; /* the main file (not owned: sources[0]) and the included ones */
    int nsources;
    int include_depth;
    ZrfExpansion *exps;
    int nexps, capexps;
    ZrfDefine *defines;
    int ndefines, capdefines;
    int bucket[ZRF_DEFINE_BUCKETS]; /* the latest define of each hash bucket, or -1 */
    ZrfEntry *entries;
    int nentries, capentries;
    long nodes;     /* made so far (a bound on macro expansion) */
    bool too_large; /* the expansion bound was hit (said once) */
    bool engine;    /* the file names an Axiom engine */
    SrcLoc engine_at;
} ZrfReader;

/* ---- zrf_read.c ---- */

/* Reads src (and what it includes) into r: lexing, macro expansion, the games and variants.
 * Errors go to sink. r is freed by zrf_reader_free. */
void zrf_read(ZrfReader *r, const Source *src, DiagSink *sink);
void zrf_reader_free(ZrfReader *r);
/* The forms of entry e: a game's own forms, or a variant's merged over its game's (a variant's
 * piece replaces the game's piece of that name, an option the option of that name, any other
 * form every game form of its keyword). Returns a list node (arena). */
ZrfNode *zrf_entry_forms(ZrfReader *r, int e);

/* Diagnostics at a node, each followed by a note per macro the node came through. */
void zrf_error(ZrfReader *r, const ZrfNode *n, const char *fmt, ...) PRINTF_LIKE(3, 4);
void zrf_warn(ZrfReader *r, const ZrfNode *n, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* The notes of a location's expansion chain. */
void zrf_notes(ZrfReader *r, int exp);

/* Adds to the diagnostics of sink from index `first` on (those of the stages after the
 * lowering: the checker, the compiler) the notes of the macros their places came through. */
void zrf_annotate(ZrfReader *r, DiagSink *sink, int first);

/* Node helpers. */
bool zrf_is(const ZrfNode *n, const char *word); /* an atom equal to word, ignoring case */
const char *zrf_head(const ZrfNode *n);          /* a list's first atom, or NULL */
bool zrf_is_form(const ZrfNode *n, const char *word);
ZrfNode *zrf_new(ZrfReader *r, ZrfKind kind, const char *text, SrcLoc loc, int exp);
void zrf_push(ZrfReader *r, ZrfNode *list, ZrfNode *kid);
char *zrf_strdup(ZrfReader *r, const char *s);
/* The text of a node as it would be written (lists in parentheses), in the arena. */
const char *zrf_print(ZrfReader *r, const ZrfNode *n);

#endif
