/* describe.h - the rulebook of a loaded game: its boards, players, turns, pieces (their moves
 * in words and diagrams, both found by running the move generator on constructed positions),
 * special rules and endings, as terminal text, SVG pictures or one HTML page; and the warnings
 * `varia check` gives for likely mistakes of a rule file's author. */
#ifndef VARIA_DESCRIBE_H
#define VARIA_DESCRIBE_H

#include <stdio.h>

#include "ast.h"
#include "board.h"

/* What a diagram marks on a cell (bits: a cell may be several things). On an empty cell the
 * marks say what the piece does there, or to an enemy put there; on a drawn piece, what it does
 * to that piece. */
enum {
    DESCRIBE_MOVE = 1,   /* it moves there */
    DESCRIBE_TAKE = 2,   /* it captures the piece there by landing on it */
    DESCRIBE_REMOTE = 4, /* a move of it captures the piece there without landing on it */
    DESCRIBE_PLACE = 8,  /* a new piece of its type may be put there (a drop, a copy of itself) */
    DESCRIBE_DRAWN = 16, /* a piece is drawn there */
};
#define DESCRIBE_MAX_DIAGRAMS 8

/* A diagram: a position (its text in fen: cells, the first player to move, the phase) with the
 * described piece on origin, or in the first player's hand (in_hand, origin NO_CELL), and its
 * marks, found by running the generator on the position read back from that text. An example
 * from play also shows the position after one of its moves. */
typedef struct DescribeDiagram {
    char caption[160];
    Piece cells[MAX_CELLS];
    Cell origin;
    bool in_hand;
    uint8_t phase;
    uint8_t mark[MAX_CELLS];
    char fen[1024];
    bool has_after;
    char move[64];
    Piece after[MAX_CELLS];
    Cell hl_from, hl_to;
} DescribeDiagram;

/* How text is drawn: UTF-8 glyphs and ANSI colours, or plain letters. */
typedef struct DescribeStyle {
    bool utf8, colour;
} DescribeStyle;

/* The diagrams of a piece type (up to max, DESCRIBE_MAX_DIAGRAMS at most) into out; returns how
 * many. Cannot fail; a program fault leaves the moves it would have made unmarked. */
int describe_piece_diagrams(const Variant *v, int type, DescribeDiagram *out, int max);
/* The enemy a diagram's capture marks on empty cells are about: its type (the owner is the
 * first one hostile to the first player), or -1 when the first player has no enemy. */
int describe_probe_enemy(const Variant *v, int *owner);
/* Writes the whole rulebook as text. */
void describe_text(const Variant *v, const DescribeStyle *style, FILE *out);
/* The same for a game under way: its start position is start (position text: the game's own
 * deal of a shuffle or an allegiance drawn at random), not the rule file's. */
void describe_game_text(const Variant *v, const char *start, const DescribeStyle *style, FILE *out);
/* Writes one piece's words and diagrams as text. */
void describe_piece_text(const Variant *v, int type, const DescribeStyle *style, FILE *out);
/* Writes one piece's diagrams as one SVG picture (the words' pictures; a front end shows it). */
void describe_piece_svg(const Variant *v, int type, FILE *out);
/* What the set-up step or the phase of the turn under way expects, in words ("" when the
 * game has neither). */
void describe_step(const Position *pos, char *buf, size_t cap);
/* Writes DIR/start.svg and, per piece type, DIR/piece-NAME.svg (its diagrams). DIR must exist.
 * False with the reason in err when a file cannot be written. */
bool describe_svg(const Variant *v, const char *dir, char *err, size_t cap);
/* Writes one HTML page with the rulebook: every line of the text (headings as headings, the rest
 * in <pre>), its diagrams as pictures. False with the reason in err when the file cannot be
 * written. */
bool describe_html(const Variant *v, const char *path, char *err, size_t cap);
/* Adds warnings to sink for likely mistakes: pieces that look alike (the same glyph, or
 * letters equal but for case), a piece that can never move, a promotion set whose zone no
 * piece reaches. root (the file's syntax tree, may be NULL) gives the warnings' places. */
void describe_warnings(const Variant *v, const Ast *root, DiagSink *sink);

#endif
