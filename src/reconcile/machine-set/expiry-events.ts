/**
 * @module The Events of a MachineSet's expiry decisions: a replacement started for expired
 * Machines, and replacements held by the deployment's disruption budget (once, when the hold
 * starts or its message changes, not on every pass). Pure: the executor records what this returns.
 */
import type { ConditionInput } from '../shared/conditions'
import type { EventNote } from '../shared/events'
import type { ExpiryPlan } from './expiry'
import type { MachineSetObject } from './types'

/** The Events for `plan`, given the set as read (its previous ReplacementsHeld) and the new one. */
export function expiryEvents(
  set: MachineSetObject,
  plan: ExpiryPlan,
  held: ConditionInput,
): EventNote[] {
  const notes: EventNote[] = []
  if (plan.started > 0) {
    const names = plan.expired
      .slice(0, plan.started)
      .map((m) => m.metadata.name)
      .join(', ')
    notes.push({
      type: 'Normal',
      reason: 'ReplacingExpired',
      message: `Creating ${plan.started} replacement${plan.started === 1 ? '' : 's'} first for expired ${names} (expireAfter ${set.spec.template.spec.expireAfter}); each expired Machine is deleted once its replacement is available`,
    })
  }
  const before = set.status?.conditions?.find((c) => c.type === 'ReplacementsHeld')
  if (held.status === 'True' && before?.status !== 'True') {
    notes.push({ type: 'Normal', reason: 'ReplacementHeld', message: held.message })
  }
  return notes
}
