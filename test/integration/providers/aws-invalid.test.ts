/**
 * The `aws` provider against a real moto EC2 server, on bad input: a permanent error naming the
 * field to fix, no instance, a bounded number of EC2 calls; a missing Secret is retried instead.
 */
import { describe, expect, it } from 'vitest'
import { TransientError } from '../../../src/errors'
import { InvalidConfigurationError } from '../../../src/providers/errors'
import { useMoto } from './aws-fixture'
import { newMachine } from './conformance'
import { rejection } from './context'

const moto = useMoto()

describe('aws provider on invalid configuration', () => {
  it.each([
    ['an unknown AMI', { ami: { id: 'ami-0000000000000dead' } }, 'InvalidAMI', 'ami.id'],
    [
      'an AMI filter matching nothing',
      { ami: { filters: [{ name: 'name', values: ['nope-*'] }], owners: ['self'] } },
      'InvalidAMI',
      'ami.filters',
    ],
    [
      // As a spec stored before owners were required reaches the provider: refused, not launched.
      'AMI filters without owners (would follow any public image)',
      { ami: { filters: [{ name: 'name', values: ['ubuntu-*'] }], follow: 'Newest' } },
      'InvalidProviderSpec',
      'ami.owners',
    ],
    ['an unknown subnet', { subnet: { id: 'subnet-0000dead' } }, 'InvalidSubnet', 'subnet'],
    [
      'a subnet filter matching nothing',
      { subnet: { filters: [{ name: 'tag:tier', values: ['none'] }] } },
      'InvalidSubnet',
      'subnet.filters',
    ],
    [
      'an unknown security group',
      { securityGroups: [{ id: 'sg-0000dead' }] },
      'InvalidSecurityGroup',
      'securityGroups',
    ],
    [
      'an unknown instance type',
      { instanceType: 'x9.huge' },
      'InvalidInstanceType',
      'instanceType',
    ],
    ['an unknown key pair', { keyName: 'missing-key' }, 'InvalidKeyName', 'keyName'],
    ['a malformed spec', { instanceType: 42 }, 'InvalidProviderSpec', 'instanceType'],
  ])(
    'fails for good on %s, naming the field, within 5 EC2 calls',
    async (_, patch, reason, field) => {
      const f = moto()
      f.calls.length = 0
      const { ctx } = f.context({ providerSpec: { ...f.baseSpec, ...patch } })
      const machine = newMachine('invalid')
      const error = await rejection(f.provider.actuator.create(ctx, machine))
      expect(error).toBeInstanceOf(InvalidConfigurationError)
      expect(error.reason).toBe(reason)
      expect((error as InvalidConfigurationError).field).toBe(field)
      expect(f.calls.length).toBeLessThanOrEqual(5)
      expect(await f.tagged(machine.metadata.uid)).toEqual([])
    },
  )

  it('retries later, without calling EC2, while the credentials Secret is missing', async () => {
    const f = moto()
    f.calls.length = 0
    const { ctx } = f.context({ secrets: {} })
    const error = await rejection(f.provider.actuator.create(ctx, newMachine('nocreds')))
    expect(error).toBeInstanceOf(TransientError)
    expect(error.reason).toBe('SecretNotFound')
    expect(error.message).toContain('aws')
    expect(f.calls).toEqual([])
  })
})
