/* ui_console.c - the console game: board drawing, move and command input, the game loop with
 * human and computer seats, save/load, and self-play. Everything is driven by the Variant:
 * any number of players and boards, holes, the rule file's letters and glyphs. */
#include "ui_console.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#ifdef VARIA_READLINE
#include <readline/history.h>
#include <readline/readline.h>
#endif

#include "boardart.h"
#include "describe.h"
#include "fen.h"
#include "load.h"
#include "gameend.h"
#include "mobility.h"
#include "notation.h"
#include "pgn.h"
#include "savegame.h"
#include "search.h"
#include "source.h"
#include "view.h"

#define UI_SAMPLES 4 /* positions the computer searches when some information is hidden */
#define TT_MB 64

static const char *const seat_names[SEAT__COUNT] = {"human", "ai", "greedy", "random"};

int ui_seat_kind(const char *name) {
    for (int i = 0; i < SEAT__COUNT; i++)
        if (!strcmp(name, seat_names[i])) return i;
    return -1;
}

const char *ui_seat_name(int kind) { return kind >= 0 && kind < SEAT__COUNT ? seat_names[kind] : "?"; }

/* ---- the game -------------------------------------------------------------------------------- */

typedef struct Game {
    Variant *v;
    char *rules; /* path, owned */
    Position pos;
    GenContext gen;   /* move generation state for pos */
    char start[4096]; /* position text of the start */
    Move *moves;      /* played from the start: moves[0..pos.ply) */
    int nmoves;
    Move *redo; /* undone moves, last undone at the top */
    int nredo;
    Searcher *search;
    int seats[MAX_PLAYERS];
    double seconds;
    int depth;
    uint64_t seed, rng;
    bool fresh_deals; /* 'new' deals the start afresh (no --seed, --fen or load) */
    bool over;        /* the game has ended (rules, resignation or agreement) */
    int winner;       /* player, or -1 */
    int loser;        /* player who lost when there is no single winner, or -1 */
    char reason[48];
    bool paused; /* computer seats wait (after Ctrl-C) until 'ai' or a move */
    /* Hidden information: the player whose screen this is (-1: public facts only), and the
     * public log of the turn being played (shown at the hand-over). */
    bool hidden;
    int shown_to;
    char log[2048];
    bool flip, utf8, colour, tty_in, tty_out;
    bool compact;          /* after a move, only the lines under the board */
    const char *rules_dir; /* the shipped games (a PGN names its game) */
} Game;

static void game_free_variant(Game *g) {
    search_free(g->search);
    g->search = NULL;
    if (g->v) board_free(&g->pos);
    variant_free(g->v);
    g->v = NULL;
    free(g->rules);
    g->rules = NULL;
}

/* Loads a rule file with its diagnostics on stderr; NULL on error. */
static Variant *load_rules(const char *path, const OptionSetting *opts, int nopts) {
    return load_file_reported(path, opts, nopts, stderr);
}

/* Takes ownership of v: the game now plays it, from its start position. */
static void game_set_variant(Game *g, Variant *v, const char *rules) {
    game_free_variant(g);
    g->v = v;
    g->rules = xstrdup(rules);
    g->hidden = variant_has_secrets(v);
    board_init(&g->pos, v);
    genctx_init(&g->gen);
    g->search = search_new(v, TT_MB);
}

/* A program of the rule file failed: say where. The game stays as it is, and the computer
 * seats wait (what they would search is not to be trusted). */
static void report_fault(Game *g, const VmFault *f) {
    printf("error: the rules fail here: %s:%d:%d: runtime fault: %s\n"
           "(the game stays as it is: %s'save' it, or fix the rule file)\n",
           f->file ? f->file : "?", f->line, f->col, f->msg, g->hidden && !g->over ? "" : "'undo', ");
    g->paused = true;
}

static void game_update_result(Game *g) {
    GameResult r;
    gameend_check(&g->gen, &g->pos, &r);
    if (r.fault.set) report_fault(g, &r.fault);
    g->over = r.over;
    gameend_sides(&g->pos, &r, &g->winner, &g->loser);
    snprintf(g->reason, sizeof g->reason, "%s", r.over && r.name ? r.name : r.over && r.reason ? r.reason : "");
}

/* A seed for a deal nobody asked to repeat: the time and the process. */
static uint64_t fresh_seed(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 20;
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ULL;
    return x ^ (x >> 29);
}

/* Back to the start position of the current game. */
static void game_restart(Game *g) {
    char err[200];
    if (!fen_read(&g->pos, g->start, err, sizeof err)) {
        /* cannot happen for a text we wrote; fall back to the rule file's setup */
        fen_read(&g->pos, g->v->setup, err, sizeof err);
        fen_write(&g->pos, g->start, sizeof g->start);
    }
    g->nmoves = g->nredo = 0;
    g->paused = false;
    game_update_result(g);
}

static void print_name(const Game *g, int player, char *buf, size_t cap) {
    snprintf(buf, cap, "%s", g->v->player_names[player]);
    buf[0] = (char)toupper((unsigned char)buf[0]);
}

/* ---- hidden information ---------------------------------------------------------------------- */

/* Whose view the screen shows in a game with secrets: the one human against the computer; in
 * hot seat the human whose screen it is now; nobody's (public facts) when no human plays. */
static int screen_owner(const Game *g) {
    if (!g->hidden) return -2; /* everything is public */
    int humans = 0, human = -1;
    for (int p = 0; p < g->v->nplayers; p++)
        if (g->seats[p] == SEAT_HUMAN) humans++, human = p;
    if (humans == 1) return human;
    return humans ? g->shown_to : -1;
}

/* A move whose details are its player's secret (a mine placed, a card stacked in a secret
 * order): others learn only that it was made. */
static bool secret_move(const Game *g, const Move *m) {
    if (!g->hidden) return false;
    if (m->flags & MOVE_TILE) return true;
    if (!(m->flags & MOVE_CARDS) || !m->nfx || m->fx[0].kind != FX_CARD) return false;
    for (int i = 0; i < g->v->ndraws; i++) {
        const CardRule *cr = &g->v->draws[i];
        if (cr->kind == m->kind && cr->own && !g->v->piles[cr->to].sorted) return true;
    }
    return false;
}

static void log_add(Game *g, const char *line) {
    size_t n = strlen(g->log);
    if (n + strlen(line) + 2 < sizeof g->log) snprintf(g->log + n, sizeof g->log - n, "%s\n", line);
}

/* A public fact: printed now and kept for the log shown at the next hand-over. */
static void log_public(Game *g, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void log_public(Game *g, const char *fmt, ...) {
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    printf("%s\n", line);
    log_add(g, line);
}

/* The move just played, as the other players may know it, for the log. */
static void log_move(Game *g, int mover, const Move *m) {
    char name[32], text[64], line[160];
    print_name(g, mover, name, sizeof name);
    notation_move(g->v, m, text, sizeof text);
    if (secret_move(g, m))
        snprintf(line, sizeof line, "%s: %s (secret)", name, g->v->kind_names[m->kind]);
    else
        snprintf(line, sizeof line, "%s: %s", name, text);
    log_add(g, line);
}

/* What the tiles the last move lifted tell: public facts to the log, what only the mover saw
 * to the mover's screen. */
static void report_tiles(Game *g, int mover) {
    const Variant *v = g->v;
    const Position *pos = &g->pos;
    if (!v->minefield_zone || !pos->ply) return;
    const Undo *u = &pos->history[pos->ply - 1];
    if (u->marked || !u->ntiles) return;
    char name[32], owner_name[32];
    print_name(g, mover, name, sizeof name);
    bool mine_screen = screen_owner(g) == mover;
    for (int j = 0; j < u->ntiles; j++) {
        uint8_t old = u->tile_old[j];
        Cell c = u->tile_cell[j];
        int owner = TILE_OWNER(old);
        print_name(g, owner, owner_name, sizeof owner_name);
        const char *what = (old & TILE_MINE) ? "a mine" : "blank";
        if (u->exploded == c) {
            log_public(g, "%s's piece on %s hit a %s MINE and was destroyed", name, v->cells[c].name, owner_name);
        } else if (owner != mover && !(pos->cell[c] && v->types[PIECE_TYPE(pos->cell[c])].mine_proof)) {
            log_public(g, "%s's tile on %s was turned up: %s", owner_name, v->cells[c].name, what);
        } else {
            log_public(g, "%s lifted %s's tile on %s", name, owner_name, v->cells[c].name);
            if (mine_screen) printf("(only you see this) %s: %s\n", v->cells[c].name, what);
        }
    }
}

/* Hot seat: clear the screen and hand it to `player`, after the public log of the turn. */
static char *read_line(Game *g, const char *prompt);
/* Returns what was typed at "press Enter" (a move typed ahead is not lost; the caller frees
 * it), NULL at the end of input. */
static char *hand_over(Game *g, int player) {
    char name[32], prompt[64];
    print_name(g, player, name, sizeof name);
    /* the screen, the terminal's scrollback and the line-editing history (what the other
     * seat typed, its mines among it) all go */
    if (g->tty_out)
        printf("\033[2J\033[3J\033[H");
    else
        printf("---- screen cleared ----\n");
#ifdef VARIA_READLINE
    clear_history();
#endif
    if (g->log[0]) printf("%s", g->log);
    g->log[0] = 0;
    snprintf(prompt, sizeof prompt, "%s, press Enter ", name);
    char *line = read_line(g, prompt);
    g->shown_to = player;
    return line;
}

/* ---- drawing --------------------------------------------------------------------------------- */

#define ESC_RESET "\033[0m"

typedef struct Text {
    char *s;
    size_t len, cap;
} Text;

static void text_add(Text *t, const char *s) {
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = xrealloc(t->s, t->cap);
    }
    memcpy(t->s + t->len, s, n + 1);
    t->len += n;
}

/* The file part of a cell name without a board prefix ("top:e4" -> "e"), and the rank part. */
static void cell_label(const char *name, char *file, char *rank, size_t cap) {
    const char *colon = strrchr(name, ':');
    if (colon) name = colon + 1;
    size_t n = strlen(name), k = n;
    while (k > 0 && isdigit((unsigned char)name[k - 1])) k--;
    snprintf(file, cap, "%.*s", (int)k, name);
    snprintf(rank, cap, "%s", name + k);
}

/* A player's pieces in the colour its name says (Red, Green, Silver...), else by seat. */
static const char *owner_fg(const Variant *v, int owner) {
    static const struct {
        const char *name, *fg;
    } named[] = {{"white", "\033[1;97m"}, {"silver", "\033[1;37m"},      {"black", "\033[1;30m"},
                 {"red", "\033[1;31m"},   {"green", "\033[1;32m"},       {"yellow", "\033[1;33m"},
                 {"gold", "\033[1;33m"},  {"blue", "\033[1;34m"},        {"purple", "\033[1;35m"},
                 {"cyan", "\033[1;36m"},  {"orange", "\033[1;38;5;208m"}};
    for (size_t i = 0; i < ARRAY_LEN(named); i++)
        if (!strcasecmp(v->player_names[owner], named[i].name)) return named[i].fg;
    static const char *const fg[] = {"\033[1;97m", "\033[1;30m", "\033[1;31m", "\033[1;34m",
                                     "\033[1;32m", "\033[1;35m", "\033[1;36m", "\033[1;33m"};
    return fg[owner & 7];
}

/* Does another type show the same glyph for this owner (Ultima's Coordinator and Immobilizer,
 * both a rook's)? Then the board adds the letter to tell them apart, as the pictures do. */
static bool glyph_shared(const Variant *v, int type, int owner) {
    const char *mine = v->types[type].symbol[owner];
    for (int t = 0; t < v->ntypes; t++)
        if (t != type && !strcmp(v->types[t].symbol[owner], mine)) return true;
    return false;
}

/* Columns a UTF-8 text takes (one per character: the glyphs are one column wide). */
static int text_columns(const char *s) {
    int n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* One cell as 3 columns: a piece glyph or letter, '.' when empty, brackets (no colour) or a
 * highlight (colour) for the last move. */
static void draw_cell(const Game *g, Cell c, Text *t) {
    const Variant *v = g->v;
    Piece p = g->pos.cell[c];
    bool last = c == g->pos.last_from || c == g->pos.last_to;
    char glyph[16];
    int owner = p ? PIECE_OWNER(p) : 0;
    if (!p && g->pos.tiles[c]) {
        /* a tile: the screen's owner sees its own (* a mine, o blank); others' are face down */
        int viewer = screen_owner(g);
        ViewTile vt = viewer >= 0 ? view_tile(&g->pos, viewer, c) : VIEW_UNKNOWN;
        snprintf(glyph, sizeof glyph, "%s", vt == VIEW_OWN_MINE ? "*" : vt == VIEW_OWN_BLANK ? "o" : "?");
    } else if (!p)
        snprintf(glyph, sizeof glyph, "%s", g->colour ? " " : ".");
    else {
        const PieceType *pt = &v->types[PIECE_TYPE(p)];
        if (v->nowners > v->nplayers) {
            /* with armies that are not players, every piece says whose it is, with its letter as
             * the rulebook and the position text write it: "wK", "AI" */
            snprintf(glyph, sizeof glyph, "%c%c", v->player_token[owner][0], pt->letter);
        } else if (g->utf8 && pt->symbol[owner][0] && (owner < 2 || g->colour)) {
            snprintf(glyph, sizeof glyph, "%s", pt->symbol[owner]);
            if (glyph_shared(v, PIECE_TYPE(p), owner) && text_columns(glyph) == 1)
                snprintf(glyph + strlen(glyph), sizeof glyph - strlen(glyph), "%c",
                         owner ? (char)tolower((unsigned char)pt->letter) : pt->letter);
        } else if (pt->promoted && owner < 2) /* "+P", as in position text */
            snprintf(glyph, sizeof glyph, "+%c", owner ? (char)tolower((unsigned char)pt->letter) : pt->letter);
        else if (owner == 0)
            snprintf(glyph, sizeof glyph, "%c", pt->letter);
        else if (owner == 1)
            snprintf(glyph, sizeof glyph, "%c", (char)tolower((unsigned char)pt->letter));
        else
            snprintf(glyph, sizeof glyph, "%c%d", pt->letter, owner + 1); /* as in position text */
    }
    char cell[64];
    if (g->colour) {
        static const char *const bg[2][2] = {{"\033[48;5;137m", "\033[48;5;180m"},
                                             {"\033[48;5;101m", "\033[48;5;143m"}};
        const char *fg = p ? owner_fg(v, owner) : "";
        bool two = p && text_columns(glyph) == 2; /* letter + player digit, glyph + letter */
        snprintf(cell, sizeof cell, "%s%s %s%s" ESC_RESET, bg[last][v->colour[c] ? 1 : 0], fg, glyph, two ? "" : " ");
    } else {
        bool two = text_columns(glyph) == 2;
        snprintf(cell, sizeof cell, "%c%s%s", last ? '[' : ' ', glyph, two ? "" : last ? "]" : " ");
    }
    text_add(t, cell);
}

/* A cell's name without its board's ("top:x1" -> "x1"). */
static const char *bare_name(const Variant *v, Cell c) {
    const char *colon = strchr(v->cells[c].name, ':');
    return colon ? colon + 1 : v->cells[c].name;
}

/* The visible width of board b's row of holding cells `row`: a space, the name and the cell's 3
 * columns for each, after 2 columns of margin. */
static int holding_row_width(const Variant *v, int b, int row) {
    const Board *bd = &v->boards[b];
    int cols = 2;
    for (int c = bd->holding_first; c < bd->holding_first + bd->nholding; c++)
        if (v->cells[c].y == row) cols += 1 + (int)strlen(bare_name(v, (Cell)c)) + 3;
    return cols;
}

/* The holding cells of board b under its picture, a line per row: each cell's name and what
 * stands on it ("x1 X  x2 .  x3 ."), into lines[li...]; *width grows to the widest row and
 * every row is padded to it. Returns how many lines were added. */
static int draw_holding(const Game *g, int b, char **lines, int li, int *width) {
    const Variant *v = g->v;
    const Board *bd = &v->boards[b];
    for (int row = 0; row < bd->holding_rows; row++)
        if (holding_row_width(v, b, row) > *width) *width = holding_row_width(v, b, row);
    for (int row = 0; row < bd->holding_rows; row++) {
        Text t = {0};
        text_add(&t, "  ");
        for (int c = bd->holding_first; c < bd->holding_first + bd->nholding; c++) {
            if (v->cells[c].y != row) continue;
            text_add(&t, " ");
            text_add(&t, bare_name(v, (Cell)c));
            draw_cell(g, (Cell)c, &t);
        }
        for (int k = holding_row_width(v, b, row); k < *width; k++) text_add(&t, " ");
        lines[li + row] = t.s;
    }
    return bd->holding_rows;
}

/* Pads lines[0..n) of visible width `from` with spaces to `to` columns. */
static void pad_lines(char **lines, int n, int from, int to) {
    for (int i = 0; i < n && to > from; i++) {
        size_t len = strlen(lines[i]);
        lines[i] = xrealloc(lines[i], len + (size_t)(to - from) + 1);
        memset(lines[i] + len, ' ', (size_t)(to - from));
        lines[i][len + (size_t)(to - from)] = 0;
    }
}

/* The file labels of a hexagonal board, under (or over) the cells of rank y. */
static char *hex_files(const Game *g, int b, int y) {
    const Variant *v = g->v;
    const Board *bd = &v->boards[b];
    int width = 3 + art_text_width(v, b) + 3, at = 0;
    char *s = xmalloc((size_t)width + 1);
    memset(s, ' ', (size_t)width);
    s[width] = 0;
    for (int x = 0; x < bd->width; x++) {
        Cell c = NO_CELL;
        for (int k = 0; k < bd->height && c == NO_CELL; k++) c = bd->at[k][x];
        char file[24], rank[24];
        if (c == NO_CELL) continue;
        cell_label(v->cells[c].name, file, rank, sizeof file);
        at = 3 + art_text_column(v, b, x, y, g->flip) + 1;
        for (int i = 0; file[i] && at + i < width; i++) s[at + i] = file[i];
    }
    return s;
}

/* A hexagonal board as lines of equal visible width: each rank half a cell to the right of the
 * one below, so that a cell touches the two above it and the two below. */
static int draw_hex_board(const Game *g, int b, char ***lines_out, int *width_out) {
    const Variant *v = g->v;
    const Board *bd = &v->boards[b];
    int nl = bd->height + 2 + bd->holding_rows, li = 0, width = 3 + art_text_width(v, b) + 3;
    char **lines = xcalloc((size_t)nl, sizeof *lines);
    int top = g->flip ? 0 : bd->height - 1;
    lines[li++] = hex_files(g, b, top);
    for (int r = 0; r < bd->height; r++) {
        int y = g->flip ? r : bd->height - 1 - r;
        char file[24], rank[24] = "", buf[64];
        for (int x = 0; x < bd->width && !rank[0]; x++)
            if (bd->at[y][x] != NO_CELL) cell_label(v->cells[bd->at[y][x]].name, file, rank, sizeof file);
        Text t = {0};
        /* the rank's label just before its first cell */
        int first = art_text_column(v, b, g->flip ? bd->width - 1 : 0, y, g->flip), at = 0;
        for (; at < first; at++) text_add(&t, " ");
        snprintf(buf, sizeof buf, "%2.2s ", rank);
        text_add(&t, buf);
        for (int i = 0; i < bd->width; i++) {
            int x = g->flip ? bd->width - 1 - i : i;
            for (int col = art_text_column(v, b, x, y, g->flip); at < col; at++) text_add(&t, " ");
            Cell c = bd->at[y][x];
            if (c == NO_CELL)
                text_add(&t, "   ");
            else
                draw_cell(g, c, &t);
            text_add(&t, " ");
            at += 4;
        }
        snprintf(buf, sizeof buf, "%-2.2s", rank);
        text_add(&t, buf);
        for (at += 2; at < width - 3; at++) text_add(&t, " ");
        lines[li++] = t.s;
    }
    lines[li++] = hex_files(g, b, g->flip ? bd->height - 1 : 0);
    int board_width = width;
    li += draw_holding(g, b, lines, li, &width);
    pad_lines(lines, bd->height + 2, board_width, width);
    *lines_out = lines;
    *width_out = width;
    return li;
}

/* One board as lines of equal visible width (3 columns per cell plus labels). */
static int draw_board(const Game *g, int b, char ***lines_out, int *width_out) {
    const Variant *v = g->v;
    const Board *bd = &v->boards[b];
    if (bd->shape == BOARD_HEX && v->nboards == 1) return draw_hex_board(g, b, lines_out, width_out);
    int nl = bd->height + 2 + (v->nboards > 1) + bd->holding_rows;
    char **lines = xcalloc((size_t)nl, sizeof *lines);
    int li = 0;
    int width = 3 + 3 * bd->width + 3;
    char buf[64], file[24], rank[24];
    if (v->nboards > 1) {
        char title[48];
        /* indented past the rank labels; the name is what moves are written with */
        if (bd->title[0])
            snprintf(title, sizeof title, "   %s (%s)", bd->title, bd->name);
        else
            snprintf(title, sizeof title, "%s", bd->name);
        snprintf(buf, sizeof buf, "%-*.*s", width, width, title);
        lines[li++] = xstrdup(buf);
    }
    /* file labels: from any cell of the column */
    Text files = {0};
    text_add(&files, "   ");
    for (int i = 0; i < bd->width; i++) {
        int x = g->flip ? bd->width - 1 - i : i;
        file[0] = 0;
        for (int y = 0; y < bd->height && !file[0]; y++)
            if (bd->at[y][x] != NO_CELL) cell_label(v->cells[bd->at[y][x]].name, file, rank, sizeof file);
        snprintf(buf, sizeof buf, " %-2.2s", file);
        text_add(&files, buf);
    }
    text_add(&files, "   ");
    lines[li++] = xstrdup(files.s);
    for (int r = 0; r < bd->height; r++) {
        int y = g->flip ? r : bd->height - 1 - r;
        rank[0] = 0;
        for (int x = 0; x < bd->width && !rank[0]; x++)
            if (bd->at[y][x] != NO_CELL) cell_label(v->cells[bd->at[y][x]].name, file, rank, sizeof file);
        Text t = {0};
        snprintf(buf, sizeof buf, "%2.2s ", rank);
        text_add(&t, buf);
        for (int i = 0; i < bd->width; i++) {
            int x = g->flip ? bd->width - 1 - i : i;
            Cell c = bd->at[y][x];
            if (c == NO_CELL)
                text_add(&t, bd->graph ? art_hole(v, b, x, y, !g->utf8) : "   "); /* a hole, or a link over it */
            else
                draw_cell(g, c, &t);
        }
        snprintf(buf, sizeof buf, " %-2.2s", rank);
        text_add(&t, buf);
        lines[li++] = t.s;
    }
    lines[li++] = files.s;
    int board_lines = li, board_width = width;
    li += draw_holding(g, b, lines, li, &width);
    pad_lines(lines, board_lines, board_width, width);
    *lines_out = lines;
    *width_out = width;
    return li;
}

/* Is passing the only legal move of the player to move? */
static bool only_pass(Game *g) {
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    movegen_legal(&g->gen, &g->pos, ml, &f);
    bool only = !f.set && ml->count == 1 && (ml->moves[0].flags & MOVE_PASS);
    free(ml);
    return only;
}

/* Whose turn, check, and off-board state under the boards. */
static void draw_status(Game *g) {
    const Variant *v = g->v;
    Position *pos = &g->pos;
    char name[32];
    /* the rule file's counters, by name (per-player ones for each player) */
    for (int i = 0; i < g->v->ncounters; i++) {
        const CounterDef *c = &g->v->counters[i];
        printf("%s:", c->name);
        if (!c->per_player) printf(" %d", (int)pos->counters[c->slot]);
        for (int p = 0; c->per_player && p < g->v->nplayers; p++)
            printf(" %s %d%s", g->v->player_names[p], (int)pos->counters[c->slot + p],
                   p + 1 < g->v->nplayers ? "," : "");
        printf("\n");
    }
    for (int i = 0; i < g->v->npiles; i++) {
        /* piles: cards bottom first (a stack's top is its last card) */
        const PileDef *pd = &g->v->piles[i];
        printf("%s:", pd->name);
        for (int k = 0; k < (pd->per_player ? g->v->nplayers : 1); k++) {
            int slot = pd->slot + k;
            if (pd->per_player) printf("%s %s", k ? "," : "", g->v->player_names[k]);
            if (!pos->pile_len[slot]) printf(" -");
            int viewer = screen_owner(g);
            /* (with no one's screen, as between seats, every secret stays hidden) */
            if (viewer == -1) viewer = v->nplayers;
            for (int c = 0; c < pos->pile_len[slot]; c++) {
                int card = view_card(pos, viewer == -2 ? -1 : viewer, i, k, c);
                if (card < 0)
                    printf(" ?");
                else
                    printf(" %d", card);
            }
        }
        printf("\n");
    }
    if (pos->debt) printf("owed: %d (pay with pay:CARD+CARD>PLAYER)\n", pos->debt);
    if (g->nmoves > 0 && !(g->moves[g->nmoves - 1].flags & MOVE_ELIMINATION)) {
        /* the last move in algebraic notation needs the position before it */
        const Move *m = &g->moves[g->nmoves - 1];
        char san[64], coord[64];
        board_unmake(pos);
        MoveList *ml = xmalloc(sizeof *ml);
        VmFault f = {0};
        movegen_legal(&g->gen, pos, ml, &f);
        notation_san(&g->gen, pos, ml, m, san, sizeof san);
        free(ml);
        int mover = board_mover(pos);
        board_make(pos, m);
        notation_move(v, m, coord, sizeof coord);
        if (secret_move(g, m) && screen_owner(g) != mover)
            printf("last move: %s (secret)\n", v->kind_names[m->kind]);
        else if (!strcmp(san, coord))
            printf("last move: %s\n", coord);
        else
            printf("last move: %s (%s)\n", san, coord);
    }
    if (v->has_allegiance) {
        /* who helps which army */
        for (int p = 0; p < v->nplayers; p++) {
            print_name(g, p, name, sizeof name);
            int army = pos->allegiance[p];
            char army_name[32] = "nobody";
            if (army != NO_OWNER) print_name(g, army, army_name, sizeof army_name);
            printf("%s%s helps %s", p ? ", " : "", name, army_name);
        }
        printf("\n");
    }
    if (g->over) return;
    int mover = board_mover(pos);
    print_name(g, mover, name, sizeof name);
    char phase[64] = "";
    if (pos->prelude < v->nprelude)
        snprintf(phase, sizeof phase, ", set-up: %s (%d of %d)", v->kind_names[v->prelude[pos->prelude].kind],
                 pos->prelude_moves + 1, v->prelude[pos->prelude].moves);
    else if (v->nphases)
        snprintf(phase, sizeof phase, ", phase %s", v->phases[pos->phase].name);
    printf("move %d: %s to play (%s)%s%s\n", pos->fullmove, name, ui_seat_name(g->seats[mover]), phase,
           v->has_royal && !movegen_safe_after(&g->gen, pos, mover) ? " - check!" : "");
    if (pos->count_limit)
        printf("%s: %d of %d plies counted\n", gameend_count_name(pos), pos->count_ply, pos->count_limit);
    /* when a turn can only end, say so and what to type (a phase that "may be skipped" is
     * skipped by the pass) */
    if (g->seats[mover] == SEAT_HUMAN && only_pass(g)) {
        printf("your only move is 'pass', which ends your turn: type pass\n");
        return;
    }
    char step[512];
    describe_step(pos, step, sizeof step);
    if (step[0]) printf("%s; 'moves' lists them\n", step);
}

/* A player's hand beside the board: "white's hand: Q 2P" (letters as in position text, a
 * count before a type held more than once), "-" when empty. */
static void print_hand(const Game *g, int player) {
    const Variant *v = g->v;
    char name[32];
    print_name(g, player, name, sizeof name);
    printf("   %s's hand:", name);
    bool any = false;
    for (int t = 0; t < v->ntypes; t++) {
        int n = g->pos.hand[player][t];
        if (!n) continue;
        char letter = player ? (char)tolower((unsigned char)v->types[t].letter) : v->types[t].letter;
        if (n > 1)
            printf(" %d%c", n, letter);
        else
            printf(" %c", letter);
        any = true;
    }
    if (!any) printf(" -");
}

static void draw(Game *g) {
    const Variant *v = g->v;
    char **lines[MAX_BOARDS];
    int n[MAX_BOARDS], w[MAX_BOARDS], rows = 0;
    for (int b = 0; b < v->nboards; b++) {
        n[b] = draw_board(g, b, &lines[b], &w[b]);
        if (n[b] > rows) rows = n[b];
    }
    printf("\n");
    for (int r = 0; r < rows; r++) {
        for (int b = 0; b < v->nboards; b++) {
            if (b) printf("   ");
            if (r < n[b])
                printf("%s", lines[b][r]);
            else if (b + 1 < v->nboards)
                printf("%*s", w[b], "");
        }
        /* the hands beside the board: the top player's by the top rank, the other's below */
        if (v->has_hands && (r == 1 || r == rows - 2)) print_hand(g, (r == 1) != g->flip ? 1 : 0);
        printf("\n");
    }
    for (int b = 0; b < v->nboards; b++) {
        for (int r = 0; r < n[b]; r++) free(lines[b][r]);
        free(lines[b]);
    }
    draw_status(g);
}

/* ---- results --------------------------------------------------------------------------------- */

static void result_words(const Game *g, char *winner, size_t cap) {
    if (g->winner >= 0)
        snprintf(winner, cap, "%s", g->v->player_names[g->winner]);
    else if (g->loser >= 0)
        snprintf(winner, cap, "none");
    else
        snprintf(winner, cap, "draw");
}

static void announce_result(const Game *g) {
    char name[32], score[16] = "";
    if (g->v->nplayers == 2 && g->winner >= 0)
        snprintf(score, sizeof score, " %s", g->winner == 0 ? "1-0" : "0-1");
    else if (g->v->nplayers == 2)
        snprintf(score, sizeof score, " 1/2-1/2");
    if (g->winner >= 0) {
        print_name(g, g->winner, name, sizeof name);
        printf("game over: %s wins by %s.%s\n", name, g->reason, score);
    } else if (g->loser >= 0) {
        print_name(g, g->loser, name, sizeof name);
        printf("game over: %s loses by %s.\n", name, g->reason);
    } else {
        printf("game over: draw by %s.%s\n", g->reason, score);
    }
}

/* ---- the computer ---------------------------------------------------------------------------- */

static void on_sigint(int sig) {
    (void)sig;
    search_interrupt = 1;
}

typedef struct ThinkCtx {
    Game *g;
} ThinkCtx;

static void show_info(const SearchInfo *info, void *user) {
    ThinkCtx *ctx = user;
    Game *g = ctx->g;
    if (!g->tty_out) return;
    char score[32], buf[64];
    search_format_score(info->score, g->v->nplayers, score, sizeof score);
    double nps = info->seconds > 0 ? (double)info->nodes / info->seconds : 0;
    printf("\r\033[Kdepth %d  score %s  nodes %llu  %.0fk nodes/s  pv", info->depth, score,
           (unsigned long long)info->nodes, nps / 1000);
    for (int i = 0; i < info->pvlen && i < 8; i++) {
        notation_move(g->v, &info->pv[i], buf, sizeof buf);
        printf(" %s", buf);
    }
    fflush(stdout);
}

/* Runs the engine of `kind` for the player to move. Returns false when it found no move or was
 * interrupted (then *m is not set). */
static bool think(Game *g, int kind, Move *m, int *score_out) {
    Position *pos = &g->pos;
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    movegen_legal(&g->gen, pos, ml, &f);
    bool ok = ml->count > 0;
    if (ok && kind == SEAT_RANDOM)
        *m = ml->moves[search_pick_random(ml, &g->rng)];
    else if (ok && kind == SEAT_GREEDY)
        *m = ml->moves[search_pick_greedy(search_eval(g->search), pos, ml, &g->rng)];
    free(ml);
    if (!ok || kind == SEAT_RANDOM || kind == SEAT_GREEDY) {
        if (score_out) *score_out = 0;
        return ok;
    }
    SearchLimits lim = {.depth = g->depth, .seconds = g->seconds, .seed = g->seed};
    if (!lim.depth && lim.seconds <= 0) lim.seconds = 1;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    search_interrupt = 0;
    sigaction(SIGINT, &sa, &old);
    ThinkCtx ctx = {g};
    SearchResult res;
    /* with hidden information the computer searches positions sampled from what it may know */
    if (variant_has_secrets(g->v))
        ok = search_run_hidden(g->search, pos, UI_SAMPLES, g->seed + (uint64_t)pos->ply, &lim, &res);
    else
        ok = search_run(g->search, pos, &lim, &res, show_info, &ctx);
    sigaction(SIGINT, &old, NULL);
    if (g->tty_out) printf("\r\033[K");
    if (search_interrupt) {
        search_interrupt = 0;
        printf("interrupted: the game is paused; type 'ai' to let the computer move, or play a move\n");
        g->paused = true;
        return false;
    }
    if (ok) *m = res.best;
    if (score_out) *score_out = res.info.score;
    if (ok && !g->tty_out) {
        /* scripted sessions: a deterministic summary (no times) */
        char score[32];
        search_format_score(res.info.score, g->v->nplayers, score, sizeof score);
        printf("(depth %d, score %s, nodes %llu)\n", res.info.depth, score, (unsigned long long)res.info.nodes);
    }
    return ok;
}

static void announce_defeat(const GameResult *d, void *user) {
    const Game *g = user;
    char loser[32], victor[32];
    print_name(g, d->eliminated, loser, sizeof loser);
    if (d->victor >= 0) {
        print_name(g, d->victor, victor, sizeof victor);
        printf("%s loses by %s (to %s); the others play on\n", loser, d->reason, victor);
    } else {
        printf("%s loses by %s; the others play on\n", loser, d->reason);
    }
}

/* Plays m (legal) and reports the end of the game. */
static void play_move(Game *g, const Move *m) {
    int mover = board_mover(&g->pos);
    if (g->nmoves >= MAX_HISTORY || !board_make(&g->pos, m)) {
        /* no room for another move: the game ends there, drawn (and can still be saved) */
        printf("the game is too long (limit is %d plies)\n", MAX_HISTORY);
        g->over = true;
        g->winner = g->loser = -1;
        snprintf(g->reason, sizeof g->reason, "the length limit");
        announce_result(g);
        return;
    }
    if (g->hidden) log_move(g, mover, m);
    report_tiles(g, mover);
    g->moves[g->nmoves++] = *m;
    g->nredo = 0;
    /* with more than two players a defeat does not end the game: the game plays it as a move
     * of its own (kept in the move list, so undo takes it back too) */
    Move defeats[MAX_PLAYERS];
    GameResult r;
    int nd = gameend_settle(&g->gen, &g->pos, &r, defeats, MAX_PLAYERS, announce_defeat, g);
    for (int i = 0; i < nd && i < MAX_PLAYERS && g->nmoves < MAX_HISTORY; i++) g->moves[g->nmoves++] = defeats[i];
    game_update_result(g);
    if (g->compact)
        draw_status(g);
    else
        draw(g);
    if (g->over) announce_result(g);
}

/* The algebraic and coordinate text of m, a legal move of the game's position (64 bytes each). */
static void move_texts(Game *g, const Move *m, char *san, char *coord) {
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    movegen_legal(&g->gen, &g->pos, ml, &f);
    notation_san(&g->gen, &g->pos, ml, m, san, 64);
    free(ml);
    notation_move(g->v, m, coord, 64);
}

static void computer_move(Game *g, int kind) {
    Move m;
    char name[32], san[64], coord[64];
    print_name(g, board_mover(&g->pos), name, sizeof name);
    if (!think(g, kind, &m, NULL)) return;
    move_texts(g, &m, san, coord);
    if (secret_move(g, &m) && screen_owner(g) != board_mover(&g->pos))
        printf("%s (%s) plays %s (secret)\n", name, ui_seat_name(kind), g->v->kind_names[m.kind]);
    else if (!strcmp(san, coord))
        printf("%s (%s) plays %s\n", name, ui_seat_name(kind), coord);
    else
        printf("%s (%s) plays %s (%s)\n", name, ui_seat_name(kind), san, coord);
    play_move(g, &m);
}

/* ---- commands -------------------------------------------------------------------------------- */

static void list_moves(Game *g, const char *square) {
    const Variant *v = g->v;
    if (g->over) {
        printf("the game is over (%s): no moves\n", g->reason);
        return;
    }
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    movegen_legal(&g->gen, &g->pos, ml, &f);
    if (f.set) {
        report_fault(g, &f);
        free(ml);
        return;
    }
    int from = -1;
    if (square) {
        from = variant_cell_by_name(v, square);
        if (from < 0) {
            printf("unknown cell '%s'\n", square);
            free(ml);
            return;
        }
    }
    int shown = 0;
    char san[64], coord[64];
    for (int i = 0; i < ml->count; i++) {
        if (from >= 0 && ml->moves[i].from != from) continue;
        notation_san(&g->gen, &g->pos, ml, &ml->moves[i], san, sizeof san);
        notation_move(v, &ml->moves[i], coord, sizeof coord);
        if (!strcmp(san, coord))
            printf("%s%s", shown % 6 ? "  " : shown ? "\n" : "", coord);
        else
            printf("%s%s (%s)", shown % 6 ? "  " : shown ? "\n" : "", san, coord);
        shown++;
    }
    if (shown)
        printf("\n");
    else if (square)
        printf("no legal move from %s\n", square);
    else
        printf("no legal moves\n");
    printf("%d move%s\n", shown, shown == 1 ? "" : "s");
    free(ml);
}

/* text names a move the piece can make but the rules forbid here: says why. */
static bool explain_pseudo_legal(Game *g, const char *text) {
    const Variant *v = g->v;
    Position *pos = &g->pos;
    MoveList *ps = xmalloc(sizeof *ps);
    VmFault f = {0};
    movegen_pseudo(&g->gen, pos, ps, &f);
    int found[1];
    int mover = board_mover(pos);
    bool named = notation_parse(pos, ps, text, found, 1) > 0;
    if (named) {
        const char *what = "a royal piece";
        for (int t = 0; t < v->ntypes; t++)
            if (v->types[t].royal) what = v->types[t].name;
        const Move *m = &ps->moves[found[0]];
        Piece victim = (m->flags & MOVE_CAPTURE) ? pos->cell[m->to] : 0;
        if (movegen_is_legal(&g->gen, pos, m))
            printf("illegal move '%s': not allowed by the rules here (a capture may be required)\n", text);
        else if (victim && variant_royal(v, PIECE_OWNER(victim), PIECE_TYPE(victim)) &&
                 board_answers_for(pos, mover, PIECE_OWNER(victim)))
            printf("illegal move '%s': it would take your own %s\n", text, v->types[PIECE_TYPE(victim)].name);
        else
            printf("illegal move '%s': it would leave your %s in check\n", text, what);
    }
    free(ps);
    return named;
}

/* "BOARD from-to" on several boards: what is wrong with the origin (a piece of a steered army
 * needs influence), the copy, or the destination. False when text is no such move. */
static bool explain_board_move(Game *g, const char *text, const MoveList *legal) {
    const Variant *v = g->v;
    Position *pos = &g->pos;
    int mover = board_mover(pos);
    char board[16], from[16];
    if (v->nboards > 1 && sscanf(text, "%15s %15s", board, from) == 2) {
        for (int b = 0; b < v->nboards; b++)
            if (!strcasecmp(board, v->boards[b].name)) snprintf(board, sizeof board, "%s", v->boards[b].name);
        /* the origin is the longest cell name the move starts with ("d3" in "d3d7+") */
        char name[40];
        int c = -1;
        for (size_t n = strlen(from); n > 0 && c < 0; n--) {
            snprintf(name, sizeof name, "%s:%.*s", board, (int)n, from);
            c = variant_cell_by_name(v, name);
        }
        Piece p = c >= 0 ? pos->cell[c] : 0;
        if (p && ((v->steered >> PIECE_OWNER(p)) & 1) && !mobility_may_steer(pos, mover, (Cell)c)) {
            printf("illegal move '%s': you have no influence over the %s on %s (none of your pieces on its square, or "
                   "a stronger one of the other player)\n",
                   text, v->types[PIECE_TYPE(p)].name, name);
            return true;
        }
        if (c >= 0 && (!p || (pos->controller[PIECE_OWNER(p)] != mover && !((v->steered >> PIECE_OWNER(p)) & 1)))) {
            printf("illegal move '%s': no piece of yours on %s\n", text, name);
            return true;
        }
        /* "M d3-d7 +" where the move is legal but its copy is not */
        size_t len = strlen(text);
        if (p && v->steer_copy && len > 1 && text[len - 1] == '+') {
            char plain[64];
            snprintf(plain, sizeof plain, "%.*s", (int)(len - 1), text);
            int one[1];
            if (notation_parse(pos, legal, plain, one, 1) == 1) {
                Cell by = mobility_influencer(pos, mover, (Cell)c);
                notation_move(v, &legal->moves[one[0]], plain, sizeof plain);
                if (by == NO_CELL)
                    printf("illegal move '%s': no piece of yours can copy it; '%s' plays it without a copy\n", text,
                           plain);
                else
                    printf("illegal move '%s': your %s on %s cannot copy it (a cell on its way or its destination is "
                           "taken, or it leaves the board); '%s' plays it without the copy\n",
                           text, v->types[PIECE_TYPE(pos->cell[by])].name, v->cells[by].name, plain);
                return true;
            }
        }
        if (p) {
            char coord[64];
            int k = 0;
            printf("illegal move '%s': the %s on %s", text, v->types[PIECE_TYPE(p)].name, name);
            for (int i = 0; i < legal->count; i++)
                if (legal->moves[i].from == c) {
                    notation_move(v, &legal->moves[i], coord, sizeof coord);
                    printf("%s %s", k++ ? "," : " can play only", coord);
                }
            printf("%s\n", k ? "" : " has no legal move");
            return true;
        }
    }
    return false;
}

/* Coordinate-looking input: what is wrong with the origin. False when text starts with no
 * cell's name. */
static bool explain_origin(Game *g, const char *text, const MoveList *legal) {
    const Variant *v = g->v;
    Position *pos = &g->pos;
    int mover = board_mover(pos);
    for (int c = 0; c < v->ncells; c++) {
        size_t n = strlen(v->cells[c].name);
        if (strncmp(text, v->cells[c].name, n) != 0 || !text[n] || variant_cell_by_name(v, text) >= 0) continue;
        /* the longest cell name that prefixes text wins ("a1" vs "a10") */
        bool longer = false;
        for (int d = 0; d < v->ncells; d++) {
            size_t m = strlen(v->cells[d].name);
            if (m > n && !strncmp(text, v->cells[d].name, m)) longer = true;
        }
        if (longer) continue;
        Piece p = pos->cell[c];
        if (!p || PIECE_OWNER(p) != mover) {
            printf("illegal move '%s': no piece of yours on %s\n", text, v->cells[c].name);
            return true;
        }
        char san[64];
        int k = 0;
        printf("illegal move '%s': the %s on %s", text, v->types[PIECE_TYPE(p)].name, v->cells[c].name);
        for (int i = 0; i < legal->count; i++)
            if (legal->moves[i].from == c) {
                notation_san(&g->gen, pos, legal, &legal->moves[i], san, sizeof san);
                printf("%s %s", k++ ? "," : " can play only", san);
            }
        printf("%s\n", k ? "" : " has no legal move");
        return true;
    }
    return false;
}

/* The type of the piece a legal move moves (a drop: none). */
static int moved_type(const Position *pos, const Move *m) {
    if (m->nfx && m->fx[0].kind == FX_PLACE) return -1;
    return pos->cell[m->from] ? PIECE_TYPE(pos->cell[m->from]) : -1;
}

/* Algebraic-looking input on one board ("Ke2", "Nbd2", "exd5", "e5"): which piece cannot get
 * there, and what it can do. False when text does not read as algebraic notation. */
static bool explain_algebraic(Game *g, const char *text, const MoveList *legal) {
    const Variant *v = g->v;
    Position *pos = &g->pos;
    if (v->nboards > 1 || strchr(text, ':') || strchr(text, '@')) return false;
    char t[64];
    snprintf(t, sizeof t, "%s", text);
    size_t n = strlen(t);
    while (n > 0 && strchr("+#!?", t[n - 1])) t[--n] = 0;
    if (n > 2 && t[n - 2] == '=') t[n -= 2] = 0; /* the promotion says nothing about reaching */
    int to = -1;
    size_t at = 0;
    for (size_t k = 0; k < n && to < 0; k++)
        if ((to = variant_cell_by_name(v, t + k)) >= 0) at = k;
    if (to < 0) return false;
    int type = -1;
    size_t lead = 0;
    if (at > 0 && isupper((unsigned char)t[0])) {
        for (int i = 0; i < v->ntypes; i++)
            if (v->types[i].letter == t[0]) type = i;
        if (type < 0) {
            printf("illegal move '%s': no piece has the letter %c\n", text, t[0]);
            return true;
        }
        lead = 1;
    } else {
        for (int i = 0; i < v->ntypes; i++)
            if (v->types[i].letter == 'P') type = i;
        if (type < 0) return false;
    }
    /* between the letter and the destination only an origin hint and 'x' */
    char hint[24];
    size_t hl = at - lead;
    if (hl && t[at - 1] == 'x') hl--;
    if (hl >= sizeof hint) return false;
    snprintf(hint, sizeof hint, "%.*s", (int)hl, t + lead);
    bool digits = hl > 0, letters = hl > 0;
    for (size_t k = 0; k < hl; k++) {
        digits = digits && isdigit((unsigned char)hint[k]);
        letters = letters && islower((unsigned char)hint[k]);
    }
    if (hl && !digits && !(letters && hl <= 2) && variant_cell_by_name(v, hint) < 0) return false;
    const char *name = v->types[type].name;
    int mover = board_mover(pos), own = 0;
    Cell only = NO_CELL;
    for (int c = 0; c < v->ncells; c++) {
        Piece p = pos->cell[c];
        if (p && PIECE_OWNER(p) == mover && PIECE_TYPE(p) == type) own++, only = (Cell)c;
    }
    if (!own) {
        printf("illegal move '%s': you have no %s\n", text, name);
        return true;
    }
    char san[64];
    int k = 0;
    for (int i = 0; i < legal->count; i++)
        if (legal->moves[i].to == to && moved_type(pos, &legal->moves[i]) == type) {
            notation_san(&g->gen, pos, legal, &legal->moves[i], san, sizeof san);
            if (!k++) printf("illegal move '%s': the %s that can reach %s is written", text, name, v->cells[to].name);
            printf("%s %s", k > 1 ? " or" : "", san);
        }
    if (k) {
        printf("\n");
        return true;
    }
    if (own > 1) {
        printf("illegal move '%s': no %s of yours can reach %s\n", text, name, v->cells[to].name);
        return true;
    }
    printf("illegal move '%s': the %s on %s cannot reach %s", text, name, v->cells[only].name, v->cells[to].name);
    for (int i = 0; i < legal->count; i++)
        if (legal->moves[i].from == only && moved_type(pos, &legal->moves[i]) == type) {
            notation_san(&g->gen, pos, legal, &legal->moves[i], san, sizeof san);
            printf("%s %s", k++ ? "," : "; it can play only", san);
        }
    printf("%s\n", k ? "" : "; it has no legal move");
    return true;
}

/* In a set-up step or a phase of a turn: the kinds of move it allows now and the moves, when
 * text is of another kind (a piece moved before the card is drawn) or, in a set-up step, not
 * one it offers now (steps whose moves come in an order). False otherwise. */
static bool explain_step(Game *g, const char *text, const MoveList *legal) {
    const Variant *v = g->v;
    const Position *pos = &g->pos;
    bool setup = pos->prelude < v->nprelude;
    if ((!setup && !v->nphases) || !legal->count) return false;
    uint32_t kinds = 0;
    for (int i = 0; i < legal->count; i++) kinds |= 1u << legal->moves[i].kind;
    int kind = 0;
    const char *colon = strchr(text, ':');
    for (int k = 1; colon && k < v->nkinds; k++)
        if (strlen(v->kind_names[k]) == (size_t)(colon - text) &&
            !strncmp(text, v->kind_names[k], (size_t)(colon - text)))
            kind = k;
    bool other_kind = !((kinds >> kind) & 1);
    if (!other_kind && !(setup && kind)) return false;
    char where[64];
    if (setup)
        snprintf(where, sizeof where, "the set-up step '%s'", v->kind_names[v->prelude[pos->prelude].kind]);
    else
        snprintf(where, sizeof where, "the phase '%s' of the turn", v->phases[pos->phase].name);
    printf("illegal move '%s': %s", text, where);
    if (other_kind) {
        printf(" allows only");
        int k = 0;
        for (int i = 0; i < v->nkinds; i++)
            if ((kinds >> i) & 1) printf("%s %s", k++ ? " or" : "", i ? v->kind_names[i] : "normal");
        printf(" moves now:");
    } else {
        printf(" offers now only (its moves may have to come in an order, each leaving room for the rest):");
    }
    char coord[64];
    for (int i = 0; i < legal->count && i < 16; i++) {
        notation_move(v, &legal->moves[i], coord, sizeof coord);
        printf("%s %s", i ? "," : "", coord);
    }
    printf("%s\n", legal->count > 16 ? ", ... ('moves' lists them all)" : "");
    return true;
}

/* Explains why text is not a legal move (the game is untouched). */
static void explain_illegal(Game *g, const char *text, const MoveList *legal) {
    char usi[64];
    if (notation_from_usi(g->v, text, usi, sizeof usi)) {
        /* USI coordinates: explained in the board's own cell names */
        printf("(%s in USI coordinates is %s)\n", text, usi);
        text = usi;
    }
    if (explain_step(g, text, legal) || explain_pseudo_legal(g, text) || explain_board_move(g, text, legal) ||
        explain_origin(g, text, legal) || explain_algebraic(g, text, legal))
        return;
    if (g->v->nboards > 1) {
        /* no board has such a move: say how moves are written here */
        printf("unknown command or illegal move '%s' (no board has that move; a move is written with its board's "
               "name first:",
               text);
        for (int b = 0; b < g->v->nboards; b++) printf("%s %s", b ? "," : "", g->v->boards[b].name);
        printf("; 'moves' lists them)\n");
        return;
    }
    printf("unknown command or illegal move '%s' (type 'help' for commands, 'moves' for the legal moves)\n", text);
}

/* A move typed without its kind ("c3" for place:c3 in a set-up step, "xd5" for bonus:xd5):
 * the legal moves of the kinds other than normal that read so with the kind in front. Writes
 * up to max indices into found; returns how many (several when several kinds or moves fit). */
static int parse_without_kind(Game *g, const MoveList *ml, const char *text, int *found, int max) {
    const Variant *v = g->v;
    int total = 0;
    for (int k = 1; k < v->nkinds; k++) {
        bool offered = false;
        for (int i = 0; i < ml->count && !offered; i++) offered = ml->moves[i].kind == k;
        if (!offered) continue;
        char t[160];
        int got[16];
        snprintf(t, sizeof t, "%s:%s", v->kind_names[k], text);
        int n = notation_parse(&g->pos, ml, t, got, 16);
        for (int i = 0; i < n && i < 16; i++)
            if (ml->moves[got[i]].kind == k && total < max) found[total++] = got[i];
    }
    return total;
}

/* Tries text as a move; true when it was one (played). */
static bool try_move(Game *g, const char *text) {
    if (g->over) {
        printf("the game is over (%s): 'undo', 'new' or 'load' to go on\n", g->reason);
        return true;
    }
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    movegen_legal(&g->gen, &g->pos, ml, &f);
    if (f.set) {
        /* the list is not to be trusted: no move is played from it */
        report_fault(g, &f);
        free(ml);
        return true;
    }
    int found[16];
    int n = notation_parse(&g->pos, ml, text, found, 16);
    if (n == 0) n = parse_without_kind(g, ml, text, found, 16);
    if (n == 1) {
        Move m = ml->moves[found[0]];
        free(ml);
        g->paused = false;
        play_move(g, &m);
        return true;
    }
    if (n > 1) {
        char san[64], coord[64];
        printf("ambiguous move '%s': it could be", text);
        for (int i = 0; i < n && i < 16; i++) {
            notation_san(&g->gen, &g->pos, ml, &ml->moves[found[i]], san, sizeof san);
            notation_move(g->v, &ml->moves[found[i]], coord, sizeof coord);
            if (!strcmp(san, coord))
                printf("%s %s", i ? "," : "", coord);
            else
                printf("%s %s (%s)", i ? "," : "", san, coord);
        }
        printf("\n");
    } else {
        explain_illegal(g, text, ml);
    }
    free(ml);
    return true;
}

typedef struct ConsoleCommand ConsoleCommand;
static const ConsoleCommand *find_command(const Game *g, const char *word);

/* One line of `help` per command; a command the game does not offer here is not listed. */
static const struct {
    const char *name, *line;
} command_help[] = {
    {"help", "  help              this list"},
    {"rules", "  rules             the rulebook: boards, turns, every piece's moves, special rules, endings"},
    {"piece", "  piece X           one piece's moves and diagram (X: its letter, name or cell)"},
    {"moves", "  moves [CELL]      the legal moves (from CELL; also BOARD CELL)"},
    {"undo", "  undo / redo       take back a move / play it again (back to your turn against the computer)"},
    {"new", "  new               start again from the start position"},
    {"hint", "  hint              what the computer would play"},
    {"ai", "  ai                let the computer play this move now"},
    {"seat", "  seat N human|ai   who plays player N (a number or a name; also greedy, random)"},
    {"time", "  time S / depth D  the computer's time per move in seconds / depth limit (0 = none)"},
    {"history", "  history           the moves played so far"},
    {"save", "  save FILE         write the game to a text file (FILE.pgn: as PGN)"},
    {"load", "  load FILE         replay a saved game or a PGN file"},
    {"pgn", "  pgn               the game as PGN"},
    {"compact", "  compact           after a move, only the lines under the board (again: the board)"},
    {"fen", "  fen               the position text"},
    {"random", "  random            make the rest of this set-up step at random"},
    {"deck", "  deck              your own deck's order"},
    {"board", "  board / flip      draw the board again / upside down"},
    {"resign", "  resign            give up the game"},
    {"draw", "  draw              offer a draw (the computer accepts when it is not better)"},
};

static void cmd_help(Game *g) {
    printf("Type a move in coordinate notation (e2e4, e7e8q) or algebraic notation (Nf3, exd5, O-O)");
    if (g->v->nboards > 1)
        printf(";\non several boards: the board's name, then the move (%s b2-b3)", g->v->boards[0].name);
    if (g->v->steer_copy) printf(", then + for the copy");
    bool plus = false;
    for (int t = 0; t < g->v->ntypes; t++) plus = plus || g->v->types[t].promoted;
    if (plus) printf(";\nas shogi writes them: Bxh8+ promotes, Bxh8= does not; USI coordinates too (7g7f, P*5e)");
    if (g->v->nkinds > 1)
        printf(";\nmoves of another kind start with it (%s:...), which may be left out when no other kind fits",
               g->v->kind_names[1]);
    printf(".\nCommands:\n");
    for (size_t i = 0; i < ARRAY_LEN(command_help); i++)
        if (find_command(g, command_help[i].name)) printf("%s\n", command_help[i].line);
    printf("  quit              leave\n");
}

static void cmd_rules(Game *g) {
    /* the start this game was dealt (shuffled pieces, an allegiance drawn at random) */
    DescribeStyle style = {g->utf8, g->colour};
    describe_game_text(g->v, g->start, &style, stdout);
}

/* `piece X`: X is a piece's letter or name, or a cell (BOARD CELL on several boards). */
static void cmd_piece(Game *g, char *const *args) {
    const Variant *v = g->v;
    if (!args[0]) {
        printf("piece: name one:");
        for (int t = 0; t < v->ntypes; t++) printf(" %c (%s)", v->types[t].letter, v->types[t].name);
        printf(", or a cell\n");
        return;
    }
    char cell[64];
    if (args[1])
        snprintf(cell, sizeof cell, "%s:%s", args[0], args[1]);
    else
        snprintf(cell, sizeof cell, "%s", args[0]);
    int type = -1, c = variant_cell_by_name(v, cell);
    if (c >= 0) {
        if (!g->pos.cell[c]) {
            printf("piece: %s is empty\n", cell);
            return;
        }
        type = PIECE_TYPE(g->pos.cell[c]);
    } else if (strlen(cell) == 1)
        type = variant_type_by_letter(v, cell[0]);
    for (int t = 0; t < v->ntypes && type < 0; t++)
        if (!strcasecmp(cell, v->types[t].name)) type = t;
    if (type < 0) {
        printf("piece: no piece, letter or cell '%s' (type 'piece' for the list)\n", cell);
        return;
    }
    DescribeStyle style = {g->utf8, g->colour};
    describe_piece_text(v, type, &style, stdout);
}

static int parse_player(const Game *g, const char *s) {
    char *end;
    long n = strtol(s, &end, 10);
    if (*s && !*end) return n >= 1 && n <= g->v->nplayers ? (int)n - 1 : -1;
    for (int p = 0; p < g->v->nplayers; p++)
        if (!strcasecmp(s, g->v->player_names[p]) || !strcmp(s, g->v->player_token[p])) return p;
    return -1;
}

static void cmd_undo(Game *g) {
    if (g->hidden && !g->over) {
        /* a move taken back could be tried again knowing what it turned up */
        printf("no undo in a game with hidden information (a move taken back could be played again knowing what it "
               "revealed)\n");
        return;
    }
    if (g->over) {
        /* a result no move made (resignation, agreement) is taken back alone */
        char reason[sizeof g->reason];
        snprintf(reason, sizeof reason, "%s", g->reason);
        game_update_result(g);
        if (!g->over) {
            printf("the %s is taken back\n", reason);
            if (g->seats[board_mover(&g->pos)] != SEAT_HUMAN) g->paused = true;
            draw(g);
            return;
        }
    }
    if (g->nmoves == 0) {
        printf("nothing to undo\n");
        return;
    }
    /* against the computer: back to a human's turn, so the computer does not replay at once */
    /* a defeat goes with the move that caused it */
    do {
        board_unmake(&g->pos);
        g->redo[g->nredo++] = g->moves[--g->nmoves];
    } while (g->nmoves > 0 &&
             ((g->redo[g->nredo - 1].flags & MOVE_ELIMINATION) || g->seats[board_mover(&g->pos)] != SEAT_HUMAN));
    game_update_result(g);
    if (g->seats[board_mover(&g->pos)] != SEAT_HUMAN) g->paused = true;
    draw(g);
}

static void cmd_redo(Game *g) {
    if (g->nredo == 0) {
        printf("nothing to redo\n");
        return;
    }
    do {
        Move m = g->redo[--g->nredo];
        if (!board_make(&g->pos, &m)) break;
        g->moves[g->nmoves++] = m;
    } while (g->nredo > 0 &&
             ((g->redo[g->nredo - 1].flags & MOVE_ELIMINATION) || g->seats[board_mover(&g->pos)] != SEAT_HUMAN));
    game_update_result(g);
    draw(g);
    if (g->over) announce_result(g);
}

#define RULES_PATH_MAX 4096 /* a rule file's path in a saved game */

/* A file name ending in ".pgn": the game is written as PGN. */
static bool pgn_is_pgn_name(const char *path) {
    size_t n = strlen(path);
    return n > 4 && !strcasecmp(path + n - 4, ".pgn");
}

/* The game as PGN sees it (winner: result_words' text, used only when the game is over). */
static void pgn_game(const Game *g, const char *rules, const char *winner, PgnGame *pg) {
    memset(pg, 0, sizeof *pg);
    pg->rules = rules;
    pg->start = g->start;
    pg->moves = g->moves;
    pg->nmoves = g->nmoves;
    for (int p = 0; p < g->v->nplayers; p++) pg->players[p] = ui_seat_name(g->seats[p]);
    pg->winner = g->over && strcmp(winner, "none") ? winner : NULL;
    pg->reason = g->reason;
}

static void save_game(Game *g, const char *path) {
    char err[300], winner[32];
    result_words(g, winner, sizeof winner);
    /* the rule file by its full path, so that the game loads from any directory */
    char full[RULES_PATH_MAX], cwd[RULES_PATH_MAX];
    const char *rules = g->rules;
    if (g->rules[0] != '/' && getcwd(cwd, sizeof cwd) &&
        (size_t)snprintf(full, sizeof full, "%s/%s", cwd, g->rules) < sizeof full)
        rules = full;
    bool ok;
    if (pgn_is_pgn_name(path)) {
        PgnGame pg;
        pgn_game(g, rules, winner, &pg);
        ok = pgn_write(path, g->v, &pg, err, sizeof err);
    } else {
        ok = savegame_write(path, rules, g->v, g->start, g->moves, g->nmoves, g->over ? winner : NULL, g->reason, err,
                            sizeof err);
    }
    if (!ok)
        printf("error: %s\n", err);
    else
        printf("saved %d move%s to %s%s\n", g->nmoves, g->nmoves == 1 ? "" : "s", path,
               g->hidden ? " (it holds every player's secrets: keep it from the players)" : "");
}

/* The rule file a saved game names: as written when it can be read from here, else (a relative
 * name) next to the saved game. */
static void saved_rules_path(const char *save_path, const char *rules, char *out, size_t cap) {
    snprintf(out, cap, "%s", rules);
    if (access(rules, R_OK) == 0 || rules[0] == '/') return;
    const char *slash = strrchr(save_path, '/');
    if (!slash) return;
    char near[RULES_PATH_MAX];
    if ((size_t)snprintf(near, sizeof near, "%.*s/%s", (int)(slash - save_path), save_path, rules) < sizeof near &&
        access(near, R_OK) == 0)
        snprintf(out, cap, "%s", near);
}

/* The rule file a saved game names, with its options: the game's own variant when they are the
 * same (*loaded stays NULL), else loaded anew (*loaded, the caller frees it). NULL, with the
 * reason printed, when it cannot be loaded. */
static const Variant *saved_variant(Game *g, const char *path, const SavedGame *sg, const char *rules,
                                    Variant **loaded) {
    OptionSetting opts[MAX_OPTIONS];
    for (int i = 0; i < sg->noptions; i++) opts[i] = (OptionSetting){sg->option_name[i], sg->option_value[i]};
    *loaded = NULL;
    const Variant *v = g->v;
    bool same = g->v && !strcmp(rules, g->rules);
    for (int i = 0; same && i < sg->noptions; i++) {
        bool match = false;
        for (int k = 0; k < v->noptions; k++)
            if (!strcmp(v->options[k].name, sg->option_name[i]) &&
                !strcmp(v->options[k].values[v->options[k].value], sg->option_value[i]))
                match = true;
        if (!match) same = false;
    }
    if (same) return v;
    *loaded = load_rules(rules, opts, sg->noptions);
    if (*loaded) return *loaded;
    /* the file's options, or the rule file itself? */
    Variant *plain = load_rules(rules, NULL, 0);
    int bad = -1;
    for (int i = 0; plain && bad < 0 && i < sg->noptions; i++) {
        bool known = false;
        for (int k = 0; k < plain->noptions && !known; k++)
            for (int x = 0; x < plain->options[k].nvalues; x++)
                known = known ||
                    (!strcmp(plain->options[k].name, sg->option_name[i]) &&
                     !strcmp(plain->options[k].values[x], sg->option_value[i]));
        if (!known) bad = i;
    }
    if (bad >= 0)
        printf("error: %s:%d: option '%s=%s' is not one of the rule file's\n", path, sg->option_line[bad],
               sg->option_name[bad], sg->option_value[bad]);
    else
        printf("error: %s: cannot load the rule file '%s'\n", path, rules);
    variant_free(plain);
    return NULL;
}

/* Makes a replayed saved game the game: its variant (when loaded anew, taken over), start
 * position, moves and result. */
static void adopt_saved(Game *g, const char *path, const SavedGame *sg, Variant *loaded, const char *rules,
                        const Position *replayed, const Move *moves) {
    if (loaded)
        game_set_variant(g, loaded, rules);
    else
        search_clear(g->search);
    /* the start position as text, from a replay of zero moves */
    Position *st = xmalloc(sizeof *st);
    board_init(st, g->v);
    char ferr[200];
    fen_read(st, sg->start ? sg->start : g->v->setup, ferr, sizeof ferr);
    fen_write(st, g->start, sizeof g->start);
    board_free(st);
    free(st);
    board_copy(&g->pos, replayed);
    g->fresh_deals = false;    /* 'new' goes back to the loaded game's start */
    g->nmoves = replayed->ply; /* the saved moves and the defeats they caused */
    memcpy(g->moves, moves, sizeof(Move) * (size_t)g->nmoves);
    g->nredo = 0;
    game_update_result(g);
    /* results the rules cannot see (resignation, agreement) come from the file */
    if (!g->over && sg->result_winner && strcmp(sg->result_winner, "none") != 0) {
        g->over = true;
        g->winner = -1;
        g->loser = -1;
        for (int p = 0; p < g->v->nplayers; p++)
            if (!strcmp(sg->result_winner, g->v->player_names[p])) g->winner = p;
        const char *why = sg->result_reason;
        snprintf(g->reason, sizeof g->reason, "%s", why && *why && strcmp(why, "-") ? why : "the saved result");
    }
    g->paused = g->seats[board_mover(&g->pos)] != SEAT_HUMAN;
    printf("loaded %s: %s, %d move%s\n", path, g->v->title ? g->v->title : g->rules, g->nmoves,
           g->nmoves == 1 ? "" : "s");
    draw(g);
    if (g->over) announce_result(g);
    if (g->paused && !g->over) printf("the computer is to move: type 'ai' to let it play\n");
}

/* Replays a saved game; the current game is untouched unless everything checks out. */
static bool load_saved(Game *g, const char *path) {
    SavedGame sg;
    char err[400];
    bool pgn = pgn_is_pgn(path);
    if (pgn ? !pgn_read(path, g->rules_dir, &sg, err, sizeof err) : !savegame_read(path, &sg, err, sizeof err)) {
        printf("error: %s\n", err);
        return false;
    }
    char rules[RULES_PATH_MAX];
    saved_rules_path(path, sg.rules, rules, sizeof rules);
    Variant *loaded;
    const Variant *v = saved_variant(g, path, &sg, rules, &loaded);
    if (!v) {
        savegame_free(&sg);
        return false;
    }
    if (pgn) pgn_name_result(&sg, v);
    Position *tmp = xmalloc(sizeof *tmp);
    board_init(tmp, v);
    Move *moves = xmalloc(sizeof(Move) * MAX_HISTORY);
    bool ok = savegame_replay(&sg, path, tmp, moves, MAX_HISTORY, err, sizeof err);
    if (ok && sg.start) {
        /* a start without the royal pieces the game needs would be over before it began */
        char why[200];
        Position *st = xmalloc(sizeof *st);
        board_init(st, v);
        if (fen_read(st, sg.start, why, sizeof why) && !fen_royals_ok(st, why, sizeof why)) {
            snprintf(err, sizeof err, "%s:%d: bad start position: %s", path, sg.start_line, why);
            ok = false;
        }
        board_free(st);
        free(st);
    }
    if (!ok) {
        printf("error: %s\n", err);
        variant_free(loaded);
    } else {
        adopt_saved(g, path, &sg, loaded, rules, tmp, moves);
    }
    free(moves);
    board_free(tmp);
    free(tmp);
    savegame_free(&sg);
    return ok;
}

static void cmd_draw(Game *g) {
    int mover = board_mover(&g->pos);
    bool computer = false;
    for (int p = 0; p < g->v->nplayers; p++)
        if (p != mover && g->seats[p] != SEAT_HUMAN) computer = true;
    if (computer) {
        /* the computer looks a little ahead and accepts when it is not better */
        int old_depth = g->depth;
        double old_seconds = g->seconds;
        g->depth = 4;
        g->seconds = 0.5;
        Move m;
        int score = 0;
        bool ok = think(g, SEAT_AI, &m, &score);
        g->depth = old_depth;
        g->seconds = old_seconds;
        if (!ok) return;
        if (score < -10) {
            printf("the computer declines the draw\n");
            return;
        }
        printf("the computer accepts the draw\n");
    } else {
        printf("draw agreed\n");
    }
    g->over = true;
    g->winner = g->loser = -1;
    snprintf(g->reason, sizeof g->reason, "agreement");
    announce_result(g);
}

static void cmd_resign(Game *g) {
    int mover = board_mover(&g->pos);
    if (gameend_alive_count(&g->pos) > 2) {
        /* with others still playing, conceding defeats only this player: no victor, and its
         * pieces leave the board whatever the rule file does with defeated armies */
        Move m;
        gameend_elimination(&g->pos, mover, -1, &m);
        char name[32];
        print_name(g, mover, name, sizeof name);
        printf("%s concedes; the others play on\n", name);
        play_move(g, &m);
        return;
    }
    g->over = true;
    g->loser = -1;
    g->winner = g->v->nplayers == 2 ? 1 - mover : -1;
    if (g->winner < 0) g->loser = mover;
    snprintf(g->reason, sizeof g->reason, "resignation");
    announce_result(g);
}

static bool parse_number(const char *s, double lo, double hi, double *out) {
    if (!s) return false;
    char *end;
    double d = strtod(s, &end);
    /* (a minus sign is refused even on zero: "-0" is no time anyone means) */
    if (end == s || *end || signbit(d) || !(d >= lo && d <= hi)) return false;
    *out = d;
    return true;
}

/* ---- the commands: each takes the words after its name (NULL-terminated) or none ---------- */

static void cmd_moves(Game *g, char *const *args) {
    /* a cell may be given as "BOARD CELL" */
    char cell[64];
    const char *from = args[0];
    if (args[0] && args[1]) {
        snprintf(cell, sizeof cell, "%s:%s", args[0], args[1]);
        from = cell;
    }
    list_moves(g, from);
}

static void cmd_new(Game *g) {
    search_clear(g->search);
    /* what the rules leave to chance is dealt again, unless --seed asked for one deal */
    if (g->fresh_deals) fen_start(g->v, fresh_seed(), g->start, sizeof g->start);
    game_restart(g);
    draw(g);
}

static void cmd_flip(Game *g) {
    g->flip = !g->flip;
    draw(g);
}

static void cmd_fen(Game *g) {
    char buf[4096];
    fen_write(&g->pos, buf, sizeof buf);
    /* the position text holds every player's secrets */
    if (g->hidden && !g->over)
        printf("the position text holds the players' secrets: it is shown when the game is over\n");
    else
        printf("%s\n", buf);
}

/* The screen owner's own stacks, bottom first: the order only it knows. */
static void cmd_deck(Game *g) {
    int me = screen_owner(g) >= 0 ? screen_owner(g) : board_mover(&g->pos);
    bool any = false;
    for (int i = 0; i < g->v->npiles; i++) {
        const PileDef *pd = &g->v->piles[i];
        if (pd->sorted || !pd->per_player) continue;
        int slot = pd->slot + me;
        printf("your %s (bottom first):", pd->name);
        for (int c = 0; c < g->pos.pile_len[slot]; c++) printf(" %d", g->pos.piles[slot][c]);
        printf("%s\n", g->pos.pile_len[slot] ? "" : " -");
        any = true;
    }
    if (!any) printf("this game has no stacks of cards\n");
}

/* The rest of this set-up step at random (mines placed, deck arranged). */
static void cmd_random(Game *g) {
    int step = g->pos.prelude;
    MoveList *ml = xmalloc(sizeof *ml);
    while (!g->over && g->pos.prelude == step) {
        VmFault f = {0};
        movegen_legal(&g->gen, &g->pos, ml, &f);
        if (!ml->count) break;
        Move m = ml->moves[search_pick_setup(&g->gen, &g->pos, ml, &g->rng)];
        play_move(g, &m);
    }
    free(ml);
}

static void cmd_hint(Game *g) {
    Move m;
    int score;
    if (!think(g, SEAT_AI, &m, &score)) return;
    char san[64], coord[64], sc[32];
    move_texts(g, &m, san, coord);
    search_format_score(score, g->v->nplayers, sc, sizeof sc);
    if (!strcmp(san, coord))
        printf("hint: %s, score %s\n", coord, sc);
    else
        printf("hint: %s (%s), score %s\n", san, coord, sc);
}

static void cmd_ai(Game *g) {
    g->paused = false;
    int kind = g->seats[board_mover(&g->pos)];
    computer_move(g, kind == SEAT_HUMAN ? SEAT_AI : kind);
}

static void cmd_seat(Game *g, char *const *args) {
    int p = args[0] ? parse_player(g, args[0]) : -1;
    int kind = args[0] && args[1] ? ui_seat_kind(args[1]) : -1;
    if (p < 0 || kind < 0) {
        printf("usage: seat N human|ai|greedy|random (N = 1..%d or a player name)\n", g->v->nplayers);
        return;
    }
    g->seats[p] = kind;
    g->paused = false;
    printf("%s is now played by %s\n", g->v->player_names[p], ui_seat_name(kind));
}

static void cmd_time(Game *g, char *const *args) {
    double d;
    if (!parse_number(args[0], 0, 86400, &d)) {
        printf("usage: time SECONDS (0 = no limit; now %g)\n", g->seconds);
        return;
    }
    g->seconds = d;
    printf("time per move: %g s%s\n", d, d == 0 && g->depth == 0 ? " (with no depth limit either: 1 s)" : "");
}

static void cmd_depth(Game *g, char *const *args) {
    double d;
    if (!parse_number(args[0], 0, MAX_PLY - 8, &d) || d != (int)d) {
        printf("usage: depth D (0..%d, 0 = no limit; now %d)\n", MAX_PLY - 8, g->depth);
        return;
    }
    g->depth = (int)d;
    printf("depth limit: %d\n", g->depth);
}

static void cmd_save(Game *g, char *const *args) {
    if (!args[0])
        printf("usage: save FILE\n");
    else
        save_game(g, args[0]);
}

static void cmd_load(Game *g, char *const *args) {
    if (!args[0])
        printf("usage: load FILE\n");
    else
        load_saved(g, args[0]);
}

/* The moves played so far, numbered, in algebraic notation; what another player did in
 * secret only by its kind. */
static void cmd_history(Game *g) {
    if (!g->nmoves) {
        printf("no moves yet\n");
        return;
    }
    PgnPly *plies = xmalloc(sizeof *plies * (size_t)g->nmoves);
    int n = pgn_move_texts(g->v, g->start, g->moves, g->nmoves, plies);
    char name[32], word[128];
    int col = 0;
    for (int i = 0; i < n; i++) {
        bool first = i == 0 || plies[i].fullmove != plies[i - 1].fullmove;
        if (first)
            col = printf("%s%3d.%s", i ? "\n" : "", plies[i].fullmove,
                         plies[i].turn && g->v->nplayers == 2 ? " ..." : "") -
                (i ? 1 : 0);
        name[0] = 0;
        if (g->v->nplayers > 2) print_name(g, plies[i].mover, name, sizeof name);
        if (secret_move(g, plies[i].move) && screen_owner(g) != plies[i].mover)
            snprintf(word, sizeof word, "%s%s%s (secret)", name, *name ? ": " : "",
                     g->v->kind_names[plies[i].move->kind]);
        else
            snprintf(word, sizeof word, "%s%s%s", name, *name ? ": " : "", plies[i].san);
        /* long turns (a set-up, phases) wrap under the move number */
        if (!first && col + 1 + (int)strlen(word) > 78) col = printf("\n    ") - 1;
        col += printf(" %s%s", word,
                      g->v->nplayers > 2 && i + 1 < n && plies[i + 1].fullmove == plies[i].fullmove ? "," : "");
    }
    printf("\n");
    free(plies);
}

/* The game as PGN on the screen. */
static void cmd_pgn(Game *g) {
    if (g->hidden && !g->over) {
        printf("the game's moves hold the players' secrets: its PGN is shown when the game is over\n");
        return;
    }
    char winner[32];
    result_words(g, winner, sizeof winner);
    PgnGame pg;
    pgn_game(g, g->rules, winner, &pg);
    pgn_format(stdout, g->v, &pg);
}

static void cmd_compact(Game *g) {
    g->compact = !g->compact;
    printf("compact mode %s\n",
           g->compact ? "on: after a move, only the lines under the board ('board' draws it)"
                      : "off: the board after every move");
}

static bool has_piles(const Game *g) { return g->v->npiles > 0; }

static bool in_setup(const Game *g) { return g->v->nprelude && g->pos.prelude < g->v->nprelude && !g->over; }

/* The console's commands. A command not offered in this game or at this point is read as a
 * move, as is any word that names none. */
struct ConsoleCommand {
    const char *name, *alias;
    bool (*offered)(const Game *g); /* NULL: always */
    bool while_playing;             /* refused once the game is over */
    void (*run)(Game *g);           /* a command without arguments, or */
    void (*run_args)(Game *g, char *const *args);
};

static const ConsoleCommand console_commands[] = {
    {"help", "?", NULL, false, cmd_help, NULL},       {"moves", NULL, NULL, false, NULL, cmd_moves},
    {"undo", NULL, NULL, false, cmd_undo, NULL},      {"redo", NULL, NULL, false, cmd_redo, NULL},
    {"new", NULL, NULL, false, cmd_new, NULL},        {"board", NULL, NULL, false, draw, NULL},
    {"flip", NULL, NULL, false, cmd_flip, NULL},      {"fen", NULL, NULL, false, cmd_fen, NULL},
    {"deck", NULL, has_piles, false, cmd_deck, NULL}, {"random", NULL, in_setup, false, cmd_random, NULL},
    {"hint", NULL, NULL, true, cmd_hint, NULL},       {"ai", NULL, NULL, true, cmd_ai, NULL},
    {"seat", NULL, NULL, false, NULL, cmd_seat},      {"time", NULL, NULL, false, NULL, cmd_time},
    {"depth", NULL, NULL, false, NULL, cmd_depth},    {"history", NULL, NULL, false, cmd_history, NULL},
    {"pgn", NULL, NULL, false, cmd_pgn, NULL},        {"compact", NULL, NULL, false, cmd_compact, NULL},
    {"save", NULL, NULL, false, NULL, cmd_save},      {"load", NULL, NULL, false, NULL, cmd_load},
    {"resign", NULL, NULL, true, cmd_resign, NULL},   {"draw", NULL, NULL, true, cmd_draw, NULL},
    {"rules", NULL, NULL, false, cmd_rules, NULL},    {"piece", NULL, NULL, false, NULL, cmd_piece},
};

static const ConsoleCommand *find_command(const Game *g, const char *word) {
    for (size_t i = 0; i < ARRAY_LEN(console_commands); i++) {
        const ConsoleCommand *c = &console_commands[i];
        if ((!strcmp(word, c->name) || (c->alias && !strcmp(word, c->alias))) && (!c->offered || c->offered(g)))
            return c;
    }
    return NULL;
}

/* Does text name at least one legal move (a move, or an ambiguous one)? */
static bool names_a_move(Game *g, const char *text) {
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    movegen_legal(&g->gen, &g->pos, ml, &f);
    int found[1];
    bool named = !f.set && !g->over && notation_parse(&g->pos, ml, text, found, 1) > 0;
    free(ml);
    return named;
}

/* Runs one input line; returns false on quit. */
static bool handle_line(Game *g, char *line) {
    char *words[5] = {0}; /* at most four, and a NULL after them */
    int nw = 0;
    char whole[256];
    snprintf(whole, sizeof whole, "%s", line);
    whole[strcspn(whole, "\r\n")] = 0;
    for (char *p = strtok(line, " \t\r\n"); p && nw < 4; p = strtok(NULL, " \t\r\n")) words[nw++] = p;
    if (nw == 0) return true;
    const char *cmd = words[0];
    /* with several boards a move starts with the board's name: "M d3-d7 +" */
    for (int b = 0; b < g->v->nboards && g->v->nboards > 1; b++)
        if (!strcasecmp(cmd, g->v->boards[b].name)) {
            try_move(g, whole);
            return true;
        }
    if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit")) return false;
    const ConsoleCommand *c = find_command(g, cmd);
    if (c && c->while_playing && g->over)
        printf("the game is over\n");
    else if (c && c->run)
        c->run(g);
    else if (c)
        c->run_args(g, words + 1);
    else if (nw > 1 && g->v->nboards > 1 && names_a_move(g, whole))
        try_move(g, whole); /* a move without its board's name: "b4-b6 +" */
    else if (nw > 1 && g->v->nboards > 1) {
        printf("unknown command or board '%s' (type 'help'; a move starts with a board's name:", cmd);
        for (int b = 0; b < g->v->nboards; b++) printf("%s %s", b ? "," : "", g->v->boards[b].name);
        printf(")\n");
    } else if (nw > 1) {
        printf("unknown command '%s' (type 'help')\n", cmd);
    } else {
        try_move(g, cmd);
    }
    return true;
}

/* ---- input ----------------------------------------------------------------------------------- */

/* One line from the user (NULL at end of input); the caller frees it. */
static char *read_line(Game *g, const char *prompt) {
#ifdef VARIA_READLINE
    if (g->tty_in && g->tty_out) {
        char *s = readline(prompt);
        if (s && *s) add_history(s);
        return s;
    }
#endif
    fputs(prompt, stdout);
    fflush(stdout);
    size_t cap = 256, len = 0;
    char *s = xmalloc(cap);
    int c;
    bool nul = false;
    while ((c = getchar()) != EOF && c != '\n') {
        if (c == 0) {
            nul = true; /* a line with a NUL byte is not what it seems: it is dropped whole */
            continue;
        }
        if (len + 1 >= cap) {
            if (cap >= 65536) continue; /* an absurdly long line is cut, never a crash */
            s = xrealloc(s, cap *= 2);
        }
        s[len++] = (char)c;
    }
    if (c == EOF && len == 0) {
        free(s);
        if (!g->tty_in) printf("\n");
        return NULL;
    }
    s[len] = 0;
    if (nul) {
        printf("input line ignored: it holds a NUL byte\n");
        s[0] = 0;
    }
    /* scripted sessions: show what was read so the transcript reads like a session */
    if (!g->tty_in) printf("%s\n", s);
    return s;
}

static bool locale_utf8(void) {
    const char *vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < 3; i++) {
        const char *s = getenv(vars[i]);
        if (!s || !*s) continue;
        char low[64];
        size_t n = 0;
        for (; s[n] && n + 1 < sizeof low; n++) low[n] = (char)tolower((unsigned char)s[n]);
        low[n] = 0;
        return strstr(low, "utf-8") || strstr(low, "utf8");
    }
    return false;
}

/* --fen: a position the game can start from (else the reason on stderr). */
static bool start_position_ok(Game *g, const char *text) {
    char err[200];
    if (!fen_read(&g->pos, text, err, sizeof err) || !movegen_position_ok(&g->gen, &g->pos, err, sizeof err) ||
        !fen_royals_ok(&g->pos, err, sizeof err)) {
        fprintf(stderr, "varia: bad --fen '%s': %s\n", text, err);
        return false;
    }
    return true;
}

int ui_play(const UiConfig *cfg) {
    Variant *v = load_rules(cfg->rules, cfg->options, cfg->noptions);
    if (!v) return 1;
    char seat[16] = "";
    if (cfg->bad_seat) snprintf(seat, sizeof seat, "%.*s", (int)strcspn(cfg->bad_seat, "="), cfg->bad_seat);
    for (int p = v->nplayers; p < MAX_PLAYERS && !seat[0]; p++)
        if (cfg->seats[p] >= 0) snprintf(seat, sizeof seat, "%d", p + 1);
    if (seat[0]) {
        /* the seats the game has, whatever number was given */
        fprintf(stderr, "varia: --seat %s: %s has %d players: seats 1 to %d\n", seat, v->title ? v->title : cfg->rules,
                v->nplayers, v->nplayers);
        variant_free(v);
        return 1;
    }
    Game *g = xcalloc(1, sizeof *g);
    g->moves = xmalloc(sizeof(Move) * MAX_HISTORY);
    g->redo = xmalloc(sizeof(Move) * MAX_HISTORY);
    game_set_variant(g, v, cfg->rules);
    for (int p = 0; p < MAX_PLAYERS; p++)
        g->seats[p] = cfg->seats[p] >= 0 ? cfg->seats[p] : p == 0 ? SEAT_HUMAN : SEAT_AI;
    g->seconds = cfg->seconds;
    g->depth = cfg->depth;
    g->seed = cfg->seed;
    g->rng = cfg->seed * 0x9E3779B97F4A7C15ULL | 1;
    g->fresh_deals = !cfg->seed_given && !cfg->fen;
    uint64_t deal = cfg->seed_given ? cfg->seed : fresh_seed();
    g->flip = cfg->flip;
    g->compact = cfg->compact;
    g->rules_dir = cfg->rules_dir;
    g->tty_in = isatty(0);
    g->tty_out = isatty(1);
    g->utf8 = !cfg->ascii && locale_utf8();
    /* CLICOLOR_FORCE: colour also when the output is not a terminal */
    const char *force = getenv("CLICOLOR_FORCE");
    g->colour = (g->tty_out || (force && *force && strcmp(force, "0"))) && !getenv("NO_COLOR");
    g->shown_to = -1;
    /* the board turned for the one human who plays the second player */
    if (!cfg->flip && v->nplayers == 2 && g->seats[0] != SEAT_HUMAN && g->seats[1] == SEAT_HUMAN) g->flip = true;
    fen_start(v, deal, g->start, sizeof g->start);
    if (cfg->fen && !start_position_ok(g, cfg->fen)) {
        game_free_variant(g);
        free(g->moves);
        free(g->redo);
        free(g);
        return 1;
    }
    if (cfg->fen) snprintf(g->start, sizeof g->start, "%s", cfg->fen);
    game_restart(g);
    fen_write(&g->pos, g->start, sizeof g->start);
    int rc = 0;
    printf("%s - type 'help' for commands\n", v->title ? v->title : cfg->rules);
    if (cfg->load && !load_saved(g, cfg->load))
        rc = 1;
    else if (!cfg->load) {
        draw(g);
        if (g->over) announce_result(g);
    }
    while (rc == 0) {
        if (!g->over && !g->paused && g->seats[board_mover(&g->pos)] != SEAT_HUMAN) {
            computer_move(g, g->seats[board_mover(&g->pos)]);
            continue;
        }
        /* hot seat with secrets: each human gets the screen to itself */
        if (g->hidden && !g->over && g->seats[board_mover(&g->pos)] == SEAT_HUMAN &&
            screen_owner(g) != board_mover(&g->pos)) {
            int humans = 0;
            for (int p = 0; p < g->v->nplayers; p++) humans += g->seats[p] == SEAT_HUMAN;
            if (humans > 1) {
                char *typed = hand_over(g, board_mover(&g->pos));
                draw(g);
                bool go_on = true;
                if (typed && typed[strspn(typed, " \t\r")]) {
                    printf("(typed at the hand-over) %s\n", typed);
                    go_on = handle_line(g, typed);
                }
                free(typed);
                if (!go_on) break;
                continue;
            }
        }
        char prompt[64];
        if (g->over)
            snprintf(prompt, sizeof prompt, "(game over)> ");
        else
            snprintf(prompt, sizeof prompt, "%s> ", g->v->player_names[board_mover(&g->pos)]);
        char *line = read_line(g, prompt);
        if (!line) break;
        bool go_on = handle_line(g, line);
        free(line);
        if (!go_on) break;
    }
    game_free_variant(g);
    free(g->moves);
    free(g->redo);
    free(g);
    return rc;
}

/* ---- self-play -------------------------------------------------------------------------------- */

int ui_selfplay(const SelfplayConfig *cfg) {
    Variant *v = load_rules(cfg->rules, cfg->options, cfg->noptions);
    if (!v) return 1;
    int n = v->nplayers;
    Searcher *search[2] = {search_new(v, TT_MB), search_new(v, TT_MB)};
    Position *pos = xmalloc(sizeof *pos);
    board_init(pos, v);
    GenContext *ctx = xmalloc(sizeof *ctx);
    genctx_init(ctx);
    MoveList *ml = xmalloc(sizeof *ml);
    int wins = 0, draws = 0, losses = 0;
    uint64_t rng = cfg->seed * 0x9E3779B97F4A7C15ULL | 1;
    int engines[2] = {cfg->engine_a, cfg->engine_b};
    for (int game = 0; game < cfg->games; game++) {
        int a_seat = game % n; /* engine A takes each seat in turn */
        char err[200], start[4096];
        fen_start(v, cfg->seed + (uint64_t)game, start, sizeof start);
        fen_read(pos, start, err, sizeof err);
        search_clear(search[0]);
        search_clear(search[1]);
        GameResult r;
        gameend_settle(ctx, pos, &r, NULL, 0, NULL, NULL);
        int plies = 0;
        while (!r.over && plies < MAX_HISTORY - 1) {
            int mover = board_mover(pos);
            int side = mover == a_seat ? 0 : 1;
            int kind = engines[side];
            VmFault f = {0};
            movegen_legal(ctx, pos, ml, &f);
            Move m;
            if (kind == SEAT_RANDOM)
                m = ml->moves[search_pick_random(ml, &rng)];
            else if (kind == SEAT_GREEDY)
                m = ml->moves[search_pick_greedy(search_eval(search[side]), pos, ml, &rng)];
            else {
                SearchLimits lim = {.depth = cfg->depth, .seconds = cfg->seconds, .seed = cfg->seed + (uint64_t)game};
                SearchResult res;
                if (variant_has_secrets(v))
                    search_run_hidden(search[side], pos, UI_SAMPLES, lim.seed + (uint64_t)pos->ply, &lim, &res);
                else
                    search_run(search[side], pos, &lim, &res, NULL, NULL);
                m = res.best;
            }
            board_make(pos, &m);
            plies++;
            gameend_settle(ctx, pos, &r, NULL, 0, NULL, NULL); /* defeats with more than two players left */
        }
        int outcome = 0; /* for engine A: 1 win, 0 draw, -1 loss */
        if (r.winner >= 0)
            outcome = r.winner == a_seat ? 1 : -1;
        else if (r.over && n > 2) {
            ResultKind k = !strcmp(r.reason, "checkmate") ? v->on_checkmate
                : !strcmp(r.reason, "stalemate")          ? v->on_stalemate
                                                          : RESULT_DRAW;
            int mover = board_mover(pos);
            if (k == RESULT_LOSS)
                outcome = mover == a_seat ? -1 : 0;
            else if (k == RESULT_WIN)
                outcome = mover == a_seat ? 1 : -1;
        }
        if (outcome > 0)
            wins++;
        else if (outcome < 0)
            losses++;
        else
            draws++;
        if (cfg->verbose) {
            printf("game %d: %s plays %s: %s after %d plies (%s)\n", game + 1, ui_seat_name(cfg->engine_a),
                   v->player_names[a_seat],
                   outcome > 0       ? "win"
                       : outcome < 0 ? "loss"
                                     : "draw",
                   plies, r.over ? (r.name ? r.name : r.reason) : "too long");
            fflush(stdout);
        }
    }
    double score = cfg->games ? (wins + 0.5 * draws) / cfg->games * 100 : 0;
    printf("%s vs %s: %d wins, %d draws, %d losses (score %.1f%%)\n", ui_seat_name(cfg->engine_a),
           ui_seat_name(cfg->engine_b), wins, draws, losses, score);
    free(ml);
    board_free(pos);
    free(pos);
    free(ctx);
    search_free(search[0]);
    search_free(search[1]);
    variant_free(v);
    return 0;
}
