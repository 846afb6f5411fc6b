/* fuzz_save.c - the saved-game reader: any bytes written to a file, read and checked
 * (savegame_read, which also refuses NUL bytes, and savegame_parse on the same text must
 * agree), then replayed on the shipped rule file the 'rules' line names (chess otherwise) with
 * the file's options. A game that replays is saved again, read again and replayed again: it
 * must come back as the same position after the same number of moves (no game is lost). */
#include "fuzz.h"

#include "savegame.h"

#define FUZZ_SAVE_MAX 8192 /* bytes: some hundreds of moves */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_load_shipped();
    fuzz_make_files("save", "game");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > FUZZ_SAVE_MAX) return 0;
    fuzz_write_file(fuzz_in_path, data, size);
    SavedGame g;
    char err[600];
    bool ok = savegame_read(fuzz_in_path, &g, err, sizeof err);
    char *text = fuzz_string(data, size);
    if (strlen(text) == size) {
        SavedGame g2;
        char err2[600];
        bool ok2 = savegame_parse(fuzz_in_path, text, &g2, err2, sizeof err2);
        FUZZ_CHECK(ok == ok2, "reading the file and parsing its text agree");
        if (ok2)
            savegame_free(&g2);
        else
            FUZZ_CHECK(!strcmp(err, err2), "reading the file and parsing its text give the same message");
    }
    free(text);
    if (!ok) {
        FUZZ_CHECK(strncmp(err, fuzz_in_path, strlen(fuzz_in_path)) == 0, "a read error names the file");
        return 0;
    }
    int which;
    Variant *own;
    const Variant *v = fuzz_game_variant(&g, &which, &own);
    Move *moves = malloc(sizeof(Move) * MAX_HISTORY);
    if (!moves) abort();
    Position *pos = NULL;
    bool replayed_in = v && fuzz_replay(&g, v, "in.game", &pos, moves, err, sizeof err);
    if (v && !replayed_in) FUZZ_CHECK(strstr(err, "in.game:") == err, "a replay error names the file and line");
    if (replayed_in) {
        /* save it as the console does, then load it back */
        char start[8192];
        fuzz_start_text(&g, v, start, sizeof start);
        bool wrote = savegame_write(fuzz_out_path, g.rules, v, start, moves, pos->ply, g.result_winner, g.result_reason,
                                    err, sizeof err);
        if (!wrote) fprintf(stderr, "fuzz: %s\n", err);
        FUZZ_CHECK(wrote, "a replayed game can be saved");
        SavedGame back;
        bool read = savegame_read(fuzz_out_path, &back, err, sizeof err);
        if (!read) fprintf(stderr, "fuzz: %s\n", err);
        FUZZ_CHECK(read, "a saved game reads back");
        Position *again = NULL;
        Move *moves2 = malloc(sizeof(Move) * MAX_HISTORY);
        if (!moves2) abort();
        bool replayed = fuzz_replay(&back, v, "in.game", &again, moves2, err, sizeof err);
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
