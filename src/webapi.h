/* webapi.h - the JSON API of `varia serve`: the games of the open pages (one per browser tab,
 * found by a random id the page holds), each request read from a JSON object and answered with
 * one, and the computer's moves chosen on a thread of its own, one search at a time, stoppable.
 * A bad request (malformed JSON, a field of the wrong kind or unknown, an unknown game or id, an
 * illegal move) is answered with {"error": "..."} and an HTTP error status, and changes nothing.
 * Independent of the HTTP library: serve.c hands each request's method, path and body in. */
#ifndef VARIA_WEBAPI_H
#define VARIA_WEBAPI_H

#include <stddef.h>

#include "variant.h"

#define WEBAPI_BODY_MAX (512 * 1024) /* a request's body (a saved game of MAX_HISTORY moves fits) */
#define WEBAPI_GAMES_MAX 32          /* games kept at once; the one idle longest goes first */
#define WEBAPI_WAIT_MAX 30           /* seconds a state request may wait for a change */

typedef struct WebApiConfig {
    const char *rules_dir;        /* the shipped games: every NAME.rules in it */
    const char *game;             /* a rule file given on the command line (offered first), or NULL */
    const OptionSetting *options; /* its option settings */
    int noptions;
    double seconds; /* the computer's time per move in new games (0: by depth) */
    int depth;      /* its depth limit (0: by time) */
} WebApiConfig;

typedef struct WebApi WebApi;

/* The games offered: every rule file in rules_dir, and cfg->game. Starts the computer's thread.
 * NULL with the reason in err when the given game cannot be read or no game is found. */
WebApi *webapi_new(const WebApiConfig *cfg, char *err, size_t cap);
/* Ends the requests that wait for a change and the search under way (before the HTTP server
 * stops, so that its threads end). */
void webapi_quit(WebApi *api);
/* Stops the computer's thread and frees every game. */
void webapi_free(WebApi *api);

typedef struct WebReply {
    int status;       /* HTTP status */
    const char *type; /* content type (static) */
    char *body;       /* allocated; the caller frees it */
    size_t len;
} WebReply;

/* Answers one request to a path under /api/ (path without a query). body may be NULL when
 * len is 0. Cannot fail: every outcome is a reply. Safe to call from several threads. */
void webapi_handle(WebApi *api, const char *method, const char *path, const char *body, size_t len, WebReply *out);
/* A JSON error reply {"error": message} with that status. */
void webapi_error(WebReply *out, int status, const char *fmt, ...) PRINTF_LIKE(3, 4);

#endif
