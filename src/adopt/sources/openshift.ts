/**
 * @module An OpenShift machine.openshift.io MachineSet with the AWS providerSpec, as an adoption
 * unit. Pure. It becomes a machine-api MachineSet of the same name over a MachineClass translated
 * from the template's AWSMachineProviderConfig; the credentials and user-data Secrets it names
 * move to the class (they must exist in the target namespace: machine-api reads Secrets only
 * there). Its controller must be stopped (observe.ts checks the Deployment): OpenShift's own
 * objects have no pause annotation that machine-api could set without handing them to Cluster API.
 */
import type { InstanceFacts } from '../instances'
import { specFromOpenShift } from '../openshift-spec'
import { type AdoptionProblem, untranslatable } from '../problems'
import { describeRef, type SourceObject, sourceTypes } from '../source-types'
import { classManifest, setManifest, specProblems, type TargetOptions } from '../targets'
import type { AdoptionUnit } from '../unit'
import { healthCheckProblems } from './health-checks'
import { adoptSetMachines, type NodeFacts, replicasOf, sourceRefOf } from './machine-checks'

type Json = Record<string, unknown>

/** What was read for one OpenShift MachineSet. */
export interface OpenShiftObserved {
  set: SourceObject
  machines: SourceObject[]
  healthChecks: SourceObject[]
  instances: ReadonlyMap<string, InstanceFacts>
  nodes: ReadonlyMap<string, NodeFacts>
}

/** The unit for `obs`, with every problem found. */
export function openshiftUnit(obs: OpenShiftObserved, options: TargetOptions): AdoptionUnit {
  const setRef = sourceRefOf(sourceTypes.openshiftSet, obs.set)
  const title = describeRef(setRef)
  const setSpec = (obs.set.spec ?? {}) as Json
  const template = (setSpec.template ?? {}) as {
    metadata?: { labels?: Record<string, string> }
    spec?: Json
  }
  const problems: AdoptionProblem[] = []
  const value = ((template.spec?.providerSpec as Json | undefined)?.value ?? {}) as Json
  const translation = specFromOpenShift(value, title)
  problems.push(...translation.problems)
  problems.push(...specProblems(translation.spec, title, 'spec.template.spec.providerSpec.value'))
  for (const key of Object.keys(template.spec ?? {})) {
    if (
      !['providerSpec', 'metadata', 'taints', 'lifecycleHooks', 'authoritativeAPI'].includes(key)
    ) {
      problems.push(
        untranslatable(title, `spec.template.spec.${key}`, 'machine-api has no equivalent'),
      )
    }
  }
  const { replicas, problems: replicaProblems } = replicasOf(
    title,
    setSpec.replicas,
    obs.machines.length,
  )
  problems.push(...replicaProblems)
  const machines = adoptSetMachines({
    machines: obs.machines,
    type: sourceTypes.openshiftMachine,
    instances: obs.instances,
    nodes: obs.nodes,
    problems,
    release: (_machine, machineRef) => [machineRef],
  })
  const labels = { ...template.metadata?.labels }
  problems.push(...healthCheckProblems(obs.healthChecks, labels, sourceTypes.openshiftHealthCheck))
  const name = obs.set.metadata.name
  const secrets = {
    namespace: options.namespace,
    credentialsSecret: options.credentialsSecret ?? translation.secrets.credentials,
    userDataSecret: options.userDataSecret ?? translation.secrets.userData,
  }
  return {
    title,
    namespace: options.namespace,
    pause: [setRef],
    releaseAfter: [setRef],
    machineClass: classManifest(name, translation.spec, title, secrets),
    set: setManifest({
      name,
      className: name,
      replicas,
      source: title,
      labels,
      deletePolicy: typeof setSpec.deletePolicy === 'string' ? setSpec.deletePolicy : undefined,
      namespace: options.namespace,
    }),
    machines,
    problems,
    notes: [],
  }
}
