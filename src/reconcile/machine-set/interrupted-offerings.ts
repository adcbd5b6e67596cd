/**
 * @module The offerings a MachineSet's Machines are being interrupted in: for each Machine under
 * an interruption the set acts on (a spot interruption, a rebalance recommendation it replaces),
 * the spot offering (instance type, zone) its instance runs in, as the provider's status recorded
 * it, and when the instance goes. The set lists them in its class's status.unavailableOfferings
 * (interruption-record.ts) before it creates their replacements. Pure.
 */
import { isInterruptionReason } from '../../api/instance-notice'
import { interruptionOf, type RebalanceAction } from '../shared/interruption'
import type { InterruptedOffering } from '../shared/unavailable-offerings'
import type { MachineObject } from './types'

/** What the EC2 provider records of an instance (providers/aws/instance.ts instanceStatus). */
interface InstanceFacts {
  instanceType?: unknown
  availabilityZone?: unknown
  spot?: unknown
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)

/**
 * The interrupted offerings of `machines` at `now`. A Machine whose instance type or zone is not
 * recorded, or whose instance the provider recorded as on-demand (EC2 interrupts only spot), names
 * none.
 */
export function interruptedOfferings(
  machines: readonly MachineObject[],
  rebalance: RebalanceAction,
  now: Date,
): InterruptedOffering[] {
  const found: InterruptedOffering[] = []
  for (const machine of machines) {
    const interruption = interruptionOf(machine, rebalance, now)
    const reason = interruption?.notice.reason
    if (!interruption || !reason || !isInterruptionReason(reason)) continue
    const facts = (machine.status?.providerStatus ?? {}) as InstanceFacts
    const instanceType = text(facts.instanceType)
    const zone = text(facts.availabilityZone) ?? machine.spec?.failureDomain
    const atMs = Date.parse(interruption.notice.deadline ?? interruption.notice.time)
    if (!instanceType || !zone || facts.spot === false || Number.isNaN(atMs)) continue
    found.push({ instanceType, zone, capacityType: 'spot', reason, atMs })
  }
  return found
}

type Entry = { instanceType: string; zone: string; capacityType: string; reason: string }
type Listed = Entry & { expiresAt: string }

const keyOf = (e: Entry) => `${e.instanceType}/${e.zone}/${e.capacityType}`

/**
 * The Event for a class whose list went from `before` to `after` by an interruption record: the
 * entries added or extended, with their expiry, and the zones that can no longer host a Machine
 * of the class (`closed`); undefined when nothing was added.
 */
export function interruptionRecordNote(
  before: readonly Listed[],
  after: readonly Listed[],
  closed: readonly string[],
): { type: 'Normal'; reason: 'OfferingInterrupted'; message: string } | undefined {
  const was = new Map(before.map((e) => [keyOf(e), e.expiresAt]))
  const added = after.filter(
    (e) => isInterruptionReason(e.reason) && was.get(keyOf(e)) !== e.expiresAt,
  )
  if (added.length === 0) return undefined
  const listed = added
    .map(
      (e) => `${e.instanceType} ${e.capacityType} in ${e.zone} (${e.reason}) until ${e.expiresAt}`,
    )
    .join(', ')
  const zones =
    closed.length > 0
      ? `; ${closed.join(', ')} can host no new Machine of the class until then`
      : ''
  return {
    type: 'Normal',
    reason: 'OfferingInterrupted',
    message: `EC2 is taking back ${listed}: new Machines try other offerings first${zones}`,
  }
}
