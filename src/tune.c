/* tune.c - Texel's method on self-play games: positions from fast games of the engine against
 * itself, each with its game's result; the evaluation's weights fitted so that a logistic curve
 * of the evaluation predicts those results best (mean squared error, coordinate descent). */
#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attack.h"
#include "eval.h"
#include "fen.h"
#include "gameend.h"
#include "load.h"
#include "search.h"
#include "view.h"

/* A position for the fit: the board as eval reads it (no history) and the game's result for
 * player 0 (1, 0.5, 0). */
typedef struct Sample {
    Position pos;
    float result;
} Sample;

typedef struct Samples {
    Sample *s;
    int n, cap;
} Samples;

/* A weight being fitted: where it lives in the tables, its step, its range, its name. */
typedef struct Param {
    int *at;
    int step, lo, hi;
    int type; /* the piece type, or -1 for a whole-game term */
    const char *term;
} Param;

static Variant *load(const TuneConfig *cfg, FILE *err) {
    return load_file_reported(cfg->rules, cfg->options, cfg->noptions, err);
}

/* Is the position quiet enough to judge statically: the mover not in check, and the move the
 * game went on with neither a capture nor a promotion? */
static bool quiet(GenContext *ctx, Position *pos, const Move *next) {
    if (next->flags & (MOVE_CAPTURE | MOVE_PROMOTION)) return false;
    return !pos->v->has_royal || !attack_in_check(ctx, pos, board_mover(pos));
}

/* Plays the self-play games and keeps their quiet positions with the results. */
static void collect(const TuneConfig *cfg, const Variant *v, Samples *out, FILE *log) {
    Searcher *s = search_new(v, 8);
    GenContext *ctx = xmalloc(sizeof *ctx);
    genctx_init(ctx);
    Position *pos = xmalloc(sizeof *pos);
    board_init(pos, v);
    MoveList *ml = xmalloc(sizeof *ml);
    int results[3] = {0};
    for (int g = 0; g < cfg->games; g++) {
        char start[4096], e[200];
        fen_start(v, cfg->seed + (uint64_t)g, start, sizeof start);
        fen_read(pos, start, e, sizeof e);
        search_clear(s);
        uint64_t rng = (cfg->seed * 1000003ULL + (uint64_t)g) * 0x9E3779B97F4A7C15ULL | 1;
        int first = out->n;
        GameResult r;
        gameend_settle(ctx, pos, &r, NULL, 0, NULL, NULL);
        while (!r.over && pos->ply < MAX_HISTORY - 2) {
            Move m;
            if (pos->ply < cfg->open_plies || pos->prelude < v->nprelude) {
                VmFault f = {0};
                movegen_legal(ctx, pos, ml, &f);
                if (ml->count == 0) break;
                m = ml->moves[pos->prelude < v->nprelude ? search_pick_setup(ctx, pos, ml, &rng)
                                                         : search_pick_random(ml, &rng)];
            } else {
                SearchLimits lim = {.depth = cfg->depth, .seed = rng_next(&rng) % 1000 + 1};
                SearchResult res;
                if (!search_run(s, pos, &lim, &res, NULL, NULL) || !res.has_move) break;
                m = res.best;
                if (quiet(ctx, pos, &m)) {
                    if (out->n == out->cap) {
                        out->cap = out->cap ? out->cap * 2 : 1024;
                        out->s = xrealloc(out->s, sizeof *out->s * (size_t)out->cap);
                    }
                    Sample *sm = &out->s[out->n++];
                    memcpy(&sm->pos, pos, sizeof *pos);
                    sm->pos.history = NULL; /* (eval reads the board only) */
                }
            }
            if (!board_make(pos, &m)) break;
            gameend_settle(ctx, pos, &r, NULL, 0, NULL, NULL);
        }
        float result = r.over && r.winner == 0 ? 1.0f : r.over && r.winner == 1 ? 0.0f : 0.5f;
        results[result == 1.0f ? 0 : result == 0.0f ? 2 : 1]++;
        for (int i = first; i < out->n; i++) out->s[i].result = result;
        if (cfg->verbose) {
            fprintf(log, "game %d: %s after %d plies, %d positions\n", g + 1,
                    result == 1.0f       ? "1-0"
                        : result == 0.0f ? "0-1"
                                         : "draw",
                    pos->ply, out->n - first);
            fflush(log);
        }
    }
    fprintf(log, "%d games (depth %d): %d wins of %s, %d draws, %d of %s; %d quiet positions\n", cfg->games, cfg->depth,
            results[0], v->player_names[0], results[1], results[2], v->player_names[1], out->n);
    free(ml);
    board_free(pos);
    free(pos);
    free(ctx);
    search_free(s);
}

static double predict(double k, int score) { return 1.0 / (1.0 + pow(10.0, -k * score / 400.0)); }

/* The mean squared error of the logistic prediction over the samples. */
static double error_of(const EvalTables *et, const Samples *ss, double k) {
    double sum = 0;
    for (int i = 0; i < ss->n; i++) {
        double d = ss->s[i].result - predict(k, eval_position(et, &ss->s[i].pos, 0));
        sum += d * d;
    }
    return ss->n ? sum / ss->n : 0;
}

/* The scale of the curve that fits the evaluation as it is best. */
static double fit_scale(const EvalTables *et, const Samples *ss) {
    double best = 1, best_err = error_of(et, ss, best);
    for (double step = 0.5; step > 0.005; step /= 2) {
        bool moved = true;
        while (moved) {
            moved = false;
            for (int dir = -1; dir <= 1; dir += 2) {
                double k = best + dir * step;
                if (k <= 0.01) continue;
                double e = error_of(et, ss, k);
                if (e < best_err) best = k, best_err = e, moved = true;
            }
        }
    }
    return best;
}

/* The weights worth fitting in this game. The least valuable type keeps its value, the unit the
 * others are measured in (the curve's scale takes the rest); values stay within a third and
 * three times what they were, for a few thousand positions cannot say more. */
static int params_of(EvalTables *et, Param *p) {
    const Variant *v = et->v;
    int n = 0, anchor = -1;
    for (int t = 0; t < v->ntypes; t++)
        if (!v->types[t].royal && (anchor < 0 || et->value[t] < et->value[anchor])) anchor = t;
    for (int t = 0; t < v->ntypes; t++) {
        if (v->types[t].royal) continue;
        int w = et->value[t];
        if (t != anchor) p[n++] = (Param){&et->value[t], 10, w / 3 > 10 ? w / 3 : 10, 3 * w + 10, t, "value"};
        const PieceProgram *pp = &v->types[t].per_owner[0];
        if (pp->ngen || pp->natk || pp->nlines) p[n++] = (Param){&et->mobility[t], 1, 0, 100, t, "mobility"};
        p[n++] = (Param){&et->squares[t], 2, 0, 100, t, "squares"};
    }
    if (v->has_royal) p[n++] = (Param){&et->royal_safety, 2, 0, 1000, -1, "royal-safety"};
    if (v->has_hands) p[n++] = (Param){&et->hand_percent, 5, 0, 400, -1, "hand"};
    /* the named terms where eval_terms applies them */
    if (et->promoting) {
        p[n++] = (Param){&et->term[TUNED_PROMOTION], 1, 0, 100, -1, tuned_term_name(TUNED_PROMOTION)};
        p[n++] = (Param){&et->term[TUNED_PASSED], 1, 0, 100, -1, tuned_term_name(TUNED_PASSED)};
    }
    if (v->has_royal && et->nqueen_dirs)
        for (int k = TUNED_EXPOSURE; k <= TUNED_ROYAL_HIDDEN; k++)
            p[n++] = (Param){&et->term[k], 1, 0, 100, -1, tuned_term_name(k)};
    if (et->ranked) {
        p[n++] = (Param){&et->term[TUNED_DOUBLED], 1, 0, 100, -1, tuned_term_name(TUNED_DOUBLED)};
        p[n++] = (Param){&et->term[TUNED_ISOLATED], 1, 0, 100, -1, tuned_term_name(TUNED_ISOLATED)};
    }
    if (et->column_sliders)
        p[n++] = (Param){&et->term[TUNED_OPEN_COLUMN], 1, 0, 100, -1, tuned_term_name(TUNED_OPEN_COLUMN)};
    if (v->has_royal && et->nqueen_dirs)
        p[n++] = (Param){&et->term[TUNED_ROYAL_ATTACK], 2, 0, 100, -1, tuned_term_name(TUNED_ROYAL_ATTACK)};
    if (v->has_royal && et->nqueen_dirs && v->has_hands)
        p[n++] = (Param){&et->term[TUNED_HAND_ATTACK], 10, 0, 100, -1, tuned_term_name(TUNED_HAND_ATTACK)};
    if (et->least_type != NO_TYPE) {
        p[n++] = (Param){&et->term[TUNED_GUARDED], 10, 0, 100, -1, tuned_term_name(TUNED_GUARDED)};
        p[n++] = (Param){&et->term[TUNED_THREAT], 5, 0, 100, -1, tuned_term_name(TUNED_THREAT)};
    }
    return n;
}

/* Coordinate descent: each weight a step up or down while the error falls, pass after pass. */
static double descend(EvalTables *et, const Samples *ss, double k, Param *p, int np, int passes, bool verbose,
                      FILE *log) {
    double best = error_of(et, ss, k);
    for (int pass = 0; pass < passes; pass++) {
        bool improved = false;
        for (int i = 0; i < np; i++) {
            for (int dir = -1; dir <= 1; dir += 2) {
                int old = *p[i].at, now = old + dir * p[i].step;
                if (now < p[i].lo || now > p[i].hi) continue;
                *p[i].at = now;
                et->any_squares = true;
                double e = error_of(et, ss, k);
                if (e < best) {
                    best = e;
                    improved = true;
                    /* keep going the same way while it helps */
                    while (now + dir * p[i].step >= p[i].lo && now + dir * p[i].step <= p[i].hi) {
                        *p[i].at = now + dir * p[i].step;
                        double e2 = error_of(et, ss, k);
                        if (e2 >= best) {
                            *p[i].at = now;
                            break;
                        }
                        best = e2;
                        now += dir * p[i].step;
                    }
                    break;
                }
                *p[i].at = old;
            }
        }
        if (verbose) {
            fprintf(log, "pass %d: error %.6f\n", pass + 1, best);
            fflush(log);
        }
        if (!improved) break;
    }
    return best;
}

/* The items, one per line. */
static void write_items(const EvalTables *et, const Param *p, int np, FILE *f) {
    const Variant *v = et->v;
    for (int t = 0; t < v->ntypes; t++) {
        /* (the anchor's value too, so that the items say every value) */
        bool fitted = false;
        for (int i = 0; i < np; i++) fitted |= p[i].type == t && !strcmp(p[i].term, "value");
        if (!v->types[t].royal && !fitted) fprintf(f, "tuned %s value %d\n", v->types[t].name, et->value[t]);
    }
    for (int i = 0; i < np; i++) {
        if (p[i].type >= 0)
            fprintf(f, "tuned %s %s %d\n", v->types[p[i].type].name, p[i].term, *p[i].at);
        else
            fprintf(f, "tuned %s %d\n", p[i].term, *p[i].at);
    }
}

/* Rewrites path: the rule file's lines without its `tuned` items and the comment before them,
 * then the new ones. */
static bool rewrite(const char *rules, const char *path, const char *header, const EvalTables *et, const Param *p,
                    int np, FILE *err) {
    FILE *in = fopen(rules, "r");
    if (!in) {
        fprintf(err, "%s: error: cannot read rule file\n", rules);
        return false;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    char line[4096];
    while (fgets(line, sizeof line, in)) {
        if (!strncmp(line, "tuned ", 6) || !strncmp(line, "# Tuned by varia tune", 21)) continue;
        size_t l = strlen(line);
        if (len + l + 2 > cap) {
            cap = (len + l + 2) * 2;
            text = xrealloc(text, cap);
        }
        memcpy(text + len, line, l);
        len += l;
    }
    fclose(in);
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) len--;
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(err, "%s: error: cannot write the tuned rule file\n", path);
        free(text);
        return false;
    }
    fwrite(text, 1, len, out);
    fprintf(out, "\n\n# Tuned by varia tune: %s\n", header);
    write_items(et, p, np, out);
    bool ok = fclose(out) == 0;
    if (!ok) fprintf(err, "%s: error: cannot write the tuned rule file\n", path);
    free(text);
    return ok;
}

int tune_run(const TuneConfig *cfg, FILE *out, FILE *err) {
    Variant *v = load(cfg, err);
    if (!v) return 1;
    if (v->nplayers != 2 || v->npiles || variant_has_secrets(v)) {
        fprintf(err, "%s: error: tune plays games of two players without cards or hidden information\n", cfg->rules);
        variant_free(v);
        return 1;
    }
    Samples ss = {0};
    collect(cfg, v, &ss, out);
    int rc = 0;
    if (ss.n < 100) {
        fprintf(err, "%s: error: only %d quiet positions: play more games (--games)\n", cfg->rules, ss.n);
        rc = 1;
    } else {
        EvalTables *et = xmalloc(sizeof *et);
        eval_init(et, v);
        eval_prepare_squares(et);
        Param p[3 * MAX_PIECE_TYPES + 2 + TUNED_TERMS];
        int np = params_of(et, p);
        double k = fit_scale(et, &ss);
        double before = error_of(et, &ss, k);
        double after = descend(et, &ss, k, p, np, cfg->passes, cfg->verbose, out);
        char header[256];
        snprintf(header, sizeof header, "%d positions from %d games at depth %d (seed %llu), error %.5f -> %.5f", ss.n,
                 cfg->games, cfg->depth, (unsigned long long)cfg->seed, before, after);
        fprintf(out, "scale %.3f; %s\n", k, header);
        if (cfg->out) {
            if (rewrite(cfg->rules, cfg->out, header, et, p, np, err))
                fprintf(out, "wrote %s\n", cfg->out);
            else
                rc = 1;
        } else
            write_items(et, p, np, out);
        free(et);
    }
    free(ss.s);
    variant_free(v);
    return rc;
}
