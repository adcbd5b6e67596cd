/**
 * @module When a MachineSet replaces its Failed Machines. Pure: the owned Machines, the backoff
 * recorded in the set's status and `now` in; the Machines to delete now (the scale plan creates
 * their replacements once they are gone, since a Machine being deleted still counts as a replica),
 * the backoff to record, and when to look again.
 *
 * Replacement goes in rounds: a round deletes every Failed Machine present, counts one more
 * consecutive failed round and sets the earliest time of the next, `base * 2^(rounds-1)` later up
 * to `max`. A Machine of the set that turns Ready after the last round resets the count: the
 * template works again, and so does a change of the template's MachineClass (its generation moved
 * since the last round): a fixed class replaces the Failed Machines at once. The state lives in status, not in a worker's memory, so a restarted or
 * scaled-out worker keeps the pace; a Machine that fails on a bad AMI is thus replaced at most once
 * per round, and the rounds slow down instead of looping (issue 28, machine-api-operator #736).
 */
import type { MachineSet } from '../../api/v1beta1/machine-set'
import { isDeleting, type MachineObject } from './types'

/** The backoff as recorded in `status.replacement`. */
export type ReplacementBackoff = NonNullable<NonNullable<MachineSet['status']>['replacement']>

/** How fast rounds may follow each other. */
export interface ReplacementSettings {
  /** Delay after the first round (default 10 s). */
  baseDelayMs: number
  /** Longest delay between rounds (default 5 min). */
  maxDelayMs: number
}

/** The defaults: with them a set makes at most 8 creates per replica in any 15 minutes. */
export const defaultReplacementSettings: ReplacementSettings = {
  baseDelayMs: 10_000,
  maxDelayMs: 300_000,
}

/** What to do about the set's Failed Machines this pass. */
export interface ReplacementPlan {
  /** Every Failed Machine of the set not being deleted, by name. */
  failed: MachineObject[]
  /** The Failed Machines to delete now (a round), empty while the backoff holds. */
  replace: MachineObject[]
  /** The backoff to record (undefined: no Machine of the set has ever been replaced). */
  backoff: ReplacementBackoff | undefined
  /** When the backoff ends while Failed Machines wait for it. */
  requeueAfterMs?: number
}

/** True when the Machine ended in a terminal failure (phase Failed or a failureReason). */
export function isFailedMachine(m: MachineObject): boolean {
  return m.status?.phase === 'Failed' || Boolean(m.status?.failureReason)
}

/** The delay after `rounds` consecutive failed rounds. */
export function replacementDelayMs(rounds: number, settings: ReplacementSettings): number {
  if (rounds <= 0) return 0
  // 2^30 already exceeds any sensible max; the cap keeps the shift from overflowing.
  return Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.min(rounds - 1, 30))
}

function readySinceMs(m: MachineObject): number | undefined {
  const ready = m.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True')
  if (!ready) return undefined
  const at = Date.parse(ready.lastTransitionTime ?? '')
  return Number.isNaN(at) ? 0 : at
}

/**
 * The backoff still in force: reset to no failed round once a Machine turned Ready at or after the
 * last round. The reset keeps the record (status is written as a merge patch, where dropping a
 * field takes a null the schema has no room for) with both times at the last round, in the past.
 */
function currentBackoff(
  owned: MachineObject[],
  previous: ReplacementBackoff | undefined,
): ReplacementBackoff | undefined {
  if (!previous || previous.consecutiveFailures === 0) return previous
  const lastRound = Date.parse(previous.lastReplacementTime ?? '')
  const recovered = owned.some((m) => {
    if (isDeleting(m) || isFailedMachine(m)) return false
    const since = readySinceMs(m)
    return since !== undefined && (Number.isNaN(lastRound) || since >= lastRound)
  })
  if (!recovered) return previous
  const at = previous.lastReplacementTime
  return at === undefined
    ? { consecutiveFailures: 0 }
    : { consecutiveFailures: 0, lastReplacementTime: at, nextReplacementTime: at }
}

/** Plans the replacement of `owned`'s Failed Machines at `now`, at most `maxBatch` of them. */
export function planReplacement(input: {
  owned: MachineObject[]
  previous: ReplacementBackoff | undefined
  now: Date
  settings?: ReplacementSettings | undefined
  maxBatch?: number | undefined
  /** The generation of the template's MachineClass now, when the template names one. */
  classGeneration?: number | undefined
}): ReplacementPlan {
  const settings = input.settings ?? defaultReplacementSettings
  const failed = input.owned
    .filter((m) => !isDeleting(m) && isFailedMachine(m))
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
  const { classGeneration } = input
  const classChanged =
    classGeneration !== undefined &&
    input.previous?.classGeneration !== undefined &&
    input.previous.classGeneration !== classGeneration
  const backoff = classChanged ? undefined : currentBackoff(input.owned, input.previous)
  if (failed.length === 0) return { failed, replace: [], backoff: backoff ?? input.previous }
  const nowMs = input.now.getTime()
  const notBefore = Date.parse(backoff?.nextReplacementTime ?? '')
  if (!Number.isNaN(notBefore) && nowMs < notBefore) {
    return { failed, replace: [], backoff, requeueAfterMs: notBefore - nowMs }
  }
  const rounds = (backoff?.consecutiveFailures ?? 0) + 1
  return {
    failed,
    replace: failed.slice(0, input.maxBatch ?? failed.length),
    backoff: {
      consecutiveFailures: rounds,
      lastReplacementTime: input.now.toISOString(),
      nextReplacementTime: new Date(nowMs + replacementDelayMs(rounds, settings)).toISOString(),
      ...(classGeneration === undefined ? {} : { classGeneration }),
    },
  }
}
