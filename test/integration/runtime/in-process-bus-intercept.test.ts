/**
 * The in-process bus's `interceptChanges` seam (where chaos tests drop, duplicate and reorder watch
 * events): every watched change passes through it before it becomes a key, nothing bypasses it,
 * and whatever it delivers (here: each held change twice, newest first) reaches the queue.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { selfMapper } from '../../../src/bus/event-mapping'
import {
  type ChangeDelivery,
  startInProcessBus,
  type WatchedChange,
} from '../../../src/bus/in-process-bus'
import type { ObjectKey } from '../../../src/kube/object-key'
import { silentLogger } from '../../../src/observability/logger'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { testNamespace, waitFor } from '../../harness/kube'
import { converged, testDeps, useWidgetKube, widget, widgetController, widgetType } from './widget'

const { kc, kube } = useWidgetKube()

describe('in-process bus interceptChanges', () => {
  it('sees every watched change first, and what it delivers (twice, reordered) is reconciled', async () => {
    const namespace = await testNamespace(kc, 'bus-intercept')
    const held: WatchedChange[] = []
    let deliver: ChangeDelivery = () => {}
    const runs: ObjectKey[] = []
    const bus = startInProcessBus({
      kube,
      runner: createRunner({
        controllers: [widgetController((key) => runs.push(key))],
        deps: testDeps(kube),
      }),
      reconciled: [widgetType],
      watched: [widgetType],
      mappers: [selfMapper('Widget')],
      timers: realTimers(),
      log: silentLogger(),
      namespace,
      // No sweep: only what the interceptor delivers can run a key.
      sweepPeriodMs: 0,
      // Holds the changes of w; lets those of the sentinel s through.
      interceptChanges: (real) => {
        deliver = real
        return (change) => (change.obj.metadata?.name === 's' ? real(change) : held.push(change))
      },
    })
    onTestFinished(() => bus.stop())
    await bus.ready()

    await kube.create(widgetType, widget(namespace, 'w', 2))
    await kube.mergePatch(widgetType, { namespace, name: 'w' }, { spec: { replicas: 3 } })
    const seen = await waitFor('both changes held', () => held.length >= 2 && held)
    expect(seen.map((c) => [c.type.kind, c.change, c.obj.metadata?.name])).toEqual([
      ['Widget', 'ADDED', 'w'],
      ['Widget', 'MODIFIED', 'w'],
    ])
    // Held means not delivered. A later change, let through, runs its key: a bypass (if there
    // were one) would have queued w's earlier changes first, and the queue starts keys in order.
    await kube.create(widgetType, widget(namespace, 's', 0))
    await waitFor('the sentinel reconciled', () => runs.some((key) => key.name === 's'))
    expect(runs.filter((key) => key.name === 'w')).toEqual([])

    for (const change of [...held].reverse()) {
      deliver(change)
      deliver(change)
    }
    await waitFor('converged from the delivered changes', () => converged(kube, namespace, 'w'))
    expect(runs.some((key) => key.name === 'w')).toBe(true)
  })
})
