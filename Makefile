# The two entry points named in README.md. Both create ./.venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-deps: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-deps: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	sh scripts/ensure-chromium.sh
	touch $@ $(VENV)/.run-deps

## Install and run the main job on the embedded default corpus (no network, no API key).
run: $(VENV)/.run-deps
	$(BIN)/soba-bench main-job

## Install the test dependencies and run the whole suite (lint included, every tier).
## pytest exits 5 when it collected no tests: that is a failure here, not a pass.
test: $(VENV)/.test-deps
	$(BIN)/python -m pytest -m "slow or not slow" ; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests" >&2; exit 1; fi; exit $$rc

lint: $(VENV)/.test-deps
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
