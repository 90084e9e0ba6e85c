# Every target works on a fresh machine: the first one run creates .venv and installs the
# project with its dev tools; later runs reinstall only when pyproject.toml changes.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FLASK := $(BIN)/flask --app anotador

.PHONY: run test lint format bench clean translations extract update-translations

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

## run: serve the app on http://127.0.0.1:5000 (SQLite in instance/ unless DATABASE_URL is set)
run: $(STAMP) translations
	$(FLASK) db upgrade
	$(FLASK) run --host 127.0.0.1 --port 5000

## test: lint, then the whole test suite (on DATABASE_URL when set, else SQLite)
test: lint translations
	@if [ -n "$${DATABASE_URL:-}" ]; then \
		echo "make test: database = $$(printf '%s' "$$DATABASE_URL" | sed -E 's#://([^:/@]*):[^@]*@#://\1:***@#')"; \
	else \
		echo "make test: database = SQLite (a temporary file per test)"; \
	fi
	@status=0; $(BIN)/pytest || status=$$?; \
	if [ $$status -eq 5 ]; then echo "make test: pytest collected no tests; counted as success"; status=0; fi; \
	exit $$status

## lint: ruff check and ruff format --check
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

## format: apply ruff's fixes and formatting
format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Translations: English msgids in the code; es (default), en and it catalogs beside the package.
TRANSLATIONS := anotador/translations
PO_FILES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)
MO_FILES := $(PO_FILES:.po=.mo)
POT := build/messages.pot

## translations: compile the catalogs (.po -> .mo; the .mo files are not committed)
translations: $(MO_FILES)

$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po | $(STAMP)
	$(BIN)/pybabel compile -d $(TRANSLATIONS) -l $*

## extract: collect every translatable string into build/messages.pot
extract: $(STAMP)
	mkdir -p build
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k lazy_gettext -k _l --no-location --sort-output -o $(POT) .

## update-translations: add new strings to every catalog (then translate es and it, and run make test)
update-translations: extract
	$(BIN)/pybabel update -i $(POT) -d $(TRANSLATIONS) --no-location --no-wrap --ignore-obsolete

## bench: run the benchmarks package
bench: $(STAMP)
	$(BIN)/python -m benchmarks

## clean: remove the venv, caches and build output (never instance/, which holds your data)
clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis test-results
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
