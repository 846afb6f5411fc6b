/* pgn.c - writing and reading games in Portable Game Notation. */
#include "pgn.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "fen.h"
#include "movegen.h"
#include "notation.h"

#define PGN_TEXT_MAX (4 << 20) /* largest PGN file read */
#define PGN_LINE_WIDTH 79

/* ---- move texts ------------------------------------------------------------------------------ */

int pgn_move_texts(const Variant *v, const char *start, const Move *moves, int nmoves, PgnPly *out) {
    Position *pos = xmalloc(sizeof *pos);
    GenContext *ctx = xmalloc(sizeof *ctx);
    MoveList *ml = xmalloc(sizeof *ml);
    board_init(pos, v);
    genctx_init(ctx);
    char err[200];
    int n = 0;
    if (fen_read(pos, start, err, sizeof err)) {
        for (int i = 0; i < nmoves; i++) {
            const Move *m = &moves[i];
            if (!(m->flags & MOVE_ELIMINATION)) {
                VmFault f = {0};
                movegen_legal(ctx, pos, ml, &f);
                char san[64];
                notation_san(ctx, pos, ml, m, san, sizeof san);
                /* one word: PGN separates moves with spaces */
                size_t k = 0;
                for (const char *p = san; *p; p++)
                    if (!isspace((unsigned char)*p)) out[n].san[k++] = *p;
                out[n].san[k] = 0;
                out[n].fullmove = pos->fullmove;
                out[n].mover = board_mover(pos);
                out[n].turn = pos->turn;
                out[n].move = m;
                n++;
            }
            if (!board_make(pos, m)) break;
        }
    }
    board_free(pos);
    free(pos);
    free(ctx);
    free(ml);
    return n;
}

/* ---- writing --------------------------------------------------------------------------------- */

/* A tag value with '"' and '\' escaped. */
static void put_tag(FILE *out, const char *name, const char *value) {
    fprintf(out, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\') fputc('\\', out);
        fputc(*p, out);
    }
    fprintf(out, "\"]\n");
}

/* The game's name: the rule file's name without its directory and ".rules". */
static void variant_name(const char *rules, char *out, size_t cap) {
    const char *base = strrchr(rules, '/');
    base = base ? base + 1 : rules;
    size_t n = strlen(base);
    if (n > 6 && !strcmp(base + n - 6, ".rules")) n -= 6;
    snprintf(out, cap, "%.*s", (int)n, base);
}

/* Words written one after another, wrapped before the line gets too long. */
typedef struct Wrap {
    FILE *out;
    int col;
} Wrap;

static void wrap_word(Wrap *w, const char *word) {
    int n = (int)strlen(word);
    if (w->col && w->col + 1 + n > PGN_LINE_WIDTH) {
        fputc('\n', w->out);
        w->col = 0;
    }
    if (w->col) fputc(' ', w->out), w->col++;
    fputs(word, w->out);
    w->col += n;
}

void pgn_format(FILE *out, const Variant *v, const PgnGame *game) {
    char name[128], buf[4096], date[16] = "????.??.??";
    const char *result = "*";
    bool two = v->nplayers == 2;
    if (game->winner && !strcmp(game->winner, "draw"))
        result = "1/2-1/2";
    else if (game->winner && two && !strcmp(game->winner, v->player_names[0]))
        result = "1-0";
    else if (game->winner && two && !strcmp(game->winner, v->player_names[1]))
        result = "0-1";
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm)) strftime(date, sizeof date, "%Y.%m.%d", &tm);
    put_tag(out, "Event", v->title ? v->title : "Varia game");
    put_tag(out, "Site", "?");
    put_tag(out, "Date", date);
    put_tag(out, "Round", "-");
    put_tag(out, "White", two && game->players[0] ? game->players[0] : "?");
    put_tag(out, "Black", two && game->players[1] ? game->players[1] : "?");
    put_tag(out, "Result", result);
    variant_name(game->rules, name, sizeof name);
    put_tag(out, "Variant", name);
    put_tag(out, "Rules", game->rules);
    if (v->noptions) {
        size_t at = 0;
        buf[0] = 0;
        for (int i = 0; i < v->noptions && at < sizeof buf; i++)
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s=%s", i ? " " : "", v->options[i].name,
                                   v->options[i].values[v->options[i].value]);
        put_tag(out, "Options", buf);
    }
    /* the start, when it is not the rule file's own (a deal, --fen) */
    Position *pos = xmalloc(sizeof *pos);
    board_init(pos, v);
    char err[200];
    buf[0] = 0;
    if (fen_read(pos, v->setup, err, sizeof err)) fen_write(pos, buf, sizeof buf);
    board_free(pos);
    free(pos);
    if (strcmp(buf, game->start)) {
        put_tag(out, "SetUp", "1");
        put_tag(out, "FEN", game->start);
    }
    if (game->winner && game->reason && *game->reason) put_tag(out, "Termination", game->reason);
    if (game->winner && !two && strcmp(game->winner, "draw")) put_tag(out, "Winner", game->winner);
    if (!two) {
        size_t at = 0;
        buf[0] = 0;
        for (int p = 0; p < v->nplayers && at < sizeof buf; p++)
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s %s", p ? ", " : "", v->player_names[p],
                                   game->players[p] ? game->players[p] : "?");
        put_tag(out, "Players", buf);
    }
    fputc('\n', out);
    PgnPly *plies = xmalloc(sizeof *plies * (size_t)(game->nmoves ? game->nmoves : 1));
    int n = pgn_move_texts(v, game->start, game->moves, game->nmoves, plies);
    Wrap w = {out, 0};
    for (int i = 0; i < n; i++) {
        /* the move number where it changes ("1... e5" when the game starts with another player) */
        if (i == 0 || plies[i].fullmove != plies[i - 1].fullmove) {
            snprintf(buf, sizeof buf, "%d.%s", plies[i].fullmove, plies[i].turn ? ".." : "");
            wrap_word(&w, buf);
        }
        wrap_word(&w, plies[i].san);
    }
    wrap_word(&w, result);
    fputc('\n', out);
    free(plies);
}

bool pgn_write(const char *path, const Variant *v, const PgnGame *game, char *err, size_t cap) {
    FILE *f = fopen(path, "w");
    if (!f) return refuse(err, cap, "%s: cannot write", path);
    pgn_format(f, v, game);
    bool ok = !ferror(f);
    if (fclose(f) != 0) ok = false;
    return ok ? true : refuse(err, cap, "%s: cannot write", path);
}

/* ---- reading --------------------------------------------------------------------------------- */

bool pgn_is_pgn(const char *path) {
    size_t n = strlen(path);
    if (n > 4 && !strcasecmp(path + n - 4, ".pgn")) return true;
    FILE *f = fopen(path, "r");
    if (!f) return false;
    int c;
    while ((c = fgetc(f)) != EOF && isspace(c)) {}
    fclose(f);
    return c == '[';
}

static char *read_all(const char *path, char *err, size_t cap) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        refuse(err, cap, "%s: cannot open", path);
        return NULL;
    }
    size_t len = 0, size = 4096;
    char *text = xmalloc(size);
    size_t got;
    while ((got = fread(text + len, 1, size - len - 1, f)) > 0) {
        len += got;
        if (len + 1 >= size) {
            if (size >= PGN_TEXT_MAX) break;
            text = xrealloc(text, size *= 2);
        }
    }
    fclose(f);
    text[len] = 0;
    if (strlen(text) != len) {
        free(text);
        refuse(err, cap, "%s: not a text file (NUL byte)", path);
        return NULL;
    }
    return text;
}

typedef struct Tags {
    char *variant, *rules, *fen, *options, *result, *termination, *winner;
    int fen_line, options_line, result_line;
} Tags;

static void tags_free(Tags *t) {
    free(t->variant);
    free(t->rules);
    free(t->fen);
    free(t->options);
    free(t->result);
    free(t->termination);
    free(t->winner);
}

/* "[Name "value"]" at s: keeps the tags this reader uses. False when malformed. */
static bool read_tag(const char *s, int line, Tags *t) {
    char name[32];
    size_t n = 0;
    s++;
    while (*s == ' ') s++;
    while ((isalnum((unsigned char)*s) || *s == '_') && n + 1 < sizeof name) name[n++] = *s++;
    name[n] = 0;
    while (*s == ' ') s++;
    if (!n || *s++ != '"') return false;
    char value[4096];
    n = 0;
    for (; *s && *s != '"'; s++) {
        if (*s == '\\' && s[1]) s++;
        if (n + 1 < sizeof value) value[n++] = *s;
    }
    value[n] = 0;
    if (*s != '"') return false;
    struct {
        const char *name;
        char **slot;
        int *line;
    } known[] = {{"Variant", &t->variant, NULL},
                 {"Rules", &t->rules, NULL},
                 {"FEN", &t->fen, &t->fen_line},
                 {"Options", &t->options, &t->options_line},
                 {"Result", &t->result, &t->result_line},
                 {"Termination", &t->termination, NULL},
                 {"Winner", &t->winner, NULL}};
    for (size_t i = 0; i < ARRAY_LEN(known); i++)
        if (!strcmp(name, known[i].name)) {
            free(*known[i].slot);
            *known[i].slot = xstrdup(value);
            if (known[i].line) *known[i].line = line;
        }
    return true;
}

static void add_move(SavedGame *g, const char *word, size_t len, int line) {
    if (g->nmoves % 64 == 0) {
        g->moves = xrealloc(g->moves, sizeof *g->moves * (size_t)(g->nmoves + 64));
        g->move_lines = xrealloc(g->move_lines, sizeof *g->move_lines * (size_t)(g->nmoves + 64));
    }
    g->moves[g->nmoves] = xstrndup(word, len);
    g->move_lines[g->nmoves++] = line;
}

static bool is_result(const char *w, size_t n) {
    return (n == 3 && (!strncmp(w, "1-0", 3) || !strncmp(w, "0-1", 3))) || (n == 7 && !strncmp(w, "1/2-1/2", 7)) ||
        (n == 1 && *w == '*');
}

/* The movetext of the first game: moves into g; comments, variations, move numbers and
 * annotation glyphs skipped. Stops at the result or at the next game's tags. */
static bool read_movetext(const char *name, char *text, int *line, SavedGame *g, Tags *t, char *err, size_t cap) {
    int depth = 0; /* inside a variation */
    bool moves_seen = false;
    for (char *p = text; *p;) {
        if (*p == '\n') {
            (*line)++;
            p++;
            /* a line starting with '%' is an escape: skipped */
            if (*p == '%') p += strcspn(p, "\n");
            continue;
        }
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (*p == '{') {
            int opened = *line;
            for (p++; *p && *p != '}'; p++)
                if (*p == '\n') (*line)++;
            if (!*p) return refuse(err, cap, "%s:%d: a comment that is not closed", name, opened);
            p++;
            continue;
        }
        if (*p == ';') {
            p += strcspn(p, "\n");
            continue;
        }
        if (*p == '(' || *p == ')') {
            depth += *p == '(' ? 1 : -1;
            if (depth < 0) return refuse(err, cap, "%s:%d: ')' without '('", name, *line);
            p++;
            continue;
        }
        if (*p == '[') {
            char *end = p + strcspn(p, "\n");
            char save = *end;
            *end = 0;
            bool tag_ok = read_tag(p, *line, t);
            *end = save;
            if (moves_seen) return true; /* the next game */
            if (!tag_ok) return refuse(err, cap, "%s:%d: a malformed tag", name, *line);
            p = end;
            continue;
        }
        if (*p == '}') return refuse(err, cap, "%s:%d: '}' without '{'", name, *line);
        size_t n = strcspn(p, " \t\r\n{}();[");
        if (depth == 0 && is_result(p, n)) return true;
        if (depth == 0 && *p != '$') {
            /* a move number ("12." or "12...") may be written onto its move ("12.e4") */
            char *w = p;
            size_t k = 0;
            while (k < n && isdigit((unsigned char)w[k])) k++;
            if (k && k < n && w[k] == '.') {
                while (k < n && w[k] == '.') k++;
                w += k;
                k = n - k;
            } else {
                k = n;
            }
            if (k) {
                add_move(g, w, k, *line);
                moves_seen = true;
            }
        }
        p += n;
    }
    if (depth) return refuse(err, cap, "%s:%d: a variation that is not closed", name, *line);
    return true;
}

/* The rule file the tags name (see pgn_read); false when there is none. */
static bool pgn_rules(const char *path, const char *rules_dir, const Tags *t, SavedGame *g, char *err, size_t cap) {
    char buf[4096];
    if (t->rules && access(t->rules, R_OK) == 0) {
        g->rules = xstrdup(t->rules);
        return true;
    }
    const char *variant = t->variant ? t->variant : "chess";
    bool plain = variant[0] && !strchr(variant, '/') && strcmp(variant, "..") && strcmp(variant, ".");
    if (plain && rules_dir && (size_t)snprintf(buf, sizeof buf, "%s/%s.rules", rules_dir, variant) < sizeof buf &&
        access(buf, R_OK) == 0) {
        g->rules = xstrdup(buf);
        return true;
    }
    if (t->rules) {
        g->rules = xstrdup(t->rules);
        return true;
    }
    return refuse(err, cap, "%s: no rule file for the game '%s' (a Rules tag names one)", path, variant);
}

bool pgn_read(const char *path, const char *rules_dir, SavedGame *g, char *err, size_t cap) {
    memset(g, 0, sizeof *g);
    g->declared_moves = -1;
    char *text = read_all(path, err, cap);
    if (!text) return false;
    Tags t = {0};
    int line = 1;
    bool ok = read_movetext(path, text, &line, g, &t, err, cap) && pgn_rules(path, rules_dir, &t, g, err, cap);
    if (ok && t.fen) {
        g->start = xstrdup(t.fen);
        g->start_line = t.fen_line;
    }
    for (char *s = t.options ? strtok(t.options, " ") : NULL; ok && s; s = strtok(NULL, " ")) {
        char *eq = strchr(s, '=');
        if (!eq || eq == s)
            ok = refuse(err, cap, "%s:%d: option '%s' is not NAME=VALUE", path, t.options_line, s);
        else if (g->noptions >= MAX_OPTIONS)
            ok = refuse(err, cap, "%s:%d: too many options", path, t.options_line);
        else {
            g->option_name[g->noptions] = xstrndup(s, (size_t)(eq - s));
            g->option_value[g->noptions] = xstrdup(eq + 1);
            g->option_line[g->noptions++] = t.options_line;
        }
    }
    if (ok && (t.winner || (t.result && strcmp(t.result, "*")))) {
        g->result_winner = xstrdup(t.winner ? t.winner : t.result);
        g->result_reason = xstrdup(t.termination ? t.termination : "-");
        g->result_line = t.result_line;
    }
    tags_free(&t);
    free(text);
    if (!ok) savegame_free(g);
    return ok;
}

void pgn_name_result(SavedGame *g, const Variant *v) {
    if (!g->result_winner) return;
    const char *name = NULL;
    if (!strcmp(g->result_winner, "1/2-1/2"))
        name = "draw";
    else if (!strcmp(g->result_winner, "1-0") && v->nplayers >= 1)
        name = v->player_names[0];
    else if (!strcmp(g->result_winner, "0-1") && v->nplayers >= 2)
        name = v->player_names[1];
    if (!name) return;
    free(g->result_winner);
    g->result_winner = xstrdup(name);
}
