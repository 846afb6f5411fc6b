/* serve.c - the HTTP side of `varia serve`: the page's files and the JSON API (webapi.c).
 *
 * HTTP is libmicrohttpd's (Debian libmicrohttpd-dev): a small C library kept for years by GNU,
 * used by many daemons, which does the parts of HTTP that are easy to get wrong by hand (request
 * parsing, chunked bodies, limits on headers, keep-alive, timeouts) and runs each connection on a
 * thread of its own, so a request that waits for the computer's move does not hold up others.
 *
 * What reaches the API is checked here first: a body longer than WEBAPI_BODY_MAX is refused
 * without being read, a POST must say it is JSON (a web page elsewhere cannot send that to this
 * server without the browser asking first, and it is never told yes), and on the loopback address
 * the Host header must name this machine (a page on another name cannot reach the server by
 * making its name point here). */
#include "serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "webassets.h"

struct Server {
    struct MHD_Daemon *daemon;
    WebApi *api;
    int port;
    bool loopback; /* listening on a loopback address: Host must name this machine */
};

/* What a connection gathers of its request's body. */
typedef struct Upload {
    char *data;
    size_t len;
    bool too_large;
} Upload;

static enum MHD_Result send_reply(struct MHD_Connection *conn, const WebReply *r) {
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(r->len, r->body ? r->body : (void *)"", MHD_RESPMEM_MUST_COPY);
    if (!resp) return MHD_NO;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->type ? r->type : "text/plain");
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    /* the page loads only its own files: no script from anywhere else may run in it */
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:");
    enum MHD_Result ok = MHD_queue_response(conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ok;
}

static enum MHD_Result send_error(struct MHD_Connection *conn, int status, const char *fmt, ...) PRINTF_LIKE(3, 4);
static enum MHD_Result send_error(struct MHD_Connection *conn, int status, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    WebReply r;
    webapi_error(&r, status, "%s", msg);
    enum MHD_Result ok = send_reply(conn, &r);
    free(r.body);
    return ok;
}

/* Does the Host header name this machine ("127.0.0.1:8080", "localhost:8080", "[::1]:8080")? */
static bool host_is_local(const char *host) {
    if (!host) return true; /* (HTTP/1.0) */
    static const char *const names[] = {"127.0.0.1", "localhost", "[::1]"};
    for (size_t i = 0; i < ARRAY_LEN(names); i++) {
        size_t n = strlen(names[i]);
        if (!strncasecmp(host, names[i], n) && (host[n] == 0 || host[n] == ':')) return true;
    }
    return false;
}

static const WebAsset *find_asset(const char *url) {
    if (!strcmp(url, "/")) url = "/index.html";
    for (size_t i = 0; i < web_nassets; i++)
        if (!strcmp(web_assets[i].path, url)) return &web_assets[i];
    return NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_size, void **con_cls) {
    Server *s = cls;
    (void)version;
    Upload *up = *con_cls;
    if (!up) {
        /* the first call: the headers are in, the body (if any) not yet */
        up = xcalloc(1, sizeof *up);
        *con_cls = up;
        const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > WEBAPI_BODY_MAX) {
            up->too_large = true;
            return send_error(conn, 413, "the request is too large (limit is %d bytes)", WEBAPI_BODY_MAX);
        }
        return MHD_YES;
    }
    if (*upload_size) {
        if (!up->too_large && up->len + *upload_size <= WEBAPI_BODY_MAX) {
            up->data = xrealloc(up->data, up->len + *upload_size + 1);
            memcpy(up->data + up->len, upload_data, *upload_size);
            up->len += *upload_size;
            up->data[up->len] = 0;
        } else {
            up->too_large = true; /* (a body sent in chunks, with no length said first) */
        }
        *upload_size = 0;
        return MHD_YES;
    }
    if (up->too_large) return send_error(conn, 413, "the request is too large (limit is %d bytes)", WEBAPI_BODY_MAX);
    if (s->loopback && !host_is_local(MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST)))
        return send_error(conn, 403, "this server answers only to this machine's own names (127.0.0.1, localhost)");
    if (!strncmp(url, "/api/", 5)) {
        if (!strcmp(method, "POST")) {
            const char *type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
            if (!type || strncasecmp(type, "application/json", 16) != 0)
                return send_error(conn, 415, "a request to the API is JSON: Content-Type: application/json");
        }
        WebReply r;
        webapi_handle(s->api, method, url, up->data, up->len, &r);
        enum MHD_Result ok = send_reply(conn, &r);
        free(r.body);
        return ok;
    }
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return send_error(conn, 405, "the page's files are read with GET");
    const WebAsset *a = find_asset(url);
    if (!a) return send_error(conn, 404, "no such file: %s", url);
    WebReply r = {200, a->type, (char *)a->data, a->len};
    return send_reply(conn, &r);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode why) {
    (void)cls, (void)conn, (void)why;
    Upload *up = *con_cls;
    if (up) free(up->data);
    free(up);
    *con_cls = NULL;
}

Server *serve_start(const ServeConfig *cfg, char *err, size_t cap) {
    const char *host = cfg->host ? cfg->host : SERVE_HOST;
    if (cfg->port < 0 || cfg->port > 65535) {
        refuse(err, cap, "bad port %d (0 to 65535)", cfg->port);
        return NULL;
    }
    struct addrinfo hints = {0}, *ai = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(host, NULL, &hints, &ai);
    if (rc != 0 || !ai) {
        refuse(err, cap, "cannot listen on '%s': %s", host, rc ? gai_strerror(rc) : "no address");
        return NULL;
    }
    struct sockaddr_storage addr;
    memset(&addr, 0, sizeof addr);
    memcpy(&addr, ai->ai_addr, ai->ai_addrlen);
    bool v6 = ai->ai_family == AF_INET6;
    freeaddrinfo(ai);
    bool loopback;
    if (v6) {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&addr;
        a6->sin6_port = htons((uint16_t)cfg->port);
        loopback = IN6_IS_ADDR_LOOPBACK(&a6->sin6_addr);
    } else {
        struct sockaddr_in *a4 = (struct sockaddr_in *)&addr;
        a4->sin_port = htons((uint16_t)cfg->port);
        loopback = (ntohl(a4->sin_addr.s_addr) >> 24) == 127;
    }
    WebApi *api = webapi_new(&cfg->api, err, cap);
    if (!api) return NULL;
    Server *s = xcalloc(1, sizeof *s);
    s->api = api;
    s->loopback = loopback;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | (v6 ? MHD_USE_IPv6 : 0);
    s->daemon = MHD_start_daemon(flags, (uint16_t)cfg->port, NULL, NULL, on_request, s, MHD_OPTION_SOCK_ADDR, &addr,
                                 MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_CONNECTION_LIMIT,
                                 (unsigned)SERVE_CONNECTIONS_MAX, MHD_OPTION_CONNECTION_TIMEOUT,
                                 (unsigned)SERVE_CONNECTION_TIMEOUT, MHD_OPTION_END);
    if (!s->daemon) {
        int e = errno;
        refuse(err, cap, "cannot listen on %s port %d: %s%s", host, cfg->port, strerror(e),
               e == EADDRINUSE ? " (another program uses it: try --port N, or --port 0 for any free one)" : "");
        webapi_free(api);
        free(s);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : cfg->port;
    return s;
}

int serve_port(const Server *s) { return s->port; }

void serve_stop(Server *s) {
    if (!s) return;
    webapi_quit(s->api); /* requests waiting for a change answer now, so their threads end */
    MHD_stop_daemon(s->daemon);
    webapi_free(s->api);
    free(s);
}

int serve_run(const ServeConfig *cfg, FILE *out, FILE *err_out) {
    /* SIGINT and SIGTERM are waited for here; every thread started from now on blocks them */
    sigset_t stop_signals, old;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, &old);
    signal(SIGPIPE, SIG_IGN);
    char err[1200];
    Server *s = serve_start(cfg, err, sizeof err);
    if (!s) {
        fprintf(err_out, "varia: serve: %s\n", err);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return 1;
    }
    const char *host = cfg->host ? cfg->host : SERVE_HOST;
    bool v6 = strchr(host, ':') != NULL;
    fprintf(out, "Varia serves its games at http://%s%s%s:%d/ - open it in a browser (Ctrl-C stops)\n", v6 ? "[" : "",
            host, v6 ? "]" : "", s->port);
    fflush(out);
    int sig = 0;
    sigwait(&stop_signals, &sig);
    serve_stop(s);
    fprintf(out, "stopped\n");
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return 0;
}
