/* webapi.c - the JSON API of `varia serve` (see webapi.h). One lock guards the table of games
 * and every game in it: a request finds its game, acts and answers under it (all quick). What
 * takes long runs outside it on a game marked busy, so it is not freed meanwhile: the computer's
 * search, on a copy of the position, and the rulebook. There is one search at a time: the search
 * stops on the one flag search_interrupt, so with one search running, stopping it stops only the
 * game it belongs to. */
#include "webapi.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "describe.h"
#include "webgame.h"

#define WEBAPI_TT_MB 16         /* the transposition table of each game's computer player */
#define ID_LEN 32               /* hex digits of a game's id */
#define WEBAPI_SHOW_MS 5000     /* longest wait for a page to see a computer's move before the next */
#define WEBAPI_WATCHED_MS 10000 /* a game asked about this recently has a page watching it */

typedef struct Slot {
    char id[ID_LEN + 1];
    WebGame *g;
    unsigned version; /* changes with everything the page shows */
    uint64_t used;    /* when a request last named it (the api's clock) */
    int busy;         /* a search or a rulebook works on it outside the lock */
    bool closed;      /* out of the table: freed when no longer busy */
    bool want_think;  /* the computer is to choose a move (queued) */
    bool think_once;  /* ... for a human seat, asked to play this move */
    uint64_t queued;  /* when it was queued (first come, first served) */
    bool cancel;      /* the search under way is to be thrown away */
    /* After a computer's move the next one waits until a page was sent the position (or
     * WEBAPI_SHOW_MS went by), so that a person sees each move and not only the last of a row;
     * only while a page watches: a request waits for a change, or one came lately. */
    int waiting;                /* state requests waiting for a change */
    struct timespec asked;      /* (CLOCK_MONOTONIC) when a request last named it */
    unsigned shown;             /* the newest version a page said it has (a state request's after) */
    unsigned hold;              /* the version of the computer's last move */
    struct timespec hold_until; /* (CLOCK_MONOTONIC) */
    Searcher *search;           /* made at the first search */
    Position *think_pos;
} Slot;

typedef struct GameEntry {
    char *name, *path;
} GameEntry;

struct WebApi {
    GameEntry *games;
    int ngames;
    int first; /* the game offered first */
    OptionSetting *options;
    int noptions;
    double seconds;
    int depth;
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a game's version went up (state requests that wait) */
    pthread_cond_t work;    /* a search is queued, or the thread is to end */
    Slot *slots[WEBAPI_GAMES_MAX];
    Slot *thinking; /* the game whose search runs now */
    bool quit;
    bool running; /* the computer's thread was started */
    uint64_t clock;
    pthread_t worker;
};

/* ---- replies ------------------------------------------------------------------------------ */

static void reply_json(WebReply *out, int status, json_t *j) {
    out->status = status;
    out->type = "application/json; charset=utf-8";
    out->body = json_dumps(j, JSON_COMPACT);
    if (!out->body) out->body = xstrdup("{\"error\":\"the reply could not be written\"}"), out->status = 500;
    out->len = strlen(out->body);
    json_decref(j);
}

void webapi_error(WebReply *out, int status, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *j = json_object();
    json_t *s = json_string(msg);
    if (!s) {
        /* a message cut inside a UTF-8 sequence, or a name with odd bytes */
        for (char *p = msg; *p; p++)
            if ((unsigned char)*p >= 0x80) *p = '?';
        s = json_string(msg);
    }
    json_object_set_new(j, "error", s);
    reply_json(out, status, j);
}

/* ---- the list of games -------------------------------------------------------------------- */

static int entry_cmp(const void *a, const void *b) {
    return strcmp(((const GameEntry *)a)->name, ((const GameEntry *)b)->name);
}

/* A rule file's name in the list: its file name without directory and ".rules". */
static char *game_name(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 6 && !strcmp(base + n - 6, ".rules")) n -= 6;
    return xstrndup(base, n);
}

static int find_game(const WebApi *api, const char *name) {
    for (int i = 0; i < api->ngames; i++)
        if (!strcmp(api->games[i].name, name)) return i;
    return -1;
}

static void add_game(WebApi *api, const char *name, const char *path) {
    int i = find_game(api, name);
    if (i >= 0) {
        /* the rule file given on the command line stands for the shipped one of its name */
        free(api->games[i].path);
        api->games[i].path = xstrdup(path);
        return;
    }
    api->games = xrealloc(api->games, sizeof *api->games * (size_t)(api->ngames + 1));
    api->games[api->ngames++] = (GameEntry){xstrdup(name), xstrdup(path)};
}

/* A saved game's rule file: the game of the list with the same name, whatever the directory it
 * was saved from (a page may not make the server read any other file). */
static bool resolve_saved(void *user, const char *rules, const char **name, const char **path) {
    WebApi *api = user;
    char *n = game_name(rules);
    int i = find_game(api, n);
    free(n);
    if (i < 0) return false;
    *name = api->games[i].name;
    *path = api->games[i].path;
    return true;
}

/* ---- games ------------------------------------------------------------------------------- */

static void new_id(char *id) {
    unsigned char bytes[ID_LEN / 2];
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    bool ok = fd >= 0 && read(fd, bytes, sizeof bytes) == (ssize_t)sizeof bytes;
    if (fd >= 0) close(fd);
    if (!ok) {
        /* no kernel randomness: the clock, mixed (ids still differ, if guessable) */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)(uintptr_t)id;
        for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (unsigned char)(rng_next(&x) >> 24);
    }
    for (size_t i = 0; i < sizeof bytes; i++) snprintf(id + 2 * i, 3, "%02x", bytes[i]);
}

static void slot_free(Slot *s) {
    search_free(s->search);
    if (s->think_pos) board_free(s->think_pos);
    free(s->think_pos);
    webgame_free(s->g);
    free(s);
}

/* Takes s out of the table; it is freed now, or by whoever ends the last work on it. */
static void slot_close(WebApi *api, Slot *s) {
    for (int i = 0; i < WEBAPI_GAMES_MAX; i++)
        if (api->slots[i] == s) api->slots[i] = NULL;
    s->closed = true;
    s->want_think = false;
    if (api->thinking == s) {
        search_interrupt = 1;
        s->cancel = true;
    }
    if (!s->busy) slot_free(s);
}

static void slot_release(Slot *s) {
    if (--s->busy == 0 && s->closed) slot_free(s);
}

/* Now plus ms on the monotonic clock. */
static struct timespec mono_after(long ms) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) t.tv_sec++, t.tv_nsec -= 1000000000L;
    return t;
}

static Slot *find_slot(WebApi *api, const char *id) {
    for (int i = 0; i < WEBAPI_GAMES_MAX; i++)
        if (api->slots[i] && !strcmp(api->slots[i]->id, id)) {
            api->slots[i]->used = ++api->clock;
            clock_gettime(CLOCK_MONOTONIC, &api->slots[i]->asked);
            return api->slots[i];
        }
    return NULL;
}

/* Adds a game to the table, closing the one idle longest when the table is full. */
static Slot *slot_add(WebApi *api, WebGame *g) {
    int at = -1;
    for (int i = 0; i < WEBAPI_GAMES_MAX && at < 0; i++)
        if (!api->slots[i]) at = i;
    if (at < 0) {
        at = 0;
        for (int i = 1; i < WEBAPI_GAMES_MAX; i++)
            if (api->slots[i]->used < api->slots[at]->used) at = i;
        slot_close(api, api->slots[at]);
    }
    Slot *s = xcalloc(1, sizeof *s);
    new_id(s->id);
    s->g = g;
    s->used = ++api->clock;
    api->slots[at] = s;
    return s;
}

/* The page's view changed: bump the version and wake the requests that wait for it. */
static void changed(WebApi *api, Slot *s) {
    s->version++;
    pthread_cond_broadcast(&api->changed);
}

/* Throws away the search of s, if one runs or waits. */
static void stop_thinking(WebApi *api, Slot *s) {
    s->want_think = false;
    s->think_once = false;
    if (api->thinking == s) {
        search_interrupt = 1;
        s->cancel = true;
    }
}

/* Queues the computer's move when a computer seat is to move and may. */
static void schedule(WebApi *api, Slot *s) {
    WebGame *g = s->g;
    if (s->closed || g->over || api->thinking == s || s->want_think) return;
    if (!s->think_once && (g->paused || g->seats[webgame_mover(g)] == SEAT_HUMAN)) return;
    s->want_think = true;
    s->queued = ++api->clock;
    pthread_cond_signal(&api->work);
}

/* ---- the computer's thread ---------------------------------------------------------------- */

static bool before(const struct timespec *a, const struct timespec *b) {
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* The game queued first whose last computer's move was seen (or waited for long enough); *wake:
 * when a held one may go anyway (tv_sec 0: none is held). */
static Slot *next_job(WebApi *api, struct timespec *wake) {
    Slot *best = NULL;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    wake->tv_sec = 0;
    for (int i = 0; i < WEBAPI_GAMES_MAX; i++) {
        Slot *s = api->slots[i];
        if (!s || !s->want_think) continue;
        if (s->shown < s->hold && before(&now, &s->hold_until)) {
            if (!wake->tv_sec || before(&s->hold_until, wake)) *wake = s->hold_until;
            continue;
        }
        if (!best || s->queued < best->queued) best = s;
    }
    return best;
}

static void *worker_main(void *arg) {
    WebApi *api = arg;
    pthread_mutex_lock(&api->lock);
    while (!api->quit) {
        struct timespec wake;
        Slot *s = next_job(api, &wake);
        if (!s) {
            if (wake.tv_sec)
                pthread_cond_timedwait(&api->work, &api->lock, &wake);
            else
                pthread_cond_wait(&api->work, &api->lock);
            continue;
        }
        WebGame *g = s->g;
        s->want_think = false;
        s->cancel = false;
        s->busy++;
        api->thinking = s;
        search_interrupt = 0;
        int kind = s->think_once ? SEAT_AI : g->seats[webgame_mover(g)];
        s->think_once = false;
        if (!s->search) s->search = search_new(g->v, WEBAPI_TT_MB);
        if (!s->think_pos) {
            s->think_pos = xmalloc(sizeof *s->think_pos);
            board_init(s->think_pos, g->v);
        }
        board_copy(s->think_pos, &g->pos);
        SearchLimits lim = {.depth = g->depth, .seconds = g->seconds, .seed = g->seed};
        if (!lim.depth && lim.seconds <= 0) lim.seconds = 1;
        uint64_t rng = g->rng;
        bool hidden = g->hidden;
        changed(api, s); /* the page shows that the computer thinks */
        unsigned at = s->version;
        pthread_mutex_unlock(&api->lock);
        Move m;
        bool ok = webgame_choose(s->search, s->think_pos, kind, &lim, hidden, &rng, &m);
        pthread_mutex_lock(&api->lock);
        bool stopped = search_interrupt != 0;
        search_interrupt = 0;
        api->thinking = NULL;
        if (!s->closed) {
            if (!s->cancel && !stopped && s->version == at && ok) {
                g->rng = rng;
                if (!webgame_play(g, &m)) g->paused = true; /* the length limit */
                struct timespec lately = mono_after(-WEBAPI_WATCHED_MS);
                if (s->waiting || before(&lately, &s->asked)) {
                    s->hold = s->version + 1; /* (the version changed() gives it below) */
                    s->hold_until = mono_after(WEBAPI_SHOW_MS);
                }
            } else if (!s->cancel && s->version == at) {
                g->paused = true; /* stopped, or no move found: the seat waits to be told to go */
            }
            changed(api, s);
            schedule(api, s);
        }
        s->cancel = false;
        slot_release(s);
    }
    pthread_mutex_unlock(&api->lock);
    return NULL;
}

/* ---- requests ----------------------------------------------------------------------------- */

typedef enum FieldKind { F_STRING, F_INT, F_NUMBER, F_BOOL, F_ARRAY, F_OBJECT } FieldKind;
typedef struct Field {
    const char *name;
    FieldKind kind;
    bool required;
} Field;

static const char *const kind_words[] = {"a string",      "an integer", "a number",
                                         "true or false", "an array",   "an object"};

static bool field_fits(const json_t *j, FieldKind k) {
    switch (k) {
    case F_STRING: return json_is_string(j);
    case F_INT: return json_is_integer(j);
    case F_NUMBER: return json_is_number(j);
    case F_BOOL: return json_is_boolean(j);
    case F_ARRAY: return json_is_array(j);
    case F_OBJECT: return json_is_object(j);
    }
    return false;
}

/* The request's fields are those named, of their kinds, the required ones present. */
static bool check_fields(const json_t *req, const Field *fields, size_t n, WebReply *out) {
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)req, key, value) {
        size_t i = 0;
        while (i < n && strcmp(fields[i].name, key)) i++;
        if (i == n) {
            webapi_error(out, 400, "unknown field '%s' in the request", key);
            return false;
        }
        if (!field_fits(value, fields[i].kind)) {
            webapi_error(out, 400, "field '%s' must be %s", key, kind_words[fields[i].kind]);
            return false;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (fields[i].required && !json_object_get(req, fields[i].name)) {
            webapi_error(out, 400, "the request needs the field '%s'", fields[i].name);
            return false;
        }
    return true;
}

/* Seats, time and depth of a request, checked before anything changes. */
typedef struct SeatRequest {
    int nseats;
    int seats[MAX_PLAYERS];
    bool has_time, has_depth;
    double time;
    int depth;
} SeatRequest;

static bool read_seats(const json_t *req, SeatRequest *sr, WebReply *out) {
    memset(sr, 0, sizeof *sr);
    const json_t *seats = json_object_get(req, "seats");
    if (seats) {
        size_t n = json_array_size(seats);
        if (n < 1 || n > MAX_PLAYERS) {
            webapi_error(out, 400, "seats: one to %d entries, one per player", MAX_PLAYERS);
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            const json_t *e = json_array_get(seats, i);
            int kind = json_is_string(e) ? ui_seat_kind(json_string_value(e)) : -1;
            if (kind < 0) {
                webapi_error(out, 400, "seats[%zu]: human, ai, greedy or random", i);
                return false;
            }
            sr->seats[i] = kind;
        }
        sr->nseats = (int)n;
    }
    const json_t *t = json_object_get(req, "time");
    if (t) {
        double d = json_number_value(t);
        if (!(d >= 0 && d <= 3600)) {
            webapi_error(out, 400, "time: seconds per move, 0 to 3600");
            return false;
        }
        sr->has_time = true;
        sr->time = d;
    }
    const json_t *dj = json_object_get(req, "depth");
    if (dj) {
        json_int_t d = json_integer_value(dj);
        if (d < 0 || d > MAX_PLY - 8) {
            webapi_error(out, 400, "depth: 0 (no limit) to %d", MAX_PLY - 8);
            return false;
        }
        sr->has_depth = true;
        sr->depth = (int)d;
    }
    return true;
}

/* Seats for a game of nplayers: more seats than players is an error. */
static bool seats_fit(const SeatRequest *sr, int nplayers, WebReply *out) {
    if (sr->nseats > nplayers) {
        webapi_error(out, 400, "seats: the game has %d players, not %d", nplayers, sr->nseats);
        return false;
    }
    return true;
}

static void apply_seats(WebGame *g, const SeatRequest *sr) {
    for (int i = 0; i < sr->nseats; i++) g->seats[i] = sr->seats[i];
    if (sr->has_time) g->seconds = sr->time;
    if (sr->has_depth) g->depth = sr->depth;
}

/* The game's answer: id, version, state, and the layout when asked. */
static void reply_game(WebApi *api, Slot *s, bool layout, WebReply *out) {
    json_t *j = json_object();
    json_object_set_new(j, "id", json_string(s->id));
    json_object_set_new(j, "version", json_integer(s->version));
    if (layout) json_object_set_new(j, "layout", webgame_layout(s->g));
    json_object_set_new(j, "state", webgame_state(s->g, api->thinking == s || s->want_think));
    reply_json(out, 200, j);
}

static void req_games(WebApi *api, WebReply *out) {
    json_t *list = json_array();
    for (int i = 0; i < api->ngames; i++) json_array_append_new(list, json_string(api->games[i].name));
    json_t *j = json_object();
    json_object_set_new(j, "games", list);
    json_object_set_new(j, "first", json_string(api->games[api->first].name));
    reply_json(out, 200, j);
}

static const Field seat_fields[] = {{"seats", F_ARRAY, false}, {"time", F_NUMBER, false}, {"depth", F_INT, false}};

/* A new game, loaded outside the lock (loading takes some milliseconds). */
static void req_new(WebApi *api, const json_t *req, WebReply *out) {
    static const Field fields[] = {{"game", F_STRING, false}, {"options", F_OBJECT, false}, {"seats", F_ARRAY, false},
                                   {"time", F_NUMBER, false}, {"depth", F_INT, false},      {"seed", F_INT, false}};
    SeatRequest sr;
    if (!check_fields(req, fields, ARRAY_LEN(fields), out) || !read_seats(req, &sr, out)) return;
    const json_t *seed = json_object_get(req, "seed");
    if (seed && json_integer_value(seed) < 0) {
        webapi_error(out, 400, "seed: a number of 0 or more");
        return;
    }
    const json_t *gj = json_object_get(req, "game");
    const char *name = gj ? json_string_value(gj) : api->games[api->first].name;
    int gi = find_game(api, name);
    if (gi < 0) {
        webapi_error(out, 404, "unknown game '%s' (GET /api/games lists them)", name);
        return;
    }
    OptionSetting opts[MAX_OPTIONS];
    int nopts = 0;
    const json_t *oj = json_object_get(req, "options");
    const char *key;
    json_t *value;
    if (!oj && gi == api->first && api->noptions) {
        /* the command line's options go with its game */
        nopts = api->noptions;
        memcpy(opts, api->options, sizeof opts[0] * (size_t)nopts);
    }
    json_object_foreach((json_t *)oj, key, value) {
        if (!json_is_string(value)) {
            webapi_error(out, 400, "options: the value of '%s' must be a string", key);
            return;
        }
        if (nopts >= MAX_OPTIONS) {
            webapi_error(out, 400, "options: too many (limit is %d)", MAX_OPTIONS);
            return;
        }
        opts[nopts++] = (OptionSetting){key, json_string_value(value)};
    }
    char err[2048];
    WebGame *g = webgame_new(api->games[gi].name, api->games[gi].path, opts, nopts, err, sizeof err);
    if (!g) {
        webapi_error(out, 400, "%s", err);
        return;
    }
    if (!seats_fit(&sr, g->v->nplayers, out)) {
        webgame_free(g);
        return;
    }
    g->seconds = api->seconds;
    g->depth = api->depth;
    apply_seats(g, &sr);
    if (seed) webgame_seed(g, (uint64_t)json_integer_value(seed));
    pthread_mutex_lock(&api->lock);
    Slot *s = slot_add(api, g);
    schedule(api, s);
    reply_game(api, s, true, out);
    pthread_mutex_unlock(&api->lock);
}

static void req_load(WebApi *api, const json_t *req, WebReply *out) {
    static const Field fields[] = {
        {"text", F_STRING, true}, {"seats", F_ARRAY, false}, {"time", F_NUMBER, false}, {"depth", F_INT, false}};
    SeatRequest sr;
    if (!check_fields(req, fields, ARRAY_LEN(fields), out) || !read_seats(req, &sr, out)) return;
    char err[2048];
    WebGame *g = webgame_load(json_string_value(json_object_get(req, "text")), resolve_saved, api, err, sizeof err);
    if (!g) {
        webapi_error(out, 400, "%s", err);
        return;
    }
    if (!seats_fit(&sr, g->v->nplayers, out)) {
        webgame_free(g);
        return;
    }
    g->seconds = api->seconds;
    g->depth = api->depth;
    apply_seats(g, &sr);
    g->paused = g->seats[webgame_mover(g)] != SEAT_HUMAN;
    pthread_mutex_lock(&api->lock);
    Slot *s = slot_add(api, g);
    reply_game(api, s, true, out);
    pthread_mutex_unlock(&api->lock);
}

/* The rulebook of a game as one HTML page (describe's text and pictures), made outside the
 * lock on the game marked busy. */
static void req_rules(WebApi *api, const char *id, WebReply *out) {
    pthread_mutex_lock(&api->lock);
    Slot *s = find_slot(api, id);
    if (!s) {
        pthread_mutex_unlock(&api->lock);
        webapi_error(out, 404, "unknown game id '%s' (start a new game)", id);
        return;
    }
    s->busy++;
    pthread_mutex_unlock(&api->lock);
    char err[600];
    const char *tmp = getenv("TMPDIR");
    char path[600];
    snprintf(path, sizeof path, "%s/varia-rules-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    bool ok = fd >= 0;
    if (!ok) snprintf(err, sizeof err, "cannot make a scratch file: %s", strerror(errno));
    if (fd >= 0) close(fd);
    ok = ok && describe_html(s->g->v, path, err, sizeof err);
    char *html = NULL;
    size_t len = 0;
    FILE *f = ok ? fopen(path, "rb") : NULL;
    if (f) {
        FILE *mem = open_memstream(&html, &len);
        char chunk[8192];
        size_t got;
        while (mem && (got = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, got, mem);
        if (mem) fclose(mem);
        fclose(f);
    }
    if (fd >= 0) unlink(path);
    pthread_mutex_lock(&api->lock);
    slot_release(s);
    pthread_mutex_unlock(&api->lock);
    if (!html) {
        webapi_error(out, 500, "the rulebook could not be made: %s", ok ? "out of memory" : err);
        return;
    }
    out->status = 200;
    out->type = "text/html; charset=utf-8";
    out->body = html;
    out->len = len;
}

/* A request on one game: the action under the lock. */
typedef enum Action {
    A_STATE,
    A_MOVE,
    A_UNDO,
    A_REDO,
    A_RESTART,
    A_RANDOM,
    A_SEATS,
    A_GO,
    A_STOP,
    A_SAVE,
    A_CLOSE
} Action;

static const struct {
    const char *path;
    Action action;
} game_actions[] = {
    {"/api/state", A_STATE},     {"/api/move", A_MOVE},     {"/api/undo", A_UNDO},   {"/api/redo", A_REDO},
    {"/api/restart", A_RESTART}, {"/api/random", A_RANDOM}, {"/api/seats", A_SEATS}, {"/api/go", A_GO},
    {"/api/stop", A_STOP},       {"/api/save", A_SAVE},     {"/api/close", A_CLOSE},
};

/* The fields each action takes besides "id". */
static size_t action_fields(Action a, Field *f) {
    size_t n = 0;
    f[n++] = (Field){"id", F_STRING, true};
    switch (a) {
    case A_STATE:
        f[n++] = (Field){"after", F_INT, false};
        f[n++] = (Field){"wait", F_NUMBER, false};
        f[n++] = (Field){"layout", F_BOOL, false};
        break;
    case A_MOVE:
        f[n++] = (Field){"move", F_STRING, true};
        f[n++] = (Field){"version", F_INT, false};
        break;
    case A_UNDO:
    case A_REDO:
    case A_RESTART:
    case A_RANDOM: f[n++] = (Field){"version", F_INT, false}; break;
    case A_SEATS:
        for (size_t i = 0; i < ARRAY_LEN(seat_fields); i++) f[n++] = seat_fields[i];
        break;
    default: break;
    }
    return n;
}

/* Waits (the lock held, released while waiting) until s's version passes after, the wait is
 * over or s is closed. */
static void wait_change(WebApi *api, Slot *s, unsigned after, double seconds) {
    struct timespec until = mono_after((long)(seconds * 1000));
    s->waiting++;
    while (s->version <= after && !s->closed && !api->quit)
        if (pthread_cond_timedwait(&api->changed, &api->lock, &until) == ETIMEDOUT) break;
    s->waiting--;
}

static void req_game(WebApi *api, Action a, const json_t *req, WebReply *out) {
    Field fields[8];
    size_t nf = action_fields(a, fields);
    SeatRequest sr;
    if (!check_fields(req, fields, nf, out) || (a == A_SEATS && !read_seats(req, &sr, out))) return;
    const char *id = json_string_value(json_object_get(req, "id"));
    const json_t *after = json_object_get(req, "after"), *wait = json_object_get(req, "wait");
    double wait_s = wait ? json_number_value(wait) : 0;
    if (wait && !(wait_s >= 0 && wait_s <= WEBAPI_WAIT_MAX)) {
        webapi_error(out, 400, "wait: seconds, 0 to %d", WEBAPI_WAIT_MAX);
        return;
    }
    pthread_mutex_lock(&api->lock);
    Slot *s = find_slot(api, id);
    if (!s) {
        pthread_mutex_unlock(&api->lock);
        webapi_error(out, 404, "unknown game id '%s' (it may have been closed: start a new game)", id);
        return;
    }
    WebGame *g = s->g;
    const json_t *vj = json_object_get(req, "version");
    if (vj && json_integer_value(vj) != (json_int_t)s->version) {
        pthread_mutex_unlock(&api->lock);
        webapi_error(out, 409, "the game has changed (it is at version %u now): look again before acting", s->version);
        return;
    }
    char err[600];
    bool ok = true;
    bool layout = false;
    switch (a) {
    case A_STATE:
        layout = json_is_true(json_object_get(req, "layout"));
        if (after && json_integer_value(after) > (json_int_t)s->shown && json_integer_value(after) <= s->version) {
            /* the page has shown this version: a computer's move held for it may go on */
            s->shown = (unsigned)json_integer_value(after);
            if (s->want_think) pthread_cond_signal(&api->work);
        }
        if (after && wait_s > 0) {
            json_int_t v = json_integer_value(after);
            s->busy++; /* (not freed while it waits) */
            if (v >= 0 && v < (json_int_t)UINT32_MAX) wait_change(api, s, (unsigned)v, wait_s);
            bool closed = s->closed;
            slot_release(s);
            if (closed) {
                pthread_mutex_unlock(&api->lock);
                webapi_error(out, 404, "the game was closed");
                return;
            }
        }
        break;
    case A_MOVE: {
        const char *text = json_string_value(json_object_get(req, "move"));
        if (api->thinking == s || s->want_think)
            ok = refuse(err, sizeof err, "the computer is choosing a move for %s: stop it first",
                        g->v->player_names[webgame_mover(g)]);
        else if (!g->over && !webgame_human_may_move(g))
            ok = refuse(err, sizeof err, "it is the computer's turn (%s)", g->v->player_names[webgame_mover(g)]);
        else if (!g->over && g->hidden && g->seats[webgame_mover(g)] != SEAT_HUMAN)
            ok = refuse(err, sizeof err, "in a game with hidden information the computer makes its own moves (%s)",
                        g->v->player_names[webgame_mover(g)]);
        else
            ok = webgame_move_text(g, text, err, sizeof err);
        break;
    }
    case A_UNDO:
    case A_REDO: {
        /* the search under way goes only if something is taken back */
        bool can = a == A_UNDO ? g->nplayed > 0 && (!g->hidden || g->over) : g->nundone > 0;
        if (can) stop_thinking(api, s);
        ok = a == A_UNDO ? webgame_undo(g, err, sizeof err) : webgame_redo(g, err, sizeof err);
        break;
    }
    case A_RESTART:
        stop_thinking(api, s);
        webgame_restart(g, true);
        break;
    case A_RANDOM:
        if (api->thinking == s || s->want_think)
            ok = refuse(err, sizeof err, "the computer is choosing a move: stop it first");
        else
            ok = webgame_random_setup(g, err, sizeof err);
        break;
    case A_SEATS:
        if ((ok = seats_fit(&sr, g->v->nplayers, out))) {
            int before = g->seats[webgame_mover(g)];
            apply_seats(g, &sr);
            if (before != g->seats[webgame_mover(g)]) stop_thinking(api, s);
            g->paused = false;
        } else {
            pthread_mutex_unlock(&api->lock);
            return; /* (the error is written) */
        }
        break;
    case A_GO:
        if (g->over)
            ok = refuse(err, sizeof err, "the game is over");
        else if (api->thinking != s && !s->want_think) {
            g->paused = false;
            s->think_once = g->seats[webgame_mover(g)] == SEAT_HUMAN;
        }
        break;
    case A_STOP:
        stop_thinking(api, s);
        if (!g->over) g->paused = true;
        break;
    case A_SAVE: {
        char *text = NULL;
        ok = webgame_save(g, &text, err, sizeof err);
        if (ok) {
            char file[96];
            snprintf(file, sizeof file, "%s.txt", g->name);
            json_t *j = json_pack("{s:s,s:s}", "text", text, "file", file);
            free(text);
            pthread_mutex_unlock(&api->lock);
            if (!j) {
                webapi_error(out, 500, "the saved game is not UTF-8 text");
                return;
            }
            reply_json(out, 200, j);
            return;
        }
        pthread_mutex_unlock(&api->lock);
        webapi_error(out, 500, "%s", err);
        return;
    }
    case A_CLOSE:
        slot_close(api, s);
        pthread_mutex_unlock(&api->lock);
        reply_json(out, 200, json_pack("{s:b}", "closed", 1));
        return;
    }
    if (!ok) {
        pthread_mutex_unlock(&api->lock);
        webapi_error(out, a == A_MOVE || a == A_UNDO || a == A_REDO || a == A_RANDOM || a == A_GO ? 409 : 400, "%s",
                     err);
        return;
    }
    if (a != A_STATE) {
        changed(api, s);
        schedule(api, s);
    }
    reply_game(api, s, layout, out);
    pthread_mutex_unlock(&api->lock);
}

void webapi_handle(WebApi *api, const char *method, const char *path, const char *body, size_t len, WebReply *out) {
    memset(out, 0, sizeof *out);
    bool get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
    bool post = !strcmp(method, "POST");
    if (!strcmp(path, "/api/games")) {
        if (get)
            req_games(api, out);
        else
            webapi_error(out, 405, "GET /api/games");
        return;
    }
    if (!strncmp(path, "/api/rules/", 11)) {
        if (get)
            req_rules(api, path + 11, out);
        else
            webapi_error(out, 405, "GET /api/rules/ID");
        return;
    }
    int action = -1;
    bool known = !strcmp(path, "/api/new") || !strcmp(path, "/api/load");
    for (size_t i = 0; i < ARRAY_LEN(game_actions); i++)
        if (!strcmp(path, game_actions[i].path)) action = (int)i, known = true;
    if (!known)
        webapi_error(out, 404, "no such request: %s", path);
    else if (!post)
        webapi_error(out, 405, "%s takes POST with a JSON object", path);
    else if (len > WEBAPI_BODY_MAX)
        webapi_error(out, 413, "the request is too large (limit is %d bytes)", WEBAPI_BODY_MAX);
    if (out->body) return;
    json_error_t jerr;
    json_t *req = json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &jerr);
    if (!req) {
        webapi_error(out, 400, "malformed JSON at line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
        return;
    }
    if (!json_is_object(req))
        webapi_error(out, 400, "the request must be a JSON object");
    else if (!strcmp(path, "/api/new"))
        req_new(api, req, out);
    else if (!strcmp(path, "/api/load"))
        req_load(api, req, out);
    else
        req_game(api, game_actions[action].action, req, out);
    json_decref(req);
}

/* ---- start and end ------------------------------------------------------------------------ */

WebApi *webapi_new(const WebApiConfig *cfg, char *err, size_t cap) {
    WebApi *api = xcalloc(1, sizeof *api);
    pthread_mutex_init(&api->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&api->changed, &ca);
    pthread_condattr_destroy(&ca);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&api->work, &ca);
    pthread_condattr_destroy(&ca);
    DIR *d = cfg->rules_dir ? opendir(cfg->rules_dir) : NULL;
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t n = strlen(e->d_name);
            if (n <= 6 || strcmp(e->d_name + n - 6, ".rules")) continue;
            char path[1200];
            snprintf(path, sizeof path, "%s/%s", cfg->rules_dir, e->d_name);
            char *name = game_name(e->d_name);
            add_game(api, name, path);
            free(name);
        }
        closedir(d);
    }
    if (cfg->game) {
        if (access(cfg->game, R_OK) != 0) {
            refuse(err, cap, "%s: cannot read rule file: %s", cfg->game, strerror(errno));
            webapi_free(api);
            return NULL;
        }
        char *name = game_name(cfg->game);
        add_game(api, name, cfg->game);
        free(name);
    }
    if (!api->ngames) {
        refuse(err, cap, "no rule files in '%s' (give a FILE, or set VARIA_RULES)",
               cfg->rules_dir ? cfg->rules_dir : "?");
        webapi_free(api);
        return NULL;
    }
    qsort(api->games, (size_t)api->ngames, sizeof *api->games, entry_cmp);
    char *first = cfg->game ? game_name(cfg->game) : xstrdup("chess");
    api->first = find_game(api, first) >= 0 ? find_game(api, first) : 0;
    free(first);
    api->noptions = cfg->noptions;
    api->options = xcalloc((size_t)(cfg->noptions + 1), sizeof *api->options);
    for (int i = 0; i < cfg->noptions; i++)
        api->options[i] = (OptionSetting){xstrdup(cfg->options[i].name), xstrdup(cfg->options[i].value)};
    api->seconds = cfg->seconds;
    api->depth = cfg->depth;
    if (pthread_create(&api->worker, NULL, worker_main, api) != 0) {
        refuse(err, cap, "cannot start the computer's thread");
        webapi_free(api);
        return NULL;
    }
    api->running = true;
    return api;
}

void webapi_quit(WebApi *api) {
    pthread_mutex_lock(&api->lock);
    api->quit = true;
    if (api->thinking) search_interrupt = 1;
    pthread_cond_broadcast(&api->work);
    pthread_cond_broadcast(&api->changed);
    pthread_mutex_unlock(&api->lock);
}

void webapi_free(WebApi *api) {
    if (!api) return;
    webapi_quit(api);
    if (api->running) pthread_join(api->worker, NULL);
    for (int i = 0; i < WEBAPI_GAMES_MAX; i++)
        if (api->slots[i]) slot_free(api->slots[i]);
    pthread_cond_destroy(&api->work);
    pthread_cond_destroy(&api->changed);
    pthread_mutex_destroy(&api->lock);
    for (int i = 0; i < api->ngames; i++) {
        free(api->games[i].name);
        free(api->games[i].path);
    }
    free(api->games);
    for (int i = 0; api->options && i < api->noptions; i++) {
        free((char *)api->options[i].name);
        free((char *)api->options[i].value);
    }
    free(api->options);
    free(api);
}
