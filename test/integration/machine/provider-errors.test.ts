/**
 * Each class of provider failure leads to its documented outcome, driven by direct reconciles so
 * the provider calls can be counted exactly: a permanent error fails the Machine and is not
 * retried until the spec changes; a transient one is retried after the provider's delay; a
 * missing class or unknown provider is a condition and an Event, not a crash loop.
 */
import { CoreV1Api } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { Actuator } from '../../../src/providers/actuator'
import { CapacityError, InvalidConfigurationError } from '../../../src/providers/errors'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import type { Provider } from '../../../src/providers/registry'
import { reconcileMachine } from '../../../src/reconcile/machine/reconcile'
import { waitFor } from '../../harness/kube'
import {
  kwokMachine,
  machineCondition,
  machineDeps,
  readMachine,
  testProviders,
  useMachineTestApi,
} from './fixture'

const failingSpec = z.object({ failWith: z.enum(['invalid', 'capacity']) })

/** A provider whose create fails as its spec says, counting every call. */
function failingProvider(): Provider & { calls: () => number } {
  let calls = 0
  const actuator: Actuator = {
    async exists() {
      calls++
      return false
    },
    async create(ctx) {
      calls++
      const spec = failingSpec.parse(ctx.providerSpec)
      if (spec.failWith === 'invalid') {
        throw new InvalidConfigurationError('instanceType m9.huge does not exist', {
          reason: 'InvalidInstanceType',
          field: 'instanceType',
        })
      }
      throw new CapacityError('no capacity for m5.large in eu-west-1a', {
        reason: 'InsufficientCapacity',
        retryAfterMs: 45_000,
      })
    },
    async update() {
      throw new Error('not used')
    },
    async delete() {
      calls++
      return { done: true }
    },
  }
  return { name: 'failing', actuator, calls: () => calls }
}

const schemas: Record<string, z.ZodType> = { kwok: kwokProviderSpecSchema(), failing: failingSpec }
const { api, namespace, kube } = useMachineTestApi('perr', schemas)

async function events(ns: string, name: string): Promise<string[]> {
  const list = await api().kc.makeApiClient(CoreV1Api).listNamespacedEvent({ namespace: ns })
  return list.items.filter((e) => e.involvedObject?.name === name).map((e) => e.reason ?? '')
}

describe('provider errors', () => {
  it('a permanent error fails the Machine once and is not retried until the spec changes', async () => {
    const ns = namespace()
    const provider = failingProvider()
    const deps = machineDeps(kube(), testProviders([provider]))
    const machine = kwokMachine(ns, 'bad', {
      providerSpec: { provider: 'failing', value: { failWith: 'invalid' } },
    })
    await kube().create(machineApiTypes.machine, machine)
    const key = { kind: 'Machine', namespace: ns, name: 'bad' }

    await reconcileMachine(deps, key)
    const failed = await readMachine(kube(), ns, 'bad')
    expect(failed?.status).toMatchObject({ phase: 'Failed', failureReason: 'InvalidInstanceType' })
    expect(machineCondition(failed, 'InfrastructureReady')).toMatchObject({
      status: 'False',
      reason: 'InvalidInstanceType',
      message: 'instanceType m9.huge does not exist',
    })
    const callsAfterFailure = provider.calls()
    for (let i = 0; i < 5; i++) expect(await reconcileMachine(deps, key)).toEqual({})
    expect(provider.calls()).toBe(callsAfterFailure)
    expect(await events(ns, 'bad')).toContain('InvalidInstanceType')

    await kube().mergePatch(
      machineApiTypes.machine,
      { namespace: ns, name: 'bad' },
      {
        spec: { providerSpec: { provider: 'failing', value: { failWith: 'capacity' } } },
      },
    )
    await reconcileMachine(deps, key)
    expect(provider.calls()).toBeGreaterThan(callsAfterFailure)
    expect((await readMachine(kube(), ns, 'bad'))?.status?.failureReason).toBeUndefined()
  })

  it('a capacity error keeps the Machine Provisioning and asks to come back after the provider delay', async () => {
    const ns = namespace()
    const provider = failingProvider()
    const deps = machineDeps(kube(), testProviders([provider]))
    await kube().create(
      machineApiTypes.machine,
      kwokMachine(ns, 'full', {
        providerSpec: { provider: 'failing', value: { failWith: 'capacity' } },
      }),
    )
    const key = { kind: 'Machine', namespace: ns, name: 'full' }
    for (let i = 1; i <= 3; i++) {
      expect(await reconcileMachine(deps, key)).toEqual({ requeueAfterMs: 45_000 })
      // One create per attempt, no retry loop inside a reconcile. The first asks nothing before
      // it (a Machine without the finalizer has no instance); later ones ask `exists` first.
      expect(provider.calls()).toBe(2 * i - 1)
    }
    const machine = await readMachine(kube(), ns, 'full')
    expect(machine?.status?.phase).toBe('Provisioning')
    expect(machineCondition(machine, 'InfrastructureReady')?.reason).toBe('InsufficientCapacity')
  })

  it.each([
    // Admission knows "failing", this worker's registry does not (a partial deployment).
    [
      'a provider this deployment does not run',
      { providerSpec: { provider: 'failing', value: { failWith: 'capacity' } } },
      'UnknownProvider',
    ],
    [
      'a missing MachineClass',
      { providerSpec: undefined, classRef: { name: 'gone' } },
      'MachineClassNotFound',
    ],
  ])('%s is a condition and one Event, re-checked slowly', async (_name, spec, reason) => {
    const ns = namespace()
    const name = `m-${reason.toLowerCase()}`
    const deps = machineDeps(kube(), testProviders())
    await kube().create(machineApiTypes.machine, kwokMachine(ns, name, spec))
    const key = { kind: 'Machine', namespace: ns, name }
    expect(await reconcileMachine(deps, key)).toEqual({ requeueAfterMs: 60_000 })
    expect(await reconcileMachine(deps, key)).toEqual({ requeueAfterMs: 60_000 })
    const machine = await readMachine(kube(), ns, name)
    expect(machine?.status?.phase).toBe('Pending')
    expect(machineCondition(machine, 'InfrastructureReady')).toMatchObject({
      status: 'False',
      reason,
    })
    await waitFor(
      'one Event',
      async () => (await events(ns, name)).filter((r) => r === reason).length === 1,
    )
  })
})
