/* source.c - a rule file's text in memory, and line lookup for diagnostics. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "source.h"

/* Files larger than this are refused: no rule file comes near it, and the lexer counts in int. */
#define SOURCE_MAX_BYTES (64L * 1024 * 1024)

Source *source_load(const char *path, const char **err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err = strerror(errno);
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        *err = "it is a directory";
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *text = xmalloc(cap);
    for (;;) {
        if (len + 1 >= cap) {
            if (cap >= (size_t)SOURCE_MAX_BYTES) {
                free(text);
                fclose(f);
                *err = "file too large (limit is 64 MiB)";
                return NULL;
            }
            cap *= 2;
            text = xrealloc(text, cap);
        }
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) break;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        free(text);
        *err = "read error";
        return NULL;
    }
    text[len] = '\0';
    Source *src = xmalloc(sizeof *src);
    src->path = xstrdup(path);
    src->text = text;
    src->len = len;
    return src;
}

Source *source_from_string(const char *name, const char *text) {
    Source *src = xmalloc(sizeof *src);
    src->path = xstrdup(name);
    src->len = strlen(text);
    src->text = xstrndup(text, src->len);
    return src;
}

void source_free(Source *src) {
    if (!src) return;
    free(src->path);
    free(src->text);
    free(src);
}

const char *source_line(const Source *src, int line, size_t *len) {
    if (!src || line < 1) return NULL;
    const char *p = src->text, *end = src->text + src->len;
    for (int l = 1; l < line; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) return NULL;
        p = nl + 1;
    }
    if (p == end && line > 1) return NULL; /* nothing after the final newline */
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = (size_t)((nl ? nl : end) - p);
    if (n > 0 && p[n - 1] == '\r') n--;
    *len = n;
    return p;
}
