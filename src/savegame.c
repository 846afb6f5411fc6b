/* savegame.c - reading, replaying and writing saved games (a line-oriented text format). */
#include "savegame.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fen.h"
#include "movegen.h"
#include "gameend.h"
#include "notation.h"

void savegame_free(SavedGame *g) {
    free(g->rules);
    for (int i = 0; i < g->noptions; i++) {
        free(g->option_name[i]);
        free(g->option_value[i]);
    }
    free(g->start);
    for (int i = 0; i < g->nmoves; i++) free(g->moves[i]);
    free(g->moves);
    free(g->move_lines);
    free(g->result_winner);
    free(g->result_reason);
    memset(g, 0, sizeof *g);
}

/* Trims spaces at both ends in place; returns the start. */
static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

static bool parse_line(SavedGame *g, char *line, int lineno, const char *name, char *err, size_t cap) {
    char *s = trim(line);
    if (!*s || *s == '#') return true;
    char *sp = s;
    while (*sp && !isspace((unsigned char)*sp)) sp++;
    char *rest = *sp ? trim(sp + 1) : sp;
    *sp = 0;
    if (g->end_line) return refuse(err, cap, "%s:%d: a line after 'end' (line %d)", name, lineno, g->end_line);
    if (!strcmp(s, "moves")) {
        char *end;
        long n = strtol(rest, &end, 10);
        if (g->declared_line) return refuse(err, cap, "%s:%d: a second 'moves' line", name, lineno);
        if (!isdigit((unsigned char)*rest) || *end || n > MAX_HISTORY)
            return refuse(err, cap, "%s:%d: 'moves' takes the number of moves (0 to %d)", name, lineno, MAX_HISTORY);
        if (g->nmoves) return refuse(err, cap, "%s:%d: 'moves' must come before the moves", name, lineno);
        g->declared_moves = (int)n;
        g->declared_line = lineno;
    } else if (!strcmp(s, "end")) {
        if (*rest) return refuse(err, cap, "%s:%d: 'end' takes nothing after it", name, lineno);
        g->end_line = lineno;
    } else if (!strcmp(s, "rules")) {
        if (g->rules) return refuse(err, cap, "%s:%d: a second 'rules' line", name, lineno);
        if (!*rest) return refuse(err, cap, "%s:%d: 'rules' needs a rule file", name, lineno);
        if (g->nmoves) return refuse(err, cap, "%s:%d: 'rules' must come before the moves", name, lineno);
        g->rules = xstrdup(rest);
    } else if (!strcmp(s, "option")) {
        char *eq = strchr(rest, '=');
        if (!eq || eq == rest || !eq[1]) return refuse(err, cap, "%s:%d: 'option' takes NAME=VALUE", name, lineno);
        if (g->noptions >= MAX_OPTIONS)
            return refuse(err, cap, "%s:%d: too many options (limit is %d)", name, lineno, MAX_OPTIONS);
        if (g->nmoves) return refuse(err, cap, "%s:%d: 'option' must come before the moves", name, lineno);
        g->option_name[g->noptions] = xstrndup(rest, (size_t)(eq - rest));
        g->option_value[g->noptions] = xstrdup(eq + 1);
        g->option_line[g->noptions] = lineno;
        g->noptions++;
    } else if (!strcmp(s, "start")) {
        if (g->start) return refuse(err, cap, "%s:%d: a second 'start' line", name, lineno);
        if (!*rest) return refuse(err, cap, "%s:%d: 'start' needs a position", name, lineno);
        if (g->nmoves) return refuse(err, cap, "%s:%d: 'start' must come before the moves", name, lineno);
        g->start = xstrdup(rest);
        g->start_line = lineno;
    } else if (!strcmp(s, "move")) {
        /* one move, as `varia moves` writes it (on several boards with spaces: "M d3-d7 +") */
        if (!*rest) return refuse(err, cap, "%s:%d: 'move' takes one move", name, lineno);
        if (g->result_line) return refuse(err, cap, "%s:%d: a move after the result", name, lineno);
        if (g->nmoves >= MAX_HISTORY)
            return refuse(err, cap, "%s:%d: too many moves (limit is %d)", name, lineno, MAX_HISTORY);
        if ((g->nmoves & (g->nmoves - 1)) == 0) {
            size_t n = g->nmoves ? (size_t)g->nmoves * 2 : 16;
            g->moves = xrealloc(g->moves, n * sizeof *g->moves);
            g->move_lines = xrealloc(g->move_lines, n * sizeof *g->move_lines);
        }
        g->moves[g->nmoves] = xstrdup(rest);
        g->move_lines[g->nmoves] = lineno;
        g->nmoves++;
    } else if (!strcmp(s, "result")) {
        if (g->result_line) return refuse(err, cap, "%s:%d: a second 'result' line", name, lineno);
        char *r2 = rest;
        while (*r2 && !isspace((unsigned char)*r2)) r2++;
        char *reason = *r2 ? trim(r2 + 1) : r2;
        *r2 = 0;
        if (!*rest) return refuse(err, cap, "%s:%d: 'result' needs a winner (a player, draw or none)", name, lineno);
        g->result_winner = xstrdup(rest);
        g->result_reason = xstrdup(reason);
        g->result_line = lineno;
    } else {
        return refuse(err, cap, "%s:%d: unknown line '%s' (expected moves, rules, option, start, move, result or end)",
                      name, lineno, s);
    }
    return true;
}

bool savegame_parse(const char *name, const char *text, SavedGame *g, char *err, size_t cap) {
    memset(g, 0, sizeof *g);
    g->declared_moves = -1;
    const char *p = text;
    int lineno = 0;
    char *line = xmalloc(SAVEGAME_TEXT_MAX + 1);
    bool ok = true;
    while (*p && ok) {
        lineno++;
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (n > SAVEGAME_TEXT_MAX)
            ok = refuse(err, cap, "%s:%d: line too long (limit is %d characters)", name, lineno, SAVEGAME_TEXT_MAX);
        else {
            memcpy(line, p, n);
            line[n] = 0;
            for (size_t i = 0; i < n && ok; i++)
                if (line[i] == 0 || ((unsigned char)line[i] < 32 && line[i] != '\t' && line[i] != '\r'))
                    ok = refuse(err, cap, "%s:%d: control character in the text", name, lineno);
            if (ok) ok = parse_line(g, line, lineno, name, err, cap);
        }
        p = nl ? nl + 1 : p + n;
    }
    free(line);
    if (ok && g->declared_line && !g->end_line)
        ok = refuse(err, cap, "%s:%d: the file ends without its 'end' line: it was cut short after this line", name,
                    lineno);
    else if (ok && g->declared_line && g->nmoves != g->declared_moves)
        ok = refuse(err, cap, "%s:%d: %d move%s where line %d says %d: moves were taken out or added", name,
                    g->end_line, g->nmoves, g->nmoves == 1 ? "" : "s", g->declared_line, g->declared_moves);
    if (ok && !g->rules) ok = refuse(err, cap, "%s: no 'rules' line (which game is it?)", name);
    if (!ok) savegame_free(g);
    return ok;
}

bool savegame_read(const char *path, SavedGame *g, char *err, size_t cap) {
    memset(g, 0, sizeof *g);
    FILE *f = fopen(path, "rb");
    if (!f) return refuse(err, cap, "%s: cannot open: %s", path, strerror(errno));
    size_t len = 0, size = 4096;
    char *text = xmalloc(size);
    size_t got;
    while ((got = fread(text + len, 1, size - len - 1, f)) > 0) {
        len += got;
        if (len + 1 == size) {
            if (size > (size_t)64 << 20) {
                fclose(f);
                free(text);
                return refuse(err, cap, "%s: file too large", path);
            }
            text = xrealloc(text, size *= 2);
        }
    }
    bool bad = ferror(f);
    fclose(f);
    text[len] = 0;
    if (bad) {
        free(text);
        return refuse(err, cap, "%s: read error", path);
    }
    if (strlen(text) != len) {
        free(text);
        return refuse(err, cap, "%s: not a text file (NUL byte)", path);
    }
    bool ok = savegame_parse(path, text, g, err, cap);
    free(text);
    return ok;
}

bool savegame_replay(const SavedGame *g, const char *name, Position *pos, Move *moves_out, int max, char *err,
                     size_t cap) {
    const Variant *v = pos->v;
    char ferr[200];
    GenContext *ctx = xmalloc(sizeof *ctx); /* (the replay generates its own moves) */
    genctx_init(ctx);
    if (!fen_read(pos, g->start ? g->start : v->setup, ferr, sizeof ferr) ||
        !movegen_position_ok(ctx, pos, ferr, sizeof ferr)) {
        free(ctx);
        return refuse(err, cap, "%s:%d: bad start position: %s", name, g->start_line, ferr);
    }
    MoveList *ml = xmalloc(sizeof *ml);
    bool ok = true;
    int k = 0; /* moves written to moves_out: the saved ones and the defeats they caused */
    for (int i = 0; i < g->nmoves && ok; i++) {
        VmFault f = {0};
        movegen_legal(ctx, pos, ml, &f);
        int found[4];
        int n = notation_parse(pos, ml, g->moves[i], found, 4);
        if (f.set)
            ok = refuse(err, cap, "%s:%d: runtime fault in the rules: %s", name, g->move_lines[i], f.msg);
        else if (ml->count == 0)
            ok = refuse(err, cap, "%s:%d: move '%s' after the end of the game", name, g->move_lines[i], g->moves[i]);
        else if (n == 0)
            ok = refuse(err, cap, "%s:%d: illegal move '%s'", name, g->move_lines[i], g->moves[i]);
        else if (n > 1)
            ok = refuse(err, cap, "%s:%d: ambiguous move '%s'", name, g->move_lines[i], g->moves[i]);
        else if (k >= max || !board_make(pos, &ml->moves[found[0]]))
            ok = refuse(err, cap, "%s:%d: too many moves", name, g->move_lines[i]);
        else {
            moves_out[k++] = ml->moves[found[0]];
            /* defeats are not saved: replaying the move that caused one plays it again */
            Move defeats[MAX_PLAYERS];
            GameResult r;
            int nd = gameend_settle(ctx, pos, &r, defeats, MAX_PLAYERS, NULL, NULL);
            for (int d = 0; d < nd && d < MAX_PLAYERS; d++) {
                if (k < max)
                    moves_out[k++] = defeats[d];
                else
                    ok = refuse(err, cap, "%s:%d: too many moves", name, g->move_lines[i]);
            }
            if (ok && r.over && i + 1 < g->nmoves)
                ok = refuse(err, cap, "%s:%d: move '%s' after the end of the game (%s)", name, g->move_lines[i + 1],
                            g->moves[i + 1], r.name ? r.name : r.reason);
        }
    }
    free(ml);
    free(ctx);
    if (ok && g->result_winner) {
        /* the result names a player of this game, a draw or nobody */
        bool known = !strcmp(g->result_winner, "draw") || !strcmp(g->result_winner, "none");
        for (int p = 0; p < v->nplayers && !known; p++) known = !strcmp(g->result_winner, v->player_names[p]);
        if (!known)
            ok = refuse(err, cap, "%s:%d: unknown winner '%s' in the result (a player of the game, draw or none)", name,
                        g->result_line, g->result_winner);
    }
    return ok;
}

/* Opens a new file next to target (same directory, so a rename replaces target in one step)
 * with target's permissions, or the default ones when target does not exist yet. Writes its
 * name to tmp (capacity cap). Returns NULL with errno set when it cannot. */
static FILE *open_beside(const char *target, char *tmp, size_t cap) {
    if ((size_t)snprintf(tmp, cap, "%s.XXXXXX", target) >= cap) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) return NULL;
    struct stat st;
    mode_t mode;
    if (stat(target, &st) == 0)
        mode = st.st_mode & 07777;
    else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    FILE *f = fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        int e = errno;
        close(fd);
        remove(tmp);
        errno = e;
    }
    return f;
}

/* The file a symbolic link leads to (following up to 8 links), so that saving through a
 * link replaces the file and keeps the link. The caller frees it. */
static char *link_target(const char *path) {
    char *cur = xstrdup(path);
    for (int depth = 0; depth < 8; depth++) {
        struct stat st;
        char buf[4096];
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) break;
        ssize_t n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0) break;
        buf[n] = 0;
        const char *slash = strrchr(cur, '/');
        char *next;
        if (buf[0] == '/' || !slash)
            next = xstrdup(buf);
        else {
            size_t d = (size_t)(slash - cur) + 1;
            next = xmalloc(d + (size_t)n + 1);
            memcpy(next, cur, d);
            memcpy(next + d, buf, (size_t)n + 1);
        }
        free(cur);
        cur = next;
    }
    return cur;
}

/* Makes a rename in the directory of path durable (best effort: not every file system can). */
static void sync_directory(const char *path) {
    const char *slash = strrchr(path, '/');
    char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

bool savegame_write(const char *path, const char *rules, const Variant *v, const char *start, const Move *moves,
                    int nmoves, const char *winner, const char *reason, char *err, size_t cap) {
    char *target = link_target(path);
    size_t tcap = strlen(target) + 8;
    char *tmp = xmalloc(tcap);
    FILE *f = open_beside(target, tmp, tcap);
    if (!f) {
        int e = errno;
        free(tmp);
        free(target);
        return refuse(err, cap, "%s: cannot write: %s", path, strerror(e));
    }
    int shown = 0;
    for (int i = 0; i < nmoves; i++)
        if (!(moves[i].flags & MOVE_ELIMINATION)) shown++;
    fprintf(f, "# Varia saved game: %s\n", v->title ? v->title : "untitled");
    if (variant_has_secrets(v))
        fprintf(f, "# contains secrets: every player's hidden set-up (mines, deck order) is in the moves below\n");
    fprintf(f, "moves %d\n", shown);
    fprintf(f, "rules %s\n", rules);
    for (int i = 0; i < v->noptions; i++)
        fprintf(f, "option %s=%s\n", v->options[i].name, v->options[i].values[v->options[i].value]);
    fprintf(f, "start %s\n", start);
    char buf[64];
    for (int i = 0; i < nmoves; i++) {
        if (moves[i].flags & MOVE_ELIMINATION) continue;
        notation_move(v, &moves[i], buf, sizeof buf);
        fprintf(f, "move %s\n", buf);
    }
    if (winner) fprintf(f, "result %s %s\n", winner, reason && *reason ? reason : "-");
    fprintf(f, "end\n");
    /* on the disk before the rename, or a crash could leave an empty file under the name */
    int e = 0;
    if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) e = errno ? errno : EIO;
    if (fclose(f) != 0 && !e) e = errno;
    if (!e && rename(tmp, target) != 0) e = errno;
    if (e) {
        remove(tmp);
        free(tmp);
        free(target);
        return refuse(err, cap, "%s: write error: %s (the file is unchanged)", path, strerror(e));
    }
    sync_directory(target);
    free(tmp);
    free(target);
    return true;
}
