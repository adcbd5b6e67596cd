/**
 * A sweep hands each run the related objects its controller names, from a paged list of those
 * walked alongside (src/bus/related-pages.ts), against a real apiserver: no GET of a related
 * object the list held, a GET for one it did not, and a write based on a stale related object
 * ends in a Conflict and a fresh rerun, never in a write of stale data.
 */
import { describe, expect, it } from 'vitest'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import type { RelatedObjects } from '../../../src/bus/related-pages'
import { sweep } from '../../../src/bus/sweep'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import type { Controller, ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { readingDelivered } from '../../../src/reconcile/runtime/delivered-reads'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { testNamespace, waitFor } from '../../harness/kube'
import { useRecordingKube } from './recording-kube'
import { testDeps } from './widget'

/** Each owner ConfigMap names its partner Secret in data.partner. */
const partners: RelatedObjects = {
  type: coreTypes.secret,
  refsOf: (owner) => {
    const partner = (owner as { data?: { partner?: string } }).data?.partner
    return partner ? [{ namespace: owner.metadata?.namespace, name: partner }] : []
  },
}

const api = useRecordingKube()
const { calls } = api

/** Sweeps `namespace`'s ConfigMaps through `controller`, two to a page. */
async function sweepWith(namespace: string, controller: Controller<ReconcileDeps>) {
  const runner = createRunner({ controllers: [controller], deps: testDeps(api.kube) })
  const outcomes = new Map<string, string>()
  await sweep({
    kube: api.kube,
    types: [coreTypes.configMap],
    namespace,
    pageSize: 2,
    log: silentLogger(),
    enqueue: async (key, listed, related) => {
      // Only the test's owners (the namespace also holds kube-root-ca.crt).
      if (!(listed as { data?: { partner?: string } }).data?.partner) return
      outcomes.set(key.name, (await runner.run(key, listed, related)).type)
    },
    related: (type) => runner.related(type.kind),
  })
  return Object.fromEntries(outcomes)
}

/** Reads each owner and its partner (through the run's client) and records the partner found. */
function partnerReader(
  namespace: string,
  seen: Map<string, string | undefined>,
  related: RelatedObjects = partners,
) {
  return readingDelivered<ReconcileDeps>(
    {
      kind: 'ConfigMap',
      resource: coreTypes.configMap,
      async reconcile(deps, key) {
        const owner = await deps.kube.get<KubeObject & { data?: { partner?: string } }>(
          coreTypes.configMap,
          key,
        )
        const partner = owner?.data?.partner
        if (!partner) return {}
        const found = await deps.kube.get(coreTypes.secret, { namespace, name: partner })
        seen.set(key.name, found?.metadata?.name)
        return {}
      },
    },
    related,
  )
}

async function createOwners(namespace: string, names: string[], partnerOf: (n: string) => string) {
  for (const name of names) {
    await api.kube.create(coreTypes.configMap, {
      metadata: { namespace, name },
      data: { partner: partnerOf(name) },
    })
  }
}

describe('sweep with related objects', () => {
  it('hands each run the related object the list held, and GETs only one it did not', async () => {
    const namespace = await testNamespace(api.kc, 'sweep-related')
    const owners = ['a', 'b', 'c', 'd', 'e']
    await createOwners(namespace, owners, (n) => (n === 'c' ? 'c-missing' : `${n}-partner`))
    for (const name of owners.filter((n) => n !== 'c')) {
      await api.kube.create(coreTypes.secret, { metadata: { namespace, name: `${name}-partner` } })
    }
    const seen = new Map<string, string | undefined>()
    const controller = partnerReader(namespace, seen)
    calls.length = 0

    expect(await sweepWith(namespace, controller)).toEqual(
      Object.fromEntries(owners.map((n) => [n, 'done'])),
    )
    expect(Object.fromEntries(seen)).toEqual({
      a: 'a-partner',
      b: 'b-partner',
      c: undefined,
      d: 'd-partner',
      e: 'e-partner',
    })
    expect(calls.filter((c) => c === 'get configmaps')).toEqual([])
    // Only the partner no list held is read: the missing one.
    expect(calls.filter((c) => c === 'get secrets')).toEqual(['get secrets'])
    expect(calls.filter((c) => c === 'list secrets').length).toBeLessThanOrEqual(3)
  })

  it("hands the in-process bus's sweep runs their related objects too", async () => {
    const namespace = await testNamespace(api.kc, 'sweep-related-bus')
    const owners = ['a', 'b', 'c', 'd', 'e']
    await createOwners(namespace, owners, (n) => `${n}-partner`)
    for (const name of owners) {
      await api.kube.create(coreTypes.secret, { metadata: { namespace, name: `${name}-partner` } })
    }
    const seen = new Map<string, string | undefined>()
    let sweeps = 0
    calls.length = 0
    const bus = startInProcessBus({
      kube: api.kube,
      runner: createRunner({
        controllers: [partnerReader(namespace, seen)],
        deps: testDeps(api.kube),
      }),
      reconciled: [coreTypes.configMap],
      watched: [],
      mappers: [],
      events: false,
      sweepPeriodMs: 600_000,
      timers: realTimers(),
      log: silentLogger(),
      namespace,
      onSweep: () => sweeps++,
    })
    try {
      await waitFor('the first sweep', () => sweeps === 1)
      await bus.queue.idle()
    } finally {
      await bus.stop()
    }
    expect(Object.fromEntries(seen)).toEqual(
      Object.fromEntries(owners.map((n) => [n, `${n}-partner`])),
    )
    expect(calls.filter((c) => c.startsWith('get '))).toEqual([])
  })

  it('lists a few objects many runs share once, and hands each run its own', async () => {
    // Every owner names one of two Secrets named unlike the owners (a namespace's MachineClasses).
    const shared: RelatedObjects = { ...partners, few: true }
    const namespace = await testNamespace(api.kc, 'sweep-related-few')
    const owners = ['a', 'b', 'c', 'd', 'e']
    await createOwners(namespace, owners, (n) => (n === 'c' ? 'aa-shared' : 'zz-shared'))
    for (const name of ['aa-shared', 'zz-shared']) {
      await api.kube.create(coreTypes.secret, { metadata: { namespace, name } })
    }
    const seen = new Map<string, string | undefined>()
    calls.length = 0

    await sweepWith(namespace, partnerReader(namespace, seen, shared))
    expect(Object.fromEntries(seen)).toEqual(
      Object.fromEntries(owners.map((n) => [n, n === 'c' ? 'aa-shared' : 'zz-shared'])),
    )
    expect(calls.filter((c) => c.startsWith('get '))).toEqual([])
    expect(calls.filter((c) => c === 'list secrets')).toEqual(['list secrets'])
  })

  it('ends a write based on a stale related object in a Conflict and a fresh rerun', async () => {
    const namespace = await testNamespace(api.kc, 'sweep-related-stale')
    await createOwners(namespace, ['a'], () => 'a-partner')
    const ref = { namespace, name: 'a-partner' }
    await api.kube.create(coreTypes.secret, { metadata: ref, stringData: { v: '1' } })
    let concurrentWrites = 0
    const controller = readingDelivered<ReconcileDeps>(
      {
        kind: 'ConfigMap',
        resource: coreTypes.configMap,
        async reconcile(deps) {
          const partner = await deps.kube.get(coreTypes.secret, ref)
          if (concurrentWrites === 0) {
            // Another writer changes the partner after the sweep listed it.
            concurrentWrites++
            await api.kube.mergePatch(coreTypes.secret, ref, {
              metadata: { labels: { other: 'writer' } },
            })
          }
          await deps.kube.mergePatch(coreTypes.secret, ref, {
            metadata: {
              resourceVersion: partner?.metadata?.resourceVersion,
              annotations: { seen: partner?.metadata?.labels?.other ?? 'nothing' },
            },
          })
          return {}
        },
      },
      partners,
    )
    calls.length = 0

    expect(await sweepWith(namespace, controller)).toEqual({ a: 'done' })
    // The held (listed) Secret, the other writer, the stale write's Conflict, then a fresh run.
    expect(calls).toEqual([
      'list configmaps',
      'list secrets',
      'patch secrets',
      'patch secrets',
      'get secrets',
      'patch secrets',
    ])
    // The write that landed was based on the fresh read, which saw the other writer.
    const written = await api.kube.get(coreTypes.secret, ref)
    expect(written?.metadata?.annotations?.seen).toBe('writer')
  })
})
