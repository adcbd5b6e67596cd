/**
 * @module Unmanaged EC2 instances (chosen by tags or by the Nodes that run on them) as an adoption
 * unit of standalone Machines, each with an inline spec of what its instance runs. Pure. A Node
 * of the selection whose providerID names no instance is a problem, as is an instance without a
 * Node: a Machine must link to the Node it takes over.
 */
import { parseAwsProviderID } from '../../providers/aws/provider-id'
import type { InstanceFacts } from '../instances'
import { type AdoptionProblem, blocking } from '../problems'
import { specFromInstance, specProblems } from '../targets'
import type { AdoptedMachine, AdoptionUnit } from '../unit'
import { type NodeFacts, nodeProblems } from './machine-checks'

/** What was read for an unmanaged selection. */
export interface InstancesObserved {
  /** How the instances were chosen, for messages (`tags team=legacy`, `nodes role=legacy`). */
  selection: string
  /** The instances chosen by tags, or those the selected Nodes name. */
  instances: readonly InstanceFacts[]
  /** Every Node read: the selected ones, or (for tag selection) those naming the instances. */
  nodes: readonly NodeFacts[]
  /** With a Node selector: the Nodes it chose, each of which must name an instance. */
  selectedNodes?: readonly NodeFacts[] | undefined
  /** Prefix of the Machine names (`<prefix>-<instance id>`). */
  namePrefix: string
  credentialsSecret?: string | undefined
}

/** The unit for `obs`. */
export function instancesUnit(obs: InstancesObserved, namespace: string): AdoptionUnit {
  const title = `instances (${obs.selection})`
  const problems: AdoptionProblem[] = []
  const byInstance = new Map<string, NodeFacts>()
  for (const node of obs.nodes) {
    const id = parseAwsProviderID(node.providerID)
    if (id) byInstance.set(id, node)
  }
  const known = new Set(obs.instances.map((i) => i.id))
  for (const node of obs.selectedNodes ?? []) {
    const id = parseAwsProviderID(node.providerID)
    if (!id || !known.has(id)) {
      problems.push(
        blocking(
          `Node/${node.name}`,
          'spec.providerID',
          `${node.providerID ?? '(none)'} names no instance EC2 knows`,
        ),
      )
    }
  }
  if (obs.instances.length === 0 && (obs.selectedNodes ?? []).length === 0) {
    problems.push(blocking(title, 'selection', 'selects no instance'))
  }
  const nodes = new Map(obs.nodes.map((n) => [n.name, n]))
  const machines: AdoptedMachine[] = []
  for (const instance of [...obs.instances].sort((a, b) => a.id.localeCompare(b.id))) {
    const object = `instance ${instance.id}`
    const node = byInstance.get(instance.id)
    const found = nodeProblems(object, node?.name, instance, nodes)
    const spec = specFromInstance(instance, obs.credentialsSecret)
    found.push(...specProblems(spec, object, 'spec.providerSpec.value'))
    problems.push(
      ...found.map((p) =>
        p.path === 'status.nodeRef'
          ? { ...p, path: 'node', message: 'no Node names this instance in its spec.providerID' }
          : p,
      ),
    )
    if (found.length === 0 && node) {
      machines.push({
        name: `${obs.namePrefix}-${instance.id}`,
        instance,
        nodeName: node.name,
        release: [],
        inlineSpec: spec,
      })
    }
  }
  return { title, namespace, pause: [], releaseAfter: [], machines, problems, notes: [] }
}
