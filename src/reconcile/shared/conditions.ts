/**
 * @module metav1.Condition bookkeeping shared by every kind: set a condition, keeping its
 * lastTransitionTime unless its status flips, so `kubectl describe` shows when things changed.
 */
import type { Condition } from '../../api/shared/conditions'

/** A condition without the bookkeeping fields the helper fills in. */
export interface ConditionInput {
  type: string
  status: 'True' | 'False' | 'Unknown'
  reason: string
  message: string
}

/**
 * Returns `conditions` with `next` set: lastTransitionTime is `now` when the status changed (or
 * the condition is new) and kept otherwise; observedGeneration is the object's generation.
 */
export function setCondition(
  conditions: readonly Condition[],
  next: ConditionInput,
  options: { now: Date; generation?: number | undefined },
): Condition[] {
  const previous = conditions.find((c) => c.type === next.type)
  const condition: Condition = {
    ...next,
    message: next.message.slice(0, 32_768),
    lastTransitionTime:
      previous && previous.status === next.status
        ? previous.lastTransitionTime
        : options.now.toISOString(),
    ...(options.generation === undefined ? {} : { observedGeneration: options.generation }),
  }
  return previous
    ? conditions.map((c) => (c.type === next.type ? condition : c))
    : [...conditions, condition]
}

/** Sets every condition in `next`, in order. */
export function setConditions(
  conditions: readonly Condition[],
  next: readonly ConditionInput[],
  options: { now: Date; generation?: number | undefined },
): Condition[] {
  return next.reduce<Condition[]>((acc, c) => setCondition(acc, c, options), [...conditions])
}

/** The condition of `type`, if present. */
export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type)
}

/** True when the condition of `type` is present with status True. */
export function isConditionTrue(
  conditions: readonly Condition[] | undefined,
  type: string,
): boolean {
  return findCondition(conditions, type)?.status === 'True'
}
