/**
 * @module The Event of a MachineDeployment whose replacements a disruption budget holds: when the
 * hold starts (the condition carries the changing detail), not on every pass. Pure.
 */
import type { EventNote } from '../shared/events'
import type { MachineDeploymentObject } from './machine-sets'

type Status = NonNullable<MachineDeploymentObject['status']>

/** The Events for moving from `md.status` to `next`. */
export function heldEvents(md: MachineDeploymentObject, next: Status): EventNote[] {
  const find = (s: Status | undefined) => s?.conditions?.find((c) => c.type === 'ReplacementsHeld')
  const before = find(md.status)
  const after = find(next)
  if (after?.status === 'True' && before?.status !== 'True') {
    return [{ type: 'Normal', reason: 'ReplacementHeld', message: after.message }]
  }
  if (after?.status === 'False' && before?.status === 'True') {
    return [
      {
        type: 'Normal',
        reason: 'ReplacementResumed',
        message: 'No replacement waits for a disruption budget any more',
      },
    ]
  }
  return []
}
