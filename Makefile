# Varia - build, test and benchmark. `make` builds ./varia; `make test` runs every test.
CC      ?= cc
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wwrite-strings -Wundef -Werror
OPT     ?= -O2 -DNDEBUG
CFLAGS  += $(CSTD) $(WARN) $(OPT) -MMD -MP -iquote src -I$(GEN)
LDLIBS  +=

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
LIB_OBJ  = $(LIB_SRC:src/%.c=$(OBJ)/%.o) $(OBJ)/parser.o $(OBJ)/lexer.o
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps test unit golden perft perft-deep crosscheck bench bench-signature play play-tests asan asan-inner \
        clean golden-update

all: varia

deps:
	@scripts/deps.sh build

# The generated parser: bison and flex output lives only under build/gen.
$(GEN)/parser.c $(GEN)/parser.h: grammar/parser.y | $(GEN)
	@scripts/deps.sh build
	bison -Wall -Werror --defines=$(GEN)/parser.h -o $(GEN)/parser.c $<

$(GEN)/lexer.c $(GEN)/lexer.h: grammar/lexer.l $(GEN)/parser.h | $(GEN)
	@scripts/deps.sh build
	flex --header-file=$(GEN)/lexer.h -o $(GEN)/lexer.c $<

# Generated code is not ours to make warning-free in every respect.
$(OBJ)/parser.o: $(GEN)/parser.c $(GEN)/lexer.h | $(OBJ)
	$(CC) $(CSTD) $(OPT) -Wall -Werror -Wno-unused-function -MMD -MP -iquote src -I$(GEN) -c $< -o $@
$(OBJ)/lexer.o: $(GEN)/lexer.c $(GEN)/parser.h | $(OBJ)
	$(CC) $(CSTD) $(OPT) -Wall -Werror -Wno-unused-function -Wno-sign-compare -MMD -MP -iquote src -I$(GEN) -c $< -o $@

$(OBJ)/parse.o: $(GEN)/parser.h $(GEN)/lexer.h

$(OBJ)/%.o: src/%.c | $(OBJ)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libvaria.a: $(LIB_OBJ)
	ar rcs $@ $^

varia: $(OBJ)/main.o $(BUILD)/libvaria.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libvaria.a | $(BUILD)/tests
	@scripts/deps.sh test
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libvaria.a -lcmocka $(LDLIBS)

$(GEN) $(OBJ) $(BUILD)/tests:
	mkdir -p $@

# ---- tests -------------------------------------------------------------------------------
test: varia unit golden perft crosscheck bench-signature play-tests
	@echo "all tests passed"

unit: $(UNIT_BIN)
	@scripts/deps.sh test
	@fail=0; for t in $(UNIT_BIN); do $$t || fail=1; done; exit $$fail

golden: varia
	@sh tests/run_golden.sh ./varia

golden-update: varia
	@sh tests/run_golden.sh ./varia --update

perft: varia
	@sh tests/run_perft.sh ./varia shallow

perft-deep: varia
	@sh tests/run_perft.sh ./varia deep

crosscheck: varia
	@scripts/deps.sh oracle
	@sh tests/crosscheck.sh ./varia

bench: varia
	@sh tests/bench.sh ./varia

# The search's node count over the fixed bench list must match tests/bench_signature.
bench-signature: varia
	@want=$$(cat tests/bench_signature); got=$$(./varia bench 2>/dev/null | sed -n 's/^Nodes searched: //p'); \
	if [ "$$want" = "$$got" ]; then echo "bench signature ok ($$got)"; \
	else echo "bench signature mismatch: tests/bench_signature has $$want, varia bench gives $$got"; exit 1; fi

# Scripted console games (stdin, no terminal) and, when tmux is installed, a terminal session.
play-tests: varia
	@sh tests/play/run.sh ./varia

play: varia
	./varia play

# The whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer, in its own tree.
asan:
	@scripts/deps.sh test
	$(MAKE) BUILD=build/asan OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    LDFLAGS="-fsanitize=address,undefined" asan-inner

asan-inner: $(BUILD)/varia-bin $(UNIT_BIN)
	@fail=0; for t in $(UNIT_BIN); do $$t || fail=1; done; exit $$fail
	@sh tests/run_golden.sh $(BUILD)/varia-bin
	@PERFT_LIMIT=$${PERFT_LIMIT:-5000000} sh tests/run_perft.sh $(BUILD)/varia-bin shallow

$(BUILD)/varia-bin: $(OBJ)/main.o $(BUILD)/libvaria.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

clean:
	rm -rf build varia

-include $(wildcard $(OBJ)/*.d)
