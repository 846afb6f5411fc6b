/* diag.c - the diagnostic sink: collects errors, warnings and notes (errors capped at
 * MAX_DIAGNOSTICS) and renders them as "file:line:col: level: message", followed by the source
 * line and a caret line ("^" under the column, "~" up to the end column on the same line). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "source.h"

/* Source lines longer than this are shown as a window around the column. */
#define DIAG_LINE_MAX 160

void diag_init(DiagSink *sink) { memset(sink, 0, sizeof *sink); }

void diag_free(DiagSink *sink) {
    for (int i = 0; i < sink->count; i++) {
        free(sink->items[i].msg);
        free((char *)sink->items[i].loc.file);
    }
    free(sink->items);
    sink->items = NULL;
    sink->count = sink->cap = 0;
}

static char *format(const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) return xstrdup(fmt);
    char *msg = xmalloc((size_t)n + 1);
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
    return msg;
}

/* Errors past MAX_DIAGNOSTICS are counted but not kept (the sink is then "truncated"); so are
 * warnings past MAX_DIAGNOSTICS. Notes and warnings after truncation are dropped, since the
 * errors they would accompany are not shown. */
/* Is the same message already recorded at the same place? (A rule shared by several players
 * or pieces is checked once per use; its user wants to read the error once.) */
static bool already_said(const DiagSink *sink, DiagLevel level, SrcLoc loc, const char *msg) {
    for (int i = 0; i < sink->count; i++) {
        const Diag *d = &sink->items[i];
        if (d->level == level && d->loc.line == loc.line && d->loc.col == loc.col &&
            (d->loc.file == loc.file || (d->loc.file && loc.file && !strcmp(d->loc.file, loc.file))) &&
            !strcmp(d->msg, msg))
            return true;
    }
    return false;
}

static void add(DiagSink *sink, DiagLevel level, SrcLoc loc, const char *fmt, va_list ap) {
    char *msg = format(fmt, ap);
    if (level != DIAG_NOTE && already_said(sink, level, loc, msg)) {
        free(msg);
        return;
    }
    if (level == DIAG_ERROR) {
        sink->errors++;
        if (sink->errors > MAX_DIAGNOSTICS) {
            sink->truncated = true;
            free(msg);
            return;
        }
    } else if (level == DIAG_WARNING) {
        sink->warnings++;
        if (sink->truncated || sink->warnings > MAX_DIAGNOSTICS) {
            free(msg);
            return;
        }
    } else if (sink->truncated) {
        free(msg);
        return;
    }
    if (sink->count == sink->cap) {
        sink->cap = sink->cap ? sink->cap * 2 : 8;
        sink->items = xrealloc(sink->items, (size_t)sink->cap * sizeof *sink->items);
    }
    Diag *d = &sink->items[sink->count++];
    d->level = level;
    d->loc = loc;
    /* The sink keeps its own copy of the file name: loaders free their Source before the
     * caller renders the diagnostics. */
    d->loc.file = loc.file ? xstrdup(loc.file) : NULL;
    d->msg = msg;
}

void diag_error(DiagSink *sink, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    add(sink, DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
}

void diag_warn(DiagSink *sink, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    add(sink, DIAG_WARNING, loc, fmt, ap);
    va_end(ap);
}

void diag_note(DiagSink *sink, SrcLoc loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    add(sink, DIAG_NOTE, loc, fmt, ap);
    va_end(ap);
}

static const char *level_name(DiagLevel level) {
    switch (level) {
    case DIAG_ERROR: return "error";
    case DIAG_WARNING: return "warning";
    case DIAG_NOTE: return "note";
    }
    return "error";
}

/* UTF-8 continuation bytes take no column of their own on screen. */
static bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

/* The source line of loc and a caret line under it. Columns count bytes (as the lexer does);
 * the caret line copies tabs so it stays aligned, and skips UTF-8 continuation bytes. */
static void render_excerpt(const Source *src, SrcLoc loc, FILE *out) {
    size_t len;
    const char *line = source_line(src, loc.line, &len);
    if (!line) return;
    size_t col = loc.col > 0 ? (size_t)loc.col - 1 : 0; /* 0-based byte index */
    if (col > len) col = len;
    size_t end = col + 1; /* one past the underlined part */
    if (loc.end_line == loc.line && loc.end_col > loc.col) end = (size_t)loc.end_col;

    /* Window [from, to) of the line around the column. */
    size_t from = 0, to = len;
    if (len > DIAG_LINE_MAX) {
        from = col > DIAG_LINE_MAX / 2 ? col - DIAG_LINE_MAX / 2 : 0;
        to = from + DIAG_LINE_MAX < len ? from + DIAG_LINE_MAX : len;
    }
    if (end > to + 1) end = to + 1;

    const char *lead = from > 0 ? "..." : "";
    fputs(lead, out);
    for (size_t i = from; i < to; i++) {
        unsigned char c = (unsigned char)line[i];
        fputc((c < 0x20 && c != '\t') || c == 0x7f ? '?' : c, out);
    }
    fputs(to < len ? "...\n" : "\n", out);

    fputs(from > 0 ? "   " : "", out);
    for (size_t i = from; i < col; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == '\t')
            fputc('\t', out);
        else if (!is_continuation(c))
            fputc(' ', out);
    }
    fputc('^', out);
    for (size_t i = col + 1; i < end; i++)
        if (i >= len || !is_continuation((unsigned char)line[i])) fputc('~', out);
    fputc('\n', out);
}

void diag_render(const DiagSink *sink, FILE *out) {
    for (int i = 0; i < sink->count; i++) {
        const Diag *d = &sink->items[i];
        const char *level = level_name(d->level);
        if (d->loc.file && d->loc.line > 0)
            fprintf(out, "%s:%d:%d: %s: %s\n", d->loc.file, d->loc.line, d->loc.col, level, d->msg);
        else if (d->loc.file)
            fprintf(out, "%s: %s: %s\n", d->loc.file, level, d->msg);
        else
            fprintf(out, "%s: %s\n", level, d->msg);
        if (sink->source && d->loc.file && d->loc.line > 0 && strcmp(d->loc.file, sink->source->path) == 0)
            render_excerpt(sink->source, d->loc, out);
    }
    if (sink->truncated) fprintf(out, "note: too many errors (only the first %d are shown)\n", MAX_DIAGNOSTICS);
}

char *diag_to_string(const DiagSink *sink) {
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    if (!out) return xstrdup("");
    diag_render(sink, out);
    fclose(out);
    return buf;
}
