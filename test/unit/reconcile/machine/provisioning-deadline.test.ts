import { describe, expect, it } from 'vitest'
import type { Machine } from '../../../../src/api/v1beta1/machine'
import type { MachineObservation } from '../../../../src/reconcile/machine/observation'
import { planMachine } from '../../../../src/reconcile/machine/plan'
import { kwokInstance, machine, now, observed } from './builders'

const settings = { claimTtlMs: 150_000, deletionRetryMs: 10_000, nodeLookupRetryMs: 15_000 }
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString()

function aged(minutes: number, extra: Parameters<typeof machine>[0] = {}): Machine {
  const m = machine({ providerID: 'kwok://ns/m', ...extra })
  return { ...m, metadata: { ...m.metadata, creationTimestamp: minutesAgo(minutes) } }
}

describe('the provisioning deadline', () => {
  it.each<[string, MachineObservation, string]>([
    [
      'within 15 minutes the deadline does nothing',
      observed(aged(14), { instance: kwokInstance, node: { state: 'missing' } }),
      'wait',
    ],
    [
      'past 15 minutes without a Node the instance is terminated first',
      observed(aged(16), { instance: kwokInstance, node: { state: 'missing' } }),
      'terminate-instance',
    ],
    [
      'then the Machine is Failed with ProvisioningTimeout',
      observed(aged(16), { instance: { state: 'absent' }, node: { state: 'missing' } }),
      'ProvisioningTimeout',
    ],
    [
      'a Machine whose instance never came fails too',
      observed(aged(16, { providerID: undefined as unknown as string }), {
        instance: { state: 'terminating', requeueAfterMs: 5000 },
      }),
      'ProvisioningTimeout',
    ],
    [
      'a linked Machine is the health check business',
      observed(
        aged(60, {
          status: { nodeRef: { name: 'n1' } } as Machine['status'],
        }),
        { instance: kwokInstance, node: { state: 'missing' } },
      ),
      'wait',
    ],
    [
      'its own provisioningTimeout applies',
      observed(aged(3, { spec: { provisioningTimeout: '2m' } }), {
        instance: { state: 'absent' },
      }),
      'ProvisioningTimeout',
    ],
    [
      'provisioningTimeout 0 never times out',
      observed(aged(600, { spec: { provisioningTimeout: '0' } }), {
        instance: kwokInstance,
        node: { state: 'missing' },
      }),
      'wait',
    ],
  ])('%s', (_name, obs, expected) => {
    const plan = planMachine(obs, now, settings)
    const got = plan.action?.type ?? plan.failure?.reason
    const deadline = ['terminate-instance', 'ProvisioningTimeout']
    expect(got !== undefined && deadline.includes(got) ? got : 'wait').toBe(expected)
  })
})
