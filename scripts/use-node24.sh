#!/usr/bin/env bash
# Sourced by every script that runs the project (test.sh, dev.sh, bench.sh, chaos.sh,
# node24-exec.sh): puts the project's Node 24 (scripts/node24.sh: node 24 with its own npm) first
# on PATH, so `node`, `npm` and `npx` there and in every child run on Node 24 whatever the
# machine's own node is. The npm_* variables of an outer npm on another node (`npm test` started by
# the machine's npm) are dropped so nothing below mistakes that node for ours.
node24_bin="$(bash "$(dirname "${BASH_SOURCE[0]}")/node24.sh")" || {
  echo "use-node24: no Node 24 for this machine; the project runs only on Node 24" >&2
  return 1 2>/dev/null || exit 1
}
# npm reads its global npmrc (a registry, a proxy's CA) from its node's prefix; ours has none, so
# it keeps the one of the npm it replaces on PATH.
if [[ -z "${npm_config_globalconfig:-}" ]] && command -v node >/dev/null \
  && [[ "$(command -v node)" != "$node24_bin" ]]; then
  node24_outer_rc="$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")/etc/npmrc"
  [[ -f "$node24_outer_rc" ]] && export npm_config_globalconfig="$node24_outer_rc"
  unset node24_outer_rc
fi
case ":$PATH:" in
  ":$(dirname "$node24_bin"):"*) ;;
  *) PATH="$(dirname "$node24_bin"):$PATH" ;;
esac
export PATH
unset npm_node_execpath npm_execpath npm_config_user_agent NODE
hash -r
