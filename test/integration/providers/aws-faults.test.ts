import { describe, expect, it } from 'vitest'
import { CapacityError, ThrottledError } from '../../../src/providers/errors'
import { useFaultyMoto } from './aws-fixture'
import { deleteUntilDone, newMachine } from './conformance'
import { rejection } from './context'

const aws = useFaultyMoto()

function context() {
  return aws().context().ctx
}

describe('aws provider under injected EC2 faults', () => {
  // The base spec's subnets are moto's three default ones, one per zone: a capacity miss moves on
  // to the next zone, so each zone is asked once, and only once (the SDK does not retry a miss).
  it.each([
    ['RequestLimitExceeded', 503, ThrottledError, 'Throttled', 3],
    ['InsufficientInstanceCapacity', 500, CapacityError, 'InsufficientInstanceCapacity', 3],
    ['InstanceLimitExceeded', 400, CapacityError, 'InstanceLimitExceeded', 1],
  ])(
    'turns persistent %s into a retryable error with bounded launch attempts',
    async (code, status, type, reason, attempts) => {
      aws().proxy.inject({ action: 'RunInstances', code, status })
      const machine = newMachine('fault')
      const error = await rejection(aws().provider.actuator.create(context(), machine))
      expect(error).toBeInstanceOf(type)
      expect(error.reason).toBe(reason)
      expect((error as CapacityError).retryAfterMs).toBeGreaterThan(0)
      // The SDK's own retries (adaptive mode, 3 attempts) are the only ones: no retry storm.
      expect(aws().proxy.counts().RunInstances).toBe(attempts)
    },
  )

  it('rides out a short throttling burst inside one call', async () => {
    aws().proxy.inject({
      action: 'DescribeInstances',
      code: 'RequestLimitExceeded',
      status: 503,
      times: 1,
    })
    const ctx = context()
    const machine = newMachine('burst')
    const created = await aws().provider.actuator.create(ctx, machine)
    expect(created.providerID).toMatch(/^aws:\/\/\//)
    expect(aws().proxy.counts().DescribeInstances).toBe(2)
    await deleteUntilDone({ actuator: aws().provider.actuator, context: () => ctx }, machine)
  })
})
