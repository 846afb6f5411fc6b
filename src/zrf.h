/* zrf.h - the Zillions of Games front end: a .zrf rule file read and lowered into the same
 * syntax tree the rule language's parser builds, so the checker, the compiler and every tool
 * work on it unchanged (docs/zrf.md). */
#ifndef VARIA_ZRF_H
#define VARIA_ZRF_H

#include <stdio.h>

#include "ast.h"
#include "source.h"

/* The setting that chooses among a file's games and variants: --variant N|NAME reaches the
 * loader as the option setting of this name, which the front end takes for itself. */
#define ZRF_VARIANT_SETTING "variant"

/* Is src a Zillions rule file? Its name ends in ".zrf" (any case), or its text opens with
 * '(' after spaces and ';' comments. */
bool zrf_detect(const Source *src);

typedef struct ZrfKeep ZrfKeep;

/* Reads src and lowers the chosen game or variant (variant: NULL for the default, else a
 * number from the listing or a title, ignoring case) into a syntax tree the caller frees
 * with ast_free. Returns NULL when sink has errors. The tree's locations point into *keep,
 * which the caller frees with zrf_keep_free once the tree and the diagnostics are used. */
Ast *zrf_load(const Source *src, const char *variant, DiagSink *sink, ZrfKeep **keep);
void zrf_keep_free(ZrfKeep *keep);
/* Notes for the diagnostics sink got from index `first` on, placed in the file zrf_load
 * read: the macros each place came through. */
void zrf_keep_annotate(ZrfKeep *keep, DiagSink *sink, int first);

/* Writes the file's games and variants, one a line ("  2  Horde Chess (variant of Chess)"),
 * the default marked. Returns false (errors in sink) when the file cannot be read. */
bool zrf_list_variants(const Source *src, DiagSink *sink, FILE *out);

#endif
