#!/bin/sh
# Refresh constraints.txt: resolve pyproject.toml's dependencies (core and every extra, via
# the `test` extra) afresh in a throw-away venv and record the exact versions installed.
# `make lock` runs this; run `make test` afterwards and commit both only if it passes.
set -eu
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
PIP_VERSION=$(sed -n 's/^PIP_VERSION := //p' Makefile)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PYTHON" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet "pip==$PIP_VERSION"
"$tmp/venv/bin/python" -m pip install --quiet -e '.[test]'
{
    echo "# The versions the suite last passed with: every install in the Makefile uses this"
    echo "# file as pip constraints (-c). Refresh with 'make lock', then 'make test'."
    echo "# Python $("$tmp/venv/bin/python" -c 'import platform; print(platform.python_version())'), $(uname -m) Linux."
    "$tmp/venv/bin/python" -m pip freeze --exclude-editable | LC_ALL=C sort -f
} > constraints.txt.new
mv constraints.txt.new constraints.txt
echo "lock: wrote constraints.txt ($(grep -c '==' constraints.txt) packages)"
