/* test_savegame.c - saved games: write/read/replay round trip, and the first bad line of a
 * malformed file named precisely. */
#define SUPPORT_CHESS_FIXTURE
#include "support.h"

#include <stdio.h>
#include <unistd.h>

#include "savegame.h"

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
        movegen_legal(&pos, &ml, &f);
        int k = notation_find(chess, &ml, played[i]);
        assert_true(k >= 0);
        moves[i] = ml.moves[k];
        board_make(&pos, &moves[i]);
    }
    char path[] = "build/tests/savegame-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[300];
    assert_true(savegame_write(path, "rules/chess.rules", chess, chess->setup, moves, 4, "white", "resignation", err, sizeof err));
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
    expect_error("rules x\nmove e2e4 e7e5\n", "t.game:2: 'move' takes one move");
    expect_error("rules x\nresult white mate\nmove e2e4\n", "t.game:3: a move after the result");
    expect_error("rules x\nrules y\n", "t.game:2: a second 'rules' line");
    expect_error("rules x\noption =3\n", "t.game:2: 'option' takes NAME=VALUE");
    expect_error("rules x\nmove e2e4\nstart 8/8/8/8/8/8/8/8\n", "t.game:3: 'start' must come before the moves");
    expect_error("rules x\nmove e2\001e4\n", "t.game:2: control character");
    expect_error("rules x\nstart 4k3/8/8/8/8/8/8/R3K3 w\nmove Ra8+\nmove Kd8\n", "t.game:4: illegal move 'Kd8'");
    expect_error("rules x\nstart 7k/5Q2/6K1/8/8/8/8/8 b\nmove h8g8\n", "t.game:3: move 'h8g8' after the end of the game");
}

static void test_savegame_missing_file(void **state) {
    (void)state;
    SavedGame g;
    char err[300];
    assert_false(savegame_read("build/tests/no-such-file.game", &g, err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_savegame_round_trip),
        cmocka_unit_test(test_savegame_names_the_bad_line),
        cmocka_unit_test(test_savegame_missing_file),
    };
    return cmocka_run_group_tests_name("savegame", tests, setup, teardown);
}
