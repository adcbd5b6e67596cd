#!/usr/bin/env bash
# npm run dev: installs what the demo needs (scripts/ensure-deps.sh dev: npm packages, the control
# plane and moto, on Node 24), then runs the local demo in the foreground until Ctrl-C.
# --in-cluster needs everything the end-to-end tests need (the real node, cert-manager, the image).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# --in-cluster: the shipped manifests on a real node (scripts/dev-in-cluster.ts) instead of host processes.
for arg in "$@"; do
  if [[ "$arg" == --in-cluster ]]; then
    source scripts/ensure-deps.sh
    exec node --import tsx scripts/dev-in-cluster.ts
  fi
done
source scripts/ensure-deps.sh dev
exec node --import tsx scripts/dev.ts "$@"
