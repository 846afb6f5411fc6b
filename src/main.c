/* main.c - the command line: play, check, disasm, ast, perft, moves, fen, trace, bench,
 * selfplay (and help for each).
 * The only place that prints diagnostics and chooses exit codes (0 ok, 1 error, 2 usage). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "describe.h"
#include "disasm.h"
#include "fen.h"
#include "gameend.h"
#include "load.h"
#include "match.h"
#include "tune.h"
#include "movegen.h"
#include "notation.h"
#include "parse.h"
#include "perft.h"
#include "perftsuite.h"
#include "savegame.h"
#include "serve.h"
#include "source.h"
#include "uci.h"
#include "xboard.h"
#include "ui_console.h"
#include "zrf.h"

typedef struct Args {
    const char *file;
    const char *fen;
    const char *positional[4];
    int npositional;
    bool divide, general, help;
    OptionSetting options[MAX_OPTIONS];
    int noptions;
    /* play, bench, selfplay */
    int seats[MAX_PLAYERS];    /* SeatKind or -1 */
    const char *white, *black; /* engine names as given (selfplay) */
    double seconds;            /* --time; < 0 = not given */
    int depth;                 /* --depth; 0 = not given */
    long long seed;
    bool seed_given; /* --seed was on the command line */
    int games;
    const char *load;
    const char *svg_dir, *html_path; /* describe */
    const char *moves;               /* fen --moves */
    const char *host;                /* serve --host */
    int port;                        /* serve --port; -1 = not given */
    bool ascii, flip, verbose, compact;
    const char *variant;  /* --variant: a Zillions file's game or variant */
    bool playouts;        /* bench --playouts */
    bool diagram;         /* moves --diagram */
    bool after;           /* moves --after */
    bool trace;           /* bench --playouts --trace */
    const char *epd;      /* perft --epd: a suite of positions and figures */
    long long max_nodes;  /* perft --max-nodes; < 0 = not given */
    bool deep;            /* perft --deep */
    const char *bad_seat; /* a --seat N=... whose N no game has (0, -1, 9), or NULL */
    const char *argv0;
} Args;

typedef struct Command {
    const char *name;
    const char *usage;
    const char *help;
    int (*run)(const Args *);
    bool file_optional;
    bool names_rules; /* FILE is a rule file: a shipped game's name ("chess") is found too */
    int max_args;     /* arguments after FILE */
} Command;

static const Command *find_command(const char *name);

static void print_usage(const Command *c, FILE *out) { fprintf(out, "usage: varia %s\n\n%s\n", c->usage, c->help); }

/* A rule file is text: a file holding a NUL byte (a program, a picture) is not one. Says so,
 * at the first NUL byte, instead of a page of errors that print its bytes; false for text. */
static bool refuse_binary(const Source *src) {
    const char *nul = memchr(src->text, 0, src->len);
    if (!nul) return false;
    int line = 1, col = 1;
    for (const char *p = src->text; p < nul; p++) {
        col++;
        if (*p == '\n') line++, col = 1;
    }
    fprintf(stderr, "%s:%d:%d: error: not a rule file: it holds binary data (a NUL byte), and a rule file is text\n",
            src->path, line, col);
    return true;
}

/* Loads the rule file with diagnostics on stderr; NULL on error. */
static Variant *load_variant(const Args *a) {
    DiagSink sink;
    diag_init(&sink);
    const char *err = NULL;
    Source *src = source_load(a->file, &err);
    if (!src) {
        fprintf(stderr, "%s: error: cannot read rule file: %s\n", a->file, err ? err : "unknown error");
        diag_free(&sink);
        return NULL;
    }
    if (refuse_binary(src)) {
        source_free(src);
        diag_free(&sink);
        return NULL;
    }
    Variant *v = load_source(src, a->options, a->noptions, &sink);
    diag_render(&sink, stderr);
    sink.source = NULL;
    diag_free(&sink);
    source_free(src);
    return v;
}

/* Sets up pos at the --fen position or the variant's start; false (with a message) on error. */
static bool setup_position(const Args *a, const Variant *v, GenContext *ctx, Position *pos) {
    char err[200], start[4096];
    /* without --fen: the rule file's start (shuffled by --seed where the rules shuffle) */
    if (!a->fen) fen_start(v, (uint64_t)a->seed, start, sizeof start);
    const char *text = a->fen ? a->fen : start;
    /* (a diagram's position need not be one a game reaches: a piece alone, its king away) */
    if (!fen_read(pos, text, err, sizeof err) || (!a->diagram && !movegen_position_ok(ctx, pos, err, sizeof err))) {
        fprintf(stderr, "varia: error: bad position '%s': %s\n", text, err);
        return false;
    }
    return true;
}

static void report_fault(const VmFault *f) {
    if (f->set)
        fprintf(stderr, "%s:%d:%d: error: runtime fault: %s\n", f->file ? f->file : "?", f->line, f->col, f->msg);
}

/* ---- commands ------------------------------------------------------------------------------ */

static int cmd_check(const Args *a) {
    Variant *v = load_variant(a);
    if (!v) return 1;
    /* likely mistakes, placed by the syntax tree */
    DiagSink sink;
    diag_init(&sink);
    Source *src = source_load(a->file, NULL);
    sink.source = src;
    bool zrf = src && zrf_detect(src);
    ZrfKeep *keep = NULL;
    Ast *root = NULL;
    if (zrf) {
        /* the lowered tree, its own diagnostics said already */
        DiagSink quiet;
        diag_init(&quiet);
        root = zrf_load(src, a->variant, &quiet, &keep);
        diag_free(&quiet);
    } else if (src)
        root = parse_source(src, &sink);
    describe_warnings(v, root, &sink);
    zrf_keep_annotate(keep, &sink, 0);
    diag_render(&sink, stderr);
    sink.source = NULL;
    ast_free(root);
    zrf_keep_free(keep);
    diag_free(&sink);
    int programs = 0;
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners; o++)
            programs +=
                (v->types[t].per_owner[o].prog.count > 0) + (v->types[t].drops && v->types[t].drops[o].count > 0);
    printf("%s: ok: \"%s\", %d players, %d board%s, %d cells, %d piece types, %d programs\n", a->file,
           v->title ? v->title : "untitled", v->nplayers, v->nboards, v->nboards == 1 ? "" : "s", v->ncells, v->ntypes,
           programs);
    if (zrf) {
        /* the file's games and variants, for --variant */
        DiagSink quiet;
        diag_init(&quiet);
        printf("games and variants (--variant N or NAME; * the default):\n");
        zrf_list_variants(src, &quiet, stdout);
        diag_free(&quiet);
    }
    source_free(src);
    variant_free(v);
    return 0;
}

static bool is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Creates dir and the directories above it that are missing (mkdir -p). False with the
 * reason in err. */
static bool make_dirs(const char *dir, char *err, size_t cap) {
    char path[1024];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) return refuse(err, cap, "%s: path too long", dir);
    for (char *p = path + 1;; p++) {
        if (*p && *p != '/') continue;
        char c = *p;
        *p = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return refuse(err, cap, "cannot create %s: %s", path, strerror(errno));
        if (!is_dir(path)) return refuse(err, cap, "cannot create %s: a file of that name is in the way", path);
        if (!c) return true;
        *p = c;
    }
}

/* The .svg files of dir written at or after t0 (the pictures describe_svg just made), listed
 * on one line; how many. */
static int list_new_svgs(const char *dir, const struct timespec *t0) {
    struct dirent **files = NULL;
    int n = scandir(dir, &files, NULL, alphasort), count = 0;
    for (int i = 0; i < n; i++) {
        const char *name = files[i]->d_name;
        size_t len = strlen(name);
        char path[1400];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (len > 4 && !strcmp(name + len - 4, ".svg") && stat(path, &st) == 0 &&
            (st.st_mtim.tv_sec > t0->tv_sec || (st.st_mtim.tv_sec == t0->tv_sec && st.st_mtim.tv_nsec >= t0->tv_nsec)))
            printf("%s%s", count++ ? " " : "  ", name);
        free(files[i]);
    }
    free(files);
    if (count) printf("\n");
    return count;
}

static int cmd_describe(const Args *a) {
    Variant *v = load_variant(a);
    if (!v) return 1;
    char err[1600];
    int rc = 0;
    if (a->svg_dir) {
        /* a coarse clock: a file written in this second counts as new */
        struct timespec t0;
        clock_gettime(CLOCK_REALTIME, &t0);
        t0.tv_nsec = 0;
        if (!make_dirs(a->svg_dir, err, sizeof err) || !describe_svg(v, a->svg_dir, err, sizeof err))
            rc = 1;
        else {
            size_t len = strlen(a->svg_dir);
            printf("wrote the pictures to %s%s:\n", a->svg_dir, len && a->svg_dir[len - 1] == '/' ? "" : "/");
            list_new_svgs(a->svg_dir, &t0);
        }
    }
    if (!rc && a->html_path) {
        if (!describe_html(v, a->html_path, err, sizeof err))
            rc = 1;
        else {
            /* the full path: what a browser is given */
            char cwd[1024];
            bool relative = a->html_path[0] != '/' && getcwd(cwd, sizeof cwd);
            printf("wrote the rulebook page to %s%s%s (open it in a web browser)\n", relative ? cwd : "",
                   relative ? "/" : "", a->html_path);
        }
    }
    if (rc) fprintf(stderr, "varia: error: %s\n", err);
    if (!rc && !a->svg_dir && !a->html_path) {
        DescribeStyle style = {false, false};
        if (isatty(STDOUT_FILENO)) {
            const char *nc = getenv("NO_COLOR");
            const char *lang = getenv("LC_ALL");
            if (!lang || !*lang) lang = getenv("LC_CTYPE");
            if (!lang || !*lang) lang = getenv("LANG");
            style.utf8 = !a->ascii && lang && (strstr(lang, "UTF-8") || strstr(lang, "utf8") || strstr(lang, "UTF8"));
            style.colour = !(nc && *nc);
        }
        describe_text(v, &style, stdout);
    }
    variant_free(v);
    return rc;
}

static int cmd_ast(const Args *a) {
    DiagSink sink;
    diag_init(&sink);
    const char *err = NULL;
    Source *src = source_load(a->file, &err);
    if (!src) {
        fprintf(stderr, "%s: error: cannot read rule file: %s\n", a->file, err ? err : "unknown error");
        return 1;
    }
    if (refuse_binary(src)) {
        source_free(src);
        return 1;
    }
    sink.source = src;
    Ast *root = parse_source(src, &sink);
    int rc = sink.errors ? 1 : 0;
    if (!rc) ast_dump(root, stdout);
    diag_render(&sink, stderr);
    ast_free(root);
    diag_free(&sink);
    source_free(src);
    return rc;
}

static int cmd_disasm(const Args *a) {
    Variant *v = load_variant(a);
    if (!v) return 1;
    disasm_variant(v, stdout);
    variant_free(v);
    return 0;
}

/* --moves "m1,m2,...": the moves played from pos as a saved game's are (checked one by one, the
 * defeats they cause played too). False with the reason on stderr. */
static bool play_moves(const Args *a, Position *pos) {
    char start[4096], err[400];
    fen_write(pos, start, sizeof start);
    char *list = xstrdup(a->moves);
    SavedGame g = {0};
    g.start = start;
    g.moves = xmalloc(sizeof *g.moves * (strlen(list) + 1));
    g.move_lines = xmalloc(sizeof *g.move_lines * (strlen(list) + 1));
    for (char *m = strtok(list, ","); m; m = strtok(NULL, ",")) {
        while (*m == ' ') m++;
        if (!*m) continue;
        g.move_lines[g.nmoves] = g.nmoves + 1;
        g.moves[g.nmoves++] = m;
    }
    Move *played = xmalloc(sizeof *played * MAX_HISTORY);
    bool ok = savegame_replay(&g, "--moves", pos, played, MAX_HISTORY, err, sizeof err);
    if (!ok) fprintf(stderr, "varia: error: %s (the number is the move's place in the list)\n", err);
    free(played);
    free(g.moves);
    free(g.move_lines);
    free(list);
    return ok;
}

static int cmd_fen(const Args *a) {
    Variant *v = load_variant(a);
    if (!v) return 1;
    Position pos;
    board_init(&pos, v);
    GenContext ctx;
    genctx_init(&ctx);
    int rc = 1;
    if (setup_position(a, v, &ctx, &pos) && (!a->moves || play_moves(a, &pos))) {
        char buf[4096];
        fen_write(&pos, buf, sizeof buf);
        printf("%s\n", buf);
        rc = 0;
    }
    board_free(&pos);
    variant_free(v);
    return rc;
}

/* Prints the legal moves of pos, one per line; false on a program fault (reported). Under
 * --diagram, the moves of a position as the rulebook's diagrams draw it: each piece's moves as
 * its rules make them (pseudo-legal: the rule that a royal piece may not be left attacked is
 * not applied), whatever the position's endings say. */
static bool print_moves(const Args *a, const Variant *v, GenContext *ctx, Position *pos) {
    MoveList *ml = xmalloc(sizeof *ml);
    VmFault f = {0};
    ctx->diagram = a->diagram;
    if (a->diagram)
        movegen_pseudo(ctx, pos, ml, &f);
    else
        movegen_legal(ctx, pos, ml, &f);
    if (!a->diagram && v->nplayers == 2 && gameend_royal_lost(pos) >= 0) {
        /* a royal piece was taken: the game is over, whatever the phase would allow */
        fprintf(stderr, "varia: note: the game is over (a royal piece was captured): no moves\n");
        ml->count = 0;
    } else if (!a->diagram && gameend_pieces_out(pos) >= 0) {
        /* `end pieces`: a player has too few pieces left, as perft sees it */
        fprintf(stderr, "varia: note: the game is over (%s has too few pieces left): no moves\n",
                v->player_names[gameend_pieces_out(pos)]);
        ml->count = 0;
    }
    char buf[64];
    for (int i = 0; i < ml->count; i++) {
        notation_move(v, &ml->moves[i], buf, sizeof buf);
        /* --after: the position the move leads to, after it */
        char text[4096] = "";
        if (a->after && board_make(pos, &ml->moves[i])) {
            fen_write(pos, text, sizeof text);
            board_unmake(pos);
        }
        printf("%s%s%s\n", buf, text[0] ? " " : "", text);
    }
    report_fault(&f);
    free(ml);
    return !f.set;
}

/* What --fen - does with each position read: true when it went well. */
typedef bool (*PositionAnswer)(const Args *a, const Variant *v, GenContext *ctx, Position *pos, long depth);

/* --fen -: a position per line of standard input, each answered in turn, then `after` printed;
 * a line too long or not a position is named by its number and answered with `bad` instead,
 * so the answers stay in step with the lines. 1 when a line was bad or an answer failed. */
static int answer_position_lines(const Args *a, const Variant *v, GenContext *ctx, Position *pos, long depth,
                                 PositionAnswer answer, const char *after, const char *bad) {
    char line[8192];
    int rc = 0, n = 0;
    while (fgets(line, sizeof line, stdin)) {
        n++;
        size_t len = strcspn(line, "\r\n");
        bool ok = false;
        if (line[len] == 0 && !feof(stdin)) {
            fprintf(stderr, "varia: error: standard input line %d: position text too long\n", n);
            int ch;
            while ((ch = getchar()) != EOF && ch != '\n') {}
        } else {
            line[len] = 0;
            char err[200];
            genctx_init(ctx);
            if (!fen_read(pos, line, err, sizeof err) ||
                (!a->diagram && !movegen_position_ok(ctx, pos, err, sizeof err)))
                fprintf(stderr, "varia: error: standard input line %d: bad position '%s': %s\n", n, line, err);
            else
                ok = true;
        }
        if (!ok) {
            fputs(bad, stdout);
            rc = 1;
        } else if (!answer(a, v, ctx, pos, depth))
            rc = 1;
        fputs(after, stdout);
    }
    return rc;
}

static bool moves_answer(const Args *a, const Variant *v, GenContext *ctx, Position *pos, long depth) {
    (void)depth;
    return print_moves(a, v, ctx, pos);
}

static int cmd_moves(const Args *a) {
    Variant *v = load_variant(a);
    if (!v) return 1;
    Position pos;
    board_init(&pos, v);
    GenContext ctx;
    genctx_init(&ctx);
    int rc = 1;
    if (variant_has_secrets(v))
        fprintf(stderr, "varia: note: full information: every player's hidden set-up is known here\n");
    if (a->fen && !strcmp(a->fen, "-"))
        rc = answer_position_lines(a, v, &ctx, &pos, 0, moves_answer, "\n", "");
    else if (setup_position(a, v, &ctx, &pos))
        rc = print_moves(a, v, &ctx, &pos) ? 0 : 1;
    board_free(&pos);
    variant_free(v);
    return rc;
}

/* perft --epd SUITE: every selected figure of the suite, in one process. */
static int perft_of_suite(const Args *a, GenContext *ctx, Position *pos) {
    FILE *in = strcmp(a->epd, "-") ? fopen(a->epd, "r") : stdin;
    if (!in) {
        fprintf(stderr, "varia: error: cannot read '%s': %s\n", a->epd, strerror(errno));
        return 1;
    }
    PerftSelect sel = {.max_nodes = a->max_nodes < 0 ? UINT64_MAX : (uint64_t)a->max_nodes, .deep = a->deep};
    const char *name = in == stdin ? "standard input" : a->epd;
    PerftSuiteResult r = perft_suite(ctx, pos, name, in, &sel, a->verbose, stdout, stderr);
    if (in != stdin) fclose(in);
    printf("%s: %d passed, %d failed, %d not selected\n", name, r.passed, r.failed, r.skipped);
    return r.failed ? 1 : 0;
}

/* One position's perft (with --divide, below each first move), ending "Nodes searched: N". */
static bool perft_one(const Args *a, const Variant *v, GenContext *ctx, Position *pos, long depth) {
    VmFault f = {0};
    if (variant_has_secrets(v))
        fprintf(stderr, "varia: note: full information: every player's hidden set-up is known here\n");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t n = a->divide ? perft_divide(ctx, pos, (int)depth, stdout, &f) : perft(ctx, pos, (int)depth, &f);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    report_fault(&f);
    if (a->divide) printf("\n");
    fprintf(stderr, "time %.3f s, %.0f nodes/s\n", secs, secs > 0 ? (double)n / secs : 0.0);
    printf("Nodes searched: %llu\n", (unsigned long long)n);
    return !f.set;
}

static int cmd_perft(const Args *a) {
    if (a->npositional < 1 && !a->epd) {
        print_usage(find_command("perft"), stderr);
        return 2;
    }
    long depth = 0;
    if (a->epd && (a->npositional > 0 || a->fen || a->divide)) {
        fprintf(stderr,
                "varia: perft --epd takes its positions and depths from the suite (no DEPTH, --fen or --divide)\n");
        return 2;
    }
    if (!a->epd && (a->max_nodes >= 0 || a->deep)) {
        fprintf(stderr, "varia: --max-nodes and --deep choose the figures of a suite: they go with --epd\n");
        return 2;
    }
    if (!a->epd) {
        char *end;
        depth = strtol(a->positional[0], &end, 10);
        if (*end || depth < 0 || depth > 20) {
            fprintf(stderr, "varia: error: bad depth '%s' (expected 0..20)\n", a->positional[0]);
            return 2;
        }
    }
    Variant *v = load_variant(a);
    if (!v) return 1;
    Position pos;
    board_init(&pos, v);
    GenContext ctx;
    genctx_init(&ctx);
    int rc = 1;
    ctx.fast = !a->general;
    if (a->epd)
        rc = perft_of_suite(a, &ctx, &pos);
    else if (a->fen && !strcmp(a->fen, "-"))
        rc = answer_position_lines(a, v, &ctx, &pos, depth, perft_one, "", "Nodes searched: -\n");
    else if (setup_position(a, v, &ctx, &pos))
        rc = perft_one(a, v, &ctx, &pos, depth) ? 0 : 1;
    board_free(&pos);
    variant_free(v);
    return rc;
}

static void trace_print(const Program *prog, int pc, Cell cur, bool flag, void *user) {
    const Variant *v = user;
    printf("  cur=%-6s flag=%d  ", cur < v->ncells ? v->cells[cur].name : "-", flag);
    disasm_instruction(v, prog, pc, stdout);
}

/* `trace FILE drop`: the drop programs of the player to move, one after another. */
static int trace_drops(const Variant *v, GenContext *ctx, Position *pos) {
    int mover = board_mover(pos), rc = 0;
    bool any = false;
    for (int t = 0; t < v->ntypes && !rc; t++) {
        if (!v->types[t].drops) continue;
        any = true;
        MoveList *ml = malloc(sizeof *ml);
        ml->count = 0;
        VmFault f = {0};
        ctx->trace = trace_print;
        ctx->trace_user = (void *)v;
        printf("%s:\n", v->types[t].drops[mover].name);
        vm_run(ctx, &v->types[t].drops[mover], pos, NO_CELL, mover, ml, &f);
        ctx->trace = NULL;
        char buf[64];
        printf("emitted %d move%s:", ml->count, ml->count == 1 ? "" : "s");
        for (int i = 0; i < ml->count; i++) {
            notation_move(v, &ml->moves[i], buf, sizeof buf);
            printf(" %s", buf);
        }
        printf("\n");
        report_fault(&f);
        rc = f.set ? 1 : 0;
        free(ml);
    }
    if (!any) {
        fprintf(stderr, "varia: error: no piece of this game has a drop program\n");
        return 1;
    }
    return rc;
}

static int cmd_trace(const Args *a) {
    if (a->npositional < 1) {
        print_usage(find_command("trace"), stderr);
        return 2;
    }
    Variant *v = load_variant(a);
    if (!v) return 1;
    Position pos;
    board_init(&pos, v);
    GenContext ctx;
    genctx_init(&ctx);
    int rc = 1;
    if (setup_position(a, v, &ctx, &pos)) {
        int c = variant_cell_by_name(v, a->positional[0]);
        if (c < 0 && !strcmp(a->positional[0], "drop"))
            rc = trace_drops(v, &ctx, &pos);
        else if (c < 0)
            fprintf(stderr, "varia: error: unknown cell '%s'\n", a->positional[0]);
        else if (!pos.cell[c])
            fprintf(stderr, "varia: error: no piece on %s\n", a->positional[0]);
        else {
            Piece p = pos.cell[c];
            const Program *prog = &v->types[PIECE_TYPE(p)].per_owner[PIECE_OWNER(p)].prog;
            MoveList *ml = malloc(sizeof *ml);
            ml->count = 0;
            VmFault f = {0};
            ctx.trace = trace_print;
            ctx.trace_user = (void *)v;
            vm_run(&ctx, prog, &pos, (Cell)c, PIECE_OWNER(p), ml, &f);
            char buf[64];
            printf("emitted %d move%s:", ml->count, ml->count == 1 ? "" : "s");
            for (int i = 0; i < ml->count; i++) {
                notation_move(v, &ml->moves[i], buf, sizeof buf);
                printf(" %s", buf);
            }
            printf("\n");
            report_fault(&f);
            rc = f.set ? 1 : 0;
            free(ml);
        }
    }
    board_free(&pos);
    variant_free(v);
    return rc;
}

static int cmd_random(const Args *a) {
    long count = 10, plies = 40, seed = 1;
    for (int i = 0; i < a->npositional; i++) {
        const char *s = a->positional[i];
        long *dst = !strncmp(s, "count=", 6) ? &count
            : !strncmp(s, "plies=", 6)       ? &plies
            : !strncmp(s, "seed=", 5)        ? &seed
                                             : NULL;
        char *end;
        if (!dst || (*dst = strtol(strchr(s, '=') + 1, &end, 10), *end) || *dst < 0 || *dst > 100000) {
            fprintf(stderr, "varia: error: bad argument '%s' (expected count=N, plies=N or seed=N)\n", s);
            return 2;
        }
    }
    Variant *v = load_variant(a);
    if (!v) return 1;
    Position pos;
    board_init(&pos, v);
    GenContext ctx;
    genctx_init(&ctx);
    MoveList *ml = malloc(sizeof *ml);
    uint64_t state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 1;
    int rc = 0;
    for (long g = 0; g < count && rc == 0; g++) {
        if (!setup_position(a, v, &ctx, &pos)) {
            rc = 1;
            break;
        }
        long n = 1 + (long)(rng_next(&state) % (uint64_t)(plies ? plies : 1));
        for (long k = 0; k < n; k++) {
            VmFault f = {0};
            movegen_legal(&ctx, &pos, ml, &f);
            if (f.set) {
                report_fault(&f);
                rc = 1;
                break;
            }
            if (ml->count == 0) break;
            board_make(&pos, &ml->moves[rng_next(&state) % (uint64_t)ml->count]);
            GameResult r;
            gameend_check(&ctx, &pos, &r);
            if (r.fault.set) {
                report_fault(&r.fault);
                rc = 1;
                break;
            }
            if (r.over) break; /* (a game that has ended goes no further) */
        }
        char buf[4096];
        fen_write(&pos, buf, sizeof buf);
        printf("%s\n", buf);
    }
    free(ml);
    board_free(&pos);
    variant_free(v);
    return rc;
}

/* Where `make install` put the shipped games (its PREFIX's share/varia). */
#ifndef VARIA_DATADIR
#define VARIA_DATADIR "/usr/local/share/varia"
#endif

/* The shipped rule files: $VARIA_RULES, ./rules, rules/ beside the executable (a source tree),
 * ../share/varia/rules from the executable's directory (an installed tree, wherever it was
 * staged or copied), then the directory the installation was built for. */
static void rules_dir(const Args *a, char *out, size_t cap) {
    const char *env = getenv("VARIA_RULES");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        return;
    }
    if (is_dir("rules")) {
        snprintf(out, cap, "rules");
        return;
    }
    char exe[512];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 && a->argv0) n = (ssize_t)snprintf(exe, sizeof exe, "%s", a->argv0);
    if (n > 0 && (size_t)n < sizeof exe) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(out, cap, "%s/rules", exe);
            if (is_dir(out)) return;
            snprintf(out, cap, "%s/../share/varia/rules", exe);
            if (is_dir(out)) return;
        }
    }
    snprintf(out, cap, "%s/rules", VARIA_DATADIR);
    if (is_dir(out)) return;
    snprintf(out, cap, "rules");
}

/* name as given when it is a file or a path; else the shipped game of that name ("chess" or
 * "chess.rules" in the rules directory) when there is one; else as given (for the message). */
static const char *resolve_rules_name(const Args *a, const char *name, char *buf, size_t cap) {
    struct stat st;
    if (stat(name, &st) == 0 || strchr(name, '/')) return name;
    char dir[1024];
    rules_dir(a, dir, sizeof dir);
    snprintf(buf, cap, "%s/%s%s", dir, name, strstr(name, ".rules") ? "" : ".rules");
    return stat(buf, &st) == 0 ? buf : name;
}

static const char *resolve_rules(const Args *a, char *buf, size_t cap) {
    return resolve_rules_name(a, a->file, buf, cap);
}

static int is_rules_file(const struct dirent *e) {
    size_t len = strlen(e->d_name);
    return len > 6 && !strcmp(e->d_name + len - 6, ".rules");
}

/* The shipped games' names (the rule files of dir without ".rules"), sorted; the caller frees
 * each and the array. Returns how many (0 when there are none or dir cannot be read). */
static int shipped_games(const char *dir, char ***out) {
    struct dirent **files = NULL;
    int n = scandir(dir, &files, is_rules_file, alphasort);
    *out = NULL;
    if (n <= 0) return 0;
    char **names = xmalloc((size_t)n * sizeof *names);
    for (int i = 0; i < n; i++) {
        names[i] = xstrndup(files[i]->d_name, strlen(files[i]->d_name) - 6);
        free(files[i]);
    }
    free(files);
    *out = names;
    return n;
}

/* The menu of shipped games, in columns that fit 80 columns. */
static void print_games(char *const *names, int n) {
    size_t widest = 0;
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) > widest) widest = strlen(names[i]);
    int cols = (int)(78 / (widest + 2));
    if (cols < 1) cols = 1;
    int rows = (n + cols - 1) / cols;
    printf("%d games:\n", n);
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int i = c * rows + r;
            if (i < n) printf("  %-*s", (int)widest, names[i]);
        }
        printf("\n");
    }
}

/* Resolves FILE for play: a path, or a shipped game's name ("chess"). With no FILE, offers the
 * shipped games (asks on a terminal, again after a name that is none of them; chess when
 * standard input is not a terminal). Writes the path; false when there is none to play, with
 * *quit set when the player left at the question (end of input). */
static bool choose_rules(const Args *a, char *path, size_t cap, bool *quit) {
    char dir[1024];
    rules_dir(a, dir, sizeof dir);
    *quit = false;
    if (a->file) {
        snprintf(path, cap, "%s", a->file); /* (resolved by main) */
        return true;
    }
    char **names;
    int n = shipped_games(dir, &names);
    if (n == 0) {
        fprintf(stderr, "varia: error: no rule files in '%s' (give a FILE, or set VARIA_RULES)\n", dir);
        return false;
    }
    char choice[256] = "chess";
    int found = -1;
    /* (a saved game or a PGN file to load names its own game) */
    bool ask = isatty(0) && !a->load;
    if (ask) print_games(names, n);
    for (;;) {
        if (ask) {
            printf("which game? [chess] ");
            fflush(stdout);
            char line[256];
            if (!fgets(line, sizeof line, stdin)) {
                printf("\n"); /* Ctrl-D: leave without playing */
                *quit = true;
                break;
            }
            char *s = line;
            while (*s == ' ' || *s == '\t') s++;
            s[strcspn(s, " \t\r\n")] = 0;
            snprintf(choice, sizeof choice, "%s", *s ? s : "chess");
            size_t len = strlen(choice);
            if (len > 6 && !strcmp(choice + len - 6, ".rules")) choice[len - 6] = 0;
        }
        for (int i = 0; i < n && found < 0; i++)
            if (!strcmp(names[i], choice)) found = i;
        if (found >= 0 || !ask) break;
        printf("no game '%s' here: type one of the names above (Ctrl-D leaves)\n", choice);
    }
    if (found >= 0)
        snprintf(path, cap, "%s/%s.rules", dir, choice);
    else if (!*quit)
        fprintf(stderr, "varia: error: no game '%s' in %s\n", choice, dir);
    for (int i = 0; i < n; i++) free(names[i]);
    free(names);
    return found >= 0;
}

static int cmd_play(const Args *a) {
    char path[1400];
    bool quit;
    if (!choose_rules(a, path, sizeof path, &quit)) return quit ? 0 : 1;
    const char *err = NULL;
    Source *src = source_load(path, &err); /* (one that cannot be read is reported by the game) */
    bool binary = src && refuse_binary(src);
    source_free(src);
    if (binary) return 1;
    UiConfig cfg = {0};
    cfg.rules = path;
    cfg.bad_seat = a->bad_seat;
    cfg.options = a->options;
    cfg.noptions = a->noptions;
    memcpy(cfg.seats, a->seats, sizeof cfg.seats);
    cfg.depth = a->depth;
    cfg.seconds = a->seconds >= 0 ? a->seconds : a->depth ? 0 : 1;
    cfg.seed = (uint64_t)a->seed;
    cfg.load = a->load;
    cfg.fen = a->fen;
    cfg.seed_given = a->seed_given;
    cfg.ascii = a->ascii;
    cfg.flip = a->flip;
    cfg.compact = a->compact;
    char dir[1024];
    rules_dir(a, dir, sizeof dir);
    cfg.rules_dir = dir;
    return ui_play(&cfg);
}

/* The engines load a game by its path alone: a Zillions file's variant rides along as
 * "FILE#VARIANT", which the loader reads (load_file). */
static const char *engine_path(const Args *a, char *buf, size_t cap) {
    if (!a->variant || !a->file) return a->file;
    snprintf(buf, cap, "%s#%s", a->file, a->variant);
    return buf;
}

static int cmd_serve(const Args *a) {
    char dir[1024];
    rules_dir(a, dir, sizeof dir);
    ServeConfig cfg = {0};
    cfg.host = a->host;
    cfg.port = a->port >= 0 ? a->port : SERVE_PORT;
    cfg.api.rules_dir = dir;
    cfg.api.game = a->file;
    cfg.api.options = a->options;
    cfg.api.noptions = a->noptions;
    cfg.api.depth = a->depth;
    cfg.api.seconds = a->seconds >= 0 ? a->seconds : a->depth ? 0 : 1;
    return serve_run(&cfg, stdout, stderr);
}

static int cmd_uci(const Args *a) {
    char dir[1024], path[1600];
    rules_dir(a, dir, sizeof dir);
    return uci_run(dir, engine_path(a, path, sizeof path), stdin, stdout);
}

static int cmd_xboard(const Args *a) {
    char dir[1024], path[1600];
    rules_dir(a, dir, sizeof dir);
    const char *files[1 + ARRAY_LEN(a->positional)];
    int n = 0;
    if (a->file) files[n++] = engine_path(a, path, sizeof path);
    for (int i = 0; i < a->npositional; i++) files[n++] = a->positional[i];
    return xboard_run(dir, files, n, stdin, stdout);
}

/* bench --playouts [FILE...]: the files named, or every shipped one. */
static int bench_playouts_cmd(const Args *a) {
    enum { MAX_FILES = 1 + ARRAY_LEN(a->positional) };
    char named[MAX_FILES][1400], dir[1024];
    const char *given[MAX_FILES];
    int n = 0;
    if (a->file) given[n++] = a->file;
    for (int i = 0; i < a->npositional; i++) given[n++] = a->positional[i];
    char **paths = NULL;
    struct dirent **shipped = NULL;
    int nshipped = 0;
    if (n > 0) {
        paths = xmalloc((size_t)n * sizeof *paths);
        for (int i = 0; i < n; i++) paths[i] = (char *)resolve_rules_name(a, given[i], named[i], sizeof named[i]);
    } else {
        rules_dir(a, dir, sizeof dir);
        nshipped = scandir(dir, &shipped, is_rules_file, alphasort);
        if (nshipped <= 0) {
            fprintf(stderr, "varia: error: no rule files in '%s' (name the FILEs, or set VARIA_RULES)\n", dir);
            return 1;
        }
        n = nshipped;
        paths = xmalloc((size_t)n * sizeof *paths);
        for (int i = 0; i < n; i++) {
            size_t len = strlen(dir) + strlen(shipped[i]->d_name) + 2;
            paths[i] = xmalloc(len);
            snprintf(paths[i], len, "%s/%s", dir, shipped[i]->d_name);
        }
    }
    PlayoutConfig cfg = {(const char *const *)paths,
                         n,
                         a->options,
                         a->noptions,
                         a->games,
                         a->seconds >= 0 ? a->seconds : 1.0,
                         (uint64_t)a->seed,
                         a->trace ? stdout : NULL};
    int rc = bench_playouts(&cfg, stdout, stderr);
    for (int i = 0; i < nshipped; i++) {
        free(paths[i]);
        free(shipped[i]);
    }
    free(shipped);
    free(paths);
    return rc;
}

/* The search bench and the playouts take different options; one given to the other mode is an
 * error rather than silently ignored. */
static const char *bench_misplaced_option(const Args *a) {
    if (a->playouts) return a->depth ? "--depth" : NULL;
    if (a->trace) return "--trace";
    if (a->games > 0) return "--games";
    if (a->seconds >= 0) return "--time";
    if (a->seed_given) return "--seed";
    if (a->noptions > 0) return "--option";
    return NULL;
}

static int cmd_bench(const Args *a) {
    const char *misplaced = bench_misplaced_option(a);
    if (misplaced) {
        fprintf(stderr, "varia: bench: %s %s --playouts (try 'varia bench --help')\n", misplaced,
                a->playouts ? "does not go with" : "goes with");
        return 2;
    }
    if (a->playouts) return bench_playouts_cmd(a);
    if (a->npositional > 0) {
        fprintf(stderr, "varia: bench: unexpected argument '%s' (try 'varia bench --help')\n", a->positional[0]);
        return 2;
    }
    char dir[1024];
    if (a->file)
        snprintf(dir, sizeof dir, "%s", a->file);
    else
        rules_dir(a, dir, sizeof dir);
    return bench_run(dir, a->depth, stdout, stderr);
}

static int cmd_selfplay(const Args *a) {
    SelfplayConfig cfg = {0};
    cfg.rules = a->file;
    cfg.options = a->options;
    cfg.noptions = a->noptions;
    cfg.games = a->games > 0 ? a->games : 10;
    cfg.depth = a->depth;
    cfg.seconds = a->seconds >= 0 ? a->seconds : a->depth ? 0 : 1;
    cfg.seed = (uint64_t)a->seed;
    cfg.verbose = a->verbose;
    cfg.engine_a = a->white ? ui_seat_kind(a->white) : SEAT_AI;
    cfg.engine_b = a->black ? ui_seat_kind(a->black) : SEAT_GREEDY;
    if (cfg.engine_a <= SEAT_HUMAN || cfg.engine_b <= SEAT_HUMAN) {
        fprintf(stderr, "varia: error: engines are ai, greedy or random\n");
        return 2;
    }
    return ui_selfplay(&cfg);
}

/* match FILE [--games N] [--time S | --depth D] [--seed N] [--verbose] [a=SETTINGS] [b=SETTINGS]
 * [inc=S] [sprt=ELO0,ELO1]: the settings are the search's (search_options_parse). */
static int cmd_match(const Args *a) {
    MatchConfig cfg = {0};
    cfg.rules = a->file;
    cfg.options = a->options;
    cfg.noptions = a->noptions;
    cfg.games = a->games > 0 ? a->games : 20;
    cfg.depth = a->depth;
    cfg.base = a->seconds > 0 ? a->seconds : a->depth ? 0 : 10;
    cfg.seed = (uint64_t)a->seed;
    cfg.verbose = a->verbose;
    cfg.tt_mb = 16;
    cfg.open_plies = 4;
    cfg.name_a = "default";
    cfg.name_b = "classic";
    search_options_default(&cfg.a);
    search_options_classic(&cfg.b);
    for (int i = 0; i < a->npositional; i++) {
        const char *w = a->positional[i], *eq = strchr(w, '=');
        char err[200] = "";
        bool ok = eq != NULL;
        if (!ok) {
        } else if (!strncmp(w, "a=", 2) || !strncmp(w, "b=", 2)) {
            SearchOptions *o = w[0] == 'a' ? &cfg.a : &cfg.b;
            search_options_default(o); /* (settings change the defaults, unless they say classic) */
            ok = search_options_parse(eq + 1, o, err, sizeof err);
            *(w[0] == 'a' ? &cfg.name_a : &cfg.name_b) = eq + 1;
        } else if (!strncmp(w, "inc=", 4)) {
            char *end;
            cfg.inc = strtod(eq + 1, &end);
            ok = end != eq + 1 && !*end && cfg.inc >= 0 && cfg.inc < 1e6;
        } else if (!strncmp(w, "sprt=", 5)) {
            char *end;
            cfg.elo0 = strtod(eq + 1, &end);
            ok = end != eq + 1 && *end == ',';
            if (ok) {
                const char *second = end + 1;
                cfg.elo1 = strtod(second, &end);
                ok = end != second && !*end && cfg.elo1 > cfg.elo0;
            }
            cfg.sprt = true;
        } else
            ok = false;
        if (!ok) {
            fprintf(stderr, "varia: match: bad setting '%s'%s%s (try 'varia match --help')\n", w, err[0] ? ": " : "",
                    err);
            return 2;
        }
    }
    MatchResult res;
    return match_run(&cfg, &res, stdout, stderr) ? 0 : 1;
}

/* tune FILE [--games N] [--depth D] [--seed N] [--verbose] [out=PATH] [passes=N] [open=N] */
static int cmd_tune(const Args *a) {
    TuneConfig cfg = {0};
    cfg.rules = a->file;
    cfg.options = a->options;
    cfg.noptions = a->noptions;
    cfg.games = a->games > 0 ? a->games : 40;
    cfg.depth = a->depth > 0 ? a->depth : 3;
    cfg.seed = (uint64_t)a->seed;
    cfg.verbose = a->verbose;
    cfg.passes = 10;
    cfg.open_plies = 8;
    if (a->seconds >= 0) {
        fprintf(stderr, "varia: tune: the games are played to a depth (--depth), not on a clock\n");
        return 2;
    }
    for (int i = 0; i < a->npositional; i++) {
        const char *w = a->positional[i], *eq = strchr(w, '=');
        bool ok = eq != NULL;
        if (ok && !strncmp(w, "out=", 4))
            cfg.out = eq + 1;
        else if (ok && (!strncmp(w, "passes=", 7) || !strncmp(w, "open=", 5))) {
            char *end;
            long n = strtol(eq + 1, &end, 10);
            ok = end != eq + 1 && !*end && n >= 0 && n <= 1000;
            *(w[0] == 'p' ? &cfg.passes : &cfg.open_plies) = (int)n;
        } else
            ok = false;
        if (!ok || (cfg.out && !*cfg.out)) {
            fprintf(stderr, "varia: tune: bad setting '%s' (try 'varia tune --help')\n", w);
            return 2;
        }
    }
    return tune_run(&cfg, stdout, stderr);
}

static int cmd_help(const Args *a);

static const Command commands[] = {
    {"help", "help [COMMAND]", "Lists the commands, or explains one.", cmd_help, true, false, 1},
    {"play",
     "play [FILE] [--white human|ai] [--black human|ai] [--seat N=human|ai] [--time S] [--depth D]\n"
     "       [--option NAME=VALUE]... [--seed N] [--fen POS] [--load GAME] [--ascii] [--flip] [--compact]",
     "Plays a game in the console against people or the computer (also greedy and random seats).\n"
     "FILE is a rule file or the name of a shipped game; with none, the shipped games are offered\n"
     "(chess by default). Player 1 is human and the others are the computer unless seats say\n"
     "otherwise. --time is the computer's time per move (default 1 s; none when only --depth\n"
     "is given). --load replays a saved game or a PGN file (which names its game); --fen starts\n"
     "from a position; --compact prints the board only on request. Type 'help' in the game for\n"
     "its commands; see docs/playing.md.",
     cmd_play, true, true, 0},
    {"check", "check FILE [--option NAME=VALUE]...",
     "Parses, checks, compiles and verifies a rule file. Prints every diagnostic and exits 1 on\n"
     "error; prints a one-line summary and exits 0 on success.",
     cmd_check, false, true, 0},
    {"describe", "describe FILE [--svg DIR] [--html FILE] [--ascii] [--option NAME=VALUE]...",
     "Prints the game's rulebook, made from the rule file alone: boards, players and turns, each\n"
     "piece's moves in words with a move diagram (found by running the move generator), special\n"
     "rules and every way the game ends. --svg DIR writes start.svg and one picture per piece\n"
     "(piece-NAME.svg, piece-NAME-example.svg); --html FILE writes one page with text and pictures.",
     cmd_describe, false, true, 0},
    {"ast", "ast FILE", "Prints the syntax tree of a rule file (one node per line).", cmd_ast, false, true, 0},
    {"disasm", "disasm FILE [--option NAME=VALUE]...",
     "Prints the bytecode of every piece program, for every player, with the rule-file line of\n"
     "each instruction, and the rays the fast generator uses.",
     cmd_disasm, false, true, 0},
    {"perft",
     "perft FILE DEPTH [--fen POS | --fen -] [--seed N] [--divide] [--general] [--option NAME=VALUE]...\n"
     "       varia perft FILE --epd SUITE [--max-nodes N [--deep]] [--verbose] [--general] [--option NAME=VALUE]...",
     "Counts the leaf nodes of the legal move tree to DEPTH and ends with 'Nodes searched: N'.\n"
     "--divide prints the count below each legal first move. --general turns off the fast\n"
     "ray tables (every move and attack test runs the programs) to cross-check them.\n"
     "--fen - reads one position per line of standard input and answers each in turn.\n"
     "--epd SUITE checks a perft suite: lines 'POSITION ;D1 COUNT ;D2 COUNT ...' (SUITE '-':\n"
     "standard input), each wrong count named by its line; --max-nodes N checks only the\n"
     "figures of at most N leaves not marked 'deep' (a word after the count), --deep only the\n"
     "others; --verbose lists every figure checked.",
     cmd_perft, false, true, 1},
    {"moves", "moves FILE [--fen POS | --fen -] [--diagram] [--after] [--seed N] [--option NAME=VALUE]...",
     "Prints every legal move of the position, one per line, in coordinate notation. --fen -\n"
     "reads positions from standard input, one a line, and prints each one's moves followed by\n"
     "an empty line. --diagram lists the moves as the rulebook's diagrams (varia describe) show\n"
     "them: each piece's moves as its rules make them, without the rule that a royal piece may\n"
     "not be left attacked, whatever the position's endings say. --after writes after each move\n"
     "the position it leads to.",
     cmd_moves, false, true, 0},
    {"fen", "fen FILE [--fen POS] [--moves M1,M2,...] [--seed N] [--option NAME=VALUE]...",
     "Prints the start position (or POS, normalised) in position text. Where the rule file\n"
     "shuffles the start ('shuffle'), --seed N picks the shuffle (default 1). --moves plays the\n"
     "moves first (coordinate or algebraic notation, separated by commas), each checked as a\n"
     "saved game's moves are.",
     cmd_fen, false, true, 0},
    {"random", "random FILE [count=N] [plies=N] [seed=N] [--fen POS]",
     "Plays N games of random legal moves (1..plies each, default 10 games of up to 40 plies)\n"
     "from the start (or POS) and prints the final position of each: test positions.",
     cmd_random, false, true, 3},
    {"trace", "trace FILE CELL|drop [--fen POS]",
     "Runs the program of the piece on CELL instruction by instruction and prints the moves it\n"
     "emits; with 'drop', the drop programs of the player to move.",
     cmd_trace, false, true, 1},
    {"serve", "serve [FILE] [--port N] [--host ADDR] [--time S] [--depth D] [--option NAME=VALUE]...",
     "Starts a web server and prints the address to open in a browser: a page that plays any\n"
     "shipped game, or FILE (offered first; chess by default), by clicking, against people or the\n"
     "computer. It listens on 127.0.0.1 (this machine only) port 8080 unless --host and --port say\n"
     "otherwise (--port 0: any free port). --time and --depth are the computer's in new games\n"
     "(default 1 s a move). Ctrl-C stops it. See docs/playing.md.",
     cmd_serve, true, true, 0},
    {"uci", "uci [FILE]",
     "Speaks the UCI engine protocol on standard input and output, for GUIs and match tools.\n"
     "Every shipped game of two players on one board without hidden information is offered as\n"
     "UCI_Variant (FILE, or chess, at start); the option RulesFile loads any rule file. See\n"
     "docs/engines.md.",
     cmd_uci, true, true, 0},
    {"xboard", "xboard [FILE...]",
     "Speaks the XBoard protocol (CECP version 2) on standard input and output. The same games as\n"
     "uci are offered as variants (chess as 'normal'), with the FILEs; games XBoard does not know\n"
     "are described to it. 'new' starts the first FILE, or chess. See docs/engines.md.",
     cmd_xboard, true, true, 4},
    {"bench",
     "bench [RULES-DIR] [--depth D]\n       bench --playouts [FILE...] [--time S | --games N] [--seed N] [--trace] "
     "[--option NAME=VALUE]...",
     "Searches a fixed list of positions to a fixed depth (default 5) and ends with\n"
     "'Nodes searched: N', the search's signature (tests/bench_signature).\n"
     "--playouts plays random legal moves from the start to the end of the game (or a ply cap\n"
     "the output states) in every shipped game, or the FILEs named, for S seconds of CPU time\n"
     "each (default 1) or N games each, and prints playouts per CPU second. Game i plays from\n"
     "seed N + i (default seed 1), so a fixed --games N repeats the same games; --trace prints\n"
     "each game's seed, plies, result and final position key.",
     cmd_bench, true, false, 4},
    {"selfplay",
     "selfplay FILE --games N [--time S | --depth D] [--white ENGINE] [--black ENGINE] [--seed N] [--verbose]",
     "Plays N games between two engines (ai, greedy = best capture else random, random) and\n"
     "prints the first engine's wins, draws and losses. The first engine (--white, default ai)\n"
     "takes each seat in turn; the second (--black, default greedy) plays the others.",
     cmd_selfplay, false, true, 0},
    {"match",
     "match FILE [--games N] [--time S | --depth D] [--seed N] [--verbose] [a=SETTINGS] [b=SETTINGS] [inc=S]\n"
     "       [sprt=ELO0,ELO1] [--option NAME=VALUE]...",
     "Plays N games (default 20) of the computer player with settings a (default: every search\n"
     "feature) against itself with settings b (default: classic, the plain search), in pairs from\n"
     "the same random opening (--seed) with the sides swapped, and prints a's wins, draws and\n"
     "losses, its Elo difference and the 95% error. --time S is each side's clock for the game\n"
     "(default 10), inc=S its increment per move; --depth D plays to a fixed depth instead.\n"
     "SETTINGS is a comma list: default, classic, null, lmr, aspiration, futility, see, stable,\n"
     "tuned, rfp, lmp, iir, history, qtable, terms, multi, early (-name turns one off), skill=N,\n"
     "threads=N, alphabeta, mcts. sprt=ELO0,ELO1 stops once a sequential test decides between\n"
     "the two Elo differences. See docs/strength.md.",
     cmd_match, false, true, 4},
    {"tune", "tune FILE [--games N] [--depth D] [--seed N] [--verbose] [out=PATH] [passes=N] [open=N]",
     "Learns the game's evaluation (Texel's method): plays N fast games of the computer against\n"
     "itself (default 40, to depth D, default 3, after open random plies, default 8), keeps their\n"
     "quiet positions with the games' results, and fits the weights the evaluation reads (piece\n"
     "values, each piece's mobility and piece-square weight from its reach, royal safety, pieces\n"
     "in hand) to predict the results. Prints them as the rule file's 'tuned' items, or writes\n"
     "out=PATH: the rule file with them in place of any it had. See docs/strength.md.",
     cmd_tune, false, true, 3},
};

static const Command *find_command(const char *name) {
    for (size_t i = 0; i < ARRAY_LEN(commands); i++)
        if (!strcmp(commands[i].name, name)) return &commands[i];
    return NULL;
}

static void print_main_help(FILE *out) {
    fprintf(out,
            "Varia - play and test board games described in rule files.\n\nusage: varia COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < ARRAY_LEN(commands); i++) fprintf(out, "  %s\n", commands[i].usage);
    fprintf(out, "\n'varia COMMAND --help' explains one command.\n");
}

static int cmd_help(const Args *a) {
    if (a->npositional > 0 || a->file) {
        const Command *c = find_command(a->file ? a->file : a->positional[0]);
        if (!c) {
            fprintf(stderr, "varia: unknown command '%s'\n", a->file ? a->file : a->positional[0]);
            return 2;
        }
        print_usage(c, stdout);
        return 0;
    }
    print_main_help(stdout);
    return 0;
}

/* The flags of play, bench and selfplay. Returns 1 when argv[*i] was one (consumed, with its
 * value), 0 when it is not, 2 on a bad value (message printed). */
static int parse_play_flag(Args *a, int argc, char **argv, int *i) {
    const char *s = argv[*i];
    static const char *const with_value[] = {"--white", "--black", "--seat", "--time",
                                             "--depth", "--seed",  "--load", "--games"};
    if (!strcmp(s, "--ascii")) return a->ascii = true, 1;
    if (!strcmp(s, "--flip")) return a->flip = true, 1;
    if (!strcmp(s, "--compact")) return a->compact = true, 1;
    if (!strcmp(s, "--verbose")) return a->verbose = true, 1;
    bool known = false;
    for (size_t k = 0; k < ARRAY_LEN(with_value); k++)
        if (!strcmp(s, with_value[k])) known = true;
    if (!known) return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "varia: %s needs a value\n", s);
        return 2;
    }
    const char *val = argv[++*i];
    char *end;
    if (!strcmp(s, "--white") || !strcmp(s, "--black")) {
        int kind = ui_seat_kind(val);
        if (kind < 0) {
            fprintf(stderr, "varia: %s takes human, ai, greedy or random, not '%s'\n", s, val);
            return 2;
        }
        a->seats[s[2] == 'w' ? 0 : 1] = kind;
        if (s[2] == 'w')
            a->white = val;
        else
            a->black = val;
    } else if (!strcmp(s, "--seat")) {
        const char *eq = strchr(val, '=');
        long n = eq ? strtol(val, &end, 10) : 0;
        int kind = eq ? ui_seat_kind(eq + 1) : -1;
        if (!eq || end != eq || end == val || kind < 0) {
            fprintf(stderr, "varia: --seat takes N=human|ai|greedy|random (N: a player's number), not '%s'\n", val);
            return 2;
        }
        if (n < 1 || n > MAX_PLAYERS)
            a->bad_seat = val; /* (the game says which seats it has) */
        else
            a->seats[n - 1] = kind;
    } else if (!strcmp(s, "--time")) {
        double d = strtod(val, &end);
        if (end == val || *end || signbit(d) || !(d >= 0 && d <= 86400)) {
            fprintf(stderr, "varia: bad --time '%s' (seconds, 0..86400)\n", val);
            return 2;
        }
        a->seconds = d;
    } else if (!strcmp(s, "--depth") || !strcmp(s, "--games")) {
        long n = strtol(val, &end, 10);
        long hi = s[2] == 'd' ? MAX_PLY - 8 : 100000;
        if (end == val || *end || n < 1 || n > hi) {
            fprintf(stderr, "varia: bad %s '%s' (1..%ld)\n", s, val, hi);
            return 2;
        }
        if (s[2] == 'd')
            a->depth = (int)n;
        else
            a->games = (int)n;
    } else if (!strcmp(s, "--seed")) {
        long long n = strtoll(val, &end, 10);
        if (end == val || *end || n < 0) {
            fprintf(stderr, "varia: bad --seed '%s' (a number >= 0)\n", val);
            return 2;
        }
        a->seed = n;
        a->seed_given = true;
    } else {
        a->load = val;
    }
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        print_main_help(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_main_help(stdout);
        return 0;
    }
    const Command *c = find_command(argv[1]);
    if (!c) {
        fprintf(stderr, "varia: unknown command '%s' (try 'varia help')\n", argv[1]);
        return 2;
    }
    Args a = {0};
    a.argv0 = argv[0];
    a.seconds = -1;
    a.seed = 1;
    a.port = -1;
    a.max_nodes = -1;
    for (int p = 0; p < MAX_PLAYERS; p++) a.seats[p] = -1;
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        int vr = parse_play_flag(&a, argc, argv, &i);
        if (vr == 2) return 2;
        if (vr == 1) continue;
        if (!strcmp(s, "--help") || !strcmp(s, "-h"))
            a.help = true;
        else if (!strcmp(s, "--divide"))
            a.divide = true;
        else if (!strcmp(s, "--deep") && c->run == cmd_perft)
            a.deep = true;
        else if ((!strcmp(s, "--epd") || !strcmp(s, "--max-nodes")) && c->run == cmd_perft) {
            if (i + 1 >= argc) {
                fprintf(stderr, "varia: %s needs a value\n", s);
                return 2;
            }
            const char *val = argv[++i];
            char *end;
            errno = 0;
            long long n = strtoll(val, &end, 10);
            if (s[2] == 'e')
                a.epd = val;
            else if (end == val || *end || errno || n < 0) {
                fprintf(stderr, "varia: bad --max-nodes '%s' (a count of leaves, 0 or more)\n", val);
                return 2;
            } else
                a.max_nodes = n;
        } else if (!strcmp(s, "--general"))
            a.general = true;
        else if (!strcmp(s, "--playouts") && c->run == cmd_bench)
            a.playouts = true;
        else if (!strcmp(s, "--trace") && c->run == cmd_bench)
            a.trace = true;
        else if (!strcmp(s, "--diagram") && c->run == cmd_moves)
            a.diagram = true;
        else if (!strcmp(s, "--after") && c->run == cmd_moves)
            a.after = true;
        else if ((!strcmp(s, "--port") || !strcmp(s, "--host")) && c->run == cmd_serve) {
            if (i + 1 >= argc) {
                fprintf(stderr, "varia: %s needs a value\n", s);
                return 2;
            }
            const char *val = argv[++i];
            char *end;
            long n = strtol(val, &end, 10);
            if (s[2] == 'h')
                a.host = val;
            else if (end == val || *end || n < 0 || n > 65535) {
                fprintf(stderr, "varia: bad --port '%s' (0 to 65535; 0 = any free port)\n", val);
                return 2;
            } else
                a.port = (int)n;
        } else if (!strcmp(s, "--moves") && c->run == cmd_fen) {
            if (i + 1 >= argc) {
                fprintf(stderr, "varia: %s needs a value\n", s);
                return 2;
            }
            a.moves = argv[++i];
        } else if (!strcmp(s, "--svg") || !strcmp(s, "--html")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "varia: %s needs a value\n", s);
                return 2;
            }
            if (s[2] == 's')
                a.svg_dir = argv[++i];
            else
                a.html_path = argv[++i];
        } else if (!strcmp(s, "--variant")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "varia: %s needs a value\n", s);
                return 2;
            }
            if (a.variant || a.noptions >= MAX_OPTIONS) {
                fprintf(stderr, "varia: --variant given twice, or too many --option settings\n");
                return 2;
            }
            a.variant = argv[++i];
            a.options[a.noptions].name = xstrdup(ZRF_VARIANT_SETTING);
            a.options[a.noptions].value = a.variant;
            a.noptions++;
        } else if (!strcmp(s, "--fen") || !strcmp(s, "--option")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "varia: %s needs a value\n", s);
                return 2;
            }
            const char *val = argv[++i];
            if (s[2] == 'f')
                a.fen = val;
            else {
                const char *eq = strchr(val, '=');
                if (!eq || eq == val) {
                    fprintf(stderr, "varia: --option takes NAME=VALUE, not '%s'\n", val);
                    return 2;
                }
                if (a.noptions >= MAX_OPTIONS) {
                    fprintf(stderr, "varia: too many --option settings (limit is %d)\n", MAX_OPTIONS);
                    return 2;
                }
                char *name = xstrndup(val, (size_t)(eq - val));
                a.options[a.noptions].name = name;
                a.options[a.noptions].value = eq + 1;
                a.noptions++;
            }
        } else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "varia: unknown flag '%s' (try 'varia %s --help')\n", s, c->name);
            return 2;
        } else if (!a.file)
            a.file = s;
        else if (a.npositional < 4)
            a.positional[a.npositional++] = s;
        else {
            fprintf(stderr, "varia: too many arguments\n");
            return 2;
        }
    }
    if (a.help) {
        print_usage(c, stdout);
        return 0;
    }
    if (!a.file && !c->file_optional) {
        print_usage(c, stderr);
        return 2;
    }
    if (a.bad_seat && c->run != cmd_play) {
        fprintf(stderr, "varia: --seat %.*s: seats are numbered from 1 to %d at most\n", (int)strcspn(a.bad_seat, "="),
                a.bad_seat, MAX_PLAYERS);
        return 2;
    }
    if (a.npositional > c->max_args) {
        fprintf(stderr, "varia: %s: unexpected argument '%s' (try 'varia %s --help')\n", c->name,
                a.positional[c->max_args], c->name);
        return 2;
    }
    char rules[1400];
    if (a.file && c->names_rules) a.file = resolve_rules(&a, rules, sizeof rules);
    if (a.variant && a.file && c->names_rules) {
        Source *src = source_load(a.file, NULL);
        bool zrf = src && zrf_detect(src);
        source_free(src);
        if (src && !zrf) {
            fprintf(stderr, "varia: --variant chooses among the games of a Zillions file (.zrf); '%s' is not one\n",
                    a.file);
            return 2;
        }
    }
    int rc = c->run(&a);
    for (int i = 0; i < a.noptions; i++) free((char *)a.options[i].name);
    return rc;
}
