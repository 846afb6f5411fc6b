/* fen.c - reading and writing position text.
 *   <boards> <side> <castling> <en-passant> <halfmove> <fullmove>
 * Boards are separated by '|', ranks from the top by '/'; digits (any length) count empty
 * cells; holes are not written. Upper case letters are the first player's pieces, lower case
 * the second's; a piece of player 3 or 4 is written with a prefix: ':3q'. */
#include "fen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits text into at most 8 whitespace-separated fields (pointers into copy). */
static int split(char *copy, char **fields, int max) {
    int n = 0;
    char *p = copy;
    while (*p && n < max) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        fields[n++] = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (*p) *p++ = 0;
    }
    while (*p && isspace((unsigned char)*p)) p++;
    return *p ? max + 1 : n;
}

int fen_count_fields(const char *text) {
    char *copy = xstrdup(text);
    char *f[FEN_MAX_FIELDS];
    int n = split(copy, f, FEN_MAX_FIELDS);
    free(copy);
    return n;
}

static bool parse_int(const char *s, long lo, long hi, long *out) {
    char *end;
    if (!*s) return false;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi) return false;
    *out = v;
    return true;
}

/* Puts a piece on the scratch position: cell and occupancy only (the key is computed once, at
 * the end). */
static void place(Position *pos, Cell c, Piece p) {
    pos->cell[c] = p;
    pos->occ[PIECE_OWNER(p)][c >> 6] |= 1ULL << (c & 63);
    pos->type_occ[PIECE_TYPE(p)][c >> 6] |= 1ULL << (c & 63);
}

/* The hands after the board: "[Qn]" (upper case the first player's pieces, lower case the
 * second's; "[]" or "[-]" when empty), or the same letters as one more rank, "/Qn". */
static bool read_hands(Position *pos, const char *p, const char *field, char *err, size_t cap) {
    const Variant *v = pos->v;
    bool bracket = *p == '[';
    p++;
    if (bracket && *p == '-' && p[1] == ']') p++;
    for (; *p && !(bracket && *p == ']'); p++) {
        int col = (int)(p - field) + 1;
        int t = isalpha((unsigned char)*p) ? variant_type_by_letter(v, *p) : -1;
        if (t < 0) return refuse(err, cap, "unknown piece letter '%c' in the hands (column %d)", *p, col);
        int owner = isupper((unsigned char)*p) ? 0 : 1;
        if (pos->hand[owner][t] >= 255) return refuse(err, cap, "too many pieces in the hands (column %d)", col);
        pos->hand[owner][t]++;
    }
    if (bracket && *p != ']') return refuse(err, cap, "the hands have no closing ']'");
    if (bracket && p[1])
        return refuse(err, cap, "unexpected '%c' after the hands (column %d)", p[1], (int)(p + 1 - field) + 1);
    /* every piece stands on a cell or could be put on one (a hand that captures never fill,
     * under `hands none`, is a reserve that may hold more) */
    if (v->hand_keep == HAND_NONE) return true;
    int pieces = 0;
    for (int c = 0; c < v->ncells; c++) pieces += pos->cell[c] != 0;
    for (int o = 0; o < 2; o++)
        for (int t = 0; t < v->ntypes; t++) pieces += pos->hand[o][t];
    if (pieces > v->ncells)
        return refuse(err, cap, "too many pieces in the hands (%d on the board and in hand, more than the %d cells)",
                      pieces, v->ncells);
    return true;
}

/* The type whose pieces are written as the mark c (`written "*"`), or -1. */
static int type_written_as(const Variant *v, char c) {
    for (int t = 0; t < v->ntypes; t++)
        if (v->types[t].written && v->types[t].written == c) return t;
    return -1;
}

/* A piece written as a mark does not say its owner: it is the player to move's (the owner a
 * blocker handed over with each turn has), set once the side is known. */
static void give_marked_to_mover(Position *pos) {
    const Variant *v = pos->v;
    int mover = board_mover(pos);
    for (int c = 0; c < v->ncells; c++) {
        Piece p = pos->cell[c];
        if (!p || !v->types[PIECE_TYPE(p)].written) continue;
        pos->occ[PIECE_OWNER(p)][c >> 6] &= ~(1ULL << (c & 63));
        pos->type_occ[PIECE_TYPE(p)][c >> 6] &= ~(1ULL << (c & 63));
        place(pos, (Cell)c, (Piece)(PIECE_MAKE(PIECE_TYPE(p), mover) | (p & ~PIECE_KIND(p))));
    }
}

/* read_token's answer after an error (refuse's message is written). */
static int token_fault(bool refused) { return refused ? 0 : -1; }

/* One token of a rank or a row of holding cells at *pp: a count of empty cells (*empties set,
 * returns 0) or a piece (*piece set, returns 1); -1 after an error. */
static int read_token(const Variant *v, const char **pp, const char *field, long *empties, Piece *piece, char *err,
                      size_t cap) {
    const char *p = *pp;
    int col = (int)(p - field) + 1;
    if (isdigit((unsigned char)*p)) {
        long n = 0;
        while (isdigit((unsigned char)*p)) {
            n = n * 10 + (*p - '0');
            if (n > MAX_BOARD_DIM) return token_fault(refuse(err, cap, "empty-cell count too large at column %d", col));
            p++;
        }
        if (n == 0) return token_fault(refuse(err, cap, "empty-cell count 0 at column %d", col));
        *empties = n;
        *pp = p;
        return 0;
    }
    int owner = -1;
    if (*p == ':') {
        p++;
        if (!isdigit((unsigned char)*p))
            return token_fault(refuse(err, cap, "expected a player number after ':' at column %d", col));
        owner = *p - '1';
        p++;
        if (owner < 0 || owner >= v->nowners)
            return token_fault(refuse(err, cap, "no player %d (column %d)", owner + 1, col));
    }
    int marked = owner < 0 ? type_written_as(v, *p) : -1;
    if (marked >= 0) {
        *piece = PIECE_MAKE(marked, 0);
        *pp = p + 1;
        return 1;
    }
    bool promoted = *p == '+';
    if (promoted) p++;
    if (!isalpha((unsigned char)*p))
        return token_fault(refuse(err, cap, "unexpected '%c' in the board at column %d", *p, col));
    int t = variant_type_by_letter(v, *p);
    if (t < 0) return token_fault(refuse(err, cap, "unknown piece letter '%c' at column %d", *p, col));
    if (promoted && (t = variant_promoted_type(v, t)) < 0)
        return token_fault(refuse(err, cap, "no promoted piece '+%c' at column %d", *p, col));
    if (owner < 0) owner = isupper((unsigned char)*p) ? 0 : 1;
    if (owner >= v->nowners) return token_fault(refuse(err, cap, "no second player for '%c' at column %d", *p, col));
    *piece = PIECE_MAKE(t, owner);
    if (p[1] == '~') {
        /* a promoted piece (it returns to a hand as the type it promoted from) */
        if (!v->has_hands)
            return token_fault(refuse(err, cap, "unexpected '~' at column %d (the game has no hands)", col + 1));
        *piece |= PIECE_PROMOTED;
        p++;
    }
    *pp = p + 1;
    return 1;
}

/* The holding cells of board bd after its last rank: "{ROW/ROW...}", one row per `holding`
 * item in the order written, each written as a rank (a number counts empty cells). */
static bool read_holding(Position *pos, const Board *bd, const char **pp, const char *field, char *err, size_t cap) {
    const Variant *v = pos->v;
    const char *p = *pp + 1;
    const char *which = v->nboards > 1 ? bd->name : "the board";
    if (!bd->nholding)
        return refuse(err, cap, "unexpected '{' at column %d: %s has no holding cells", (int)(*pp - field) + 1, which);
    int c = bd->holding_first, end = bd->holding_first + bd->nholding;
    for (int row = 0; row < bd->holding_rows; row++) {
        if (row > 0) {
            if (*p != '/')
                return refuse(err, cap, "expected '/' before holding row %d of %s at column %d (it has %d rows)",
                              row + 1, which, (int)(p - field) + 1, bd->holding_rows);
            p++;
        }
        int x = 0, len = 0;
        while (c + len < end && v->cells[c + len].y == row) len++;
        while (*p && *p != '/' && *p != '}') {
            int col = (int)(p - field) + 1;
            long empties = 0;
            Piece piece = 0;
            int got = read_token(v, &p, field, &empties, &piece, err, cap);
            if (got < 0) return false;
            if (x + (got ? 1 : empties) > len)
                return refuse(err, cap, "holding row %d of %s is too long at column %d (%d cells: %s ... %s)", row + 1,
                              which, col, len, v->cells[c].name, v->cells[c + len - 1].name);
            if (got) place(pos, (Cell)(c + x), piece);
            x += got ? 1 : (int)empties;
        }
        if (x != len)
            return refuse(err, cap, "holding row %d of %s has too few cells (%d: %s ... %s)", row + 1, which, len,
                          v->cells[c].name, v->cells[c + len - 1].name);
        c += len;
    }
    if (*p == '/')
        return refuse(err, cap, "too many holding rows for %s at column %d (it has %d)", which, (int)(p - field) + 1,
                      bd->holding_rows);
    if (*p != '}') return refuse(err, cap, "the holding cells of %s have no closing '}'", which);
    *pp = p + 1;
    return true;
}

static bool read_boards(Position *pos, const char *field, char *err, size_t cap) {
    const Variant *v = pos->v;
    const char *p = field;
    for (int b = 0; b < v->nboards; b++) {
        const Board *bd = &v->boards[b];
        if (b > 0) {
            if (*p != '|')
                return refuse(err, cap, "expected '|' before board %d at column %d", b + 1, (int)(p - field) + 1);
            p++;
        }
        for (int y = bd->height - 1; y >= 0; y--) {
            int x = 0;
            /* skip holes at the start of the rank */
            while (x < bd->width && bd->at[y][x] == NO_CELL) x++;
            while (*p && *p != '/' && *p != '|' && *p != '[' && *p != '{') {
                int col = (int)(p - field) + 1;
                long n = 0;
                Piece piece = 0;
                int got = read_token(v, &p, field, &n, &piece, err, cap);
                if (got < 0) return false;
                if (got) n = 1;
                while (n-- > 0) {
                    if (x >= bd->width) return refuse(err, cap, "rank %d is too long (column %d)", y + 1, col);
                    if (got) place(pos, bd->at[y][x], piece);
                    x++;
                    while (x < bd->width && bd->at[y][x] == NO_CELL) x++;
                }
            }
            if (x != bd->width)
                return refuse(err, cap, "rank %d of %s has too few cells", y + 1,
                              v->nboards > 1 ? bd->name : "the board");
            if (y > 0) {
                if (*p == 0 || *p == '|' || *p == '{')
                    return refuse(err, cap, "too few ranks in %s (expected %d)",
                                  v->nboards > 1 ? bd->name : "the board", bd->height);
                if (*p != '/')
                    return refuse(err, cap, "expected '/' after rank %d (column %d)", y + 1, (int)(p - field) + 1);
                p++;
            }
        }
        /* (left out: every holding cell is empty) */
        if (*p == '{' && !read_holding(pos, bd, &p, field, err, cap)) return false;
    }
    if ((*p == '[' || *p == '/') && v->has_hands) return read_hands(pos, p, field, err, cap);
    if (*p == '[')
        return refuse(err, cap, "unexpected '[' after the last rank (column %d): the game has no hands",
                      (int)(p - field) + 1);
    if (*p) return refuse(err, cap, "unexpected '%c' after the last rank (column %d)", *p, (int)(p - field) + 1);
    return true;
}

/* The side to move is the player's token; when the turn order gives that player several
 * turns, "TOKEN.N" is its N-th turn in the order (plain TOKEN: the first). */
static bool read_side(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    const char *dot = strchr(field, '.');
    size_t len = dot ? (size_t)(dot - field) : strlen(field);
    long nth = 1;
    if (dot && !parse_int(dot + 1, 1, 64, &nth)) return refuse(err, cap, "bad side to move '%s'", field);
    for (int i = 0; i < v->nturns; i++) {
        const char *token = v->player_token[v->turn_order[i]];
        if (strlen(token) == len && !strncmp(token, field, len) && --nth == 0) {
            tmp->turn = (uint8_t)i;
            return true;
        }
    }
    char list[64] = "";
    for (int i = 0; i < v->nplayers; i++) {
        strncat(list, v->player_token[i], sizeof list - strlen(list) - 3);
        if (i + 1 < v->nplayers) strncat(list, ", ", sizeof list - strlen(list) - 1);
    }
    return refuse(err, cap, "unknown side to move '%s' (expected %s)", field, list);
}

/* Gating: player p's gate cell on file x (its cell of the gating zone there), or NO_CELL. */
static Cell gate_on_file(const Variant *v, int p, int x) {
    const Zone *z = &v->zones[v->gate_zone - 1];
    for (int c = 0; c < v->ncells; c++)
        if (v->cells[c].x == x && zone_has(z, p, (Cell)c)) return (Cell)c;
    return NO_CELL;
}

/* A gate is kept only where a piece of its player stands, and while a piece may still enter
 * it (the hand holds one, or captures may fill it). */
static void open_gate(Position *tmp, int p, Cell c) {
    const Zone *z = &tmp->v->zones[tmp->v->gate_zone - 1];
    if (tmp->v->hand_keep == HAND_NONE && board_hand_empty(tmp, p)) return;
    if (c != NO_CELL && zone_has(z, p, c) && tmp->cell[c] && PIECE_OWNER(tmp->cell[c]) == p)
        tmp->gates[p][c >> 6] |= 1ULL << (c & 63);
}

/* Castling rights, and in a game with gating its gates as well: a castle's letter opens the
 * gates of its king's and rook's cells; a file letter (upper case for the first player)
 * opens the gate on that file. */
/* Free castles: the cell of the owner's castling king on the castle's row, or NO_CELL. */
static Cell free_castle_king(const Position *pos, const Castle *c) {
    const Variant *v = pos->v;
    const CellInfo *to = &v->cells[c->king_to];
    const Board *b = &v->boards[to->board];
    for (int x = 0; x < b->width; x++) {
        Cell cell = b->at[to->y][x];
        Piece p = cell == NO_CELL ? 0 : pos->cell[cell];
        if (p && PIECE_OWNER(p) == c->owner && PIECE_TYPE(p) == c->king_type) return cell;
    }
    return NO_CELL;
}

/* Does the piece on cell suit castle c as its rook? The owner's, not royal, and of the type the
 * start position castles with (any, while the start position is read). */
static bool castle_rook_fits(const Position *pos, const Castle *c, Cell cell) {
    Piece p = cell == NO_CELL ? 0 : pos->cell[cell];
    return p && PIECE_OWNER(p) == c->owner && !pos->v->types[PIECE_TYPE(p)].royal &&
        (c->rook_type == NO_TYPE || PIECE_TYPE(p) == c->rook_type);
}

/* Gives free castle i its king and rook: the rook on `rook`, or (NO_CELL) the outermost one on
 * the castle's side. A right without them is dropped. */
static void read_free_castle(Position *tmp, int i, Cell rook) {
    const Variant *v = tmp->v;
    const Castle *c = &v->castles[i];
    Cell king = free_castle_king(tmp, c);
    if (king == NO_CELL) return;
    const CellInfo *k = &v->cells[king];
    const Board *b = &v->boards[k->board];
    /* the rook comes from the side away from its destination: it ends between */
    int side = v->cells[c->rook_to].x < v->cells[c->king_to].x ? 1 : -1;
    if (rook == NO_CELL)
        for (int x = k->x + side; x >= 0 && x < b->width; x += side)
            if (castle_rook_fits(tmp, c, b->at[k->y][x])) rook = b->at[k->y][x];
    if (rook == NO_CELL || !castle_rook_fits(tmp, c, rook) || (v->cells[rook].x - k->x) * side <= 0) return;
    tmp->castle_king[i] = king;
    tmp->castle_rook[i] = rook;
    tmp->rights |= 1u << c->right;
}

/* A castling right written as the rook's file (Chess960's "HAha"): upper case for the first
 * player, lower case for the second. False when no free castle has that file. */
static bool read_free_castle_file(Position *tmp, char letter) {
    const Variant *v = tmp->v;
    int owner = isupper((unsigned char)letter) ? 0 : 1;
    int file = tolower((unsigned char)letter) - 'a';
    for (int i = 0; i < v->ncastles; i++) {
        const Castle *c = &v->castles[i];
        if (!c->free || c->owner != owner) continue;
        Cell king = free_castle_king(tmp, c);
        if (king == NO_CELL) continue;
        const CellInfo *k = &v->cells[king];
        const Board *b = &v->boards[k->board];
        int side = v->cells[c->rook_to].x < v->cells[c->king_to].x ? 1 : -1;
        if (file < 0 || file >= b->width || (file - k->x) * side <= 0) continue;
        read_free_castle(tmp, i, b->at[k->y][file]);
        return true;
    }
    return false;
}

static bool read_castling(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    if (!strcmp(field, "-")) return true;
    for (const char *c = field; *c; c++) {
        /* players 3 and 4 write their rights with a prefix, as their pieces: ":3K" */
        int owner = -1;
        if (*c == ':') {
            if (c[1] < '1' || c[1] > '9' || !c[2]) return refuse(err, cap, "bad castling right '%s'", c);
            owner = c[1] - '1';
            c += 2;
        }
        int found = -1;
        for (int i = 0; i < v->ncastles; i++) {
            const Castle *k = &v->castles[i];
            if (owner >= 0 ? (k->owner == owner && toupper((unsigned char)k->letter) == *c)
                           : (k->owner < 2 && k->letter == *c))
                found = i;
        }
        if (found < 0 && v->gate_zone && owner < 0 && isalpha((unsigned char)*c)) {
            int p = isupper((unsigned char)*c) ? 0 : 1;
            Cell g = gate_on_file(v, p, tolower((unsigned char)*c) - 'a');
            if (g == NO_CELL) return refuse(err, cap, "unknown castling right or gate '%c'", *c);
            open_gate(tmp, p, g);
            continue;
        }
        if (found < 0 && owner < 0 && v->free_castles) {
            if (!read_free_castle_file(tmp, *c)) return refuse(err, cap, "unknown castling right '%c'", *c);
            continue;
        }
        if (found < 0) return refuse(err, cap, "unknown castling right '%c'", *c);
        const Castle *cs = &v->castles[found];
        if (cs->free) {
            read_free_castle(tmp, found, NO_CELL);
            continue;
        }
        if (cs->privilege) {
            /* held while a piece of its owner stands on its cell */
            Piece p = tmp->cell[cs->king_from];
            if (p && PIECE_OWNER(p) == cs->owner) tmp->rights |= 1u << cs->right;
            continue;
        }
        if (v->gate_zone && cs->owner < 2) {
            open_gate(tmp, cs->owner, cs->king_from);
            open_gate(tmp, cs->owner, cs->rook_from);
        }
        Piece k = tmp->cell[cs->king_from], r = tmp->cell[cs->rook_from];
        /* a right whose king or rook is not at home cannot be used: drop it */
        /* nor one whose "rook" is royal (or of the castling type): that piece would run the king's
         * castling program from the rook's cell and move twice in one move; nor one whose rook is
         * of another type than the start position's (a rook that became a queen). The king is
         * royal, or of the type that castles where kings are not royal. */
        bool king_ok = k && (v->types[PIECE_TYPE(k)].royal || PIECE_TYPE(k) == cs->king_type);
        bool rook_ok = r && !v->types[PIECE_TYPE(r)].royal && PIECE_TYPE(r) != cs->king_type;
        if (king_ok && rook_ok && PIECE_OWNER(k) == cs->owner && PIECE_OWNER(r) == cs->owner &&
            (cs->rook_type == NO_TYPE || PIECE_TYPE(r) == cs->rook_type))
            tmp->rights |= 1u << cs->right;
    }
    return true;
}

/* One en-passant cell of the field, alone ("e3") or followed by the cell of the piece that
 * made it ("d3e4"), into the cells of the last move (turn) or, in a turn of phases, of the
 * mover's own turn so far. A cell the writer would not name (taken, or with no piece past it
 * that could have made it) is dropped, so the text reads back as the same position. */
static bool read_ep_cell(Position *tmp, const char *text, char *err, size_t cap) {
    const Variant *v = tmp->v;
    char name[64];
    int c = -1, victim = -1;
    size_t len = strlen(text);
    if (len >= sizeof name) return refuse(err, cap, "bad en-passant cell '%s'", text);
    c = variant_cell_by_name(v, text);
    for (size_t cut = 1; c < 0 && cut < len; cut++) {
        memcpy(name, text, cut);
        name[cut] = '\0';
        int first = variant_cell_by_name(v, name), second = variant_cell_by_name(v, text + cut);
        if (first >= 0 && second >= 0) c = first, victim = second;
    }
    if (c < 0) return refuse(err, cap, "bad en-passant cell '%s'", text);
    if (tmp->cell[c]) return true;
    /* whose: the last mover's, or in a turn of phases maybe the mover's, made earlier this turn */
    int owners[2] = {v->turn_order[(tmp->turn + v->nturns - 1) % v->nturns], board_mover(tmp)};
    for (int k = 0; k < (v->nphases ? 2 : 1); k++) {
        Cell found = NO_CELL, makers[2];
        if (victim >= 0) {
            if (board_ep_could_make(tmp, (Cell)c, owners[k], (Cell)victim)) found = (Cell)victim;
        } else {
            int n = board_ep_makers(tmp, (Cell)c, owners[k], makers);
            if (n > 1)
                return refuse(err, cap,
                              "en-passant cell '%s' could have been passed by the pieces on %s and %s: "
                              "name the one that made it after the cell ('%s%s')",
                              text, v->cells[makers[0]].name, v->cells[makers[1]].name, text, v->cells[makers[0]].name);
            if (n == 1) found = makers[0];
        }
        if (found == NO_CELL) continue;
        Cell *ep = k ? tmp->ep_next : tmp->ep, *ep_victim = k ? &tmp->ep_next_victim : &tmp->ep_victim;
        if (ep[0] != NO_CELL) return refuse(err, cap, "two en-passant cells of one player ('%s')", text);
        ep[0] = (Cell)c;
        *ep_victim = found;
        return true;
    }
    if (victim >= 0)
        return refuse(err, cap, "no piece on %s could have passed the en-passant cell %s", v->cells[victim].name,
                      v->cells[c].name);
    return true;
}

/* The en-passant cells, comma-separated (in a turn of phases up to two: the one the mover
 * may take, the one its own turn has made), or "-"; or while a count runs (`end counting`)
 * its length in plies. */
static bool read_ep(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    if (!strcmp(field, "-")) return true;
    if (v->counting.on && isdigit((unsigned char)field[0])) {
        /* a running count (`end counting`) stands here, its length in plies, as
         * Fairy-Stockfish writes it; the halfmove field then holds the plies counted */
        long plies;
        if (!parse_int(field, 1, 2 * MAX_COUNTING_MOVES, &plies))
            return refuse(err, cap, "bad count length '%s'", field);
        tmp->count_limit = (uint16_t)plies;
        return true;
    }
    char copy[160];
    if (strlen(field) >= sizeof copy) return refuse(err, cap, "bad en-passant cell '%s'", field);
    strcpy(copy, field);
    int cells = 1;
    for (const char *p = field; *p; p++) cells += *p == ',';
    if (cells > (v->nphases ? 2 : 1))
        return refuse(err, cap, "bad en-passant field '%s' (at most %d cell%s)", field, v->nphases ? 2 : 1,
                      v->nphases ? "s" : "");
    int n = 0;
    for (char *save = NULL, *cell = strtok_r(copy, ",", &save); cell; cell = strtok_r(NULL, ",", &save), n++)
        if (!read_ep_cell(tmp, cell, err, cap)) return false;
    if (n != cells) return refuse(err, cap, "bad en-passant field '%s'", field);
    return true;
}

/* The allegiance: each player's army token in seat order, comma-separated ("w,b"). */
static bool read_allegiance(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    const char *q = field;
    for (int p = 0; p < v->nplayers; p++) {
        size_t len = strcspn(q, ",");
        int found = -1;
        for (int o = v->nplayers; o < v->nowners; o++)
            if (strlen(v->player_token[o]) == len && !strncmp(v->player_token[o], q, len)) found = o;
        for (int k = 0; k < p && found >= 0; k++)
            if (tmp->allegiance[k] == found) found = -1;
        if (found < 0 || (p + 1 < v->nplayers ? q[len] != ',' : q[len] != 0))
            return refuse(err, cap,
                          "bad allegiance '%s' (expected %d different army tokens, comma-separated, one per player)",
                          field, v->nplayers);
        tmp->allegiance[p] = (uint8_t)found;
        q += len + 1;
    }
    return true;
}

/* Every pile, bottom card first, cards separated by '.', piles by '/', an empty one '-';
 * then ":N" when a payment of N is owed. */
static bool read_piles(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    const char *q = field;
    for (int slot = 0; slot < v->npile_slots; slot++) {
        tmp->pile_len[slot] = 0;
        if (*q == '-')
            q++;
        else
            for (;;) {
                char *end;
                long c = strtol(q, &end, 10);
                if (end == q || c < 1 || c > 255 || tmp->pile_len[slot] >= MAX_PILE_CARDS)
                    return refuse(err, cap, "bad piles '%s' (expected %d piles of cards 1-255 separated by '/')", field,
                                  v->npile_slots);
                tmp->piles[slot][tmp->pile_len[slot]++] = (uint8_t)c;
                q = end;
                if (*q != '.') break;
                q++;
            }
        if (*q == '~') {
            /* ~N: its N bottom cards are in an order only its owner knows */
            char *end;
            long n = strtol(q + 1, &end, 10);
            if (end == q + 1 || n < 0 || n > tmp->pile_len[slot])
                return refuse(err, cap, "bad secret count in piles '%s'", field);
            tmp->pile_secret[slot] = (uint8_t)n;
            q = end;
        }
        if (slot + 1 < v->npile_slots && *q++ != '/')
            return refuse(err, cap, "bad piles '%s' (expected %d piles separated by '/')", field, v->npile_slots);
    }
    if (*q == ':') {
        long d;
        if (!parse_int(q + 1, 1, 255, &d)) return refuse(err, cap, "bad payment owed in '%s'", field);
        tmp->debt = (uint8_t)d;
    } else if (*q) {
        return refuse(err, cap, "unexpected '%s' after the piles", q);
    }
    /* a sorted pile is kept in order */
    for (int i = 0; i < v->npiles; i++) {
        const PileDef *p = &v->piles[i];
        for (int k = 0; p->sorted && k < (p->per_player ? v->nplayers : 1); k++) {
            uint8_t *c = tmp->piles[p->slot + k];
            for (int a = 1; a < tmp->pile_len[p->slot + k]; a++)
                for (int b = a; b > 0 && c[b - 1] > c[b]; b--) {
                    uint8_t t = c[b];
                    c[b] = c[b - 1];
                    c[b - 1] = t;
                }
        }
    }
    return true;
}

/* The tiles of a minefield, as the board: ranks from the top separated by '/', boards by
 * '|', a number counts cells without a tile; the first player's tiles 'T' (blank) and 'M'
 * (mine), the second's 't' and 'm'. */
static const char tile_chars[] = "TMtm";

static bool read_tiles(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    memset(tmp->tiles, 0, sizeof tmp->tiles);
    const char *p = field;
    for (int b = 0; b < v->nboards; b++) {
        const Board *bd = &v->boards[b];
        if (b > 0 && *p++ != '|') return refuse(err, cap, "bad tiles '%s' (expected '|' between boards)", field);
        for (int y = bd->height - 1; y >= 0; y--) {
            for (int x = 0; x < bd->width;) {
                if (bd->at[y][x] == NO_CELL) {
                    x++;
                    continue;
                }
                if (isdigit((unsigned char)*p)) {
                    long run = strtol(p, (char **)&p, 10);
                    if (run < 1 || x + run > bd->width)
                        return refuse(err, cap, "bad tiles '%s' (a rank is too long)", field);
                    x += (int)run;
                    continue;
                }
                const char *t = *p ? strchr(tile_chars, *p) : NULL;
                if (!t) return refuse(err, cap, "bad tiles '%s' (expected T, M, t, m or a number)", field);
                int k = (int)(t - tile_chars);
                tmp->tiles[bd->at[y][x]] = (uint8_t)((k / 2 + 1) | (k % 2 ? TILE_MINE : 0));
                p++;
                x++;
            }
            if (y > 0 && *p++ != '/') return refuse(err, cap, "bad tiles '%s' (expected '/' between ranks)", field);
        }
    }
    if (*p) return refuse(err, cap, "bad tiles '%s' (too long)", field);
    return true;
}

/* The players who are out, comma-separated ("-" when none); "s>r" when the army of the player
 * s who is out moves with the player r. */
static bool read_out(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    if (!strcmp(field, "-")) return true;
    const char *q = field;
    for (;;) {
        size_t len = strcspn(q, ",>");
        int out = -1, by = -1;
        for (int p = 0; p < v->nplayers; p++)
            if (strlen(v->player_token[p]) == len && !strncmp(v->player_token[p], q, len)) out = p;
        q += len;
        if (out >= 0 && *q == '>') {
            len = strcspn(++q, ",");
            for (int p = 0; p < v->nplayers; p++)
                if (strlen(v->player_token[p]) == len && !strncmp(v->player_token[p], q, len)) by = p;
            q += len;
            if (by < 0 || by == out) out = -1;
        }
        if (out < 0 || !((tmp->alive >> out) & 1))
            return refuse(err, cap,
                          "bad players out '%s' (expected - or player tokens, comma-separated, each once, 'x>y' when y "
                          "moves x's army)",
                          field);
        tmp->alive &= (uint8_t) ~(1u << out);
        if (by >= 0) tmp->controller[out] = (uint8_t)by;
        if (!*q) break;
        if (*q++ != ',') return refuse(err, cap, "bad players out '%s'", field);
    }
    /* an army moves with a player who is still in, and that is who moves next */
    for (int p = 0; p < v->nplayers; p++)
        if (tmp->controller[p] != p && !((tmp->alive >> tmp->controller[p]) & 1))
            return refuse(err, cap, "bad players out '%s': %s is out and cannot move another army", field,
                          v->player_token[tmp->controller[p]]);
    if (!((tmp->alive >> v->turn_order[tmp->turn]) & 1))
        return refuse(err, cap, "the player to move (%s) is out", v->player_token[v->turn_order[tmp->turn]]);
    return true;
}

/* "-" when the set-up is over; "N" or "N:M" (step N, counted from 1; M moves made in it). */
static bool read_prelude(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    if (!strcmp(field, "-")) {
        tmp->prelude = (uint8_t)v->nprelude;
        tmp->prelude_moves = 0;
        board_sync_prelude(tmp);
        return true;
    }
    char *end;
    long step = strtol(field, &end, 10), moves = 0;
    bool ok = end != field;
    if (ok && *end == ':') {
        char *after = end + 1;
        moves = strtol(after, &end, 10);
        ok = end != after;
    }
    if (!ok || *end || step < 1 || step > v->nprelude || moves < 0 || moves >= v->prelude[step - 1].moves)
        return refuse(err, cap, "bad prelude step '%s' (expected - or 1..%d)", field, v->nprelude);
    tmp->prelude = (uint8_t)(step - 1);
    tmp->prelude_moves = (uint8_t)moves;
    board_sync_prelude(tmp);
    return true;
}

/* "NAME" or "NAME:N" (N moves made in the phase), then "+" when a royal piece of another
 * player was open to capture as the turn began. */
static bool read_phase(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    char name[64];
    snprintf(name, sizeof name, "%s", field);
    size_t n0 = strlen(name);
    bool open = n0 > 0 && name[n0 - 1] == '+';
    if (open) name[n0 - 1] = 0;
    field = name;
    /* without the mark: at the turn's start it is found from the board, later it is not open */
    tmp->royal_open = (int8_t)(open ? 1 : 0);
    const char *colon = strchr(field, ':');
    size_t len = colon ? (size_t)(colon - field) : strlen(field);
    for (int p = 0; p < v->nphases; p++) {
        if (strlen(v->phases[p].name) != len || strncmp(v->phases[p].name, field, len)) continue;
        long n = 0;
        /* (a phase without a limit keeps no count) */
        if (colon && (!parse_int(colon + 1, 0, 100, &n) || n >= (v->phases[p].max ? v->phases[p].max : 1)))
            return refuse(err, cap, "bad move count in phase '%s'", field);
        tmp->phase = (uint8_t)p;
        tmp->phase_moves = (uint8_t)n;
        return true;
    }
    return refuse(err, cap, "unknown phase '%s'", field);
}

static bool read_halfmove(Position *tmp, const char *field, char *err, size_t cap) {
    long num;
    if (!parse_int(field, 0, 10000, &num)) return refuse(err, cap, "bad halfmove clock '%s'", field);
    if (tmp->count_limit)
        tmp->count_ply = (uint16_t)num; /* (a count runs: the plies it counted) */
    else
        tmp->halfmove = (uint16_t)num;
    return true;
}

static bool read_fullmove(Position *tmp, const char *field, char *err, size_t cap) {
    long num;
    if (!parse_int(field, 1, 100000, &num)) return refuse(err, cap, "bad move number '%s'", field);
    tmp->fullmove = (int)num;
    return true;
}

/* Plies played so far: the move number follows from it and the turn order. */
static bool read_plies(Position *tmp, const char *field, char *err, size_t cap) {
    long num;
    if (!parse_int(field, 0, 1000000, &num)) return refuse(err, cap, "bad ply count '%s'", field);
    tmp->fullmove = (int)(num / tmp->v->nturns) + 1;
    return true;
}

/* The checks each of the two players still has to give (`end checks N`), "3+3": the first
 * player's, then the second's. */
static bool read_checks(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    if (!v->check_limit) return refuse(err, cap, "the game counts no checks");
    int left[2];
    char extra;
    if (sscanf(field, "%d+%d%c", &left[0], &left[1], &extra) != 2)
        return refuse(err, cap, "bad checks field '%s' (expected checks left to give, like 3+3)", field);
    for (int p = 0; p < 2; p++) {
        if (left[p] < 0 || left[p] > v->check_limit)
            return refuse(err, cap, "checks left %d out of range (0..%d)", left[p], v->check_limit);
        tmp->checks[p] = (uint8_t)(v->check_limit - left[p]);
    }
    return true;
}

/* The counters' values, comma-separated, in declaration order (per player: one each). */
static bool read_counters(Position *tmp, const char *field, char *err, size_t cap) {
    const Variant *v = tmp->v;
    const char *q = field;
    for (int k = 0; k < v->ncounter_slots; k++) {
        char *end;
        long val = strtol(q, &end, 10);
        if (end == q || (k + 1 < v->ncounter_slots ? *end != ',' : *end != 0))
            return refuse(err, cap, "bad counters '%s' (expected %d comma-separated numbers)", field,
                          v->ncounter_slots);
        if (val < -1000000000L || val > 1000000000L)
            return refuse(err, cap, "counter value %ld is out of range (limit is 1000000000)", val);
        tmp->counters[k] = (int32_t)val;
        q = end + 1;
    }
    return true;
}

static void put(char *buf, size_t cap, size_t *at, const char *s) {
    size_t n = strlen(s);
    if (*at + n + 1 > cap) n = cap > *at + 1 ? cap - *at - 1 : 0;
    memcpy(buf + *at, s, n);
    *at += n;
    buf[*at] = 0;
}

/* One piece as position text writes it. */
static void piece_text(const Variant *v, Piece p, char *tmp, size_t cap) {
    char letter = v->types[PIECE_TYPE(p)].letter;
    const char *plus = v->types[PIECE_TYPE(p)].promoted ? "+" : "";
    int o = PIECE_OWNER(p);
    if (v->types[PIECE_TYPE(p)].written)
        snprintf(tmp, cap, "%c", v->types[PIECE_TYPE(p)].written);
    else if (o == 0)
        snprintf(tmp, cap, "%s%c", plus, letter);
    else if (o == 1)
        snprintf(tmp, cap, "%s%c", plus, (char)tolower((unsigned char)letter));
    else
        snprintf(tmp, cap, ":%d%s%c", o + 1, plus, (char)tolower((unsigned char)letter));
    if (p & PIECE_PROMOTED) snprintf(tmp + strlen(tmp), cap - strlen(tmp), "~");
}

/* A rank, or a row of holding cells: the cells in order (NO_CELL, a hole, is skipped). */
static void write_row(const Position *pos, const Cell *cells, int n, char *buf, size_t cap, size_t *at) {
    char tmp[32];
    int empty = 0;
    for (int x = 0; x < n; x++) {
        Cell c = cells[x];
        if (c == NO_CELL) continue;
        Piece p = pos->cell[c];
        if (!p) {
            empty++;
            continue;
        }
        if (empty) {
            snprintf(tmp, sizeof tmp, "%d", empty);
            put(buf, cap, at, tmp);
            empty = 0;
        }
        piece_text(pos->v, p, tmp, sizeof tmp);
        put(buf, cap, at, tmp);
    }
    if (empty) {
        snprintf(tmp, sizeof tmp, "%d", empty);
        put(buf, cap, at, tmp);
    }
}

static void write_boards(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    char tmp[32];
    for (int b = 0; b < v->nboards; b++) {
        const Board *bd = &v->boards[b];
        if (b) put(buf, cap, at, "|");
        for (int y = bd->height - 1; y >= 0; y--) {
            write_row(pos, bd->at[y], bd->width, buf, cap, at);
            if (y) put(buf, cap, at, "/");
        }
        if (!bd->nholding) continue;
        put(buf, cap, at, "{");
        for (int c = bd->holding_first, row = 0; c < bd->holding_first + bd->nholding; row++) {
            Cell cells[MAX_BOARD_DIM];
            int n = 0;
            while (c < bd->holding_first + bd->nholding && v->cells[c].y == row) cells[n++] = (Cell)c++;
            if (row) put(buf, cap, at, "/");
            write_row(pos, cells, n, buf, cap, at);
        }
        put(buf, cap, at, "}");
    }
    if (!v->has_hands) return;
    put(buf, cap, at, "[");
    for (int o = 0; o < 2; o++)
        for (int t = 0; t < v->ntypes; t++)
            for (int n = 0; n < pos->hand[o][t]; n++) {
                char letter = v->types[t].letter;
                snprintf(tmp, sizeof tmp, "%c", o ? (char)tolower((unsigned char)letter) : letter);
                put(buf, cap, at, tmp);
            }
    put(buf, cap, at, "]");
}

/* The turn of the game proper: during set-up steps the prelude field names the mover. */
static void write_side(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    int mover = v->turn_order[pos->turn], nth = 1;
    for (int s = 0; s < pos->turn; s++) nth += v->turn_order[s] == mover;
    put(buf, cap, at, v->player_token[mover]);
    if (nth > 1) {
        char tmp[32];
        snprintf(tmp, sizeof tmp, ".%d", nth);
        put(buf, cap, at, tmp);
    }
}

/* Gating: each player's castling rights, then the gates they do not imply, by file letter. */
static void write_castling_gates(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    bool any = false;
    for (int p = 0; p < 2; p++) {
        uint64_t implied[CELL_WORDS] = {0};
        for (int k = 0; k < v->ncastles; k++) {
            const Castle *cs = &v->castles[k];
            if (cs->owner != p || !(pos->rights >> cs->right & 1)) continue;
            char tmp[4] = {cs->letter, 0};
            put(buf, cap, at, tmp);
            implied[cs->king_from >> 6] |= 1ULL << (cs->king_from & 63);
            implied[cs->rook_from >> 6] |= 1ULL << (cs->rook_from & 63);
            any = true;
        }
        for (int c = 0; c < v->ncells; c++) {
            if (!bits_has(pos->gates[p], (Cell)c) || bits_has(implied, (Cell)c)) continue;
            char tmp[4] = {(char)((p ? 'a' : 'A') + v->cells[c].x), 0};
            put(buf, cap, at, tmp);
            any = true;
        }
    }
    if (!any) put(buf, cap, at, "-");
}

static void write_castling(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    char tmp[32];
    bool any = false;
    if (v->gate_zone) {
        write_castling_gates(pos, buf, cap, at);
        return;
    }
    /* each player's rights together, in seat order, privileges by cell (DEde) */
    for (int o = 0; o < v->nowners; o++)
        for (int n = 0; n < v->ncastles; n++) {
            int k = n;
            if (v->castles[n].privilege) {
                /* the n-th privilege slot takes the privileges in cell order */
                int rank = 0;
                for (int i = 0; i < n; i++) rank += v->castles[i].privilege;
                k = -1;
                for (int i = 0; i < v->ncastles && k < 0; i++) {
                    if (!v->castles[i].privilege) continue;
                    int below = 0;
                    for (int j = 0; j < v->ncastles; j++)
                        below += v->castles[j].privilege && v->castles[j].king_from < v->castles[i].king_from;
                    if (below == rank) k = i;
                }
            }
            if (k >= 0 && v->castles[k].owner == o && (pos->rights >> v->castles[k].right & 1)) {
                if (v->castles[k].free) {
                    /* the rook's file, as Chess960 writes it */
                    char file = v->cells[pos->castle_rook[k]].name[0];
                    snprintf(tmp, sizeof tmp, "%c", v->castles[k].owner == 0 ? toupper((unsigned char)file) : file);
                } else if (v->castles[k].owner >= 2)
                    snprintf(tmp, sizeof tmp, ":%d%c", v->castles[k].owner + 1, v->castles[k].letter);
                else
                    snprintf(tmp, sizeof tmp, "%c", v->castles[k].letter);
                put(buf, cap, at, tmp);
                any = true;
            }
        }
    if (!any) put(buf, cap, at, "-");
}

static void write_number(long n, char *buf, size_t cap, size_t *at);

/* An en-passant cell of owner o while it can be taken (empty, the piece that made it still
 * past it), with that piece's cell after it unless the cell alone names it. */
static void write_ep_cell(const Position *pos, Cell ep, Cell victim, int o, bool *any, char *buf, size_t cap,
                          size_t *at) {
    if (ep == NO_CELL || pos->cell[ep] || victim == NO_CELL || !pos->cell[victim] ||
        PIECE_OWNER(pos->cell[victim]) != o)
        return;
    if (*any) put(buf, cap, at, ",");
    *any = true;
    put(buf, cap, at, pos->v->cells[ep].name);
    if (!board_ep_named_by_cell(pos, ep, o, victim)) put(buf, cap, at, pos->v->cells[victim].name);
}

/* The en-passant cells (in a turn of phases, the one the mover may take, then the one its turn
 * has made), or while a count runs (`end counting`) its length in plies. */
static void write_ep(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    if (pos->count_limit) {
        write_number(pos->count_limit, buf, cap, at);
        return;
    }
    bool any = false;
    write_ep_cell(pos, pos->ep[0], pos->ep_victim, v->turn_order[(pos->turn + v->nturns - 1) % v->nturns], &any, buf,
                  cap, at);
    if (v->nphases) write_ep_cell(pos, pos->ep_next[0], pos->ep_next_victim, board_mover(pos), &any, buf, cap, at);
    if (!any) put(buf, cap, at, "-");
}

static void write_number(long n, char *buf, size_t cap, size_t *at) {
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%ld", n);
    put(buf, cap, at, tmp);
}

/* The n-move clock, or while a count runs the plies it has counted. */
static void write_halfmove(const Position *pos, char *buf, size_t cap, size_t *at) {
    write_number(pos->count_limit ? pos->count_ply : pos->halfmove, buf, cap, at);
}

static void write_fullmove(const Position *pos, char *buf, size_t cap, size_t *at) {
    write_number(pos->fullmove, buf, cap, at);
}

static void write_plies(const Position *pos, char *buf, size_t cap, size_t *at) {
    write_number((long)(pos->fullmove - 1) * pos->v->nturns + pos->turn, buf, cap, at);
}

static void write_counters(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    char tmp[32];
    for (int k = 0; k < v->ncounter_slots; k++) {
        snprintf(tmp, sizeof tmp, "%s%d", k ? "," : "", pos->counters[k]);
        put(buf, cap, at, tmp);
    }
    if (!v->ncounter_slots) put(buf, cap, at, "-");
}

static void write_out(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    bool any = false;
    for (int p = 0; p < v->nplayers; p++) {
        if ((pos->alive >> p) & 1) continue;
        put(buf, cap, at, any ? "," : "");
        put(buf, cap, at, v->player_token[p]);
        if (pos->controller[p] != p) {
            put(buf, cap, at, ">");
            put(buf, cap, at, v->player_token[pos->controller[p]]);
        }
        any = true;
    }
    if (!any) put(buf, cap, at, "-");
}

static void write_allegiance(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    for (int p = 0; p < v->nplayers; p++) {
        if (p) put(buf, cap, at, ",");
        put(buf, cap, at, pos->allegiance[p] != NO_OWNER ? v->player_token[pos->allegiance[p]] : "-");
    }
}

static void write_tiles(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    char tmp[16];
    for (int b = 0; b < v->nboards; b++) {
        const Board *bd = &v->boards[b];
        if (b > 0) put(buf, cap, at, "|");
        for (int y = bd->height - 1; y >= 0; y--) {
            int run = 0;
            for (int x = 0; x < bd->width; x++) {
                Cell c = bd->at[y][x];
                if (c == NO_CELL) continue;
                uint8_t t = pos->tiles[c];
                if (!t || TILE_OWNER(t) > 1) {
                    run++;
                    continue;
                }
                if (run) {
                    snprintf(tmp, sizeof tmp, "%d", run);
                    put(buf, cap, at, tmp);
                    run = 0;
                }
                snprintf(tmp, sizeof tmp, "%c", tile_chars[TILE_OWNER(t) * 2 + ((t & TILE_MINE) ? 1 : 0)]);
                put(buf, cap, at, tmp);
            }
            if (run) {
                snprintf(tmp, sizeof tmp, "%d", run);
                put(buf, cap, at, tmp);
            }
            if (y > 0) put(buf, cap, at, "/");
        }
    }
}

static void write_prelude(const Position *pos, char *buf, size_t cap, size_t *at) {
    char tmp[32];
    if (pos->prelude >= pos->v->nprelude)
        snprintf(tmp, sizeof tmp, "-");
    else if (pos->prelude_moves)
        snprintf(tmp, sizeof tmp, "%d:%d", pos->prelude + 1, pos->prelude_moves);
    else
        snprintf(tmp, sizeof tmp, "%d", pos->prelude + 1);
    put(buf, cap, at, tmp);
}

static void write_piles(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    char tmp[32];
    for (int slot = 0; slot < v->npile_slots; slot++) {
        if (slot) put(buf, cap, at, "/");
        if (!pos->pile_len[slot]) put(buf, cap, at, "-");
        for (int c = 0; c < pos->pile_len[slot]; c++) {
            snprintf(tmp, sizeof tmp, "%s%d", c ? "." : "", pos->piles[slot][c]);
            put(buf, cap, at, tmp);
        }
        if (pos->pile_secret[slot]) {
            snprintf(tmp, sizeof tmp, "~%d", pos->pile_secret[slot]);
            put(buf, cap, at, tmp);
        }
    }
    if (pos->debt) {
        snprintf(tmp, sizeof tmp, ":%d", pos->debt);
        put(buf, cap, at, tmp);
    }
}

static void write_phase(const Position *pos, char *buf, size_t cap, size_t *at) {
    const Variant *v = pos->v;
    char tmp[32];
    if (pos->phase_moves)
        snprintf(tmp, sizeof tmp, "%s:%d", v->phases[pos->phase].name, pos->phase_moves);
    else
        snprintf(tmp, sizeof tmp, "%s", v->phases[pos->phase].name);
    if (pos->royal_open == 1) strcat(tmp, "+");
    put(buf, cap, at, tmp);
}

static void write_checks(const Position *pos, char *buf, size_t cap, size_t *at) {
    char tmp[32];
    int limit = pos->v->check_limit;
    snprintf(tmp, sizeof tmp, "%d+%d", limit - pos->checks[0], limit - pos->checks[1]);
    put(buf, cap, at, tmp);
}

/* Each field's name in a rule file, how it is read and how it is written. */
static const struct {
    const char *name;
    bool (*read)(Position *tmp, const char *field, char *err, size_t cap);
    void (*write)(const Position *pos, char *buf, size_t cap, size_t *at);
} fields[FEN__COUNT] = {
    [FEN_BOARD] = {"board", read_boards, write_boards},
    [FEN_SIDE] = {"side", read_side, write_side},
    [FEN_CASTLING] = {"castling", read_castling, write_castling},
    [FEN_EP] = {"ep", read_ep, write_ep},
    [FEN_HALFMOVE] = {"halfmove", read_halfmove, write_halfmove},
    [FEN_FULLMOVE] = {"fullmove", read_fullmove, write_fullmove},
    [FEN_PLIES] = {"plies", read_plies, write_plies},
    [FEN_COUNTERS] = {"counters", read_counters, write_counters},
    [FEN_ALLEGIANCE] = {"allegiance", read_allegiance, write_allegiance},
    [FEN_PHASE] = {"phase", read_phase, write_phase},
    [FEN_PILES] = {"piles", read_piles, write_piles},
    [FEN_TILES] = {"tiles", read_tiles, write_tiles},
    [FEN_PRELUDE] = {"prelude", read_prelude, write_prelude},
    [FEN_OUT] = {"out", read_out, write_out},
    [FEN_CHECKS] = {"checks", read_checks, write_checks},
};

const char *fen_field_name(FenField f) { return (unsigned)f < FEN__COUNT ? fields[f].name : "?"; }

int fen_field_by_name(const char *name) {
    for (int i = 0; i < FEN__COUNT; i++)
        if (!strcmp(fields[i].name, name)) return i;
    return -1;
}

void fen_field_list(char *buf, size_t cap) {
    size_t at = 0;
    if (cap == 0) return;
    buf[0] = 0;
    for (int i = 0; i < FEN__COUNT; i++) {
        put(buf, cap, &at, i == 0 ? "" : i + 1 < FEN__COUNT ? ", " : " or ");
        put(buf, cap, &at, fields[i].name);
    }
}

/* Reads text into the scratch position *tmp (no history, no key). */
/* ---- draughts position text (position-format pdn) --------------------------------------- */

/* The player whose token is letter c in either case, or -1. */
static int pdn_player(const Variant *v, char c) {
    for (int p = 0; p < v->nplayers; p++)
        if (strlen(v->player_token[p]) == 1 &&
            tolower((unsigned char)v->player_token[p][0]) == tolower((unsigned char)c))
            return p;
    return -1;
}

/* The cell numbered n (1-based, as square_number numbers them), or NO_CELL. */
static Cell pdn_cell(const Variant *v, long n) {
    for (int c = 0; c < v->ncells; c++)
        if (v->square_number[c] == n) return (Cell)c;
    return NO_CELL;
}

/* One player's pieces: "W21,22,K23" or with ranges "W21-32", each square number with the
 * letter of its piece type in front, but for the first type. */
static bool pdn_read_pieces(Position *tmp, const char *part, char *err, size_t cap) {
    const Variant *v = tmp->v;
    int player = pdn_player(v, part[0]);
    if (player < 0) return refuse(err, cap, "'%c' names no player (expected a player's letter)", part[0]);
    const char *p = part + 1;
    while (*p) {
        int type = 0;
        if (isalpha((unsigned char)*p)) {
            type = variant_type_by_letter(v, (char)toupper((unsigned char)*p));
            if (type < 0) return refuse(err, cap, "'%c' is no piece's letter", *p);
            p++;
        }
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p) return refuse(err, cap, "expected a square number at '%s'", p);
        p = end;
        if (*p == '-') {
            hi = strtol(p + 1, &end, 10);
            if (end == p + 1) return refuse(err, cap, "expected a square number after '-'");
            p = end;
        }
        if (lo > hi) return refuse(err, cap, "the range %ld-%ld runs backwards", lo, hi);
        for (long n = lo; n <= hi; n++) {
            Cell c = pdn_cell(v, n);
            if (c == NO_CELL) return refuse(err, cap, "no square %ld (the board has %d)", n, v->ncells);
            if (tmp->cell[c]) return refuse(err, cap, "square %ld is given twice", n);
            place(tmp, c, PIECE_MAKE(type, player));
        }
        if (*p == ',')
            p++;
        else if (*p)
            return refuse(err, cap, "unexpected '%c' after square %ld", *p, hi);
    }
    return true;
}

/* "W:W21,22:B1,2": the side to move, then each player's pieces (white space and a final '.'
 * allowed, as draughts programs write it). */
static bool pdn_read(Position *tmp, const char *text, char *err, size_t cap) {
    char buf[4200];
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof buf; p++)
        if (!isspace((unsigned char)*p)) buf[n++] = *p;
    buf[n] = 0;
    if (n && buf[n - 1] == '.') buf[--n] = 0;
    if (!n) return refuse(err, cap, "empty position");
    /* (a text with no part after the side, unless the side alone: quoted as written) */
    if (!strchr(buf, ':') && n > 1)
        return refuse(err, cap,
                      "'%s' is not draughts position text (the side to move, then each player's pieces: "
                      "W:W31-50:B1-20)",
                      text);
    char *parts[4];
    int nparts = 0;
    for (char *p = buf; nparts < 4;) {
        parts[nparts++] = p;
        p = strchr(p, ':');
        if (!p) break;
        *p++ = 0;
    }
    if (strlen(parts[0]) != 1 || pdn_player(tmp->v, parts[0][0]) < 0)
        return refuse(err, cap, "'%s' is not the side to move (expected a player's letter, as in W:W21,22:B1,2)",
                      parts[0]);
    if (nparts > 3) return refuse(err, cap, "too many parts (expected the side to move and two players' pieces)");
    int side = pdn_player(tmp->v, parts[0][0]);
    for (int t = 0; t < tmp->v->nturns; t++)
        if (tmp->v->turn_order[t] == side) {
            tmp->turn = (uint8_t)t;
            break;
        }
    for (int i = 1; i < nparts; i++) {
        if (!parts[i][0]) return refuse(err, cap, "an empty part (expected a player's letter and squares)");
        if (!pdn_read_pieces(tmp, parts[i], err, cap)) return false;
    }
    return true;
}

/* The side to move, then each player's pieces in seat order, squares ascending. */
static void pdn_write(const Position *pos, char *buf, size_t cap) {
    const Variant *v = pos->v;
    size_t at = 0;
    char s[16];
    snprintf(s, sizeof s, "%c", toupper((unsigned char)v->player_token[board_mover(pos)][0]));
    put(buf, cap, &at, s);
    for (int p = 0; p < v->nplayers; p++) {
        snprintf(s, sizeof s, ":%c", toupper((unsigned char)v->player_token[p][0]));
        put(buf, cap, &at, s);
        bool first = true;
        for (int n = 1; n <= v->ncells; n++) {
            Cell c = pdn_cell(v, n);
            Piece pc = c == NO_CELL ? 0 : pos->cell[c];
            if (!pc || PIECE_OWNER(pc) != p) continue;
            int t = PIECE_TYPE(pc);
            if (t == 0)
                snprintf(s, sizeof s, "%s%d", first ? "" : ",", n);
            else
                snprintf(s, sizeof s, "%s%c%d", first ? "" : ",", v->types[t].letter, n);
            put(buf, cap, &at, s);
            first = false;
        }
    }
}

static bool parse(Position *tmp, const Variant *v, const char *text, char *err, size_t cap) {
    if (!text) return refuse(err, cap, "empty position");
    size_t len = strlen(text);
    if (len > 4096) return refuse(err, cap, "position text too long (limit is 4096 characters)");
    /* board_clear sets every field a new position starts with (not just the board) */
    memset(tmp, 0, sizeof *tmp);
    tmp->v = v;
    board_clear(tmp);
    tmp->prelude = (uint8_t)v->nprelude; /* position text without the field: the set-up is over */
    board_sync_prelude(tmp);
    if (v->pdn) return pdn_read(tmp, text, err, cap);
    char *copy = xstrdup(text);
    char *f[ARRAY_LEN(v->fen_fields)];
    int n = split(copy, f, v->nfen_fields);
    bool ok = true;
    if (n == 0)
        ok = refuse(err, cap, "empty position");
    else if (n > v->nfen_fields)
        ok = refuse(err, cap, "too many fields (expected at most %d)", v->nfen_fields);
    for (int i = 0; ok && i < n; i++) ok = fields[v->fen_fields[i]].read(tmp, f[i], err, cap);
    free(copy);
    if (ok) give_marked_to_mover(tmp);
    if (ok && v->nphases && tmp->royal_open == 0 &&
        (tmp->prelude < v->nprelude || (tmp->phase == 0 && tmp->phase_moves == 0 && !tmp->debt)))
        tmp->royal_open = -1;
    return ok;
}

bool fen_read(Position *pos, const char *text, char *err, size_t cap) {
    /* Parse into a scratch position so pos is untouched on error. */
    Position tmp;
    if (!parse(&tmp, pos->v, text, err, cap)) return false;
    board_sync_prelude(&tmp);
    tmp.key = board_compute_key(&tmp);
    board_copy(pos, &tmp);
    pos->ply = 0;
    return true;
}

/* How many fields to write: the last fields that may be left out (`NAME?`) are, from the
 * end, while each says what a text without it would mean (read from the setup position's
 * leading fields). */
static int fields_to_write(const Position *pos) {
    const Variant *v = pos->v;
    int keep = v->nfen_fields;
    if (!v->fen_optional_from) return keep;
    char *copy = xstrdup(v->setup);
    char *f[FEN_MAX_FIELDS];
    int n = split(copy, f, FEN_MAX_FIELDS);
    char head[4200] = "";
    size_t len = 0;
    for (int i = 0; i < v->fen_optional_from && i < n; i++)
        len += (size_t)snprintf(head + len, sizeof head - len, "%s%s", i ? " " : "", f[i]);
    free(copy);
    Position bare_pos, *bare = &bare_pos;
    char err[200];
    if (len < sizeof head && parse(bare, v, head, err, sizeof err)) {
        for (; keep > v->fen_optional_from; keep--) {
            char mine[256] = "", theirs[256] = "";
            size_t a = 0, b = 0;
            fields[v->fen_fields[keep - 1]].write(pos, mine, sizeof mine, &a);
            fields[v->fen_fields[keep - 1]].write(bare, theirs, sizeof theirs, &b);
            if (strcmp(mine, theirs)) break;
        }
    }
    return keep;
}

void fen_write(const Position *pos, char *buf, size_t cap) {
    const Variant *v = pos->v;
    size_t at = 0;
    if (cap == 0) return;
    buf[0] = 0;
    if (v->pdn) {
        pdn_write(pos, buf, cap);
        return;
    }
    int nfields = fields_to_write(pos);
    for (int i = 0; i < nfields; i++) {
        if (i) put(buf, cap, &at, " ");
        fields[v->fen_fields[i]].write(pos, buf, cap, &at);
    }
}

void fen_start(const Variant *v, uint64_t seed, char *buf, size_t cap) {
    if (!v->nshuffles && !v->has_allegiance) {
        snprintf(buf, cap, "%s", v->setup);
        return;
    }
    Position pos;
    memset(&pos, 0, sizeof pos);
    pos.v = v;
    char err[200];
    if (!parse(&pos, v, v->setup, err, sizeof err)) {
        snprintf(buf, cap, "%s", v->setup);
        return;
    }
    uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    for (int z = 0; z < v->nshuffles; z++)
        for (int o = 0; o < v->nowners; o++) {
            /* this player's cells of the zone that hold its pieces: deal the pieces out again */
            Cell cells[MAX_CELLS];
            int n = 0;
            for (int c = 0; c < v->ncells; c++)
                if (zone_has(&v->zones[v->shuffle_zones[z]], o, (Cell)c) && pos.cell[c] &&
                    PIECE_OWNER(pos.cell[c]) == o)
                    cells[n++] = (Cell)c;
            for (int i = n - 1; i > 0; i--) {
                int k = (int)(rng_next(&state) % (uint64_t)(i + 1));
                Piece a = pos.cell[cells[i]], b = pos.cell[cells[k]];
                board_put(&pos, cells[i], b);
                board_put(&pos, cells[k], a);
            }
        }
    /* a random allegiance: the armies are dealt out to the players */
    for (int i = v->allegiance_random ? v->nplayers - 1 : 0; i > 0; i--) {
        int k = (int)(rng_next(&state) % (uint64_t)(i + 1));
        uint8_t a = pos.allegiance[i];
        pos.allegiance[i] = pos.allegiance[k];
        pos.allegiance[k] = a;
    }
    fen_write(&pos, buf, cap);
}

bool fen_royals_ok(const Position *pos, char *err, size_t cap) {
    const Variant *v = pos->v;
    for (int o = 0; o < v->nowners; o++) {
        if (!((v->royal_owners >> o) & 1)) continue;
        if (o < v->nplayers && !((pos->alive >> o) & 1)) continue; /* defeated: out of the game */
        const char *name = NULL;
        bool has = false;
        for (int t = 0; t < v->ntypes && !has; t++) {
            if (!variant_royal(v, o, t)) continue;
            if (!name || v->start_count[o][t]) name = v->types[t].name;
            if (v->has_hands && o < v->nplayers && pos->hand[o][t]) has = true;
            for (int w = 0; w < v->cell_words && !has; w++)
                if (pos->type_occ[t][w] & pos->occ[o][w]) has = true;
        }
        if (!has) {
            char who[16];
            snprintf(who, sizeof who, "%s", v->player_names[o]);
            who[0] = (char)toupper((unsigned char)who[0]);
            return refuse(err, cap, "%s has no %s: the game is lost without one, so it cannot start here", who,
                          name ? name : "royal piece");
        }
    }
    return true;
}
