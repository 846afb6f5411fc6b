/* variant.c - the variant's data once loaded: the tables concluded from the checked and
 * compiled rule file (neighbour table, forward directions, Zobrist keys) and the queries on it. */
#include "variant.h"

#include <stdlib.h>
#include <string.h>

/* The rule file's names are checked against MAX_NAME (and tokens, symbols against theirs) so
 * that they fit these buffers whole; a cell name is a board name, ':', and up to 4 more. */
_Static_assert(sizeof((Board *)0)->name > MAX_NAME, "a board name fits");
_Static_assert(sizeof((CellInfo *)0)->name > MAX_NAME + 5, "a cell name fits");
_Static_assert(sizeof((Direction *)0)->name > MAX_NAME, "a direction name fits");
_Static_assert(sizeof((PieceType *)0)->name > MAX_NAME, "a piece name fits");
_Static_assert(sizeof((PieceType *)0)->symbol[0] > MAX_SYMBOL, "a symbol fits");
_Static_assert(sizeof((Zone *)0)->name > MAX_NAME, "a zone name fits");
_Static_assert(sizeof((OptionDef *)0)->name > MAX_NAME, "an option name fits");
_Static_assert(sizeof((OptionDef *)0)->values[0] > MAX_NAME, "an option value fits");
_Static_assert(sizeof((Variant *)0)->player_names[0] > MAX_NAME, "a player name fits");
_Static_assert(sizeof((Variant *)0)->player_token[0] > MAX_TOKEN, "a player token fits");

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void build_neighbours(Variant *v) {
    v->neighbour = xcalloc((size_t)(v->ncells ? v->ncells : 1) * (size_t)(v->ndirs ? v->ndirs : 1), sizeof(Cell));
    for (int c = 0; c < v->ncells; c++) {
        const CellInfo *ci = &v->cells[c];
        for (int d = 0; d < v->ndirs; d++) {
            const Direction *dir = &v->dirs[d];
            Cell to = NO_CELL;
            if (ci->holding) {
                /* (no step leads off a holding cell but the links that name it) */
            } else if (dir->link_board >= 0) {
                if (dir->dx == ci->board) {
                    const Board *b = &v->boards[dir->link_board];
                    if (ci->x < b->width && ci->y < b->height) to = b->at[ci->y][ci->x];
                }
            } else if (dir->graph) {
                /* (filled from the links below) */
            } else {
                const Board *b = &v->boards[ci->board];
                int x = ci->x + dir->dx, y = ci->y + dir->dy;
                if (x >= 0 && y >= 0 && x < b->width && y < b->height) to = b->at[y][x];
            }
            v->neighbour[(size_t)c * (size_t)v->ndirs + (size_t)d] = to;
        }
    }
    for (int i = 0; i < v->nlinks; i++)
        v->neighbour[(size_t)v->links[i].from * (size_t)v->ndirs + v->links[i].dir] = v->links[i].to;
}

static void build_zobrist(Variant *v) {
    uint64_t seed = 0x5641524941ULL; /* fixed: keys (and so search) are reproducible */
    size_t kinds = (size_t)(v->ntypes ? v->ntypes : 1) * (size_t)v->nowners;
    v->zobrist_piece = xmalloc((size_t)(v->ncells ? v->ncells : 1) * kinds * sizeof(uint64_t));
    for (size_t i = 0; i < (size_t)v->ncells * kinds; i++) v->zobrist_piece[i] = splitmix(&seed);
    for (size_t i = 0; i < ARRAY_LEN(v->zobrist_side); i++) v->zobrist_side[i] = splitmix(&seed);
    for (size_t i = 0; i < ARRAY_LEN(v->zobrist_ep); i++) v->zobrist_ep[i] = splitmix(&seed);
    for (size_t i = 0; i < ARRAY_LEN(v->zobrist_rights); i++) v->zobrist_rights[i] = splitmix(&seed);
    for (size_t i = 0; i < ARRAY_LEN(v->zobrist_out); i++) v->zobrist_out[i] = splitmix(&seed);
    for (size_t i = 0; i < MAX_OWNERS; i++)
        for (size_t k = 0; k < MAX_OWNERS; k++) v->zobrist_control[i][k] = splitmix(&seed);
    for (size_t i = 0; i < MAX_PLAYERS; i++)
        for (size_t k = 0; k < MAX_OWNERS; k++) v->zobrist_allegiance[i][k] = splitmix(&seed);
}

/* The owner's forward direction: the vector (0,1) turned by its orientation, when the
 * variant has it. */
static void find_forward_dirs(Variant *v) {
    for (int o = 0; o < MAX_OWNERS; o++) {
        int fx, fy;
        variant_orient_vector(v->orient[o], 0, 1, &fx, &fy);
        v->forward_dir[o] = -1;
        for (int d = 0; d < v->ndirs && v->forward_dir[o] < 0; d++)
            if (v->dirs[d].link_board < 0 && v->dirs[d].dx == fx && v->dirs[d].dy == fy) v->forward_dir[o] = (int8_t)d;
    }
}

/* The cells each type could never move from: none of its first steps stays on the board. */
static void find_stuck_cells(Variant *v) {
    for (int t = 0; t < v->ntypes; t++) {
        PieceType *pt = &v->types[t];
        if (pt->always_mobile) continue;
        for (int o = 0; o < v->nowners; o++)
            for (int c = 0; c < v->ncells; c++) {
                bool exit = false;
                for (int d = 0; d < v->ndirs && !exit; d++)
                    exit = ((pt->exit_dirs[o] >> d) & 1) && variant_step(v, (Cell)c, d) != NO_CELL;
                if (!exit) pt->stuck[o][c >> 6] |= 1ULL << (c & 63);
            }
        /* never-stuck: nor is it dropped where it could never move */
        for (int o = 0; pt->never_stuck && o < v->nowners; o++)
            for (int w = 0; w < CELL_WORDS; w++) pt->drop_cells[o][w] &= ~pt->stuck[o][w];
    }
}

static bool pattern_has_reach(const CapturePattern *cp) {
    return cp->method == CAP_LEGS || cp->method == CAP_STEPS || cp->method == CAP_HOP || cp->method == CAP_SLIDES;
}

static inline bool in_zone_or_any(const Variant *v, int zone, int owner, Cell c) {
    return !zone || zone_has(&v->zones[zone - 1], owner, c);
}

/* The cells a pattern's mover could capture on c from, on an empty board, into reach. */
static void find_reach(const Variant *v, const CapturePattern *cp, int owner, Cell c, uint64_t *reach) {
    if (!in_zone_or_any(v, cp->to_zone, owner, c) || !in_zone_or_any(v, cp->path_zone, owner, c)) return;
    int per_move = cp->method == CAP_LEGS ? cp->nlegs : 1;
    for (int m = 0; per_move && m + per_move <= cp->ndirs; m += per_move) {
        Cell s = c;
        for (int k = 1; s != NO_CELL; k++) {
            int back = v->dirs[cp->dirs[cp->method == CAP_LEGS ? m + per_move - k : m]].reverse;
            if (back < 0) break;
            s = variant_step(v, s, back);
            if (s == NO_CELL) break;
            if (cp->method == CAP_HOP) {
                /* the hopper stands two cells back or further (next to the screen when near);
                 * every cell before it is in the path zone */
                if (k >= 2 && in_zone_or_any(v, cp->from_zone, owner, s)) reach[s >> 6] |= 1ULL << (s & 63);
                if ((cp->near && k >= 2) || !in_zone_or_any(v, cp->path_zone, owner, s)) break;
                continue;
            }
            if (cp->method == CAP_SLIDES) {
                /* the slider stands up to range cells back, the cells between in the path zone */
                if (in_zone_or_any(v, cp->from_zone, owner, s)) reach[s >> 6] |= 1ULL << (s & 63);
                if ((cp->range && k >= cp->range) || !in_zone_or_any(v, cp->path_zone, owner, s)) break;
                continue;
            }
            if (k < per_move) continue;
            if (in_zone_or_any(v, cp->from_zone, owner, s)) reach[s >> 6] |= 1ULL << (s & 63);
            break;
        }
    }
}

static void build_pattern_reach(Variant *v) {
    size_t blocks = 0, block = (size_t)v->ncells * (size_t)v->cell_words;
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners; o++)
            for (int i = 0; i < v->types[t].per_owner[o].npatterns; i++)
                blocks += pattern_has_reach(&v->types[t].per_owner[o].patterns[i]);
    if (!blocks || blocks >= 0xFFFF) return;
    v->pattern_reach = xcalloc(blocks * block, sizeof(uint64_t));
    uint16_t n = 0;
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners; o++)
            for (int i = 0; i < v->types[t].per_owner[o].npatterns; i++) {
                CapturePattern *cp = &v->types[t].per_owner[o].patterns[i];
                if (!pattern_has_reach(cp)) continue;
                cp->reach = ++n;
                for (int c = 0; c < v->ncells; c++)
                    find_reach(v, cp, o, (Cell)c,
                               v->pattern_reach + (size_t)(n - 1) * block + (size_t)c * (size_t)v->cell_words);
            }
}

/* Marks cell c in seen; true when it was marked already. */
static bool mark_seen(uint64_t *seen, Cell c) {
    uint64_t bit = 1ULL << (c & 63);
    bool was = seen[c >> 6] & bit;
    seen[c >> 6] |= bit;
    return was;
}

/* Can two of a piece's paths (rays, steps, legs) end on one cell from some cell? (Its en
 * passant captures remove a piece besides: they never equal another path's move.) */
static bool paths_meet(const Variant *v, const PieceProgram *pp) {
    for (int from = 0; from < v->ncells; from++) {
        uint64_t seen[CELL_WORDS] = {0};
        for (int i = 0; i < pp->ngen; i++) {
            const Ray *r = &pp->gen[i];
            Cell c = (Cell)from;
            for (int k = 0; (!r->range || k < r->range) && k < v->ncells; k++) {
                c = variant_step(v, c, r->dir);
                if (c == NO_CELL) break;
                if (mark_seen(seen, c)) return true;
                if (!r->slide) break;
            }
        }
        for (int a = 0; a < pp->natoms; a++) {
            const FastAtom *fa = &pp->atoms[a];
            if (fa->kind == FAST_EN_PASSANT) continue;
            if (fa->kind == FAST_LEGS || fa->kind == FAST_PRIVILEGE || fa->kind == FAST_PRIVILEGE_UNATTACKED) {
                Cell c = (Cell)from;
                for (int k = 0; k < fa->ndirs && c != NO_CELL; k++) c = variant_step(v, c, fa->dirs[k]);
                if (c != NO_CELL && mark_seen(seen, c)) return true;
                continue;
            }
            for (int k = 0; k < fa->ndirs; k++) {
                Cell c = variant_step(v, (Cell)from, fa->dirs[k]);
                if (c != NO_CELL && mark_seen(seen, c)) return true;
            }
        }
    }
    return false;
}

/* Marks cell c as a path's end in seen[0] (the paths that may move there) and seen[1] (those
 * that may capture there), by the path's mode; true when one it is marked in had it already. */
static bool mark_end(uint64_t seen[2][CELL_WORDS], Cell c, int mode) {
    bool was = false;
    if (mode != RAY_CAPTURE) was |= mark_seen(seen[0], c);
    if (mode != RAY_MOVE) was |= mark_seen(seen[1], c);
    return was;
}

/* paths_meet for a piece whose moves are its rays and line moves (LineMove) alone: can two of
 * them end on one cell from some cell, both moving or both capturing there? (One that only
 * moves and one that only captures never make the same move.) Zones, screens and victims are
 * not looked at: every cell a path could end on counts. */
static bool line_paths_meet(const Variant *v, const PieceProgram *pp) {
    for (int from = 0; from < v->ncells; from++) {
        uint64_t seen[2][CELL_WORDS] = {{0}};
        for (int i = 0; i < pp->ngen; i++) {
            const Ray *r = &pp->gen[i];
            Cell c = (Cell)from;
            for (int k = 0; (!r->range || k < r->range) && k < v->ncells; k++) {
                c = variant_step(v, c, r->dir);
                if (c == NO_CELL) break;
                if (mark_end(seen, c, r->mode)) return true;
                if (!r->slide) break;
            }
        }
        for (int i = 0; i < pp->nlines; i++) {
            const LineMove *l = &pp->lines[i];
            Cell c = (Cell)from;
            int last = l->nlegs - 1;
            for (int k = 0; k < last && c != NO_CELL; k++) c = variant_step(v, c, l->dirs[k]);
            /* (the last leg: a hop lands past its screen, the first cell at the nearest) */
            int first = l->hop ? 2 : 1;
            for (int k = 1; c != NO_CELL && k <= v->ncells && (!l->range || k < first + l->range); k++) {
                c = variant_step(v, c, l->dirs[last]);
                if (c != NO_CELL && k >= first && mark_end(seen, c, l->mode)) return true;
            }
        }
    }
    return false;
}

/* The compiler marks a piece with legs or move blocks as one whose moves may come twice
 * (PieceProgram.may_duplicate: they are merged as they are made). When all its moves are rays
 * and atoms in C, or rays and line moves, whose paths never end on one cell, none can: the
 * merge and its cost go (and its moves may be counted by cell sets, PieceProgram.bits). */
static void find_single_paths(Variant *v) {
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners; o++) {
            PieceProgram *pp = &v->types[t].per_owner[o];
            /* (a piece with privileged atoms keeps the merge: perft's count takes it the way
             * that generates its moves, where the privileges are looked at) */
            if (!pp->may_duplicate || pp->privileged_atoms) continue;
            if (pp->rest_in_c && !pp->nlines && !paths_meet(v, pp)) pp->may_duplicate = false;
            /* (line moves and a rest program of its HALT alone) */
            if (pp->nlines && !pp->rest_in_c && !pp->atoms_then_vm && pp->rest.count == 1 && !pp->natoms &&
                !pp->has_chain && !line_paths_meet(v, pp))
                pp->may_duplicate = false;
        }
}

static void build_line_cells(Variant *v) {
    if (!v->attack_lines_ok || !v->ndirs) return;
    size_t words = (size_t)v->cell_words;
    v->line_cells = xcalloc((size_t)v->ncells * (size_t)v->ndirs * words, sizeof(uint64_t));
    for (int c = 0; c < v->ncells; c++)
        for (int d = 0; d < v->ndirs; d++) {
            uint64_t *line = v->line_cells + ((size_t)c * (size_t)v->ndirs + (size_t)d) * words;
            /* (a line that comes back on itself stops where it closes) */
            for (Cell s = variant_step(v, (Cell)c, d); s != NO_CELL && !((line[s >> 6] >> (s & 63)) & 1);
                 s = variant_step(v, s, d))
                line[s >> 6] |= 1ULL << (s & 63);
        }
}

static void build_adjacent_cells(Variant *v) {
    if (!v->freezer_mask) return;
    size_t words = (size_t)v->cell_words;
    v->adjacent_cells = xcalloc((size_t)v->ncells * words, sizeof(uint64_t));
    for (int c = 0; c < v->ncells; c++)
        for (int i = 0; i < v->nadjacent; i++) {
            Cell e = variant_step(v, (Cell)c, v->adjacent_dirs[i]);
            if (e != NO_CELL) v->adjacent_cells[(size_t)c * words + (e >> 6)] |= 1ULL << (e & 63);
        }
}

static void build_custodian_cells(Variant *v) {
    bool custodian = false;
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners; o++) {
            const Program *p = &v->types[t].per_owner[o].rest;
            for (int i = 0; i < p->nplan; i++) custodian |= p->plan[i].pincer != 0xFF || p->plan[i].land_pincer != 0xFF;
        }
    if (!custodian) return;
    size_t words = (size_t)v->cell_words;
    v->custodian_cells = xcalloc((size_t)v->ncells * 2 * words, sizeof(uint64_t));
    for (int c = 0; c < v->ncells; c++)
        for (int i = 0; i < 4; i++) {
            uint64_t *cells = v->custodian_cells + (size_t)c * 2 * words;
            Cell e = variant_step(v, (Cell)c, v->orth_dirs[i]);
            Cell f = e != NO_CELL ? variant_step(v, e, v->orth_dirs[i]) : NO_CELL;
            if (e != NO_CELL) cells[e >> 6] |= 1ULL << (e & 63);
            if (f != NO_CELL) cells[words + (f >> 6)] |= 1ULL << (f & 63);
        }
}

static void build_line_refs(Variant *v) {
    /* (variant_free frees the block by its first list: a game without types has none) */
    if (!v->attack_lines_ok || !v->ntypes || !v->nowners) return;
    int most = 1;
    for (int o = 0; o < v->nowners; o++) most = v->nattack_lines[o] > most ? v->nattack_lines[o] : most;
    LineRef *block = xcalloc((size_t)v->nowners * (size_t)v->ntypes * (size_t)most, sizeof(LineRef));
    size_t words = (size_t)v->cell_words;
    v->leap_cells = xcalloc((size_t)v->nowners * (size_t)v->ncells * words, sizeof(uint64_t));
    for (int o = 0; o < v->nowners; o++)
        for (int t = 0; t < v->ntypes; t++) {
            LineRef *refs = v->line_refs[o][t] = block + ((size_t)o * (size_t)v->ntypes + (size_t)t) * (size_t)most;
            for (int slides = 1; slides >= 0; slides--)
                for (int k = 0; k < v->nattack_lines[o]; k++) {
                    const AttackLine *l = &v->attack_lines[o][k];
                    int back = v->dirs[l->dir].reverse;
                    if (!(l->leapers[t] | l->sliders[t]) || back < 0 || (l->sliders[t] != 0) != slides) continue;
                    refs[v->nline_refs[o][t]++] = (LineRef){
                        .back = (uint8_t)back, .types = l->leapers[t] | l->sliders[t], .sliders = l->sliders[t]};
                    v->nline_slides[o][t] += slides;
                    if (!slides) v->leap_types[o][t] |= l->leapers[t];
                    for (int c = 0; c < v->ncells && !slides; c++) {
                        Cell s = variant_step(v, (Cell)c, back);
                        if (s != NO_CELL)
                            v->leap_cells[((size_t)o * (size_t)v->ncells + (size_t)c) * words + (s >> 6)] |= 1ULL
                                << (s & 63);
                    }
                }
            for (int k = v->nline_slides[o][t] - 1; k >= 0; k--) {
                bool same = k + 1 < v->nline_slides[o][t] && refs[k + 1].sliders == refs[k].sliders;
                refs[k].run_end = (uint8_t)(same ? refs[k + 1].run_end : k + 1);
            }
        }
}

/* Variant.leap_from: one block per owner and royal victim type, a table per attacking type. */
static void build_leap_from(Variant *v) {
    if (!v->pin_legal || v->cell_words != 1) return;
    size_t ncells = (size_t)v->ncells;
    for (int o = 0; o < v->nowners; o++)
        for (uint32_t victims = v->royal_types; victims; victims &= victims - 1) {
            int vt = __builtin_ctz(victims);
            uint64_t *from = v->leap_from[o][vt] = xcalloc((size_t)v->ntypes * ncells, sizeof(uint64_t));
            for (int k = 0; k < v->nattack_lines[o]; k++) {
                const AttackLine *l = &v->attack_lines[o][k];
                int back = v->dirs[l->dir].reverse;
                if (back < 0) continue;
                v->leap_from_types[o][vt] |= l->leapers[vt];
                for (uint32_t types = l->leapers[vt]; types; types &= types - 1)
                    for (int c = 0; c < v->ncells; c++) {
                        Cell s = variant_step(v, (Cell)c, back);
                        /* (a step back onto c itself meets the victim: no capture) */
                        if (s != NO_CELL && s != c)
                            from[(size_t)__builtin_ctz(types) * ncells + (size_t)c] |= 1ULL << s;
                    }
            }
        }
}

/* Variant.move_reach. */
static void build_move_reach(Variant *v) {
    /* (a privilege can be lost with no cell of its piece changing: its moves are counted anew) */
    if (!v->bulk_count || v->cell_words != 1 || v->freezer_mask || v->privilege_types) return;
    for (int i = 1; i < v->npromos; i++)
        if (v->promos[i].lost_only) return;
    size_t ncells = (size_t)v->ncells;
    v->move_reach = xcalloc((size_t)v->nowners * (size_t)v->ntypes * ncells, sizeof(uint64_t));
    for (int o = 0; o < v->nowners; o++)
        for (int t = 0; t < v->ntypes; t++) {
            const PieceProgram *pp = &v->types[t].per_owner[o];
            for (int from = 0; from < v->ncells; from++) {
                uint64_t reach = 1ULL << from;
                for (int i = 0; i < pp->ngen; i++) {
                    const Ray *r = &pp->gen[i];
                    Cell c = (Cell)from;
                    for (int k = 0; !r->range || k < r->range; k++) {
                        c = variant_step(v, c, r->dir);
                        if (c == NO_CELL || ((reach >> c) & 1)) break;
                        reach |= 1ULL << c;
                        if (!r->slide) break;
                    }
                }
                for (int a = 0; a < pp->natoms; a++) {
                    const FastAtom *fa = &pp->atoms[a];
                    bool legs = fa->kind == FAST_LEGS;
                    Cell c = (Cell)from;
                    for (int k = 0; k < fa->ndirs; k++) {
                        Cell s = variant_step(v, legs ? c : (Cell)from, fa->dirs[k]);
                        if (s == NO_CELL) {
                            if (legs) break;
                            continue;
                        }
                        reach |= 1ULL << s;
                        c = s;
                    }
                }
                v->move_reach[((size_t)o * (size_t)v->ntypes + (size_t)t) * ncells + (size_t)from] = reach;
            }
        }
}

/* Does code[at] hold op (the whole instruction within count bytes)? */
static bool code_has(const Program *p, int at, Opcode op) {
    return at >= 0 && at < p->count && p->code[at] == op && at + bc_instr_size(op) <= p->count;
}

/* PieceProgram.rest_guards: the top level of rest is a chain of branches (each a FORK to the
 * next but the last); each must start `GOTO c ISORIGIN VERIFY`, perhaps then `RIGHT r VERIFY`. */
static void find_rest_guards(PieceProgram *pp) {
    const Program *p = &pp->rest;
    RestGuard guards[MAX_REST_GUARDS];
    int n = 0;
    for (int pc = 0; !code_has(p, pc, OP_HALT);) {
        int body = pc, next = -1;
        if (code_has(p, pc, OP_FORK)) {
            next = bc_operands(p->code, pc).a;
            body = pc + bc_instr_size(OP_FORK);
        }
        int origin = body + bc_instr_size(OP_GOTO), verify = origin + bc_instr_size(OP_ISORIGIN);
        if (n == MAX_REST_GUARDS || next == pc || !code_has(p, body, OP_GOTO) || !code_has(p, origin, OP_ISORIGIN) ||
            !code_has(p, verify, OP_VERIFY))
            return;
        guards[n] = (RestGuard){.at = (Cell)bc_operands(p->code, body).a, .rights = 0};
        int right = verify + bc_instr_size(OP_VERIFY);
        if (code_has(p, right, OP_RIGHT) && code_has(p, right + bc_instr_size(OP_RIGHT), OP_VERIFY) &&
            bc_operands(p->code, right).a < 32)
            guards[n].rights = 1u << bc_operands(p->code, right).a;
        n++;
        if (next < 0) break;
        pc = next;
    }
    for (int i = 0; i < n; i++) pp->rest_guards[i] = guards[i];
    pp->nrest_guards = n;
}

/* One branch of PieceProgram.castle_branches from body on, ending with the HALT at end (the
 * next branch's code, or the program's last HALT); false when it does more than castle:
 * `GOTO c ISORIGIN VERIFY [RIGHT r VERIFY] (GOTO x EMPTY VERIFY)* (GOTO x | CASCADE x)*
 * CASTLED k ADD 0 HALT`, or `RIGHT r VERIFY FREECASTLE k CASTLED k ADD 0 HALT`. */
static bool castle_branch_at(const Variant *v, const Program *p, int pc, int end, CastleBranch *cb) {
    *cb = (CastleBranch){.at = NO_CELL, .free_castle = -1};
    int size = bc_instr_size(OP_VERIFY);
    bool fixed = code_has(p, pc, OP_GOTO);
    if (fixed) {
        cb->at = (Cell)bc_operands(p->code, pc).a;
        pc += bc_instr_size(OP_GOTO);
        if (!code_has(p, pc, OP_ISORIGIN) || !code_has(p, pc + bc_instr_size(OP_ISORIGIN), OP_VERIFY)) return false;
        pc += bc_instr_size(OP_ISORIGIN) + size;
    }
    if (code_has(p, pc, OP_RIGHT) && code_has(p, pc + bc_instr_size(OP_RIGHT), OP_VERIFY)) {
        if (bc_operands(p->code, pc).a >= 32) return false;
        cb->rights = 1u << bc_operands(p->code, pc).a;
        pc += bc_instr_size(OP_RIGHT) + size;
    }
    if (!fixed) {
        int k = code_has(p, pc, OP_FREECASTLE) ? bc_operands(p->code, pc).a : v->ncastles;
        if (k >= v->ncastles || v->castles[k].king_to >= 64 || v->castles[k].rook_to >= 64) return false;
        cb->free_castle = (int8_t)k;
        pc += bc_instr_size(OP_FREECASTLE);
    }
    while (fixed && code_has(p, pc, OP_GOTO) && code_has(p, pc + bc_instr_size(OP_GOTO), OP_EMPTY) &&
           code_has(p, pc + bc_instr_size(OP_GOTO) + bc_instr_size(OP_EMPTY), OP_VERIFY)) {
        cb->empty |= 1ULL << bc_operands(p->code, pc).a;
        pc += bc_instr_size(OP_GOTO) + bc_instr_size(OP_EMPTY) + size;
    }
    while (fixed && (code_has(p, pc, OP_GOTO) || code_has(p, pc, OP_CASCADE))) pc += bc_instr_size(p->code[pc]);
    if (!code_has(p, pc, OP_CASTLED)) return false;
    pc += bc_instr_size(OP_CASTLED);
    if (!code_has(p, pc, OP_ADD) || bc_operands(p->code, pc).a != 0) return false;
    pc += bc_instr_size(OP_ADD);
    return code_has(p, pc, OP_HALT) && pc + bc_instr_size(OP_HALT) == end;
}

/* PieceProgram.castle_branches: rest is a chain of branches (each a FORK to the next but the
 * last) that only castle, then its last HALT; on a board of at most 64 cells. */
static void find_castle_branches(const Variant *v, PieceProgram *pp) {
    const Program *p = &pp->rest;
    CastleBranch branches[MAX_REST_GUARDS];
    int n = 0;
    if (v->ncells > 64) return;
    for (int pc = 0; !code_has(p, pc, OP_HALT);) {
        if (n == MAX_REST_GUARDS || !code_has(p, pc, OP_FORK)) return;
        int next = bc_operands(p->code, pc).a;
        if (next <= pc || !castle_branch_at(v, p, pc + bc_instr_size(OP_FORK), next, &branches[n])) return;
        n++;
        pc = next;
    }
    for (int i = 0; i < n; i++) pp->castle_branches[i] = branches[i];
    pp->ncastle_branches = n;
}

/* PieceProgram.step_cells: for a piece whose rays and atoms in C are all move-only steps
 * without zones, and whose promotion (if any) is the same for every move into its zone, the
 * cells those steps reach from each cell. */
static void build_step_cells(const Variant *v, PieceProgram *pp, int owner) {
    if (!pp->quiet_in_c || (!pp->ngen && !pp->natoms) || (!pp->rest_in_c && !pp->atoms_then_vm && pp->natoms)) return;
    int promo = 0;
    for (int i = 0; i < pp->ngen; i++)
        if (pp->gen[i].slide) return;
    for (int i = 0; i < pp->natoms; i++) {
        const FastAtom *fa = &pp->atoms[i];
        if (fa->from_zone || (i && fa->promo != promo)) return;
        promo = fa->promo;
    }
    const PromoSet *ps = promo ? &v->promos[promo] : NULL;
    /* (a choice that depends on the position or the cell: the moves are written) */
    if (ps && (ps->lost_only || ps->on_capture || ps->optional || ps->from_zone != NO_ZONE)) return;
    pp->step_cells = xcalloc((size_t)v->ncells * CELL_WORDS, sizeof *pp->step_cells);
    for (int c = 0; c < v->ncells; c++) {
        uint64_t *to = &pp->step_cells[(size_t)c * CELL_WORDS];
        for (int i = 0; i < pp->ngen; i++) {
            Cell s = variant_step(v, (Cell)c, pp->gen[i].dir);
            if (s != NO_CELL) to[s >> 6] |= 1ULL << (s & 63);
        }
        for (int i = 0; i < pp->natoms; i++)
            for (int k = 0; k < pp->atoms[i].ndirs; k++) {
                Cell s = variant_step(v, (Cell)c, pp->atoms[i].dirs[k]);
                if (s != NO_CELL) to[s >> 6] |= 1ULL << (s & 63);
            }
    }
    pp->promo_moves = ps ? ps->count : 1;
    for (int w = 0; w < CELL_WORDS; w++)
        pp->step_promotes[w] = ps && ps->zone != NO_ZONE ? v->zones[ps->zone].cells[owner][w] : 0;
}

/* Adds cell c to *set; false when it was there (two paths of one mode meet). */
static bool add_cell_once(uint64_t *set, Cell c) {
    if ((*set >> c) & 1) return false;
    *set |= 1ULL << c;
    return true;
}

/* How much direction d changes the cell index wherever it stays on the board (0: not the
 * same everywhere), and the cells it stays on the board from. */
static int index_change(const Variant *v, int d, uint64_t *from) {
    int delta = 0;
    *from = 0;
    for (int c = 0; c < v->ncells; c++) {
        Cell n = variant_step(v, (Cell)c, d);
        if (n == NO_CELL) continue;
        if (delta && n - c != delta) return 0;
        delta = n - c;
        *from |= 1ULL << c;
    }
    return delta;
}

/* Adds one BitShift: a path of nlegs directions (legs: those of atom a) from the cells of
 * `zone` (0: any; index + 1). False when a leg's index change is not the same everywhere. */
static bool add_shift(const Variant *v, BitCount *b, int owner, const uint8_t *dirs, int nlegs, int mode, int promo,
                      int zone, int a) {
    BitShift *sh = &b->shift[b->nshift++];
    *sh = (BitShift){.nlegs = (uint8_t)nlegs, .mode = (uint8_t)mode, .promo = (uint8_t)promo, .atom = (uint8_t)a};
    for (int k = 0; k < nlegs; k++) {
        uint64_t from;
        int delta = index_change(v, dirs[k], &from);
        if (!delta) return false;
        sh->delta[k] = (int8_t)delta;
    }
    for (int c = 0; c < v->ncells; c++) {
        if (zone && !zone_has(&v->zones[zone - 1], owner, (Cell)c)) continue;
        Cell at = (Cell)c;
        for (int k = 0; k < nlegs && at != NO_CELL; k++) at = variant_step(v, at, dirs[k]);
        if (at == NO_CELL) continue;
        sh->from |= 1ULL << c;
        if (variant_atom_promotes(v, promo, owner, (Cell)c, at)) sh->promotes |= 1ULL << c;
    }
    return true;
}

/* BitCount.shifts: every leap, step atom and legs atom of the piece as BitShifts. */
static void find_shifts(const Variant *v, const PieceProgram *pp, int owner, BitCount *b) {
    bool ok = true;
    b->nshift = 0;
    for (int i = 0; i < pp->ngen && ok; i++)
        if (!pp->gen[i].slide) ok = add_shift(v, b, owner, &pp->gen[i].dir, 1, pp->gen[i].mode, 0, 0, 0);
    for (int a = 0; a < pp->natoms && ok; a++) {
        const FastAtom *fa = &pp->atoms[a];
        if (fa->kind == FAST_STEP)
            for (int k = 0; k < fa->ndirs && ok; k++)
                ok = add_shift(v, b, owner, &fa->dirs[k], 1, fa->mode, fa->promo, fa->from_zone, a);
        else if (fa->kind == FAST_LEGS)
            ok = fa->ndirs > 0 && add_shift(v, b, owner, fa->dirs, fa->ndirs, fa->mode, fa->promo, fa->from_zone, a);
    }
    b->shifts = ok;
}

/* BitCount's slides put in order, those up first (BitCount.nslides_up), and all_both found. */
static void order_slides(const Variant *v, BitCount *b) {
    int order[MAX_DIRECTIONS], n = 0;
    for (int s = 0; s < b->nslides; s++)
        if (b->slide_up[s]) order[n++] = s;
    b->nslides_up = n;
    for (int s = 0; s < b->nslides; s++)
        if (!b->slide_up[s]) order[n++] = s;
    uint8_t mode[MAX_DIRECTIONS];
    bool up[MAX_DIRECTIONS];
    uint64_t ray[MAX_DIRECTIONS];
    b->all_both = true;
    for (int s = 0; s < n; s++) {
        mode[s] = b->slide_mode[order[s]];
        up[s] = b->slide_up[order[s]];
        b->all_both = b->all_both && mode[s] == RAY_BOTH;
    }
    memcpy(b->slide_mode, mode, (size_t)n * sizeof *mode);
    memcpy(b->slide_up, up, (size_t)n * sizeof *up);
    for (int c = 0; c < v->ncells; c++) {
        uint64_t *set = &b->cells[(size_t)c * (size_t)b->stride + 3];
        for (int s = 0; s < n; s++) ray[s] = set[order[s]];
        memcpy(set, ray, (size_t)n * sizeof *ray);
    }
}

/* PieceProgram.bits: on a board of at most 64 cells, for a piece that cannot merge moves,
 * whose slides pass their cells in increasing or decreasing order from every cell, and whose
 * leaps, slides and step atoms never reach one cell from the same cell nor come back to it. */
static void build_count_bits(const Variant *v, PieceProgram *pp, int owner) {
    if (v->ncells > 64 || pp->may_duplicate || pp->privileged_atoms || (!pp->ngen && !pp->natoms)) return;
    int nslides = 0, nsteps = 0;
    for (int i = 0; i < pp->ngen; i++) nslides += pp->gen[i].slide;
    for (int a = 0; a < pp->natoms && pp->rest_in_c; a++) nsteps += pp->atoms[a].kind == FAST_STEP;
    int stride = 3 + nslides + 2 * nsteps;
    BitCount *b = xcalloc(1, sizeof *b + (size_t)v->ncells * (size_t)stride * sizeof(uint64_t));
    b->nslides = nslides;
    b->nsteps = nsteps;
    b->stride = stride;
    bool ok = true, known[MAX_DIRECTIONS] = {false};
    for (int c = 0; c < v->ncells && ok; c++) {
        uint64_t *set = &b->cells[(size_t)c * (size_t)stride], all = 0;
        for (int i = 0, s = 0; i < pp->ngen && ok; i++) {
            const Ray *r = &pp->gen[i];
            if (!r->slide) {
                Cell n = variant_step(v, (Cell)c, r->dir);
                if (n != NO_CELL) ok = n != c && add_cell_once(&all, n), set[r->mode] |= 1ULL << n;
                continue;
            }
            b->slide_mode[s] = r->mode;
            Cell at = (Cell)c;
            for (int k = 0; (!r->range || k < r->range) && k < v->ncells && ok; k++) {
                Cell n = variant_step(v, at, r->dir);
                if (n == NO_CELL) break;
                /* (the first step found decides the order; every other must agree) */
                if (!known[s]) b->slide_up[s] = n > at, known[s] = true;
                ok = (n > at) == b->slide_up[s] && n != at && n != c && add_cell_once(&all, n);
                set[3 + s] |= 1ULL << n;
                at = n;
            }
            s++;
        }
        for (int a = 0, k = 0; a < pp->natoms && pp->rest_in_c && ok; a++) {
            const FastAtom *fa = &pp->atoms[a];
            if (fa->kind != FAST_STEP) {
                b->walks = true;
                continue;
            }
            b->step_mode[k] = fa->mode;
            b->step_promo[k] = fa->promo;
            uint64_t *reach = &set[3 + nslides + 2 * k], *promotes = reach + 1;
            k++;
            if (fa->from_zone && !zone_has(&v->zones[fa->from_zone - 1], owner, (Cell)c)) continue;
            for (int d = 0; d < fa->ndirs && ok; d++) {
                Cell n = variant_step(v, (Cell)c, fa->dirs[d]);
                if (n == NO_CELL) continue;
                ok = n != c && add_cell_once(&all, n);
                *reach |= 1ULL << n;
                if (variant_atom_promotes(v, fa->promo, owner, (Cell)c, n)) *promotes |= 1ULL << n;
            }
        }
    }
    if (ok) order_slides(v, b);
    if (ok && (pp->rest_in_c || !pp->rest.count)) find_shifts(v, pp, owner, b);
    if (ok)
        pp->bits = b;
    else
        free(b);
}

/* PieceProgram.line_bits: on a board of at most 64 cells, for a piece that cannot make one
 * move twice whose line moves are all leaps of one cell, rides or hops (see LineBits). */
static void build_line_bits(const Variant *v, PieceProgram *pp, int owner) {
    if (v->ncells > 64 || !pp->nlines || pp->may_duplicate) return;
    int n = pp->nlines;
    LineBits *lb = xcalloc(1, sizeof *lb + (size_t)v->ncells * (size_t)n * 2 * sizeof(uint64_t));
    uint32_t all = v->ntypes >= 32 ? ALL_TYPES : (1u << v->ntypes) - 1;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        const LineMove *l = &pp->lines[i];
        lb->kind[i] = l->range == 1 && !l->hop ? LINE_LEAP : l->hop ? LINE_HOP : LINE_RIDE;
        lb->any_victim[i] = (l->victims & all) == all;
        lb->any_screen[i] = (l->screens & all) == all;
        ok = l->range == 1 ? !l->hop : !l->range && !l->to_zone && !l->path_zone;
        bool known = false;
        for (int c = 0; c < v->ncells && ok; c++) {
            uint64_t *set = &lb->cells[((size_t)c * (size_t)n + (size_t)i) * 2];
            if (l->from_zone && !zone_has(&v->zones[l->from_zone - 1], owner, (Cell)c)) continue;
            Cell at = (Cell)c;
            uint64_t legs = 0;
            int last = l->nlegs - 1;
            for (int k = 0; k < last && at != NO_CELL; k++) {
                at = variant_step(v, at, l->dirs[k]);
                if (at != NO_CELL) legs |= 1ULL << at;
            }
            if (at == NO_CELL) continue;
            if (lb->kind[i] == LINE_LEAP) {
                Cell to = variant_step(v, at, l->dirs[last]);
                if (to == NO_CELL || (l->to_zone && !zone_has(&v->zones[l->to_zone - 1], owner, to)) ||
                    (l->path_zone && !zone_has(&v->zones[l->path_zone - 1], owner, to)))
                    continue;
                set[0] = legs;
                set[1] = 1ULL << to;
                continue;
            }
            /* (a ride's cells must come in one order from every cell, as the count reads them) */
            uint64_t line = 0;
            for (int k = 0; k < v->ncells && ok; k++) {
                Cell next = variant_step(v, at, l->dirs[last]);
                if (next == NO_CELL) break;
                if (!known) lb->up[i] = next > at, known = true;
                ok = (next > at) == lb->up[i] && next != (Cell)c && !((line >> next) & 1);
                line |= 1ULL << next;
                at = next;
            }
            set[0] = legs;
            set[1] = line;
        }
    }
    if (ok)
        pp->line_bits = lb;
    else
        free(lb);
}

/* Does the code at pc go to an enemy first: `STEP d ENEMY VERIFY`, or a ride `STEP d; L: EMPTY
 * JF x; STEP d; JUMP L; x: ENEMY VERIFY`, perhaps then `CAPTURE STEP d EMPTY VERIFY` (a jump:
 * the cell beyond must be empty)? */
static bool capture_guard_at(const Program *p, int pc, CaptureGuard *g) {
    if (!code_has(p, pc, OP_STEP)) return false;
    int d = bc_operands(p->code, pc).a, at = pc + bc_instr_size(OP_STEP);
    g->dir = (uint8_t)d;
    g->rides = false;
    int loop = at, jf = loop + bc_instr_size(OP_EMPTY), step = jf + bc_instr_size(OP_JF),
        jump = step + bc_instr_size(OP_STEP);
    if (code_has(p, loop, OP_EMPTY) && code_has(p, jf, OP_JF) && code_has(p, step, OP_STEP) &&
        bc_operands(p->code, step).a == d && code_has(p, jump, OP_JUMP) && bc_operands(p->code, jump).a == loop &&
        bc_operands(p->code, jf).a == jump + bc_instr_size(OP_JUMP)) {
        g->rides = true;
        at = jump + bc_instr_size(OP_JUMP);
    }
    if (!code_has(p, at, OP_ENEMY) || !code_has(p, at + 1, OP_VERIFY)) return false;
    at += 2;
    int beyond = at + bc_instr_size(OP_CAPTURE);
    g->beyond = code_has(p, at, OP_CAPTURE) && code_has(p, beyond, OP_STEP) && bc_operands(p->code, beyond).a == d &&
        code_has(p, beyond + bc_instr_size(OP_STEP), OP_EMPTY);
    return true;
}

/* The capture guards of the alternatives from pc on (FORK splits a path in two, HALT ends it);
 * false when some path starts otherwise, or there are too many. */
static bool find_capture_guards_at(const Program *p, int pc, CaptureGuard *g, int *n, int depth) {
    if (depth > 64 || pc < 0 || pc >= p->count) return false;
    if (code_has(p, pc, OP_HALT)) return true;
    if (code_has(p, pc, OP_FORK)) {
        int next = bc_operands(p->code, pc).a;
        return next > pc && find_capture_guards_at(p, pc + bc_instr_size(OP_FORK), g, n, depth + 1) &&
            find_capture_guards_at(p, next, g, n, depth + 1);
    }
    if (*n >= MAX_CAPTURE_GUARDS || !capture_guard_at(p, pc, &g[*n])) return false;
    g[(*n)++].pc = (uint16_t)pc;
    return true;
}

/* PieceProgram.capture_guards: every path of rest begins by finding an enemy piece. */
static void find_capture_guards(PieceProgram *pp) {
    CaptureGuard g[MAX_CAPTURE_GUARDS];
    int n = 0;
    if (!find_capture_guards_at(&pp->rest, pp->rest_vm_entry, g, &n, 0) || !n) return;
    memcpy(pp->capture_guards, g, sizeof g[0] * (size_t)n);
    pp->ncapture_guards = n;
}

/* The cells the privileged captures (CAP_PRIVILEGE) could land on from their owners'
 * privilege cells, whatever stands there. */
static void build_privilege_reach(Variant *v) {
    for (int k = 0; v->privilege_types && k < v->ncastles; k++) {
        const Castle *cs = &v->castles[k];
        if (!cs->privilege) continue;
        for (int t = 0; t < v->ntypes; t++) {
            if (!((v->privilege_types >> t) & 1)) continue;
            const PieceProgram *pp = &v->types[t].per_owner[cs->owner];
            for (int i = 0; i < pp->npatterns; i++) {
                const CapturePattern *cp = &pp->patterns[i];
                if (cp->method != CAP_PRIVILEGE) continue;
                Cell s = cs->king_from;
                for (int l = 0; l < cp->ndirs && s != NO_CELL; l++) s = variant_step(v, s, cp->dirs[l]);
                if (s != NO_CELL) v->privilege_reach[cs->owner][s >> 6] |= 1ULL << (s & 63);
            }
        }
    }
}

/* Do the pins follow every capture pattern (movegen.c: find_pattern_pins)? Lame leaps, zoned
 * steps and slides, hops: yes; a privilege's capture: yes, as a check (attack_pins; a leap from
 * a fixed cell pins nothing); captures by withdrawal, custodian, coordination, long leap: no. */
static bool patterns_pinnable(const Variant *v) {
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners; o++)
            for (int i = 0; i < v->types[t].per_owner[o].npatterns; i++) {
                const CapturePattern *cp = &v->types[t].per_owner[o].patterns[i];
                if (!pattern_has_reach(cp) && cp->method != CAP_PRIVILEGE) return false;
            }
    return true;
}

void variant_conclude(Variant *v) {
    v->cell_words = (v->ncells + 63) / 64;
    build_neighbours(v);
    find_forward_dirs(v);
    build_zobrist(v);
    find_stuck_cells(v);
    find_single_paths(v);
    build_pattern_reach(v);
    build_line_cells(v);
    build_adjacent_cells(v);
    build_custodian_cells(v);
    build_privilege_reach(v);
    build_line_refs(v);
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners; o++) {
            PieceProgram *pp = &v->types[t].per_owner[o];
            pp->quiet_in_c = true;
            for (int i = 0; i < pp->ngen; i++) pp->quiet_in_c = pp->quiet_in_c && pp->gen[i].mode == RAY_MOVE;
            for (int i = 0; i < pp->natoms; i++)
                pp->quiet_in_c = pp->quiet_in_c && pp->atoms[i].mode == RAY_MOVE && pp->atoms[i].kind == FAST_STEP;
            if (pp->rest.count) {
                find_rest_guards(pp);
                find_castle_branches(v, pp);
                find_capture_guards(pp);
            }
            build_step_cells(v, pp, o);
            build_count_bits(v, pp, o);
            build_line_bits(v, pp, o);
            pp->counts_quietly = pp->quiet_in_c && !pp->nlines && !pp->privileged_atoms && !pp->rest.plan;
        }
    v->royal_types = 0;
    memset(v->royal_of, 0, sizeof v->royal_of);
    for (int t = 0; t < v->ntypes; t++) {
        if (v->types[t].royal) v->royal_types |= 1u << t;
        /* (a type marked royal without owners is royal for all) */
        unsigned owners = v->types[t].royal_for ? v->types[t].royal_for : v->types[t].royal ? 0xFFu : 0;
        for (int o = 0; o < MAX_OWNERS; o++)
            if ((owners >> o) & 1) v->royal_of[o] |= 1u << t;
    }
    for (int i = 0; i < v->nmaterial; i++) {
        MaterialRule *r = &v->material[i];
        r->total_a = r->total_b = 0;
        for (int t = 0; t < v->ntypes; t++) r->total_a += r->a[t], r->total_b += r->b[t];
        if (r->total_a > v->material_most) v->material_most = r->total_a;
        if (r->total_b > v->material_most) v->material_most = r->total_b;
    }
    v->slow_legality = v->minefield_zone || v->facing_type || v->forbid_royal_flight;
    /* (royal flight and facing royal pieces are decided by the pins: movegen.c) */
    v->pin_legal = v->all_fast && v->attack_lines_ok && patterns_pinnable(v) && v->nplayers == 2 && v->nowners == 2 &&
        v->forbid_royal_capture && !v->steered && !v->freezer_mask && !v->blast_mask && !v->minefield_zone &&
        !v->has_allegiance && !v->nphases && !v->ntransfer;
    /* no royal piece to keep safe and nothing else that decides legality: every move the
     * pieces make is legal */
    v->every_move_legal = !v->forbid_royal_capture && !v->pattern_types && v->nplayers == 2 && v->nowners == 2 &&
        !v->steered && !v->freezer_mask && !v->blast_mask && !v->slow_legality && !v->has_allegiance && !v->nphases &&
        !v->ntransfer;
    v->reach_sorts_moves = false;
    for (int i = 0; i < v->nreaches; i++) v->reach_sorts_moves = v->reach_sorts_moves || v->reaches[i].last_chance;
    /* (`end checks` leaves it: checks only mark moves, which a count leaves out; a position a
     * reach ended has no moves, as the count finds) */
    v->bulk_count = (v->pin_legal || v->every_move_legal) && !v->pass_move && !v->has_drops && !v->has_drop_programs &&
        !v->nextra && !v->npiles && !v->ndraws && !v->npays && !v->nprelude && !v->forbid_check &&
        !v->reach_sorts_moves && !v->must_capture && v->on_stalemate != RESULT_PASS && !v->npriorities &&
        !v->must_capture_most && !v->merge_same_captures;
    v->bulk_by_position = v->bulk_count && (v->has_hands || v->nforced);
    v->royal_rays_only = v->royal_types != 0 && v->pin_legal && v->cell_words == 1; /* (where the look is built) */
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners && variant_royal(v, o, t); o++)
            if (v->types[t].per_owner[o].rest.count > 1) v->royal_rays_only = false;
    v->count_quiet = v->every_move_legal && !v->steered && !v->pass_move && !v->has_drops && !v->has_hands &&
        !v->has_drop_programs && !v->nextra && !v->npiles && !v->ndraws && !v->npays && !v->nprelude &&
        !v->forbid_check && !v->reach_sorts_moves && !v->nforced && !v->blast_mask && !v->minefield_zone &&
        !v->nphases && v->on_stalemate != RESULT_PASS;
    /* (the count gives up at the first piece that does not count quietly: where no type does,
     * it would give up at every position) */
    bool some_quiet = false;
    for (int t = 0; t < v->ntypes; t++)
        for (int o = 0; o < v->nowners; o++) some_quiet = some_quiet || v->types[t].per_owner[o].counts_quietly;
    v->count_quiet = v->count_quiet && some_quiet;
    v->ends_by_board_pieces = v->decided_by_position && v->nextinctions && !v->check_limit && !v->nreaches &&
        !v->nrows && !v->nconnects && !v->noccupies && v->on_bare_king == RESULT_NONE;
    build_leap_from(v);
    build_move_reach(v);
}

const char *variant_orientation_name(Orientation o) {
    static const char *const names[ORIENT__COUNT] = {"identity", "flip",   "mirror",    "rot90",
                                                     "rot180",   "rot270", "transpose", "antitranspose"};
    return (unsigned)o < ORIENT__COUNT ? names[o] : "?";
}

Cell variant_orient_cell(const Variant *v, Orientation o, Cell c) {
    const CellInfo *ci = &v->cells[c];
    if (ci->holding) return c; /* (off the grid: every player's frame leaves it where it is) */
    const Board *b = &v->boards[ci->board];
    int x = ci->x, y = ci->y, W = b->width, H = b->height, nx = x, ny = y;
    switch (o) {
    case ORIENT_IDENTITY: break;
    case ORIENT_FLIP: ny = H - 1 - y; break;
    case ORIENT_MIRROR: nx = W - 1 - x; break;
    case ORIENT_ROT90:
        nx = W - 1 - y;
        ny = x;
        break;
    case ORIENT_ROT180:
        nx = W - 1 - x;
        ny = H - 1 - y;
        break;
    case ORIENT_ROT270:
        nx = y;
        ny = H - 1 - x;
        break;
    case ORIENT_TRANSPOSE:
        nx = y;
        ny = x;
        break;
    case ORIENT_ANTITRANSPOSE:
        nx = W - 1 - y;
        ny = H - 1 - x;
        break;
    default: break;
    }
    if (nx < 0 || ny < 0 || nx >= W || ny >= H) return NO_CELL;
    return b->at[ny][nx];
}

void variant_free(Variant *v) {
    if (!v) return;
    for (int t = 0; t < MAX_PIECE_TYPES; t++)
        for (int o = 0; o < MAX_OWNERS; o++) {
            bc_free(&v->types[t].per_owner[o].prog);
            bc_free(&v->types[t].per_owner[o].rest);
            free(v->types[t].per_owner[o].lines);
            free(v->types[t].per_owner[o].step_cells);
            free(v->types[t].per_owner[o].bits);
            free(v->types[t].per_owner[o].line_bits);
        }
    for (int t = 0; t < MAX_PIECE_TYPES; t++) {
        if (!v->types[t].drops) continue;
        for (int o = 0; o < MAX_OWNERS; o++) bc_free(&v->types[t].drops[o]);
        free(v->types[t].drops);
    }
    free(v->links);
    for (int o = 0; o < MAX_OWNERS; o++) free(v->attack_lines[o]);
    free(v->neighbour);
    free(v->pattern_reach);
    free(v->line_cells);
    free(v->adjacent_cells);
    free(v->custodian_cells);
    free(v->line_refs[0][0]);
    free(v->leap_cells);
    free(v->move_reach);
    for (int o = 0; o < MAX_OWNERS; o++)
        for (int t = 0; t < MAX_PIECE_TYPES; t++) free(v->leap_from[o][t]);
    free(v->zobrist_piece);
    free(v->title);
    free(v->help);
    for (int t = 0; t < v->ntypes; t++) free(v->types[t].help);
    free(v->path);
    free(v->setup);
    free(v);
}

bool variant_has_secrets(const Variant *v) {
    if (v->minefield_zone) return true;
    for (int i = 0; i < v->ndraws; i++)
        if (v->draws[i].own && !v->piles[v->draws[i].to].sorted) return true;
    return false;
}

const char *variant_protocol_misfit(const Variant *v) {
    if (v->nplayers != 2) return "the engine protocols play games of two players";
    if (v->nboards != 1) return "the engine protocols play games on one board";
    if (variant_has_secrets(v)) return "the engine protocols have no hidden information";
    if (v->nphases) return "the engine protocols play one move a turn";
    if (v->nprelude) return "the engine protocols have no set-up steps";
    return NULL;
}

int variant_type_by_letter(const Variant *v, char letter) {
    if (letter >= 'a' && letter <= 'z') letter = (char)(letter - 'a' + 'A');
    for (int t = 0; t < v->ntypes; t++)
        if (v->types[t].letter == letter && !v->types[t].promoted) return t;
    return -1;
}

int variant_promoted_type(const Variant *v, int t) {
    for (int k = 0; k < v->ntypes; k++)
        if (v->types[k].promoted && v->types[k].base == t) return k;
    return -1;
}

int variant_cell_by_name(const Variant *v, const char *name) {
    for (int c = 0; c < v->ncells; c++)
        if (!strcmp(v->cells[c].name, name)) return c;
    /* (draughts squares go by their numbers too) */
    if (v->pdn && name[0] >= '1' && name[0] <= '9' && strspn(name, "0123456789") == strlen(name))
        for (int c = 0; c < v->ncells; c++)
            if (v->square_number[c] == atoi(name)) return c;
    return -1;
}

void variant_orient_vector(Orientation o, int dx, int dy, int *ox, int *oy) {
    switch (o) {
    case ORIENT_IDENTITY:
        *ox = dx;
        *oy = dy;
        break;
    case ORIENT_FLIP:
        *ox = dx;
        *oy = -dy;
        break;
    case ORIENT_MIRROR:
        *ox = -dx;
        *oy = dy;
        break;
    case ORIENT_ROT90:
        *ox = -dy;
        *oy = dx;
        break;
    case ORIENT_ROT180:
        *ox = -dx;
        *oy = -dy;
        break;
    case ORIENT_ROT270:
        *ox = dy;
        *oy = -dx;
        break;
    case ORIENT_TRANSPOSE:
        *ox = dy;
        *oy = dx;
        break;
    case ORIENT_ANTITRANSPOSE:
        *ox = -dy;
        *oy = -dx;
        break;
    default:
        *ox = dx;
        *oy = dy;
        break;
    }
}
