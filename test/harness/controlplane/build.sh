#!/usr/bin/env bash
# Builds etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubectl and kwok from the
# upstream Go modules pinned in ./go/*, into a cache directory keyed by those pins. A warm run only
# hashes the pins and prints the directory. Prints the binary directory as its last line.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
k8s_version="v1.37.2"
cache_root="${MACHINE_API_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/machine-api}"

# Bump when the recipe below changes in a way that changes the binaries.
recipe=1
key="$( { cat "$here"/go/*/go.mod "$here"/go/*/go.sum; go env GOVERSION; echo "$recipe"; } | sha256sum | cut -c1-16)"
bin_dir="$cache_root/controlplane/$k8s_version-$key"
wanted=(etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok)

complete() {
  for b in "${wanted[@]}"; do [[ -x "$bin_dir/$b" ]] || return 1; done
}

if complete; then
  echo "$bin_dir"
  exit 0
fi

mkdir -p "$cache_root/controlplane"
# One build at a time per machine: a second caller waits, then finds the cache filled.
exec 9>"$cache_root/controlplane/.lock"
flock 9
if complete; then
  echo "$bin_dir"
  exit 0
fi
# Build into a private directory and rename at the end, so an interrupted or concurrent build never
# leaves a half-filled cache entry that a later run would trust.
tmp="$(mktemp -d "$cache_root/controlplane/.build-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
parallel="${MACHINE_API_GO_PARALLEL:-2}"
minor="$(echo "$k8s_version" | cut -d. -f2)"
version_flags="-X k8s.io/component-base/version.gitVersion=$k8s_version \
 -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor \
 -X k8s.io/component-base/version.gitTreeState=clean \
 -X k8s.io/client-go/pkg/version.gitVersion=$k8s_version \
 -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=$minor"

start=$(date +%s)
echo "building the control plane ($k8s_version) into $bin_dir; a cold build takes 20-40 minutes on 2 cores" >&2
(cd "$here/go/etcd" && go build -p "$parallel" -trimpath -ldflags "-s -w" -o "$tmp/etcd" go.etcd.io/etcd/server/v3)
(cd "$here/go/kwok" && go build -p "$parallel" -trimpath -ldflags "-s -w" -o "$tmp/kwok" sigs.k8s.io/kwok/cmd/kwok)
(cd "$here/go/k8s" && go build -p "$parallel" -trimpath -pgo=off -ldflags "-s -w $version_flags" -o "$tmp/" \
  k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
  k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl)

# kwok ships its stage definitions in the module; copy the ones the launcher loads.
kwok_dir="$(cd "$here/go/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)"
mkdir -p "$tmp/stages"
for s in node/fast/node-initialize node/heartbeat-with-lease/node-heartbeat-with-lease \
  node/chaos/node-not-ready pod/fast/pod-ready pod/fast/pod-complete pod/fast/pod-delete; do
  cp "$kwok_dir/kustomize/stage/$s.yaml" "$tmp/stages/$(basename "$s").yaml"
done

rm -rf "$bin_dir"
mv "$tmp" "$bin_dir"
trap - EXIT
echo "built in $(( $(date +%s) - start ))s" >&2
echo "$bin_dir"
