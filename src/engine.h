/* engine.h - what the two engine protocols (uci.c, xboard.c) share: a session's locked output,
 * the games that fit the protocols, the game being played, reading and splitting the input
 * lines, and the search on a thread of its own. Each protocol keeps only its own commands and
 * formats; an Engine lives inside its session. */
#ifndef VARIA_ENGINE_H
#define VARIA_ENGINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "genctx.h"
#include "search.h"

#define ENGINE_TT_MB 32
#define ENGINE_MAX_GAMES 256

typedef struct EngineGame {
    char *name; /* the rule file's name without directory and .rules */
    char *path;
} EngineGame;

/* What the search thread does with its result: called on that thread, with the lock held, once
 * the search is over (an infinite one: once told to stop). ok is search_run's answer;
 * discarded when the search was stopped with ENGINE_STOP_DISCARD. */
typedef void (*EngineDoneFn)(void *user, bool ok, const SearchResult *res, bool discarded);

/* How engine_search_stop ends the search thread. */
typedef enum EngineStop {
    ENGINE_STOP_NOW,     /* interrupted; its result is reported */
    ENGINE_STOP_DISCARD, /* interrupted; its result is dropped (done is told so) */
    ENGINE_STOP_WAIT     /* waited for; an infinite search is interrupted */
} EngineStop;

typedef struct Engine {
    FILE *out;
    pthread_mutex_t out_lock; /* whole lines, from the session and the search thread */
    EngineGame games[ENGINE_MAX_GAMES];
    int ngames;
    Variant *v;         /* the game being played, or NULL when none could be loaded */
    Position pos;       /* valid when v */
    GenContext gen;     /* for the session's own move generation (the search has its own) */
    Searcher *searcher; /* valid when v */
    /* what the player is told by the GUI (Hash, Threads, Skill Level...): kept across games */
    size_t hash_mb;
    SearchOptions opt;
    int skill;           /* Skill Level */
    bool limit_strength; /* UCI_LimitStrength: UCI_Elo decides the skill */
    int elo;             /* UCI_Elo */
    /* the search thread */
    SearchInfoFn info; /* after each iteration, on the search thread */
    EngineDoneFn done;
    void *user; /* the protocol's session, passed to info and done */
    pthread_t thread;
    bool searching;       /* a thread was started and not yet joined */
    pthread_mutex_t lock; /* guards the flags below, and what done and the session share */
    pthread_cond_t cond;  /* signalled when an infinite search may answer */
    bool infinite, stop_requested, discard;
    SearchLimits lim;
    bool think_on; /* set by done: the thread goes on searching next_lim (infinite) */
    SearchLimits next_lim;
} Engine;

/* A session's shared part, answering to out, with no game yet. */
void engine_init(Engine *e, FILE *out, SearchInfoFn info, EngineDoneFn done, void *user);
/* Ends the search thread (how), frees the game and the list of games. */
void engine_close(Engine *e, EngineStop how);

/* ---- output ---- */

/* Prints one line (the newline added) under the output lock. */
void engine_say(Engine *e, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* For text written in parts: takes the output lock and returns the stream; engine_out_unlock
 * flushes it and lets go. */
FILE *engine_out_lock(Engine *e);
void engine_out_unlock(Engine *e);

/* ---- games ---- */

/* Loads a rule file; on failure says each line of its diagnostics after error_prefix (quiet
 * when error_prefix is NULL) and returns NULL. */
Variant *engine_load(Engine *e, const char *path, const char *error_prefix);
/* The name a rule file is known by: its file name without directory and .rules (allocated). */
char *engine_game_name(const char *path);
/* The index of the game called name, or -1. */
int engine_game_find(const Engine *e, const char *name);
/* Adds the rule file at path when it loads and fits the protocols (replacing a game of the same
 * name); its index, or -1 when it does not fit or the list is full. */
int engine_game_add(Engine *e, const char *path);
/* Adds the games of dir that fit, sorted by name. */
void engine_games_scan(Engine *e, const char *dir);
/* Makes v (loaded, fitting) the game, at its start position; a start position that does not
 * read is said after error_prefix. The search must not be running. */
void engine_set_game(Engine *e, Variant *v, const char *error_prefix);

/* Sets the hash table's size (MB) and the search's settings, now and for the games to come. The
 * search must not be running. */
void engine_set_hash(Engine *e, size_t megabytes);
void engine_set_options(Engine *e, const SearchOptions *o);
/* The strength limit, the same options in both protocols: Skill Level (0..20), and when
 * limit_strength, UCI_Elo decides the level instead. The search must not be running. */
void engine_set_strength(Engine *e, int skill, bool limit_strength, int elo);
/* A UCI_Elo as a skill level (0..20): docs/strength.md says how they were measured against
 * each other. */
int engine_elo_skill(int elo);
#define ENGINE_ELO_MIN 1000
#define ENGINE_ELO_MAX 2150

/* ---- input ---- */

/* Reads the next line of in into *line (getline's buffer), its newline removed. A line holding
 * a NUL byte is answered with nul_error and skipped. False at the end of input. */
bool engine_read_line(Engine *e, FILE *in, char **line, size_t *cap, const char *nul_error);
/* Splits a copy of line into at most max words (control characters but tabs turned into '?',
 * so they are never echoed back raw); *n is how many. Returns the copy, which w points into,
 * for the caller to free. */
char *engine_words(const char *line, char **w, int max, int *n);

/* ---- the search thread ---- */

/* Starts searching the position within lim; an infinite search answers only when stopped (or
 * made finite). False when the thread cannot start. The search must not be running. */
bool engine_search_start(Engine *e, SearchLimits lim, bool infinite);
/* Called from done only: once done returns, the same thread searches e->pos again within lim,
 * as an infinite search (pondering on the opponent's time: engine_search_finite or
 * engine_search_stop end it). */
void engine_think_on(Engine *e, SearchLimits lim);
/* Ends the search thread, if one runs. */
void engine_search_stop(Engine *e, EngineStop how);
/* An infinite search now answers when it ends (UCI's ponderhit); a pondering one starts its
 * clock now. */
void engine_search_finite(Engine *e);

/* How a protocol writes a move of pos. */
typedef void (*EngineMoveFn)(const Position *pos, const Move *m, char *buf, size_t cap);
/* The principal variation of info from the game's position, each move after a space, written
 * by write_move. */
void engine_pv(const Engine *e, const SearchInfo *info, EngineMoveFn write_move, char *buf, size_t cap);
/* The cell a pass of pos's mover is written on, twice, as Fairy-Stockfish writes it (`e2e2`):
 * the cell of the mover's royal piece; NO_CELL when it has none on the board. */
Cell engine_pass_cell(const Position *pos);
/* 1 when score says the player to move mates in *moves moves, -1 when it is mated in *moves,
 * 0 when it is no mate score. */
int engine_mate(int score, int *moves);

#endif
