/* engine.c - what the two engine protocols share: the locked output, the games that fit them,
 * the game being played, the line reader, and the search on a thread of its own (started,
 * waited for while infinite, stopped by interrupting or waiting). */
#include "engine.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "load.h"

void engine_init(Engine *e, FILE *out, SearchInfoFn info, EngineDoneFn done, void *user) {
    memset(e, 0, sizeof *e);
    e->out = out;
    genctx_init(&e->gen);
    e->info = info;
    e->done = done;
    e->user = user;
    e->hash_mb = ENGINE_TT_MB;
    search_options_default(&e->opt);
    e->skill = 20;
    e->elo = ENGINE_ELO_MAX;
    pthread_mutex_init(&e->out_lock, NULL);
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->cond, NULL);
}

static void free_game(Engine *e) {
    if (!e->v) return;
    board_free(&e->pos);
    search_free(e->searcher);
    variant_free(e->v);
    e->v = NULL;
}

void engine_close(Engine *e, EngineStop how) {
    engine_search_stop(e, how);
    free_game(e);
    for (int i = 0; i < e->ngames; i++) {
        free(e->games[i].name);
        free(e->games[i].path);
    }
    pthread_mutex_destroy(&e->out_lock);
    pthread_mutex_destroy(&e->lock);
    pthread_cond_destroy(&e->cond);
}

/* ---- output ---------------------------------------------------------------------------------- */

void engine_say(Engine *e, const char *fmt, ...) {
    pthread_mutex_lock(&e->out_lock);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(e->out, fmt, ap);
    va_end(ap);
    fputc('\n', e->out);
    fflush(e->out);
    pthread_mutex_unlock(&e->out_lock);
}

FILE *engine_out_lock(Engine *e) {
    pthread_mutex_lock(&e->out_lock);
    return e->out;
}

void engine_out_unlock(Engine *e) {
    fflush(e->out);
    pthread_mutex_unlock(&e->out_lock);
}

/* ---- games ----------------------------------------------------------------------------------- */

Variant *engine_load(Engine *e, const char *path, const char *error_prefix) {
    DiagSink sink;
    diag_init(&sink);
    Variant *v = load_file(path, NULL, 0, &sink);
    if (!v && error_prefix) {
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (mem) {
            diag_render(&sink, mem);
            fclose(mem);
            for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
                engine_say(e, "%s%s", error_prefix, line);
            free(text);
        }
    }
    diag_free(&sink);
    return v;
}

char *engine_game_name(const char *path) {
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t len = strlen(base);
    if (len > 6 && !strcmp(base + len - 6, ".rules")) len -= 6;
    return xstrndup(base, len);
}

int engine_game_find(const Engine *e, const char *name) {
    for (int i = 0; i < e->ngames; i++)
        if (!strcmp(e->games[i].name, name)) return i;
    return -1;
}

int engine_game_add(Engine *e, const char *path) {
    Variant *v = engine_load(e, path, NULL);
    bool fits = v && !variant_protocol_misfit(v);
    variant_free(v);
    if (!fits) return -1;
    char *name = engine_game_name(path);
    int i = engine_game_find(e, name);
    if (i >= 0) {
        free(e->games[i].name);
        free(e->games[i].path);
    } else if (e->ngames < ENGINE_MAX_GAMES) {
        i = e->ngames++;
    } else {
        free(name);
        return -1;
    }
    e->games[i].name = name;
    e->games[i].path = xstrndup(path, strlen(path));
    return i;
}

static int compare_games(const void *a, const void *b) {
    return strcmp(((const EngineGame *)a)->name, ((const EngineGame *)b)->name);
}

void engine_games_scan(Engine *e, const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *ent;
    while ((ent = readdir(d)) && e->ngames < ENGINE_MAX_GAMES) {
        size_t len = strlen(ent->d_name);
        if (len <= 6 || strcmp(ent->d_name + len - 6, ".rules")) continue;
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        engine_game_add(e, path);
    }
    closedir(d);
    qsort(e->games, (size_t)e->ngames, sizeof e->games[0], compare_games);
}

void engine_set_game(Engine *e, Variant *v, const char *error_prefix) {
    free_game(e);
    e->v = v;
    board_init(&e->pos, v);
    char start[4096], err[200];
    fen_start(v, 1, start, sizeof start);
    if (!fen_read(&e->pos, start, err, sizeof err)) engine_say(e, "%sbad start position: %s", error_prefix, err);
    e->searcher = search_new(v, e->hash_mb);
    search_set_options(e->searcher, &e->opt);
}

/* ---- input ----------------------------------------------------------------------------------- */

bool engine_read_line(Engine *e, FILE *in, char **line, size_t *cap, const char *nul_error) {
    ssize_t got;
    while ((got = getline(line, cap, in)) >= 0) {
        if (!memchr(*line, 0, (size_t)got)) {
            (*line)[strcspn(*line, "\n")] = 0;
            return true;
        }
        engine_say(e, "%s", nul_error);
    }
    return false;
}

char *engine_words(const char *line, char **w, int max, int *n) {
    char *copy = xstrndup(line, strlen(line));
    for (char *p = copy; *p; p++)
        if ((unsigned char)*p < 0x20 && *p != '\t') *p = '?';
    *n = 0;
    for (char *p = strtok(copy, " \t\r"); p && *n < max; p = strtok(NULL, " \t\r")) w[(*n)++] = p;
    return copy;
}

/* ---- the search thread ------------------------------------------------------------------------- */

static void *search_thread(void *arg) {
    Engine *e = arg;
    for (;;) {
        SearchResult res = {0};
        bool ok = search_run(e->searcher, &e->pos, &e->lim, &res, e->info, e->user);
        pthread_mutex_lock(&e->lock);
        /* an infinite search answers only when told to stop, even when it has finished */
        while (e->infinite && !e->stop_requested) pthread_cond_wait(&e->cond, &e->lock);
        e->think_on = false;
        e->done(e->user, ok, &res, e->discard);
        /* done may have asked to think on, on the opponent's time */
        bool again = e->think_on && !e->stop_requested;
        if (again) {
            e->lim = e->next_lim;
            e->infinite = true;
        }
        e->think_on = false;
        pthread_mutex_unlock(&e->lock);
        if (!again) break;
    }
    return NULL;
}

void engine_think_on(Engine *e, SearchLimits lim) {
    e->next_lim = lim;
    e->think_on = true;
}

bool engine_search_start(Engine *e, SearchLimits lim, bool infinite) {
    e->lim = lim;
    e->infinite = infinite;
    e->stop_requested = false;
    e->discard = false;
    if (pthread_create(&e->thread, NULL, search_thread, e) != 0) return false;
    e->searching = true;
    return true;
}

void engine_search_stop(Engine *e, EngineStop how) {
    if (!e->searching) return;
    pthread_mutex_lock(&e->lock);
    e->stop_requested = true;
    e->discard = how == ENGINE_STOP_DISCARD;
    pthread_cond_signal(&e->cond);
    pthread_mutex_unlock(&e->lock);
    if (how != ENGINE_STOP_WAIT || e->infinite) search_interrupt = 1;
    pthread_join(e->thread, NULL);
    search_interrupt = 0;
    e->searching = false;
}

void engine_set_hash(Engine *e, size_t megabytes) {
    e->hash_mb = megabytes;
    if (e->searcher) search_set_hash(e->searcher, megabytes);
}

void engine_set_options(Engine *e, const SearchOptions *o) {
    e->opt = *o;
    if (e->searcher) search_set_options(e->searcher, o);
}

void engine_set_strength(Engine *e, int skill, bool limit_strength, int elo) {
    e->skill = skill;
    e->limit_strength = limit_strength;
    e->elo = elo;
    SearchOptions o = e->opt;
    o.skill = limit_strength ? engine_elo_skill(elo) : skill;
    engine_set_options(e, &o);
}

int engine_elo_skill(int elo) {
    if (elo <= ENGINE_ELO_MIN) return 0;
    if (elo >= ENGINE_ELO_MAX) return 20;
    /* (the line fitted to the levels measured against Fairy-Stockfish's ratings, about 57 a
     * level: docs/strength.md; to the nearest level) */
    return ((elo - ENGINE_ELO_MIN) * 40 + (ENGINE_ELO_MAX - ENGINE_ELO_MIN)) / (2 * (ENGINE_ELO_MAX - ENGINE_ELO_MIN));
}

void engine_search_finite(Engine *e) {
    if (e->searcher) search_ponderhit(e->searcher);
    pthread_mutex_lock(&e->lock);
    e->infinite = false;
    pthread_cond_signal(&e->cond);
    pthread_mutex_unlock(&e->lock);
}

void engine_pv(const Engine *e, const SearchInfo *info, EngineMoveFn write_move, char *buf, size_t cap) {
    char move[64];
    size_t at = 0;
    buf[0] = 0;
    /* (a copy walks the line: how a move is written may depend on the position, a pass's) */
    Position *pos = xmalloc(sizeof *pos);
    board_init(pos, e->v);
    board_copy(pos, &e->pos);
    for (int i = 0; i < info->pvlen && at < cap; i++) {
        write_move(pos, &info->pv[i], move, sizeof move);
        at += (size_t)snprintf(buf + at, cap - at, " %s", move);
        if (!board_make(pos, &info->pv[i])) break;
    }
    board_free(pos);
    free(pos);
}

Cell engine_pass_cell(const Position *pos) {
    const Variant *v = pos->v;
    int mover = board_mover(pos);
    int owner = pos->allegiance[mover] != NO_OWNER ? pos->allegiance[mover] : mover;
    for (int c = 0; c < v->ncells; c++) {
        Piece p = pos->cell[c];
        if (p && PIECE_OWNER(p) == owner && variant_royal(v, owner, PIECE_TYPE(p))) return (Cell)c;
    }
    return NO_CELL;
}

int engine_mate(int score, int *moves) {
    if (score > SEARCH_MATE_BOUND) {
        *moves = (SEARCH_MATE - score + 1) / 2;
        return 1;
    }
    if (score < -SEARCH_MATE_BOUND) {
        *moves = (SEARCH_MATE + score) / 2;
        return -1;
    }
    return 0;
}
