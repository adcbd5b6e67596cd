#!/usr/bin/env bash
# The whole test suite on Node 24 (scripts/use-node24.sh, through ensure-deps.sh): installs what it
# needs, then static checks, the bundle, and the unit, integration and end-to-end tests in one
# vitest run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/ensure-deps.sh

echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
echo "== build"; npm run --silent build

mkdir -p test-results
rm -f test-results/*.json
status=0
echo "== vitest (node $(node --version))"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=$?

node scripts/summarize-tests.mjs test-results/*.json || status=$?
exit "$status"
