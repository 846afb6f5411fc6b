/* fuzz_pgn.c - the PGN reader: any bytes written to a file, read (pgn_read) and replayed on
 * the shipped rule file its Variant or Rules tag names (chess otherwise) with its options. A
 * game that replays is written as PGN again, read again and replayed again: it must come back
 * as the same position after the same number of moves (every move's text reads back as it). */
#include "fuzz.h"

#include "pgn.h"

#define FUZZ_PGN_MAX 8192 /* bytes: some hundreds of moves */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_load_shipped();
    fuzz_make_files("pgn", "pgn");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > FUZZ_PGN_MAX) return 0;
    fuzz_write_file(fuzz_in_path, data, size);
    SavedGame g;
    char err[600];
    if (!pgn_read(fuzz_in_path, "rules", &g, err, sizeof err)) {
        FUZZ_CHECK(strncmp(err, fuzz_in_path, strlen(fuzz_in_path)) == 0, "a read error names the file");
        return 0;
    }
    int which;
    Variant *own;
    const Variant *v = fuzz_game_variant(&g, &which, &own);
    Move *moves = malloc(sizeof(Move) * MAX_HISTORY);
    if (!moves) abort();
    Position *pos = NULL;
    if (v) pgn_name_result(&g, v);
    if (v && fuzz_replay(&g, v, "in.pgn", &pos, moves, err, sizeof err)) {
        /* write it as the console does, then read it back */
        char start[8192];
        fuzz_start_text(&g, v, start, sizeof start);
        PgnGame pg = {.rules = fuzz_shipped_paths[which], .start = start, .moves = moves, .nmoves = pos->ply};
        bool wrote = pgn_write(fuzz_out_path, v, &pg, err, sizeof err);
        if (!wrote) fprintf(stderr, "fuzz: %s\n", err);
        FUZZ_CHECK(wrote, "a replayed game can be written");
        SavedGame back;
        bool read = pgn_read(fuzz_out_path, "rules", &back, err, sizeof err);
        if (!read) fprintf(stderr, "fuzz: %s\n", err);
        FUZZ_CHECK(read, "a written game reads back");
        Position *again = NULL;
        Move *moves2 = malloc(sizeof(Move) * MAX_HISTORY);
        if (!moves2) abort();
        bool replayed = fuzz_replay(&back, v, "in.pgn", &again, moves2, err, sizeof err);
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
