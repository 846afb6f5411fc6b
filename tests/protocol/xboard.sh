#!/bin/sh
# xboard.sh VARIA - scripted XBoard (CECP v2) sessions, standard input a pipe as a GUI's: the
# handshake and features, new/variant, user moves answered with legal moves, force/undo,
# setboard, ping, illegal moves refused with the position kept, results claimed, the games
# XBoard does not know described (setup, piece lines, highlight), and garbage answered.
varia=${1:?usage: xboard.sh VARIA}
protocol=xboard
answer=move
. "$(dirname "$0")/lib.sh"
start='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR'

# 1. The handshake: features, the games offered, done=1; xboard and the other commands a GUI
#    sends are taken quietly.
session hello 'xboard\nprotover 2\naccepted setboard\nrejected foo\nhard\neasy\nrandom\ncomputer\nname someone\ndraw\notim 100\nping 7\nquit\n'
check hello "features" has hello 'feature myname="Varia" setboard=1 usermove=1 ping=1 sigint=0'
check hello "san and highlight" has hello "san=0 highlight=1"
check hello "variants offered" matches hello 'feature variants="([a-z0-9-]+,)*normal,([a-z0-9-]+,)*ultima,ultimate-battle[,"]'
check hello "done" has hello "feature done=1"
check hello "quiet commands" [ "$(count hello '^Error')" = 0 ]
check hello "pong" has hello "pong 7"
check hello "exit status" [ "$(cat "$tmp/hello.rc")" = 0 ]

# 2. `varia uci` becomes an XBoard engine when the first line is `xboard`.
printf 'xboard\nprotover 2\nping 1\nquit\n' | "$varia" uci >"$tmp/switch.out" 2>&1
check switch "features from varia uci" has switch "feature done=1"
check switch "no UCI answer" lacks switch "info string"

# 3. new, a user move, the engine's answer (a legal move) with thinking output; ping waits for
#    the move.
session chess 'xboard\nprotover 2\nnew\npost\nsd 3\nusermove e2e4\nping 1\nquit\n'
check chess "one move" [ "$(count chess '^move ')" = 1 ]
check chess "a legal move" legal chess "$root/rules/chess.rules" "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
check chess "thinking output" grep -qE '^3 -?[0-9]+ [0-9]+ [0-9]+ [a-h][1-8][a-h][1-8]' "$tmp/chess.out"
check chess "pong after move" sh -c "grep -E '^(move|pong)' '$tmp/chess.out' | tail -n 1 | grep -qx 'pong 1'"

# 4. go: the engine plays the side to move; force, undo and remove; a move the engine must not
#    answer in force mode.
session force 'protover 2\nnew\nforce\nusermove e2e4\nusermove e7e5\nremove\nundo\nundo\nusermove d2d4\nsd 2\ngo\nping 2\n'
check force "no answer in force mode, one after go" [ "$(count force '^move ')" = 1 ]
check force "undo past the start refused" has force "Error (command not legal now): undo"
check force "go plays black after d2d4" legal force "$root/rules/chess.rules" "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"

# 5. Illegal moves refused, the position kept; garbage answered without a crash.
session bad 'protover 2\nnew\nforce\nusermove e2e5\nusermove e2e4\nusermove e2e4\ne7e5\nfoo bar\n\001\002\377\nusermove\nvariant nope\nsetboard garbage\nlevel 1\nlift z9\nhover e2\nsd 1\ngo\nping 3\nquit\n'
check bad "illegal move" has bad "Illegal move: e2e5"
check bad "the same move twice" [ "$(count bad '^Illegal move: e2e4')" = 1 ]
check bad "a bare move" lacks bad "Illegal move: e7e5"
check bad "unknown command" has bad "Error (unknown command): foo"
check bad "control characters not echoed" has bad "Error (unknown command): ??"
check bad "unknown variant" has bad "Error (unknown variant): nope"
check bad "bad position" has bad "tellusererror Illegal position"
check bad "empty highlight" has bad "highlight 8/8/8/8/8/8/8/8"
check bad "the position kept" legal bad "$root/rules/chess.rules" "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
check bad "still answering" has bad "pong 3"

# 6. setboard and results: a mate claimed after the user's move and after the engine's,
#    stalemate drawn.
session mate 'protover 2\nnew\nforce\nsetboard 7k/Q7/6K1/8/8/8/8/8 w - - 0 1\nusermove a7g7\nping 1\nnew\nforce\nsetboard 7k/8/6K1/8/8/8/Q7/8 w - - 0 1\nsd 3\ngo\nping 2\n'
check mate "mate by the user" [ "$(count mate '^1-0 {White mates}')" = 2 ]
check mate "the engine mates" sh -c "grep -A1 '^move ' '$tmp/mate.out' | grep -q '^1-0 {White mates}'"
session stale 'protover 2\nnew\nforce\nsetboard 7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\nusermove f1f7\n'
check stale "stalemate" has stale "1/2-1/2 {Stalemate}"

# 7. A game XBoard does not know: setup with the piece table, size and start; highlight
#    answers to lift (targets yellow, captures red); piece lines where Betza can say it.
session ultima 'protover 2\nnew\nvariant ultima\nlift e2\nlift a1\nlift e4\nsd 2\nusermove e2e4\nping 1\n'
check ultima "setup" has ultima "setup (.NBRQP....M..........K.nbrqp....m..........k) 8x8+0_fairy rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w - - 0 1"
check ultima "the pincer's targets" has ultima "highlight 8/8/4Y3/4Y3/4Y3/4Y3/8/8"
check ultima "a blocked piece" [ "$(count ultima '^highlight 8/8/8/8/8/8/8/8$')" = 2 ]
check ultima "the king's moves" has ultima "piece K& K"
check ultima "no Betza for pieces that capture by moving" lacks ultima "piece P&"
check ultima "a legal answer" legal ultima "$root/rules/ultima.rules" "rnbkqbnm/pppppppp/8/8/4P3/8/PPPP1PPP/MNBQKBNR b 1"
# a withdrawer's capture away from its landing cell: red where it lands, the victim green
session withdraw 'protover 2\nnew\nvariant ultima\nforce\nsetboard 4k3/8/8/8/8/3p4/4Q3/K7 w - - 0 1\nlift e2\nhover f1\nusermove e2f1\nping 1\n'
check withdraw "capture marked red" grep -q '^highlight .*R' "$tmp/withdraw.out"
check withdraw "victim marked green" has withdraw "highlight 8/8/8/8/8/3G4/8/8"
check withdraw "the capture accepted" lacks withdraw "Illegal move"
# XBoard's promotion added to a pawn that does not promote: the plain move (chess keeps its own)
# captures by moving name their victims as legs, for XBoard removes only what a move names: one
# victim a second leg through it, two XBoard's three-leg form; legs read back as XBoard passes
# them on, each leg starting where the last ended, every cell passed a victim
session legs 'protover 2\nnew\nvariant ultima\nforce\nsetboard 4k3/8/8/8/8/3p4/4Q3/K7 w - - 0 1\nsd 2\ngo\nping 1\nvariant ultima\nforce\nsetboard 7k/8/8/3p4/1Pp1pP2/8/8/K2P4 w - - 0 1\nsd 1\ngo\nping 2\n'
check legs "a withdrawal through its victim" has legs "move e2d3,d3f1"
check legs "a pincer's two victims" has legs "move d1e4xc4-d4"
session readlegs 'protover 2\nnew\nvariant ultima\nforce\nsetboard 7k/8/3Q4/3p4/1Pp1pP2/8/8/K2P4 w - - 0 1\nusermove d1e4,e4c4,c4d5\nusermove d1e4,e4b4,b4d4\nusermove d1e4,e5c4,c4d4\nusermove d1d4,\nusermove d1e4,e4c4,c4d4q\nusermove d1e4,e4c4,c4d4\nusermove h8h7\nping 1\n'
check readlegs "bad chains refused" [ "$(count readlegs '^Illegal move')" = 5 ]
check readlegs "two victims of three named" [ "$(count readlegs '^Illegal move: d1e4,e4c4,c4d4$')" = 0 ]
check readlegs "the game goes on" lacks readlegs "Illegal move: h8h7"
# XBoard's own atomic chess: XBoard explodes the pieces itself, the move stays plain
session atomic 'protover 2\nnew\nvariant atomic\nforce\nsetboard 4k3/4pp2/8/6N1/8/8/8/4K3 w - - 0 1\nsd 1\ngo\nping 1\n'
check atomic "the explosion not named" has atomic "move g5f7"
session nopromo 'protover 2\nvariant ultima\nforce\nsetboard 4k3/8/8/8/8/8/4p3/K7 b - - 0 1\nusermove e2e1q\nusermove e2e1\nnew\nforce\nsetboard 4k3/P7/8/8/8/8/8/K7 w - - 0 1\nusermove a7a8\nusermove a7a8x\n'
check nopromo "the plain move taken" [ "$(grep -c '^Illegal move' "$tmp/nopromo.out")" = 3 ]
check nopromo "chess promotions kept" has nopromo "Illegal move: a7a8x"
session battle 'protover 2\nnew\nvariant ultimate-battle\nlift b1\n'
check battle "setup" has battle "setup (.NBRQP...............K.nbrqp...............k) 8x8+0_fairy $start w - - 0 1"
check battle "camel" has battle "piece N& C"
check battle "rook" has battle "piece R& R"
check battle "no lame king" lacks battle "piece K&"
check battle "the camel's targets" has battle "highlight 8/8/8/8/Y1Y5/8/8/8"

# XBoard's own xiangqi and capablanca need no description (a setup would make them XBoard's
# `fairy`, which the other engine of a match does not play).
session native 'protover 2\nvariant xiangqi\nvariant capablanca\nping 1\n'
check native "no setup" lacks native "setup"
check native "no error" [ "$(count native '^Error')" = 0 ]
# XBoard's own shogi: no setup; a promotion is written and read with XBoard's `+` (the horse
# then steps orthogonally: h8h7), a move that could promote but does not may carry XBoard's `=`;
# a `+` out of the camp is refused.
session shogi 'protover 2\nnew\nvariant shogi\nforce\nc3c4\ng7g6\nb2h8=\nundo\nb2h8+\na7a6\nh8h7\nc4c5+\nping 1\nsetboard 8k/4P4/9/9/9/9/1+r7/9/K8[-] w - - 0 1\nsd 2\ngo\nping 2\n'
check shogi "no setup" lacks shogi "setup"
check shogi "the deferral and the promotion read" [ "$(count shogi '^Illegal move')" = 1 ]
check shogi "a promotion out of the camp refused" has shogi "Illegal move: c4c5+"
check shogi "the forced promotion written with +" has shogi "move e8e9+"

# 8. Chess-like pieces of a rule file XBoard does not know by name: Betza from the atoms.
cp "$root/rules/chess.rules" "$tmp/mychess.rules"
session mychess 'protover 2\nvariant mychess\n' "$tmp/mychess.rules"
check mychess "offered" matches mychess 'variants=".*,mychess"'
check mychess "queen" has mychess "piece Q& Q"
check mychess "knight" has mychess "piece N& N"
check mychess "bishop" has mychess "piece B& B"
check mychess "no castling king" lacks mychess "piece K&"
check mychess "no pawn" lacks mychess "piece P&"

# 9. Analysis: thinking without a move until `exit`, `.` answered with the search's status,
#    ping answered while it thinks, a move made while analysing analysed in turn.
# waitfor NAME PATTERN: until the session's output has a line matching PATTERN (at most 30 s)
waitfor() {
    k=0
    while ! grep -qE -- "$2" "$tmp/$1.out" 2>/dev/null && [ $k -lt 300 ]; do sleep 0.1; k=$((k + 1)); done
}
thinking='^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ '
{
    printf 'xboard\nprotover 2\nnew\nforce\nanalyze\n'
    waitfor analyze "$thinking"
    printf '.\nping 1\nusermove e2e4\n'
    waitfor analyze "$thinking(e7|d7|g8|b8)"
    printf 'exit\nping 2\nquit\n'
} | "$varia" xboard >"$tmp/analyze.out" 2>&1
check analyze "the feature" has analyze "analyze=1"
check analyze "thinking output" grep -qE "$thinking" "$tmp/analyze.out"
check analyze "status" grep -qE '^stat01: [0-9]+ [0-9]+ [0-9]+ 0 0$' "$tmp/analyze.out"
check analyze "ping answered" [ "$(count analyze '^pong')" = 2 ]
check analyze "no move" lacks analyze "move "
best=$(grep -E "$thinking" "$tmp/analyze.out" | tail -n 1 | cut -d' ' -f5)
check analyze "the position after the move analysed" sh -c "'$varia' moves '$root/rules/chess.rules' --fen 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1' | grep -qx '$best'"

# 10. Passes as Fairy-Stockfish writes them, the royal piece's cell twice in XBoard's cell
#     names (e1e1), @@@@ and `pass` read too.
session pass 'protover 2\nvariant janggi\nforce\nusermove e1e1\nusermove @@@@\nping 1\nvariant janggi\nforce\nusermove pass\nundo\nusermove e8e8\nusermove e1e1\n'
check pass "two passes end the game" has pass "0-1 {Black wins by points after two passes}"
check pass "a pass for the wrong side" [ "$(count pass '^Illegal move')" = 1 ]

# 10b. strength options, as UCI's: offered as features, a limited rating searches shallow and
#      still answers, bad names and values refused.
session strength 'xboard\nprotover 2\nnew\noption UCI_LimitStrength=1\noption UCI_Elo=1000\npost\nsd 8\ngo\noption UCI_Elo=5\noption Nope=1\noption junk\n'
check strength "features" has strength 'feature option="UCI_Elo -spin 2150 1000 2150"'
check strength "a weakened player searches shallow" sh -c "! grep -E '^3 -?[0-9]+ ' '$tmp/strength.out'"
check strength "and answers" legal strength "$root/rules/chess.rules" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
check strength "bad values" [ "$(count strength '^Error (')" = 3 ]

# 11. memory, cores, hard/easy: pondering on the expected reply (ping answered at once), the
#     expected reply answered from that search, another reply searched afresh.
session smp 'xboard\nprotover 2\nnew\nmemory 8\ncores 2\nsd 4\nusermove e2e4\nping 1\nmemory 0\ncores x\n'
check smp "features" has smp "memory=1 smp=1"
check smp "a legal move on two threads" legal smp "$root/rules/chess.rules" "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
check smp "bad values" [ "$(count smp '^Error (bad value)')" = 2 ]
{
    printf 'xboard\nprotover 2\nnew\nhard\npost\nlevel 0 1 0\ntime 1000\notim 1000\nusermove e2e4\n'
    waitfor ponder '^move '
    sleep 0.3
    printf 'ping 1\n'
    waitfor ponder '^pong 1'
    # the expected reply: the second move of the last line of thinking before the move
    expected=$(sed -n '/^move /q;p' "$tmp/ponder.out" | grep -E "$thinking" | tail -n 1 | cut -d' ' -f6)
    printf 'usermove %s\n' "$expected"
    # (the second move: it may come late on a slow machine, as under valgrind)
    k=0
    while [ "$(grep -c '^move ' "$tmp/ponder.out")" -lt 2 ] && [ $k -lt 300 ]; do sleep 0.1; k=$((k + 1)); done
    printf 'quit\n'
} | "$varia" xboard >"$tmp/ponder.out" 2>&1
check ponder "pong while pondering, before a second move" sh -c "grep -E '^(move|pong)' '$tmp/ponder.out' | sed -n 2p | grep -qx 'pong 1'"
check ponder "the expected reply answered" [ "$(count ponder '^move ')" = 2 ]
session easy 'xboard\nprotover 2\nnew\nhard\neasy\nsd 3\nusermove e2e4\nping 1\n'
check easy "no pondering after easy" [ "$(count easy '^move ')" = 1 ]

session badtc 'xboard\nprotover 2\nst x\nsd 0\ntime\nping 1\n'
check badtc "bad time controls named" [ "$(count badtc '^Error (bad value): \(st\|sd\|time\)$')" = 3 ]

finish
