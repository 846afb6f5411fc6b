/* board.h - a position (the true game state) and moves as lists of effects; make/unmake with
 * an undo journal and an incremental Zobrist key. */
#ifndef VARIA_BOARD_H
#define VARIA_BOARD_H

#include "variant.h"

/* A cell's content: 0 = empty; else type+1 in bits 0-5, owner in bits 6-8, attributes above. */
typedef uint16_t Piece;
#define PIECE_TYPE(p) ((int)((p)&0x3F) - 1)
#define PIECE_OWNER(p) ((int)(((p) >> 6) & 7))
#define PIECE_KIND(p) ((p)&0x1FF) /* type and owner, without attributes */
#define PIECE_MAKE(type, owner) ((Piece)(((type) + 1) | ((owner) << 6)))
#define PIECE_MOVED 0x200    /* attribute: has moved */
#define PIECE_PROMOTED 0x400 /* attribute: promoted (returns to a hand demoted) */

typedef enum EffectKind {
    FX_MOVE,        /* a -> b: lift the piece on a, drop it on b (replacing what is there) */
    FX_REMOVE,      /* remove the piece on a */
    FX_CHANGE,      /* the piece that ends on a becomes `piece` (type/owner) */
    FX_PLACE,       /* put `piece` on the empty cell a (drops) */
    FX_EP,          /* a becomes an en-passant cell; the victim is the move's destination */
    FX_COUNTER,     /* counter a += (int16_t)piece */
    FX_REMOVE_ARMY, /* remove every piece of owner a (a defeated army) */
    FX_CONTROL,     /* owner a's pieces are moved by player b from now on */
    FX_ELIMINATE,   /* player a is out of the game: its turns are skipped */
    FX_CARD,        /* the card `piece` leaves pile a (its top, or one of that value from a
                     * sorted pile) for pile b (its top, or in order in a sorted pile) */
    FX_DEBT,        /* the mover owes a payment of `piece` (0: the payment is made) */
    FX_MARK,        /* the mover's tile on a becomes a mine */
    FX_HAND,        /* one piece of type `piece` leaves player a's hand (a drop) */
    FX_CHECK,       /* the move checks: player a has given one more check (end checks) */
    FX_FLIP,        /* `pad` pieces from a on along direction b become owner `piece`'s */
    FX_VIA,         /* the moving piece paused on a (a part of a multi-part move ended there):
                     * for move text only, no cell changes */
} EffectKind;

typedef struct Effect {
    uint8_t kind;
    uint8_t pad;
    Cell a, b;
    Piece piece;
} Effect;

/* MOVE_ELIMINATION marks the move the game plays itself when a player is defeated (not typed,
 * not saved: replaying the moves before it brings it back). */
/* MOVE_PASS: the turn passes with nothing moved (a stalemated player under `end stalemate pass`). */
/* MOVE_COPY: the last effect moves the mover's influencing piece along (steer ... copy). */
/* MOVE_DROP: a piece from the hand is put on `to`; MOVE_GATE: besides moving, a piece from
 * the hand enters a gate the move leaves (the FX_PLACE effect says which and where). */
enum {
    MOVE_CAPTURE = 1,
    MOVE_PROMOTION = 2,
    MOVE_CASTLE = 4,
    MOVE_EP = 8,
    MOVE_ELIMINATION = 16,
    MOVE_PASS = 32,
    MOVE_CARDS = 64,
    MOVE_TILE = 128,
    MOVE_COPY = 256,
    MOVE_DROP = 512,
    MOVE_GATE = 1024,
    MOVE_NAMES_TAKEN = 2048 /* the mover chose the pieces it takes elsewhere: its text names them */
};

typedef struct Move {
    Cell from, to; /* what notation shows: the main piece's origin and destination */
    uint16_t flags;
    uint8_t promo; /* promotion type or NO_TYPE */
    uint8_t nfx;
    uint8_t castle; /* castle index + 1, or 0 */
    uint8_t kind;   /* move kind (0 = normal): which phases of a turn allow it */
    Effect fx[MAX_EFFECTS];
} Move;

typedef struct MoveList {
    int count;
    Move moves[MAX_MOVES];
} MoveList;

/* A runtime fault inside a program, located at the rule-file line that produced the code. */
typedef struct VmFault {
    bool set;
    char msg[160];
    const char *file;
    int line, col;
} VmFault;

typedef struct JournalEntry {
    Cell cell;
    Piece old;
} JournalEntry;

/* The state of a position that make saves and unmake restores, each in one copy: everything
 * a move may change except the cells and tiles (Undo journals those write by write) and the piles.
 * Position holds these fields under their own names (pos->key) and, as one struct, in
 * pos->state; a field added here is saved and restored with no further code. */
#define BOARD_STATE_FIELDS \
    uint64_t key; \
    uint32_t rights; /* castling rights bits (Castle.right) */ \
    int fullmove; \
    int32_t counters[MAX_COUNTERS]; \
    Cell ep[MAX_EP_CELLS]; /* en-passant cells, NO_CELL when unused */ \
    Cell ep_victim; \
    /* in a turn of phases, the en-passant cells this turn has made and their victim: the \
     * next player's to take once the turn ends (ep holds those the mover may take now) */ \
    Cell ep_next[MAX_EP_CELLS]; \
    Cell ep_next_victim; \
    Cell last_from, last_to; \
    uint16_t halfmove; /* plies since the last capture or resets-nmove move */ \
    /* `end counting`: the count's length in plies (0: none runs) and the plies it has \
     * counted (it may start above 0) */ \
    uint16_t count_limit, count_ply; \
    uint8_t turn;                   /* slot in v->turn_order */ \
    uint8_t alive;                  /* players still in the game (bit per player) */ \
    uint8_t checks[MAX_PLAYERS];    /* checks each player has given (end checks) */ \
    uint8_t controller[MAX_OWNERS]; /* the player who moves each owner's pieces */ \
    /* Turns made of phases (Variant.nphases > 0): the current phase, moves made in it, \
     * and whether this turn reset the n-move count (which then counts turns). */ \
    uint8_t phase, phase_moves, turn_reset; \
    /* ... and whether, when this turn began, the mover could capture a royal piece of \
     * another player (one left exposed, by a mine): only then may it take one during the \
     * turn, not after checking it with the turn's own moves. -1: not known yet \
     * (movegen_pseudo finds out at the turn's start). */ \
    int8_t royal_open; \
    uint8_t prelude, prelude_moves; /* set-up step under way (prelude == nprelude: done) */ \
    uint8_t passes;                 /* passes made in a row just before this position */ \
    int8_t setup_player;            /* the player of that step, -1 once the set-up is over \
                              * (board_sync_prelude) */

typedef struct BoardState {
    BOARD_STATE_FIELDS
} BoardState;

/* Piles of cards (Variant.npiles > 0), saved and restored apart from BoardState so that games
 * without piles do not copy them: a payment owed, then per pile how many of a stack's bottom
 * cards its owner put there in the set-up (in an order only it knows), its length and its
 * cards, bottom first. */
#define BOARD_PILE_FIELDS \
    uint8_t debt; \
    uint8_t pile_secret[MAX_PILE_SLOTS]; \
    uint8_t pile_len[MAX_PILE_SLOTS]; \
    uint8_t piles[MAX_PILE_SLOTS][MAX_PILE_CARDS];

typedef struct BoardPiles {
    BOARD_PILE_FIELDS
} BoardPiles;

/* Hands (Variant.has_hands): how many pieces of each type each player holds off the board,
 * and (gating) each of the two players' gates: cells whose piece has not moved yet, where a
 * piece from the hand may enter as it leaves. Saved and restored apart from BoardState so that
 * games without hands do not copy them. */
#define BOARD_HAND_FIELDS \
    uint8_t hand[MAX_PLAYERS][MAX_PIECE_TYPES]; \
    uint64_t gates[2][CELL_WORDS];

typedef struct BoardHands {
    BOARD_HAND_FIELDS
} BoardHands;

/* One ply of history: the state before the move and what the move changed cell by cell. */
typedef struct Undo {
    BoardState state;
    uint8_t njournal;
    uint8_t ntiles; /* tiles this move changed, and their old values */
    Cell tile_cell[MAX_EP_CELLS + 2];
    uint8_t tile_old[MAX_EP_CELLS + 2];
    Cell exploded; /* where a mine removed the moving piece, or NO_CELL */
    bool marked;   /* the move marked a tile as a mine (set-up) */
    JournalEntry journal[MAX_JOURNAL];
    BoardPiles piles; /* (last: only games with piles write them) */
    BoardHands hands; /* (only games with hands write them) */
} Undo;

typedef struct Position {
    const Variant *v;
    Piece cell[MAX_CELLS];
    uint64_t occ[MAX_OWNERS][CELL_WORDS]; /* cells holding each owner's pieces */
    uint64_t type_occ[MAX_PIECE_TYPES][CELL_WORDS];
    union { /* the same fields by name and as one struct */
        struct {
            BOARD_STATE_FIELDS
        };
        BoardState state;
    };
    uint8_t allegiance[MAX_PLAYERS]; /* the army each player answers for, NO_OWNER if none */
    /* free castles (Castle.free): where each one's king and rook start in this game, set by
     * the position text (NO_CELL when it gave no such right) */
    Cell castle_king[MAX_PLAYERS * MAX_CASTLES], castle_rook[MAX_PLAYERS * MAX_CASTLES];
    bool tiles_off; /* while set, moves do not touch tiles (legality "as if it arrives") */
    int ply;        /* plies played since the position was set (index into history) */
    /* Tiles (a minefield): 0 none, else TILE_OWNER bits = owner + 1, TILE_MINE when a mine. */
    uint8_t tiles[MAX_CELLS];
    union {
        struct {
            BOARD_PILE_FIELDS
        };
        BoardPiles pile_state;
    };
    union {
        struct {
            BOARD_HAND_FIELDS
        };
        BoardHands hand_state;
    };
    Undo *history; /* MAX_HISTORY entries, owned */
} Position;

#define TILE_OWNER(t) ((int)((t)&7) - 1)
#define TILE_MINE 0x80

/* Allocates the history; the board is empty until fen_read/board_set_start. */
void board_init(Position *pos, const Variant *v);
void board_free(Position *pos);
/* Copies the whole state (history included); dst must have been board_init'ed. */
void board_copy(Position *dst, const Position *src);
void board_clear(Position *pos);
void board_put(Position *pos, Cell c, Piece p);
/* Are owners a and b on opposite sides? (Their pieces are moved by different players.) */
static inline bool board_hostile(const Position *pos, int a, int b) { return pos->controller[a] != pos->controller[b]; }
/* Does owner o still take part (its controlling player is in the game)? Armies no player owns
 * always do. */
static inline bool board_active(const Position *pos, int o) {
    return pos->controller[o] >= pos->v->nplayers || ((pos->alive >> pos->controller[o]) & 1);
}
#define NO_OWNER 0xFF
/* Does `player` answer for the pieces of owner o (its own, or the army of its allegiance)? */
static inline bool board_answers_for(const Position *pos, int player, int o) {
    return o == player || pos->allegiance[player] == o;
}
/* The pieces of `prev` (the player who made it) that could have made the en-passant cell
 * ep: of a `sets-ep` type, standing past it along the last step of one of their `sets-ep`
 * legs (Variant.ep_dirs; forward in prev's frame when there are none); of several, those
 * whose cell before ep, where they came from, is empty. The first two go into out; returns how
 * many there are. */
int board_ep_makers(const Position *pos, Cell ep, int prev, Cell out[2]);
/* Could the piece of prev on `to` have made the en-passant cell ep (it stands past it,
 * forward or along a `sets-ep` leg's last step)? */
bool board_ep_could_make(const Position *pos, Cell ep, int prev, Cell to);
/* Does position text name the en-passant cell ep of prev, made by the piece on victim, by
 * the cell alone? Yes when that piece stands forward past it and no other could have made
 * it; otherwise the victim's cell follows ("d3e4"). */
bool board_ep_named_by_cell(const Position *pos, Cell ep, int prev, Cell victim);
/* A player's pile of a pile declaration (the one pile when it is not per player). */
static inline int board_pile_slot(const PileDef *p, int player) { return p->slot + (p->per_player ? player : 0); }
/* The cards of a pile added up. */
static inline int board_pile_sum(const Position *pos, int slot) {
    int sum = 0;
    for (int i = 0; i < pos->pile_len[slot]; i++) sum += pos->piles[slot][i];
    return sum;
}
/* Does the player's hand hold nothing? */
static inline bool board_hand_empty(const Position *pos, int player) {
    for (int t = 0; t < pos->v->ntypes; t++)
        if (pos->hand[player][t]) return false;
    return true;
}
/* The player to move. */
static inline int board_mover(const Position *pos) {
    if (unlikely(pos->setup_player >= 0)) return pos->setup_player;
    return pos->v->turn_order[pos->turn];
}
/* Sets setup_player from prelude (after prelude changes). */
static inline void board_sync_prelude(Position *pos) {
    pos->setup_player = (int8_t)(pos->prelude < pos->v->nprelude ? pos->v->prelude[pos->prelude].player : -1);
}
/* Only the cells a move writes, for a quick look at the position after it (the legality
 * test): no hash, no clocks, no turn. Revert before anything else touches the position. */
typedef struct CellJournal {
    int n;
    JournalEntry entries[MAX_JOURNAL];
} CellJournal;
void board_cells_apply(Position *pos, const Move *m, CellJournal *cj);
void board_cells_revert(Position *pos, const CellJournal *cj);
/* The rights bits m leaves to the `lost-to` privileges, with m's cells written (board_make's
 * own test; the cells alone do not tell an attack test that a privilege ended). */
uint32_t board_privileges_kept(const Position *pos, const Move *m);
/* Does owner hold a privilege (`privilege CELL...`) on c? */
static inline bool board_privilege_held(const Position *pos, int owner, Cell c) {
    const Variant *v = pos->v;
    for (int k = 0; k < v->ncastles; k++)
        if (v->castles[k].privilege && v->castles[k].owner == owner && v->castles[k].king_from == c &&
            ((pos->rights >> v->castles[k].right) & 1))
            return true;
    return false;
}
/* A capture made by a piece that `explodes`, m, becomes its explosion: every piece it moves is
 * removed instead, with what it lands on, and so is every piece on the cells around m->to
 * that is not `blast-proof`. Returns whether the explosion takes a royal piece of the
 * capturer's side. Cannot fail. */
bool board_explode(const Position *pos, Move *m);
/* Applies a move; returns false (and changes nothing) if the history is full. */
bool board_make(Position *pos, const Move *m);
void board_unmake(Position *pos);
/* What is inconsistent in the position, or NULL when nothing is: the cells against the
 * occupancy sets, the turn, set-up step and phase, the en-passant cells, counters, piles and
 * tiles, the history's depth, and last the key against one computed from scratch. Debug
 * builds assert it after every make and unmake. Cannot fail; the text is static. */
const char *board_inconsistency(const Position *pos);
/* board_inconsistency(pos) == NULL. */
bool board_is_ok(const Position *pos);
uint64_t board_compute_key(const Position *pos);
/* Cell of the first royal piece of owner, or NO_CELL. */
Cell board_royal(const Position *pos, int owner);

static inline bool bits_has(const uint64_t *bits, Cell c) { return (bits[c >> 6] >> (c & 63)) & 1; }
/* The piece on c, for a test that may keep the cells it looks at: with `seen` given, c joins
 * that set (attack_royal_attacked_seen). */
static inline Piece board_look(const Position *pos, Cell c, uint64_t *seen) {
    if (seen) seen[c >> 6] |= 1ULL << (c & 63);
    return pos->cell[c];
}

#endif
