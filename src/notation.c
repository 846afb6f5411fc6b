/* notation.c - coordinate notation for moves. */
#include "notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

void notation_move(const Variant *v, const Move *m, char *buf, size_t cap) {
    char promo[4] = "";
    if (m->promo != NO_TYPE) snprintf(promo, sizeof promo, "%c", (char)tolower((unsigned char)v->types[m->promo].letter));
    snprintf(buf, cap, "%s%s%s", v->cells[m->from].name, v->cells[m->to].name, promo);
}

int notation_find(const Variant *v, const MoveList *list, const char *text) {
    int found = -1;
    char buf[64];
    for (int i = 0; i < list->count; i++) {
        notation_move(v, &list->moves[i], buf, sizeof buf);
        if (strcmp(buf, text) != 0) continue;
        if (found >= 0) return -2;
        found = i;
    }
    return found;
}
