#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the Playwright e2e tests.
# Playwright's own browser download cannot work here, so we use the distribution's package.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "Chromium is missing at /usr/bin/chromium: installing Debian's chromium package..."
if ! command -v apt-get >/dev/null 2>&1; then
  echo "error: /usr/bin/chromium is missing and apt-get is not available. Install Chromium by hand (Debian: apt-get install chromium)." >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "error: /usr/bin/chromium is missing and installing it needs root (apt-get install chromium)." >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
if [ ! -x /usr/bin/chromium ]; then
  echo "error: apt-get finished but /usr/bin/chromium is still missing." >&2
  exit 1
fi
echo "Chromium installed: $(/usr/bin/chromium --version 2>/dev/null || echo unknown version)"
