import { describe, expect, it } from 'vitest'
import type { Machine } from '../../../../src/api/v1beta1/machine'
import type { ProviderResult } from '../../../../src/providers/actuator'
import type { MachineProvider } from '../../../../src/reconcile/machine/provider-context'
import {
  providerStatusWithAccess,
  recordedAccess,
  refreshingOnStaleAccess,
} from '../../../../src/reconcile/machine/recorded-access'
import type { ProviderFailure } from '../../../../src/reconcile/runtime/classify'

const result = (access?: ProviderResult['access']): ProviderResult => ({
  providerID: 'aws:///eu-west-1a/i-0abc',
  addresses: [],
  providerStatus: { state: 'running' },
  ...(access ? { access } : {}),
})

function withStatus(providerStatus: unknown): Machine {
  return { spec: {}, status: { providerStatus } } as unknown as Machine
}

/** A provider whose calls answer from `answers` in turn, counting them in `calls`. */
function answering(answers: (ProviderFailure | 'ok')[], calls: string[], name: string) {
  const provider: MachineProvider = {
    async call() {
      calls.push(name)
      const answer = answers.shift() ?? 'ok'
      return answer === 'ok' ? { ok: true, value: name as never } : { ok: false, failure: answer }
    },
  }
  return provider
}

const refused: ProviderFailure = { reason: 'Unauthorized', message: 'no', permanent: true }
const throttled: ProviderFailure = { reason: 'Throttled', message: 'slow', permanent: false }

describe('the access a Machine records with its instance', () => {
  it('is written beside the provider status and read back with the provider name', () => {
    const status = providerStatusWithAccess(result({ region: 'eu-west-1' }), 'aws')
    expect(status).toEqual({
      state: 'running',
      access: { provider: 'aws', facts: { region: 'eu-west-1' } },
    })
    expect(recordedAccess(withStatus(status))).toEqual({
      provider: 'aws',
      facts: { region: 'eu-west-1' },
    })
  })

  it('is not recorded when the provider reports none, and absent or malformed reads as none', () => {
    expect(providerStatusWithAccess(result(), 'aws')).toEqual({ state: 'running' })
    expect(providerStatusWithAccess(result({}), undefined)).toEqual({ state: 'running' })
    expect(recordedAccess(withStatus({ state: 'running' }))).toBeUndefined()
    expect(recordedAccess(withStatus({ access: { provider: 'aws', facts: 'x' } }))).toBeUndefined()
    expect(recordedAccess(withStatus({ access: { facts: {} } }))).toBeUndefined()
  })
})

describe('calling with the recorded access', () => {
  it('reads the class fresh once when the access is refused, and keeps the fresh provider', async () => {
    const calls: string[] = []
    let reads = 0
    const fresh = answering([], calls, 'fresh')
    const provider = refreshingOnStaleAccess(answering([refused], calls, 'recorded'), async () => {
      reads++
      return fresh
    })
    expect(await provider.call(async () => 'x')).toEqual({ ok: true, value: 'fresh' })
    expect(await provider.call(async () => 'x')).toEqual({ ok: true, value: 'fresh' })
    expect(calls).toEqual(['recorded', 'fresh', 'fresh'])
    expect(reads).toBe(1)
  })

  it('does not read the class for a failure that is not about access', async () => {
    const calls: string[] = []
    let reads = 0
    const provider = refreshingOnStaleAccess(
      answering([throttled], calls, 'recorded'),
      async () => {
        reads++
        return answering([], calls, 'fresh')
      },
    )
    expect(await provider.call(async () => 'x')).toEqual({ ok: false, failure: throttled })
    expect(reads).toBe(0)
  })

  it('keeps the first failure when the class is gone', async () => {
    const calls: string[] = []
    const provider = refreshingOnStaleAccess(
      answering([refused], calls, 'recorded'),
      async () => undefined,
    )
    expect(await provider.call(async () => 'x')).toEqual({ ok: false, failure: refused })
    expect(calls).toEqual(['recorded'])
  })
})
