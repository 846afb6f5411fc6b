/* test_compile.c - code generation: the instruction sequences of atoms and statements, the ray
 * tables of the fast generator, and which pieces may use the fast attack test. */
#include <stdio.h>

#include "disasm.h"
#include "support.h"

static Variant *load_ok(const char *text) {
    Variant *v = load_text_ok(text);
    return v;
}

/* A one-board game around the given piece definitions. */
static Variant *load_pieces(const char *pieces) {
    char text[4096];
    snprintf(text, sizeof text,
             "version 1\nplayers white(w) black(b)\nboard 8x8\norientation black flip\n"
             "zone far relative = rank 8\npiece King { letter K royal step n }\n%s\n"
             "setup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n",
             pieces);
    return load_ok(text);
}

/* The opcodes of a program with their operands, e.g. "FORK>14 STEP(0,1) EMPTY JF>12 ...";
 * jumps show their target offset, directions their vector. */
static void shape(const Variant *v, const Program *p, char *out, size_t cap) {
    out[0] = 0;
    for (int pc = 0; pc < p->count;) {
        Opcode op = (Opcode)p->code[pc];
        char item[48];
        switch (bc_opinfo[op].kinds[0]) {
        case OPK_JUMP:
            snprintf(item, sizeof item, "%s>%d ", bc_opinfo[op].name, bc_read_u16(p->code + pc + 1));
            break;
        case OPK_DIR: {
            const Direction *d = &v->dirs[p->code[pc + 1]];
            snprintf(item, sizeof item, "%s(%d,%d) ", bc_opinfo[op].name, d->dx, d->dy);
            break;
        }
        case OPK_PROMO:
        case OPK_CASTLE:
        case OPK_TYPESET:
        case OPK_COUNT:
        case OPK_KIND: snprintf(item, sizeof item, "%s%d ", bc_opinfo[op].name, p->code[pc + 1]); break;
        default: snprintf(item, sizeof item, "%s ", bc_opinfo[op].name); break;
        }
        strncat(out, item, cap - strlen(out) - 1);
        pc += bc_instr_size(op);
    }
}

static const Program *prog_of(const Variant *v, char letter, int owner) {
    int t = variant_type_by_letter(v, letter);
    assert_true(t >= 0);
    return &v->types[t].per_owner[owner].prog;
}

/* A rook's slide is one loop per direction: step, stop at a piece, emit on empty cells, jump
 * back; at the piece, emit only a capture. */
static void test_compile_slide_loop(void **state) {
    (void)state;
    Variant *v = load_pieces("piece Rook { letter R slide n e }");
    char text[1024];
    shape(v, prog_of(v, 'R', 0), text, sizeof text);
    /* SLIDE emits every empty cell and stops on the first piece, which may be captured */
    assert_string_equal(text,
                        "FORK>12 SLIDE(0,1) ENEMY VERIFY ADD0 HALT "
                        "FORK>24 SLIDE(1,0) ENEMY VERIFY ADD0 HALT HALT ");
    /* black's program is the same walked in its own frame */
    shape(v, prog_of(v, 'R', 1), text, sizeof text);
    assert_non_null(strstr(text, "SLIDE(0,-1)"));
    assert_null(strstr(text, "SLIDE(0,1)"));
    variant_free(v);
}

/* range N unrolls the loop; move-only stops at the first piece without capturing. */
static void test_compile_slide_range_and_move_only(void **state) {
    (void)state;
    Variant *v = load_pieces("piece Rook { letter R slide n range 2 move-only }");
    char text[1024];
    shape(v, prog_of(v, 'R', 0), text, sizeof text);
    assert_string_equal(text, "FORK>22 STEP(0,1) EMPTY JF>20 ADD0 STEP(0,1) EMPTY JF>20 ADD0 HALT HALT HALT HALT ");
    variant_free(v);
}

/* A range longer than any line of the board is no limit (found by fuzzing: it once overran
 * the compiler's jump table). */
static void test_compile_long_range_is_unlimited(void **state) {
    (void)state;
    Variant *v = load_pieces("piece Rook { letter R slide n range 100 }\npiece Bishop { letter B slide n }");
    char rook[1024], bishop[1024];
    shape(v, prog_of(v, 'R', 0), rook, sizeof rook);
    shape(v, prog_of(v, 'B', 0), bishop, sizeof bishop);
    assert_string_equal(rook, bishop);
    assert_int_equal(v->types[variant_type_by_letter(v, 'R')].per_owner[0].gen[0].range, 0);
    variant_free(v);
}

/* Leaps test the target (not a friend), then emit; the promotion set is the ADD operand. */
static void test_compile_leap_and_promotion_operand(void **state) {
    (void)state;
    Variant *v = load_pieces("piece Queen { letter Q step n }\n"
                             "piece Pawn { letter P step n move-only promote in far to Queen }");
    char text[1024];
    shape(v, prog_of(v, 'P', 0), text, sizeof text);
    assert_string_equal(text, "FORK>10 STEP(0,1) EMPTY VERIFY ADD1 HALT HALT ");
    shape(v, prog_of(v, 'Q', 0), text, sizeof text);
    assert_string_equal(text, "FORK>11 STEP(0,1) FRIEND NOT VERIFY ADD0 HALT HALT ");
    variant_free(v);
}

/* Conditions compile to short-circuit jumps; if/else and while to forward/backward jumps. */
static void test_compile_move_block_control_flow(void **state) {
    (void)state;
    Variant *v = load_pieces("piece Wiz { letter W move { while empty and not friend { step n } "
                             "if enemy or ep { add } else { fail } } }");
    char text[1024];
    shape(v, prog_of(v, 'W', 0), text, sizeof text);
    assert_string_equal(text,
                        "FORK>32 EMPTY JF>9 FRIEND NOT JF>17 STEP(0,1) JUMP>3 ENEMY JT>22 ISEP JF>30 "
                        "ADD0 JUMP>31 HALT HALT HALT ");
    variant_free(v);
}

/* The disassembler names cells, zones and types and gives the rule-file line. */
static void test_compile_disasm_text(void **state) {
    (void)state;
    Variant *v = load_pieces("piece Wiz { letter W\n move { goto e4 verify in far change King add } }");
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    disasm_program(v, prog_of(v, 'W', 0), out);
    fclose(out);
    assert_non_null(strstr(buf, "== Wiz/white ("));
    assert_non_null(strstr(buf, "GOTO      e4 "));
    assert_non_null(strstr(buf, "INZONE    far "));
    assert_non_null(strstr(buf, "CHANGE    King "));
    assert_non_null(strstr(buf, "line 8\n"));
    free(buf);
    variant_free(v);
}

static bool has_ray(const Ray *rays, int n, const Variant *v, int dx, int dy, bool slide, int mode) {
    for (int i = 0; i < n; i++)
        if (v->dirs[rays[i].dir].dx == dx && v->dirs[rays[i].dir].dy == dy && rays[i].slide == slide &&
            rays[i].mode == mode && rays[i].range == (slide ? 0 : 1))
            return true;
    return false;
}

/* Chess: every piece is described by rays; the pawn's captures are attack rays only (its moves
 * go through the program for promotion), turned for black. */
static void test_compile_chess_ray_tables(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    const PieceType *rook = &v->types[variant_type_by_letter(v, 'R')];
    const PieceType *knight = &v->types[variant_type_by_letter(v, 'N')];
    const PieceType *king = &v->types[variant_type_by_letter(v, 'K')];
    const PieceType *pawn = &v->types[variant_type_by_letter(v, 'P')];
    const PieceProgram *r = &rook->per_owner[0];
    assert_int_equal(r->ngen, 4);
    assert_int_equal(r->natk, 4);
    assert_true(has_ray(r->gen, r->ngen, v, 0, 1, true, RAY_BOTH));
    assert_true(has_ray(r->gen, r->ngen, v, -1, 0, true, RAY_BOTH));
    assert_true(has_ray(r->atk, r->natk, v, 0, -1, true, RAY_CAPTURE));
    const PieceProgram *n = &knight->per_owner[1];
    assert_int_equal(n->ngen, 8);
    assert_true(has_ray(n->gen, n->ngen, v, 2, -1, false, RAY_BOTH));
    assert_int_equal(king->per_owner[0].ngen, 8);
    assert_true(king->per_owner[0].rest.count > 0); /* castling runs as a program */
    assert_int_equal(pawn->per_owner[0].ngen, 0);
    assert_int_equal(pawn->per_owner[0].natk, 2);
    assert_true(has_ray(pawn->per_owner[0].atk, 2, v, 1, 1, false, RAY_CAPTURE));
    assert_true(has_ray(pawn->per_owner[1].atk, 2, v, -1, -1, false, RAY_CAPTURE));
    for (int t = 0; t < v->ntypes; t++) assert_true(v->types[t].fast_attack);
    assert_true(v->all_fast);
    variant_free(v);
}

/* Pieces whose captures rays cannot describe lose the fast attack test: a hopper, a program
 * that adds moves. Moves that never capture keep it; lame legs, zones and the program shapes
 * of a slide onto one type and of the cannon's hop become rays and patterns. */
static void test_compile_fast_attack_flags(void **state) {
    (void)state;
    Variant *v =
        load_pieces("piece Hopper { letter H hop n }\n"
                    "piece Wiz { letter W move { step n add } }\n"
                    "piece Mao { letter M legs n ne }\n"
                    "piece Zoned { letter Z legs n ne to far }\n"
                    "piece Walker { letter A legs n n move-only slide e }\n"
                    "piece Shy { letter S step n move-only leap (1,2) capture-only }\n"
                    "piece Cannon { letter C move { step n while empty { step n } step n\n"
                    "    while empty { step n } verify enemy add } }\n"
                    "piece Gaze { letter G move { step n while empty { step n } verify piece Mao and enemy add } }\n"
                    "piece Odd { letter O move { step n while empty { step n } verify friend add } }");
    assert_false(v->types[variant_type_by_letter(v, 'H')].fast_attack);
    assert_false(v->types[variant_type_by_letter(v, 'W')].fast_attack);
    /* a lame leap is checked backwards as a pattern; with a zone it needs its program */
    const PieceType *mao = &v->types[variant_type_by_letter(v, 'M')];
    assert_true(mao->fast_attack);
    assert_int_equal(mao->per_owner[0].npatterns, 1);
    assert_int_equal(mao->per_owner[0].patterns[0].method, CAP_LEGS);
    const PieceType *zoned = &v->types[variant_type_by_letter(v, 'Z')];
    assert_true(zoned->fast_attack);
    int far = -1;
    for (int z = 0; z < v->nzones; z++)
        if (!strcmp(v->zones[z].name, "far")) far = z;
    assert_int_equal(zoned->per_owner[0].patterns[0].to_zone, 1 + far);
    const PieceType *cannon = &v->types[variant_type_by_letter(v, 'C')];
    assert_true(cannon->fast_attack);
    assert_int_equal(cannon->per_owner[0].patterns[0].method, CAP_HOP);
    const PieceType *gaze = &v->types[variant_type_by_letter(v, 'G')];
    assert_true(gaze->fast_attack);
    assert_int_equal(gaze->per_owner[0].natk, 1);
    assert_int_equal(gaze->per_owner[0].atk[0].victims, 1u << variant_type_by_letter(v, 'M'));
    assert_false(v->types[variant_type_by_letter(v, 'O')].fast_attack);
    assert_true(v->types[variant_type_by_letter(v, 'A')].fast_attack);
    const PieceType *shy = &v->types[variant_type_by_letter(v, 'S')];
    assert_true(shy->fast_attack);
    assert_int_equal(shy->per_owner[0].natk, 1); /* only the capture-only leap attacks */
    assert_false(v->all_fast);
    variant_free(v);
}

/* Compiled programs pass the verifier, and each castle gets its own right and letter. */
static void test_compile_castles(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    assert_int_equal(v->ncastles, 4);
    char letters[5] = {0};
    for (int i = 0; i < 4; i++) {
        letters[i] = v->castles[i].letter;
        assert_int_equal(v->castles[i].right, i);
    }
    assert_string_equal(letters, "KQkq");
    assert_int_equal(v->castles[2].king_from, variant_cell_by_name(v, "e8"));
    assert_int_equal(v->castles[2].rook_to, variant_cell_by_name(v, "f8"));
    variant_free(v);
}

/* An either of many alternatives jumps past all of them from each: 64 that fail, then a step
 * north and a step east (once, the jump after the 64th was lost and the north step ran on into
 * the east one). */
static void test_compile_long_either(void **state) {
    (void)state;
    char pieces[4096] = "piece Walker { letter W move { either { fail }";
    for (int i = 1; i < 64; i++) strcat(pieces, " or { fail }");
    strcat(pieces, " or { step n } or { step e } verify empty add } }");
    char text[8192];
    snprintf(text, sizeof text,
             "version 1\nplayers white(w) black(b)\nboard 8x8\npiece King { letter K step n }\n%s\n"
             "setup \"8/8/8/8/8/8/8/W7 w - - 0 1\"\n",
             pieces);
    Variant *v = load_ok(text);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "8/8/8/8/8/8/8/W7 w - - 0 1");
    char moves[256];
    legal_moves_text(&pos, moves, sizeof moves);
    assert_string_equal(moves, "a1a2 a1b1");
    board_free(&pos);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compile_slide_loop),
        cmocka_unit_test(test_compile_slide_range_and_move_only),
        cmocka_unit_test(test_compile_long_range_is_unlimited),
        cmocka_unit_test(test_compile_leap_and_promotion_operand),
        cmocka_unit_test(test_compile_move_block_control_flow),
        cmocka_unit_test(test_compile_disasm_text),
        cmocka_unit_test(test_compile_chess_ray_tables),
        cmocka_unit_test(test_compile_fast_attack_flags),
        cmocka_unit_test(test_compile_castles),
        cmocka_unit_test(test_compile_long_either),
    };
    return cmocka_run_group_tests_name("compile", tests, NULL, NULL);
}
