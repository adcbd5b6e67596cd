#!/usr/bin/env bash
# npm run dev: installs what it needs, then runs the local demo in the foreground until Ctrl-C.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/ensure-deps.sh
exec node --import tsx scripts/dev.ts "$@"
