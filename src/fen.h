/* fen.h - the position text: FEN generalised to any board size, several boards, the rule
 * file's piece letters and player tokens. */
#ifndef VARIA_FEN_H
#define VARIA_FEN_H

#include "board.h"

/* The fields position text may have; a rule file chooses which, in what order (fen.c holds
 * each field's name, reader and writer in one table). */
typedef enum FenField {
    FEN_BOARD,
    FEN_SIDE,
    FEN_CASTLING,
    FEN_EP,
    FEN_HALFMOVE,
    FEN_FULLMOVE,
    FEN_PLIES,
    FEN_COUNTERS,
    FEN_ALLEGIANCE,
    FEN_PHASE,
    FEN_PILES,
    FEN_TILES,
    FEN_PRELUDE,
    FEN_OUT,
    FEN_CHECKS,
    FEN__COUNT
} FenField;

/* The field's name in a rule file's position-fields ("board", "side", ...). */
const char *fen_field_name(FenField f);
/* The field named name, or -1. */
int fen_field_by_name(const char *name);
/* Every field name, for messages: "board, side, ... prelude or out" (always NUL-terminated). */
void fen_field_list(char *buf, size_t cap);

/* Sets pos from text. On error returns false, writes a message naming the field and place to
 * err, and leaves pos unchanged. Missing trailing fields take defaults (first player to move,
 * no castling, no en passant, 0, 1). */
bool fen_read(Position *pos, const char *text, char *err, size_t errcap);
/* The start position of a game as text: the rule file's setup, with the pieces of each
 * `shuffle` zone shuffled per player by `seed` (the same seed gives the same position).
 * Cannot fail for a loaded variant (its setup was checked at load). */
void fen_start(const Variant *v, uint64_t seed, char *buf, size_t cap);
/* Writes the position text into buf (always NUL-terminated). */
void fen_write(const Position *pos, char *buf, size_t cap);
/* Whether every owner that starts the game with a royal piece (on the board or in hand) still
 * has one in pos, unless it is a player already defeated: a game cannot start from a position
 * where one is missing (it would be over before its first move). False with the reason
 * ("White has no King...") in err. */
bool fen_royals_ok(const Position *pos, char *err, size_t cap);
/* How many whitespace-separated fields text has (FEN_MAX_FIELDS + 1 when there are more). */
#define FEN_MAX_FIELDS 16
int fen_count_fields(const char *text);

#endif
