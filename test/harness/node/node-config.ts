/**
 * @module The configuration files of a real test node (containerd, CNI, kubelet, kube-proxy),
 * kept together so they read as one setup. Everything lives under the node's own directory, so two
 * runs never share a socket or state, and stop() can remove it all.
 */
import { join } from 'node:path'

/** Addresses the node uses; kept apart from the Service range (10.0.0.0/24). */
export interface NodeNetwork {
  /** On a link of the host (an empty bridge: these kernels may lack the dummy driver): the apiserver and kubelet listen here, pods reach it. */
  hostAddress: string
  /** The bridge's pod subnet (host-local IPAM). */
  podSubnet: string
  /** The Linux bridge the CNI plugin creates and stop() deletes. */
  bridge: string
  /** The empty bridge carrying hostAddress. */
  hostLink: string
}

export const nodeNetwork: NodeNetwork = {
  hostAddress: '10.213.0.1',
  podSubnet: '10.213.1.0/24',
  bridge: 'mapi-pods0',
  hostLink: 'mapi-host0',
}

export const pauseImage = 'localhost/pause:machine-api'

export interface NodePaths {
  dir: string
  containerdSocket: string
  cniConfDir: string
  kubeletRoot: string
}

export function nodePaths(dir: string): NodePaths {
  return {
    dir,
    containerdSocket: join(dir, 'containerd', 'containerd.sock'),
    cniConfDir: join(dir, 'cni', 'net.d'),
    kubeletRoot: join(dir, 'kubelet'),
  }
}

/**
 * containerd 1.6 (Debian's) with the CRI plugin. restrict_oom_score_adj: without CAP_SYS_RESOURCE
 * (as on these VMs) runc cannot raise a sandbox's oom_score_adj and every sandbox fails.
 */
export function containerdConfig(paths: NodePaths, cniBinDir: string): string {
  const state = join(paths.dir, 'containerd')
  return `version = 2
root = "${join(state, 'root')}"
state = "${join(state, 'state')}"
[grpc]
  address = "${paths.containerdSocket}"
[ttrpc]
  address = "${paths.containerdSocket}.ttrpc"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "${pauseImage}"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "${cniBinDir}"
    conf_dir = "${paths.cniConfDir}"
`
}

/** bridge + host-local + portmap; no masquerade (pods talk only to this host and each other). */
export function cniConflist(paths: NodePaths, network: NodeNetwork): string {
  return `${JSON.stringify(
    {
      cniVersion: '0.4.0',
      name: 'machine-api',
      plugins: [
        {
          type: 'bridge',
          bridge: network.bridge,
          isGateway: true,
          ipMasq: false,
          hairpinMode: true,
          ipam: {
            type: 'host-local',
            ranges: [[{ subnet: network.podSubnet }]],
            routes: [{ dst: '0.0.0.0/0' }],
            dataDir: join(paths.dir, 'cni', 'ipam'),
          },
        },
        { type: 'portmap', capabilities: { portMappings: true } },
      ],
    },
    null,
    2,
  )}\n`
}

/**
 * kubelet on cgroup v1 without systemd: cgroupfs, swap tolerated, v1 allowed (1.37 refuses it
 * otherwise). Anonymous + AlwaysAllow serves `kubectl logs` to the apiserver, which presents no
 * client certificate; the port listens on the node's own address only.
 */
export function kubeletConfig(paths: NodePaths, network: NodeNetwork, port: number): string {
  return `${JSON.stringify(
    {
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      kind: 'KubeletConfiguration',
      cgroupDriver: 'cgroupfs',
      failSwapOn: false,
      failCgroupV1: false,
      containerRuntimeEndpoint: `unix://${paths.containerdSocket}`,
      address: network.hostAddress,
      port,
      readOnlyPort: 0,
      healthzPort: 0,
      authentication: { anonymous: { enabled: true }, webhook: { enabled: false } },
      authorization: { mode: 'AlwaysAllow' },
      // Images are loaded, never pulled: never collect them, never evict for a busy disk.
      imageGCHighThresholdPercent: 100,
      imageGCLowThresholdPercent: 99,
      evictionHard: {
        'memory.available': '1Mi',
        'nodefs.available': '1%',
        'imagefs.available': '1%',
      },
      nodeStatusUpdateFrequency: '2s',
      syncFrequency: '5s',
      fileCheckFrequency: '5s',
      resolvConf: '',
      enforceNodeAllocatable: [],
      localStorageCapacityIsolation: false,
      shutdownGracePeriod: '0s',
    },
    null,
    2,
  )}\n`
}

/** iptables mode; masqueradeAll so a pod reaching a Service on its own bridge gets the reply. */
export function kubeProxyConfig(
  kubeconfigPath: string,
  nodeName: string,
  network: NodeNetwork,
  ports: { metrics: number; healthz: number },
): string {
  return `${JSON.stringify(
    {
      apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
      kind: 'KubeProxyConfiguration',
      clientConnection: { kubeconfig: kubeconfigPath },
      hostnameOverride: nodeName,
      mode: 'iptables',
      clusterCIDR: network.podSubnet,
      bindAddress: network.hostAddress,
      metricsBindAddress: `127.0.0.1:${ports.metrics}`,
      healthzBindAddress: `127.0.0.1:${ports.healthz}`,
      nodePortAddresses: [`${network.hostAddress}/32`],
      iptables: {
        masqueradeAll: true,
        localhostNodePorts: false,
        syncPeriod: '5s',
        minSyncPeriod: '0s',
      },
      // 0: leave the host's conntrack sysctls as they are.
      conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
    },
    null,
    2,
  )}\n`
}
