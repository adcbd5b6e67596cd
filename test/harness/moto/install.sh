#!/usr/bin/env bash
# Installs moto's EC2-capable server (PyPI `moto[server]`, exact pin below) into a Python virtual
# environment outside the repository, keyed by the pin. A warm run only checks a marker file and
# prints the path. Prints the venv's moto_server path as its last stdout line.
set -euo pipefail

# Exact pin: moto's EC2 semantics (ClientToken idempotency, tag filters, error codes) change between
# releases, and every developer and CI must test against the same ones.
moto_version="5.2.5"
cache_root="${MACHINE_API_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/machine-api}"
python="${MACHINE_API_PYTHON:-python3}"
venv="$cache_root/moto-venv-$moto_version"
bin="$venv/bin/moto_server"
# Written last: a venv without it was interrupted mid-install and is rebuilt, never trusted.
marker="$venv/.installed"

if [[ -f "$marker" && -x "$bin" ]]; then
  echo "$bin"
  exit 0
fi

mkdir -p "$cache_root"
# One install at a time per machine: a second caller waits, then finds the venv ready.
exec 9>"$cache_root/.moto-venv.lock"
flock 9
if [[ -f "$marker" && -x "$bin" ]]; then
  echo "$bin"
  exit 0
fi

start=$(date +%s)
echo "installing moto[server]==$moto_version into $venv; a cold install takes about 1 minute" >&2
# A venv records its own absolute path, so it is built in place (not renamed into place); the
# marker above is what makes an interrupted build harmless.
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
  "moto[server]==$moto_version" >&2
"$venv/bin/python" -c 'import moto, flask' >&2
touch "$marker"
echo "installed in $(( $(date +%s) - start ))s" >&2
echo "$bin"
