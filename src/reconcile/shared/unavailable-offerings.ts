/**
 * @module The MachineClass's memory of unavailable offerings (status.unavailableOfferings) as
 * pure functions: what a launch's outcome makes of it, what expiry leaves of it, and when the
 * next entry expires. The Machine reconcile writes outcomes (offering-memory.ts), the MachineClass
 * reconcile clears what expired.
 */
import { parseDurationMs } from '../../api/shared/duration'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import { maxUnavailableOfferings } from '../../api/v1beta1/machine-class-limits'

/** One entry of status.unavailableOfferings (the providers' UnavailableOffering has its shape). */
type UnavailableOffering = NonNullable<
  NonNullable<MachineClass['status']>['unavailableOfferings']
>[number]
/** Where and how an instance runs: instance type, zone, capacity type. */
type Offering = Pick<UnavailableOffering, 'instanceType' | 'zone' | 'capacityType'>

/** How long a miss is remembered when the class does not say: Karpenter's 3 minutes. */
export const defaultUnavailableOfferingTTLMs = 3 * 60_000

/** The class's TTL of a miss, in ms. */
export function unavailableOfferingTTLMs(machineClass: Pick<MachineClass, 'spec'>): number {
  const text = machineClass.spec.unavailableOfferingTTL
  return (text && parseDurationMs(text)) || defaultUnavailableOfferingTTLMs
}

function sameOffering(a: Offering, b: Offering): boolean {
  return a.instanceType === b.instanceType && a.zone === b.zone && a.capacityType === b.capacityType
}

/** The entries not yet expired at `now`. */
export function unexpired(
  entries: readonly UnavailableOffering[],
  now: Date,
): UnavailableOffering[] {
  return entries.filter((e) => Date.parse(e.expiresAt) > now.getTime())
}

/**
 * The memory after a launch: expired entries and the offering that launched are dropped, each
 * miss is (re)listed until `now + ttlMs`; sorted by expiry, at most `maxUnavailableOfferings`
 * (the latest kept).
 */
export function rememberOutcome(
  current: readonly UnavailableOffering[],
  outcome: { missed: readonly (Offering & { reason: string })[]; launched?: Offering | undefined },
  now: Date,
  ttlMs: number,
): UnavailableOffering[] {
  const expiresAt = new Date(now.getTime() + ttlMs).toISOString()
  const kept = unexpired(current, now).filter(
    (e) =>
      !outcome.missed.some((m) => sameOffering(m, e)) &&
      !(outcome.launched && sameOffering(outcome.launched, e)),
  )
  const added = outcome.missed.map((m) => ({
    instanceType: m.instanceType,
    zone: m.zone,
    capacityType: m.capacityType,
    reason: m.reason,
    expiresAt,
  }))
  return [...kept, ...added]
    .toSorted((a, b) => Date.parse(a.expiresAt) - Date.parse(b.expiresAt))
    .slice(-maxUnavailableOfferings)
}

/** The ms until the first entry expires (at least 1), or undefined for an empty memory. */
export function untilNextExpiry(
  entries: readonly UnavailableOffering[],
  now: Date,
): number | undefined {
  if (entries.length === 0) return undefined
  const first = Math.min(...entries.map((e) => Date.parse(e.expiresAt)))
  return Math.max(first - now.getTime(), 1)
}
