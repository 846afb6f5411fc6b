/* fuzz_fen.c - the position reader of each shipped rule file. The first byte picks the rule
 * file and its options (fuzz.h), the rest is position text. A text that reads must write back
 * to a text that reads as the same position; from it every legal move is made and unmade, the
 * moves' texts are read back, the end conditions are evaluated, a few plies are played and
 * perft 2 runs when the position has few moves. The input's first word is also tried as each
 * single field of the start position (check_one_field). */
#include "fuzz.h"

#define FUZZ_FEN_MAX 4200 /* bytes: just past the reader's own limit of 4096 */

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_load_shipped();
    return 0;
}

/* One field at a time: the start position's text with one of its fields (picked by the first
 * byte, past the rule file's pick) replaced by the input's first word. The other fields are
 * valid, so the reader's rules for that field are reached directly: whatever it accepts must
 * write back to a text that reads as the same position. */
static void check_one_field(const Variant *v, uint8_t pick, const char *text) {
    Position *pos = malloc(sizeof *pos);
    if (!pos) abort();
    board_init(pos, v);
    char start[8192], mixed[8192], err[200];
    if (!fen_read(pos, v->setup, err, sizeof err)) abort(); /* (every shipped setup reads) */
    fen_write(pos, start, sizeof start);
    int nfields = fen_count_fields(start), field = pick / FUZZ_SHIPPED % (nfields > 0 ? nfields : 1);
    size_t word = strcspn(text, " \t\n\r");
    size_t at = 0;
    const char *p = start;
    for (int k = 0; k < nfields && at < sizeof mixed - 1; k++) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, " ");
        const char *src = k == field ? text : p;
        size_t n = k == field ? word : len;
        if (k) mixed[at++] = ' ';
        if (n > sizeof mixed - 1 - at) n = sizeof mixed - 1 - at;
        memcpy(mixed + at, src, n);
        at += n;
        p += len;
    }
    mixed[at] = 0;
    if (fen_read(pos, mixed, err, sizeof err)) {
        FUZZ_CHECK(board_is_ok(pos), "the board read from text with one field changed");
        fuzz_check_fen_round_trip(pos);
    } else {
        FUZZ_CHECK(err[0] != 0, "a refused position says why");
    }
    board_free(pos);
    free(pos);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1 || size > FUZZ_FEN_MAX) return 0;
    const Variant *v = fuzz_shipped[data[0] % FUZZ_SHIPPED];
    char *text = fuzz_string(data + 1, size - 1);
    Position *pos = malloc(sizeof *pos);
    if (!pos) abort();
    board_init(pos, v);
    char err[200];
    if (fen_read(pos, text, err, sizeof err)) {
        FUZZ_CHECK(board_is_ok(pos), "the board read from text");
        fuzz_check_fen_round_trip(pos);
        fuzz_exercise_position(pos, true);
        uint8_t choice[4] = {0};
        for (size_t i = 0; i < sizeof choice && i < size; i++) choice[i] = data[size - 1 - i];
        if (fuzz_play(pos, choice, (int)sizeof choice) > 0) fuzz_check_fen_round_trip(pos);
    } else {
        FUZZ_CHECK(err[0] != 0, "a refused position says why");
    }
    board_free(pos);
    free(pos);
    check_one_field(v, data[0], text);
    free(text);
    return 0;
}
