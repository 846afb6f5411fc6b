/* load.h - the load pipeline: rule-file text to a ready Variant (parse, check, compile,
 * verify, conclude, read the start position), every error reported to a sink. */
#ifndef VARIA_LOAD_H
#define VARIA_LOAD_H

#include "source.h"
#include "variant.h"

/* Loads from a Source the caller keeps alive (so sink can show source lines afterwards);
 * sets sink->source to src. Returns NULL when sink has errors; the caller frees the variant
 * with variant_free. */
Variant *load_source(const Source *src, const OptionSetting *settings, int nsettings, DiagSink *sink);
/* Loads the rule file at path. Options not in `settings` take their default; unknown names
 * or values are errors. Returns NULL when the file cannot be read or sink has errors. */
Variant *load_file(const char *path, const OptionSetting *settings, int nsettings, DiagSink *sink);
/* Loads the rule file at path and prints its diagnostics, with their source lines, to out;
 * NULL on error. */
Variant *load_file_reported(const char *path, const OptionSetting *settings, int nsettings, FILE *out);
/* Same from a text in memory (name is used in diagnostics). */
Variant *load_string(const char *name, const char *text, const OptionSetting *settings, int nsettings, DiagSink *sink);

#endif
