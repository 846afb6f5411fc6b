/* webassets.h - the files of the web page (web/), compiled into the binary by web/embed.sh so
 * that `varia serve` needs nothing on disk but the rule files, from a source tree or installed. */
#ifndef VARIA_WEBASSETS_H
#define VARIA_WEBASSETS_H

#include <stddef.h>

typedef struct WebAsset {
    const char *path; /* as requested: "/index.html" */
    const char *type; /* its content type */
    const unsigned char *data;
    size_t len;
} WebAsset;

extern const WebAsset web_assets[];
extern const size_t web_nassets;

#endif
