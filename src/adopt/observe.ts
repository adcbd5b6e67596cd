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

/** Above this many names a look lists the namespace (or the cluster) instead of one GET each. */
const getsBeforeList = 20

/**
 * The objects of `type` named, by name (missing ones left out): one GET each for a few, a list of
 * `namespace` for many (at 1,000 Machines a pass was otherwise 1,000 Machine and 1,000 Node GETs).
 */
export async function readNamed<T extends KubeObject>(
  kube: KubeClient,
  type: ResourceType,
  namespace: string | undefined,
  names: readonly string[],
): Promise<Map<string, T>> {
  const wanted = new Set(names.filter(Boolean))
  const found = new Map<string, T>()
  if (wanted.size > getsBeforeList) {
    for await (const page of listPages(kube, type, type.namespaced ? { namespace } : {})) {
      for (const item of page.items as T[]) {
        const name = item.metadata?.name ?? ''
        if (wanted.has(name)) found.set(name, item)
      }
    }
    return found
  }
  await Promise.all(
    [...wanted].map(async (name) => {
      const obj = await kube.get<T>(type, { namespace, name })
      if (obj) found.set(name, obj)
    }),
  )
  return found
}

/** The Nodes named, by name (missing ones left out). */
export async function readNodes(
  kube: KubeClient,
  names: readonly string[],
): Promise<Map<string, NodeFacts>> {
  const nodes = await readNamed<KubeObject>(kube, coreTypes.node, undefined, names)
  return new Map([...nodes].map(([name, node]) => [name, nodeFactsOf(node)]))
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

function sourceState(ref: SourceRef, obj: KubeObject | undefined): SourceState {
  if (!obj) return { present: false, paused: false, finalizers: [] }
  return {
    present: true,
    paused: obj.metadata?.annotations?.[pauseAnnotation(ref)] !== undefined,
    finalizers: obj.metadata?.finalizers ?? [],
  }
}

/** The state of every source `refs` names, read per type and namespace (see readNamed). */
async function readSources(
  kube: KubeClient,
  refs: readonly SourceRef[],
): Promise<Map<string, SourceState>> {
  const groups = new Map<string, SourceRef[]>()
  for (const ref of refs) {
    const key = `${ref.type.plural}.${ref.type.group}/${ref.type.version}/${ref.namespace}`
    groups.set(key, [...(groups.get(key) ?? []), ref])
  }
  const sources = new Map<string, SourceState>()
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const first = group[0] as SourceRef
      const names = group.map((r) => r.name)
      const found = await readNamed<KubeObject>(kube, first.type, first.namespace, names)
      for (const ref of group) sources.set(sourceKey(ref), sourceState(ref, found.get(ref.name)))
    }),
  )
  return sources
}

/** What plan.ts needs for `unit`, read now. */
export async function readTargetState(deps: ObserveDeps, unit: AdoptionUnit): Promise<TargetState> {
  const ns = unit.namespace
  const refs = [...unit.pause, ...unit.releaseAfter, ...unit.machines.flatMap((m) => m.release)]
  const sources = await readSources(deps.kube, refs)
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
  const machines = await readNamed<MachineObject & KubeObject>(
    deps.kube,
    machineApiTypes.machine,
    ns,
    unit.machines.map((m) => m.name),
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
