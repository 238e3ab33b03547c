# The two entry points named in README.md. Both create ./.venv on first use and install the
# exact versions in constraints.txt (the lock; `make lock` refreshes it).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP_VERSION := 26.3
UV_VERSION := 0.13.8
LOCK := constraints.txt
# uv installs the same pinned versions as pip from the same lock, in seconds instead of minutes
# (measured on the 2-core machine with warm caches: the test extra 13 s against 2 min 15 s),
# which is most of a clean clone's install time. uv does not read pip's configuration files:
# where packages must come from an index set only there, `make test INSTALLER=pip`.
INSTALLER ?= uv
ifeq ($(INSTALLER),pip)
INSTALL := $(BIN)/python -m pip install --quiet
INSTALLER_BIN :=
else ifeq ($(INSTALLER),uv)
INSTALL := $(BIN)/uv pip install --quiet --python $(BIN)/python
INSTALLER_BIN := $(BIN)/uv
else
$(error INSTALLER must be uv or pip, not '$(INSTALLER)')
endif
# Python writes a module's bytecode (.pyc) the first time it imports it, and later processes
# load that instead of compiling the source again. Where PYTHONDONTWRITEBYTECODE is set, as on
# the CI machine, it never writes one, and every process the suite starts (CLI runs, sweep
# workers, notebook kernels) compiled pandas, Hydra, matplotlib and the rest anew: about 3 s
# each, and a clean clone's `make test` took 22.6 min instead of 17.8 (measured 2026-12-05).
# The recipes below clear it for what they run (an empty value counts as unset), so each
# imported module is compiled once, into ./.venv or the checkout's __pycache__ folders.
# Compiling every installed file at install time instead (uv's --compile-bytecode, as before)
# made installing the test extra into a new venv 36 s longer (50.6 s against 14.4 s, measured
# 2026-12-05): about 15,000 files, most of them never imported.
WRITE_PYC := PYTHONDONTWRITEBYTECODE=
# The suite runs on two worker processes (pytest-xdist; CI's machine has two cores). Tests that
# share a costly module or session fixture stay on one worker (tests/conftest.py groups them).
# `make test XDIST=` runs it in one process. --durations lists the 25 slowest (CI time budget).
XDIST ?= -n 2 --dist loadgroup --durations=25

.PHONY: run test fast lint typecheck lock clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet pip==$(PIP_VERSION)

# Into the project's venv, pinned like pip, so the install needs nothing outside ./.venv.
$(BIN)/uv: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)

$(VENV)/.run-deps: pyproject.toml $(LOCK) | $(BIN)/python $(INSTALLER_BIN)
	$(INSTALL) -c $(LOCK) -e '.[tune,notebooks]'
	touch $@

$(VENV)/.test-deps: pyproject.toml $(LOCK) | $(BIN)/python $(INSTALLER_BIN)
	$(INSTALL) -c $(LOCK) -e '.[test]'
	sh scripts/ensure-chromium.sh
	touch $@ $(VENV)/.run-deps

## Install and run the main job on the embedded default corpus (no network, no API key).
run: $(VENV)/.run-deps
	$(WRITE_PYC) $(BIN)/soba-bench main-job

## Install the test dependencies and run the whole suite (every tier; the type checker over the
## whole package is one of its tests, tests/test_typecheck.py, so it runs beside the others
## instead of before them). pytest exits 5 when it collected no tests: a failure here, not a pass.
test: $(VENV)/.test-deps
	$(WRITE_PYC) $(BIN)/python -m pytest $(XDIST) -m "slow or not slow" ; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests" >&2; exit 1; fi; exit $$rc

## The contributors' inner loop: everything but the slow tiers.
fast: $(VENV)/.test-deps
	$(WRITE_PYC) $(BIN)/python -m pytest $(XDIST) -m "not slow"

lint: $(VENV)/.test-deps typecheck
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

## The type checker over the whole package ([tool.mypy] in pyproject.toml: strict on the core
## stages). Any error fails the target, and with it `make lint`; `make test` (CI) runs the same
## command as a test.
typecheck: $(VENV)/.test-deps
	$(BIN)/python -m mypy

## Re-resolve every dependency afresh and rewrite constraints.txt (then run `make test`).
lock:
	PYTHON=$(PYTHON) sh scripts/lock.sh

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
