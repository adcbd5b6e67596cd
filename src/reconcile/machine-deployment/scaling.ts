/**
 * @module Replica decisions other than RollingUpdate: OnDelete, and scaling a paused deployment.
 * Pure. Sets are given oldest first.
 */
import type { RolloutSet } from './rolling-update'

/** A set as these planners see it. */
export interface SetView extends RolloutSet {
  /** The set's status is for its current generation, so `machines` can be trusted. */
  settled: boolean
}

/** The next spec.replicas of each set that changes. */
export type ScaleDecision = Record<string, number>

/**
 * Scales the total to `replicas` without touching the template mix: a scale-up goes to `newest`,
 * a scale-down takes from the oldest sets first (they would be replaced anyway).
 */
export function scaleWithoutRollout(
  replicas: number,
  newest: SetView,
  oldSets: SetView[],
): ScaleDecision {
  const sets = [...oldSets, newest]
  const next = new Map(sets.map((s) => [s.name, s.replicas]))
  const diff = replicas - sets.reduce((sum, s) => sum + s.replicas, 0)
  if (diff > 0) next.set(newest.name, newest.replicas + diff)
  else shrink(sets, next, -diff)
  return changes(sets, next)
}

/**
 * OnDelete: an old set only shrinks when someone deletes its Machines (its spec follows the
 * Machines left, and the old sets never create, see the disable-create annotation) or when the
 * deployment scales down (oldest first). The new set fills the gap up to `replicas`.
 */
export function planOnDelete(replicas: number, newSet: SetView, oldSets: SetView[]): ScaleDecision {
  const sets = [...oldSets, newSet]
  const next = new Map(sets.map((s) => [s.name, s.replicas]))
  for (const old of oldSets) {
    if (old.settled && old.machines < old.replicas) next.set(old.name, old.machines)
  }
  const total = sets.reduce((sum, s) => sum + (next.get(s.name) ?? 0), 0)
  shrink(sets, next, total - replicas)
  const oldTotal = oldSets.reduce((sum, s) => sum + (next.get(s.name) ?? 0), 0)
  next.set(newSet.name, Math.max(next.get(newSet.name) ?? 0, replicas - oldTotal))
  return changes(sets, next)
}

/** Removes `excess` replicas, from the first sets first. */
function shrink(sets: SetView[], next: Map<string, number>, excess: number): void {
  let left = excess
  for (const set of sets) {
    if (left <= 0) return
    const have = next.get(set.name) ?? 0
    const down = Math.min(have, left)
    next.set(set.name, have - down)
    left -= down
  }
}

function changes(sets: SetView[], next: Map<string, number>): ScaleDecision {
  const out: ScaleDecision = {}
  for (const set of sets) {
    const value = next.get(set.name)
    if (value !== undefined && value !== set.replicas) out[set.name] = value
  }
  return out
}
