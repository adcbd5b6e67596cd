/**
 * @module From an adopt request to its units: reads the source objects it names and builds each
 * unit with sources/. Reads only. A source that an earlier run already released entirely (its
 * objects gone, the machine-api objects there) is reported as adopted instead of missing.
 */
import type { KubeClient } from '../kube/kube-client'
import { coreTypes, type KubeObject } from '../kube/resource'
import { describeByTags, type InstanceFacts } from './instances'
import { listAll, nodeFactsOf, type ObserveDeps, readInstances, readNodes } from './observe'
import { blocking } from './problems'
import { OPENSHIFT_CONTROLLERS, type SourceObject, sourceTypes } from './source-types'
import { capiUnit } from './sources/capi'
import { instancesUnit } from './sources/instances'
import { openshiftUnit } from './sources/openshift'
import type { TargetOptions } from './targets'
import type { AdoptionUnit } from './unit'

/** What to adopt. */
export type AdoptSource =
  | { from: 'capi' | 'openshift'; namespace: string; name?: string | undefined }
  | {
      from: 'instances'
      tags: Record<string, string>
      nodeSelector?: string | undefined
      namePrefix: string
    }

const controlledBy = (obj: SourceObject, owners: readonly SourceObject[]) =>
  obj.metadata.ownerReferences?.some(
    (o) => o.controller === true && owners.some((owner) => owner.metadata.uid === o.uid),
  ) ?? false

const byName = (name: string | undefined) => (obj: SourceObject) =>
  name === undefined || obj.metadata.name === name

/** The units of `source`, each with the problems found. */
export async function readUnits(
  deps: ObserveDeps,
  source: AdoptSource,
  options: TargetOptions,
): Promise<AdoptionUnit[]> {
  switch (source.from) {
    case 'capi':
      return await readCapi(deps, source, options)
    case 'openshift':
      return await readOpenShift(deps, source, options)
    case 'instances':
      return [await readUnmanaged(deps, source, options)]
  }
}

async function readCapi(
  deps: ObserveDeps,
  source: { namespace: string; name?: string | undefined },
  options: TargetOptions,
): Promise<AdoptionUnit[]> {
  const ns = source.namespace
  const [deployments, sets, machines, awsMachines, templates, healthChecks] = await Promise.all([
    listAll(deps.kube, sourceTypes.capiDeployment, ns),
    listAll(deps.kube, sourceTypes.capiSet, ns),
    listAll(deps.kube, sourceTypes.capiMachine, ns),
    listAll(deps.kube, sourceTypes.awsMachine, ns),
    listAll(deps.kube, sourceTypes.awsMachineTemplate, ns),
    listAll(deps.kube, sourceTypes.capiHealthCheck, ns),
  ])
  const chosen = deployments.filter(byName(source.name))
  if (chosen.length === 0)
    return [missing('MachineDeployment.cluster.x-k8s.io', ns, source.name, options)]
  const units: AdoptionUnit[] = []
  for (const md of chosen) {
    const mdSets = sets.filter((s) => controlledBy(s, [md]))
    const mdMachines = machines.filter((m) => controlledBy(m, mdSets))
    const infraName = (
      md.spec as { template?: { spec?: { infrastructureRef?: { name?: string } } } }
    ).template?.spec?.infrastructureRef?.name
    const instances = await readInstances(
      deps,
      mdMachines.map((m) => (m.spec as { providerID?: string }).providerID),
    )
    const nodes = await readNodes(
      deps.kube,
      mdMachines.map((m) => nodeRefName(m)),
    )
    units.push(
      capiUnit(
        {
          deployment: md,
          sets: mdSets,
          machines: mdMachines,
          awsMachines: new Map(awsMachines.map((a) => [a.metadata.name, a])),
          template: templates.find((t) => t.metadata.name === infraName),
          healthChecks,
          instances,
          nodes,
        },
        options,
      ),
    )
  }
  return units
}

async function readOpenShift(
  deps: ObserveDeps,
  source: { namespace: string; name?: string | undefined },
  options: TargetOptions,
): Promise<AdoptionUnit[]> {
  const ns = source.namespace
  const [sets, machines, healthChecks] = await Promise.all([
    listAll(deps.kube, sourceTypes.openshiftSet, ns),
    listAll(deps.kube, sourceTypes.openshiftMachine, ns),
    listAll(deps.kube, sourceTypes.openshiftHealthCheck, ns),
  ])
  const chosen = sets.filter(byName(source.name))
  if (chosen.length === 0)
    return [missing('MachineSet.machine.openshift.io', ns, source.name, options)]
  const running = await openshiftControllersRunning(deps.kube)
  const units: AdoptionUnit[] = []
  for (const set of chosen) {
    const setMachines = machines.filter((m) => controlledBy(m, [set]))
    const instances = await readInstances(
      deps,
      setMachines.map((m) => (m.spec as { providerID?: string }).providerID),
    )
    const nodes = await readNodes(
      deps.kube,
      setMachines.map((m) => nodeRefName(m)),
    )
    const unit = openshiftUnit(
      { set, machines: setMachines, healthChecks, instances, nodes },
      options,
    )
    if (running) {
      unit.problems.push(
        blocking(
          `Deployment/${OPENSHIFT_CONTROLLERS.namespace}/${OPENSHIFT_CONTROLLERS.name}`,
          'spec.replicas',
          `runs ${running} replica(s): stop OpenShift's Machine controllers first (docs/migration.md: scale the machine-api-operator and this Deployment to 0)`,
        ),
      )
    }
    units.push(unit)
  }
  return units
}

/** Replicas of OpenShift's Machine controllers Deployment (0 when absent). */
async function openshiftControllersRunning(kube: KubeClient): Promise<number> {
  const type = {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
  }
  const deployment = await kube.get<KubeObject>(type, OPENSHIFT_CONTROLLERS)
  return ((deployment?.spec as { replicas?: number } | undefined)?.replicas ?? 0) as number
}

async function readUnmanaged(
  deps: ObserveDeps,
  source: { tags: Record<string, string>; nodeSelector?: string | undefined; namePrefix: string },
  options: TargetOptions,
): Promise<AdoptionUnit> {
  const allNodes: KubeObject[] = []
  const page = await deps.kube.list<KubeObject>(coreTypes.node, {
    ...(source.nodeSelector ? { labelSelector: source.nodeSelector } : {}),
  })
  allNodes.push(...page.items)
  const selectedNodes = source.nodeSelector ? allNodes.map(nodeFactsOf) : undefined
  let instances: InstanceFacts[]
  if (Object.keys(source.tags).length > 0) {
    instances = await describeByTags(deps.ec2, source.tags, deps.signal)
    if (selectedNodes) {
      const named = new Set(selectedNodes.map((n) => n.providerID))
      instances = instances.filter((i) => named.has(`aws:///${i.zone}/${i.id}`))
    }
  } else {
    instances = [
      ...(
        await readInstances(
          deps,
          (selectedNodes ?? []).map((n) => n.providerID),
        )
      ).values(),
    ]
  }
  const nodes = source.nodeSelector
    ? (selectedNodes ?? [])
    : (await deps.kube.list<KubeObject>(coreTypes.node, {})).items.map(nodeFactsOf)
  const selection = [
    ...Object.entries(source.tags).map(([k, v]) => `tag ${k}=${v}`),
    ...(source.nodeSelector ? [`nodes ${source.nodeSelector}`] : []),
  ].join(', ')
  return instancesUnit(
    {
      selection,
      instances,
      nodes,
      selectedNodes,
      namePrefix: source.namePrefix,
      credentialsSecret: options.credentialsSecret,
    },
    options.namespace,
  )
}

function nodeRefName(machine: SourceObject): string {
  return (machine.status as { nodeRef?: { name?: string } } | undefined)?.nodeRef?.name ?? ''
}

function missing(
  kind: string,
  ns: string,
  name: string | undefined,
  options: TargetOptions,
): AdoptionUnit {
  const title = `${kind}/${ns}/${name ?? '*'}`
  // What an earlier run made of it, if it adopted and released it: looked up by name.
  const made = name ? { metadata: { name } } : undefined
  return {
    title,
    namespace: options.namespace,
    ...(kind.startsWith('MachineDeployment') ? { deployment: made } : { set: made }),
    pause: [],
    releaseAfter: [],
    machines: [],
    problems: [
      blocking(title, 'metadata.name', name ? 'does not exist' : 'none in this namespace'),
    ],
    notes: [],
    sourceMissing: true,
  }
}
