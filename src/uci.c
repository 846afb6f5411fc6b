/* uci.c - the UCI engine protocol: the games that fit it offered as UCI_Variant, positions
 * set by `position`, searches started by `go` on a thread of their own (so `stop` and
 * `isready` are answered while it thinks), `go perft N` as Fairy-Stockfish prints it. Bad
 * input of any kind is answered with an `info string error:` line and changes nothing. */
#include "uci.h"

#include <dirent.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fen.h"
#include "load.h"
#include "notation.h"
#include "perft.h"
#include "search.h"
#include "xboard.h"

#define UCI_TT_MB 32
#define UCI_MAX_GAMES 64
#define UCI_MAX_WORDS 4096 /* words in one line: a `position` with some thousands of moves */

typedef struct UciGame {
    char *name; /* the rule file's name without .rules */
    char *path;
} UciGame;

struct UciSession {
    FILE *out;
    pthread_mutex_t out_lock;
    UciGame games[UCI_MAX_GAMES];
    int ngames;
    Variant *v;             /* the game being played, or NULL when none could be loaded */
    const char *game_name;  /* its name, as offered */
    Position pos;           /* valid when v */
    GenContext gen;         /* for the session's own move generation (the search has its own) */
    Searcher *searcher;
    /* the search thread */
    pthread_t thread;
    bool searching;         /* a thread was started and not yet joined */
    pthread_mutex_t lock;   /* guards stop_requested, for the infinite search's wait */
    pthread_cond_t cond;
    bool infinite, stop_requested;
    SearchLimits lim;
};

static void say(UciSession *u, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void say(UciSession *u, const char *fmt, ...) {
    pthread_mutex_lock(&u->out_lock);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(u->out, fmt, ap);
    va_end(ap);
    fputc('\n', u->out);
    fflush(u->out);
    pthread_mutex_unlock(&u->out_lock);
}

/* (declared in uci.h: xboard.c offers the same games) */
/* Loads path; on failure prints its diagnostics as info strings and returns NULL. */
static Variant *load_rules(UciSession *u, const char *path, bool quiet) {
    DiagSink sink;
    diag_init(&sink);
    Variant *v = load_file(path, NULL, 0, &sink);
    if (!v && !quiet) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (mem) {
            diag_render(&sink, mem);
            fclose(mem);
            for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) say(u, "info string error: %s", line);
            free(text);
        }
    }
    diag_free(&sink);
    return v;
}

static void stop_search(UciSession *u, bool interrupt);

/* Makes v (loaded, fitting) the game, at its start position; says so when announce. */
static void set_game(UciSession *u, Variant *v, const char *name, bool announce) {
    stop_search(u, true);
    if (u->v) {
        board_free(&u->pos);
        search_free(u->searcher);
        variant_free(u->v);
    }
    u->v = v;
    u->game_name = name;
    board_init(&u->pos, v);
    char start[4096], err[200];
    fen_start(v, 1, start, sizeof start);
    if (!fen_read(&u->pos, start, err, sizeof err)) say(u, "info string error: bad start position: %s", err);
    u->searcher = search_new(v, UCI_TT_MB);
    const Board *b = &v->boards[0];
    if (announce) say(u, "info string variant %s files %d ranks %d startpos %s", name, b->width, b->height, start);
}

static int compare_games(const void *a, const void *b) {
    return strcmp(((const UciGame *)a)->name, ((const UciGame *)b)->name);
}

/* The games of dir that fit UCI, sorted by name. */
static void find_games(UciSession *u, const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && u->ngames < UCI_MAX_GAMES) {
        size_t len = strlen(e->d_name);
        if (len <= 6 || strcmp(e->d_name + len - 6, ".rules")) continue;
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        Variant *v = load_rules(u, path, true);
        if (v && !variant_protocol_misfit(v)) {
            u->games[u->ngames].name = xstrndup(e->d_name, len - 6);
            u->games[u->ngames].path = xstrndup(path, strlen(path));
            u->ngames++;
        }
        variant_free(v);
    }
    closedir(d);
    qsort(u->games, (size_t)u->ngames, sizeof u->games[0], compare_games);
}

/* Loads a game by path and makes it the current one; false (with the reason said) when it
 * cannot be loaded or does not fit. */
static bool choose_file(UciSession *u, const char *path, const char *name, bool announce) {
    Variant *v = load_rules(u, path, false);
    if (!v) return false;
    const char *why = variant_protocol_misfit(v);
    if (why) {
        say(u, "info string error: %s cannot be played here: %s", path, why);
        variant_free(v);
        return false;
    }
    set_game(u, v, name, announce);
    return true;
}

UciSession *uci_new(const char *rules_dir, const char *file, FILE *out) {
    UciSession *u = xcalloc(1, sizeof *u);
    u->out = out;
    genctx_init(&u->gen);
    pthread_mutex_init(&u->out_lock, NULL);
    pthread_mutex_init(&u->lock, NULL);
    pthread_cond_init(&u->cond, NULL);
    find_games(u, rules_dir);
    if (file) {
        choose_file(u, file, file, false);
        return u;
    }
    int pick = -1;
    for (int i = 0; i < u->ngames; i++)
        if (pick < 0 || !strcmp(u->games[i].name, "chess")) pick = i; /* (the default game, as in play) */
    if (pick >= 0) choose_file(u, u->games[pick].path, u->games[pick].name, false);
    return u;
}

/* ---- the search thread ------------------------------------------------------------------- */

static void show_info(const SearchInfo *info, void *user) {
    UciSession *u = user;
    char pv[SEARCH_PV_MAX * 12] = "", buf[64];
    size_t at = 0;
    for (int i = 0; i < info->pvlen; i++) {
        notation_move(u->v, &info->pv[i], buf, sizeof buf);
        at += (size_t)snprintf(pv + at, sizeof pv - at, " %s", buf);
        if (at >= sizeof pv) break;
    }
    char score[32];
    if (info->score > SEARCH_MATE_BOUND) snprintf(score, sizeof score, "mate %d", (SEARCH_MATE - info->score + 1) / 2);
    else if (info->score < -SEARCH_MATE_BOUND) snprintf(score, sizeof score, "mate -%d", (SEARCH_MATE + info->score) / 2);
    else snprintf(score, sizeof score, "cp %d", info->score);
    unsigned long long nps = info->seconds > 0 ? (unsigned long long)((double)info->nodes / info->seconds) : 0;
    say(u, "info depth %d score %s nodes %llu nps %llu time %d pv%s", info->depth, score,
        (unsigned long long)info->nodes, nps, (int)(info->seconds * 1000), pv);
}

static void *search_thread(void *arg) {
    UciSession *u = arg;
    SearchResult res = {0};
    bool ok = search_run(u->searcher, &u->pos, &u->lim, &res, show_info, u);
    /* an infinite search answers only when told to stop, even when it has finished */
    pthread_mutex_lock(&u->lock);
    while (u->infinite && !u->stop_requested) pthread_cond_wait(&u->cond, &u->lock);
    pthread_mutex_unlock(&u->lock);
    char buf[64] = "(none)";
    if (ok && res.has_move) notation_move(u->v, &res.best, buf, sizeof buf);
    say(u, "bestmove %s", buf);
    return NULL;
}

/* Ends the search thread: interrupted (`stop`, or a command that changes the game), or
 * waited for (the end of input after `go depth N`). */
static void stop_search(UciSession *u, bool interrupt) {
    if (!u->searching) return;
    pthread_mutex_lock(&u->lock);
    u->stop_requested = true;
    pthread_cond_signal(&u->cond);
    pthread_mutex_unlock(&u->lock);
    if (interrupt || u->infinite) search_interrupt = 1;
    pthread_join(u->thread, NULL);
    search_interrupt = 0;
    u->searching = false;
}

/* ---- commands ------------------------------------------------------------------------------ */

static void cmd_uci(UciSession *u) {
    say(u, "id name Varia");
    say(u, "id author the Varia authors");
    pthread_mutex_lock(&u->out_lock);
    fprintf(u->out, "option name UCI_Variant type combo default %s", u->game_name ? u->game_name : "<none>");
    for (int i = 0; i < u->ngames; i++) fprintf(u->out, " var %s", u->games[i].name);
    fprintf(u->out, "\noption name RulesFile type string default <empty>\n");
    fflush(u->out);
    pthread_mutex_unlock(&u->out_lock);
    say(u, "uciok");
}

/* setoption name NAME value VALUE (NAME and VALUE may hold spaces) */
static void cmd_setoption(UciSession *u, char **w, int n) {
    char name[256] = "", value[1024] = "";
    char *dst = NULL;
    size_t cap = 0;
    for (int i = 1; i < n; i++) {
        if (!strcmp(w[i], "name")) dst = name, cap = sizeof name;
        else if (!strcmp(w[i], "value")) dst = value, cap = sizeof value;
        else if (dst) {
            size_t len = strlen(dst);
            snprintf(dst + len, cap - len, "%s%s", len ? " " : "", w[i]);
        }
    }
    if (!strcasecmp(name, "UCI_Variant")) {
        for (int i = 0; i < u->ngames; i++)
            if (!strcmp(u->games[i].name, value)) {
                choose_file(u, u->games[i].path, u->games[i].name, true);
                return;
            }
        say(u, "info string error: unknown variant '%s'", value);
    } else if (!strcasecmp(name, "RulesFile")) {
        if (*value && strcmp(value, "<empty>")) {
            /* the name it is known by: the file's, without directory and .rules */
            const char *base = strrchr(value, '/') ? strrchr(value, '/') + 1 : value;
            static const char suffix[] = ".rules";
            size_t len = strlen(base);
            if (len > sizeof suffix - 1 && !strcmp(base + len - (sizeof suffix - 1), suffix)) len -= sizeof suffix - 1;
            for (int i = 0; i < u->ngames; i++)
                if (strlen(u->games[i].name) == len && !strncmp(u->games[i].name, base, len)) {
                    choose_file(u, value, u->games[i].name, true);
                    return;
                }
            if (u->ngames < UCI_MAX_GAMES) {
                /* remembered, so the name shown stays valid while the session lasts */
                UciGame *g = &u->games[u->ngames];
                g->name = xstrndup(base, len);
                g->path = xstrndup(value, strlen(value));
                if (choose_file(u, g->path, g->name, true)) u->ngames++;
                else free(g->name), free(g->path);
            } else {
                say(u, "info string error: too many rule files (limit is %d)", UCI_MAX_GAMES);
            }
        }
    } else {
        say(u, "info string error: unknown option '%s'", name);
    }
}

/* position startpos|fen FIELDS... [moves M...]: the whole command or nothing. */
static void cmd_position(UciSession *u, char **w, int n) {
    if (!u->v) {
        say(u, "info string error: no game is loaded");
        return;
    }
    int i = 1;
    char text[4096] = "";
    if (i < n && !strcmp(w[i], "startpos")) {
        fen_start(u->v, 1, text, sizeof text);
        i++;
    } else if (i < n && !strcmp(w[i], "fen")) {
        size_t at = 0;
        for (i++; i < n && strcmp(w[i], "moves"); i++)
            at += (size_t)snprintf(text + at, at < sizeof text ? sizeof text - at : 0, "%s%s", at ? " " : "", w[i]);
        if (at >= sizeof text) {
            say(u, "info string error: position text too long");
            return;
        }
    } else {
        say(u, "info string error: position takes startpos or fen");
        return;
    }
    Position *pos = xmalloc(sizeof *pos);
    board_init(pos, u->v);
    char err[200];
    bool ok = fen_read(pos, text, err, sizeof err) && movegen_position_ok(&u->gen, pos, err, sizeof err);
    if (!ok) say(u, "info string error: bad position '%s': %s", text, err);
    if (ok && i < n && strcmp(w[i], "moves")) {
        say(u, "info string error: expected 'moves', not '%s'", w[i]);
        ok = false;
    }
    MoveList *ml = xmalloc(sizeof *ml);
    int first_move = i + 1;
    for (i++; ok && i < n; i++) {
        VmFault f = {0};
        movegen_legal(&u->gen, pos, ml, &f);
        int k = notation_find(u->v, ml, w[i]);
        if (k < 0 || f.set) {
            say(u, "info string error: illegal move '%s' (move %d of the list)", w[i], i - first_move + 1);
            ok = false;
        } else if (!board_make(pos, &ml->moves[k])) {
            say(u, "info string error: too many moves");
            ok = false;
        }
    }
    free(ml);
    if (ok) {
        stop_search(u, true);
        board_copy(&u->pos, pos);
    }
    board_free(pos);
    free(pos);
}

static bool read_number(UciSession *u, char **w, int n, int i, long long lo, long long hi, long long *out) {
    char *end;
    if (i >= n) {
        say(u, "info string error: '%s' needs a number", w[i - 1]);
        return false;
    }
    long long x = strtoll(w[i], &end, 10);
    if (end == w[i] || *end || x < lo || x > hi) {
        say(u, "info string error: bad number '%s' after '%s'", w[i], w[i - 1]);
        return false;
    }
    *out = x;
    return true;
}

static void go_perft(UciSession *u, int depth) {
    VmFault f = {0};
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) return;
    uint64_t nodes = depth > 0 ? perft_divide(&u->gen, &u->pos, depth, mem, &f) : 1;
    fclose(mem);
    pthread_mutex_lock(&u->out_lock);
    fprintf(u->out, "%s\nNodes searched: %llu\n\n", text, (unsigned long long)nodes);
    fflush(u->out);
    pthread_mutex_unlock(&u->out_lock);
    free(text);
    if (f.set) say(u, "info string error: %s:%d:%d: runtime fault: %s", f.file ? f.file : "?", f.line, f.col, f.msg);
}

/* go [perft N] [depth N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS]
 *    [movestogo N] [infinite] [ponder] [nodes N] [searchmoves M...] */
static void cmd_go(UciSession *u, char **w, int n) {
    if (!u->v) {
        say(u, "info string error: no game is loaded");
        return;
    }
    stop_search(u, true);
    long long depth = 0, movetime = -1, time[2] = {-1, -1}, inc[2] = {0, 0}, togo = 0, x;
    bool infinite = false;
    for (int i = 1; i < n; i++) {
        const char *k = w[i];
        if (!strcmp(k, "perft")) {
            if (!read_number(u, w, n, ++i, 0, 20, &x)) return;
            go_perft(u, (int)x);
            return;
        }
        if (!strcmp(k, "infinite") || !strcmp(k, "ponder")) infinite = true;
        else if (!strcmp(k, "depth")) {
            if (!read_number(u, w, n, ++i, 1, MAX_PLY - 8, &depth)) return;
        } else if (!strcmp(k, "movetime")) {
            if (!read_number(u, w, n, ++i, 0, 86400000, &movetime)) return;
        } else if (!strcmp(k, "wtime") || !strcmp(k, "btime")) {
            if (!read_number(u, w, n, ++i, -86400000, 86400000 * 10LL, &time[k[0] == 'b'])) return;
        } else if (!strcmp(k, "winc") || !strcmp(k, "binc")) {
            if (!read_number(u, w, n, ++i, 0, 86400000, &inc[k[0] == 'b'])) return;
        } else if (!strcmp(k, "movestogo")) {
            if (!read_number(u, w, n, ++i, 0, 100000, &togo)) return;
        } else if (!strcmp(k, "nodes") || !strcmp(k, "mate")) {
            if (!read_number(u, w, n, ++i, 0, 1LL << 50, &x)) return;
            say(u, "info string '%s' is not supported: the other limits apply", k);
        } else if (!strcmp(k, "searchmoves")) {
            say(u, "info string 'searchmoves' is not supported: every move is searched");
            break;
        } else {
            say(u, "info string error: unknown go parameter '%s'", k);
            return;
        }
    }
    SearchLimits lim = {.depth = (int)depth};
    int side = board_mover(&u->pos) == 0 ? 0 : 1;
    if (movetime >= 0) lim.seconds = (double)movetime / 1000.0;
    else if (time[side] >= 0) {
        /* a share of the time left (movestogo, or 30 more moves), most of the increment, and
         * never more than 40% of what is left */
        double left = (double)(time[side] > 0 ? time[side] : 1) / 1000.0;
        double share = left / (double)(togo > 0 ? togo : 30) + 0.8 * (double)inc[side] / 1000.0;
        lim.seconds = share < left * 0.4 ? share : left * 0.4;
        if (lim.seconds < 0.01) lim.seconds = 0.01;
    }
    if (!lim.depth && lim.seconds <= 0) {
        infinite = true; /* (a bare `go` thinks until `stop`, as engines do) */
        lim.depth = MAX_PLY - 8;
    }
    u->lim = lim;
    u->infinite = infinite;
    u->stop_requested = false;
    if (pthread_create(&u->thread, NULL, search_thread, u) != 0) {
        say(u, "info string error: cannot start the search");
        return;
    }
    u->searching = true;
}

static void cmd_display(UciSession *u) {
    if (!u->v) {
        say(u, "info string error: no game is loaded");
        return;
    }
    char buf[4096];
    fen_write(&u->pos, buf, sizeof buf);
    say(u, "Fen: %s", buf);
}

/* Splits line into words (in place); returns how many. */
static int split_words(char *line, char **w, int max) {
    int n = 0;
    for (char *p = strtok(line, " \t\r"); p && n < max; p = strtok(NULL, " \t\r")) w[n++] = p;
    return n;
}

bool uci_line(UciSession *u, const char *line) {
    size_t len = strlen(line);
    char *copy = xstrndup(line, len);
    for (char *p = copy; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\t') *p = '?'; /* (never echoed back raw) */
    char **w = xmalloc(sizeof(char *) * UCI_MAX_WORDS);
    int n = split_words(copy, w, UCI_MAX_WORDS);
    bool go_on = true;
    if (n == UCI_MAX_WORDS) say(u, "info string error: line too long (limit is %d words)", UCI_MAX_WORDS - 1);
    else if (n == 0) {
    } else if (!strcmp(w[0], "uci")) cmd_uci(u);
    else if (!strcmp(w[0], "isready")) say(u, "readyok");
    else if (!strcmp(w[0], "ucinewgame")) {
        stop_search(u, true);
        if (u->searcher) search_clear(u->searcher);
    } else if (!strcmp(w[0], "setoption")) cmd_setoption(u, w, n);
    else if (!strcmp(w[0], "position")) cmd_position(u, w, n);
    else if (!strcmp(w[0], "go")) cmd_go(u, w, n);
    else if (!strcmp(w[0], "stop")) stop_search(u, true);
    else if (!strcmp(w[0], "ponderhit")) {
        pthread_mutex_lock(&u->lock);
        u->infinite = false; /* (the pondering search now answers when it ends) */
        pthread_cond_signal(&u->cond);
        pthread_mutex_unlock(&u->lock);
    } else if (!strcmp(w[0], "d")) cmd_display(u);
    else if (!strcmp(w[0], "quit")) go_on = false;
    else if (!strcmp(w[0], "debug") || !strcmp(w[0], "register")) {
    } else say(u, "info string error: unknown command '%s'", w[0]);
    free(w);
    free(copy);
    return go_on;
}

void uci_free(UciSession *u) {
    if (!u) return;
    stop_search(u, true);
    if (u->v) {
        board_free(&u->pos);
        search_free(u->searcher);
        variant_free(u->v);
    }
    for (int i = 0; i < u->ngames; i++) {
        free(u->games[i].name);
        free(u->games[i].path);
    }
    pthread_mutex_destroy(&u->out_lock);
    pthread_mutex_destroy(&u->lock);
    pthread_cond_destroy(&u->cond);
    free(u);
}

int uci_run(const char *rules_dir, const char *file, FILE *in, FILE *out) {
    UciSession *u = uci_new(rules_dir, file, out);
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    bool go_on = true, first = true;
    while (go_on && (got = getline(&line, &cap, in)) >= 0) {
        if (memchr(line, 0, (size_t)got)) {
            say(u, "info string error: line ignored: it holds a NUL byte");
            continue;
        }
        line[strcspn(line, "\n")] = 0;
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
    if (go_on) stop_search(u, false);
    uci_free(u);
    return 0;
}
