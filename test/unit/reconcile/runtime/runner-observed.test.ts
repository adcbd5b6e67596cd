import { describe, expect, it } from 'vitest'
import { systemClock } from '../../../../src/clock'
import { KubeApiError } from '../../../../src/kube/errors'
import type { KubeClient } from '../../../../src/kube/kube-client'
import type { ObjectKey } from '../../../../src/kube/object-key'
import type { KubeObject } from '../../../../src/kube/resource'
import { silentLogger } from '../../../../src/observability/logger'
import type { Controller } from '../../../../src/reconcile/runtime/controller'
import { createRunner } from '../../../../src/reconcile/runtime/runner'

const key: ObjectKey = { kind: 'Widget', namespace: 'ns', name: 'w' }
const listed: KubeObject = { metadata: { namespace: 'ns', name: 'w', resourceVersion: '5' } }

/** A controller that records what each call was handed and fails while `fail` says so. */
function recordingController(fail: (observed: KubeObject | undefined) => Error | undefined) {
  const calls: Array<string | undefined> = []
  const controller: Controller = {
    kind: 'Widget',
    resource: { group: 'test', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true },
    async reconcile(_deps, _key, observed) {
      calls.push(observed?.metadata?.resourceVersion)
      const error = fail(observed)
      if (error) throw error
      return {}
    },
  }
  return { controller, calls }
}

function runnerFor(controller: Controller) {
  // The test controllers make no apiserver call: no client is needed.
  const deps = {
    kube: {} as KubeClient,
    clock: systemClock,
    log: silentLogger(),
    fieldManager: 't',
  }
  return createRunner({ controllers: [controller], deps })
}

const conflict = () => new KubeApiError({ code: 409, reason: 'Conflict', message: 'stale' })

describe('runner: the delivered object', () => {
  it('hands it to the controller', async () => {
    const { controller, calls } = recordingController(() => undefined)
    expect(await runnerFor(controller).run(key, listed)).toEqual({ type: 'done' })
    expect(calls).toEqual(['5'])
  })

  it('runs once more reading fresh when a write based on it conflicts', async () => {
    const { controller, calls } = recordingController((o) => (o ? conflict() : undefined))
    expect(await runnerFor(controller).run(key, listed)).toEqual({ type: 'done' })
    expect(calls).toEqual(['5', undefined])
  })

  it('leaves a conflict of a fresh read to the transport (no loop)', async () => {
    const { controller, calls } = recordingController(() => conflict())
    const outcome = await runnerFor(controller).run(key, listed)
    expect(outcome).toMatchObject({ type: 'retry', reason: 'Conflict' })
    expect(calls).toEqual(['5', undefined])
  })

  it('hands over related objects without the own one, and reads fresh after a conflict', async () => {
    const handed: Array<number | undefined> = []
    let fail = true
    const controller: Controller = {
      kind: 'Widget',
      resource: {
        group: 'test',
        version: 'v1',
        kind: 'Widget',
        plural: 'widgets',
        namespaced: true,
      },
      async reconcile(_deps, _key, _observed, related) {
        handed.push(related?.length)
        if (related && fail) {
          fail = false
          throw conflict()
        }
        return {}
      },
    }
    const node = {
      type: { group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false },
      obj: listed,
    }
    expect(await runnerFor(controller).run(key, undefined, [node])).toEqual({ type: 'done' })
    expect(handed).toEqual([1, undefined])
  })
})

describe('runner: timers', () => {
  it('clamps a requeue past what a timer holds (an MHC timeout of 720h)', async () => {
    const controller: Controller = {
      kind: 'Widget',
      resource: {
        group: 'test',
        version: 'v1',
        kind: 'Widget',
        plural: 'widgets',
        namespaced: true,
      },
      reconcile: async () => ({ requeueAfterMs: 720 * 3600_000 }),
    }
    expect(await runnerFor(controller).run(key)).toEqual({ type: 'requeue', afterMs: 2 ** 31 - 1 })
  })
})
