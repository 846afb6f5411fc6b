/* ast.h - the syntax tree the parser builds from a rule file.
 * One generic node shape: a kind, a location, up to two strings, three integers, a sub-kind
 * and an ordered list of children. The table below is the contract between parser.y (which
 * only builds nodes) and sema.c (which gives them meaning). */
#ifndef VARIA_AST_H
#define VARIA_AST_H

#include <stdio.h>

#include "diag.h"

/* Node kinds. "text"/"text2"/"num[i]"/"sub"/"kids" say which fields a kind uses.
 *
 * Top level (children of AST_FILE):
 *   FILE        kids = items
 *   VERSION     num[0] = version
 *   GAME        text = title
 *   PLAYERS     kids = PLAYER
 *   PLAYER      text = name, text2 = position-text token or NULL   players white(w) black(b)
 *   TURN_ORDER  kids = NAME (player names, repeats allowed)
 *   BOARD       text = board name or NULL, text2 = title shown to players or NULL,
 *               num[0] = width, num[1] = height, kids = HOLES
 *   HOLES       kids = NAME (cells); or sub = HOLES_LIGHT / HOLES_DARK: every cell of that colour
 *               (a1 is dark, as on a chess board)
 *   ORIENTATION text = player, text2 = identity|flip|mirror|rot90|rot180|rot270
 *   DIRECTION   text = name, num[0] = dx, num[1] = dy
 *   LINK        text = name, kids = [NAME from-board, NAME to-board]  (same x,y on the other board)
 *   DIRSET      text = name, kids = dir terms (DIR, VEC, SYM)
 *   ZONE        text = name, text2 = player or NULL, sub = ZONE_ABSOLUTE|ZONE_FOR|ZONE_RELATIVE,
 *               kids = cell specs (NAME cell, RANK, FILE, ALL)
 *   RANK        num[0] = rank number (1-based); text = board or NULL
 *   FILE_SPEC   text = file letters (e.g. "e"); text2 = board or NULL
 *   ALL         (every cell)
 *   OPTION      text = name, text2 = default value or NULL, kids = NAME (allowed values)
 *   WHEN        text = option, text2 = value, kids = items (top-level or piece items)
 *   PIECE       text = name, kids = piece items
 *   MACRO       text = name, num[0] = parameter count, kids = NAME params then piece items
 *   DEFINE      text = name, num[0] = parameter count, kids = NAME params then a BLOCK of
 *               statements (a macro of statements, used inside move blocks)
 *   PRIORITY    kids = NAME move kinds, the first preferred (move priorities)
 *   MERGE_DUPLICATES (moves with the same origin, destination and taken pieces are one)
 *   POSITION_FORMAT text = the format of position text (pdn)
 *   SETUP       text = position text
 *   POSITION_FIELDS text = field names separated by spaces (board side castling ep halfmove
 *               fullmove plies)
 *   END         sub = EndKind, word = result (WIN|LOSS|DRAW|PASS), text2 = the game's own name
 *               for that end (checkmate, stalemate, empty, pieces, royal-captured) or NULL,
 *               num[0] = count (repetition N, nmove N, pieces at-most N; 1 for a stalemate
 *               decided by fewer-pieces), kids = MATLINE (for END_MATERIAL) or
 *               [NAME piece, NAME zone] (for END_MUST_CAPTURE, END_REACH); see EndKind
 *   MATLINE     sub = 1 if "same-colour", kids = [GROUP, GROUP]
 *   COUNTING    an item of `end counting` (kids of its END): sub = CountingItem; num[0] = moves
 *               (BOARD, PIECES), kids = NAME piece types (PIECES, WORD), text = the word that
 *               begins a WORD or WORD_PIECES item
 *   GROUP       kids = NAME (piece names, repeats mean several)
 *   MUST_CAPTURE (a capture must be made whenever one is legal); sub = 1 (`most`): only the
 *               captures taking the most pieces
 *   FORBID      text = what ("royal-capture"); sub = 1 for forbid, 0 for allow
 *   DEFEATED    text = remove | stay | join-victor (a defeated player's pieces)
 *   SHUFFLE     text = zone whose pieces are shuffled per player at the start of a game
 *   COUNTER     text = name, num[0] = initial value, sub = 1 for one counter per player
 *   ARMIES      kids = PLAYER (armies: owners of pieces that take no turns)
 *   STEER       kids = [BLOCK of NAME armies, BLOCK of NAME links, optional condition], sub = 1
 *               with `copy`
 *   ALLEGIANCE  kids = NAME (the army each player helps, in seat order), sub = 1 if at random
 *   PHASE       text = name, kids = NAME move kinds; sub = 0: text2 = limit word (once, any),
 *               sub = 1: at most num[0] moves
 *   PILE        text = name, sub = 1 per-player | 2 sorted, kids = VALUE cards (bottom first)
 *   CARD_RULE   text = move kind, sub = 0 draw / 1 pay, kids = [NAME from pile, NAME to pile],
 *               num[0] = cards a draw takes, text2 = "own" (draw from the mover's own) or NULL
 *   MINEFIELD   text = zone, text2 = move kind that marks mines, num[0] = mines per player
 *   PRELUDE     text = player, text2 = move kind, num[0] = moves
 *   HANDS       kids = NAME words: what a capture keeps (none, captured, demoted), must-drop
 *   GATING      text = zone whose cells are gates (a piece from the hand enters as one leaves)
 *   CAPTURE_REWARD text = counter the capturer gains the captured pieces' worth in
 *   EXTRA_CAPTURE  text = move kind, num[0] = attackers needed, text2 = "remote" or NULL
 *   CELLS       (a BOARD's kid) kids = NAME: the cells the board has (the others are holes);
 *               a NAME with sub = 1 is a cell named freely at num[0], num[1] (file and rank
 *               counted from 1)
 *   HOLDING     (a BOARD's kid) kids = NAME: one row of holding cells, off the board's grid
 *   LINK        sub = 1: `link D [R] = CELLS, CELLS...`: text = direction, text2 = its reverse or
 *               NULL, kids = BLOCK chains of NAME cells, each cell linked to the next
 *   SYMMETRY    text = player, kids = GROUP pairs [NAME as written, NAME it means]
 *   EXCEPT      (a ZONE's last kid) kids = cell specs taken out of the zone
 *   HOSTILE     text = zone whose empty cells take part in custodian captures against anyone
 *   SURROUND    kids = NAME types, text = zone or NULL: such pieces (there) are taken only
 *               when enclosed on every orthogonal side
 *   SHIELDWALL  (rows along the board's edge are captured together)
 *   TRANSFER    kids = NAME links: after every move its pieces go on along them
 *   CHECK_KIND  text = the move kind of every normal move that gives check
 *
 * Piece items (children of PIECE, MACRO, WHEN inside a piece):
 *   LETTER      text = one letter
 *   SYMBOL      kids = STRING (one per player)
 *   WRITTEN     text = the one character position text writes for the piece, whoever owns it
 *   VALUE       num[0] = value in centipawns/100 units as written (integer)
 *   INFLUENCE   num[0] = strength over the armies' pieces on linked cells (steer)
 *   WORTH       num[0] = the piece's worth (capture rewards)
 *   FLAG        text = royal | resets-nmove | ...
 *   ATOM        sub = AtomKind, kids = dir terms then MOD nodes
 *   MOD         sub = ModKind, num[0] = argument (RANGE), text = argument (FROM zone, TO zone)
 *   CASTLE      kids = [NAME king-from, NAME king-to, NAME rook-from, NAME rook-to], text = letter or NULL,
 *               text2 = move kind or NULL;
 *               or kids = [NAME king-to, NAME rook-to] (a free castle: the start cells are the
 *               position's); sub = 1: `privilege CELL CELL [lost-to TYPE]`, kids = NAME (a
 *               cell per player), then a GROUP holding the NAME type when lost-to is given
 *   PROMOTE     text = zone moved into, text2 = zone moved from (either may be NULL),
 *               sub = bits: 1 optional, 2 lost-only, 4 capture-only; kids = NAME piece types
 *   MOVEBLOCK   kids = statements
 *   DROPBLOCK   kids = statements (a drop program: no piece moves, it starts on every cell)
 *   USE         text = macro name, kids = arguments (DIR, VEC, SYM, NAME)
 *
 * Dir terms:
 *   DIR         text = direction, dirset or macro-parameter name
 *   VEC         num[0] = dx, num[1] = dy
 *   SYM         num[0] = dx, num[1] = dy (all 8 mirror images, duplicates dropped)
 *
 * Statements (children of MOVEBLOCK, BLOCK):
 *   BLOCK       kids = statements
 *   STEP        kids = [dir term]
 *   VERIFY      kids = [cond]
 *   IF          kids = [cond, BLOCK then, BLOCK else (optional; an else-if is a BLOCK holding an IF)]
 *   WHILE       kids = [cond, BLOCK]
 *   EITHER      kids = BLOCK alternatives (two or more)
 *   ADD, CAPTURE, MARK, BACK, ORIGIN, SETEP, FAIL    (no fields)
 *   FROM, TO    (no fields) the second piece: FROM chooses the one on the cursor, TO moves it there
 *   GOTO        text = cell name, text2 = board or NULL
 *   CHANGE      text = piece type
 *   KIND        text = move kind
 *   COUNT       text = counter, num[0] = amount added (may be negative)
 *   USE         text = define name, kids = arguments (DIR, VEC, SYM, NAME)
 *   FOR         text = the loop's direction name, kids = [BLOCK of dir terms, BLOCK body]
 *   ADD_PARTIAL (no fields: the move goes on from the cursor, see docs/language.md)
 *   SET_FLAG    text = flag, sub = 1 set / 0 clear (a flag of the move being made)
 *   TAG         text = tag, sub = 1 tag / 0 untag the cursor's cell (for the move being made)
 *   GOTO        sub = 1: `goto all` (every cell in turn, each a path of its own); a GOTO whose
 *               text names a zone goes to each of its cells so
 *   CREATE      text = piece type or NULL (a new piece of the mover on the cursor's cell)
 *   CHANGE_TYPE text = piece type (the piece on the cursor's cell becomes it)
 *   REFLECT     text = orientation (the cursor to its cell's image: transpose, mirror...)
 *
 * Conditions:
 *   COND        word = EMPTY|ENEMY|FRIEND|EP|ATTACKED|UNMOVED|LAST_TO|LAST_FROM, or
 *               COUNTER_AT_LEAST/COUNTER_AT_MOST with text2 = counter, num[0] = bound,
 *               ATTACKERS_AT_LEAST with num[0] = the count, INFLUENCE_.../RIVAL_... (steer
 *               conditions) with num[0] = the bound, or PIECE/IN with text2 = piece type / zone,
 *               TAKEN (the piece on the cursor is taken by the move so far), FLAG/TAGGED with
 *               text2 = the flag / tag
 *               IN_A_ROW with num[0] = N, num[1] = 1 for exactly, kids = dir terms;
 *               PIECES_AT_LEAST/PIECES_AT_MOST with num[0] = the bound (the mover's pieces)
 *   ONBOARD     kids = [dir term]
 *   EXISTS      kids = [BLOCK]: some path through the statements reaches their end
 *   NOT         kids = [cond]
 *   AND, OR     kids = [cond, cond]
 *
 * Leaves:
 *   NAME        text = identifier, text2 = board qualifier (for "board:cell") or NULL
 *   STRING      text = contents without quotes
 */
typedef enum AstKind {
    AST_FILE,
    AST_VERSION,
    AST_GAME,
    AST_PLAYERS,
    AST_PLAYER,
    AST_TURN_ORDER,
    AST_BOARD,
    AST_HOLES,
    AST_ORIENTATION,
    AST_DIRECTION,
    AST_LINK,
    AST_DIRSET,
    AST_ZONE,
    AST_RANK,
    AST_FILE_SPEC,
    AST_ALL,
    AST_OPTION,
    AST_WHEN,
    AST_PIECE,
    AST_MACRO,
    AST_SETUP,
    AST_END,
    AST_MATLINE,
    AST_GROUP,
    AST_FORBID,
    AST_POSITION_FIELDS,
    AST_DEFEATED,
    AST_SHUFFLE,
    AST_COUNTER,
    AST_ARMIES,
    AST_STEER,
    AST_ALLEGIANCE,
    AST_PHASE,
    AST_CAPTURE_REWARD,
    AST_EXTRA_CAPTURE,
    AST_PILE,
    AST_CARD_RULE,
    AST_MINEFIELD,
    AST_PRELUDE,
    AST_HANDS,
    AST_GATING,
    AST_WORTH_BONUS,
    AST_TUNED,
    AST_MUST_CAPTURE,
    AST_LETTER,
    AST_SYMBOL,
    AST_VALUE,
    AST_INFLUENCE,
    AST_WORTH,
    AST_FLAG,
    AST_ATOM,
    AST_MOD,
    AST_CASTLE,
    AST_PROMOTE,
    AST_MOVEBLOCK,
    AST_USE,
    AST_DIR,
    AST_VEC,
    AST_SYM,
    AST_BLOCK,
    AST_STEP,
    AST_VERIFY,
    AST_IF,
    AST_WHILE,
    AST_EITHER,
    AST_ADD,
    AST_CAPTURE,
    AST_MARK,
    AST_BACK,
    AST_ORIGIN,
    AST_SETEP,
    AST_FAIL,
    AST_GOTO,
    AST_CHANGE,
    AST_COUNT,
    AST_KIND,
    AST_DROP,
    AST_CONVERT,
    AST_OUTFLANK,
    AST_HAND_OVER,
    AST_COND,
    AST_ONBOARD,
    AST_NOT,
    AST_AND,
    AST_OR,
    AST_NAME,
    AST_STRING,
    AST_WRITTEN,
    AST_COUNTING,
    AST_DEFINE,
    AST_FOR,
    AST_ADD_PARTIAL,
    AST_SET_FLAG,
    AST_TAG,
    AST_PRIORITY,
    AST_MERGE_DUPLICATES,
    AST_POSITION_FORMAT,
    AST_CELLS,
    AST_SYMMETRY,
    AST_EXCEPT,
    AST_HOSTILE,
    AST_SURROUND,
    AST_SHIELDWALL,
    AST_DROPBLOCK,
    AST_CREATE,
    AST_CHANGE_TYPE,
    AST_EXISTS,
    AST_REFLECT,
    AST_TRANSFER,
    AST_CHECK_KIND,
    AST_FROM,
    AST_TO,
    AST_HELP,
    AST_HOLDING,
    AST__COUNT
} AstKind;

/* The items of `end counting` (COUNTING.sub). */
typedef enum CountingItem {
    COUNTING_BOARD,       /* board N: the board's honour */
    COUNTING_PIECES,      /* pieces [TYPE...] N: a line of the pieces' honour */
    COUNTING_WORD,        /* WORD TYPE...: `pawns TYPE...` */
    COUNTING_WORD_PIECES, /* WORD pieces: `start pieces` */
} CountingItem;

typedef enum ZoneMode { ZONE_ABSOLUTE, ZONE_FOR, ZONE_RELATIVE } ZoneMode;

/* Movement atoms (ATOM.sub). */
typedef enum AtomKind {
    ATOM_STEP,       /* step D...: one step to a neighbour (same as leap of a unit vector) */
    ATOM_LEAP,       /* leap D...: jump to from+D, ignoring what is between */
    ATOM_SLIDE,      /* slide D...: ride along D over empty cells (range N limits it) */
    ATOM_LEGS,       /* legs D1 D2 ...: one multi-leg path; cells before the last must be empty */
    ATOM_HOP,        /* hop D...: ride to the first piece (hurdle), land just beyond it */
    ATOM_EN_PASSANT, /* en-passant D...: capture-only step onto the en-passant cell */
    ATOM_LONG_LEAP,  /* long-leap D...: slide, jumping single enemy pieces (captured) on the way */
    ATOM_DROP,       /* drop [to ZONE]: from the mover's hand onto an empty cell (no directions) */
    ATOM__COUNT
} AtomKind;

/* Atom modifiers (MOD.sub). */
typedef enum ModKind {
    MOD_MOVE_ONLY,    /* target must be empty */
    MOD_CAPTURE_ONLY, /* target must hold an enemy */
    MOD_RANGE,        /* num[0]: at most this many steps (slide) */
    MOD_FROM,         /* text: the origin must be in this zone */
    MOD_TO,           /* text: the target must be in this zone */
    MOD_SETS_EP,      /* cells passed over become en-passant cells for one turn */
    MOD_WITHDRAW,     /* moving away from an adjacent enemy captures it */
    MOD_PINCER,       /* an enemy between the landing cell and a friend (orthogonally) is captured */
    MOD_COORDINATE,   /* enemies on the landing cell's row/column crossings with the own royal piece */
    MOD_IMITATE,      /* captures each enemy type the way that type captures */
    MOD_LEAPS_ALONE,  /* (with imitate) a move that leaps captures only what it leaps */
    MOD__COUNT
} ModKind;

typedef enum EndKind {
    END_CHECKMATE,      /* no legal move and in check: word = result for the side to move */
    END_STALEMATE,      /* no legal move and not in check */
    END_REPETITION,     /* num[0]-fold repetition */
    END_NMOVE,          /* num[0] full moves without capture or a resets-nmove piece moving */
    END_MATERIAL,       /* kids = MATLINE: material that cannot win */
    END_MUST_CAPTURE,   /* kids = [NAME piece, NAME zone]: the last mover's piece of that type in
                       * its zone must be captured at once; word = result when it cannot be */
    END_EMPTY,          /* kids = [NAME pile]: every pile of it empty at the start of a turn */
    END_PIECES,         /* a player with num[0] or fewer pieces on the board; word = its result */
    END_ROYAL_CAPTURED, /* a player's last royal piece was captured; word = its result */
    END_EXTINCTION,     /* kids = NAME types (none: num[1] bit 1, all pieces): a side with at most
                     * num[0] of one of them gets word; num[1] bit 2: on the board only */
    END_TOTAL,          /* kids = NAME types (none: any), then BLOCK players or NULL: exactly num[0]
                         * pieces on the board, every side's together; word = the result */
    END_BARE_KING,      /* a side left with royal pieces only gets word; num[1] = 1: after its reply */
    END_REACH,          /* kids = [NAME piece, NAME zone]: that piece in its owner's zone; word = the
                     * owner's result; num[1] = 1: after the other side's reply, 2: after
                     * a reply that could draw (last-chance) */
    END_CHECKS,         /* num[0] checks given: word = the checking side's result */
    END_PASSES,         /* num[0] passes in a row */
    END_FACING,         /* kids = [NAME piece]: the two players' royal pieces of that type face each
                     * other on an open line in two positions in a row */
    END_BLOCKED,        /* neither player can move: word = result for the one with more pieces */
    END_COUNTING,       /* kids = COUNTING items: a count of moves that ends the game; word = result */
    END_IN_A_ROW,       /* num[0] pieces of a side in a row (num[1] = 1: exactly that many); kids =
                         * [GROUP types (none: any), BLOCK dir terms (none: the board's lines)] */
    END_CONNECT,        /* kids = [NAME zone, NAME zone, BLOCK dir terms]: a chain of a side's pieces
                         * joins its parts of the two zones */
    END_OCCUPY,         /* kids = [NAME zone, GROUP types]: a side's pieces (of those types) stand on
                         * every cell of its part of the zone */
    END__COUNT
} EndKind;

/* The keywords the grammar hands the checker as values (END results, COND conditions); their
 * spelling is in one table (ast_keyword_name). */
enum { HOLES_LISTED, HOLES_LIGHT, HOLES_DARK };

typedef enum Keyword {
    KEYWORD_NONE,
    KEYWORD_WIN,
    KEYWORD_LOSS,
    KEYWORD_DRAW,
    KEYWORD_PASS,
    KEYWORD_EMPTY,
    KEYWORD_ENEMY,
    KEYWORD_FRIEND,
    KEYWORD_EP,
    KEYWORD_ATTACKED,
    KEYWORD_DEFENDED,
    KEYWORD_UNMOVED,
    KEYWORD_LAST_TO,
    KEYWORD_LAST_FROM,
    KEYWORD_PIECE,
    KEYWORD_IN,
    KEYWORD_COUNTER_AT_LEAST,
    KEYWORD_COUNTER_AT_MOST,
    KEYWORD_ATTACKERS_AT_LEAST,
    KEYWORD_INFLUENCE_AT_LEAST,
    KEYWORD_INFLUENCE_AT_MOST,
    KEYWORD_INFLUENCE_AT_LEAST_RIVAL,
    KEYWORD_INFLUENCE_AT_MOST_RIVAL,
    KEYWORD_RIVAL_AT_LEAST,
    KEYWORD_RIVAL_AT_MOST,
    KEYWORD_GIVES_CHECK,
    KEYWORD_WORTH,
    KEYWORD_PRIVILEGE,
    KEYWORD_PIECE_ON_BOARD,
    KEYWORD_TAKEN,
    KEYWORD_FLAG,
    KEYWORD_TAGGED,
    KEYWORD_MOST,
    KEYWORD_IN_A_ROW,
    KEYWORD_PIECES_AT_LEAST,
    KEYWORD_PIECES_AT_MOST,
    KEYWORD__COUNT
} Keyword;

typedef struct Ast {
    AstKind kind;
    SrcLoc loc;
    char *text;
    char *text2;
    long num[3];
    int sub;
    Keyword word; /* END, COND: the keyword written; KEYWORD_NONE elsewhere */
    struct Ast **kids;
    int nkids, capkids;
} Ast;

/* Constructors: never fail (out of memory aborts). Strings are copied. */
Ast *ast_new(AstKind kind, SrcLoc loc);
Ast *ast_new_text(AstKind kind, SrcLoc loc, const char *text);
/* Appends kid (may be NULL: ignored) and returns parent for chaining. */
Ast *ast_add(Ast *parent, Ast *kid);
/* Frees a node and all its children. NULL is fine. */
void ast_free(Ast *node);
/* A deep copy (used by macro expansion). */
Ast *ast_clone(const Ast *node);
const char *ast_kind_name(AstKind kind);
/* The keyword as the rule file spells it ("win", "last-to", ...); "?" when out of range. */
const char *ast_keyword_name(Keyword word);
/* Indented one-node-per-line dump used by `varia ast` and the golden tests. */
void ast_dump(const Ast *node, FILE *out);

#endif
