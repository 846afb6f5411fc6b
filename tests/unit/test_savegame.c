/* test_savegame.c - saved games: write/read/replay round trip, and the first bad line of a
 * malformed file named precisely. */
#define SUPPORT_CHESS_FIXTURE
#include "support.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "savegame.h"

/* Each run works in its own directory, so that test runs side by side (make -j) never meet. */
static char tdir[256];

/* name inside that directory (a few at a time: the buffers are reused in turn). */
static const char *tpath(const char *name) {
    static char buf[4][320];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%s", tdir, name);
    return b;
}

static int group_setup(void **state) {
    temp_template(tdir, sizeof tdir, "savegame");
    if (!mkdtemp(tdir)) return -1;
    return setup(state);
}

static int group_teardown(void **state) {
    rmdir(tdir);
    return teardown(state);
}

static void test_savegame_round_trip(void **state) {
    (void)state;
    Position pos;
    board_init(&pos, chess);
    set_fen(&pos, chess->setup);
    static Move moves[8];
    static MoveList ml;
    const char *played[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
    for (int i = 0; i < 4; i++) {
        VmFault f = {0};
        movegen_legal(test_gen(), &pos, &ml, &f);
        int k = notation_find(chess, &ml, played[i]);
        assert_true(k >= 0);
        moves[i] = ml.moves[k];
        board_make(&pos, &moves[i]);
    }
    char path[256];
    temp_template(path, sizeof path, "save");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[300];
    assert_true(savegame_write(path, "rules/chess.rules", chess, chess->setup, moves, 4, "white", "resignation", err,
                               sizeof err));
    SavedGame g;
    assert_true(savegame_read(path, &g, err, sizeof err));
    assert_string_equal(g.rules, "rules/chess.rules");
    assert_int_equal(g.nmoves, 4);
    assert_string_equal(g.result_winner, "white");
    assert_string_equal(g.result_reason, "resignation");
    Position replay;
    board_init(&replay, chess);
    static Move out[8];
    assert_true(savegame_replay(&g, path, &replay, out, 8, err, sizeof err));
    assert_int_equal(replay.key, pos.key);
    assert_int_equal(replay.ply, 4);
    savegame_free(&g);
    remove(path);
    board_free(&replay);
    board_free(&pos);
}

/* Parses (and replays when the syntax is fine) text; returns the message. */
static void expect_error(const char *text, const char *fragment) {
    SavedGame g;
    char err[300] = "";
    bool ok = savegame_parse("t.game", text, &g, err, sizeof err);
    if (ok) {
        Position pos;
        board_init(&pos, chess);
        static Move out[64];
        ok = savegame_replay(&g, "t.game", &pos, out, 64, err, sizeof err);
        board_free(&pos);
        savegame_free(&g);
    }
    assert_false(ok);
    if (!strstr(err, fragment)) print_error("message '%s' lacks '%s'\n", err, fragment);
    assert_non_null(strstr(err, fragment));
}

static void test_savegame_names_the_bad_line(void **state) {
    (void)state;
    expect_error("move e2e4\n", "no 'rules' line");
    expect_error("rules x\nmove e2e4\nmove e7e5\nmove e5e4\n", "t.game:4: illegal move 'e5e4'");
    expect_error("rules x\n\n# comment\nfrobnicate\n", "t.game:4: unknown line 'frobnicate'");
    expect_error("rules x\nstart 9/8 w\n", "t.game:2: bad start position");
    expect_error("rules x\nstart 8/8/8/8/8/8/8/8 q\n", "t.game:2: bad start position");
    expect_error("rules x\nmove\n", "t.game:2: 'move' takes one move");
    expect_error("rules x\nmove e2e4 e7e5\n", "t.game:2: illegal move 'e2e4 e7e5'");
    expect_error("rules x\nresult white mate\nmove e2e4\n", "t.game:3: a move after the result");
    expect_error("rules x\nrules y\n", "t.game:2: a second 'rules' line");
    expect_error("rules x\noption =3\n", "t.game:2: 'option' takes NAME=VALUE");
    expect_error("rules x\nmove e2e4\nstart 8/8/8/8/8/8/8/8\n", "t.game:3: 'start' must come before the moves");
    expect_error("rules x\nmove e2\001e4\n", "t.game:2: control character");
    expect_error("rules x\nstart 4k3/8/8/8/8/8/8/R3K3 w\nmove Ra8+\nmove Kd8\n", "t.game:4: illegal move 'Kd8'");
    expect_error("rules x\nstart 7k/5Q2/6K1/8/8/8/8/8 b\nmove h8g8\n",
                 "t.game:3: move 'h8g8' after the end of the game");
}

/* Plays n moves given in coordinate notation from the start position into moves[]. */
static void play_moves(Position *pos, const char *const *texts, int n, Move *moves) {
    static MoveList ml;
    board_init(pos, chess);
    set_fen(pos, chess->setup);
    for (int i = 0; i < n; i++) {
        VmFault f = {0};
        movegen_legal(test_gen(), pos, &ml, &f);
        int k = notation_find(chess, &ml, texts[i]);
        assert_true(k >= 0);
        moves[i] = ml.moves[k];
        assert_true(board_make(pos, &moves[i]));
    }
}

/* The whole file as a string (caller frees). */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strdup(buf);
}

/* Files in the test directory whose name starts with prefix. */
static int count_files(const char *prefix) {
    DIR *d = opendir(tdir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (!strncmp(e->d_name, prefix, strlen(prefix))) n++;
    closedir(d);
    return n;
}

static const char *const opening[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"};

/* A write that fails half-way (here: the file size limit, as a full disk would) leaves the
 * previous save as it was, and no temporary file behind. */
static void test_savegame_failed_write_keeps_the_previous_file(void **state) {
    (void)state;
    Position pos;
    static Move moves[8];
    play_moves(&pos, opening, 6, moves);
    const char *path = tpath("atomic.game");
    char err[300];
    assert_true(savegame_write(path, "rules/chess.rules", chess, chess->setup, moves, 4, NULL, NULL, err, sizeof err));
    char *before = slurp(path);
    struct rlimit old, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 64; /* the header alone is longer */
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    bool ok = savegame_write(path, "rules/chess.rules", chess, chess->setup, moves, 6, "white", "resignation", err,
                             sizeof err);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, prev);
    assert_false(ok);
    assert_non_null(strstr(err, "the file is unchanged"));
    char *after = slurp(path);
    assert_string_equal(before, after);
    assert_int_equal(count_files("atomic.game"), 1); /* no atomic.game.XXXXXX left */
    /* and it still loads, with its 4 moves */
    SavedGame g;
    assert_true(savegame_read(path, &g, err, sizeof err));
    assert_int_equal(g.nmoves, 4);
    savegame_free(&g);
    free(before);
    free(after);
    remove(path);
    board_free(&pos);
}

/* Writes that cannot start fail with a message and change nothing. */
static void test_savegame_unwritable_places(void **state) {
    (void)state;
    Position pos;
    static Move moves[8];
    play_moves(&pos, opening, 2, moves);
    char err[300];
    assert_false(savegame_write(tpath("no-such-dir/x.game"), "rules/chess.rules", chess, chess->setup, moves, 2, NULL,
                                NULL, err, sizeof err));
    assert_non_null(strstr(err, "cannot write"));
    /* a directory in the way */
    assert_int_equal(mkdir(tpath("a-dir.game"), 0755) == 0 || errno == EEXIST, 1);
    assert_false(savegame_write(tpath("a-dir.game"), "rules/chess.rules", chess, chess->setup, moves, 2, NULL, NULL,
                                err, sizeof err));
    assert_int_equal(count_files("a-dir.game"), 1);
    rmdir(tpath("a-dir.game"));
    /* a directory without write permission (root may write anyway: then nothing to check) */
    if (geteuid() != 0) {
        assert_int_equal(mkdir(tpath("ro-dir"), 0755) == 0 || errno == EEXIST, 1);
        assert_true(savegame_write(tpath("ro-dir/x.game"), "rules/chess.rules", chess, chess->setup, moves, 1, NULL,
                                   NULL, err, sizeof err));
        char *before = slurp(tpath("ro-dir/x.game"));
        chmod(tpath("ro-dir"), 0555);
        bool ok = savegame_write(tpath("ro-dir/x.game"), "rules/chess.rules", chess, chess->setup, moves, 2, NULL, NULL,
                                 err, sizeof err);
        chmod(tpath("ro-dir"), 0755);
        assert_false(ok);
        char *after = slurp(tpath("ro-dir/x.game"));
        assert_string_equal(before, after);
        free(before);
        free(after);
        remove(tpath("ro-dir/x.game"));
        rmdir(tpath("ro-dir"));
    }
    board_free(&pos);
}

/* Saving through a symbolic link replaces the file it leads to and keeps the link. */
static void test_savegame_write_through_a_link(void **state) {
    (void)state;
    Position pos;
    static Move moves[8];
    play_moves(&pos, opening, 3, moves);
    char err[300];
    remove(tpath("link.game"));
    assert_true(savegame_write(tpath("real.game"), "rules/chess.rules", chess, chess->setup, moves, 1, NULL, NULL, err,
                               sizeof err));
    assert_int_equal(symlink("real.game", tpath("link.game")), 0);
    assert_true(savegame_write(tpath("link.game"), "rules/chess.rules", chess, chess->setup, moves, 3, NULL, NULL, err,
                               sizeof err));
    struct stat st;
    assert_int_equal(lstat(tpath("link.game"), &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    SavedGame g;
    assert_true(savegame_read(tpath("real.game"), &g, err, sizeof err));
    assert_int_equal(g.nmoves, 3);
    savegame_free(&g);
    remove(tpath("link.game"));
    remove(tpath("real.game"));
    board_free(&pos);
}

/* Parses text and replays it; returns whether it loaded, the message in err. */
static bool load_text_game(const char *text, char *err, size_t cap) {
    SavedGame g;
    if (!savegame_parse("t.game", text, &g, err, cap)) return false;
    Position pos;
    board_init(&pos, chess);
    static Move out[64];
    bool ok = savegame_replay(&g, "t.game", &pos, out, 64, err, cap);
    board_free(&pos);
    savegame_free(&g);
    return ok;
}

/* A save cut short anywhere is refused, naming a line (only the last newline may go). */
static void test_savegame_truncated_file_names_a_line(void **state) {
    (void)state;
    Position pos;
    static Move moves[8];
    play_moves(&pos, opening, 6, moves);
    const char *path = tpath("cut.game");
    char err[300];
    assert_true(savegame_write(path, "rules/chess.rules", chess, chess->setup, moves, 6, "white", "resignation", err,
                               sizeof err));
    char *text = slurp(path);
    size_t len = strlen(text);
    assert_true(load_text_game(text, err, sizeof err));
    text[len - 1] = 0; /* without the final newline: still whole */
    assert_true(load_text_game(text, err, sizeof err));
    for (size_t cut = 0; cut + 1 < len; cut++) {
        char *part = strndup(text, cut);
        bool ok = load_text_game(part, err, sizeof err);
        if (ok) print_error("a save cut to %zu bytes loaded:\n%s\n", cut, part);
        assert_false(ok);
        if (!strstr(err, "t.game:") || (!strchr(err + 7, ':') && !strstr(err, "no 'rules' line")))
            print_error("cut to %zu bytes: '%s' names no line\n", cut, err);
        assert_true(strstr(err, "no 'rules' line") || (err[6] == ':' && err[7] >= '1' && err[7] <= '9'));
        free(part);
    }
    free(text);
    remove(path);
    board_free(&pos);
}

/* Moves taken out or added, lines after the end: refused with the line. */
static void test_savegame_edited_file_names_a_line(void **state) {
    (void)state;
    char err[300];
    const char *head = "moves 2\nrules x\n";
    char text[400];
    snprintf(text, sizeof text, "%smove e2e4\nend\n", head);
    assert_false(load_text_game(text, err, sizeof err));
    assert_string_equal(err, "t.game:4: 1 move where line 1 says 2: moves were taken out or added");
    snprintf(text, sizeof text, "%smove e2e4\nmove e7e5\nmove g1f3\nend\n", head);
    assert_false(load_text_game(text, err, sizeof err));
    assert_non_null(strstr(err, "t.game:6: 3 moves where line 1 says 2"));
    snprintf(text, sizeof text, "%smove e2e4\nmove e7e5\n", head);
    assert_false(load_text_game(text, err, sizeof err));
    assert_non_null(strstr(err, "t.game:4: the file ends without its 'end' line"));
    snprintf(text, sizeof text, "%smove e2e4\nmove e7e5\nend\nmove g1f3\n", head);
    assert_false(load_text_game(text, err, sizeof err));
    assert_non_null(strstr(err, "t.game:6: a line after 'end' (line 5)"));
    snprintf(text, sizeof text, "%smove e2e4\nmove e7e5\nend\n\n# a comment\n", head);
    assert_true(load_text_game(text, err, sizeof err));
    assert_false(load_text_game("moves two\nrules x\n", err, sizeof err));
    assert_non_null(strstr(err, "t.game:1: 'moves' takes the number of moves"));
    assert_false(load_text_game("rules x\nmove e2e4\nmoves 1\n", err, sizeof err));
    assert_non_null(strstr(err, "t.game:3: 'moves' must come before the moves"));
    assert_false(load_text_game("rules x\nend now\n", err, sizeof err));
    assert_non_null(strstr(err, "t.game:2: 'end' takes nothing"));
    /* files without 'moves' (older saves, hand-written ones) load as before */
    assert_true(load_text_game("rules x\nmove e2e4\n", err, sizeof err));
}

static void test_savegame_missing_file(void **state) {
    (void)state;
    SavedGame g;
    char err[300];
    assert_false(savegame_read(tpath("no-such-file.game"), &g, err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_savegame_round_trip),
        cmocka_unit_test(test_savegame_names_the_bad_line),
        cmocka_unit_test(test_savegame_missing_file),
        cmocka_unit_test(test_savegame_failed_write_keeps_the_previous_file),
        cmocka_unit_test(test_savegame_unwritable_places),
        cmocka_unit_test(test_savegame_write_through_a_link),
        cmocka_unit_test(test_savegame_truncated_file_names_a_line),
        cmocka_unit_test(test_savegame_edited_file_names_a_line),
    };
    return cmocka_run_group_tests_name("savegame", tests, group_setup, group_teardown);
}
