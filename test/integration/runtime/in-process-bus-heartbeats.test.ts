import { describe, expect, it, onTestFinished } from 'vitest'
import type { EventMapper } from '../../../src/bus/event-mapping'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { ignoreNotFound, uniqueName, waitFor } from '../../harness/kube'
import { testDeps, useWidgetKube } from './widget'

const { kube } = useWidgetKube()

function readyCondition(status: 'True' | 'False', heartbeat: string, transition: string) {
  return {
    type: 'Ready',
    status,
    reason: status === 'True' ? 'KubeletReady' : 'KubeletNotReady',
    message: 'test',
    lastHeartbeatTime: heartbeat,
    lastTransitionTime: transition,
  }
}

describe('in-process bus: Node heartbeats', () => {
  it('delivers a Ready flip but not a heartbeat', async () => {
    const name = uniqueName('heartbeat')
    const seen: string[] = []
    const recorder: EventMapper = {
      sourceKind: 'Node',
      needsObject: true,
      map(node: KubeObject) {
        if (node.metadata?.name === name) seen.push(node.metadata.resourceVersion ?? '')
        return []
      },
    }
    const bus = startInProcessBus({
      kube,
      runner: createRunner({ controllers: [], deps: testDeps(kube) }),
      reconciled: [],
      watched: [coreTypes.node],
      mappers: [recorder],
      timers: realTimers(),
      log: silentLogger(),
      sweepPeriodMs: 0,
    })
    onTestFinished(() => bus.stop())
    await bus.ready()
    // No kwok annotation: kwok leaves the Node alone (kcm may still write it, e.g. taints).
    await kube.create(coreTypes.node, { metadata: { name } })
    onTestFinished(() => kube.delete(coreTypes.node, { name }).then(() => {}, ignoreNotFound))
    const setStatus = async (condition: ReturnType<typeof readyCondition>) => {
      const node = await kube.mergePatch(
        coreTypes.node,
        { name },
        { status: { conditions: [condition] } },
        { subresource: 'status' },
      )
      return node.metadata?.resourceVersion ?? ''
    }
    const t0 = '2026-01-01T00:00:00Z'
    const ready = await setStatus(readyCondition('True', t0, t0))
    await waitFor('the Node Ready delivered', () => seen.includes(ready))
    const beat = await setStatus(readyCondition('True', '2026-01-01T00:00:40Z', t0))
    const flip = await setStatus(
      readyCondition('False', '2026-01-01T00:00:40Z', '2026-01-01T00:01:20Z'),
    )
    await waitFor('the flip delivered', () => seen.includes(flip))
    expect(seen).not.toContain(beat)
  })
})
