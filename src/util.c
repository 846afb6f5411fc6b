/* util.c - memory helpers that never return NULL, the random generator, the error message of
 * the input readers, and the assertion failure handler.
 * Out of memory and a failed assertion are the only places the library prints (to stderr) and
 * stops: neither can be reported through a DiagSink, because neither can be recovered from. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static NORETURN void out_of_memory(size_t n) {
    fprintf(stderr, "varia: out of memory (allocating %zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) out_of_memory(n);
    return p;
}

void *xcalloc(size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) out_of_memory(count * size);
    return p;
}

void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) out_of_memory(n);
    return q;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xstrndup(const char *s, size_t n) {
    size_t len = strnlen(s, n);
    char *p = xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

uint64_t rng_next(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

void varia_assert_fail(const char *cond, const char *why, const char *file, int line) {
    fprintf(stderr, "varia: %s:%d: assertion failed: %s (%s)\n", file, line, cond, why);
    abort();
}

bool refuse(char *err, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return false;
}
