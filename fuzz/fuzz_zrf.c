/* fuzz_zrf.c - the Zillions front end on any text: the reader (comments, strings, lists,
 * macros pasted as text, variants), the lowering into the syntax tree, and then the same
 * checker, compiler and verifier as a rule file. A game that loads is played as fuzz_rules
 * plays one (start position, every legal move made and unmade, a few plies, perft 2 on small
 * boards); the file's listing of games is written, and its second entry loaded too. */
#include "fuzz.h"

#include "disasm.h"
#include "source.h"
#include "zrf.h"

#define FUZZ_ZRF_MAX 16384 /* bytes: a file larger than this says nothing new */

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
    return 0;
}

static void play(const Variant *v, const uint8_t *data, size_t size) {
    disasm_variant(v, devnull);
    char start[8192], err[200];
    fen_start(v, size, start, sizeof start);
    Position *pos = malloc(sizeof *pos);
    if (!pos) abort();
    board_init(pos, v);
    bool ok = fen_read(pos, start, err, sizeof err);
    if (!ok) fprintf(stderr, "fuzz: the lowered setup '%s' does not read: %s\n", start, err);
    FUZZ_CHECK(ok, "a loaded game's start position reads");
    fuzz_check_fen_round_trip(pos);
    fuzz_exercise_position(pos, true);
    uint8_t choice[6] = {0};
    for (size_t i = 0; i < sizeof choice && i < size; i++) choice[i] = data[size - 1 - i];
    fuzz_play(pos, choice, (int)sizeof choice);
    fuzz_exercise_position(pos, false);
    board_free(pos);
    free(pos);
}

static Variant *load(const Source *src, const char *variant) {
    DiagSink sink;
    diag_init(&sink);
    OptionSetting set = {ZRF_VARIANT_SETTING, variant};
    Variant *v = load_source(src, &set, variant ? 1 : 0, &sink);
    char *text = diag_to_string(&sink); /* (renders every diagnostic with its source line) */
    FUZZ_CHECK(v || sink.errors > 0, "a file that does not load has an error");
    FUZZ_CHECK(!v || sink.errors == 0, "a file with errors does not load");
    free(text);
    diag_free(&sink);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > FUZZ_ZRF_MAX) return 0;
    char *text = fuzz_string(data, size);
    Source *src = source_from_string("fuzz.zrf", text);
    DiagSink sink;
    diag_init(&sink);
    zrf_list_variants(src, &sink, devnull);
    diag_free(&sink);
    const char *variants[] = {NULL, "2"};
    for (size_t i = 0; i < ARRAY_LEN(variants); i++) {
        Variant *v = load(src, variants[i]);
        if (v) play(v, data, size);
        variant_free(v);
    }
    source_free(src);
    free(text);
    return 0;
}
