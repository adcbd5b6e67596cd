/**
 * @module Pure naming and shaping of the simulated Nodes behind `kwok` Machines: deterministic
 * names (so a retried create finds the same Node) and the labels that tie a Node to its Machine.
 */

import { createHash } from 'node:crypto'
import { ANNOTATIONS, INFRA_KEYS, LABELS } from '../../api/group'
import { labelValueError, MAX_LABEL_VALUE } from '../../api/shared/label-syntax'
import type { ActuatorMachine } from '../actuator'
import type { SimulatedNode } from './node-writer'
import type { KwokProviderSpec } from './spec'

/** The annotation kwok's `--manage-nodes-with-annotation-selector` matches. */
export const kwokNodeAnnotation = 'kwok.x-k8s.io/node'
/** Labels and annotations machine-api puts on simulated Nodes. */
export const kwokKeys = {
  machineUid: INFRA_KEYS.machineUid,
  machineNamespace: INFRA_KEYS.machineNamespace,
  machineName: INFRA_KEYS.machineName,
  simulated: LABELS.simulated,
  /** `namespace/name` of the Machine: the Node -> Machine back-reference (api/node-link.ts). */
  machine: ANNOTATIONS.machine,
} as const

/**
 * The system every simulated Node reports: kwok's node-initialize stage writes amd64/linux into its
 * status.nodeInfo, and the class capacity promises the same to cluster-autoscaler's scale from zero.
 */
export const kwokNodeInfo = { architecture: 'amd64', operatingSystem: 'linux' } as const

/**
 * The labels a kubelet puts on its Node about itself (os and arch, in their stable and beta forms),
 * so a Pod selecting `kubernetes.io/os: linux` schedules on a simulated Node as on a real one.
 */
function kubeletLabels(): Record<string, string> {
  return {
    'kubernetes.io/os': kwokNodeInfo.operatingSystem,
    'kubernetes.io/arch': kwokNodeInfo.architecture,
    'beta.kubernetes.io/os': kwokNodeInfo.operatingSystem,
    'beta.kubernetes.io/arch': kwokNodeInfo.architecture,
  }
}

/**
 * `kwok://<namespace>.<name>` (the Node name): unique per Machine, readable, and honest about
 * being simulated. No `/` after the scheme, because cluster-autoscaler keeps only what follows the
 * last `/` of a provider ID: the earlier `kwok://<namespace>/<name>` made equally named Machines
 * of two namespaces collide there. Nodes created with the earlier form keep it (a Node's
 * providerID cannot change); the actuator reports whatever the Node carries.
 */
export function kwokProviderID(machine: ActuatorMachine): string {
  return `kwok://${kwokNodeName(machine)}`
}

/**
 * The Node name of a Machine: `<namespace>.<name>`. Namespaces cannot contain dots, so two
 * Machines never share a name; at most 253 characters like every Node name.
 */
export function kwokNodeName(machine: ActuatorMachine): string {
  return `${machine.metadata.namespace}.${machine.metadata.name}`
}

/**
 * The Node's `kubernetes.io/hostname` label: its name, or when that is no label value (longer than
 * 63 characters: a long Machine name in a long namespace) the name's first 52 characters and 10 of
 * its SHA-256, so every valid Machine gets a Node the apiserver accepts, still unique per Node.
 */
export function kwokHostnameLabel(nodeName: string): string {
  if (labelValueError(nodeName) === undefined) return nodeName
  const digest = createHash('sha256').update(nodeName).digest('hex').slice(0, 10)
  const head = nodeName.slice(0, MAX_LABEL_VALUE - 11).replace(/[^A-Za-z0-9]+$/, '')
  return `${head}-${digest}`
}

/** The Node the `kwok` provider creates for a Machine. */
export function simulatedNode(machine: ActuatorMachine, spec: KwokProviderSpec): SimulatedNode {
  const name = kwokNodeName(machine)
  return {
    name,
    providerID: kwokProviderID(machine),
    labels: {
      // Before the spec's labels, which may override them as a kubelet's --node-labels can.
      ...kubeletLabels(),
      ...spec.nodeLabels,
      ...((machine.spec.failureDomain ?? spec.zone)
        ? { 'topology.kubernetes.io/zone': machine.spec.failureDomain ?? spec.zone }
        : {}),
      'kubernetes.io/hostname': kwokHostnameLabel(name),
      type: 'kwok',
      [kwokKeys.machineUid]: machine.metadata.uid,
      [kwokKeys.machineNamespace]: machine.metadata.namespace,
    },
    annotations: {
      [kwokNodeAnnotation]: 'fake',
      [kwokKeys.simulated]: 'true',
      [kwokKeys.machineName]: machine.metadata.name,
      // The back-reference the Machine controller's Node sync writes, set from the start: Node
      // events before the link then map straight to the Machine instead of a cluster-wide list of
      // Machines by label, whose apiserver cost grows with the fleet (benchmark: provisioning).
      [kwokKeys.machine]: `${machine.metadata.namespace}/${machine.metadata.name}`,
    },
    allocatable: { ...spec.allocatable },
  }
}
