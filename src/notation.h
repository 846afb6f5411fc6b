/* notation.h - moves as text: coordinate notation (e2e4, e7e8q) in and out. */
#ifndef VARIA_NOTATION_H
#define VARIA_NOTATION_H

#include "board.h"

/* Writes the coordinate form of m: from, to, and the promotion letter in lower case. */
void notation_move(const Variant *v, const Move *m, char *buf, size_t cap);
/* Finds the legal move (in list) whose coordinate form is text. Returns its index, -1 when none
 * matches, -2 when several do (then the caller lists them). */
int notation_find(const Variant *v, const MoveList *list, const char *text);

#endif
