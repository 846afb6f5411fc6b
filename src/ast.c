/* ast.c - syntax tree nodes: construction, deep copy, freeing and the indented dump used by
 * `varia ast` and the golden tests. The meaning of each kind's fields is documented in ast.h. */
#include <stdlib.h>
#include <string.h>

#include "ast.h"

static const char *const kind_names[] = {
    "FILE",
    "VERSION",
    "GAME",
    "PLAYERS",
    "PLAYER",
    "TURN_ORDER",
    "BOARD",
    "HOLES",
    "ORIENTATION",
    "DIRECTION",
    "LINK",
    "DIRSET",
    "ZONE",
    "RANK",
    "FILE_SPEC",
    "ALL",
    "OPTION",
    "WHEN",
    "PIECE",
    "MACRO",
    "SETUP",
    "END",
    "MATLINE",
    "GROUP",
    "FORBID",
    "POSITION_FIELDS",
    "DEFEATED",
    "SHUFFLE",
    "COUNTER",
    "ARMIES",
    "STEER",
    "ALLEGIANCE",
    "PHASE",
    "CAPTURE_REWARD",
    "EXTRA_CAPTURE",
    "PILE",
    "CARD_RULE",
    "MINEFIELD",
    "PRELUDE",
    "HANDS",
    "GATING",
    "WORTH_BONUS",
    "TUNED",
    "MUST_CAPTURE",
    "LETTER",
    "SYMBOL",
    "VALUE",
    "INFLUENCE",
    "WORTH",
    "FLAG",
    "ATOM",
    "MOD",
    "CASTLE",
    "PROMOTE",
    "MOVEBLOCK",
    "USE",
    "DIR",
    "VEC",
    "SYM",
    "BLOCK",
    "STEP",
    "VERIFY",
    "IF",
    "WHILE",
    "EITHER",
    "ADD",
    "CAPTURE",
    "MARK",
    "BACK",
    "ORIGIN",
    "SETEP",
    "FAIL",
    "GOTO",
    "CHANGE",
    "COUNT",
    "KIND",
    "DROP",
    "CONVERT",
    "OUTFLANK",
    "HAND_OVER",
    "COND",
    "ONBOARD",
    "NOT",
    "AND",
    "OR",
    "NAME",
    "STRING",
    "WRITTEN",
    "COUNTING",
    "DEFINE",
    "FOR",
    "ADD_PARTIAL",
    "SET_FLAG",
    "TAG",
    "PRIORITY",
    "MERGE_DUPLICATES",
    "POSITION_FORMAT",
    "CELLS",
    "SYMMETRY",
    "EXCEPT",
    "HOSTILE",
    "SURROUND",
    "SHIELDWALL",
    "DROPBLOCK",
    "CREATE",
    "CHANGE_TYPE",
    "EXISTS",
    "REFLECT",
    "TRANSFER",
    "CHECK_KIND",
    "FROM",
    "TO",
    "HELP",
    "HOLDING",
};
_Static_assert(ARRAY_LEN(kind_names) == AST__COUNT, "one name per AstKind, in enum order");

/* A condition of several words is named by its keywords joined with '-' ("counter NAME
 * at-least N": counter-at-least). */
static const char *const keyword_names[] = {
    "",
    "win",
    "loss",
    "draw",
    "pass",
    "empty",
    "enemy",
    "friend",
    "ep",
    "attacked",
    "defended",
    "unmoved",
    "last-to",
    "last-from",
    "piece",
    "in",
    "counter-at-least",
    "counter-at-most",
    "attackers-at-least",
    "influence-at-least",
    "influence-at-most",
    "influence-at-least-rival",
    "influence-at-most-rival",
    "rival-at-least",
    "rival-at-most",
    "gives-check",
    "worth",
    "privilege",
    "piece-on-board",
    "taken",
    "flag",
    "tagged",
    "most",
    "in-a-row",
    "pieces-at-least",
    "pieces-at-most",
};
_Static_assert(ARRAY_LEN(keyword_names) == KEYWORD__COUNT, "one name per Keyword, in enum order");

Ast *ast_new(AstKind kind, SrcLoc loc) {
    Ast *node = xcalloc(1, sizeof *node);
    node->kind = kind;
    node->loc = loc;
    return node;
}

Ast *ast_new_text(AstKind kind, SrcLoc loc, const char *text) {
    Ast *node = ast_new(kind, loc);
    node->text = text ? xstrdup(text) : NULL;
    return node;
}

Ast *ast_add(Ast *parent, Ast *kid) {
    if (!kid) return parent;
    if (parent->nkids == parent->capkids) {
        parent->capkids = parent->capkids ? parent->capkids * 2 : 4;
        parent->kids = xrealloc(parent->kids, (size_t)parent->capkids * sizeof *parent->kids);
    }
    parent->kids[parent->nkids++] = kid;
    return parent;
}

void ast_free(Ast *node) {
    if (!node) return;
    for (int i = 0; i < node->nkids; i++) ast_free(node->kids[i]);
    free(node->kids);
    free(node->text);
    free(node->text2);
    free(node);
}

Ast *ast_clone(const Ast *node) {
    if (!node) return NULL;
    Ast *copy = ast_new_text(node->kind, node->loc, node->text);
    copy->text2 = node->text2 ? xstrdup(node->text2) : NULL;
    memcpy(copy->num, node->num, sizeof copy->num);
    copy->sub = node->sub;
    copy->word = node->word;
    for (int i = 0; i < node->nkids; i++) ast_add(copy, ast_clone(node->kids[i]));
    return copy;
}

const char *ast_kind_name(AstKind kind) {
    if ((unsigned)kind >= AST__COUNT) return "?";
    return kind_names[kind];
}

const char *ast_keyword_name(Keyword word) {
    if ((unsigned)word >= KEYWORD__COUNT) return "?";
    return keyword_names[word];
}

static void dump_string(const char *s, FILE *out) {
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\x%02X", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void dump(const Ast *node, int depth, FILE *out) {
    for (int i = 0; i < depth; i++) fputs("  ", out);
    fputs(ast_kind_name(node->kind), out);
    /* a keyword shows where its node has no text of its own, as the word it was written as */
    if (node->word != KEYWORD_NONE) {
        fputs(" text=", out);
        dump_string(ast_keyword_name(node->word), out);
    }
    if (node->text) {
        fputs(" text=", out);
        dump_string(node->text, out);
    }
    if (node->text2) {
        fputs(" text2=", out);
        dump_string(node->text2, out);
    }
    if (node->num[0] || node->num[1] || node->num[2])
        fprintf(out, " num=[%ld,%ld,%ld]", node->num[0], node->num[1], node->num[2]);
    if (node->sub) fprintf(out, " sub=%d", node->sub);
    fprintf(out, " @%d:%d\n", node->loc.line, node->loc.col);
    for (int i = 0; i < node->nkids; i++) dump(node->kids[i], depth + 1, out);
}

void ast_dump(const Ast *node, FILE *out) {
    if (node) dump(node, 0, out);
}
