/* test_tune.c - varia tune: a short run writes a rule file that loads, with the fitted
 * weights as `tuned` items in place of the old ones; games it cannot tune are refused. */
#define SUPPORT_CHESS_FIXTURE
#include "support.h"

#include <unistd.h>

#include "tune.h"

static char *run(const TuneConfig *cfg, int *rc) {
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    *rc = tune_run(cfg, out, out);
    fclose(out);
    return text;
}

static void test_tune_writes_items(void **state) {
    (void)state;
    char path[] = "/tmp/varia-tune-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    TuneConfig cfg = {
        .rules = "rules/chess.rules", .games = 6, .depth = 1, .seed = 5, .open_plies = 8, .passes = 2, .out = path};
    int rc;
    char *text = run(&cfg, &rc);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(text, "quiet positions"));
    free(text);
    /* tuned twice: the second run replaces the first one's items */
    cfg.rules = path;
    text = run(&cfg, &rc);
    assert_int_equal(rc, 0);
    free(text);
    Variant *v = load_rules(path);
    assert_true((v->tuned.value_set >> variant_type_by_letter(v, 'Q')) & 1);
    assert_true(v->tuned.royal_safety_set);
    /* chess has promotions and a royal piece: every named term is written but hand-attack
     * (no hands) */
    assert_int_equal(v->tuned.terms_set, ((1u << TUNED_TERMS) - 1) & ~(1u << TUNED_HAND_ATTACK));
    variant_free(v);
    FILE *f = fopen(path, "r");
    char line[256];
    int headers = 0;
    while (fgets(line, sizeof line, f)) headers += !strncmp(line, "# Tuned by varia tune", 21);
    fclose(f);
    assert_int_equal(headers, 1);
    unlink(path);
}

static void test_tune_refuses_more_players(void **state) {
    (void)state;
    TuneConfig cfg = {.rules = "rules/ultimate-chess-4p.rules", .games = 1, .depth = 1, .passes = 1};
    int rc;
    char *text = run(&cfg, &rc);
    assert_int_equal(rc, 1);
    assert_non_null(strstr(text, "tune plays games of two players"));
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tune_writes_items),
        cmocka_unit_test(test_tune_refuses_more_players),
    };
    return cmocka_run_group_tests_name("tune", tests, setup, teardown);
}
