/* pgn.h - games in Portable Game Notation, for any rule file: the seven standard tags, then
 * Variant (the rule file's name without ".rules"), Rules (its path), Options, FEN and SetUp
 * when the start is not the rule file's own, Termination (the reason) and, with more than two
 * players, Winner; the moves in algebraic notation (spaces squeezed out: "Mb6-b5+").
 * Reading gives a SavedGame, so a PGN game is replayed and checked as a saved game is. */
#ifndef VARIA_PGN_H
#define VARIA_PGN_H

#include <stdio.h>

#include "savegame.h"

/* One move of a game as text, with the move number, the player who made it and its slot in the
 * turn order (0: it begins a round of moves, written "12."; else "12..."). */
typedef struct PgnPly {
    char san[64];
    int fullmove, mover, turn;
    const Move *move;
} PgnPly;

/* The algebraic text of each move played from start (defeats, which no one plays, are left
 * out). out holds nmoves entries; returns how many were written. */
int pgn_move_texts(const Variant *v, const char *start, const Move *moves, int nmoves, PgnPly *out);

typedef struct PgnGame {
    const char *rules; /* rule file path */
    const char *start; /* position text of the start */
    const Move *moves;
    int nmoves;
    const char *players[MAX_PLAYERS]; /* who played each seat ("human", "ai") */
    const char *winner;               /* a player's name, "draw", or NULL (no result yet) */
    const char *reason;               /* how it ended */
} PgnGame;

/* Writes the game as PGN to out. */
void pgn_format(FILE *out, const Variant *v, const PgnGame *game);
/* Writes the game as PGN to path; false with the reason in err. */
bool pgn_write(const char *path, const Variant *v, const PgnGame *game, char *err, size_t cap);

/* path holds PGN: its name ends in ".pgn", or its first printing character is '['. */
bool pgn_is_pgn(const char *path);
/* Reads the first game of a PGN file into g (see savegame_read). The rule file is the Rules
 * tag when that file can be read, else the Variant tag's game in rules_dir (chess when there
 * is no tag), else the Rules tag as written. The result stays in PGN form ("1-0") until
 * pgn_name_result. */
bool pgn_read(const char *path, const char *rules_dir, SavedGame *g, char *err, size_t cap);
/* Turns the PGN result of g into a saved game's winner (a player's name or "draw"). */
void pgn_name_result(SavedGame *g, const Variant *v);

#endif
