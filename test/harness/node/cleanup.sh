#!/usr/bin/env bash
# Removes everything a real test node leaves on the host once its processes are told to stop:
# leftover processes started under the node's directory (containerd's shims and their
# containers), mounts under that directory and the pods' network namespaces, the pod bridge and
# the host-address bridge, the iptables chains of kube-proxy (KUBE-*) and of the CNI plugins (CNI-*), and
# the kubelet's pod cgroups. Idempotent: run at start too, for what a killed run left behind.
# Usage: cleanup.sh NODE_DIR BRIDGE HOST_LINK [KUBE_PROXY]
set -uo pipefail
dir="$1" bridge="$2" host_link="$3" kube_proxy="${4:-}"

# Processes whose command line names the node's directory (shims run with -address DIR/...), and
# their children (the containers, which run in the shims' cgroups).
pids=()
for p in /proc/[0-9]*; do
  pid="${p#/proc/}"
  [[ "$pid" == "$$" ]] && continue
  { tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null | grep -qF -- "$dir/" && pids+=("$pid")
done
if [[ ${#pids[@]} -gt 0 ]]; then
  for pid in "${pids[@]}"; do pkill -KILL -P "$pid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null; done
  sleep 0.5
fi

# Network namespaces of the pods (containerd names them cni-<uuid>), then mounts under the node.
for ns in /var/run/netns/cni-*; do
  [[ -e "$ns" ]] || continue
  umount "$ns" 2>/dev/null; rm -f "$ns"
done
if [[ -d "$dir" ]]; then
  awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null
  done
fi

ip link del "$bridge" 2>/dev/null
ip link del "$host_link" 2>/dev/null

if [[ -n "$kube_proxy" && -x "$kube_proxy" ]]; then
  "$kube_proxy" --cleanup >/dev/null 2>&1
fi
for table in nat filter mangle; do
  rules="$(iptables-save -t "$table" 2>/dev/null)" || continue
  # Rules that jump to our chains, from the built-in chains, then the chains themselves.
  echo "$rules" | grep -E '^-A [A-Z]+ .*-j (KUBE|CNI)-' | grep -vE '^-A (KUBE|CNI)-' | while read -r rule; do
    eval "iptables -t $table ${rule/#-A/-D}" 2>/dev/null
  done
  chains="$(echo "$rules" | grep -oE '^:(KUBE|CNI)-[A-Za-z0-9_-]+' | cut -c2-)"
  for c in $chains; do iptables -t "$table" -F "$c" 2>/dev/null; done
  for c in $chains; do iptables -t "$table" -X "$c" 2>/dev/null; done
done

# The kubelet's cgroups (cgroupfs driver, cgroup v1): deepest first.
for root in /sys/fs/cgroup/*/kubepods; do
  [[ -d "$root" ]] && find "$root" -depth -type d -exec rmdir {} + 2>/dev/null
done
exit 0
