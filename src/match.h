/* match.h - self-play matches between two settings of the computer player, in one process: the
 * measurement every search and evaluation change is kept or dropped by (docs/strength.md). Games
 * come in pairs from the same random opening, the sides swapped; the result is the first
 * player's wins, draws and losses with its Elo difference and error, and optionally a
 * sequential probability ratio test that stops the match once it is decided. */
#ifndef VARIA_MATCH_H
#define VARIA_MATCH_H

#include <stdio.h>

#include "search.h"

typedef struct MatchConfig {
    const char *rules; /* the rule file's path */
    const OptionSetting *options;
    int noptions;
    int games;          /* at most this many (rounded up to pairs) */
    double base, inc;   /* a clock per side: seconds for the game, seconds added after a move */
    int depth;          /* a fixed depth instead (base 0) */
    SearchOptions a, b; /* the two players' settings */
    const char *name_a, *name_b;
    int tt_mb;      /* each player's hash table */
    uint64_t seed;  /* the openings */
    int open_plies; /* random plies from the start before the players take over */
    bool sprt;      /* stop once H0 (Elo elo0) or H1 (elo1) is accepted, alpha = beta = 0.05 */
    double elo0, elo1;
    bool verbose; /* a line per game */
} MatchConfig;

typedef struct MatchResult {
    int wins, draws, losses; /* for player a */
    int time_losses;         /* games lost on time (by either) */
    double score;            /* a's mean score, 0..1 */
    double elo, elo_error;   /* a's Elo difference and the 95% interval's half-width */
    double llr;              /* the log-likelihood ratio of the SPRT (0 when none) */
    const char *verdict;     /* "H1 accepted", "H0 accepted" or NULL */
} MatchResult;

/* Plays the match, a line per game on out when verbose and a summary at the end. Returns
 * false (with a message on err) when the rule file does not load. */
bool match_run(const MatchConfig *cfg, MatchResult *res, FILE *out, FILE *err);

/* The Elo difference of a mean score (0 < score < 1; clamped otherwise) and, from the games'
 * per-game variance, the half-width of its 95% interval. */
void match_elo(int wins, int draws, int losses, double *elo, double *error);
/* The SPRT's log-likelihood ratio of H1 (elo1) against H0 (elo0) for these results (the
 * normal approximation of the trinomial). */
double match_llr(int wins, int draws, int losses, double elo0, double elo1);

#endif
