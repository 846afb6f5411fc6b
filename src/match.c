/* match.c - self-play matches between two settings of the computer player: paired games from
 * random openings, clocks with increments or a fixed depth, the Elo difference with its error,
 * and the sequential probability ratio test. */
#include "match.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"
#include "gameend.h"
#include "load.h"
#include "view.h"

void match_elo(int wins, int draws, int losses, double *elo, double *error) {
    int n = wins + draws + losses;
    *elo = *error = 0;
    if (n == 0) return;
    double mean = (wins + 0.5 * draws) / n;
    double var = (wins * (1 - mean) * (1 - mean) + draws * (0.5 - mean) * (0.5 - mean) + losses * mean * mean) / n;
    double lo = mean - 1.959964 * sqrt(var / n), hi = mean + 1.959964 * sqrt(var / n);
#define TO_ELO(x) (-400.0 * log10(1.0 / ((x) < 0.001 ? 0.001 : (x) > 0.999 ? 0.999 : (x)) - 1.0))
    *elo = TO_ELO(mean);
    *error = (TO_ELO(hi) - TO_ELO(lo)) / 2;
#undef TO_ELO
}

double match_llr(int wins, int draws, int losses, double elo0, double elo1) {
    int n = wins + draws + losses;
    if (n == 0) return 0;
    double mean = (wins + 0.5 * draws) / n;
    double var = (wins * (1 - mean) * (1 - mean) + draws * (0.5 - mean) * (0.5 - mean) + losses * mean * mean) / n;
    if (var <= 0) var = 1e-3; /* (all the same so far: as good as one game's worth of doubt) */
    double s0 = 1 / (1 + pow(10, -elo0 / 400)), s1 = 1 / (1 + pow(10, -elo1 / 400));
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

/* One player of the match: its searcher and its clock. */
typedef struct Side {
    Searcher *search;
    double clock;
} Side;

/* Plays `plies` random legal moves from the start (seeded); false when the game ended on the
 * way (the opening is then drawn again by the caller with another seed). */
static bool random_opening(GenContext *ctx, Position *pos, MoveList *ml, int plies, uint64_t seed) {
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL | 1;
    for (int i = 0; i < plies; i++) {
        VmFault f = {0};
        movegen_legal(ctx, pos, ml, &f);
        if (ml->count == 0) return false;
        int pick =
            pos->prelude < pos->v->nprelude ? search_pick_setup(ctx, pos, ml, &rng) : search_pick_random(ml, &rng);
        if (!board_make(pos, &ml->moves[pick])) return false;
        GameResult r;
        gameend_settle(ctx, pos, &r, NULL, 0, NULL, NULL);
        if (r.over) return false;
    }
    return true;
}

/* The outcome of a finished game for the seats a plays (a bit per seat): 1, 0 or -1. */
static int outcome_for(const Variant *v, const Position *pos, const GameResult *r, unsigned a_seats) {
    if (r->winner >= 0) return (a_seats >> r->winner) & 1 ? 1 : -1;
    if (!r->over || v->nplayers <= 2) return 0;
    /* more players: a checkmate or stalemate that loses takes the mover out */
    ResultKind k = !strcmp(r->reason, "checkmate") ? v->on_checkmate
        : !strcmp(r->reason, "stalemate")          ? v->on_stalemate
                                                   : RESULT_DRAW;
    bool mine = (a_seats >> board_mover(pos)) & 1;
    if (k == RESULT_LOSS) return mine ? -1 : 1;
    if (k == RESULT_WIN) return mine ? 1 : -1;
    return 0;
}

/* One game from the opening in start; a plays the seats of a_seats. Returns a's outcome;
 * *plies and *why say how it went; *time_loss when a side's clock ran out (that side lost). */
static int play_game(const MatchConfig *cfg, const Variant *v, GenContext *ctx, Position *pos, Side side[2],
                     unsigned a_seats, int *plies, const char **why, bool *time_loss) {
    MoveList *ml = xmalloc(sizeof *ml);
    GameResult r;
    gameend_settle(ctx, pos, &r, NULL, 0, NULL, NULL);
    *plies = 0;
    *time_loss = false;
    int outcome = 0;
    side[0].clock = side[1].clock = cfg->base;
    while (!r.over && pos->ply < MAX_HISTORY - 2) {
        int mover = board_mover(pos);
        Side *me = &side[(a_seats >> mover) & 1 ? 0 : 1];
        SearchLimits lim = {.depth = cfg->base > 0 ? 0 : cfg->depth, .cpu_clock = true};
        if (cfg->base > 0) {
            lim.clock = me->clock;
            lim.increment = cfg->inc;
        }
        SearchResult res;
        bool ok = variant_has_secrets(v)
            ? search_run_hidden(me->search, pos, 4, cfg->seed + (uint64_t)pos->ply, &lim, &res)
            : search_run(me->search, pos, &lim, &res, NULL, NULL);
        if (!ok || !res.has_move) break; /* (no legal move: gameend_settle said so already) */
        if (cfg->base > 0) {
            me->clock -= res.info.seconds;
            if (me->clock < 0) {
                *time_loss = true;
                outcome = me == &side[0] ? -1 : 1;
                *why = "time";
                break;
            }
            me->clock += cfg->inc;
        }
        if (!board_make(pos, &res.best)) break;
        (*plies)++;
        gameend_settle(ctx, pos, &r, NULL, 0, NULL, NULL);
    }
    if (!*time_loss) {
        outcome = r.over ? outcome_for(v, pos, &r, a_seats) : 0;
        *why = r.over ? (r.name ? r.name : r.reason) : "too long";
    }
    free(ml);
    return outcome;
}

static Variant *load(const MatchConfig *cfg, FILE *err) {
    return load_file_reported(cfg->rules, cfg->options, cfg->noptions, err);
}

bool match_run(const MatchConfig *cfg, MatchResult *res, FILE *out, FILE *err) {
    memset(res, 0, sizeof *res);
    Variant *v = load(cfg, err);
    if (!v) return false;
    int n = v->nplayers;
    Side side[2];
    side[0].search = search_new(v, (size_t)cfg->tt_mb);
    side[1].search = search_new(v, (size_t)cfg->tt_mb);
    search_set_options(side[0].search, &cfg->a);
    search_set_options(side[1].search, &cfg->b);
    Position *pos = xmalloc(sizeof *pos), *opening = xmalloc(sizeof *opening);
    board_init(pos, v);
    board_init(opening, v);
    GenContext *ctx = xmalloc(sizeof *ctx);
    genctx_init(ctx);
    MoveList *ml = xmalloc(sizeof *ml);
    const double bound = log(0.05 / 0.95); /* alpha = beta = 0.05 */
    int pairs = (cfg->games + 1) / 2;
    uint64_t tries = 0;
    for (int pair = 0; pair < pairs && !res->verdict; pair++) {
        /* the pair's opening: random plies that do not end the game */
        char start[4096], e[200];
        do {
            fen_start(v, cfg->seed + tries, start, sizeof start);
            fen_read(opening, start, e, sizeof e);
            tries++;
        } while (!random_opening(ctx, opening, ml, cfg->open_plies, cfg->seed * 7919 + tries) &&
                 tries < 1000u * (pair + 1));
        for (int g = 0; g < 2 && (pair * 2 + g) < cfg->games + (cfg->games & 1); g++) {
            board_copy(pos, opening);
            search_clear(side[0].search);
            search_clear(side[1].search);
            /* a plays every other seat, starting with the first in one game of the pair and with
             * the second in the other (white and black in two-player games) */
            unsigned a_seats = 0;
            for (int p = 0; p < n; p++)
                if ((p + g) % 2 == 0) a_seats |= 1u << p;
            int plies;
            const char *why;
            bool time_loss;
            int o = play_game(cfg, v, ctx, pos, side, a_seats, &plies, &why, &time_loss);
            res->wins += o > 0;
            res->draws += o == 0;
            res->losses += o < 0;
            res->time_losses += time_loss;
            if (cfg->verbose) {
                fprintf(out, "game %d: %s as %s: %s after %d plies (%s)\n", pair * 2 + g + 1, cfg->name_a,
                        v->player_names[g % n],
                        o > 0       ? "win"
                            : o < 0 ? "loss"
                                    : "draw",
                        plies, why);
                fflush(out);
            }
        }
        if (cfg->sprt) {
            res->llr = match_llr(res->wins, res->draws, res->losses, cfg->elo0, cfg->elo1);
            if (res->llr >= -bound) res->verdict = "H1 accepted";
            if (res->llr <= bound) res->verdict = "H0 accepted";
        }
    }
    int games = res->wins + res->draws + res->losses;
    res->score = games ? (res->wins + 0.5 * res->draws) / games : 0;
    match_elo(res->wins, res->draws, res->losses, &res->elo, &res->elo_error);
    char tc[64];
    if (cfg->base > 0)
        snprintf(tc, sizeof tc, "clock %g+%g s", cfg->base, cfg->inc);
    else
        snprintf(tc, sizeof tc, "depth %d", cfg->depth);
    fprintf(out, "%s vs %s: %d games (%s), +%d =%d -%d, score %.1f%%, Elo %+.0f +- %.0f (95%%)", cfg->name_a,
            cfg->name_b, games, tc, res->wins, res->draws, res->losses, 100 * res->score, res->elo, res->elo_error);
    if (res->time_losses) fprintf(out, ", %d lost on time", res->time_losses);
    if (cfg->sprt)
        fprintf(out, ", SPRT(%g, %g) LLR %.2f [%.2f, %.2f]%s%s", cfg->elo0, cfg->elo1, res->llr, bound, -bound,
                res->verdict ? ": " : "", res->verdict ? res->verdict : "");
    fprintf(out, "\n");
    free(ml);
    free(ctx);
    board_free(pos);
    board_free(opening);
    free(pos);
    free(opening);
    search_free(side[0].search);
    search_free(side[1].search);
    variant_free(v);
    return true;
}
