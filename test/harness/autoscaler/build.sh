#!/usr/bin/env bash
# Builds cluster-autoscaler (the clusterapi provider only) from the source tarball in ../shared/autoscaler
# beside the repository (see BUILD.md there), into a cache directory keyed by the tarball's sha256 and the
# Go version. A warm run only hashes the tarball and prints the path. Prints the binary path as its last
# stdout line. The Go module proxy does not serve k8s.io/autoscaler/cluster-autoscaler, hence the tarball;
# its own Go dependencies come from the proxy like the control plane's.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../../.." && pwd)"
tarball="${MACHINE_API_AUTOSCALER_SRC:-$repo_root/../shared/autoscaler/cluster-autoscaler-1.36.1-src.tar.gz}"
cache_root="${MACHINE_API_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/machine-api}"

if [[ ! -f "$tarball" ]]; then
  echo "cluster-autoscaler source not found at $tarball (set MACHINE_API_AUTOSCALER_SRC)" >&2
  exit 1
fi

# Bump when the recipe below changes in a way that changes the binary.
recipe=1
key="$( { sha256sum "$tarball" | cut -c1-64; go env GOVERSION; echo "$recipe"; } | sha256sum | cut -c1-16)"
bin_dir="$cache_root/autoscaler/1.36.1-$key"
bin="$bin_dir/cluster-autoscaler"

if [[ -x "$bin" ]]; then
  echo "$bin"
  exit 0
fi

mkdir -p "$cache_root/autoscaler"
# One build at a time per machine: a second caller waits, then finds the cache filled.
exec 9>"$cache_root/autoscaler/.lock"
flock 9
if [[ -x "$bin" ]]; then
  echo "$bin"
  exit 0
fi
# Extract and build in a private directory and rename at the end, so an interrupted build never leaves
# a half-written binary that a later run would trust. The source is not kept: only the binary and the
# LICENSE that has to travel with it.
tmp="$(mktemp -d "$cache_root/autoscaler/.build-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src" "$tmp/out"
tar -xzf "$tarball" -C "$tmp/src"
src="$tmp/src/cluster-autoscaler"

# -tags clusterapi selects the only provider the tarball keeps; the default -mod=readonly is enough
# (go.sum is complete); -buildvcs=false because the tree may sit inside another git checkout.
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false
start=$(date +%s)
echo "building cluster-autoscaler 1.36.1 into $bin_dir; a cold build takes about 11 minutes on 2 cores" >&2
(cd "$src" && go build -p "${MACHINE_API_GO_PARALLEL:-2}" -tags clusterapi -trimpath -ldflags "-s -w" \
  -o "$tmp/out/cluster-autoscaler" .)
cp "$src/LICENSE" "$tmp/out/LICENSE"

rm -rf "$bin_dir"
mv "$tmp/out" "$bin_dir"
trap - EXIT
rm -rf "$tmp"
echo "built in $(( $(date +%s) - start ))s" >&2
echo "$bin"
