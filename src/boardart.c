/* boardart.c - where the cells of hexagonal and graph boards go in a picture, and the lines of
 * the links between them. */
#include "boardart.h"

/* Rows of hexagons to scale: a pointy-topped hexagon one wide is 2/sqrt(3) high, and its rows
 * are sqrt(3)/2 apart. */
#define HEX_ROW 0.8660254037844386
#define HEX_HIGH 1.1547005383792515

int art_text_width(const Variant *v, int b) {
    const Board *bd = &v->boards[b];
    return bd->shape == BOARD_HEX ? 4 * bd->width + 2 * (bd->height - 1) : 3 * bd->width;
}

int art_text_column(const Variant *v, int b, int x, int y, bool flip) {
    const Board *bd = &v->boards[b];
    int fx = flip ? bd->width - 1 - x : x, fy = flip ? bd->height - 1 - y : y;
    return bd->shape == BOARD_HEX ? 4 * fx + 2 * fy : 3 * fx;
}

/* Does a link of board b pass over (x, y), between its two cells along a rank (horizontal) or
 * a file? */
static void links_over(const Variant *v, int b, int x, int y, bool *across, bool *along) {
    *across = *along = false;
    for (int i = 0; i < v->nlinks; i++) {
        const CellInfo *p = &v->cells[v->links[i].from], *q = &v->cells[v->links[i].to];
        if (p->board != b || q->board != b) continue;
        if (p->y == y && q->y == y && ((p->x < x && x < q->x) || (q->x < x && x < p->x))) *across = true;
        if (p->x == x && q->x == x && ((p->y < y && y < q->y) || (q->y < y && y < p->y))) *along = true;
    }
}

const char *art_hole(const Variant *v, int b, int x, int y, bool ascii) {
    bool across, along;
    links_over(v, b, x, y, &across, &along);
    if (across && along) return ascii ? "-+-" : "─┼─";
    if (across) return ascii ? "---" : "───";
    if (along) return ascii ? " | " : " │ ";
    return "   ";
}

bool art_linked_sideways(const Variant *v, int b, int x, int y, int dx) {
    for (int i = 0; i < v->nlinks; i++) {
        const CellInfo *p = &v->cells[v->links[i].from], *q = &v->cells[v->links[i].to];
        if (p->board == b && q->board == b && p->x == x && p->y == y && q->y == y && (q->x - x) * dx > 0) return true;
    }
    return false;
}

void art_position(const Variant *v, Cell c, double *x, double *y) {
    const CellInfo *ci = &v->cells[c];
    const Board *bd = &v->boards[ci->board];
    if (bd->shape == BOARD_HEX) {
        *x = ci->x + 0.5 + 0.5 * ci->y;
        *y = (bd->height - 1 - ci->y) * HEX_ROW + HEX_HIGH / 2;
    } else {
        *x = ci->x + 0.5;
        *y = bd->height - 1 - ci->y + 0.5;
    }
}

void art_size(const Variant *v, int b, double *w, double *h) {
    const Board *bd = &v->boards[b];
    if (bd->shape == BOARD_HEX) {
        *w = bd->width + 0.5 * (bd->height - 1);
        *h = (bd->height - 1) * HEX_ROW + HEX_HIGH;
    } else {
        *w = bd->width;
        *h = bd->height;
    }
}

int art_links(const Variant *v, Cell *a, Cell *b, int max) {
    int n = 0;
    for (int i = 0; i < v->nlinks && n < max; i++) {
        Cell p = v->links[i].from, q = v->links[i].to;
        if (p > q) p = v->links[i].to, q = v->links[i].from;
        bool known = false;
        for (int k = 0; k < n && !known; k++) known = a[k] == p && b[k] == q;
        if (known) continue;
        a[n] = p, b[n] = q;
        n++;
    }
    return n;
}
