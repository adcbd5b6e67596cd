/**
 * @module metav1.Condition bookkeeping, the one condition setter of every kind: set a condition,
 * keeping its lastTransitionTime unless its status flips, so `kubectl describe` shows when things
 * changed. Conditions of other types (the runtime's Stalled, other controllers') are kept.
 */
import type { Condition } from '../../api/shared/conditions'

/** A condition without the bookkeeping the setter fills in (lastTransitionTime). */
export type ConditionInput = Omit<Condition, 'lastTransitionTime'>

/** A condition as read back from any object (loosely typed). */
export interface LooseCondition {
  type: string
  status: string
  reason?: string | undefined
  message?: string | undefined
  observedGeneration?: number | undefined
  lastTransitionTime?: string | undefined
}

/** When and for which generation a condition is set. */
export interface ConditionStamp {
  /** The transition time to record on a flip (each kind keeps its own timestamp format). */
  time: string
  /** The object's generation, recorded as observedGeneration when given. */
  generation?: number | undefined
}

/**
 * Returns `conditions` with `next` set: lastTransitionTime is `stamp.time` when the status
 * changed (or the condition is new) and kept otherwise.
 */
export function setCondition<C extends LooseCondition>(
  conditions: readonly C[],
  next: ConditionInput,
  stamp: ConditionStamp,
): (C | Condition)[] {
  const previous = conditions.find((c) => c.type === next.type)
  const condition: Condition = {
    ...next,
    message: next.message.slice(0, 32_768),
    lastTransitionTime:
      previous?.lastTransitionTime && previous.status === next.status
        ? previous.lastTransitionTime
        : stamp.time,
    ...(stamp.generation === undefined ? {} : { observedGeneration: stamp.generation }),
  }
  return previous
    ? conditions.map((c) => (c.type === next.type ? condition : c))
    : [...conditions, condition]
}

/** Sets every condition in `next`, in order. */
export function setConditions(
  conditions: readonly Condition[] | undefined,
  next: readonly ConditionInput[],
  stamp: ConditionStamp,
): Condition[] {
  return next.reduce<Condition[]>(
    (acc, c) => setCondition(acc, c, stamp) as Condition[],
    [...(conditions ?? [])],
  )
}

/** The condition of `type`, if present. */
export function findCondition<C extends LooseCondition>(
  conditions: readonly C[] | undefined,
  type: string,
): C | undefined {
  return conditions?.find((c) => c.type === type)
}

/** True when the condition of `type` is present with status True. */
export function isConditionTrue(
  conditions: readonly LooseCondition[] | undefined,
  type: string,
): boolean {
  return findCondition(conditions, type)?.status === 'True'
}
