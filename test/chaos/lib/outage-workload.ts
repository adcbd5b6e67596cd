/**
 * @module The apiserver-outage scenario's workload: a MachineDeployment of aws Machines whose class
 * changes (a rollout that replaces every Machine), and a lone Machine whose Node runs pods held by
 * a PodDisruptionBudget (a drain that is still in progress when the apiserver goes away).
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject, type ResourceType } from '../../../src/kube/resource'
import { chaosClassName } from './aws-world'
import { groupLabel } from './machine-ledger'

const deploymentType: ResourceType = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
  namespaced: true,
}
const pdbType: ResourceType = {
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  namespaced: true,
}

/** The deployment's name, also the audit group of its Machines (their `groupLabel`). */
export const deploymentName = 'workers'
const deploymentLabel = groupLabel
/** The Machine that is deleted (and drained) across the outage. */
export const drainedMachine = 'drained'
const appLabel = 'chaos.machine-api.dev/app'
const appPods = 3

type Machine = KubeObject & {
  spec?: { classRef?: { name?: string } }
  status?: { phase?: string; nodeRef?: { name?: string } }
}

/** Running with a Node and not being deleted. */
export function isRunning(machine: Machine): boolean {
  return (
    !machine.metadata?.deletionTimestamp &&
    machine.status?.phase === 'Running' &&
    Boolean(machine.status?.nodeRef?.name)
  )
}

/** Copies the world's class as `name` with another instance type: the rollout's new template. */
export async function copyClass(
  kube: KubeClient,
  namespace: string,
  name: string,
  instanceType: string,
): Promise<void> {
  const source = await kube.get<KubeObject & { spec: { providerSpec: object } }>(
    machineApiTypes.machineClass,
    { namespace, name: chaosClassName },
  )
  if (!source) throw new Error(`MachineClass ${chaosClassName} is missing`)
  await kube.create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace, name },
    spec: { ...source.spec, providerSpec: { ...source.spec.providerSpec, instanceType } },
  })
}

/** Creates the MachineDeployment on class `standard`. */
export async function createDeployment(
  kube: KubeClient,
  namespace: string,
  spec: { replicas: number; maxSurge: number; maxUnavailable: number },
): Promise<void> {
  const labels = { [deploymentLabel]: deploymentName }
  await kube.create(machineApiTypes.machineDeployment, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: { namespace, name: deploymentName },
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: labels },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: spec.maxSurge, maxUnavailable: spec.maxUnavailable },
      },
      template: {
        metadata: { labels },
        spec: { classRef: { name: chaosClassName }, nodeDeletionTimeout: '10s' },
      },
    },
  })
}

/** Points the deployment's template at `className`: every Machine must be replaced. */
export async function startRollout(
  kube: KubeClient,
  namespace: string,
  className: string,
): Promise<void> {
  await kube.mergePatch(
    machineApiTypes.machineDeployment,
    { namespace, name: deploymentName },
    { spec: { template: { spec: { classRef: { name: className } } } } },
  )
}

/** The deployment's Machines, fresh. */
export async function deploymentMachines(kube: KubeClient, namespace: string): Promise<Machine[]> {
  return (
    await kube.list<Machine>(machineApiTypes.machine, {
      namespace,
      labelSelector: `${deploymentLabel}=${deploymentName}`,
    })
  ).items
}

/** True once exactly `replicas` Machines exist, all Running on `className`. */
export async function rolledOut(
  kube: KubeClient,
  namespace: string,
  replicas: number,
  className: string,
): Promise<boolean> {
  const machines = await deploymentMachines(kube, namespace)
  return (
    machines.length === replicas &&
    machines.every((m) => isRunning(m) && m.spec?.classRef?.name === className)
  )
}

/** Creates the lone Machine that is deleted (and drained) across the outage. */
export async function createDrainedMachine(kube: KubeClient, namespace: string): Promise<void> {
  await kube.create(machineApiTypes.machine, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { namespace, name: drainedMachine },
    spec: { classRef: { name: chaosClassName }, nodeDeletionTimeout: '10s' },
  })
}

/** The drained Machine, or undefined once it is gone. */
export async function readDrainedMachine(
  kube: KubeClient,
  namespace: string,
): Promise<Machine | undefined> {
  return await kube.get<Machine>(machineApiTypes.machine, { namespace, name: drainedMachine })
}

/**
 * Puts `appPods` pods on `nodeName` (required node affinity on the Node's name, so replacements of
 * evicted pods stay Pending once the Node is cordoned) under a budget of one disruption: the drain
 * evicts one pod, then waits.
 */
export async function createHeldPods(
  kube: KubeClient,
  namespace: string,
  nodeName: string,
): Promise<void> {
  const labels = { [appLabel]: 'held' }
  await kube.create(pdbType, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { namespace, name: 'held' },
    spec: { maxUnavailable: 1, selector: { matchLabels: labels } },
  })
  await kube.create(deploymentType, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { namespace, name: 'held' },
    spec: {
      replicas: appPods,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] },
                ],
              },
            },
          },
          containers: [{ name: 'app', image: 'registry.example/app:1' }],
        },
      },
    },
  })
}

type Pod = KubeObject & { spec?: { nodeName?: string }; status?: { phase?: string } }

/** The app's pods: how many run on `nodeName` and how many wait (Pending, not placed). */
export async function heldPods(
  kube: KubeClient,
  namespace: string,
  nodeName: string,
): Promise<{ running: number; pending: number }> {
  const pods = (
    await kube.list<Pod>(coreTypes.pod, { namespace, labelSelector: `${appLabel}=held` })
  ).items.filter((p) => !p.metadata?.deletionTimestamp)
  return {
    running: pods.filter((p) => p.spec?.nodeName === nodeName && p.status?.phase === 'Running')
      .length,
    pending: pods.filter((p) => !p.spec?.nodeName).length,
  }
}

/** Lifts the budget: the drain can evict the rest. */
export async function liftBudget(kube: KubeClient, namespace: string): Promise<void> {
  await kube.delete(pdbType, { namespace, name: 'held' })
}

/** The number of pods the app wants on the drained Node. */
export const heldPodCount = appPods
