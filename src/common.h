/* common.h - fixed-width integers, bool, and the assertion macros used everywhere. */
#ifndef VARIA_COMMON_H
#define VARIA_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "limits.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define NORETURN __attribute__((noreturn))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define likely(x) (x)
#define unlikely(x) (x)
#define NORETURN
#define PRINTF_LIKE(f, a)
#endif

NORETURN void varia_assert_fail(const char *cond, const char *why, const char *file, int line);

/* ASSERT states an invariant with its reason; compiled out in release builds (NDEBUG). */
#ifdef NDEBUG
#define ASSERT(cond, why) ((void)0)
#else
#define ASSERT(cond, why) ((cond) ? (void)0 : varia_assert_fail(#cond, (why), __FILE__, __LINE__))
#endif

#define UNREACHABLE() varia_assert_fail("unreachable", "control reached an impossible point", __FILE__, __LINE__)

/* Memory helpers that never return NULL: out of memory aborts with a message. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Writes a message into err (cap bytes, cut to fit) and returns false: the one way a reader of
 * position text, saved games or PGN reports why it refused its input. */
bool refuse(char *err, size_t cap, const char *fmt, ...) PRINTF_LIKE(3, 4);

/* The one random generator (xorshift64): small, fast and the same sequence for a seed on every
 * machine, so seeded games, shuffles and `varia random` repeat. *state must not be 0. */
uint64_t rng_next(uint64_t *state);

#endif
