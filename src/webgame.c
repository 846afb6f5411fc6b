/* webgame.c - one game of the web page: its moves, seats and result, and the game as JSON for
 * the page (see webgame.h). The rules of play follow the console's: defeats are moves of their
 * own, taking back goes to a human's turn, a game with secrets shows each player only its own
 * and takes nothing back until it is over. */
#include "webgame.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "describe.h"
#include "fen.h"
#include "gameend.h"
#include "load.h"
#include "notation.h"
#include "savegame.h"
#include "source.h"
#include "view.h"

#define WEB_SAMPLES 4 /* positions the computer searches when some information is hidden */

/* ---- JSON helpers ------------------------------------------------------------------------- */

/* A JSON string of s; bytes that are not UTF-8 (a message cut short, a file's odd byte)
 * become '?', so the string is never refused. */
static json_t *jstr(const char *s) {
    json_t *j = json_string(s);
    if (j) return j;
    size_t n = strlen(s);
    char *t = xmalloc(n + 1);
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        int len = u[i] < 0x80 ? 1 : (u[i] >> 5) == 6 ? 2 : (u[i] >> 4) == 14 ? 3 : (u[i] >> 3) == 30 ? 4 : 0;
        bool ok = len > 0 && i + (size_t)len <= n;
        for (int k = 1; ok && k < len; k++) ok = (u[i + k] >> 6) == 2;
        if (!ok) len = 1;
        for (int k = 0; k < len; k++) t[i + k] = ok ? (char)u[i + k] : '?';
        i += (size_t)len;
    }
    t[n] = 0;
    j = json_string(t);
    free(t);
    return j ? j : json_string("?");
}

static void jset(json_t *obj, const char *key, json_t *value) { json_object_set_new(obj, key, value); }

/* ---- loading and the start ---------------------------------------------------------------- */

/* Loads a rule file; NULL with the diagnostics in err. */
static Variant *load_rules(const char *path, const OptionSetting *opts, int nopts, char *err, size_t cap) {
    DiagSink sink;
    diag_init(&sink);
    const char *why = NULL;
    Source *src = source_load(path, &why);
    if (!src) {
        snprintf(err, cap, "%s: cannot read rule file: %s", path, why ? why : "unknown error");
        diag_free(&sink);
        return NULL;
    }
    Variant *v = load_source(src, opts, nopts, &sink);
    if (!v) {
        char *text = diag_to_string(&sink);
        snprintf(err, cap, "%s", text && *text ? text : "the rule file does not load");
        free(text);
    }
    sink.source = NULL;
    diag_free(&sink);
    source_free(src);
    return v;
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

static void update_result(WebGame *g) {
    GameResult r;
    gameend_check(&g->gen, &g->pos, &r);
    g->fault[0] = 0;
    if (r.fault.set)
        snprintf(g->fault, sizeof g->fault, "the rules fail here: %s:%d:%d: runtime fault: %s",
                 r.fault.file ? r.fault.file : "?", r.fault.line, r.fault.col, r.fault.msg);
    g->over = r.over;
    gameend_sides(&g->pos, &r, &g->winner, &g->loser);
    snprintf(g->reason, sizeof g->reason, "%s", r.over && r.name ? r.name : r.over && r.reason ? r.reason : "");
}

static WebGame *game_alloc(Variant *v, const char *name, const char *path) {
    WebGame *g = xcalloc(1, sizeof *g);
    g->v = v;
    g->name = xstrdup(name);
    g->path = xstrdup(path);
    board_init(&g->pos, v);
    genctx_init(&g->gen);
    g->played = xcalloc(MAX_HISTORY, sizeof *g->played);
    g->undone = xcalloc(MAX_HISTORY, sizeof *g->undone);
    for (int p = 0; p < MAX_PLAYERS; p++) g->seats[p] = p == 0 ? SEAT_HUMAN : SEAT_AI;
    g->seconds = 1;
    g->seed = fresh_seed();
    g->rng = g->seed | 1;
    g->hidden = variant_has_secrets(v);
    g->shown_to = -1;
    g->winner = g->loser = -1;
    return g;
}

WebGame *webgame_new(const char *name, const char *path, const OptionSetting *opts, int nopts, char *err, size_t cap) {
    Variant *v = load_rules(path, opts, nopts, err, cap);
    if (!v) return NULL;
    WebGame *g = game_alloc(v, name, path);
    webgame_restart(g, true);
    return g;
}

void webgame_free(WebGame *g) {
    if (!g) return;
    board_free(&g->pos);
    variant_free(g->v);
    free(g->played);
    free(g->undone);
    free(g->name);
    free(g->path);
    free(g);
}

void webgame_restart(WebGame *g, bool fresh_deal) {
    char err[200];
    if (fresh_deal && !g->fixed_deal) fen_start(g->v, fresh_seed(), g->start, sizeof g->start);
    if (!fen_read(&g->pos, g->start, err, sizeof err)) {
        /* cannot happen for a text written here; fall back to the rule file's setup */
        fen_read(&g->pos, g->v->setup, err, sizeof err);
        fen_write(&g->pos, g->start, sizeof g->start);
    }
    g->nplayed = g->nundone = 0;
    g->paused = false;
    g->shown_to = -1;
    update_result(g);
}

void webgame_seed(WebGame *g, uint64_t seed) {
    g->seed = seed;
    g->rng = seed * 0x9E3779B97F4A7C15ULL | 1;
    g->fixed_deal = true;
    fen_start(g->v, seed, g->start, sizeof g->start);
    webgame_restart(g, false);
}

/* ---- playing -------------------------------------------------------------------------------- */

int webgame_mover(const WebGame *g) { return board_mover(&g->pos); }

bool webgame_human_may_move(const WebGame *g) {
    return !g->over && (g->seats[webgame_mover(g)] == SEAT_HUMAN || g->paused);
}

static bool legal_moves(WebGame *g, MoveList *ml) {
    VmFault f = {0};
    movegen_legal(&g->gen, &g->pos, ml, &f);
    if (f.set) {
        snprintf(g->fault, sizeof g->fault, "the rules fail here: %s:%d:%d: runtime fault: %s", f.file ? f.file : "?",
                 f.line, f.col, f.msg);
        return false;
    }
    return true;
}

static int human_seats(const WebGame *g) {
    int n = 0;
    for (int p = 0; p < g->v->nplayers; p++) n += g->seats[p] == SEAT_HUMAN;
    return n;
}

/* Plays m (legal in the position, listed in ml) with its texts. */
static bool play_listed(WebGame *g, const MoveList *ml, const Move *m) {
    if (g->nplayed >= MAX_HISTORY - MAX_PLAYERS) return false;
    WebPly *ply = &g->played[g->nplayed];
    ply->move = *m;
    ply->mover = board_mover(&g->pos);
    ply->fullmove = g->pos.fullmove;
    notation_san(&g->gen, &g->pos, ml, m, ply->san, sizeof ply->san);
    notation_move(g->v, m, ply->coord, sizeof ply->coord);
    if (!board_make(&g->pos, m)) return false;
    g->nplayed++;
    g->nundone = 0;
    if (g->seats[ply->mover] == SEAT_HUMAN) g->shown_to = ply->mover;
    /* with more than two players a defeat does not end the game: it is a move of its own, kept
     * in the list so that undo takes it back too */
    Move defeats[MAX_PLAYERS];
    GameResult r;
    int nd = gameend_settle(&g->gen, &g->pos, &r, defeats, MAX_PLAYERS, NULL, NULL);
    for (int i = 0; i < nd && i < MAX_PLAYERS; i++) {
        WebPly *d = &g->played[g->nplayed++];
        d->move = defeats[i];
        d->mover = -1;
        d->fullmove = g->pos.fullmove;
        snprintf(d->san, sizeof d->san, "-");
        snprintf(d->coord, sizeof d->coord, "-");
    }
    update_result(g);
    return true;
}

bool webgame_play(WebGame *g, const Move *m) {
    MoveList *ml = xmalloc(sizeof *ml);
    bool ok = legal_moves(g, ml) && play_listed(g, ml, m);
    free(ml);
    if (ok) g->paused = false;
    return ok;
}

bool webgame_move_text(WebGame *g, const char *text, char *err, size_t cap) {
    if (g->over) return refuse(err, cap, "the game is over (%s): take a move back or start a new game", g->reason);
    MoveList *ml = xmalloc(sizeof *ml);
    if (!legal_moves(g, ml)) {
        free(ml);
        return refuse(err, cap, "%s", g->fault);
    }
    int found[8];
    int n = notation_parse(&g->pos, ml, text, found, 8);
    bool ok = false;
    if (n == 1) {
        Move m = ml->moves[found[0]];
        ok = play_listed(g, ml, &m);
        if (ok)
            g->paused = false;
        else
            refuse(err, cap, "the game is too long (limit is %d plies)", MAX_HISTORY);
    } else if (n > 1) {
        char list[400] = "", coord[64];
        for (int i = 0; i < n && i < 8; i++) {
            notation_move(g->v, &ml->moves[found[i]], coord, sizeof coord);
            size_t at = strlen(list);
            snprintf(list + at, sizeof list - at, "%s%s", i ? ", " : "", coord);
        }
        refuse(err, cap, "ambiguous move '%s': it could be %s", text, list);
    } else if (ml->count == 0) {
        refuse(err, cap, "illegal move '%s': there is no legal move here", text);
    } else {
        refuse(err, cap, "illegal move '%s' (%d legal move%s here: pick up a piece to see where it may go)", text,
               ml->count, ml->count == 1 ? "" : "s");
    }
    free(ml);
    return ok;
}

bool webgame_undo(WebGame *g, char *err, size_t cap) {
    if (g->hidden && !g->over)
        return refuse(err, cap,
                      "no taking back in a game with hidden information (a move taken back could be played "
                      "again knowing what it revealed)");
    if (g->nplayed == 0) return refuse(err, cap, "nothing to take back");
    bool humans = human_seats(g) > 0;
    /* back to a human's turn, so the computer does not play again at once; a defeat goes with
     * the move that caused it */
    do {
        board_unmake(&g->pos);
        g->undone[g->nundone++] = g->played[--g->nplayed];
    } while (g->nplayed > 0 &&
             ((g->undone[g->nundone - 1].move.flags & MOVE_ELIMINATION) ||
              (humans && g->seats[board_mover(&g->pos)] != SEAT_HUMAN)));
    update_result(g);
    g->paused = g->seats[board_mover(&g->pos)] != SEAT_HUMAN;
    return true;
}

bool webgame_redo(WebGame *g, char *err, size_t cap) {
    if (g->nundone == 0) return refuse(err, cap, "nothing to play again");
    bool humans = human_seats(g) > 0;
    do {
        WebPly p = g->undone[--g->nundone];
        if (!board_make(&g->pos, &p.move)) break;
        g->played[g->nplayed++] = p;
    } while (g->nundone > 0 &&
             ((g->undone[g->nundone - 1].move.flags & MOVE_ELIMINATION) ||
              (humans && g->seats[board_mover(&g->pos)] != SEAT_HUMAN)));
    update_result(g);
    g->paused = g->seats[board_mover(&g->pos)] != SEAT_HUMAN;
    return true;
}

bool webgame_random_setup(WebGame *g, char *err, size_t cap) {
    if (g->over || g->pos.prelude >= g->v->nprelude) return refuse(err, cap, "no set-up step is under way");
    int step = g->pos.prelude;
    MoveList *ml = xmalloc(sizeof *ml);
    while (!g->over && g->pos.prelude == step && legal_moves(g, ml) && ml->count > 0) {
        Move m = ml->moves[search_pick_setup(&g->gen, &g->pos, ml, &g->rng)];
        if (!play_listed(g, ml, &m)) break;
    }
    free(ml);
    g->paused = false;
    return true;
}

bool webgame_choose(Searcher *s, Position *pos, int kind, const SearchLimits *lim, bool hidden, uint64_t *rng,
                    Move *out) {
    GenContext *ctx = xmalloc(sizeof *ctx);
    genctx_init(ctx);
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    movegen_legal(ctx, pos, ml, &f);
    bool ok = ml->count > 0;
    if (ok && kind == SEAT_RANDOM)
        *out = ml->moves[search_pick_random(ml, rng)];
    else if (ok && kind == SEAT_GREEDY)
        *out = ml->moves[search_pick_greedy(search_eval(s), pos, ml, rng)];
    else if (ok && pos->prelude < pos->v->nprelude)
        *out = ml->moves[search_pick_setup(ctx, pos, ml, rng)]; /* a set-up is dealt, not searched */
    else if (ok) {
        SearchResult res;
        /* with hidden information the computer searches positions drawn from what it may know */
        if (hidden)
            ok = search_run_hidden(s, pos, WEB_SAMPLES, lim->seed + (uint64_t)pos->ply, lim, &res);
        else
            ok = search_run(s, pos, lim, &res, NULL, NULL);
        ok = ok && !res.interrupted && res.has_move;
        if (ok) *out = res.best;
    }
    free(ml);
    free(ctx);
    return ok;
}

/* ---- saved games ---------------------------------------------------------------------------- */

/* result_words of the console: the winner's name, "none" (a loser but no single winner) or "draw". */
static const char *result_winner(const WebGame *g) {
    if (g->winner >= 0) return g->v->player_names[g->winner];
    return g->loser >= 0 ? "none" : "draw";
}

static bool read_file(const char *path, char **text, char *err, size_t cap) {
    FILE *f = fopen(path, "rb");
    if (!f) return refuse(err, cap, "cannot read %s: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, got;
    char chunk[8192];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf = xrealloc(buf, len + got + 1);
        memcpy(buf + len, chunk, got);
        len += got;
    }
    bool ok = !ferror(f);
    fclose(f);
    if (!ok) {
        free(buf);
        return refuse(err, cap, "cannot read %s", path);
    }
    if (!buf) buf = xstrdup("");
    buf[len] = 0;
    *text = buf;
    return true;
}

/* A fresh directory for a file written to be read back (the saved-game writer and the
 * rulebook write to paths); NULL with the reason. */
static char *scratch_dir(char *err, size_t cap) {
    const char *tmp = getenv("TMPDIR");
    char pattern[512];
    snprintf(pattern, sizeof pattern, "%s/varia-serve-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(pattern)) {
        refuse(err, cap, "cannot make a scratch directory: %s", strerror(errno));
        return NULL;
    }
    return xstrdup(pattern);
}

bool webgame_save(const WebGame *g, char **text, char *err, size_t cap) {
    char *dir = scratch_dir(err, cap);
    if (!dir) return false;
    char path[600];
    snprintf(path, sizeof path, "%s/game.txt", dir);
    /* the rule file by its full path, so that the console loads the game from any directory */
    char cwd[2048], *full = NULL;
    if (g->path[0] != '/' && getcwd(cwd, sizeof cwd)) {
        full = xmalloc(strlen(cwd) + strlen(g->path) + 2);
        sprintf(full, "%s/%s", cwd, g->path);
    }
    Move *moves = xmalloc(sizeof(Move) * (size_t)(g->nplayed ? g->nplayed : 1));
    for (int i = 0; i < g->nplayed; i++) moves[i] = g->played[i].move;
    bool ok = savegame_write(path, full ? full : g->path, g->v, g->start, moves, g->nplayed,
                             g->over ? result_winner(g) : NULL, g->reason, err, cap) &&
        read_file(path, text, err, cap);
    free(moves);
    free(full);
    unlink(path);
    rmdir(dir);
    free(dir);
    return ok;
}

/* The texts of the moves replayed from the start (the position is left after them). */
static void replay_texts(WebGame *g, const Move *moves, int n) {
    char err[200];
    fen_read(&g->pos, g->start, err, sizeof err);
    MoveList *ml = xmalloc(sizeof *ml);
    g->nplayed = 0;
    for (int i = 0; i < n; i++) {
        WebPly *p = &g->played[g->nplayed];
        p->move = moves[i];
        p->mover = board_mover(&g->pos);
        p->fullmove = g->pos.fullmove;
        if (moves[i].flags & MOVE_ELIMINATION) {
            p->mover = -1;
            snprintf(p->san, sizeof p->san, "-");
            snprintf(p->coord, sizeof p->coord, "-");
        } else {
            VmFault f = {0};
            movegen_legal(&g->gen, &g->pos, ml, &f);
            notation_san(&g->gen, &g->pos, ml, &moves[i], p->san, sizeof p->san);
            notation_move(g->v, &moves[i], p->coord, sizeof p->coord);
        }
        if (!board_make(&g->pos, &moves[i])) break;
        g->nplayed++;
    }
    free(ml);
}

WebGame *webgame_load(const char *text, WebResolveFn resolve, void *user, char *err, size_t cap) {
    SavedGame sg;
    if (!savegame_parse("saved game", text, &sg, err, cap)) return NULL;
    const char *name, *path;
    if (!resolve(user, sg.rules, &name, &path)) {
        refuse(err, cap, "saved game: its rule file '%s' is not one of the games served here", sg.rules);
        savegame_free(&sg);
        return NULL;
    }
    OptionSetting opts[MAX_OPTIONS];
    for (int i = 0; i < sg.noptions && i < MAX_OPTIONS; i++)
        opts[i] = (OptionSetting){sg.option_name[i], sg.option_value[i]};
    char lerr[600];
    Variant *v = load_rules(path, opts, sg.noptions, lerr, sizeof lerr);
    if (!v) {
        refuse(err, cap, "saved game: its rule file with its options does not load: %s", lerr);
        savegame_free(&sg);
        return NULL;
    }
    WebGame *g = game_alloc(v, name, path);
    Move *moves = xmalloc(sizeof(Move) * MAX_HISTORY);
    if (!savegame_replay(&sg, "saved game", &g->pos, moves, MAX_HISTORY, err, cap)) {
        free(moves);
        savegame_free(&sg);
        webgame_free(g);
        return NULL;
    }
    int n = g->pos.ply;
    /* the start position as text, read and written again as every start is */
    char ferr[200];
    fen_read(&g->pos, sg.start ? sg.start : v->setup, ferr, sizeof ferr);
    fen_write(&g->pos, g->start, sizeof g->start);
    replay_texts(g, moves, n);
    free(moves);
    update_result(g);
    /* results the rules cannot see (resignation, agreement) come from the file */
    if (!g->over && sg.result_winner && strcmp(sg.result_winner, "none") != 0) {
        g->over = true;
        for (int p = 0; p < v->nplayers; p++)
            if (!strcmp(sg.result_winner, v->player_names[p])) g->winner = p;
        const char *why = sg.result_reason;
        snprintf(g->reason, sizeof g->reason, "%s", why && *why && strcmp(why, "-") ? why : "the saved result");
    }
    savegame_free(&sg);
    g->paused = g->seats[webgame_mover(g)] != SEAT_HUMAN;
    return g;
}

/* ---- what the page is shown ----------------------------------------------------------------- */

/* An owner's colour as the rulebook's SVG gives it (describe.c): the one its name says, else
 * one of a fixed list by its number. */
static const char *owner_colour(const Variant *v, int owner) {
    static const char *const by_number[] = {"#ffffff", "#202020", "#c81e1e", "#1e50c8",
                                            "#1e8c3c", "#8c1e8c", "#1e8c8c", "#c8a01e"};
    static const struct {
        const char *name, *rgb;
    } named[] = {
        {"white", "#ffffff"},  {"black", "#202020"},  {"red", "#c81e1e"},    {"blue", "#1e50c8"},
        {"green", "#1e8c3c"},  {"yellow", "#e6c81e"}, {"purple", "#8c1e8c"}, {"orange", "#e07800"},
        {"silver", "#c8c8c8"}, {"gold", "#d4af37"},
    };
    for (size_t i = 0; i < ARRAY_LEN(named); i++)
        if (!strcasecmp(v->player_names[owner], named[i].name)) return named[i].rgb;
    return by_number[owner & 7];
}

static bool light_colour(const char *rgb) {
    return !strcmp(rgb, "#ffffff") || !strcmp(rgb, "#e6c81e") || !strcmp(rgb, "#c8c8c8") || !strcmp(rgb, "#d4af37");
}

/* How a piece of type t and owner is drawn, as the rulebook's SVG draws it (describe.c's
 * svg_piece): the rule file's glyph (two players, no armies of no one's) with its letter small in
 * the corner, else a disc in the owner's colour with the letter as position text writes it (the
 * owner's token first where armies are not players, the owner's number after it from the third
 * player on). */
static json_t *piece_look(const Variant *v, int t, int owner) {
    const PieceType *pt = &v->types[t];
    json_t *look = json_object();
    bool glyph =
        pt->symbol[owner][0] && (unsigned char)pt->symbol[owner][0] >= 0x80 && owner < 2 && v->nowners == v->nplayers;
    if (glyph) {
        jset(look, "glyph", jstr(pt->symbol[owner]));
        char letter[2] = {pt->letter, 0};
        jset(look, "corner", jstr(letter));
        return look;
    }
    char text[16];
    /* (a promoted type is "+P", as position text and the console write it: it is told apart
     * from the type it promoted from) */
    const char *plus = pt->promoted ? "+" : "";
    if (v->nowners > v->nplayers)
        snprintf(text, sizeof text, "%c%c", v->player_token[owner][0], pt->letter);
    else if (owner == 0)
        snprintf(text, sizeof text, "%s%c", plus, pt->letter);
    else if (owner == 1)
        snprintf(text, sizeof text, "%s%c", plus, (char)tolower((unsigned char)pt->letter));
    else
        snprintf(text, sizeof text, "%c%d", pt->letter, owner + 1);
    const char *fill = owner_colour(v, owner);
    jset(look, "disc", jstr(fill));
    jset(look, "text", jstr(text));
    jset(look, "ink", jstr(light_colour(fill) ? "#000" : "#fff"));
    return look;
}

static void capitalised(const char *name, char *buf, size_t cap) {
    snprintf(buf, cap, "%s", name);
    buf[0] = (char)toupper((unsigned char)buf[0]);
}

json_t *webgame_layout(const WebGame *g) {
    const Variant *v = g->v;
    json_t *lay = json_object();
    jset(lay, "game", jstr(g->name));
    jset(lay, "title", jstr(v->title ? v->title : g->name));
    json_t *boards = json_array();
    for (int b = 0; b < v->nboards; b++) {
        const Board *bd = &v->boards[b];
        json_array_append_new(boards,
                              json_pack("{s:o,s:o,s:i,s:i,s:i}", "name", jstr(bd->name), "title",
                                        jstr(bd->title[0] ? bd->title : bd->name), "width", bd->width, "height",
                                        bd->height, "holding_rows", bd->holding_rows));
    }
    jset(lay, "boards", boards);
    json_t *cells = json_array();
    for (int c = 0; c < v->ncells; c++) {
        const CellInfo *ci = &v->cells[c];
        json_array_append_new(cells,
                              json_pack("{s:o,s:i,s:i,s:i,s:b,s:b}", "name", jstr(ci->name), "board", ci->board, "x",
                                        ci->x, "y", ci->y, "light", v->colour[c] != 0, "holding", ci->holding));
    }
    jset(lay, "cells", cells);
    json_t *owners = json_array();
    for (int o = 0; o < v->nowners; o++) {
        int fx, fy;
        variant_orient_vector(v->orient[o], 0, 1, &fx, &fy);
        char name[32];
        capitalised(v->player_names[o], name, sizeof name);
        json_array_append_new(owners,
                              json_pack("{s:o,s:o,s:o,s:[i,i]}", "name", jstr(name), "token", jstr(v->player_token[o]),
                                        "colour", jstr(owner_colour(v, o)), "up", fx, fy));
    }
    jset(lay, "owners", owners);
    jset(lay, "players", json_integer(v->nplayers));
    json_t *types = json_array();
    for (int t = 0; t < v->ntypes; t++) {
        const PieceType *pt = &v->types[t];
        json_t *looks = json_array();
        for (int o = 0; o < v->nowners; o++) json_array_append_new(looks, piece_look(v, t, o));
        char letter[2] = {pt->letter, 0};
        json_array_append_new(types,
                              json_pack("{s:o,s:o,s:b,s:b,s:o}", "name", jstr(pt->name), "letter", jstr(letter),
                                        "promoted", pt->promoted, "royal", pt->royal, "looks", looks));
    }
    jset(lay, "types", types);
    json_t *kinds = json_array();
    for (int k = 0; k < v->nkinds || k == 0; k++) json_array_append_new(kinds, jstr(k ? v->kind_names[k] : "normal"));
    jset(lay, "kinds", kinds);
    json_t *options = json_array();
    for (int i = 0; i < v->noptions; i++) {
        const OptionDef *od = &v->options[i];
        json_t *values = json_array();
        for (int k = 0; k < od->nvalues; k++) json_array_append_new(values, jstr(od->values[k]));
        json_array_append_new(
            options,
            json_pack("{s:o,s:o,s:o}", "name", jstr(od->name), "values", values, "value", jstr(od->values[od->value])));
    }
    jset(lay, "options", options);
    jset(lay, "hands", json_boolean(v->has_hands));
    jset(lay, "hidden", json_boolean(g->hidden));
    return lay;
}

/* Whose view the screen shows in a game with secrets (as the console's): the one human against
 * the computer; in hot seat the human to move, or the last one who moved; nobody's (public
 * facts only: -1) when no human plays. -2: the game has no secrets. */
static int screen_owner(const WebGame *g) {
    if (!g->hidden) return -2;
    int humans = 0, human = -1;
    for (int p = 0; p < g->v->nplayers; p++)
        if (g->seats[p] == SEAT_HUMAN) humans++, human = p;
    if (humans == 1) return human;
    if (!humans) return -1;
    int mover = board_mover(&g->pos);
    return g->seats[mover] == SEAT_HUMAN ? mover : g->shown_to;
}

/* A move whose details are its player's secret (a mine placed, a card stacked in an order of
 * its own): the others learn only its kind. */
static bool secret_move(const WebGame *g, const Move *m) {
    if (!g->hidden) return false;
    if (m->flags & MOVE_TILE) return true;
    if (!(m->flags & MOVE_CARDS) || !m->nfx || m->fx[0].kind != FX_CARD) return false;
    for (int i = 0; i < g->v->ndraws; i++) {
        const CardRule *cr = &g->v->draws[i];
        if (cr->kind == m->kind && cr->own && !g->v->piles[cr->to].sorted) return true;
    }
    return false;
}

/* The most cells a move passes: its two ends and a pause per effect. */
#define MOVE_PATH_MAX (MAX_EFFECTS + 2)

/* The cells a person clicks to make m, in order: the piece, then where it goes (a drop or a
 * placement: only the cell; a pass or a move of cards: none, it is a button). A move made of
 * several hops names each cell it pauses on, and the page matches clicks to the list cell
 * by cell, so it is entered hop by hop. *drop: the type a drop puts down, else -1; *hand: it
 * comes from the mover's hand. path holds MOVE_PATH_MAX cells. */
static int move_path(const Move *m, Cell *path, int *drop, bool *hand) {
    *drop = -1;
    *hand = false;
    if (m->flags & (MOVE_PASS | MOVE_CARDS | MOVE_ELIMINATION) || m->to == NO_CELL) return 0;
    if (m->nfx && m->fx[0].kind == FX_PLACE && (m->from == m->to || (m->flags & MOVE_DROP))) {
        *drop = PIECE_TYPE(m->fx[0].piece);
        *hand = (m->flags & MOVE_DROP) != 0;
        path[0] = m->to;
        return 1;
    }
    int n = 0;
    if (m->from != NO_CELL) path[n++] = m->from;
    for (int i = 0; i < m->nfx; i++)
        if (m->fx[i].kind == FX_VIA) path[n++] = m->fx[i].a;
    if (n == 1 && m->from == m->to) return 1; /* (in place: the one cell) */
    path[n++] = m->to;
    return n;
}

/* The words a chooser shows for m beside its text: what it promotes to, a piece it brings in
 * through a gate, a copy (the move's kind is in its text already: "arrange:9"). */
static void move_label(const Variant *v, const Move *m, char *buf, size_t cap) {
    buf[0] = 0;
    size_t at = 0;
    if (m->promo != NO_TYPE) at += (size_t)snprintf(buf + at, cap - at, "becomes %s", v->types[m->promo].name);
    for (int i = 0; i < m->nfx && at < cap; i++)
        if ((m->flags & MOVE_GATE) && m->fx[i].kind == FX_PLACE)
            at += (size_t)snprintf(buf + at, cap - at, "%s%s enters on %s", at ? ", " : "",
                                   v->types[PIECE_TYPE(m->fx[i].piece)].name, v->cells[m->fx[i].a].name);
    if (at < cap && (m->flags & MOVE_COPY)) snprintf(buf + at, cap - at, "%swith the copy", at ? ", " : "");
}

static json_t *moves_json(WebGame *g) {
    json_t *list = json_array();
    MoveList *ml = xmalloc(sizeof *ml);
    if (legal_moves(g, ml))
        for (int i = 0; i < ml->count; i++) {
            const Move *m = &ml->moves[i];
            char san[64], coord[64], label[160];
            notation_san(&g->gen, &g->pos, ml, m, san, sizeof san);
            notation_move(g->v, m, coord, sizeof coord);
            move_label(g->v, m, label, sizeof label);
            Cell path[MOVE_PATH_MAX];
            int drop;
            bool hand;
            int n = move_path(m, path, &drop, &hand);
            json_t *cells = json_array();
            for (int k = 0; k < n; k++) json_array_append_new(cells, json_integer(path[k]));
            json_t *mj = json_pack("{s:o,s:o,s:o,s:o}", "text", jstr(coord), "san", jstr(san), "path", cells, "label",
                                   jstr(label));
            if (drop >= 0) jset(mj, "drop", json_integer(drop));
            if (hand) jset(mj, "hand", json_true());
            if (m->promo != NO_TYPE) jset(mj, "promo", json_integer(m->promo));
            if (m->kind) jset(mj, "kind", json_integer(m->kind));
            json_array_append_new(list, mj);
        }
    free(ml);
    return list;
}

/* "White wins by checkmate", "Red loses by stalemate", "draw by repetition" (the console's words). */
static void result_text(const WebGame *g, char *buf, size_t cap) {
    char name[32];
    if (g->winner >= 0) {
        capitalised(g->v->player_names[g->winner], name, sizeof name);
        snprintf(buf, cap, "%s wins by %s", name, g->reason);
    } else if (g->loser >= 0) {
        capitalised(g->v->player_names[g->loser], name, sizeof name);
        snprintf(buf, cap, "%s loses by %s", name, g->reason);
    } else {
        snprintf(buf, cap, "draw by %s", g->reason);
    }
}

static void status_text(WebGame *g, bool thinking, char *buf, size_t cap) {
    const Variant *v = g->v;
    Position *pos = &g->pos;
    if (g->over) {
        char r[128];
        result_text(g, r, sizeof r);
        snprintf(buf, cap, "Game over: %s.", r);
        return;
    }
    int mover = board_mover(pos);
    char name[32], phase[96] = "";
    capitalised(v->player_names[mover], name, sizeof name);
    if (pos->prelude < v->nprelude)
        snprintf(phase, sizeof phase, ", set-up: %s (%d of %d)", v->kind_names[v->prelude[pos->prelude].kind],
                 pos->prelude_moves + 1, v->prelude[pos->prelude].moves);
    else if (v->nphases)
        snprintf(phase, sizeof phase, ", phase %s", v->phases[pos->phase].name);
    bool check = v->has_royal && !movegen_safe_after(&g->gen, pos, mover);
    const char *who = g->seats[mover] == SEAT_HUMAN ? "" : thinking ? " (the computer is thinking)" : " (computer)";
    snprintf(buf, cap, "Move %d: %s to play%s%s%s", pos->fullmove, name, who, phase, check ? ". Check!" : "");
}

static json_t *history_json(const WebGame *g, int viewer) {
    json_t *list = json_array();
    for (int i = 0; i < g->nplayed; i++) {
        const WebPly *p = &g->played[i];
        if (p->move.flags & MOVE_ELIMINATION) {
            /* the defeat's move removes or hands over the loser's army */
            int loser = -1;
            for (int k = 0; k < p->move.nfx && loser < 0; k++)
                if (p->move.fx[k].kind == FX_ELIMINATE) loser = p->move.fx[k].a;
            json_array_append_new(list, json_pack("{s:i,s:i,s:i}", "out", loser, "mover", -1, "n", p->fullmove));
            continue;
        }
        bool secret = secret_move(g, &p->move) && viewer != p->mover && !g->over;
        const char *kind = g->v->kind_names[p->move.kind];
        char masked[64];
        snprintf(masked, sizeof masked, "%s (secret)", p->move.kind ? kind : "move");
        json_array_append_new(list,
                              json_pack("{s:o,s:o,s:i,s:i}", "san", jstr(secret ? masked : p->san), "text",
                                        jstr(secret ? masked : p->coord), "mover", p->mover, "n", p->fullmove));
    }
    return list;
}

json_t *webgame_state(WebGame *g, bool thinking) {
    const Variant *v = g->v;
    Position *pos = &g->pos;
    int viewer = screen_owner(g);
    json_t *st = json_object();
    int mover = board_mover(pos);
    jset(st, "ply", json_integer(g->nplayed));
    jset(st, "mover", json_integer(mover));
    json_t *seats = json_array();
    for (int p = 0; p < v->nplayers; p++) json_array_append_new(seats, jstr(ui_seat_name(g->seats[p])));
    jset(st, "seats", seats);
    jset(st, "time", json_real(g->seconds));
    jset(st, "depth", json_integer(g->depth));
    jset(st, "over", json_boolean(g->over));
    char text[WEBGAME_TEXT_MAX];
    if (g->over) {
        result_text(g, text, sizeof text);
        jset(st, "result", jstr(text));
    }
    status_text(g, thinking, text, sizeof text);
    jset(st, "status", jstr(text));
    jset(st, "check", json_boolean(!g->over && v->has_royal && !movegen_safe_after(&g->gen, pos, mover)));
    jset(st, "thinking", json_boolean(thinking));
    jset(st, "paused", json_boolean(g->paused && !g->over && g->seats[mover] != SEAT_HUMAN));
    jset(st, "viewer", json_integer(viewer));
    /* the pieces, cell by cell: [type, owner] or null */
    json_t *board = json_array();
    for (int c = 0; c < v->ncells; c++) {
        Piece p = pos->cell[c];
        json_array_append_new(board, p ? json_pack("[i,i]", PIECE_TYPE(p), PIECE_OWNER(p)) : json_null());
    }
    jset(st, "board", board);
    if (v->minefield_zone) {
        /* tiles: the viewer's own as they are, the others' face down */
        json_t *tiles = json_array();
        for (int c = 0; c < v->ncells; c++) {
            ViewTile vt = !pos->tiles[c] ? VIEW_NONE
                : viewer == -2           ? ((pos->tiles[c] & TILE_MINE) ? VIEW_OWN_MINE : VIEW_OWN_BLANK)
                : viewer >= 0            ? view_tile(pos, viewer, (Cell)c)
                                         : VIEW_UNKNOWN;
            if (g->over && pos->tiles[c]) vt = (pos->tiles[c] & TILE_MINE) ? VIEW_OWN_MINE : VIEW_OWN_BLANK;
            static const char *const words[] = {NULL, "mine", "blank", "unknown"};
            json_array_append_new(tiles,
                                  words[vt] ? json_pack("[s,i]", words[vt], TILE_OWNER(pos->tiles[c])) : json_null());
        }
        jset(st, "tiles", tiles);
    }
    if (v->has_hands) {
        json_t *hands = json_array();
        for (int p = 0; p < v->nplayers; p++) {
            json_t *h = json_array();
            for (int t = 0; t < v->ntypes; t++) json_array_append_new(h, json_integer(pos->hand[p][t]));
            json_array_append_new(hands, h);
        }
        jset(st, "hands", hands);
    }
    if (v->npiles) {
        json_t *piles = json_array();
        int seer = viewer == -2 ? -1 : viewer == -1 ? v->nplayers : viewer;
        if (g->over) seer = -1;
        for (int i = 0; i < v->npiles; i++) {
            const PileDef *pd = &v->piles[i];
            for (int k = 0; k < (pd->per_player ? v->nplayers : 1); k++) {
                json_t *cards = json_array();
                int slot = pd->slot + k;
                for (int c = 0; c < pos->pile_len[slot]; c++) {
                    int card = view_card(pos, seer, i, k, c);
                    json_array_append_new(cards, card < 0 ? json_null() : json_integer(card));
                }
                json_array_append_new(piles,
                                      json_pack("{s:o,s:i,s:o}", "name", jstr(pd->name), "owner",
                                                pd->per_player ? k : -1, "cards", cards));
            }
        }
        jset(st, "piles", piles);
        if (pos->debt) jset(st, "debt", json_integer(pos->debt));
    }
    if (v->ncounters) {
        json_t *counters = json_array();
        for (int i = 0; i < v->ncounters; i++) {
            const CounterDef *cd = &v->counters[i];
            json_t *values = json_array();
            for (int p = 0; p < (cd->per_player ? v->nplayers : 1); p++)
                json_array_append_new(values, json_integer(pos->counters[cd->slot + p]));
            json_array_append_new(
                counters,
                json_pack("{s:o,s:b,s:o}", "name", jstr(cd->name), "perPlayer", cd->per_player, "values", values));
        }
        jset(st, "counters", counters);
    }
    if (v->has_allegiance) {
        json_t *helps = json_array();
        for (int p = 0; p < v->nplayers; p++)
            json_array_append_new(helps, json_integer(pos->allegiance[p] == NO_OWNER ? -1 : pos->allegiance[p]));
        jset(st, "helps", helps);
    }
    /* the last move's cells, unless it was another player's secret */
    int last = g->nplayed - 1;
    while (last >= 0 && (g->played[last].move.flags & MOVE_ELIMINATION)) last--;
    if (last >= 0) {
        const WebPly *p = &g->played[last];
        Cell path[MOVE_PATH_MAX];
        int drop;
        bool hand;
        int n = move_path(&p->move, path, &drop, &hand);
        bool secret = secret_move(g, &p->move) && viewer != p->mover && !g->over;
        json_t *cells = json_array();
        for (int k = 0; k < n && !secret; k++) json_array_append_new(cells, json_integer(path[k]));
        jset(st, "last", cells);
    }
    jset(st, "history", history_json(g, viewer));
    /* (with secrets, only the screen's owner is shown its moves: another's would tell its secrets) */
    bool may_move = !thinking && webgame_human_may_move(g) && (viewer == -2 || viewer == mover);
    jset(st, "moves", may_move ? moves_json(g) : json_array());
    jset(st, "undo", json_boolean(g->nplayed > 0 && (!g->hidden || g->over)));
    jset(st, "redo", json_boolean(g->nundone > 0));
    jset(st, "setup", json_boolean(!g->over && pos->prelude < v->nprelude));
    if (g->hidden && !g->over) {
        jset(st, "fen", json_null());
        jset(st, "fenNote", jstr("the position text holds the players' secrets: it is shown when the game is over"));
    } else {
        fen_write(pos, text, sizeof text);
        jset(st, "fen", jstr(text));
    }
    describe_step(pos, text, sizeof text);
    if (text[0] && !g->over) jset(st, "step", jstr(text));
    if (g->fault[0]) jset(st, "fault", jstr(g->fault));
    return st;
}
