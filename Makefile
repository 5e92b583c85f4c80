# Every target makes its own virtual environment, so a fresh machine needs
# only Python 3.11+ and make.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test

.PHONY: run play serve test lint unit system-deps fuzz bench tables clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

## run: the main job: the web server on a SQLite file (open the URL it prints)
HOST ?= 127.0.0.1
PORT ?= 8000
DB ?= sqlite:///riichi.db
run: $(STAMP)
	$(BIN)/riichi serve --host $(HOST) --port $(PORT) --db $(DB)

## play: a match against three bots in the terminal (RULES=... to choose)
RULES ?= online
play: $(STAMP)
	$(BIN)/riichi play --rules $(RULES)

## test: lint, types, layer contract and the whole test suite
test: lint unit

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy
	$(BIN)/lint-imports

## system-deps: Debian's chromium (browser tests) and postgresql, when missing
system-deps:
	tools/system_deps.sh

unit: $(STAMP) system-deps
	$(BIN)/pytest -q

## fuzz: the long sweeps left out of the default suite
fuzz: $(STAMP)
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
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
