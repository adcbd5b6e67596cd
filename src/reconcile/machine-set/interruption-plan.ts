/**
 * @module How a MachineSet replaces Machines whose instances EC2 says are going
 * (reconcile/shared/interruption.ts). Pure.
 *
 * An interrupted Machine does not count as a replica: the set creates its replacement, surging
 * above `replicas` by at most `spec.interruption.maxSurge` (every Machine of the set counts
 * towards the bound, interrupted and deleting ones included, until it is gone). Then the old
 * Machine is deleted, its drain bounded by the notice's deadline:
 * - an urgent one (due within 10 minutes, or already stopping) is deleted in this pass, after the
 *   pass's creates (execute.ts runs deletes last), so its replacement is asked for first when
 *   there is room, and its pods move before the instance goes when there is none (its
 *   replacement follows as room frees);
 * - a not yet urgent one (a maintenance days ahead, a rebalance recommendation the set replaces)
 *   stays until a replacement is Ready, or until it becomes urgent.
 * All of it follows from the observed Machines and `now`, so a repeated or reordered notice, a
 * rerun or a worker killed between the create and the delete plans the same single replacement:
 * the replacement, once created, is a non-interrupted Machine of the set and fills the replica.
 */
import { resolveIntOrPercent } from '../../api/shared/int-or-string'
import { defaultInterruptionMaxSurge } from '../../api/v1beta1/interruption-defaults'
import type { InterruptionPolicy } from '../../api/v1beta1/interruption-policy'
import { type Interruption, interruptionOf } from '../shared/interruption'
import { isMachineReady } from './readiness'
import { isDeleting, type MachineObject } from './types'

/** What to do about the set's interrupted Machines this pass. */
export interface InterruptionPlan {
  /** Owned Machines under an interruption the set acts on, being deleted or not. */
  interrupted: ReadonlySet<MachineObject>
  /** Interrupted Machines to delete now, with the reason for the Event. */
  delete: Array<{ machine: MachineObject; reason: string }>
  /** At most this many Machines may be created this pass (the surge bound's room). */
  createRoom: number
  /** When a waiting interrupted Machine becomes urgent. */
  requeueAfterMs?: number
}

/** Plans one pass; `owned` are the Machines the set controls (being deleted included). */
export function planInterruptions(input: {
  owned: readonly MachineObject[]
  replicas: number
  policy: InterruptionPolicy | undefined
  now: Date
}): InterruptionPlan {
  const { owned, replicas, now } = input
  const rebalance = input.policy?.rebalanceRecommendation ?? 'Record'
  const found = new Map<MachineObject, Interruption>()
  for (const m of owned) {
    const interruption = interruptionOf(m, rebalance, now)
    if (interruption) found.set(m, interruption)
  }
  const surge = resolveIntOrPercent(
    input.policy?.maxSurge ?? defaultInterruptionMaxSurge,
    replicas,
    true,
  )
  const createRoom = Math.max(0, replicas + surge - owned.length)
  if (found.size === 0) return { interrupted: new Set(), delete: [], createRoom }

  const alive = [...found].filter(([m]) => !isDeleting(m)).sort(byUrgency)
  const urgent = alive.filter(([, i]) => i.urgent)
  const waiting = alive.filter(([, i]) => !i.urgent)
  // A waiting Machine still serves its replica until a Ready replacement does.
  const readyOthers = owned.filter((m) => !found.has(m) && isMachineReady(m)).length
  const keep = Math.min(waiting.length, Math.max(0, replicas - readyOthers))
  const leaving = [...urgent, ...waiting.slice(0, waiting.length - keep)]
  const kept = waiting.slice(waiting.length - keep)
  const due = kept
    .map(([, i]) => i.urgentAtMs)
    .filter((t): t is number => t !== undefined)
    .map((t) => Math.max(0, t - now.getTime()))
  return {
    interrupted: new Set(found.keys()),
    delete: leaving.map(([machine, i]) => ({ machine, reason: leaveReason(i) })),
    createRoom,
    ...(due.length > 0 ? { requeueAfterMs: Math.min(...due) } : {}),
  }
}

/** Earliest deadline first (none: most pressing, it is happening), then by name. */
function byUrgency(a: [MachineObject, Interruption], b: [MachineObject, Interruption]): number {
  const due = ([, i]: [MachineObject, Interruption]) => i.drainDeadlineMs ?? 0
  return due(a) - due(b) || a[0].metadata.name.localeCompare(b[0].metadata.name)
}

function leaveReason(i: Interruption): string {
  const at = i.notice.deadline ? `, due ${i.notice.deadline}` : ''
  return `${i.notice.reason}${at}: replacing it`
}
