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
import { describeRef, type SourceObject, type SourceRef, sourceTypes } from '../source-types'
import { classManifest, setManifest, specProblems, type TargetOptions } from '../targets'
import type { AdoptedMachine, AdoptionUnit } from '../unit'
import { healthCheckProblems } from './health-checks'
import { checkSourceMachine, type NodeFacts } from './machine-checks'

type Json = Record<string, unknown>

/** What was read for one OpenShift MachineSet. */
export interface OpenShiftObserved {
  set: SourceObject
  machines: SourceObject[]
  healthChecks: SourceObject[]
  instances: ReadonlyMap<string, InstanceFacts>
  nodes: ReadonlyMap<string, NodeFacts>
}

function ref(type: SourceRef['type'], obj: SourceObject): SourceRef {
  return { type, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name }
}

/** The unit for `obs`, with every problem found. */
export function openshiftUnit(obs: OpenShiftObserved, options: TargetOptions): AdoptionUnit {
  const setRef = ref(sourceTypes.openshiftSet, obs.set)
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
  const replicas = typeof setSpec.replicas === 'number' ? setSpec.replicas : 1
  if (obs.machines.length !== replicas) {
    problems.push(
      untranslatable(
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
    const machineRef = ref(sourceTypes.openshiftMachine, machine)
    const mSpec = (machine.spec ?? {}) as Json
    const status = (machine.status ?? {}) as { nodeRef?: { name?: string } }
    const checked = checkSourceMachine(
      {
        object: describeRef(machineRef),
        providerID: mSpec.providerID as string | undefined,
        providerIdPath: 'spec.providerID',
        nodeName: status.nodeRef?.name,
        deleting: machine.metadata.deletionTimestamp !== undefined,
      },
      obs.instances,
      obs.nodes,
    )
    problems.push(...checked.problems)
    if (checked.instance) {
      machines.push({
        name: machine.metadata.name,
        instance: checked.instance,
        nodeName: checked.nodeName ?? '',
        release: [machineRef],
      })
    }
  }
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
