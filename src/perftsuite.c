/* perftsuite.c - a perft suite checked in one process: the rule file is loaded once for all of
 * its positions and figures. */
#include "perftsuite.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "perft.h"

enum { SUITE_LINE_MAX = 8192 };

/* One figure of a line: ";Dn COUNT [deep]". Returns the text after it, or NULL when s does not
 * hold one (the position of the fault in *bad). */
static const char *read_figure(const char *s, int *depth, uint64_t *count, bool *deep, const char **bad) {
    while (isspace((unsigned char)*s)) s++;
    *bad = s;
    if (*s != ';' || s[1] != 'D' || !isdigit((unsigned char)s[2])) return NULL;
    char *end;
    errno = 0;
    long d = strtol(s + 2, &end, 10);
    if (errno || d < 0 || d > 20 || !isspace((unsigned char)*end)) return NULL;
    s = end;
    while (isspace((unsigned char)*s)) s++;
    *bad = s;
    if (!isdigit((unsigned char)*s)) return NULL;
    errno = 0;
    unsigned long long n = strtoull(s, &end, 10);
    if (errno || (*end && !isspace((unsigned char)*end) && *end != ';')) return NULL;
    s = end;
    while (isspace((unsigned char)*s)) s++;
    *deep = !strncmp(s, "deep", 4) && (!s[4] || isspace((unsigned char)s[4]) || s[4] == ';');
    if (*deep) s += 4;
    *depth = (int)d;
    *count = n;
    return s;
}

static bool selected(const PerftSelect *sel, uint64_t count, bool deep) {
    bool shallow = count <= sel->max_nodes && !deep;
    return sel->deep ? !shallow : shallow;
}

PerftSuiteResult perft_suite(GenContext *ctx, Position *pos, const char *path, FILE *in, const PerftSelect *sel,
                             bool verbose, FILE *out, FILE *err) {
    PerftSuiteResult r = {0};
    char line[SUITE_LINE_MAX];
    int lineno = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        size_t len = strcspn(line, "\r\n");
        if (line[len] == 0 && !feof(in)) {
            fprintf(err, "%s:%d: error: line too long (at most %d characters)\n", path, lineno, SUITE_LINE_MAX - 2);
            int ch;
            while ((ch = fgetc(in)) != EOF && ch != '\n') {}
            r.failed++;
            continue;
        }
        line[len] = 0;
        const char *p = line;
        while (isspace((unsigned char)*p)) p++;
        if (!*p || *p == '#') continue;
        char *semi = strchr(line, ';');
        if (!semi) {
            fprintf(err, "%s:%d: error: a position without figures (expected 'POSITION ;D1 COUNT ...')\n", path,
                    lineno);
            r.failed++;
            continue;
        }
        /* the position: the text before the first ';', without its trailing blanks */
        char fen[SUITE_LINE_MAX];
        size_t flen = (size_t)(semi - line);
        memcpy(fen, line, flen);
        while (flen && isspace((unsigned char)fen[flen - 1])) flen--;
        fen[flen] = 0;
        bool position_ready = false, position_bad = false;
        const char *s = semi;
        while (*s) {
            int depth;
            uint64_t want;
            bool deep;
            const char *bad;
            const char *next = read_figure(s, &depth, &want, &deep, &bad);
            if (!next) {
                fprintf(err, "%s:%d:%d: error: expected a figure ';Dn COUNT' here\n", path, lineno,
                        (int)(bad - line) + 1);
                r.failed++;
                break;
            }
            s = next;
            if (!selected(sel, want, deep)) {
                r.skipped++;
                continue;
            }
            if (position_bad) {
                r.failed++;
                continue;
            }
            if (!position_ready) {
                char why[200];
                genctx_init(ctx);
                if (!fen_read(pos, fen, why, sizeof why) || !movegen_position_ok(ctx, pos, why, sizeof why)) {
                    fprintf(err, "%s:%d: error: bad position '%s': %s\n", path, lineno, fen, why);
                    position_bad = true;
                    r.failed++;
                    continue;
                }
                position_ready = true;
            }
            VmFault fault = {0};
            uint64_t got = perft(ctx, pos, depth, &fault);
            if (fault.set) {
                fprintf(err, "%s:%d: error: depth %d: runtime fault: %s\n", path, lineno, depth, fault.msg);
                r.failed++;
            } else if (got != want) {
                fprintf(err, "%s:%d: error: depth %d: expected %llu, got %llu for %s\n", path, lineno, depth,
                        (unsigned long long)want, (unsigned long long)got, fen);
                r.failed++;
            } else {
                if (verbose) fprintf(out, "%s:%d: depth %d: %llu\n", path, lineno, depth, (unsigned long long)got);
                r.passed++;
            }
        }
    }
    return r;
}
