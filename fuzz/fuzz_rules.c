/* fuzz_rules.c - the rule-file front end: lexer, parser, checker, compiler and verifier on any
 * text, the diagnostics rendered with their source lines, and a variant that loads played:
 * its programs disassembled, its start position read and written back, every legal move made
 * and unmade, a few plies played, perft 2 when the board is small. Options are tried at their
 * default and once more with each option at its last value. Its rulebook is written (move
 * diagrams run the generator on constructed positions) and checked for likely mistakes. */
#include "fuzz.h"

#include "describe.h"
#include "disasm.h"
#include "source.h"

#define FUZZ_RULES_MAX 16384 /* bytes: a rule file larger than this says nothing new */

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
    return 0;
}

static void exercise(const Variant *v, const uint8_t *data, size_t size) {
    disasm_variant(v, devnull);
    DescribeStyle plain = {false, false};
    if (v->ncells <= 64) describe_text(v, &plain, devnull); /* (larger boards: the same code, slower) */
    DiagSink warnings;
    diag_init(&warnings);
    describe_warnings(v, NULL, &warnings);
    diag_free(&warnings);
    char start[8192], err[200];
    fen_start(v, size, start, sizeof start);
    Position *pos = malloc(sizeof *pos);
    if (!pos) abort();
    board_init(pos, v);
    bool ok = fen_read(pos, start, err, sizeof err);
    if (!ok) fprintf(stderr, "fuzz: the checked setup '%s' does not read: %s\n", start, err);
    FUZZ_CHECK(ok, "a loaded variant's start position reads");
    fuzz_check_fen_round_trip(pos);
    fuzz_exercise_position(pos, true);
    /* a short game whose moves the input's last bytes choose */
    uint8_t choice[6] = {0};
    for (size_t i = 0; i < sizeof choice && i < size; i++) choice[i] = data[size - 1 - i];
    fuzz_play(pos, choice, (int)sizeof choice);
    fuzz_check_fen_round_trip(pos);
    fuzz_exercise_position(pos, false);
    board_free(pos);
    free(pos);
}

static Variant *load(const Source *src, const OptionSetting *settings, int n) {
    DiagSink sink;
    diag_init(&sink);
    Variant *v = load_source(src, settings, n, &sink);
    char *text = diag_to_string(&sink);
    FUZZ_CHECK(v || sink.errors > 0, "a rule file that does not load has an error");
    FUZZ_CHECK(!v || sink.errors == 0, "a rule file with errors does not load");
    free(text);
    diag_free(&sink);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > FUZZ_RULES_MAX) return 0;
    char *text = fuzz_string(data, size);
    Source *src = source_from_string("fuzz.rules", text);
    Variant *v = load(src, NULL, 0);
    if (v) {
        exercise(v, data, size);
        if (v->noptions > 0) {
            OptionSetting set[MAX_OPTIONS];
            int n = 0;
            for (int i = 0; i < v->noptions; i++)
                set[n++] = (OptionSetting){v->options[i].name, v->options[i].values[v->options[i].nvalues - 1]};
            /* (items under another option value are checked only when chosen: w may be NULL) */
            Variant *w = load(src, set, n);
            if (w) exercise(w, data, size);
            variant_free(w);
        }
        variant_free(v);
    }
    source_free(src);
    free(text);
    return 0;
}
