/* test_match.c - self-play matches: the Elo arithmetic, the sequential test, and a short match
 * between two settings that ends with every game counted. */
#define SUPPORT_CHESS_FIXTURE
#include "support.h"

#include <math.h>

#include "match.h"

static void test_match_elo(void **state) {
    (void)state;
    double elo, err;
    match_elo(10, 0, 10, &elo, &err);
    assert_true(fabs(elo) < 1e-9);
    assert_true(err > 100 && err < 300);
    match_elo(75, 0, 25, &elo, &err); /* 75%: +191 */
    assert_true(elo > 190 && elo < 192);
    match_elo(30, 40, 30, &elo, &err); /* draws narrow the interval */
    double elo2, err2;
    match_elo(50, 0, 50, &elo2, &err2);
    assert_true(err < err2);
}

static void test_match_llr(void **state) {
    (void)state;
    /* a clear lead accepts H1, a clear deficit H0 */
    assert_true(match_llr(300, 200, 100, 0, 10) > 2.95);
    assert_true(match_llr(100, 200, 300, 0, 10) < -2.95);
    assert_true(fabs(match_llr(0, 0, 0, 0, 10)) < 1e-9);
}

/* Two games at depth 1: every game counted once, the summary line printed. */
static void test_match_plays_pairs(void **state) {
    (void)state;
    MatchConfig cfg = {.rules = "rules/chess.rules",
                       .games = 2,
                       .depth = 1,
                       .tt_mb = 1,
                       .seed = 3,
                       .open_plies = 4,
                       .name_a = "a",
                       .name_b = "b"};
    search_options_default(&cfg.a);
    search_options_classic(&cfg.b);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    MatchResult res;
    assert_true(match_run(&cfg, &res, out, stderr));
    fclose(out);
    assert_int_equal(res.wins + res.draws + res.losses, 2);
    assert_non_null(strstr(text, "a vs b: 2 games (depth 1)"));
    free(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match_elo),
        cmocka_unit_test(test_match_llr),
        cmocka_unit_test(test_match_plays_pairs),
    };
    return cmocka_run_group_tests_name("match", tests, setup, teardown);
}
