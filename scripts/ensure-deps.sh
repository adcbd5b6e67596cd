#!/usr/bin/env bash
# Installs what `npm test` and `npm run dev` need, each step idempotent and cached:
# npm packages (npm ci when package-lock.json changed), the Go-built control plane, moto, nats-server
# and cluster-autoscaler.
# Sourced by test.sh and dev.sh; exports MACHINE_API_BIN_DIR, MACHINE_API_MOTO_SERVER,
# MACHINE_API_NATS_SERVER and MACHINE_API_AUTOSCALER.
set -euo pipefail

lock_sum="$(sha256sum package-lock.json | cut -c1-64)"
if [[ ! -f node_modules/.lock-sum ]] || [[ "$(cat node_modules/.lock-sum)" != "$lock_sum" ]]; then
  echo "installing npm packages (npm ci)" >&2
  npm ci --no-audit --no-fund >&2
  echo "$lock_sum" > node_modules/.lock-sum
fi

MACHINE_API_BIN_DIR="$(bash test/harness/controlplane/build.sh | tail -n 1)"
export MACHINE_API_BIN_DIR

# moto's EC2 server, in a Python venv outside the repo (the aws provider's integration tests).
MACHINE_API_MOTO_SERVER="$(bash test/harness/moto/install.sh | tail -n 1)"
export MACHINE_API_MOTO_SERVER

# nats-server, built from its Go module (the JetStream transport's integration tests).
MACHINE_API_NATS_SERVER="$(bash test/harness/nats/build.sh | tail -n 1)"
export MACHINE_API_NATS_SERVER

# cluster-autoscaler, built from the source tarball in ../shared/autoscaler beside the repository
# (its integration tests; `npm run dev` prints its path). About 10 minutes cold on 2 cores.
MACHINE_API_AUTOSCALER="$(bash test/harness/autoscaler/build.sh | tail -n 1)"
export MACHINE_API_AUTOSCALER
