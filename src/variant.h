/* variant.h - a compiled game: geometry, players, piece types with their programs, zones,
 * castling rules, start position and end conditions. Built by the load pipeline (load.c), read
 * by everything that plays. Immutable once loaded. */
#ifndef VARIA_VARIANT_H
#define VARIA_VARIANT_H

#include "bytecode.h"
#include "diag.h"

#define NO_CELL 0xFFFF /* the off-board sentinel in neighbour tables */
#define NO_TYPE 0xFF

typedef uint16_t Cell;

typedef enum Orientation {
    ORIENT_IDENTITY,
    ORIENT_FLIP,
    ORIENT_MIRROR,
    ORIENT_ROT90,
    ORIENT_ROT180,
    ORIENT_ROT270,
    ORIENT_TRANSPOSE,
    ORIENT_ANTITRANSPOSE,
    ORIENT__COUNT
} Orientation;

/* RESULT_PASS (stalemate only): the player passes its turn instead of ending the game.
 * RESULT_WORTH: the player whose pieces are worth more wins (plus Variant.worth_bonus); equal
 * worth draws. */
/* RESULT_MOST: the player with the most pieces on the board wins; equal numbers draw. */
typedef enum ResultKind {
    RESULT_NONE,
    RESULT_WIN,
    RESULT_LOSS,
    RESULT_DRAW,
    RESULT_PASS,
    RESULT_WORTH,
    RESULT_MOST
} ResultKind;

/* What happens to a defeated player's pieces when others play on. */
typedef enum DefeatFate { DEFEAT_REMOVE, DEFEAT_STAY, DEFEAT_JOIN_VICTOR } DefeatFate;

/* How a board's cells are drawn: squares of a grid, or hexagons (each rank half a cell to the
 * right of the one below: the neighbours are n s e w se nw). A board with `cells` or links
 * between named cells is also drawn with its links (graph). */
enum { BOARD_GRID, BOARD_HEX };

typedef struct Board {
    char name[16];
    char title[24]; /* shown above the board; "" = the name */
    uint8_t shape;  /* BOARD_GRID or BOARD_HEX */
    bool graph;     /* cells listed (`cells`) or linked one by one: drawn with its links */
    int width, height;
    int first_cell; /* cells of this board are first_cell .. first_cell + count - 1 */
    int count;
    /* holding cells (`holding NAME ...`): off the grid, after every board's cells; this
     * board's are holding_first .. holding_first + nholding - 1, in rows of the order written */
    int holding_first, nholding;
    uint8_t holding_rows;
    Cell at[MAX_BOARD_DIM][MAX_BOARD_DIM]; /* [y][x] -> cell or NO_CELL for a hole */
} Board;

/* A holding cell has no place on its board's grid: x is its place in its row of holding
 * cells, y that row (both within MAX_BOARD_DIM, so that no table read overruns). */
typedef struct CellInfo {
    uint8_t board, x, y;
    bool holding;  /* a holding cell, off the board (Variant.board_cells and after) */
    char name[24]; /* "e4" or "top:e4" */
} CellInfo;

typedef struct Direction {
    char name[16];     /* "" for anonymous vectors */
    int8_t dx, dy;     /* for vectors */
    int8_t link_board; /* >= 0: a link to this board at the same x,y; then dx = dy = 0 */
    int8_t reverse;    /* index of the opposite direction, -1 if none */
    bool graph;        /* links between named cells (`link D [R] = ...`: Variant.links); then
                        * link_board = 0 and dx = -1 (no board link, no vector) */
} Direction;

/* A plain move pattern the fast paths use: a leap or a slide, and what it may do at the end. */
/* A type set naming every type (victims of an unfiltered ray). */
#define ALL_TYPES 0xFFFFFFFFu

typedef struct Ray {
    uint8_t dir;       /* direction index (already in the owner's frame) */
    uint8_t slide;     /* 1 = continues over empty cells */
    uint8_t range;     /* slides: at most this many steps; 0 = unlimited */
    uint8_t mode;      /* RAY_BOTH / RAY_MOVE / RAY_CAPTURE */
    uint32_t victims;  /* attack rays: the types it can capture */
    uint8_t from_zone; /* attack rays: the mover stands in this zone (index + 1; 0: anywhere) */
    uint8_t to_zone;   /* attack rays: the victim stands in this zone (index + 1; 0: anywhere) */
} Ray;

/* A move the fast generator makes in C that is not a plain ray (compile.c recognises it): an
 * atom limited by `from`/`to` zones, a lame leap (`legs`), or a move block of a known shape
 * (a slide onto given victims, a slide kept inside a zone, a hop over one screen). Legs before
 * the last land on empty cells; the last leg goes `range` cells (0: rides over empty cells),
 * after a screen when `hop` (reached by riding when range is 0, else the next cell). */
#define MAX_LINE_LEGS 4
typedef struct LineMove {
    uint8_t nlegs;
    uint8_t dirs[MAX_LINE_LEGS];
    uint8_t range;
    uint8_t hop;
    uint8_t mode;      /* RAY_BOTH / RAY_MOVE / RAY_CAPTURE */
    uint8_t from_zone; /* the mover stands in this zone (index + 1; 0: anywhere) */
    uint8_t to_zone;   /* landings and victims are in this zone (a ride goes on past others) */
    uint8_t path_zone; /* every cell after the origin is in this zone (the move stops outside) */
    uint32_t screens;  /* hop: the types the screen may be */
    uint32_t victims;  /* the types it captures */
} LineMove;

/* A capture made by moving (not by landing on the victim), as the attack test checks it
 * backwards from the victim's cell: the mover slides along `dir` onto empty cells. */
/* CAP_LEGS: lame multi-leg moves landing on their victim; dirs are the legs of each move in
 * order, nlegs legs a move, one move after the other.
 * CAP_HOP: along dir over empty cells, over one piece of any side, over empty cells onto the
 * victim (the xiangqi cannon's capture). CAP_STEPS: one leap along any of dirs, limited by
 * zones (leaps without zones are attack rays). CAP_SLIDES: one slide along any of dirs (at
 * most `range` cells, 0: no limit) limited by zones, a path zone included. CAP_PRIVILEGE: one
 * move of ndirs legs (the cells between unchecked) from a cell whose privilege its owner holds;
 * attack tests find it through the privileges, not the attack lines (Variant.privilege_types). */
typedef enum CaptureMethod {
    CAP_WITHDRAW,
    CAP_PINCER,
    CAP_COORDINATE,
    CAP_LEAP,
    CAP_LEGS,
    CAP_HOP,
    CAP_STEPS,
    CAP_SLIDES,
    CAP_PRIVILEGE
} CaptureMethod;

typedef struct CapturePattern {
    uint8_t method; /* CaptureMethod */
    uint8_t ndirs;
    uint8_t nlegs;              /* CAP_LEGS: legs per move */
    uint8_t dirs[16];           /* directions of the capturing moves */
    uint32_t victims;           /* types it captures (CAP_LEAP: types it may jump) */
    uint8_t from_zone, to_zone; /* CAP_LEGS, CAP_HOP, CAP_STEPS: zones of the mover and the victim (index + 1) */
    uint8_t path_zone;          /* CAP_HOP, CAP_SLIDES: every cell after the mover's is in this zone (index + 1) */
    uint8_t near;               /* CAP_HOP: the screen is next to the mover and the victim next to it */
    uint8_t range;              /* CAP_SLIDES: at most this many cells (0: no limit) */
    uint32_t screens;           /* CAP_HOP: the types the screen may be */
    uint32_t jumps;             /* CAP_WITHDRAW, CAP_PINCER, CAP_COORDINATE: the mover may also get
                              * where it lands by long leaps over enemies of these types */
    uint16_t reach; /* CAP_LEGS, CAP_STEPS, CAP_HOP, CAP_SLIDES: its block in Variant.pattern_reach + 1 (0: none) */
} CapturePattern;

/* An atom of a piece's `rest` program that the fast generator runs in C instead, in the
 * program's order (PieceProgram.atoms): a step or leap that promotes, legs, en passant, or a
 * move block that goes from a cell whose privilege its owner holds along fixed legs (the cells
 * between unchecked: FAST_PRIVILEGE; FAST_PRIVILEGE_UNATTACKED only while the piece is not
 * attacked where it stands). Each emits the moves its code would (movegen.c: gen_atoms). */
enum { FAST_STEP, FAST_LEGS, FAST_EN_PASSANT, FAST_PRIVILEGE, FAST_PRIVILEGE_UNATTACKED };
typedef struct FastAtom {
    uint8_t kind;
    uint8_t mode;      /* the last cell: RAY_BOTH / RAY_MOVE / RAY_CAPTURE */
    uint8_t from_zone; /* the origin must be in this zone (index + 1; 0: anywhere) */
    uint8_t promo;     /* promotion set (0: none) */
    bool sets_ep;      /* legs: the cells passed become en-passant cells */
    uint8_t ndirs;
    uint8_t dirs[MAX_FAST_ATOM_DIRS]; /* legs: one move's legs in order; else one move each */
} FastAtom;

/* What a branch of a rest program requires before anything else: the piece standing on `at`,
 * and the castling rights `rights` (bits; 0: none). */
typedef struct RestGuard {
    Cell at;
    uint32_t rights;
} RestGuard;

/* A branch of a rest program that only castles: it emits its one castling move whenever the
 * rights `rights` (bits; 0: none) are held and, for a fixed castle, the piece stands on `at`
 * and the cells of `empty` (a board of at most 64 cells) are empty, or, for a free castle
 * (free_castle >= 0: its index in Variant.castles), where FREECASTLE finds it open. */
typedef struct CastleBranch {
    uint32_t rights;
    Cell at;
    int8_t free_castle;
    uint64_t empty;
} CastleBranch;

/* The first step of a branch of rest that can only capture: the piece next to the origin along
 * dir (with `rides`, the first piece along dir) must be an enemy, and with `beyond`, the cell
 * past it empty (a jump). */
typedef struct CaptureGuard {
    uint8_t dir;
    bool rides, beyond;
    uint16_t pc; /* where the branch's own code begins in rest (after its FORK) */
} CaptureGuard;

/* A piece's moves in C as cell sets, for counting them on a board of at most 64 cells
 * (PieceProgram.bits). Per cell, `stride` words: the cells its leaps (rays of one step) reach,
 * by mode (RAY_BOTH, RAY_MOVE, RAY_CAPTURE); one word per slide, its cells in the order the
 * slide passes them (increasing when slide_up); two words per step atom (FAST_STEP, when
 * rest_in_c): the cells it reaches (none outside its from zone) and those where it promotes.
 * No two of those paths reach one cell from the same cell, so one set of a piece's targets
 * counts its moves. Its legs and en-passant atoms (walks) are made as generation makes them. */
/* A leap, a step atom's direction or a legs atom whose every leg changes the cell index by
 * the same amount wherever it stays on the board: the moves of all pieces of a type by it are
 * counted at once, their cells shifted (BitCount.shifts). */
typedef struct BitShift {
    uint8_t nlegs; /* 1: a leap or step; more: legs, each cell before the last empty */
    uint8_t mode;  /* RAY_BOTH / RAY_MOVE / RAY_CAPTURE */
    uint8_t promo; /* the atom's promotion set (0: none) */
    uint8_t atom;  /* legs: its index in PieceProgram.atoms */
    int8_t delta[MAX_FAST_ATOM_DIRS];
    uint64_t from;     /* the cells (of its from zone) the whole path stays on the board from */
    uint64_t promotes; /* those of them from which its move promotes */
} BitShift;

typedef struct BitCount {
    /* every leap, step atom and legs atom is a BitShift (the others are counted per piece) */
    bool shifts;
    int nshift;
    BitShift shift[MAX_DIRECTIONS + MAX_FAST_ATOMS * MAX_FAST_ATOM_DIRS];
    int nslides, nsteps;
    uint8_t slide_mode[MAX_DIRECTIONS];
    bool slide_up[MAX_DIRECTIONS];
    /* the slides up come first, nslides_up of them; all_both: every slide moves and captures */
    int nslides_up;
    bool all_both;
    uint8_t step_mode[MAX_FAST_ATOMS], step_promo[MAX_FAST_ATOMS];
    bool walks;
    int stride;
    uint64_t cells[]; /* ncells x stride */
} BitCount;

/* A piece's line moves as cell sets, for counting them on a board of at most 64 cells
 * (PieceProgram.line_bits), when each is a lame leap of one cell (its zones decided per cell),
 * or a ride or hop along its last leg with no zone but its from zone. Per cell and line, two
 * words: the cells its legs before the last must find empty, and the cells of its last leg:
 * the landing of a leap, every cell of a ride's line (none where it cannot start). */
enum { LINE_LEAP, LINE_RIDE, LINE_HOP };
typedef struct LineBits {
    uint8_t kind[MAX_LINE_MOVES];
    bool up[MAX_LINE_MOVES];         /* rides: their cells come in increasing order */
    bool any_victim[MAX_LINE_MOVES]; /* victims name every type */
    bool any_screen[MAX_LINE_MOVES]; /* hops: screens name every type */
    uint64_t cells[];                /* ncells x nlines x 2 */
} LineBits;

typedef struct PieceProgram {
    Program prog;   /* every move of this type for one owner (the general path) */
    Program rest;   /* the moves not in gen[] (run after the rays on the fast path) */
    bool rest_in_c; /* every atom of rest is in atoms[] (the fast path runs no VM) */
    /* rest is its atoms[], run in C, then the alternatives from rest_vm_entry on, run in the VM
     * (a piece whose steps promote and whose captures go on with add-partial) */
    bool atoms_then_vm;
    int rest_vm_entry;
    bool quiet_in_c; /* every ray and atom run in C is move-only: it never captures */
    /* when every ray and atom run in C is a move-only step (no slide, no zone), the cells
     * they reach from each cell (ncells x CELL_WORDS, allocated) and the cells where such a
     * move promotes, with the moves each promotion makes (its choices): counting is a popcount */
    uint64_t *step_cells;
    /* perft's last ply may count this piece's quiet moves and list the rest (count_quiet):
     * every ray and atom in C is move-only, and none is a line move or privileged */
    bool counts_quietly;
    uint64_t step_promotes[CELL_WORDS];
    uint8_t promo_moves;
    bool privileged_atoms; /* some atom is FAST_PRIVILEGE or FAST_PRIVILEGE_UNATTACKED */
    /* its rays (and its atoms, when rest_in_c) as cell sets, when the board has at most 64
     * cells and no two of its leaps or step atoms of one mode meet (allocated; else NULL) */
    BitCount *bits;
    /* when every branch of rest starts with its guard (castling: `GOTO e1 ISORIGIN VERIFY RIGHT
     * 0 VERIFY`), the guards: where none holds, rest is not run (0: always run) */
    int nrest_guards;
    RestGuard rest_guards[MAX_REST_GUARDS];
    /* when rest is nothing but castling branches (CastleBranch), those: a count where every
     * move is legal tests them in C, not in the VM (0: rest is more) */
    int ncastle_branches;
    CastleBranch castle_branches[MAX_REST_GUARDS];
    /* when every branch of rest starts by going to an enemy piece (a draughts capture: `STEP d
     * ENEMY VERIFY`, or a ride first), those first steps: where none finds one, rest is not run
     * (0: always run) */
    int ncapture_guards;
    CaptureGuard capture_guards[MAX_CAPTURE_GUARDS];
    int natoms;
    FastAtom atoms[MAX_FAST_ATOMS];
    bool has_chain;     /* prog has add-partial blocks, from chain_entry on: the continuation */
    int chain_entry;    /* of a paused move runs them */
    bool may_capture;   /* prog can remove an enemy piece */
    bool may_duplicate; /* two paths of prog can emit the same move (they are merged) */
    int ngen;           /* fast generation: plain moves as rays */
    Ray gen[MAX_DIRECTIONS];
    int nlines;          /* ... and the moves of recognised shapes (not in rest's code, but
                              * made with it: such a piece has a rest, if only its HALT) */
    LineMove *lines;     /* (MAX_LINE_MOVES, allocated with the first: kept out of the
                              * struct, whose size the hot paths' address arithmetic feels) */
    LineBits *line_bits; /* the lines as cell sets (allocated; NULL: not so) */
    int natk;            /* fast attack test: every capturing move as a ray (if fast_attack) */
    Ray atk[MAX_DIRECTIONS];
    int npatterns; /* ... and every capture by moving as a pattern */
    CapturePattern patterns[MAX_PATTERNS];
} PieceProgram;

/* Weights of the evaluation's terms a rule file may give by name (`tuned promotion 8`): a
 * promoting piece's progress toward its zone and its bonus when passed (in percent of what
 * promoting gains), a royal piece's open lines, its own neighbours, its centralisation in the
 * ending and in the middle game (hundredths of a pawn), a rank of pieces' doubled and
 * isolated members (in percent of their value), a column slider on a column free of them, an
 * attack on the enemy royal piece's cells (per square of the attack's units, in 256ths), a cell
 * the enemy's least piece guards in a piece's mobility (in percent), another piece standing on
 * such a cell, a piece in hand joining an attack (in percent of its value in pawns). */
enum {
    TUNED_PROMOTION,
    TUNED_PASSED,
    TUNED_EXPOSURE,
    TUNED_SHELTER,
    TUNED_ROYAL_CENTRE,
    TUNED_ROYAL_HIDDEN,
    TUNED_DOUBLED,
    TUNED_ISOLATED,
    TUNED_OPEN_COLUMN,
    TUNED_ROYAL_ATTACK,
    TUNED_GUARDED,
    TUNED_THREAT,
    TUNED_HAND_ATTACK,
    TUNED_TERMS
};
static inline const char *tuned_term_name(int i) {
    static const char *const names[TUNED_TERMS] = {
        "promotion", "passed",      "exposure",     "shelter", "royal-centre", "royal-hidden", "doubled",
        "isolated",  "open-column", "royal-attack", "guarded", "threat",       "hand-attack"};
    return names[i];
}

/* Evaluation weights a rule file carries (`tuned` items, written by `varia tune`); the engine's
 * defaults stand where a term is not given (its bit or flag clear). In hundredths of a pawn. */
typedef struct TunedTerms {
    int value[MAX_PIECE_TYPES];    /* the piece's value (instead of its `value` item) */
    int mobility[MAX_PIECE_TYPES]; /* per cell a piece of the type reaches along its rays */
    int squares[MAX_PIECE_TYPES];  /* per move the type has from its cell on an empty board,
                                    * above its average over the board, in sixteenths */
    uint32_t value_set, mobility_set, squares_set;
    int royal_safety; /* per enemy piece within two steps of a royal piece */
    int hand;         /* a piece in hand, in percent of its value on the board */
    bool royal_safety_set, hand_set;
    /* the terms named by tuned_term_name (TUNED_PROMOTION...), with their bits in terms_set */
    int terms[TUNED_TERMS];
    uint32_t terms_set;
    bool mcts; /* `tuned mcts 1`: the computer plays by Monte Carlo tree search */
} TunedTerms;

typedef struct PieceType {
    char name[24];
    char letter;                /* uppercase; player 0 writes it as is, player 1 in lower case */
    char symbol[MAX_OWNERS][8]; /* UTF-8 glyph per owner, may be empty */
    char written;               /* `written "*"`: position text's mark for it, whoever owns it; 0 = the letter */
    char *help;                 /* `help "..."`: the author's words on the piece, for the rulebook; may be NULL */
    int value;                  /* in hundredths of a pawn; 0 = unknown / royal */
    int worth;                  /* the rule file's own small value (`worth N`): capture rewards */
    bool royal;                 /* royal for some owner (royal_for) */
    uint8_t royal_for;          /* the owners (bits) for whom losing it is losing: `royal` all, `royal for P...` P's */
    bool resets_nmove;
    bool mine_proof; /* never set off an enemy mine (it only clears the tile) */
    bool sets_ep;    /* some move of this type makes en-passant cells */
    /* Attacks fully described by atk[] rays for every owner: attack tests need no program. */
    bool fast_attack;
    int influence; /* strength over steered armies' pieces on linked cells (0 = none) */
    /* Drops (`drop [to ZONE]`): the empty cells a piece of this type in a player's hand may
     * be put on; droppable is false for a type no drop item names. */
    bool droppable;
    uint64_t drop_cells[MAX_OWNERS][CELL_WORDS];
    /* drop_not_doubled (no-doubled-drop): never dropped on a file holding a piece of its type and owner;
     * drop_no_mate: a drop of it may not checkmate (shogi's pawn). */
    bool drop_not_doubled, drop_no_mate;
    /* never-stuck: never dropped where it could never move, and an optional promotion is
     * forced there */
    bool never_stuck;
    PieceProgram per_owner[MAX_OWNERS];
    /* `drop { ... }` blocks: per owner, one program that starts on every cell with no piece
     * moving, whose `add` puts a new piece of this type there (NULL: the type has none) */
    Program *drops;
    /* A promoted type (`letter +P`) is written with a '+' before its base type's letter, and
     * `base` is that type (a capture into a hand gives it back); any other type is its own base. */
    bool promoted;
    uint8_t base;
    /* Mobility on an empty board: the first steps of its atoms per owner, or always (a program,
     * a hop...: not worked out); `stuck` marks the cells it could never move from. */
    bool always_mobile;
    uint64_t exit_dirs[MAX_OWNERS];
    uint64_t stuck[MAX_OWNERS][CELL_WORDS];
} PieceType;

enum { RAY_BOTH = 0, RAY_MOVE = 1, RAY_CAPTURE = 2 };

typedef struct Zone {
    char name[24];
    uint64_t cells[MAX_OWNERS][CELL_WORDS]; /* per owner (relative zones differ per owner) */
} Zone;

/* A promote rule: it applies to a move that ends in `zone` or starts in `from_zone` (NO_ZONE:
 * not that way). optional: the move may also stay unpromoted, except onto a cell the piece
 * could never move from (PieceType.stuck); lost_only: a choice only while its owner has fewer
 * of that type on the board than the start position gave it; on_capture: only moves that
 * capture. */
#define NO_ZONE 0xFF
typedef struct PromoSet {
    uint8_t zone, from_zone;
    uint8_t count;
    bool optional;
    bool lost_only;
    bool on_capture; /* capture-only: only a move that captures promotes */
    uint8_t types[MAX_PROMO_CHOICES];
} PromoSet;

/* A free castle (`castle king K2 rook R2`, Chess960's) has no start cells: the king starts
 * where the position has its royal piece of king_type on K2's row, the rook on that row on
 * the side away from R2 (the position text names its file); king_from and rook_from are
 * NO_CELL and the cells are in Position.castle_king and castle_rook. */
typedef struct Castle {
    uint8_t owner;
    char letter; /* position-text letter (case per owner) */
    bool free;
    bool privilege;    /* `privilege CELL...`: only a right, held while the piece on its
                              * cell stays (king_from = the owner's CELL, the others NO_CELL;
                              * the letter is its file) */
    uint8_t king_type; /* the type that castles (free castles, and a king that is not royal) */
    uint32_t lost_to;  /* privileges: enemy types whose move onto the cell's rank or file
                              * ends it */
    Cell king_from, king_to, rook_from, rook_to;
    uint8_t right;     /* bit index in Position.rights */
    uint8_t kind;      /* the move kind of the castling move (0: normal) */
    uint8_t rook_type; /* the type standing on rook_from in the setup (NO_TYPE: any) */
} Castle;

typedef struct MaterialRule {
    uint8_t a[MAX_PIECE_TYPES], b[MAX_PIECE_TYPES]; /* piece counts per type for each side */
    bool same_colour;                               /* all non-royal pieces on one square colour */
    int total_a, total_b;                           /* the pieces of each side (found at load) */
} MaterialRule;

/* "end counting RESULT { ... }" (two players): a count of moves that ends the game with RESULT
 * when it runs out (Position.count_limit, count_ply). A count starts after a move when none
 * runs and no piece of a `pawns` type is left on the board, or when the move leaves the player
 * to move with a single piece (a capture that does so starts it again). Its length: nothing when
 * the other side has a single piece too, or while a `pawns` piece stands; the board's honour
 * (board_moves) when the player to move has more than one piece; otherwise the pieces' honour:
 * the first line whose types the other side has (at least `need` of each). start_pieces: the
 * pieces' honour starts at the number of pieces on the board, not 0. */
typedef struct CountingLine {
    uint8_t need[MAX_PIECE_TYPES];
    int moves;
} CountingLine;

typedef struct CountingRule {
    bool on;
    ResultKind result;
    char name[32];   /* the game's own name for the end ("" = none) */
    uint32_t pawns;  /* type bits */
    int board_moves; /* 0 = no board's honour */
    bool start_pieces;
    int nlines;
    CountingLine lines[MAX_COUNTING_LINES];
} CountingRule;

/* "end must-capture PIECE in ZONE RESULT": a piece of that type belonging to the player who
 * just moved, standing in that player's zone, must be captured by the next move. */
typedef struct ForcedCapture {
    uint8_t type, zone;
    ResultKind result; /* for the player to move when no legal move captures it */
    char name[32];     /* the rule file's word for that end ("" = the default) */
} ForcedCapture;

/* Endings the position alone decides, looked at before any move (ending.c). Each result is
 * for the side the rule names, and `name` is the rule file's word for it ("" = the default). */
/* "end extinction TYPE... [at-most N] RESULT": a side with at most N pieces of one of the
 * types (types 0: of all its pieces together; all_of, TYPEs joined by `and`: of each of them)
 * gets RESULT. */
typedef struct ExtinctionRule {
    uint32_t types;
    bool all_of;
    /* "end total-pieces N [TYPE...] RESULT": exactly N pieces (of those types) on the board,
     * every side's counted together (at_most holds N); the first side looked at gets RESULT */
    bool total;
    uint8_t players; /* `for PLAYER...`: the sides the rule looks at (bits; 0: every side) */
    bool board_only; /* `on-board`: pieces in a hand do not count */
    bool exactly;    /* `exactly N`: the count is N, not at most N */
    uint16_t at_most;
    uint16_t rival_at_least; /* `rival at-least M`: only while the other side holds M or more of them (0: always) */
    ResultKind result;
    char name[32];
} ExtinctionRule;

/* "end reach PIECE in ZONE [and PIECE in ZONE...] RESULT [reply | last-chance]": a side with
 * PIECE in its part of ZONE (and each further piece in its zone) gets RESULT; with reply,
 * only when it still stands there after the other side's answer (a draw when that answer
 * reached too, moving after it in the round); with last-chance, the same, but the answer is
 * made only when it can draw that way. */
#define MAX_REACH_PARTS 8
typedef struct ReachRule {
    uint8_t type, zone;
    uint8_t nmore; /* `and PIECE in ZONE ...`: the side must have every one of these too */
    uint8_t more_type[MAX_REACH_PARTS - 1], more_zone[MAX_REACH_PARTS - 1];
    uint8_t players; /* `for PLAYER...`: the sides the rule looks at (bits; 0: every side) */
    bool reply, last_chance, safe;
    ResultKind result;
    char name[32];
} ReachRule;

/* The lines of `in-a-row`: one direction of each line (its reverse walked too). */
#define MAX_LINE_DIRS 16
typedef struct LineSet {
    uint8_t n;
    uint8_t dirs[MAX_LINE_DIRS];
} LineSet;

/* "end in-a-row N [exactly] [TYPE...] [by DIRS] RESULT": a side with N or more (exactly N)
 * pieces of those types (types 0: any) one after another along a line. */
typedef struct RowRule {
    uint8_t length;
    bool exactly;
    uint32_t types;
    uint8_t lines; /* index of Variant.linesets */
    ResultKind result;
    char name[32];
} RowRule;

/* "end connect A B [by DIRS] RESULT": a chain of a side's pieces, each next to the next along
 * DIRS, from a cell of its part of zone A to one of its part of zone B. */
typedef struct ConnectRule {
    uint8_t zone_a, zone_b;
    uint8_t ndirs;
    uint8_t dirs[MAX_DIRECTIONS];
    ResultKind result;
    char name[32];
} ConnectRule;

/* "end occupy ZONE [TYPE...] RESULT": a side's pieces (of those types) on every cell of its
 * part of the zone. */
typedef struct OccupyRule {
    uint8_t zone;
    uint32_t types;
    ResultKind result;
    char name[32];
} OccupyRule;

/* A link of a graph board: direction dir leads from cell `from` to cell `to`. */
typedef struct GraphLink {
    uint8_t dir;
    Cell from, to;
} GraphLink;

/* The fast attack test's table for one owner and one direction: which types capture by a
 * leap (one step back) or an unlimited slide along it, for each victim type. */
typedef struct AttackLine {
    uint8_t dir; /* the attacker's move direction; the test walks its reverse */
    uint32_t leapers[MAX_PIECE_TYPES];
    uint32_t sliders[MAX_PIECE_TYPES];
} AttackLine;

/* An attack line as the tests walk it for one victim type: back from the victim along `back`,
 * the types that capture from the first cell met, and those that capture from farther. */
typedef struct LineRef {
    uint8_t back;
    uint8_t run_end; /* lines with sliders: the end of the run of lines with its sliders */
    uint32_t types, sliders;
} LineRef;

/* A named integer counter (experience, cards in hand, ...): one value for the game, or one per
 * player; values live in Position.counters[slot ...]. */
typedef struct CounterDef {
    char name[24];
    bool per_player;
    int initial;
    uint8_t slot; /* first value's index in Position.counters */
} CounterDef;

/* One phase of a turn: the move kinds it allows and how many moves it takes. A phase with
 * min 0 may be skipped; max 0 means no limit. */
typedef struct PhaseDef {
    char name[24];
    uint8_t min, max;
    uint32_t kinds; /* bit per move kind */
} PhaseDef;

/* "extra-capture KIND at-least N [remote]": a capture onto an enemy that N or more distinct
 * pieces could capture is also a move of KIND; remote: the enemy is removed, nothing moves. */
typedef struct ExtraCapture {
    uint8_t kind, attackers;
    bool remote;
} ExtraCapture;

/* A pile of cards (small integers): one for the game or one per player. An ordered pile is a
 * stack (its top is the last card); a sorted pile is a multiset kept in ascending order (a hand). */
typedef struct PileDef {
    char name[24];
    bool per_player, sorted;
    uint8_t slot; /* first pile's index in Position.piles */
    uint8_t ninit;
    uint8_t init[MAX_PILE_CARDS]; /* every one of its piles starts with these, bottom first */
} PileDef;

/* "draw KIND from P to Q": a move of KIND takes the top card of any non-empty P into the
 * mover's Q. "pay KIND from P to Q": a move of KIND by a piece of worth W needs cards of the
 * mover's P adding up to W or more; the mover then pays them onto one Q (any player's), the
 * highest first, as the next move. */
typedef struct CardRule {
    uint8_t kind, from, to; /* move kind, pile indexes */
    uint8_t count;          /* draw: cards taken at once, from one pile */
    bool own;               /* draw: only from the mover's own pile */
} CardRule;

/* One set-up step before the first turn: PLAYER makes `moves` moves of `kind`. */
typedef struct PreludeStep {
    uint8_t player, kind, moves;
} PreludeStep;

/* What a capture puts into the captor's hand (`hands KEEP`). */
typedef enum HandKeep {
    HAND_NONE,     /* nothing: hands are filled only by the position text */
    HAND_CAPTURED, /* the captured piece, as the captor's, of its type */
    HAND_DEMOTED,  /* the same, but a piece that promoted returns as the type it promoted from */
} HandKeep;

typedef struct OptionDef {
    char name[24];
    int nvalues;
    char values[MAX_OPTION_VALUES][24];
    int value; /* the value chosen at load time */
} OptionDef;

typedef struct Variant {
    char *title;
    char *help; /* `help "..."`: the author's words on the game, for the rulebook; may be NULL */
    char *path;
    /* geometry */
    int nboards;
    Board boards[MAX_BOARDS];
    int ncells;
    int cell_words; /* 64-bit words that cover the cells (bitset loops stop there) */
    /* the cells of the boards' grids are 0 .. board_cells - 1; the holding cells come after
     * them (on_board: the bits of the grids' cells) */
    int board_cells;
    uint64_t on_board[CELL_WORDS];
    CellInfo cells[MAX_CELLS];
    int ndirs;
    Direction dirs[MAX_DIRECTIONS];
    Cell *neighbour; /* [cell * ndirs + dir] -> cell or NO_CELL */
    int nlinks;      /* the links of graph boards (directions with `graph`) */
    GraphLink *links;
    /* `symmetry PLAYER D1 D2, ...`: for each owner, a direction as the rule file writes it ->
     * the one it means for that owner (-1: its orientation turns it) */
    bool has_symmetry;
    int8_t dir_map[MAX_OWNERS][MAX_DIRECTIONS];
    /* the line sets of `in-a-row` conditions and goals */
    int nlinesets;
    LineSet linesets[MAX_LINE_SETS];
    uint8_t colour[MAX_CELLS]; /* square colour (x + y) & 1 */
    /* players and owners */
    int nplayers; /* players taking turns; owners 0..nplayers-1 */
    int nowners;  /* players, then the armies no player owns (`armies`) */
    char player_names[MAX_OWNERS][16];
    char player_token[MAX_OWNERS][8]; /* side-to-move token in position text */
    Orientation orient[MAX_OWNERS];
    int8_t forward_dir[MAX_OWNERS]; /* each owner's "forward" (0,1) as a direction, -1 if none */
    /* the directions (bits) of the last step of each owner's `sets-ep` legs: past its
     * en-passant cells along one of these (or forward) stands the piece that made them */
    uint64_t ep_dirs[MAX_OWNERS];
    int nturns;
    uint8_t turn_order[MAX_HISTORY > 64 ? 64 : MAX_HISTORY]; /* players by turn slot */
    /* pieces */
    int ntypes;
    PieceType types[MAX_PIECE_TYPES];
    int nzones;
    Zone zones[MAX_ZONES];
    int npromos;
    PromoSet promos[MAX_PROMO_SETS];                  /* index 0 unused: ADD 0 means "no promotion" */
    uint8_t start_count[MAX_OWNERS][MAX_PIECE_TYPES]; /* pieces of each owner and type at the start */
    uint32_t start_columns[MAX_PIECE_TYPES];          /* bit x: owner 0 starts with one on the first board's column x */
    int ncastles;
    Castle castles[MAX_PLAYERS * MAX_CASTLES];
    uint32_t castle_mask[MAX_CELLS];                  /* rights kept when the cell is touched */
    bool free_castles;                                /* some castle is free (its cells are the position's) */
    bool privileges_lost;                             /* some privilege is `lost-to` enemy types */
    uint32_t privilege_types;                         /* fast-attack types with a CAP_PRIVILEGE capture: attack
                                       * tests read the rights (Position.rights) */
    uint64_t privilege_reach[MAX_OWNERS][CELL_WORDS]; /* the cells such captures of an owner could
                                                        * land on from its privileges' cells */
    bool has_royal;
    uint32_t royal_types;          /* the types royal for some owner (bit per type; found at load) */
    uint32_t royal_of[MAX_OWNERS]; /* per owner: the types royal for it (variant_royal) */
    /* owners with a royal piece in the start position: only they can lose one (a side that
     * starts without, as horde's White, plays on without) */
    uint8_t royal_owners;
    bool forbid_royal_capture; /* legality: no royal of the mover may be capturable */
    bool all_fast;             /* every type's attacks are rays: no program runs in attack tests
                                       * (and no `end facing` rule: legality is then cells only,
                                       * royal flight included) */
    /* Legality by pins (movegen.c): two players with one army each, every attack a plain ray
     * grouped in attack lines, a capture pattern of a lame leap, zoned step or slide, or hop,
     * or a privilege's capture (no freezing, steering, explosion, allegiance, phases or mines).
     * Then, while the mover's one royal piece is not in check, a move that only carries another
     * of its pieces off a cell no enemy slider or pattern pins, onto no cell that could screen
     * a hop, needs no test. */
    bool pin_legal;
    /* Two players with one army each, no royal piece nor other rule that decides legality:
     * every move the pieces make is legal. */
    bool every_move_legal;
    /* pin_legal or every_move_legal, and a turn is one move of the pieces and nothing else
     * (no drops but from a hand, which is tested at the node, no passes, explosions, extra captures, cards, set-up steps, phases, forbidden checks,
     * zones to reach with a last-chance answer, compulsory captures; a capture `end must-capture`
     * requires is looked for at the node): the last ply of perft counts unpinned
     * pieces' rays without writing their moves (none in a game the position has ended). */
    bool bulk_count;
    /* bulk_count, where whether a position is counted so depends on it: on a hand to drop
     * from, on a capture an `end must-capture` rule requires (movegen.c) */
    bool bulk_by_position;
    /* every royal type moves by its rays alone (no rest program such as castling), on a
     * pin_legal board of one word: perft's last ply decides its moves by the look at its
     * attackers (attack.h RoyalLook, movegen.c) */
    bool royal_rays_only;
    /* some `end reach` rule is last-chance: the answer it requires sorts the moves out */
    bool reach_sorts_moves;
    int ntypesets;
    uint32_t typesets[MAX_TYPESETS]; /* piece-type masks used by TYPEIN/WITHDRAW/PINCER/COORD; 0 = all */
    uint32_t freezer_mask;           /* types that freeze adjacent enemies */
    uint32_t imitator_mask;          /* types that capture by imitation (and freeze freezers) */
    bool has_drops;                  /* some program drops new pieces (moves from several pieces may coincide) */
    bool has_drop_programs;          /* some type has `drop { }` blocks (PieceType.drops) */
    uint32_t blast_mask;             /* types whose captures explode (`explodes`) */
    uint32_t blast_proof_mask;       /* types a neighbouring explosion spares (`blast-proof`) */
    int nadjacent;
    uint8_t orth_dirs[4];     /* the four orthogonal unit directions (pincer) */
    uint8_t adjacent_dirs[8]; /* the eight neighbours (freezing) */
    /* Fast attack lines per owner (built at load from the types' attack rays); false when
     * some attack ray has a limited range, then the per-type loop is used. */
    bool attack_lines_ok;
    int nattack_lines[MAX_OWNERS];
    AttackLine *attack_lines[MAX_OWNERS];
    uint32_t pattern_types; /* fast-attack types that also have capture patterns */
    /* per cell c and direction d (attack_lines_ok only, else NULL): the cells (cell_words
     * words) met stepping from c along d to the edge; an attack line with none of the
     * attacker's pieces on it is skipped without a walk */
    uint64_t *line_cells;
    /* per attacking owner and victim type (attack_lines_ok only): the attack lines that can
     * capture it, so that the tests walk no line that cannot; those with sliders first (the
     * first nline_slides), then those of leapers only */
    int nline_refs[MAX_OWNERS][MAX_PIECE_TYPES], nline_slides[MAX_OWNERS][MAX_PIECE_TYPES];
    LineRef *line_refs[MAX_OWNERS][MAX_PIECE_TYPES]; /* (into one block, line_refs[0][0]) */
    /* per attacking owner and cell c (cell_words words): the first cells of its lines of
     * leapers only back from c, whatever the victim; with none of its pieces there, those
     * lines need no look */
    uint64_t *leap_cells;
    /* per attacking owner and victim type: the types its lines of leapers only capture with
     * (bit per type); on a board of one word, the tests look at them when one stands there */
    uint32_t leap_types[MAX_OWNERS][MAX_PIECE_TYPES];
    /* per attacking owner and royal victim type (pin_legal on a board of one word, else
     * NULL): for each type t, per cell c, the cells a piece of type t captures such a victim
     * on c from by a leap (AttackLine.leapers); leap_from_types: those types. The royal
     * piece's destinations are tested with them (attack_royal_look) */
    uint64_t *leap_from[MAX_OWNERS][MAX_PIECE_TYPES];
    uint32_t leap_from_types[MAX_OWNERS][MAX_PIECE_TYPES];
    /* per owner, type and cell c (bulk_count games on a board of one word, without
     * freezers or promotions limited to lost pieces, else NULL): the cells the piece's rays
     * and atoms look at from c, and c; where none of them changed, the piece has the moves it
     * had (a playout's tally counts them again only then: movegen_tally_legal) */
    uint64_t *move_reach;
    /* per pattern of fixed shape (CapturePattern.reach) and cell c: the cells (cell_words
     * words) its mover could capture on c from on an empty board; attack tests skip the
     * pattern when none of its pieces stands on one */
    uint64_t *pattern_reach;
    /* per cell c (games with a freezer only, else NULL): the cells (cell_words words) next
     * to c, for the freezing test */
    uint64_t *adjacent_cells;
    /* per cell c (games with a program run in C that captures custodian-wise, else NULL): the
     * cells (cell_words words) one orthogonal step from c, then those two such steps away: a
     * custodian capture landing on c needs an enemy among the first and a friend among the
     * second */
    uint64_t *custodian_cells;
    /* per attacking owner and victim type: the (type, pattern) pairs that can capture it */
    uint8_t npattern_refs[MAX_OWNERS][MAX_PIECE_TYPES];
    struct {
        uint8_t type, pattern;
    } pattern_refs[MAX_OWNERS][MAX_PIECE_TYPES][MAX_PATTERN_REFS];
    /* Steering (`steer ARMY... by LINK... [copy] [if COND]`): a piece of a steered army may be
     * moved by each player for whom COND holds, over the player's influence on its cell (the
     * strongest `influence` among the player's pieces on the cells reached through the links)
     * and its rival's (the strongest other player's). With `copy`, such a move may also move
     * the player's influencing piece by the same displacement on its own board. */
    uint8_t steered; /* owners moved by influence (bit per owner) */
    int nsteer_links;
    uint8_t steer_links[MAX_DIRECTIONS];
    bool steer_copy;
    /* the steer rule's condition for every pair (the player's influence, its strongest rival's):
     * may the player move the piece? (default: influence at least 1 and at least the rival's) */
    bool steer_allow[MAX_INFLUENCE + 1][MAX_INFLUENCE + 1];
    /* Allegiance: the army each player answers for (its royal pieces are the player's own for
     * check and checkmate); random: dealt out at the start of a game by the seed. */
    bool has_allegiance, allegiance_random;
    uint8_t allegiance[MAX_PLAYERS];
    int nfen_fields;
    uint8_t fen_fields[16]; /* position-text fields in order (FenField, fen.h) */
    int fen_optional_from;  /* fields from here on (`NAME?`) are left out when a
                                                    * text without them would say the same (0: none) */
    /* start and end */
    char *setup;
    ResultKind on_checkmate, on_stalemate; /* for the side to move */
    /* `end stalemate RESULT for PLAYER...`: the result of that player's stalemate (RESULT_NONE:
     * on_stalemate); stalemate_by_player when one is not a draw */
    ResultKind on_stalemate_of[MAX_PLAYERS];
    bool stalemate_by_player;
    /* `end stalemate pieces at-most N RESULT [for PLAYER...]`: the result of a player's stalemate
     * when it has at most N pieces on the board (stalemate_few_limit N + 1; 0: no such rule);
     * its other stalemates as above */
    ResultKind on_stalemate_few[MAX_PLAYERS];
    uint16_t stalemate_few_limit[MAX_PLAYERS];
    char stalemate_few_name[MAX_PLAYERS][32];
    ResultKind on_blocked; /* neither player can move: for the one with more pieces (NONE: off) */
    char end_name[3][32];  /* the game's own names for checkmate, stalemate, empty piles ("" = none) */
    /* the game's own names for the other ends its rules give ("" = the default) */
    char blocked_name[32], repetition_name[32], nmove_name[32], material_name[32];
    char passes_name[32], facing_name[32];
    int repetition; /* n-fold; 0 = off */
    ResultKind on_repetition;
    int nmove; /* full moves; 0 = off */
    ResultKind on_nmove;
    int nmaterial;
    MaterialRule material[MAX_MATERIAL_RULES];
    int material_most; /* the most pieces a side has in them (found at load) */
    CountingRule counting;
    ResultKind on_material;
    int nforced;
    ForcedCapture forced[4];
    /* "must-capture": whenever the player to move has a legal capture, only captures are legal */
    bool must_capture;
    /* "must-capture most TYPE...": the captures taking the most pieces of these types come
     * first; when none takes any of them, those taking the most pieces (0: every piece counts) */
    uint32_t most_first_types;
    /* Filters of the moves as generated (movegen_pseudo): only the captures taking the most
     * pieces (`must-capture most`); moves of the first kind in `priority` that has one; one
     * move of several with the same origin, destination and pieces taken (merge-duplicates) */
    bool must_capture_most;
    int npriorities;
    uint8_t priority[MAX_MOVE_KINDS];
    bool merge_same_captures;
    bool has_chains; /* some program pauses (add-partial): moves go along several cells */
    /* every move is legal and a turn is one move of a piece, but captures may be compulsory
     * or filtered: perft's last ply counts the moves that only carry a piece and lists the
     * rest (movegen_count_legal) */
    bool count_quiet;
    /* the endings a position decides (ending.c) are extinction rules alone: only the pieces,
     * on the board and in the hands, decide them (movegen.c known_undecided) */
    bool ends_by_board_pieces;
    /* `position-format pdn`: position text as draughts programs write it (W:W21,22:B1,2), the
     * cells numbered square_number[cell] (from 1: rows from the top, each from the left) */
    bool pdn;
    uint16_t square_number[MAX_CELLS];
    /* "end pieces at-most N RESULT": a player left with N or fewer pieces gets on_pieces */
    int pieces_limit; /* N + 1; 0 = off */
    ResultKind on_pieces;
    /* "end royal-captured RESULT": for the player whose last royal piece was captured (when
     * royal capture is allowed); RESULT_NONE = loss */
    ResultKind on_royal_captured;
    /* "end stalemate fewer-pieces RESULT": on_stalemate goes to the player with fewer pieces;
     * equal numbers draw */
    bool stalemate_fewer;
    char pieces_name[32], royal_name[32]; /* the game's own names for those ends ("" = none) */
    /* endings decided by the position alone (ending.c); decided_by_position: some rule below */
    bool decided_by_position;
    int nextinctions;
    ExtinctionRule extinctions[4];
    int nreaches;
    ReachRule reaches[4];
    /* goals of placement and connection games (ending.c), each for the side that has it */
    int nrows;
    RowRule rows[4];
    int nconnects;
    ConnectRule connects[4];
    int noccupies;
    OccupyRule occupies[4];
    ResultKind on_bare_king; /* RESULT_NONE: no bare-king rule */
    bool bare_king_reply;    /* the bared side moves once more: baring the other king draws */
    char bare_king_name[32];
    int check_limit;      /* "end checks N": checks that end the game; 0 = off */
    ResultKind on_checks; /* for the side that gave them */
    /* Custodian captures (`pincer`): the empty cells of an owner's part of hostile_zone (index
     * + 1; 0: none) close a capture of that owner's pieces as a piece of the capturer would;
     * pieces of surround_types (standing in surround_zone, index + 1; 0: anywhere) are taken
     * only when every orthogonal neighbour is an enemy of theirs or a hostile empty cell; with
     * shieldwall, a landing on the board's edge also takes a row of enemies along the edge
     * bracketed by it and another piece of the mover's (or a hostile cell), each with a piece of
     * the mover's in front of it (the surround types in the row stay). custodian_rules: any of
     * them (the custodian tests take the slow way). */
    int hostile_zone;
    uint32_t surround_types;
    int surround_zone;
    bool shieldwall;
    bool custodian_rules;
    char checks_name[32];
    bool forbid_check;      /* "forbid check": no move may give check */
    bool forbid_drop_check; /* "forbid drop-check": no drop from a hand may give check */
    /* `kind NAME if gives-check`: every normal move that gives check is of this move kind
     * (0: no such rule) */
    int check_kind;
    /* `transfer LINK...`: after every move, each piece it carried within a board goes on
     * along the first of these links that leaves that board, onto an empty cell */
    int ntransfer;
    uint8_t transfer_dirs[MAX_DIRECTIONS];
    DefeatFate on_defeat;
    int ncounters, ncounter_slots;
    CounterDef counters[MAX_COUNTERS];
    /* turns made of phases (nphases 0: one move per turn, the plain case) */
    int nphases;
    PhaseDef phases[MAX_PHASES];
    int nmove_flags; /* flags and cell tags of a move being made, by name */
    char move_flag_names[MAX_MOVE_FLAGS][16];
    int ntags;
    char tag_names[MAX_TAGS][16];
    int nkinds; /* move kinds; kind 0 is "normal" */
    char kind_names[MAX_MOVE_KINDS][16];
    int capture_reward; /* counter index + 1 the capturer gains captured worth in; 0 = none */
    int nextra;
    ExtraCapture extra[MAX_EXTRA_CAPTURES];
    int npiles, npile_slots;
    PileDef piles[MAX_PILES];
    int ndraws, npays;
    CardRule draws[MAX_CARD_RULES], pays[MAX_CARD_RULES];
    int nprelude;
    PreludeStep prelude[MAX_PRELUDE];
    /* "minefield ZONE N by KIND": every cell of a player's part of ZONE starts with a tile of
     * that player; moves of KIND mark N of them as mines (hidden from the other players). */
    int minefield_zone; /* zone index + 1, 0 = none */
    int mines, mine_kind;
    int empty_pile; /* pile index + 1 of "end empty PILE", 0 = none */
    ResultKind on_empty;
    int nshuffles;
    uint8_t shuffle_zones[4]; /* start of a game: each player's pieces there are shuffled */
    /* Passing (`allow pass`): the player to move may pass instead of moving, unless its royal
     * piece is in check. `end pass N`: N passes in a row end the game. `end facing TYPE`: while
     * the two players' royal pieces of TYPE face each other on an open line, a pass is legal
     * even in check and no other move may leave them facing; the game ends when they face in
     * two positions in a row. */
    bool pass_move;
    int passes_end; /* 0 = off */
    ResultKind on_passes;
    int facing_type; /* type index + 1, 0 = off */
    ResultKind on_facing;
    /* `forbid royal-flight`: a royal piece in check may not move, except to capture the one
     * piece giving check */
    bool forbid_royal_flight;
    /* the legality test needs the position before the move (mines, facing royal pieces,
     * royal flight) */
    bool slow_legality;
    /* `worth PLAYER N`: what a player counts on top of its pieces' worth (RESULT_WORTH) */
    int worth_bonus[MAX_PLAYERS];
    TunedTerms tuned; /* `tuned` items: evaluation weights (eval.c) */
    int noptions;
    OptionDef options[MAX_OPTIONS];
    /* Hands (`hands`): each player keeps pieces off the board, counted per type, and drops
     * them (a type's `drop` items); must_drop: while a player's hand holds a piece it may
     * only drop. demote_to[t]: the type a promoted t returns to a hand as (HAND_DEMOTED). */
    bool has_hands, must_drop;
    /* types with the flag `must-drop`: while a player holds one of them in hand, it may drop
     * only those, and must when it can */
    uint32_t must_drop_types;
    bool drop_no_mate; /* some type has drop_no_mate */
    uint8_t hand_keep; /* HandKeep */
    /* castle_dropped: a king or rook dropped onto its castling cell, its partner at home,
     * gains the castling right (`hands castle-dropped`). colour_apart_mask: types whose
     * pieces of one player must stand on cells of different colours (`opposite-colour`). */
    bool castle_dropped;
    uint32_t colour_apart_mask;
    uint8_t castling_rook; /* the rook's type where the setup leaves its cell empty */
    int gate_zone;         /* `gating ZONE`: zone index + 1, 0 = no gating */
    uint8_t demote_to[MAX_PIECE_TYPES];
    /* hashing */
    uint64_t *zobrist_piece; /* [cell * ntypes*nowners + type*nowners + owner] */
    uint64_t zobrist_side[MAX_PLAYERS * 16];
    uint64_t zobrist_ep[MAX_CELLS];
    uint64_t zobrist_rights[32];
    uint64_t zobrist_out[MAX_OWNERS];                     /* player eliminated */
    uint64_t zobrist_control[MAX_OWNERS][MAX_OWNERS];     /* owner moved by another player */
    uint64_t zobrist_allegiance[MAX_PLAYERS][MAX_OWNERS]; /* player answers for army */
} Variant;

/* One option setting given on the command line: name=value. */
typedef struct OptionSetting {
    const char *name, *value;
} OptionSetting;

/* Derives the tables the game needs from a checked and compiled variant: cell words,
 * neighbour table, each owner's forward direction, Zobrist keys. Cannot fail. */
void variant_conclude(Variant *v);
/* Frees v and everything it owns; NULL is allowed. */
void variant_free(Variant *v);

/* The cell orientation o turns c into, on c's board (NO_CELL: off the board, or a hole). */
Cell variant_orient_cell(const Variant *v, Orientation o, Cell c);
/* An orientation's name as rule files write it ("transpose"). */
const char *variant_orientation_name(Orientation o);
/* Turns a vector from player 0's frame into the frame of orientation o. */
void variant_orient_vector(Orientation o, int dx, int dy, int *ox, int *oy);

static inline Cell variant_step(const Variant *v, Cell c, int dir) {
    return v->neighbour[(size_t)c * (size_t)v->ndirs + (size_t)dir];
}
/* Does the game hide information from its players (a minefield's mines, the order of cards a
 * player arranged in a prelude)? Then position text and saved games hold secrets. */
bool variant_has_secrets(const Variant *v);
/* Why the game does not fit the engine protocols (UCI, XBoard): two players, one board, one
 * move a turn, no hidden information, no set-up steps. NULL when it fits. */
const char *variant_protocol_misfit(const Variant *v);
/* Type index by letter (case-insensitive), or -1. */
int variant_type_by_letter(const Variant *v, char letter);
/* The type a promoted type demotes to (itself when it is not promoted). */
static inline int variant_base_type(const Variant *v, int t) { return v->types[t].base; }
/* Could a piece of type t and owner never move again from c (on an empty board)? */
static inline bool variant_stuck(const Variant *v, int t, int owner, Cell c) {
    return (v->types[t].stuck[owner][c >> 6] >> (c & 63)) & 1;
}
/* Is a piece of type t royal for its owner? Losing it is losing the game, and check,
 * checkmate and the legality rule look at it (`royal`, or `royal for` that owner). */
static inline bool variant_royal(const Variant *v, int owner, int t) { return (v->royal_of[owner] >> t) & 1; }
/* The promoted type of t (`letter +X` with X t's letter), or -1. */
int variant_promoted_type(const Variant *v, int t);
/* Cell index by name ("e4", "top:e4"; under position-format pdn also its number, "22"), or -1. */
int variant_cell_by_name(const Variant *v, const char *name);
static inline bool zone_has(const Zone *z, int owner, Cell c) { return (z->cells[owner][c >> 6] >> (c & 63)) & 1; }

/* Does a move origin -> cur promote by promotion set `promo` (0: none), as the program's ADD
 * decides? */
static inline bool variant_atom_promotes(const Variant *v, int promo, int owner, Cell origin, Cell cur) {
    const PromoSet *ps = &v->promos[promo];
    return promo &&
        ((ps->zone != NO_ZONE && zone_has(&v->zones[ps->zone], owner, cur)) ||
         (ps->from_zone != NO_ZONE && zone_has(&v->zones[ps->from_zone], owner, origin)));
}

#endif
