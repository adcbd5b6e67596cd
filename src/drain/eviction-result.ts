/** @module The value one drain pass returns, and the condition message a human reads from it. */

export interface EvictionResult {
  /** Pods evicted in this pass. */
  evicted: string[]
  /** Pods a PodDisruptionBudget protected in this pass, with the apiserver's reason. */
  blocked: Array<{ pod: string; message: string }>
  /** Evictions that failed for another reason. */
  failed: Array<{ pod: string; message: string }>
  /** Pods the drain still waits for (terminating, or labelled wait-completed). */
  waitingFor: string[]
  /** Pods evicted with a warning (emptyDir data, no controller). */
  warnings: Array<{ pod: string; warning: string }>
  /** Pods left on the Node on purpose (DaemonSet, mirror, skip label), with why. */
  skipped: Array<{ pod: string; reason: string }>
}

/** A pass that has done nothing yet (a new one for each call: passes fill it in). */
export function noEvictions(): EvictionResult {
  return { evicted: [], blocked: [], failed: [], waitingFor: [], warnings: [], skipped: [] }
}

/** True when nothing that must leave the Node is left on it. */
export function drainCompleted(result: EvictionResult): boolean {
  return (
    result.evicted.length === 0 &&
    result.blocked.length === 0 &&
    result.failed.length === 0 &&
    result.waitingFor.length === 0
  )
}

const maxListed = 5

function list(items: string[]): string {
  const shown = items.slice(0, maxListed).join(', ')
  return items.length > maxListed ? `${shown} and ${items.length - maxListed} more` : shown
}

/**
 * A one-paragraph summary naming what blocks the drain (pods and the disruption budgets that
 * protect them), for the Machine's Drained/Deleting condition.
 */
export function drainMessage(result: EvictionResult): string {
  if (drainCompleted(result)) return 'Drain completed'
  const parts: string[] = []
  if (result.blocked.length > 0) {
    const reasons = [...new Set(result.blocked.map((b) => b.message))]
    parts.push(
      `Eviction blocked for ${list(result.blocked.map((b) => b.pod))}: ${reasons.slice(0, 2).join('; ')}`,
    )
  }
  if (result.failed.length > 0) {
    parts.push(`Eviction failed for ${list(result.failed.map((f) => `${f.pod} (${f.message})`))}`)
  }
  if (result.evicted.length > 0) parts.push(`Evicted ${list(result.evicted)}`)
  if (result.waitingFor.length > 0)
    parts.push(`Waiting for ${list(result.waitingFor)} to terminate`)
  return parts.join('. ')
}
