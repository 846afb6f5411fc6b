#!/bin/sh
# tmux.sh VARIA RULES-DIR - terminal sessions driven through tmux. Chess: the board is drawn, a
# typed move is accepted, the computer answers, undo takes both moves back. The game menu
# offers every shipped game. Ultra Chess hot
# seat: after the hand-over nothing of the first seat's set-up is left to the second, neither
# in the terminal's scrollback nor in the line-editing history. Uses its own tmux server, with
# its socket in a directory of its own, and ends only that. When tmux itself cannot start a
# server here (a machine without terminals for it), the session is skipped, saying so.
varia=${1:?usage: tmux.sh VARIA RULES-DIR}
rules=${2:?usage: tmux.sh VARIA RULES-DIR}
TMUX_TMPDIR=$(mktemp -d) || exit 1
export TMUX_TMPDIR
unset TMUX
trap 'rm -rf "$TMUX_TMPDIR"' EXIT
sock=varia-test
t() { tmux -L "$sock" "$@"; }
fail() {
    echo "tmux test: $1; the screen was:" >&2
    t capture-pane -p -t play >&2 2>/dev/null
    t kill-server 2>/dev/null
    exit 1
}
# start COMMAND: a detached 100x40 session "play" running COMMAND; a server that fails to start
# is tried again twice (its start has failed once under heavy load)
start() {
    for try in 1 2 3; do
        t -f /dev/null new-session -d -s play -x 100 -y 40 "$1" 2>"$TMUX_TMPDIR/err" && return 0
        t kill-server 2>/dev/null
        sleep 1
    done
    return 1
}
# Can tmux run anything at all here? If not, the terminal session is not Varia's to fail.
if ! start "sleep 5"; then
    echo "play tests: tmux cannot start a server here ($(head -n 1 "$TMUX_TMPDIR/err")); terminal session skipped"
    exit 0
fi
t kill-server 2>/dev/null
# wait_for TEXT: polls the screen (up to 20 s) until TEXT shows
wait_for() {
    i=0
    while [ $i -lt 200 ]; do
        t capture-pane -p -t play 2>/dev/null | grep -qF -- "$1" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
start "env LC_ALL=C.UTF-8 TERM=xterm-256color $varia play $rules/chess.rules --depth 2; sleep 30" ||
    fail "cannot start tmux ($(cat "$TMUX_TMPDIR/err"))"
wait_for "white>" || fail "no prompt"
wait_for " 1  " || fail "no board"
t send-keys -t play "e4" Enter
wait_for "Black (ai) plays" || fail "the computer did not answer"
wait_for "white>" || fail "no prompt after the computer's move"
t send-keys -t play "undo" Enter
sleep 0.3
wait_for "white>" || fail "no prompt after undo"
t send-keys -t play "fen" Enter
wait_for "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" || fail "undo did not restore the start"
t send-keys -t play "quit" Enter
t kill-session -t play 2>/dev/null

# The game menu: every shipped game is offered and can be chosen by name; a name that is none
# of them is asked again; Ctrl-D at the question leaves without playing.
t kill-server 2>/dev/null
start "env VARIA_RULES=$rules LC_ALL=C.UTF-8 TERM=xterm-256color $varia play; echo \"exit status \$?\"; sleep 30" ||
    fail "cannot start tmux ($(cat "$TMUX_TMPDIR/err"))"
wait_for "which game?" || fail "no game menu"
menu=$(t capture-pane -p -t play -S -200)
for f in "$rules"/*.rules; do
    name=$(basename "$f" .rules)
    echo "$menu" | grep -qE "(^| )$name( |\$)" || fail "the game menu does not offer '$name'"
done
t send-keys -t play "dck" Enter
wait_for "no game 'dck' here" || fail "a wrong name at the menu is not asked again"
t send-keys -t play "duck" Enter
wait_for "Duck Chess - type 'help'" || fail "'duck' typed at the menu does not start Duck Chess"
t send-keys -t play "quit" Enter
wait_for "exit status 0" || fail "quit after the menu did not end the session"
t kill-server 2>/dev/null
start "env VARIA_RULES=$rules LC_ALL=C.UTF-8 TERM=xterm-256color $varia play; echo \"exit status \$?\"; sleep 30" ||
    fail "cannot start tmux ($(cat "$TMUX_TMPDIR/err"))"
wait_for "which game?" || fail "no game menu"
t send-keys -t play C-d
wait_for "exit status 0" || fail "Ctrl-D at the game menu did not leave"
t capture-pane -p -t play | grep -qF "white>" && fail "Ctrl-D at the game menu started a game"

t kill-server 2>/dev/null
start "env LC_ALL=C.UTF-8 TERM=xterm-256color $varia play $rules/ultra-chess.rules --white human --black human; sleep 30" ||
    fail "cannot start tmux ($(cat "$TMUX_TMPDIR/err"))"
wait_for "White, press Enter" || fail "no hand-over to White"
t send-keys -t play Enter
for m in place:c3 place:f3 place:b4 place:g4 random; do
    wait_for "white>" || fail "no prompt for White's set-up"
    t send-keys -t play "$m" Enter
done
wait_for "Black, press Enter" || fail "no hand-over to Black"
t send-keys -t play Enter
wait_for "black>" || fail "no prompt for Black"
t send-keys -t play Up
sleep 0.3
seen=$(t capture-pane -p -t play -S -2000)
echo "$seen" | grep -qE 'place:|random' && fail "White's typed set-up is visible to Black"
echo "$seen" | grep -qF '*' && fail "White's mines are visible to Black"
echo "$seen" | grep -qF ' 4  ?  ?  ?  ?  ?  ?  ?  ?  4' || fail "Black does not see White's tiles face down"
t kill-server 2>/dev/null
exit 0
