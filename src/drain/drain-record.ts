/**
 * @module What a drain did so far, as the Machine keeps it in `status.deletion.drain` from the
 * first pass until the Machine is gone: each pass merges into the record instead of replacing a
 * message, so the pods evicted, left on the Node (with why) and evicted with a warning stay
 * readable for the whole drain, while the Drained condition says what it waits for now. Pure.
 */
import type { EvictionResult } from './eviction-result'

/** Pods per list in the record; past it only `evictedCount` grows (status stays small). */
export const maxRecordedPods = 50

/** The drain so far. */
export interface DrainRecord {
  /** Pods evicted by any pass (first `maxRecordedPods`). */
  evicted: string[]
  /** How many evictions all passes made (a pod its controller recreated counts each time). */
  evictedCount: number
  /** Pods the last pass left on the Node on purpose, with why. */
  skipped: Array<{ pod: string; reason: string }>
  /** Pods evicted with a warning (data lost, nothing to recreate them), by any pass. */
  warnings: Array<{ pod: string; warning: string }>
}

/** `previous` (undefined before the first pass) with one more pass's `result` merged in. */
export function mergeDrainRecord(
  previous: DrainRecord | undefined,
  result: EvictionResult,
): DrainRecord {
  const evicted = [...(previous?.evicted ?? [])]
  for (const pod of result.evicted) {
    if (!evicted.includes(pod) && evicted.length < maxRecordedPods) evicted.push(pod)
  }
  const warnings = [...(previous?.warnings ?? [])]
  for (const w of result.warnings) {
    if (!warnings.some((k) => k.pod === w.pod) && warnings.length < maxRecordedPods)
      warnings.push(w)
  }
  return {
    evicted,
    evictedCount: (previous?.evictedCount ?? 0) + result.evicted.length,
    skipped: result.skipped.slice(0, maxRecordedPods),
    warnings,
  }
}

/**
 * The PodDisruptionBudgets that refused an eviction in `result`, each with one pod it protects
 * and the apiserver's words, for a Warning Event naming it. A refusal that names no budget (an
 * older apiserver) is listed under the pod alone.
 */
export function blockingBudgets(
  result: EvictionResult,
): Array<{ budget: string | undefined; pod: string; message: string }> {
  const seen = new Map<string, { budget: string | undefined; pod: string; message: string }>()
  for (const { pod, message } of result.blocked) {
    const budget = /disruption budget (\S+?)\s+needs/i.exec(message)?.[1]
    const id = budget ? `${pod.split('/')[0]}/${budget}` : pod
    if (!seen.has(id)) seen.set(id, { budget, pod, message })
  }
  return [...seen.values()]
}
