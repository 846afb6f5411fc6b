#!/bin/sh
# metamorphic.sh VARIA [RULES...] - rewrites the programs of every shipped rule file (or the
# RULES named) in ways that must not change any move, and checks that they do not: the moves
# of each variant, on positions of random play, must be the moves of the original.
#   either    move { B }  ->  move { either { fail } or { B } }
#   long      move { B }  ->  move { either { fail } or ... (70 dead branches) or { } or { fail }  B }
#             (a live branch past the 64th, followed by another: a lost jump would show)
#   define    move { B }  ->  define metadefN(PARAMS) { B }  ...  move { use metadefN(PARAMS) }
#             (PARAMS: the enclosing macro's parameters, so B may use them)
#   loop      move { B }  ->  move { for Dmeta in n { B } }
#   atoms     a plain step, leap or slide (at most move-only or capture-only) -> the move block
#             that does the same (pieces that are never-stuck or promote optionally keep their
#             atoms: a move block counts as "can always move" there; none where a type imitates)
# Every variant must give the same moves, and the same number of replies to each (perft 2,
# divided), on the positions where the original's random games end. The first four keep the
# order of the moves, so random play must reach the same positions; where it does not (a
# fast path the block no longer takes orders them otherwise) the positions the variant's games
# end in are compared too, and a note says so.
# Env: META_COUNT games of META_PLIES plies (default 3 and 24), META_POSITIONS of them also
# compared (default 3).
varia=${1:?usage: metamorphic.sh VARIA [RULES...]}
shift
command -v python3 > /dev/null || { echo "metamorphic: python3 is needed" >&2; exit 1; }
exec python3 - "$varia" "$(dirname "$0")/.." "$@" << 'EOF'
import os, re, subprocess, sys, tempfile

varia, root = sys.argv[1:3]
names = sys.argv[3:]
COUNT = int(os.environ.get("META_COUNT", "3"))
PLIES = int(os.environ.get("META_PLIES", "24"))
POSITIONS = int(os.environ.get("META_POSITIONS", "3"))
SEED = 27

# The language's keywords, from the lexer: a word after an atom that is not one is a direction.
with open(os.path.join(root, "grammar/lexer.l")) as f:
    KEYWORDS = set(re.findall(r'^"([a-z][a-z-]*)"\s', f.read(), re.M))


def mask(text):
    """text with comments and strings blanked out (same length), so braces and words there
    are not read."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = text.find('"', i + 1)
            j = n - 1 if j < 0 else j
            for k in range(i + 1, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j + 1
        elif c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        else:
            i += 1
    return "".join(out)


def closing(masked, open_at):
    """Index of the '}' matching the '{' at open_at."""
    depth = 0
    for i in range(open_at, len(masked)):
        if masked[i] == "{":
            depth += 1
        elif masked[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced braces")


WORD = r"(?<![-\w])"


def macros(masked):
    """(start, end, parameters) of every macro."""
    out = []
    for m in re.finditer(WORD + r"macro\s+[\w-]+\s*\(([^)]*)\)\s*\{", masked):
        params = [p.strip() for p in m.group(1).split(",") if p.strip()]
        out.append((m.start(), closing(masked, m.end() - 1), params))
    return out


def enclosing_params(spans, at):
    for start, end, params in spans:
        if start < at < end:
            return params
    return []


def move_blocks(masked):
    """(open brace, close brace, macro parameters) of every move block."""
    spans = macros(masked)
    out = []
    for m in re.finditer(WORD + r"move\s*\{", masked):
        o = m.end() - 1
        out.append((o, closing(masked, o), enclosing_params(spans, o)))
    return out


def rewrite_blocks(text, blocks, body_to):
    """text with each move block's body B replaced by body_to(k, B, params); defines that
    body_to returns as a second value are added at the end."""
    out, extra, last = [], [], 0
    for k, (o, c, params) in enumerate(blocks):
        new, define = body_to(k, text[o + 1:c], params)
        out.append(text[last:o + 1])
        out.append(new)
        last = c
        if define:
            extra.append(define)
    out.append(text[last:])
    return "".join(out) + "".join("\n" + d for d in extra) + "\n"


def either(k, body, params):
    return " either { fail } or {" + body + "} ", None


def long_either(k, body, params):
    return " either " + " or ".join(["{ fail }"] * 70 + ["{ }", "{ fail }"]) + "\n" + body, None


def in_define(k, body, params):
    p = ", ".join(params)
    return " use metadef%d(%s) " % (k, p), "define metadef%d(%s) {%s}" % (k, p, body)


def in_loop(k, body, params):
    return " for Dmeta in n {" + body + "} ", None


# ---- atoms ----
TOKEN = re.compile(r"\s*(sym\s*\([^)]*\)|\([^)]*\)|[\w-]+|\S)")
PLAIN_ATOM = {"step": "leap", "leap": "leap", "slide": "slide"}


def atoms(text, masked):
    """(start, end, replacement) for each plain atom of a piece that may be rewritten."""
    if re.search(WORD + r"imitate" + r"(?![-\w])", masked):
        return []
    out = []
    # (the bodies of move blocks and of drop programs: there `step` is a statement)
    blocks = move_blocks(masked) + [(m.end() - 1, closing(masked, m.end() - 1), None)
                                    for m in re.finditer(WORD + r"drop\s*\{", masked)]
    spans = []  # the bodies of pieces and macros
    for m in re.finditer(WORD + r"(piece\s+[\w-]+|macro\s+[\w-]+\s*\([^)]*\))\s*\{", masked):
        body = (m.end(), closing(masked, m.end() - 1))
        words = masked[body[0]:body[1]]
        if re.search(WORD + r"never-stuck(?![-\w])", words) or re.search(r"promote[^\n]*optional", words):
            continue
        spans.append(body)
    for start, end in spans:
        at = start
        while True:
            m = re.compile(WORD + r"(step|leap|slide)(?![-\w])").search(masked, at, end)
            if not m:
                break
            at = m.end()
            # not inside a move block (there `step` is a statement)
            if any(o < m.start() < c for o, c, _ in blocks):
                continue
            dirs, mods, pos = [], [], m.end()
            while True:
                t = TOKEN.match(masked, pos, end)
                if not t:
                    break
                word = t.group(1)
                if word.startswith("(") or word.startswith("sym"):
                    dirs.append(text[t.start(1):t.end(1)])
                elif re.fullmatch(r"[A-Za-z_][\w-]*", word) and word not in KEYWORDS:
                    dirs.append(word)
                elif word in ("move-only", "capture-only"):
                    mods.append(word)
                elif word in ("range", "from", "to", "sets-ep", "withdraw", "pincer", "coordinate",
                              "imitate", "leaps-alone"):
                    mods.append(None)  # not rewritten
                    break
                else:
                    break
                pos = t.end()
            if not dirs or None in mods or len(mods) > 1:
                continue
            kind = PLAIN_ATOM[m.group(1)]
            only = mods[0] if mods else ""
            d = " ".join(dirs)
            if kind == "leap":
                test = {"": "empty or enemy", "move-only": "empty", "capture-only": "enemy"}[only]
                prog = "for Dmeta in %s { step Dmeta  verify %s  add }" % (d, test)
            elif only == "move-only":
                prog = "for Dmeta in %s { step Dmeta  while empty { add  step Dmeta } }" % d
            elif only == "capture-only":
                prog = "for Dmeta in %s { step Dmeta  while empty { step Dmeta }  verify enemy  add }" % d
            else:
                prog = "for Dmeta in %s { step Dmeta  while empty { add  step Dmeta }  verify enemy  add }" % d
            out.append((m.start(), pos, " move { %s } " % prog))
            at = pos
    return out


def rewrite_atoms(text, found):
    out, last = [], 0
    for start, end, new in sorted(found):
        out.append(text[last:start])
        out.append(new)
        last = end
    out.append(text[last:])
    return "".join(out)


def run(args):
    r = subprocess.run([varia] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stdout, r.stderr


def divide(path, fen):
    """{move: replies} of fen (perft 2, divided), or the error."""
    rc, out, err = run(["perft", path, "2", "--divide", "--fen", fen])
    if rc != 0:
        return "error: " + err.strip()
    return dict(l.rsplit(": ", 1) for l in out.splitlines() if ": " in l and not l.startswith("Nodes"))


def differences(path, vpath, fens, want):
    """What the variant vpath gets wrong on fens (want: the original's answers, filled in)."""
    problems = []
    for fen in fens:
        if fen not in want:
            want[fen] = divide(path, fen)
        got, orig = divide(vpath, fen), want[fen]
        if got == orig:
            continue
        if isinstance(got, str) or isinstance(orig, str):
            problems.append("at %s: %s / original %s" % (fen, got, orig))
            continue
        extra = sorted(set(got) - set(orig))
        lost = sorted(set(orig) - set(got))
        other = ["%s %s/%s" % (m, got[m], orig[m]) for m in sorted(set(got) & set(orig)) if got[m] != orig[m]]
        text = "at %s: %d moves, original %d; only in the variant: %s; only in the original: %s" % (
            fen, len(got), len(orig), " ".join(extra) or "-", " ".join(lost) or "-")
        if other:
            text += "; the replies differ after %d (variant/original: %s)" % (
                len(other), " ".join(other[:6]) + (" ..." if len(other) > 6 else ""))
        problems.append(text)
    return problems


tmp = tempfile.mkdtemp(prefix="varia-meta-")
files = [os.path.join(root, "rules", n if n.endswith(".rules") else n + ".rules") for n in names] or \
    sorted(os.path.join(root, "rules", f) for f in os.listdir(os.path.join(root, "rules")) if f.endswith(".rules"))
total_pass = total_fail = 0
ran = {}
for path in files:
    name = os.path.basename(path)[:-6]
    with open(path) as f:
        text = f.read()
    masked = mask(text)
    blocks = move_blocks(masked)
    variants = {}
    if blocks:
        variants["either"] = (rewrite_blocks(text, blocks, either), True)
        variants["long"] = (rewrite_blocks(text, blocks, long_either), True)
        variants["define"] = (rewrite_blocks(text, blocks, in_define), True)
        variants["loop"] = (rewrite_blocks(text, blocks, in_loop), True)
    found = atoms(text, masked)
    if found:
        variants["atoms"] = (rewrite_atoms(text, found), False)
    if not variants:
        continue
    rc, positions, err = run(["random", path, "count=%d" % COUNT, "plies=%d" % PLIES, "seed=%d" % SEED])
    if rc != 0:
        print("metamorphic: %s: FAIL: varia random on the original: %s" % (name, err.strip()), file=sys.stderr)
        total_fail += 1
        continue
    fens = positions.splitlines()[:POSITIONS]
    want = {}
    for vname, (vtext, same_order) in variants.items():
        vpath = os.path.join(tmp, "%s-%s.rules" % (name, vname))
        with open(vpath, "w") as f:
            f.write(vtext)
        problems = []
        if same_order:
            # random play picks moves by their place in the list: the same positions say that
            # every ply had the same moves in the same order. Otherwise (a fast path taken or
            # left changes the order) the moves are compared where the variant's games end too.
            rc, got, err = run(["random", vpath, "count=%d" % COUNT, "plies=%d" % PLIES, "seed=%d" % SEED])
            if rc != 0:
                problems.append("varia random: " + err.strip())
            elif got != positions:
                problems += differences(path, vpath, got.splitlines()[:POSITIONS], want)
                if not problems:
                    print("metamorphic: %s (%s): note: the moves come in another order" % (name, vname))
        if not problems:
            problems = differences(path, vpath, fens, want)
        ran[vname] = ran.get(vname, 0) + 1
        if problems:
            total_fail += 1
            print("metamorphic: %s (%s): FAIL (the variant is %s)" % (name, vname, vpath), file=sys.stderr)
            for p in problems:
                print("  " + p, file=sys.stderr)
        else:
            total_pass += 1
            os.remove(vpath)
print("metamorphic: %s" % ", ".join("%s %d files" % (k, v) for k, v in sorted(ran.items())))
print("metamorphic: %d passed, %d failed" % (total_pass, total_fail))
if not total_fail:
    os.rmdir(tmp)
sys.exit(1 if total_fail else 0)
EOF
