/**
 * @module The names a pass hands out before it creates their Machines (`status.nameClaims`), and
 * how a concurrent pass counts them. Pure: claims and the namespace's names in, counts out.
 *
 * A pass records its claim (conditional on the set as read) before its creates, and marks it
 * done after them. While a claim is not done, its names that no Machine has yet are Machines
 * being created: a concurrent pass that listed before those creates landed counts them as
 * present instead of naming replicas of its own (doubling). Once done, a missing name is a
 * Machine that failed to be created or was deleted since, and is replaced at once.
 */
import { machineNameForIndex } from './machine-names'

/** Names handed out at once: indexes `from` <= i < `to`, at `at`; `done` once their creates ran. */
export interface NameClaim {
  from: number
  to: number
  at: string
  done?: boolean
}

/**
 * How long a claim that is not done counts. Only a pass that died between its claim and its done
 * mark leaves one behind, and its names then hold replacements back this long. Above the longest
 * a pass may create (`nameClaimCreateMs`) plus one create's 30 s timeout, so a claim of a slow
 * pass never expires while its creates can still land.
 */
export const nameClaimTtlMs = 90_000

/** A pass starts creates from its claim only this long after it began. */
export const nameClaimCreateMs = 45_000

/** Claims kept in status at most (the schema's bound). */
const maxClaims = 32

const age = (claim: NameClaim, now: Date) => now.getTime() - Date.parse(claim.at)

/** The claims younger than the TTL at `now`. */
export function liveClaims(claims: readonly NameClaim[] | undefined, now: Date): NameClaim[] {
  return (claims ?? []).filter((c) => age(c, now) < nameClaimTtlMs)
}

/**
 * How many names of live claims that are not done no object of the namespace has (`taken`):
 * Machines another pass is creating, which count as present.
 */
export function pendingNames(
  setName: string,
  setUid: string,
  claims: readonly NameClaim[] | undefined,
  taken: ReadonlySet<string>,
  now: Date,
): number {
  let pending = 0
  for (const claim of liveClaims(claims, now)) {
    if (claim.done) continue
    for (let index = claim.from; index < claim.to; index++) {
      if (!taken.has(machineNameForIndex(setName, setUid, index))) pending += 1
    }
  }
  return pending
}

/**
 * Whether a list taken before the set was read may miss Machines the set already counts as
 * made: a live done claim was written after such a list perhaps, once its creates had landed.
 */
export function listMayMissDoneCreates(
  claims: readonly NameClaim[] | undefined,
  now: Date,
): boolean {
  return liveClaims(claims, now).some((c) => c.done)
}

/** The set's claims once `from`..`to` are handed out at `now`: the live ones and this one. */
export function withClaim(
  claims: readonly NameClaim[] | undefined,
  claim: { from: number; to: number },
  now: Date,
): NameClaim[] {
  const kept = liveClaims(claims, now).slice(-(maxClaims - 1))
  return [...kept, { ...claim, at: now.toISOString() }]
}

/** `claims` with `claim` (same range and time) marked done, or undefined when it is not there. */
export function withClaimDone(
  claims: readonly NameClaim[] | undefined,
  claim: NameClaim,
): NameClaim[] | undefined {
  const same = (c: NameClaim) => c.from === claim.from && c.to === claim.to && c.at === claim.at
  if (!(claims ?? []).some(same)) return undefined
  return (claims ?? []).map((c) => (same(c) ? { ...c, done: true } : c))
}

/** Until the first live claim that is not done expires (ms), or undefined without one. */
export function claimsExpireInMs(
  claims: readonly NameClaim[] | undefined,
  now: Date,
): number | undefined {
  const open = liveClaims(claims, now).filter((c) => !c.done)
  if (open.length === 0) return undefined
  const first = Math.min(...open.map((c) => Date.parse(c.at)))
  return Math.max(0, first + nameClaimTtlMs - now.getTime())
}
