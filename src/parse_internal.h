/* parse_internal.h - shared only by grammar/lexer.l, grammar/parser.y and src/parse.c:
 * the parser state (ParseCtx, no globals), the helper types of bison's semantic values and the
 * small node-building helpers the grammar actions call. Nothing outside the parser includes it. */
#ifndef VARIA_PARSE_INTERNAL_H
#define VARIA_PARSE_INTERNAL_H

#include "ast.h"
#include "diag.h"
#include "source.h"

/* Deepest nesting of '{' and '(' together, of conditions (not/and/or) and of else-if chains.
 * It keeps the parser stack and every recursive walk of the tree small. */

/* Bison and flex both need the scanner type; flex's header guards it with this macro. */
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* An unclosed '{' or '(' (for "expected '}' (to close '{' at line N)"). */
typedef struct ParseOpen {
    char ch;
    int line, col;
} ParseOpen;

typedef struct ParseCtx {
    const Source *src;
    DiagSink *sink;
    Ast *root; /* AST_FILE; items are added as they are parsed, so it survives aborts */

    /* Lexer position: line/col of the next character; end of the last token returned. */
    int line, col;
    int last_line, last_col;
    char tok[48]; /* display text of the last token returned (syntax errors name it) */

    /* Brackets open right now, innermost last. */
    ParseOpen open[MAX_NESTING];
    int depth;

    /* Error recovery (parse_recover): after an error inside a list at bracket depth
     * skip_depth, the lexer drops whole bracketed groups, anything deeper, and tokens at that
     * depth which cannot follow the list (skip_mode says which list), so parsing resumes at
     * the start of the next item. */
    bool skipping;
    int skip_depth;
    int skip_mode;
    int errok_line, errok_col; /* lookahead last accepted as a resync point */

    bool stop;               /* a fatal limit was hit: the lexer only returns end of file now */
    bool sink_was_truncated; /* the sink was already full before this parse */
    int errors;              /* errors this parse reported (syntax and lexical) */
} ParseCtx;

/* The semantic value of chains built top-down (not not ..., if ... else if ...): top owns the
 * whole chain; last is the innermost node, where the next link goes. */
typedef struct AstChain {
    Ast *top, *last;
    int n;
} AstChain;

/* The value of a SIZE token ("8x8"). */
typedef struct IntPair {
    long a, b;
} IntPair;

/* ---- helpers in parse.c (grammar actions and the lexer call these) ---- */

/* A location in ctx's file from bison-style first/last line and column (last is inclusive). */
SrcLoc parse_loc(const ParseCtx *ctx, int first_line, int first_col, int last_line, int last_col);
/* Reports an error at loc and counts it in ctx. */
void parse_error(ParseCtx *ctx, SrcLoc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* A node whose text is `owned`, which is freed (ast_new_text copies). Cannot fail. */
Ast *parse_text_node(AstKind kind, SrcLoc loc, char *owned);
/* Same with text2 too (either may be NULL); both are freed. */
Ast *parse_text2_node(AstKind kind, SrcLoc loc, char *owned, char *owned2);
/* Moves every child of holder to the end of dst, frees holder, returns dst. */
Ast *parse_adopt(Ast *dst, Ast *holder);
/* Returns cond unchanged when its and/or/not depth is within MAX_NESTING; otherwise reports
 * "nesting too deep" once and stops the parse (the node is still returned, to be freed). */
Ast *parse_check_cond(ParseCtx *ctx, Ast *cond);
/* Reports "nesting too deep (limit is 64)" at loc (once per parse) and stops the parse. */
void parse_too_deep(ParseCtx *ctx, SrcLoc loc);
/* The kinds of lists that recover from errors, by what may follow them. */
enum { PARSE_SYNC_TOP, PARSE_SYNC_ITEMS, PARSE_SYNC_PIECE, PARSE_SYNC_STMT };
/* Whether token (a bison token code) may follow a list of kind mode: an item start, ';' or
 * the list's closing '}' (end of file for the top level). */
bool parse_syncs(int mode, int token);
/* Called by the `list error` rules with the lookahead token (bison's yychar) and its position.
 * Returns true when the parser may leave error mode at once (yyerrok), so that an error in the
 * very next item is reported too: the lookahead can start the next item, or the offending
 * token was dropped and the lexer now skips to such a token. Otherwise starts that skipping. */
bool parse_recover(ParseCtx *ctx, int depth, int mode, int lookahead, int line, int col);

/* The flex header (lexer.h) names bison's types YYSTYPE/YYLTYPE, but with api.prefix {rl_}
 * bison calls them RL_STYPE/RL_LTYPE: every file including lexer.h needs these aliases. */
#define YYSTYPE RL_STYPE
#define YYLTYPE RL_LTYPE

#endif
