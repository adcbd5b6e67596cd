#!/usr/bin/env bash
# Installs the Debian packages the end-to-end tests need, when one is missing: docker.io (dockerd,
# which builds the image, and containerd + runc, which run the test node's pods), mmdebstrap (the
# image's base layers from Debian packages), containernetworking-plugins (the node's pod network),
# iptables (kube-proxy) and gcc with libc6-dev (the static pause binary). A warm run only asks
# dpkg. Needs root for a cold run, as CI has.
set -euo pipefail

packages=(docker.io containerd runc mmdebstrap containernetworking-plugins iptables gcc libc6-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ "$(id -u)" != 0 ]]; then
  echo "system-packages: missing ${missing[*]}; install them as root (apt-get install)" >&2
  exit 1
fi
echo "installing Debian packages: ${missing[*]}" >&2
start=$(date +%s)
# One apt at a time: apt's own lock refuses a second caller instead of waiting.
exec 9>/var/lib/apt/.machine-api-lock
flock 9
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
echo "installed in $(( $(date +%s) - start ))s" >&2
