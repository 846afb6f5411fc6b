#!/bin/sh
# editor-syntax.sh LEXER OUTDIR - syntax highlighting of rule files for editors, made from the
# keyword list of the lexer (grammar/lexer.l is the one list of keywords), so that it never
# falls behind the language. Writes into OUTDIR:
#   vim/syntax/varia.vim, vim/ftdetect/varia.vim    Vim (copy into ~/.vim, or add to runtimepath)
#   varia.tmLanguage.json                           a TextMate grammar (most editors read it)
#   vscode/                                         the same grammar as a VS Code extension
# Comments, strings, numbers, board sizes (8x8) and punctuation are highlighted besides.
set -e
lexer=${1:?usage: editor-syntax.sh LEXER OUTDIR}
out=${2:?usage: editor-syntax.sh LEXER OUTDIR}

# The keywords: the lexer's rules of the form  "name"  { EMIT(TOK_KW_...); }
keywords=$(sed -n 's/^"\([a-z][a-z-]*\)"[ 	]*{ *EMIT(TOK_KW_[A-Z_]*); *}.*/\1/p' "$lexer" | sort -u)
count=$(echo "$keywords" | grep -c .)
if [ "$count" -lt 20 ]; then
    echo "editor-syntax.sh: found only $count keywords in $lexer: has the form of its rules changed?" >&2
    exit 1
fi

mkdir -p "$out/vim/syntax" "$out/vim/ftdetect" "$out/vscode/syntaxes"
tmp=$out/.tmp.$$
trap 'rm -f "$tmp"' EXIT

# ---- Vim -------------------------------------------------------------------------------------
{
    echo '" Vim syntax file for the rule files of Varia (.rules).'
    echo '" Made by scripts/editor-syntax.sh from the keywords of grammar/lexer.l: do not edit.'
    echo 'if exists("b:current_syntax")'
    echo '  finish'
    echo 'endif'
    echo '" names and keywords have inner hyphens: move-only, at-least'
    echo 'syn iskeyword @,48-57,_,192-255,-'
    echo "$keywords" | awk '
        { line = line " " $0; n++ }
        n == 8 { print "syn keyword variaKeyword" line; line = ""; n = 0 }
        END { if (n) print "syn keyword variaKeyword" line }'
    cat <<'EOF'
syn match variaNumber "\<-\?\d\+\>"
syn match variaSize "\<\d\+\s*x\s*\d\+\>"
syn match variaDelimiter "[{}(),=:;+]"
syn region variaString start=+"+ skip=+\\.+ end=+"+ end=+$+ contains=variaEscape oneline
syn match variaEscape +\\.+ contained
syn match variaComment "#.*$" contains=@Spell
hi def link variaKeyword Keyword
hi def link variaNumber Number
hi def link variaSize Number
hi def link variaDelimiter Delimiter
hi def link variaString String
hi def link variaEscape SpecialChar
hi def link variaComment Comment
let b:current_syntax = "varia"
EOF
} >"$tmp"
mv "$tmp" "$out/vim/syntax/varia.vim"

cat >"$tmp" <<'EOF'
" Vim file type detection for the rule files of Varia: a *.rules file whose text declares
" its language version ("version 1"); other programs' .rules files (udev's) keep theirs.
" Made by scripts/editor-syntax.sh: do not edit.
function! s:VariaDetect() abort
  for line in getline(1, 100)
    if line =~# '^\s*version\s\+\d\+\>'
      set filetype=varia
      return
    endif
  endfor
endfunction
autocmd BufNewFile,BufRead *.rules call s:VariaDetect()
EOF
mv "$tmp" "$out/vim/ftdetect/varia.vim"

# ---- TextMate grammar (JSON) -----------------------------------------------------------------
# The keywords as one alternation, longest first, bounded by characters that cannot continue a
# name (letters, digits, '_' and '-').
alternation=$(echo "$keywords" | awk '{ print length($0) " " $0 }' | sort -k1,1nr -k2 | awk '{ printf "%s%s", (NR > 1 ? "|" : ""), $2 }')
{
    cat <<'EOF'
{
  "name": "Varia rules",
  "scopeName": "source.varia",
  "comment": "Made by scripts/editor-syntax.sh from the keywords of grammar/lexer.l: do not edit.",
  "fileTypes": ["rules"],
  "patterns": [
    { "include": "#comment" },
    { "include": "#string" },
    { "include": "#size" },
    { "include": "#number" },
    { "include": "#keyword" },
    { "include": "#punctuation" }
  ],
  "repository": {
    "comment": { "name": "comment.line.number-sign.varia", "match": "#.*$" },
    "string": {
      "name": "string.quoted.double.varia",
      "begin": "\"",
      "end": "\"|$",
      "patterns": [ { "name": "constant.character.escape.varia", "match": "\\\\." } ]
    },
    "size": { "name": "constant.numeric.size.varia", "match": "(?<![A-Za-z0-9_-])[0-9]+\\s*x\\s*[0-9]+(?![A-Za-z0-9_-])" },
    "number": { "name": "constant.numeric.integer.varia", "match": "(?<![A-Za-z0-9_-])-?[0-9]+(?![A-Za-z0-9_-])" },
EOF
    printf '    "keyword": { "name": "keyword.other.varia", "match": "(?<![A-Za-z0-9_-])(?:%s)(?![A-Za-z0-9_-])" },\n' "$alternation"
    cat <<'EOF'
    "punctuation": { "name": "punctuation.separator.varia", "match": "[{}(),=:;+]" }
  }
}
EOF
} >"$tmp"
cp "$tmp" "$out/vscode/syntaxes/varia.tmLanguage.json"
mv "$tmp" "$out/varia.tmLanguage.json"

# ---- the VS Code extension around it ---------------------------------------------------------
cat >"$out/vscode/package.json" <<'EOF'
{
  "name": "varia-rules",
  "displayName": "Varia rule files",
  "description": "Syntax highlighting for the rule files of Varia (.rules)",
  "version": "1.0.0",
  "publisher": "varia",
  "engines": { "vscode": "^1.0.0" },
  "categories": ["Programming Languages"],
  "contributes": {
    "languages": [
      {
        "id": "varia",
        "aliases": ["Varia rules", "varia"],
        "extensions": [".rules"],
        "configuration": "./language-configuration.json"
      }
    ],
    "grammars": [
      { "language": "varia", "scopeName": "source.varia", "path": "./syntaxes/varia.tmLanguage.json" }
    ]
  }
}
EOF
cat >"$out/vscode/language-configuration.json" <<'EOF'
{
  "comments": { "lineComment": "#" },
  "brackets": [["{", "}"], ["(", ")"]],
  "autoClosingPairs": [
    { "open": "{", "close": "}" },
    { "open": "(", "close": ")" },
    { "open": "\"", "close": "\"", "notIn": ["string", "comment"] }
  ],
  "surroundingPairs": [["{", "}"], ["(", ")"], ["\"", "\""]]
}
EOF
