/* notation.h - moves as text: coordinate notation (e2e4, e7e8q) in and out, and standard
 * algebraic notation (Nf3, exd5, O-O, e8=Q) for rule files whose pieces have letters. */
#ifndef VARIA_NOTATION_H
#define VARIA_NOTATION_H

#include "genctx.h"

/* Writes the coordinate form of m: from, to, and the promotion letter in lower case. */
void notation_move(const Variant *v, const Move *m, char *buf, size_t cap);
/* Finds the legal move (in list) whose coordinate form is text. Returns its index, -1 when none
 * matches, -2 when several do (then the caller lists them). */
int notation_find(const Variant *v, const MoveList *list, const char *text);

/* Writes m in algebraic notation: piece letter (none for the pawn-like type, letter P),
 * the origin's file, rank or cell when another move of the same type reaches the same cell,
 * 'x' for captures, the destination, "=L" for a promotion ('+' onto a promoted type and '='
 * when such a promotion is declined, '-' back to a demoted type), "O-O" / "O-O-O" for castling
 * (rook on the right / left of the king), "L@cell" for drops, and "+" or "#" when the next
 * player is in check or checkmated. list holds the moves m is told apart from (pos's legal
 * moves). In a game with promoted types a check is not marked ('+' is a promotion there).
 * pos is used for make/unmake and restored. Cannot fail (truncates to cap). */
void notation_san(GenContext *ctx, Position *pos, const MoveList *list, const Move *m, char *buf, size_t cap);

/* Finds the moves of list that text names, in coordinate notation or algebraic notation
 * (check marks, "!?" and "0-0" accepted; a surplus origin file/rank accepted). Writes up to
 * max indices into found and returns how many distinct moves match (0 = none, >1 = ambiguous).
 * Cannot fail. */
int notation_parse(Position *pos, const MoveList *list, const char *text, int *found, int max);

/* Rewrites a move in USI coordinates, as shogi engines write moves (files numbered from the
 * right, ranks lettered from the top: "7g7f", "8h2b+", the drop "P*5e"), in the board's own
 * cell names ("c3c4", "b2h8+", "P@e5"). False when text is not of that form, names no cell,
 * or the game is not on one board of at most 9 files. notation_parse reads it too. */
bool notation_from_usi(const Variant *v, const char *text, char *out, size_t cap);

#endif
