#!/bin/sh
# uci.sh VARIA - scripted UCI sessions (standard input a pipe, as a GUI's): the handshake,
# choosing a game, positions with moves, searches that return a legal move, `go perft` as
# Fairy-Stockfish prints it, and bad input answered with errors that leave the position as it
# was.
varia=${1:?usage: uci.sh VARIA}
protocol=uci
answer=bestmove
. "$(dirname "$0")/lib.sh"

# 1. The handshake and the games offered.
session hello 'uci\nisready\nquit\n'
check hello "uciok" has hello "uciok"
check hello "readyok" has hello "readyok"
check hello "id name" has hello "id name Varia"
check hello "variants offered" has hello "option name UCI_Variant type combo default chess var "
check hello "chess offered" has hello " var chess var "
check hello "ultima offered" has hello " var ultima var ultimate-battle"
check hello "no game that does not fit" lacks hello "ultimate-chess-4p"
check hello "rule file option" has hello "option name RulesFile type string"
check hello "exit status" [ "$(cat "$tmp/hello.rc")" = 0 ]

# 2. A position with moves, a search to a depth: a legal move.
after='rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'
session chess 'uci\nposition startpos moves e2e4 e7e5 g1f3\nd\ngo depth 3\n'
check chess "the position after the moves" has chess "Fen: $after"
check chess "info lines" has chess "info depth 3 score cp"
check chess "one bestmove" [ "$(count chess '^bestmove')" = 1 ]
check chess "a legal bestmove" legal chess "$root/rules/chess.rules" "$after"

# 3. Another game by UCI_Variant; a clock that leaves little time; the end of input waits for
#    the search to answer.
ultima='rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0'
session ultima 'uci\nsetoption name UCI_Variant value ultima\nposition startpos\ngo wtime 300 btime 300\n'
check ultima "the variant line" has ultima "info string variant ultima files 8 ranks 8 startpos $ultima"
check ultima "a legal bestmove" legal ultima "$root/rules/ultima.rules" "$ultima"

# 4. go infinite answers only after stop, once.
session infinite 'uci\nposition startpos\ngo infinite\nisready\nstop\nquit\n'
check infinite "readyok while thinking" has infinite "readyok"
check infinite "one bestmove" [ "$(count infinite '^bestmove')" = 1 ]
check infinite "a legal bestmove" legal infinite "$root/rules/chess.rules" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# 5. go perft prints what Fairy-Stockfish prints (move counts, then Nodes searched).
kiwi='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
session perft "uci\nposition fen $kiwi\ngo perft 3\nquit\n"
check perft "nodes" has perft "Nodes searched: 97862"
check perft "per move" has perft "e1g1: 2059"
fsf=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
if [ -x "$fsf" ]; then
    printf 'uci\nposition fen %s moves e1g1 b4c3\ngo perft 3\nquit\n' "$kiwi" | "$fsf" 2>/dev/null |
        grep -E '^[a-h][1-8][a-h][1-8][a-z]?: |^Nodes' | sort >"$tmp/fsf.txt"
    session perft2 "uci\nposition fen $kiwi moves e1g1 b4c3\ngo perft 3\nquit\n"
    grep -E '^[a-h][1-8][a-h][1-8][a-z]?: |^Nodes' "$tmp/perft2.out" | sort >"$tmp/ours.txt"
    check perft2 "the same lines as Fairy-Stockfish" cmp -s "$tmp/fsf.txt" "$tmp/ours.txt"
fi

# 6. Limits: a node count ends the search by itself (the end of input waits for it); a mate
#    search stops at the mate; searchmoves keeps the search to the moves named; a clock with
#    movestogo.
session nodes 'uci\nposition startpos\ngo nodes 3000\n'
check nodes "a bestmove by itself" [ "$(count nodes '^bestmove')" = 1 ]
check nodes "within the node count" sh -c "sed -n 's/.* nodes \([0-9]*\) .*/\1/p' '$tmp/nodes.out' | awk '\$1 > 3000 + 1024 { bad = 1 } END { exit bad }'"
mate2='k7/8/2K5/8/8/8/8/7R w - - 0 1'
session mate "uci\nposition fen $mate2\ngo mate 2\n"
check mate "the mate found" has mate "score mate 2"
check mate "a legal bestmove" legal mate "$root/rules/chess.rules" "$mate2"
session only 'uci\nposition startpos\ngo depth 3 searchmoves a2a3 h2h3\ngo searchmoves e2e5 depth 2\n'
check only "one of the moves named" matches only '^bestmove (a2a3|h2h3)$'
check only "a move that is not legal" has only "info string error: searchmoves: 'e2e5' is not a legal move"
check only "one bestmove" [ "$(count only '^bestmove')" = 1 ]
session togo 'uci\nposition startpos moves e2e4\ngo wtime 2000 btime 2000 winc 0 binc 0 movestogo 40\n'
check togo "a legal bestmove" legal togo "$root/rules/chess.rules" "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"

# 7. Passes as Fairy-Stockfish writes them, the royal piece's cell twice (`pass` and `0000`
#    read too): in go perft, in position and in bestmove.
session pass 'uci\nsetoption name UCI_Variant value janggi\nposition startpos\ngo perft 1\nposition startpos moves pass\nd\nposition startpos moves e2e2\ngo perft 1\ngo depth 1 searchmoves e9e9\n'
check pass "the pass in perft" has pass "e2e2: 1"
check pass "no pass word" lacks pass "pass:"
check pass "pass read" [ "$(count pass '^Fen: .* b - - 1 1$')" = 1 ]
check pass "black's pass" has pass "e9e9: 1"
check pass "the pass played" has pass "bestmove e9e9"
if [ -x "$fsf" ]; then
    printf 'uci\nsetoption name UCI_Variant value janggi\nposition startpos moves e2e2 e9e8\ngo perft 2\nquit\n' | "$fsf" 2>/dev/null |
        grep -E '^[a-i][0-9]+[a-i][0-9]+: |^Nodes' | sort >"$tmp/fsf-pass.txt"
    session pass2 'uci\nsetoption name UCI_Variant value janggi\nposition startpos moves e2e2 e9e8\ngo perft 2\nquit\n'
    grep -E '^[a-i][0-9]+[a-i][0-9]+: |^Nodes' "$tmp/pass2.out" | sort >"$tmp/ours-pass.txt"
    check pass2 "passes in perft as Fairy-Stockfish writes them" cmp -s "$tmp/fsf-pass.txt" "$tmp/ours-pass.txt"
fi

# 8. Bad input: errors, and the position stays as it was.
session bad "uci\nposition startpos moves e2e4\nposition startpos moves e2e4 e2e4\nposition fen garbage\nposition fen\nposition\ngo depth x\ngo depth\ngo sideways\nsetoption name UCI_Variant value nope\nsetoption name RulesFile value $root/rules/ultimate-chess-4p.rules\nsetoption name RulesFile value /nonexistent.rules\nfoo bar\n\001\002\377\nd\nquit\n"
check bad "illegal move named" has bad "info string error: illegal move 'e2e4' (move 2 of the list)"
check bad "bad position named" has bad "info string error: bad position 'garbage'"
check bad "bad number named" has bad "info string error: bad number 'x' after 'depth'"
check bad "missing number" has bad "info string error: 'depth' needs a number"
check bad "unknown go parameter" has bad "info string error: unknown go parameter 'sideways'"
check bad "unknown variant" has bad "info string error: unknown variant 'nope'"
check bad "a game that does not fit" has bad "cannot be played here: the engine protocols play games of two players"
check bad "a missing file" has bad "cannot read rule file"
check bad "unknown command" has bad "info string error: unknown command 'foo'"
check bad "control characters not echoed" has bad "info string error: unknown command '??"
check bad "the position kept" has bad "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
check bad "no search started" lacks bad "bestmove"

# 9. The options GUIs expect: Hash, Threads (a search on two threads answers a legal move),
#    Ponder (go ponder thinks until ponderhit, then answers on its clock), Skill Level,
#    UCI_LimitStrength and UCI_Elo; bad values refused, naming the range.
session options 'uci\nsetoption name Hash value 8\nsetoption name Threads value 2\nposition startpos moves e2e4\ngo depth 4\nisready\nsetoption name Hash value 0\nsetoption name Threads value x\nsetoption name Skill Level value 21\nsetoption name UCI_Elo value 5\nsetoption name Ponder value maybe\nquit\n'
check options "listed" sh -c "grep -q '^option name Hash type spin default 32 min 1 max 4096' '$tmp/options.out' && grep -q '^option name Threads type spin' '$tmp/options.out' && grep -q '^option name Ponder type check' '$tmp/options.out' && grep -q '^option name Skill Level type spin default 20 min 0 max 20' '$tmp/options.out' && grep -q '^option name UCI_LimitStrength type check' '$tmp/options.out' && grep -q '^option name UCI_Elo type spin' '$tmp/options.out'"
check options "two threads play a legal move" legal options "$root/rules/chess.rules" "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
check options "bad hash" has options "info string error: Hash takes a number from 1 to 4096, not '0'"
check options "bad threads" has options "info string error: Threads takes a number from 1 to 64, not 'x'"
check options "bad skill" has options "info string error: Skill Level takes a number from 0 to 20, not '21'"
check options "bad elo" has options "info string error: UCI_Elo takes a number from 1000 to 2150, not '5'"
check options "bad check" has options "info string error: Ponder is true or false, not 'maybe'"
{
    printf 'uci\nsetoption name Ponder value true\nposition startpos moves e2e4 e7e5\ngo ponder wtime 2000 btime 2000\n'
    sleep 1
    printf 'isready\n'
    sleep 0.5
    printf 'ponderhit\n'
    sleep 2
    printf 'quit\n'
} | "$varia" uci >"$tmp/ponder.out" 2>&1
check ponder "no answer while pondering" sh -c "grep -n 'readyok\|bestmove' '$tmp/ponder.out' | head -n 1 | grep -q readyok"
check ponder "an answer after ponderhit" legal ponder "$root/rules/chess.rules" "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
session weak 'uci\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1000\nposition startpos\ngo depth 8\n'
check weak "a weakened player searches shallow" lacks weak "info depth 3 "
check weak "and answers" legal weak "$root/rules/chess.rules" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

finish
