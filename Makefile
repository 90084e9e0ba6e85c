# Every target works on a fresh machine: the first one run creates .venv and installs the
# project with its dev tools; later runs reinstall only when pyproject.toml changes.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FLASK := $(BIN)/flask --app anotador
AXE := tests/e2e/node_modules/axe-core/axe.min.js
PYODIDE := static/vendor/pyodide/pyodide.mjs

.PHONY: run test lint format bench clean translations extract update-translations dist smoke-installed

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml setup.py | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# Where `make run` listens: every address (phones on the local network can open it), port 5000;
# `make run HOST=127.0.0.1 PORT=8000` (or the same variables in the environment) changes it.
HOST ?= 0.0.0.0
PORT ?= 5000

## run: serve the app on the local network (HOST, PORT) and print the address to open on a
## phone with its QR code (SQLite in instance/ unless DATABASE_URL is set; from a checkout
## the data folder is instance/, see anotador/storage/config.py data_folder)
run: $(STAMP) translations $(PYODIDE)
	$(FLASK) db upgrade
	$(BIN)/anotador run --host '$(HOST)' --port '$(PORT)'

## test: lint, then the whole test suite, browser tests included (on DATABASE_URL when set,
## else SQLite; PYTEST_ARGS adds pytest options, e.g. PYTEST_ARGS='-m "not browser"')
test: lint translations $(AXE) $(PYODIDE)
	@if [ -n "$${DATABASE_URL:-}" ]; then \
		echo "make test: database = $$(printf '%s' "$$DATABASE_URL" | sed -E 's#://([^:/@]*):[^@]*@#://\1:***@#')"; \
	else \
		echo "make test: database = SQLite (a temporary file per test)"; \
	fi
	@status=0; $(BIN)/pytest $(PYTEST_ARGS) || status=$$?; \
	if [ $$status -eq 5 ]; then echo "make test: pytest collected no tests; counted as success"; status=0; fi; \
	exit $$status

# axe-core for the browser tests' accessibility check, pinned by tests/e2e/package-lock.json.
# Without npm the accessibility test is skipped (and says why); Chromium comes from apt.
$(AXE): tests/e2e/package.json tests/e2e/package-lock.json
	@if command -v npm >/dev/null; then \
		npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error && touch $@; \
	else \
		echo "make: npm not found: the browser accessibility test will be skipped"; \
	fi

# Pyodide, pinned by package-lock.json: the rules engine runs in it on a phone without a
# connection (static/js/engine.js). Only its run-time files are served; without npm the app
# still runs and scores on the server, and the offline engine says it is unavailable. Its
# standard library is served compiled (scripts/compile-stdlib.mjs: a phone's first start of
# the engine takes a fraction of the time); should that fail, as Pyodide ships it.
PYODIDE_FILES := pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json package.json
PYODIDE_STDLIB := static/vendor/pyodide/python_stdlib.zip
$(PYODIDE): package.json package-lock.json scripts/compile-stdlib.mjs
	@if command -v npm >/dev/null; then \
		npm ci --no-audit --no-fund --loglevel=error && \
		rm -rf static/vendor/pyodide && mkdir -p static/vendor/pyodide && \
		cp $(addprefix node_modules/pyodide/,$(PYODIDE_FILES)) static/vendor/pyodide/ && \
		{ node scripts/compile-stdlib.mjs node_modules/pyodide $(PYODIDE_STDLIB).new && \
			mv $(PYODIDE_STDLIB).new $(PYODIDE_STDLIB) || \
			{ rm -f $(PYODIDE_STDLIB).new; \
			echo "make: Pyodide's standard library is served as source: the engine starts slower"; }; } && \
		touch $@; \
	else \
		echo "make: npm not found: phones will not score without a connection"; \
	fi

## lint: ruff check, ruff format --check, mypy (strict on anotador/rules) and lint-imports
## (the layers of docs/architecture.md, [tool.importlinter] in pyproject.toml)
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

## format: apply ruff's fixes and formatting
format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Translations: English msgids in the code; es (default), en and it catalogs beside the package.
TRANSLATIONS := anotador/words/translations
PO_FILES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
MO_FILES := $(PO_FILES:.po=.mo)
POT := build/messages.pot

## translations: compile the catalogs (.po -> .mo; the .mo files are not committed: a built
## package compiles its own, see setup.py)
translations: $(MO_FILES)

$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po | $(STAMP)
	$(BIN)/pybabel compile -d $(TRANSLATIONS) -l $*

## extract: collect every translatable string into build/messages.pot
extract: $(STAMP)
	mkdir -p build
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k lazy_gettext -k _l --no-location --sort-output -o $(POT) .

## update-translations: add new strings to every catalog (then translate es and it, and run make test)
update-translations: extract
	$(BIN)/pybabel update -i $(POT) -d $(TRANSLATIONS) --no-fuzzy-matching --no-wrap --ignore-obsolete

## dist: build the sdist and the wheel into dist/ (setup.py puts templates/, static/,
## migrations/ and the compiled catalogs inside the package)
dist: $(STAMP) $(PYODIDE)
	$(BIN)/python -m build --outdir dist .

## smoke-installed: install the wheel into a fresh venv outside the checkout and use the app
smoke-installed: $(STAMP) $(PYODIDE)
	scripts/smoke-installed

## bench: run the benchmarks package
bench: $(STAMP)
	$(BIN)/python -m benchmarks

## clean: remove the venv, caches and build output (never instance/, which holds your data)
clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis test-results tests/e2e/node_modules node_modules static/vendor artifacts/e2e
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
