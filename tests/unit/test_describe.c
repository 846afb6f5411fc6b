/* test_describe.c - the rulebook's words and diagrams, found by running the move generator:
 * xiangqi's pieces whose moves are programs (palace, river, legs, screen, the flying general),
 * Ultimate Battle's lame pieces, a piece whose moves no rule explains (the words say so), the
 * captures away from the landing cell that coordinate notation cannot show (checked against the
 * generator cell by cell), the HTML page's text; the set-up and phase words; check's warnings. */
#include <unistd.h>

#include "describe.h"
#define SUPPORT_CHESS_FIXTURE
#include "support.h"

static int cell(const Variant *v, const char *name) {
    int c = variant_cell_by_name(v, name);
    assert_true(c >= 0);
    return c;
}

/* One piece's words and diagrams as the console prints them (plain text); the caller frees. */
static char *piece_text(const Variant *v, char letter) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    DescribeStyle plain = {false, false};
    describe_piece_text(v, variant_type_by_letter(v, letter), &plain, f);
    fclose(f);
    return text;
}

/* Does the text have a line that holds every one of the words (NULL-terminated)? */
static bool has_line(const char *text, const char *const *words) {
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char buf[2048];
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
        bool all = true;
        for (int i = 0; words[i] && all; i++) all = strstr(buf, words[i]) != NULL;
        if (all) return true;
        line = end ? end + 1 : NULL;
    }
    return false;
}

#define assert_line(text, ...) \
    do { \
        const char *const words_[] = {__VA_ARGS__, NULL}; \
        if (!has_line(text, words_)) fail_msg("no line with \"%s\"... in:\n%s", words_[0], text); \
    } while (0)

static void test_describe_chess_pieces(void **state) {
    (void)state;
    DescribeDiagram d[DESCRIBE_MAX_DIAGRAMS];
    int n = describe_piece_diagrams(chess, variant_type_by_letter(chess, 'N'), d, DESCRIBE_MAX_DIAGRAMS);
    assert_int_equal(n, 1);
    assert_int_equal(d[0].origin, cell(chess, "d4"));
    int marked = 0;
    for (int c = 0; c < chess->ncells; c++) marked += d[0].mark[c] == (DESCRIBE_MOVE | DESCRIBE_TAKE);
    assert_int_equal(marked, 8);
    assert_int_equal(d[0].mark[cell(chess, "e6")], DESCRIBE_MOVE | DESCRIBE_TAKE);
    assert_string_equal(d[0].fen, "8/8/8/8/3N4/8/8/8 w - - 0 1");
    char *text = piece_text(chess, 'N');
    assert_line(text, "moves or captures: a (1,2) leap in all eight directions");
    free(text);
    /* the pawn: from the centre, and from its start rank (the double step), not over a piece */
    text = piece_text(chess, 'P');
    assert_line(text,
                "moves (never capturing): 1 step forward; 2 steps forward, not over a piece, only from zone "
                "'pawn-start'");
    assert_line(text, "captures only: 1 step forward-left, forward-right");
    assert_line(text, "alone on d2:");
    free(text);
    n = describe_piece_diagrams(chess, variant_type_by_letter(chess, 'P'), d, DESCRIBE_MAX_DIAGRAMS);
    assert_int_equal(n, 2);
    assert_int_equal(d[1].origin, cell(chess, "d2"));
    assert_int_equal(d[1].mark[cell(chess, "d4")], DESCRIBE_MOVE);
    assert_int_equal(d[1].mark[cell(chess, "e3")], DESCRIBE_TAKE);
}

/* xiangqi: the moves the old rulebook had wrong, each said as the generator makes it */
static void test_describe_xiangqi_programs(void **state) {
    (void)state;
    Variant *v = load_rules("rules/xiangqi.rules");
    char *text = piece_text(v, 'K');
    assert_line(text, "moves or captures: 1 step orthogonally, only onto zone 'palace'");
    assert_line(text, "captures only an enemy King: any distance forward");
    assert_line(text, "the two may never face each other");
    assert_line(text, "on e2 with the enemy King on e10, which it attacks:");
    free(text);
    text = piece_text(v, 'A');
    assert_line(text, "moves or captures: 1 step diagonally, only onto zone 'palace'");
    free(text);
    text = piece_text(v, 'B');
    assert_line(text, "2 steps diagonally, not over a piece, only onto zone 'own-half'");
    assert_line(text, "in its way:");
    free(text);
    text = piece_text(v, 'N');
    assert_line(text, "a (1,2) leap in all eight directions, as 1 orthogonal then 1 diagonal step: blocked by a piece");
    free(text);
    text = piece_text(v, 'C');
    assert_line(text, "moves (never capturing): any distance orthogonally");
    assert_line(text, "captures only by jumping exactly one piece on the way: any distance orthogonally");
    free(text);
    text = piece_text(v, 'P');
    assert_line(text, "moves or captures: 1 step forward; 1 step left, right, only from zone 'across-river'");
    free(text);
    /* the cannon's screen diagram: a piece to jump, an enemy beyond it taken, none nearer */
    DescribeDiagram d[DESCRIBE_MAX_DIAGRAMS];
    int n = describe_piece_diagrams(v, variant_type_by_letter(v, 'C'), d, DESCRIBE_MAX_DIAGRAMS);
    const DescribeDiagram *screen = NULL;
    for (int i = 0; i < n; i++)
        if (strstr(d[i].caption, "pieces to jump")) screen = &d[i];
    assert_non_null(screen);
    assert_int_equal(screen->origin, cell(v, "e5"));
    assert_int_not_equal(screen->cells[cell(v, "e7")], 0); /* the screen */
    assert_int_equal(screen->mark[cell(v, "e9")] & DESCRIBE_TAKE, DESCRIBE_TAKE);
    assert_int_equal(screen->mark[cell(v, "e8")], DESCRIBE_TAKE); /* (an enemy there: taken over e7) */
    assert_int_equal(screen->mark[cell(v, "e6")], DESCRIBE_MOVE); /* (before the screen: no take) */
    variant_free(v);
}

static void test_describe_lame_pieces(void **state) {
    (void)state;
    Variant *v = load_rules("rules/ultimate-battle.rules");
    char *text = piece_text(v, 'Q');
    assert_line(text, "a (1,2) leap in all eight directions, as 1 orthogonal then 1 diagonal step: blocked by a piece");
    free(text);
    /* the king steps orthogonally through either diagonal neighbour */
    text = piece_text(v, 'K');
    assert_line(text, "1 step orthogonally, as 1 diagonal then 1 orthogonal step by either of 2 ways");
    free(text);
    DescribeDiagram d[DESCRIBE_MAX_DIAGRAMS];
    int n = describe_piece_diagrams(v, variant_type_by_letter(v, 'K'), d, DESCRIBE_MAX_DIAGRAMS);
    assert_int_equal(n, 2);
    /* with pieces on e3 and e5 its way east is shut, west open */
    assert_int_equal(d[1].origin, cell(v, "d4"));
    assert_int_not_equal(d[1].cells[cell(v, "e3")], 0);
    assert_int_not_equal(d[1].cells[cell(v, "e5")], 0);
    assert_int_equal(d[1].mark[cell(v, "e4")], 0);
    assert_int_equal(d[1].mark[cell(v, "c4")], DESCRIBE_MOVE | DESCRIBE_TAKE);
    variant_free(v);
}

/* A move no rule the probes find explains (a step only beside a friend) is called a program and
 * shown in a position from play, never put in words that would be wrong. */
static void test_describe_program_fallback(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\n"
                              "players white(w) black(b)\n"
                              "board 6x6\n"
                              "orientation black flip\n"
                              "piece King { letter K royal step compass }\n"
                              "piece Climber { letter C\n"
                              "  move { mark step e verify friend back step n verify empty add } }\n"
                              "setup \"k5/6/6/6/CCCCCC/K5 w\"\n"
                              "end checkmate loss\n");
    char *text = piece_text(v, 'C');
    assert_line(text, "its moves are a program the rulebook cannot put in words");
    assert_line(text, "a position from play: a move its words do not cover");
    assert_null(strstr(text, "1 step forward"));
    free(text);
    variant_free(v);
}

/* The author's own words (`help`) stand in the rulebook under the game's title and under the
 * piece, as written; the rest is still read from the rules. */
static void test_describe_help_text(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\n"
                              "game \"Two kings\"\n"
                              "help \"Each side has only its king.\"\n"
                              "players white(w) black(b)\n"
                              "board 4x4\n"
                              "piece King { letter K royal step compass help \"The king steps one cell any way.\" }\n"
                              "setup \"k3/4/4/3K w\"\n"
                              "end checkmate loss\n");
    char *text = piece_text(v, 'K');
    assert_line(text, "In the rule file's words: The king steps one cell any way.");
    free(text);
    char *game = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&game, &len);
    DescribeStyle plain = {false, false};
    describe_game_text(v, NULL, &plain, f);
    fclose(f);
    assert_line(game, "In the rule file's words: Each side has only its king.");
    const char *title = strstr(game, "Two kings"), *words = strstr(game, "Each side has only its king.");
    const char *pieces = strstr(game, "\nPieces\n");
    assert_true(title && words && pieces && title < words && words < pieces);
    free(game);
    variant_free(v);
}

/* Captures away from the landing cell (#), which coordinate notation does not show: each mark
 * checked against the generator, an enemy put on each empty cell in turn. */
static void remote_marks(const char *path) {
    Variant *v = load_rules(path);
    int owner, enemy = describe_probe_enemy(v, &owner);
    assert_true(enemy >= 0);
    Position pos;
    board_init(&pos, v);
    MoveList *ml = malloc(sizeof *ml);
    GenContext *gen = test_fresh_gen();
    int remote = 0;
    for (int t = 0; t < v->ntypes; t++) {
        DescribeDiagram d[DESCRIBE_MAX_DIAGRAMS];
        int n = describe_piece_diagrams(v, t, d, DESCRIBE_MAX_DIAGRAMS);
        for (int i = 0; i < n; i++) {
            if (d[i].in_hand) continue;
            for (int c = 0; c < v->ncells; c++) {
                if (c == d[i].origin) continue;
                set_fen(&pos, d[i].fen);
                if (!pos.cell[c]) board_put(&pos, (Cell)c, PIECE_MAKE(enemy, owner));
                gen->diagram = true;
                VmFault fault = {0};
                assert_true(movegen_pseudo(gen, &pos, ml, &fault));
                bool away = false;
                for (int k = 0; k < ml->count && !away; k++) {
                    const Move *m = &ml->moves[k];
                    if (m->from != d[i].origin || m->to == c) continue;
                    for (int e = 0; e < m->nfx; e++) away |= m->fx[e].kind == FX_REMOVE && m->fx[e].a == c;
                }
                if (away != ((d[i].mark[c] & DESCRIBE_REMOTE) != 0))
                    fail_msg("%s, %s: %s %s", v->types[t].name, d[i].caption, v->cells[c].name,
                             away ? "is captured away, not marked so" : "is marked, not captured");
                remote += away;
            }
        }
    }
    assert_true(remote > 0);
    free(ml);
    board_free(&pos);
    variant_free(v);
}

/* (Ultima's captures by withdrawal, coordination, pincers; the jumps of draughts) */
static void test_describe_remote_marks(void **state) {
    (void)state;
    remote_marks("rules/ultima.rules");
    remote_marks("rules/checkers.rules");
}

/* The page carries the text: the words are in it, escaped, and every diagram's position. */
static void test_describe_html_text(void **state) {
    (void)state;
    char path[256];
    temp_template(path, sizeof path, "describe");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[200];
    assert_true(describe_html(chess, path, err, sizeof err));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char page[1 << 20];
    size_t len = fread(page, 1, sizeof page - 1, f);
    page[len] = 0;
    fclose(f);
    assert_non_null(strstr(page, "<h1>Chess</h1>"));
    assert_non_null(strstr(page, "moves or captures: a (1,2) leap in all eight directions"));
    assert_non_null(strstr(page, "position: 8/8/8/8/3N4/8/8/8 w - - 0 1 (the Knight on d4)"));
    assert_non_null(strstr(page, "data-cell=\"e6\" data-mark=\"*\""));
    assert_non_null(strstr(page, "Checkmate: the player to move has no legal move"));
    assert_null(strstr(page, "<pre></pre>"));
    unlink(path);
}

static void test_describe_step_words(void **state) {
    (void)state;
    Variant *v = load_rules("rules/ultra-chess.rules");
    Position pos;
    board_init(&pos, v);
    char start[4096], buf[512];
    fen_start(v, 1, start, sizeof start);
    set_fen(&pos, start);
    describe_step(&pos, buf, sizeof buf);
    assert_non_null(strstr(buf, "set-up step 1 of 8: White makes 4 more moves of kind 'place'"));
    board_free(&pos);
    variant_free(v);
    board_init(&pos, chess);
    set_fen(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    describe_step(&pos, buf, sizeof buf);
    assert_string_equal(buf, "");
    board_free(&pos);
}

static void test_describe_warnings(void **state) {
    (void)state;
    Variant *v = load_text_ok("version 1\n"
                              "players white(w) black(b)\n"
                              "board 4x4\n"
                              "piece King { letter K royal step compass }\n"
                              "piece Guard { letter G symbol \"k\" \"k\" step orth }\n"
                              "piece Post { letter T }\n"
                              "setup \"k2t/4/4/K1GT w\"\n"
                              "end checkmate loss\n");
    DiagSink sink;
    diag_init(&sink);
    describe_warnings(v, NULL, &sink);
    char *text = diag_to_string(&sink);
    assert_int_equal(sink.errors, 0);
    assert_int_equal(sink.warnings, 2);
    assert_non_null(strstr(text, "piece 'Guard' looks like 'King': both are shown as \"k\" for white"));
    assert_non_null(strstr(text, "piece 'Post' can never move"));
    free(text);
    diag_free(&sink);
    variant_free(v);
    /* chess: nothing to warn about */
    diag_init(&sink);
    describe_warnings(chess, NULL, &sink);
    assert_int_equal(sink.warnings, 0);
    diag_free(&sink);
}

/* The whole rulebook as the console prints it (plain text); the caller frees. */
static char *game_text(const Variant *v) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    DescribeStyle plain = {false, false};
    describe_text(v, &plain, f);
    fclose(f);
    return text;
}

/* Is move (coordinate text) legal in fen? */
static bool legal_in(const Variant *v, const char *fen, const char *move) {
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, fen);
    char text[8192], padded[8200], want[64];
    legal_moves_text(&pos, text, sizeof text);
    board_free(&pos);
    snprintf(padded, sizeof padded, " %s ", text);
    snprintf(want, sizeof want, " %s ", move);
    if (!strstr(padded, want)) print_message("%s: %s\n", fen, text);
    return strstr(padded, want) != NULL;
}

/* A castle onto another board, the transfer through it, a check that ends a turn and en passant
 * over a turn: the words, and the generator doing what they say. */
static void test_describe_castles_across_and_checks_that_end_a_turn(void **state) {
    (void)state;
    test_fresh_gen(); /* (a context that plays moves, not one a diagram test left) */
    Variant *v = load_rules("rules/alice.rules");
    char *text = game_text(v);
    assert_line(text, "After every move, each piece it carried goes on to the same cell of the other board",
                "which must be empty");
    assert_line(text, "Castling (White): King A:e1-B:g1 with Rook A:h1-B:f1, when neither has moved",
                "the cells between them on board A empty and B:g1 and B:f1 empty",
                "the king neither in check nor passing over an attacked cell on board A, nor left in check on B:g1");
    assert_line(text,
                "En passant: a Pawn passing over cells leaves them, on the board it goes on to, to be captured "
                "on for the next move");
    free(text);
    const char *home = "4k3/8/8/8/8/8/8/4K2R|8/8/8/8/8/8/8/8 w K - 0 1";
    assert_true(legal_in(v, home, "A e1-B:g1"));
    assert_false(legal_in(v, "4k3/8/8/8/8/8/8/4K2R|8/8/8/8/8/8/8/5n2 w K - 0 1", "A e1-B:g1")); /* B:f1 */
    assert_false(legal_in(v, "4k3/8/8/8/8/8/8/4KN1R|8/8/8/8/8/8/8/8 w K - 0 1", "A e1-B:g1"));  /* A:f1 */
    assert_false(legal_in(v, "5r1k/8/8/8/8/8/8/4K2R|8/8/8/8/8/8/8/8 w K - 0 1", "A e1-B:g1"));  /* passes f1 */
    assert_true(legal_in(v, "6rk/8/8/8/8/8/8/4K2R|8/8/8/8/8/8/8/8 w K - 0 1", "A e1-B:g1"));    /* A:g1 */
    assert_false(legal_in(v, "4k3/8/8/8/8/8/8/4K2R|6r1/8/8/8/8/8/8/8 w K - 0 1", "A e1-B:g1")); /* B:g1 */
    variant_free(v);

    v = load_rules("rules/marseillais.rules");
    text = game_text(v);
    assert_line(text, "A move of kind 'normal' that gives check, castling included, is of kind 'check' instead.");
    assert_line(text, "second: exactly 1 move of kind 'normal' or 'check'");
    assert_line(text,
                "En passant: a Pawn passing over cells leaves them to be captured on during the next player's "
                "whole turn, while it stands past them");
    assert_line(text, "50 turns each without a capture or a move of Pawn");
    free(text);
    /* the castle that checks is of kind check and ends the turn; a double step's cell lasts
     * through the first move of the next turn into its second */
    assert_true(legal_in(v, "5k2/8/8/8/8/8/8/4K2R w K - 0 2 first", "check:e1g1"));
    assert_true(legal_in(v, "4k3/8/8/3pP3/8/8/P7/4K3 w - d6 0 2 second", "e5d6"));
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe_chess_pieces),
        cmocka_unit_test(test_describe_xiangqi_programs),
        cmocka_unit_test(test_describe_lame_pieces),
        cmocka_unit_test(test_describe_program_fallback),
        cmocka_unit_test(test_describe_remote_marks),
        cmocka_unit_test(test_describe_html_text),
        cmocka_unit_test(test_describe_step_words),
        cmocka_unit_test(test_describe_warnings),
        cmocka_unit_test(test_describe_help_text),
        cmocka_unit_test(test_describe_castles_across_and_checks_that_end_a_turn),
    };
    return cmocka_run_group_tests_name("describe", tests, setup, teardown);
}
