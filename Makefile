# Two commands matter: `make run` (set up + real demo query) and `make test` (set up + whole suite).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
ASSETS := planner/maps/static/vendor/versions.json
FEED ?= ../shared/data/gtfs/ch-zug-fp2021.zip

.PHONY: setup run test test-inline bench lint system-deps clean i18n-extract i18n-update i18n-compile

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# Offline map assets: Leaflet (the version folium pins) and the swiss-maps base layer, from the npm registry; the
# same `npm ci` installs eslint and linkedom (the pages' scripts: lint and unit tests, no network at run time).
$(ASSETS): package.json package-lock.json $(STAMP)
	@command -v npm >/dev/null || $(MAKE) system-deps
	npm ci --no-audit --no-fund --ignore-scripts
	$(BIN)/python -m planner.maps.assets

# numba compiles the routing kernels into its on-disk cache here, not during the first real command.
WARM := $(VENV)/.numba-warm
$(WARM): $(STAMP) $(wildcard planner/routing/*.py)
	$(BIN)/python -m planner.routing.warmup
	touch $(WARM)

# The gettext catalogs (docs/i18n.md): the .po files are the translations (committed), the .mo files are compiled
# from them here (not committed; the package reads a .po directly while its .mo is missing or older).
# the languages: the one list, LANGUAGES in planner/util/i18n.py (read, not imported: no venv needed)
LANGS := $(shell sed -n 's/^LANGUAGES = (\(.*\))/\1/p' planner/util/i18n.py | tr -d '",')
LOCALE := planner/locale
POT := $(LOCALE)/messages.pot
MO := $(foreach l,$(LANGS),$(LOCALE)/$(l)/LC_MESSAGES/messages.mo)
BABEL := $(BIN)/pybabel

$(LOCALE)/%/LC_MESSAGES/messages.mo: $(LOCALE)/%/LC_MESSAGES/messages.po $(STAMP)
	$(BABEL) -q compile -l $* -i $< -o $@

# every marked text of the code, templates and page scripts into the template catalog
i18n-extract: $(STAMP)
	$(BABEL) -q extract -F babel.cfg -k N_ --add-location=file --sort-output --no-wrap --omit-header \
		--project sbb-planner -o $(POT) planner

# the template's new texts into each language's catalog (new ones untranslated, changed ones fuzzy)
i18n-update: i18n-extract
	$(BABEL) -q update -i $(POT) -d $(LOCALE) -D messages --no-wrap --ignore-obsolete

i18n-compile: $(MO)

setup: $(STAMP) $(ASSETS) $(WARM) $(MO)

# Debian packages: Chromium (browser tests), poppler (PDF checks), npm (map assets), each only when missing.
system-deps:
	@bash tools/system_deps.sh

run: setup
	$(BIN)/planner demo --feed $(FEED)

# The pages' script modules: eslint, and their render functions' unit tests (Node's test runner on linkedom).
JSLINT := node_modules/.bin/eslint planner/web/static tests/js eslint.config.js
JSTEST := node --test --test-reporter=spec tests/js/

# The suite measures branch coverage of planner/ (pyproject.toml [tool.coverage]: the command subprocesses, servers and
# routing children too, by coverage's subprocess patch) and prints the figure last; `make test COV=0` runs it without
# (about a third less CPU: README).
COV ?= 1
# test processes (pytest-xdist): the two cores, by default
WORKERS ?= 2
COVERAGE := $(if $(filter 1,$(COV)),--cov --cov-report=,)

test: system-deps setup
	$(BIN)/ruff check planner tests bench tools
	$(JSLINT)
	$(JSTEST)
	rm -f .coverage .coverage.*
	$(BIN)/python -m pytest -n $(WORKERS) $(COVERAGE) tests
	@if [ "$(COV)" = 1 ]; then $(BIN)/coverage report > .coverage-report.txt; \
		echo "branch coverage of planner/: $$($(BIN)/coverage report --format=total)% (files: .coverage-report.txt)"; fi

# The suite without ../shared: PLANNER_SHARED is an empty folder and the modules marked needs_shared (the real
# extracts, the rule seeds) are deselected by name, never skipped (tests/project/test_suite_without_shared.py).
test-inline: setup
	@empty=$$(mktemp -d) && PLANNER_SHARED=$$empty $(BIN)/python -m pytest -n 2 -m "not needs_shared" tests; \
	rc=$$?; rmdir $$empty; exit $$rc

# The bench extra (pynigiri, MOTIS's routing core) is a peer to compare with, never needed by `make test`:
# when it cannot be installed the one-to-one benchmark says so and skips its columns.
bench: setup
	@$(BIN)/pip install -q -e '.[bench]' 2>/dev/null || echo "bench extra (pynigiri) not installable here: nigiri columns skipped"
	$(BIN)/python -m bench.run

lint: setup
	$(BIN)/ruff check planner tests bench tools
	$(JSLINT)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache node_modules planner/maps/static/vendor .coverage .coverage.* .coverage-report.txt
