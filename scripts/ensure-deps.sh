#!/usr/bin/env bash
# Installs what `npm test` and `npm run dev` need, each step idempotent and cached:
# npm packages (npm ci when package-lock.json changed), the Go-built control plane, moto, nats-server
# and cluster-autoscaler.
# Sourced by test.sh and dev.sh; exports MACHINE_API_BIN_DIR, MACHINE_API_MOTO_SERVER,
# MACHINE_API_NATS_SERVER, MACHINE_API_AUTOSCALER, MACHINE_API_NODE_BIN_DIR and
# MACHINE_API_CERT_MANAGER_DIR. The image is built
# by the end-to-end tests themselves (test/harness/image/build.sh: its inputs are the sources).
set -euo pipefail

# Debian packages for the end-to-end tests' real node and image build (apt, only when missing).
bash scripts/system-packages.sh

lock_sum="$(sha256sum package-lock.json | cut -c1-64)"
if [[ -L node_modules ]]; then
  # A git worktree sharing another checkout's packages: npm ci here would empty that checkout's.
  echo "node_modules is a link to $(readlink node_modules); not reinstalling it" >&2
elif [[ ! -f node_modules/.lock-sum ]] || [[ "$(cat node_modules/.lock-sum)" != "$lock_sum" ]]; then
  echo "installing npm packages (npm ci)" >&2
  npm ci --no-audit --no-fund >&2
  echo "$lock_sum" > node_modules/.lock-sum
fi

# cluster-autoscaler, built from the source tarball in ../shared/autoscaler beside the repository
# (its integration tests; `npm run dev` prints its path). Built in the background: cold (about 10
# minutes on 2 cores) it overlaps the control plane build's module downloads and single-threaded
# links; warm it only hashes the tarball. Its path is read after the other steps.
autoscaler_out="$(mktemp)"
bash test/harness/autoscaler/build.sh > "$autoscaler_out" &
autoscaler_build=$!

# The end-to-end tests' real node (kubelet, kube-proxy, pause image), built in the background
# from the control plane's module pins like the autoscaler (cold: a few minutes; warm: a hash).
node_out="$(mktemp)"
bash test/harness/node/build.sh > "$node_out" &
node_build=$!
# cert-manager's controller and CA injector from its Go module (the e2e tests' overlays need it).
cert_manager_out="$(mktemp)"
bash test/harness/certmanager/build.sh > "$cert_manager_out" &
cert_manager_build=$!

MACHINE_API_BIN_DIR="$(bash test/harness/controlplane/build.sh | tail -n 1)"
export MACHINE_API_BIN_DIR

# moto's EC2 server, in a Python venv outside the repo (the aws provider's integration tests).
MACHINE_API_MOTO_SERVER="$(bash test/harness/moto/install.sh | tail -n 1)"
export MACHINE_API_MOTO_SERVER

# nats-server, built from its Go module (the JetStream transport's integration tests).
MACHINE_API_NATS_SERVER="$(bash test/harness/nats/build.sh | tail -n 1)"
export MACHINE_API_NATS_SERVER

wait "$autoscaler_build"
MACHINE_API_AUTOSCALER="$(tail -n 1 "$autoscaler_out")"
rm -f "$autoscaler_out"
export MACHINE_API_AUTOSCALER

wait "$node_build"
MACHINE_API_NODE_BIN_DIR="$(tail -n 1 "$node_out")"
rm -f "$node_out"
export MACHINE_API_NODE_BIN_DIR

wait "$cert_manager_build"
MACHINE_API_CERT_MANAGER_DIR="$(tail -n 1 "$cert_manager_out")"
rm -f "$cert_manager_out"
export MACHINE_API_CERT_MANAGER_DIR
