/* gameend.c - checkmate, stalemate, n-fold repetition, n-move rule and dead material. */
#include "gameend.h"

#include <stdlib.h>
#include <string.h>

#include "ending.h"
#include "movegen.h"

int gameend_repetitions(const Position *pos) {
    int count = 0;
    /* Only positions since the last irreversible move can repeat. (In a game of phases the
     * n-move count counts turns, not plies: look at every ply.) */
    int back = pos->halfmove < pos->ply && !pos->v->nphases ? pos->halfmove : pos->ply;
    for (int k = 1; k <= back; k++)
        if (pos->history[pos->ply - k].state.key == pos->key) count++;
    return count;
}

int gameend_alive_count(const Position *pos) { return __builtin_popcount(pos->alive); }

/* The other player still in the game, when exactly two are left. */
static int other_alive(const Position *pos, int player) {
    for (int p = 0; p < pos->v->nplayers; p++)
        if (p != player && ((pos->alive >> p) & 1)) return p;
    return -1;
}

/* The player whose pieces are worth the most (plus its `worth PLAYER N`), or -1 when the
 * best is shared. */
static int worth_leader(const Position *pos) {
    const Variant *v = pos->v;
    int score[MAX_PLAYERS] = {0};
    for (int p = 0; p < v->nplayers; p++) score[p] = v->worth_bonus[p];
    for (int c = 0; c < v->ncells; c++) {
        Piece p = pos->cell[c];
        if (p && PIECE_OWNER(p) < v->nplayers) score[PIECE_OWNER(p)] += v->types[PIECE_TYPE(p)].worth;
    }
    int best = -1;
    bool shared = false;
    for (int p = 0; p < v->nplayers; p++) {
        if (!((pos->alive >> p) & 1)) continue;
        if (best < 0 || score[p] > score[best])
            best = p, shared = false;
        else if (score[p] == score[best])
            shared = true;
    }
    return shared ? -1 : best;
}

/* The player with the most pieces on the board, or -1 when the most are shared. */
static int most_pieces(const Position *pos) {
    const Variant *v = pos->v;
    int best = -1, most = -1;
    bool shared = false;
    for (int p = 0; p < v->nplayers; p++) {
        if (!((pos->alive >> p) & 1)) continue;
        int n = 0;
        for (int w = 0; w < v->cell_words; w++) n += __builtin_popcountll(pos->occ[p][w]);
        if (n > most)
            best = p, most = n, shared = false;
        else if (n == most)
            shared = true;
    }
    return shared ? -1 : best;
}

static void result_for(const Position *pos, ResultKind r, const char *reason, GameResult *out) {
    int mover = board_mover(pos);
    out->over = true;
    out->reason = reason;
    out->winner = -1;
    if (r == RESULT_LOSS && gameend_alive_count(pos) == 2)
        out->winner = other_alive(pos, mover);
    else if (r == RESULT_WIN)
        out->winner = mover;
    else if (r == RESULT_WORTH)
        out->winner = worth_leader(pos);
    else if (r == RESULT_MOST)
        out->winner = most_pieces(pos);
}

/* Passing: N passes in a row (`end pass N`), or royal pieces that still face each other after
 * a pass made while they faced (`end facing`: a pass changes nothing on the board). */
static bool ends_by_passing(const Position *pos, GameResult *out) {
    const Variant *v = pos->v;
    if (!movegen_passing_ended(pos)) return false;
    if (v->passes_end && pos->passes >= v->passes_end) {
        result_for(pos, v->on_passes, v->on_passes == RESULT_WORTH ? "worth after passing" : "passing", out);
        if (v->passes_name[0]) out->name = v->passes_name;
    } else {
        result_for(pos, v->on_facing, v->on_facing == RESULT_WORTH ? "worth after facing" : "facing royal pieces", out);
        if (v->facing_name[0]) out->name = v->facing_name;
    }
    return true;
}

/* The result r for `player` (two players): the game is over. */
static void result_for_player(const Position *pos, int player, ResultKind r, const char *reason, GameResult *out) {
    out->over = true;
    out->reason = reason;
    out->winner = r == RESULT_WIN ? player : r == RESULT_LOSS ? other_alive(pos, player) : -1;
}

/* Pieces a player has on the board (its own, not the armies it moves). */
static int pieces_of(const Position *pos, int player) {
    int n = 0;
    for (int w = 0; w < pos->v->cell_words; w++) n += __builtin_popcountll(pos->occ[player][w]);
    return n;
}

int gameend_pieces_out(const Position *pos) {
    const Variant *v = pos->v;
    if (!v->pieces_limit) return -1;
    int mover = board_mover(pos);
    if (pieces_of(pos, mover) < v->pieces_limit) return mover;
    for (int p = 0; p < v->nplayers; p++)
        if (p != mover && ((pos->alive >> p) & 1) && pieces_of(pos, p) < v->pieces_limit) return p;
    return -1;
}

/* Does the player still have a royal piece (of the army it helps, when it helps one), on the
 * board or in its hand (still to be dropped)? A player whose army started without one has
 * none to lose. */
static bool has_royal(const Position *pos, int player) {
    const Variant *v = pos->v;
    int army = pos->allegiance[player] != NO_OWNER ? pos->allegiance[player] : player;
    if (army == player && pos->controller[player] != player) return false; /* taken over */
    if (!((v->royal_owners >> army) & 1)) return true;
    for (int t = 0; t < v->ntypes; t++) {
        if (!v->types[t].royal) continue;
        if (v->has_hands && army < v->nplayers && pos->hand[army][t]) return true;
        for (int w = 0; w < v->cell_words; w++)
            if (pos->type_occ[t][w] & pos->occ[army][w]) return true;
    }
    return false;
}

int gameend_royal_lost(const Position *pos) {
    const Variant *v = pos->v;
    if (!v->has_royal) return -1;
    for (int p = 0; p < v->nplayers; p++)
        if (((pos->alive >> p) & 1) && !has_royal(pos, p)) return p;
    return -1;
}

/* The player who moved most recently before the player to move, among `candidates`. */
static int latest_mover(const Position *pos, uint32_t candidates) {
    const Variant *v = pos->v;
    for (int k = 1; k <= v->nturns; k++) {
        int p = v->turn_order[(pos->turn + v->nturns - k) % v->nturns];
        if ((candidates >> p) & 1) return p;
    }
    return -1;
}

/* Players whose pieces attack a royal piece of `player`. */
static uint32_t attackers_of(GenContext *ctx, Position *pos, int player) {
    const Variant *v = pos->v;
    uint32_t who = 0;
    for (int c = 0; c < v->ncells; c++) {
        Piece p = pos->cell[c];
        if (!p || PIECE_OWNER(p) != player || !v->types[PIECE_TYPE(p)].royal) continue;
        for (int q = 0; q < v->nplayers; q++) {
            if (q == player || !((pos->alive >> q) & 1)) continue;
            /* ask with only q's armies hostile: stand the others aside by asking per owner */
            uint8_t saved[MAX_OWNERS];
            memcpy(saved, pos->controller, sizeof saved);
            for (int o = 0; o < v->nowners; o++)
                if (pos->controller[o] != q && pos->controller[o] != player) pos->controller[o] = (uint8_t)player;
            if (attack_is_attacked(ctx, pos, (Cell)c, player, p)) who |= 1u << q;
            memcpy(pos->controller, saved, sizeof saved);
        }
    }
    return who;
}

void gameend_elimination(const Position *pos, int loser, int victor, Move *out) {
    const Variant *v = pos->v;
    memset(out, 0, sizeof *out);
    out->promo = NO_TYPE;
    out->from = out->to = 0;
    out->flags = MOVE_ELIMINATION;
    out->fx[out->nfx++] = (Effect){.kind = FX_ELIMINATE, .a = (Cell)loser};
    for (int c = 0; c < v->ncells && out->nfx < MAX_EFFECTS - MAX_OWNERS; c++) {
        Piece p = pos->cell[c];
        if (p && PIECE_OWNER(p) == loser && v->types[PIECE_TYPE(p)].royal) {
            out->fx[out->nfx++] = (Effect){.kind = FX_REMOVE, .a = (Cell)c};
            out->from = out->to = (Cell)c;
        }
    }
    for (int o = 0; o < v->nowners; o++) {
        if (pos->controller[o] != loser) continue;
        if (v->on_defeat == DEFEAT_JOIN_VICTOR && victor >= 0)
            out->fx[out->nfx++] = (Effect){.kind = FX_CONTROL, .a = (Cell)o, .b = (Cell)victor};
        else if (v->on_defeat == DEFEAT_REMOVE || victor < 0)
            out->fx[out->nfx++] = (Effect){.kind = FX_REMOVE_ARMY, .a = (Cell)o};
    }
}

/* Does one side's material match a group exactly (piece counts by type)? */
static bool side_matches(const Position *pos, int owner, const uint8_t *want) {
    const Variant *v = pos->v;
    for (int t = 0; t < v->ntypes; t++) {
        int n = 0;
        for (int w = 0; w < pos->v->cell_words; w++)
            n += __builtin_popcountll(pos->type_occ[t][w] & pos->occ[owner][w]);
        if (n != want[t]) return false;
    }
    return true;
}

static bool one_colour(const Position *pos) {
    const Variant *v = pos->v;
    int seen = -1;
    for (int c = 0; c < v->ncells; c++) {
        Piece p = pos->cell[c];
        if (!p || v->types[PIECE_TYPE(p)].royal) continue;
        if (seen >= 0 && seen != v->colour[c]) return false;
        seen = v->colour[c];
    }
    return true;
}

/* Has the player more than k pieces on the board? (Without counting them all.) */
static bool more_pieces_than(const Position *pos, int player, int k) {
    for (int w = 0; w < pos->v->cell_words; w++)
        for (uint64_t b = pos->occ[player][w]; b; b &= b - 1)
            if (k-- == 0) return true;
    return false;
}

static bool dead_material(const Position *pos) {
    const Variant *v = pos->v;
    /* material rules speak of two sides: they apply once two players are left */
    unsigned others = pos->alive & (pos->alive - 1u); /* (the players but the first) */
    if (!others || (others & (others - 1u))) return false;
    int a = other_alive(pos, -1), b = other_alive(pos, a);
    /* players who help armies: the armies' material decides */
    if (pos->allegiance[a] != NO_OWNER) a = pos->allegiance[a];
    if (pos->allegiance[b] != NO_OWNER) b = pos->allegiance[b];
    /* (the sides' piece totals rule out most rules before their types are counted; most
     * positions have more pieces than any rule names, and need no count) */
    if (more_pieces_than(pos, a, v->material_most) || more_pieces_than(pos, b, v->material_most)) return false;
    int na = pieces_of(pos, a), nb = pieces_of(pos, b);
    for (int i = 0; i < v->nmaterial; i++) {
        const MaterialRule *r = &v->material[i];
        if (!((na == r->total_a && nb == r->total_b) || (na == r->total_b && nb == r->total_a))) continue;
        bool match = (side_matches(pos, a, r->a) && side_matches(pos, b, r->b)) ||
            (side_matches(pos, a, r->b) && side_matches(pos, b, r->a));
        if (match && (!r->same_colour || one_colour(pos))) return true;
    }
    return false;
}

/* The endings decided before the moves are looked at: a royal piece taken, the last player
 * standing, every pile of a kind empty, the position's own endings (ending.c). True when one of them applies (out filled). */
static bool ends_before_moves(GenContext *ctx, Position *pos, GameResult *out) {
    const Variant *v = pos->v;
    if (v->nplayers > 2) {
        int lost = gameend_royal_lost(pos);
        if (lost >= 0 && gameend_alive_count(pos) > 2) {
            /* an exposed king was captured: its owner is out, the capturer is the victor */
            out->eliminated = lost;
            out->victor = latest_mover(pos, pos->alive & ~(1u << lost));
            out->reason = "royal captured";
            return true;
        }
        if (gameend_alive_count(pos) == 1) {
            out->over = true;
            out->winner = other_alive(pos, -1);
            out->reason = "last player standing";
            return true;
        }
    }
    if (v->empty_pile && !pos->debt && pos->phase == 0 && pos->phase_moves == 0 && pos->prelude >= v->nprelude) {
        /* every pile of that kind empty at the start of a turn */
        const PileDef *p = &v->piles[v->empty_pile - 1];
        bool empty = true;
        for (int k = 0; k < (p->per_player ? v->nplayers : 1); k++) empty = empty && !pos->pile_len[p->slot + k];
        if (empty) {
            result_for(pos, v->on_empty, "piles empty", out);
            if (v->end_name[2][0]) out->name = v->end_name[2];
            return true;
        }
    }
    Ending e;
    if (v->decided_by_position && ending_decided(ctx, pos, &e)) {
        out->over = true;
        out->reason = e.reason;
        out->name = e.name;
        out->winner = e.result == RESULT_WIN ? e.player
            : e.result == RESULT_LOSS        ? other_alive(pos, e.player)
            : e.result == RESULT_MOST        ? most_pieces(pos)
                                             : -1;
        return true;
    }
    if (v->nplayers == 2 && v->has_royal) {
        /* an exposed royal piece was captured (two players: the capturer wins) */
        int lost = gameend_royal_lost(pos);
        if (lost >= 0) {
            /* the capturer wins, unless the rule file says what losing it means */
            ResultKind r = v->on_royal_captured != RESULT_NONE ? v->on_royal_captured : RESULT_LOSS;
            result_for_player(pos, lost, r, "royal captured", out);
            if (v->royal_name[0]) out->name = v->royal_name;
            return true;
        }
    }
    int few = gameend_pieces_out(pos);
    if (few >= 0) {
        result_for_player(pos, few, v->on_pieces, v->pieces_limit == 1 ? "all pieces lost" : "pieces left", out);
        if (v->pieces_name[0]) out->name = v->pieces_name;
        return true;
    }
    return false;
}

/* no-mate-drop: was the last move a drop of such a type (a piece of it came from its owner's
 * hand onto the last cell moved to)? */
static bool mated_by_drop(const Position *pos) {
    Cell c = pos->last_to;
    if (pos->ply == 0 || c == NO_CELL || c != pos->last_from || !pos->cell[c]) return false;
    int t = PIECE_TYPE(pos->cell[c]), o = PIECE_OWNER(pos->cell[c]);
    return pos->v->types[t].drop_no_mate && o < pos->v->nplayers &&
        pos->history[pos->ply - 1].hands.hand[o][t] == pos->hand[o][t] + 1;
}

/* The player to move has no legal move: a must-capture piece nobody can take, checkmate (an
 * elimination with more than two players left) or stalemate. */
static void ends_without_moves(GenContext *ctx, Position *pos, bool check, GameResult *out) {
    const Variant *v = pos->v;
    int mover = board_mover(pos);
    const ReachRule *reply = ending_reply_due(pos);
    if (reply) {
        /* no answer reaches the zone too: the side that reached it has won */
        result_for(pos,
                   reply->result == RESULT_WIN        ? RESULT_LOSS
                       : reply->result == RESULT_LOSS ? RESULT_WIN
                                                      : RESULT_DRAW,
                   "zone reached", out);
        out->name = reply->name[0] ? reply->name : NULL;
        return;
    }
    Cell forced[MAX_FORCED];
    if (movegen_forced(pos, forced)) {
        /* the rule's result, whether in check or not */
        const ForcedCapture *fc = NULL;
        for (int r = 0; r < v->nforced; r++)
            if (PIECE_TYPE(pos->cell[forced[0]]) == v->forced[r].type) fc = &v->forced[r];
        result_for(pos, fc ? fc->result : RESULT_LOSS, "must-capture", out);
        if (fc && fc->name[0]) out->name = fc->name;
        return;
    }
    if (check && v->on_checkmate == RESULT_LOSS && gameend_alive_count(pos) > 2) {
        out->eliminated = mover;
        out->victor = latest_mover(pos, attackers_of(ctx, pos, mover));
        out->reason = "checkmate";
        return;
    }
    if (check && unlikely(v->drop_no_mate) && mated_by_drop(pos)) {
        /* the foul loses for the player who dropped */
        result_for(pos, RESULT_WIN, "a forbidden checkmating drop", out);
        return;
    }
    if (check)
        result_for(pos, v->on_checkmate, "checkmate", out);
    else if (v->stalemate_few_limit[mover] && pieces_of(pos, mover) < v->stalemate_few_limit[mover]) {
        result_for(pos, v->on_stalemate_few[mover], "stalemate", out);
        if (v->stalemate_few_name[mover][0]) out->name = v->stalemate_few_name[mover];
        return;
    } else if (v->stalemate_fewer) {
        /* the stalemate's result goes to the player with fewer pieces; equal numbers draw */
        int mine = pieces_of(pos, mover), theirs = pieces_of(pos, other_alive(pos, mover));
        ResultKind r = v->on_stalemate;
        ResultKind other = r == RESULT_WIN ? RESULT_LOSS : r == RESULT_LOSS ? RESULT_WIN : r;
        result_for(pos, mine == theirs ? RESULT_DRAW : mine < theirs ? r : other, "stalemate", out);
    } else
        result_for(pos, v->on_stalemate_of[mover] != RESULT_NONE ? v->on_stalemate_of[mover] : v->on_stalemate,
                   "stalemate", out);
    if (v->end_name[check ? 0 : 1][0]) out->name = v->end_name[check ? 0 : 1];
}

const char *gameend_count_name(const Position *pos) {
    /* a side down to a single piece: the count is the pieces' honour (a capture that left it
     * so started it again), else the board's */
    bool bare = pieces_of(pos, 0) == 1 || pieces_of(pos, 1) == 1;
    return bare ? "counting (pieces' honour)" : "counting (board's honour)";
}

/* The endings that count: a count run out (`end counting`), the n-move rule, repetition,
 * dead material. */
static void ends_by_count(const Position *pos, GameResult *out) {
    const Variant *v = pos->v;
    if (gameend_count_out(pos)) {
        result_for(pos, v->counting.result, gameend_count_name(pos), out);
        if (v->counting.name[0]) out->name = v->counting.name;
        return;
    }
    if (v->nmove && pos->halfmove >= v->nmove * (v->nplayers > 2 ? gameend_alive_count(pos) : v->nturns)) {
        result_for(pos, v->on_nmove, "n-move rule", out);
        if (v->nmove_name[0]) out->name = v->nmove_name;
        return;
    }
    if (v->repetition && gameend_repetitions(pos) + 1 >= v->repetition) {
        result_for(pos, v->on_repetition, "repetition", out);
        if (v->repetition_name[0]) out->name = v->repetition_name;
        return;
    }
    if (v->nmaterial && dead_material(pos)) {
        result_for(pos, v->on_material, "material", out);
        if (v->material_name[0]) out->name = v->material_name;
    }
}

/* `end blocked`: the player to move can only pass, and after its pass so can the other. */
static bool both_blocked(GenContext *ctx, Position *pos) {
    MoveList *ml = malloc(sizeof *ml);
    if (!ml) return false;
    VmFault f = {0};
    bool blocked = movegen_legal(ctx, pos, ml, &f) && ml->count == 1 && (ml->moves[0].flags & MOVE_PASS);
    if (blocked && board_make(pos, &ml->moves[0])) {
        blocked = movegen_legal(ctx, pos, ml, &f) && ml->count == 1 && (ml->moves[0].flags & MOVE_PASS);
        board_unmake(pos);
    }
    attack_take_fault(ctx, &f);
    free(ml);
    return blocked;
}

/* The blocked ending: the player with more pieces gets the rule's result, equal counts draw. */
static void ends_blocked(const Position *pos, GameResult *out) {
    const Variant *v = pos->v;
    int mover = board_mover(pos), count[2] = {0, 0};
    for (int p = 0; p < 2; p++)
        for (int w = 0; w < v->cell_words; w++) count[p] += __builtin_popcountll(pos->occ[p][w]);
    ResultKind r = v->on_blocked;
    if (count[mover] == count[1 - mover])
        r = RESULT_DRAW;
    else if (count[mover] < count[1 - mover])
        r = r == RESULT_WIN ? RESULT_LOSS : r == RESULT_LOSS ? RESULT_WIN : r;
    result_for(pos, r, "piece count", out);
    if (v->blocked_name[0]) out->name = v->blocked_name;
}

void gameend_check(GenContext *ctx, Position *pos, GameResult *out) { gameend_check_counted(ctx, pos, -1, out); }

void gameend_check_counted(GenContext *ctx, Position *pos, int legal, GameResult *out) {
    /* (field by field: a fault's message is read only when it is set, and zeroing it every
     * ply showed in random playouts) */
    out->over = false;
    out->reason = out->name = NULL;
    out->winner = out->eliminated = out->victor = -1;
    out->fault.set = false;
    if (ends_before_moves(ctx, pos, out)) return;
    if (unlikely(pos->v->pass_move) && ends_by_passing(pos, out)) return;
    VmFault f;
    f.set = false;
    if (legal < 0) {
        f = (VmFault){0};
        legal = movegen_count_legal(ctx, pos, &f);
    }
    bool check = legal == 0 && pos->v->has_royal && !movegen_safe_after(ctx, pos, board_mover(pos));
    attack_take_fault(ctx, &f);
    if (f.set) {
        out->fault = f;
        return;
    }
    if (legal == 0)
        ends_without_moves(ctx, pos, check, out);
    else if (legal == 1 && pos->v->on_blocked && both_blocked(ctx, pos))
        ends_blocked(pos, out);
    else
        ends_by_count(pos, out);
}

int gameend_settle(GenContext *ctx, Position *pos, GameResult *out, Move *played, int cap, GameDefeatFn on_defeat,
                   void *user) {
    int n = 0;
    gameend_check(ctx, pos, out);
    /* each defeat removes a player: at most nplayers rounds */
    for (int round = 0; round < MAX_PLAYERS && !out->over && out->eliminated >= 0; round++) {
        Move m;
        if (on_defeat) on_defeat(out, user);
        gameend_elimination(pos, out->eliminated, out->victor, &m);
        if (!board_make(pos, &m)) break;
        if (played && n < cap) played[n] = m;
        n++;
        gameend_check(ctx, pos, out);
    }
    return n;
}

void gameend_sides(const Position *pos, const GameResult *r, int *winner, int *loser) {
    *winner = r->over ? r->winner : -1;
    *loser = -1;
    if (!r->over || r->winner >= 0 || pos->v->nplayers <= 2) return;
    ResultKind k = !strcmp(r->reason, "checkmate") ? pos->v->on_checkmate
        : !strcmp(r->reason, "stalemate")          ? pos->v->on_stalemate
                                                   : RESULT_DRAW;
    if (k == RESULT_LOSS)
        *loser = board_mover(pos);
    else if (k == RESULT_WIN)
        *winner = board_mover(pos);
}
