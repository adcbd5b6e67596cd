import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import { coreTypes } from '../../../src/kube/resource'
import { createRuntimeMetrics } from '../../../src/observability/runtime-metrics'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { isStalled } from '../../../src/reconcile/runtime/stalled'
import { testNamespace, waitFor } from '../../harness/kube'
import { converged, testDeps, useWidgetKube, widgetController, widgetType } from './widget'

const { kc, kube } = useWidgetKube()

describe('runner', () => {
  it('records a permanent failure once and waits for a spec change', async () => {
    const namespace = await testNamespace(kc, 'rt-permanent')
    const runner = createRunner({ controllers: [widgetController()], deps: testDeps(kube) })
    await kube.create(widgetType, {
      metadata: { namespace, name: 'bad' },
      spec: { replicas: 1, poison: true },
    })
    const key = { kind: 'Widget', namespace, name: 'bad' }

    expect(await runner.run(key)).toEqual({ type: 'permanent', reason: 'PoisonSpec' })
    const stalled = await kube.get(widgetType, { namespace, name: 'bad' })
    expect(stalled && isStalled(stalled)).toBe(true)
    const events = await waitFor('the Warning event', async () => {
      const list = await kube.list(coreTypes.event, { namespace })
      return list.items.length > 0 && list.items
    })
    expect(events[0]).toMatchObject({ type: 'Warning', reason: 'PoisonSpec' })

    // Same generation: the reconcile returns without acting, so nothing is failed or recorded again.
    expect(await runner.run(key)).toEqual({ type: 'done' })
    expect((await kube.list(coreTypes.event, { namespace })).items).toHaveLength(1)

    await kube.mergePatch(widgetType, { namespace, name: 'bad' }, { spec: { poison: false } })
    expect(await runner.run(key)).toEqual({ type: 'done' })
    expect(await converged(kube, namespace, 'bad')).toBe(true)
  })

  it('counts every apiserver call by verb and resource', async () => {
    const namespace = await testNamespace(kc, 'rt-metrics')
    const registry = new Registry()
    const metrics = createRuntimeMetrics(registry)
    const counted = createKubeClient(
      createHttpTransport(kc, (call) =>
        metrics.kubeRequests.inc({
          verb: call.verb,
          resource: call.resource,
          code: String(call.code),
        }),
      ),
    )
    try {
      const runner = createRunner({
        controllers: [widgetController()],
        deps: testDeps(counted),
        metrics,
      })
      await counted.create(widgetType, {
        metadata: { namespace, name: 'w' },
        spec: { replicas: 2 },
      })
      expect(await runner.run({ kind: 'Widget', namespace, name: 'w' })).toEqual({ type: 'done' })
      const text = await registry.metrics()
      expect(text).toContain(
        'machine_api_kube_requests_total{verb="create",resource="configmaps",code="201"} 2',
      )
      expect(text).toContain(
        'machine_api_kube_requests_total{verb="get",resource="widgets",code="200"} 1',
      )
      expect(text).toContain(
        'machine_api_kube_requests_total{verb="patch-status",resource="widgets",code="200"} 1',
      )
      expect(text).toMatch(
        /machine_api_reconcile_duration_seconds_count\{kind="Widget",result="success"\} 1/,
      )
    } finally {
      counted.close()
    }
  })
})
