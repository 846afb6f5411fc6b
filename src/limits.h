/* limits.h - every hard limit of Varia in one place.
 * A rule file that goes past one of these gets a diagnostic naming the limit. */
#ifndef VARIA_LIMITS_H
#define VARIA_LIMITS_H

#define MAX_BOARDS 4     /* boards in one game */
#define MAX_BOARD_DIM 32 /* width or height of one board */
#define MAX_CELLS 256    /* cells over all boards (cell ids fit a byte + sentinel in uint16) */
#define CELL_WORDS (MAX_CELLS / 64)
#define MAX_HOLDING_ROWS 8 /* rows of holding cells of one board (each at most MAX_BOARD_DIM cells) */
#define MAX_PLAYERS 4      /* players taking turns */
#define MAX_OWNERS 8       /* players plus extra armies that own pieces */
#define MAX_PIECE_TYPES 32
#define MAX_INFLUENCE 100 /* a piece's influence over steered pieces (steer) */
#define MAX_DIRECTIONS 64 /* distinct vectors and links */
#define MAX_ZONES 32
#define MAX_LINE_SETS 16 /* distinct sets of lines `in-a-row` follows */
#define MAX_LINKS 2048   /* links between the cells of graph boards */
#define MAX_OPTIONS 16
#define MAX_OPTION_VALUES 16
#define MAX_CASTLES 4 /* castling definitions per player */
#define MAX_COUNTERS 8
#define MAX_PHASES 8         /* phases of one turn */
#define MAX_MOVE_KINDS 16    /* move kinds (normal and those the phases name) */
#define MAX_EXTRA_CAPTURES 4 /* extra-capture rules */
#define MAX_PILES 4          /* pile declarations */
#define MAX_PILE_SLOTS 8     /* piles in a position (a per-player pile takes one per player) */
#define MAX_PILE_CARDS 16    /* cards in one pile */
#define MAX_CARD_RULES 4     /* draw and pay rules */
#define MAX_PRELUDE 16       /* set-up steps before the first turn */
#define MAX_PROMO_SETS 16
#define MAX_TYPESETS 64 /* distinct piece-type sets used by capture opcodes */
#define MAX_PATTERNS 24
#define MAX_LINE_MOVES 32 /* fast generation: zoned atoms, legs and shaped move blocks, per piece type and owner */
#define MAX_PATTERN_REFS \
    24 /* capture patterns that can take one victim type, per owner */ /* captures by moving, per piece type and owner */
#define MAX_PROMO_CHOICES 8
#define MAX_FAST_ATOMS 8      /* atoms of a piece run in C beside its rays (more: the VM runs them) */
#define MAX_CAPTURE_GUARDS 16 /* branches of a rest program that go to an enemy first (more: none are kept) */
#define MAX_REST_GUARDS 4     /* branches of a rest program whose guards are kept (more: none are) */
#define MAX_FAST_ATOM_DIRS 8  /* directions of one such atom (more: the VM runs it) */
#define MAX_MACRO_DEPTH 8     /* nested macro expansion */
#define MAX_EXPANSION 65536   /* syntax nodes of one piece after macro expansion */
#define MAX_MATERIAL_RULES 16
#define MAX_COUNTING_LINES 16   /* lines of the pieces' honour (`end counting`) */
#define MAX_COUNTING_MOVES 1000 /* moves one count may allow */

#define MAX_CODE 65536        /* bytes of bytecode in one program */
#define MAX_MARKS 8           /* mark stack depth in the VM */
#define MAX_MOVE_FLAGS 16     /* flags of a move being made (`set-flag`) */
#define MAX_TAGS 8            /* cell tags of a move being made (`tag`) */
#define MAX_TAGGED 64         /* cells tagged or untagged on one path */
#define MAX_FORKS 64          /* pending choice points in the VM */
#define MAX_PENDING 32        /* effects recorded before one emit */
#define VM_STEP_BUDGET 200000 /* instructions per program run; more is a runtime fault */
/* instructions of every program run to find one position's moves (their legality tests
 * included) */
#define POSITION_STEP_BUDGET 10000000

/* effects in one move (a capture chain takes a removal and a cell passed per part) */
#define MAX_EFFECTS 32
#define MAX_MOVES 1024   /* moves in one position */
#define MAX_EP_CELLS 2   /* cells passed by a multi-step move */
#define MAX_PLY 128      /* search/perft depth */
#define MAX_HISTORY 8192 /* plies in one game */
#define MAX_JOURNAL 64   /* cell writes undone by one unmake (a whole army can go) */
#define MAX_FORCED 8     /* pieces that must be captured at once (must-capture rules) */

#define MAX_DIAGNOSTICS 20 /* errors reported before giving up */
#define MAX_NESTING 64     /* nested braces, parentheses and conditions in a rule file */
#define MAX_NAME 15        /* characters in a name (pieces, players, boards, zones, ...) */
#define MAX_TOKEN 7        /* characters in a player's side-to-move token */
#define MAX_SYMBOL 7       /* bytes of a piece's UTF-8 symbol */

#endif
