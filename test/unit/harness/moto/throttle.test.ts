import { describe, expect, it } from 'vitest'
import { createThrottle, ec2Budget, resourceTokens } from '../../../harness/moto/throttle'

const params = (entries: Record<string, string>) => new URLSearchParams(entries)

/** How many of `n` requests at time `at` the throttle admits. */
function admitted(
  throttle: ReturnType<typeof createThrottle>,
  action: string,
  n: number,
  at: number,
  p = params({}),
) {
  let ok = 0
  for (let i = 0; i < n; i++) if (throttle.admit(action, p, at)) ok += 1
  return ok
}

describe('the throttling model', () => {
  it.each([
    { action: 'DescribeInstances', burst: 100, perSecond: 20 },
    { action: 'CreateTags', burst: 50, perSecond: 5 },
  ])('$action: a burst of $burst, then $perSecond a second', ({ action, burst, perSecond }) => {
    const throttle = createThrottle(ec2Budget)
    expect(admitted(throttle, action, burst + 10, 0)).toBe(burst)
    expect(admitted(throttle, action, burst, 1_000)).toBe(perSecond)
  })

  it('each action has its own request bucket', () => {
    const throttle = createThrottle(ec2Budget)
    expect(admitted(throttle, 'DescribeInstances', 100, 0)).toBe(100)
    expect(admitted(throttle, 'DescribeSubnets', 1, 0)).toBe(1)
  })

  it('RunInstances takes an instance token per instance asked: 1,000, then 2 a second', () => {
    const throttle = createThrottle(ec2Budget)
    const ask = (n: number) => params({ MinCount: '1', MaxCount: String(n) })
    expect(admitted(throttle, 'RunInstances', 1, 0, ask(600))).toBe(1)
    // 400 instance tokens are left: a request for 500 fails and takes nothing.
    expect(admitted(throttle, 'RunInstances', 1, 0, ask(500))).toBe(0)
    expect(admitted(throttle, 'RunInstances', 1, 0, ask(400))).toBe(1)
    expect(admitted(throttle, 'RunInstances', 1, 1_000, ask(3))).toBe(0)
    expect(admitted(throttle, 'RunInstances', 1, 1_000, ask(2))).toBe(1)
  })

  it('counts the instance ids of a TerminateInstances', () => {
    expect(
      resourceTokens(
        'TerminateInstances',
        params({ 'InstanceId.1': 'i-1', 'InstanceId.2': 'i-2', 'InstanceId.3': 'i-3' }),
      ),
    ).toBe(3)
    expect(resourceTokens('CreateTags', params({ 'ResourceId.1': 'i-1' }))).toBe(0)
  })
})
