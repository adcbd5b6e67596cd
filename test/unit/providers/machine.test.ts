import { describe, expect, it } from 'vitest'
import { toActuatorMachine } from '../../../src/providers/machine'

describe('toActuatorMachine', () => {
  it('keeps what providers need', () => {
    const machine = toActuatorMachine({
      metadata: { name: 'm', namespace: 'ns', uid: 'u', labels: { a: 'b' } },
      spec: { providerID: 'aws:///z/i-0123456789abcdef0', failureDomain: 'eu-west-1b' },
      status: { providerStatus: { instanceId: 'i-0123456789abcdef0' } },
    })
    expect(machine.metadata).toMatchObject({ name: 'm', namespace: 'ns', uid: 'u' })
    expect(machine.spec.providerID).toBe('aws:///z/i-0123456789abcdef0')
    expect(machine.spec.failureDomain).toBe('eu-west-1b')
    expect(machine.status?.providerStatus).toEqual({ instanceId: 'i-0123456789abcdef0' })
  })

  it.each([
    ['no name', { namespace: 'ns', uid: 'u' }],
    ['no namespace', { name: 'm', uid: 'u' }],
    ['no uid', { name: 'm', namespace: 'ns' }],
  ])('refuses a Machine with %s', (_, metadata) => {
    expect(() => toActuatorMachine({ metadata })).toThrow(/metadata/)
  })
})
