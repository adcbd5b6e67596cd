/**
 * @module A Cluster API MachineDeployment backed by CAPA, as an adoption unit. Pure: observe.ts
 * reads the objects. The deployment becomes a machine-api MachineDeployment of the same name and
 * strategy over a MachineClass translated from its AWSMachineTemplate; each Machine keeps its name
 * and its instance. A deployment in the middle of a rollout (more than one set with Machines) or
 * whose Machines do not match its replicas is refused: adopt it once it settled.
 */
import { specFromCapaTemplate, type Translation } from '../capa-spec'
import type { InstanceFacts } from '../instances'
import { type AdoptionProblem, blocking, untranslatable } from '../problems'
import { describeRef, type SourceObject, type SourceRef, sourceTypes } from '../source-types'
import { classManifest, deploymentManifest, specProblems, type TargetOptions } from '../targets'
import type { AdoptedMachine, AdoptionUnit } from '../unit'
import { healthCheckProblems } from './health-checks'
import { checkSourceMachine, type NodeFacts } from './machine-checks'

type Json = Record<string, unknown>

/** What was read for one CAPI MachineDeployment. */
export interface CapiObserved {
  deployment: SourceObject
  /** Its MachineSets (controller owner reference). */
  sets: SourceObject[]
  /** The Machines of those sets. */
  machines: SourceObject[]
  /** AWSMachines by name. */
  awsMachines: ReadonlyMap<string, SourceObject>
  template: SourceObject | undefined
  healthChecks: SourceObject[]
  instances: ReadonlyMap<string, InstanceFacts>
  nodes: ReadonlyMap<string, NodeFacts>
}

function ref(type: SourceRef['type'], obj: SourceObject): SourceRef {
  return { type, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name }
}

const spec = (obj: SourceObject | undefined): Json => (obj?.spec ?? {}) as Json

/** The unit for `obs`, with every problem found. */
export function capiUnit(obs: CapiObserved, options: TargetOptions): AdoptionUnit {
  const md = obs.deployment
  const mdRef = ref(sourceTypes.capiDeployment, md)
  const title = describeRef(mdRef)
  const problems: AdoptionProblem[] = []
  const mdSpec = spec(md)
  const templateSpec = ((mdSpec.template as Json | undefined)?.spec ?? {}) as Json
  const infraRef = (templateSpec.infrastructureRef ?? {}) as Json
  if (infraRef.kind !== 'AWSMachineTemplate') {
    problems.push(
      blocking(
        title,
        'spec.template.spec.infrastructureRef.kind',
        `is ${String(infraRef.kind)}; only CAPA's AWSMachineTemplate is adopted`,
      ),
    )
  } else if (!obs.template) {
    problems.push(
      blocking(
        title,
        'spec.template.spec.infrastructureRef.name',
        `AWSMachineTemplate ${String(infraRef.name)} does not exist`,
      ),
    )
  }
  const withMachines = obs.sets.filter((s) =>
    obs.machines.some((m) => m.metadata.ownerReferences?.some((o) => o.uid === s.metadata.uid)),
  )
  if (withMachines.length > 1) {
    problems.push(
      blocking(
        title,
        'status',
        `is rolling out (${withMachines.length} MachineSets have Machines): adopt it once the rollout finished`,
      ),
    )
  }
  const replicas = typeof mdSpec.replicas === 'number' ? mdSpec.replicas : 1
  if (obs.machines.length !== replicas) {
    problems.push(
      blocking(
        title,
        'spec.replicas',
        `is ${replicas} but ${obs.machines.length} Machines exist: adopt it once it settled`,
      ),
    )
  }
  const machines: AdoptedMachine[] = []
  for (const machine of [...obs.machines].sort((a, b) =>
    a.metadata.name.localeCompare(b.metadata.name),
  )) {
    const adopted = adoptedMachine(machine, obs, problems)
    if (adopted) machines.push(adopted)
  }
  problems.push(
    ...healthCheckProblems(obs.healthChecks, templateLabels(md), sourceTypes.capiHealthCheck),
  )
  const templateObject = obs.template
    ? describeRef(ref(sourceTypes.awsMachineTemplate, obs.template))
    : title
  const translation: Translation = obs.template
    ? specFromCapaTemplate(
        ((spec(obs.template).template as Json | undefined)?.spec ?? {}) as Json,
        templateObject,
        machines.map((m) => m.instance),
      )
    : { spec: {}, problems: [] }
  problems.push(...translation.problems)
  if (obs.template && machines.length > 0) {
    problems.push(...specProblems(translation.spec, templateObject, 'spec.template.spec'))
  }
  for (const key of Object.keys(mdSpec)) {
    if (
      ![
        'clusterName',
        'replicas',
        'selector',
        'template',
        'strategy',
        'minReadySeconds',
        'paused',
        'revisionHistoryLimit',
        'progressDeadlineSeconds',
      ].includes(key)
    ) {
      problems.push(untranslatable(title, `spec.${key}`, 'machine-api has no equivalent'))
    }
  }
  const name = md.metadata.name
  const notes = options.userDataSecret
    ? []
    : [
        `${title}: no --user-data-secret: Machines the adopted deployment launches later get no bootstrap data`,
      ]
  return {
    title,
    namespace: options.namespace,
    pause: [mdRef, ...obs.sets.map((s) => ref(sourceTypes.capiSet, s))],
    releaseAfter: [...obs.sets.map((s) => ref(sourceTypes.capiSet, s)), mdRef],
    machineClass: classManifest(name, translation.spec, title, options),
    deployment: deploymentManifest({
      name,
      className: name,
      replicas,
      source: title,
      labels: templateLabels(md),
      strategy: strategyOf(mdSpec.strategy as Json | undefined),
      minReadySeconds:
        typeof mdSpec.minReadySeconds === 'number' ? mdSpec.minReadySeconds : undefined,
      namespace: options.namespace,
    }),
    machines,
    problems,
    notes,
  }
}

function templateLabels(md: SourceObject): Record<string, string> {
  const template = spec(md).template as
    | { metadata?: { labels?: Record<string, string> } }
    | undefined
  return { ...template?.metadata?.labels }
}

/** RollingUpdate(maxSurge, maxUnavailable, deletePolicy) or OnDelete: the same in both APIs. */
function strategyOf(strategy: Json | undefined): Json | undefined {
  if (!strategy) return undefined
  const type = strategy.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate'
  const rolling = (strategy.rollingUpdate ?? {}) as Json
  const rollingUpdate: Json = {}
  for (const key of ['maxSurge', 'maxUnavailable', 'deletePolicy']) {
    if (rolling[key] !== undefined) rollingUpdate[key] = rolling[key]
  }
  return { type, ...(Object.keys(rollingUpdate).length > 0 ? { rollingUpdate } : {}) }
}

function adoptedMachine(
  machine: SourceObject,
  obs: CapiObserved,
  problems: AdoptionProblem[],
): AdoptedMachine | undefined {
  const machineRef = ref(sourceTypes.capiMachine, machine)
  const object = describeRef(machineRef)
  const mSpec = spec(machine)
  const status = (machine.status ?? {}) as { nodeRef?: { name?: string } }
  const checked = checkSourceMachine(
    {
      object,
      providerID: mSpec.providerID as string | undefined,
      providerIdPath: 'spec.providerID',
      nodeName: status.nodeRef?.name,
      deleting: machine.metadata.deletionTimestamp !== undefined,
    },
    obs.instances,
    obs.nodes,
  )
  problems.push(...checked.problems)
  if (!checked.instance) return undefined
  const infraName = (mSpec.infrastructureRef as { name?: string } | undefined)?.name
  const infra = infraName ? obs.awsMachines.get(infraName) : undefined
  const release = [...(infra ? [ref(sourceTypes.awsMachine, infra)] : []), machineRef]
  return {
    name: machine.metadata.name,
    instance: checked.instance,
    nodeName: checked.nodeName ?? '',
    release,
  }
}
