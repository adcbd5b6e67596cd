import { describe, expect, it, onTestFinished } from 'vitest'
import { selfMapper } from '../../../src/bus/event-mapping'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { silentLogger } from '../../../src/observability/logger'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { testNamespace, waitFor } from '../../harness/kube'
import { converged, testDeps, useWidgetKube, widget, widgetController, widgetType } from './widget'

const { kc, kube } = useWidgetKube()

function startBus(namespace: string, options: { events: boolean; sweepPeriodMs: number }) {
  let sweeps = 0
  const bus = startInProcessBus({
    kube,
    runner: createRunner({ controllers: [widgetController()], deps: testDeps(kube) }),
    reconciled: [widgetType],
    watched: [widgetType],
    mappers: [selfMapper('Widget')],
    timers: realTimers(),
    log: silentLogger(),
    namespace,
    concurrency: 8,
    onSweep: () => sweeps++,
    ...options,
  })
  onTestFinished(() => bus.stop())
  return { bus, sweeps: () => sweeps }
}

async function allConverged(namespace: string, names: string[]): Promise<boolean> {
  const states = await Promise.all(names.map((name) => converged(kube, namespace, name)))
  return states.every(Boolean)
}

describe('in-process bus', () => {
  it('converges every object through the sweep alone within two sweep periods', async () => {
    const namespace = await testNamespace(kc, 'bus-sweep')
    const early = Array.from({ length: 10 }, (_, i) => `early-${i}`)
    const late = Array.from({ length: 10 }, (_, i) => `late-${i}`)
    for (const name of early) await kube.create(widgetType, widget(namespace, name, 2))
    const { sweeps } = startBus(namespace, { events: false, sweepPeriodMs: 3000 })
    await waitFor('the first sweep', () => sweeps() >= 1)
    // Created after the first sweep listed: only the next sweep can find them.
    for (const name of late) await kube.create(widgetType, widget(namespace, name, 2))
    await waitFor('all converged', () => allConverged(namespace, [...early, ...late]))
    // First sweep at start, second one period later: at most the third may have begun.
    expect(sweeps()).toBeLessThanOrEqual(3)
  })

  it('converges a change from its watch event without a sweep', async () => {
    const namespace = await testNamespace(kc, 'bus-events')
    const { bus } = startBus(namespace, { events: true, sweepPeriodMs: 0 })
    await bus.ready()
    await kube.create(widgetType, widget(namespace, 'w', 3))
    await waitFor('converged from the event', () => converged(kube, namespace, 'w'))
    await kube.mergePatch(widgetType, { namespace, name: 'w' }, { spec: { replicas: 1 } })
    await waitFor('scaled down from the event', () => converged(kube, namespace, 'w'))
  })
})
