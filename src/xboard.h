/* xboard.h - the XBoard engine protocol (CECP version 2), so XBoard and WinBoard can play the
 * rule files that fit it (two players, one rectangular board, one move a turn, no hidden
 * information), the games XBoard does not know by name included: they are described to it
 * (`setup`, `piece` lines, `highlight` answers). One line in, the answers out; the search runs
 * on a thread of its own so `?` and `ping` are answered while it thinks. */
#ifndef VARIA_XBOARD_H
#define VARIA_XBOARD_H

#include <stdbool.h>
#include <stdio.h>

typedef struct XboardSession XboardSession;

/* A session offering the games of rules_dir that fit, and the nfiles rule files of files (each
 * known by its file name without directory and .rules; the first is the game of `new`, else
 * chess). Answers go to out. */
XboardSession *xboard_new(const char *rules_dir, const char *const *files, int nfiles, FILE *out);
/* Handles one line of the protocol (without its newline). Returns false after `quit`. */
bool xboard_line(XboardSession *x, const char *line);
/* Waits for a running search (its move is printed) and frees the session. */
void xboard_free(XboardSession *x);
/* Reads lines from in until `quit` or the end of input. Returns 0. */
int xboard_run(const char *rules_dir, const char *const *files, int nfiles, FILE *in, FILE *out);

#endif
