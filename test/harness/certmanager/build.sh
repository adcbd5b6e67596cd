#!/usr/bin/env bash
# Builds cert-manager's controller and CA injector (the parts the overlays need: issuing the
# webhook's certificate and injecting its CA) from the cert-manager Go module pinned in ./go, and
# copies its CRDs from that module, into a cache directory keyed by the pin and the two small mains
# in ./go (upstream's commands live in modules the Go module proxy does not serve). A warm run only
# hashes them. Prints the directory as its last line.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache_root="${MACHINE_API_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/machine-api}"

# Bump when the recipe below changes in a way that changes the output.
recipe=1
key="$( { cat "$here/go/go.mod" "$here/go/go.sum" "$here"/go/*/main.go; go env GOVERSION; echo "$recipe"; } \
  | sha256sum | cut -c1-16)"
version="$(awk '$1 == "github.com/cert-manager/cert-manager" { print $2 }' "$here/go/go.mod")"
out="$cache_root/cert-manager/$version-$key"
wanted=(controller cainjector crds.yaml)

complete() {
  for f in "${wanted[@]}"; do [[ -s "$out/$f" ]] || return 1; done
}
if complete; then
  echo "$out"
  exit 0
fi

mkdir -p "$cache_root/cert-manager"
# One build at a time per machine: a second caller waits, then finds the cache filled.
exec 9>"$cache_root/cert-manager/.lock"
flock 9
if complete; then
  echo "$out"
  exit 0
fi
tmp="$(mktemp -d "$cache_root/cert-manager/.build-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "building cert-manager $version (controller, cainjector) into $out; a cold build takes about 16 minutes on 2 cores" >&2

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
(cd "$here/go" && go build -p "${MACHINE_API_GO_PARALLEL:-2}" -trimpath -ldflags "-s -w" -o "$tmp/" \
  ./controller ./cainjector)
module_dir="$(cd "$here/go" && go list -m -f '{{.Dir}}' github.com/cert-manager/cert-manager)"
cat "$module_dir"/deploy/crds/*.yaml > "$tmp/crds.yaml"

rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "built in $(( $(date +%s) - start ))s" >&2
echo "$out"
