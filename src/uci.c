/* uci.c - the UCI engine protocol: the games that fit it offered as UCI_Variant, positions
 * set by `position`, searches started by `go` on a thread of their own (so `stop` and
 * `isready` are answered while it thinks), `go perft N` as Fairy-Stockfish prints it. Bad
 * input of any kind is answered with an `info string error:` line and changes nothing. */
#include "uci.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "fen.h"
#include "notation.h"
#include "perft.h"
#include "search.h"
#include "xboard.h"

#define UCI_MAX_WORDS 4096 /* words in one line: a `position` with some thousands of moves */
#define UCI_HASH_MAX 4096  /* MB */

struct UciSession {
    Engine e;              /* the output, the games, the game being played, the search thread */
    const char *game_name; /* the game's name, as offered */
    Move *only;            /* `go searchmoves`: the moves the search is given (MAX_MOVES) */
    MoveList *only_list;   /* the legal moves they are read from */
};

/* ---- moves ------------------------------------------------------------------------------------ */

/* A move of pos as UCI writes it: coordinates as `varia moves` prints them (e2e4, e7e8q, P@e4),
 * a pass as Fairy-Stockfish writes it, its royal piece's cell twice (e2e2), or UCI's null move
 * 0000 when the mover has no royal piece. */
static void uci_move(const Position *pos, const Move *m, char *buf, size_t cap) {
    if (!(m->flags & MOVE_PASS)) {
        notation_move(pos->v, m, buf, cap);
        return;
    }
    Cell c = engine_pass_cell(pos);
    if (c == NO_CELL)
        snprintf(buf, cap, "0000");
    else
        snprintf(buf, cap, "%s%s", pos->v->cells[c].name, pos->v->cells[c].name);
}

/* The move of ml (pos's legal moves) text names, or a negative number: as uci_move writes it, a
 * pass also as `pass` or `0000`. */
static int uci_find_move(const Position *pos, const MoveList *ml, const char *text) {
    int k = notation_find(pos->v, ml, text);
    if (k >= 0) return k;
    char pass[64];
    for (int i = 0; i < ml->count; i++) {
        if (!(ml->moves[i].flags & MOVE_PASS)) continue;
        uci_move(pos, &ml->moves[i], pass, sizeof pass);
        if (!strcmp(text, pass) || !strcmp(text, "pass") || !strcmp(text, "0000")) return i;
    }
    return k;
}

/* Makes v (loaded, fitting) the game, at its start position; says so when announce. */
static void set_game(UciSession *u, Variant *v, const char *name, bool announce) {
    engine_search_stop(&u->e, ENGINE_STOP_NOW);
    engine_set_game(&u->e, v, "info string error: ");
    u->game_name = name;
    if (announce) {
        char start[4096];
        fen_start(v, 1, start, sizeof start);
        const Board *b = &v->boards[0];
        engine_say(&u->e, "info string variant %s files %d ranks %d startpos %s", name, b->width, b->height, start);
    }
}

/* Loads a game by path and makes it the current one; false (with the reason said) when it
 * cannot be loaded or does not fit. */
static bool choose_file(UciSession *u, const char *path, const char *name, bool announce) {
    Variant *v = engine_load(&u->e, path, "info string error: ");
    if (!v) return false;
    const char *why = variant_protocol_misfit(v);
    if (why) {
        engine_say(&u->e, "info string error: %s cannot be played here: %s", path, why);
        variant_free(v);
        return false;
    }
    set_game(u, v, name, announce);
    return true;
}

/* ---- the search thread's output ---------------------------------------------------------- */

static void show_info(const SearchInfo *info, void *user) {
    UciSession *u = user;
    char pv[SEARCH_PV_MAX * 12], score[32];
    engine_pv(&u->e, info, uci_move, pv, sizeof pv);
    int moves, mate = engine_mate(info->score, &moves);
    if (mate > 0)
        snprintf(score, sizeof score, "mate %d", moves);
    else if (mate < 0)
        snprintf(score, sizeof score, "mate -%d", moves);
    else
        snprintf(score, sizeof score, "cp %d", info->score);
    unsigned long long nps = info->seconds > 0 ? (unsigned long long)((double)info->nodes / info->seconds) : 0;
    engine_say(&u->e, "info depth %d score %s nodes %llu nps %llu time %d pv%s", info->depth, score,
               (unsigned long long)info->nodes, nps, (int)(info->seconds * 1000), pv);
}

/* The search's answer: always a bestmove, also after `stop` or a change of game. */
static void show_best(void *user, bool ok, const SearchResult *res, bool discarded) {
    UciSession *u = user;
    (void)discarded;
    char buf[64] = "(none)";
    if (ok && res->has_move) uci_move(&u->e.pos, &res->best, buf, sizeof buf);
    engine_say(&u->e, "bestmove %s", buf);
}

UciSession *uci_new(const char *rules_dir, const char *file, FILE *out) {
    UciSession *u = xcalloc(1, sizeof *u);
    engine_init(&u->e, out, show_info, show_best, u);
    u->only = xmalloc(sizeof(Move) * MAX_MOVES);
    u->only_list = xmalloc(sizeof *u->only_list);
    engine_games_scan(&u->e, rules_dir);
    if (file) {
        choose_file(u, file, file, false);
        return u;
    }
    const EngineGame *games = u->e.games;
    int pick = -1;
    for (int i = 0; i < u->e.ngames; i++)
        if (pick < 0 || !strcmp(games[i].name, "chess")) pick = i; /* (the default game, as in play) */
    if (pick >= 0) choose_file(u, games[pick].path, games[pick].name, false);
    return u;
}

/* ---- commands ------------------------------------------------------------------------------ */

static void cmd_uci(UciSession *u) {
    engine_say(&u->e, "id name Varia");
    engine_say(&u->e, "id author the Varia authors");
    FILE *out = engine_out_lock(&u->e);
    fprintf(out, "option name UCI_Variant type combo default %s", u->game_name ? u->game_name : "<none>");
    for (int i = 0; i < u->e.ngames; i++) fprintf(out, " var %s", u->e.games[i].name);
    fprintf(out, "\noption name RulesFile type string default <empty>\n");
    fprintf(out, "option name Hash type spin default %d min 1 max %d\n", ENGINE_TT_MB, UCI_HASH_MAX);
    fprintf(out, "option name Threads type spin default 1 min 1 max %d\n", SEARCH_THREADS_MAX);
    fprintf(out, "option name Ponder type check default false\n");
    fprintf(out, "option name Skill Level type spin default 20 min 0 max 20\n");
    fprintf(out, "option name UCI_LimitStrength type check default false\n");
    fprintf(out, "option name UCI_Elo type spin default %d min %d max %d\n", ENGINE_ELO_MAX, ENGINE_ELO_MIN,
            ENGINE_ELO_MAX);
    engine_out_unlock(&u->e);
    engine_say(&u->e, "uciok");
}

/* setoption name NAME value VALUE (NAME and VALUE may hold spaces) */
static void cmd_setoption(UciSession *u, char **w, int n) {
    char name[256] = "", value[1024] = "";
    char *dst = NULL;
    size_t cap = 0;
    for (int i = 1; i < n; i++) {
        if (!strcmp(w[i], "name"))
            dst = name, cap = sizeof name;
        else if (!strcmp(w[i], "value"))
            dst = value, cap = sizeof value;
        else if (dst) {
            size_t len = strlen(dst);
            snprintf(dst + len, cap - len, "%s%s", len ? " " : "", w[i]);
        }
    }
    if (!strcasecmp(name, "Hash") || !strcasecmp(name, "Threads") || !strcasecmp(name, "Skill Level") ||
        !strcasecmp(name, "UCI_Elo")) {
        char *end;
        long x = strtol(value, &end, 10);
        bool hash = !strcasecmp(name, "Hash"), threads = !strcasecmp(name, "Threads"),
             elo = !strcasecmp(name, "UCI_Elo");
        long lo = elo ? ENGINE_ELO_MIN : hash || threads ? 1 : 0;
        long hi = hash ? UCI_HASH_MAX : threads ? SEARCH_THREADS_MAX : elo ? ENGINE_ELO_MAX : 20;
        if (end == value || *end || x < lo || x > hi) {
            engine_say(&u->e, "info string error: %s takes a number from %ld to %ld, not '%s'", name, lo, hi, value);
            return;
        }
        if (u->e.searching) {
            engine_say(&u->e, "info string error: %s cannot change while the engine thinks", name);
            return;
        }
        Engine *e = &u->e;
        if (hash)
            engine_set_hash(e, (size_t)x);
        else if (threads) {
            SearchOptions o = e->opt;
            o.threads = (int)x;
            engine_set_options(e, &o);
        } else
            engine_set_strength(e, elo ? e->skill : (int)x, e->limit_strength, elo ? (int)x : e->elo);
    } else if (!strcasecmp(name, "Ponder") || !strcasecmp(name, "UCI_LimitStrength")) {
        bool on = !strcasecmp(value, "true");
        if (!on && strcasecmp(value, "false")) {
            engine_say(&u->e, "info string error: %s is true or false, not '%s'", name, value);
            return;
        }
        if (!strcasecmp(name, "UCI_LimitStrength") && !u->e.searching)
            engine_set_strength(&u->e, u->e.skill, on, u->e.elo);
        /* (Ponder only tells that the GUI may send `go ponder`: nothing to set) */
    } else if (!strcasecmp(name, "UCI_Variant")) {
        int i = engine_game_find(&u->e, value);
        if (i >= 0)
            choose_file(u, u->e.games[i].path, u->e.games[i].name, true);
        else
            engine_say(&u->e, "info string error: unknown variant '%s'", value);
    } else if (!strcasecmp(name, "RulesFile")) {
        if (*value && strcmp(value, "<empty>")) {
            char *known_as = engine_game_name(value);
            int i = engine_game_find(&u->e, known_as);
            if (i >= 0) {
                free(known_as);
                choose_file(u, value, u->e.games[i].name, true);
            } else if (u->e.ngames < ENGINE_MAX_GAMES) {
                /* remembered, so the name shown stays valid while the session lasts */
                EngineGame *g = &u->e.games[u->e.ngames];
                g->name = known_as;
                g->path = xstrndup(value, strlen(value));
                if (choose_file(u, g->path, g->name, true))
                    u->e.ngames++;
                else
                    free(g->name), free(g->path);
            } else {
                free(known_as);
                engine_say(&u->e, "info string error: too many rule files (limit is %d)", ENGINE_MAX_GAMES);
            }
        }
    } else {
        engine_say(&u->e, "info string error: unknown option '%s'", name);
    }
}

/* position startpos|fen FIELDS... [moves M...]: the whole command or nothing. */
static void cmd_position(UciSession *u, char **w, int n) {
    if (!u->e.v) {
        engine_say(&u->e, "info string error: no game is loaded");
        return;
    }
    int i = 1;
    char text[4096] = "";
    if (i < n && !strcmp(w[i], "startpos")) {
        fen_start(u->e.v, 1, text, sizeof text);
        i++;
    } else if (i < n && !strcmp(w[i], "fen")) {
        size_t at = 0;
        for (i++; i < n && strcmp(w[i], "moves"); i++)
            at += (size_t)snprintf(text + at, at < sizeof text ? sizeof text - at : 0, "%s%s", at ? " " : "", w[i]);
        if (at >= sizeof text) {
            engine_say(&u->e, "info string error: position text too long");
            return;
        }
    } else {
        engine_say(&u->e, "info string error: position takes startpos or fen");
        return;
    }
    Position *pos = xmalloc(sizeof *pos);
    board_init(pos, u->e.v);
    char err[200];
    bool ok = fen_read(pos, text, err, sizeof err) && movegen_position_ok(&u->e.gen, pos, err, sizeof err);
    if (!ok) engine_say(&u->e, "info string error: bad position '%s': %s", text, err);
    if (ok && i < n && strcmp(w[i], "moves")) {
        engine_say(&u->e, "info string error: expected 'moves', not '%s'", w[i]);
        ok = false;
    }
    MoveList *ml = xmalloc(sizeof *ml);
    int first_move = i + 1;
    for (i++; ok && i < n; i++) {
        VmFault f = {0};
        movegen_legal(&u->e.gen, pos, ml, &f);
        int k = uci_find_move(pos, ml, w[i]);
        if (k < 0 || f.set) {
            engine_say(&u->e, "info string error: illegal move '%s' (move %d of the list)", w[i], i - first_move + 1);
            ok = false;
        } else if (!board_make(pos, &ml->moves[k])) {
            engine_say(&u->e, "info string error: too many moves");
            ok = false;
        }
    }
    free(ml);
    if (ok) {
        engine_search_stop(&u->e, ENGINE_STOP_NOW);
        board_copy(&u->e.pos, pos);
    }
    board_free(pos);
    free(pos);
}

static bool read_number(UciSession *u, char **w, int n, int i, long long lo, long long hi, long long *out) {
    char *end;
    if (i >= n) {
        engine_say(&u->e, "info string error: '%s' needs a number", w[i - 1]);
        return false;
    }
    long long x = strtoll(w[i], &end, 10);
    if (end == w[i] || *end || x < lo || x > hi) {
        engine_say(&u->e, "info string error: bad number '%s' after '%s'", w[i], w[i - 1]);
        return false;
    }
    *out = x;
    return true;
}

/* The pass line of perft_divide's text (`pass: N`) written as uci_move writes the pass. */
static void say_pass_as_uci(UciSession *u, char **text) {
    char *line = *text;
    while (line && strncmp(line, "pass: ", 6)) line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
    if (!line) return;
    MoveList *ml = u->only_list;
    VmFault f = {0};
    movegen_legal(&u->e.gen, &u->e.pos, ml, &f);
    for (int i = 0; i < ml->count; i++) {
        if (!(ml->moves[i].flags & MOVE_PASS)) continue;
        char pass[64], *out = NULL;
        uci_move(&u->e.pos, &ml->moves[i], pass, sizeof pass);
        size_t len = 0;
        FILE *mem = open_memstream(&out, &len);
        if (!mem) return;
        fprintf(mem, "%.*s%s%s", (int)(line - *text), *text, pass, line + 4);
        fclose(mem);
        free(*text);
        *text = out;
        return;
    }
}

static void go_perft(UciSession *u, int depth) {
    VmFault f = {0};
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) return;
    uint64_t nodes = depth > 0 ? perft_divide(&u->e.gen, &u->e.pos, depth, mem, &f) : 1;
    fclose(mem);
    say_pass_as_uci(u, &text);
    engine_say(&u->e, "%s\nNodes searched: %llu\n", text, (unsigned long long)nodes);
    free(text);
    if (f.set)
        engine_say(&u->e, "info string error: %s:%d:%d: runtime fault: %s", f.file ? f.file : "?", f.line, f.col,
                   f.msg);
}

/* The words of `go` that end a `searchmoves` list. */
static bool is_go_keyword(const char *w) {
    static const char *const keys[] = {"perft", "infinite", "ponder",    "depth", "movetime", "wtime",       "btime",
                                       "winc",  "binc",     "movestogo", "nodes", "mate",     "searchmoves", NULL};
    for (int i = 0; keys[i]; i++)
        if (!strcmp(w, keys[i])) return true;
    return false;
}

/* go [perft N] [depth N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
 *    [movestogo N] [infinite] [ponder] [nodes N] [searchmoves M...] */
static void cmd_go(UciSession *u, char **w, int n) {
    if (!u->e.v) {
        engine_say(&u->e, "info string error: no game is loaded");
        return;
    }
    engine_search_stop(&u->e, ENGINE_STOP_NOW);
    long long depth = 0, movetime = -1, time[2] = {-1, -1}, inc[2] = {0, 0}, togo = 0, nodes = 0, mate = 0, x;
    bool infinite = false, ponder = false;
    int nonly = 0;
    for (int i = 1; i < n; i++) {
        const char *k = w[i];
        if (!strcmp(k, "perft")) {
            if (!read_number(u, w, n, ++i, 0, 20, &x)) return;
            go_perft(u, (int)x);
            return;
        }
        if (!strcmp(k, "infinite") || !strcmp(k, "ponder")) {
            infinite = true;
            ponder |= k[0] == 'p';
        } else if (!strcmp(k, "depth")) {
            if (!read_number(u, w, n, ++i, 1, MAX_PLY - 8, &depth)) return;
        } else if (!strcmp(k, "movetime")) {
            if (!read_number(u, w, n, ++i, 0, 86400000, &movetime)) return;
        } else if (!strcmp(k, "wtime") || !strcmp(k, "btime")) {
            if (!read_number(u, w, n, ++i, -86400000, 86400000 * 10LL, &time[k[0] == 'b'])) return;
        } else if (!strcmp(k, "winc") || !strcmp(k, "binc")) {
            if (!read_number(u, w, n, ++i, 0, 86400000, &inc[k[0] == 'b'])) return;
        } else if (!strcmp(k, "movestogo")) {
            if (!read_number(u, w, n, ++i, 0, 100000, &togo)) return;
        } else if (!strcmp(k, "nodes")) {
            if (!read_number(u, w, n, ++i, 1, 1LL << 50, &nodes)) return;
        } else if (!strcmp(k, "mate")) {
            if (!read_number(u, w, n, ++i, 1, (MAX_PLY - 8) / 2, &mate)) return;
        } else if (!strcmp(k, "searchmoves")) {
            /* the moves up to the next keyword, each a legal move */
            MoveList *ml = u->only_list;
            VmFault f = {0};
            movegen_legal(&u->e.gen, &u->e.pos, ml, &f);
            for (; i + 1 < n && !is_go_keyword(w[i + 1]); i++) {
                int m = uci_find_move(&u->e.pos, ml, w[i + 1]);
                if (m < 0) {
                    engine_say(&u->e, "info string error: searchmoves: '%s' is not a legal move", w[i + 1]);
                    return;
                }
                if (nonly < MAX_MOVES) u->only[nonly++] = ml->moves[m];
            }
        } else {
            engine_say(&u->e, "info string error: unknown go parameter '%s'", k);
            return;
        }
    }
    if (mate && !depth && movetime < 0 && time[0] < 0 && time[1] < 0 && !infinite)
        depth = 2 * mate - 1; /* (a mate in N moves shows within 2N-1 plies) */
    SearchLimits lim = {.depth = (int)depth, .nodes = (uint64_t)nodes, .mate = (int)mate};
    if (nonly) lim.only = u->only, lim.nonly = nonly;
    int side = board_mover(&u->e.pos) == 0 ? 0 : 1;
    if (movetime >= 0)
        lim.seconds = (double)movetime / 1000.0;
    else if (time[side] >= 0) {
        /* the clock: the search takes its share (search_time_budget) */
        lim.clock = (double)(time[side] > 0 ? time[side] : 1) / 1000.0;
        lim.increment = (double)inc[side] / 1000.0;
        lim.moves_to_go = (int)togo;
    }
    lim.ponder = ponder && (lim.seconds > 0 || lim.clock > 0);
    if (!lim.depth && lim.seconds <= 0 && lim.clock <= 0 && !nodes) {
        infinite = true; /* (a bare `go` thinks until `stop`, as engines do) */
        lim.depth = MAX_PLY - 8;
    }
    if (!engine_search_start(&u->e, lim, infinite)) engine_say(&u->e, "info string error: cannot start the search");
}

static void cmd_display(UciSession *u) {
    if (!u->e.v) {
        engine_say(&u->e, "info string error: no game is loaded");
        return;
    }
    char buf[4096];
    fen_write(&u->e.pos, buf, sizeof buf);
    engine_say(&u->e, "Fen: %s", buf);
}

bool uci_line(UciSession *u, const char *line) {
    char **w = xmalloc(sizeof(char *) * UCI_MAX_WORDS);
    int n;
    char *copy = engine_words(line, w, UCI_MAX_WORDS, &n);
    bool go_on = true;
    if (n == UCI_MAX_WORDS)
        engine_say(&u->e, "info string error: line too long (limit is %d words)", UCI_MAX_WORDS - 1);
    else if (n == 0) {
    } else if (!strcmp(w[0], "uci"))
        cmd_uci(u);
    else if (!strcmp(w[0], "isready"))
        engine_say(&u->e, "readyok");
    else if (!strcmp(w[0], "ucinewgame")) {
        engine_search_stop(&u->e, ENGINE_STOP_NOW);
        if (u->e.searcher) search_clear(u->e.searcher);
    } else if (!strcmp(w[0], "setoption"))
        cmd_setoption(u, w, n);
    else if (!strcmp(w[0], "position"))
        cmd_position(u, w, n);
    else if (!strcmp(w[0], "go"))
        cmd_go(u, w, n);
    else if (!strcmp(w[0], "stop"))
        engine_search_stop(&u->e, ENGINE_STOP_NOW);
    else if (!strcmp(w[0], "ponderhit"))
        engine_search_finite(&u->e); /* (the pondering search now answers when it ends) */
    else if (!strcmp(w[0], "d"))
        cmd_display(u);
    else if (!strcmp(w[0], "quit"))
        go_on = false;
    else if (!strcmp(w[0], "debug") || !strcmp(w[0], "register")) {
    } else
        engine_say(&u->e, "info string error: unknown command '%s'", w[0]);
    free(w);
    free(copy);
    return go_on;
}

void uci_free(UciSession *u) {
    if (!u) return;
    engine_close(&u->e, ENGINE_STOP_NOW);
    free(u->only);
    free(u->only_list);
    free(u);
}

int uci_run(const char *rules_dir, const char *file, FILE *in, FILE *out) {
    UciSession *u = uci_new(rules_dir, file, out);
    char *line = NULL;
    size_t cap = 0;
    bool go_on = true, first = true;
    while (go_on && engine_read_line(&u->e, in, &line, &cap, "info string error: line ignored: it holds a NUL byte")) {
        if (first && (!strcmp(line, "xboard") || !strcmp(line, "xboard\r"))) {
            /* a GUI speaking XBoard's protocol, as engines allow */
            uci_free(u);
            free(line);
            return xboard_run(rules_dir, &file, file ? 1 : 0, in, out);
        }
        first = false;
        go_on = uci_line(u, line);
    }
    free(line);
    /* at the end of input a search with limits ends by itself; an infinite one is stopped */
    if (go_on) engine_search_stop(&u->e, ENGINE_STOP_WAIT);
    uci_free(u);
    return 0;
}
