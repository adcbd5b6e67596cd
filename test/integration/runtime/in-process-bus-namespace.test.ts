import { describe, expect, it, onTestFinished } from 'vitest'
import type { EventMapper } from '../../../src/bus/event-mapping'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { formatKey, type ObjectKey } from '../../../src/kube/object-key'
import { silentLogger } from '../../../src/observability/logger'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { testNamespace, waitFor } from '../../harness/kube'
import { converged, testDeps, useWidgetKube, widget, widgetController, widgetType } from './widget'

const { kc, kube } = useWidgetKube()

/** Maps a Widget to itself and to the same name in `elsewhere`, like a Node maps to any Machine. */
function crossNamespaceMapper(elsewhere: string): EventMapper {
  return {
    sourceKind: 'Widget',
    needsObject: false,
    map: (obj) => {
      const name = obj.metadata?.name ?? ''
      return [
        { kind: 'Widget', namespace: obj.metadata?.namespace, name },
        { kind: 'Widget', namespace: elsewhere, name },
      ]
    },
  }
}

describe('in-process bus namespace scope', () => {
  it('drops keys of other namespaces that a change maps to', async () => {
    const namespace = await testNamespace(kc, 'bus-scope')
    const elsewhere = await testNamespace(kc, 'bus-other')
    const runs: ObjectKey[] = []
    const bus = startInProcessBus({
      kube,
      runner: createRunner({
        controllers: [widgetController((key) => runs.push(key))],
        deps: testDeps(kube),
      }),
      reconciled: [widgetType],
      watched: [widgetType],
      mappers: [crossNamespaceMapper(elsewhere)],
      timers: realTimers(),
      log: silentLogger(),
      namespace,
      sweepPeriodMs: 0,
    })
    onTestFinished(() => bus.stop())
    await bus.ready()

    await kube.create(widgetType, widget(namespace, 'w', 1))
    await waitFor('converged', () => converged(kube, namespace, 'w'))
    // Both keys of each change were added together: once idle, a foreign run would have shown.
    await bus.queue.idle()
    expect(runs.length).toBeGreaterThan(0)
    expect(runs.map(formatKey).filter((k) => k.includes(`/${elsewhere}/`))).toEqual([])
  })
})
