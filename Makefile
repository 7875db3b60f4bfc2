# Two commands matter: `make run` (set up + real demo query) and `make test` (set up + whole suite).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FEED ?= ../shared/data/gtfs/ch-zug-fp2021.zip

.PHONY: setup run test bench lint system-deps clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# Debian packages the browser and PDF tests need (Chromium, pdftoppm). Root on the CI machines.
system-deps:
	@command -v chromium >/dev/null && command -v pdftoppm >/dev/null || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium poppler-utils >/dev/null; }

run: setup
	$(BIN)/planner demo --feed $(FEED)

test: setup system-deps
	$(BIN)/ruff check planner tests bench tools
	$(BIN)/python -m pytest -n 2 tests

bench: setup
	$(BIN)/python -m bench.run

lint: setup
	$(BIN)/ruff check planner tests bench tools

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
