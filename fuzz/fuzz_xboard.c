/* fuzz_xboard.c - the XBoard command reader: the input is a session, one command a line, read
 * by a new session over a few shipped rule files. Every search the session starts is cut to
 * depth 1 (an `sd 1` after each line that can reset it; the input's own `sd`, `st` and `level`
 * lines are left out), so a session ends in moments whatever it holds. The session answers and
 * never crashes. */
#include "fuzz.h"

#include "xboard.h"

#define FUZZ_XBOARD_MAX 4096

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    return 0;
}

/* Does the line start with one of the words? */
static bool starts_with_word(const char *line, const char *const *words) {
    while (*line == ' ' || *line == '\t') line++;
    size_t len = strcspn(line, " \t");
    for (int i = 0; words[i]; i++)
        if (strlen(words[i]) == len && !strncmp(line, words[i], len)) return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const char *const limits[] = {"sd", "st", "level", "time", "otim", NULL};
    if (size > FUZZ_XBOARD_MAX) return 0;
    char *text = fuzz_string(data, size);
    FILE *out = fopen("/dev/null", "w");
    if (!out) abort();
    XboardSession *x = xboard_new(fuzz_protocol_rules_dir(), NULL, 0, out);
    bool go_on = xboard_line(x, "sd 1");
    for (char *line = text, *next; go_on && line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (starts_with_word(line, limits)) continue;
        go_on = xboard_line(x, line) && xboard_line(x, "sd 1");
    }
    xboard_free(x);
    fclose(out);
    free(text);
    return 0;
}
