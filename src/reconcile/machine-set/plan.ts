/**
 * @module The MachineSet planner: from the set and every Machine of its namespace to the actions
 * that converge them. Pure: no I/O, no clock (the caller passes nothing time-dependent here;
 * availability timers live in status.ts).
 *
 * Ownership follows the Kubernetes controller-ref rules: the set controls Machines whose
 * controller owner reference carries its uid; it adopts orphans (no controller) that match its
 * selector and are not being deleted; it releases Machines it controls whose labels stopped
 * matching. A set that is being deleted does nothing: the garbage collector removes its Machines
 * through their owner references.
 */

import { ANNOTATIONS } from '../../api/group'
import { requiresLabel, selectorMatches } from '../../api/shared/label-selector'
import { victimReason } from './delete-order'
import { desiredMachine, inPlacePatch } from './machine-template'
import { planMachineSetScale } from './scale-plan'
import {
  controllerOf,
  isControlledBy,
  isDeleting,
  type MachineObject,
  type MachineSetObject,
} from './types'

/** What the planner sees. */
export interface MachineSetObservation {
  set: MachineSetObject
  /** Every Machine in the set's namespace (for ownership, adoption and free names). */
  machines: MachineObject[]
}

/** One thing to do; the executor switches on `type`. */
export type MachineSetAction =
  | { type: 'create'; machine: MachineObject }
  | { type: 'delete'; machine: MachineObject; reason: string }
  | { type: 'adopt'; machine: MachineObject }
  | { type: 'release'; machine: MachineObject }
  | { type: 'update'; machine: MachineObject; patch: Record<string, unknown> }

/** The plan: actions, the Machines the set controls once they are done, and when to look again. */
export interface MachineSetPlan {
  actions: MachineSetAction[]
  /** Machines the set controls after adoption and release (being deleted included). */
  owned: MachineObject[]
  /** Set when work remains beyond this pass's batch. */
  requeueAfterMs?: number
}

/** Tunables of the planner. */
export interface MachineSetPlanOptions {
  /** Creates or deletes per pass (default 50), so one pass stays short. */
  maxBatch?: number
  /** Delay before the next batch (default 1s). */
  batchDelayMs?: number
}

/** Plans one pass over `obs`. */
export function planMachineSet(
  obs: MachineSetObservation,
  options: MachineSetPlanOptions = {},
): MachineSetPlan {
  const { set } = obs
  const uid = set.metadata.uid
  // The CRD defaults deletePolicy; a set written before that default existed falls back here.
  const policy = set.spec.deletePolicy ?? 'Random'
  const matches = (m: MachineObject) => selectorMatches(set.spec.selector, m.metadata.labels ?? {})
  const controlled = obs.machines.filter((m) => isControlledBy(m, uid))
  if (isDeleting(set)) return { actions: [], owned: controlled }

  const actions: MachineSetAction[] = []
  const release = controlled.filter((m) => !matches(m) && !isDeleting(m))
  // Never adopt through a selector that requires no label (admission refuses one; this guards
  // objects written around it): it would take every ownerless Machine of the namespace.
  const adopt = requiresLabel(set.spec.selector)
    ? obs.machines.filter((m) => controllerOf(m) === undefined && !isDeleting(m) && matches(m))
    : []
  for (const machine of release) actions.push({ type: 'release', machine })
  for (const machine of adopt) actions.push({ type: 'adopt', machine })
  const owned = [...controlled.filter((m) => !release.includes(m)), ...adopt]

  const scale = planMachineSetScale({
    setName: set.metadata.name,
    setUid: uid ?? '',
    replicas: set.spec.replicas ?? 0,
    deletePolicy: policy,
    machines: owned,
    takenNames: new Set(obs.machines.map((m) => m.metadata.name)),
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
  })
  const createDisabled = set.metadata.annotations?.[ANNOTATIONS.disableMachineCreate] === 'true'
  if (!createDisabled) {
    for (const name of scale.create) {
      actions.push({ type: 'create', machine: desiredMachine(set, name) })
    }
  }
  for (const machine of scale.delete) {
    actions.push({ type: 'delete', machine, reason: victimReason(machine, policy) })
  }
  const leaving = new Set(scale.delete)
  for (const machine of owned) {
    if (isDeleting(machine) || leaving.has(machine)) continue
    const patch = inPlacePatch(set, machine)
    if (patch) actions.push({ type: 'update', machine, patch })
  }
  return {
    actions,
    owned,
    ...(scale.more && !(createDisabled && scale.delete.length === 0)
      ? { requeueAfterMs: options.batchDelayMs ?? 1000 }
      : {}),
  }
}
