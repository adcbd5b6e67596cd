import { describe, expect, it } from 'vitest'
import { configurationRetryMs } from '../../../../src/reconcile/machine/machine-deps'
import { providerFailurePlan } from '../../../../src/reconcile/machine/provider-failure'
import type { ProviderFailure } from '../../../../src/reconcile/runtime/classify'

const throttled: ProviderFailure = {
  reason: 'Throttled',
  message: 'EC2 TerminateInstances: RequestLimitExceeded',
  permanent: false,
  retryAfterMs: 20_000,
}
const timedOut: ProviderFailure = {
  reason: 'ProviderTimeout',
  message: 'The operation was aborted',
  permanent: false,
}
const unauthorized: ProviderFailure = {
  reason: 'Unauthorized',
  message: 'check credentialsSecret',
  permanent: true,
}

const problem = (f: ProviderFailure) => ({ reason: f.reason, message: f.message })
const warningOf = (f: ProviderFailure) => [{ type: 'Warning', ...problem(f) }]

describe('providerFailurePlan', () => {
  it.each([
    [
      'a throttled delete holds deletion for the provider delay',
      throttled,
      'deletion',
      { deleting: problem(throttled), events: warningOf(throttled), requeueAfterMs: 20_000 },
    ],
    [
      'a timed-out delete holds deletion, paced by the runner backoff',
      timedOut,
      'deletion',
      { deleting: problem(timedOut), events: warningOf(timedOut), backoff: problem(timedOut) },
    ],
    [
      'a permanent delete failure is re-checked slowly',
      unauthorized,
      'deletion',
      {
        deleting: problem(unauthorized),
        events: warningOf(unauthorized),
        requeueAfterMs: configurationRetryMs,
      },
    ],
    [
      'a throttled create is an infrastructure problem retried after the provider delay',
      throttled,
      'provisioning',
      {
        infrastructureProblem: problem(throttled),
        events: warningOf(throttled),
        requeueAfterMs: 20_000,
      },
    ],
    [
      'a timed-out create is an infrastructure problem paced by the runner backoff',
      timedOut,
      'provisioning',
      {
        infrastructureProblem: problem(timedOut),
        events: warningOf(timedOut),
        backoff: problem(timedOut),
      },
    ],
    [
      'a permanent create failure fails the Machine, not retried',
      unauthorized,
      'provisioning',
      { failure: problem(unauthorized), events: warningOf(unauthorized) },
    ],
  ] as const)('%s', (_, failure, during, plan) => {
    expect(providerFailurePlan(failure, during)).toEqual(plan)
  })
})
