/**
 * @module The read side of an adoption: the source objects a request names (built into units by
 * sources/), and, before every step, the state plan.ts decides from. Reads only. The apiserver and
 * EC2 are read fresh each time: nothing here outlives one look.
 */
import type { EC2Client } from '@aws-sdk/client-ec2'
import { ANNOTATIONS, LABELS } from '../api/group'
import { machineApiTypes } from '../api/resource-types'
import { hasKubeReason } from '../kube/errors'
import type { KubeClient } from '../kube/kube-client'
import { listPages } from '../kube/paged-list'
import { coreTypes, type KubeObject, type ResourceType } from '../kube/resource'
import { parseAwsProviderID } from '../providers/aws/provider-id'
import { tagKeys } from '../providers/aws/tags'
import type { MachineDeploymentObject } from '../reconcile/machine-deployment/machine-sets'
import type { MachineObject, MachineSetObject } from '../reconcile/machine-set/types'
import { describeByIds, type InstanceFacts } from './instances'
import { pauseAnnotation, type SourceObject, type SourceRef } from './source-types'
import type { NodeFacts } from './sources/machine-checks'
import { type SourceState, sourceKey, type TargetState } from './state'
import type { AdoptionUnit } from './unit'

/** What reading needs. */
export interface ObserveDeps {
  kube: KubeClient
  ec2: EC2Client
  signal: AbortSignal
}

/** Every object of `type` in `namespace`; none when the cluster does not serve the type. */
export async function listAll(
  kube: KubeClient,
  type: ResourceType,
  namespace: string,
): Promise<SourceObject[]> {
  const items: SourceObject[] = []
  try {
    for await (const page of listPages(kube, type, { namespace })) {
      items.push(...(page.items as SourceObject[]))
    }
  } catch (error) {
    if (hasKubeReason(error, 'NotFound')) return []
    throw error
  }
  return items
}

/** The Node as adoption reads it, or undefined. */
export function nodeFactsOf(node: KubeObject): NodeFacts {
  return {
    name: node.metadata?.name ?? '',
    providerID: (node.spec as { providerID?: string } | undefined)?.providerID,
    linkedMachine: node.metadata?.annotations?.[ANNOTATIONS.machine],
  }
}

/** The Nodes named, by name (missing ones left out). */
export async function readNodes(
  kube: KubeClient,
  names: readonly string[],
): Promise<Map<string, NodeFacts>> {
  const nodes = new Map<string, NodeFacts>()
  await Promise.all(
    [...new Set(names)].filter(Boolean).map(async (name) => {
      const node = await kube.get<KubeObject>(coreTypes.node, { name })
      if (node) nodes.set(name, nodeFactsOf(node))
    }),
  )
  return nodes
}

/** The instances the providerIDs name, by id. */
export async function readInstances(
  deps: ObserveDeps,
  providerIDs: readonly (string | undefined)[],
): Promise<Map<string, InstanceFacts>> {
  const ids = providerIDs.flatMap((p) => {
    const id = parseAwsProviderID(p)
    return id ? [id] : []
  })
  return ids.length > 0 ? await describeByIds(deps.ec2, ids, deps.signal) : new Map()
}

async function sourceState(kube: KubeClient, ref: SourceRef): Promise<SourceState> {
  const obj = await kube.get<KubeObject>(ref.type, ref)
  if (!obj) return { present: false, paused: false, finalizers: [] }
  return {
    present: true,
    paused: obj.metadata?.annotations?.[pauseAnnotation(ref)] !== undefined,
    finalizers: obj.metadata?.finalizers ?? [],
  }
}

/** What plan.ts needs for `unit`, read now. */
export async function readTargetState(deps: ObserveDeps, unit: AdoptionUnit): Promise<TargetState> {
  const ns = unit.namespace
  const refs = [...unit.pause, ...unit.releaseAfter, ...unit.machines.flatMap((m) => m.release)]
  const sources = new Map<string, SourceState>()
  await Promise.all(
    refs.map(async (ref) => {
      sources.set(sourceKey(ref), await sourceState(deps.kube, ref))
    }),
  )
  const named = (obj: Record<string, unknown> | undefined) =>
    ((obj?.metadata ?? {}) as { name?: string }).name ?? ''
  const get = <T extends KubeObject>(
    type: ResourceType,
    obj: Record<string, unknown> | undefined,
  ) =>
    obj ? deps.kube.get<T>(type, { namespace: ns, name: named(obj) }) : Promise.resolve(undefined)
  const [machineClass, deployment, set] = await Promise.all([
    get<KubeObject>(machineApiTypes.machineClass, unit.machineClass),
    get<MachineDeploymentObject>(machineApiTypes.machineDeployment, unit.deployment),
    unit.set
      ? get<MachineSetObject>(machineApiTypes.machineSet, unit.set)
      : unit.deployment
        ? deploymentSet(deps.kube, ns, named(unit.deployment))
        : Promise.resolve(undefined),
  ])
  const machines = new Map<string, MachineObject>()
  await Promise.all(
    unit.machines.map(async (m) => {
      const machine = await deps.kube.get<MachineObject>(machineApiTypes.machine, {
        namespace: ns,
        name: m.name,
      })
      if (machine) machines.set(m.name, machine)
    }),
  )
  const described = await describeByIds(
    deps.ec2,
    unit.machines.map((m) => m.instance.id),
    deps.signal,
  )
  const instanceOwners = new Map(
    [...described].map(([id, facts]) => [
      id,
      {
        uid: facts.tags[tagKeys.machineUid],
        name: facts.tags[tagKeys.machineName],
        namespace: facts.tags[tagKeys.machineNamespace],
      },
    ]),
  )
  const nodes = await readNodes(
    deps.kube,
    unit.machines.map((m) => m.nodeName),
  )
  return { sources, machineClass, deployment, set, machines, instanceOwners, nodes }
}

/** The deployment's MachineSet, by its deployment-name label (at most one: it is adopted whole). */
async function deploymentSet(
  kube: KubeClient,
  namespace: string,
  deployment: string,
): Promise<MachineSetObject | undefined> {
  const page = await kube.list<MachineSetObject>(machineApiTypes.machineSet, {
    namespace,
    labelSelector: `${LABELS.deploymentName}=${deployment}`,
  })
  return page.items.find((s) => s.metadata.deletionTimestamp === undefined)
}
