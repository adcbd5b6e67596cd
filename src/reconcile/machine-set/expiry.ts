/**
 * @module When a MachineSet replaces Machines that outlived the template's `expireAfter`. Pure.
 *
 * Surge first, oldest first: for an expired Machine the set first keeps one Machine more than
 * replicas (the scale plan creates it), and deletes the expired Machine only once enough others
 * are available without it. A replacement is "in flight" from the creation of its new Machine
 * until the expired one is gone; the set's allowance (from its MachineDeployment's disruption
 * budgets, allowance.ts) caps how many Machines of the set may be not available or being deleted
 * at once, so Machines that are so for any other reason (Failed, interrupted, still provisioning)
 * count against it and hold expiry back, while their own replacement is never held.
 *
 * Failed Machines are replaced by replacement.ts, not here; while replicas are missing the set
 * fills them before replacing anything.
 */
import { parseDurationMs } from '../../api/shared/duration'
import type { ExpiryAllowance } from '../disruption/allowance'
import { availableSince } from './readiness'
import { isFailedMachine } from './replacement'
import { isDeleting, type MachineObject } from './types'

/** What the expiry decision looks at. */
export interface ExpiryInput {
  /** The Machines the set controls (being deleted included). */
  owned: MachineObject[]
  replicas: number
  /** The template's expireAfter; unset: Machines never expire. */
  expireAfter: string | undefined
  minReadySeconds: number
  now: Date
  allowance: ExpiryAllowance
  /** Machines this pass deletes for another reason (Failed): already leaving. */
  leaving: ReadonlySet<MachineObject>
  /** Machines of the set not in `owned` that are on their way out (interrupted ones). */
  otherInFlight?: number
}

/** The expiry decision of one pass. */
export interface ExpiryPlan {
  /** Expired Machines not yet being deleted, oldest first. */
  expired: MachineObject[]
  /** Expired Machines to delete now: their replacement is available. */
  delete: MachineObject[]
  /**
   * Expired Machines whose replacement is in flight or starts now (those deleted now included),
   * the oldest first: each leaves once its replacement is available, so that replacement takes
   * its zone. The expired Machines after them wait for the allowance and still count.
   */
  replacing: MachineObject[]
  /** Machines to keep above replicas for expiry (the scale plan's target is replicas + extra). */
  extra: number
  /** New replacements this pass starts (creates). */
  started: number
  /** Expired Machines whose replacement waits for the allowance. */
  held: number
  /** Machines of the set not available or being deleted, before this pass. */
  inFlight: number
  /** When the next Machine expires. */
  requeueAfterMs?: number
}

function createdMs(m: MachineObject): number | undefined {
  const at = Date.parse(m.metadata.creationTimestamp ?? '')
  return Number.isNaN(at) ? undefined : at
}

/** True when `m` is older than `lifetimeMs` at `nowMs` (a Machine without a creation time is not). */
function isExpired(m: MachineObject, lifetimeMs: number, nowMs: number): boolean {
  const created = createdMs(m)
  return created !== undefined && created + lifetimeMs <= nowMs
}

/** The plan of a set with nothing expired (or being deleted). */
export const noExpiry: ExpiryPlan = {
  expired: [],
  delete: [],
  replacing: [],
  extra: 0,
  started: 0,
  held: 0,
  inFlight: 0,
}

/** Plans the replacement of expired Machines at `input.now`. */
export function planExpiry(input: ExpiryInput): ExpiryPlan {
  const none = noExpiry
  const lifetimeMs =
    input.expireAfter === undefined ? undefined : parseDurationMs(input.expireAfter)
  if (!lifetimeMs) return none
  const nowMs = input.now.getTime()
  const gone = (m: MachineObject) => isDeleting(m) || input.leaving.has(m)
  const active = input.owned.filter((m) => !gone(m))
  const expiredNow = (m: MachineObject) => !isFailedMachine(m) && isExpired(m, lifetimeMs, nowMs)
  const expired = active
    .filter(expiredNow)
    .sort(
      (a, b) =>
        (createdMs(a) ?? 0) - (createdMs(b) ?? 0) || a.metadata.name.localeCompare(b.metadata.name),
    )
  const upcoming = active
    .filter((m) => !expiredNow(m) && createdMs(m) !== undefined)
    .map((m) => (createdMs(m) ?? 0) + lifetimeMs - nowMs)
  const timer = upcoming.length > 0 ? { requeueAfterMs: Math.max(0, Math.min(...upcoming)) } : {}
  // Expired Machines already being deleted keep their place above replicas until they are gone.
  const leavingExpired = input.owned.filter(
    (m) => gone(m) && !isFailedMachine(m) && isExpired(m, lifetimeMs, nowMs),
  ).length
  const isAvailable = (m: MachineObject) =>
    (availableSince(m, input.minReadySeconds) ?? Number.POSITIVE_INFINITY) <= nowMs
  let available = active.filter(isAvailable).length
  const inFlight = input.owned.length - available + (input.otherInFlight ?? 0)
  const surplus = active.length - input.replicas
  if (expired.length === 0 || surplus < 0) {
    return { ...none, expired, extra: leavingExpired, inFlight, ...timer }
  }

  const allowed = input.allowance.allowed
  const toDelete: MachineObject[] = []
  let spent = 0
  let heldDeletes = 0
  for (const machine of expired) {
    if (toDelete.length >= surplus) break
    const cost = isAvailable(machine) ? 1 : 0
    if (available - cost < input.replicas) break
    if (inFlight + spent + cost > allowed) {
      heldDeletes = surplus - toDelete.length
      break
    }
    toDelete.push(machine)
    available -= cost
    spent += cost
  }
  const remaining = expired.length - toDelete.length
  const covered = Math.min(surplus - toDelete.length, remaining)
  const wanted = remaining - covered
  const started = Math.min(wanted, Math.max(0, allowed - inFlight - spent))
  return {
    expired,
    delete: toDelete,
    // toDelete is a prefix of expired; the covered and started ones follow it, in that order.
    replacing: expired.slice(0, toDelete.length + covered + started),
    extra: covered + started + toDelete.length + leavingExpired,
    started,
    held: wanted - started + Math.min(heldDeletes, covered),
    inFlight,
    ...timer,
  }
}
