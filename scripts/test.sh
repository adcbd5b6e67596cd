#!/usr/bin/env bash
# The whole test suite: installs what it needs, then static checks, the bundle, unit and
# integration tests on Node 20, and the unit tests again on Node 24 (the container images' Node).
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
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/node20.json || status=$?

node24="$(bash scripts/node24.sh)"
if [[ -n "$node24" ]]; then
  echo "== unit tests under node $("$node24" --version)"
  "$node24" node_modules/vitest/vitest.mjs run --project unit \
    --reporter=default --reporter=json --outputFile.json=test-results/node24.json || status=$?
fi

node scripts/summarize-tests.mjs test-results/*.json || status=$?
exit "$status"
