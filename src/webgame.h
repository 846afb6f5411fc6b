/* webgame.h - one game played from the web page (`varia serve`): the rule file, the position,
 * the moves played and taken back, who plays each seat, the result; and what the page is shown
 * of it as JSON: the layout once (boards, cells, how each piece is drawn, the same looks as the
 * rulebook's SVG) and the state after each change (pieces, legal moves with the cells a click
 * names, the move list, the position text), secrets shown only to the player whose screen it is.
 * Nothing here knows of HTTP or threads: webapi.c keeps the games and calls in under its lock. */
#ifndef VARIA_WEBGAME_H
#define VARIA_WEBGAME_H

#include <jansson.h>

#include "search.h"
#include "ui_console.h"

#define WEBGAME_TEXT_MAX 4096 /* position text of the start */

/* One move of the game with its texts, as the move list shows it. */
typedef struct WebPly {
    Move move;
    int mover;    /* -1: a defeat the game played */
    int fullmove; /* the move number it was made at */
    char san[64];   /* the game's own notation (algebraic where the game has letters) */
    char coord[64]; /* coordinate notation, what the move is typed and saved as */
} WebPly;

typedef struct WebGame {
    Variant *v;
    char *name; /* the game's name in the list of games ("chess") */
    char *path; /* its rule file */
    Position pos;
    GenContext gen;
    char start[WEBGAME_TEXT_MAX]; /* position text of the start */
    WebPly *played;               /* played[0 .. nplayed), nplayed == pos.ply */
    int nplayed;
    WebPly *undone; /* taken back, the last one taken back on top */
    int nundone;
    int seats[MAX_PLAYERS]; /* SeatKind */
    double seconds;         /* the computer's time per move (0: by depth only) */
    int depth;              /* its depth limit (0: by time only) */
    uint64_t seed, rng;
    bool fixed_deal; /* a seed was given: a new game deals the same start */
    bool over;
    int winner, loser; /* players, or -1 */
    char reason[48];
    bool paused;     /* computer seats wait (stopped, or after an undo) until told to go or a move */
    bool hidden;     /* the game has secrets (mines, decks arranged in the set-up) */
    int shown_to;    /* hot seat with secrets: the human whose screen it was last */
    char fault[320]; /* a program of the rule file failed here ("": none) */
} WebGame;

/* Loads the rule file at path (known to the page as name) with the option settings and sets
 * up its start: player 1 human, the others the computer. NULL with the diagnostics in err
 * when it does not load. The caller frees the game with webgame_free. */
WebGame *webgame_new(const char *name, const char *path, const OptionSetting *opts, int nopts, char *err, size_t cap);
void webgame_free(WebGame *g);

/* Back to the start: with fresh_deal, what the rules leave to chance is dealt again. */
void webgame_restart(WebGame *g, bool fresh_deal);
/* Makes the game repeatable: the start dealt by seed (where the rules shuffle or deal), the
 * computer's choice among equal moves and the weak seats' picks seeded by it; back to the start. */
void webgame_seed(WebGame *g, uint64_t seed);

/* Plays the legal move that text names (coordinate or algebraic notation). False with the
 * reason in err, the game untouched, when the game is over, text names no legal move or several. */
bool webgame_move_text(WebGame *g, const char *text, char *err, size_t cap);
/* Plays m, one of the position's legal moves, then the defeats it causes. False (untouched)
 * when the game has reached the length limit. */
bool webgame_play(WebGame *g, const Move *m);
/* Takes moves back to a human's turn (with no human seat: one move), the defeats a move caused
 * with it. False with the reason when there is nothing to take back, or the game hides
 * information and is not over. */
bool webgame_undo(WebGame *g, char *err, size_t cap);
bool webgame_redo(WebGame *g, char *err, size_t cap);
/* The rest of the set-up step under way played at random. False when no set-up step is. */
bool webgame_random_setup(WebGame *g, char *err, size_t cap);

/* The player to move, and who plays that seat. */
int webgame_mover(const WebGame *g);
/* May a person move now? (the game goes on, and the mover is human or its computer waits) */
bool webgame_human_may_move(const WebGame *g);

/* The game as a saved game's text (the console's format), allocated. False with the reason
 * when it cannot be written. */
bool webgame_save(const WebGame *g, char **text, char *err, size_t cap);
/* The game a saved game's text holds. resolve turns the rule file it names into the name and
 * path of a game the page may play (false: not one of them); the game is replayed and checked
 * move by move. NULL with the reason in err. */
typedef bool (*WebResolveFn)(void *user, const char *rules, const char **name, const char **path);
WebGame *webgame_load(const char *text, WebResolveFn resolve, void *user, char *err, size_t cap);

/* The computer's choice for the position pos (a copy of the game's), by seat kind: ai searches
 * within lim (positions sampled from what the mover may know when the game hides information),
 * greedy and random pick at once with rng. False when there is no legal move or the search was
 * interrupted. */
bool webgame_choose(Searcher *s, Position *pos, int kind, const SearchLimits *lim, bool hidden, uint64_t *rng,
                    Move *out);

/* The drawing data of the game (new reference): boards, cells, players, how each piece is
 * drawn, move kinds, options. */
json_t *webgame_layout(const WebGame *g);
/* The state of the game (new reference) as the player whose screen it is may see it. thinking:
 * the computer is choosing a move now (no legal moves are listed then). */
json_t *webgame_state(WebGame *g, bool thinking);

#endif
