/* test_movegen.c - the fast ray path and the general program path agree; legality basics. */
#include "support.h"

#include "mobility.h"
#include "perft.h"

/* Plays one of the listed moves at random; false when there is none (the game is over). */
static bool play_random(Position *pos, const MoveList *ml, uint64_t *seed) {
    if (ml->count == 0) return false;
    board_make(pos, &ml->moves[rng_next(seed) % (uint64_t)ml->count]);
    return true;
}

/* Lists the legal moves into ml and plays one at random; false when there is none. */
static bool play_random_legal(Position *pos, MoveList *ml, uint64_t *seed) {
    VmFault f = {0};
    movegen_legal(test_gen(), pos, ml, &f);
    return play_random(pos, ml, seed);
}

/* Sorted coordinate texts of the legal moves, joined by spaces. */
static void legal_text(Position *pos, char *out, size_t cap) {
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), pos, &ml, &f);
    assert_false(f.set);
    char names[MAX_MOVES][16];
    for (int i = 0; i < ml.count; i++) notation_move(pos->v, &ml.moves[i], names[i], sizeof names[i]);
    qsort(names, (size_t)ml.count, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    out[0] = 0;
    for (int i = 0; i < ml.count; i++) {
        strncat(out, names[i], cap - strlen(out) - 1);
        strncat(out, " ", cap - strlen(out) - 1);
    }
}

/* Random play's tally (bulk counting) gives the legal moves of ml: as many, each index the
 * same move. */
static void tally_agrees(Position *pos, const MoveList *ml) {
    static LegalTally tally;
    static MoveList scratch;
    if (!movegen_tally_legal(test_gen(), pos, &tally, &scratch)) return;
    assert_int_equal(tally.count, ml->count);
    for (int i = 0; i < ml->count; i++) {
        const Move *a = movegen_tally_move(test_gen(), pos, &tally, i, &scratch), *b = &ml->moves[i];
        assert_non_null(a);
        assert_int_equal(a->from, b->from);
        assert_int_equal(a->to, b->to);
        assert_int_equal(a->flags, b->flags);
        assert_int_equal(a->promo, b->promo);
        assert_int_equal(a->castle, b->castle);
        assert_int_equal(a->nfx, b->nfx);
        for (int k = 0; k < a->nfx; k++) {
            assert_int_equal(a->fx[k].kind, b->fx[k].kind);
            assert_int_equal(a->fx[k].a, b->fx[k].a);
            assert_int_equal(a->fx[k].b, b->fx[k].b);
            assert_int_equal(a->fx[k].piece, b->fx[k].piece);
        }
    }
}

/* Random games from the given starts: at every position both paths (ray/pattern tables and
 * programs) must give the same legal moves and the same check status. Returns positions seen. */
static int compare_variant_paths(Variant *v, const char *rules, const char *const *starts, int nstarts, int games,
                                 int plies) {
    Position pos;
    board_init(&pos, v);
    static char fast[16384], general[16384];
    static MoveList ml;
    uint64_t seed = 12345;
    int positions = 0;
    for (int game = 0; game < games; game++) {
        set_fen(&pos, starts[game % nstarts] ? starts[game % nstarts] : v->setup);
        for (int ply = 0; ply < plies; ply++) {
            test_gen()->fast = true;
            legal_text(&pos, fast, sizeof fast);
            bool check_fast = attack_in_check(test_gen(), &pos, board_mover(&pos));
            test_gen()->fast = false;
            legal_text(&pos, general, sizeof general);
            bool check_general = attack_in_check(test_gen(), &pos, board_mover(&pos));
            test_gen()->fast = true;
            if (strcmp(fast, general) != 0) {
                char fen[512];
                fen_write(&pos, fen, sizeof fen);
                print_error("%s: paths differ at %s\nfast:    %s\ngeneral: %s\n", rules, fen, fast, general);
            }
            assert_string_equal(fast, general);
            assert_int_equal(check_fast, check_general);
            positions++;
            VmFault f = {0};
            movegen_legal(test_gen(), &pos, &ml, &f);
            /* the last ply's count (by the pins or the cells seen; bulk counting where the game
             * allows) agrees with the list */
            VmFault cf = {0};
            assert_int_equal(movegen_count_legal(test_gen(), &pos, &cf), ml.count);
            if (v->bulk_count) tally_agrees(&pos, &ml);
            if (!play_random(&pos, &ml, &seed)) break;
            assert_true(board_is_ok(&pos));
        }
    }
    board_free(&pos);
    variant_free(v);
    return positions;
}

static int compare_paths(const char *rules, const char *const *starts, int nstarts, int games, int plies) {
    return compare_variant_paths(load_rules(rules), rules, starts, nstarts, games, plies);
}

/* Long leaps that land, or withdraw, after a jump: the attack test's patterns follow the
 * jumps too (a king must not step next to where a leaper pincers it after jumping). */
static void test_movegen_fast_and_general_agree_captures_after_leaps(void **state) {
    (void)state;
    const char *rules = "version 1\nplayers white(w) black(b)\nboard 8x8\nposition-fields \"board side plies\"\n"
                        "piece King { letter K royal slide compass move-only withdraw }\n"
                        "piece Pawn { letter P slide orth move-only }\n"
                        "piece Leaper { letter N long-leap compass pincer }\n"
                        "piece Coordinator { letter C long-leap compass coordinate }\n"
                        "piece Chameleon { letter B slide compass move-only imitate }\n"
                        "setup \"k7/8/8/4n3/4P3/8/6p1/4K3 w 0\"\n";
    /* a pincer after a jump, a coordination after a jump, an imitated withdrawal with a leap */
    const char *starts[] = {NULL, "8/8/8/7c/6P1/8/8/k2K4 w 0", "k7/8/4N3/4b3/3K4/8/8/8 w 0",
                            "c3k3/1pnbp3/8/8/8/8/1PNBP3/C3K3 w 0"};
    assert_true(compare_variant_paths(load_text_ok(rules), "captures after leaps", starts, 4, test_reps(40), 40) >
                test_reps(400));
}

static void test_movegen_fast_and_general_agree_chess(void **state) {
    (void)state;
    const char *starts[] = {NULL, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"};
    assert_true(compare_paths("rules/chess.rules", starts, 3, test_reps(60), 80) > test_reps(2000));
}

/* Games whose legality the pins decide (with drops, a royal leaper, a side without a royal
 * piece, promotions in place) and whose pawns run in C. */
static void test_movegen_fast_and_general_agree_pinned_games(void **state) {
    (void)state;
    const char *games[] = {"rules/capablanca.rules", "rules/crazyhouse.rules", "rules/knightmate.rules",
                           "rules/horde.rules", "rules/makruk.rules"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const char *starts[] = {NULL};
        assert_true(compare_paths(games[i], starts, 1, test_reps(12), 80) > test_reps(200));
    }
}

/* `forbid royal-flight` decided by the pins: a royal piece in check may only capture the one
 * piece giving check (positions with checks by sliders, leapers and two pieces at once). */
static void test_movegen_fast_and_general_agree_royal_flight(void **state) {
    (void)state;
    const char *starts[] = {NULL, "8/8/3k4/3R4/8/8/8/3K4 b - - 0 1", "8/2r5/3k4/3R4/8/8/4N3/3K4 b - - 0 1",
                            "8/8/3k4/2N5/8/8/8/3KR3 b - - 0 1", "3r4/8/2n1k3/8/3N4/8/2R5/3K4 b - - 0 1"};
    assert_true(compare_paths("rules/makpong.rules", starts, 5, test_reps(40), 60) > test_reps(1500));
}

static void test_movegen_fast_and_general_agree_ultima(void **state) {
    (void)state;
    /* the start and the rules page's diagrams, which are full of captures by moving */
    const char *starts[] = {NULL,
                            "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0",
                            "8/2b4K/2q5/3p1N1p/8/8/2R5/k7 w 0",
                            "2n4k/3r4/5b2/3p4/1m6/3b4/3N4/K7 w 0",
                            "7k/8/8/3Qr3/8/8/8/K7 w 0",
                            "7k/8/8/r3pP2/2n5/8/B7/K7 w 0",
                            "7k/8/8/p4r2/4K3/8/8/8 w 0"};
    assert_true(compare_paths("rules/ultima.rules", starts, 7, test_reps(42), 60) > test_reps(1500));
}

static void test_movegen_fast_and_general_agree_ultimate_battle(void **state) {
    (void)state;
    const char *starts[] = {NULL};
    assert_true(compare_paths("rules/ultimate-battle.rules", starts, 1, test_reps(30), 80) > test_reps(1000));
}

static void test_movegen_fast_and_general_agree_above_below(void **state) {
    (void)state;
    /* steered armies: influence decides who may move and which attacks count */
    const char *starts[] = {NULL, "4/4/1I2/4/1IIC/4/I3|:4k3/4/4/4/2:4q1/2:3k1/4|4/2i1/4/4/i1ic/4/i3 A 0 1 w,b",
                            "4/4/1I1I/4/1I1C/4/I3|3:3k/:3p:3p:3p1/4/4/3:4r/1:4k2/4|4/2c1/4/4/i1ii/4/1i2 A 0 1 b,w"};
    assert_true(compare_paths("rules/above-below.rules", starts, 3, test_reps(30), 120) > test_reps(1500));
}

static void test_movegen_fast_and_general_agree_xiangqi(void **state) {
    (void)state;
    /* zoned steps, legs, the cannon's hop and the facing generals run in C on the fast path;
     * the pins decide legality (pieces on a horse's leg or a cannon's line, landings that
     * screen a cannon) */
    const char *starts[] = {NULL, "3k5/9/4b4/9/2C6/9/9/4B4/3cK4/9 w - - 0 1"};
    assert_true(compare_paths("rules/xiangqi.rules", starts, 2, test_reps(16), 60) > test_reps(600));
}

/* On a board of one word the pieces of rays and line moves count by cell sets (the horse's
 * legs, the cannon's hops), and the moves the pins do not pass are judged on the lines and
 * patterns with their two cells written: the counts agree with the list. */
static void test_movegen_fast_and_general_agree_minixiangqi(void **state) {
    (void)state;
    const char *starts[] = {NULL, "3k3/7/3c3/7/3P3/7/3K3 w - - 0 1", "2k4/7/2c1n2/3C3/2N4/7/3K3 b - - 0 1"};
    assert_true(compare_paths("rules/minixiangqi.rules", starts, 3, test_reps(16), 60) > test_reps(600));
}

static void test_movegen_fast_and_general_agree_janggi(void **state) {
    (void)state;
    /* the palace's diagonal slides and the cannons' hops (never over or onto a cannon); the
     * generals facing each other (bikjang), alone and with pieces that can break it */
    const char *starts[] = {NULL, "4k4/4a4/3R1c3/9/9/9/9/3C1r3/4A4/4K4 w - - 0 1",
                            "3k5/4C4/3c1c3/9/9/9/9/5c3/4R4/3K1A3 w - - 0 1", "9/4k4/9/9/9/9/9/9/4K4/9 w - - 0 1",
                            "3k5/5a3/2n6/9/9/9/9/6N2/3K1R3/9 w - - 0 1"};
    assert_true(compare_paths("rules/janggi.rules", starts, 5, test_reps(25), 60) > test_reps(600));
}

static void test_movegen_fast_and_general_agree_cambodian(void **state) {
    (void)state;
    /* the king's privilege leap adds only on empty cells: attack tests skip its program; the
     * met's privileged double step runs in C and its capture is found from the privileges'
     * cells: checks by it, a rook's move that ends the privilege it uses (the met standing on
     * the king's privilege cell, which a rook on its rank or file ends), pins beside it; the
     * king's leap, in C too, never out of check */
    Variant *v = load_rules("rules/cambodian.rules");
    assert_true(v->all_fast && v->pin_legal && v->bulk_count);
    variant_free(v);
    const char *starts[] = {NULL,
                            "8/8/8/8/8/3k4/7r/3MK3 b D - 0 1",
                            "3mk3/8/3r4/8/3K4/8/8/R7 w de - 0 1",
                            "r2mk2r/8/4p3/8/8/3P4/8/R2KM2R w DEde - 0 1",
                            "4k3/8/3K4/8/8/8/8/r2MK3 b D - 0 1",
                            "4k3/8/8/8/8/8/8/r2K4 w D - 0 1"};
    assert_true(compare_paths("rules/cambodian.rules", starts, 6, test_reps(24), 60) > test_reps(900));
}

/* A game that ends at the first check: bulk counting counts none in an ended game, and the
 * checks marked need the privileged captures too. */
static void test_movegen_fast_and_general_agree_karouk(void **state) {
    (void)state;
    Variant *v = load_rules("rules/karouk.rules");
    assert_true(v->pin_legal && v->bulk_count);
    variant_free(v);
    const char *starts[] = {NULL, "3mk3/8/3r4/8/3K4/8/8/R7 w de - 1+1 0 1", "4k3/8/8/4p3/8/3P4/4M3/3K4 w D - 1+1 0 1"};
    assert_true(compare_paths("rules/karouk.rules", starts, 3, test_reps(30), 60) > test_reps(150));
}

/* Where the cells the legality test looked at decide a move (Pins.by_seen), the verdict is the
 * full test's: every pseudo-legal move of random games from the starts, in check or not.
 * Returns the moves so decided; *checks, the positions in check among those. */
static int compare_seen(const char *rules, const char *const *starts, int nstarts, int games, int plies, int *checks) {
    Variant *v = load_rules(rules);
    Position pos;
    board_init(&pos, v);
    static MoveList ml, legal;
    uint64_t seed = 4242;
    int decided = 0;
    *checks = 0;
    test_gen()->fast = true;
    for (int game = 0; game < games; game++) {
        set_fen(&pos, starts[game % nstarts] ? starts[game % nstarts] : v->setup);
        for (int ply = 0; ply < plies; ply++) {
            VmFault f = {0};
            movegen_pseudo(test_gen(), &pos, &ml, &f);
            Pins pins;
            movegen_find_pins(test_gen(), &pos, &pins);
            *checks += pins.by_seen && pins.seen_check;
            for (int i = 0; i < ml.count; i++) {
                int verdict = movegen_pin_verdict(&pins, &pos, &ml.moves[i]);
                if (verdict < 0) continue;
                decided += pins.by_seen;
                assert_int_equal(verdict, movegen_is_legal(test_gen(), &pos, &ml.moves[i]));
            }
            /* and so does any other cell the test did not look at: emptied, or given a
             * piece of the mover's of each type that is not royal */
            int mover = board_mover(&pos);
            for (Cell c = 0; pins.by_seen && c < v->ncells; c++) {
                Piece old = pos.cell[c];
                if (bits_has(pins.seen, c) || (old && (PIECE_OWNER(old) != mover || v->types[PIECE_TYPE(old)].royal)))
                    continue;
                for (int t = old ? -1 : 0; t < (old ? 0 : v->ntypes); t++) {
                    if (t >= 0 && v->types[t].royal) continue;
                    board_put(&pos, c, t < 0 ? 0 : (Piece)PIECE_MAKE(t, mover));
                    bool check = attack_royal_attacked(test_gen(), &pos, mover);
                    board_put(&pos, c, old);
                    assert_int_equal(check, pins.seen_check);
                }
            }
            if (!play_random_legal(&pos, &legal, &seed)) break;
        }
    }
    board_free(&pos);
    variant_free(v);
    return decided;
}

static void test_movegen_cells_seen_decide_as_the_full_test(void **state) {
    (void)state;
    const char *ultima[] = {NULL, "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", "8/2b4K/2q5/3p1N1p/8/8/2R5/k7 w 0",
                            "2n4k/3r4/5b2/3p4/1m6/3b4/3N4/K7 w 0", "7k/8/8/3Qr3/8/8/8/K7 w 0",
                            "7k/8/8/r3pP2/2n5/8/B7/K7 w 0", "7k/8/8/p4r2/4K3/8/8/8 w 0",
                            /* a withdrawer kept from the king by the piece behind it, or frozen */
                            "7k/8/8/8/8/4N3/4q3/4K3 w 0", "7k/8/8/8/8/3M4/4q3/4K3 w 0"};
    int checks;
    assert_true(compare_seen("rules/ultima.rules", ultima, 9, test_reps(72), 80, &checks) > test_reps(20000));
    assert_true(checks > 0);
    /* drops; a side without a royal piece */
    const char *start[] = {NULL};
    assert_true(compare_seen("rules/placement.rules", start, 1, test_reps(20), 60, &checks) > test_reps(1000));
    assert_true(compare_seen("rules/horde.rules", start, 1, test_reps(20), 80, &checks) > test_reps(1000));
}

/* The moves of a program run in C (Program.plan) against the interpreter's, piece by piece,
 * on the positions of random games from `starts`: the same moves, with the same effects in the
 * same order. Counts the programs compared, the captures, the strikes (a move onto an enemy
 * piece) and the leaps (a move that removes a piece between its two cells). */
static void compare_plans(Variant *v, const char *const *starts, int nstarts, int *programs, int *captures,
                          int *strikes, int *leaps) {
    Position pos;
    board_init(&pos, v);
    static MoveList run, plan, shared, legal;
    uint64_t seed = 99;
    test_gen()->fast = true;
    for (int game = 0; game < 40; game++) {
        set_fen(&pos, starts[game % nstarts] ? starts[game % nstarts] : v->setup);
        for (int ply = 0; ply < 60; ply++) {
            int mover = board_mover(&pos);
            PlanShare share; /* (shared by the runs on this position, as move generation does) */
            vm_share_init(&share, NULL, NULL);
            for (Cell c = 0; c < v->ncells; c++) {
                Piece p = pos.cell[c];
                if (!p || PIECE_OWNER(p) != mover) continue;
                const Program *prog = &v->types[PIECE_TYPE(p)].per_owner[mover].rest;
                if (!prog->plan) continue;
                VmFault f = {0}, g = {0};
                run.count = plan.count = shared.count = 0;
                assert_true(vm_run(test_fresh_gen(), prog, &pos, c, mover, &run, &f));
                assert_true(vm_run_plan(prog, &pos, c, mover, &plan, NULL, &g));
                assert_true(vm_run_plan(prog, &pos, c, mover, &shared, &share, &g));
                assert_int_equal(run.count, plan.count);
                assert_int_equal(run.count, shared.count);
                assert_memory_equal(plan.moves, shared.moves, sizeof(Move) * (size_t)plan.count);
                for (int i = 0; i < run.count; i++) {
                    const Move *a = &run.moves[i], *b = &plan.moves[i];
                    assert_int_equal(a->from, b->from);
                    assert_int_equal(a->to, b->to);
                    assert_int_equal(a->flags, b->flags);
                    assert_int_equal(a->promo, b->promo);
                    assert_int_equal(a->nfx, b->nfx);
                    for (int k = 0; k < a->nfx; k++) {
                        assert_int_equal(a->fx[k].kind, b->fx[k].kind);
                        assert_int_equal(a->fx[k].a, b->fx[k].a);
                        assert_int_equal(a->fx[k].b, b->fx[k].b);
                        assert_int_equal(a->fx[k].piece, b->fx[k].piece);
                    }
                    *captures += (a->flags & MOVE_CAPTURE) != 0;
                    *strikes += pos.cell[a->to] != 0;
                    const CellInfo *from = &v->cells[a->from], *to = &v->cells[a->to];
                    for (int k = 0; k < a->nfx; k++) {
                        const CellInfo *x = &v->cells[a->fx[k].a];
                        int ax = (x->x - from->x) * (to->x - x->x), ay = (x->y - from->y) * (to->y - x->y);
                        bool between = a->fx[k].kind == FX_REMOVE && ax >= 0 && ay >= 0 && (ax > 0 || ay > 0) &&
                            (x->x - from->x) * (to->y - from->y) == (x->y - from->y) * (to->x - from->x);
                        *leaps += between;
                    }
                }
                (*programs)++;
            }
            /* and the last ply of perft, which counts moves that only carry their piece as
             * it makes them (GenContext.count_seen), counts the moves listed */
            VmFault f = {0};
            movegen_legal(test_gen(), &pos, &legal, &f);
            assert_int_equal(movegen_count_legal(test_gen(), &pos, &f), legal.count);
            if (!play_random(&pos, &legal, &seed)) break;
        }
    }
    board_free(&pos);
}

/* Programs of slides with their captures, long leaps and strikes (Program.plan: Ultima's
 * every piece but the king and the immobilizer, the chameleon's imitations included) run by C
 * loops give the interpreter's moves, under both of the chameleon's leap rules. */
static void test_movegen_plans_run_as_the_interpreter(void **state) {
    (void)state;
    /* the rules page's diagrams are full of captures by moving; then a chameleon next to the
     * enemy king, chameleons with long leapers to leap, one landing by a pincer's victim */
    const char *starts[] = {NULL,
                            "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0",
                            "2n4k/3r4/5b2/3p4/1m6/3b4/3N4/K7 w 0",
                            "7k/8/8/3Qr3/8/8/8/K7 w 0",
                            "7k/8/8/r3pP2/2n5/8/B7/K7 w 0",
                            "8/8/4b3/3kB3/8/1n6/8/K6N w 0",
                            "b6k/1n6/8/3n4/1B1n1n2/8/2N3N1/K6b w 0",
                            "7k/8/3P4/3p4/B1n5/8/8/K7 w 0"};
    const int nstarts = (int)(sizeof starts / sizeof starts[0]);
    int code[2] = {0, 0};
    for (int alone = 0; alone < 2; alone++) {
        DiagSink sink;
        diag_init(&sink);
        OptionSetting opt = {"chameleon-leaps", "alone"};
        Variant *v = load_file("rules/ultima.rules", &opt, alone, &sink);
        diag_free(&sink);
        assert_non_null(v);
        int planned = 0;
        for (int t = 0; t < v->ntypes; t++) {
            planned += v->types[t].per_owner[0].rest.plan != NULL;
            code[alone] += v->types[t].per_owner[0].rest.count;
        }
        assert_int_equal(planned, 5);
        int programs = 0, captures = 0, strikes = 0, leaps = 0;
        compare_plans(v, starts, nstarts, &programs, &captures, &strikes, &leaps);
        assert_true(programs > 5000);
        assert_true(captures > 100);
        assert_true(strikes > 0);
        assert_true(leaps > 100);
        variant_free(v);
    }
    assert_int_not_equal(code[0], code[1]); /* (the option was taken) */
}

/* Games whose rules on checks read the check each move gives (racing kings forbids it,
 * three-check counts it): the fast path decides it on the attack lines without a make. */
static void test_movegen_fast_and_general_agree_check_rules(void **state) {
    (void)state;
    const char *games[] = {"rules/racingkings.rules", "rules/3check.rules"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const char *starts[] = {NULL};
        assert_true(compare_paths(games[i], starts, 1, test_reps(8), 60) > test_reps(150));
    }
}

/* Games without a royal piece: every move is legal, and the last ply's count (with the pawns'
 * atoms counted, not written) agrees with the list. */
static void test_movegen_fast_and_general_agree_games_without_royal(void **state) {
    (void)state;
    const char *games[] = {"rules/extinction.rules", "rules/threekings.rules", "rules/kinglet.rules"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const char *starts[] = {NULL};
        Variant *v = load_rules(games[i]);
        assert_true(v->every_move_legal && v->bulk_count);
        variant_free(v);
        assert_true(compare_paths(games[i], starts, 1, test_reps(12), 80) > test_reps(200));
    }
}

/* A piece's moves are merged only when two of its paths can end on one cell: the pawn's
 * double step never meets its other moves; a slide and legs along it do. */
static void test_movegen_merge_only_where_paths_meet(void **state) {
    (void)state;
    Variant *chess = load_rules("rules/chess.rules");
    int pawn = variant_type_by_letter(chess, 'P');
    assert_true(pawn >= 0);
    assert_false(chess->types[pawn].per_owner[0].may_duplicate);
    assert_false(chess->types[pawn].per_owner[1].may_duplicate);
    variant_free(chess);

    /* rays and line moves whose paths never end on one cell both moving or both capturing
     * there merge nothing (a move-only slide and a capture-only hop may); the general's step
     * into its palace and its ride onto the other general may end on one cell */
    Variant *mini = load_rules("rules/minixiangqi.rules");
    const char *letters = "NCK";
    for (int i = 0; i < 3; i++) {
        int t = variant_type_by_letter(mini, letters[i]);
        assert_true(t >= 0);
        assert_int_equal(mini->types[t].per_owner[0].may_duplicate, letters[i] == 'K');
        assert_int_equal(mini->types[t].per_owner[0].line_bits != NULL, letters[i] != 'K');
    }
    variant_free(mini);

    Variant *v = load_text_ok("version 1\nplayers white(w) black(b)\nboard 8x8\norientation black flip\n"
                              "piece King { letter K royal step compass }\n"
                              "piece Lance { letter L slide n  legs n n move-only }\n"
                              "setup \"4k3/8/8/8/8/8/8/L3K3 w - - 0 1\"\n");
    int lance = variant_type_by_letter(v, 'L');
    assert_true(v->types[lance].per_owner[0].may_duplicate);
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    static char fast[4096], general[4096];
    test_gen()->fast = true;
    legal_text(&pos, fast, sizeof fast);
    test_gen()->fast = false;
    legal_text(&pos, general, sizeof general);
    test_gen()->fast = true;
    /* a1-a3 is made by the slide and by the legs: once */
    assert_string_equal(fast, general);
    assert_non_null(strstr(fast, "a1a3 "));
    assert_null(strstr(strstr(fast, "a1a3 ") + 1, "a1a3 "));
    board_free(&pos);
    variant_free(v);
}

/* Bulk counting (a game decided by pins) counts a free piece's line moves too: a knight whose
 * quiet leaps are zoned. */
static void test_movegen_bulk_count_counts_line_moves(void **state) {
    (void)state;
    Variant *v =
        load_text_ok("version 1\nplayers white(w) black(b)\nboard 8x8\norientation black flip\n"
                     "zone middle = rank 3 rank 4 rank 5 rank 6\n"
                     "piece King { letter K royal step compass }\n"
                     "piece Knight { letter N leap sym(1,2) capture-only  leap sym(1,2) move-only to middle }\n"
                     "setup \"1n2k1n1/8/8/8/8/8/8/1N2K1N1 w - - 0 1\"\n");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    VmFault f = {0};
    test_gen()->fast = true;
    uint64_t fast = perft(test_gen(), &pos, 4, &f);
    test_gen()->fast = false;
    uint64_t general = perft(test_gen(), &pos, 4, &f);
    test_gen()->fast = true;
    assert_false(f.set);
    assert_true(general > 1000);
    assert_int_equal(fast, general);
    board_free(&pos);
    variant_free(v);
}

static void test_movegen_fast_and_general_agree_shapes(void **state) {
    (void)state;
    /* every shape of line move: zoned slides with ranges, legs with zones, near hops, victims */
    const char *starts[] = {NULL};
    assert_true(compare_paths("tests/rules/ok/shapes.rules", starts, 1, test_reps(20), 80) > test_reps(1000));
}

static void test_movegen_start_position_has_20_moves(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    static char text[8192];
    legal_text(&pos, text, sizeof text);
    assert_string_equal(text,
                        "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 g1h3 "
                        "g2g3 g2g4 h2h3 h2h4 ");
    board_free(&pos);
    variant_free(v);
}

static void test_movegen_castling_through_check_is_illegal(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    Position pos;
    board_init(&pos, v);
    /* the black rook on f8 covers f1: no O-O; d1 is free of attack: O-O-O allowed */
    set_fen(&pos, "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    static char text[8192];
    legal_text(&pos, text, sizeof text);
    assert_null(strstr(text, "e1g1"));
    assert_non_null(strstr(text, "e1c1"));
    board_free(&pos);
    variant_free(v);
}

/* The attack lines of leapers are looked at only where a leaping type stands at their far end:
 * a knight there attacks, a pawn there does not (both paths, and the playouts' tally). */
static void test_movegen_leaper_lines_by_type(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    Position pos;
    board_init(&pos, v);
    /* the knight on c4 covers d2, the pawn on d3 covers e2; the pawn also stands a knight's
     * leap from e1 and f2, which it does not attack */
    set_fen(&pos, "4k3/8/8/8/2n5/3p4/8/4K3 w - - 0 1");
    static char fast[1024], general[1024];
    legal_text(&pos, fast, sizeof fast);
    assert_string_equal(fast, "e1d1 e1f1 e1f2 ");
    test_gen()->fast = false;
    legal_text(&pos, general, sizeof general);
    test_gen()->fast = true;
    assert_string_equal(general, fast);
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    tally_agrees(&pos, &ml);
    board_free(&pos);
    variant_free(v);
}

/* The royal piece's destinations tested by attack_royal_look (leaps looked up by cell, lines
 * walked for their sliding types only) as by attack_lines_hit, and its pins and checks as by
 * attack_pins: on positions of random games, the royal piece lifted and put on every cell it
 * could go to. Returns the cells compared. */
static int royal_look_agrees(const char *rules, int games, int plies) {
    Variant *v = load_rules(rules);
    Position pos;
    board_init(&pos, v);
    static MoveList ml;
    uint64_t seed = 99;
    int compared = 0;
    for (int game = 0; game < games; game++) {
        set_fen(&pos, v->setup);
        for (int ply = 0; ply < plies; ply++) {
            int mover = board_mover(&pos);
            Cell royal = board_royal(&pos, mover);
            RoyalLook look;
            if (royal != NO_CELL && attack_royal_look_init(&look, &pos, mover, PIECE_TYPE(pos.cell[royal]))) {
                /* the pins and whether in check, where it stands */
                uint64_t pinned[CELL_WORDS], look_pinned[CELL_WORDS];
                bool checks = attack_pins(&pos, royal, mover, pinned) != 0;
                assert_int_equal(checks, attack_royal_look_pins(&look, &pos, royal, look_pinned) != 0);
                assert_int_equal(pinned[0], look_pinned[0]);
                Piece p = pos.cell[royal];
                for (Cell c = 0; c < v->ncells; c++) {
                    Piece there = pos.cell[c];
                    if (c == royal || (there && PIECE_OWNER(there) == mover)) continue;
                    pos.cell[royal] = 0;
                    pos.cell[c] = p;
                    bool lines = attack_lines_hit(&pos, c, mover, PIECE_TYPE(p)),
                         by_look = attack_royal_look_hit(&look, &pos, c, 0);
                    pos.cell[c] = there;
                    pos.cell[royal] = p;
                    if (lines != by_look) {
                        char fen[512];
                        fen_write(&pos, fen, sizeof fen);
                        print_error("%s: %s, royal piece to cell %d: lines %d, look %d\n", rules, fen, c, lines,
                                    by_look);
                    }
                    assert_int_equal(lines, by_look);
                    compared++;
                }
            }
            if (!play_random_legal(&pos, &ml, &seed)) break;
        }
    }
    board_free(&pos);
    variant_free(v);
    return compared;
}

static void test_movegen_royal_look_as_the_attack_lines(void **state) {
    (void)state;
    /* (sliders, leapers and pawns; a royal leaper; the met's and the ferz's short steps) */
    const char *games[] = {"rules/chess.rules", "rules/knightmate.rules", "rules/makruk.rules", "rules/amazon.rules",
                           "rules/losalamos.rules"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        assert_true(royal_look_agrees(games[i], test_reps(20), 120) > test_reps(20000));
}

/* A playout's tally that takes the counts of pieces none of whose cells changed from its
 * player's last tally (LegalTally.reuse) agrees with the list at every ply of random games.
 * Returns the plies compared. */
static int reused_tally_agrees(const char *rules, int games, int plies) {
    Variant *v = load_rules(rules);
    assert_non_null(v->move_reach);
    Position pos;
    board_init(&pos, v);
    static LegalTally tally;
    static MoveList ml, scratch;
    uint64_t seed = 7;
    int compared = 0;
    for (int game = 0; game < games; game++) {
        set_fen(&pos, v->setup);
        tally.reuse = true;
        for (int ply = 0; ply < plies; ply++) {
            VmFault f = {0};
            movegen_legal(test_gen(), &pos, &ml, &f);
            if (movegen_tally_legal(test_gen(), &pos, &tally, &scratch)) {
                assert_int_equal(tally.count, ml.count);
                for (int i = 0; i < ml.count; i++) {
                    const Move *m = movegen_tally_move(test_gen(), &pos, &tally, i, &scratch);
                    assert_non_null(m);
                    assert_int_equal(m->from, ml.moves[i].from);
                    assert_int_equal(m->to, ml.moves[i].to);
                    assert_int_equal(m->promo, ml.moves[i].promo);
                }
                compared++;
            }
            if (!play_random(&pos, &ml, &seed)) break;
        }
    }
    tally.reuse = false;
    board_free(&pos);
    variant_free(v);
    return compared;
}

static void test_movegen_tally_reuses_unchanged_pieces(void **state) {
    (void)state;
    /* (pins and checks, en passant and promotions; every move legal; pawns by the dozen) */
    const char *games[] = {"rules/chess.rules", "rules/makruk.rules", "rules/extinction.rules", "rules/horde.rules",
                           "rules/knightmate.rules"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        assert_true(reused_tally_agrees(games[i], test_reps(30), 200) > test_reps(1000));
}

static void test_movegen_en_passant_and_promotion(void **state) {
    (void)state;
    Variant *v = load_rules("rules/chess.rules");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1");
    static char text[8192];
    legal_text(&pos, text, sizeof text);
    assert_non_null(strstr(text, "e5d6 "));
    assert_non_null(strstr(text, "b7b8q "));
    assert_non_null(strstr(text, "b7b8n "));
    /* en passant removes the pawn on d5 */
    static MoveList ml;
    VmFault f = {0};
    movegen_legal(test_gen(), &pos, &ml, &f);
    int i = notation_find(v, &ml, "e5d6");
    assert_true(i >= 0);
    board_make(&pos, &ml.moves[i]);
    assert_int_equal(pos.cell[variant_cell_by_name(v, "d5")], 0);
    board_unmake(&pos);
    assert_int_not_equal(pos.cell[variant_cell_by_name(v, "d5")], 0);
    assert_true(board_is_ok(&pos));
    board_free(&pos);
    variant_free(v);
}

/* Who may move a steered piece is the steer rule's condition: the default (influence at least
 * 1 and at least the rival's), and a rule file's own (strictly more than the rival's). */
static void test_movegen_steer_condition(void **state) {
    (void)state;
    const char *game = "version 1\nplayers left(L) right(R)\narmies red(r) blue(b)\n"
                       "board L 3x3\nboard M 3x3\nboard R 3x3\nlink left from M to L\nlink right from M to R\n"
                       "%s\nhelps red blue\n"
                       "piece King { letter K royal step compass }\n"
                       "piece Lord { letter D influence 2 step compass move-only }\n"
                       "piece Page { letter G influence 1 step compass move-only }\n"
                       "piece Man { letter M step compass }\n"
                       "position-fields \"board side halfmove fullmove allegiance\"\n"
                       "setup \"G2/3/D2|:3m1:4m/3/:3k1:4k|g2/3/g2 L 0 1 r,b\"\n";
    /* a3: Page against Page (a tie); a1: Lord against Page; c3: nobody */
    const char *rules[2] = {"steer red blue by left right",
                            "steer red blue by left right if influence at-least 1 and not influence at-most rival"};
    const bool tie[2] = {true, false};
    for (int k = 0; k < 2; k++) {
        char text[2048];
        snprintf(text, sizeof text, game, rules[k]);
        Variant *v = load_text_ok(text);
        Position pos;
        board_init(&pos, v);
        set_fen(&pos, v->setup);
        Cell a3 = (Cell)variant_cell_by_name(v, "M:a3"), a1 = (Cell)variant_cell_by_name(v, "M:a1"),
             c3 = (Cell)variant_cell_by_name(v, "M:c3");
        assert_int_equal(mobility_may_steer(&pos, 0, a3), tie[k]);
        assert_int_equal(mobility_may_steer(&pos, 1, a3), tie[k]);
        assert_true(mobility_may_steer(&pos, 0, a1));
        assert_false(mobility_may_steer(&pos, 1, a1));
        assert_false(mobility_may_steer(&pos, 0, c3));
        assert_false(mobility_may_steer(&pos, 1, c3));
        board_free(&pos);
        variant_free(v);
    }
}

/* More moves than a list holds fail alike whether they are listed or counted as made (the
 * last ply's count of moves that only carry a piece, by the cells seen). */
static void test_movegen_too_many_moves_fail_when_counted(void **state) {
    (void)state;
    Variant *v =
        load_text_ok("version 1\nplayers white(w) black(b)\nboard 16x16\nposition-fields \"board side plies\"\n"
                     "piece King { letter K royal step compass }\n"
                     "piece Pincer { letter P slide compass move-only pincer }\n"
                     "setup \"P2P5P1P2P1/P15/P5P3P1P3/P4P1P8/5P1P3P1P1P/P15/1P4P7P1/P1P4P6P1/P4P1P7P/"
                     "P3P7P3/3P3P4P3/16/7P1P4P1/2P2P5P4/8P3PP2/P9P2PPK w 0\"\n");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    for (int fast = 1; fast >= 0; fast--) {
        test_gen()->fast = fast;
        VmFault f = {0};
        (void)movegen_count_legal(test_gen(), &pos, &f);
        assert_true(f.set);
        assert_non_null(strstr(f.msg, "too many moves"));
    }
    test_gen()->fast = true;
    board_free(&pos);
    variant_free(v);
}

/* A program that faults while it is asked "could you capture the king?" makes the legal move
 * list untrustworthy: the fault is reported, never taken for "no". */
static void test_movegen_fault_in_an_attack_test_is_reported(void **state) {
    (void)state;
    Variant *v =
        load_text_ok("version 1\nplayers white(w) black(b)\nboard 8x8\n"
                     "piece King { letter K royal step compass }\n"
                     "piece T { letter T move { either { verify not on-board (0,7) while empty or not empty { } }"
                     " or { step s step s add } } }\n"
                     "setup \"4t2k/8/8/3K4/8/8/8/8 w\"\n");
    Position pos;
    board_init(&pos, v);
    set_fen(&pos, v->setup);
    static MoveList ml;
    VmFault f = {0};
    assert_false(movegen_legal(test_gen(), &pos, &ml, &f));
    assert_true(f.set);
    assert_int_equal(f.line, 5);
    VmFault g = {0};
    (void)movegen_count_legal(test_gen(), &pos, &g);
    assert_true(g.set);
    board_free(&pos);
    variant_free(v);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_movegen_start_position_has_20_moves),
        cmocka_unit_test(test_movegen_castling_through_check_is_illegal),
        cmocka_unit_test(test_movegen_en_passant_and_promotion),
        cmocka_unit_test(test_movegen_fast_and_general_agree_chess),
        cmocka_unit_test(test_movegen_leaper_lines_by_type),
        cmocka_unit_test(test_movegen_royal_look_as_the_attack_lines),
        cmocka_unit_test(test_movegen_tally_reuses_unchanged_pieces),
        cmocka_unit_test(test_movegen_fast_and_general_agree_pinned_games),
        cmocka_unit_test(test_movegen_fast_and_general_agree_royal_flight),
        cmocka_unit_test(test_movegen_fast_and_general_agree_ultima),
        cmocka_unit_test(test_movegen_fast_and_general_agree_captures_after_leaps),
        cmocka_unit_test(test_movegen_fast_and_general_agree_ultimate_battle),
        cmocka_unit_test(test_movegen_fast_and_general_agree_above_below),
        cmocka_unit_test(test_movegen_fast_and_general_agree_xiangqi),
        cmocka_unit_test(test_movegen_fast_and_general_agree_minixiangqi),
        cmocka_unit_test(test_movegen_fast_and_general_agree_janggi),
        cmocka_unit_test(test_movegen_fast_and_general_agree_cambodian),
        cmocka_unit_test(test_movegen_fast_and_general_agree_karouk),
        cmocka_unit_test(test_movegen_fast_and_general_agree_shapes),
        cmocka_unit_test(test_movegen_bulk_count_counts_line_moves),
        cmocka_unit_test(test_movegen_cells_seen_decide_as_the_full_test),
        cmocka_unit_test(test_movegen_plans_run_as_the_interpreter),
        cmocka_unit_test(test_movegen_fast_and_general_agree_games_without_royal),
        cmocka_unit_test(test_movegen_fast_and_general_agree_check_rules),
        cmocka_unit_test(test_movegen_merge_only_where_paths_meet),
        cmocka_unit_test(test_movegen_steer_condition),
        cmocka_unit_test(test_movegen_too_many_moves_fail_when_counted),
        cmocka_unit_test(test_movegen_fault_in_an_attack_test_is_reported),
    };
    return cmocka_run_group_tests_name("movegen", tests, NULL, NULL);
}
