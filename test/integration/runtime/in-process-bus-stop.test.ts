/**
 * A clean stop of the in-process bus (what the worker and `npm run dev` stop on Ctrl-C) logs no
 * warning: changes still being mapped to keys finish while the apiserver answers. The bus reaches
 * the shared control plane through a relay that the test cuts as soon as stop() resolves, as the
 * demo stops its control plane right after the worker.
 */
import { describe, expect, it } from 'vitest'
import {
  type EventMapper,
  selectorMapper,
  selfMapper,
  sharedListing,
} from '../../../src/bus/event-mapping'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { coreTypes } from '../../../src/kube/resource'
import type { Logger } from '../../../src/observability/logger'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { testNamespace, waitFor } from '../../harness/kube'
import { relayedClient } from '../../harness/tcp-relay'
import { testDeps, testKube, useWidgetKube, widgetController, widgetType } from './widget'

const { kc, kube } = useWidgetKube()

/** A logger that keeps the messages of warnings and errors. */
function recordingLogger(recorded: string[]): Logger {
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (obj, msg) => void recorded.push(`warn: ${msg} ${JSON.stringify(obj)}`),
    error: (obj, msg) => void recorded.push(`error: ${msg} ${JSON.stringify(obj)}`),
    child: () => logger,
  }
  return logger
}

describe('in-process bus stop', () => {
  it('lets the mappings under way finish before it resolves, so a stop logs no warning', async () => {
    const namespace = await testNamespace(kc, 'bus-stop')
    const { relay, kube: relayed } = await relayedClient(kc, testKube)

    // A ConfigMap change wakes every Widget of its namespace, through a listing that gathers
    // changes for a while first, as a Machine change wakes the MachineHealthChecks selecting it.
    const gathered = selectorMapper(
      'ConfigMap',
      widgetType,
      () => ({}),
      sharedListing(widgetType, { timers: realTimers(), ms: 500 }),
    )
    const mapping = { started: [] as string[], settled: 0 }
    const counted: EventMapper = {
      ...gathered,
      map(obj, client, change) {
        mapping.started.push(obj.metadata?.name ?? '')
        return Promise.resolve(gathered.map(obj, client, change)).finally(() => {
          mapping.settled++
        })
      },
    }
    const recorded: string[] = []
    const bus = startInProcessBus({
      kube: relayed,
      runner: createRunner({ controllers: [widgetController()], deps: testDeps(relayed) }),
      reconciled: [widgetType],
      watched: [widgetType, coreTypes.configMap],
      mappers: [selfMapper('Widget'), counted],
      timers: realTimers(),
      log: recordingLogger(recorded),
      namespace,
      sweepPeriodMs: 0,
    })
    await bus.ready()

    await kube.create(coreTypes.configMap, { metadata: { namespace, name: 'nudge' } })
    await waitFor('the change being mapped', () => mapping.started.includes('nudge'))
    await bus.stop()
    relay.cut()
    await waitFor('every mapping settled', () => mapping.settled === mapping.started.length)
    expect(recorded).toEqual([])
  })
})
