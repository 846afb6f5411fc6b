/* fuzz_uci.c - the UCI command reader: the input is a session, one command a line, read by a
 * new session over a few shipped rule files. Searches are left out (they run on a thread and
 * for as long as they are told; the scripted sessions test them), except `go perft` of depth
 * 1 or 2. Whatever the lines, the session answers and never crashes; its position stays one
 * that reads back (`d` at the end). */
#include "fuzz.h"

#include "uci.h"

#define FUZZ_UCI_MAX 4096

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    return 0;
}

/* Is this line a search (skipped), rather than a command or a shallow perft? */
static bool is_search(const char *line) {
    while (*line == ' ' || *line == '\t') line++;
    if (strncmp(line, "go", 2) || (line[2] && line[2] != ' ' && line[2] != '\t')) return false;
    const char *perft = strstr(line, "perft");
    if (!perft) return true;
    long depth = strtol(perft + 5, NULL, 10);
    return depth > 2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > FUZZ_UCI_MAX) return 0;
    char *text = fuzz_string(data, size);
    FILE *out = fopen("/dev/null", "w");
    if (!out) abort();
    UciSession *u = uci_new(fuzz_protocol_rules_dir(), NULL, out);
    bool go_on = true;
    for (char *line = text, *next; go_on && line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        if (!is_search(line)) go_on = uci_line(u, line);
    }
    if (go_on) uci_line(u, "d");
    uci_free(u);
    fclose(out);
    free(text);
    return 0;
}
