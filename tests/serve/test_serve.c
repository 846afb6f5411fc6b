/* test_serve.c - `varia serve`'s JSON API over real HTTP (the server runs in this process on a
 * free loopback port; the requests go through a socket): good requests play, save, load and
 * stop; bad ones (malformed JSON, unknown fields, games, ids and paths, illegal moves, huge
 * bodies, foreign hosts) get a JSON error and change nothing; and a thousand malformed requests,
 * made from good ones by a seeded generator, each get an error while the game stays as it was
 * (a quarter of them under valgrind, VARIA_MEMCHECK=1: each goes through the same code).
 * Run from the repository root (the shipped rule files are read from rules/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cmocka.h>
#include <jansson.h>

#include "serve.h"

static Server *server;
static int port;

/* ---- a small HTTP client ------------------------------------------------------------------ */

typedef struct Reply {
    int status;
    char *body; /* after the headers */
    char *head;
    json_t *json; /* the body as JSON when it is JSON, else NULL */
} Reply;

static void reply_free(Reply *r) {
    free(r->head);
    json_decref(r->json);
    memset(r, 0, sizeof *r);
}

/* Sends raw bytes as one request (the connection closed after it) and reads the answer. */
static Reply send_raw(const char *bytes, size_t len) {
    Reply r = {0};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct timeval tv = {20, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    size_t sent = 0;
    while (sent < len) {
        ssize_t n = send(fd, bytes + sent, len - sent, MSG_NOSIGNAL);
        if (n <= 0) break; /* the server may answer and close before reading a huge body */
        sent += (size_t)n;
    }
    shutdown(fd, SHUT_WR);
    size_t cap = 65536, got = 0;
    char *buf = malloc(cap);
    ssize_t n;
    while ((n = recv(fd, buf + got, cap - got - 1, 0)) > 0) {
        got += (size_t)n;
        if (cap - got < 4096) buf = realloc(buf, cap *= 2);
    }
    close(fd);
    buf[got] = 0;
    r.head = buf;
    if (sscanf(buf, "HTTP/1.%*d %d", &r.status) != 1) r.status = 0;
    char *end = strstr(buf, "\r\n\r\n");
    r.body = end ? end + 4 : buf + got;
    if (end) {
        *end = 0; /* head and body apart */
        r.json = json_loads(r.body, 0, NULL);
    }
    return r;
}

/* One request with the headers a page sends (Host, and the JSON type for a body). */
static Reply request(const char *method, const char *path, const char *body) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    fprintf(f, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n", method, path, port);
    if (body)
        fprintf(f, "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s", strlen(body), body);
    else
        fprintf(f, "\r\n");
    fclose(f);
    Reply r = send_raw(text, len);
    free(text);
    return r;
}

static Reply post(const char *path, const char *fmt, ...) PRINTF_LIKE(2, 3);
static Reply post(const char *path, const char *fmt, ...) {
    char body[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    return request("POST", path, body);
}

static const char *error_of(const Reply *r) {
    const json_t *e = r->json ? json_object_get(r->json, "error") : NULL;
    return json_is_string(e) ? json_string_value(e) : NULL;
}

/* The reply is an error of that status whose message holds text. */
static void expect_error(Reply *r, int status, const char *text) {
    const char *e = error_of(r);
    if (r->status != status || !e || !strstr(e, text))
        fail_msg("expected %d with \"%s\", got %d: %s", status, text, r->status, r->body ? r->body : "");
    reply_free(r);
}

static const json_t *state_of(const Reply *r) { return json_object_get(r->json, "state"); }
static const char *fen_of(const Reply *r) { return json_string_value(json_object_get(state_of(r), "fen")); }
static json_int_t version_of(const Reply *r) { return json_integer_value(json_object_get(r->json, "version")); }

/* A new game; its id copied to id. */
static Reply new_game(const char *body, char *id) {
    Reply r = post("/api/new", "%s", body);
    if (r.status != 200) fail_msg("new game %s: %d %s", body, r.status, r.body);
    snprintf(id, 40, "%s", json_string_value(json_object_get(r.json, "id")));
    return r;
}

static Reply state(const char *id) { return post("/api/state", "{\"id\":\"%s\"}", id); }

/* ---- good requests -------------------------------------------------------------------------- */

static void test_serve_page_and_games(void **st) {
    (void)st;
    Reply r = request("GET", "/", NULL);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.head, "Content-Type: text/html"));
    assert_non_null(strstr(r.body, "<script src=\"app.js\""));
    reply_free(&r);
    r = request("GET", "/app.js", NULL);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "/api/new"));
    reply_free(&r);
    r = request("GET", "/api/games", NULL);
    assert_int_equal(r.status, 200);
    const json_t *games = json_object_get(r.json, "games");
    assert_true(json_array_size(games) > 50);
    bool chess = false, ultima = false;
    for (size_t i = 0; i < json_array_size(games); i++) {
        chess |= !strcmp(json_string_value(json_array_get(games, i)), "chess");
        ultima |= !strcmp(json_string_value(json_array_get(games, i)), "ultima");
    }
    assert_true(chess && ultima);
    assert_string_equal(json_string_value(json_object_get(r.json, "first")), "chess");
    reply_free(&r);
}

static void test_serve_play_undo_redo(void **st) {
    (void)st;
    char id[40];
    Reply r = new_game("{\"game\":\"chess\",\"seats\":[\"human\",\"human\"]}", id);
    const json_t *layout = json_object_get(r.json, "layout");
    assert_int_equal(json_array_size(json_object_get(layout, "cells")), 64);
    assert_int_equal(json_array_size(json_object_get(state_of(&r), "moves")), 20);
    assert_string_equal(fen_of(&r), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    /* each legal move names the cells a click makes it with: e2e4 is e2 (12) then e4 (28) */
    const json_t *moves = json_object_get(state_of(&r), "moves");
    bool found = false;
    for (size_t i = 0; i < json_array_size(moves); i++) {
        const json_t *m = json_array_get(moves, i);
        if (strcmp(json_string_value(json_object_get(m, "text")), "e2e4")) continue;
        const json_t *path = json_object_get(m, "path");
        assert_int_equal(json_array_size(path), 2);
        assert_int_equal(json_integer_value(json_array_get(path, 0)), 12);
        assert_int_equal(json_integer_value(json_array_get(path, 1)), 28);
        assert_string_equal(json_string_value(json_object_get(m, "san")), "e4");
        found = true;
    }
    assert_true(found);
    reply_free(&r);
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"e4\"}", id); /* algebraic */
    assert_int_equal(r.status, 200);
    reply_free(&r);
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"e7e5\"}", id); /* coordinate */
    assert_int_equal(r.status, 200);
    assert_string_equal(fen_of(&r), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
    const json_t *history = json_object_get(state_of(&r), "history");
    assert_int_equal(json_array_size(history), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(history, 1), "san")), "e5");
    const json_t *last = json_object_get(state_of(&r), "last");
    assert_int_equal(json_integer_value(json_array_get(last, 0)), 52); /* e7 */
    assert_int_equal(json_integer_value(json_array_get(last, 1)), 36); /* e5 */
    json_int_t v = version_of(&r);
    reply_free(&r);
    /* the page says which version it acted on: an old one is refused */
    r = post("/api/undo", "{\"id\":\"%s\",\"version\":%lld}", id, (long long)v - 1);
    expect_error(&r, 409, "the game has changed");
    r = post("/api/undo", "{\"id\":\"%s\",\"version\":%lld}", id, (long long)v);
    assert_int_equal(r.status, 200);
    assert_string_equal(fen_of(&r), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_true(json_is_true(json_object_get(state_of(&r), "redo")));
    reply_free(&r);
    r = post("/api/redo", "{\"id\":\"%s\"}", id);
    assert_int_equal(r.status, 200);
    assert_string_equal(fen_of(&r), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
    reply_free(&r);
    r = post("/api/redo", "{\"id\":\"%s\"}", id);
    expect_error(&r, 409, "nothing to play again");
    /* fool's mate ends the game; a move after it is refused */
    const char *mate[] = {"f3", "e5", "g4", "Qh4"};
    r = post("/api/restart", "{\"id\":\"%s\"}", id);
    reply_free(&r);
    for (size_t i = 0; i < 4; i++) {
        r = post("/api/move", "{\"id\":\"%s\",\"move\":\"%s\"}", id, mate[i]);
        assert_int_equal(r.status, 200);
        if (i < 3) reply_free(&r);
    }
    assert_true(json_is_true(json_object_get(state_of(&r), "over")));
    assert_string_equal(json_string_value(json_object_get(state_of(&r), "result")), "Black wins by checkmate");
    assert_int_equal(json_array_size(json_object_get(state_of(&r), "moves")), 0);
    reply_free(&r);
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"a3\"}", id);
    expect_error(&r, 409, "the game is over");
    r = post("/api/close", "{\"id\":\"%s\"}", id);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    r = state(id);
    expect_error(&r, 404, "unknown game id");
}

static void test_serve_save_and_load(void **st) {
    (void)st;
    char id[40], id2[40];
    Reply r = new_game("{\"game\":\"chess\",\"seats\":[\"human\",\"human\"]}", id);
    reply_free(&r);
    const char *moves[] = {"d4", "d5", "c4"};
    for (size_t i = 0; i < 3; i++) {
        r = post("/api/move", "{\"id\":\"%s\",\"move\":\"%s\"}", id, moves[i]);
        reply_free(&r);
    }
    r = post("/api/save", "{\"id\":\"%s\"}", id);
    assert_int_equal(r.status, 200);
    const char *text = json_string_value(json_object_get(r.json, "text"));
    assert_non_null(strstr(text, "# Varia saved game"));
    assert_non_null(strstr(text, "move d2d4\nmove d7d5\nmove c2c4\n"));
    assert_string_equal(json_string_value(json_object_get(r.json, "file")), "chess.txt");
    json_t *body = json_pack("{s:s}", "text", text);
    char *b = json_dumps(body, 0);
    json_decref(body);
    reply_free(&r);
    r = post("/api/load", "%s", b);
    free(b);
    assert_int_equal(r.status, 200);
    snprintf(id2, sizeof id2, "%s", json_string_value(json_object_get(r.json, "id")));
    assert_string_not_equal(id, id2);
    assert_string_equal(fen_of(&r), "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3 0 2");
    assert_int_equal(json_array_size(json_object_get(state_of(&r), "history")), 3);
    reply_free(&r);
    /* a saved game names its rule file: only a game of the list is loaded, by its name */
    r = post("/api/load", "{\"text\":\"# Varia saved game\\nrules /etc/passwd\\n\"}");
    expect_error(&r, 400, "is not one of the games served");
    r = post("/api/load", "{\"text\":\"# Varia saved game\\nrules ../../secret.rules\\n\"}");
    expect_error(&r, 400, "is not one of the games served");
    r = post("/api/load", "{\"text\":\"# Varia saved game\\nrules rules/chess.rules\\nmove e2e5\\n\"}");
    expect_error(&r, 400, "illegal move 'e2e5'");
    r = post("/api/load", "{\"text\":\"not a saved game\"}");
    expect_error(&r, 400, "saved game");
}

/* Waits (long polls) until the game's state satisfies done, at most about 20 s. */
static Reply wait_until(const char *id, bool (*done)(const json_t *state)) {
    Reply r = state(id);
    for (int i = 0; i < 40 && !done(state_of(&r)); i++) {
        json_int_t v = version_of(&r);
        reply_free(&r);
        r = post("/api/state", "{\"id\":\"%s\",\"after\":%lld,\"wait\":0.5}", id, (long long)v);
        assert_int_equal(r.status, 200);
    }
    return r;
}

static bool four_plies(const json_t *s) { return json_integer_value(json_object_get(s, "ply")) >= 4; }
static bool thinking(const json_t *s) { return json_is_true(json_object_get(s, "thinking")); }
static bool settled(const json_t *s) { return !thinking(s); }

static void test_serve_computer(void **st) {
    (void)st;
    char id[40];
    /* the computer against itself, a tenth of a second a move: it plays on by itself (and is
     * still playing when stopped, however slow the machine: at depth 1 a game could end first) */
    Reply r = new_game("{\"game\":\"ultima\",\"seats\":[\"ai\",\"ai\"],\"time\":0.1}", id);
    reply_free(&r);
    r = wait_until(id, four_plies);
    assert_true(four_plies(state_of(&r)));
    reply_free(&r);
    r = post("/api/stop", "{\"id\":\"%s\"}", id);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    r = wait_until(id, settled);
    assert_true(json_is_true(json_object_get(state_of(&r), "paused")));
    json_int_t ply = json_integer_value(json_object_get(state_of(&r), "ply"));
    reply_free(&r);
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    r = state(id);
    assert_int_equal(json_integer_value(json_object_get(state_of(&r), "ply")), ply); /* it waits */
    reply_free(&r);
    r = post("/api/close", "{\"id\":\"%s\"}", id);
    reply_free(&r);
    /* a long think is stopped, its move thrown away, the seat waits; 'go' lets it move again */
    r = new_game("{\"game\":\"chess\",\"seats\":[\"human\",\"ai\"],\"time\":30,\"depth\":0}", id);
    reply_free(&r);
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"e4\"}", id);
    reply_free(&r);
    r = wait_until(id, thinking);
    assert_true(thinking(state_of(&r)));
    reply_free(&r);
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"e5\"}", id);
    expect_error(&r, 409, "the computer is choosing a move");
    time_t t0 = time(NULL);
    r = post("/api/stop", "{\"id\":\"%s\"}", id);
    reply_free(&r);
    r = wait_until(id, settled);
    assert_true(time(NULL) - t0 < 10);
    assert_true(json_is_true(json_object_get(state_of(&r), "paused")));
    assert_int_equal(json_integer_value(json_object_get(state_of(&r), "ply")), 1);
    reply_free(&r);
    /* a person may move for the waiting computer */
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"e5\"}", id);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    r = post("/api/seats", "{\"id\":\"%s\",\"seats\":[\"human\",\"ai\"],\"time\":0,\"depth\":1}", id);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"Nf3\"}", id);
    reply_free(&r);
    r = wait_until(id, four_plies);
    assert_int_equal(json_integer_value(json_object_get(state_of(&r), "ply")), 4);
    reply_free(&r);
    r = post("/api/close", "{\"id\":\"%s\"}", id);
    reply_free(&r);
}

static void test_serve_boards_and_rules(void **st) {
    (void)st;
    char id[40];
    Reply r = new_game("{\"game\":\"above-below\",\"options\":{\"allegiance\":\"above-white\"}}", id);
    const json_t *layout = json_object_get(r.json, "layout");
    assert_int_equal(json_array_size(json_object_get(layout, "boards")), 3);
    assert_int_equal(json_integer_value(json_object_get(layout, "players")), 2);
    assert_true(json_array_size(json_object_get(layout, "owners")) > 2); /* armies of no player */
    const json_t *helps = json_object_get(state_of(&r), "helps");
    assert_non_null(helps);
    reply_free(&r);
    r = request("GET", "/api/rules/0", NULL);
    expect_error(&r, 404, "unknown game id");
    char path[80];
    snprintf(path, sizeof path, "/api/rules/%s", id);
    r = request("GET", path, NULL);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.head, "text/html"));
    assert_non_null(strstr(r.body, "<svg"));
    assert_non_null(strstr(r.body, "Above and Below"));
    reply_free(&r);
    r = post("/api/new", "{\"game\":\"above-below\",\"options\":{\"allegiance\":\"nobody\"}}");
    expect_error(&r, 400, "allegiance");
    r = post("/api/new", "{\"game\":\"ultimate-chess-4p\",\"seats\":[\"human\",\"ai\",\"ai\",\"ai\",\"ai\"]}");
    expect_error(&r, 400, "seats:");
    r = new_game("{\"game\":\"ultimate-chess-4p\",\"seats\":[\"human\",\"human\",\"human\",\"human\"]}", id);
    assert_int_equal(json_array_size(json_object_get(json_object_get(r.json, "layout"), "owners")), 4);
    assert_int_equal(json_array_size(json_object_get(state_of(&r), "board")), 256 - 16);
    reply_free(&r);
}

static bool black_set_up(const json_t *s) {
    const json_t *h = json_object_get(s, "history");
    for (size_t i = 0; i < json_array_size(h); i++)
        if (json_integer_value(json_object_get(json_array_get(h, i), "mover")) == 1) return !thinking(s);
    return false;
}

/* A game with secrets shows the screen's owner its own and no one else's. */
static void test_serve_hidden_information(void **st) {
    (void)st;
    char id[40];
    Reply r = new_game("{\"game\":\"ultra-chess\",\"seats\":[\"human\",\"ai\"],\"depth\":1,\"time\":0,\"seed\":3}", id);
    assert_true(json_is_null(json_object_get(state_of(&r), "fen")));
    assert_non_null(strstr(json_string_value(json_object_get(state_of(&r), "fenNote")), "secrets"));
    reply_free(&r);
    /* White's set-up at random, then Black's (the computer's) follows */
    r = post("/api/random", "{\"id\":\"%s\"}", id);
    assert_int_equal(r.status, 200);
    reply_free(&r);
    for (int i = 0; i < 20; i++) {
        r = state(id);
        bool white = json_integer_value(json_object_get(state_of(&r), "mover")) == 0;
        bool setup = json_is_true(json_object_get(state_of(&r), "setup"));
        reply_free(&r);
        if (!white || !setup) break;
        r = post("/api/random", "{\"id\":\"%s\"}", id);
        reply_free(&r);
    }
    r = wait_until(id, black_set_up);
    const json_t *s = state_of(&r);
    /* White sees its own tiles (mines and blanks) and Black's face down */
    const json_t *tiles = json_object_get(s, "tiles");
    int own = 0, mines = 0, unknown = 0;
    for (size_t c = 0; c < json_array_size(tiles); c++) {
        const json_t *t = json_array_get(tiles, c);
        if (json_is_null(t)) continue;
        const char *what = json_string_value(json_array_get(t, 0));
        int owner = (int)json_integer_value(json_array_get(t, 1));
        if (owner == 0) own++, mines += !strcmp(what, "mine");
        if (owner == 1) {
            unknown++;
            assert_string_equal(what, "unknown");
        }
    }
    assert_int_equal(own, 16);
    assert_int_equal(mines, 4);
    assert_int_equal(unknown, 16);
    /* Black's set-up moves are secret to White */
    const json_t *h = json_object_get(s, "history");
    bool secret = false;
    for (size_t i = 0; i < json_array_size(h); i++) {
        const json_t *p = json_array_get(h, i);
        if (json_integer_value(json_object_get(p, "mover")) == 1)
            secret |= strstr(json_string_value(json_object_get(p, "san")), "(secret)") != NULL;
    }
    assert_true(secret);
    reply_free(&r);
    r = post("/api/undo", "{\"id\":\"%s\"}", id);
    expect_error(&r, 409, "no taking back");
    r = post("/api/close", "{\"id\":\"%s\"}", id);
    reply_free(&r);
}

/* ---- bad requests ---------------------------------------------------------------------------- */

static void test_serve_bad_requests(void **st) {
    (void)st;
    char id[40];
    Reply r = new_game("{\"game\":\"chess\",\"seats\":[\"human\",\"human\"]}", id);
    json_int_t v0 = version_of(&r);
    reply_free(&r);
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"e2e5\"}", id);
    expect_error(&r, 409, "illegal move 'e2e5'");
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"\"}", id);
    expect_error(&r, 409, "illegal move");
    r = post("/api/move", "{\"id\":\"%s\",\"move\":7}", id);
    expect_error(&r, 400, "field 'move' must be a string");
    r = post("/api/move", "{\"id\":\"%s\"}", id);
    expect_error(&r, 400, "needs the field 'move'");
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"e4\",\"colour\":1}", id);
    expect_error(&r, 400, "unknown field 'colour'");
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"e4\"", id);
    expect_error(&r, 400, "malformed JSON");
    r = post("/api/move", "[\"e4\"]");
    expect_error(&r, 400, "must be a JSON object");
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"e4\",\"move\":\"d4\"}", id);
    expect_error(&r, 400, "malformed JSON");
    r = post("/api/move", "{\"id\":\"nope\",\"move\":\"e4\"}");
    expect_error(&r, 404, "unknown game id 'nope'");
    r = post("/api/new", "{\"game\":\"../../etc/passwd\"}");
    expect_error(&r, 404, "unknown game '../../etc/passwd'");
    r = post("/api/new", "{\"game\":\"/etc/passwd\"}");
    expect_error(&r, 404, "unknown game");
    r = post("/api/new", "{\"game\":\"chess\",\"seats\":[\"wizard\"]}");
    expect_error(&r, 400, "seats[0]");
    r = post("/api/new", "{\"game\":\"chess\",\"time\":-1}");
    expect_error(&r, 400, "time:");
    r = post("/api/new", "{\"game\":\"chess\",\"depth\":100000}");
    expect_error(&r, 400, "depth:");
    r = post("/api/state", "{\"id\":\"%s\",\"after\":0,\"wait\":1e9}", id);
    expect_error(&r, 400, "wait:");
    r = post("/api/nothing", "{}");
    expect_error(&r, 404, "no such request");
    r = request("GET", "/api/move", NULL);
    expect_error(&r, 405, "takes POST");
    r = request("GET", "/../../etc/passwd", NULL);
    assert_true(r.status == 404 || r.status == 400);
    reply_free(&r);
    r = request("DELETE", "/", NULL);
    expect_error(&r, 405, "GET");
    /* a body that is not said to be JSON, a Host that is not this machine */
    char raw[512];
    int n = snprintf(raw, sizeof raw,
                     "POST /api/move HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: text/plain\r\n"
                     "Content-Length: 29\r\n\r\n{\"id\":\"x\",\"move\":\"e2e4\",\"a\":1}",
                     port);
    r = send_raw(raw, (size_t)n);
    expect_error(&r, 415, "application/json");
    n = snprintf(raw, sizeof raw, "GET /api/games HTTP/1.1\r\nHost: attacker.example:%d\r\n\r\n", port);
    r = send_raw(raw, (size_t)n);
    expect_error(&r, 403, "this machine");
    /* huge bodies: refused by their length, or as they come in chunks */
    size_t big = WEBAPI_BODY_MAX + 100;
    char *huge = malloc(big + 9 * (0x10000 + 16) + 400); /* (room for either) */
    n = snprintf(huge, 400,
                 "POST /api/load HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                 "Content-Length: %zu\r\n\r\n",
                 port, big);
    memset(huge + n, 'x', big);
    r = send_raw(huge, (size_t)n + big);
    expect_error(&r, 413, "too large");
    n = snprintf(huge, 400,
                 "POST /api/load HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n",
                 port);
    size_t at = (size_t)n;
    for (int k = 0; k < 9; k++) {
        at += (size_t)sprintf(huge + at, "10000\r\n");
        memset(huge + at, 'y', 0x10000);
        at += 0x10000;
        at += (size_t)sprintf(huge + at, "\r\n");
    }
    at += (size_t)sprintf(huge + at, "0\r\n\r\n");
    r = send_raw(huge, at);
    expect_error(&r, 413, "too large");
    free(huge);
    /* nothing changed */
    r = state(id);
    assert_int_equal(version_of(&r), v0);
    assert_string_equal(fen_of(&r), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    reply_free(&r);
}

/* ---- a thousand malformed requests ----------------------------------------------------------- */

static uint64_t rng = 0x2545F4914F6CDD1DULL;
static unsigned pick(unsigned n) { return (unsigned)(rng_next(&rng) % n); }

/* A request that cannot be good, made from a good one of the game id (every kind of mistake
 * the generator makes is one the API must refuse: the game stays as it is). */
static void malformed(const char *id, json_int_t version, char *path, char *body, size_t cap) {
    static const char *const paths[] = {"/api/move", "/api/undo", "/api/seats", "/api/restart", "/api/go"};
    const char *p = paths[pick(ARRAY_LEN(paths))];
    char good[512];
    if (!strcmp(p, "/api/move"))
        snprintf(good, sizeof good, "{\"id\":\"%s\",\"move\":\"e2e4\",\"version\":%lld}", id, (long long)version);
    else if (!strcmp(p, "/api/seats"))
        snprintf(good, sizeof good, "{\"id\":\"%s\",\"seats\":[\"human\",\"ai\"],\"time\":1}", id);
    else
        snprintf(good, sizeof good, "{\"id\":\"%s\",\"version\":%lld}", id, (long long)version);
    snprintf(path, 64, "%s", p);
    size_t len = strlen(good);
    switch (pick(14)) {
    case 0: /* cut short: no strict prefix of an object is JSON */
        snprintf(body, cap, "%.*s", (int)(1 + pick((unsigned)len - 1)), good);
        break;
    case 1: { /* a byte that breaks the syntax put in between two fields */
        static const char breakers[] = "{}[]:\"";
        char *comma = strchr(good, ',');
        snprintf(body, cap, "%.*s%c%s", (int)(comma - good), good, breakers[pick(sizeof breakers - 1)], comma);
        break;
    }
    case 2: /* random bytes */
        for (size_t i = 0; i + 1 < cap && i < 1 + pick(200); i++) body[i] = (char)(1 + pick(255)), body[i + 1] = 0;
        break;
    case 3: /* a field of the wrong kind */
        snprintf(body, cap, "{\"id\":\"%s\",\"%s\":%s}", id,
                 !strcmp(p, "/api/move")        ? "move"
                     : !strcmp(p, "/api/seats") ? "seats"
                                                : "version",
                 pick(2) ? "{\"a\":1}" : "\"1\"");
        break;
    case 4: /* an unknown field */ snprintf(body, cap, "{\"id\":\"%s\",\"x%u\":1}", id, pick(1000)); break;
    case 5: /* an unknown id */
        snprintf(body, cap, "{\"id\":\"%016llx\",\"move\":\"e2e4\"}", (unsigned long long)rng_next(&rng));
        if (strcmp(p, "/api/move")) snprintf(body, cap, "{\"id\":\"%08x\"}", pick(1u << 30));
        break;
    case 6: /* a version the game is not at */
        snprintf(body, cap, "{\"id\":\"%s\",\"version\":%lld%s}", id, (long long)version + 1 + pick(1000),
                 !strcmp(p, "/api/move") ? ",\"move\":\"e4\"" : "");
        if (!strcmp(p, "/api/seats") || !strcmp(p, "/api/go")) snprintf(path, 64, "/api/undo");
        break;
    case 7: { /* a move no rule allows: no cell of chess has these letters */
        static const char chars[] = "zZyY9@!?=+ ~";
        char mv[16];
        size_t n = 1 + pick(10);
        for (size_t i = 0; i < n; i++) mv[i] = chars[pick(sizeof chars - 1)];
        mv[n] = 0;
        snprintf(path, 64, "/api/move");
        snprintf(body, cap, "{\"id\":\"%s\",\"move\":\"%s\"}", id, mv);
        break;
    }
    case 8: /* values out of range */
        snprintf(path, 64, "/api/seats");
        snprintf(body, cap, "{\"id\":\"%s\",\"%s\"}", id,
                 pick(3) == 0  ? "depth\":99999"
                     : pick(2) ? "time\":-5"
                               : "seats\":[\"human\",\"ai\",\"ai\",\"ai\",\"ai\"]");
        break;
    case 9: /* bad UTF-8, or a NUL inside a string */
        snprintf(body, cap, "{\"id\":\"%s\",\"move\":\"%s\"}", id, pick(2) ? "e2\xff\xfe" : "e2\\u0000e4");
        snprintf(path, 64, "/api/move");
        break;
    case 10: /* deep nesting */
        for (size_t i = 0; i < 5000 && i + 1 < cap; i++) body[i] = '[', body[i + 1] = 0;
        break;
    case 11: /* a path that is no request, or the wrong method (sent as POST: the path is wrong) */
        snprintf(path, 64, "/api/%s%u", pick(2) ? "../" : "x", pick(100));
        snprintf(body, cap, "%s", good);
        break;
    case 12: /* a duplicate field */ snprintf(body, cap, "{\"id\":\"%s\",\"id\":\"%s\"}", id, id); break;
    default: /* not an object */ snprintf(body, cap, "%s", pick(2) ? "[1,2,3]" : pick(2) ? "\"text\"" : "null"); break;
    }
}

static void test_serve_malformed_requests(void **st) {
    (void)st;
    char id[40];
    Reply r = new_game("{\"game\":\"chess\",\"seats\":[\"human\",\"human\"]}", id);
    reply_free(&r);
    r = post("/api/move", "{\"id\":\"%s\",\"move\":\"e4\"}", id);
    reply_free(&r);
    r = state(id);
    json_int_t version = version_of(&r);
    char fen[256];
    snprintf(fen, sizeof fen, "%s", fen_of(&r));
    reply_free(&r);
    int statuses[600] = {0};
    const char *memcheck = getenv("VARIA_MEMCHECK");
    int requests = memcheck && !strcmp(memcheck, "1") ? 250 : 1000;
    for (int i = 0; i < requests; i++) {
        char path[64], body[8192];
        malformed(id, version, path, body, sizeof body);
        r = request("POST", path, body);
        if (r.status < 400 || r.status > 499)
            fail_msg("malformed request %d (%s %s) got %d: %s", i, path, body, r.status, r.body);
        if (!error_of(&r)) fail_msg("malformed request %d (%s %s): no JSON error: %s", i, path, body, r.body);
        statuses[r.status]++;
        reply_free(&r);
        r = state(id);
        if (version_of(&r) != version || strcmp(fen_of(&r), fen))
            fail_msg("malformed request %d (%s %s) changed the game", i, path, body);
        reply_free(&r);
    }
    printf("[ serve    ] %d malformed requests: %d x 400, %d x 404, %d x 409, the game unchanged\n", requests,
           statuses[400], statuses[404], statuses[409]);
}

/* Pages that were left do not tell their waiting state requests: more than WEBAPI_WAITERS_MAX
 * of them, and the oldest is answered at once (the game as it was) instead of holding its
 * connection to the end of its wait. */
static void test_serve_waiting_requests_make_room(void **st) {
    (void)st;
    char id[40];
    Reply r = new_game("{\"game\":\"chess\",\"seats\":[\"human\",\"human\"]}", id);
    json_int_t v = version_of(&r);
    reply_free(&r);
    enum { N = WEBAPI_WAITERS_MAX + 1 };
    struct pollfd fds[N];
    char body[200], text[400];
    snprintf(body, sizeof body, "{\"id\":\"%s\",\"after\":%lld,\"wait\":25}", id, (long long)v);
    int len = snprintf(text, sizeof text,
                       "POST /api/state HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n"
                       "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                       port, strlen(body), body);
    for (int i = 0; i < N; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        assert_true(fd >= 0);
        struct sockaddr_in a = {0};
        a.sin_family = AF_INET;
        a.sin_port = htons((uint16_t)port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
        assert_int_equal(send(fd, text, (size_t)len, MSG_NOSIGNAL), len);
        fds[i] = (struct pollfd){.fd = fd, .events = POLLIN};
    }
    /* well before the 25 s wait ends, one of them has its answer: the game unchanged */
    int ready = poll(fds, N, 10000);
    assert_true(ready >= 1);
    for (int i = 0; i < N; i++) {
        if (fds[i].revents & POLLIN) {
            char buf[256] = {0};
            assert_true(recv(fds[i].fd, buf, sizeof buf - 1, 0) > 0);
            int status = 0;
            assert_int_equal(sscanf(buf, "HTTP/1.%*d %d", &status), 1);
            assert_int_equal(status, 200);
        }
        close(fds[i].fd);
    }
    r = state(id);
    assert_int_equal(version_of(&r), v);
    reply_free(&r);
}

static int group_setup(void **st) {
    (void)st;
    ServeConfig cfg = {0};
    cfg.port = 0;
    cfg.api.rules_dir = "rules";
    cfg.api.seconds = 1;
    char err[600];
    server = serve_start(&cfg, err, sizeof err);
    if (!server) {
        fprintf(stderr, "cannot start the server: %s\n", err);
        return -1;
    }
    port = serve_port(server);
    return 0;
}

static int group_teardown(void **st) {
    (void)st;
    serve_stop(server);
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serve_page_and_games),   cmocka_unit_test(test_serve_play_undo_redo),
        cmocka_unit_test(test_serve_save_and_load),    cmocka_unit_test(test_serve_computer),
        cmocka_unit_test(test_serve_boards_and_rules), cmocka_unit_test(test_serve_hidden_information),
        cmocka_unit_test(test_serve_bad_requests),     cmocka_unit_test(test_serve_malformed_requests),
        cmocka_unit_test(test_serve_waiting_requests_make_room),
    };
    return cmocka_run_group_tests_name("serve", tests, group_setup, group_teardown);
}
