/* uci.h - the UCI engine protocol, so GUIs and match tools can play any rule file that fits
 * it (two players, one rectangular board, one move a turn, no hidden information). One line
 * in, the answers out; the search runs on a thread of its own so `stop` and `isready` are
 * answered while it thinks. */
#ifndef VARIA_UCI_H
#define VARIA_UCI_H

#include <stdbool.h>
#include <stdio.h>

typedef struct UciSession UciSession;
struct Variant;

/* Why a game cannot be played over UCI (or XBoard), or NULL when it can. */
const char *uci_why_not(const struct Variant *v);

/* A session offering the games of rules_dir that fit (option UCI_Variant), and `file` (or
 * NULL) as the game chosen at start. Answers go to out. */
UciSession *uci_new(const char *rules_dir, const char *file, FILE *out);
/* Handles one line of the protocol (without its newline). Returns false after `quit`. */
bool uci_line(UciSession *u, const char *line);
/* Stops a running search (its bestmove is printed) and frees the session. */
void uci_free(UciSession *u);
/* Reads lines from in until `quit` or the end of input. Returns 0. */
int uci_run(const char *rules_dir, const char *file, FILE *in, FILE *out);

#endif
