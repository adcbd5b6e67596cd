#!/usr/bin/env bash
# npm run dev: installs what it needs, then runs the local demo in the foreground until Ctrl-C.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/ensure-deps.sh
# --in-cluster: the shipped manifests on a real node (scripts/dev-in-cluster.ts) instead of host processes.
for arg in "$@"; do
  [[ "$arg" == --in-cluster ]] && exec node --import tsx scripts/dev-in-cluster.ts
done
exec node --import tsx scripts/dev.ts "$@"
