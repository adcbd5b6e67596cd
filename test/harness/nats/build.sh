#!/usr/bin/env bash
# Builds nats-server (with JetStream) from the Go module pinned in ./go into a cache directory keyed
# by that pin. A warm run only hashes the pin and prints the path. Prints the binary path as its
# last stdout line. Debian ships 2.9, which lacks term(reason) and per-subject features we test.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${MACHINE_API_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/machine-api}"

# Bump when the recipe below changes in a way that changes the binary.
recipe=1
key="$( { cat "$here/go/go.mod" "$here/go/go.sum"; go env GOVERSION; echo "$recipe"; } | sha256sum | cut -c1-16)"
bin_dir="$cache_root/nats/$key"
bin="$bin_dir/nats-server"

if [[ -x "$bin" ]]; then
  echo "$bin"
  exit 0
fi

mkdir -p "$cache_root/nats"
# One build at a time per machine: a second caller waits, then finds the cache filled.
exec 9>"$cache_root/nats/.lock"
flock 9
if [[ -x "$bin" ]]; then
  echo "$bin"
  exit 0
fi
# Build into a private directory and rename at the end, so an interrupted build never leaves a
# half-written binary that a later run would trust.
tmp="$(mktemp -d "$cache_root/nats/.build-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
start=$(date +%s)
echo "building nats-server into $bin_dir; a cold build takes about 1 minute on 2 cores" >&2
(cd "$here/go" && go build -p "${MACHINE_API_GO_PARALLEL:-2}" -trimpath -ldflags "-s -w" \
  -o "$tmp/nats-server" github.com/nats-io/nats-server/v2)

rm -rf "$bin_dir"
mv "$tmp" "$bin_dir"
trap - EXIT
echo "built in $(( $(date +%s) - start ))s" >&2
echo "$bin"
