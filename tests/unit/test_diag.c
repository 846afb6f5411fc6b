/* test_diag.c - the diagnostic sink and its rendering (header line, source line, caret and
 * underline), the error cap, and source line lookup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "diag.h"
#include "source.h"

static SrcLoc at(const char *file, int line, int col, int end_line, int end_col) {
    SrcLoc loc = {file, line, col, end_line, end_col};
    return loc;
}

/* Renders sink and compares with the expected text; frees the rendering. */
static void assert_render(const DiagSink *sink, const char *expected) {
    char *text = diag_to_string(sink);
    assert_non_null(text);
    assert_string_equal(text, expected);
    free(text);
}

static void test_diag_render_caret_and_underline(void **state) {
    (void)state;
    Source *src = source_from_string("t.rules", "version 1\npiece foo {\n}\n");
    DiagSink sink;
    diag_init(&sink);
    sink.source = src;
    diag_error(&sink, at(src->path, 2, 7, 2, 9), "unknown piece '%s'", "foo");
    diag_error(&sink, at(src->path, 1, 9, 1, 9), "bad version");
    assert_int_equal(sink.errors, 2);
    assert_render(&sink,
                  "t.rules:2:7: error: unknown piece 'foo'\n"
                  "piece foo {\n"
                  "      ^~~\n"
                  "t.rules:1:9: error: bad version\n"
                  "version 1\n"
                  "        ^\n");
    diag_free(&sink);
    source_free(src);
}

static void test_diag_levels_and_missing_parts(void **state) {
    (void)state;
    Source *src = source_from_string("t.rules", "a\n");
    DiagSink sink;
    diag_init(&sink);
    /* No source attached: header lines only. */
    diag_warn(&sink, at("t.rules", 1, 1, 1, 1), "unused zone '%s'", "z");
    diag_note(&sink, at("t.rules", 1, 1, 1, 1), "declared here");
    diag_error(&sink, at("t.rules", 0, 0, 0, 0), "no royal piece");
    diag_error(&sink, at(NULL, 0, 0, 0, 0), "cannot open file");
    assert_int_equal(sink.errors, 2);
    assert_int_equal(sink.warnings, 1);
    assert_render(&sink,
                  "t.rules:1:1: warning: unused zone 'z'\n"
                  "t.rules:1:1: note: declared here\n"
                  "t.rules: error: no royal piece\n"
                  "error: cannot open file\n");
    /* With the source: a location in another file shows no excerpt. */
    sink.source = src;
    diag_free(&sink);
    diag_init(&sink);
    sink.source = src;
    diag_error(&sink, at("other.rules", 1, 1, 1, 1), "elsewhere");
    assert_render(&sink, "other.rules:1:1: error: elsewhere\n");
    diag_free(&sink);
    source_free(src);
}

static void test_diag_caret_keeps_tabs_and_utf8_aligned(void **state) {
    (void)state;
    Source *src = source_from_string("t.rules", "\tzone \xc3\xa9t\xc3\xa9 = x\n");
    DiagSink sink;
    diag_init(&sink);
    sink.source = src;
    /* "=" is at byte column 13: tab(1) zone(2-5) space(6) "été"(7-11) space(12) */
    diag_error(&sink, at(src->path, 1, 13, 1, 13), "here");
    diag_error(&sink, at(src->path, 1, 7, 1, 11), "word");
    assert_render(&sink,
                  "t.rules:1:13: error: here\n"
                  "\tzone \xc3\xa9t\xc3\xa9 = x\n"
                  "\t         ^\n"
                  "t.rules:1:7: error: word\n"
                  "\tzone \xc3\xa9t\xc3\xa9 = x\n"
                  "\t     ^~~\n");
    diag_free(&sink);
    source_free(src);
}

static void test_diag_multiline_and_end_of_line_locations(void **state) {
    (void)state;
    Source *src = source_from_string("t.rules", "piece X {\r\n  step n\n");
    DiagSink sink;
    diag_init(&sink);
    sink.source = src;
    /* Spanning lines: only the caret. Past the end of the line (end of file): after it. */
    diag_error(&sink, at(src->path, 1, 1, 2, 8), "span");
    diag_error(&sink, at(src->path, 2, 9, 2, 9), "expected '}' (to close '{' at line 1)");
    diag_error(&sink, at(src->path, 7, 1, 7, 1), "no such line");
    assert_render(&sink,
                  "t.rules:1:1: error: span\n"
                  "piece X {\n"
                  "^\n"
                  "t.rules:2:9: error: expected '}' (to close '{' at line 1)\n"
                  "  step n\n"
                  "        ^\n"
                  "t.rules:7:1: error: no such line\n");
    diag_free(&sink);
    source_free(src);
}

static void test_diag_control_bytes_shown_safely(void **state) {
    (void)state;
    Source *src = source_from_string("t.rules",
                                     "ab\x01\x7f"
                                     "cd\n");
    DiagSink sink;
    diag_init(&sink);
    sink.source = src;
    diag_error(&sink, at(src->path, 1, 3, 1, 3), "unexpected character '\\x01'");
    assert_render(&sink,
                  "t.rules:1:3: error: unexpected character '\\x01'\n"
                  "ab??cd\n"
                  "  ^\n");
    diag_free(&sink);
    source_free(src);
}

static void test_diag_long_line_is_windowed(void **state) {
    (void)state;
    char line[1001];
    for (int i = 0; i < 1000; i++) line[i] = (char)('a' + i % 26);
    line[1000] = '\0';
    Source *src = source_from_string("t.rules", line);
    DiagSink sink;
    diag_init(&sink);
    sink.source = src;
    diag_error(&sink, at(src->path, 1, 501, 1, 503), "here");
    char *text = diag_to_string(&sink);
    /* header, "..." + 160 bytes + "...", caret line */
    const char *l2 = strchr(text, '\n') + 1;
    const char *l3 = strchr(l2, '\n') + 1;
    assert_int_equal(l3 - l2, 3 + 160 + 3 + 1);
    assert_memory_equal(l2, "...", 3);
    /* Byte 501 of the line (index 500) is shown right above the caret. */
    const char *caret = strchr(l3, '^');
    assert_non_null(caret);
    assert_int_equal(l2[caret - l3], line[500]);
    assert_memory_equal(caret, "^~~\n", 4);
    free(text);
    diag_free(&sink);
    source_free(src);
}

static void test_diag_errors_capped(void **state) {
    (void)state;
    DiagSink sink;
    diag_init(&sink);
    for (int i = 1; i <= MAX_DIAGNOSTICS + 5; i++) {
        diag_error(&sink, at("t.rules", i, 1, i, 1), "error %d", i);
        diag_note(&sink, at("t.rules", i, 1, i, 1), "note %d", i);
    }
    assert_int_equal(sink.errors, MAX_DIAGNOSTICS + 5);
    assert_true(sink.truncated);
    assert_int_equal(sink.count, 2 * MAX_DIAGNOSTICS); /* errors and their notes, no more */
    char *text = diag_to_string(&sink);
    assert_non_null(strstr(text,
                           "t.rules:20:1: error: error 20\nt.rules:20:1: note: note 20\n"
                           "note: too many errors (only the first 20 are shown)\n"));
    assert_null(strstr(text, "error 21"));
    free(text);
    diag_free(&sink);
}

static void test_diag_empty_sink_renders_nothing(void **state) {
    (void)state;
    DiagSink sink;
    diag_init(&sink);
    assert_render(&sink, "");
    diag_free(&sink);
}

static void test_diag_source_line_lookup(void **state) {
    (void)state;
    size_t len = 99;
    Source *src = source_from_string("t.rules", "one\r\ntwo\n\nfour");
    const char *line = source_line(src, 1, &len);
    assert_non_null(line);
    assert_int_equal(len, 3);
    assert_memory_equal(line, "one", 3);
    line = source_line(src, 2, &len);
    assert_int_equal(len, 3);
    assert_memory_equal(line, "two", 3);
    line = source_line(src, 3, &len);
    assert_non_null(line);
    assert_int_equal(len, 0);
    line = source_line(src, 4, &len);
    assert_int_equal(len, 4);
    assert_memory_equal(line, "four", 4);
    assert_null(source_line(src, 5, &len));
    assert_null(source_line(src, 0, &len));
    source_free(src);

    src = source_from_string("t.rules", "last\n");
    assert_non_null(source_line(src, 1, &len));
    assert_null(source_line(src, 2, &len));
    source_free(src);

    src = source_from_string("empty.rules", "");
    assert_non_null(source_line(src, 1, &len));
    assert_int_equal(len, 0);
    source_free(src);
}

static void test_diag_source_load(void **state) {
    (void)state;
    char path[] = "/tmp/varia_test_diag_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char body[] = "version 1\0tail";
    assert_int_equal(write(fd, body, sizeof body - 1), (ssize_t)(sizeof body - 1));
    close(fd);
    const char *err = NULL;
    Source *src = source_load(path, &err);
    assert_non_null(src);
    assert_int_equal(src->len, sizeof body - 1); /* NUL bytes are kept */
    assert_memory_equal(src->text, body, sizeof body);
    assert_string_equal(src->path, path);
    source_free(src);
    unlink(path);

    err = NULL;
    assert_null(source_load("/nonexistent/dir/x.rules", &err));
    assert_non_null(err);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diag_render_caret_and_underline),
        cmocka_unit_test(test_diag_levels_and_missing_parts),
        cmocka_unit_test(test_diag_caret_keeps_tabs_and_utf8_aligned),
        cmocka_unit_test(test_diag_multiline_and_end_of_line_locations),
        cmocka_unit_test(test_diag_control_bytes_shown_safely),
        cmocka_unit_test(test_diag_long_line_is_windowed),
        cmocka_unit_test(test_diag_errors_capped),
        cmocka_unit_test(test_diag_empty_sink_renders_nothing),
        cmocka_unit_test(test_diag_source_line_lookup),
        cmocka_unit_test(test_diag_source_load),
    };
    return cmocka_run_group_tests_name("diag", tests, NULL, NULL);
}
