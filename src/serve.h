/* serve.h - `varia serve`: a local web server whose page plays any rule file by clicking. It
 * serves the page (compiled into the binary: it works without internet and from any install)
 * and the JSON API of webapi.h, over HTTP with libmicrohttpd, on the loopback address unless
 * told otherwise. */
#ifndef VARIA_SERVE_H
#define VARIA_SERVE_H

#include <stdio.h>

#include "webapi.h"

#define SERVE_PORT 8080             /* the default port */
#define SERVE_HOST "127.0.0.1"      /* the default address: this machine only */
#define SERVE_CONNECTIONS_MAX 64    /* connections open at once */
#define SERVE_CONNECTION_TIMEOUT 90 /* seconds an idle connection is kept */

typedef struct ServeConfig {
    const char *host; /* address or host name to listen on; NULL = SERVE_HOST */
    int port;         /* 0 = any free port */
    WebApiConfig api;
} ServeConfig;

typedef struct Server Server;

/* Starts listening (threads of its own answer the requests). NULL with the reason in err
 * when the address cannot be used or the games cannot be found. */
Server *serve_start(const ServeConfig *cfg, char *err, size_t cap);
/* The port it listens on (the one chosen when cfg->port was 0). */
int serve_port(const Server *s);
/* Stops listening, ends the requests and the computer's thread, frees everything. */
void serve_stop(Server *s);
/* Starts, prints the address to open on out, serves until SIGINT or SIGTERM, stops. Returns
 * 0, or 1 when it cannot start (the reason on err_out). */
int serve_run(const ServeConfig *cfg, FILE *out, FILE *err_out);

#endif
