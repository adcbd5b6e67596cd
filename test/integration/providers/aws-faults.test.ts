/**
 * EC2 failures moto cannot produce, injected by a proxy in front of it: each maps to its provider
 * error class, and the number of EC2 requests stays bounded (no retry storm).
 */
import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type AwsProvider, createAwsProvider } from '../../../src/providers/aws/provider'
import { CapacityError, ThrottledError } from '../../../src/providers/errors'
import { type FaultProxy, startFaultProxy } from '../../harness/moto/fault-proxy'
import { type MotoServer, startMotoServer } from '../../harness/moto/moto-server'
import { credentialsSecret, region } from './aws-fixture'
import { deleteUntilDone, newMachine } from './conformance'
import { rejection, testContext } from './context'

let moto: MotoServer
let proxy: FaultProxy
let provider: AwsProvider
let amiId = ''

beforeAll(async () => {
  moto = await startMotoServer()
  proxy = await startFaultProxy(moto.endpoint)
  provider = createAwsProvider({
    endpoint: proxy.endpoint,
    defaultRegion: region,
    callsPerSecond: 100,
    describeCallsPerSecond: 100,
  })
  const ec2 = new EC2Client({
    region,
    endpoint: moto.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  })
  const images = await ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }))
  amiId = images.Images?.[0]?.ImageId ?? ''
  ec2.destroy()
})

afterAll(async () => {
  await provider?.close?.()
  await proxy?.stop()
  await moto?.stop()
})

beforeEach(() => proxy.clear())

function context() {
  return testContext({
    providerSpec: {
      credentialsSecret: { name: 'aws' },
      ami: { id: amiId },
      instanceType: 't3.micro',
      subnet: { filters: [{ name: 'default-for-az', values: ['true'] }] },
    },
    secrets: credentialsSecret,
  }).ctx
}

describe('aws provider under injected EC2 faults', () => {
  it.each([
    ['RequestLimitExceeded', 503, ThrottledError, 'Throttled', 3],
    ['InsufficientInstanceCapacity', 500, CapacityError, 'InsufficientInstanceCapacity', 3],
    ['InstanceLimitExceeded', 400, CapacityError, 'InstanceLimitExceeded', 1],
  ])(
    'turns persistent %s into a retryable error with bounded launch attempts',
    async (code, status, type, reason, attempts) => {
      proxy.inject({ action: 'RunInstances', code, status })
      const machine = newMachine('fault')
      const error = await rejection(provider.actuator.create(context(), machine))
      expect(error).toBeInstanceOf(type)
      expect(error.reason).toBe(reason)
      expect((error as CapacityError).retryAfterMs).toBeGreaterThan(0)
      // The SDK's own retries (adaptive mode, 3 attempts) are the only ones: no retry storm.
      expect(proxy.counts().RunInstances).toBe(attempts)
    },
  )

  it('rides out a short throttling burst inside one call', async () => {
    proxy.inject({
      action: 'DescribeInstances',
      code: 'RequestLimitExceeded',
      status: 503,
      times: 1,
    })
    const ctx = context()
    const machine = newMachine('burst')
    const created = await provider.actuator.create(ctx, machine)
    expect(created.providerID).toMatch(/^aws:\/\/\//)
    expect(proxy.counts().DescribeInstances).toBe(2)
    await deleteUntilDone({ actuator: provider.actuator, context: () => ctx }, machine)
  })
})
