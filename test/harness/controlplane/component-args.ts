/** @module Command lines of the control plane components, kept together so they read as one setup. */
import { join } from 'node:path'

interface Ports {
  etcdClient: number
  etcdPeer: number
  apiserver: number
}

interface Files {
  tokenFile: string
  saKey: string
  servingCert: string
}

export function etcdArgs(workDir: string, ports: Ports): string[] {
  const client = `http://127.0.0.1:${ports.etcdClient}`
  const peer = `http://127.0.0.1:${ports.etcdPeer}`
  return [
    `--data-dir=${join(workDir, 'etcd')}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=default=${peer}`,
    // Test data is thrown away after the run; fsync only costs time.
    '--unsafe-no-fsync',
    '--log-level=warn',
  ]
}

/** `profiling` serves /debug/pprof (for a CPU profile of the apiserver, e.g. profile-list-conversion). */
/**
 * `address` is where the apiserver listens and what it advertises: 127.0.0.1 by default, a
 * non-loopback one when pods on a real node must reach it through the `kubernetes` Service.
 */
export function apiserverArgs(
  workDir: string,
  ports: Ports,
  files: Files,
  profiling = false,
  address = '127.0.0.1',
): string[] {
  const loopback = address.startsWith('127.')
  return [
    `--etcd-servers=http://127.0.0.1:${ports.etcdClient}`,
    `--bind-address=${address}`,
    `--advertise-address=${address}`,
    `--secure-port=${ports.apiserver}`,
    // With no --tls-cert-file the apiserver self-signs apiserver.crt here (valid for `address`).
    `--cert-dir=${join(workDir, 'pki')}`,
    `--token-auth-file=${files.tokenFile}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${files.saKey}`,
    `--service-account-signing-key-file=${files.saKey}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    '--authorization-mode=Node,RBAC',
    '--allow-privileged=true',
    // A loopback advertise address makes the default/kubernetes Endpoints invalid; any other is
    // published there, for kube-proxy to route the `kubernetes` Service to.
    `--endpoint-reconciler-type=${loopback ? 'none' : 'lease'}`,
    `--profiling=${profiling}`,
    // A real node's name resolves nowhere: reach its kubelet (logs, exec) at its InternalIP.
    ...(loopback ? [] : ['--kubelet-preferred-address-types=InternalIP']),
  ]
}

/** Short node-monitor periods so node-lifecycle behaviour shows up in seconds, not minutes. */
export function kcmArgs(kubeconfigPath: string, files: Files): string[] {
  return [
    `--kubeconfig=${kubeconfigPath}`,
    '--bind-address=127.0.0.1',
    '--secure-port=0',
    '--leader-elect=false',
    '--controllers=*',
    `--service-account-private-key-file=${files.saKey}`,
    `--root-ca-file=${files.servingCert}`,
    '--node-monitor-period=2s',
    '--node-monitor-grace-period=20s',
    '--node-startup-grace-period=30s',
    '--profiling=false',
  ]
}

export function schedulerArgs(kubeconfigPath: string): string[] {
  return [
    `--kubeconfig=${kubeconfigPath}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    '--secure-port=0',
  ]
}

/** kwok acts only on Nodes whose annotations match `selector`; real kubelets are left alone. */
export function kwokArgs(kubeconfigPath: string, stagesPath: string, selector: string): string[] {
  return [
    `--kubeconfig=${kubeconfigPath}`,
    `--config=${stagesPath}`,
    '--manage-all-nodes=false',
    `--manage-nodes-with-annotation-selector=${selector}`,
    '--node-lease-duration-seconds=10',
  ]
}
