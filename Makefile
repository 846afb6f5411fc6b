# Varia - build, test and benchmark. `make` builds ./varia; `make test` runs every test.
CC      ?= cc
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wwrite-strings -Wundef -Werror
OPT     ?= -O2 -DNDEBUG
CFLAGS  += $(CSTD) $(WARN) $(OPT) -MMD -MP -iquote src -I$(GEN)
LDLIBS  += -pthread -lm
# `varia serve`: HTTP from libmicrohttpd, JSON from jansson (Debian libmicrohttpd-dev,
# libjansson-dev; src/serve.c says why)
LDLIBS  += -lmicrohttpd -ljansson

# GNU readline for line editing and history in the console, when its header is installed
# (Debian libreadline-dev); without it the console reads plain stdin.
ifneq ($(wildcard /usr/include/readline/readline.h),)
CFLAGS  += -DVARIA_READLINE
LDLIBS  += -lreadline
endif

BUILD    = build
GEN      = $(BUILD)/gen
OBJ      = $(BUILD)/obj

LIB_SRC  = $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJ  = $(LIB_SRC:src/%.c=$(OBJ)/%.o) $(OBJ)/parser.o $(OBJ)/lexer.o $(OBJ)/webassets.o
# the web page of `varia serve`, compiled into the binary
WEB_FILES = web/index.html web/app.js web/style.css
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: games-compare all editors install uninstall install-tests serve serve-tests browser-tests serve-paint deps test test-groups unit golden perft perft-deep crosscheck metamorphic bench bench-signature describe-tests play play-tests protocol-tests gui-tests layers asan asan-inner asan-unit asan-perft asan-sessions asan-replays \
        clean format golden-update fuzz fuzz-inner fuzz-replay fuzz-corpus fuzz-corpus-inner memcheck oracle-compare zrf-tests

all: varia editors

deps:
	@scripts/deps.sh build

# The generated parser: bison and flex output lives only under build/gen. Each rule makes both
# of its files at once (grouped targets), so a parallel build never runs bison or flex twice.
$(GEN)/parser.c $(GEN)/parser.h &: grammar/parser.y | $(GEN)
	@scripts/deps.sh build
	bison -Wall -Werror --defines=$(GEN)/parser.h -o $(GEN)/parser.c $<

$(GEN)/lexer.c $(GEN)/lexer.h &: grammar/lexer.l $(GEN)/parser.h | $(GEN)
	@scripts/deps.sh build
	flex --header-file=$(GEN)/lexer.h -o $(GEN)/lexer.c $<

# Generated code is not ours to make warning-free in every respect.
$(OBJ)/parser.o: $(GEN)/parser.c $(GEN)/lexer.h | $(OBJ)
	$(CC) $(CSTD) $(OPT) -Wall -Werror -Wno-unused-function -MMD -MP -iquote src -I$(GEN) -c $< -o $@
$(OBJ)/lexer.o: $(GEN)/lexer.c $(GEN)/parser.h | $(OBJ)
	$(CC) $(CSTD) $(OPT) -Wall -Werror -Wno-unused-function -Wno-sign-compare -MMD -MP -iquote src -I$(GEN) -c $< -o $@

$(OBJ)/parse.o: $(GEN)/parser.h $(GEN)/lexer.h

# The server's modules need the HTTP and JSON libraries' headers (a build tree made before
# they were needed gets them here too).
$(OBJ)/serve.o $(OBJ)/webapi.o $(OBJ)/webgame.o: | $(BUILD)/serve-deps.stamp
$(BUILD)/serve-deps.stamp: | $(OBJ)
	@scripts/deps.sh build
	@touch $@

$(GEN)/webassets.c: web/embed.sh $(WEB_FILES) | $(GEN)
	sh web/embed.sh $(WEB_FILES) > $@.tmp && mv $@.tmp $@
$(OBJ)/webassets.o: $(GEN)/webassets.c | $(OBJ)
	$(CC) $(CFLAGS) -c $< -o $@

$(OBJ)/%.o: src/%.c | $(OBJ)
	$(CC) $(CFLAGS) -c $< -o $@

# Where an installed varia finds the shipped games when nothing nearer has them (see
# rules_dir in src/main.c): built in, and rebuilt when PREFIX changes.
$(BUILD)/pkgdatadir: FORCE | $(OBJ)
	@echo '$(pkgdatadir)' | cmp -s - $@ || echo '$(pkgdatadir)' > $@
$(OBJ)/main.o: $(BUILD)/pkgdatadir
$(OBJ)/main.o: CFLAGS += -DVARIA_DATADIR='"$(pkgdatadir)"'
FORCE:

$(BUILD)/libvaria.a: $(LIB_OBJ)
	ar rcs $@ $^

varia: $(OBJ)/main.o $(BUILD)/libvaria.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libvaria.a | $(BUILD)/tests
	@scripts/deps.sh test
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libvaria.a -lcmocka $(LDLIBS)

$(GEN) $(OBJ) $(BUILD)/tests $(BUILD)/fuzz-obj:
	mkdir -p $@

# ---- editors and installation -----------------------------------------------------------------
# Syntax highlighting of rule files (Vim, a TextMate grammar, a VS Code extension), made from
# the lexer's keyword list so it never falls behind the language.
EDITOR_FILES = $(addprefix $(BUILD)/editors/,vim/syntax/varia.vim vim/ftdetect/varia.vim varia.tmLanguage.json \
               vscode/package.json vscode/language-configuration.json vscode/syntaxes/varia.tmLanguage.json)
editors: $(EDITOR_FILES)
$(EDITOR_FILES) &: grammar/lexer.l scripts/editor-syntax.sh
	sh scripts/editor-syntax.sh grammar/lexer.l $(BUILD)/editors

# `make install` as GNU and Debian expect: PREFIX (or prefix; default /usr/local) says where
# varia lives, DESTDIR where the tree is staged (a package's root), and each directory may be
# given alone (bindir, datadir, mandir, docdir, vimdir). `make uninstall` removes what it put.
PREFIX      ?= /usr/local
prefix      ?= $(PREFIX)
bindir      ?= $(prefix)/bin
datarootdir ?= $(prefix)/share
datadir     ?= $(datarootdir)
mandir      ?= $(datarootdir)/man
man1dir     ?= $(mandir)/man1
docdir      ?= $(datarootdir)/doc/varia
vimdir      ?= $(datarootdir)/vim/vimfiles
pkgdatadir   = $(datadir)/varia
INSTALL         ?= install
INSTALL_PROGRAM ?= $(INSTALL)
INSTALL_DATA    ?= $(INSTALL) -m 644
DOC_FILES    = README.md $(wildcard docs/*.md)

# The manual page names the installed directories, not the default ones it is written with.
$(BUILD)/varia.1: docs/varia.1 $(BUILD)/pkgdatadir
	sed -e 's|/usr/local/share/varia|$(pkgdatadir)|g' -e 's|/usr/local/share/doc/varia|$(docdir)|g' \
	    -e 's|/usr/local/share/vim/vimfiles|$(vimdir)|g' docs/varia.1 > $@

install: all $(BUILD)/varia.1
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(pkgdatadir)/rules $(DESTDIR)$(man1dir) $(DESTDIR)$(docdir) \
	    $(DESTDIR)$(vimdir)/syntax $(DESTDIR)$(vimdir)/ftdetect $(DESTDIR)$(pkgdatadir)/editors/vscode/syntaxes
	$(INSTALL_PROGRAM) varia $(DESTDIR)$(bindir)/varia
	$(INSTALL_DATA) rules/*.rules $(DESTDIR)$(pkgdatadir)/rules
	$(INSTALL_DATA) $(BUILD)/varia.1 $(DESTDIR)$(man1dir)/varia.1
	$(INSTALL_DATA) $(DOC_FILES) $(DESTDIR)$(docdir)
	$(INSTALL_DATA) $(BUILD)/editors/vim/syntax/varia.vim $(DESTDIR)$(vimdir)/syntax/varia.vim
	$(INSTALL_DATA) $(BUILD)/editors/vim/ftdetect/varia.vim $(DESTDIR)$(vimdir)/ftdetect/varia.vim
	$(INSTALL_DATA) $(BUILD)/editors/varia.tmLanguage.json $(DESTDIR)$(pkgdatadir)/editors
	$(INSTALL_DATA) $(BUILD)/editors/vscode/package.json $(BUILD)/editors/vscode/language-configuration.json \
	    $(DESTDIR)$(pkgdatadir)/editors/vscode
	$(INSTALL_DATA) $(BUILD)/editors/vscode/syntaxes/varia.tmLanguage.json $(DESTDIR)$(pkgdatadir)/editors/vscode/syntaxes

uninstall:
	rm -f $(DESTDIR)$(bindir)/varia $(DESTDIR)$(man1dir)/varia.1
	rm -f $(DESTDIR)$(vimdir)/syntax/varia.vim $(DESTDIR)$(vimdir)/ftdetect/varia.vim
	rm -rf $(DESTDIR)$(pkgdatadir) $(DESTDIR)$(docdir)

# An installation into a temporary DESTDIR: the installed varia plays a shipped game from
# another directory, its manual page reads, the editor files know every keyword, and
# uninstall leaves nothing behind.
install-tests: all
	@sh tests/install.sh "$(MAKE)" "$(prefix)"

# ---- fuzz targets ------------------------------------------------------------------------
# fuzz/fuzz_<target>.c holds LLVMFuzzerTestOneInput. Built with clang and libFuzzer by
# `make fuzz`; built with any compiler and fuzz/replay.c they replay their committed corpus
# (fuzz/corpus/<target>) and the regression inputs (tests/fuzz/<target>) in `make test`.
FUZZ_TARGETS = rules fen move save uci xboard pgn zrf
FUZZ_SECONDS ?= 60
REPLAY_BIN   = $(FUZZ_TARGETS:%=$(BUILD)/tests/replay_%)

.PRECIOUS: $(BUILD)/fuzz-obj/%.o
$(BUILD)/fuzz-obj/%.o: fuzz/%.c | $(BUILD)/fuzz-obj
	$(CC) $(CFLAGS) -iquote fuzz -c $< -o $@

$(BUILD)/tests/replay_%: $(BUILD)/fuzz-obj/fuzz_%.o $(BUILD)/fuzz-obj/replay.o $(BUILD)/libvaria.a | $(BUILD)/tests
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BUILD)/fuzz_%: $(BUILD)/fuzz-obj/fuzz_%.o $(BUILD)/libvaria.a
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDFLAGS) $(LDLIBS)

# ---- tests -------------------------------------------------------------------------------
# The test groups are independent: run them side by side, one per core, each group's output
# printed as a block when it ends (TEST_JOBS=1: one after another). Packages are installed
# first, one apt-get at a time. The test programs are built before the groups start: a group
# whose programs are still to build waits while make starts the groups after it, and memcheck,
# the longest, would then start last.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)

test: varia
	@scripts/deps.sh test && scripts/deps.sh oracle && scripts/deps.sh memcheck
	@scripts/deps.sh gui || echo "(xboard gui tests need the packages above)"
	@scripts/deps.sh browser
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) $(UNIT_BIN) $(REPLAY_BIN) $(BUILD)/tests/test_serve
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target test-groups
	@echo "all tests passed"

test-groups: memcheck asan crosscheck games-compare metamorphic gui-tests browser-tests perft play-tests unit fuzz-replay protocol-tests serve-tests bench-signature golden describe-tests layers install-tests oracle-compare zrf-tests

unit: $(UNIT_BIN)
	@scripts/deps.sh test
	@fail=0; for t in $(UNIT_BIN); do $$t || fail=1; done; exit $$fail

golden: varia
	@sh tests/run_golden.sh ./varia

fuzz-replay: $(REPLAY_BIN)
	@for t in $(FUZZ_TARGETS); do $(BUILD)/tests/replay_$$t fuzz/corpus/$$t $$(ls -d tests/fuzz/$$t 2>/dev/null) || exit 1; done

# Valgrind's memcheck over the unit tests, the golden tests, the corpus replays and the console
# sessions: no error and no leak. (Perft is too slow under valgrind: `asan` covers it.)
memcheck: varia $(UNIT_BIN) $(REPLAY_BIN) $(BUILD)/tests/test_serve
	@scripts/deps.sh memcheck
	@sh tests/memcheck.sh ./varia $(BUILD)/tests

golden-update: varia
	@sh tests/run_golden.sh ./varia --update

perft: varia
	@sh tests/run_perft.sh ./varia shallow

# The Zillions front end: its .zrf files against their twin rule files (perft), its golden
# diagnostics (tests/zrf).
zrf-tests: varia
	@sh tests/zrf/run.sh ./varia

perft-deep: varia
	@sh tests/run_perft.sh ./varia deep
	@sh tests/draughts-crosscheck.sh ./varia deep
	@sh tests/oracle-compare.sh ./varia deep
	@python3 tests/games-compare.py ./varia deep

# Alice, Marseillais, Grasshopper and Berolina chess against an independent generator.
oracle-compare: varia
	@scripts/deps.sh oracle
	@sh tests/oracle-compare.sh ./varia quick

# The placement, connection, morris and tafl games against the independent generator
# tests/oracle/games28.py, move by move (perft --divide) on stored positions.
games-compare: varia
	@python3 tests/games-compare.py ./varia quick

crosscheck: varia
	@scripts/deps.sh oracle
	@sh tests/crosscheck.sh ./varia
	@sh tests/draughts-crosscheck.sh ./varia

# The shipped rule files rewritten in ways that must not change a move (a dead either branch,
# a define used once, a loop of one direction, atoms as move blocks): the same moves.
metamorphic: varia
	@sh tests/metamorphic.sh ./varia

bench: varia
	@sh tests/bench.sh ./varia

# The search's node count over the fixed bench list must match tests/bench_signature.
bench-signature: varia
	@want=$$(cat tests/bench_signature); got=$$(./varia bench 2>/dev/null | sed -n 's/^Nodes searched: //p'); \
	if [ "$$want" = "$$got" ]; then echo "bench signature ok ($$got)"; \
	else echo "bench signature mismatch: tests/bench_signature has $$want, varia bench gives $$got"; exit 1; fi

# The rulebook of every shipped game: text without a fault, every diagram equal to the move
# generator's moves on its position, the HTML page's text and marks equal to the text's,
# well-formed SVG and HTML, and the golden texts of tests/describe.
describe-tests: varia
	@scripts/deps.sh test
	@sh tests/describe/run.sh ./varia

# Scripted console games (stdin, no terminal) and, when tmux is installed, a terminal session.
play-tests: varia
	@sh tests/play/run.sh ./varia

# The modules of src/ form layers: no include cycle but the one the design names.
layers:
	@sh scripts/include-cycles.sh

protocol-tests: varia
	@sh tests/protocol/uci.sh ./varia
	@sh tests/protocol/xboard.sh ./varia
	@sh tests/protocol/strength.sh ./varia

# XBoard itself playing Varia against Varia (chess and Ultima) and against Fairy-Stockfish
# (chess), under a virtual X server.
gui-tests: varia
	@scripts/deps.sh gui || echo "(xboard gui tests need the packages above)"
	@sh tests/protocol/xboard_gui.sh ./varia

play: varia
	./varia play

# The web page: `varia serve` prints the address to open.
serve: varia
	./varia serve

# The server's JSON API with good and bad requests, and a thousand malformed requests that must
# each get an error and change nothing (tests/serve/test_serve.c, in-process over real sockets);
# `varia fen --moves`, which the browser test checks the page against.
serve-tests: varia $(BUILD)/tests/test_serve
	@$(BUILD)/tests/test_serve
	@sh tests/serve/fen_moves.sh ./varia

$(BUILD)/tests/test_serve: tests/serve/test_serve.c $(BUILD)/libvaria.a | $(BUILD)/tests
	@scripts/deps.sh test
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libvaria.a -lcmocka $(LDLIBS)

# Chromium, headless, plays chess, Ultima, Ultimate Chess (4 players) and Above and Below by
# clicks against the computer and checks the board after every move (tests/serve/browser.cjs);
# screenshots go to build/browser/.
browser-tests: varia
	@scripts/deps.sh browser
	@sh tests/serve/browser.sh ./varia

# How long each shipped game's board takes to appear in the page (fails over one second).
serve-paint: varia
	@scripts/deps.sh browser
	@sh tests/serve/browser.sh ./varia --paint

# The whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer, in its own tree.
asan:
	@scripts/deps.sh test
	$(MAKE) BUILD=build/asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" asan-inner

# In four parts, so that when the other test groups are done the parts left share the cores.
asan-inner: asan-unit asan-perft asan-sessions asan-replays

asan-unit: $(UNIT_BIN) $(BUILD)/tests/test_serve
	@fail=0; for t in $(UNIT_BIN); do $$t || fail=1; done; exit $$fail
	@LSAN_OPTIONS=suppressions=tests/serve/lsan.supp $(BUILD)/tests/test_serve

asan-perft: $(BUILD)/varia-bin
	@sh tests/run_golden.sh $(BUILD)/varia-bin
	@PERFT_LIMIT=$${PERFT_LIMIT:-5000000} sh tests/run_perft.sh $(BUILD)/varia-bin shallow

asan-sessions: $(BUILD)/varia-bin
	@sh tests/protocol/uci.sh $(BUILD)/varia-bin
	@sh tests/protocol/xboard.sh $(BUILD)/varia-bin
	@VARIA_NO_TMUX=1 sh tests/play/run.sh $(BUILD)/varia-bin

asan-replays: $(REPLAY_BIN)
	@for t in $(FUZZ_TARGETS); do $(BUILD)/tests/replay_$$t fuzz/corpus/$$t $$(ls -d tests/fuzz/$$t 2>/dev/null) || exit 1; done

# Each fuzz target for FUZZ_SECONDS under AddressSanitizer and UndefinedBehaviorSanitizer (the
# assertions on). New inputs collect in build/fuzz/corpus/<target>; a crash stops with the
# input saved in build/fuzz/crashes/ (replay it with build/tests/replay_<target> FILE).
FUZZ_OPT = -O1 -g -fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=all
fuzz:
	@scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang OPT="$(FUZZ_OPT)" LDFLAGS="-fsanitize=address,undefined" fuzz-inner

fuzz-inner: $(FUZZ_TARGETS:%=$(BUILD)/fuzz_%)
	@sh fuzz/run.sh $(BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Adds to fuzz/corpus/<target> the fewest inputs found by `make fuzz` that cover code the
# corpus does not (libFuzzer's set-cover merge); the committed inputs stay.
fuzz-corpus:
	@scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang OPT="$(FUZZ_OPT)" LDFLAGS="-fsanitize=address,undefined" fuzz-corpus-inner

fuzz-corpus-inner: $(FUZZ_TARGETS:%=$(BUILD)/fuzz_%)
	@sh fuzz/run.sh $(BUILD) merge $(FUZZ_TARGETS)

$(BUILD)/varia-bin: $(OBJ)/main.o $(BUILD)/libvaria.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

# The C sources in the project's one style (.clang-format); a reformat goes in a commit of its own.
FORMAT_SRC = $(wildcard src/*.c src/*.h tests/unit/*.c tests/unit/*.h fuzz/*.c fuzz/*.h)
format:
	clang-format -i $(FORMAT_SRC)

clean:
	rm -rf build varia

-include $(wildcard $(OBJ)/*.d) $(wildcard $(BUILD)/fuzz-obj/*.d)
