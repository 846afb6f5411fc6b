/* parse.c - rule-file text to syntax tree: owns the flex scanner for one parse and wraps the
 * bison parser (grammar/parser.y); also the node-building helpers the grammar actions use. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "parse_internal.h"
#include "parser.h"
#include "lexer.h"

SrcLoc parse_loc(const ParseCtx *ctx, int first_line, int first_col, int last_line, int last_col) {
    SrcLoc loc = {ctx->src->path, first_line, first_col, last_line, last_col};
    return loc;
}

void parse_error(ParseCtx *ctx, SrcLoc loc, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ctx->errors++;
    diag_error(ctx->sink, loc, "%s", msg);
}

Ast *parse_text_node(AstKind kind, SrcLoc loc, char *owned) {
    Ast *node = ast_new(kind, loc);
    node->text = owned; /* same allocator as ast_new_text's copy: saves a copy */
    return node;
}

Ast *parse_text2_node(AstKind kind, SrcLoc loc, char *owned, char *owned2) {
    Ast *node = parse_text_node(kind, loc, owned);
    node->text2 = owned2;
    return node;
}

Ast *parse_adopt(Ast *dst, Ast *holder) {
    if (!holder) return dst;
    for (int i = 0; i < holder->nkids; i++) ast_add(dst, holder->kids[i]);
    holder->nkids = 0;
    ast_free(holder);
    return dst;
}

/* Depth of the not/and/or structure of a condition, counting up to limit + 1 only. */
static int cond_depth(const Ast *node, int limit) {
    if (node->kind != AST_NOT && node->kind != AST_AND && node->kind != AST_OR) return 1;
    if (limit <= 0) return 1;
    int deepest = 0;
    for (int i = 0; i < node->nkids; i++) {
        int d = cond_depth(node->kids[i], limit - 1);
        if (d > deepest) deepest = d;
    }
    return 1 + deepest;
}

Ast *parse_check_cond(ParseCtx *ctx, Ast *cond) {
    if (cond_depth(cond, MAX_NESTING) > MAX_NESTING) parse_too_deep(ctx, cond->loc);
    return cond;
}

void parse_too_deep(ParseCtx *ctx, SrcLoc loc) {
    if (ctx->stop) return;
    parse_error(ctx, loc, "nesting too deep (limit is %d)", MAX_NESTING);
    ctx->stop = true;
}

bool parse_syncs(int mode, int token) {
    switch (token) {
    case ';': return true;
    case '}': return mode != PARSE_SYNC_TOP;
    case TOK_YYEOF: return mode == PARSE_SYNC_TOP;
    case TOK_KW_VERSION:
    case TOK_KW_GAME:
    case TOK_KW_PLAYERS:
    case TOK_KW_TURN_ORDER:
    case TOK_KW_BOARD:
    case TOK_KW_ORIENTATION:
    case TOK_KW_DIRECTION:
    case TOK_KW_LINK:
    case TOK_KW_DIRSET:
    case TOK_KW_ZONE:
    case TOK_KW_OPTION:
    case TOK_KW_PIECE:
    case TOK_KW_MACRO:
    case TOK_KW_SETUP:
    case TOK_KW_END:
    case TOK_KW_FORBID:
    case TOK_KW_ALLOW:
    case TOK_KW_ARMIES:
    case TOK_KW_STEER:
    case TOK_KW_TRANSFER:
    case TOK_KW_HELPS:
    case TOK_KW_HANDS:
    case TOK_KW_GATING: return mode == PARSE_SYNC_TOP || mode == PARSE_SYNC_ITEMS;
    case TOK_KW_WHEN: return mode != PARSE_SYNC_STMT;
    case TOK_IDENT:
    case TOK_KW_LETTER:
    case TOK_KW_SYMBOL:
    case TOK_KW_WRITTEN:
    case TOK_KW_VALUE:
    case TOK_KW_LEAP:
    case TOK_KW_SLIDE:
    case TOK_KW_LEGS:
    case TOK_KW_HOP:
    case TOK_KW_EN_PASSANT:
    case TOK_KW_DROP:
    case TOK_KW_CASTLE:
    case TOK_KW_PROMOTE:
    case TOK_KW_MOVE:
    case TOK_KW_USE:
    case TOK_KW_INFLUENCE: return mode == PARSE_SYNC_PIECE;
    case TOK_KW_STEP: return mode == PARSE_SYNC_PIECE || mode == PARSE_SYNC_STMT;
    case TOK_KW_VERIFY:
    case TOK_KW_IF:
    case TOK_KW_WHILE:
    case TOK_KW_EITHER:
    case TOK_KW_ADD:
    case TOK_KW_CAPTURE:
    case TOK_KW_MARK:
    case TOK_KW_BACK:
    case TOK_KW_ORIGIN:
    case TOK_KW_SET_EP:
    case TOK_KW_FAIL:
    case TOK_KW_GOTO:
    case TOK_KW_CHANGE: return mode == PARSE_SYNC_STMT;
    default: return false;
    }
}

bool parse_recover(ParseCtx *ctx, int depth, int mode, int lookahead, int line, int col) {
    if (lookahead == TOK_RL_EMPTY) {
        /* The parser dropped the offending token; the lexer is skipping to a resync point. */
        return true;
    }
    if (parse_syncs(mode, lookahead)) {
        /* The lookahead resumes the list. The position check guarantees progress should the
         * lookahead still fail: then it is dropped rather than reported again and again. */
        if (line == ctx->errok_line && col == ctx->errok_col) return false;
        ctx->errok_line = line;
        ctx->errok_col = col;
        return true;
    }
    ctx->skipping = true;
    ctx->skip_depth = depth;
    ctx->skip_mode = mode;
    return false;
}

Ast *parse_source(const Source *src, DiagSink *sink) {
    ParseCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.src = src;
    ctx.sink = sink;
    ctx.line = ctx.col = 1;
    ctx.last_line = 1;
    ctx.last_col = 0;
    ctx.sink_was_truncated = sink->truncated;
    ctx.root = ast_new(AST_FILE, parse_loc(&ctx, 1, 1, 1, 1));

    /* flex takes the length as an int. (<limits.h> is shadowed by src/limits.h under -Isrc.) */
    if (src->len > ((size_t)1 << 30)) {
        parse_error(&ctx, parse_loc(&ctx, 0, 0, 0, 0), "file too large");
        return ctx.root;
    }
    yyscan_t scanner;
    if (rl_lex_init_extra(&ctx, &scanner) != 0) {
        parse_error(&ctx, parse_loc(&ctx, 0, 0, 0, 0), "out of memory");
        return ctx.root;
    }
    YY_BUFFER_STATE buf = rl__scan_bytes(src->text, (int)src->len, scanner);
    int rc = rl_parse(scanner, &ctx);
    rl__delete_buffer(buf, scanner);
    rl_lex_destroy(scanner);

    /* A parse that failed must have said why. */
    if (rc != 0 && ctx.errors == 0)
        parse_error(&ctx, parse_loc(&ctx, ctx.last_line, ctx.last_col + 1, ctx.last_line, ctx.last_col + 1),
                    "syntax error");
    ctx.root->loc.end_line = ctx.last_line;
    ctx.root->loc.end_col = ctx.last_col > 0 ? ctx.last_col : 1;
    return ctx.root;
}
