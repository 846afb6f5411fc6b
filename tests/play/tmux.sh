#!/bin/sh
# tmux.sh VARIA RULES - a terminal session driven through tmux: the board is drawn, a typed
# move is accepted, the computer answers, undo takes both moves back. Uses its own tmux server
# (socket varia-test-PID) and ends only that.
varia=${1:?usage: tmux.sh VARIA RULES}
rules=${2:?usage: tmux.sh VARIA RULES}
sock=varia-test-$$
t() { tmux -L "$sock" "$@"; }
fail() {
    echo "tmux test: $1; the screen was:" >&2
    t capture-pane -p -t play >&2 2>/dev/null
    t kill-server 2>/dev/null
    exit 1
}
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
t -f /dev/null new-session -d -s play -x 100 -y 40 \
    "env LC_ALL=C.UTF-8 TERM=xterm-256color $varia play $rules --depth 2; sleep 30" || fail "cannot start tmux"
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
t kill-server 2>/dev/null
exit 0
