/**
 * The review budget (issue 33: twenty 60 MiB ConversionReviews parsed at once took the webhook to
 * 6.7 GB and /healthz timed out): reviews are read only while their bytes fit, in arrival order,
 * and a review that cannot get in soon enough is refused instead of queued without end.
 */
import { describe, expect, it } from 'vitest'
import {
  createReviewBudget,
  createReviewBudgets,
  type Release,
  SMALL_REVIEW_BYTES,
} from '../../../src/webhooks/review-budget'

const MiB = 1024 * 1024

describe('review budget', () => {
  it('admits reviews while their bytes fit, then in arrival order as bytes are given back', async () => {
    const budget = createReviewBudget({ maxBytes: 10, maxWaiting: 8, maxWaitMs: 60_000 })
    const first = (await budget.admit(6)) as Release
    const order: string[] = []
    const second = budget.admit(6).then((release) => {
      order.push('second')
      return release
    })
    const third = budget.admit(2).then((release) => {
      order.push('third')
      return release
    })
    expect(budget.usage()).toEqual({ bytes: 6, waiting: 2 })
    first()
    const releases = await Promise.all([second, third])
    // The small third review fitted all along, but does not overtake the second.
    expect(order).toEqual(['second', 'third'])
    expect(budget.usage()).toEqual({ bytes: 8, waiting: 0 })
    for (const release of releases) release?.()
    expect(budget.usage()).toEqual({ bytes: 0, waiting: 0 })
  })

  it('admits a review larger than the whole budget when nothing else is held', async () => {
    const budget = createReviewBudget({ maxBytes: 10, maxWaiting: 8, maxWaitMs: 60_000 })
    const release = await budget.admit(50)
    expect(release).toBeTypeOf('function')
    expect(budget.usage().bytes).toBe(50)
  })

  it('refuses a review when the queue is full', async () => {
    const budget = createReviewBudget({ maxBytes: 10, maxWaiting: 1, maxWaitMs: 60_000 })
    const held = (await budget.admit(10)) as Release
    const waiting = budget.admit(10)
    expect(await budget.admit(1)).toBeUndefined()
    held()
    ;(await waiting)?.()
  })

  it('refuses a review that waited its longest', async () => {
    const budget = createReviewBudget({ maxBytes: 10, maxWaiting: 8, maxWaitMs: 5 })
    const held = (await budget.admit(10)) as Release
    expect(await budget.admit(1)).toBeUndefined()
    expect(budget.usage()).toEqual({ bytes: 10, waiting: 0 })
    held()
  })

  it('gives back bytes once however often a release is called', async () => {
    const budget = createReviewBudget({ maxBytes: 10, maxWaiting: 8, maxWaitMs: 60_000 })
    const release = (await budget.admit(4)) as Release
    release()
    release()
    expect(budget.usage().bytes).toBe(0)
  })

  it('lets small reviews in while large ones fill their budget', async () => {
    const admit = createReviewBudgets({ largeBytes: 24 * MiB, smallBytes: 8 * MiB })
    const large = await admit(24 * MiB)
    const waitingLarge = admit(2 * MiB)
    const small = await admit(SMALL_REVIEW_BYTES)
    expect(small).toBeTypeOf('function')
    small?.()
    large?.()
    ;(await waitingLarge)?.()
  })
})
