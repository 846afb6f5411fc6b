/* boardart.h - how a board that is not a plain grid of squares is drawn, for the console, the
 * rulebook and the web page alike: a hexagonal board (each rank half a cell to the right of the
 * one below) and a graph board (cells and the links between them, the holes of the grid
 * carrying the lines). A plain grid is drawn as it always was; these say where it is not. */
#ifndef VARIA_BOARDART_H
#define VARIA_BOARDART_H

#include "variant.h"

/* Text pictures: every cell is 3 columns wide. On a hexagonal board a cell takes 4 columns
 * (its 3 and a space) and each rank is shifted 2 columns right of the one below. */

/* Columns of the picture of board b, without labels. */
int art_text_width(const Variant *v, int b);
/* The column where the cell at (x, y) of board b starts (flip: the board turned round). */
int art_text_column(const Variant *v, int b, int x, int y, bool flip);
/* What a hole at (x, y) of board b shows: the line of a link that passes over it ("───",
 * " │ ", " ┼ "; with ascii "---", " | ", " + "), or blanks. Always 3 columns. */
const char *art_hole(const Variant *v, int b, int x, int y, bool ascii);
/* Does a link of a graph board leave the cell on (x, y) towards its left (dx -1) or right
 * (dx 1) along its rank? (The picture joins the cell to its line.) */
bool art_linked_sideways(const Variant *v, int b, int x, int y, int dx);

/* Pictures drawn to scale (SVG): the centre of cell c in cell widths from the board's top left
 * (x to the right, y down; a cell is 1 wide), and the size of board b so measured. */
void art_position(const Variant *v, Cell c, double *x, double *y);
void art_size(const Variant *v, int b, double *w, double *h);
/* The links to draw between cells (of graph boards): a and b of each, once per pair. Returns
 * how many (at most max). */
int art_links(const Variant *v, Cell *a, Cell *b, int max);

#endif
