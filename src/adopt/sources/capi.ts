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
import { describeRef, type SourceObject, sourceTypes } from '../source-types'
import { classManifest, deploymentManifest, specProblems, type TargetOptions } from '../targets'
import type { AdoptionUnit } from '../unit'
import { healthCheckProblems } from './health-checks'
import { adoptSetMachines, type NodeFacts, replicasOf, sourceRefOf } from './machine-checks'

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

const spec = (obj: SourceObject | undefined): Json => (obj?.spec ?? {}) as Json

/** The unit for `obs`, with every problem found. */
export function capiUnit(obs: CapiObserved, options: TargetOptions): AdoptionUnit {
  const md = obs.deployment
  const mdRef = sourceRefOf(sourceTypes.capiDeployment, md)
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
  const { replicas, problems: replicaProblems } = replicasOf(
    title,
    mdSpec.replicas,
    obs.machines.length,
  )
  problems.push(...replicaProblems)
  const machines = adoptSetMachines({
    machines: obs.machines,
    type: sourceTypes.capiMachine,
    instances: obs.instances,
    nodes: obs.nodes,
    problems,
    release: (machine, machineRef) => {
      const infraName = (spec(machine).infrastructureRef as { name?: string } | undefined)?.name
      const infra = infraName ? obs.awsMachines.get(infraName) : undefined
      return [...(infra ? [sourceRefOf(sourceTypes.awsMachine, infra)] : []), machineRef]
    },
  })
  problems.push(
    ...healthCheckProblems(obs.healthChecks, templateLabels(md), sourceTypes.capiHealthCheck),
  )
  const templateObject = obs.template
    ? describeRef(sourceRefOf(sourceTypes.awsMachineTemplate, obs.template))
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
    pause: [mdRef, ...obs.sets.map((s) => sourceRefOf(sourceTypes.capiSet, s))],
    releaseAfter: [...obs.sets.map((s) => sourceRefOf(sourceTypes.capiSet, s)), mdRef],
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
