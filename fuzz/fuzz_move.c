/* fuzz_move.c - the move-text reader (coordinate and algebraic notation) of each shipped rule
 * file. Input: a byte that picks the rule file and its options (fuzz.h), a byte that says how
 * many plies to play from the start position, one byte per ply choosing the move, then the
 * typed text. A text that names exactly one move is played and the position checked. */
#include "fuzz.h"

#define FUZZ_MOVE_MAX 512 /* bytes of typed text: the reader looks at 95 */
#define FUZZ_MOVE_PLIES 16

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_load_shipped();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2 || size > FUZZ_MOVE_MAX) return 0;
    const Variant *v = fuzz_shipped[data[0] % FUZZ_SHIPPED];
    int plies = data[1] % FUZZ_MOVE_PLIES;
    if (size < 2 + (size_t)plies) return 0;
    const uint8_t *choice = data + 2;
    char *text = fuzz_string(data + 2 + plies, size - 2 - (size_t)plies);
    Position *pos = malloc(sizeof *pos);
    MoveList *ml = malloc(sizeof *ml);
    GenContext *ctx = malloc(sizeof *ctx);
    if (!pos || !ml || !ctx) abort();
    genctx_init(ctx);
    board_init(pos, v);
    char err[200];
    FUZZ_CHECK(fen_read(pos, v->setup, err, sizeof err), "the setup reads");
    fuzz_play(pos, choice, plies);
    VmFault f = {0};
    movegen_legal(ctx, pos, ml, &f);
    uint64_t key = pos->key;
    int found[4];
    int n = notation_parse(pos, ml, text, found, 4);
    FUZZ_CHECK(n >= 0 && n <= ml->count, "the number of matching moves");
    FUZZ_CHECK(pos->key == key, "reading a move leaves the position");
    for (int i = 0; i < n && i < 4; i++) FUZZ_CHECK(found[i] >= 0 && found[i] < ml->count, "a found move is listed");
    if (n == 1) {
        char buf[96];
        notation_san(ctx, pos, ml, &ml->moves[found[0]], buf, sizeof buf);
        FUZZ_CHECK(board_make(pos, &ml->moves[found[0]]), "a typed move is made");
        FUZZ_CHECK(board_is_ok(pos), "the board after a typed move");
        board_unmake(pos);
        FUZZ_CHECK(pos->key == key, "unmake restores the position");
    }
    int idx = notation_find(v, ml, text);
    FUZZ_CHECK(idx >= -2 && idx < ml->count, "notation_find's answer");
    free(ml);
    free(ctx);
    board_free(pos);
    free(pos);
    free(text);
    return 0;
}
