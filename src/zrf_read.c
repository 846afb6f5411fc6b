/* zrf_read.c - the reader of Zillions rule files: lexing (`;` comments, strings, words),
 * nested lists, `include`, `define` macros with $1..$n pasted as text wherever they stand, and
 * the file's games and variants, a variant's forms merged over its game's. Every node keeps
 * the place it was written and the macro uses it came through, for diagnostics. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "zrf_internal.h"

/* ---- arena ----------------------------------------------------------------------------------- */

struct ZrfChunk {
    ZrfChunk *next;
    size_t used, cap;
    max_align_t data[];
};

static void *arena_alloc(ZrfReader *r, size_t size) {
    size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    ZrfChunk *c = r->arena;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > 65536 ? size : 65536;
        c = xmalloc(sizeof *c + cap);
        c->next = r->arena;
        c->used = 0;
        c->cap = cap;
        r->arena = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += size;
    return p;
}

char *zrf_strdup(ZrfReader *r, const char *s) {
    size_t n = strlen(s) + 1;
    char *d = arena_alloc(r, n);
    memcpy(d, s, n);
    return d;
}

static char *arena_strndup(ZrfReader *r, const char *s, size_t n) {
    char *d = arena_alloc(r, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

ZrfNode *zrf_new(ZrfReader *r, ZrfKind kind, const char *text, SrcLoc loc, int exp) {
    ZrfNode *n = arena_alloc(r, sizeof *n);
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->text = text;
    n->loc = loc;
    n->exp = exp;
    r->nodes++;
    return n;
}

void zrf_push(ZrfReader *r, ZrfNode *list, ZrfNode *kid) {
    if (list->nkids == list->capkids) {
        int cap = list->capkids ? list->capkids * 2 : 4;
        ZrfNode **kids = arena_alloc(r, (size_t)cap * sizeof *kids);
        if (list->nkids) memcpy(kids, list->kids, (size_t)list->nkids * sizeof *kids);
        list->kids = kids;
        list->capkids = cap;
    }
    list->kids[list->nkids++] = kid;
}

void zrf_reader_free(ZrfReader *r) {
    while (r->arena) {
        ZrfChunk *next = r->arena->next;
        free(r->arena);
        r->arena = next;
    }
    for (int i = 1; i < r->nsources; i++) source_free(r->sources[i]);
    free(r->sources);
    free(r->exps);
    free(r->defines);
    free(r->entries);
    memset(r, 0, sizeof *r);
}

/* ---- diagnostics ----------------------------------------------------------------------------- */

void zrf_notes(ZrfReader *r, int exp) {
    /* one note per use; a use repeated at the same place (a macro using itself) once, counted */
    for (int e = exp, guard = 0; e > 0 && guard < ZRF_MAX_MACRO_DEPTH + 1; guard++) {
        int same = 1, next = r->exps[e].parent;
        while (next > 0 && r->exps[next].at.line == r->exps[e].at.line && r->exps[next].at.col == r->exps[e].at.col &&
               r->exps[next].at.file == r->exps[e].at.file && !strcmp(r->exps[next].macro, r->exps[e].macro)) {
            same++;
            next = r->exps[next].parent;
        }
        if (same > 1)
            diag_note(r->sink, r->exps[e].at, "in macro '%s', used here (%d times over)", r->exps[e].macro, same);
        else
            diag_note(r->sink, r->exps[e].at, "in macro '%s', used here", r->exps[e].macro);
        e = next;
    }
}

static void report(ZrfReader *r, DiagLevel level, const ZrfNode *n, const char *fmt, va_list ap) {
    char msg[600];
    vsnprintf(msg, sizeof msg, fmt, ap);
    int before = r->sink->count;
    if (level == DIAG_ERROR)
        diag_error(r->sink, n->loc, "%s", msg);
    else
        diag_warn(r->sink, n->loc, "%s", msg);
    if (r->sink->count > before) zrf_notes(r, n->exp);
}

void zrf_error(ZrfReader *r, const ZrfNode *n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(r, DIAG_ERROR, n, fmt, ap);
    va_end(ap);
}

void zrf_warn(ZrfReader *r, const ZrfNode *n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(r, DIAG_WARNING, n, fmt, ap);
    va_end(ap);
}

/* ---- node helpers ---------------------------------------------------------------------------- */

bool zrf_is(const ZrfNode *n, const char *word) { return n && n->kind == ZRF_ATOM && !strcasecmp(n->text, word); }

const char *zrf_head(const ZrfNode *n) {
    if (!n || n->kind != ZRF_LIST || n->nkids == 0 || n->kids[0]->kind != ZRF_ATOM) return NULL;
    return n->kids[0]->text;
}

bool zrf_is_form(const ZrfNode *n, const char *word) {
    const char *h = zrf_head(n);
    return h && !strcasecmp(h, word);
}

static void print_into(const ZrfNode *n, char **buf, size_t *len, size_t *cap) {
    char tmp[8];
    const char *parts[3] = {NULL, NULL, NULL};
    if (n->kind == ZRF_ATOM)
        parts[0] = n->text;
    else if (n->kind == ZRF_STRING) {
        parts[0] = "\"";
        parts[1] = n->text;
        parts[2] = "\"";
    }
    if (n->kind == ZRF_LIST) {
        snprintf(tmp, sizeof tmp, "(");
        parts[0] = tmp;
    }
    for (int i = 0; i < 3; i++) {
        if (!parts[i]) continue;
        size_t k = strlen(parts[i]);
        if (*len + k + 2 > *cap) {
            *cap = (*len + k + 2) * 2;
            *buf = xrealloc(*buf, *cap);
        }
        memcpy(*buf + *len, parts[i], k);
        *len += k;
    }
    if (n->kind != ZRF_LIST) return;
    for (int i = 0; i < n->nkids; i++) {
        if (i) {
            if (*len + 2 > *cap) *buf = xrealloc(*buf, *cap = *cap * 2 + 2);
            (*buf)[(*len)++] = ' ';
        }
        print_into(n->kids[i], buf, len, cap);
    }
    if (*len + 2 > *cap) *buf = xrealloc(*buf, *cap = *cap * 2 + 2);
    (*buf)[(*len)++] = ')';
}

const char *zrf_print(ZrfReader *r, const ZrfNode *n) {
    size_t len = 0, cap = 64;
    char *buf = xmalloc(cap);
    print_into(n, &buf, &len, &cap);
    buf[len] = 0;
    const char *s = zrf_strdup(r, buf);
    free(buf);
    return s;
}

/* ---- lexing and lists ------------------------------------------------------------------------ */

typedef struct Lexer {
    ZrfReader *r;
    const char *p, *end;
    const char *file;
    int line, col;
    int exp;     /* expansion of the nodes made (pasted macro text) */
    bool pasted; /* text pasted by a macro: every node at `at` */
    SrcLoc at;
} Lexer;

static SrcLoc lex_loc(const Lexer *lx) {
    if (lx->pasted) return lx->at;
    return (SrcLoc){lx->file, lx->line, lx->col, lx->line, lx->col};
}

static void lex_advance(Lexer *lx) {
    if (*lx->p == '\n') {
        lx->line++;
        lx->col = 1;
    } else
        lx->col++;
    lx->p++;
}

static bool is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0x1A;
}
static bool is_delim(unsigned char c) { return is_space(c) || c == '(' || c == ')' || c == '"' || c == ';'; }

static void lex_error(Lexer *lx, SrcLoc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void lex_error(Lexer *lx, SrcLoc loc, const char *fmt, ...) {
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int before = lx->r->sink->count;
    diag_error(lx->r->sink, loc, "%s", msg);
    if (lx->r->sink->count > before) zrf_notes(lx->r, lx->exp);
}

/* Skips spaces, comments and stray control characters (reported). */
static void lex_skip(Lexer *lx) {
    while (lx->p < lx->end) {
        unsigned char c = (unsigned char)*lx->p;
        if (is_space(c))
            lex_advance(lx);
        else if (c == ';')
            while (lx->p < lx->end && *lx->p != '\n') lex_advance(lx);
        else if (c < 0x20 || c == 0x7f) {
            lex_error(lx, lex_loc(lx), "unexpected control character (code %d)", c);
            lex_advance(lx);
        } else
            break;
    }
}

/* Skips a list whose '(' was read, without keeping it (past the nesting limit). */
static void lex_skip_list(Lexer *lx) {
    int depth = 1;
    while (lx->p < lx->end && depth > 0) {
        lex_skip(lx);
        if (lx->p >= lx->end) break;
        if (*lx->p == '"') {
            lex_advance(lx);
            while (lx->p < lx->end && *lx->p != '"') lex_advance(lx);
            if (lx->p < lx->end) lex_advance(lx);
            continue;
        }
        if (*lx->p == '(') depth++;
        if (*lx->p == ')') depth--;
        lex_advance(lx);
    }
}

/* Reads items into list until its ')' (depth > 0) or the end of the text (depth 0). */
static void lex_items(Lexer *lx, ZrfNode *list, int depth) {
    for (;;) {
        lex_skip(lx);
        if (lx->p >= lx->end) {
            if (depth > 0) {
                lex_error(lx, list->loc, "'(' is never closed (the file ends first)");
                list->loc.end_line = lx->line;
                list->loc.end_col = lx->col;
            }
            return;
        }
        SrcLoc loc = lex_loc(lx);
        char c = *lx->p;
        if (c == ')') {
            lex_advance(lx);
            if (depth > 0) {
                if (!lx->pasted) {
                    list->loc.end_line = loc.line;
                    list->loc.end_col = loc.col;
                }
                return;
            }
            lex_error(lx, loc, "unmatched ')'");
            continue;
        }
        if (c == '(') {
            lex_advance(lx);
            if (depth + 1 > ZRF_MAX_NESTING) {
                lex_error(lx, loc, "parentheses nested too deep (limit is %d)", ZRF_MAX_NESTING);
                lex_skip_list(lx);
                continue;
            }
            ZrfNode *sub = zrf_new(lx->r, ZRF_LIST, NULL, loc, lx->exp);
            lex_items(lx, sub, depth + 1);
            zrf_push(lx->r, list, sub);
            continue;
        }
        if (c == '"') {
            lex_advance(lx);
            const char *start = lx->p;
            while (lx->p < lx->end && *lx->p != '"') lex_advance(lx);
            if (lx->p >= lx->end) {
                lex_error(lx, loc, "string never closed (no '\"' before the end of the file)");
                zrf_push(
                    lx->r, list,
                    zrf_new(lx->r, ZRF_STRING, arena_strndup(lx->r, start, (size_t)(lx->p - start)), loc, lx->exp));
                continue;
            }
            zrf_push(lx->r, list,
                     zrf_new(lx->r, ZRF_STRING, arena_strndup(lx->r, start, (size_t)(lx->p - start)), loc, lx->exp));
            lex_advance(lx);
            continue;
        }
        const char *start = lx->p;
        while (lx->p < lx->end && !is_delim((unsigned char)*lx->p) && (unsigned char)*lx->p >= 0x20 && *lx->p != 0x7f)
            lex_advance(lx);
        loc.end_line = loc.line;
        loc.end_col = lx->pasted ? loc.end_col : lx->col;
        zrf_push(lx->r, list,
                 zrf_new(lx->r, ZRF_ATOM, arena_strndup(lx->r, start, (size_t)(lx->p - start)), loc, lx->exp));
    }
}

/* ---- macros ---------------------------------------------------------------------------------- */

/* The bucket of a macro name (case ignored, as names are compared). */
static unsigned name_hash(const char *name) {
    unsigned h = 2166136261u;
    for (const char *p = name; *p; p++) h = (h ^ (unsigned char)tolower((unsigned char)*p)) * 16777619u;
    return h % ZRF_DEFINE_BUCKETS;
}

/* The latest define of that name. */
static const ZrfDefine *find_define(const ZrfReader *r, const char *name) {
    for (int i = r->bucket[name_hash(name)]; i >= 0; i = r->defines[i].next)
        if (!strcasecmp(r->defines[i].name, name)) return &r->defines[i];
    return NULL;
}

static int new_expansion(ZrfReader *r, const char *macro, SrcLoc at, int parent) {
    if (r->nexps == r->capexps) {
        r->capexps = r->capexps ? r->capexps * 2 : 64;
        r->exps = xrealloc(r->exps, (size_t)r->capexps * sizeof *r->exps);
    }
    r->exps[r->nexps] = (ZrfExpansion){macro, at, parent};
    return r->nexps++;
}

static bool budget_ok(ZrfReader *r, const ZrfNode *at) {
    if (r->nodes <= ZRF_MAX_NODES) return true;
    if (!r->too_large) zrf_error(r, at, "macro expansion too large (limit is %d nodes)", ZRF_MAX_NODES);
    r->too_large = true;
    return false;
}

/* text with each $N replaced by the text of argument N (nothing for a missing one). */
static char *paste(ZrfReader *r, const char *text, ZrfNode *const *args, int nargs) {
    size_t len = 0, cap = strlen(text) + 16;
    char *out = xmalloc(cap);
    for (const char *p = text; *p;) {
        const char *piece = NULL;
        size_t plen = 1;
        if (*p == '$' && isdigit((unsigned char)p[1])) {
            long k = 0;
            const char *q = p + 1;
            while (isdigit((unsigned char)*q) && k < 100000) k = k * 10 + (*q++ - '0');
            while (isdigit((unsigned char)*q)) q++;
            piece = k >= 1 && k <= nargs
                ? (args[k - 1]->kind == ZRF_LIST ? zrf_print(r, args[k - 1]) : args[k - 1]->text)
                : "";
            plen = strlen(piece);
            p = q;
        } else
            piece = p++;
        if (len + plen + 1 > cap) {
            cap = (len + plen + 1) * 2;
            out = xrealloc(out, cap);
        }
        memcpy(out + len, piece, plen);
        len += plen;
    }
    out[len] = 0;
    return out;
}

static bool has_param(const char *text) {
    for (const char *p = strchr(text, '$'); p; p = strchr(p + 1, '$'))
        if (isdigit((unsigned char)p[1])) return true;
    return false;
}

/* Appends to out the body node b with the arguments put in (expansion e). */
static void substitute(ZrfReader *r, const ZrfNode *b, ZrfNode *const *args, int nargs, int e, ZrfNode *out) {
    if (!budget_ok(r, b)) return;
    if (b->kind == ZRF_LIST) {
        ZrfNode *l = zrf_new(r, ZRF_LIST, NULL, b->loc, e);
        for (int i = 0; i < b->nkids; i++) substitute(r, b->kids[i], args, nargs, e, l);
        zrf_push(r, out, l);
        return;
    }
    if (!has_param(b->text)) {
        zrf_push(r, out, zrf_new(r, b->kind, b->text, b->loc, e));
        return;
    }
    if (b->kind == ZRF_ATOM && b->text[0] == '$') {
        /* exactly $N: the argument itself, as and where it was written */
        char *endp;
        long k = strtol(b->text + 1, &endp, 10);
        if (*endp == 0) {
            if (k >= 1 && k <= nargs) zrf_push(r, out, args[k - 1]);
            return;
        }
    }
    char *text = paste(r, b->text, args, nargs);
    if (b->kind == ZRF_STRING) {
        zrf_push(r, out, zrf_new(r, ZRF_STRING, zrf_strdup(r, text), b->loc, e));
    } else {
        /* a word pasted together: read again, since an argument may have brought lists */
        Lexer lx = {r, text, text + strlen(text), b->loc.file, b->loc.line, b->loc.col, e, true, b->loc};
        lex_items(&lx, out, 0);
    }
    free(text);
}

static void expand_into(ZrfReader *r, const ZrfNode *n, ZrfNode *out, int depth);

static void apply_macro(ZrfReader *r, const ZrfDefine *d, const ZrfNode *use, ZrfNode *out, int depth) {
    if (depth >= ZRF_MAX_MACRO_DEPTH) {
        zrf_error(r, use, "macros nested too deep expanding '%s' (limit is %d; does it use itself?)", d->name,
                  ZRF_MAX_MACRO_DEPTH);
        return;
    }
    int e = new_expansion(r, d->name, use->loc, use->exp);
    ZrfNode *args = zrf_new(r, ZRF_LIST, NULL, use->loc, use->exp);
    for (int i = 1; i < use->nkids; i++) zrf_push(r, args, use->kids[i]);
    ZrfNode *body = zrf_new(r, ZRF_LIST, NULL, use->loc, e);
    for (int i = 2; i < d->form->nkids; i++) substitute(r, d->form->kids[i], args->kids, args->nkids, e, body);
    for (int i = 0; i < body->nkids && !r->too_large; i++) expand_into(r, body->kids[i], out, depth + 1);
}

static void expand_into(ZrfReader *r, const ZrfNode *n, ZrfNode *out, int depth) {
    if (!budget_ok(r, n)) return;
    if (n->kind != ZRF_LIST) {
        zrf_push(r, out, (ZrfNode *)n);
        return;
    }
    const char *h = zrf_head(n);
    const ZrfDefine *d = h ? find_define(r, h) : NULL;
    if (d) {
        apply_macro(r, d, n, out, depth);
        return;
    }
    ZrfNode *l = zrf_new(r, ZRF_LIST, NULL, n->loc, n->exp);
    for (int i = 0; i < n->nkids && !r->too_large; i++) expand_into(r, n->kids[i], l, depth);
    zrf_push(r, out, l);
}

/* ---- the file's forms ------------------------------------------------------------------------ */

static const char *form_string(const ZrfNode *form, const char *head) {
    for (int i = 1; i < form->nkids; i++)
        if (zrf_is_form(form->kids[i], head) && form->kids[i]->nkids >= 2 && form->kids[i]->kids[1]->kind != ZRF_LIST)
            return form->kids[i]->kids[1]->text;
    return NULL;
}

static void add_entry(ZrfReader *r, ZrfNode *form, bool variant) {
    int game = -1;
    if (variant) {
        for (int i = r->nentries - 1; i >= 0 && game < 0; i--)
            if (!r->entries[i].is_variant) game = i;
        if (game < 0) {
            zrf_error(r, form, "a variant needs a game before it to inherit from");
            return;
        }
    }
    if (r->nentries == r->capentries) {
        r->capentries = r->capentries ? r->capentries * 2 : 8;
        r->entries = xrealloc(r->entries, (size_t)r->capentries * sizeof *r->entries);
    }
    ZrfEntry *en = &r->entries[r->nentries];
    memset(en, 0, sizeof *en);
    en->form = form;
    en->is_variant = variant;
    en->game = variant ? game : r->nentries;
    const char *title = form_string(form, "title");
    en->title = title ? title : variant ? "(untitled variant)" : "(untitled game)";
    en->separator = variant && title && !strcmp(title, "-");
    for (int i = 1; i < form->nkids; i++) {
        if (zrf_is_form(form->kids[i], "default") || zrf_is(form->kids[i], "default")) en->is_default = true;
        if (zrf_is_form(form->kids[i], "engine") && !r->engine) {
            r->engine = true;
            r->engine_at = form->kids[i]->loc;
        }
    }
    r->nentries++;
}

static void read_forms(ZrfReader *r, const ZrfNode *top);

static void do_include(ZrfReader *r, const ZrfNode *form) {
    if (form->nkids != 2 || form->kids[1]->kind != ZRF_STRING) {
        zrf_error(r, form, "include takes one file name in quotes");
        return;
    }
    if (r->include_depth >= ZRF_MAX_INCLUDES) {
        zrf_error(r, form, "includes nested too deep (limit is %d; does a file include itself?)", ZRF_MAX_INCLUDES);
        return;
    }
    /* relative to the including file's folder; Windows separators read as '/' */
    const char *name = form->kids[1]->text;
    const char *file = form->loc.file ? form->loc.file : "";
    const char *slash = strrchr(file, '/');
    size_t dirlen = name[0] == '/' || !slash ? 0 : (size_t)(slash - file + 1);
    char *path = xmalloc(dirlen + strlen(name) + 1);
    memcpy(path, file, dirlen);
    strcpy(path + dirlen, name);
    for (char *p = path + dirlen; *p; p++)
        if (*p == '\\') *p = '/';
    struct stat st;
    const char *err = NULL;
    Source *src = NULL;
    if (stat(path, &st) != 0)
        err = "no such file";
    else if (!S_ISREG(st.st_mode))
        err = "not a regular file";
    else if (st.st_size > ZRF_MAX_INCLUDE_BYTES)
        err = "file too large";
    else
        src = source_load(path, &err);
    if (!src) {
        zrf_error(r, form->kids[1], "cannot include '%s': %s", path, err ? err : "cannot read it");
        free(path);
        return;
    }
    free(path);
    r->sources = xrealloc(r->sources, (size_t)(r->nsources + 1) * sizeof *r->sources);
    r->sources[r->nsources++] = src;
    ZrfNode *top = zrf_new(r, ZRF_LIST, NULL, (SrcLoc){src->path, 1, 1, 1, 1}, 0);
    Lexer lx = {r, src->text, src->text + src->len, src->path, 1, 1, 0, false, {0}};
    lex_items(&lx, top, 0);
    r->include_depth++;
    read_forms(r, top);
    r->include_depth--;
}

static void add_define(ZrfReader *r, const ZrfNode *form) {
    if (form->nkids < 2 || form->kids[1]->kind != ZRF_ATOM) {
        zrf_error(r, form, "define needs a name: (define NAME ...)");
        return;
    }
    if (r->ndefines == r->capdefines) {
        r->capdefines = r->capdefines ? r->capdefines * 2 : 32;
        r->defines = xrealloc(r->defines, (size_t)r->capdefines * sizeof *r->defines);
    }
    unsigned h = name_hash(form->kids[1]->text);
    r->defines[r->ndefines] = (ZrfDefine){form->kids[1]->text, form, r->bucket[h]};
    r->bucket[h] = r->ndefines++;
}

/* The top-level forms in order: a define applies to what follows it. */
static void read_forms(ZrfReader *r, const ZrfNode *top) {
    for (int i = 0; i < top->nkids && !r->too_large; i++) {
        const ZrfNode *f = top->kids[i];
        const char *h = zrf_head(f);
        if (!h) {
            if (f->kind == ZRF_LIST)
                zrf_error(r, f, "a top-level form must start with a word (game, variant, define, include, version)");
            else
                zrf_error(r, f, "'%s' outside any form", f->text);
            continue;
        }
        if (!strcasecmp(h, "define"))
            add_define(r, f);
        else if (!strcasecmp(h, "include"))
            do_include(r, f);
        else if (!strcasecmp(h, "version"))
            ; /* every version reads the same here */
        else if (!strcasecmp(h, "game") || !strcasecmp(h, "variant")) {
            ZrfNode *out = zrf_new(r, ZRF_LIST, NULL, f->loc, f->exp);
            expand_into(r, f, out, 0);
            if (out->nkids == 1) add_entry(r, out->kids[0], !strcasecmp(h, "variant"));
        } else if (find_define(r, h)) {
            /* a macro at the top level: what it gives is read as top-level forms */
            ZrfNode *out = zrf_new(r, ZRF_LIST, NULL, f->loc, f->exp);
            expand_into(r, f, out, 0);
            read_forms(r, out);
        } else
            zrf_warn(r, f->kids[0], "unknown top-level form '%s' ignored", h);
    }
}

void zrf_read(ZrfReader *r, const Source *src, DiagSink *sink) {
    memset(r, 0, sizeof *r);
    r->sink = sink;
    for (int i = 0; i < ZRF_DEFINE_BUCKETS; i++) r->bucket[i] = -1;
    r->sources = xmalloc(sizeof *r->sources);
    r->sources[r->nsources++] = (Source *)src;
    new_expansion(r, "", (SrcLoc){0}, 0); /* index 0 stands for "no expansion" */
    ZrfNode *top = zrf_new(r, ZRF_LIST, NULL, (SrcLoc){src->path, 1, 1, 1, 1}, 0);
    Lexer lx = {r, src->text, src->text + src->len, src->path, 1, 1, 0, false, {0}};
    lex_items(&lx, top, 0);
    read_forms(r, top);
    if (r->nentries == 0 && !sink->errors)
        diag_error(sink, (SrcLoc){src->path, 1, 1, 1, 1}, "no (game ...) form in this file");
}

/* ---- variants -------------------------------------------------------------------------------- */

/* The name a piece or option form goes by, for a variant's replacement. */
static const char *form_name(const ZrfNode *f) {
    if (zrf_is_form(f, "piece")) return form_string(f, "name");
    if (zrf_is_form(f, "option") && f->nkids >= 2 && f->kids[1]->kind != ZRF_LIST) return f->kids[1]->text;
    return NULL;
}

static bool overridden(const ZrfNode *f, const ZrfNode *variant) {
    const char *h = zrf_head(f);
    if (!h) return false;
    bool named = !strcasecmp(h, "piece") || !strcasecmp(h, "option");
    const char *name = named ? form_name(f) : NULL;
    for (int i = 1; i < variant->nkids; i++) {
        const char *vh = zrf_head(variant->kids[i]);
        if (!vh || strcasecmp(vh, h)) continue;
        if (!named) return true;
        const char *vname = form_name(variant->kids[i]);
        if (name && vname && !strcasecmp(name, vname)) return true;
    }
    return false;
}

ZrfNode *zrf_entry_forms(ZrfReader *r, int e) {
    const ZrfEntry *en = &r->entries[e];
    ZrfNode *out = zrf_new(r, ZRF_LIST, NULL, en->form->loc, en->form->exp);
    if (!en->is_variant) {
        for (int i = 1; i < en->form->nkids; i++) zrf_push(r, out, en->form->kids[i]);
        return out;
    }
    const ZrfNode *game = r->entries[en->game].form;
    for (int i = 1; i < game->nkids; i++)
        if (!overridden(game->kids[i], en->form)) zrf_push(r, out, game->kids[i]);
    for (int i = 1; i < en->form->nkids; i++) zrf_push(r, out, en->form->kids[i]);
    return out;
}

/* ---- notes for diagnostics of later stages ---------------------------------------------------- */

/* The macro expansion of the node written at loc (searching the games' trees), or 0. */
static int exp_at(const ZrfNode *n, SrcLoc loc, int depth) {
    if (n->exp > 0 && n->loc.line == loc.line && n->loc.col == loc.col && n->loc.file && loc.file &&
        !strcmp(n->loc.file, loc.file))
        return n->exp;
    if (n->kind != ZRF_LIST || depth > ZRF_MAX_NESTING + ZRF_MAX_MACRO_DEPTH) return 0;
    for (int i = 0; i < n->nkids; i++) {
        int e = exp_at(n->kids[i], loc, depth + 1);
        if (e) return e;
    }
    return 0;
}

void zrf_annotate(ZrfReader *r, DiagSink *sink, int first) {
    if (first >= sink->count) return;
    /* the diagnostics from `first` on, each followed by the notes of its macros */
    int n = sink->count - first;
    Diag *later = xmalloc((size_t)n * sizeof *later);
    memcpy(later, sink->items + first, (size_t)n * sizeof *later);
    sink->count = first;
    for (int i = 0; i < n; i++) {
        if (sink->count == sink->cap) {
            sink->cap = sink->cap ? sink->cap * 2 : 8;
            sink->items = xrealloc(sink->items, (size_t)sink->cap * sizeof *sink->items);
        }
        sink->items[sink->count++] = later[i];
        if (later[i].level == DIAG_NOTE || later[i].loc.line <= 0) continue;
        int e = 0;
        for (int k = 0; k < r->nentries && !e; k++) e = exp_at(r->entries[k].form, later[i].loc, 0);
        if (!e) continue;
        /* (notes go through the sink's own bookkeeping, after this diagnostic) */
        DiagSink *saved = r->sink;
        r->sink = sink;
        zrf_notes(r, e);
        r->sink = saved;
    }
    free(later);
}
