/**
 * @module Whether one source Machine can be taken over: its providerID names an instance EC2
 * knows and runs, its Node joined and names that instance, and nothing is deleting it. Pure.
 */

import type { ResourceType } from '../../kube/resource'
import { parseAwsProviderID } from '../../providers/aws/provider-id'
import type { InstanceFacts } from '../instances'
import { type AdoptionProblem, blocking } from '../problems'
import { describeRef, type SourceObject, type SourceRef } from '../source-types'
import type { AdoptedMachine } from '../unit'

/** A Node as adoption reads it. */
export interface NodeFacts {
  name: string
  providerID?: string | undefined
  /** The machine-api Machine (`namespace/name`) the Node is linked to, if any. */
  linkedMachine?: string | undefined
}

/** What the checks look at. */
export interface SourceMachineFacts {
  object: string
  providerID: string | undefined
  /** Where providerID sits in the object (`spec.providerID`). */
  providerIdPath: string
  nodeName: string | undefined
  deleting: boolean
}

/** The instance a source Machine runs, or the problems that stop its adoption. */
export function checkSourceMachine(
  machine: SourceMachineFacts,
  instances: ReadonlyMap<string, InstanceFacts>,
  nodes: ReadonlyMap<string, NodeFacts>,
): { instance?: InstanceFacts; nodeName?: string; problems: AdoptionProblem[] } {
  const { object } = machine
  if (machine.deleting) {
    return { problems: [blocking(object, 'metadata.deletionTimestamp', 'is being deleted')] }
  }
  const id = parseAwsProviderID(machine.providerID)
  if (!id) {
    const message = machine.providerID
      ? `${machine.providerID} is not an aws providerID (aws:///<zone>/<instance id>)`
      : 'is not set: the Machine has no instance yet'
    return { problems: [blocking(object, machine.providerIdPath, message)] }
  }
  const instance = instances.get(id)
  if (!instance || !['pending', 'running', 'stopping', 'stopped'].includes(instance.state)) {
    const state = instance ? `is ${instance.state}` : 'does not exist'
    return { problems: [blocking(object, machine.providerIdPath, `instance ${id} ${state}`)] }
  }
  const problems = nodeProblems(object, machine.nodeName, instance, nodes)
  return problems.length > 0
    ? { problems }
    : { instance, nodeName: machine.nodeName ?? '', problems }
}

/** The Node must exist and name the instance: it is what the adopted Machine links to. */
export function nodeProblems(
  object: string,
  nodeName: string | undefined,
  instance: InstanceFacts,
  nodes: ReadonlyMap<string, NodeFacts>,
): AdoptionProblem[] {
  if (!nodeName) {
    return [blocking(object, 'status.nodeRef', 'has no Node: adopt a Machine once its Node joined')]
  }
  const node = nodes.get(nodeName)
  if (!node) return [blocking(object, 'status.nodeRef.name', `Node ${nodeName} does not exist`)]
  if (parseAwsProviderID(node.providerID) !== instance.id) {
    return [
      blocking(
        object,
        'status.nodeRef.name',
        `Node ${nodeName} has providerID ${node.providerID ?? '(none)'}, not instance ${instance.id}`,
      ),
    ]
  }
  return []
}

/** The ref of a source object of `type`. */
export function sourceRefOf(type: ResourceType, obj: SourceObject): SourceRef {
  return { type, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name }
}

/**
 * The replicas a set declares (absent: 1, as both APIs default it), with what blocks it: a value
 * that is not a whole number (the source is not what its API makes), or Machines that do not
 * match it (still converging: adopt it once settled).
 */
export function replicasOf(
  title: string,
  value: unknown,
  machines: number,
): { replicas: number; problems: AdoptionProblem[] } {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
    const message = `is ${JSON.stringify(value)}; must be a whole number`
    return { replicas: 0, problems: [blocking(title, 'spec.replicas', message)] }
  }
  const replicas = (value as number | undefined) ?? 1
  if (machines === replicas) return { replicas, problems: [] }
  const message = `is ${replicas} but ${machines} Machines exist: adopt it once it settled`
  const problem = blocking(title, 'spec.replicas', message)
  // Fewer is also what an adoption killed while releasing the Machines (bottom-up) leaves.
  return {
    replicas,
    problems: [machines < replicas ? { ...problem, leftByRelease: true } : problem],
  }
}

/**
 * The source Machines of a set, in name order, as adopted Machines of the same name: each
 * checked (checkSourceMachine), its problems added to `problems`, released as `release` says.
 */
export function adoptSetMachines(input: {
  machines: readonly SourceObject[]
  type: ResourceType
  instances: ReadonlyMap<string, InstanceFacts>
  nodes: ReadonlyMap<string, NodeFacts>
  problems: AdoptionProblem[]
  /** The source objects released once the adopted Machine runs (its own ref given). */
  release: (machine: SourceObject, ref: SourceRef) => SourceRef[]
}): AdoptedMachine[] {
  const adopted: AdoptedMachine[] = []
  const sorted = [...input.machines].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
  for (const machine of sorted) {
    const ref = sourceRefOf(input.type, machine)
    const spec = (machine.spec ?? {}) as { providerID?: string }
    const status = (machine.status ?? {}) as { nodeRef?: { name?: string } }
    const checked = checkSourceMachine(
      {
        object: describeRef(ref),
        providerID: spec.providerID,
        providerIdPath: 'spec.providerID',
        nodeName: status.nodeRef?.name,
        deleting: machine.metadata.deletionTimestamp !== undefined,
      },
      input.instances,
      input.nodes,
    )
    input.problems.push(...checked.problems)
    if (!checked.instance) continue
    adopted.push({
      name: machine.metadata.name,
      instance: checked.instance,
      nodeName: checked.nodeName ?? '',
      release: input.release(machine, ref),
    })
  }
  return adopted
}
