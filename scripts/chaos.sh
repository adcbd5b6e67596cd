#!/usr/bin/env bash
# `npm run chaos`: installs what the scenarios need (same as the tests), bundles the functions
# (the worker runs as a child process), then runs test/chaos/run.ts on Node 24 (--seed N, --only id,id, --short).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/ensure-deps.sh
npm run --silent build >/dev/null
exec node --import tsx test/chaos/run.ts "$@"
