/* describe.h - the rulebook of a loaded game: its boards, players, turns, pieces (their moves
 * in words and a move diagram computed by running the move generator on constructed
 * positions), special rules and endings, as terminal text, SVG pictures or one HTML page;
 * and the warnings `varia check` gives for likely mistakes of a rule file's author. */
#ifndef VARIA_DESCRIBE_H
#define VARIA_DESCRIBE_H

#include <stdio.h>

#include "ast.h"
#include "board.h"

/* What a diagram marks on a cell reached by the piece on the origin (bits: a cell may be
 * several things, a withdrawer's victim cell is also a cell it may move to). */
enum {
    MARK_MOVE = 1,    /* it may move there (not capture) */
    MARK_CAPTURE = 2, /* it may capture an enemy there by landing on it */
    MARK_FIRST = 4,   /* only as its first move (or from its start cells) */
    MARK_HOP = 8,     /* only over a piece in between */
    MARK_REMOTE = 16, /* an enemy there is captured without the piece landing there */
    MARK_DROP = 32,   /* a piece of this type may be dropped there */
};

/* A worked example of a capture that depends on other pieces: the position before (only the
 * pieces the capture needs), the move, and the position after. */
typedef struct DescribeExample {
    bool found;
    Piece before[MAX_CELLS], after[MAX_CELLS];
    Cell from, to;
    char move[64];
} DescribeExample;

/* One piece type's diagram: the first player's piece on `origin` of an otherwise empty board. */
typedef struct PieceDiagram {
    int type;
    Cell origin;
    uint8_t mark[MAX_CELLS];
    bool needs_example; /* its captures depend on other pieces: see `example` */
    DescribeExample example;
    uint32_t promotes_to; /* types its moves may promote to (from any cell) */
    uint32_t promo_sets;  /* bit per PromoSet index those promotions come from */
} PieceDiagram;

/* How text is drawn: UTF-8 glyphs and ANSI colours, or plain letters. */
typedef struct DescribeStyle {
    bool utf8, colour;
} DescribeStyle;

/* Computes type's diagram (and, where its captures depend on the position, an example found
 * by playing random games from the start with a fixed seed). Cannot fail; a program fault
 * leaves the cells it would have reached unmarked. */
void describe_piece(const Variant *v, int type, PieceDiagram *out);
/* Writes the whole rulebook as text. */
void describe_text(const Variant *v, const DescribeStyle *style, FILE *out);
/* The same for a game under way: its start position is start (position text: the game's own
 * deal of a shuffle or an allegiance drawn at random), not the rule file's. */
void describe_game_text(const Variant *v, const char *start, const DescribeStyle *style, FILE *out);
/* Writes one piece's words and diagram (and example) as text. */
void describe_piece_text(const Variant *v, int type, const DescribeStyle *style, FILE *out);
/* What the set-up step or the phase of the turn under way expects, in words ("" when the
 * game has neither). */
void describe_step(const Position *pos, char *buf, size_t cap);
/* Writes DIR/start.svg and, per piece type, DIR/piece-NAME.svg (and
 * DIR/piece-NAME-example.svg where it has an example). DIR must exist. False with the reason
 * in err when a file cannot be written. */
bool describe_svg(const Variant *v, const char *dir, char *err, size_t cap);
/* Writes one HTML page with the rulebook's text and its pictures inline. False with the
 * reason in err when the file cannot be written. */
bool describe_html(const Variant *v, const char *path, char *err, size_t cap);
/* Adds warnings to sink for likely mistakes: pieces that look alike (the same glyph, or
 * letters equal but for case), a piece that can never move, a promotion set whose zone no
 * piece reaches. root (the file's syntax tree, may be NULL) gives the warnings' places. */
void describe_warnings(const Variant *v, const Ast *root, DiagSink *sink);

#endif
