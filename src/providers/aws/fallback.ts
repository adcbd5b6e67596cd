/**
 * @module One Machine's launch over its ordered offerings: a capacity miss moves on to the next
 * offering, at most `maxLaunchesPerReconcile` RunInstances per call, and before every launch
 * after the first the Machine's instances are looked up by UID tag, so an instance another
 * offering launched (a crashed or concurrent attempt) is adopted rather than joined by a second.
 */
import type { Instance } from '@aws-sdk/client-ec2'
import type { ActuatorContext, Offering, UnavailableOffering } from '../actuator'
import { CapacityError, InvalidConfigurationError } from '../errors'
import { isOfferingMiss } from './errors'
import type { OfferingOrder, PlacedOffering } from './offerings'

/** RunInstances calls one create may make before it hands the rest to the next reconcile. */
export const maxLaunchesPerReconcile = 4
/** How soon a create that used its launches with offerings left tries again. */
export const nextOfferingsRetryMs = 5_000

/** What the fallback needs from the actuator (I/O). */
export interface FallbackCalls {
  /** Launches one offering; throws classified errors. */
  launch(offering: PlacedOffering): Promise<Instance>
  /** The Machine's live instance found by UID tag, if any. */
  adoptable(): Promise<Instance | undefined>
}

/** The outcome: an instance launched or adopted, and the misses on the way. */
export interface FallbackResult {
  instance: Instance
  adopted: boolean
  launched?: PlacedOffering
}

function describe(o: Offering): string {
  return `${o.instanceType} ${o.capacityType} in ${o.zone}`
}

function plain(offering: PlacedOffering): Offering {
  const { instanceType, zone, capacityType } = offering
  return { instanceType, zone, capacityType }
}

function missOf(offering: PlacedOffering, reason: string): Offering & { reason: string } {
  return { ...plain(offering), reason }
}

/**
 * The error when nothing can be tried now: every offering remembered unavailable (retry when the
 * first memory expires), or none offered in the subnets' zones (a configuration error naming
 * `typesField`, the spec's instanceType or instanceTypes).
 */
export function nothingToTry(order: OfferingOrder, now: Date, typesField: string): Error {
  const remembered = order.skipped.filter((s) => s.reason === 'Unavailable')
  if (remembered.length === 0) {
    const what = order.skipped.map((s) => describe(s.offering)).join(', ')
    return new InvalidConfigurationError(
      `EC2 offers none of the instance types in the subnets' zones (${what || 'no subnet'}); ` +
        `check ${typesField} and the subnets`,
      { reason: 'InvalidInstanceType', field: typesField },
    )
  }
  const soonest = Math.min(...remembered.map((s) => Date.parse(s.until ?? '')))
  const wait = Math.max(soonest - now.getTime(), nextOfferingsRetryMs)
  // The cloud's own reason (of the first offering), as the launch that found it said.
  return new CapacityError(
    `every offering is remembered without capacity (${remembered.map((s) => `${describe(s.offering)}: ${s.cause}`).join(', ')})`,
    { reason: remembered[0]?.cause || 'InsufficientInstanceCapacity', retryAfterMs: wait },
  )
}

/**
 * Tries `order.candidates` in order. Misses are recorded in the class's memory (when there is
 * one) together with the offering that launched, and named in one Event.
 */
export async function launchWithFallback(
  ctx: ActuatorContext,
  order: OfferingOrder,
  calls: FallbackCalls & { typesField: string },
): Promise<FallbackResult> {
  if (order.candidates.length === 0) throw nothingToTry(order, ctx.clock.now(), calls.typesField)
  const missed: (Offering & { reason: string })[] = []
  const remember = async (launched?: PlacedOffering) => {
    if (missed.length === 0 && !launched) return
    await ctx.offerings?.record({
      missed,
      ...(launched ? { launched: plain(launched) } : {}),
    })
  }
  let lastMiss: CapacityError | undefined
  for (const [index, offering] of order.candidates.slice(0, maxLaunchesPerReconcile).entries()) {
    if (index > 0) {
      const existing = await calls.adoptable()
      if (existing) {
        await remember()
        return { instance: existing, adopted: true }
      }
    }
    try {
      const instance = await calls.launch(offering)
      const avoided = avoidedNote(order, index)
      if (avoided) ctx.events.record('Normal', avoided.reason, avoided.message)
      if (missed.length > 0) {
        ctx.events.record(
          'Normal',
          'OfferingFallback',
          `No capacity for ${missed.map((m) => `${describe(m)} (${m.reason})`).join(', ')}; ` +
            `launched ${describe(offering)}`,
        )
      }
      await remember(offering)
      return { instance, adopted: false, launched: offering }
    } catch (error) {
      if (!isOfferingMiss(error)) {
        await remember()
        throw error
      }
      ctx.logger.info({ offering: missOf(offering, error.reason) }, 'offering without capacity')
      missed.push(missOf(offering, error.reason))
      lastMiss = error
    }
  }
  await remember()
  const left = order.candidates.length - missed.length
  const tried = missed.map((m) => `${describe(m)} (${m.reason})`).join(', ')
  throw new CapacityError(
    left > 0
      ? `no capacity for ${tried}; ${left} more offering(s) to try`
      : `no capacity for any offering: ${tried}`,
    {
      reason: lastMiss?.reason ?? 'InsufficientInstanceCapacity',
      // With offerings left, the next reconcile skips the misses the class now remembers and
      // tries the rest soon. Without a memory (an inline spec) it would ask the same offerings
      // again, so it waits at EC2's pace, as when nothing is left.
      retryAfterMs: left > 0 && ctx.offerings ? nextOfferingsRetryMs : lastMiss?.retryAfterMs,
    },
  )
}

/**
 * The Event for a launch of `order.candidates[index]` that went past offerings EC2 is taking back
 * (order.lastResort), or that had only such an offering left: what was avoided or used, and why.
 */
export function avoidedNote(
  order: OfferingOrder,
  index: number,
): { reason: 'OfferingAvoided' | 'OfferingLastResort'; message: string } | undefined {
  const launched = order.candidates[index]
  if (!launched) return undefined
  const why = (r: OfferingOrder['lastResort'][number]) =>
    `${describe(r.offering)} (${r.cause} until ${r.until})`
  const used = order.lastResort.find((r) => r.offering === launched)
  if (used) {
    return {
      reason: 'OfferingLastResort',
      message: `Launched ${why(used)}: no other offering of the class is available`,
    }
  }
  const passed = order.lastResort.filter((r) => r.ahead <= index)
  if (passed.length === 0) return undefined
  return {
    reason: 'OfferingAvoided',
    message: `Avoided ${passed.map(why).join(', ')}, where EC2 is taking spot capacity back; launched ${describe(launched)}`,
  }
}

/** The unexpired memory as the ordering reads it (for callers without a class: none). */
export function rememberedUnavailable(ctx: ActuatorContext): readonly UnavailableOffering[] {
  return ctx.offerings?.unavailable ?? []
}
