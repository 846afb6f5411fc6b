/* diag.h - diagnostics: source locations and a sink that collects errors, warnings and notes.
 * The library never prints; main.c renders a sink as "file:line:col: error: msg" + line + caret. */
#ifndef VARIA_DIAG_H
#define VARIA_DIAG_H

#include <stdio.h>

#include "common.h"

typedef struct SrcLoc {
    const char *file; /* not owned; lives as long as the Source it came from */
    int line, col;    /* 1-based; line 0 means "no location" */
    int end_line, end_col;
} SrcLoc;

typedef enum DiagLevel { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

typedef struct Diag {
    DiagLevel level;
    SrcLoc loc; /* loc.file is the sink's own copy (the Source may be gone) */
    char *msg;
} Diag;

struct Source;

typedef struct DiagSink {
    Diag *items;
    int count, cap;
    int errors, warnings;
    bool truncated;              /* more than MAX_DIAGNOSTICS errors were reported */
    const struct Source *source; /* optional: lets render show the source line and caret */
} DiagSink;

void diag_init(DiagSink *sink);
void diag_free(DiagSink *sink);
void diag_error(DiagSink *sink, SrcLoc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
void diag_warn(DiagSink *sink, SrcLoc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
void diag_note(DiagSink *sink, SrcLoc loc, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Writes every diagnostic as "file:line:col: level: msg", then the source line and a caret
 * when the sink has a source. */
void diag_render(const DiagSink *sink, FILE *out);
/* Same as render, into a newly allocated string the caller frees. */
char *diag_to_string(const DiagSink *sink);

#endif
