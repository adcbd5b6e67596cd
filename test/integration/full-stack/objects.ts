/**
 * @module Manifests and reads for the full-stack tests: a MachineDeployment of kwok Machines, a
 * MachineHealthCheck on it, and what the tests look at (Machines, the deployment's sets, Nodes).
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import type { MachineDeploymentObject } from '../../../src/reconcile/machine-deployment/machine-sets'
import { listMachines } from '../../../src/reconcile/machine-set/reconcile'
import type { MachineObject, MachineSetObject } from '../../../src/reconcile/machine-set/types'

/** The label a deployment's template puts on its Machines (and its selector matches). */
export const deploymentLabel = 'full-stack/md'

/** A MachineDeployment of kwok Machines whose Nodes carry `nodeLabels`. */
export function kwokDeployment(
  namespace: string,
  name: string,
  spec: { replicas: number; nodeLabels: Record<string, string>; extra?: object },
): KubeObject {
  const labels = { [deploymentLabel]: name }
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: { namespace, name },
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          providerSpec: { provider: 'kwok', value: { nodeLabels: spec.nodeLabels } },
          nodeDeletionTimeout: '10s',
        },
      },
      ...spec.extra,
    },
  }
}

/** A MachineHealthCheck on the deployment's Machines: Ready False or Unknown for `timeout`. */
export function readyHealthCheck(namespace: string, name: string, timeout: string): KubeObject {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineHealthCheck',
    metadata: { namespace, name },
    spec: {
      selector: { matchLabels: { [deploymentLabel]: name } },
      unhealthyConditions: [
        { type: 'Ready', status: 'False', timeout },
        { type: 'Ready', status: 'Unknown', timeout },
      ],
    },
  }
}

/** True when the Machine reports Ready=True and is not being deleted. */
export function isReadyMachine(machine: MachineObject): boolean {
  return (
    !machine.metadata.deletionTimestamp &&
    (machine.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false)
  )
}

/** True when the Machine is Running with a Ready Node and not being deleted. */
export function isRunningMachine(machine: MachineObject): boolean {
  return isReadyMachine(machine) && machine.status?.phase === 'Running'
}

/** Every Machine of the namespace, fresh. */
export async function machinesOf(kube: KubeClient, namespace: string): Promise<MachineObject[]> {
  return await listMachines(kube, namespace)
}

/** The deployment and the MachineSets it controls, fresh. */
export async function deploymentState(kube: KubeClient, namespace: string, name: string) {
  const md = await kube.get<MachineDeploymentObject & { [k: string]: unknown }>(
    machineApiTypes.machineDeployment,
    { namespace, name },
  )
  if (!md) throw new Error(`MachineDeployment ${name} not found`)
  const page = await kube.list<MachineSetObject & { [k: string]: unknown }>(
    machineApiTypes.machineSet,
    { namespace },
  )
  const sets = page.items.filter((s) =>
    s.metadata.ownerReferences?.some((o) => o.controller && o.uid === md.metadata.uid),
  )
  return { md, sets }
}

/** The Node labels a set's kwok template asks for. */
export function templateNodeLabels(set: MachineSetObject): Record<string, string> {
  const value = set.spec.template.spec.providerSpec?.value as
    | { nodeLabels?: Record<string, string> }
    | undefined
  return value?.nodeLabels ?? {}
}

/** The labels of a Node, or undefined once it is gone. */
export async function nodeLabels(
  kube: KubeClient,
  name: string,
): Promise<Record<string, string> | undefined> {
  const node = await kube.get(coreTypes.node, { name })
  return node ? (node.metadata?.labels ?? {}) : undefined
}
