#!/bin/sh
# Make sure Debian's Chromium is at /usr/bin/chromium for the browser test tier
# (tests/integration/test_report_browser.py). Installs the `chromium` package with apt-get
# when it is missing and this runs as root; otherwise says what to do and leaves it (the
# browser test then fails with the same advice rather than being skipped).
set -eu

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    echo "ensure-chromium: $CHROMIUM is installed"
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium package (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y --no-install-recommends chromium
    echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)"
    exit 0
fi
echo "ensure-chromium: $CHROMIUM is missing and apt-get cannot be used as root here;" >&2
echo "ensure-chromium: install it with: sudo apt-get install -y chromium" >&2
exit 0
