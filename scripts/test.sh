#!/usr/bin/env bash
# The one test command (`npm test`): typecheck, lint, unit + component tests, then e2e against the built stack.
set -euo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
echo "== unit and component tests"; npx vitest run
echo "== e2e"; npm run --silent test:e2e
