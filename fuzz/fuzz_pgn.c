/* fuzz_pgn.c - the PGN reader: any bytes written to a file, read (pgn_read) and replayed on
 * the shipped rule file its Variant or Rules tag names (chess otherwise) with its options. A
 * game that replays is written as PGN again, read again and replayed again: it must come back
 * as the same position after the same number of moves (every move's text reads back as it). */
#include "fuzz.h"

#include <unistd.h>

#include "pgn.h"

#define FUZZ_PGN_MAX 8192 /* bytes: some hundreds of moves */

static char dir[64], in_path[96], out_path[96];

static void cleanup(void) {
    remove(in_path);
    remove(out_path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_load_shipped();
    snprintf(dir, sizeof dir, "/tmp/varia-fuzz-pgn-XXXXXX");
    if (!mkdtemp(dir)) abort();
    snprintf(in_path, sizeof in_path, "%s/in.pgn", dir);
    snprintf(out_path, sizeof out_path, "%s/out.pgn", dir);
    atexit(cleanup);
    return 0;
}

/* The shipped rule file whose name the game's rule file path contains; chess otherwise. */
static int pick(const char *rules) {
    if (strstr(rules, "ultra-chess")) return 5;
    if (strstr(rules, "above-below")) return 4;
    if (strstr(rules, "ultimate-chess-4p")) return 3;
    if (strstr(rules, "ultimate-battle")) return 2;
    if (strstr(rules, "ultima")) return 1;
    return 0;
}

static void write_file(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) abort();
    if (size && fwrite(data, 1, size, f) != size) abort();
    if (fclose(f) != 0) abort();
}

/* Replays g on v; on success the caller owns *pos_out (board_free + free). */
static bool replay(const SavedGame *g, const Variant *v, Position **pos_out, Move *moves, char *err, size_t cap) {
    Position *pos = malloc(sizeof *pos);
    if (!pos) abort();
    board_init(pos, v);
    if (savegame_replay(g, "in.pgn", pos, moves, MAX_HISTORY, err, cap)) {
        *pos_out = pos;
        return true;
    }
    board_free(pos);
    free(pos);
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > FUZZ_PGN_MAX) return 0;
    write_file(in_path, data, size);
    SavedGame g;
    char err[600];
    if (!pgn_read(in_path, "rules", &g, err, sizeof err)) {
        FUZZ_CHECK(strncmp(err, in_path, strlen(in_path)) == 0, "a read error names the file");
        return 0;
    }
    int which = pick(g.rules);
    Variant *own = NULL;
    const Variant *v = fuzz_shipped[which];
    if (g.noptions > 0) {
        OptionSetting opts[MAX_OPTIONS];
        for (int i = 0; i < g.noptions; i++) opts[i] = (OptionSetting){g.option_name[i], g.option_value[i]};
        DiagSink sink;
        diag_init(&sink);
        own = load_file(fuzz_shipped_paths[which], opts, g.noptions, &sink);
        diag_free(&sink);
        v = own;
    }
    Move *moves = malloc(sizeof(Move) * MAX_HISTORY);
    if (!moves) abort();
    Position *pos = NULL;
    if (v) pgn_name_result(&g, v);
    if (v && replay(&g, v, &pos, moves, err, sizeof err)) {
        /* write it as the console does, then read it back */
        char start[8192], ferr[200];
        Position *st = malloc(sizeof *st);
        if (!st) abort();
        board_init(st, v);
        FUZZ_CHECK(fen_read(st, g.start ? g.start : v->setup, ferr, sizeof ferr), "a replayed start reads");
        fen_write(st, start, sizeof start);
        board_free(st);
        free(st);
        PgnGame pg = {.rules = fuzz_shipped_paths[which], .start = start, .moves = moves, .nmoves = pos->ply};
        bool wrote = pgn_write(out_path, v, &pg, err, sizeof err);
        if (!wrote) fprintf(stderr, "fuzz: %s\n", err);
        FUZZ_CHECK(wrote, "a replayed game can be written");
        SavedGame back;
        bool read = pgn_read(out_path, "rules", &back, err, sizeof err);
        if (!read) fprintf(stderr, "fuzz: %s\n", err);
        FUZZ_CHECK(read, "a written game reads back");
        Position *again = NULL;
        Move *moves2 = malloc(sizeof(Move) * MAX_HISTORY);
        if (!moves2) abort();
        bool replayed = replay(&back, v, &again, moves2, err, sizeof err);
        if (!replayed) fprintf(stderr, "fuzz: %s\n", err);
        FUZZ_CHECK(replayed, "a written game replays");
        FUZZ_CHECK(again->key == pos->key && again->ply == pos->ply, "a written game comes back as it was");
        board_free(again);
        free(again);
        free(moves2);
        savegame_free(&back);
        board_free(pos);
        free(pos);
    }
    free(moves);
    variant_free(own);
    savegame_free(&g);
    return 0;
}
