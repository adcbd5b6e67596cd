/**
 * Crash safety: a reconcile that dies after its n-th apiserver call (for every n), followed by
 * ordinary reconciles, ends in the same state as an uninterrupted run, with exactly one Node per
 * Machine while it lives and none after it is deleted.
 */
import type { V1Node } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { listPages } from '../../../src/kube/paged-list'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { reconcileMachine } from '../../../src/reconcile/machine/reconcile'
import { kwokMachine, machineDeps, readMachine, testProviders, useMachineTestApi } from './fixture'

/**
 * `kube`, but every call after the first `n` throws, as if the process died there; `calls()`
 * tells how many calls were attempted.
 */
function dyingAfter(kube: KubeClient, n: number): KubeClient & { calls: () => number } {
  let calls = 0
  return new Proxy(kube as KubeClient & { calls: () => number }, {
    get(target, prop, receiver) {
      if (prop === 'calls') return () => calls
      const value = Reflect.get(target, prop, receiver)
      if (typeof value !== 'function' || prop === 'close') return value
      return (...args: unknown[]) => {
        calls++
        if (calls > n) return Promise.reject(new Error(`process died before call ${calls}`))
        return value.apply(target, args)
      }
    },
  })
}

const { namespace, kube } = useMachineTestApi('crash')

async function nodesFor(providerID: string): Promise<number> {
  let count = 0
  for await (const page of listPages<V1Node & KubeObject>(kube(), coreTypes.node)) {
    count += page.items.filter((n) => n.spec?.providerID === providerID).length
  }
  return count
}

/**
 * Reconciles with a healthy client until `done` holds (at most 20 passes), honouring the requeue
 * delay each pass asks for, as the runtime would. The provider call timeout is short, so a create
 * claim left by a dead reconcile expires within a second.
 */
async function settle(
  key: { kind: string; namespace: string; name: string },
  done: () => Promise<boolean>,
) {
  const deps = { ...machineDeps(kube(), testProviders()), providerCallTimeoutMs: 500 }
  for (let pass = 0; pass < 20 && !(await done()); pass++) {
    const result = await reconcileMachine(deps, key).catch(() => ({ requeueAfterMs: 200 }))
    const delay = Math.min(result.requeueAfterMs ?? 0, 1000)
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
  }
  return await done()
}

describe('crash safety', () => {
  it('dying at any call of create or delete converges to one Node, then none', async () => {
    const ns = namespace()
    // An uninterrupted create and delete tell how many calls there are to die at.
    const reference = dyingAfter(kube(), Number.POSITIVE_INFINITY)
    const referenceKey = { kind: 'Machine', namespace: ns, name: 'reference' }
    await kube().create(machineApiTypes.machine, kwokMachine(ns, 'reference'))
    await reconcileMachine(machineDeps(reference, testProviders()), referenceKey)
    const createCalls = reference.calls()
    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'reference' })
    await reconcileMachine(machineDeps(reference, testProviders()), referenceKey)
    const deleteCalls = reference.calls() - createCalls
    expect(createCalls).toBeGreaterThan(5)

    for (let n = 0; n < Math.max(createCalls, deleteCalls); n++) {
      const name = `crash-${n}`
      const key = { kind: 'Machine', namespace: ns, name }
      const providerID = `kwok://${ns}.${name}`
      await kube().create(machineApiTypes.machine, kwokMachine(ns, name))

      const dying = dyingAfter(kube(), n)
      await reconcileMachine(
        { ...machineDeps(dying, testProviders()), providerCallTimeoutMs: 500 },
        key,
      ).catch(() => undefined)
      const running = await settle(
        key,
        async () => (await readMachine(kube(), ns, name))?.status?.phase === 'Running',
      )
      expect(running, `create, died after call ${n}`).toBe(true)
      expect(await nodesFor(providerID), `create, died after call ${n}`).toBe(1)

      await kube().delete(machineApiTypes.machine, { namespace: ns, name })
      const dyingAgain = dyingAfter(kube(), n)
      await reconcileMachine(machineDeps(dyingAgain, testProviders()), key).catch(() => undefined)
      const gone = await settle(
        key,
        async () => (await readMachine(kube(), ns, name)) === undefined,
      )
      expect(gone, `delete, died after call ${n}`).toBe(true)
      expect(await nodesFor(providerID), `delete, died after call ${n}`).toBe(0)
    }
  })
})
