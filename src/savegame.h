/* savegame.h - saved games as text: the rule file and its options, the start position, the
 * moves, and the result. Reading checks the syntax; replaying checks every move against the
 * rules and names the first bad line. Writing replaces the file whole or not at all.
 *
 *   # Varia saved game
 *   moves 2                    (how many move lines follow; optional, then 'end' is required)
 *   rules rules/chess.rules
 *   option NAME=VALUE          (zero or more)
 *   start POSITION-TEXT
 *   move e2e4                  (one per line; coordinate or algebraic notation)
 *   result white checkmate     (WINNER|draw|none REASON; optional)
 *   end                        (the last line; optional without 'moves')
 *
 * The writer puts both 'moves' and 'end' in, so a file cut short or with moves taken out or
 * added is refused with the line where it goes wrong instead of loading as a shorter game. */
#ifndef VARIA_SAVEGAME_H
#define VARIA_SAVEGAME_H

#include "board.h"

#define SAVEGAME_TEXT_MAX 4096 /* longest line of a saved game */

typedef struct SavedGame {
    char *rules; /* rule file path, as written */
    int noptions;
    char *option_name[MAX_OPTIONS], *option_value[MAX_OPTIONS];
    int option_line[MAX_OPTIONS];
    char *start; /* position text, NULL = the rule file's setup */
    int start_line;
    int nmoves;
    char **moves;                        /* move texts */
    int *move_lines;                     /* line of each move in the file */
    char *result_winner, *result_reason; /* NULL when the file has no result line */
    int result_line;
    int declared_moves;          /* N of the 'moves N' line, -1 when there is none */
    int declared_line, end_line; /* lines of 'moves' and 'end', 0 when absent */
} SavedGame;

/* Reads and checks the syntax of a saved game. On error returns false with
 * "PATH:LINE: message" in err (the first bad line) and g empty. The caller frees g with
 * savegame_free after success. */
bool savegame_read(const char *path, SavedGame *g, char *err, size_t cap);
/* Parses a saved game from text (name is used in messages). Same contract as savegame_read. */
bool savegame_parse(const char *name, const char *text, SavedGame *g, char *err, size_t cap);
void savegame_free(SavedGame *g);

/* Plays g's start position and moves on pos (board_init'ed for the right variant); the moves
 * made are also copied to moves_out (capacity max). On error returns false with
 * "NAME:LINE: message" in err; pos is then unspecified (replay into a scratch position). */
/* (The moves played, defeats included, are moves_out[0 .. pos->ply - 1].) */
bool savegame_replay(const SavedGame *g, const char *name, Position *pos, Move *moves_out, int max, char *err,
                     size_t cap);

/* Writes a saved game. start = position text of the start; moves = the moves played from it;
 * winner/reason may be NULL (no result). The text goes to a new file in the same directory,
 * which is flushed to the disk and then renamed over path: a crash or a full disk leaves the
 * previous file as it was. Returns false with a message in err when the file cannot be
 * written (and then path is untouched). */
bool savegame_write(const char *path, const char *rules, const Variant *v, const char *start, const Move *moves,
                    int nmoves, const char *winner, const char *reason, char *err, size_t cap);

#endif
