/* ui_console.h - the console front end: draws the boards, reads moves and commands (GNU
 * readline when built with it and talking to a terminal, plain stdin otherwise), runs the game
 * loop with human and computer seats, and the self-play match driver. Works for any rule file. */
#ifndef VARIA_UI_CONSOLE_H
#define VARIA_UI_CONSOLE_H

#include "variant.h"

typedef enum SeatKind { SEAT_HUMAN, SEAT_AI, SEAT_GREEDY, SEAT_RANDOM, SEAT__COUNT } SeatKind;

/* "human", "ai", "greedy", "random" -> SeatKind; -1 for anything else. */
int ui_seat_kind(const char *name);
const char *ui_seat_name(int kind);

typedef struct UiConfig {
    const char *rules;            /* rule file path */
    const OptionSetting *options; /* --option settings */
    int noptions;
    int seats[MAX_PLAYERS]; /* SeatKind, or -1: player 1 human, the others ai */
    const char *bad_seat;   /* a --seat N=KIND with N outside 1..MAX_PLAYERS, refused with the game's
                             * seats; NULL when none */
    double seconds;         /* computer's time per move; 0 = no limit */
    int depth;              /* computer's depth limit; 0 = none */
    uint64_t seed;          /* root shuffle and the random/greedy players */
    bool seed_given;        /* false: each game's deal (shuffle, at-random) is fresh */
    const char *load;       /* saved game to load at start, or NULL */
    const char *fen;        /* start position text instead of the rule file's, or NULL */
    bool ascii;             /* letters even on a UTF-8 terminal */
    bool flip;              /* draw the board upside down */
    bool compact;           /* after a move, the status lines instead of the board */
    const char *rules_dir;  /* where the shipped games are (a PGN's Variant tag) */
} UiConfig;

/* Plays one session on stdin/stdout until 'quit' or end of input. Returns 0, or 1 when the
 * rule file or the saved game given at start cannot be loaded (message on stderr). */
int ui_play(const UiConfig *cfg);

typedef struct SelfplayConfig {
    const char *rules;
    const OptionSetting *options;
    int noptions;
    int games;
    double seconds;
    int depth;
    uint64_t seed;
    int engine_a, engine_b; /* SeatKind (not human) */
    bool verbose;           /* one line per game */
} SelfplayConfig;

/* Plays cfg->games games between engine A and engine B from the start position, A taking
 * each seat in turn, and prints A's wins, draws and losses. Returns 0, 1 on load errors. */
int ui_selfplay(const SelfplayConfig *cfg);

#endif
