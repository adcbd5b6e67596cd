/**
 * @module When a Machine run may leave its provider unasked, and so its MachineClass unread: a run
 * woken by a watch event (the Machine's own change, the echo of its own status write included, or
 * its Node's: the Node turning Ready, a label) for a class-backed Machine that is settled: the
 * provider reported its instance ready, its spec is as status last observed it, its Node is
 * linked and found, it is neither failed nor deleting. Such an event says nothing new about the
 * instance, the plan then has no provider action to take (no create, no delete) and status keeps
 * what the last asking run wrote. Every other run asks: timers (a provider's poll, a requeue),
 * the runner's fresh rerun, sweeps (which hand the class over, so asking costs no class read), a
 * spec change, a deleting, failed or unlinked Machine, a Node that is gone (kwok's instance is
 * its Node), and a Machine with an inline spec (it reads no class, and its sweep, handed no
 * class, could not be told from an event). So an instance that vanished under a settled Machine
 * is found by the next sweep, and a class edit (a rotated credentials Secret) reaches the
 * deletion, which reads the class fresh. Pure.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import type { HeldObject } from '../../kube/read-once'
import type { KubeObject } from '../../kube/resource'
import { isConditionTrue } from '../shared/conditions'
import type { NodeObservation } from './observation'

/**
 * True when the run was woken by a watch event: it was handed its Machine or its Node, and no
 * MachineClass (a sweep hands that over with them). A timer or a rerun is handed nothing.
 */
export function wokenByWatchEvent(
  observed: KubeObject | undefined,
  related: readonly HeldObject[] | undefined,
): boolean {
  const handed = observed !== undefined || (related?.length ?? 0) > 0
  const classHanded = related?.some(({ type }) => type.kind === machineApiTypes.machineClass.kind)
  return handed && !classHanded
}

/** Whether this run must ask the provider about the instance; see the module comment. */
export function providerAskNeeded(
  machine: Machine,
  node: NodeObservation,
  watchEvent: boolean,
): boolean {
  if (!watchEvent) return true
  const status = machine.status
  const settled =
    Boolean(machine.spec.classRef) &&
    !machine.spec.providerSpec &&
    !(machine as KubeObject).metadata?.deletionTimestamp &&
    Boolean(machine.spec.providerID) &&
    !status?.failureReason &&
    status?.observedGeneration === machine.metadata.generation &&
    isConditionTrue(status?.conditions, 'InfrastructureReady') &&
    node.state === 'found' &&
    node.linked
  return !settled
}
