/* test_sema.c - the checking pass: options chosen at load time, macro expansion, relative
 * zones per orientation, cell names on several boards, and the wording and place of errors. */
#include "support.h"

/* Loads a file with options; returns NULL and the diagnostics in *diags (caller frees). */
static Variant *load_with(const char *path, const OptionSetting *settings, int n, char **diags) {
    DiagSink sink;
    diag_init(&sink);
    Variant *v = load_file(path, settings, n, &sink);
    *diags = diag_to_string(&sink);
    diag_free(&sink);
    return v;
}

static bool has_gen_ray(const Variant *v, char letter, int owner, int dx, int dy) {
    const PieceProgram *pp = &v->types[variant_type_by_letter(v, letter)].per_owner[owner];
    for (int i = 0; i < pp->natk; i++)
        if (v->dirs[pp->atk[i].dir].dx == dx && v->dirs[pp->atk[i].dir].dy == dy) return true;
    return false;
}

static void test_sema_options_take_defaults(void **state) {
    (void)state;
    Variant *v = load_rules("tests/rules/ok/options.rules");
    assert_int_equal(v->ncells, 25); /* size: default small */
    assert_int_equal(v->noptions, 2);
    assert_int_equal(v->options[1].value, 0);  /* army: the first value */
    assert_true(has_gen_ray(v, 'N', 0, 1, 2)); /* classic knight */
    variant_free(v);
}

static void test_sema_options_chosen_by_setting(void **state) {
    (void)state;
    OptionSetting set[] = {{"size", "big"}, {"army", "modern"}};
    char *diags;
    Variant *v = load_with("tests/rules/ok/options.rules", set, 2, &diags);
    if (!v) print_error("%s", diags);
    assert_non_null(v);
    assert_int_equal(v->ncells, 64);
    assert_false(has_gen_ray(v, 'N', 0, 1, 2));
    assert_true(has_gen_ray(v, 'N', 0, 1, 0)); /* modern: `use mover(e)` inside `when` */
    /* the setup of the chosen size is used */
    assert_string_equal(v->setup, "7k/8/8/8/8/8/8/NK6 w - - 0 1");
    free(diags);
    variant_free(v);
}

static void test_sema_unknown_option_name_or_value(void **state) {
    (void)state;
    char *diags;
    OptionSetting bad_name[] = {{"colour", "red"}};
    assert_null(load_with("tests/rules/ok/options.rules", bad_name, 1, &diags));
    assert_non_null(strstr(diags, "tests/rules/ok/options.rules: error: unknown option 'colour'\n"));
    free(diags);
    OptionSetting bad_value[] = {{"size", "huge"}};
    assert_null(load_with("tests/rules/ok/options.rules", bad_value, 1, &diags));
    assert_non_null(strstr(diags, "error: option 'size' has no value 'huge' (allowed: small, big)\n"));
    free(diags);
}

/* A macro passes its arguments on to another: a direction name and a vector both arrive. */
static void test_sema_nested_macro_arguments(void **state) {
    (void)state;
    Variant *v = load_rules("tests/rules/ok/options.rules");
    assert_true(has_gen_ray(v, 'K', 0, 0, 1));
    assert_true(has_gen_ray(v, 'K', 0, 1, 1));
    assert_true(has_gen_ray(v, 'K', 1, 1, -1)); /* black is flipped */
    /* the promotion zone and piece came through `use crowned(goal, King)` */
    assert_int_equal(v->npromos, 2);
    assert_string_equal(v->zones[v->promos[1].zone].name, "goal");
    assert_int_equal(v->promos[1].types[0], variant_type_by_letter(v, 'K'));
    variant_free(v);
}

static void test_sema_macro_arity_is_checked(void **state) {
    (void)state;
    char *diags;
    Variant *v = load_text("version 1\nplayers a b\nboard 3x3\nmacro m(p, q) { step p step q }\n"
                           "piece K { letter K royal use m(n) }\nsetup \"k2/3/2K\"\n",
                           &diags);
    assert_null(v);
    assert_non_null(strstr(diags, "test.rules:5:26: error: macro 'm' takes 2 arguments, not 1\n"));
    free(diags);
}

/* "zone home relative = rank 1" is each player's own first row, turned by its orientation. */
static void test_sema_relative_zones_follow_orientation(void **state) {
    (void)state;
    Variant *v = load_rules("tests/rules/ok/four-players.rules");
    const Zone *home = &v->zones[0];
    const char *cells[4][2] = {{"a1", "f1"}, {"f1", "f6"}, {"a6", "f6"}, {"a1", "a6"}};
    const char *not_in[4] = {"a2", "e1", "a5", "b1"};
    for (int o = 0; o < 4; o++) {
        for (int k = 0; k < 2; k++) assert_true(zone_has(home, o, (Cell)variant_cell_by_name(v, cells[o][k])));
        assert_false(zone_has(home, o, (Cell)variant_cell_by_name(v, not_in[o])));
    }
    /* a zone given per player holds only that player's cells */
    variant_free(v);
    v = load_rules("tests/rules/ok/boards.rules");
    int camp = -1;
    for (int z = 0; z < v->nzones; z++)
        if (!strcmp(v->zones[z].name, "camp")) camp = z;
    assert_true(camp >= 0);
    assert_true(zone_has(&v->zones[camp], 0, (Cell)variant_cell_by_name(v, "top:a4")));
    assert_false(zone_has(&v->zones[camp], 1, (Cell)variant_cell_by_name(v, "top:a4")));
    assert_true(zone_has(&v->zones[camp], 1, (Cell)variant_cell_by_name(v, "bottom:d1")));
    variant_free(v);
}

/* On several boards cells are "board:e4"; holes are no cells at all. */
static void test_sema_cell_names_on_several_boards(void **state) {
    (void)state;
    Variant *v = load_rules("tests/rules/ok/boards.rules");
    assert_int_equal(v->nboards, 2);
    assert_int_equal(v->ncells, 14 + 16);
    assert_true(variant_cell_by_name(v, "top:d4") >= 0);
    assert_true(variant_cell_by_name(v, "bottom:a1") >= 0);
    assert_int_equal(variant_cell_by_name(v, "a1"), -1);
    assert_int_equal(variant_cell_by_name(v, "top:b2"), -1); /* a hole */
    assert_int_equal(variant_cell_by_name(v, "top:c3"), -1);
    int c = variant_cell_by_name(v, "bottom:c2");
    assert_string_equal(v->cells[c].name, "bottom:c2");
    assert_int_equal(v->boards[v->cells[c].board].width, 4);
    variant_free(v);
    /* a bare cell name gets a hint; an unnamed board among several is an error */
    char *diags;
    assert_null(load_text("version 1\nplayers a b\nboard top 2x2\nboard low 2x2\nzone z = b2\n"
                          "piece K { letter K royal step n }\nsetup \"K1/1k|2/2\"\n",
                          &diags));
    assert_non_null(
        strstr(diags, "test.rules:5:10: error: unknown cell 'b2' (with several boards, name the board: 'top:b2')\n"));
    free(diags);
    assert_null(load_text("version 1\nplayers a b\nboard 2x2\nboard low 2x2\n"
                          "piece K { letter K royal step n }\nsetup \"K1/1k|2/2\"\n",
                          &diags));
    assert_non_null(strstr(diags, "test.rules:4:1: error: the first board needs a name too"));
    free(diags);
}

/* An error in a piece that every player shares is reported once, not once per player. */
static void test_sema_errors_are_not_repeated_per_player(void **state) {
    (void)state;
    char *diags;
    assert_null(load_text("version 1\nplayers a b c\nboard 3x3\npiece K { letter K royal step up }\n"
                          "setup \"k2/3/2K\"\n",
                          &diags));
    const char *first = strstr(diags, "unknown direction 'up'");
    assert_non_null(first);
    assert_null(strstr(first + 1, "unknown direction 'up'"));
    free(diags);
}

/* A bad start position is reported at the setup line. */
static void test_sema_bad_setup_at_its_line(void **state) {
    (void)state;
    char *diags;
    assert_null(load_text("version 1\nplayers a b\nboard 3x3\npiece K { letter K royal step n }\n"
                          "\n  setup \"k2/3/2Q\"\n",
                          &diags));
    assert_non_null(strstr(diags, "test.rules:6:3: error: bad setup position: unknown piece letter 'Q' at column 7\n"));
    free(diags);
    assert_null(load_text("version 1\nplayers a b\nboard 3x3\npiece K { letter K royal step n }\n"
                          "setup \"k2/3/2K x\"\n",
                          &diags));
    assert_non_null(
        strstr(diags, "test.rules:5:1: error: bad setup position: unknown side to move 'x' (expected a, b)\n"));
    free(diags);
}

/* Names and numbers inside an item are pointed at, not the item's first word. */
static void test_sema_errors_point_at_the_word(void **state) {
    (void)state;
    char *diags;
    assert_null(load_text("version 1\nplayers a b\nboard 3x3\norientation b  sideways\nzone z for c = a1\n"
                          "piece K { letter K royal step n }\nend repetition 1 draw\nsetup \"k2/3/2K\"\n",
                          &diags));
    assert_non_null(strstr(diags, "test.rules:4:16: error: unknown orientation 'sideways'"));
    assert_non_null(strstr(diags, "test.rules:5:12: error: unknown player 'c'"));
    assert_non_null(strstr(diags, "test.rules:7:16: error: repetition count 1 is out of range (2..100)"));
    free(diags);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sema_options_take_defaults),
        cmocka_unit_test(test_sema_options_chosen_by_setting),
        cmocka_unit_test(test_sema_unknown_option_name_or_value),
        cmocka_unit_test(test_sema_nested_macro_arguments),
        cmocka_unit_test(test_sema_macro_arity_is_checked),
        cmocka_unit_test(test_sema_relative_zones_follow_orientation),
        cmocka_unit_test(test_sema_cell_names_on_several_boards),
        cmocka_unit_test(test_sema_errors_are_not_repeated_per_player),
        cmocka_unit_test(test_sema_bad_setup_at_its_line),
        cmocka_unit_test(test_sema_errors_point_at_the_word),
    };
    return cmocka_run_group_tests_name("sema", tests, NULL, NULL);
}
