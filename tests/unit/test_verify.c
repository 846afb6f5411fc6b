/* test_verify.c - the bytecode verifier rejects hand-built bad programs (and accepts good ones),
 * naming the rule-file line of the bad instruction. */
#include "sema.h"
#define SUPPORT_CHESS_FIXTURE
#include "support.h"
#include "verify.h"

/* Verifies p; returns the diagnostics text ("" when accepted), which the caller frees. */
static char *verify(Program *p, bool *ok) {
    DiagSink sink;
    diag_init(&sink);
    *ok = verify_program(chess, p, &sink);
    char *text = diag_to_string(&sink);
    diag_free(&sink);
    bc_free(p);
    return text;
}

static void expect_rejected(Program *p, const char *fragment) {
    bool ok;
    char *text = verify(p, &ok);
    if (ok || !strstr(text, fragment)) print_error("wanted '%s', got: %s\n", fragment, text);
    assert_false(ok);
    assert_non_null(strstr(text, fragment));
    free(text);
}

static void test_verify_accepts_a_good_program(void **state) {
    (void)state;
    Program p;
    bc_init(&p, "Good/white", "good.rules");
    int fork = bc_emit(&p, OP_FORK, 0, 3, 1);
    bc_emit(&p, OP_MARK, 0, 3, 5);
    bc_emit(&p, OP_STEP, 0, 3, 9);
    bc_emit(&p, OP_BACK, 0, 3, 14);
    bc_emit(&p, OP_ADD, 0, 3, 19);
    bc_emit(&p, OP_HALT, 0, 3, 19);
    bc_patch(&p, fork, p.count);
    bc_emit(&p, OP_HALT, 0, 4, 1);
    bool ok;
    char *text = verify(&p, &ok);
    assert_true(ok);
    assert_string_equal(text, "");
    free(text);
}

static void test_verify_jump_out_of_range(void **state) {
    (void)state;
    Program p;
    bc_init(&p, "Bad/white", "bad.rules");
    bc_emit(&p, OP_JUMP, 1000, 7, 3);
    bc_emit(&p, OP_HALT, 0, 7, 3);
    expect_rejected(&p, "bad.rules:7:3: error: internal: bad bytecode in Bad/white at 0: jump out of the program");
}

static void test_verify_jump_into_an_instruction(void **state) {
    (void)state;
    Program p;
    bc_init(&p, "Bad/white", "bad.rules");
    bc_emit(&p, OP_STEP, 0, 2, 1);
    bc_emit(&p, OP_JUMP, 1, 2, 9); /* offset 1 is STEP's operand */
    bc_emit(&p, OP_HALT, 0, 2, 1);
    expect_rejected(&p, "control flows off an instruction");
}

static void test_verify_bad_operands(void **state) {
    (void)state;
    struct {
        Opcode op;
        int operand;
        const char *msg;
    } cases[] = {
        {OP_STEP, 200, "direction out of range"},     {OP_ONBOARD, 63, "direction out of range"},
        {OP_GOTO, 64, "cell out of range"},           {OP_ISTYPE, 6, "piece type out of range"},
        {OP_INZONE, 2, "zone out of range"},          {OP_ADD, 9, "promotion set out of range"},
        {OP_RIGHT, 4, "castling right out of range"}, {OP_CASTLED, 4, "castling right out of range"},
        {OP_KIND, 1, "move kind out of range"},       {OP_ATTACKERS, 0, "count out of range"},
        {OP_TYPEIN, 60, "type set out of range"},     {OP_COUNT, 0, "counter out of range"},
        /* a slide's second and third operands are type sets or 255 (none) */
        {OP_SLIDE, 0 | (60 << 8) | (0xFF << 16), "type set out of range"},
        {OP_SLIDE, 0 | (0xFF << 8) | (60 << 16), "type set out of range"},
        {OP_WITHDRAW, 0 | (60 << 8), "type set out of range"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        Program p;
        bc_init(&p, "Bad/white", "bad.rules");
        bc_emit(&p, cases[i].op, cases[i].operand, 5, 2);
        bc_emit(&p, OP_HALT, 0, 5, 2);
        expect_rejected(&p, cases[i].msg);
    }
    /* the largest valid operands are fine */
    Program p;
    bc_init(&p, "Edge/white", "ok.rules");
    bc_emit(&p, OP_GOTO, chess->ncells - 1, 1, 1);
    bc_emit(&p, OP_ISTYPE, chess->ntypes - 1, 1, 1);
    bc_emit(&p, OP_INZONE, chess->nzones - 1, 1, 1);
    bc_emit(&p, OP_RIGHT, chess->ncastles - 1, 1, 1);
    bc_emit(&p, OP_HALT, 0, 1, 1);
    bool ok;
    char *text = verify(&p, &ok);
    assert_true(ok);
    free(text);
}

static void test_verify_unknown_opcode_and_truncation(void **state) {
    (void)state;
    Program p;
    bc_init(&p, "Bad/white", "bad.rules");
    bc_emit(&p, OP_HALT, 0, 1, 1);
    p.code[0] = 250;
    expect_rejected(&p, "unknown opcode");
    bc_init(&p, "Bad/white", "bad.rules");
    bc_emit(&p, OP_JUMP, 0, 1, 1);
    p.count = 2; /* the jump's second operand byte is cut off */
    expect_rejected(&p, "truncated instruction");
}

static void test_verify_back_without_mark(void **state) {
    (void)state;
    Program p;
    bc_init(&p, "Bad/white", "bad.rules");
    bc_emit(&p, OP_MARK, 0, 4, 1);
    bc_emit(&p, OP_BACK, 0, 4, 6);
    bc_emit(&p, OP_BACK, 0, 4, 11);
    bc_emit(&p, OP_HALT, 0, 4, 11);
    expect_rejected(&p, "bad.rules:4:11: error: 'back' without a matching 'mark'");
}

/* A mark on only one side of a branch leaves the paths joining with different depths. */
static void test_verify_mark_depth_differs_between_paths(void **state) {
    (void)state;
    Program p;
    bc_init(&p, "Bad/white", "bad.rules");
    bc_emit(&p, OP_EMPTY, 0, 6, 1);
    int jf = bc_emit(&p, OP_JF, 0, 6, 1);
    bc_emit(&p, OP_MARK, 0, 6, 8);
    bc_patch(&p, jf, p.count);
    bc_emit(&p, OP_ADD, 0, 6, 20);
    bc_emit(&p, OP_HALT, 0, 6, 20);
    expect_rejected(&p, "bad.rules:6:20: error: paths meet here with different numbers of 'mark's not taken 'back'");
}

static void test_verify_too_many_marks(void **state) {
    (void)state;
    Program p;
    bc_init(&p, "Bad/white", "bad.rules");
    for (int i = 0; i <= MAX_MARKS; i++) bc_emit(&p, OP_MARK, 0, 9, 1 + i);
    bc_emit(&p, OP_HALT, 0, 9, 1);
    expect_rejected(&p, "too many marks without a 'back' (limit is 8)");
    /* a loop that marks on every turn grows the stack without bound */
    bc_init(&p, "Bad/white", "bad.rules");
    bc_emit(&p, OP_MARK, 0, 9, 1);
    bc_emit(&p, OP_JUMP, 0, 9, 1);
    expect_rejected(&p, "paths meet here with different numbers");
}

/* A move block with an unbalanced back does not load. The message names the rule file even
 * though the variant (which owns a copy of its path) is gone by then. */
static void test_verify_rule_file_back_without_mark(void **state) {
    (void)state;
    char *diags = NULL;
    Variant *v = load_text("version 1\nplayers a b\nboard 3x3\n"
                           "piece K { letter K royal move { step n\n back add } }\n"
                           "setup \"k2/3/2K\"\n",
                           &diags);
    assert_null(v);
    assert_non_null(strstr(diags, "test.rules:5:2: error: 'back' without a matching 'mark'\n"));
    free(diags);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verify_accepts_a_good_program),           cmocka_unit_test(test_verify_jump_out_of_range),
        cmocka_unit_test(test_verify_jump_into_an_instruction),         cmocka_unit_test(test_verify_bad_operands),
        cmocka_unit_test(test_verify_unknown_opcode_and_truncation),    cmocka_unit_test(test_verify_back_without_mark),
        cmocka_unit_test(test_verify_mark_depth_differs_between_paths), cmocka_unit_test(test_verify_too_many_marks),
        cmocka_unit_test(test_verify_rule_file_back_without_mark),
    };
    return cmocka_run_group_tests_name("verify", tests, setup, teardown);
}
