/* test_parse.c - the rule-file parser: tree shape (via ast_dump), locations, syntax-error
 * recovery and messages, lexical errors, limits, and robustness on garbage input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ast.h"
#include "diag.h"
#include "parse.h"
#include "source.h"

/* One parse: the source, its diagnostics and the tree, all freed by done(). */
typedef struct Parsed {
    Source *src;
    DiagSink sink;
    Ast *tree;
    char *dump;
    char *diags;
} Parsed;

static char *dump_string(const Ast *tree) {
    char *buf = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&buf, &size);
    assert_non_null(out);
    ast_dump(tree, out);
    fclose(out);
    return buf;
}

static void parse_src(Parsed *p, Source *src) {
    p->src = src;
    diag_init(&p->sink);
    p->sink.source = src;
    p->tree = parse_source(src, &p->sink);
    assert_non_null(p->tree);
    assert_int_equal(p->tree->kind, AST_FILE);
    p->dump = dump_string(p->tree);
    p->diags = diag_to_string(&p->sink);
}

static void parse(Parsed *p, const char *text) { parse_src(p, source_from_string("t.rules", text)); }

static void done(Parsed *p) {
    ast_free(p->tree);
    diag_free(&p->sink);
    source_free(p->src);
    free(p->dump);
    free(p->diags);
}

/* The dump contains these lines, consecutively. */
#define assert_dump_has(p, text) \
    do { \
        if (!strstr((p)->dump, (text))) fail_msg("dump lacks:\n%s\n--- dump was:\n%s", (text), (p)->dump); \
    } while (0)

#define assert_diags_have(p, text) \
    do { \
        if (!strstr((p)->diags, (text))) fail_msg("diagnostics lack:\n%s\n--- they were:\n%s", (text), (p)->diags); \
    } while (0)

#define assert_no_errors(p) \
    do { \
        if ((p)->sink.errors != 0) fail_msg("unexpected errors:\n%s", (p)->diags); \
    } while (0)

static const char *const example =
    "version 1\n"
    "game \"Chess\"\n"
    "players white(w) black(b)\n"
    "board 8x8\n"
    "orientation black flip\n"
    "zone last-rank relative = rank 8\n"
    "zone pawn-start relative = rank 2\n"
    "piece King { letter K value 0 royal step n s e w ne nw se sw\n"
    "  castle king e1 g1 rook h1 f1 letter K\n"
    "  castle king e1 c1 rook a1 d1 letter Q }\n"
    "piece Knight { letter N value 3 leap sym(1,2) }\n"
    "piece Pawn { letter P value 1 resets-nmove\n"
    "  step n move-only\n"
    "  legs n n move-only from pawn-start sets-ep\n"
    "  step ne nw capture-only\n"
    "  en-passant ne nw\n"
    "  promote in last-rank to Queen Rook Bishop Knight }\n"
    "piece Odd { letter O move { step n while empty { add step n } if enemy { add } else if "
    "friend and not piece King { fail } either { step e } or { step w; capture } add } }\n"
    "macro mao(a, b) { legs a b }\n"
    "piece Horse { letter H use mao(n, ne) }\n"
    "setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"\n"
    "end checkmate loss\n"
    "end stalemate draw\n"
    "end repetition 3 draw\n"
    "end nmove 50 draw\n"
    "end material draw { King vs King, King Bishop vs King, King Bishop vs King Bishop "
    "same-colour }\n"
    "option mode { standard conquest } default standard\n"
    "when mode = conquest { forbid royal-capture }\n";

static void test_parse_example_top_level(void **state) {
    (void)state;
    Parsed p;
    parse(&p, example);
    assert_no_errors(&p);
    assert_int_equal(p.tree->nkids, 21);
    assert_dump_has(&p,
                    "FILE @1:1\n"
                    "  VERSION num=[1,0,0] @1:1\n"
                    "  GAME text=\"Chess\" @2:1\n"
                    "  PLAYERS @3:1\n"
                    "    PLAYER text=\"white\" text2=\"w\" @3:9\n"
                    "    PLAYER text=\"black\" text2=\"b\" @3:18\n"
                    "  BOARD num=[8,8,0] @4:1\n"
                    "  ORIENTATION text=\"black\" text2=\"flip\" @5:1\n"
                    "  ZONE text=\"last-rank\" sub=2 @6:1\n"
                    "    RANK num=[8,0,0] @6:27\n");
    assert_dump_has(&p,
                    "  SETUP text=\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\" @21:1\n"
                    "  END text=\"loss\" @22:1\n"
                    "  END text=\"draw\" sub=1 @23:1\n"
                    "  END text=\"draw\" num=[3,0,0] sub=2 @24:1\n"
                    "  END text=\"draw\" num=[50,0,0] sub=3 @25:1\n"
                    "  END text=\"draw\" sub=4 @26:1\n"
                    "    MATLINE @26:21\n"
                    "      GROUP @26:21\n"
                    "        NAME text=\"King\" @26:21\n"
                    "      GROUP @26:29\n"
                    "        NAME text=\"King\" @26:29\n");
    assert_dump_has(&p,
                    "    MATLINE sub=1 @26:56\n"
                    "      GROUP @26:56\n"
                    "        NAME text=\"King\" @26:56\n"
                    "        NAME text=\"Bishop\" @26:61\n"
                    "      GROUP @26:71\n"
                    "        NAME text=\"King\" @26:71\n"
                    "        NAME text=\"Bishop\" @26:76\n"
                    "  OPTION text=\"mode\" text2=\"standard\" @27:1\n"
                    "    NAME text=\"standard\" @27:15\n"
                    "    NAME text=\"conquest\" @27:24\n"
                    "  WHEN text=\"mode\" text2=\"conquest\" @28:1\n"
                    "    FORBID text=\"royal-capture\" sub=1 @28:24\n");
    done(&p);
}

static void test_parse_example_pieces(void **state) {
    (void)state;
    Parsed p;
    parse(&p, example);
    assert_no_errors(&p);
    /* A bare identifier is a flag; identifiers after an atom are its directions; the castle
     * takes the `letter` after it. */
    assert_dump_has(&p,
                    "  PIECE text=\"King\" @8:1\n"
                    "    LETTER text=\"K\" @8:14\n"
                    "    VALUE @8:23\n"
                    "    FLAG text=\"royal\" @8:31\n"
                    "    ATOM @8:37\n"
                    "      DIR text=\"n\" @8:42\n");
    assert_dump_has(&p,
                    "      DIR text=\"sw\" @8:59\n"
                    "    CASTLE text=\"K\" @9:3\n"
                    "      NAME text=\"e1\" @9:15\n"
                    "      NAME text=\"g1\" @9:18\n"
                    "      NAME text=\"h1\" @9:26\n"
                    "      NAME text=\"f1\" @9:29\n"
                    "    CASTLE text=\"Q\" @10:3\n");
    assert_dump_has(&p,
                    "    ATOM sub=1 @11:33\n"
                    "      SYM num=[1,2,0] @11:38\n");
    assert_dump_has(&p,
                    "    FLAG text=\"resets-nmove\" @12:31\n"
                    "    ATOM @13:3\n"
                    "      DIR text=\"n\" @13:8\n"
                    "      MOD @13:10\n"
                    "    ATOM sub=3 @14:3\n"
                    "      DIR text=\"n\" @14:8\n"
                    "      DIR text=\"n\" @14:10\n"
                    "      MOD @14:12\n"
                    "      MOD text=\"pawn-start\" sub=3 @14:22\n"
                    "      MOD sub=5 @14:38\n"
                    "    ATOM @15:3\n"
                    "      DIR text=\"ne\" @15:8\n"
                    "      DIR text=\"nw\" @15:11\n"
                    "      MOD sub=1 @15:14\n"
                    "    ATOM sub=5 @16:3\n"
                    "      DIR text=\"ne\" @16:14\n"
                    "      DIR text=\"nw\" @16:17\n"
                    "    PROMOTE text=\"last-rank\" @17:3\n"
                    "      NAME text=\"Queen\" @17:27\n"
                    "      NAME text=\"Rook\" @17:33\n"
                    "      NAME text=\"Bishop\" @17:38\n"
                    "      NAME text=\"Knight\" @17:45\n"
                    "  PIECE text=\"Odd\" @18:1\n");
    assert_dump_has(&p,
                    "  MACRO text=\"mao\" num=[2,0,0] @19:1\n"
                    "    NAME text=\"a\" @19:11\n"
                    "    NAME text=\"b\" @19:14\n"
                    "    ATOM sub=3 @19:19\n"
                    "      DIR text=\"a\" @19:24\n"
                    "      DIR text=\"b\" @19:26\n"
                    "  PIECE text=\"Horse\" @20:1\n"
                    "    LETTER text=\"H\" @20:15\n"
                    "    USE text=\"mao\" @20:24\n"
                    "      NAME text=\"n\" @20:32\n"
                    "      NAME text=\"ne\" @20:35\n");
    done(&p);
}

static void test_parse_example_move_block(void **state) {
    (void)state;
    Parsed p;
    parse(&p, example);
    assert_no_errors(&p);
    assert_dump_has(&p,
                    "    MOVEBLOCK @18:22\n"
                    "      STEP @18:29\n"
                    "        DIR text=\"n\" @18:34\n"
                    "      WHILE @18:36\n"
                    "        COND text=\"empty\" @18:42\n"
                    "        BLOCK @18:48\n"
                    "          ADD @18:50\n"
                    "          STEP @18:54\n"
                    "            DIR text=\"n\" @18:59\n"
                    "      IF @18:63\n"
                    "        COND text=\"enemy\" @18:66\n"
                    "        BLOCK @18:72\n"
                    "          ADD @18:74\n"
                    "        BLOCK @18:80\n"
                    "          IF @18:85\n"
                    "            AND @18:88\n"
                    "              COND text=\"friend\" @18:88\n"
                    "              NOT @18:99\n"
                    "                COND text=\"piece\" text2=\"King\" @18:103\n"
                    "            BLOCK @18:114\n"
                    "              FAIL @18:116\n"
                    "      EITHER @18:123\n"
                    "        BLOCK @18:130\n"
                    "          STEP @18:132\n"
                    "            DIR text=\"e\" @18:137\n"
                    "        BLOCK @18:144\n"
                    "          STEP @18:146\n"
                    "            DIR text=\"w\" @18:151\n"
                    "          CAPTURE @18:154\n"
                    "      ADD @18:164\n");
    done(&p);
}

static void test_parse_locations_span_whole_construct(void **state) {
    (void)state;
    Parsed p;
    parse(&p, example);
    assert_no_errors(&p);
    const Ast *king = p.tree->kids[7];
    assert_string_equal(king->text, "King");
    assert_string_equal(king->loc.file, "t.rules");
    assert_int_equal(king->loc.line, 8);
    assert_int_equal(king->loc.col, 1);
    assert_int_equal(king->loc.end_line, 10);
    assert_int_equal(king->loc.end_col, 41); /* the closing '}' */
    const Ast *atom = king->kids[3];
    assert_int_equal(atom->kind, AST_ATOM);
    assert_int_equal(atom->loc.end_line, 8);
    assert_int_equal(atom->loc.end_col, 60); /* end of "sw" */
    /* The outer IF of an else-if chain ends where the chain ends. */
    const Ast *odd = p.tree->kids[10];
    const Ast *ifs = odd->kids[1]->kids[2];
    assert_int_equal(ifs->kind, AST_IF);
    assert_int_equal(ifs->loc.col, 63);
    assert_int_equal(ifs->loc.end_col, 121);
    done(&p);
}

static void test_parse_flag_or_direction_after_atom(void **state) {
    (void)state;
    Parsed p;
    parse(&p,
          "piece A { step n royal }\n"
          "piece B { step n; royal }\n"
          "piece C { step n move-only royal letter C }\n"
          "piece D { promote in z to Queen optional royal }\n"
          "piece E { promote in z to Queen Rook }\n"
          "piece F { castle king e1 g1 rook h1 f1 royal letter F }\n");
    assert_no_errors(&p);
    assert_dump_has(&p,
                    "  PIECE text=\"A\" @1:1\n"
                    "    ATOM @1:11\n"
                    "      DIR text=\"n\" @1:16\n"
                    "      DIR text=\"royal\" @1:18\n"
                    "  PIECE text=\"B\" @2:1\n"
                    "    ATOM @2:11\n"
                    "      DIR text=\"n\" @2:16\n"
                    "    FLAG text=\"royal\" @2:19\n"
                    "  PIECE text=\"C\" @3:1\n"
                    "    ATOM @3:11\n"
                    "      DIR text=\"n\" @3:16\n"
                    "      MOD @3:18\n"
                    "    FLAG text=\"royal\" @3:28\n"
                    "    LETTER text=\"C\" @3:34\n"
                    "  PIECE text=\"D\" @4:1\n"
                    "    PROMOTE text=\"z\" sub=1 @4:11\n"
                    "      NAME text=\"Queen\" @4:27\n"
                    "    FLAG text=\"royal\" @4:42\n"
                    "  PIECE text=\"E\" @5:1\n"
                    "    PROMOTE text=\"z\" @5:11\n"
                    "      NAME text=\"Queen\" @5:27\n"
                    "      NAME text=\"Rook\" @5:33\n"
                    "  PIECE text=\"F\" @6:1\n"
                    "    CASTLE @6:11\n");
    assert_dump_has(&p,
                    "    FLAG text=\"royal\" @6:40\n"
                    "    LETTER text=\"F\" @6:46\n");
    done(&p);
}

static void test_parse_board_zone_and_geometry_items(void **state) {
    (void)state;
    Parsed p;
    parse(&p,
          "board 10 x 8\n"
          "board main 8x8 { holes d4 main:e5 ; holes a1 }\n"
          "turn-order white black black\n"
          "direction up = (0, 1)\n"
          "direction dl = (-1,-1)\n"
          "link portal from main to side\n"
          "dirset orth = n s (1,0) sym(0,1)\n"
          "zone z = e4 main:e5 rank 3 file e all side:rank 2 side:file ab\n"
          "zone home for white = rank 1\n");
    assert_no_errors(&p);
    assert_dump_has(&p,
                    "  BOARD num=[10,8,0] @1:1\n"
                    "  BOARD text=\"main\" num=[8,8,0] @2:1\n"
                    "    HOLES @2:18\n"
                    "      NAME text=\"d4\" @2:24\n"
                    "      NAME text=\"e5\" text2=\"main\" @2:27\n"
                    "    HOLES @2:37\n"
                    "      NAME text=\"a1\" @2:43\n"
                    "  TURN_ORDER @3:1\n"
                    "    NAME text=\"white\" @3:12\n"
                    "    NAME text=\"black\" @3:18\n"
                    "    NAME text=\"black\" @3:24\n"
                    "  DIRECTION text=\"up\" num=[0,1,0] @4:1\n"
                    "  DIRECTION text=\"dl\" num=[-1,-1,0] @5:1\n"
                    "  LINK text=\"portal\" @6:1\n"
                    "    NAME text=\"main\" @6:18\n"
                    "    NAME text=\"side\" @6:26\n"
                    "  DIRSET text=\"orth\" @7:1\n"
                    "    DIR text=\"n\" @7:15\n"
                    "    DIR text=\"s\" @7:17\n"
                    "    VEC num=[1,0,0] @7:19\n"
                    "    SYM num=[0,1,0] @7:25\n"
                    "  ZONE text=\"z\" @8:1\n"
                    "    NAME text=\"e4\" @8:10\n"
                    "    NAME text=\"e5\" text2=\"main\" @8:13\n"
                    "    RANK num=[3,0,0] @8:21\n"
                    "    FILE_SPEC text=\"e\" @8:28\n"
                    "    ALL @8:35\n"
                    "    RANK text=\"side\" num=[2,0,0] @8:39\n"
                    "    FILE_SPEC text=\"ab\" text2=\"side\" @8:51\n"
                    "  ZONE text=\"home\" text2=\"white\" sub=1 @9:1\n"
                    "    RANK num=[1,0,0] @9:23\n");
    done(&p);
}

static void test_parse_statements_and_conditions(void **state) {
    (void)state;
    Parsed p;
    parse(&p,
          "piece P { move {\n"
          "  verify not not (ep or attacked) and unmoved or last-to\n"
          "  verify on-board (1,2) and in far-zone and last-from\n"
          "  mark back origin set-ep goto main:e4 goto e5 change Queen\n"
          "  if empty { add } else { fail }\n"
          "  either { add } or { add } or { capture }\n"
          "} when mode = fast { step n } symbol \"K\" \"k\" }\n");
    assert_no_errors(&p);
    assert_dump_has(&p,
                    "      VERIFY @2:3\n"
                    "        OR @2:10\n"
                    "          AND @2:10\n"
                    "            NOT @2:10\n"
                    "              NOT @2:14\n"
                    "                OR @2:19\n"
                    "                  COND text=\"ep\" @2:19\n"
                    "                  COND text=\"attacked\" @2:25\n"
                    "            COND text=\"unmoved\" @2:39\n"
                    "          COND text=\"last-to\" @2:50\n"
                    "      VERIFY @3:3\n"
                    "        AND @3:10\n"
                    "          AND @3:10\n"
                    "            ONBOARD @3:10\n"
                    "              VEC num=[1,2,0] @3:19\n"
                    "            COND text=\"in\" text2=\"far-zone\" @3:29\n"
                    "          COND text=\"last-from\" @3:45\n"
                    "      MARK @4:3\n"
                    "      BACK @4:8\n"
                    "      ORIGIN @4:13\n"
                    "      SETEP @4:20\n"
                    "      GOTO text=\"e4\" text2=\"main\" @4:27\n"
                    "      GOTO text=\"e5\" @4:40\n"
                    "      CHANGE text=\"Queen\" @4:48\n"
                    "      IF @5:3\n"
                    "        COND text=\"empty\" @5:6\n"
                    "        BLOCK @5:12\n"
                    "          ADD @5:14\n"
                    "        BLOCK @5:25\n"
                    "          FAIL @5:27\n"
                    "      EITHER @6:3\n"
                    "        BLOCK @6:10\n"
                    "          ADD @6:12\n"
                    "        BLOCK @6:21\n"
                    "          ADD @6:23\n"
                    "        BLOCK @6:32\n"
                    "          CAPTURE @6:34\n"
                    "    WHEN text=\"mode\" text2=\"fast\" @7:3\n"
                    "      ATOM @7:22\n"
                    "        DIR text=\"n\" @7:27\n"
                    "    SYMBOL @7:31\n"
                    "      STRING text=\"K\" @7:38\n"
                    "      STRING text=\"k\" @7:42\n");
    done(&p);
}

static void test_parse_lexical_details(void **state) {
    (void)state;
    Parsed p;
    parse(&p,
          "# comment\n"
          "game \"a \\\"q\\\" \\\\ \\n b\"  # trailing comment\n"
          "\tversion\t-0\n"
          "macro m() { slide n range 7 to far from near hop (0,-1) }\n"
          "; ; forbid x-y allow a_b-2\n");
    assert_no_errors(&p);
    assert_dump_has(&p,
                    "  GAME text=\"a \\\"q\\\" \\\\ \\n b\" @2:1\n"
                    "  VERSION @3:2\n"
                    "  MACRO text=\"m\" @4:1\n");
    done(&p);
    parse(&p,
          "macro m() { slide n range 7 to far from near hop (0,-1) }\n"
          "forbid x-y allow a_b-2\n");
    assert_no_errors(&p);
    assert_dump_has(&p,
                    "    ATOM sub=2 @1:13\n"
                    "      DIR text=\"n\" @1:19\n"
                    "      MOD num=[7,0,0] sub=2 @1:21\n"
                    "      MOD text=\"far\" sub=4 @1:29\n"
                    "      MOD text=\"near\" sub=3 @1:36\n"
                    "    ATOM sub=4 @1:46\n"
                    "      VEC num=[0,-1,0] @1:50\n"
                    "  FORBID text=\"x-y\" sub=1 @2:1\n"
                    "  FORBID text=\"a_b-2\" @2:12\n");
    done(&p);
}

static void test_parse_several_syntax_errors_all_reported(void **state) {
    (void)state;
    Parsed p;
    parse(&p,
          "version \"1\"\n"
          "game 5\n"
          "piece X { letter }\n"
          "piece Y { move { step ; step e; if emptyy { add } step } }\n"
          "board 8 y 8\n"
          "piece Z { value 3 }\n"
          "}\n");
    assert_int_equal(p.sink.errors, 8);
    assert_diags_have(&p,
                      "t.rules:1:9: error: syntax error, unexpected string \"1\", expecting integer\n"
                      "version \"1\"\n"
                      "        ^~~\n");
    assert_diags_have(&p, "t.rules:2:6: error: syntax error, unexpected integer '5', expecting string\n");
    assert_diags_have(&p, "t.rules:3:18: error: syntax error, unexpected '}', expecting identifier or '+'\n");
    assert_diags_have(&p, "t.rules:4:23: error: syntax error, unexpected ';', expecting identifier or 'sym' or '('\n");
    assert_diags_have(&p, "t.rules:4:36: error: syntax error, unexpected identifier 'emptyy'\n");
    assert_diags_have(&p, "t.rules:4:56: error: syntax error, unexpected '}', expecting identifier or 'sym' or '('\n");
    assert_diags_have(&p, "t.rules:5:9: error: syntax error, unexpected identifier 'y', expecting 'x'\n");
    assert_diags_have(&p, "t.rules:7:1: error: syntax error, unexpected '}'\n");
    /* Recovery keeps the good parts: piece Z is intact, and so is what came before an error. */
    assert_dump_has(&p,
                    "  PIECE text=\"Z\" @6:1\n"
                    "    VALUE num=[3,0,0] @6:11\n");
    assert_dump_has(&p,
                    "  PIECE text=\"Y\" @4:1\n"
                    "    MOVEBLOCK @4:11\n"
                    "      STEP @4:25\n"
                    "        DIR text=\"e\" @4:30\n");
    done(&p);
}

static void test_parse_error_in_one_item_does_not_hide_the_next(void **state) {
    (void)state;
    Parsed p;
    parse(&p,
          "zone z = rank\n"
          "zone y = file\n"
          "version x\n");
    assert_int_equal(p.sink.errors, 3);
    assert_diags_have(&p, "t.rules:2:1: error: syntax error, unexpected 'zone', expecting integer\n");
    assert_diags_have(&p, "t.rules:3:1: error: syntax error, unexpected 'version', expecting identifier\n");
    assert_diags_have(&p, "t.rules:3:9: error: syntax error, unexpected 'x', expecting integer\n");
    done(&p);
}

static void test_parse_unclosed_brace_names_opener(void **state) {
    (void)state;
    Parsed p;
    parse(&p,
          "version 1\n"
          "piece X {\n"
          "  move {\n"
          "    step n\n"
          "  }\n");
    assert_int_equal(p.sink.errors, 1);
    assert_diags_have(&p, "t.rules:5:4: error: expected '}' (to close '{' at line 2)\n");
    /* The partial piece is lost, but the items before it are kept. */
    assert_dump_has(&p,
                    "FILE @1:1\n"
                    "  VERSION num=[1,0,0] @1:1\n");
    done(&p);
}

static void test_parse_unterminated_string(void **state) {
    (void)state;
    Parsed p;
    parse(&p, "game \"Chess\nversion 1\nsetup \"abc\\");
    assert_int_equal(p.sink.errors, 2);
    assert_diags_have(&p,
                      "t.rules:1:6: error: unterminated string\n"
                      "game \"Chess\n"
                      "     ^~~~~~\n");
    assert_diags_have(&p, "t.rules:3:7: error: unterminated string\n");
    /* The string still counts as one, so no syntax error follows. */
    assert_dump_has(&p,
                    "  GAME text=\"Chess\" @1:1\n"
                    "  VERSION num=[1,0,0] @2:1\n"
                    "  SETUP text=\"abc\" @3:1\n");
    done(&p);
}

static void test_parse_bad_escape(void **state) {
    (void)state;
    Parsed p;
    parse(&p, "game \"a\\tb\"\n");
    assert_int_equal(p.sink.errors, 1);
    assert_diags_have(&p,
                      "t.rules:1:8: error: bad escape '\\t' in string (use \\\" \\\\ or \\n)\n"
                      "game \"a\\tb\"\n"
                      "       ^~\n");
    done(&p);
}

static void test_parse_integer_too_large(void **state) {
    (void)state;
    Parsed p;
    parse(&p,
          "version 1000000000\nversion 1000000001\nboard 99999999999999999999x8\n"
          "direction d = (-2000000000, 0)\n");
    assert_int_equal(p.sink.errors, 3);
    assert_diags_have(&p,
                      "t.rules:2:9: error: integer '1000000001' is too large (limit is 1000000000)\n"
                      "version 1000000001\n"
                      "        ^~~~~~~~~~\n");
    assert_diags_have(&p,
                      "t.rules:3:7: error: integer '99999999999999999999' is too large (limit is 1000000000)\n"
                      "board 99999999999999999999x8\n"
                      "      ^~~~~~~~~~~~~~~~~~~~\n");
    assert_diags_have(&p, "t.rules:4:16: error: integer '-2000000000' is too large");
    assert_dump_has(&p, "  VERSION num=[1000000000,0,0] @1:1\n");
    done(&p);
}

static void test_parse_unexpected_character(void **state) {
    (void)state;
    Parsed p;
    parse(&p, "version 1 @\npiece X { value 2 $ letter L é }\n");
    assert_int_equal(p.sink.errors, 3);
    assert_diags_have(&p,
                      "t.rules:1:11: error: unexpected character '@'\n"
                      "version 1 @\n"
                      "          ^\n");
    assert_diags_have(&p, "t.rules:2:19: error: unexpected character '$'\n");
    assert_diags_have(&p, "t.rules:2:30: error: unexpected character '\xc3\xa9'\n");
    /* The bad characters are skipped: the items around them parse. */
    assert_dump_has(&p,
                    "    VALUE num=[2,0,0] @2:11\n"
                    "    LETTER text=\"L\" @2:21\n");
    done(&p);
}

static void test_parse_nesting_limit(void **state) {
    (void)state;
    char text[8192];
    Parsed p;

    /* Braces: piece and move take 2 of the 64 levels. */
    size_t n = (size_t)snprintf(text, sizeof text, "piece X { move {");
    for (int i = 0; i < 62; i++) n += (size_t)snprintf(text + n, sizeof text - n, " if empty {");
    for (int i = 0; i < 64; i++) n += (size_t)snprintf(text + n, sizeof text - n, " }");
    parse(&p, text);
    assert_no_errors(&p);
    done(&p);

    n = (size_t)snprintf(text, sizeof text, "piece X { move {");
    for (int i = 0; i < 63; i++) n += (size_t)snprintf(text + n, sizeof text - n, " if empty {");
    parse(&p, text);
    assert_int_equal(p.sink.errors, 1);
    assert_diags_have(&p, "t.rules:1:709: error: nesting too deep (limit is 64)\n");
    done(&p);

    /* Conditions: a run of `not`, and a chain of `and`. */
    n = (size_t)snprintf(text, sizeof text, "piece X { move { verify");
    for (int i = 0; i < 64; i++) n += (size_t)snprintf(text + n, sizeof text - n, " not");
    snprintf(text + n, sizeof text - n, " empty } }");
    parse(&p, text);
    assert_int_equal(p.sink.errors, 1);
    assert_diags_have(&p, "error: nesting too deep (limit is 64)\n");
    done(&p);

    n = (size_t)snprintf(text, sizeof text, "piece X { move { verify empty");
    for (int i = 0; i < 63; i++) n += (size_t)snprintf(text + n, sizeof text - n, " and empty");
    snprintf(text + n, sizeof text - n, " } }\nversion 1\n");
    parse(&p, text);
    assert_no_errors(&p);
    assert_dump_has(&p, "  VERSION");
    done(&p);

    n = (size_t)snprintf(text, sizeof text, "piece X { move { verify empty");
    for (int i = 0; i < 64; i++) n += (size_t)snprintf(text + n, sizeof text - n, " or empty");
    snprintf(text + n, sizeof text - n, " } }\n");
    parse(&p, text);
    assert_int_equal(p.sink.errors, 1);
    assert_diags_have(&p, "t.rules:1:25: error: nesting too deep (limit is 64)\n");
    done(&p);

    /* else-if chains. */
    n = (size_t)snprintf(text, sizeof text, "piece X { move { if empty { add }");
    for (int i = 0; i < 64; i++) n += (size_t)snprintf(text + n, sizeof text - n, " else if empty { add }");
    snprintf(text + n, sizeof text - n, " } }\n");
    parse(&p, text);
    assert_int_equal(p.sink.errors, 1);
    assert_diags_have(&p, "error: nesting too deep (limit is 64)\n");
    done(&p);
}

static void test_parse_huge_nesting_stops_cleanly(void **state) {
    (void)state;
    enum { N = 200000 };
    char *text = malloc(N * 4 + 64);
    assert_non_null(text);
    const char *units[] = {"{", "(", "not ", "empty and ", "if empty { add } else "};
    for (size_t u = 0; u < ARRAY_LEN(units); u++) {
        size_t n = (size_t)sprintf(text, "piece X { move { verify ");
        size_t len = strlen(units[u]);
        for (int i = 0; i < N / (int)len; i++, n += len) memcpy(text + n, units[u], len);
        strcpy(text + n, "empty } }");
        Parsed p;
        parse(&p, text);
        assert_true(p.sink.errors >= 1);
        assert_diags_have(&p, "nesting too deep (limit is 64)");
        done(&p);
    }
    free(text);
}

static void test_parse_garbage_bytes_do_not_crash(void **state) {
    (void)state;
    uint32_t seed = 12345;
    enum { LEN = 4096 };
    char *text = malloc(LEN + 1);
    assert_non_null(text);
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < LEN; i++) {
            seed = seed * 1103515245u + 12345u;
            text[i] = (char)(seed >> 16);
        }
        text[LEN] = '\0';
        Source *src = xmalloc(sizeof *src);
        src->path = xstrdup("garbage.rules");
        src->text = xmalloc(LEN + 1);
        memcpy(src->text, text, LEN + 1);
        src->len = LEN; /* NUL bytes included */
        Parsed p;
        parse_src(&p, src);
        assert_true(p.sink.errors > 0);
        assert_true(p.sink.count <= MAX_DIAGNOSTICS);
        done(&p);
    }
    free(text);

    /* NUL bytes in the middle of otherwise good text. */
    static const char nul_text[] = "version 1\0\npiece X { \"a\0b\" }\n";
    Source *src = xmalloc(sizeof *src);
    src->path = xstrdup("nul.rules");
    src->len = sizeof nul_text - 1;
    src->text = xmalloc(src->len + 1);
    memcpy(src->text, nul_text, src->len + 1);
    Parsed p;
    parse_src(&p, src);
    assert_diags_have(&p, "nul.rules:1:10: error: unexpected character '\\x00'\n");
    assert_diags_have(&p, "nul.rules:2:13: error: unexpected character '\\x00' in string (no control characters)\n");
    assert_dump_has(&p, "  VERSION num=[1,0,0] @1:1\n");
    done(&p);
}

static void test_parse_too_many_errors_stop(void **state) {
    (void)state;
    char text[4096];
    size_t n = 0;
    for (int i = 0; i < 100; i++) n += (size_t)snprintf(text + n, sizeof text - n, "version x\n");
    Parsed p;
    parse(&p, text);
    assert_true(p.sink.truncated);
    assert_int_equal(p.sink.count, MAX_DIAGNOSTICS);
    assert_diags_have(&p, "note: too many errors (only the first 20 are shown)\n");
    done(&p);
}

static void test_parse_empty_and_separator_only_files(void **state) {
    (void)state;
    Parsed p;
    parse(&p, "");
    assert_no_errors(&p);
    assert_string_equal(p.dump, "FILE @1:1\n");
    done(&p);
    parse(&p, "  # only a comment\n;;\n");
    assert_no_errors(&p);
    assert_string_equal(p.dump, "FILE @1:1\n");
    done(&p);
}

static void test_parse_clone_is_identical(void **state) {
    (void)state;
    Parsed p;
    parse(&p, example);
    Ast *copy = ast_clone(p.tree);
    char *dump = dump_string(copy);
    assert_string_equal(dump, p.dump);
    free(dump);
    ast_free(copy);
    done(&p);
}

/* Strings reach the terminal: control characters and broken UTF-8 are refused where written. */
static void test_parse_strings_hold_no_control_characters(void **state) {
    (void)state;
    Parsed p;
    parse(&p, "game \"\x1b[31mred\"");
    assert_int_equal(p.sink.errors, 1);
    assert_diags_have(&p, "t.rules:1:7: error: unexpected character '\\x1B' in string (no control characters)\n");
    done(&p);
    /* a stray byte, an overlong form, a surrogate, a C1 control (CSI) */
    const char *bad[] = {"game \"a\xff\"",
                         ("game \"a\xe0\x80\x80"
                          "b\""),
                         "game \"\xed\xa0\x80\"", "game \"\xc2\x9b\""};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        parse(&p, bad[i]);
        assert_int_equal(p.sink.errors, 1);
        assert_diags_have(&p, "t.rules:1:6: error: string is not valid UTF-8 text\n");
        done(&p);
    }
    parse(&p, "game \"\xe2\x99\x94 king\"");
    assert_no_errors(&p);
    done(&p);
}

static void test_parse_kind_names(void **state) {
    (void)state;
    assert_string_equal(ast_kind_name(AST_FILE), "FILE");
    assert_string_equal(ast_kind_name(AST_FILE_SPEC), "FILE_SPEC");
    assert_string_equal(ast_kind_name(AST_SETEP), "SETEP");
    assert_string_equal(ast_kind_name(AST_STRING), "STRING");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_example_top_level),
        cmocka_unit_test(test_parse_example_pieces),
        cmocka_unit_test(test_parse_example_move_block),
        cmocka_unit_test(test_parse_locations_span_whole_construct),
        cmocka_unit_test(test_parse_flag_or_direction_after_atom),
        cmocka_unit_test(test_parse_board_zone_and_geometry_items),
        cmocka_unit_test(test_parse_statements_and_conditions),
        cmocka_unit_test(test_parse_lexical_details),
        cmocka_unit_test(test_parse_several_syntax_errors_all_reported),
        cmocka_unit_test(test_parse_error_in_one_item_does_not_hide_the_next),
        cmocka_unit_test(test_parse_unclosed_brace_names_opener),
        cmocka_unit_test(test_parse_unterminated_string),
        cmocka_unit_test(test_parse_bad_escape),
        cmocka_unit_test(test_parse_integer_too_large),
        cmocka_unit_test(test_parse_unexpected_character),
        cmocka_unit_test(test_parse_nesting_limit),
        cmocka_unit_test(test_parse_huge_nesting_stops_cleanly),
        cmocka_unit_test(test_parse_garbage_bytes_do_not_crash),
        cmocka_unit_test(test_parse_too_many_errors_stop),
        cmocka_unit_test(test_parse_empty_and_separator_only_files),
        cmocka_unit_test(test_parse_clone_is_identical),
        cmocka_unit_test(test_parse_kind_names),
        cmocka_unit_test(test_parse_strings_hold_no_control_characters),
    };
    return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
