/**
 * @module metav1.Condition bookkeeping shared by the set and deployment status code: set a
 * condition, keeping `lastTransitionTime` unless the status flips.
 */
import type { Condition } from '../../api/shared/conditions'

/** A condition without its timestamp: what the status functions decide. */
export type ConditionInput = Omit<Condition, 'lastTransitionTime'>

/**
 * `conditions` with each of `next` set in place of the condition of the same type.
 * `lastTransitionTime` moves only when the status changes (metav1.Condition semantics).
 * Conditions of other types (e.g. the runtime's Stalled) are kept.
 */
export function setConditions(
  conditions: readonly Condition[] | undefined,
  next: readonly ConditionInput[],
  now: Date,
): Condition[] {
  const byType = new Map((conditions ?? []).map((c) => [c.type, c]))
  for (const input of next) {
    const previous = byType.get(input.type)
    byType.set(input.type, {
      ...input,
      lastTransitionTime:
        previous && previous.status === input.status
          ? previous.lastTransitionTime
          : now.toISOString(),
    })
  }
  return [...byType.values()]
}

/** The condition of `type`, if present. */
export function findCondition(
  conditions: readonly { type: string; status: string; lastTransitionTime?: string }[] | undefined,
  type: string,
): { type: string; status: string; lastTransitionTime?: string } | undefined {
  return conditions?.find((c) => c.type === type)
}
