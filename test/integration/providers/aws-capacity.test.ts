/**
 * The `aws` provider's capacity of an instance type, from a real moto EC2 server's
 * DescribeInstanceTypes: what a MachineClass's `status.capacity` and `status.nodeInfo` show and
 * cluster-autoscaler scales from zero with, and the zones a Machine of the class can launch in
 * (`status.zones`, which a MachineSet balances over).
 */
import { describe, expect, it } from 'vitest'
import { useMoto } from './aws-fixture'
import { rejection } from './context'

const moto = useMoto()

function request(instanceType: string) {
  const f = moto()
  const { ctx } = f.context({ providerSpec: { ...f.baseSpec, instanceType } })
  return { ...ctx, signal: AbortSignal.timeout(30_000) }
}

describe('aws provider capacity', () => {
  it.each([
    ['m5.large', { cpu: '2', memory: '8192Mi' }, 'amd64'],
    ['m6g.xlarge', { cpu: '4', memory: '16384Mi' }, 'arm64'],
  ])('describes %s', async (instanceType, capacity, architecture) => {
    const f = moto()
    f.calls.length = 0
    const out = await f.provider.capacity(request(instanceType))
    expect(out.capacity).toMatchObject(capacity)
    expect(out.nodeInfo).toEqual({ architecture, operatingSystem: 'linux' })
    expect(out.zones).toEqual(['eu-west-1a', 'eu-west-1b', 'eu-west-1c'])
    expect(f.calls).toEqual([
      'DescribeInstanceTypesCommand',
      'DescribeSubnetsCommand',
      'DescribeInstanceTypeOfferingsCommand',
    ])
  })

  it('lists only the zones where EC2 offers one of the types', async () => {
    const f = moto()
    const { instanceType: _one, ...spec } = f.baseSpec
    // moto's eu-west-1 offers a1.medium in eu-west-1b and eu-west-1c only.
    const { ctx } = f.context({ providerSpec: { ...spec, instanceTypes: ['a1.medium'] } })
    const out = await f.provider.capacity({ ...ctx, signal: AbortSignal.timeout(30_000) })
    expect(out.zones).toEqual(['eu-west-1b', 'eu-west-1c'])
  })

  it('names the field of an instance type EC2 does not offer', async () => {
    const error = await rejection(moto().provider.capacity(request('x9.huge')))
    expect(error).toMatchObject({ name: 'InvalidConfigurationError', field: 'instanceType' })
  })
})
