#!/bin/sh
# run.sh VARIA - scripted console sessions (stdin is a pipe, stdout a file: no terminal, as in
# CI). Every shipped rule file is played to a result by the computer; typed moves, commands,
# bad input and save files are checked; then a terminal session through tmux when installed.
varia=${1:?usage: run.sh VARIA}
dir=$(dirname "$0")
root=$dir/../..
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# play NAME INPUT ARGS...: runs a session, output in $tmp/NAME.out
play() {
    name=$1 input=$2
    shift 2
    printf '%b' "$input" | LC_ALL=C NO_COLOR=1 "$varia" play "$@" >"$tmp/$name.out" 2>&1
    echo $? >"$tmp/$name.rc"
}
# expect NAME TEXT: the session's output contains TEXT (fixed string)
expect() {
    n=$((n + 1))
    if ! grep -qF -- "$2" "$tmp/$1.out"; then
        echo "play test '$1': expected '$2' in:" >&2
        tail -n 30 "$tmp/$1.out" >&2
        fail=1
    fi
}
# reject NAME TEXT: the output must not contain TEXT
reject() {
    n=$((n + 1))
    if grep -qF -- "$2" "$tmp/$1.out"; then
        echo "play test '$1': did not expect '$2'" >&2
        fail=1
    fi
}
# fens NAME: the lines printed by 'fen', in order
fens() { grep -E '^[^ ]+/[^ ]+ [a-z]+ ' "$tmp/$1.out"; }

# 1. Every shipped rule file (and the three-player test game) plays to a result.
# VARIA_PLAY_GAMES names the rule files to play (memcheck plays the seed games, chess and one
# game with move programs: the library's other games run the same code, slowly under valgrind).
for rules in "$root"/rules/*.rules "$dir/three.rules"; do
    base=$(basename "$rules" .rules)
    case " ${VARIA_PLAY_GAMES:-$base} " in *" $base "*) ;; *) continue ;; esac
    players=$("$varia" check "$rules" | sed -n 's/.*", \([0-9]*\) players.*/\1/p')
    seats=$(seq "$players" | sed 's/.*/--seat &=ai/' | tr '\n' ' ')
    # shellcheck disable=SC2086
    play "auto-$base" "" "$rules" $seats --depth 1
    expect "auto-$base" "game over:"
    reject "auto-$base" "error"
done

# 1b. With more than two players, conceding defeats only that player; the others play on.
play concede 'resign\nfen\nquit\n' "$root/rules/ultimate-chess-4p.rules" --seat 1=human --seat 2=human --seat 3=human --seat 4=human
expect concede "Silver concedes; the others play on"
expect concede "/12/12 r kq:3K:3Q:4K:4Q - 0 1 s"
reject concede "game over"

# 2. Typed moves in both notations up to checkmate (fool's mate).
play fools 'f2f3\ne5\ng4\nQh4#\n' "$root/rules/chess.rules" --white human --black human
expect fools "game over: Black wins by checkmate. 0-1"

# 2a. A game's end is announced in the rule file's words: a king blown up, a full board.
play atomic-end '' "$root/rules/atomic.rules" --fen '4k3/3n4/8/8/8/8/8/3RK3 w - - 0 1' --white ai --black ai --depth 2
expect atomic-end "game over: White wins by king blown up. 1-0"
play ataxx-end '' "$root/rules/ataxx.rules" --fen 'PPPPPPP/PPPPPPP/PPPPPPP/ppppppp/ppppppp/ppppppp/pppppp1 w 0 1' --white ai --black ai --depth 1
expect ataxx-end "game over: Black wins by stone count. 0-1"
play flipello-end '' "$root/rules/flipello.rules" --fen 'PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP/pppppppp/pppppppp/pppppppp/pppppppp w 0 1' --white ai --black ai --depth 1
expect flipello-end "game over: draw by stone count. 1/2-1/2"

# 2b. Long algebraic notation: origin and destination, '-' or 'x', piece letter, any case.
play long-algebraic 'e2-e4\nE7E5\nNg1-f3\nb8-c6\nf1xc4\na7-a4\nfen\n' "$root/rules/chess.rules" --white human --black human
expect long-algebraic "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
expect long-algebraic "illegal move 'a7-a4'"

# 2d. Alice chess: typed moves go through the looking glass (a capture on board B lands on A);
# Marseillais: two moves a turn, a castle that gives check typed without its kind ends it.
play alice-typed 'A e2-B:e4\nA d7-B:d5\nB e4-A:d5\nfen\nquit\n' "$root/rules/alice.rules" --white human --black human
expect alice-typed "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR|8/8/8/8/8/8/8/8 b KQkq - 0 2"
play marseillais-typed 'e2e4\ne7e5\nd7d5\nNf3\nfen\nquit\n' "$root/rules/marseillais.rules" --white human --black human
expect marseillais-typed "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq d6 0 2 second"
play castle-check 'e1g1\nfen\nquit\n' "$root/rules/marseillais.rules" --fen '5k2/8/8/8/8/8/8/4K2R w K - 0 2 first' --white human --black human
expect castle-check "5k2/8/8/8/8/8/8/5RK1 b - - 1 2 first"

# 2c. Arguments that do not fit the game or the command are refused.
play seat3 '' "$root/rules/chess.rules" --seat 3=ai
expect seat3 "varia: --seat 3: Chess has 2 players"
play extra '' chess ultima
expect extra "varia: play: unexpected argument 'ultima'"
# a seat number no game has is refused with the game's own seats; a minus sign on a time is
# refused, even on zero; a file that is not text is not read as a rule file
play seat0 '' "$root/rules/chess.rules" --seat 0=ai
expect seat0 "varia: --seat 0: Chess has 2 players: seats 1 to 2"
play seat9 '' "$root/rules/ultimate-chess-4p.rules" --seat 9=ai
expect seat9 "has 4 players: seats 1 to 4"
play minus-time 'time -0\ntime -1\ndepth -0\ntime 0.5\n' "$root/rules/chess.rules" --white human --black human
expect minus-time "usage: time SECONDS"
reject minus-time "time per move: -"
reject minus-time "depth limit: 0"
expect minus-time "time per move: 0.5 s"
play minus-time-arg '' "$root/rules/chess.rules" --time -0
expect minus-time-arg "varia: bad --time '-0'"
printf 'version 1\ngame "Binary"\n\001\000\002ELF' >"$tmp/binary.rules"
"$varia" check "$tmp/binary.rules" >"$tmp/check-binary.out" 2>&1
expect check-binary "$tmp/binary.rules:3:2: error: not a rule file: it holds binary data (a NUL byte), and a rule file is text"
reject check-binary "unexpected character"
n=$((n + 1))
[ "$(wc -l <"$tmp/check-binary.out")" = 1 ] || { echo "play test 'check-binary': more than one line" >&2; fail=1; }
play play-binary '' "$tmp/binary.rules"
expect play-binary "not a rule file: it holds binary data"

# 3. Bad input leaves the game as it was.
play bad 'fen\ne2e5\nxyzzy\nNc3d\ne1g1\nNd2\nfoo bar\nmoves e9\n\n   \nfen\n' "$root/rules/chess.rules" --white human --black human
expect bad "illegal move 'e2e5': the Pawn on e2 can play only e3, e4"
expect bad "unknown command or illegal move 'xyzzy'"
expect bad "illegal move 'e1g1'"
expect bad "illegal move 'Nd2'"
expect bad "unknown command 'foo'"
expect bad "unknown cell 'e9'"
play nul 'e2e4\0junk\nfen\n' "$root/rules/chess.rules" --white human --black human
expect nul "input line ignored: it holds a NUL byte"
expect nul "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
n=$((n + 1))
[ "$(fens bad | sort -u | wc -l)" = 1 ] || { echo "play test 'bad': the position changed" >&2; fail=1; }

# 4. Ambiguity is reported with the candidates; check is announced.
play ambiguous 'Nd2\nfen\n' "$root/rules/chess.rules" --white human --black human --load "$dir/ambiguous.game"
expect ambiguous "ambiguous move 'Nd2': it could be Nbd2 (b1d2), Nfd2 (f3d2)"
play check 'e4\nf5\nQh5+\n' "$root/rules/chess.rules" --white human --black human
expect check "Black to play (human) - check!"

# 5. Undo and redo.
play undo 'e4\ne5\nfen\nundo\nfen\nundo\nundo\nredo\nredo\nfen\n' "$root/rules/chess.rules" --white human --black human
expect undo "nothing to undo"
n=$((n + 1))
[ "$(fens undo | sed -n 1p)" = "$(fens undo | sed -n 3p)" ] || { echo "play test 'undo': redo did not restore the position" >&2; fail=1; }

# 6. Against the computer: it answers; undo takes back its move too.
play vsai 'e4\nfen\nundo\nfen\n' "$root/rules/chess.rules" --depth 2
expect vsai "Black (ai) plays"
expect vsai "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# 7. Save and load round trip; a loaded game goes on.
play save "e4\ne5\nNf3\nsave $tmp/g1.game\nnew\nload $tmp/g1.game\nfen\nNc6\nfen\n" "$root/rules/chess.rules" --white human --black human
expect save "saved 3 moves to $tmp/g1.game"
expect save "loaded $tmp/g1.game"
expect save "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
expect save "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"

# 8. Malformed saved games: the first bad line is named and the game is untouched.
printf 'rules %s\nstart rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nmove e2e4\nmove e7e5\nmove e1e3\n' "$root/rules/chess.rules" >"$tmp/bad1.game"
printf 'rules %s\nmove e2e4\nbogus line\n' "$root/rules/chess.rules" >"$tmp/bad2.game"
printf 'rules %s\nstart rnbqkbnr/ppp/8 w\n' "$root/rules/chess.rules" >"$tmp/bad3.game"
printf 'rules /nonexistent.rules\nmove e2e4\n' >"$tmp/bad4.game"
printf 'start 8/8 w\n' >"$tmp/bad5.game"
head -n 5 "$tmp/g1.game" >"$tmp/bad6.game" # cut short: the saved game lost its last lines
printf 'rules %s\noption foo=bar\nmove e2e4\n' "$root/rules/chess.rules" >"$tmp/bad7.game"
printf 'rules %s\nmove e2e4\nresult bogus nonsense\n' "$root/rules/chess.rules" >"$tmp/bad8.game"
printf 'rules %s\nmove g1f3\nmove g8f6\nmove f3g1\nmove f6g8\nmove g1f3\nmove g8f6\nmove f3g1\nmove f6g8\nmove e2e4\n' \
    "$root/rules/chess.rules" >"$tmp/bad9.game" # a move after a draw by repetition
play badload "d4\nfen\nload $tmp/bad1.game\nload $tmp/bad2.game\nload $tmp/bad3.game\nload $tmp/bad4.game\nload $tmp/bad5.game\nload $tmp/bad6.game\nload $tmp/bad7.game\nload $tmp/bad8.game\nload $tmp/bad9.game\nload $tmp/missing.game\nload $tmp\nfen\n" "$root/rules/chess.rules" --white human --black human
expect badload "bad1.game:5: illegal move 'e1e3'"
expect badload "bad2.game:3: unknown line 'bogus'"
expect badload "bad3.game:2: bad start position"
expect badload "cannot load the rule file '/nonexistent.rules'"
expect badload "bad5.game: no 'rules' line"
expect badload "bad6.game:5: the file ends without its 'end' line"
expect badload "bad7.game:2: option 'foo=bar' is not one of the rule file's"
expect badload "bad8.game:3: unknown winner 'bogus' in the result"
expect badload "bad9.game:10: move 'e2e4' after the end of the game (repetition)"
printf 'rules %s\nstart k7/8/8/8/8/8/8/R6K w - - 0 1\n' "$root/rules/chess.rules" >"$tmp/bad10.game"
play badstart "load $tmp/bad10.game\n" "$root/rules/chess.rules" --white human --black human
expect badstart "bad10.game:2: bad start position: black, who is not to move, is in check"
expect badload "missing.game: cannot open"
n=$((n + 1))
[ "$(fens badload | sort -u | wc -l)" = 1 ] || { echo "play test 'badload': the position changed" >&2; fail=1; }
play loadarg "" "$root/rules/chess.rules" --load "$tmp/bad1.game"
n=$((n + 1))
[ "$(cat "$tmp/loadarg.rc")" = 1 ] || { echo "play test 'loadarg': a bad --load must fail" >&2; fail=1; }

# 9. The other commands.
play cmds 'help\nmoves g1\nhint\nflip\nseat 2 human\ntime 0.5\ndepth 2\ndepth x\nseat 9 ai\nai\nfen\ne5\nresign\ne4\nnew\nseat black ai\nflip\ndraw\nquit\nfen\n' "$root/rules/chess.rules" --depth 1
expect cmds "Commands:"
expect cmds "Nh3 (g1h3)  Nf3 (g1f3)"
expect cmds "hint: "
expect cmds " 8  r  n  b  k  q  b  n  r  8"
expect cmds "black is now played by human"
expect cmds "usage: depth D"
expect cmds "usage: seat N"
expect cmds "White (ai) plays"
expect cmds "game over: Black wins by resignation. 0-1"
expect cmds "the game is over (resignation)"
expect cmds "the computer accepts the draw"
reject cmds "Segmentation"
play hotdraw 'draw\n' "$root/rules/chess.rules" --white human --black human
expect hotdraw "game over: draw by agreement. 1/2-1/2"

# 10. A resigned game saves its result and loads it back.
play result "e4\nresign\nsave $tmp/r.game\nnew\nload $tmp/r.game\n" "$root/rules/chess.rules" --white human --black human
expect result "game over: White wins by resignation. 1-0"
n=$((n + 1))
grep -q '^result white resignation$' "$tmp/r.game" || { echo "play test 'result': no result line saved" >&2; fail=1; }

# With VARIA_PLAY_CORE=1 (under valgrind, where each session costs a second or more) the run
# ends here, after the console's core: typed moves, bad input, undo, the computer, saved games.
# The sessions below run natively and under AddressSanitizer.
if [ "${VARIA_PLAY_CORE:-0}" = 1 ]; then
    [ $fail = 0 ] && echo "play tests passed ($n checks, the console's core)"
    exit $fail
fi

# 11. Three players on a board with holes: owner markers and a result.
play three 'moves\nfen\n' "$dir/three.rules" --seat 1=human
expect three "K3"
expect three "rnknr/2ppp1:3r/5:3p:3n/5:3p:3k/5:3p:3n/2PPP1:3r/RNKNR r - - 0 1"

# 11a. A rule file whose program faults: the error names the rule-file line, and no result is
# made up from the moves that are missing.
play fault 'e3e4\nh8h7\nmoves\na8a7\nfen\n' "$dir/fault.rules" --black human --ascii
expect fault "error: the rules fail here: $dir/fault.rules:8:42: runtime fault: step budget exceeded"
reject fault "game over"
expect fault "K7/7k/8/4f3/4F3/8/8/8 w - - 2 2"

# 11a'. A game at the length limit ends there, drawn, even with the computer to move.
{
    printf '# Varia saved game: untitled\nmoves 8190\nrules %s\nstart 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n' "$dir/kings.rules"
    i=0
    while [ $i -lt 2047 ]; do printf 'move e1e2\nmove e8e7\nmove e2e1\nmove e7e8\n'; i=$((i + 1)); done
    printf 'move e1e2\nmove e8e7\nend\n'
} >"$tmp/long.game"
play long 'ai\nai\nai\nfen\n' "$dir/kings.rules" --load "$tmp/long.game" --white ai --black ai --depth 1
expect long "game over: draw by the length limit."
expect long "(game over)> "

# 11b. Above and Below: three named boards, each player's army, moves written "BOARD from-to"
# (own board; a Middle move with " +" for the copy), a piece nobody may move, a saved game.
ab="$root/rules/above-below.rules"
play ab 'A b4-b6\nB c4-c6\nmoves M b6\nM b6-b5 +\nM c6-c5\nfen\nM a1-a2\nA b4-b2\nsave '"$tmp"'/ab.game\nnew\nload '"$tmp"'/ab.game\nfen\n' \
    "$ab" --seat 1=human --seat 2=human --option allegiance=above-white
expect ab "   Above (A)            Middle (M)           Below (B)"
expect ab " 7  bR bK bQ bN 7"
expect ab " 5  AI .  AI .  5"
expect ab "Above helps White, Below helps Black"
expect ab "M b6-b5  M b6-b5 +"
expect ab "last move: M b6-b5 +"
expect ab "illegal move 'M a1-a2': you have no influence over the Knight on M:a1"
expect ab "illegal move 'A b4-b2': no piece of yours on A:b4"
n=$((n + 1))
abfens() { grep -E '^[^ ]+/[^ ]+ [AB] ' "$tmp/ab.out"; }
[ "$(abfens | sort -u | wc -l)" = 1 ] && [ "$(abfens | wc -l)" = 2 ] ||
    { echo "play test 'ab': the loaded game differs" >&2; abfens >&2; fail=1; }
expect ab "4/4/ICI1/4/1I1I/4/4|:4r:4k:4q:4n/:4p2:4p/1:4p:4p1/4/4/:3p:3p:3p:3p/:3n:3q:3k:3r|4/2c1/1i1i/4/i1i1/4/4 A 0 3 w,b"
# A copy that cannot be made is refused, never played as the move without it (the source's
# diagram 6: the Prince on A:d5 blocks the Prince's copy of the Rook's d3-d7); the dashless form
# and a lower-case board name are read too.
cat >"$tmp/d6.game" <<EOF
# Varia saved game: Above and Below
moves 0
rules $ab
start 4/4/3I/4/3I/4/4|2:4k1/4/4/4/3:4r/4/1:3k2|4/2c1/3i/3i/i1i1/4/4 A 0 1 w,b
end
EOF
play ab-copy 'M d3-d7 +\nm d3d7+\nfen\nQ b4-b5\nm d3d7\nfen\n' "$ab" --load "$tmp/d6.game" --seat 1=human --seat 2=human
expect ab-copy "illegal move 'M d3-d7 +': your Prince on A:d3 cannot copy it"
expect ab-copy "illegal move 'm d3d7+': your Prince on A:d3 cannot copy it"
expect ab-copy "4/4/3I/4/3I/4/4|2:4k1/4/4/4/3:4r/4/1:3k2|4/2c1/3i/3i/i1i1/4/4 A 0 1 w,b"
expect ab-copy "unknown command or board 'Q' (type 'help'; a move starts with a board's name: A, M, B)"
expect ab-copy "last move: M d3-d7"
expect ab-copy "4/4/3I/4/3I/4/4|2:4k:4r/4/4/4/4/4/1:3k2|4/2c1/3i/3i/i1i1/4/4 B 1 1 w,b"
# The source's diagram 10 is checkmate: Below (helping White) loses; a promotion with its copy.
printf 'rules %s\nstart 4/4/1I1I/4/1I1C/4/I3|3:3k/:3p:3p:3p1/4/4/3:4r/1:4k2/4|4/2c1/4/4/i1ii/4/1i2 B 0 1 b,w\n' "$ab" >"$tmp/ab10.game"
play ab-mate '' "$ab" --load "$tmp/ab10.game" --seat 1=human --seat 2=human
expect ab-mate "game over: Above wins by checkmate. 1-0"
printf 'rules %s\nstart 4/2I1/4/4/4/4/4|4/2:3p1/4/:3k3/4/4/3:4k|4/4/4/4/4/4/i3 A 0 1 w,b\n' "$ab" >"$tmp/abp.game"
play ab-promo 'M c6-c7=Q +\nfen\n' "$ab" --load "$tmp/abp.game" --seat 1=human --seat 2=human
expect ab-promo "last move: M c6-c7=Q +"
expect ab-promo "2I1/4/4/4/4/4/4|2:3q1/4/4/:3k3/4/4/3:4k|4/4/4/4/4/4/i3 B 0 1 w,b"
play ab-seed 'fen\n' "$ab" --seat 1=human --seed 2
expect ab-seed " A 0 1 w,b"
play ab-seed3 'fen\n' "$ab" --seat 1=human --seed 1
expect ab-seed3 " A 0 1 b,w"
# One name for each piece everywhere: the board, the rulebook's diagrams and the position
# text write the Prince I (AI, BI); the rulebook's start is the game's deal (w,b by seed 2).
play ab-names 'rules\n' "$ab" --seat 1=human --seed 2
n=$((n + 1))
[ "$(grep -c '^ 5  AI .  AI .  5 ' "$tmp/ab-names.out")" -ge 2 ] ||
    { echo "play test 'ab-names': the board and the rulebook name the Prince differently" >&2; fail=1; }
expect ab-names " 4  o  AI o  .  4 "
expect ab-names "Start position: 4/4/I1I1/1C2/1I1I/4/4|:4r:4k:4q:4n/:4p:4p:4p:4p/4/4/4/:3p:3p:3p:3p/:3n:3q:3k:3r|4/4/1i1i/2c1/i1i1/4/4 A 0 1 w,b"

# 11b'. On several boards a move may leave out its board when only one board has it (both
# listed when two do); a dropped piece is written as a drop, T@main:b1, also typed T@b1 or
# main T@b1, never "main b1-b1".
play boards 'moves\nT@b1\nundo\nmain T@b1\nundo\na1a2\nb2b3\nfen\nd6d5\n' "$dir/boards.rules" --white human --black human
expect boards "T@main:b1"
expect boards "T@side:c2"
reject boards "main b1-b1"
expect boards "last move: T@main:b1"
expect boards "ambiguous move 'a1a2': it could be main a1-a2, side a1-a2"
expect boards "last move: side b2-b3"
expect boards "3k/4/4/S3|4/1S2/4/K3 b - - 1 1"
expect boards "unknown command or illegal move 'd6d5' (no board has that move; a move is written with its board's name first: main, side;"
play ab-noboard 'b4-b6\nc4-c6\nb6-b5 +\n' "$ab" --seat 1=human --seat 2=human --option allegiance=above-white
expect ab-noboard "last move: A b4-b6"
expect ab-noboard "last move: B c4-c6"
expect ab-noboard "last move: M b6-b5 +"

# 11c. Hidden information (Ultra Chess). Hot seat: the screen is cleared and handed over
# between seats; each sees its own tiles (* mine, o blank) and the other's as '?'; what only the
# mover saw stays off the public log; the position text is not shown during play.
ultra="$root/rules/ultra-chess.rules"
setup='\nplace:c3\nplace:f3\nplace:b4\nplace:g4\narrange:9\narrange:5\narrange:3\narrange:3\narrange:1\narrange:1\n'
setup="$setup"'\nplace:b5\nplace:g5\nplace:c6\nplace:f6\narrange:9\narrange:5\narrange:3\narrange:3\narrange:1\narrange:1\n'
setup="$setup"'\ntake:w\n\ntake-two:b\n\ntake-two:b\n\ntake-two:w\n'
play hotseat "$setup"'\ntake:b\nb1c3\npay:3>w\npass\n\ntake:w\ne7e5\npay:1>b\nfen\ndeck\nundo\nquit\n' "$ultra" --white human --black human
expect hotseat "---- screen cleared ----"
expect hotseat "Black, press Enter"
expect hotseat " 4  o  *  o  o  o  o  *  o  4"
expect hotseat " 6  ?  ?  ?  ?  ?  ?  ?  ?  6"
expect hotseat " 6  o  o  *  o  o  *  o  o  6"
expect hotseat "White lifted White's tile on c3"
expect hotseat "White: pay:3>w"
expect hotseat "White: place (secret)"
expect hotseat "(only you see this) c3: a mine"
expect hotseat "deck: white ? ? 3, black 9 5"
expect hotseat "the position text holds the players' secrets"
expect hotseat "your deck (bottom first): 9 1"
expect hotseat "no undo in a game with hidden information"
reject hotseat "TTMTTMTT"
# Against the computer: its mines and deck order are never shown.
play hidden-ai "$setup" "$ultra" --white ai --black human --depth 1
expect hidden-ai "White (ai) plays place (secret)"
expect hidden-ai "White (ai) plays arrange (secret)"
reject hidden-ai "plays place:"
reject hidden-ai "plays arrange:"
# nor, card by card, through what is left of its cards or the top of its half-built deck
expect hidden-ai "deck: white ? ? ? ? ?, black -"
n=$((n + 1))
if grep -qE '^box: white [0-9]|^deck: white [0-9]' "$tmp/hidden-ai.out"; then
    echo "play test 'hidden-ai': the computer's deck order shows:" >&2
    grep -E '^box: white|^deck: white' "$tmp/hidden-ai.out" | head -n 8 >&2
    fail=1
fi

# 13. Move text that tells moves apart. Where pawns move sideways (Ultima's pincers) the origin
# names the pawn ("cd2", never three moves written "d2"), and is read back; a capture away from
# the landing cell names its victim after a ':' (a withdrawer's, a long leaper's).
play ultima-pawns 'moves\ncd2\nfen\n' "$root/rules/ultima.rules" --fen '4k3/8/8/3q4/3P4/8/2P1P3/4K3 w 0' --white human --black human
expect ultima-pawns "cd2 (c2d2)"
expect ultima-pawns "ed2 (e2d2)"
expect ultima-pawns "dd2 (d4d2)"
reject ultima-pawns " d2 ("
expect ultima-pawns "4k3/8/8/3q4/3P4/8/3PP3/4K3 b 1"
play ub-pawns 'moves\nfg3\nfen\n' "$root/rules/ultimate-battle.rules" --white human --black human
expect ub-pawns "fg3 (f2g3)"
expect ub-pawns "hg3 (h2g3)"
expect ub-pawns "rnbqkbnr/pppppppp/8/8/8/6P1/PPPPP1PP/RNBQKBNR b - - 0 1"
play remote 'moves d3\nQd2:d4\nfen\n' "$root/rules/ultima.rules" --fen '4k3/8/8/8/3p4/3Q4/8/3pK2N w 0' --white human --black human
expect remote "Qd2:d4 (d3d2)"
expect remote "last move: Qd2:d4 (d3d2)"
expect remote "4k3/8/8/8/8/8/3Q4/3pK2N b 1"

# 13a. Shogi's own notation: USI coordinates (files from the right, ranks from the top, drops
# with '*'); a promotion written '+' after the move and a declined one '=', one mark each, and
# no check mark that could read as a promotion; a game with a declined promotion saves as PGN
# and loads back.
play shogi-usi '7g7f\n3c3d\n8h2b+\n3a2b\nB*4e\n5e5d\nhistory\n' "$root/rules/shogi.rules" --white human --black human
expect shogi-usi "last move: c4 (c3c4)"
expect shogi-usi "last move: Bxh8+ (b2h8+)"
expect shogi-usi "last move: B@f5"
expect shogi-usi "(5e5d in USI coordinates is e5e6)"
expect shogi-usi "illegal move 'e5e6': no piece of yours on e5"
expect shogi-usi "  2. Bxh8+ Sxh8"
play shogi-marks "moves b2\nBxh8\nBxh8+\nundo\nb2g7+\nundo\nBxh8=\nsave $tmp/shogi.pgn\nload $tmp/shogi.pgn\nfen\n" \
    "$root/rules/shogi.rules" --white human --black human --fen '4k4/7p1/9/9/9/9/9/1B7/4K4[] w - - 0 1'
expect shogi-marks "Bg7= (b2g7)  Bg7+ (b2g7+)"
expect shogi-marks "ambiguous move 'Bxh8': it could be Bxh8= (b2h8), Bxh8+ (b2h8+)"
expect shogi-marks "last move: Bxh8+ (b2h8+)"
expect shogi-marks "last move: Bg7+ (b2g7+)"
expect shogi-marks "last move: Bxh8= (b2h8)"
expect shogi-marks "loaded $tmp/shogi.pgn: Shogi, 1 move"
expect shogi-marks "4k4/7B1/9/9/9/9/9/9/4K4[P] b - - 0 1"
reject shogi-marks "=+B"

# 14. The command line: a shipped game by name for perft; a start position for play.
n=$((n + 1))
VARIA_RULES="$root/rules" "$varia" perft chess 3 2>&1 | grep -q "^Nodes searched: 8902" ||
    { echo "play test 'perft-name': 'varia perft chess 3' failed" >&2; fail=1; }
# A perft suite in one process: a wrong count, a bad position and a malformed figure are each
# named by their line (and column); positions read from standard input are answered in turn.
printf '%s\n' 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401 ;D3 8902 deep' \
    '# a comment' '4k3/8/8/8/8/8/8/4K2Z w - - 0 1 ;D1 5' 'no figures here' '4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 x' >"$tmp/suite.epd"
"$varia" perft "$root/rules/chess.rules" --epd "$tmp/suite.epd" --max-nodes 1000 >"$tmp/suite.out" 2>&1
echo $? >"$tmp/suite.rc"
expect suite "suite.epd:1: error: depth 2: expected 401, got 400"
expect suite "suite.epd:3: error: bad position '4k3/8/8/8/8/8/8/4K2Z w - - 0 1'"
expect suite "suite.epd:4: error: a position without figures"
expect suite "suite.epd:5:35: error: expected a figure ';Dn COUNT' here"
expect suite "suite.epd: 1 passed, 4 failed, 1 not selected"
n=$((n + 1))
[ "$(cat "$tmp/suite.rc")" = 1 ] || { echo "play test 'suite': a failing suite must end with status 1" >&2; fail=1; }
"$varia" perft "$root/rules/chess.rules" --epd "$tmp/suite.epd" --max-nodes 1000 --deep >"$tmp/suite-deep.out" 2>&1
expect suite-deep "suite.epd: 1 passed, 2 failed, 3 not selected"
printf '%s\n' '4k3/8/8/8/8/8/8/4K3 w - - 0 1' 'bad' '4k3/8/8/8/8/8/8/R3K3 w Q - 0 1' |
    "$varia" perft "$root/rules/chess.rules" 1 --fen - >"$tmp/lines.out" 2>&1
n=$((n + 1))
[ "$(grep '^Nodes searched' "$tmp/lines.out" | tr '\n' ' ')" = "Nodes searched: 5 Nodes searched: - Nodes searched: 16 " ] ||
    { echo "play test 'lines': perft --fen - answers: $(cat "$tmp/lines.out")" >&2; fail=1; }
expect lines "standard input line 2: bad position 'bad'"
play fen-start 'fen\n' "$root/rules/chess.rules" --fen '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1' --white human --black human
expect fen-start "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
play fen-bad '' "$root/rules/chess.rules" --fen '4k3/8/8 w'
expect fen-bad "varia: bad --fen '4k3/8/8 w'"
# A start without the royal pieces the game needs is refused, never announced as a result; a
# player already defeated needs none (four players, Silver conceded); an army no player owns
# needs its King (Above and Below); a saved game's start is held to the same rule.
play fen-noking '' "$root/rules/chess.rules" --fen '8/8/8/8/8/8/8/8 w - - 0 1'
expect fen-noking "varia: bad --fen '8/8/8/8/8/8/8/8 w - - 0 1': White has no King"
reject fen-noking "game over"
n=$((n + 1))
[ "$(cat "$tmp/fen-noking.rc")" = 1 ] || { echo "play test 'fen-noking': a start without kings must fail" >&2; fail=1; }
play fen-noking-black '' "$root/rules/shogi.rules" --fen '9/9/9/9/9/9/9/9/4K4[] w - - 0 1'
expect fen-noking-black "Black has no King"
conceded=':3m:3w:3r:3n:3b:3k:3q:3b:3n:3r:3w:3m/:3p:3p:3p:3p:3p:3p:3p:3p:3p:3p:3p:3p/mp12:4p:4m/wp12:4p:4w/rp12:4p:4r/np12:4p:4n/bp12:4p:4b/qp12:4p:4q/kp12:4p:4k/bp12:4p:4b/np12:4p:4n/rp12:4p:4r/wp12:4p:4w/mp12:4p:4m/12/12 r kq:3K:3Q:4K:4Q - 0 1 s'
play fen-conceded 'fen\n' "$root/rules/ultimate-chess-4p.rules" --seat 1=human --seat 2=human --seat 3=human --seat 4=human --fen "$conceded"
expect fen-conceded "$conceded"
play fen-noking-army '' "$root/rules/above-below.rules" --seat 2=human \
    --fen '4/4/I1I1/1C2/1I1I/4/4|:4r:4k:4q:4n/:4p:4p:4p:4p/4/4/4/:3p:3p:3p:3p/:3n:3q:3r1|4/4/1i1i/2c1/i1i1/4/4 A 0 1'
expect fen-noking-army "White has no King"
printf 'rules %s\nstart 4k3/8/8/8/8/8/8/8 w - - 0 1\n' "$root/rules/chess.rules" >"$tmp/noking.game"
play load-noking "load $tmp/noking.game\nfen\n" "$root/rules/chess.rules" --white human --black human
expect load-noking "noking.game:2: bad start position: White has no King"
expect load-noking "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# 14a. The rulebook's files: --svg creates its directory and lists the pictures it wrote;
# --html says where the page is (its full path); a file in the way of the directory is named.
abs_varia=$(cd "$(dirname "$varia")" && pwd)/$(basename "$varia")
abs_root=$(cd "$root" && pwd)
(cd "$tmp" && "$abs_varia" describe "$abs_root/rules/chess.rules" --svg pics/new --html book.html) >"$tmp/describe-files.out" 2>&1
expect describe-files "wrote the pictures to pics/new/:"
expect describe-files "  piece-Bishop.svg piece-King.svg piece-Knight.svg piece-Pawn.svg piece-Queen.svg piece-Rook.svg start.svg"
expect describe-files "wrote the rulebook page to $(cd "$tmp" && pwd)/book.html (open it in a web browser)"
n=$((n + 1))
[ -s "$tmp/pics/new/piece-King.svg" ] && [ -s "$tmp/book.html" ] ||
    { echo "play test 'describe-files': the pictures or the page are missing" >&2; fail=1; }
: >"$tmp/in-the-way"
"$varia" describe "$root/rules/chess.rules" --svg "$tmp/in-the-way/pics" >"$tmp/describe-blocked.out" 2>&1
expect describe-blocked "varia: error: cannot create $tmp/in-the-way: a file of that name is in the way"

# 15. Regressions in the console's messages and commands.
# A hint whose algebraic text is its coordinate text says it once.
play ultra-hint "$setup"'\nhint\n' "$ultra" --white human --black human --depth 1
expect ultra-hint "hint: take:"
reject ultra-hint " (take:"
# Hot seat: what is typed at "press Enter" is played, not lost.
play ahead 'place:c3\nplace:f3\n' "$ultra" --white human --black human
expect ahead "(typed at the hand-over) place:c3"
expect ahead " 3  o  o  *  o  o [*] o  o  3"
# undo after a resignation takes back the resignation only.
play undo-resign 'e4\ne5\nresign\nundo\nfen\n' "$root/rules/chess.rules" --white human --black human
expect undo-resign "the resignation is taken back"
expect undo-resign "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
# A check mark after the copy's '+' is read as a check mark.
play ab-check 'A b4-b6\nB c4-c6\nM b6-b5 ++\n' "$ab" --seat 1=human --seat 2=human --option allegiance=above-white
expect ab-check "last move: M b6-b5 +"
reject ab-check "cannot copy"
# With more than two players a defeat is worded as in docs/playing.md.
play defeat4 'resign\nresign\n' "$root/rules/ultimate-chess-4p.rules" --seat 1=human --seat 2=human --seat 3=human --seat 4=human
expect defeat4 "Red concedes; the others play on"
# Each player's pieces are drawn in the colour its name says.
printf 'quit\n' | LC_ALL=C CLICOLOR_FORCE=1 "$varia" play "$root/rules/ultimate-chess-4p.rules" --seat 1=human >"$tmp/colours.out" 2>&1
for want in "$(printf '\033[1;31m r')" "$(printf '\033[1;30m R3')" "$(printf '\033[1;32m R4')" "$(printf '\033[1;37m R')"; do
    n=$((n + 1))
    grep -qF -- "$want" "$tmp/colours.out" || { echo "play test 'colours': a player's colour is wrong" >&2; fail=1; }
done
# Pieces that share a glyph (Ultima's Immobilizer and Coordinator, both a rook's) carry their
# letter after it, in colour or not; the others are drawn as before.
printf 'quit\n' | LC_ALL=C.UTF-8 NO_COLOR=1 "$varia" play "$root/rules/ultima.rules" --black human >"$tmp/glyphs.out" 2>&1
expect glyphs " 8  ♜r ♞  ♝  ♚  ♛  ♝  ♞  ♜m 8 "
expect glyphs " 1  ♖M ♘  ♗  ♕  ♔  ♗  ♘  ♖R 1 "
printf 'quit\n' | LC_ALL=C.UTF-8 CLICOLOR_FORCE=1 "$varia" play "$root/rules/ultima.rules" --black human >"$tmp/glyphs-colour.out" 2>&1
expect glyphs-colour "$(printf '\033[1;97m ♖M\033[0m')"
expect glyphs-colour "$(printf '\033[1;97m ♘ \033[0m')"
# What the rules leave to chance is dealt afresh for each game unless --seed is given.
play deals "$(printf 'fen\\nnew\\n%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)" "$ab" --seat 1=human --seat 2=human
n=$((n + 1))
[ "$(grep -cE ' A 0 1 w,b$' "$tmp/deals.out")" -gt 0 ] && [ "$(grep -cE ' A 0 1 b,w$' "$tmp/deals.out")" -gt 0 ] ||
    { echo "play test 'deals': every game dealt the same" >&2; fail=1; }

# 16. History and PGN: the moves so far; a game written as PGN (Variant and Rules tags) and read
# back, also by --load; a PGN from elsewhere with comments, variations and glyphs (chess when it
# names no game); a Variant tag alone finds the shipped game.
play history 'e4\ne5\nNf3\nhistory\npgn\nsave '"$tmp"'/g.pgn\nNc6\nresign\nsave '"$tmp"'/r.pgn\n' "$root/rules/chess.rules" --white human --black human
expect history "  1. e4 e5"
expect history "  2. Nf3"
expect history '[Variant "chess"]'
expect history "[Rules \"$root/rules/chess.rules\"]"
expect history "1. e4 e5 2. Nf3 *"
expect history "saved 3 moves to $tmp/g.pgn"
n=$((n + 1))
grep -q '^1. e4 e5 2. Nf3 Nc6 0-1$' "$tmp/r.pgn" && grep -q '^\[Termination "resignation"\]$' "$tmp/r.pgn" ||
    { echo "play test 'history': the PGN file is wrong" >&2; cat "$tmp/r.pgn" >&2; fail=1; }
play pgn-load "load $tmp/g.pgn\nfen\nhistory\n" "$root/rules/ultima.rules" --white human --black human
expect pgn-load "loaded $tmp/g.pgn: Chess, 3 moves"
expect pgn-load "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
play pgn-arg "fen\n" "$root/rules/chess.rules" --white human --black human --load "$tmp/r.pgn"
expect pgn-arg "game over: Black wins by resignation. 0-1"
printf '[Event "Casual"]\n[Result "0-1"]\n\n1.e4 {best by test} e5 2. Nf3 $1 (2. f4 exf4) Nc6 ; a comment\n%s\n\n%s\n1. d4 *\n' \
    '3. Bc4 Nf6 4. Ng5?! d5 5. exd5 Na5 0-1' '[Event "Next"]' >"$tmp/ext.pgn"
printf '[Variant "ultima"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/3p4/3Q4/8/3pK2N w 0"]\n\n1. Qd2:d4 *\n' >"$tmp/ultima.pgn"
printf '[Variant "chess"]\n\n1. e4 e5 2. Ke3 *\n' >"$tmp/bad1.pgn"
printf '[Variant "nosuch"]\n\n1. e4 *\n' >"$tmp/bad2.pgn"
printf '[Event "x"]\n\n1. e4 {open\n' >"$tmp/bad3.pgn"
play pgn-ext "load $tmp/ext.pgn\nfen\nload $tmp/ultima.pgn\nfen\nload $tmp/bad1.pgn\nload $tmp/bad2.pgn\nload $tmp/bad3.pgn\nfen\n" \
    "$root/rules/chess.rules" --white human --black human
expect pgn-ext "r1bqkb1r/ppp2ppp/5n2/n2Pp1N1/2B5/8/PPPP1PPP/RNBQK2R w KQkq - 1 6"
expect pgn-ext "game over: Black wins by the saved result. 0-1"
expect pgn-ext "4k3/8/8/8/8/8/3Q4/3pK2N b 1"
expect pgn-ext "bad1.pgn:3: illegal move 'Ke3'"
expect pgn-ext "bad2.pgn: no rule file for the game 'nosuch'"
expect pgn-ext "bad3.pgn:3: a comment that is not closed"

# 17. Compact mode: after a move the lines under the board, not the board; a Black human sees
# the board turned (its pieces at the bottom).
play compact 'e4\ne5\n' "$root/rules/chess.rules" --white human --black human --compact
n=$((n + 1))
[ "$(grep -c '^ 8 ' "$tmp/compact.out")" = 1 ] || { echo "play test 'compact': the board was drawn after a move" >&2; fail=1; }
expect compact "last move: e5 (e7e5)"
play autoflip 'quit\n' "$root/rules/chess.rules" --white ai --black human --depth 1
n=$((n + 1))
[ "$(grep -E '^ [18] ' "$tmp/autoflip.out" | head -n 1 | cut -c1-3)" = " 1 " ] ||
    { echo "play test 'autoflip': the board is not turned for Black" >&2; fail=1; }

# 18. Algebraic input is refused as helpfully as coordinates: which piece cannot get there.
play refuse-san 'Ke2\nNd5\ne6\nZe4\nload '"$dir"'/ambiguous.game\nNcd2\n' "$root/rules/chess.rules" --white human --black human
expect refuse-san "illegal move 'Ke2': the King on e1 cannot reach e2; it has no legal move"
expect refuse-san "illegal move 'Nd5': no Knight of yours can reach d5"
expect refuse-san "illegal move 'e6': no Pawn of yours can reach e6"
expect refuse-san "illegal move 'Ze4': no piece has the letter Z"
expect refuse-san "illegal move 'Ncd2': the Knight that can reach d2 is written Nbd2 or Nfd2"

# 19. Set-up steps and phases say what they expect: Ultra Chess places mines in ascending cell
# order (each leaving room for the rest), and a turn starts by drawing a card.
play steps '\nplace:g4\nplace:c3\ne2e4\n' "$ultra" --white human --black human
expect steps "set-up: place (1 of 4)"
expect steps "illegal move 'place:g4': the set-up step 'place' offers now only (its moves may have to come in an order, each leaving room for the rest): place:a3,"
expect steps ", place:e4"
expect steps "set-up: place (2 of 4)"
expect steps "illegal move 'e2e4': the set-up step 'place' allows only place moves now: place:d3,"
# history keeps the computer's secret set-up moves secret
play hidden-history 'place:b5\nplace:g5\nplace:c6\nplace:f6\narrange:9\narrange:5\narrange:3\narrange:3\narrange:1\narrange:1\nhistory\n' \
    "$ultra" --white ai --black human --depth 1
expect hidden-history "  1. place (secret) place (secret)"
expect hidden-history "place:b5 place:g5"
reject hidden-history "  1. place:"
# A move of another kind than normal may be typed without its kind when only that kind reads
# so (a set-up's place:c3 as c3, arrange:9 as 9; last:Qe5 as Qe5); a turn that can only pass
# says so, and what to type.
play nokind '\nc3\nf3\nb4\ng4\n9\nfen\n' "$ultra" --white human --black human
expect nokind "set-up: place (2 of 4)"
expect nokind "last move: place:c3"
expect nokind "last move: arrange:9"
expect nokind "set-up: arrange (2 of 6)"
play kinds 'Qd4\nQe5\nQf6\nlast:Qg7\nQh8\npass\nfen\n' "$dir/kinds.rules" --white human --black human
expect kinds "last move: last:Qe5 (last:d4e5)"
expect kinds "last move: last:Qf6 (last:e5f6)"
expect kinds "last move: last:Qh8 (last:g7h8)"
expect kinds "your only move is 'pass', which ends your turn: type pass"
expect kinds "4k2Q/8/8/8/8/8/8/4K3 b - - 1 1 main"
play ultra-pass "$setup"'\ntake:b\ne2e4\npay:1>w\n' "$ultra" --white human --black human
expect ultra-pass "last move: pay:1>w"
expect ultra-pass "your only move is 'pass', which ends your turn: type pass"
play draw-first "$setup"'\nb1c3\n' "$ultra" --white human --black human
expect draw-first "illegal move 'b1c3': the phase 'drawing' of the turn allows only take moves now: take:w, take:b"

# 11d. The rulebook in the game: 'rules', 'piece' by letter, name or cell, and a 'help' that
# lists only what the game offers; a set-up step says what it expects.
play rulebook 'help\nrules\npiece N\npiece e2\npiece queen\npiece z9\npiece\nquit\n' "$root/rules/chess.rules" --black human
expect rulebook "  rules             the rulebook"
reject rulebook "  deck "
reject rulebook "  random "
expect rulebook "How the game ends"
expect rulebook "Knight (letter N, value 3.20)"
expect rulebook "  moves or captures: a (1,2) leap in all eight directions"
expect rulebook "  moves (never capturing): 1 step forward; 2 steps forward, not over a piece, only from zone 'pawn-start'"
expect rulebook "Queen (letter Q, value 9.00)"
expect rulebook "piece: no piece, letter or cell 'z9'"
expect rulebook "piece: name one: K (King)"
play rulebook-ultima 'piece Q\nquit\n' "$root/rules/ultima.rules" --black human
expect rulebook-ultima "  captures the enemy next to it by moving straight away from it"
expect rulebook-ultima "a position from play: a capture away from where it lands, "
play rulebook-setup '\nhelp\nquit\n' "$root/rules/ultra-chess.rules" --black human
expect rulebook-setup "set-up step 1 of 8: White makes 4 more moves of kind 'place' (each marks one of its tiles as a mine, in ascending cell order)"
expect rulebook-setup "  deck "
expect rulebook-setup "  random "

# 11e. Random playouts (varia bench --playouts) repeat for a seed: the same games, the same
# plies; only the times differ.
playouts() {
    "$varia" bench --playouts "$root/rules/chess.rules" "$root/rules/dobutsu.rules" --games 3 --seed 5 2>&1 |
        sed 's/: [0-9]* playouts\/s, \([0-9]* playouts\) in [0-9.]* s,/: \1,/'
}
playouts > "$tmp/playouts.out"
playouts > "$tmp/playouts-again.out"
expect playouts "chess: 3 playouts,"
expect playouts "dobutsu: 3 playouts,"
expect playouts "stopped at 1000 plies"
n=$((n + 1))
if ! cmp -s "$tmp/playouts.out" "$tmp/playouts-again.out"; then
    echo "play test 'playouts': two runs with the same seed differ:" >&2
    diff "$tmp/playouts.out" "$tmp/playouts-again.out" >&2
    fail=1
fi
"$varia" bench --playouts "$root/rules/chess.rules" --games 0 > "$tmp/playouts-bad.out" 2>&1
expect playouts-bad "bad --games '0'"
# an option of one bench mode given to the other is refused, not ignored
"$varia" bench --trace > "$tmp/bench-trace.out" 2>&1
expect bench-trace "varia: bench: --trace goes with --playouts"
"$varia" bench --playouts "$root/rules/chess.rules" --depth 2 > "$tmp/playouts-depth.out" 2>&1
expect playouts-depth "varia: bench: --depth does not go with --playouts"

# 20. Makruk's counting: the count is in the position text (its length and plies where the
# en-passant and halfmove fields stand), runs by itself, draws when it runs out, and undo
# takes the draw back.
play counting 'fen\ne3e4\nfen\na2a3\nfen\nundo\nfen\nquit\n' "$root/rules/makruk.rules" --white human --black human --fen "8/8/8/8/8/4k3/R7/4K3 b - 32 30 1"
expect counting "counting (pieces' honour): 31 of 32 plies counted"
expect counting "8/8/8/8/4k3/8/R7/4K3 w - 32 31 2"
expect counting "game over: draw by counting (pieces' honour). 1/2-1/2"
expect counting "8/8/8/8/4k3/R7/8/4K3 b - 32 32 2"
play counting-board 'a4e4\nfen\n' "$root/rules/makruk.rules" --white human --black human --fen "8/8/8/4r3/R3p3/4k3/8/4K3 w - - 0 1"
expect counting-board "8/8/8/4r3/4R3/4k3/8/4K3 b - 128 0 1"

# 21. The placement, connection, morris and tafl games: typed moves up to each ending, which the
# console announces in the rule file's words; a drop onto a taken cell is refused; the graph and
# hexagonal boards are drawn; Hex's swap.
h2="--seat 1=human --seat 2=human"
# shellcheck disable=SC2086
{
play ttt 'a1\nb1\na1\na2\nb2\nfen\na3\n' "$root/rules/tictactoe.rules" $h2
play c4 'a1\nb1\na2\nb2\na3\nb3\na4\n' "$root/rules/connect4.rules" $h2
play gomoku 'e6\n' "$root/rules/gomoku.rules" $h2 --fen "15/15/15/15/15/15/15/15/15/SSSS11/15/15/15/15/15 b"
play hex 'a1\nb1\na2\nb2\na3\nb3\na4\nb4\na5\nb5\na6\nb6\na7\nb7\na8\nb8\na9\nb9\na10\nb10\na11\n' "$root/rules/hex.rules" $h2
play hex-swap 'swap\nfen\nswap\n' "$root/rules/hex.rules" $h2 --option swap=on --fen "11/11/11/11/11/11/11/11/11/11/2S8 w 1"
play morris 'g4g1xa7\n' "$root/rules/morris.rules" $h2 --fen "m1m/1m1/3/5M/3/3/MM1[] w"
play brandubh-escape 'b1a1\n' "$root/rules/brandubh.rules" $h2 --fen "7/7/7/3A3/7/7/1k5 d"
play brandubh-throne 'd7d6\n' "$root/rules/brandubh.rules" $h2 --fen "3A3/7/2AkA2/7/7/7/7 a"
play hnefatafl 'b1a1\n' "$root/rules/hnefatafl.rules" $h2 --fen "11/11/11/11/5A5/11/11/11/11/11/1k9 d"
}
expect ttt "unknown command or illegal move 'a1'"
expect ttt "3/Ss1/Ss1 x"
expect ttt "game over: Cross wins by three in a row. 1-0"
expect c4 "game over: Red wins by four in a row. 1-0"
expect gomoku "game over: Black wins by five in a row. 1-0"
expect hex " 1  S   s   .   .   .   .   .   .   .   .   .  1"
expect hex "                    11 [S]  .   .   .   .   .   .   .   .   .   .  11"
expect hex "                  10  S   s   .   .   .   .   .   .   .   .   .  10"
expect hex "game over: Black wins by connected. 1-0"
expect hex-swap "last move: swap:S@a3"
expect hex-swap "11/11/11/11/11/11/11/11/s10/11/11 b 0"
expect hex-swap "unknown command or illegal move 'swap'"
expect morris " 7  . ------ . ------ m  7"
expect morris " 6  |  . --- m --- .  |  6"
expect morris "game over: White wins by fewer than three men. 1-0"
expect brandubh-escape "game over: Defender wins by king escaped. 0-1"
expect brandubh-throne "game over: Attacker wins by king captured. 1-0"
expect hnefatafl "game over: Defender wins by king escaped. 0-1"

# 22. Holding cells: the example of the language reference ("Three stones") draws its holding
# cells under the board, each with its name and what stands on it; a stone put on the board
# leaves its cell empty, in the drawing and in the position text.
awk '/^```$/ { if (on) exit; block = ""; inside = !inside; next } inside { block = block $0 "\n" }
     inside && /^game "Three stones"/ { on = 1 } END { printf "%s", block }' "$root/docs/language.md" >"$tmp/three-stones.rules"
play holding 'x1b2\nfen\no3b3\nquit\n' "$tmp/three-stones.rules" --white human --black human
expect holding "   x1 S  x2 S  x3 S"
expect holding "   o1 s  o2 s  o3 s"
expect holding "   x1[.] x2 S  x3 S"
expect holding "3/1S1/3{1SS/sss} o"
expect holding "   o1 s  o2 s  o3[.]"
expect holding " 3  . [s] .  3"

# 12. A terminal session through tmux (skipped when tmux is not installed, or with
# VARIA_NO_TMUX=1 as under valgrind, where its timing does not hold).
if [ "${VARIA_NO_TMUX:-0}" = 1 ]; then
    echo "play tests: terminal session skipped (VARIA_NO_TMUX=1)"
elif command -v tmux >/dev/null 2>&1; then
    if sh "$dir/tmux.sh" "$varia" "$root/rules"; then n=$((n + 1)); else fail=1; fi
else
    echo "play tests: tmux not installed, terminal session skipped"
fi

[ $fail = 0 ] && echo "play tests passed ($n checks)"
exit $fail
