/* source.h - a rule file's text in memory, and line lookup for diagnostics. */
#ifndef VARIA_SOURCE_H
#define VARIA_SOURCE_H

#include "common.h"

typedef struct Source {
    char *path; /* as given by the user; used in diagnostics */
    char *text; /* NUL-terminated copy of the file */
    size_t len;
} Source;

/* Reads a whole file. Returns NULL and sets *err (static string) when it cannot. */
Source *source_load(const char *path, const char **err);
/* Wraps an in-memory text (copied) under a display name. Cannot fail. */
Source *source_from_string(const char *name, const char *text);
void source_free(Source *src);
/* Start of 1-based line `line` and its length without newline; NULL if out of range. */
const char *source_line(const Source *src, int line, size_t *len);

#endif
