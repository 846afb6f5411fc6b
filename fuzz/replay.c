/* replay.c - runs a fuzz target once over every file in the given files and directories: the
 * committed corpora and the regression inputs, as a plain test (no fuzzer, any compiler).
 * Exits 1 if a directory cannot be read; a failing input aborts (the target's checks). */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static const char *current; /* the input being run, named when it crashes */

static void crashed(int sig) {
    static const char msg[] = "replay: crashed on input ";
    if (write(2, msg, sizeof msg - 1) < 0 || write(2, current, strlen(current)) < 0 || write(2, "\n", 1) < 0) {
        /* nothing more to say */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t size = 0, cap = 4096;
    uint8_t *data = malloc(cap);
    if (!data) abort();
    size_t got;
    while ((got = fread(data + size, 1, cap - size, f)) > 0) {
        size += got;
        if (size == cap) {
            data = realloc(data, cap *= 2);
            if (!data) abort();
        }
    }
    fclose(f);
    current = path;
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_path(const char *path, int *count) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file or directory: %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return run_file(path);
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        return 1;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        names = realloc(names, (n + 1) * sizeof *names);
        if (!names) abort();
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n]) abort();
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        (*count)++;
        bad |= run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv) {
    static const int sigs[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], crashed);
    LLVMFuzzerInitialize(&argc, &argv);
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++) bad |= run_path(argv[i], &count);
    printf("%s: %d inputs replayed\n", argc > 0 ? argv[0] : "replay", count);
    return bad;
}
