/**
 * @module The MachineClass's memory of unavailable offerings (status.unavailableOfferings) as
 * pure functions: what a launch's outcome makes of it, what an interruption adds to it, what
 * expiry leaves of it, and when the next entry expires. The Machine reconcile writes launch
 * outcomes (offering-memory.ts), the MachineSet the offerings of the Machines it replaces on an
 * EC2 notice (machine-set/interrupted-offerings.ts), the MachineClass reconcile clears what expired.
 */
import { isInterruptionReason } from '../../api/instance-notice'
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

/** Sorted by expiry, at most `maxUnavailableOfferings` (the latest kept). */
function bounded(entries: UnavailableOffering[]): UnavailableOffering[] {
  return entries
    .toSorted((a, b) => Date.parse(a.expiresAt) - Date.parse(b.expiresAt))
    .slice(-maxUnavailableOfferings)
}

/**
 * The memory after a launch: expired entries and the offering that launched are dropped (unless
 * an interruption wrote it: a launch there says nothing of EC2 taking the pool back), each miss
 * is (re)listed until `now + ttlMs`; bounded.
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
      !(outcome.launched && sameOffering(outcome.launched, e) && !isInterruptionReason(e.reason)),
  )
  const added = outcome.missed.map((m) => ({
    instanceType: m.instanceType,
    zone: m.zone,
    capacityType: m.capacityType,
    reason: m.reason,
    expiresAt,
  }))
  return bounded([...kept, ...added])
}

/** An offering a Machine of the class was interrupted in, and when its instance goes. */
export interface InterruptedOffering extends Offering {
  /** The notice's reason (SpotInterruption, RebalanceRecommended). */
  reason: string
  /** The instance's deadline, else the notice's time (ms since the epoch). */
  atMs: number
}

/**
 * The memory with `interrupted` listed, each until its `atMs + ttlMs`: the same entry however
 * often or concurrently it is written (the expiry follows the notice, not the write), an entry
 * already listed until later is kept, one whose expiry has passed is not listed again; expired
 * entries are dropped; bounded.
 */
export function rememberInterruptions(
  current: readonly UnavailableOffering[],
  interrupted: readonly InterruptedOffering[],
  now: Date,
  ttlMs: number,
): UnavailableOffering[] {
  const next = unexpired(current, now)
  for (const i of interrupted) {
    const expiresAt = i.atMs + ttlMs
    if (expiresAt <= now.getTime()) continue
    const at = next.findIndex((e) => sameOffering(e, i))
    const known = next[at]
    if (known && Date.parse(known.expiresAt) >= expiresAt) continue
    const { instanceType, zone, capacityType, reason } = i
    const entry = { instanceType, zone, capacityType, reason }
    const listed = { ...entry, expiresAt: new Date(expiresAt).toISOString() }
    if (known) next[at] = listed
    else next.push(listed)
  }
  return bounded(next)
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
