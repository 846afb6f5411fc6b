/* zrf_moves.c - the move programs of a Zillions game's pieces, lowered: the common shapes of
 * moves (steps, leaps, legs, slides, en passant, promotions a piece makes alike) become the
 * language's atoms, which the generator runs in C and the check test reads as rays and
 * patterns; any other move becomes a `move { }` block, statement by statement; drops become
 * `drop [to ZONE]`. Attributes that only say a piece has not moved become `unmoved`. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "zrf_lower.h"

/* ---- attributes ------------------------------------------------------------------------------ */

Attr *zrf_attr_find(Lower *L, const char *name) {
    for (int i = 0; i < L->nattrs; i++)
        if (!strcasecmp(L->attrs[i].name, name)) return &L->attrs[i];
    return NULL;
}

/* Does n set attribute a (to false: *to_false)? Any set-attribute of a anywhere in n. */
static bool sets_attr(const ZrfNode *n, const char *a, bool *to_true) {
    if (zrf_is_form(n, "set-attribute") && n->nkids >= 2 && zrf_is(n->kids[1], a)) {
        if (!(n->nkids == 3 && zrf_is(n->kids[2], "false"))) *to_true = true;
        return true;
    }
    bool any = false;
    for (int i = 0; n->kind == ZRF_LIST && i < n->nkids; i++) any = sets_attr(n->kids[i], a, to_true) || any;
    return any;
}

void zrf_declare_attrs(Lower *L) {
    for (int i = 0; i < L->npieces; i++) {
        const ZrfNode *pf = L->pieces[i].form;
        for (int k = 1; k < pf->nkids; k++) {
            const ZrfNode *f = pf->kids[k];
            if (!zrf_is_form(f, "attribute") || f->nkids != 3 || f->kids[1]->kind != ZRF_ATOM) continue;
            Attr *a = zrf_attr_find(L, f->kids[1]->text);
            if (!a && L->nattrs < ZRF_MAX_ATTRS) {
                a = &L->attrs[L->nattrs++];
                a->name = f->kids[1]->text;
                a->starts_true = true;
                a->unmoved = true;
            }
            if (!a) continue;
            if (!zrf_is(f->kids[2], "true")) a->starts_true = a->unmoved = false;
        }
    }
    /* every move of a piece with the attribute sets it false; nothing sets it true */
    for (int i = 0; i < L->nattrs; i++) {
        Attr *a = &L->attrs[i];
        for (int p = 0; a->unmoved && p < L->npieces; p++) {
            const ZrfNode *pf = L->pieces[p].form;
            bool has = false;
            for (int k = 1; k < pf->nkids; k++)
                has = has ||
                    (zrf_is_form(pf->kids[k], "attribute") && pf->kids[k]->nkids == 3 &&
                     zrf_is(pf->kids[k]->kids[1], a->name));
            for (int k = 1; k < pf->nkids; k++) {
                const ZrfNode *f = pf->kids[k];
                if (!zrf_is_form(f, "moves") && !zrf_is_form(f, "drops")) continue;
                for (int m = 1; m < f->nkids; m++) {
                    if (zrf_is_form(f->kids[m], "move-type")) continue;
                    bool to_true = false;
                    bool sets = sets_attr(f->kids[m], a->name, &to_true);
                    if (to_true || (has && zrf_is_form(f, "moves") && !sets)) a->unmoved = false;
                }
            }
        }
    }
}

/* n without its (set-attribute A false) of attributes lowered as `unmoved` (the language
 * keeps that itself), so the shapes of atoms show through. */
static const ZrfNode *strip_unmoved(Lower *L, const ZrfNode *n) {
    if (n->kind != ZRF_LIST) return n;
    bool any = false;
    for (int i = 0; i < n->nkids && !any; i++) {
        const ZrfNode *k = n->kids[i];
        Attr *a = zrf_is_form(k, "set-attribute") && k->nkids == 3 && zrf_atom_text(k->kids[1])
            ? zrf_attr_find(L, k->kids[1]->text)
            : NULL;
        any = (a && a->unmoved) || (k->kind == ZRF_LIST && strip_unmoved(L, k) != k);
    }
    if (!any) return n;
    ZrfNode *copy = zrf_new(L->r, ZRF_LIST, NULL, n->loc, n->exp);
    for (int i = 0; i < n->nkids; i++) {
        const ZrfNode *k = n->kids[i];
        Attr *a = zrf_is_form(k, "set-attribute") && k->nkids == 3 && zrf_atom_text(k->kids[1])
            ? zrf_attr_find(L, k->kids[1]->text)
            : NULL;
        if (a && a->unmoved) continue;
        zrf_push(L->r, copy, (ZrfNode *)strip_unmoved(L, k));
    }
    return copy;
}

/* ---- move programs --------------------------------------------------------------------------- */

/* The lowering of one move or drop: statements into a block. An unsupported construct sets
 * `left_out` (named in one warning) and the move is dropped. */
typedef struct Prog {
    Lower *L;
    const ZrfNode *move;
    const char *left_out; /* the construct that could not be lowered */
    const ZrfNode *left_at;
    int marks;              /* Varia marks held for Zillions' mark register (0 or 1) */
    const ZrfNode **events; /* the move's marks and backs in the order written */
    bool checked_empty;     /* the statement being lowered follows a check that the cell is empty */
    const char *mtype;      /* the move's move type (Zillions' name), or NULL */
    bool loop_guard;        /* a part that may take nothing: it may not land where the move has been */
    bool moved;             /* a statement lowered so far may have moved the cursor */
    int nevents;
    int casc;     /* which piece the move is moving (Zillions' to and cascade): CASC_... */
    bool in_loop; /* the statement being lowered is in a (while) */
    bool by_tag;  /* the mover's destination is tagged, not marked (a mark of the file was held) */
} Prog;

/* The piece a move is moving, as `to` and `cascade` change it. The mover lands where the
 * language's `add` is made: once its destination is known (a `to`, or the first cascade), a
 * mark holds it, and the move goes back there to add (or, while a mark of the file is held, a
 * tag of the move marks the cell, which the add goes to). A piece taken up by a cascade is the
 * language's second piece (`from`), moved by `to`. */
enum {
    CASC_MOVER,     /* the mover, its destination not set */
    CASC_MOVER_TO,  /* the mover, its destination set (the mark holds it) */
    CASC_SECOND,    /* a piece a cascade took up, its destination not set */
    CASC_SECOND_TO, /* that piece, moved already (`to`) */
};

static void unsupported(Prog *g, const ZrfNode *at, const char *what) {
    if (g->left_out) return;
    g->left_out = what;
    g->left_at = at;
}

static bool is_stmt_list(const ZrfNode *n) { return n->kind == ZRF_LIST; }

/* A direction named by an atom, or NULL. */
static Dir *as_dir(Lower *L, const ZrfNode *n) { return n && n->kind == ZRF_ATOM ? zrf_dir_find(L, n->text) : NULL; }

static Ast *dir_ast(const Dir *d, const ZrfNode *at) { return zrf_node_text(AST_DIR, at, d->vname); }

static Ast *in_zone(const char *zone, const ZrfNode *at);

/* A step along d: one statement, or for a direction given link by link each of its steps from
 * the cells of its zone (one applies at most). */
static Ast *step_along(Lower *L, const Dir *d, const ZrfNode *at) {
    if (!d->nclass) return ast_add(zrf_node(AST_STEP, at), dir_ast(d, at));
    Ast *either = d->nclass > 1 ? zrf_node(AST_EITHER, at) : NULL;
    Ast *one = NULL;
    for (int k = 0; k < d->nclass; k++) {
        Ast *b = zrf_node(AST_BLOCK, at);
        ast_add(b, ast_add(zrf_node(AST_VERIFY, at), in_zone(d->cls[k].zone, at)));
        ast_add(b, ast_add(zrf_node(AST_STEP, at), dir_ast(&L->dirs[d->cls[k].vdir], at)));
        if (either)
            ast_add(either, b);
        else
            one = b;
    }
    return either ? either : one;
}

/* Is there a cell along d from the cursor? */
static Ast *on_board(Lower *L, const Dir *d, const ZrfNode *at) {
    if (!d->nclass) return ast_add(zrf_node(AST_ONBOARD, at), dir_ast(d, at));
    Ast *c = NULL;
    for (int k = 0; k < d->nclass; k++) {
        Ast *z = in_zone(d->cls[k].zone, at);
        c = c ? ast_add(ast_add(zrf_node(AST_OR, at), c), z) : z;
    }
    (void)L;
    return c;
}

static Ast *cond_word(Keyword w, const ZrfNode *at) {
    Ast *c = zrf_node(AST_COND, at);
    c->word = w;
    return c;
}

static Ast *cond_not(Ast *c, const ZrfNode *at) { return ast_add(zrf_node(AST_NOT, at), c); }

static Ast *cond_bin(AstKind k, Ast *a, Ast *b, const ZrfNode *at) { return ast_add(ast_add(zrf_node(k, at), a), b); }

static Ast *in_zone(const char *zone, const ZrfNode *at) {
    Ast *c = cond_word(KEYWORD_IN, at);
    zrf_set_text2(c, zone);
    return c;
}

typedef enum Pred {
    PRED_NONE,
    PRED_EMPTY,
    PRED_FRIEND,
    PRED_ENEMY,
    PRED_LAST_FROM,
    PRED_LAST_TO,
    PRED_ATTACKED,
    PRED_DEFENDED
} Pred;

/* A one-word condition: its predicate and whether it is negated. */
static Pred word_pred(const char *w, bool *neg) {
    static const struct {
        const char *word;
        Pred pred;
        bool neg;
    } words[] = {
        {"empty?", PRED_EMPTY, false},         {"not-empty?", PRED_EMPTY, true},
        {"friend?", PRED_FRIEND, false},       {"not-friend?", PRED_FRIEND, true},
        {"enemy?", PRED_ENEMY, false},         {"not-enemy?", PRED_ENEMY, true},
        {"last-from?", PRED_LAST_FROM, false}, {"not-last-from?", PRED_LAST_FROM, true},
        {"last-to?", PRED_LAST_TO, false},     {"not-last-to?", PRED_LAST_TO, true},
        {"attacked?", PRED_ATTACKED, false},   {"not-attacked?", PRED_ATTACKED, true},
        {"defended?", PRED_DEFENDED, false},   {"not-defended?", PRED_DEFENDED, true},
    };
    for (size_t i = 0; i < ARRAY_LEN(words); i++)
        if (!strcasecmp(w, words[i].word)) {
            *neg = words[i].neg;
            return words[i].pred;
        }
    return PRED_NONE;
}

static Keyword pred_keyword(Pred p) {
    switch (p) {
    case PRED_EMPTY: return KEYWORD_EMPTY;
    case PRED_FRIEND: return KEYWORD_FRIEND;
    case PRED_ENEMY: return KEYWORD_ENEMY;
    case PRED_LAST_FROM: return KEYWORD_LAST_FROM;
    case PRED_LAST_TO: return KEYWORD_LAST_TO;
    case PRED_ATTACKED: return KEYWORD_ATTACKED;
    case PRED_DEFENDED: return KEYWORD_DEFENDED;
    default: return KEYWORD_NONE;
    }
}

static const char *zone_vname(Lower *L, const char *zrf) { return zrf_names_find(&L->zone_names, zrf); }

/* The language's name of a flag (of the move) or of a position flag (a tag of cells). */
static const char *flag_name(Lower *L, const ZrfNode *n, bool position) {
    Names *t = position ? &L->tag_names : &L->flag_names;
    if (!zrf_names_find(t, n->text) && t->n >= (position ? 8 : 16)) return NULL;
    return zrf_names_add(L, t, n->text, n);
}

/* Conditions that have no counterpart yet, by the feature they need. */
static const struct {
    const char *word;
    const char *why;
} later_conds[] = {
    {"flag?", "flag? of other than a name"},
    {"not-flag?", "not-flag? of other than a name"},
    {"position-flag?", "position-flag? of other than a name"},
    {"not-position-flag?", "not-position-flag? of other than a name"},
    {"neutral?", "neutral pieces (neutral?)"},
    {"not-neutral?", "neutral pieces (not-neutral?)"},
    {"attribute?", "piece attributes (attribute?)"},
    {"on-board?", "on-board? of other than one direction or position"},
};

static void unsupported_cond(Prog *g, const ZrfNode *at, const char *word) {
    for (size_t i = 0; i < ARRAY_LEN(later_conds); i++)
        if (!strcasecmp(word, later_conds[i].word)) {
            unsupported(g, at, later_conds[i].why);
            return;
        }
    unsupported(g, at, word);
}

/* A condition the rule language says at the cursor, or NULL (with *needs_move when it names
 * another cell: a direction or position argument). */
/* A one-word predicate. In a game whose moves go on, a piece an earlier part took is gone
 * for Zillions (the parts are made one after the other), while the language keeps it on its
 * cell until the whole move is made (not an enemy then): it is no friend and nothing
 * not-empty? finds. (A cell taken from is still not empty?-true: within one part, Zillions
 * keeps the piece there too.) */
static Ast *pred_cond(Lower *L, Pred p, bool neg, const ZrfNode *c) {
    Ast *a = cond_word(pred_keyword(p), c);
    bool gone = L->npartial_types && ((p == PRED_EMPTY && neg) || (p == PRED_FRIEND && !neg));
    if (neg) a = cond_not(a, c);
    if (gone) a = cond_bin(AST_AND, a, cond_not(cond_word(KEYWORD_TAKEN, c), c), c);
    return a;
}

/* Is an enemy one step away along some direction the file names? `exists { either { step D1 }
 * or ...  verify enemy }`. */
static Ast *adjacent_enemy(Lower *L, const ZrfNode *at) {
    Ast *either = zrf_node(AST_EITHER, at);
    for (int i = 0; i < L->ndirs; i++) {
        const Dir *d = &L->dirs[i];
        if (d->same != i || !strncmp(d->name, "step_", 5)) continue; /* (one per step; the file's own) */
        ast_add(either, ast_add(zrf_node(AST_BLOCK, at), step_along(L, d, at)));
    }
    Ast *body = zrf_node(AST_BLOCK, at);
    if (either->nkids == 0) {
        ast_free(either);
        ast_add(body, zrf_node(AST_FAIL, at));
    } else if (either->nkids == 1) {
        Ast *only = either->kids[0];
        either->nkids = 0;
        ast_free(either);
        ast_add(body, only);
    } else
        ast_add(body, either);
    ast_add(body, ast_add(zrf_node(AST_VERIFY, at), cond_word(KEYWORD_ENEMY, at)));
    return ast_add(zrf_node(AST_EXISTS, at), body);
}

static Ast *lower_cond(Prog *g, const ZrfNode *c, bool *needs_move) {
    Lower *L = g->L;
    if (c->kind == ZRF_ATOM && (zrf_is(c, "adjacent-to-enemy?") || zrf_is(c, "not-adjacent-to-enemy?"))) {
        Ast *a = adjacent_enemy(L, c);
        return zrf_is(c, "adjacent-to-enemy?") ? a : cond_not(a, c);
    }
    if (c->kind == ZRF_ATOM) {
        bool neg = false;
        Pred p = word_pred(c->text, &neg);
        if (p != PRED_NONE) return pred_cond(L, p, neg, c);
        Attr *at = zrf_attr_find(L, c->text);
        if (at && at->unmoved) return cond_word(KEYWORD_UNMOVED, c);
        if (at)
            unsupported(g, c, "piece attributes other than one every move clears (set-attribute)");
        else
            unsupported_cond(g, c, c->text);
        return NULL;
    }
    const char *h = zrf_head(c);
    if (!h) {
        unsupported(g, c, "a condition that is a list of lists");
        return NULL;
    }
    if (!strcasecmp(h, "not") && c->nkids == 2) {
        Ast *a = lower_cond(g, c->kids[1], needs_move);
        return a ? cond_not(a, c) : NULL;
    }
    if ((!strcasecmp(h, "and") || !strcasecmp(h, "or")) && c->nkids >= 2) {
        Ast *acc = NULL;
        for (int i = 1; i < c->nkids; i++) {
            Ast *a = lower_cond(g, c->kids[i], needs_move);
            if (!a) {
                ast_free(acc);
                return NULL;
            }
            acc = acc ? cond_bin(!strcasecmp(h, "and") ? AST_AND : AST_OR, acc, a, c) : a;
        }
        return acc;
    }
    bool neg = false;
    Pred p = word_pred(h, &neg);
    if (p != PRED_NONE) {
        if (c->nkids == 1) return pred_cond(L, p, neg, c);
        *needs_move = true;
        return NULL;
    }
    bool not_flag = !strcasecmp(h, "not-flag?"), not_pflag = !strcasecmp(h, "not-position-flag?");
    bool pflag = not_pflag || !strcasecmp(h, "position-flag?");
    if ((not_flag || pflag || !strcasecmp(h, "flag?")) && c->nkids >= 2 && zrf_atom_text(c->kids[1])) {
        if (c->nkids > 2) {
            if (!pflag) {
                unsupported(g, c, "a flag of the move asked at a cell");
                return NULL;
            }
            *needs_move = true;
            return NULL;
        }
        const char *name = flag_name(L, c->kids[1], pflag);
        if (!name) {
            unsupported(g, c, pflag ? "more position flags than tags" : "more flags than the language's");
            return NULL;
        }
        Ast *a = cond_word(pflag ? KEYWORD_TAGGED : KEYWORD_FLAG, c);
        zrf_set_text2(a, name);
        return not_flag || not_pflag ? cond_not(a, c) : a;
    }
    bool not_piece = !strcasecmp(h, "not-piece?");
    if (!strcasecmp(h, "piece?") || not_piece) {
        Piece *pc = c->nkids >= 2 && zrf_atom_text(c->kids[1]) ? zrf_piece_find(L, c->kids[1]->text) : NULL;
        if (!pc) {
            unsupported(g, c, "(piece? ...) of an unknown piece");
            return NULL;
        }
        if (c->nkids > 2) {
            *needs_move = true;
            return NULL;
        }
        Ast *a = cond_word(KEYWORD_PIECE, c);
        zrf_set_text2(a, pc->vname);
        /* (a piece an earlier part of the move took is gone, in Zillions) */
        if (L->npartial_types) a = cond_bin(AST_AND, a, cond_not(cond_word(KEYWORD_TAKEN, c), c), c);
        return not_piece ? cond_not(a, c) : a;
    }
    bool not_zone = !strcasecmp(h, "not-in-zone?");
    if (!strcasecmp(h, "in-zone?") || not_zone) {
        const char *z = c->nkids >= 2 ? zrf_atom_text(c->kids[1]) : NULL;
        const char *vz = z ? zone_vname(L, z) : NULL;
        if (!vz) {
            unsupported(g, c, "(in-zone? ...) of an unknown zone");
            return NULL;
        }
        if (c->nkids > 2) {
            *needs_move = true;
            return NULL;
        }
        Ast *a = cond_word(KEYWORD_IN, c);
        zrf_set_text2(a, vz);
        return not_zone ? cond_not(a, c) : a;
    }
    if (!strcasecmp(h, "on-board?") && c->nkids == 2) {
        Dir *d = as_dir(L, c->kids[1]);
        if (d) return on_board(L, d, c->kids[1]);
        if (zrf_atom_text(c->kids[1]) && zrf_pos_index(L, c->kids[1]->text) >= 0 &&
            !L->pos[zrf_pos_index(L, c->kids[1]->text)].killed)
            return cond_bin(AST_OR, cond_word(KEYWORD_EMPTY, c), cond_not(cond_word(KEYWORD_EMPTY, c), c), c);
    }
    unsupported_cond(g, c, h);
    return NULL;
}

/* Statements that go to the cell a condition's argument names and back: a direction or a
 * position. Returns the statements' first node (a BLOCK to splice), or NULL. */
static bool cond_target(Prog *g, const ZrfNode *arg, Ast *block) {
    Lower *L = g->L;
    Dir *d = as_dir(L, arg);
    if (d) {
        ast_add(block, step_along(L, d, arg));
        return true;
    }
    int p = zrf_atom_text(arg) ? zrf_pos_index(L, arg->text) : -1;
    if (p >= 0 && !L->pos[p].killed) {
        Ast *go = zrf_node(AST_GOTO, arg);
        Ast *cn = zrf_cell_name(L, &L->pos[p], arg);
        go->text = cn->text;
        go->text2 = cn->text2;
        cn->text = cn->text2 = NULL;
        ast_free(cn);
        ast_add(block, go);
        return true;
    }
    unsupported(g, arg, "a condition's argument that is neither a direction nor a position");
    return false;
}

/* Appends to block statements that go on only when c holds (want) or fails (!want), the
 * cursor where it was. */
static void guard(Prog *g, const ZrfNode *c, bool want, Ast *block) {
    Lower *L = g->L;
    bool needs_move = false;
    Ast *simple = lower_cond(g, c, &needs_move);
    if (simple) {
        ast_add(block, ast_add(zrf_node(AST_VERIFY, c), want ? simple : cond_not(simple, c)));
        return;
    }
    if (!needs_move || g->left_out) return;
    const char *h = zrf_head(c);
    if (!strcasecmp(h, "not")) {
        guard(g, c->kids[1], !want, block);
        return;
    }
    bool is_and = !strcasecmp(h, "and"), is_or = !strcasecmp(h, "or");
    if (is_and || is_or) {
        /* all must hold: one after another; one must: the first that holds, the others
         * failing before it, so a path is taken once */
        if (is_and == want) {
            for (int i = 1; i < c->nkids; i++) guard(g, c->kids[i], want, block);
            return;
        }
        Ast *either = zrf_node(AST_EITHER, c);
        for (int i = 1; i < c->nkids; i++) {
            Ast *alt = zrf_node(AST_BLOCK, c);
            for (int k = 1; k < i; k++) guard(g, c->kids[k], !want, alt);
            guard(g, c->kids[i], want, alt);
            ast_add(either, alt);
        }
        if (either->nkids == 1) ast_add(either, ast_add(zrf_node(AST_BLOCK, c), zrf_node(AST_FAIL, c)));
        ast_add(block, either);
        return;
    }
    /* (pred ARG ...): at the argument's cell; off the board it is false */
    ZrfNode bare = *c;
    ZrfNode *kids[2] = {c->kids[0], NULL};
    int arg = c->nkids - 1;
    bool has_type = !strcasecmp(h, "piece?") || !strcasecmp(h, "not-piece?") || !strcasecmp(h, "in-zone?") ||
        !strcasecmp(h, "not-in-zone?") || !strcasecmp(h, "position-flag?") || !strcasecmp(h, "not-position-flag?");
    if (has_type) {
        kids[1] = c->kids[1];
        bare.nkids = 2;
    } else
        bare.nkids = 1;
    bare.kids = kids;
    Ast *at_cell = lower_cond(g, &bare, &needs_move);
    if (!at_cell) return;
    Ast *go = zrf_node(AST_BLOCK, c);
    ast_add(go, zrf_node(AST_MARK, c));
    if (!cond_target(g, c->kids[arg], go)) {
        ast_free(go);
        ast_free(at_cell);
        return;
    }
    bool by_dir = as_dir(L, c->kids[arg]) != NULL;
    ast_add(go, ast_add(zrf_node(AST_VERIFY, c), want ? at_cell : cond_not(at_cell, c)));
    ast_add(go, zrf_node(AST_BACK, c));
    if (want || !by_dir) {
        for (int i = 0; i < go->nkids; i++) ast_add(block, go->kids[i]);
        go->nkids = 0;
        ast_free(go);
        return;
    }
    /* false off the board too */
    Ast *iff = zrf_node(AST_IF, c);
    ast_add(iff, on_board(L, as_dir(L, c->kids[arg]), c));
    go->kind = AST_BLOCK;
    ast_add(iff, go);
    ast_add(block, iff);
}

static void lower_stmts(Prog *g, const ZrfNode *list, int first, Ast *block, bool tail);

/* A statement that returns to the mark: back, (back), (go mark). */
static bool is_back(const ZrfNode *n) {
    return zrf_is(n, "back") || zrf_is_form(n, "back") ||
        (zrf_is_form(n, "go") && n->nkids == 2 && zrf_is(n->kids[1], "mark"));
}

/* The mark register: is its value read again after the back at events[i] before a mark sets
 * it anew? (In the order written; a back inside a loop may also read the mark its body set
 * before it, which the next turn of the loop sets again.) */
static bool read_again(const Prog *g, const ZrfNode *back) {
    int i = 0;
    while (i < g->nevents && g->events[i] != back) i++;
    for (int k = i + 1; k < g->nevents; k++) {
        if (is_back(g->events[k])) return true;
        return false; /* a mark comes first */
    }
    return false;
}

static void collect_events(Prog *g, const ZrfNode *n) {
    if (zrf_is(n, "mark") || zrf_is_form(n, "mark") || is_back(n)) {
        g->events = xrealloc((void *)g->events, (size_t)(g->nevents + 1) * sizeof *g->events);
        g->events[g->nevents++] = n;
        return;
    }
    if (n->kind == ZRF_LIST)
        for (int i = 0; i < n->nkids; i++) collect_events(g, n->kids[i]);
}

/* The piece types of (add T...) / (add-partial T...). */
static bool promo_types(Prog *g, const ZrfNode *f, Piece **out, int *n) {
    *n = 0;
    for (int i = 1; i < f->nkids; i++) {
        Piece *p = zrf_atom_text(f->kids[i]) ? zrf_piece_find(g->L, f->kids[i]->text) : NULL;
        if (!p) {
            unsupported(g, f->kids[i], "a promotion to an unknown piece");
            return false;
        }
        if (*n < MAX_PIECE_TYPES) out[(*n)++] = p;
    }
    return true;
}

/* The move type an add-partial goes on with: its argument that names no piece (Zillions'
 * `(add-partial [TYPE...] MOVE-TYPE)`), else the move's own. */
static const char *partial_target(Lower *L, const ZrfNode *ap, const char *own) {
    for (int i = ap->kind == ZRF_LIST ? ap->nkids - 1 : 0; i >= 1; i--)
        if (zrf_atom_text(ap->kids[i]) && !zrf_piece_find(L, ap->kids[i]->text)) return ap->kids[i]->text;
    return own;
}

static int partial_type_index(const Lower *L, const char *t) {
    for (int i = 0; i < L->npartial_types; i++)
        if ((!t && !L->partial_types[i]) || (t && L->partial_types[i] && !strcasecmp(t, L->partial_types[i]))) return i;
    return -1;
}

static Ast *flag_stmt(const ZrfNode *at, const char *name, bool set) {
    Ast *f = zrf_node_text(AST_SET_FLAG, at, name);
    f->sub = set;
    return f;
}

/* add-partial: the move pauses and goes on. When continuations are told apart by move type,
 * flags say which type goes on; a part that may take nothing may not land where the move has
 * been (a canter back and forth would never end). Promotions as for add. */
static void lower_add_partial(Prog *g, const ZrfNode *f, Ast *block, bool tail) {
    Lower *L = g->L;
    if (g->casc != CASC_MOVER) {
        unsupported(g, f, "a move that goes on after moving a second piece (add-partial after cascade or to)");
        return;
    }
    Piece *types[MAX_PIECE_TYPES];
    int n = 0;
    for (int i = 1; f->kind == ZRF_LIST && i < f->nkids; i++) {
        Piece *p = zrf_atom_text(f->kids[i]) ? zrf_piece_find(L, f->kids[i]->text) : NULL;
        if (p && n < MAX_PIECE_TYPES) types[n++] = p;
    }
    if (g->loop_guard) {
        Ast *c = cond_word(KEYWORD_TAGGED, f);
        zrf_set_text2(c, L->visit_tag);
        ast_add(block, ast_add(zrf_node(AST_VERIFY, f), cond_not(c, f)));
        Ast *t = zrf_node_text(AST_TAG, f, L->visit_tag);
        t->sub = 1;
        ast_add(block, t);
    }
    if (L->partial_flags) {
        int target = partial_type_index(L, partial_target(L, f, g->mtype));
        ast_add(block, flag_stmt(f, L->go_flag, true));
        for (int i = 0; i < L->npartial_types; i++) ast_add(block, flag_stmt(f, L->type_flags[i], i == target));
    }
    Ast *ap = zrf_node(AST_ADD_PARTIAL, f);
    ap->sub = L->pass_partial; /* (the player may stop there) */
    if (n == 0) {
        ast_add(block, ap);
        return;
    }
    Ast *either = zrf_node(AST_EITHER, f);
    for (int i = 0; i < n; i++) {
        Ast *alt = zrf_node(AST_BLOCK, f);
        ast_add(alt, zrf_node_text(AST_CHANGE, f, types[i]->vname));
        ast_add(alt, i ? ast_clone(ap) : ap);
        if (!tail) ast_add(alt, zrf_node(AST_FAIL, f));
        ast_add(either, alt);
    }
    if (!tail) ast_add(either, zrf_node(AST_BLOCK, f));
    if (either->nkids == 1) ast_add(either, ast_add(zrf_node(AST_BLOCK, f), zrf_node(AST_FAIL, f)));
    ast_add(block, either);
}

static void lower_add(Prog *g, const ZrfNode *f, Ast *block, bool tail) {
    Piece *types[MAX_PIECE_TYPES];
    int n = 0;
    if (f->kind == ZRF_LIST && !promo_types(g, f, types, &n)) return;
    if (n == 0) {
        ast_add(block, zrf_node(AST_ADD, f));
        return;
    }
    if (n == 1 && tail) {
        ast_add(block, zrf_node_text(AST_CHANGE, f, types[0]->vname));
        ast_add(block, zrf_node(AST_ADD, f));
        return;
    }
    /* each choice its own path; a path that goes on afterwards goes on unchanged */
    Ast *either = zrf_node(AST_EITHER, f);
    for (int i = 0; i < n; i++) {
        Ast *alt = zrf_node(AST_BLOCK, f);
        ast_add(alt, zrf_node_text(AST_CHANGE, f, types[i]->vname));
        ast_add(alt, zrf_node(AST_ADD, f));
        if (!tail) ast_add(alt, zrf_node(AST_FAIL, f));
        ast_add(either, alt);
    }
    if (!tail) ast_add(either, zrf_node(AST_BLOCK, f));
    if (either->nkids == 1) ast_add(either, ast_add(zrf_node(AST_BLOCK, f), zrf_node(AST_FAIL, f)));
    ast_add(block, either);
}

static void lower_if(Prog *g, const ZrfNode *f, Ast *block, bool tail) {
    if (f->nkids < 2) {
        unsupported(g, f, "an (if) without a condition");
        return;
    }
    int els = -1;
    for (int i = 2; i < f->nkids; i++)
        if (zrf_is(f->kids[i], "else")) {
            els = i;
            break;
        }
    int marks = g->marks, casc = g->casc;
    bool by_tag = g->by_tag;
    Ast *then_b = zrf_node(AST_BLOCK, f), *else_b = zrf_node(AST_BLOCK, f);
    /* the then-part: kids 2..els-1; the else-part: kids els+1.. */
    ZrfNode then_list = *f, else_list = *f;
    then_list.kids = f->kids + 2;
    then_list.nkids = (els < 0 ? f->nkids : els) - 2;
    else_list.kids = els < 0 ? NULL : f->kids + els + 1;
    else_list.nkids = els < 0 ? 0 : f->nkids - els - 1;
    lower_stmts(g, &then_list, 0, then_b, tail);
    int then_marks = g->marks, then_casc = g->casc;
    bool then_tag = g->by_tag;
    g->marks = marks;
    g->casc = casc;
    g->by_tag = by_tag;
    lower_stmts(g, &else_list, 0, else_b, tail);
    if (then_tag != g->by_tag && !tail) unsupported(g, f, "a cascade or destination (to) on one branch of an if");
    int else_marks = g->marks;
    if (then_casc != g->casc && !tail) unsupported(g, f, "a cascade or destination (to) on one branch of an if");
    if (then_marks != else_marks) {
        /* the branch that holds no mark (none made, or its value read for the last time):
         * whatever it marks is never read, and the paths meet alike */
        ast_add(then_marks < else_marks ? then_b : else_b, zrf_node(AST_MARK, f));
    }
    g->marks = then_marks > else_marks ? then_marks : else_marks;
    bool needs_move = false;
    Ast *c = lower_cond(g, f->kids[1], &needs_move);
    if (c) {
        Ast *iff = ast_add(ast_add(zrf_node(AST_IF, f), c), then_b);
        if (else_b->nkids)
            ast_add(iff, else_b);
        else
            ast_free(else_b);
        ast_add(block, iff);
        return;
    }
    if (!needs_move || g->left_out) {
        ast_free(then_b);
        ast_free(else_b);
        return;
    }
    /* a condition on another cell: two exclusive paths */
    Ast *either = zrf_node(AST_EITHER, f);
    Ast *a = zrf_node(AST_BLOCK, f), *b = zrf_node(AST_BLOCK, f);
    guard(g, f->kids[1], true, a);
    guard(g, f->kids[1], false, b);
    for (int i = 0; i < then_b->nkids; i++) ast_add(a, then_b->kids[i]);
    for (int i = 0; i < else_b->nkids; i++) ast_add(b, else_b->kids[i]);
    then_b->nkids = else_b->nkids = 0;
    ast_free(then_b);
    ast_free(else_b);
    ast_add(either, a);
    ast_add(either, b);
    ast_add(block, either);
}

static void lower_while(Prog *g, const ZrfNode *f, Ast *block) {
    if (f->nkids < 2) {
        unsupported(g, f, "a (while) without a condition");
        return;
    }
    bool needs_move = false;
    Ast *c = lower_cond(g, f->kids[1], &needs_move);
    if (!c) {
        if (needs_move) unsupported(g, f->kids[1], "a (while) whose condition looks at another cell");
        return;
    }
    int marks = g->marks;
    bool in_loop = g->in_loop;
    Ast *body = zrf_node(AST_BLOCK, f);
    g->in_loop = true;
    lower_stmts(g, f, 2, body, false);
    g->in_loop = in_loop;
    if (g->marks != marks) unsupported(g, f, "a mark set inside a (while) and read after it");
    ast_add(block, ast_add(ast_add(zrf_node(AST_WHILE, f), c), body));
}

/* Statements that have no counterpart yet, by the feature they need. */
static const struct {
    const char *word;
    const char *why;
} later[] = {
    {"add-copy", "moves that leave a copy (add-copy) other than onto a cell checked empty"},
    {"cascade", "moving a second piece (cascade)"},
    {"from", "moving another piece than the one the move started with (from)"},
    {"to", "a destination set before the move goes on (to)"},
    {"set-flag", "set-flag of other than a name and a value"},
    {"set-position-flag", "set-position-flag of other than a name and a value"},
    {"set-attribute", "piece attributes (set-attribute)"},
    {"create", "create of other than [PLAYER] [TYPE] [POSITION]"},
    {"change-type", "changing the type of a piece other than the one moving, on its own cell (change-type)"},
    {"change-owner", "changing another piece's owner (change-owner)"},
    {"go", "going to the destination or the last move's cells (go)"},
};

/* The mover's destination is the cursor's cell: a mark holds it, or a tag while a mark of the
 * file is held (a mark of the language's would come between it and its back). */
static void hold_destination(Prog *g, const ZrfNode *s, Ast *block) {
    if (!g->marks) {
        ast_add(block, zrf_node(AST_MARK, s));
        return;
    }
    if (!g->L->to_tag) g->L->to_tag = zrf_names_add(g->L, &g->L->tag_names, "zrf-to", NULL);
    Ast *t = zrf_node_text(AST_TAG, s, g->L->to_tag);
    t->sub = 1;
    ast_add(block, t);
    g->by_tag = true;
}

/* Zillions' `to`: the destination of the piece being moved is the cursor's cell. */
static void lower_to(Prog *g, const ZrfNode *s, Ast *block) {
    if (g->in_loop) {
        unsupported(g, s, "a destination set in a loop (to)");
        return;
    }
    switch (g->casc) {
    case CASC_MOVER:
        hold_destination(g, s, block);
        g->casc = CASC_MOVER_TO;
        return;
    case CASC_SECOND:
        ast_add(block, zrf_node(AST_TO, s));
        g->casc = CASC_SECOND_TO;
        return;
    default: unsupported(g, s, "a second destination for one piece (to)");
    }
}

/* Zillions' `cascade`: the piece being moved goes to its destination (the cursor's cell when
 * none was set), and the piece on the cursor's cell is moved next. */
static void lower_cascade(Prog *g, const ZrfNode *s, Ast *block) {
    int c = g->casc;
    if (c != CASC_SECOND && g->in_loop) {
        unsupported(g, s, "moving a second piece in a loop other than a line pushed by the mover (cascade)");
        return;
    }
    switch (c) {
    case CASC_MOVER: hold_destination(g, s, block); break;
    case CASC_MOVER_TO:
    case CASC_SECOND_TO: break;
    case CASC_SECOND: ast_add(block, zrf_node(AST_TO, s)); break;
    default: return;
    }
    ast_add(block, zrf_node(AST_FROM, s));
    g->casc = CASC_SECOND;
}

/* Before the `add` of a move that set a destination or cascaded: the piece being moved goes
 * to the cursor (or its destination), and the cursor back to the mover's destination. */
static bool before_add(Prog *g, const ZrfNode *s, Ast *block, bool tail) {
    if (g->casc == CASC_MOVER) return true;
    if (!tail) {
        unsupported(g, s, "an add that is not the last statement of a move that cascades (add)");
        return false;
    }
    if (g->casc == CASC_SECOND) ast_add(block, zrf_node(AST_TO, s));
    if (g->by_tag) {
        /* (the one cell tagged) */
        Ast *all = zrf_node_text(AST_GOTO, s, "all");
        all->sub = 1;
        Ast *c = cond_word(KEYWORD_TAGGED, s);
        zrf_set_text2(c, g->L->to_tag);
        ast_add(block, all);
        ast_add(block, ast_add(zrf_node(AST_VERIFY, s), c));
        return true;
    }
    if (g->marks) ast_add(block, zrf_node(AST_BACK, s)); /* (a mark never read again) */
    ast_add(block, zrf_node(AST_BACK, s));
    g->marks = 0;
    return true;
}

/* Zillions' `create`, `(create [PLAYER] [TYPE] [POSITION])`: a new piece (of the mover's, or
 * of PLAYER; of the moving piece's type, or TYPE) on the cursor, or on POSITION; one standing
 * there is replaced. */
static void lower_create(Prog *g, const ZrfNode *s, Ast *block) {
    Lower *L = g->L;
    int player = -1, pos = -1;
    Piece *pc = NULL;
    int k = 1, n = s->kind == ZRF_LIST ? s->nkids : 1;
    if (k < n && zrf_atom_text(s->kids[k]) && zrf_player_index(L, s->kids[k]->text) >= 0 &&
        !zrf_piece_find(L, s->kids[k]->text))
        player = zrf_player_index(L, s->kids[k++]->text);
    if (k < n && zrf_atom_text(s->kids[k]) && zrf_piece_find(L, s->kids[k]->text))
        pc = zrf_piece_find(L, s->kids[k++]->text);
    if (k < n && zrf_atom_text(s->kids[k]) && (pos = zrf_pos_index(L, s->kids[k]->text)) >= 0 && !L->pos[pos].killed)
        k++;
    else
        pos = -1;
    if (k < n || (player >= 0 && !pc)) {
        unsupported(g, s, "creating a piece of an unknown type or player, or on an unknown position (create)");
        return;
    }
    if (pos >= 0) {
        Ast *go = zrf_node(AST_GOTO, s), *cn = zrf_cell_name(L, &L->pos[pos], s);
        go->text = cn->text;
        go->text2 = cn->text2;
        cn->text = cn->text2 = NULL;
        ast_free(cn);
        ast_add(block, zrf_node(AST_MARK, s));
        ast_add(block, go);
    }
    if (pos >= 0 || (g->moved && !g->checked_empty)) {
        Ast *iff = zrf_node(AST_IF, s);
        ast_add(iff, cond_not(cond_word(KEYWORD_EMPTY, s), s));
        ast_add(iff, ast_add(zrf_node(AST_BLOCK, s), zrf_node(AST_CAPTURE, s)));
        ast_add(block, iff);
    }
    Ast *c = zrf_node_text(AST_CREATE, s, pc ? pc->vname : NULL);
    if (player >= 0) c->text2 = xstrdup(L->player_name[player]);
    ast_add(block, c);
    if (pos >= 0) ast_add(block, zrf_node(AST_BACK, s));
}

static void lower_stmt(Prog *g, const ZrfNode *s, Ast *block, bool tail) {
    Lower *L = g->L;
    if (g->left_out) return;
    if (s->kind == ZRF_STRING) {
        unsupported(g, s, "a string as a statement");
        return;
    }
    if (s->kind == ZRF_ATOM) {
        Dir *d = as_dir(L, s);
        if (d) {
            ast_add(block, step_along(L, d, s));
            g->moved = true;
            return;
        }
        int pos = zrf_pos_index(L, s->text);
        if (pos >= 0 && !L->pos[pos].killed && !zrf_is(s, "add") && !zrf_is(s, "capture")) {
            /* a position's name: the cursor goes there */
            Ast *go = zrf_node(AST_GOTO, s), *cn = zrf_cell_name(L, &L->pos[pos], s);
            go->text = cn->text;
            go->text2 = cn->text2;
            cn->text = cn->text2 = NULL;
            ast_free(cn);
            ast_add(block, go);
            g->moved = true;
            return;
        }
        if (zrf_is(s, "add")) {
            if (before_add(g, s, block, tail)) lower_add(g, s, block, tail);
            return;
        }
        if (zrf_is(s, "to")) {
            lower_to(g, s, block);
            return;
        }
        if (zrf_is(s, "cascade")) {
            lower_cascade(g, s, block);
            return;
        }
        if (zrf_is(s, "capture")) {
            ast_add(block, zrf_node(AST_CAPTURE, s));
            return;
        }
        if (zrf_is(s, "add-partial")) {
            lower_add_partial(g, s, block, tail);
            return;
        }
        if (zrf_is(s, "change-owner")) {
            ast_add(block, zrf_node(AST_CONVERT, s));
            return;
        }
        if (zrf_is(s, "flip")) {
            /* the piece on the cursor, anyone's, goes to the player seated after its owner */
            Ast *t = zrf_node(AST_CONVERT, s);
            t->sub = 1;
            ast_add(block, t);
            return;
        }
        if (zrf_is(s, "add-copy") && !L->has_hands) {
            /* the piece stays, a copy lands: a new piece of its type there, onto an empty cell
             * (a copy that would capture is not made: said when the move does not check) */
            if (!g->checked_empty)
                zrf_warn(L->r, s,
                         "add-copy onto a cell the move does not check empty: only its moves onto an "
                         "empty cell are made");
            ast_add(block, ast_add(zrf_node(AST_VERIFY, s), cond_word(KEYWORD_EMPTY, s)));
            ast_add(block, zrf_node(AST_DROP, s));
            return;
        }
    }
    const char *h = s->kind == ZRF_ATOM ? s->text : zrf_head(s);
    if (!h || (s->kind == ZRF_LIST && as_dir(L, s->kids[0]))) {
        /* statements grouped in a list */
        lower_stmts(g, s, 0, block, tail);
        return;
    }
    if (!strcasecmp(h, "mark")) {
        if (s->kind == ZRF_LIST && s->nkids > 1) {
            unsupported(g, s, "(mark POSITION)");
            return;
        }
        if (g->marks) {
            unsupported(g, s, "a second mark before the first is read back");
            return;
        }
        ast_add(block, zrf_node(AST_MARK, s));
        g->marks = 1;
        return;
    }
    if (!strcasecmp(h, "go") && s->nkids == 2 && zrf_is(s->kids[1], "from")) {
        /* the piece's cell (no other piece is taken up: `from` is not lowered) */
        ast_add(block, zrf_node(AST_ORIGIN, s));
        g->moved = true;
        return;
    }
    if (is_back(s)) {
        g->moved = true;
        if (s->kind == ZRF_LIST && s->nkids > 1 && !zrf_is_form(s, "go")) {
            unsupported(g, s, "(back POSITION)");
            return;
        }
        if (!g->marks) {
            unsupported(g, s, "back without a mark before it");
            return;
        }
        ast_add(block, zrf_node(AST_BACK, s));
        if (read_again(g, s))
            ast_add(block, zrf_node(AST_MARK, s));
        else
            g->marks = 0;
        return;
    }
    if (s->kind == ZRF_ATOM && strcasecmp(h, "create")) {
        for (size_t i = 0; i < ARRAY_LEN(later); i++)
            if (!strcasecmp(h, later[i].word)) {
                unsupported(g, s, later[i].why);
                return;
            }
        unsupported(g, s, s->text);
        return;
    }
    if (!strcasecmp(h, "verify")) {
        if (s->nkids != 2) {
            unsupported(g, s, "a (verify) of other than one condition");
            return;
        }
        guard(g, s->kids[1], true, block);
        return;
    }
    if (!strcasecmp(h, "if")) {
        lower_if(g, s, block, tail);
        return;
    }
    if (!strcasecmp(h, "while")) {
        lower_while(g, s, block);
        return;
    }
    if (!strcasecmp(h, "add")) {
        if (before_add(g, s, block, tail)) lower_add(g, s, block, tail);
        return;
    }
    if (!strcasecmp(h, "opposite") && s->nkids == 2) {
        Dir *d = as_dir(L, s->kids[1]);
        if (!d) {
            unsupported(g, s, "(opposite ...) of an unknown direction");
            return;
        }
        Dir *o = NULL;
        if (d->opposite)
            o = d->opposite; /* (a board of links: the direction that goes back) */
        else if (!d->nclass && d->dx < 1000)
            o = zrf_dir_for_vector(L, -d->dx, -d->dy, s);
        if (!o) {
            unsupported(g, s, "(opposite ...) of a direction no direction goes back along");
            return;
        }
        ast_add(block, step_along(L, o, s));
        g->moved = true;
        return;
    }
    if (!strcasecmp(h, "capture") && s->nkids == 2) {
        Ast *go = zrf_node(AST_BLOCK, s);
        ast_add(block, zrf_node(AST_MARK, s));
        if (!cond_target(g, s->kids[1], go)) {
            ast_free(go);
            return;
        }
        for (int i = 0; i < go->nkids; i++) ast_add(block, go->kids[i]);
        go->nkids = 0;
        ast_free(go);
        ast_add(block, zrf_node(AST_CAPTURE, s));
        ast_add(block, zrf_node(AST_BACK, s));
        return;
    }
    if (!strcasecmp(h, "set-attribute") && s->nkids == 3 &&
        zrf_attr_find(L, zrf_atom_text(s->kids[1]) ? s->kids[1]->text : "") &&
        zrf_attr_find(L, s->kids[1]->text)->unmoved)
        return; /* the piece moves: it is no longer unmoved */
    if (!strcasecmp(h, "add-partial")) {
        lower_add_partial(g, s, block, tail);
        return;
    }
    bool pos_flag = !strcasecmp(h, "set-position-flag");
    if ((!strcasecmp(h, "set-flag") || pos_flag) && s->nkids == 3 && zrf_atom_text(s->kids[1])) {
        /* a flag of the move, or a tag of the cursor's cell; to a condition's value: set where
         * it holds, cleared where not */
        const char *name = flag_name(L, s->kids[1], pos_flag);
        if (!name) {
            unsupported(g, s, pos_flag ? "more position flags than tags" : "more flags than the language's");
            return;
        }
        Ast *on = zrf_node_text(pos_flag ? AST_TAG : AST_SET_FLAG, s, name), *off = ast_clone(on);
        on->sub = 1;
        off->sub = 0;
        if (zrf_is(s->kids[2], "true") || zrf_is(s->kids[2], "false")) {
            ast_add(block, zrf_is(s->kids[2], "true") ? on : off);
            ast_free(zrf_is(s->kids[2], "true") ? off : on);
            return;
        }
        bool needs_move = false;
        Ast *c = lower_cond(g, s->kids[2], &needs_move);
        if (c) {
            ast_add(block,
                    ast_add(ast_add(ast_add(zrf_node(AST_IF, s), c), ast_add(zrf_node(AST_BLOCK, s), on)),
                            ast_add(zrf_node(AST_BLOCK, s), off)));
            return;
        }
        if (!needs_move || g->left_out) {
            ast_free(on);
            ast_free(off);
            return;
        }
        Ast *a = zrf_node(AST_BLOCK, s), *b = zrf_node(AST_BLOCK, s);
        guard(g, s->kids[2], true, a);
        guard(g, s->kids[2], false, b);
        ast_add(a, on);
        ast_add(b, off);
        ast_add(block, ast_add(ast_add(zrf_node(AST_EITHER, s), a), b));
        return;
    }
    if (!strcasecmp(h, "change-type") && s->nkids == 2 && !g->moved && zrf_atom_text(s->kids[1]) &&
        zrf_piece_find(L, s->kids[1]->text)) {
        /* the moving piece, on its own cell: it becomes the type when the move is made */
        ast_add(block, zrf_node_text(AST_CHANGE, s, zrf_piece_find(L, s->kids[1]->text)->vname));
        return;
    }
    if (!strcasecmp(h, "create")) {
        lower_create(g, s, block);
        return;
    }
    if (!strcasecmp(h, "change-type") && s->nkids == 2 && g->moved && zrf_atom_text(s->kids[1]) &&
        zrf_piece_find(L, s->kids[1]->text)) {
        /* another piece, on the cursor's cell, whoever owns it */
        ast_add(block, zrf_node_text(AST_CHANGE_TYPE, s, zrf_piece_find(L, s->kids[1]->text)->vname));
        return;
    }
    if (!strcasecmp(h, "change-owner") && s->nkids == 1) {
        ast_add(block, zrf_node(AST_CONVERT, s));
        return;
    }
    for (size_t i = 0; i < ARRAY_LEN(later); i++)
        if (!strcasecmp(h, later[i].word)) {
            unsupported(g, s, later[i].why);
            return;
        }
    unsupported(g, s, h);
}

/* Does list check that the cursor's cell is empty before statement i, the cursor not moved
 * since (by a direction, a back)? */
static bool checks_empty_before(Lower *L, const ZrfNode *list, int i) {
    for (int k = i - 1; k >= 0; k--) {
        const ZrfNode *s = list->kids[k];
        if (as_dir(L, s) || zrf_is_form(s, "opposite") || zrf_is(s, "back") || zrf_is_form(s, "back")) return false;
        if (!zrf_is_form(s, "verify") || s->nkids != 2) continue;
        const ZrfNode *c = s->kids[1];
        if (zrf_is(c, "empty?")) return true;
        for (int j = 1; zrf_is_form(c, "and") && j < c->nkids; j++)
            if (zrf_is(c->kids[j], "empty?")) return true;
    }
    return false;
}

static bool has_cascade(const ZrfNode *n) {
    if (zrf_is(n, "cascade")) return true;
    for (int i = 0; n->kind == ZRF_LIST && i < n->nkids; i++)
        if (has_cascade(n->kids[i])) return true;
    return false;
}

/* A (while C ...) that cascades, while the mover is the piece being moved, and the statements
 * after it: its first turn takes up a second piece, the later ones move it on, so the first
 * turn is made apart (`if C { BODY  while C { BODY }  REST } else { REST }`: the mark of the
 * mover's destination is made on one path only, and the rest follows on each). */
static void lower_cascade_loop(Prog *g, const ZrfNode *list, int i, Ast *block, bool tail) {
    const ZrfNode *w = list->kids[i];
    bool needs_move = false;
    Ast *c = w->nkids >= 3 && tail ? lower_cond(g, w->kids[1], &needs_move) : NULL;
    if (!c) {
        unsupported(g, w,
                    tail ? "moving a second piece in a loop of other than one condition (cascade)"
                         : "moving a second piece in a loop followed by statements of an enclosing list (cascade)");
        return;
    }
    int marks = g->marks;
    Ast *then_b = zrf_node(AST_BLOCK, w), *else_b = zrf_node(AST_BLOCK, w);
    lower_stmts(g, w, 2, then_b, false);
    if (g->casc == CASC_SECOND) lower_while(g, w, then_b);
    if (g->casc != CASC_SECOND || g->marks != marks)
        unsupported(g, w, "moving a second piece in a loop that moves it otherwise (cascade)");
    lower_stmts(g, list, i + 1, then_b, tail);
    g->casc = CASC_MOVER;
    g->marks = marks;
    g->by_tag = false;
    lower_stmts(g, list, i + 1, else_b, tail);
    ast_add(block, ast_add(ast_add(ast_add(zrf_node(AST_IF, w), c), then_b), else_b));
}

static void lower_stmts(Prog *g, const ZrfNode *list, int first, Ast *block, bool tail) {
    for (int i = first; i < list->nkids && !g->left_out; i++) {
        int before = block->nkids;
        if (g->casc == CASC_MOVER && zrf_is_form(list->kids[i], "while") && has_cascade(list->kids[i])) {
            lower_cascade_loop(g, list, i, block, tail);
            return;
        }
        g->checked_empty = checks_empty_before(g->L, list, i);
        lower_stmt(g, list->kids[i], block, tail && i == list->nkids - 1);
        /* checks in a row are one (the shapes the compiler runs in C are written so) */
        if (block->nkids == before + 1 && before > 0 && block->kids[before]->kind == AST_VERIFY &&
            block->kids[before - 1]->kind == AST_VERIFY) {
            Ast *prev = block->kids[before - 1], *next = block->kids[before];
            Ast *both = cond_bin(AST_AND, prev->kids[0], next->kids[0], list->kids[i]);
            both->loc = prev->loc;
            prev->kids[0] = both;
            next->nkids = 0;
            ast_free(next);
            block->nkids--;
        }
    }
}

/* ---- the shapes that are atoms --------------------------------------------------------------- */

/* Is n the one-word condition w (or (verify w))? */
static bool is_verify(const ZrfNode *n, const char *w) {
    return zrf_is_form(n, "verify") && n->nkids == 2 && zrf_is(n->kids[1], w);
}

static Ast *atom(int kind, const ZrfNode *at) {
    Ast *a = zrf_node(AST_ATOM, at);
    a->sub = kind;
    return a;
}

static Ast *mod(int kind, const ZrfNode *at) {
    Ast *m = zrf_node(AST_MOD, at);
    m->sub = kind;
    return m;
}

/* The modifier of the last check before `add`: not-friend? (none), empty? (move-only),
 * enemy? (capture-only); -2 when it is none of these. */
static int end_mod(const ZrfNode *n) {
    if (is_verify(n, "not-friend?")) return -1;
    if (is_verify(n, "empty?")) return MOD_MOVE_ONLY;
    if (is_verify(n, "enemy?")) return MOD_CAPTURE_ONLY;
    return -2;
}

/* A move that rides along one direction while cells are empty, adding each, and takes what
 * ends the line (or not): the atom `slide D`. NULL when it is not one. */
static Ast *as_slide(Lower *L, const ZrfNode *m) {
    int n = m->nkids;
    /* D (while empty? add D) [(verify X) add]: a slide */
    Dir *d = n >= 2 ? as_dir(L, m->kids[0]) : NULL;
    if (!d || d->nclass) return NULL;
    const ZrfNode *w = m->kids[1];
    if (!zrf_is_form(w, "while") || w->nkids != 4 || !zrf_is(w->kids[1], "empty?") || !zrf_is(w->kids[2], "add") ||
        as_dir(L, w->kids[3]) != d)
        return NULL;
    int em;
    if (n == 2)
        em = MOD_MOVE_ONLY;
    else if (n == 4 && zrf_is(m->kids[3], "add")) {
        em = end_mod(m->kids[2]);
        if (em == -2) return NULL;
        if (em == MOD_MOVE_ONLY) return NULL; /* (verify empty?) after the loop never holds */
        em = -1;                              /* after the loop the cell is not empty */
    } else
        return NULL;
    Ast *a = atom(ATOM_SLIDE, m);
    ast_add(a, dir_ast(d, m->kids[0]));
    if (em >= 0) ast_add(a, mod(em, m));
    return a;
}

static void warn_left_out(Lower *L, const Prog *g, const char *kind, const char *piece) {
    zrf_warn(L->r, g->left_at, "%s of '%s' left out: %s is not supported yet", kind, piece, g->left_out);
}

/* ---- straight paths -------------------------------------------------------------------------- */

/* A move without branches, run symbolically: the cells it visits as offsets from the origin
 * (in the first player's frame), what it checks and captures where, and where it adds. */
typedef enum FactKind {
    FACT_EMPTY,
    FACT_NOT_EMPTY,
    FACT_ENEMY,
    FACT_FRIEND,
    FACT_NOT_FRIEND,
    FACT_NOT_ENEMY,
    FACT_PIECE,
    FACT_ZONE,
    FACT_LAST_TO,
    FACT_LAST_FROM,
    FACT_CAPTURE,
} FactKind;

#define PATH_MAX_CELLS 16

typedef struct Path {
    int ncells;
    int x[PATH_MAX_CELLS], y[PATH_MAX_CELLS]; /* visited offsets; [0] is the origin */
    const Dir *dir[PATH_MAX_CELLS];           /* the step that reached it; NULL for a back */
    bool back;                                /* the cursor went back (mark/back, opposite) */
    struct {
        int at;
        FactKind kind;
        const char *arg; /* piece or zone (Varia name) */
    } facts[PATH_MAX_CELLS * 2];
    int nfacts;
    int add_at;
} Path;

static bool path_fact(Path *p, int at, FactKind k, const char *arg) {
    if (p->nfacts >= (int)ARRAY_LEN(p->facts)) return false;
    p->facts[p->nfacts].at = at;
    p->facts[p->nfacts].kind = k;
    p->facts[p->nfacts].arg = arg;
    p->nfacts++;
    return true;
}

static bool path_cond(Lower *L, Path *p, int at, const ZrfNode *c) {
    static const struct {
        const char *word;
        FactKind kind;
    } words[] = {{"empty?", FACT_EMPTY},     {"not-empty?", FACT_NOT_EMPTY},   {"enemy?", FACT_ENEMY},
                 {"friend?", FACT_FRIEND},   {"not-friend?", FACT_NOT_FRIEND}, {"not-enemy?", FACT_NOT_ENEMY},
                 {"last-to?", FACT_LAST_TO}, {"last-from?", FACT_LAST_FROM}};
    if (c->kind == ZRF_ATOM) {
        for (size_t i = 0; i < ARRAY_LEN(words); i++)
            if (!strcasecmp(c->text, words[i].word)) return path_fact(p, at, words[i].kind, NULL);
        return false;
    }
    if (zrf_is_form(c, "and")) {
        for (int i = 1; i < c->nkids; i++)
            if (!path_cond(L, p, at, c->kids[i])) return false;
        return true;
    }
    if (zrf_is_form(c, "piece?") && c->nkids == 2 && zrf_atom_text(c->kids[1])) {
        Piece *pc = zrf_piece_find(L, c->kids[1]->text);
        return pc && path_fact(p, at, FACT_PIECE, pc->vname);
    }
    if (zrf_is_form(c, "in-zone?") && c->nkids == 2 && zrf_atom_text(c->kids[1])) {
        const char *z = zone_vname(L, c->kids[1]->text);
        return z && path_fact(p, at, FACT_ZONE, z);
    }
    return false;
}

/* Runs move m (no branch, no loop) into p; false when it is not such a move. */
static bool path_of(Lower *L, const ZrfNode *m, Path *p) {
    memset(p, 0, sizeof *p);
    p->ncells = 1;
    p->add_at = -1;
    int cur = 0, mark = -1;
    for (int i = 0; i < m->nkids; i++) {
        const ZrfNode *s = m->kids[i];
        Dir *d = as_dir(L, s);
        int sign = 1;
        if (!d && zrf_is_form(s, "opposite") && s->nkids == 2) {
            d = as_dir(L, s->kids[1]);
            sign = -1;
            if (!d) return false;
            p->back = true;
        }
        if (d && (d->nclass || d->dx >= 1000)) return false; /* (no vector: not a straight path) */
        if (d) {
            if (p->ncells >= PATH_MAX_CELLS) return false;
            p->x[p->ncells] = p->x[cur] + sign * d->dx;
            p->y[p->ncells] = p->y[cur] + sign * d->dy;
            p->dir[p->ncells] = sign > 0 ? d : NULL;
            cur = p->ncells++;
            continue;
        }
        if (zrf_is(s, "mark") || (zrf_is_form(s, "mark") && s->nkids == 1)) {
            mark = cur;
            continue;
        }
        if (zrf_is(s, "back") || (zrf_is_form(s, "back") && s->nkids == 1)) {
            if (mark < 0) return false;
            cur = mark;
            p->back = true;
            continue;
        }
        if (zrf_is_form(s, "verify") && s->nkids == 2) {
            if (!path_cond(L, p, cur, s->kids[1])) return false;
            continue;
        }
        if (zrf_is(s, "capture")) {
            if (!path_fact(p, cur, FACT_CAPTURE, NULL)) return false;
            continue;
        }
        if (zrf_is(s, "add") && i == m->nkids - 1) {
            p->add_at = cur;
            continue;
        }
        return false;
    }
    return p->add_at >= 0;
}

/* The facts at one visited cell, as a bit set. */
static unsigned facts_at(const Path *p, int at) {
    unsigned bits = 0;
    for (int i = 0; i < p->nfacts; i++)
        if (p->facts[i].at == at) bits |= 1u << p->facts[i].kind;
    return bits;
}

static const char *fact_arg(const Path *p, int at, FactKind k) {
    for (int i = 0; i < p->nfacts; i++)
        if (p->facts[i].at == at && p->facts[i].kind == k) return p->facts[i].arg;
    return NULL;
}

/* The atom modifier of a landing cell's checks: -1 none (not friend), MOD_MOVE_ONLY,
 * MOD_CAPTURE_ONLY; -2 when the checks are other than one of these (a zone aside). */
static int landing_mod(unsigned bits) {
    bits &= ~(1u << FACT_ZONE);
    if (bits == 1u << FACT_NOT_FRIEND) return -1;
    if (bits == 1u << FACT_EMPTY) return MOD_MOVE_ONLY;
    if (bits == 1u << FACT_ENEMY || bits == ((1u << FACT_ENEMY) | (1u << FACT_NOT_FRIEND))) return MOD_CAPTURE_ONLY;
    return -2;
}

static void add_zone_mod(Ast *a, int kind, const char *zone, const ZrfNode *at) {
    if (!zone) return;
    Ast *z = zrf_node_text(AST_MOD, at, zone);
    z->sub = kind;
    ast_add(a, z);
}

/* A straight path as an atom: a step or leap (checks on the landing cell only), or legs (every
 * cell before the landing checked empty); zones checked at the origin and the landing become
 * `from` and `to`. NULL when it is neither. */
static Ast *path_atom(Lower *L, const Path *p, const ZrfNode *m) {
    int k = p->ncells - 1;
    if (p->back || k < 1 || p->add_at != k) return NULL;
    unsigned origin = facts_at(p, 0), landing = facts_at(p, k);
    if (origin & ~(1u << FACT_ZONE)) return NULL;
    int em = landing_mod(landing);
    if (em == -2) return NULL;
    /* (one zone at each end at most) */
    int nz0 = 0, nzk = 0;
    for (int i = 0; i < p->nfacts; i++) {
        nz0 += p->facts[i].at == 0 && p->facts[i].kind == FACT_ZONE;
        nzk += p->facts[i].at == k && p->facts[i].kind == FACT_ZONE;
    }
    if (nz0 > 1 || nzk > 1) return NULL;
    bool all_empty = true, none = true;
    for (int i = 1; i < k; i++) {
        unsigned b = facts_at(p, i);
        all_empty = all_empty && b == 1u << FACT_EMPTY;
        none = none && b == 0;
    }
    Ast *a;
    if (k == 1 || none) {
        if (k > 1) {
            /* a leap: its middle cells must exist wherever the landing does */
            if (!L->holes_ok) return NULL;
            for (int i = 1; i < k; i++) {
                bool between_x = (p->x[i] >= 0 && p->x[i] <= p->x[k]) || (p->x[i] <= 0 && p->x[i] >= p->x[k]);
                bool between_y = (p->y[i] >= 0 && p->y[i] <= p->y[k]) || (p->y[i] <= 0 && p->y[i] >= p->y[k]);
                if (!between_x || !between_y) return NULL;
            }
        }
        if (p->x[k] == 0 && p->y[k] == 0) return NULL;
        if (k == 1) {
            a = atom(ATOM_STEP, m);
            ast_add(a, dir_ast(p->dir[1], m));
        } else {
            a = atom(ATOM_LEAP, m);
            Ast *vec = zrf_node(AST_VEC, m);
            vec->num[0] = p->x[k];
            vec->num[1] = p->y[k];
            ast_add(a, vec);
        }
    } else if (all_empty) {
        a = atom(ATOM_LEGS, m);
        for (int i = 1; i <= k; i++) ast_add(a, dir_ast(p->dir[i], m));
    } else
        return NULL;
    if (em >= 0) ast_add(a, mod(em, m));
    add_zone_mod(a, MOD_FROM, fact_arg(p, 0, FACT_ZONE), m);
    add_zone_mod(a, MOD_TO, fact_arg(p, k, FACT_ZONE), m);
    return a;
}

/* En passant as Zillions writes it: beside the piece (X) an enemy that made the last move
 * (last-to), from two cells further (last-from at Y), is captured and the piece lands on the
 * cell between (A). That is the language's `en-passant` when the victim's double step sets
 * the en-passant cell. Returns the atom, and the victim type in *victim (NULL: any). */
static Ast *path_en_passant(Lower *L, const Path *p, const ZrfNode *m, const char **victim) {
    int x = -1, y = -1, a = p->add_at;
    for (int i = 0; i < p->ncells; i++) {
        unsigned b = facts_at(p, i);
        if (b & (1u << FACT_LAST_TO)) {
            if (x >= 0 && (p->x[x] != p->x[i] || p->y[x] != p->y[i])) return NULL;
            if (x < 0) x = i;
        }
        if (b & (1u << FACT_LAST_FROM)) y = i;
    }
    if (x < 0 || y < 0 || a < 0) return NULL;
    int fx = p->x[a] - p->x[x], fy = p->y[a] - p->y[x];
    if (p->x[y] - p->x[x] != 2 * fx || p->y[y] - p->y[x] != 2 * fy || (fx == 0 && fy == 0) || abs(fx) > 1 ||
        abs(fy) > 1)
        return NULL;
    /* what the path checks and does, cell by cell (several visits of one cell together) */
    *victim = NULL;
    bool captured = false, enemy = false;
    for (int i = 0; i < p->nfacts; i++) {
        int at = p->facts[i].at;
        bool at_x = p->x[at] == p->x[x] && p->y[at] == p->y[x];
        bool at_y = p->x[at] == p->x[y] && p->y[at] == p->y[y];
        bool at_a = p->x[at] == p->x[a] && p->y[at] == p->y[a];
        switch (p->facts[i].kind) {
        case FACT_LAST_TO:
        case FACT_NOT_EMPTY:
        case FACT_NOT_FRIEND:
            if (!at_x) return NULL;
            break;
        case FACT_ENEMY:
            if (!at_x) return NULL;
            enemy = true;
            break;
        case FACT_PIECE:
            if (!at_x) return NULL;
            *victim = p->facts[i].arg;
            break;
        case FACT_CAPTURE:
            if (!at_x) return NULL;
            captured = true;
            break;
        case FACT_LAST_FROM:
            if (!at_y) return NULL;
            break;
        case FACT_EMPTY:
            if (!at_a) return NULL;
            break;
        default: return NULL;
        }
    }
    if (!captured || !enemy) return NULL;
    /* the piece steps from the origin onto A */
    Dir *d = zrf_dir_for_vector(L, p->x[a], p->y[a], m);
    if (!d) return NULL;
    Ast *ep = atom(ATOM_EN_PASSANT, m);
    ast_add(ep, dir_ast(d, m));
    return ep;
}

/* The cells a straight path may land on from each origin, for each player (in the board's
 * frame): bits by position index. The path's every visited cell must exist; its zone checks
 * hold. */
static void path_landings(Lower *L, const Path *p, int player, bool *out) {
    for (int o = 0; o < L->npos; o++) {
        const Pos *org = &L->pos[o];
        if (org->killed) continue;
        int land = -1;
        bool ok = true;
        for (int i = 0; i < p->ncells && ok; i++) {
            int dx, dy;
            variant_orient_vector(L->orient[player], p->x[i], p->y[i], &dx, &dy);
            int x = org->x + dx, y = org->y + dy, b = org->board;
            int at = x >= 0 && y >= 0 && x < L->bw[b] && y < L->bh[b] ? L->cell_at[b][y][x] : -1;
            if (at < 0) {
                ok = false;
                break;
            }
            for (int f = 0; f < p->nfacts; f++) {
                if (p->facts[f].at != i || p->facts[f].kind != FACT_ZONE) continue;
                ZoneInfo *z = zrf_zone_info(L, p->facts[f].arg);
                ok = ok && z && z->in[player] && z->in[player][at];
            }
            if (i == p->add_at) land = at;
        }
        if (ok && land >= 0) out[land] = true;
    }
}

/* The cells a slide may land on: every cell of its line from any origin. */
static void slide_landings(Lower *L, const Dir *d, int player, bool *out) {
    int dx, dy;
    variant_orient_vector(L->orient[player], d->dx, d->dy, &dx, &dy);
    for (int o = 0; o < L->npos; o++) {
        const Pos *org = &L->pos[o];
        if (org->killed) continue;
        int x = org->x + dx, y = org->y + dy, b = org->board;
        if (x >= 0 && y >= 0 && x < L->bw[b] && y < L->bh[b] && L->cell_at[b][y][x] >= 0)
            out[L->cell_at[b][y][x]] = true;
    }
}

/* ---- moves ----------------------------------------------------------------------------------- */

/* The lowering of a piece's moves, before it is known whether its promotions can be a rule
 * of the piece (`promote in ZONE to TYPE...`). */
typedef struct MoveOut {
    const ZrfNode *src;  /* the move as written, without attributes lowered as unmoved */
    Ast *item;           /* the atom or block */
    bool promotes;       /* its promotion was taken off (the atom adds plainly) */
    bool landings_known; /* land[] holds every cell it may land on, per player */
    bool *land[MAX_PLAYERS];
    const char *ep_victim; /* an en-passant atom: the victim type (NULL: any) */
    bool is_ep;
    const char *kind;  /* the move kind of its move type (move-priorities); NULL: normal */
    const char *mtype; /* its move type as the file names it, or NULL */
} MoveOut;

/* A move that ends (if (in-zone? Z) (add T...) else add): the zone and the types, and the
 * move with a plain add in place of the if. NULL when it does not end so. */
static const ZrfNode *split_promotion(Lower *L, const ZrfNode *m, const char **zone, const ZrfNode **types) {
    if (m->nkids < 2) return NULL;
    const ZrfNode *last = m->kids[m->nkids - 1];
    if (!zrf_is_form(last, "if") || last->nkids != 5 || !zrf_is(last->kids[3], "else")) return NULL;
    const ZrfNode *c = last->kids[1], *then = last->kids[2], *other = last->kids[4];
    bool neg = zrf_is_form(c, "not-in-zone?");
    if ((!zrf_is_form(c, "in-zone?") && !neg) || c->nkids != 2 || !zrf_atom_text(c->kids[1])) return NULL;
    if (neg) {
        const ZrfNode *t = then;
        then = other;
        other = t;
    }
    if (!zrf_is_form(then, "add") || then->nkids < 2 || !zrf_is(other, "add")) return NULL;
    for (int i = 1; i < then->nkids; i++)
        if (!zrf_atom_text(then->kids[i]) || !zrf_piece_find(L, then->kids[i]->text)) return NULL;
    *zone = zone_vname(L, c->kids[1]->text);
    if (!*zone) return NULL;
    *types = then;
    ZrfNode *copy = zrf_new(L->r, ZRF_LIST, NULL, m->loc, m->exp);
    for (int i = 0; i < m->nkids - 1; i++) zrf_push(L->r, copy, m->kids[i]);
    zrf_push(L->r, copy, zrf_new(L->r, ZRF_ATOM, "add", other->loc, other->exp));
    return copy;
}

/* Does the move contain an add-partial? */
static bool goes_on(const ZrfNode *m) {
    if (zrf_is(m, "add-partial") || zrf_is_form(m, "add-partial")) return true;
    for (int i = 0; m->kind == ZRF_LIST && i < m->nkids; i++)
        if (goes_on(m->kids[i])) return true;
    return false;
}

/* Does the move capture on every path (a capture among its own statements, not under an if)? */
static bool takes_always(const ZrfNode *m) {
    for (int i = 0; i < m->nkids; i++)
        if (zrf_is(m->kids[i], "capture") || zrf_is_form(m->kids[i], "capture")) return true;
    return false;
}

/* The move as a block of statements; NULL (after a warning) when a construct has no
 * counterpart. */
static Ast *move_block(Lower *L, Piece *pc, const ZrfNode *m, const char *kind, const char *mtype, const char *what) {
    Prog g = {.L = L, .move = m, .mtype = mtype};
    collect_events(&g, m);
    Ast *block = zrf_node(AST_MOVEBLOCK, m);
    if (kind) ast_add(block, zrf_node_text(AST_KIND, m, kind));
    if (goes_on(m)) {
        if (L->partial_flags) {
            /* a first part, or the part of the move type the last one named */
            Ast *first = cond_not(cond_word(KEYWORD_FLAG, m), m);
            zrf_set_text2(first->kids[0], L->go_flag);
            int t = partial_type_index(L, mtype);
            if (t >= 0) {
                Ast *mine = cond_word(KEYWORD_FLAG, m);
                zrf_set_text2(mine, L->type_flags[t]);
                first = cond_bin(AST_OR, first, mine, m);
            }
            ast_add(block, ast_add(zrf_node(AST_VERIFY, m), first));
        }
        g.loop_guard = !takes_always(m);
        if (g.loop_guard) {
            Ast *t = zrf_node_text(AST_TAG, m, L->visit_tag);
            t->sub = 1;
            ast_add(block, t); /* (the cell the piece stands on, in every part) */
        }
    }
    lower_stmts(&g, m, 0, block, true);
    free((void *)g.events);
    if (g.left_out) {
        warn_left_out(L, &g, what, pc->name);
        ast_free(block);
        return NULL;
    }
    return block;
}

/* ---- castling ------------------------------------------------------------------------------- */

/* Castling as Zillions writes it: the king, not moved and not attacked, steps along D onto
 * cells each checked empty and not attacked; `to` makes the last its landing; further along D,
 * over cells checked empty, a friendly rook that has not moved; `cascade` and steps back
 * against D take the rook onto a cell the king crossed (or left), and `add`. That is the
 * language's `castle king K1 K2 rook R1 R2`, from the cells the setup gives the king and the
 * rook, in a game of two players on one grid whose king is royal: the rights are the `unmoved`
 * attributes, the checks the language's. Anything else in the move, and it is not one. */
enum { CF_UNMOVED = 1, CF_NOT_ATTACKED = 2, CF_EMPTY = 4, CF_FRIEND = 8, CF_PIECE = 16 };

/* The statements of m, nested lists of steps opened. */
static bool castle_flatten(Lower *L, const ZrfNode *m, const ZrfNode **out, int *n, int cap) {
    for (int i = 0; i < m->nkids; i++) {
        const ZrfNode *k = m->kids[i];
        if (k->kind == ZRF_LIST && k->nkids && (k->kids[0]->kind == ZRF_LIST || as_dir(L, k->kids[0]))) {
            if (!castle_flatten(L, k, out, n, cap)) return false;
            continue;
        }
        if (*n >= cap) return false;
        out[(*n)++] = k;
    }
    return true;
}

/* The facts a (verify ...) condition states (CF_ bits); 0 for any other condition. */
static unsigned castle_facts(Lower *L, const ZrfNode *c, const char **piece) {
    if (c->kind == ZRF_ATOM) {
        Attr *a = zrf_attr_find(L, c->text);
        if (a && a->unmoved) return CF_UNMOVED;
        if (zrf_is(c, "empty?")) return CF_EMPTY;
        if (zrf_is(c, "not-attacked?")) return CF_NOT_ATTACKED;
        if (zrf_is(c, "friend?")) return CF_FRIEND;
        return 0;
    }
    if (zrf_is_form(c, "piece?") && c->nkids == 2 && zrf_atom_text(c->kids[1]) && !*piece) {
        *piece = c->kids[1]->text;
        return CF_PIECE;
    }
    if (!zrf_is_form(c, "and")) return 0;
    unsigned all = 0;
    for (int i = 1; i < c->nkids; i++) {
        unsigned f = castle_facts(L, c->kids[i], piece);
        if (!f) return 0;
        all |= f;
    }
    return all;
}

/* The setup's pieces of type t of player p: how many, and the position of the last (at). */
static int castle_setup(Lower *L, int p, const Piece *t, int want, bool *has_want) {
    const ZrfNode *bs = zrf_find_form(L, "board-setup");
    int count = 0;
    for (int i = 1; bs && i < bs->nkids; i++) {
        const ZrfNode *pf = bs->kids[i];
        if (pf->kind != ZRF_LIST || !pf->nkids || !zrf_atom_text(pf->kids[0]) ||
            zrf_player_index(L, pf->kids[0]->text) != p)
            continue;
        for (int k = 1; k < pf->nkids; k++) {
            const ZrfNode *tf = pf->kids[k];
            if (tf->kind != ZRF_LIST || !tf->nkids || !zrf_atom_text(tf->kids[0]) ||
                zrf_piece_find(L, tf->kids[0]->text) != t)
                continue;
            for (int q = 1; q < tf->nkids; q++) {
                int at = zrf_atom_text(tf->kids[q]) ? zrf_pos_index(L, tf->kids[q]->text) : -1;
                count++; /* (one off the board counts too: the king would not be alone) */
                if (at >= 0 && at == want) *has_want = true;
            }
        }
    }
    return count;
}

/* Does the setup give player p its one piece of type t, on position at? */
static bool castle_king_at(Lower *L, int at, int p, const Piece *t) {
    bool there = false;
    return at >= 0 && castle_setup(L, p, t, at, &there) == 1 && there;
}

/* Does the setup put a piece of type t of player p on position at? */
static bool castle_rook_at(Lower *L, int at, int p, const Piece *t) {
    bool there = false;
    castle_setup(L, p, t, at, &there);
    return at >= 0 && there;
}

/* The position of player p's one piece of type t in the setup, or -1. */
static int castle_king_cell(Lower *L, int p, const Piece *t) {
    for (int i = 0; i < L->npos; i++)
        if (!L->pos[i].killed && castle_king_at(L, i, p, t)) return i;
    return -1;
}

/* The position dx, dy from position p (-1: off the board). */
static int castle_step(const Lower *L, int p, int dx, int dy) {
    const Pos *a = &L->pos[p];
    int x = a->x + dx, y = a->y + dy;
    if (x < 0 || y < 0 || x >= L->bw[a->board] || y >= L->bh[a->board]) return -1;
    return L->cell_at[a->board][y][x];
}

/* Position p as player 1's orientation turns it (-1: no such position). */
static int castle_turned(const Lower *L, int p) {
    const Pos *a = &L->pos[p];
    int W = L->bw[a->board], H = L->bh[a->board], x = a->x, y = a->y;
    switch (L->orient[1]) {
    case ORIENT_IDENTITY: break;
    case ORIENT_FLIP: y = H - 1 - y; break;
    case ORIENT_MIRROR: x = W - 1 - x; break;
    case ORIENT_ROT180: x = W - 1 - x, y = H - 1 - y; break;
    default: return -1;
    }
    return L->cell_at[a->board][y][x];
}

static Ast *castle_of(Lower *L, Piece *pc, const ZrfNode *m) {
    if (L->nplayers != 2 || L->graph || L->nboards != 1 || !pc->royal) return NULL;
    const ZrfNode *st[64];
    int n = 0;
    if (!castle_flatten(L, m, st, &n, 64) || n < 6 || !zrf_is(st[n - 1], "add")) return NULL;
    /* the cells the move visits, in three phases: the king's way, to the rook, the rook's way */
    int phase = 0, steps[3] = {0, 0, 0};
    unsigned facts[3][PATH_MAX_CELLS] = {{0}};
    const char *rook_name = NULL;
    const Dir *d = NULL;
    for (int i = 0; i < n - 1; i++) {
        const ZrfNode *s = st[i];
        const Dir *step = as_dir(L, s);
        if (step) {
            if (step->nclass || steps[phase] + 1 >= PATH_MAX_CELLS) return NULL;
            if (!d) d = step;
            bool along = step->dx == d->dx && step->dy == d->dy, against = step->dx == -d->dx && step->dy == -d->dy;
            if (phase == 2 ? !against : !along) return NULL;
            steps[phase]++;
        } else if (zrf_is_form(s, "verify") && s->nkids == 2) {
            const char *piece = NULL;
            unsigned f = castle_facts(L, s->kids[1], &piece);
            if (!f || (piece && rook_name) || phase == 2) return NULL;
            if (piece) rook_name = piece;
            facts[phase][steps[phase]] |= f;
        } else if (zrf_is(s, "to") && phase == 0) {
            phase = 1;
        } else if (zrf_is(s, "cascade") && phase == 1) {
            phase = 2;
        } else
            return NULL;
    }
    int k = steps[0], j = steps[1], back = steps[2];
    if (phase != 2 || !d || k < 1 || j < 1 || back < 1 || back > k + j || back == j) return NULL;
    /* the king: not moved, not attacked, nor on any cell of its way, each empty */
    if (facts[0][0] != (CF_UNMOVED | CF_NOT_ATTACKED)) return NULL;
    for (int c = 1; c <= k; c++)
        if (facts[0][c] != (CF_EMPTY | CF_NOT_ATTACKED)) return NULL;
    /* to the rook over empty cells; the rook a friend of its type, not moved */
    if (facts[1][0]) return NULL;
    for (int c = 1; c < j; c++)
        if (facts[1][c] != CF_EMPTY) return NULL;
    if (facts[1][j] != (CF_FRIEND | CF_PIECE | CF_UNMOVED)) return NULL;
    Piece *rook = zrf_piece_find(L, rook_name);
    if (!rook || rook == pc) return NULL;
    /* the cells, from the setup; player 1's, the same turned */
    int k1 = castle_king_cell(L, 0, pc);
    int k2 = k1 >= 0 ? castle_step(L, k1, k * d->dx, k * d->dy) : -1;
    int r1 = k1 >= 0 ? castle_step(L, k1, (k + j) * d->dx, (k + j) * d->dy) : -1;
    int r2 = r1 >= 0 ? castle_step(L, r1, -back * d->dx, -back * d->dy) : -1;
    if (k2 < 0 || r1 < 0 || r2 < 0 || !castle_rook_at(L, r1, 0, rook)) return NULL;
    if (!castle_king_at(L, castle_turned(L, k1), 1, pc) || !castle_rook_at(L, castle_turned(L, r1), 1, rook))
        return NULL;
    char letter = d->dx > 0 || (d->dx == 0 && d->dy > 0) ? 'K' : 'Q';
    if (strchr(L->castling, letter)) return NULL; /* (one castle a side) */
    size_t len = strlen(L->castling);
    if (len + 1 >= sizeof L->castling) return NULL;
    L->castling[len] = letter;
    Ast *c = zrf_node_text(AST_CASTLE, m, letter == 'K' ? "K" : "Q");
    int cells[4] = {k1, k2, r1, r2};
    for (int i = 0; i < 4; i++) ast_add(c, zrf_cell_name(L, &L->pos[cells[i]], m));
    return c;
}

/* One (moves ...) item: an atom when its shape is one, else a block. */
static void lower_move(Lower *L, Piece *pc, const ZrfNode *m, const char *kind, const char *mtype, MoveOut *out) {
    memset(out, 0, sizeof *out);
    m = strip_unmoved(L, m);
    out->src = m;
    out->kind = kind;
    out->mtype = mtype;
    if (kind) {
        /* (a kind is said in a program: no atom) */
        out->item = move_block(L, pc, m, kind, mtype, "a move");
        return;
    }
    if ((out->item = castle_of(L, pc, m))) return;
    const char *zone = NULL;
    const ZrfNode *types = NULL;
    const ZrfNode *plain = split_promotion(L, m, &zone, &types);
    const ZrfNode *shape = plain ? plain : m;
    Ast *a = as_slide(L, shape);
    Path path;
    bool straight = !a && path_of(L, shape, &path);
    if (straight) a = path_atom(L, &path, shape);
    if (!a && straight && !plain) {
        const char *victim = NULL;
        a = path_en_passant(L, &path, shape, &victim);
        if (a) {
            out->is_ep = true;
            out->ep_victim = victim;
        }
    }
    if (a) {
        out->item = a;
        out->promotes = plain != NULL;
        /* where it lands, for the promotion rule */
        out->landings_known = true;
        for (int p = 0; p < L->nplayers; p++) {
            out->land[p] = xcalloc((size_t)L->npos + 1, sizeof(bool));
            if (a->sub == ATOM_SLIDE)
                slide_landings(L, as_dir(L, shape->kids[0]), p, out->land[p]);
            else
                path_landings(L, &path, p, out->land[p]);
        }
        if (plain) {
            pc->promo_zone = zone;
            pc->promo_types = types;
        }
        return;
    }
    out->item = move_block(L, pc, m, NULL, mtype, "a move");
}

static bool same_types(const ZrfNode *a, const ZrfNode *b) {
    if (a->nkids != b->nkids) return false;
    for (int i = 1; i < a->nkids; i++)
        if (strcasecmp(a->kids[i]->text, b->kids[i]->text)) return false;
    return true;
}

/* Can the promotions of the piece's moves be one rule of the piece? They name the same zone
 * and types, and no other move may land in the zone. */
static bool promotion_is_rule(Lower *L, MoveOut *mv, int n) {
    const char *zone = NULL;
    const ZrfNode *types = NULL;
    for (int i = 0; i < n; i++) {
        if (!mv[i].promotes) continue;
        const char *z = NULL;
        const ZrfNode *t = NULL;
        split_promotion(L, mv[i].src, &z, &t);
        if (zone && (strcmp(zone, z) || !same_types(types, t))) return false;
        zone = z;
        types = t;
    }
    if (!zone) return false;
    ZoneInfo *zi = zrf_zone_info(L, zone);
    for (int i = 0; i < n; i++) {
        if (mv[i].promotes || !mv[i].item) continue;
        if (!mv[i].landings_known) return false;
        for (int p = 0; p < L->nplayers; p++)
            for (int c = 0; c < L->npos; c++)
                if (mv[i].land[p][c] && zi && zi->in[p] && zi->in[p][c]) return false;
    }
    return true;
}

static void lower_moves(Lower *L, Piece *pc, Ast *piece) {
    MoveOut *mv = NULL;
    int n = 0;
    for (int i = 1; i < pc->form->nkids; i++) {
        const ZrfNode *f = pc->form->kids[i];
        if (!zrf_is_form(f, "moves")) continue;
        const char *kind = NULL;  /* the move type's kind, when move priorities name it */
        const char *mtype = NULL; /* the move type */
        for (int k = 1; k < f->nkids; k++) {
            const ZrfNode *m = f->kids[k];
            if (zrf_is_form(m, "move-type")) {
                mtype = m->nkids == 2 ? zrf_atom_text(m->kids[1]) : NULL;
                kind = mtype ? zrf_names_find(&L->kind_names, mtype) : NULL;
                continue;
            }
            if (m->kind != ZRF_LIST) {
                zrf_warn(L->r, m, "a move of '%s' left out: '%s' is not a move (a list of statements)", pc->name,
                         zrf_print(L->r, m));
                continue;
            }
            mv = xrealloc(mv, (size_t)(n + 1) * sizeof *mv);
            lower_move(L, pc, m, kind, mtype, &mv[n++]);
        }
    }
    bool rule = promotion_is_rule(L, mv, n);
    if (!rule) {
        /* each promotion stays in its move's program */
        for (int i = 0; i < n; i++)
            if (mv[i].promotes) {
                ast_free(mv[i].item);
                mv[i].item = move_block(L, pc, mv[i].src, mv[i].kind, mv[i].mtype, "a move");
            }
    }
    /* en passant needs the victim's double step to mark the cell it passes */
    for (int i = 0; i < n; i++) {
        if (!mv[i].is_ep) continue;
        Ast *legs = NULL;
        for (int k = 0; k < n && !legs; k++)
            if (mv[k].item && mv[k].item->kind == AST_ATOM && mv[k].item->sub == ATOM_LEGS && mv[k].item->nkids >= 2 &&
                mv[k].item->kids[0]->kind == AST_DIR && mv[k].item->kids[1]->kind == AST_DIR &&
                !strcmp(mv[k].item->kids[0]->text, mv[k].item->kids[1]->text) &&
                (mv[k].item->nkids == 2 || mv[k].item->kids[2]->kind == AST_MOD))
                legs = mv[k].item;
        bool self = !mv[i].ep_victim || !strcmp(mv[i].ep_victim, pc->vname);
        if (legs && self) {
            bool has = false;
            for (int k = 0; k < legs->nkids; k++)
                has = has || (legs->kids[k]->kind == AST_MOD && legs->kids[k]->sub == MOD_SETS_EP);
            if (!has) ast_add(legs, mod(MOD_SETS_EP, mv[i].src));
        } else {
            ast_free(mv[i].item);
            mv[i].item = move_block(L, pc, mv[i].src, mv[i].kind, mv[i].mtype, "a move");
        }
    }
    for (int i = 0; i < n; i++) {
        if (mv[i].item) ast_add(piece, mv[i].item);
        for (int p = 0; p < MAX_PLAYERS; p++) free(mv[i].land[p]);
    }
    if (rule) {
        const char *zone = NULL;
        const ZrfNode *types = NULL;
        for (int i = 0; i < n && !zone; i++)
            if (mv[i].promotes) split_promotion(L, mv[i].src, &zone, &types);
        Ast *pr = zrf_node_text(AST_PROMOTE, types, zone);
        for (int k = 1; k < types->nkids; k++)
            ast_add(pr, zrf_node_text(AST_NAME, types->kids[k], zrf_piece_find(L, types->kids[k]->text)->vname));
        ast_add(piece, pr);
    }
    free(mv);
}

/* A drop as a placement program (`drop { }`): it starts on every cell, and its add puts a
 * new piece there. */
static void drop_program(Lower *L, Piece *pc, const ZrfNode *m, Ast *piece) {
    if (!is_stmt_list(m)) {
        zrf_warn(L->r, m, "a drop of '%s' left out: '%s' is not a drop (a list of statements)", pc->name,
                 zrf_print(L->r, m));
        return;
    }
    Prog g = {.L = L, .move = m};
    collect_events(&g, m);
    Ast *block = zrf_node(AST_DROPBLOCK, m);
    lower_stmts(&g, m, 0, block, true);
    free((void *)g.events);
    if (!g.left_out && goes_on(m)) unsupported(&g, m, "a drop that goes on (add-partial)");
    if (g.left_out) {
        warn_left_out(L, &g, "a drop", pc->name);
        ast_free(block);
        return;
    }
    ast_add(piece, block);
}

/* One (drops ...) item: the placement shapes the language has as atoms, `drop [to ZONE]`, in a
 * game with pieces off the board; else a placement program. */
static void lower_drop(Lower *L, Piece *pc, const ZrfNode *m, Ast *piece) {
    if (!L->has_hands || !is_stmt_list(m) || m->nkids < 2 || !zrf_is(m->kids[m->nkids - 1], "add")) {
        drop_program(L, pc, m, piece);
        return;
    }
    bool empty = false;
    const char *zone = NULL;
    bool not_zone = false;
    for (int i = 0; i < m->nkids - 1; i++) {
        const ZrfNode *s = m->kids[i];
        if (is_verify(s, "empty?")) {
            empty = true;
            continue;
        }
        if (zrf_is_form(s, "verify") && s->nkids == 2 &&
            (zrf_is_form(s->kids[1], "in-zone?") || zrf_is_form(s->kids[1], "not-in-zone?")) &&
            s->kids[1]->nkids == 2 && zrf_atom_text(s->kids[1]->kids[1]) && !zone) {
            zone = s->kids[1]->kids[1]->text;
            not_zone = zrf_is_form(s->kids[1], "not-in-zone?");
            continue;
        }
        zone = NULL;
        empty = false;
        break;
    }
    if (!empty) {
        drop_program(L, pc, m, piece);
        return;
    }
    Ast *a = atom(ATOM_DROP, m);
    if (zone) {
        const char *vz = zone_vname(L, zone);
        if (!vz) {
            zrf_warn(L->r, m, "a drop of '%s' left out: unknown zone '%s'", pc->name, zone);
            ast_free(a);
            return;
        }
        if (not_zone) {
            /* the complement, per player */
            const ZrfNode *bf = zrf_find_form(L, "board");
            const char *hname = zrf_hidden_name(L, "outside");
            for (int p = 0; p < L->nplayers; p++) {
                bool *in = xcalloc((size_t)L->npos + 1, sizeof *in);
                for (int i = 0; i < L->npos; i++) in[i] = true;
                for (int i = 1; bf && i < bf->nkids; i++) {
                    const ZrfNode *f = bf->kids[i];
                    const ZrfNode *nm = zrf_sub_form(f, "name"), *pl = zrf_sub_form(f, "players"),
                                  *ps = zrf_sub_form(f, "positions");
                    if (!zrf_is_form(f, "zone") || !nm || nm->nkids < 2 || !zrf_is(nm->kids[1], zone)) continue;
                    bool players[MAX_PLAYERS];
                    if (pl && !zrf_read_players(L, pl, players)) continue;
                    if (pl && !players[p]) continue;
                    for (int k = 1; ps && k < ps->nkids; k++) {
                        int q = zrf_atom_text(ps->kids[k]) ? zrf_pos_index(L, ps->kids[k]->text) : -1;
                        if (q >= 0) in[q] = false;
                    }
                }
                bool only[MAX_PLAYERS] = {false};
                only[p] = true;
                zrf_add_zone(L, hname, in, only, m);
                free(in);
            }
            vz = hname;
        }
        Ast *to = zrf_node_text(AST_MOD, m, vz);
        to->sub = MOD_TO;
        ast_add(a, to);
    }
    ast_add(piece, a);
}

void zrf_lower_piece(Lower *L, Piece *pc) {
    Ast *piece = zrf_node_text(AST_PIECE, pc->form, pc->vname);
    char letter[2] = {pc->letter, 0};
    ast_add(piece, zrf_node_text(AST_LETTER, pc->form, letter));
    zrf_add_help(piece, pc->form, "help", "description");
    if (pc->royal) ast_add(piece, zrf_node_text(AST_FLAG, pc->form, "royal"));
    lower_moves(L, pc, piece);
    for (int i = 1; i < pc->form->nkids; i++) {
        const ZrfNode *f = pc->form->kids[i];
        const char *h = zrf_head(f);
        if (!h) continue;
        if (!strcasecmp(h, "drops")) {
            for (int k = 1; k < f->nkids; k++)
                if (!zrf_is_form(f->kids[k], "move-type")) lower_drop(L, pc, f->kids[k], piece);
        }
        /* (an attribute no move reads does nothing; a move that reads one the language has no
         * counterpart for is named where it reads it) */
    }
    ast_add(L->root, piece);
}

/* ---- moves that go on ------------------------------------------------------------------------ */

/* Calls fn for every move of every piece, with its move type. */
static void each_move(Lower *L, void (*fn)(Lower *L, const ZrfNode *m, const char *mtype, void *arg), void *arg) {
    for (int p = 0; p < L->npieces; p++)
        for (int i = 1; i < L->pieces[p].form->nkids; i++) {
            const ZrfNode *f = L->pieces[p].form->kids[i];
            if (!zrf_is_form(f, "moves")) continue;
            const char *mtype = NULL;
            for (int k = 1; k < f->nkids; k++) {
                if (zrf_is_form(f->kids[k], "move-type")) {
                    mtype = f->kids[k]->nkids == 2 ? zrf_atom_text(f->kids[k]->kids[1]) : NULL;
                    continue;
                }
                if (f->kids[k]->kind == ZRF_LIST) fn(L, f->kids[k], mtype, arg);
            }
        }
}

static void collect_targets(Lower *L, const ZrfNode *n, const char *mtype) {
    if (zrf_is(n, "add-partial") || zrf_is_form(n, "add-partial")) {
        const char *t = partial_target(L, n, mtype);
        if (partial_type_index(L, t) < 0 && L->npartial_types < (int)ARRAY_LEN(L->partial_types))
            L->partial_types[L->npartial_types++] = t;
        return;
    }
    for (int i = 0; n->kind == ZRF_LIST && i < n->nkids; i++) collect_targets(L, n->kids[i], mtype);
}

static void targets_of_move(Lower *L, const ZrfNode *m, const char *mtype, void *arg) {
    (void)arg;
    collect_targets(L, m, mtype);
}

/* A move of a type some part goes on with that does not go on itself, or one that goes on
 * while its type is none of those: the language goes on with exactly the blocks that pause. */
static void check_alike(Lower *L, const ZrfNode *m, const char *mtype, void *arg) {
    bool *alike = arg;
    if (goes_on(m) != (partial_type_index(L, mtype) >= 0)) *alike = false;
}

static void warn_no_pause(Lower *L, const ZrfNode *m, const char *mtype, void *arg) {
    (void)arg;
    if (!goes_on(m) && partial_type_index(L, mtype) >= 0)
        zrf_warn(L->r, m, "a move of type '%s' that does not go on is not taken as a further part of a move",
                 mtype ? mtype : "(none)");
}

void zrf_plan_partials(Lower *L) {
    each_move(L, targets_of_move, NULL);
    if (L->npartial_types == 0) return;
    L->visit_tag = zrf_names_add(L, &L->tag_names, "zrf-visited", NULL);
    bool alike = L->npartial_types == 1;
    if (alike) each_move(L, check_alike, &alike);
    if (alike) return; /* the blocks that pause are the moves of the one type parts go on with */
    L->partial_flags = true;
    L->go_flag = zrf_names_add(L, &L->flag_names, "zrf-goes-on", NULL);
    for (int i = 0; i < L->npartial_types; i++) {
        char name[40];
        snprintf(name, sizeof name, "zrf-type-%d", i + 1);
        L->type_flags[i] = zrf_names_add(L, &L->flag_names, zrf_strdup(L->r, name), NULL);
    }
    each_move(L, warn_no_pause, NULL);
}

/* ---- captures ------------------------------------------------------------------------------- */

int zrf_move_captures(Lower *L, const ZrfNode *m) {
    m = strip_unmoved(L, m);
    if (takes_always(m)) return 1;
    const char *zone = NULL;
    const ZrfNode *types = NULL;
    const ZrfNode *plain = split_promotion(L, m, &zone, &types);
    const ZrfNode *shape = plain ? plain : m;
    /* a slide onto empty cells only */
    if (shape->nkids == 2) {
        Ast *slide = as_slide(L, shape);
        if (slide) {
            ast_free(slide);
            return 0;
        }
    }
    Path p;
    if (!path_of(L, shape, &p)) return -1;
    bool takes = false;
    for (int i = 0; i < p.nfacts; i++) takes = takes || p.facts[i].kind == FACT_CAPTURE;
    unsigned landing = facts_at(&p, p.add_at);
    if (takes || (landing & (1u << FACT_ENEMY))) return 1;
    if (landing & (1u << FACT_EMPTY)) return 0;
    return -1;
}
