#!/usr/bin/env bash
# The one test command (`npm test`): typecheck, lint, format check, unit + component tests, then e2e against the built stack.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

# Makes PostgreSQL reachable for the exchange server's PostgreSQL suites, or says loudly why it is not.
# On success it exports HSWAP_TEST_POSTGRES_URL; otherwise it prints a banner saying the
# PostgreSQL suites are SKIPPED and why (the suites print it again). It never fails the test run by itself.
#   1. HSWAP_TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test) answers: use it.
#   2. Debian's postgresql is installed but not running: start it (pg_ctlcluster / service), then retry.
#   3. Not installed and we are root (or have sudo) with apt-get: install Debian's postgresql, start it, retry.
ensure_postgres() {
  local url="${HSWAP_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}"
  local why=""
  reachable() { command -v psql >/dev/null 2>&1 && psql "$url" -Atqc 'select 1' >/dev/null 2>&1; }
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; fi
  fi
  if ! reachable; then
    if ! command -v pg_ctlcluster >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; }; then
      echo "PostgreSQL is not installed: installing Debian's postgresql package..."
      DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq >/dev/null 2>&1 || true
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null 2>&1 || why="apt-get install postgresql failed"
    fi
    if command -v pg_ctlcluster >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; }; then
      echo "PostgreSQL is not answering at $url: starting Debian's cluster..."
      local cluster
      cluster=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)
      if [ -n "$cluster" ]; then
        $sudo pg_ctlcluster "$cluster" main start >/dev/null 2>&1 || $sudo service postgresql start >/dev/null 2>&1 || true
        # trust auth on loopback, as on the project's machines, only if the cluster asks for passwords
        for _ in 1 2 3 4 5 6 7 8 9 10; do reachable && break; sleep 1; done
      fi
    fi
  fi
  if reachable; then
    export HSWAP_TEST_POSTGRES_URL="$url"
    echo "PostgreSQL: $url (the exchange-server suites run on SQLite and PostgreSQL)"
    return 0
  fi
  if [ -z "$why" ]; then
    if ! command -v psql >/dev/null 2>&1; then why="psql/PostgreSQL is not installed and could not be installed (needs root or sudo with apt-get)"
    else why="nothing answers at $url and it could not be started ($(psql "$url" -Atqc 'select 1' 2>&1 | head -1))"; fi
  fi
  echo "" >&2
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
  echo "!!! The PostgreSQL suites of the exchange server are SKIPPED: $why" >&2
  echo "!!! (set HSWAP_TEST_POSTGRES_URL, or install Debian's postgresql, to run them)" >&2
  echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!" >&2
  echo "" >&2
  return 0
}

echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
echo "== format"; npx prettier --check . --log-level warn
echo "== layers"; npx tsx scripts/check-imports.ts
echo "== PostgreSQL"; ensure_postgres
echo "== unit and component tests"; npx vitest run
echo "== e2e"; npm run --silent test:e2e
