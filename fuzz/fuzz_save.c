/* fuzz_save.c - the saved-game reader: any bytes written to a file, read and checked
 * (savegame_read, which also refuses NUL bytes, and savegame_parse on the same text must
 * agree), then replayed on the shipped rule file the 'rules' line names (chess otherwise) with
 * the file's options. A game that replays is saved again, read again and replayed again: it
 * must come back as the same position after the same number of moves (no game is lost). */
#include "fuzz.h"

#include <unistd.h>

#include "savegame.h"

#define FUZZ_SAVE_MAX 8192 /* bytes: some hundreds of moves */

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
    snprintf(dir, sizeof dir, "/tmp/varia-fuzz-save-XXXXXX");
    if (!mkdtemp(dir)) abort();
    snprintf(in_path, sizeof in_path, "%s/in.game", dir);
    snprintf(out_path, sizeof out_path, "%s/out.game", dir);
    atexit(cleanup);
    return 0;
}

/* The shipped rule file whose name the save's 'rules' line contains; chess otherwise. */
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
    if (savegame_replay(g, "in.game", pos, moves, MAX_HISTORY, err, cap)) {
        *pos_out = pos;
        return true;
    }
    FUZZ_CHECK(strstr(err, "in.game:") == err, "a replay error names the file and line");
    board_free(pos);
    free(pos);
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > FUZZ_SAVE_MAX) return 0;
    write_file(in_path, data, size);
    SavedGame g;
    char err[600];
    bool ok = savegame_read(in_path, &g, err, sizeof err);
    char *text = fuzz_string(data, size);
    if (strlen(text) == size) {
        SavedGame g2;
        char err2[600];
        bool ok2 = savegame_parse(in_path, text, &g2, err2, sizeof err2);
        FUZZ_CHECK(ok == ok2, "reading the file and parsing its text agree");
        if (ok2) savegame_free(&g2);
        else FUZZ_CHECK(!strcmp(err, err2), "reading the file and parsing its text give the same message");
    }
    free(text);
    if (!ok) {
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
    if (v && replay(&g, v, &pos, moves, err, sizeof err)) {
        /* save it as the console does, then load it back */
        char start[8192], ferr[200];
        Position *st = malloc(sizeof *st);
        if (!st) abort();
        board_init(st, v);
        FUZZ_CHECK(fen_read(st, g.start ? g.start : v->setup, ferr, sizeof ferr), "a replayed start reads");
        fen_write(st, start, sizeof start);
        board_free(st);
        free(st);
        bool wrote = savegame_write(out_path, g.rules, v, start, moves, pos->ply, g.result_winner, g.result_reason,
                                    err, sizeof err);
        if (!wrote) fprintf(stderr, "fuzz: %s\n", err);
        FUZZ_CHECK(wrote, "a replayed game can be saved");
        SavedGame back;
        bool read = savegame_read(out_path, &back, err, sizeof err);
        if (!read) fprintf(stderr, "fuzz: %s\n", err);
        FUZZ_CHECK(read, "a saved game reads back");
        Position *again = NULL;
        Move *moves2 = malloc(sizeof(Move) * MAX_HISTORY);
        if (!moves2) abort();
        bool replayed = replay(&back, v, &again, moves2, err, sizeof err);
        if (!replayed) fprintf(stderr, "fuzz: %s\n", err);
        FUZZ_CHECK(replayed, "a saved game replays");
        FUZZ_CHECK(again->key == pos->key && again->ply == pos->ply, "a saved game comes back as it was");
        FUZZ_CHECK((back.result_winner == NULL) == (g.result_winner == NULL), "the result is kept");
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
