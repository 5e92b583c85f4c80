# Every target makes its own virtual environment, so a fresh machine needs
# only Python 3.11+ and make.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test
CORE_BUILT := $(VENV)/.core-built
# the modules mypyc compiles (setup.py says which); an edit to one rebuilds the core
CORE_SOURCES := $(wildcard src/riichi/errors.py src/riichi/tiles.py src/riichi/rules.py \
	src/riichi/hand/*.py src/riichi/scoring/*.py src/riichi/game/*.py \
	src/riichi/bots/search.py) setup.py
# the core's own tests, run once more on the pure source: both cores stay correct
PURE_TESTS := tests/test_tiles.py tests/test_hand.py tests/test_hand_xiangting.py \
	tests/test_rules.py tests/test_scoring.py tests/test_scoring_mahjong.py \
	tests/test_game_match.py tests/test_game_rules.py tests/test_game_kita.py \
	tests/test_game_wall.py tests/test_game_invariants.py tests/test_formats.py \
	tests/test_conformance.py tests/test_bots.py tests/test_architecture.py tests/test_values.py \
	tests/test_master.py

# test processes: one a core (the tests wait on servers and browsers more than they compute)
JOBS ?= auto

.PHONY: run play serve test lint unit pure core system-deps fuzz bench tables clean

# The first install takes minutes (most of it compiling the rules core to C): each
# slow step says what it does, how long it usually takes, and how far it has gone.
$(STAMP): pyproject.toml
	@echo "riichi: first run: installing into $(VENV); 2 to 6 minutes on 2 cores, later runs start at once"
	$(PYTHON) -m venv $(VENV)
	@$(PYTHON) tools/step.py "updating pip" "a few seconds" -- \
		$(BIN)/python -m pip install --upgrade pip "setuptools>=77"
	@$(PYTHON) tools/step.py "installing the dependencies, then compiling the rules core with mypyc" \
		"2 to 6 minutes: downloads, then C" -- $(BIN)/python -m pip install -v -e '.[test]'
	touch $@ $(CORE_BUILT)

## core: rebuild the compiled core in place after an edit (RIICHI_PURE=1 skips it)
core: $(CORE_BUILT)
$(CORE_BUILT): $(STAMP) $(CORE_SOURCES)
	@$(PYTHON) tools/step.py "compiling the rules core with mypyc" "1 to 3 minutes" -- \
		$(BIN)/python setup.py build_ext --inplace
	touch $@

## run: the main job: the web server on a SQLite file (open the URL it prints)
HOST ?= 127.0.0.1
PORT ?= 8000
DB ?= sqlite:///riichi.db
run: $(STAMP) $(CORE_BUILT)
	$(BIN)/riichi serve --host $(HOST) --port $(PORT) --db $(DB)

## play: a match against three bots in the terminal (RULES=... to choose)
RULES ?= online
play: $(STAMP) $(CORE_BUILT)
	$(BIN)/riichi play --rules $(RULES)

## test: lint, types, layer contract and the whole test suite
test: lint unit pure

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy
	$(BIN)/lint-imports

## system-deps: Debian's chromium (browser tests) and postgresql, when missing
system-deps:
	tools/system_deps.sh

unit: $(STAMP) $(CORE_BUILT) system-deps
	$(BIN)/riichi info
	$(BIN)/pytest -q --durations=12 -n $(JOBS)

## pure: the core's tests on the pure source
pure: $(STAMP)
	RIICHI_PURE=1 $(BIN)/riichi info
	RIICHI_PURE=1 $(BIN)/pytest -q -p no:cacheprovider -n $(JOBS) -m "not arena" $(PURE_TESTS)

## fuzz: the long sweeps left out of the default suite
fuzz: $(STAMP) $(CORE_BUILT)
	$(BIN)/pytest -q --runslow -m slow

## bench: throughput against the peer libraries
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/hand.py
	$(BIN)/python bench/score.py
	$(BIN)/python bench/game.py

## tables: regenerate src/riichi/hand/tables.bin (needs numpy)
tables: $(STAMP)
	$(BIN)/python -m pip install --quiet numpy
	$(BIN)/python tools/gen_hand_tables.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find src -name '*.so' -delete
