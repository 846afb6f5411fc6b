#!/bin/sh
# install.sh MAKE PREFIX - `make install` into a temporary DESTDIR, then, from a directory
# outside the source tree and with VARIA_RULES unset: the installed varia finds the shipped
# games and plays one (shogi, typed in its own coordinates), its manual page reads and names
# every command, the Vim files highlight a rule file, the TextMate grammar is JSON; the editor
# files and docs/language.md know exactly the lexer's keywords, and the first example of
# language.md loads. Then `make uninstall` leaves no file behind.
make=${1:?usage: install.sh MAKE PREFIX}
prefix=${2:?usage: install.sh MAKE PREFIX}
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$(mktemp -d)
away=$(mktemp -d)
trap 'rm -rf "$dest" "$away"' EXIT
fail=0 n=0
bad() {
    echo "install test: $1" >&2
    fail=1
}
check() { n=$((n + 1)); }

cd "$root" || exit 1
if ! $make --no-print-directory -s install DESTDIR="$dest" >"$away/install.out" 2>&1; then
    cat "$away/install.out" >&2
    bad "make install DESTDIR=$dest failed"
    exit 1
fi
varia=$dest$prefix/bin/varia
share=$dest$prefix/share
for f in "$varia" "$share/man/man1/varia.1" "$share/doc/varia/language.md" "$share/doc/varia/playing.md" \
    "$share/varia/rules/shogi.rules" "$share/vim/vimfiles/syntax/varia.vim" "$share/vim/vimfiles/ftdetect/varia.vim" \
    "$share/varia/editors/varia.tmLanguage.json" "$share/varia/editors/vscode/package.json"; do
    check
    [ -s "$f" ] || bad "make install did not put $f"
done
check
[ "$(ls "$share/varia/rules" | wc -l)" = "$(ls "$root"/rules/*.rules | wc -l)" ] || bad "not every shipped game is installed"

# The installed varia, from elsewhere: it finds its games by name and plays one.
cd "$away" || exit 1
printf '7g7f\n3c3d\nfen\n' | env -u VARIA_RULES LC_ALL=C NO_COLOR=1 "$varia" play shogi --black human >"$away/play.out" 2>&1
check
grep -qF "Shogi - type 'help' for commands" "$away/play.out" || bad "the installed varia does not play shogi: $(head -n 3 "$away/play.out")"
check
grep -qF "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[] w - - 2 2" "$away/play.out" ||
    bad "the installed varia did not play 7g7f 3c3d: $(tail -n 5 "$away/play.out")"
printf 'quit\n' | env -u VARIA_RULES "$varia" play >"$away/default.out" 2>&1
check
grep -qF "Chess - type 'help' for commands" "$away/default.out" || bad "the installed varia plays no default game"
check
env -u VARIA_RULES "$varia" check xiangqi >/dev/null 2>&1 || bad "the installed varia does not find xiangqi by name"

# The manual page: it reads (man -l), names every command, and the installed directories.
if command -v man >/dev/null 2>&1; then
    MANWIDTH=80 man -l "$share/man/man1/varia.1" >"$away/man.out" 2>"$away/man.err"
    check
    grep -q "^NAME" "$away/man.out" && [ ! -s "$away/man.err" ] || bad "man -l of the page fails: $(head -n 3 "$away/man.err")"
    for c in $("$varia" --help | sed -n 's/^  \([a-z]*\) .*/\1/p; s/^  \([a-z]*\)$/\1/p' | sort -u); do
        check
        grep -qE "^ {7}$c( |$)" "$away/man.out" || bad "the manual page does not describe '$c'"
    done
    check
    grep -qF "$prefix/share/varia/rules" "$away/man.out" || bad "the manual page does not name $prefix/share/varia/rules"
else
    echo "install test: man is not installed, the manual page is not read"
fi

# The editor files: exactly the lexer's keywords, in Vim's file, the grammar and the language
# reference; the grammar is JSON; Vim highlights a rule file with them.
sed -n 's/^"\([a-z][a-z-]*\)"[ 	]*{ *EMIT(TOK_KW_.*/\1/p' "$root/grammar/lexer.l" | sort -u >"$away/lexer.kw"
sed -n 's/^syn keyword variaKeyword //p' "$share/vim/vimfiles/syntax/varia.vim" | tr ' ' '\n' | grep . | sort -u >"$away/vim.kw"
sed -n 's/.*"keyword": .*(?:\([^)]*\)).*/\1/p' "$share/varia/editors/varia.tmLanguage.json" | tr '|' '\n' | sort -u >"$away/tm.kw"
# (the Keywords section's list: one code span, from a line starting with a backquote to one ending with one)
awk '/^## Keywords/ { on = 1; next } on && /^`/ { span = 1 } span { print } span && /`$/ { exit }' \
    "$root/docs/language.md" | tr -d '`' | tr ' ' '\n' |
    grep . | sort -u >"$away/doc.kw"
for k in vim tm doc; do
    check
    cmp -s "$away/lexer.kw" "$away/$k.kw" || {
        bad "the $k keyword list differs from grammar/lexer.l's (< lexer, > $k):"
        diff "$away/lexer.kw" "$away/$k.kw" | head -n 10 >&2
    }
done
for json in "$share/varia/editors/varia.tmLanguage.json" "$share/varia/editors/vscode/package.json" \
    "$share/varia/editors/vscode/language-configuration.json"; do
    check
    if command -v jq >/dev/null 2>&1; then
        jq . "$json" >/dev/null 2>&1 || bad "$json is not JSON"
    elif command -v python3 >/dev/null 2>&1; then
        python3 -m json.tool "$json" >/dev/null 2>&1 || bad "$json is not JSON"
    elif command -v node >/dev/null 2>&1; then
        node -e "JSON.parse(require('fs').readFileSync(process.argv[1]))" "$json" 2>/dev/null || bad "$json is not JSON"
    else
        echo "install test: no JSON reader (jq, python3, node): $json not read back"
    fi
done
if command -v vim >/dev/null 2>&1; then
    printf '# a comment with piece in it\nversion 1\nboard 8x8\npiece Rook { letter R slide orth move-only }\n' >"$away/game.rules"
    printf 'KERNEL=="sd*", SYMLINK+="disk"\n' >"$away/other.rules"
    cat >"$away/probe.vim" <<EOF
filetype on
syntax on
silent edit $away/game.rules
redir! > $away/vim.out
echo 'filetype ' . &filetype
for [l, c] in [[1, 18], [2, 1], [3, 7], [4, 1], [4, 7], [4, 36]]
  echo l . ':' . c . ' [' . synIDattr(synID(l, c, 1), 'name') . ']'
endfor
redir END
silent edit $away/other.rules
redir! >> $away/vim.out
echo 'other ' . (&filetype ==# 'varia' ? 'varia' : 'not varia')
redir END
qa!
EOF
    HOME=$away vim -u NONE -i NONE -N -es --cmd "set rtp^=$share/vim/vimfiles" -S "$away/probe.vim" </dev/null >/dev/null 2>&1
    got=$(grep . "$away/vim.out" 2>/dev/null | tr '\n' ' ')
    want="filetype varia 1:18 [variaComment] 2:1 [variaKeyword] 3:7 [variaSize] 4:1 [variaKeyword] 4:7 [] 4:36 [variaKeyword] other not varia "
    check
    [ "$got" = "$want" ] || bad "Vim does not highlight a rule file as expected: got '$got', want '$want'"
else
    echo "install test: vim is not installed, the Vim files are not tried"
fi

# The first example of the language reference is a whole game: it loads and plays.
awk '/^## A first rule file/ { on = 1 } on && /^```$/ { if (inside) exit; inside = 1; next } inside' \
    "$share/doc/varia/language.md" >"$away/first.rules"
check
"$varia" check "$away/first.rules" >"$away/first.out" 2>&1 && "$varia" perft "$away/first.rules" 2 2>/dev/null |
    grep -q "^Nodes searched: [1-9]" || bad "the first example of language.md does not load: $(head -n 3 "$away/first.out")"

# uninstall removes every file install put
cd "$root" || exit 1
$make --no-print-directory -s uninstall DESTDIR="$dest" >"$away/uninstall.out" 2>&1 || bad "make uninstall failed"
check
[ -z "$(find "$dest" -type f)" ] || bad "make uninstall left: $(find "$dest" -type f | head -n 5)"

[ $fail = 0 ] && echo "install tests passed ($n checks)"
exit $fail
