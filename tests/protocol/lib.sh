# lib.sh - what the protocol test scripts share: a scripted session of one engine protocol and
# the checks over its output. Sourced after setting varia (the program), protocol (uci or
# xboard: the command and the name in messages) and answer (the word before the engine's move:
# bestmove or move).
dir=$(dirname "$0")
root=$dir/../..
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# session NAME INPUT [FILE...]: runs `varia PROTOCOL FILE...` on INPUT (printf escapes), standard
# input a pipe as a GUI's; output in $tmp/NAME.out, exit status in $tmp/NAME.rc
session() {
    name=$1 input=$2
    shift 2
    printf '%b' "$input" | "$varia" "$protocol" "$@" >"$tmp/$name.out" 2>&1
    echo $? >"$tmp/$name.rc"
}
check() { # NAME DESCRIPTION COMMAND...: counts a check, prints the output when COMMAND fails
    name=$1 what=$2
    shift 2
    n=$((n + 1))
    if ! "$@"; then
        echo "$protocol test '$name': $what; output:" >&2
        tail -n 20 "$tmp/$name.out" >&2
        fail=1
    fi
}
matches() { grep -qE -- "$2" "$tmp/$1.out"; }
has() { grep -qF -- "$2" "$tmp/$1.out"; }
lacks() { ! grep -qF -- "$2" "$tmp/$1.out"; }
count() { grep -c -- "$2" "$tmp/$1.out"; }
# legal NAME RULES FEN: the session's last move is one of FEN's legal moves
legal() {
    best=$(sed -n "s/^$answer \\([^ ]*\\).*/\\1/p" "$tmp/$1.out" | tail -n 1)
    [ -n "$best" ] && "$varia" moves "$2" --fen "$3" 2>/dev/null | grep -qx -- "$best"
}
# finish: the summary line and the exit status
finish() {
    if [ $fail = 0 ]; then echo "$protocol tests passed ($n checks)"; else echo "$protocol tests FAILED"; fi
    exit $fail
}
