/* parser.y - the rule-file grammar. Actions only build syntax-tree nodes (ast_* constructors and
 * the parse_* helpers of parse_internal.h); meaning is given later by sema.c.
 * Pure (reentrant) parser with locations: all state lives in ParseCtx. Errors are recovered at
 * item level (top-level items, piece items, statements), so every syntax error is reported. */

%require "3.8"
%define api.pure full
%define api.prefix {rl_}
%define api.token.prefix {TOK_}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {yyscan_t scanner}
%parse-param {ParseCtx *ctx}

%code requires {
#include "parse_internal.h"
}

%code {
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

/* Bison location (last column inclusive) to SrcLoc. */
#define L(x) parse_loc(ctx, (x).first_line, (x).first_column, (x).last_line, (x).last_column)

/* In a `list error` rule: resynchronise on the list at bracket depth `depth` (see
 * parse_recover), leaving error mode at once when that is safe. yychar/yylloc: the lookahead. */
#define RECOVER(depth, mode) \
    do { \
        if (parse_recover(ctx, (int)(depth), (mode), yychar, yylloc.first_line, yylloc.first_column)) \
            yyerrok; \
    } while (0)

static void yyerror(YYLTYPE *loc, yyscan_t scanner, ParseCtx *ctx, const char *msg);
static Ast *mk(AstKind kind, SrcLoc loc);
static Ast *mk_num(AstKind kind, SrcLoc loc, long a, long b);
static Ast *mk_sub(AstKind kind, SrcLoc loc, int sub);
static Ast *mk_cond(SrcLoc loc, Keyword word, char *owned2);
static void chain_set_end(Ast *top, SrcLoc end);
static void append(char *msg, size_t size, size_t *len, const char *fmt, ...) PRINTF_LIKE(4, 5);
}

%union {
    char *str;          /* owned, from IDENT/STRING */
    Keyword word;       /* a keyword handed on as a value */
    long num;
    IntPair pair;
    Ast *node;
    AstChain chain;
}

%destructor { free($$); } <str>
%destructor { ast_free($$); } <node>
%destructor { ast_free($$.top); } <chain>

%token <str>  IDENT  "identifier"
%token <num>  INT    "integer"
%token <str>  STRING "string"
%token <pair> SIZE   "board size"
%token <num>  LBRACE "'{'"   /* value: bracket depth inside it (error recovery uses it) */
%token KW_VERSION "'version'"
%token KW_GAME "'game'"
%token KW_PLAYERS "'players'"
%token KW_TURN_ORDER "'turn-order'"
%token KW_BOARD "'board'"
%token KW_HOLES "'holes'"
%token KW_LIGHT "'light'"
%token KW_DARK "'dark'"
%token KW_X "'x'"
%token KW_ORIENTATION "'orientation'"
%token KW_DIRECTION "'direction'"
%token KW_LINK "'link'"
%token KW_FROM "'from'"
%token KW_TO "'to'"
%token KW_DIRSET "'dirset'"
%token KW_ZONE "'zone'"
%token KW_FOR "'for'"
%token KW_RELATIVE "'relative'"
%token KW_RANK "'rank'"
%token KW_FILE "'file'"
%token KW_ALL "'all'"
%token KW_OPTION "'option'"
%token KW_DEFAULT "'default'"
%token KW_WHEN "'when'"
%token KW_PIECE "'piece'"
%token KW_MACRO "'macro'"
%token KW_DEFINE "'define'"
%token KW_PRIORITY "'priority'"
%token KW_MERGE_DUPLICATES "'merge-duplicates'"
%token KW_MOST "'most'"
%token KW_ADD_PARTIAL "'add-partial'"
%token KW_SET_FLAG "'set-flag'"
%token KW_CLEAR_FLAG "'clear-flag'"
%token KW_FLAG "'flag'"
%token KW_TAG "'tag'"
%token KW_UNTAG "'untag'"
%token KW_TAGGED "'tagged'"
%token KW_TAKEN "'taken'"
%token KW_SETUP "'setup'"
%token KW_END "'end'"
%token KW_CHECKMATE "'checkmate'"
%token KW_STALEMATE "'stalemate'"
%token KW_BLOCKED "'blocked'"
%token KW_REPETITION "'repetition'"
%token KW_NMOVE "'nmove'"
%token KW_MUST_CAPTURE "'must-capture'"
%token KW_PIECES "'pieces'"
%token KW_ROYAL_CAPTURED "'royal-captured'"
%token KW_FEWER_PIECES "'fewer-pieces'"
%token KW_EXTINCTION "'extinction'"
%token KW_TOTAL_PIECES "'total-pieces'"
%token KW_BARE_KING "'bare-king'"
%token KW_COUNTING "'counting'"
%token KW_REACH "'reach'"
%token KW_CHECKS "'checks'"
%token KW_REPLY "'reply'"
%token KW_LAST_CHANCE "'last-chance'"
%token KW_LOST_TO "'lost-to'"
%token KW_SAFE "'safe'"
%token KW_DEFEATED "'defeated'"
%token KW_PASS "'pass'"
%token KW_FACING "'facing'"
%token KW_SHUFFLE "'shuffle'"
%token KW_ARMIES "'armies'"
%token KW_STEER "'steer'"
%token KW_TRANSFER "'transfer'"
%token KW_COPY "'copy'"
%token KW_INFLUENCE "'influence'"
%token KW_RIVAL "'rival'"
%token KW_HELPS "'helps'"
%token KW_AT_RANDOM "'at-random'"
%token KW_COUNTER "'counter'"
%token KW_PER_PLAYER "'per-player'"
%token KW_PHASE "'phase'"
%token KW_PILE "'pile'"
%token KW_MINEFIELD "'minefield'"
%token KW_ATTACKERS "'attackers'"
%token KW_PRELUDE "'prelude'"
%token KW_SORTED "'sorted'"
%token KW_PAY "'pay'"
%token KW_KIND "'kind'"
%token KW_WORTH "'worth'"
%token KW_TUNED "'tuned'"
%token KW_CAPTURE_REWARD "'capture-reward'"
%token KW_EXTRA_CAPTURE "'extra-capture'"
%token KW_BY "'by'"
%token KW_AT_LEAST "'at-least'"
%token KW_AT_MOST "'at-most'"
%token KW_MATERIAL "'material'"
%token KW_VS "'vs'"
%token KW_SAME_COLOUR "'same-colour'"
%token KW_WIN "'win'"
%token KW_LOSS "'loss'"
%token KW_DRAW "'draw'"
%token KW_FORBID "'forbid'"
%token KW_ALLOW "'allow'"
%token KW_LETTER "'letter'"
%token KW_SYMBOL "'symbol'"
%token KW_WRITTEN "'written'"
%token KW_HELP "'help'"
%token KW_VALUE "'value'"
%token KW_STEP "'step'"
%token KW_LEAP "'leap'"
%token KW_SLIDE "'slide'"
%token KW_LEGS "'legs'"
%token KW_HOP "'hop'"
%token KW_EN_PASSANT "'en-passant'"
%token KW_MOVE_ONLY "'move-only'"
%token KW_CAPTURE_ONLY "'capture-only'"
%token KW_RANGE "'range'"
%token KW_SETS_EP "'sets-ep'"
%token KW_LONG_LEAP "'long-leap'"
%token KW_DROP "'drop'"
%token KW_HANDS "'hands'"
%token KW_GATING "'gating'"
%token KW_WITHDRAW "'withdraw'"
%token KW_PINCER "'pincer'"
%token KW_COORDINATE "'coordinate'"
%token KW_IMITATE "'imitate'"
%token KW_LEAPS_ALONE "'leaps-alone'"
%token KW_POSITION_FIELDS "'position-fields'"
%token KW_POSITION_FORMAT "'position-format'"
%token KW_CASTLE "'castle'"
%token KW_PRIVILEGE "'privilege'"
%token KW_KING "'king'"
%token KW_ROOK "'rook'"
%token KW_PROMOTE "'promote'"
%token KW_IN "'in'"
%token KW_OPTIONAL "'optional'"
%token KW_LOST_ONLY "'lost-only'"
%token KW_MOVE "'move'"
%token KW_USE "'use'"
%token KW_VERIFY "'verify'"
%token KW_IF "'if'"
%token KW_ELSE "'else'"
%token KW_WHILE "'while'"
%token KW_EITHER "'either'"
%token KW_OR "'or'"
%token KW_ADD "'add'"
%token KW_CAPTURE "'capture'"
%token KW_MARK "'mark'"
%token KW_BACK "'back'"
%token KW_ORIGIN "'origin'"
%token KW_GOTO "'goto'"
%token KW_CHANGE "'change'"
%token KW_CONVERT "'convert'"
%token KW_TURN_OVER "'turn-over'"
%token KW_OUTFLANK "'outflank'"
%token KW_HAND_OVER "'hand-over'"
%token KW_SET_EP "'set-ep'"
%token KW_FAIL "'fail'"
%token KW_EMPTY "'empty'"
%token KW_ENEMY "'enemy'"
%token KW_FRIEND "'friend'"
%token KW_EP "'ep'"
%token KW_ATTACKED "'attacked'"
%token KW_DEFENDED "'defended'"
%token KW_GIVES_CHECK "'gives-check'"
%token KW_UNMOVED "'unmoved'"
%token KW_LAST_TO "'last-to'"
%token KW_LAST_FROM "'last-from'"
%token KW_NOT "'not'"
%token KW_AND "'and'"
%token KW_ON_BOARD "'on-board'"
%token KW_SYM "'sym'"
/* boards as graphs, placement programs, effects on other cells, goals, custodian rules */
%token KW_CELLS "'cells'"
%token KW_HOLDING "'holding'"
%token KW_SYMMETRY "'symmetry'"
%token KW_EXCEPT "'except'"
%token KW_EXISTS "'exists'"
%token KW_CREATE "'create'"
%token KW_CHANGE_TYPE "'change-type'"
%token KW_IN_A_ROW "'in-a-row'"
%token KW_EXACTLY "'exactly'"
%token KW_CONNECT "'connect'"
%token KW_OCCUPY "'occupy'"
%token KW_HOSTILE "'hostile'"
%token KW_SURROUND "'surround'"
%token KW_SHIELDWALL "'shieldwall'"
%token KW_REFLECT "'reflect'"

%type <node> and_names reach_parts opt_for
%type <node> item items players player names board_body board_items cellrefs cellref opt_steer_if
%type <node> dirterms dirterm vec cellspecs cellspec params opt_params matlines matline group
%type <node> counting_items counting_item
%type <node> pitems pi_closed pi_idopen pi_letopen pi_noid pi_nolet closed_item
%type <node> atom_head atom_mods modifier promote_head promote_where promote_opts castle_base strings
%type <node> opt_args args arg
%type <node> ints
%type <num> pile_mods
%type <node> stmts stmt block either_alts cond or_cond and_cond unary primary
%type <chain> if_chain nots
%type <num> atom_kw
%type <word> result
%type <str> opt_ident opt_default
%type <num> opt_copy opt_at_most opt_on_board opt_rival opt_reply opt_reach_reply
%type <str> opt_end_name
%type <pair> size
%type <node> zone_cells cell_entries cell_entry chains dirpairs opt_types opt_by
%type <num> opt_exactly

%%

/* ---- top level ------------------------------------------------------------------------- */

/* Items go straight into ctx->root, so the tree survives an aborted parse. */
file
    : %empty
    | file item             { ast_add(ctx->root, $2); yyerrok; }
    | file ';'              { yyerrok; }
    | file error            { RECOVER(0, PARSE_SYNC_TOP); }
    ;

/* Top-level items inside a `when` (a holder node whose children are moved to the WHEN).
 * $<num>0 is the '{' below the list: its bracket depth is where recovery resumes. */
items
    : %empty                { $$ = mk(AST_BLOCK, L(@$)); }
    | items item            { $$ = ast_add($1, $2); yyerrok; }
    | items ';'             { $$ = $1; yyerrok; }
    | items error           { $$ = $1; RECOVER($<num>0, PARSE_SYNC_ITEMS); }
    ;

item
    : KW_VERSION INT        { $$ = mk_num(AST_VERSION, L(@$), $2, 0); }
    | KW_GAME STRING        { $$ = parse_text_node(AST_GAME, L(@$), $2); }
    | KW_HELP STRING        { $$ = parse_text_node(AST_HELP, L(@$), $2); }
    | KW_PLAYERS players    { $$ = parse_adopt(mk(AST_PLAYERS, L(@$)), $2); }
    | KW_TURN_ORDER names   { $$ = parse_adopt(mk(AST_TURN_ORDER, L(@$)), $2); }
    | KW_BOARD opt_ident size board_body
        {
            $$ = parse_text_node(AST_BOARD, L(@$), $2);
            $$->num[0] = $3.a;
            $$->num[1] = $3.b;
            parse_adopt($$, $4);
        }
    | KW_BOARD opt_ident STRING size board_body
        {
            $$ = parse_text2_node(AST_BOARD, L(@$), $2, $3);
            $$->num[0] = $4.a;
            $$->num[1] = $4.b;
            parse_adopt($$, $5);
        }
    | KW_BOARD opt_ident size IDENT board_body
        {
            /* a shape word after the size (hex): a FLAG among the board's items */
            $$ = parse_text_node(AST_BOARD, L(@$), $2);
            $$->num[0] = $3.a;
            $$->num[1] = $3.b;
            ast_add($$, parse_text_node(AST_FLAG, L(@4), $4));
            parse_adopt($$, $5);
        }
    | KW_BOARD opt_ident STRING size IDENT board_body
        {
            $$ = parse_text2_node(AST_BOARD, L(@$), $2, $3);
            $$->num[0] = $4.a;
            $$->num[1] = $4.b;
            ast_add($$, parse_text_node(AST_FLAG, L(@5), $5));
            parse_adopt($$, $6);
        }
    | KW_ORIENTATION IDENT IDENT
        { $$ = parse_text2_node(AST_ORIENTATION, L(@$), $2, $3); }
    | KW_DIRECTION IDENT '=' '(' INT ',' INT ')'
        {
            $$ = parse_text_node(AST_DIRECTION, L(@$), $2);
            $$->num[0] = $5;
            $$->num[1] = $7;
        }
    | KW_LINK IDENT KW_FROM IDENT KW_TO IDENT
        {
            $$ = parse_text_node(AST_LINK, L(@$), $2);
            ast_add($$, parse_text_node(AST_NAME, L(@4), $4));
            ast_add($$, parse_text_node(AST_NAME, L(@6), $6));
        }
    | KW_LINK IDENT '=' chains
        { $$ = parse_adopt(parse_text_node(AST_LINK, L(@$), $2), $4); $$->sub = 1; }
    | KW_LINK IDENT IDENT '=' chains
        { $$ = parse_adopt(parse_text2_node(AST_LINK, L(@$), $2, $3), $5); $$->sub = 1; }
    | KW_SYMMETRY IDENT dirpairs
        { $$ = parse_adopt(parse_text_node(AST_SYMMETRY, L(@$), $2), $3); }
    | KW_HOSTILE IDENT      { $$ = parse_text_node(AST_HOSTILE, L(@$), $2); }
    | KW_SURROUND names     { $$ = parse_adopt(mk(AST_SURROUND, L(@$)), $2); }
    | KW_SURROUND names KW_IN IDENT
        { $$ = parse_adopt(parse_text_node(AST_SURROUND, L(@$), $4), $2); }
    | KW_SHIELDWALL         { $$ = mk(AST_SHIELDWALL, L(@$)); }
    | KW_END KW_IN_A_ROW INT opt_exactly opt_types opt_by result opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_IN_A_ROW);
            $$->num[0] = $3;
            $$->num[1] = $4;
            $$->word = $7;
            $$->text2 = $8;
            ast_add($$, $5);
            ast_add($$, $6);
        }
    | KW_END KW_CONNECT IDENT IDENT opt_by result opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_CONNECT);
            $$->word = $6;
            $$->text2 = $7;
            ast_add($$, parse_text_node(AST_NAME, L(@3), $3));
            ast_add($$, parse_text_node(AST_NAME, L(@4), $4));
            ast_add($$, $5);
        }
    | KW_END KW_OCCUPY IDENT opt_types result opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_OCCUPY);
            $$->word = $5;
            $$->text2 = $6;
            ast_add($$, parse_text_node(AST_NAME, L(@3), $3));
            ast_add($$, $4);
        }
    | KW_DIRSET IDENT '=' dirterms
        { $$ = parse_adopt(parse_text_node(AST_DIRSET, L(@$), $2), $4); }
    | KW_ZONE IDENT '=' zone_cells
        {
            $$ = parse_adopt(parse_text_node(AST_ZONE, L(@$), $2), $4);
            $$->sub = ZONE_ABSOLUTE;
        }
    | KW_ZONE IDENT KW_FOR IDENT '=' zone_cells
        {
            $$ = parse_adopt(parse_text2_node(AST_ZONE, L(@$), $2, $4), $6);
            $$->sub = ZONE_FOR;
        }
    | KW_ZONE IDENT KW_RELATIVE '=' zone_cells
        {
            $$ = parse_adopt(parse_text_node(AST_ZONE, L(@$), $2), $5);
            $$->sub = ZONE_RELATIVE;
        }
    | KW_OPTION IDENT LBRACE names '}' opt_default
        { $$ = parse_adopt(parse_text2_node(AST_OPTION, L(@$), $2, $6), $4); }
    | KW_WHEN IDENT '=' IDENT LBRACE items '}'
        { $$ = parse_adopt(parse_text2_node(AST_WHEN, L(@$), $2, $4), $6); }
    | KW_PIECE IDENT LBRACE pitems '}'
        { $$ = parse_adopt(parse_text_node(AST_PIECE, L(@$), $2), $4); }
    | KW_MACRO IDENT '(' opt_params ')' LBRACE pitems '}'
        {
            $$ = parse_text_node(AST_MACRO, L(@$), $2);
            $$->num[0] = $4->nkids;
            parse_adopt($$, $4);
            parse_adopt($$, $7);
        }
    | KW_DEFINE IDENT '(' opt_params ')' LBRACE stmts '}'
        {
            $$ = parse_text_node(AST_DEFINE, L(@$), $2);
            $$->num[0] = $4->nkids;
            parse_adopt($$, $4);
            ast_add($$, $7);
        }
    | KW_PRIORITY names     { $$ = parse_adopt(mk(AST_PRIORITY, L(@$)), $2); }
    | KW_MERGE_DUPLICATES   { $$ = mk(AST_MERGE_DUPLICATES, L(@$)); }
    | KW_SETUP STRING       { $$ = parse_text_node(AST_SETUP, L(@$), $2); }
    | KW_POSITION_FORMAT IDENT
        { $$ = parse_text_node(AST_POSITION_FORMAT, L(@$), $2); }
    | KW_POSITION_FIELDS STRING
        { $$ = parse_text_node(AST_POSITION_FIELDS, L(@$), $2); }
    | KW_END KW_CHECKMATE result
        { $$ = mk_sub(AST_END, L(@$), END_CHECKMATE); $$->word = $3; }
    | KW_END KW_STALEMATE result
        { $$ = mk_sub(AST_END, L(@$), END_STALEMATE); $$->word = $3; }
    | KW_END KW_CHECKMATE result STRING
        { $$ = mk_sub(AST_END, L(@$), END_CHECKMATE); $$->word = $3; $$->text2 = $4; }
    | KW_END KW_STALEMATE result KW_FOR names opt_end_name
        {
            $$ = ast_add(mk_sub(AST_END, L(@$), END_STALEMATE), $5);
            $$->word = $3;
            $$->text2 = $6;
        }
    | KW_END KW_STALEMATE result STRING
        { $$ = mk_sub(AST_END, L(@$), END_STALEMATE); $$->word = $3; $$->text2 = $4; }
    | KW_END KW_STALEMATE KW_PIECES KW_AT_MOST INT result opt_for opt_end_name
        {
            $$ = ast_add(mk_sub(AST_END, L(@$), END_STALEMATE), $7);
            $$->word = $6;
            $$->num[1] = $5 + 1L;
            $$->text2 = $8;
        }
    | KW_END KW_BLOCKED result opt_end_name
        { $$ = mk_sub(AST_END, L(@$), END_BLOCKED); $$->word = $3; $$->text2 = $4; }
    | KW_END KW_REPETITION INT result opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_REPETITION);
            $$->word = $4;
            $$->num[0] = $3;
            $$->text2 = $5;
        }
    | KW_END KW_NMOVE INT result opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_NMOVE);
            $$->word = $4;
            $$->num[0] = $3;
            $$->text2 = $5;
        }
    | KW_END KW_MUST_CAPTURE IDENT KW_IN IDENT result opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_MUST_CAPTURE);
            $$->word = $6;
            $$->text2 = $7;
            ast_add($$, parse_text_node(AST_NAME, L(@3), $3));
            ast_add($$, parse_text_node(AST_NAME, L(@5), $5));
        }
    | KW_END KW_STALEMATE KW_FEWER_PIECES result opt_end_name
        { $$ = mk_sub(AST_END, L(@$), END_STALEMATE); $$->word = $4; $$->text2 = $5; $$->num[0] = 1; }
    | KW_END KW_PIECES KW_AT_MOST INT result opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_PIECES);
            $$->word = $5;
            $$->num[0] = $4;
            $$->text2 = $6;
        }
    | KW_END KW_ROYAL_CAPTURED result opt_end_name
        { $$ = mk_sub(AST_END, L(@$), END_ROYAL_CAPTURED); $$->word = $3; $$->text2 = $4; }
    | KW_MUST_CAPTURE       { $$ = mk(AST_MUST_CAPTURE, L(@$)); }
    | KW_MUST_CAPTURE KW_MOST { $$ = mk_sub(AST_MUST_CAPTURE, L(@$), 1); }
    | KW_MUST_CAPTURE KW_MOST names
        { $$ = parse_adopt(mk_sub(AST_MUST_CAPTURE, L(@$), 1), $3); }
    | KW_END KW_MATERIAL result LBRACE matlines '}' opt_end_name
        {
            $$ = parse_adopt(mk_sub(AST_END, L(@$), END_MATERIAL), $5);
            $$->word = $3;
            $$->text2 = $7;
        }
    | KW_END KW_MATERIAL result LBRACE matlines ',' '}' opt_end_name
        {
            $$ = parse_adopt(mk_sub(AST_END, L(@$), END_MATERIAL), $5);
            $$->word = $3;
            $$->text2 = $8;
        }
    | KW_END KW_EXTINCTION names opt_at_most opt_on_board opt_rival result opt_for opt_end_name
        {
            $$ = parse_adopt(mk_sub(AST_END, L(@$), END_EXTINCTION), $3);
            $$->word = $7;
            $$->num[0] = $4;
            $$->num[1] = $5 ? 2 : 0;
            $$->num[2] = $6;
            $$->text2 = $9;
            ast_add($$, $8);
        }
    | KW_END KW_EXTINCTION and_names opt_at_most opt_on_board opt_rival result opt_for opt_end_name
        {
            $$ = ast_add(mk_sub(AST_END, L(@$), END_EXTINCTION), $3);
            $$->word = $7;
            $$->num[0] = $4;
            $$->num[1] = $5 ? 2 : 0;
            $$->num[2] = $6;
            $$->text2 = $9;
            ast_add($$, $8);
        }
    | KW_END KW_EXTINCTION KW_ALL opt_at_most opt_on_board opt_rival result opt_for opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_EXTINCTION);
            $$->word = $7;
            $$->num[0] = $4;
            $$->num[1] = $5 ? 3 : 1;
            $$->num[2] = $6;
            $$->text2 = $9;
            ast_add($$, $8);
        }
    | KW_END KW_TOTAL_PIECES INT result opt_for opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_TOTAL);
            $$->word = $4;
            $$->num[0] = $3;
            $$->text2 = $6;
            ast_add($$, $5);
        }
    | KW_END KW_TOTAL_PIECES INT names result opt_for opt_end_name
        {
            $$ = parse_adopt(mk_sub(AST_END, L(@$), END_TOTAL), $4);
            $$->word = $5;
            $$->num[0] = $3;
            $$->text2 = $7;
            ast_add($$, $6);
        }
    | KW_END KW_COUNTING result opt_end_name LBRACE counting_items '}'
        {
            $$ = parse_adopt(mk_sub(AST_END, L(@$), END_COUNTING), $6);
            $$->word = $3;
            $$->text2 = $4;
        }
    | KW_END KW_COUNTING result opt_end_name LBRACE counting_items ',' '}'
        {
            $$ = parse_adopt(mk_sub(AST_END, L(@$), END_COUNTING), $6);
            $$->word = $3;
            $$->text2 = $4;
        }
    | KW_END KW_BARE_KING result opt_reply opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_BARE_KING);
            $$->word = $3;
            $$->num[1] = $4;
            $$->text2 = $5;
        }
    | KW_END KW_REACH reach_parts result opt_reach_reply opt_for opt_end_name
        {
            $$ = parse_adopt(mk_sub(AST_END, L(@$), END_REACH), $3);
            $$->word = $4;
            $$->num[1] = $5;
            $$->text2 = $7;
            ast_add($$, $6);
        }
    | KW_END KW_CHECKS INT result opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_CHECKS);
            $$->word = $4;
            $$->num[0] = $3;
            $$->text2 = $5;
        }
    | KW_END KW_PASS INT result opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_PASSES);
            $$->word = $4;
            $$->num[0] = $3;
            $$->text2 = $5;
        }
    | KW_END KW_FACING IDENT result opt_end_name
        {
            $$ = mk_sub(AST_END, L(@$), END_FACING);
            $$->word = $4;
            $$->text2 = $5;
            ast_add($$, parse_text_node(AST_NAME, L(@3), $3));
        }
    | KW_WORTH IDENT INT    { $$ = parse_text_node(AST_WORTH_BONUS, L(@$), $2); $$->num[0] = $3; }
    | KW_TUNED IDENT INT    { $$ = parse_text_node(AST_TUNED, L(@$), $2); $$->num[0] = $3; }
    | KW_TUNED IDENT IDENT INT
        {
            $$ = parse_text_node(AST_TUNED, L(@$), $2);
            $$->text2 = $3;
            $$->num[0] = $4;
        }
    | KW_TUNED IDENT KW_VALUE INT
        {
            $$ = parse_text_node(AST_TUNED, L(@$), $2);
            $$->text2 = xstrdup("value");
            $$->num[0] = $4;
        }
    | KW_FORBID IDENT       { $$ = parse_text_node(AST_FORBID, L(@$), $2); $$->sub = 1; }
    | KW_DEFEATED IDENT     { $$ = parse_text_node(AST_DEFEATED, L(@$), $2); }
    | KW_SHUFFLE IDENT      { $$ = parse_text_node(AST_SHUFFLE, L(@$), $2); }
    | KW_ARMIES players     { $$ = parse_adopt(mk(AST_ARMIES, L(@$)), $2); }
    | KW_STEER names KW_BY names opt_copy opt_steer_if
        {
            $$ = mk_sub(AST_STEER, L(@$), (int)$5);
            ast_add($$, $2);
            ast_add($$, $4);
            if ($6) ast_add($$, $6);
        }
    | KW_TRANSFER names     { $$ = parse_adopt(mk(AST_TRANSFER, L(@$)), $2); }
    | KW_KIND IDENT KW_IF KW_GIVES_CHECK
        { $$ = parse_text_node(AST_CHECK_KIND, L(@$), $2); }
    | KW_HELPS names        { $$ = parse_adopt(mk(AST_ALLEGIANCE, L(@$)), $2); }
    | KW_HELPS names KW_AT_RANDOM
        { $$ = parse_adopt(mk_sub(AST_ALLEGIANCE, L(@$), 1), $2); }
    | KW_COUNTER IDENT '=' INT
        { $$ = parse_text_node(AST_COUNTER, L(@$), $2); $$->num[0] = $4; }
    | KW_COUNTER IDENT KW_PER_PLAYER '=' INT
        { $$ = parse_text_node(AST_COUNTER, L(@$), $2); $$->num[0] = $5; $$->sub = 1; }
    | KW_ALLOW IDENT        { $$ = parse_text_node(AST_FORBID, L(@$), $2); $$->sub = 0; }
    | KW_ALLOW KW_PASS      { $$ = parse_text_node(AST_FORBID, L(@$), xstrdup("pass")); $$->sub = 0; }
    | KW_PHASE IDENT IDENT names
        { $$ = parse_adopt(parse_text2_node(AST_PHASE, L(@$), $2, $3), $4); }
    | KW_PHASE IDENT KW_AT_MOST INT names
        { $$ = parse_adopt(parse_text_node(AST_PHASE, L(@$), $2), $5); $$->num[0] = $4; $$->sub = 1; }
    | KW_PILE IDENT pile_mods
        { $$ = parse_text_node(AST_PILE, L(@$), $2); $$->sub = (int)$3; }
    | KW_PILE IDENT pile_mods '=' ints
        { $$ = parse_adopt(parse_text_node(AST_PILE, L(@$), $2), $5); $$->sub = (int)$3; }
    | KW_DRAW IDENT KW_FROM IDENT KW_TO IDENT
        {
            $$ = parse_text_node(AST_CARD_RULE, L(@$), $2);
            $$->num[0] = 1;
            ast_add($$, parse_text_node(AST_NAME, L(@4), $4));
            ast_add($$, parse_text_node(AST_NAME, L(@6), $6));
        }
    | KW_DRAW IDENT INT KW_FROM IDENT KW_TO IDENT
        {
            $$ = parse_text_node(AST_CARD_RULE, L(@$), $2);
            $$->num[0] = $3;
            ast_add($$, parse_text_node(AST_NAME, L(@5), $5));
            ast_add($$, parse_text_node(AST_NAME, L(@7), $7));
        }
    | KW_DRAW IDENT INT KW_FROM IDENT IDENT KW_TO IDENT
        {
            /* "from own PILE": the mover's own pile only */
            $$ = parse_text2_node(AST_CARD_RULE, L(@$), $2, $5);
            $$->num[0] = $3;
            ast_add($$, parse_text_node(AST_NAME, L(@6), $6));
            ast_add($$, parse_text_node(AST_NAME, L(@8), $8));
        }
    | KW_HANDS              { $$ = mk(AST_HANDS, L(@$)); }
    | KW_GATING IDENT       { $$ = parse_text_node(AST_GATING, L(@$), $2); }
    | KW_HANDS names        { $$ = parse_adopt(mk(AST_HANDS, L(@$)), $2); }
    | KW_MINEFIELD IDENT INT KW_BY IDENT
        { $$ = parse_text2_node(AST_MINEFIELD, L(@$), $2, $5); $$->num[0] = $3; }
    | KW_PRELUDE IDENT IDENT INT
        { $$ = parse_text2_node(AST_PRELUDE, L(@$), $2, $3); $$->num[0] = $4; }
    | KW_PAY IDENT KW_FROM IDENT KW_TO IDENT
        {
            $$ = parse_text_node(AST_CARD_RULE, L(@$), $2);
            $$->sub = 1;
            ast_add($$, parse_text_node(AST_NAME, L(@4), $4));
            ast_add($$, parse_text_node(AST_NAME, L(@6), $6));
        }
    | KW_END KW_EMPTY IDENT result
        {
            $$ = mk_sub(AST_END, L(@$), END_EMPTY);
            $$->word = $4;
            ast_add($$, parse_text_node(AST_NAME, L(@3), $3));
        }
    | KW_END KW_EMPTY IDENT result STRING
        {
            $$ = mk_sub(AST_END, L(@$), END_EMPTY);
            $$->word = $4;
            $$->text2 = $5;
            ast_add($$, parse_text_node(AST_NAME, L(@3), $3));
        }
    | KW_CAPTURE_REWARD IDENT
        { $$ = parse_text_node(AST_CAPTURE_REWARD, L(@$), $2); }
    | KW_EXTRA_CAPTURE IDENT KW_AT_LEAST INT
        { $$ = parse_text_node(AST_EXTRA_CAPTURE, L(@$), $2); $$->num[0] = $4; }
    | KW_EXTRA_CAPTURE IDENT KW_AT_LEAST INT IDENT
        { $$ = parse_text2_node(AST_EXTRA_CAPTURE, L(@$), $2, $5); $$->num[0] = $4; }
    ;

pile_mods
    : %empty                { $$ = 0; }
    | pile_mods KW_PER_PLAYER { $$ = $1 | 1; }
    | pile_mods KW_SORTED   { $$ = $1 | 2; }
    ;

ints
    : INT                   { $$ = ast_add(mk(AST_BLOCK, L(@$)), mk_num(AST_VALUE, L(@1), $1, 0)); }
    | ints INT              { $$ = ast_add($1, mk_num(AST_VALUE, L(@2), $2, 0)); }
    ;

players
    : player                { $$ = ast_add(mk(AST_BLOCK, L(@$)), $1); }
    | players player        { $$ = ast_add($1, $2); }
    ;

player
    : IDENT                 { $$ = parse_text_node(AST_PLAYER, L(@$), $1); }
    | IDENT '(' IDENT ')'   { $$ = parse_text2_node(AST_PLAYER, L(@$), $1, $3); }
    | IDENT '(' KW_X ')'    { $$ = parse_text2_node(AST_PLAYER, L(@$), $1, xstrdup("x")); }
    ;

names
    : IDENT                 { $$ = ast_add(mk(AST_BLOCK, L(@$)), parse_text_node(AST_NAME, L(@1), $1)); }
    | names IDENT           { $$ = ast_add($1, parse_text_node(AST_NAME, L(@2), $2)); }
    ;

/* types joined by `and` (an extinction of each of them): a GROUP of NAMEs */
and_names
    : IDENT KW_AND IDENT
        {
            $$ = ast_add(mk(AST_GROUP, L(@$)), parse_text_node(AST_NAME, L(@1), $1));
            ast_add($$, parse_text_node(AST_NAME, L(@3), $3));
        }
    | and_names KW_AND IDENT { $$ = ast_add($1, parse_text_node(AST_NAME, L(@3), $3)); }
    ;

/* `PIECE in ZONE [and PIECE in ZONE]...`: NAME piece, NAME zone, ... */
reach_parts
    : IDENT KW_IN IDENT
        {
            $$ = ast_add(mk(AST_BLOCK, L(@$)), parse_text_node(AST_NAME, L(@1), $1));
            ast_add($$, parse_text_node(AST_NAME, L(@3), $3));
        }
    | reach_parts KW_AND IDENT KW_IN IDENT
        {
            $$ = ast_add($1, parse_text_node(AST_NAME, L(@3), $3));
            ast_add($$, parse_text_node(AST_NAME, L(@5), $5));
        }
    ;

/* `for PLAYER...`: a BLOCK of NAMEs (NULL: every player) */
opt_for
    : %empty                { $$ = NULL; }
    | KW_FOR names          { $$ = $2; }
    ;

opt_ident
    : %empty                { $$ = NULL; }
    | IDENT
    ;

opt_copy
    : %empty                { $$ = 0; }
    | KW_COPY               { $$ = 1; }
    ;

opt_steer_if
    : %empty                { $$ = NULL; }
    | KW_IF cond            { $$ = $2; }
    ;

opt_default
    : %empty                { $$ = NULL; }
    | KW_DEFAULT IDENT      { $$ = $2; }
    ;

size
    : INT KW_X INT          { $$.a = $1; $$.b = $3; }
    | SIZE
    ;

board_body
    : %empty                { $$ = mk(AST_BLOCK, L(@$)); }
    | LBRACE board_items '}' { $$ = $2; }
    ;

board_items
    : %empty                { $$ = mk(AST_BLOCK, L(@$)); }
    | board_items KW_HOLES cellrefs
        {
            Ast *holes = parse_adopt(mk(AST_HOLES, parse_loc(ctx, @2.first_line, @2.first_column,
                                                             @3.last_line, @3.last_column)), $3);
            $$ = ast_add($1, holes);
        }
    | board_items KW_HOLES KW_LIGHT
        { $$ = ast_add($1, mk_sub(AST_HOLES, L(@2), HOLES_LIGHT)); }
    | board_items KW_HOLES KW_DARK
        { $$ = ast_add($1, mk_sub(AST_HOLES, L(@2), HOLES_DARK)); }
    | board_items KW_CELLS cell_entries
        {
            SrcLoc loc = parse_loc(ctx, @2.first_line, @2.first_column, @3.last_line, @3.last_column);
            $$ = ast_add($1, parse_adopt(mk(AST_CELLS, loc), $3));
        }
    | board_items KW_HOLDING names
        {
            /* one row of holding cells: off the grid, named freely */
            SrcLoc loc = parse_loc(ctx, @2.first_line, @2.first_column, @3.last_line, @3.last_column);
            $$ = ast_add($1, parse_adopt(mk(AST_HOLDING, loc), $3));
        }
    | board_items ';'
    ;

/* a cell of the grid by its name (d4), or a cell named freely at its place: centre (4, 4) */
cell_entries
    : cell_entry            { $$ = ast_add(mk(AST_BLOCK, L(@$)), $1); }
    | cell_entries cell_entry { $$ = ast_add($1, $2); }
    ;

cell_entry
    : IDENT                 { $$ = parse_text_node(AST_NAME, L(@$), $1); }
    | IDENT '(' INT ',' INT ')'
        {
            $$ = parse_text_node(AST_NAME, L(@$), $1);
            $$->sub = 1;
            $$->num[0] = $3;
            $$->num[1] = $5;
        }
    ;

cellrefs
    : cellref               { $$ = ast_add(mk(AST_BLOCK, L(@$)), $1); }
    | cellrefs cellref      { $$ = ast_add($1, $2); }
    ;

/* A cell, optionally on a named board: e4 or main:e4. */
cellref
    : IDENT                 { $$ = parse_text_node(AST_NAME, L(@$), $1); }
    | IDENT ':' IDENT       { $$ = parse_text2_node(AST_NAME, L(@$), $3, $1); }
    ;

/* the cells of a zone, and after `except` those taken out of it (an EXCEPT as the last kid) */
zone_cells
    : cellspecs
    | cellspecs KW_EXCEPT cellspecs
        {
            SrcLoc loc = parse_loc(ctx, @2.first_line, @2.first_column, @3.last_line, @3.last_column);
            $$ = ast_add($1, parse_adopt(mk(AST_EXCEPT, loc), $3));
        }
    ;

/* `link D R = a1 a4 a7, b2 b4 b6`: chains of cells, each linked to the next */
chains
    : cellrefs              { $$ = ast_add(mk(AST_BLOCK, L(@$)), $1); }
    | chains ',' cellrefs   { $$ = ast_add($1, $3); }
    ;

/* `symmetry black up down, down up`: each pair is a direction as written and the one it means */
dirpairs
    : IDENT IDENT
        {
            Ast *pair = mk(AST_GROUP, L(@$));
            ast_add(pair, parse_text_node(AST_NAME, L(@1), $1));
            ast_add(pair, parse_text_node(AST_NAME, L(@2), $2));
            $$ = ast_add(mk(AST_BLOCK, L(@$)), pair);
        }
    | dirpairs ',' IDENT IDENT
        {
            SrcLoc loc = parse_loc(ctx, @3.first_line, @3.first_column, @4.last_line, @4.last_column);
            Ast *pair = mk(AST_GROUP, loc);
            ast_add(pair, parse_text_node(AST_NAME, L(@3), $3));
            ast_add(pair, parse_text_node(AST_NAME, L(@4), $4));
            $$ = ast_add($1, pair);
        }
    ;

opt_exactly
    : %empty                { $$ = 0; }
    | KW_EXACTLY            { $$ = 1; }
    ;

/* piece types a goal counts (an empty GROUP: every type) */
opt_types
    : %empty                { $$ = mk(AST_GROUP, L(@$)); }
    | names                 { $$ = $1; $$->kind = AST_GROUP; }
    ;

/* the directions a goal follows (an empty BLOCK: the board's own lines) */
opt_by
    : %empty                { $$ = mk(AST_BLOCK, L(@$)); }
    | KW_BY dirterms        { $$ = $2; }
    ;

cellspecs
    : cellspec              { $$ = ast_add(mk(AST_BLOCK, L(@$)), $1); }
    | cellspecs cellspec    { $$ = ast_add($1, $2); }
    ;

cellspec
    : cellref
    | KW_RANK INT           { $$ = mk_num(AST_RANK, L(@$), $2, 0); }
    | IDENT ':' KW_RANK INT { $$ = parse_text_node(AST_RANK, L(@$), $1); $$->num[0] = $4; }
    | KW_FILE IDENT         { $$ = parse_text_node(AST_FILE_SPEC, L(@$), $2); }
    | IDENT ':' KW_FILE IDENT { $$ = parse_text2_node(AST_FILE_SPEC, L(@$), $4, $1); }
    | KW_ALL                { $$ = mk(AST_ALL, L(@$)); }
    ;

opt_params
    : %empty                { $$ = mk(AST_BLOCK, L(@$)); }
    | params
    ;

params
    : IDENT                 { $$ = ast_add(mk(AST_BLOCK, L(@$)), parse_text_node(AST_NAME, L(@1), $1)); }
    | params ',' IDENT      { $$ = ast_add($1, parse_text_node(AST_NAME, L(@3), $3)); }
    ;

result
    : KW_WIN                { $$ = KEYWORD_WIN; }
    | KW_LOSS               { $$ = KEYWORD_LOSS; }
    | KW_DRAW               { $$ = KEYWORD_DRAW; }
    | KW_PASS               { $$ = KEYWORD_PASS; }
    | KW_WORTH              { $$ = KEYWORD_WORTH; }
    | KW_MOST               { $$ = KEYWORD_MOST; }
    ;

opt_at_most
    : %empty                { $$ = 0; }
    | KW_AT_MOST INT        { $$ = $2; }
    ;

/* an extinction that counts the pieces on the board only, not those in hand */
opt_on_board
    : %empty                { $$ = 0; }
    | KW_ON_BOARD           { $$ = 1; }
    ;

/* an extinction that counts only while the rival holds at least N of the pieces (0: always) */
opt_rival
    : %empty                { $$ = 0; }
    | KW_RIVAL KW_AT_LEAST INT { $$ = $3; }
    ;

opt_reply
    : %empty                { $$ = 0; }
    | KW_REPLY              { $$ = 1; }
    ;

opt_reach_reply
    : opt_reply
    | KW_LAST_CHANCE        { $$ = 2; }
    | KW_SAFE               { $$ = 3; }
    ;

opt_end_name
    : %empty                { $$ = NULL; }
    | STRING
    ;

/* The items of `end counting`, separated by commas: `board N`, `pieces [TYPE...] N`,
 * `pawns TYPE...`, `start pieces` (the checker knows the words that begin the last two). */
counting_items
    : counting_item         { $$ = ast_add(mk(AST_BLOCK, L(@$)), $1); }
    | counting_items ',' counting_item { $$ = ast_add($1, $3); }
    ;

counting_item
    : KW_BOARD INT          { $$ = mk_sub(AST_COUNTING, L(@$), COUNTING_BOARD); $$->num[0] = $2; }
    | KW_PIECES INT         { $$ = mk_sub(AST_COUNTING, L(@$), COUNTING_PIECES); $$->num[0] = $2; }
    | KW_PIECES names INT
        { $$ = parse_adopt(mk_sub(AST_COUNTING, L(@$), COUNTING_PIECES), $2); $$->num[0] = $3; }
    | IDENT names           { $$ = parse_adopt(parse_text_node(AST_COUNTING, L(@$), $1), $2); $$->sub = COUNTING_WORD; }
    | IDENT KW_PIECES       { $$ = parse_text_node(AST_COUNTING, L(@$), $1); $$->sub = COUNTING_WORD_PIECES; }
    ;

matlines
    : matline               { $$ = ast_add(mk(AST_BLOCK, L(@$)), $1); }
    | matlines ',' matline  { $$ = ast_add($1, $3); }
    ;

matline
    : group KW_VS group     { $$ = ast_add(ast_add(mk(AST_MATLINE, L(@$)), $1), $3); }
    | group KW_VS group KW_SAME_COLOUR
        { $$ = ast_add(ast_add(mk_sub(AST_MATLINE, L(@$), 1), $1), $3); }
    ;

group
    : IDENT                 { $$ = ast_add(mk(AST_GROUP, L(@$)), parse_text_node(AST_NAME, L(@1), $1)); }
    | group IDENT           { $$ = ast_add($1, parse_text_node(AST_NAME, L(@2), $2)); $$->loc = L(@$); }
    ;

/* ---- piece items ----------------------------------------------------------------------- */

/* A piece body is a list of items where a bare identifier is a flag (royal). Two items end in
 * an open list of identifiers (the directions of an atom without modifiers, the piece types of
 * a promote without `optional`): an identifier after them continues that list, it is not a
 * flag. Likewise `letter` after a castle without its own letter is the castle's letter. The
 * list nonterminals below encode this, so the grammar has no conflicts (a `;` ends an item). */
pitems
    : pi_closed
    | pi_idopen
    | pi_letopen
    ;

pi_noid         /* a list a flag may follow */
    : pi_closed
    | pi_letopen
    ;

pi_nolet        /* a list a `letter` item may follow */
    : pi_closed
    | pi_idopen
    ;

pi_closed
    : %empty                { $$ = mk(AST_BLOCK, L(@$)); }
    | pitems closed_item    { $$ = ast_add($1, $2); yyerrok; }
    | pi_noid IDENT         { $$ = ast_add($1, parse_text_node(AST_FLAG, L(@2), $2)); yyerrok; }
    | pi_nolet KW_LETTER IDENT
        {
            SrcLoc loc = parse_loc(ctx, @2.first_line, @2.first_column, @3.last_line, @3.last_column);
            $$ = ast_add($1, parse_text_node(AST_LETTER, loc, $3));
            yyerrok;
        }
    | pi_nolet KW_LETTER '+' IDENT
        {
            SrcLoc loc = parse_loc(ctx, @2.first_line, @2.first_column, @4.last_line, @4.last_column);
            Ast *letter = parse_text_node(AST_LETTER, loc, $4);
            letter->sub = 1;
            $$ = ast_add($1, letter);
            yyerrok;
        }
    | pitems ';'            { $$ = $1; yyerrok; }
    | pitems error          { $$ = $1; RECOVER($<num>0, PARSE_SYNC_PIECE); }
    ;

pi_idopen
    : pitems atom_head      { $$ = ast_add($1, $2); yyerrok; }
    | pitems promote_head   { $$ = ast_add($1, $2); yyerrok; }
    ;

pi_letopen
    : pitems castle_base    { $$ = ast_add($1, $2); yyerrok; }
    ;

closed_item
    : KW_SYMBOL strings     { $$ = parse_adopt(mk(AST_SYMBOL, L(@$)), $2); }
    | KW_WRITTEN STRING     { $$ = parse_text_node(AST_WRITTEN, L(@$), $2); }
    | KW_HELP STRING        { $$ = parse_text_node(AST_HELP, L(@$), $2); }
    | KW_VALUE INT          { $$ = mk_num(AST_VALUE, L(@$), $2, 0); }
    | KW_INFLUENCE INT      { $$ = mk_num(AST_INFLUENCE, L(@$), $2, 0); }
    | KW_WORTH INT          { $$ = mk_num(AST_WORTH, L(@$), $2, 0); }
    | atom_mods
    | promote_opts
    | KW_PRIVILEGE cellref cellref
        { $$ = ast_add(ast_add(mk_sub(AST_CASTLE, L(@$), 1), $2), $3); }
    | KW_PRIVILEGE cellref cellref KW_LOST_TO IDENT
        {
            Ast *types = ast_add(mk(AST_GROUP, L(@5)), parse_text_node(AST_NAME, L(@5), $5));
            $$ = ast_add(ast_add(ast_add(mk_sub(AST_CASTLE, L(@$), 1), $2), $3), types);
        }
    | castle_base KW_LETTER IDENT
        {
            $$ = $1;
            $$->text = $3;  /* the node takes the string (same allocator as ast_new_text) */
            $$->loc = L(@$);
        }
    | castle_base KW_LETTER IDENT KW_KIND IDENT
        {
            $$ = $1;
            $$->text = $3;
            $$->text2 = $5;
            $$->loc = L(@$);
        }
    | castle_base KW_KIND IDENT
        {
            $$ = $1;
            $$->text2 = $3;
            $$->loc = L(@$);
        }
    | KW_MOVE LBRACE stmts '}'  { $$ = parse_adopt(mk(AST_MOVEBLOCK, L(@$)), $3); }
    | KW_DROP LBRACE stmts '}'  { $$ = parse_adopt(mk(AST_DROPBLOCK, L(@$)), $3); }
    | KW_USE IDENT '(' opt_args ')'
        { $$ = parse_adopt(parse_text_node(AST_USE, L(@$), $2), $4); }
    | KW_WHEN IDENT '=' IDENT LBRACE pitems '}'
        { $$ = parse_adopt(parse_text2_node(AST_WHEN, L(@$), $2, $4), $6); }
    ;

strings
    : STRING                { $$ = ast_add(mk(AST_BLOCK, L(@$)), parse_text_node(AST_STRING, L(@1), $1)); }
    | strings STRING        { $$ = ast_add($1, parse_text_node(AST_STRING, L(@2), $2)); }
    ;

atom_kw
    : KW_STEP               { $$ = ATOM_STEP; }
    | KW_LEAP               { $$ = ATOM_LEAP; }
    | KW_SLIDE              { $$ = ATOM_SLIDE; }
    | KW_LEGS               { $$ = ATOM_LEGS; }
    | KW_HOP                { $$ = ATOM_HOP; }
    | KW_EN_PASSANT         { $$ = ATOM_EN_PASSANT; }
    | KW_LONG_LEAP          { $$ = ATOM_LONG_LEAP; }
    | KW_DROP               { $$ = ATOM_DROP; }
    ;

atom_head
    : atom_kw               { $$ = mk_sub(AST_ATOM, L(@$), (int)$1); }
    | atom_head dirterm     { $$ = ast_add($1, $2); $$->loc = L(@$); }
    ;

atom_mods
    : atom_head modifier    { $$ = ast_add($1, $2); $$->loc = L(@$); }
    | atom_mods modifier    { $$ = ast_add($1, $2); $$->loc = L(@$); }
    ;

modifier
    : KW_MOVE_ONLY          { $$ = mk_sub(AST_MOD, L(@$), MOD_MOVE_ONLY); }
    | KW_CAPTURE_ONLY       { $$ = mk_sub(AST_MOD, L(@$), MOD_CAPTURE_ONLY); }
    | KW_RANGE INT          { $$ = mk_sub(AST_MOD, L(@$), MOD_RANGE); $$->num[0] = $2; }
    | KW_FROM IDENT         { $$ = parse_text_node(AST_MOD, L(@$), $2); $$->sub = MOD_FROM; }
    | KW_TO IDENT           { $$ = parse_text_node(AST_MOD, L(@$), $2); $$->sub = MOD_TO; }
    | KW_SETS_EP            { $$ = mk_sub(AST_MOD, L(@$), MOD_SETS_EP); }
    | KW_WITHDRAW           { $$ = mk_sub(AST_MOD, L(@$), MOD_WITHDRAW); }
    | KW_PINCER             { $$ = mk_sub(AST_MOD, L(@$), MOD_PINCER); }
    | KW_COORDINATE         { $$ = mk_sub(AST_MOD, L(@$), MOD_COORDINATE); }
    | KW_IMITATE            { $$ = mk_sub(AST_MOD, L(@$), MOD_IMITATE); }
    | KW_LEAPS_ALONE        { $$ = mk_sub(AST_MOD, L(@$), MOD_LEAPS_ALONE); }
    ;

/* promote in ZONE [or from ZONE] to TYPE ... : the zone the move ends in, starts in, or either */
promote_head
    : promote_where KW_TO IDENT
        { $$ = ast_add($1, parse_text_node(AST_NAME, L(@3), $3)); $$->loc = L(@$); }
    | promote_head IDENT
        { $$ = ast_add($1, parse_text_node(AST_NAME, L(@2), $2)); $$->loc = L(@$); }
    ;

promote_where
    : KW_PROMOTE KW_IN IDENT    { $$ = parse_text_node(AST_PROMOTE, L(@$), $3); }
    | KW_PROMOTE KW_FROM IDENT  { $$ = parse_text2_node(AST_PROMOTE, L(@$), NULL, $3); }
    | KW_PROMOTE KW_IN IDENT KW_OR KW_FROM IDENT
        { $$ = parse_text2_node(AST_PROMOTE, L(@$), $3, $6); }
    | KW_PROMOTE KW_FROM IDENT KW_OR KW_IN IDENT
        { $$ = parse_text2_node(AST_PROMOTE, L(@$), $6, $3); }
    ;

/* optional: the move may also be made without promoting; lost-only, capture-only: see
 * docs/language.md */
promote_opts
    : promote_head KW_OPTIONAL  { $$ = $1; $$->sub |= 1; $$->loc = L(@$); }
    | promote_head KW_LOST_ONLY { $$ = $1; $$->sub |= 2; $$->loc = L(@$); }
    | promote_opts KW_OPTIONAL  { $$ = $1; $$->sub |= 1; $$->loc = L(@$); }
    | promote_opts KW_LOST_ONLY { $$ = $1; $$->sub |= 2; $$->loc = L(@$); }
    | promote_head KW_CAPTURE_ONLY { $$ = $1; $$->sub |= 4; $$->loc = L(@$); }
    | promote_opts KW_CAPTURE_ONLY { $$ = $1; $$->sub |= 4; $$->loc = L(@$); }
    ;

castle_base
    : KW_CASTLE KW_KING cellref cellref KW_ROOK cellref cellref
        { $$ = ast_add(ast_add(ast_add(ast_add(mk(AST_CASTLE, L(@$)), $3), $4), $6), $7); }
    | KW_CASTLE KW_KING cellref KW_ROOK cellref
        { $$ = ast_add(ast_add(mk(AST_CASTLE, L(@$)), $3), $5); }
    ;

opt_args
    : %empty                { $$ = mk(AST_BLOCK, L(@$)); }
    | args
    ;

args
    : arg                   { $$ = ast_add(mk(AST_BLOCK, L(@$)), $1); }
    | args ',' arg          { $$ = ast_add($1, $3); }
    ;

/* A bare identifier argument is a NAME: the macro's use of the parameter gives it meaning. */
arg
    : IDENT                 { $$ = parse_text_node(AST_NAME, L(@$), $1); }
    | vec
    ;

dirterms
    : dirterm               { $$ = ast_add(mk(AST_BLOCK, L(@$)), $1); }
    | dirterms dirterm      { $$ = ast_add($1, $2); }
    ;

dirterm
    : IDENT                 { $$ = parse_text_node(AST_DIR, L(@$), $1); }
    | vec
    ;

vec
    : '(' INT ',' INT ')'           { $$ = mk_num(AST_VEC, L(@$), $2, $4); }
    | KW_SYM '(' INT ',' INT ')'    { $$ = mk_num(AST_SYM, L(@$), $3, $5); }
    ;

/* ---- statements (move blocks) ---------------------------------------------------------- */

stmts
    : %empty                { $$ = mk(AST_BLOCK, L(@$)); }
    | stmts stmt            { $$ = ast_add($1, $2); yyerrok; }
    | stmts ';'             { $$ = $1; yyerrok; }
    | stmts error           { $$ = $1; RECOVER($<num>0, PARSE_SYNC_STMT); }
    ;

block
    : LBRACE stmts '}'      { $$ = $2; $$->loc = L(@$); }
    ;

stmt
    : KW_STEP dirterm       { $$ = ast_add(mk(AST_STEP, L(@$)), $2); }
    | KW_VERIFY cond        { $$ = ast_add(mk(AST_VERIFY, L(@$)), $2); }
    | if_chain              { chain_set_end($1.top, L(@$)); $$ = $1.top; }
    | if_chain KW_ELSE block
        {
            ast_add($1.last, $3);
            chain_set_end($1.top, L(@$));
            $$ = $1.top;
        }
    | KW_WHILE cond block   { $$ = ast_add(ast_add(mk(AST_WHILE, L(@$)), $2), $3); }
    | either_alts
    | KW_ADD                { $$ = mk(AST_ADD, L(@$)); }
    | KW_ADD_PARTIAL        { $$ = mk(AST_ADD_PARTIAL, L(@$)); }
    | KW_ADD_PARTIAL KW_OPTIONAL { $$ = mk_sub(AST_ADD_PARTIAL, L(@$), 1); }
    | KW_USE IDENT '(' opt_args ')'
        { $$ = parse_adopt(parse_text_node(AST_USE, L(@$), $2), $4); }
    | KW_FOR IDENT KW_IN dirterms block
        { $$ = ast_add(ast_add(parse_text_node(AST_FOR, L(@$), $2), $4), $5); }
    | KW_SET_FLAG IDENT     { $$ = parse_text_node(AST_SET_FLAG, L(@$), $2); $$->sub = 1; }
    | KW_CLEAR_FLAG IDENT   { $$ = parse_text_node(AST_SET_FLAG, L(@$), $2); }
    | KW_TAG IDENT          { $$ = parse_text_node(AST_TAG, L(@$), $2); $$->sub = 1; }
    | KW_UNTAG IDENT        { $$ = parse_text_node(AST_TAG, L(@$), $2); }
    | KW_CAPTURE            { $$ = mk(AST_CAPTURE, L(@$)); }
    | KW_MARK               { $$ = mk(AST_MARK, L(@$)); }
    | KW_BACK               { $$ = mk(AST_BACK, L(@$)); }
    | KW_ORIGIN             { $$ = mk(AST_ORIGIN, L(@$)); }
    | KW_SET_EP             { $$ = mk(AST_SETEP, L(@$)); }
    | KW_FAIL               { $$ = mk(AST_FAIL, L(@$)); }
    | KW_GOTO cellref
        {
            /* GOTO takes the cell and board strings of the NAME. */
            $$ = mk(AST_GOTO, L(@$));
            $$->text = $2->text;
            $$->text2 = $2->text2;
            $2->text = $2->text2 = NULL;
            ast_free($2);
        }
    | KW_CHANGE IDENT       { $$ = parse_text_node(AST_CHANGE, L(@$), $2); }
    | KW_GOTO KW_ALL        { $$ = mk_sub(AST_GOTO, L(@$), 1); }
    | KW_CREATE             { $$ = mk(AST_CREATE, L(@$)); }
    | KW_CREATE IDENT       { $$ = parse_text_node(AST_CREATE, L(@$), $2); }
    | KW_CREATE IDENT IDENT { $$ = parse_text2_node(AST_CREATE, L(@$), $3, $2); }
    | KW_CHANGE_TYPE IDENT  { $$ = parse_text_node(AST_CHANGE_TYPE, L(@$), $2); }
    | KW_REFLECT IDENT      { $$ = parse_text_node(AST_REFLECT, L(@$), $2); }
    | KW_DROP               { $$ = mk(AST_DROP, L(@$)); }
    | KW_DROP IDENT         { $$ = parse_text_node(AST_DROP, L(@$), $2); }
    | KW_CONVERT            { $$ = mk(AST_CONVERT, L(@$)); }
    | KW_TURN_OVER          { $$ = mk_sub(AST_CONVERT, L(@$), 1); }
    | KW_OUTFLANK dirterms  { $$ = ast_add(mk(AST_OUTFLANK, L(@$)), $2); }
    | KW_HAND_OVER          { $$ = mk(AST_HAND_OVER, L(@$)); }
    | KW_FROM               { $$ = mk(AST_FROM, L(@$)); }
    | KW_TO                 { $$ = mk(AST_TO, L(@$)); }
    | KW_KIND IDENT         { $$ = parse_text_node(AST_KIND, L(@$), $2); }
    | KW_COUNTER IDENT KW_BY INT
        { $$ = parse_text_node(AST_COUNT, L(@$), $2); $$->num[0] = $4; }
    ;

/* if ... else if ... else if ...: built left-recursively (the parser stack stays flat); the
 * chain's last IF is where the next `else if` goes, as an else BLOCK holding the new IF. */
if_chain
    : KW_IF cond block
        {
            Ast *node = ast_add(ast_add(mk(AST_IF, L(@$)), $2), $3);
            $$.top = $$.last = node;
            $$.n = 1;
        }
    | if_chain KW_ELSE KW_IF cond block
        {
            SrcLoc ifloc = parse_loc(ctx, @3.first_line, @3.first_column, @5.last_line, @5.last_column);
            SrcLoc elseloc = parse_loc(ctx, @2.first_line, @2.first_column, @5.last_line, @5.last_column);
            Ast *node = ast_add(ast_add(mk(AST_IF, ifloc), $4), $5);
            ast_add($1.last, ast_add(mk(AST_BLOCK, elseloc), node));
            $$ = $1;
            $$.last = node;
            $$.n++;
            if ($$.n > MAX_NESTING)
                parse_too_deep(ctx, ifloc);
        }
    ;

either_alts
    : KW_EITHER block KW_OR block   { $$ = ast_add(ast_add(mk(AST_EITHER, L(@$)), $2), $4); }
    | either_alts KW_OR block       { $$ = ast_add($1, $3); $$->loc = L(@$); }
    ;

/* ---- conditions: or < and < not ------------------------------------------------------- */

cond
    : or_cond
    ;

or_cond
    : and_cond
    | or_cond KW_OR and_cond
        { $$ = parse_check_cond(ctx, ast_add(ast_add(mk(AST_OR, L(@$)), $1), $3)); }
    ;

and_cond
    : unary
    | and_cond KW_AND unary
        { $$ = parse_check_cond(ctx, ast_add(ast_add(mk(AST_AND, L(@$)), $1), $3)); }
    ;

/* `not not x` is counted left-recursively so a long run of `not` cannot grow the stack. */
unary
    : primary
    | nots primary
        {
            ast_add($1.last, $2);
            chain_set_end($1.top, L(@$));
            $$ = parse_check_cond(ctx, $1.top);
        }
    ;

nots
    : KW_NOT                { $$.top = $$.last = mk(AST_NOT, L(@$)); $$.n = 1; }
    | nots KW_NOT
        {
            $$ = $1;
            if ($$.n < MAX_NESTING) {
                Ast *node = mk(AST_NOT, L(@2));
                ast_add($$.last, node);
                $$.last = node;
                $$.n++;
            } else {
                parse_too_deep(ctx, L(@2));
            }
        }
    ;

primary
    : KW_EMPTY              { $$ = mk_cond(L(@$), KEYWORD_EMPTY, NULL); }
    | KW_ENEMY              { $$ = mk_cond(L(@$), KEYWORD_ENEMY, NULL); }
    | KW_FRIEND             { $$ = mk_cond(L(@$), KEYWORD_FRIEND, NULL); }
    | KW_EP                 { $$ = mk_cond(L(@$), KEYWORD_EP, NULL); }
    | KW_ATTACKED           { $$ = mk_cond(L(@$), KEYWORD_ATTACKED, NULL); }
    | KW_DEFENDED           { $$ = mk_cond(L(@$), KEYWORD_DEFENDED, NULL); }
    | KW_GIVES_CHECK        { $$ = mk_cond(L(@$), KEYWORD_GIVES_CHECK, NULL); }
    | KW_UNMOVED            { $$ = mk_cond(L(@$), KEYWORD_UNMOVED, NULL); }
    | KW_PRIVILEGE          { $$ = mk_cond(L(@$), KEYWORD_PRIVILEGE, NULL); }
    | KW_LAST_TO            { $$ = mk_cond(L(@$), KEYWORD_LAST_TO, NULL); }
    | KW_LAST_FROM          { $$ = mk_cond(L(@$), KEYWORD_LAST_FROM, NULL); }
    | KW_TAKEN              { $$ = mk_cond(L(@$), KEYWORD_TAKEN, NULL); }
    | KW_FLAG IDENT         { $$ = mk_cond(L(@$), KEYWORD_FLAG, $2); }
    | KW_TAGGED IDENT       { $$ = mk_cond(L(@$), KEYWORD_TAGGED, $2); }
    | KW_PIECE IDENT        { $$ = mk_cond(L(@$), KEYWORD_PIECE, $2); }
    | KW_PIECE IDENT KW_ON_BOARD { $$ = mk_cond(L(@$), KEYWORD_PIECE_ON_BOARD, $2); }
    | KW_IN IDENT           { $$ = mk_cond(L(@$), KEYWORD_IN, $2); }
    | KW_ON_BOARD dirterm   { $$ = ast_add(mk(AST_ONBOARD, L(@$)), $2); }
    | KW_COUNTER IDENT KW_AT_LEAST INT
        { $$ = mk_cond(L(@$), KEYWORD_COUNTER_AT_LEAST, $2); $$->num[0] = $4; }
    | KW_COUNTER IDENT KW_AT_MOST INT
        { $$ = mk_cond(L(@$), KEYWORD_COUNTER_AT_MOST, $2); $$->num[0] = $4; }
    | KW_ATTACKERS KW_AT_LEAST INT
        { $$ = mk_cond(L(@$), KEYWORD_ATTACKERS_AT_LEAST, NULL); $$->num[0] = $3; }
    | KW_PIECES IDENT KW_AT_LEAST INT
        { $$ = mk_cond(L(@$), KEYWORD_PIECES_AT_LEAST, $2); $$->num[0] = $4; }
    | KW_PIECES IDENT KW_AT_MOST INT
        { $$ = mk_cond(L(@$), KEYWORD_PIECES_AT_MOST, $2); $$->num[0] = $4; }
    | KW_INFLUENCE KW_AT_LEAST INT
        { $$ = mk_cond(L(@$), KEYWORD_INFLUENCE_AT_LEAST, NULL); $$->num[0] = $3; }
    | KW_INFLUENCE KW_AT_MOST INT
        { $$ = mk_cond(L(@$), KEYWORD_INFLUENCE_AT_MOST, NULL); $$->num[0] = $3; }
    | KW_INFLUENCE KW_AT_LEAST KW_RIVAL
        { $$ = mk_cond(L(@$), KEYWORD_INFLUENCE_AT_LEAST_RIVAL, NULL); }
    | KW_INFLUENCE KW_AT_MOST KW_RIVAL
        { $$ = mk_cond(L(@$), KEYWORD_INFLUENCE_AT_MOST_RIVAL, NULL); }
    | KW_RIVAL KW_AT_LEAST INT
        { $$ = mk_cond(L(@$), KEYWORD_RIVAL_AT_LEAST, NULL); $$->num[0] = $3; }
    | KW_RIVAL KW_AT_MOST INT
        { $$ = mk_cond(L(@$), KEYWORD_RIVAL_AT_MOST, NULL); $$->num[0] = $3; }
    | KW_EXISTS block       { $$ = ast_add(mk(AST_EXISTS, L(@$)), $2); }
    | KW_IN_A_ROW INT opt_exactly
        { $$ = mk_cond(L(@$), KEYWORD_IN_A_ROW, NULL); $$->num[0] = $2; $$->num[1] = $3; }
    | KW_IN_A_ROW INT opt_exactly KW_BY dirterms
        {
            $$ = parse_adopt(mk_cond(L(@$), KEYWORD_IN_A_ROW, NULL), $5);
            $$->num[0] = $2;
            $$->num[1] = $3;
        }
    | KW_PIECES KW_AT_LEAST INT
        { $$ = mk_cond(L(@$), KEYWORD_PIECES_AT_LEAST, NULL); $$->num[0] = $3; }
    | KW_PIECES KW_AT_MOST INT
        { $$ = mk_cond(L(@$), KEYWORD_PIECES_AT_MOST, NULL); $$->num[0] = $3; }
    | '(' cond ')'          { $$ = $2; }
    ;

%%

static Ast *mk(AstKind kind, SrcLoc loc)
{
    return ast_new(kind, loc);
}

static Ast *mk_num(AstKind kind, SrcLoc loc, long a, long b)
{
    Ast *node = ast_new(kind, loc);
    node->num[0] = a;
    node->num[1] = b;
    return node;
}

static Ast *mk_sub(AstKind kind, SrcLoc loc, int sub)
{
    Ast *node = ast_new(kind, loc);
    node->sub = sub;
    return node;
}

static Ast *mk_cond(SrcLoc loc, Keyword word, char *owned2)
{
    Ast *node = ast_new(AST_COND, loc);
    node->word = word;
    node->text2 = owned2;  /* the node takes the string (same allocator as ast_new_text) */
    return node;
}

/* A chain (not not x, if / else if) was built before its end was known: stretch the location of
 * every link to the end of the whole construct. Chains are at most MAX_NESTING links long. */
static void chain_set_end(Ast *top, SrcLoc end)
{
    Ast *node = top;
    while (node) {
        node->loc.end_line = end.end_line;
        node->loc.end_col = end.end_col;
        Ast *next = NULL;
        if (node->kind == AST_NOT && node->nkids == 1 && node->kids[0]->kind == AST_NOT)
            next = node->kids[0];
        else if (node->kind == AST_IF && node->nkids == 3 && node->kids[2]->nkids == 1 &&
                 node->kids[2]->kids[0]->kind == AST_IF) {
            node->kids[2]->loc.end_line = end.end_line;
            node->kids[2]->loc.end_col = end.end_col;
            next = node->kids[2]->kids[0];
        }
        node = next;
    }
}

static void yyerror(YYLTYPE *loc, yyscan_t scanner, ParseCtx *ctx, const char *msg)
{
    (void)scanner;
    if (ctx->stop)
        return;
    /* Only "memory exhausted" comes here (parse.error custom reports syntax errors below);
     * the bracket limit makes it unreachable in practice. */
    parse_error(ctx, L(*loc), "%s (the rule file is nested too deeply)", msg);
    ctx->stop = true;
}

static const char *symbol_name(yysymbol_kind_t kind)
{
    const char *name = yysymbol_name(kind);
    return name ? name : "token";
}

/* Appends to msg[size] (length *len) as far as it fits. */
static void append(char *msg, size_t size, size_t *len, const char *fmt, ...)
{
    if (*len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg + *len, size - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

/* Tokens whose own text is worth quoting after their kind ("identifier 'foo'"). */
static bool token_has_text(yysymbol_kind_t kind)
{
    return kind == YYSYMBOL_IDENT || kind == YYSYMBOL_INT || kind == YYSYMBOL_STRING ||
           kind == YYSYMBOL_SIZE;
}

/* "syntax error, unexpected identifier 'foo', expecting '{'" (or "expected '}' (to close '{'
 * at line 12)" at end of file with a bracket still open). */
static int yyreport_syntax_error(const yypcontext_t *yyctx, yyscan_t scanner, ParseCtx *ctx)
{
    (void)scanner;
    if (ctx->stop)
        return 0;  /* the reason for stopping was reported already */
    yysymbol_kind_t tok = yypcontext_token(yyctx);
    SrcLoc loc = L(*yypcontext_location(yyctx));
    if (tok == YYSYMBOL_YYEOF && ctx->depth > 0) {
        const ParseOpen *open = &ctx->open[ctx->depth - 1];
        parse_error(ctx, loc, "expected '%c' (to close '%c' at line %d)",
                    open->ch == '{' ? '}' : ')', open->ch, open->line);
        return 0;
    }

    char msg[512];
    size_t len = 0;
    append(msg, sizeof msg, &len, "syntax error, unexpected %s", symbol_name(tok));
    if (token_has_text(tok)) {
        const char *quote = tok == YYSYMBOL_STRING ? "" : "'";
        append(msg, sizeof msg, &len, " %s%s%s", quote, ctx->tok, quote);
    }

    enum { MAX_EXPECTED = 4 };
    yysymbol_kind_t expected[MAX_EXPECTED];
    int n = yypcontext_expected_tokens(yyctx, expected, MAX_EXPECTED);
    if (n < 0)
        n = 0;  /* LAC ran out of memory: report without the expected tokens */
    for (int i = 0; i < n; i++)
        append(msg, sizeof msg, &len, "%s%s", i == 0 ? ", expecting " : " or ",
               symbol_name(expected[i]));
    parse_error(ctx, loc, "%s", msg);
    return 0;
}
