/* parse.h - rule-file text to syntax tree (flex + bison, reentrant). */
#ifndef VARIA_PARSE_H
#define VARIA_PARSE_H

#include "ast.h"
#include "source.h"

/* Parses a whole rule file. Always returns an AST_FILE node (possibly partial) that the caller
 * frees with ast_free; syntax errors go to sink (all of them, with recovery per item).
 * The tree's SrcLoc.file points at src->path, so src must outlive the tree. */
Ast *parse_source(const Source *src, DiagSink *sink);

#endif
