#!/usr/bin/env bash
# `npm run bench`: installs what the benchmarks need (same as the tests), bundles the functions,
# then runs test/bench/run.ts on Node 24 with the given flags (--quick, --only id,id, --runs N).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/ensure-deps.sh
npm run --silent build >/dev/null
exec node --expose-gc --import tsx test/bench/run.ts "$@"
