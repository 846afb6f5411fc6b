/* support.h - shared helpers for the unit tests (run from the repository root). */
#ifndef VARIA_TEST_SUPPORT_H
#define VARIA_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "diag.h"
#include "fen.h"
#include "load.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "variant.h"

/* The test binary's move generation context, made on first use. */
static inline GenContext *test_gen(void) {
    static GenContext ctx;
    static bool ready = false;
    if (!ready) {
        genctx_init(&ctx);
        ready = true;
    }
    return &ctx;
}
/* The same, set back to its start (every ply's step budget full) for a test of budgets. */
static inline GenContext *test_fresh_gen(void) {
    genctx_init(test_gen());
    return test_gen();
}

/* How many of n repetitions a long randomized comparison runs: all of them, or a quarter under
 * valgrind (VARIA_MEMCHECK=1 in the environment), where the same code runs some thirty times
 * slower and a quarter of the games still covers every path the comparison takes. Deep perft
 * figures likewise stop a few plies earlier under valgrind. */
static inline bool test_under_valgrind(void) {
    const char *memcheck = getenv("VARIA_MEMCHECK");
    return memcheck && !strcmp(memcheck, "1");
}
static inline int test_reps(int n) { return test_under_valgrind() ? (n + 3) / 4 : n; }

/* A mkdtemp/mkstemp template for a test's own files in the system's temporary directory (not
 * in the build tree, which another build directory may not have). */
static inline void temp_template(char *buf, size_t cap, const char *stem) {
    const char *dir = getenv("TMPDIR");
    snprintf(buf, cap, "%s/varia-%s-XXXXXX", dir && *dir ? dir : "/tmp", stem);
}

/* Loads a rule file; fails the test with the diagnostics when it does not load. */
static inline Variant *load_rules(const char *path) {
    DiagSink sink;
    diag_init(&sink);
    Variant *v = load_file(path, NULL, 0, &sink);
    if (!v) {
        char *text = diag_to_string(&sink);
        print_error("%s", text);
        free(text);
    }
    diag_free(&sink);
    assert_non_null(v);
    return v;
}

/* Loads a rule text; returns NULL and the diagnostics (caller frees) in *diags on failure. */
static inline Variant *load_text(const char *text, char **diags) {
    DiagSink sink;
    diag_init(&sink);
    Variant *v = load_string("test.rules", text, NULL, 0, &sink);
    if (diags) *diags = diag_to_string(&sink);
    diag_free(&sink);
    return v;
}

/* Loads a rule text; fails the test with the diagnostics when it does not load. */
static inline Variant *load_text_ok(const char *text) {
    char *diags = NULL;
    Variant *v = load_text(text, &diags);
    if (!v) print_error("%s", diags);
    free(diags);
    assert_non_null(v);
    return v;
}

static inline void set_fen(Position *pos, const char *fen) {
    char err[200];
    bool ok = fen_read(pos, fen, err, sizeof err);
    if (!ok) print_error("fen: %s\n", err);
    assert_true(ok);
}

/* The legal moves of a position, in the generator's order, written in coordinate notation and
 * separated by spaces ("a1a2 a1b1"), into out. */
static inline void legal_moves_text(Position *pos, char *out, size_t cap) {
    MoveList *ml = malloc(sizeof *ml);
    VmFault fault = {0};
    assert_true(movegen_legal(test_gen(), pos, ml, &fault));
    out[0] = 0;
    for (int i = 0; i < ml->count; i++) {
        char buf[64];
        notation_move(pos->v, &ml->moves[i], buf, sizeof buf);
        if (i) strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, buf, cap - strlen(out) - 1);
    }
    free(ml);
}

static inline int support_compare_words(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* text's space-separated words, sorted, joined by single spaces into out. */
static inline void sorted_words(const char *text, char *out, size_t cap) {
    char copy[8192];
    snprintf(copy, sizeof copy, "%s", text);
    char *words[MAX_MOVES];
    int n = 0;
    for (char *w = strtok(copy, " "); w && n < MAX_MOVES; w = strtok(NULL, " ")) words[n++] = w;
    qsort(words, (size_t)n, sizeof words[0], support_compare_words);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i) strncat(out, " ", cap - strlen(out) - 1);
        strncat(out, words[i], cap - strlen(out) - 1);
    }
}

/* The legal moves of fen in v are exactly the words of want (in any order). */
static inline void expect_legal_moves(const Variant *v, const char *fen, const char *want) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    char got[8192], a[8192], b[8192];
    legal_moves_text(&pos, got, sizeof got);
    sorted_words(got, a, sizeof a);
    sorted_words(want, b, sizeof b);
    if (strcmp(a, b)) print_error("%s: moves %s, expected %s\n", fen, a, b);
    assert_string_equal(a, b);
    board_free(&pos);
}

/* Perft of fen to depth, from a fresh generation context (no program may fault on the way). */
static inline uint64_t perft_of(const Variant *v, const char *fen, int depth) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    VmFault fault = {0};
    uint64_t n = perft(test_fresh_gen(), &pos, depth, &fault);
    assert_false(fault.set);
    board_free(&pos);
    return n;
}

/* The position text after the typed moves (separated by spaces) from fen; each must name
 * exactly one legal move. */
static inline void position_after(const Variant *v, const char *fen, const char *moves, char *out, size_t cap) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", moves);
    MoveList *ml = malloc(sizeof *ml);
    for (char *w = strtok(copy, " "); w; w = strtok(NULL, " ")) {
        VmFault fault = {0};
        assert_true(movegen_legal(test_gen(), &pos, ml, &fault));
        int found[4];
        int n = notation_parse(&pos, ml, w, found, 4);
        if (n != 1) print_error("%s: '%s' names %d moves\n", fen, w, n);
        assert_int_equal(n, 1);
        assert_true(board_make(&pos, &ml->moves[found[0]]));
    }
    free(ml);
    fen_write(&pos, out, cap);
    board_free(&pos);
}

/* The chess rules loaded once for a whole test group: a file that defines
 * SUPPORT_CHESS_FIXTURE before including this header gets `chess` and the group's setup and
 * teardown (pass them to cmocka_run_group_tests_name). */
#ifdef SUPPORT_CHESS_FIXTURE
static Variant *chess;

static int setup(void **state) {
    (void)state;
    DiagSink sink;
    diag_init(&sink);
    chess = load_file("rules/chess.rules", NULL, 0, &sink);
    diag_free(&sink);
    return chess ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    variant_free(chess);
    return 0;
}
#endif

#endif
