#!/usr/bin/env bash
# Runs its arguments with the project's Node 24 first on PATH (scripts/use-node24.sh), for the
# package.json scripts that are not a whole script of their own: `node24-exec.sh vitest run ...`
# runs node_modules/.bin/vitest on Node 24 even when `npm run` itself runs on the machine's node.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/use-node24.sh
PATH="$PWD/node_modules/.bin:$PATH"
exec "$@"
