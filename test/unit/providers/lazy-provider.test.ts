/** Providers registered to load on first use: same answers and capabilities as the provider. */
import { describe, expect, it } from 'vitest'
import { createAwsProvider } from '../../../src/providers/aws/provider'
import type { CapacityRequest } from '../../../src/providers/capacity'
import { createDefaultProviders, kwokCapabilities } from '../../../src/providers/default-registry'
import { createKwokProvider } from '../../../src/providers/kwok/provider'
import { lazyProvider } from '../../../src/providers/lazy-provider'
import type { Provider } from '../../../src/providers/registry'

const capabilities = (provider: Provider) =>
  (['sweepOrphans', 'capacity', 'instanceStatus'] as const).filter((c) => provider[c] !== undefined)

const request: CapacityRequest = {
  providerSpec: { allocatable: { cpu: '2', memory: '8Gi', pods: '50' } },
  secrets: { readSecret: async () => undefined },
  credentialsSecretRef: undefined,
  signal: new AbortController().signal,
}

describe('lazyProvider', () => {
  it('registers kwok and aws with the capabilities their providers have', async () => {
    const registry = createDefaultProviders({ MACHINE_API_PROVIDERS: 'aws,kwok' })
    const aws = createAwsProvider({ defaultRegion: 'us-east-1' })
    try {
      expect(kwokCapabilities).toEqual(capabilities(createKwokProvider()))
      expect(capabilities(registry.require('kwok'))).toEqual(capabilities(createKwokProvider()))
      expect(capabilities(registry.require('aws'))).toEqual(capabilities(aws))
    } finally {
      await aws.close?.()
      await registry.close()
    }
  })

  it("answers with the loaded provider's answer, loading it once", async () => {
    let loads = 0
    const kwok = lazyProvider('kwok', async () => {
      loads++
      return createKwokProvider()
    }, ['capacity'])
    expect(loads).toBe(0)
    const first = await kwok.capacity(request)
    expect(first).toEqual(await createKwokProvider().capacity?.(request))
    await kwok.capacity(request)
    expect(loads).toBe(1)
  })

  it('loads again on the next call after a failed load', async () => {
    let loads = 0
    const flaky = lazyProvider('kwok', async () => {
      loads++
      if (loads === 1) throw new Error('import failed')
      return createKwokProvider()
    }, ['capacity'])
    await expect(flaky.capacity(request)).rejects.toThrow('import failed')
    await expect(flaky.capacity(request)).resolves.toMatchObject({ capacity: { cpu: '2' } })
    expect(loads).toBe(2)
  })

  it('says so when the loaded provider lacks a capability it was registered with', async () => {
    const wrong = lazyProvider('kwok', async () => createKwokProvider(), ['sweepOrphans'])
    await expect(wrong.sweepOrphans({} as never)).rejects.toThrow(
      'provider kwok was registered with sweepOrphans but has none',
    )
  })
})
