#!/usr/bin/env bash
# Installs what the project's commands need, each step idempotent and cached, on the project's
# Node 24 (scripts/use-node24.sh, sourced first, so npm ci and everything after run on it).
#   source scripts/ensure-deps.sh        everything `npm test` needs: npm packages (npm ci when
#                                        package-lock.json changed), the Debian packages of the
#                                        end-to-end tests, the Go-built control plane, moto,
#                                        nats-server, cluster-autoscaler, kubelet + kube-proxy and
#                                        cert-manager
#   source scripts/ensure-deps.sh dev    only what `npm run dev` runs: npm packages, the control
#                                        plane and moto (no apt, no nats, no node, no cert-manager,
#                                        no autoscaler; `npm run autoscaler:build` builds that)
# Exports MACHINE_API_BIN_DIR and MACHINE_API_MOTO_SERVER, and without `dev` also
# MACHINE_API_NATS_SERVER, MACHINE_API_AUTOSCALER, MACHINE_API_NODE_BIN_DIR and
# MACHINE_API_CERT_MANAGER_DIR. The image is built by the end-to-end tests themselves
# (test/harness/image/build.sh: its inputs are the sources).
# Each build that does work prints a line when it starts (what, the expected cold time) and when
# it is done (how long it took); a warm step only hashes its pins and prints nothing.
set -euo pipefail
source scripts/use-node24.sh
deps_mode="${1:-all}"

# deps_build WHAT EXPECTED OUTFILE CMD...: runs a build script with its stdout (its result is the
# last line) in OUTFILE. A cold step's own first stderr line says what it builds; this adds
# "== WHAT: ready in Ns (cold: EXPECTED)" when it did any work (printed anything on stderr), so a
# newcomer sees each long step end. A warm step only hashes its pins and prints nothing.
deps_build() {
  local what="$1" expected="$2" outfile="$3" start="$SECONDS"
  shift 3
  { "$@" 2>&1 >"$outfile" | tee "$outfile.err" >&2; } || return 1
  if [[ -s "$outfile.err" ]]; then
    echo "== $what: ready in $(( SECONDS - start ))s (cold: $expected)" >&2
  fi
  rm -f "$outfile.err"
}
deps_out="$(mktemp -d)"

if [[ "$deps_mode" != dev ]]; then
  # Debian packages for the end-to-end tests' real node and image build (apt, only when missing).
  bash scripts/system-packages.sh
fi

# Keyed by the node too: packages installed by another node's npm are installed again.
lock_sum="$( { sha256sum package-lock.json; node --version; } | sha256sum | cut -c1-64)"
if [[ -L node_modules ]]; then
  # A git worktree sharing another checkout's packages: npm ci here would empty that checkout's.
  echo "node_modules is a link to $(readlink node_modules); not reinstalling it" >&2
elif [[ ! -f node_modules/.lock-sum ]] || [[ "$(cat node_modules/.lock-sum)" != "$lock_sum" ]]; then
  echo "== npm packages: installing (npm ci on node $(node --version), expected: about 1 minute)" >&2
  deps_start=$(date +%s)
  npm ci --no-audit --no-fund >&2
  echo "$lock_sum" > node_modules/.lock-sum
  echo "== npm packages: ready in $(( $(date +%s) - deps_start ))s" >&2
fi

if [[ "$deps_mode" != dev ]]; then
  # cluster-autoscaler (from the source tarball in ../shared/autoscaler beside the repository),
  # the end-to-end tests' real node (kubelet, kube-proxy, pause image) and cert-manager are built
  # in the background: cold they overlap the control plane build's module downloads and
  # single-threaded links; warm they only hash their pins. Their paths are read at the end.
  deps_build "cluster-autoscaler" "about 12 minutes" "$deps_out/autoscaler" \
    bash test/harness/autoscaler/build.sh &
  autoscaler_build=$!
  deps_build "kubelet and kube-proxy" "about 20 minutes" "$deps_out/node" \
    bash test/harness/node/build.sh &
  node_build=$!
  deps_build "cert-manager" "about 16 minutes" "$deps_out/cert-manager" \
    bash test/harness/certmanager/build.sh &
  cert_manager_build=$!
fi

deps_build "control plane" "about 21 minutes" "$deps_out/controlplane" \
  bash test/harness/controlplane/build.sh
MACHINE_API_BIN_DIR="$(tail -n 1 "$deps_out/controlplane")"
export MACHINE_API_BIN_DIR

# moto's EC2 server, in a Python venv outside the repo (the aws provider).
deps_build "moto" "about 1 minute" "$deps_out/moto" bash test/harness/moto/install.sh
MACHINE_API_MOTO_SERVER="$(tail -n 1 "$deps_out/moto")"
export MACHINE_API_MOTO_SERVER

if [[ "$deps_mode" != dev ]]; then
  # nats-server, built from its Go module (the JetStream transport's integration tests).
  deps_build "nats-server" "about 1 minute" "$deps_out/nats" bash test/harness/nats/build.sh
  MACHINE_API_NATS_SERVER="$(tail -n 1 "$deps_out/nats")"
  export MACHINE_API_NATS_SERVER

  wait "$autoscaler_build"
  MACHINE_API_AUTOSCALER="$(tail -n 1 "$deps_out/autoscaler")"
  export MACHINE_API_AUTOSCALER
  wait "$node_build"
  MACHINE_API_NODE_BIN_DIR="$(tail -n 1 "$deps_out/node")"
  export MACHINE_API_NODE_BIN_DIR
  wait "$cert_manager_build"
  MACHINE_API_CERT_MANAGER_DIR="$(tail -n 1 "$deps_out/cert-manager")"
  export MACHINE_API_CERT_MANAGER_DIR
fi
rm -rf "$deps_out"
