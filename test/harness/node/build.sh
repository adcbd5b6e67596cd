#!/usr/bin/env bash
# Builds what a real test node runs besides Debian's containerd and CNI plugins: kubelet and
# kube-proxy from the control plane's Kubernetes module pins (../controlplane/go/k8s, so node and
# control plane are one version), and a pause image (a static C binary in a FROM-scratch image
# archive, since no pause image can be pulled here), into a cache directory keyed by those pins.
# A warm run only hashes them. Prints the directory as its last line.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
pins="$here/../controlplane/go/k8s"
k8s_version="v1.37.2"
cache_root="${MACHINE_API_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/machine-api}"

# Bump when the recipe below changes in a way that changes the output.
recipe=1
key="$( { cat "$pins/go.mod" "$pins/go.sum" "$here/pause.c"; go env GOVERSION; echo "$recipe"; } | sha256sum | cut -c1-16)"
out="$cache_root/node/$k8s_version-$key"
wanted=(kubelet kube-proxy pause.tar)

complete() {
  for f in "${wanted[@]}"; do [[ -s "$out/$f" ]] || return 1; done
}
if complete; then
  echo "$out"
  exit 0
fi

mkdir -p "$cache_root/node"
# One build at a time per machine: a second caller waits, then finds the cache filled.
exec 9>"$cache_root/node/.lock"
flock 9
if complete; then
  echo "$out"
  exit 0
fi
tmp="$(mktemp -d "$cache_root/node/.build-XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
echo "building kubelet and kube-proxy ($k8s_version) into $out; a cold build takes about 20 minutes on 2 cores" >&2

# The control plane's module, copied so that resolving kubelet's extra packages (-mod=mod) never
# rewrites the repository's go.sum; the pins are the same.
mkdir "$tmp/mod"
cp "$pins/go.mod" "$pins/go.sum" "$tmp/mod/"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod
minor="$(echo "$k8s_version" | cut -d. -f2)"
version_flags="-X k8s.io/component-base/version.gitVersion=$k8s_version \
 -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor \
 -X k8s.io/component-base/version.gitTreeState=clean"
(cd "$tmp/mod" && go build -p "${MACHINE_API_GO_PARALLEL:-2}" -trimpath -pgo=off -ldflags "-s -w $version_flags" \
  -o "$tmp/" k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy)
rm -rf "$tmp/mod"

# The pause image as a `docker save` archive (what `ctr images import` reads): one layer holding
# /pause, and a config naming it as the entrypoint.
mkdir -p "$tmp/pause/rootfs"
gcc -static -O2 -o "$tmp/pause/rootfs/pause" "$here/pause.c"
tar -C "$tmp/pause/rootfs" --owner=0 --group=0 --mtime=@0 -cf "$tmp/pause/layer.tar" pause
python3 - "$tmp/pause" <<'PY'
import hashlib, json, os, sys
d = sys.argv[1]
layer = hashlib.sha256(open(os.path.join(d, 'layer.tar'), 'rb').read()).hexdigest()
config = json.dumps({
    'architecture': 'amd64', 'os': 'linux',
    'config': {'Entrypoint': ['/pause'], 'User': '65535:65535'},
    'rootfs': {'type': 'layers', 'diff_ids': ['sha256:' + layer]},
}).encode()
config_name = hashlib.sha256(config).hexdigest() + '.json'
open(os.path.join(d, config_name), 'wb').write(config)
os.makedirs(os.path.join(d, layer))
os.rename(os.path.join(d, 'layer.tar'), os.path.join(d, layer, 'layer.tar'))
manifest = [{'Config': config_name, 'RepoTags': ['localhost/pause:machine-api'], 'Layers': [layer + '/layer.tar']}]
open(os.path.join(d, 'manifest.json'), 'w').write(json.dumps(manifest))
PY
rm -rf "$tmp/pause/rootfs"
tar -C "$tmp/pause" -cf "$tmp/pause.tar" .
rm -rf "$tmp/pause"

rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
echo "built in $(( $(date +%s) - start ))s" >&2
echo "$out"
