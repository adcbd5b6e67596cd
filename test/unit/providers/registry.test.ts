import { describe, expect, it } from 'vitest'
import type { Actuator } from '../../../src/providers/actuator'
import { InvalidConfigurationError } from '../../../src/providers/errors'
import { createProviderRegistry, type Provider } from '../../../src/providers/registry'

const unused = async (): Promise<never> => {
  throw new Error('not called')
}
const actuator: Actuator = { exists: unused, create: unused, update: unused, delete: unused }

function provider(name: string, onClose?: () => void): Provider {
  return { name, actuator, ...(onClose ? { close: onClose } : {}) }
}

describe('createProviderRegistry', () => {
  it('finds providers by name', () => {
    const registry = createProviderRegistry([provider('aws'), provider('kwok')])
    expect(registry.get('aws')?.name).toBe('aws')
    expect(registry.require('kwok').name).toBe('kwok')
    expect(registry.names()).toEqual(['aws', 'kwok'])
    expect(registry.get('gcp')).toBeUndefined()
  })

  it('rejects an unknown provider with an invalid configuration naming the known ones', () => {
    const registry = createProviderRegistry([provider('aws')])
    let error: unknown
    try {
      registry.require('gcp')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InvalidConfigurationError)
    expect((error as InvalidConfigurationError).reason).toBe('UnknownProvider')
    expect((error as Error).message).toContain('aws')
  })

  it('refuses two providers with one name', () => {
    expect(() => createProviderRegistry([provider('aws'), provider('aws')])).toThrow(/duplicate/)
  })

  it('closes every provider', async () => {
    const closed: string[] = []
    const registry = createProviderRegistry([
      provider('a', () => closed.push('a')),
      provider('b', () => closed.push('b')),
    ])
    await registry.close()
    expect(closed).toEqual(['a', 'b'])
  })

  it('keeps registries independent (no shared state)', () => {
    const one = createProviderRegistry([provider('aws')])
    const two = createProviderRegistry([])
    expect(one.get('aws')).toBeDefined()
    expect(two.get('aws')).toBeUndefined()
  })
})
