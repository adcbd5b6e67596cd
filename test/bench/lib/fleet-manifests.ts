/**
 * @module What the fleet benchmarks create: a MachineSet of kwok Machines, single kwok Machines,
 * their Nodes (the same object the kwok provider creates) and the status the Machine controller
 * writes once a Machine is linked to its Node.
 */
import type { KubeObject } from '../../../src/kube/resource'
import { simulatedNode } from '../../../src/providers/kwok/node'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import { toActuatorMachine } from '../../../src/providers/machine'
import { machineFinalizer } from '../../../src/reconcile/machine/machine-deps'

/** The kwok provider spec every fleet Machine uses (defaults: 4 CPU, 16Gi, 110 pods). */
export const kwokProviderSpec = { provider: 'kwok', value: {} }

/** A MachineClass of kwok Machines with the fleet's provider spec. */
export function kwokMachineClass(namespace: string, name: string): KubeObject {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace, name },
    spec: { provider: kwokProviderSpec.provider, providerSpec: kwokProviderSpec.value },
  }
}

/**
 * A MachineSet of `replicas` kwok Machines labelled `set=<name>`: with the inline provider spec,
 * or the MachineClass `className` names.
 */
export function kwokMachineSet(
  namespace: string,
  name: string,
  replicas: number,
  options: { className?: string } = {},
): KubeObject {
  const machineSpec = options.className
    ? { classRef: { name: options.className } }
    : { providerSpec: kwokProviderSpec }
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineSet',
    metadata: { namespace, name },
    spec: {
      replicas,
      selector: { matchLabels: { set: name } },
      template: {
        metadata: { labels: { set: name } },
        spec: machineSpec,
      },
    },
  }
}

/** A kwok Machine that already carries the controller's finalizer. */
export function kwokMachine(
  namespace: string,
  name: string,
  extra: { providerID?: string } = {},
): KubeObject {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { namespace, name, finalizers: [machineFinalizer] },
    spec: { providerSpec: kwokProviderSpec, ...extra },
  }
}

/** The Node the kwok provider would create for `machine` (read back, so it has a uid). */
export function kwokNodeFor(machine: KubeObject): KubeObject {
  const node = simulatedNode(
    toActuatorMachine(machine),
    kwokProviderSpecSchema().parse(kwokProviderSpec.value),
  )
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: node.name, labels: node.labels, annotations: node.annotations },
    spec: { providerID: node.providerID },
    status: { capacity: node.allocatable, allocatable: node.allocatable },
  }
}

/** The status of a provisioned Machine whose Node is not linked yet. */
export function provisionedStatus(providerID: string, now: string): object {
  return {
    status: {
      phase: 'Provisioned',
      lastUpdated: now,
      providerStatus: { simulated: true },
      conditions: [
        {
          type: 'InfrastructureReady',
          status: 'True',
          reason: 'Provisioned',
          message: 'simulated',
          lastTransitionTime: now,
        },
      ],
      addresses: [
        { type: 'Hostname', address: providerID.slice('kwok://'.length).replace('/', '.') },
      ],
    },
  }
}

/** The status of a Running Machine linked to `node`. */
export function runningStatus(node: KubeObject, now: string): object {
  return {
    status: {
      phase: 'Running',
      lastUpdated: now,
      nodeRef: { name: node.metadata?.name, uid: node.metadata?.uid },
      conditions: [
        {
          type: 'InfrastructureReady',
          status: 'True',
          reason: 'Provisioned',
          message: 'simulated',
          lastTransitionTime: now,
        },
        {
          type: 'NodeHealthy',
          status: 'True',
          reason: 'NodeReady',
          message: 'simulated',
          lastTransitionTime: now,
        },
        {
          type: 'Ready',
          status: 'True',
          reason: 'NodeReady',
          message: 'simulated',
          lastTransitionTime: now,
        },
      ],
    },
  }
}
