/**
 * @module The MachineSet scale decision: how many Machines to create (and their names) or which to
 * delete. Pure: observed Machines in, actions out.
 */
import { type DeleteCandidate, type DeletePolicy, pickVictims } from './delete-order'
import { nextMachineNames } from './machine-names'

/** What the scale decision looks at. */
export interface ScaleObservation<T extends DeleteCandidate> {
  setName: string
  setUid: string
  replicas: number
  deletePolicy: DeletePolicy
  /** Machines the set controls, including those being deleted. */
  machines: T[]
  /** Every Machine name in the namespace, so a new name never collides with a foreign Machine. */
  takenNames: ReadonlySet<string>
  /** The set's count of names handed out (`status.nextMachineIndex`): new names start there. */
  nextIndex: number
  /**
   * Names handed out lately that no Machine has yet (machine-names.ts `pendingNames`): Machines
   * another pass is creating. They count as replicas for creates, never for deletes.
   */
  pending?: number
  /** At most this many creates now (a surge bound's room); the rest wait, `more` unaffected. */
  createLimit?: number
  /** At most this many creates or deletes per reconcile, so one pass stays short. */
  maxBatch?: number
}

/** Machines to create (by name) and to delete. */
export interface ScalePlan<T> {
  create: string[]
  /** The set's count of names once `create` are handed out (unchanged without creates). */
  nextIndex: number
  /** Machines to delete now (never one already being deleted). */
  delete: T[]
  /** More to do after this batch: requeue soon. */
  more: boolean
}

/**
 * Machines being deleted still count as replicas (as in Cluster API), so a rollout or a scale-down
 * never runs more Machines than asked for while old ones drain.
 */
export function planMachineSetScale<T extends DeleteCandidate>(
  obs: ScaleObservation<T>,
): ScalePlan<T> {
  const batch = obs.maxBatch ?? 50
  const diff = obs.machines.length - obs.replicas
  const missing = -diff - (obs.pending ?? 0)
  if (missing > 0) {
    const count = Math.min(missing, batch)
    const now = Math.min(count, obs.createLimit ?? count)
    const named = nextMachineNames(obs.setName, obs.setUid, obs.takenNames, obs.nextIndex, now)
    return { create: named.names, nextIndex: named.nextIndex, delete: [], more: missing > count }
  }
  if (diff > 0) {
    const victims = pickVictims(obs.machines, diff, obs.deletePolicy).filter(
      (m) => !m.metadata.deletionTimestamp,
    )
    return {
      create: [],
      nextIndex: obs.nextIndex,
      delete: victims.slice(0, batch),
      more: victims.length > batch,
    }
  }
  return { create: [], nextIndex: obs.nextIndex, delete: [], more: false }
}
