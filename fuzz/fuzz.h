/* fuzz.h - shared by the fuzz targets: the libFuzzer entry points, the shipped rule files
 * loaded once, and the checks that turn a broken promise (a lost game, a position that does
 * not survive a round trip) into a crash the fuzzer reports.
 * The same targets build with gcc and link with fuzz/replay.c, which runs them over the
 * committed corpora (`make fuzz-replay`, part of `make test`). */
#ifndef VARIA_FUZZ_H
#define VARIA_FUZZ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "fen.h"
#include "load.h"
#include "gameend.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "savegame.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed check aborts: the fuzzer keeps the input, the replay fails the test. */
#define FUZZ_CHECK(cond, what) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "fuzz check failed at %s:%d: %s (%s)\n", __FILE__, __LINE__, #cond, (what)); \
            abort(); \
        } \
    } while (0)

/* Work per input stays small so that a slow but legitimate input is not taken for a hang. */
#define FUZZ_PERFT_CELLS 200 /* perft 2 only on boards up to this many cells ... */
#define FUZZ_PERFT_MOVES 48  /* ... and from positions with at most this many moves */

/* The input as a NUL-terminated string (an embedded NUL ends it, as it would in a file read
 * as text). The caller frees it. */
static inline char *fuzz_string(const uint8_t *data, size_t size) {
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* The shipped rule files, loaded once (the run starts in the repository root): each
 * with its default options, then the options that change the rules' machinery. An input's
 * first byte picks one (byte % FUZZ_SHIPPED). */
#define FUZZ_SHIPPED 13
#define FUZZ_RULE_FILES 6
static const char *const fuzz_shipped_paths[FUZZ_RULE_FILES] = {
    "rules/chess.rules",           "rules/ultima.rules",
    "rules/ultimate-battle.rules", "rules/ultimate-chess-4p.rules",
    "rules/above-below.rules",     "rules/ultra-chess.rules",
};
static const struct {
    int file;
    OptionSetting option;
} fuzz_shipped_options[FUZZ_SHIPPED] = {
    {0, {NULL, NULL}},
    {1, {NULL, NULL}},
    {2, {NULL, NULL}},
    {3, {NULL, NULL}},
    {4, {NULL, NULL}},
    {5, {NULL, NULL}},
    {1, {"chameleon-leaps", "alone"}},
    {2, {"king-step", "outward"}},
    {3, {"mode", "conquest"}},
    {3, {"mode", "devastation"}},
    {3, {"stalemate-rule", "pass-turn"}},
    {4, {"allegiance", "above-black"}},
    {4, {"commander", "exactly-two"}},
};
static Variant *fuzz_shipped[FUZZ_SHIPPED];

static inline void fuzz_load_shipped(void) {
    for (int i = 0; i < FUZZ_SHIPPED; i++) {
        DiagSink sink;
        diag_init(&sink);
        const char *path = fuzz_shipped_paths[fuzz_shipped_options[i].file];
        const OptionSetting *opt = &fuzz_shipped_options[i].option;
        fuzz_shipped[i] = load_file(path, opt->name ? opt : NULL, opt->name ? 1 : 0, &sink);
        diag_free(&sink);
        if (!fuzz_shipped[i]) {
            fprintf(stderr, "fuzz: cannot load %s %s (run from the repository root)\n", path,
                    opt->name ? opt->name : "");
            exit(1);
        }
    }
}

/* Position text must survive writing and reading back: same key, same text. */
static inline void fuzz_check_fen_round_trip(const Position *pos) {
    char a[8192], b[8192], err[200];
    fen_write(pos, a, sizeof a);
    Position *p2 = malloc(sizeof *p2);
    if (!p2) abort();
    board_init(p2, pos->v);
    bool ok = fen_read(p2, a, err, sizeof err);
    if (!ok) fprintf(stderr, "fuzz: written position '%s' does not read back: %s\n", a, err);
    FUZZ_CHECK(ok, "fen_write output is readable");
    fen_write(p2, b, sizeof b);
    if (strcmp(a, b) != 0) fprintf(stderr, "fuzz: '%s' reads back as '%s'\n", a, b);
    FUZZ_CHECK(strcmp(a, b) == 0, "position text is stable");
    /* Who is out and who moves their armies is in the field 'out' (a game of more than two
     * players has it unless its rule file lists other fields); without it, past a defeat only
     * the cells and the turn must match. */
    bool defeats = pos->alive != (1u << pos->v->nplayers) - 1, out_field = false;
    for (int o = 0; o < pos->v->nowners; o++) defeats |= pos->controller[o] != o;
    for (int i = 0; i < pos->v->nfen_fields; i++) out_field |= pos->v->fen_fields[i] == FEN_OUT;
    if (defeats && !out_field) {
        for (int c = 0; c < pos->v->ncells; c++)
            FUZZ_CHECK(PIECE_KIND(p2->cell[c]) == PIECE_KIND(pos->cell[c]), "position text keeps the board");
        FUZZ_CHECK(board_mover(p2) == board_mover(pos), "position text keeps the player to move");
    } else {
        if (p2->key != pos->key) fprintf(stderr, "fuzz: '%s' reads back as another position\n", a);
        FUZZ_CHECK(p2->key == pos->key, "position text keeps the position");
    }
    board_free(p2);
    free(p2);
}

/* Every legal move: make, check the board, unmake, and find the position as it was; the
 * move's coordinate and algebraic texts must name it again. Then end conditions, and perft 2
 * when that stays cheap. */
static inline void fuzz_exercise_position(Position *pos, bool texts) {
    MoveList *ml = malloc(sizeof *ml);
    GenContext *ctx = malloc(sizeof *ctx);
    if (!ml || !ctx) abort();
    genctx_init(ctx);
    VmFault f = {0};
    movegen_legal(ctx, pos, ml, &f);
    uint64_t key = pos->key;
    int ply = pos->ply;
    for (int i = 0; i < ml->count && !f.set; i++) {
        if (texts) {
            char buf[96];
            int found[8];
            notation_move(pos->v, &ml->moves[i], buf, sizeof buf);
            int n = notation_parse(pos, ml, buf, found, 8);
            FUZZ_CHECK(n >= 1, "a move's coordinate text names a move");
            notation_san(ctx, pos, ml, &ml->moves[i], buf, sizeof buf);
            FUZZ_CHECK(pos->key == key && pos->ply == ply, "notation_san restores the position");
            n = notation_parse(pos, ml, buf, found, 8);
            bool self = false;
            for (int k = 0; k < n && k < 8; k++) self |= found[k] == i;
            if (!self && n <= 8) fprintf(stderr, "fuzz: algebraic text '%s' does not name its move\n", buf);
            FUZZ_CHECK(self || n > 8, "a move's algebraic text names it");
        }
        if (!board_make(pos, &ml->moves[i])) break;
        FUZZ_CHECK(board_is_ok(pos), "the board after make");
        board_unmake(pos);
        FUZZ_CHECK(pos->key == key && pos->ply == ply && board_is_ok(pos), "unmake restores the position");
    }
    GameResult r;
    gameend_check(ctx, pos, &r);
    if (!f.set && ml->count <= FUZZ_PERFT_MOVES && pos->v->ncells <= FUZZ_PERFT_CELLS) {
        VmFault f2 = {0};
        perft(ctx, pos, 2, &f2);
        FUZZ_CHECK(pos->key == key && pos->ply == ply, "perft restores the position");
    }
    free(ml);
    free(ctx);
}

/* Plays up to `plies` legal moves chosen by the bytes of choice (then settles defeats, as the
 * console does), checking the position text after each. Returns the number of moves made. */
static inline int fuzz_play(Position *pos, const uint8_t *choice, int plies) {
    MoveList *ml = malloc(sizeof *ml);
    GenContext *ctx = malloc(sizeof *ctx);
    if (!ml || !ctx) abort();
    genctx_init(ctx);
    int made = 0;
    for (int i = 0; i < plies; i++) {
        VmFault f = {0};
        movegen_legal(ctx, pos, ml, &f);
        Move pass;
        if (f.set) break;
        if (ml->count == 0) {
            if (!movegen_stalemate_pass(ctx, pos, &pass)) break;
            ml->moves[0] = pass;
            ml->count = 1;
        }
        if (!board_make(pos, &ml->moves[choice[i] % ml->count])) break;
        made++;
        GameResult r;
        Move defeats[MAX_PLAYERS];
        gameend_settle(ctx, pos, &r, defeats, MAX_PLAYERS, NULL, NULL);
        FUZZ_CHECK(board_is_ok(pos), "the board after a move and its defeats");
        fuzz_check_fen_round_trip(pos);
        if (r.over) break;
    }
    free(ml);
    free(ctx);
    return made;
}

/* A rules directory holding a few shipped games (links into rules/), for the protocol
 * targets: a session scans its directory at start, and the whole library per input would
 * leave little time for the commands. Made once, removed at exit. */
static char fuzz_rules_dir[64];
static const char *const fuzz_protocol_games[] = {"chess", "ultima", "ultimate-battle", "xiangqi", "capablanca"};
static inline void fuzz_remove_rules_dir(void) {
    char path[128];
    for (size_t i = 0; i < sizeof fuzz_protocol_games / sizeof fuzz_protocol_games[0]; i++) {
        snprintf(path, sizeof path, "%s/%s.rules", fuzz_rules_dir, fuzz_protocol_games[i]);
        remove(path);
    }
    rmdir(fuzz_rules_dir);
}
static inline const char *fuzz_protocol_rules_dir(void) {
    if (fuzz_rules_dir[0]) return fuzz_rules_dir;
    snprintf(fuzz_rules_dir, sizeof fuzz_rules_dir, "/tmp/varia-fuzz-rules-XXXXXX");
    if (!mkdtemp(fuzz_rules_dir)) abort();
    char cwd[1024], from[1200], to[128];
    if (!getcwd(cwd, sizeof cwd)) abort();
    for (size_t i = 0; i < sizeof fuzz_protocol_games / sizeof fuzz_protocol_games[0]; i++) {
        snprintf(from, sizeof from, "%s/rules/%s.rules", cwd, fuzz_protocol_games[i]);
        snprintf(to, sizeof to, "%s/%s.rules", fuzz_rules_dir, fuzz_protocol_games[i]);
        if (symlink(from, to) != 0) abort();
    }
    atexit(fuzz_remove_rules_dir);
    return fuzz_rules_dir;
}

/* Games written to a file and read back (fuzz_save, fuzz_pgn): a private folder holds the
 * input as a file and what the target writes out. */
static char fuzz_dir[64], fuzz_in_path[96], fuzz_out_path[96];
static inline void fuzz_remove_files(void) {
    remove(fuzz_in_path);
    remove(fuzz_out_path);
    rmdir(fuzz_dir);
}
static inline void fuzz_make_files(const char *what, const char *ext) {
    snprintf(fuzz_dir, sizeof fuzz_dir, "/tmp/varia-fuzz-%s-XXXXXX", what);
    if (!mkdtemp(fuzz_dir)) abort();
    snprintf(fuzz_in_path, sizeof fuzz_in_path, "%s/in.%s", fuzz_dir, ext);
    snprintf(fuzz_out_path, sizeof fuzz_out_path, "%s/out.%s", fuzz_dir, ext);
    atexit(fuzz_remove_files);
}
static inline void fuzz_write_file(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(data, 1, size, f) != size) abort();
    if (fclose(f) != 0) abort();
}

/* The shipped rule file whose name a game's rule file path contains; chess otherwise. */
static inline int fuzz_pick_shipped(const char *rules) {
    if (strstr(rules, "ultra-chess")) return 5;
    if (strstr(rules, "above-below")) return 4;
    if (strstr(rules, "ultimate-chess-4p")) return 3;
    if (strstr(rules, "ultimate-battle")) return 2;
    if (strstr(rules, "ultima")) return 1;
    return 0;
}

/* Replays g on v (errors named after `name`); on success the caller owns *pos_out
 * (board_free + free). */
static inline bool fuzz_replay(const SavedGame *g, const Variant *v, const char *name, Position **pos_out, Move *moves,
                               char *err, size_t cap) {
    Position *pos = malloc(sizeof *pos);
    if (!pos) abort();
    board_init(pos, v);
    if (savegame_replay(g, name, pos, moves, MAX_HISTORY, err, cap)) {
        *pos_out = pos;
        return true;
    }
    board_free(pos);
    free(pos);
    return false;
}

/* The shipped rule file game g names (*which), loaded again with g's options when it has some
 * (*own then holds it, for variant_free; NULL when they do not load). */
static inline const Variant *fuzz_game_variant(const SavedGame *g, int *which, Variant **own) {
    *which = fuzz_pick_shipped(g->rules);
    *own = NULL;
    if (g->noptions == 0) return fuzz_shipped[*which];
    OptionSetting opts[MAX_OPTIONS];
    for (int i = 0; i < g->noptions; i++) opts[i] = (OptionSetting){g->option_name[i], g->option_value[i]};
    DiagSink sink;
    diag_init(&sink);
    *own = load_file(fuzz_shipped_paths[*which], opts, g->noptions, &sink);
    diag_free(&sink);
    return *own;
}

/* g's start position as the console writes it again. */
static inline void fuzz_start_text(const SavedGame *g, const Variant *v, char *buf, size_t cap) {
    char err[200];
    Position *st = malloc(sizeof *st);
    if (!st) abort();
    board_init(st, v);
    FUZZ_CHECK(fen_read(st, g->start ? g->start : v->setup, err, sizeof err), "a replayed start reads");
    fen_write(st, buf, cap);
    board_free(st);
    free(st);
}

#endif
