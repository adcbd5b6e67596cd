/**
 * @module The machine-api objects an adoption creates: the MachineClass, the MachineDeployment or
 * MachineSet, and each Machine. Pure. Each carries the adopted-from annotation, which is how a
 * rerun tells its own objects from someone else's of the same name.
 */
import { HUB_API_VERSION, LABELS } from '../api/group'
import { awsProviderSpecSchema } from '../providers/aws/spec'
import { desiredMachine } from '../reconcile/machine-set/machine-template'
import type { MachineObject, MachineSetObject } from '../reconcile/machine-set/types'
import { type InstanceFacts, providerIdOf } from './instances'
import { type AdoptionProblem, blocking } from './problems'
import { ADOPTED_FROM, type AdoptedMachine } from './unit'

type Json = Record<string, unknown>

/** Where the target objects go and which Secrets the class names. */
export interface TargetOptions {
  namespace: string
  credentialsSecret?: string | undefined
  userDataSecret?: string | undefined
}

/** The `aws` spec's refusals (the admission webhook's own schema), at their paths under `path`. */
export function specProblems(spec: Json, object: string, path: string): AdoptionProblem[] {
  const parsed = awsProviderSpecSchema().safeParse(spec)
  if (parsed.success) return []
  return parsed.error.issues.map((issue) =>
    blocking(object, [path, ...issue.path.map(String)].join('.'), issue.message),
  )
}

/** The MachineClass for a set's translated spec. */
export function classManifest(
  name: string,
  spec: Json,
  source: string,
  options: TargetOptions,
): Json {
  return {
    apiVersion: HUB_API_VERSION,
    kind: 'MachineClass',
    metadata: { name, namespace: options.namespace, annotations: { [ADOPTED_FROM]: source } },
    spec: {
      provider: 'aws',
      providerSpec: spec,
      ...(options.credentialsSecret
        ? { credentialsSecretRef: { name: options.credentialsSecret } }
        : {}),
      ...(options.userDataSecret ? { userDataSecretRef: { name: options.userDataSecret } } : {}),
    },
  }
}

/** A created object's metadata: named, and marked with the source it was adopted from. */
function adoptedMetadata(input: { name: string; namespace: string; source: string }) {
  return {
    name: input.name,
    namespace: input.namespace,
    annotations: { [ADOPTED_FROM]: input.source },
  }
}

/** The template every adopted set uses: the class, and the label that selects its Machines. */
function template(
  labelKey: string,
  name: string,
  className: string,
  labels: Record<string, string>,
) {
  return {
    metadata: { labels: { ...labels, [labelKey]: name } },
    spec: { classRef: { name: className } },
  }
}

/** A MachineDeployment of `replicas`, created paused: with no set yet it makes none. */
export function deploymentManifest(input: {
  name: string
  className: string
  replicas: number
  source: string
  labels: Record<string, string>
  strategy?: Json | undefined
  minReadySeconds?: number | undefined
  namespace: string
}): Json {
  return {
    apiVersion: HUB_API_VERSION,
    kind: 'MachineDeployment',
    metadata: adoptedMetadata(input),
    spec: {
      replicas: input.replicas,
      paused: true,
      selector: { matchLabels: { [LABELS.deploymentName]: input.name } },
      template: template(LABELS.deploymentName, input.name, input.className, input.labels),
      ...(input.strategy ? { strategy: input.strategy } : {}),
      ...(input.minReadySeconds ? { minReadySeconds: input.minReadySeconds } : {}),
    },
  }
}

/** A standalone MachineSet of `replicas`, created once its Machines exist (it adopts them). */
export function setManifest(input: {
  name: string
  className: string
  replicas: number
  source: string
  labels: Record<string, string>
  deletePolicy?: string | undefined
  namespace: string
}): Json {
  return {
    apiVersion: HUB_API_VERSION,
    kind: 'MachineSet',
    metadata: adoptedMetadata(input),
    spec: {
      replicas: input.replicas,
      selector: { matchLabels: { [LABELS.setName]: input.name } },
      template: template(LABELS.setName, input.name, input.className, input.labels),
      ...(input.deletePolicy ? { deletePolicy: input.deletePolicy } : {}),
    },
  }
}

/**
 * The Machine for `adopted`: what `set` would create for that slot (labels, template hash, zone),
 * not yet owned (the set adopts it once created), or a standalone Machine with its inline spec;
 * either way recording the instance as its own, so its controller launches nothing.
 */
export function machineManifest(
  adopted: AdoptedMachine,
  set: MachineSetObject | undefined,
  source: string,
  namespace: string,
): MachineObject {
  const zone = adopted.instance.zone
  const base: MachineObject = set
    ? desiredMachine(set, adopted.name, zone)
    : {
        apiVersion: HUB_API_VERSION,
        kind: 'Machine',
        metadata: { name: adopted.name, namespace },
        spec: {
          providerSpec: { provider: 'aws', value: adopted.inlineSpec ?? {} },
          failureDomain: zone,
        },
      }
  const { ownerReferences: _owner, ...metadata } = base.metadata
  return {
    ...base,
    metadata: {
      ...metadata,
      namespace,
      annotations: { ...metadata.annotations, [ADOPTED_FROM]: source },
    },
    spec: { ...base.spec, providerID: providerIdOf(adopted.instance) },
  }
}

/** The inline spec of an unmanaged instance: what it runs, as it runs it. */
export function specFromInstance(facts: InstanceFacts, credentialsSecret?: string): Json {
  return {
    region: facts.region,
    ami: { id: facts.imageId ?? '' },
    instanceType: facts.instanceType ?? '',
    ...(facts.subnetId ? { subnet: { id: facts.subnetId } } : {}),
    ...(facts.securityGroupIds.length > 0
      ? { securityGroups: facts.securityGroupIds.map((id) => ({ id })) }
      : {}),
    ...(facts.iamInstanceProfileArn
      ? { iamInstanceProfile: { arn: facts.iamInstanceProfileArn } }
      : {}),
    ...(facts.keyName ? { keyName: facts.keyName } : {}),
    ...(facts.spot ? { capacityTypes: ['spot'] } : {}),
    placement: { availabilityZone: facts.zone },
    ...(credentialsSecret ? { credentialsSecret: { name: credentialsSecret } } : {}),
  }
}
