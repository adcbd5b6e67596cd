import { CloudEvent, HTTP } from 'cloudevents'
import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { ownerMapper, selfMapper } from '../../../src/bus/event-mapping'
import { createReconcileApp } from '../../../src/bus/http-app'
import { TransientError } from '../../../src/errors'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import type { Controller } from '../../../src/reconcile/runtime/controller'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { testNamespace } from '../../harness/kube'
import { type ServedApp, servedApp } from '../../harness/served-app'
import {
  childName,
  converged,
  testDeps,
  useWidgetKube,
  widget,
  widgetController,
  widgetType,
} from '../runtime/widget'

const { kc, kube } = useWidgetKube()

function app(
  controller: Controller = widgetController(),
  namespace?: string,
  afterSweep?: () => Promise<void>,
): ServedApp {
  const reconcileApp = createReconcileApp({
    kube,
    runner: createRunner({ controllers: [controller], deps: testDeps(kube) }),
    mappers: [selfMapper('Widget'), ownerMapper('ConfigMap', 'Widget')],
    reconciled: [widgetType],
    watched: [widgetType, coreTypes.configMap],
    log: silentLogger(),
    registry: new Registry(),
    namespace,
    afterSweep,
  })
  return servedApp(reconcileApp)
}

type Mode = 'binary' | 'structured'

async function post(target: ReturnType<typeof app>, ce: CloudEvent<unknown>, mode: Mode) {
  const message = mode === 'binary' ? HTTP.binary(ce) : HTTP.structured(ce)
  return await target.request('/', {
    method: 'POST',
    headers: message.headers as Record<string, string>,
    body: String(message.body),
  })
}

function refEvent(
  kind: string,
  namespace: string,
  name: string,
  apiVersion: string,
): CloudEvent<unknown> {
  return new CloudEvent({
    type: 'dev.knative.apiserver.ref.update',
    source: 'https://kubernetes.default.svc',
    data: { apiVersion, kind, namespace, name },
  })
}

function resourceEvent(obj: KubeObject): CloudEvent<unknown> {
  return new CloudEvent({
    type: 'dev.knative.apiserver.resource.update',
    source: 'https://k8s',
    data: obj,
  })
}

describe('CloudEvents HTTP function', () => {
  it.each<[Mode]>([['binary'], ['structured']])(
    'reconciles from Reference and Resource events (%s)',
    async (mode) => {
      const namespace = await testNamespace(kc, `ce-${mode}`)
      const target = app()
      await kube.create(widgetType, widget(namespace, 'by-ref', 2))
      const byRef = await post(
        target,
        refEvent('Widget', namespace, 'by-ref', 'runtime-test.machine-api.dev/v1'),
        mode,
      )
      expect(byRef.status).toBe(204)
      expect(await converged(kube, namespace, 'by-ref')).toBe(true)

      const created = await kube.create(widgetType, widget(namespace, 'by-resource', 1))
      const byResource = await post(target, resourceEvent(created), mode)
      expect(byResource.status).toBe(204)
      expect(await converged(kube, namespace, 'by-resource')).toBe(true)
    },
  )

  it('reads a referenced child fresh to find its owner', async () => {
    const namespace = await testNamespace(kc, 'ce-owner')
    const target = app()
    await kube.create(widgetType, widget(namespace, 'parent', 1))
    await post(
      target,
      refEvent('Widget', namespace, 'parent', 'runtime-test.machine-api.dev/v1'),
      'binary',
    )
    await kube.mergePatch(widgetType, { namespace, name: 'parent' }, { spec: { replicas: 2 } })
    // A Reference event for the child carries no ownerReferences: the function reads them.
    const res = await post(
      target,
      refEvent('ConfigMap', namespace, childName('parent', 0), 'v1'),
      'binary',
    )
    expect(res.status).toBe(204)
    expect(await converged(kube, namespace, 'parent')).toBe(true)
  })

  it("hands a mapped change's object to a run whose controller reads that kind", async () => {
    const namespace = await testNamespace(kc, 'ce-related')
    const parent = widgetController()
    const handed: string[] = []
    const reader: Controller = {
      ...parent,
      // The parent reads its children: a child's change hands the child over, as a MachineClass
      // change hands the class to its MachineSets.
      related: [{ type: coreTypes.configMap, refsOf: () => [] }],
      reconcile: async (deps, key, observed, related) => {
        for (const r of related ?? []) handed.push(`${r.type.kind}/${r.obj.metadata?.name}`)
        return await parent.reconcile(deps, key, observed, related)
      },
    }
    const target = app(reader)
    await kube.create(widgetType, widget(namespace, 'parent', 1))
    await post(
      target,
      refEvent('Widget', namespace, 'parent', 'runtime-test.machine-api.dev/v1'),
      'binary',
    )
    expect(handed).toEqual([])
    const child = childName('parent', 0)
    // Reference mode: the child read fresh to map it is the one handed over.
    await post(target, refEvent('ConfigMap', namespace, child, 'v1'), 'binary')
    expect(handed).toEqual([`ConfigMap/${child}`])
    // Resource mode: the event's object.
    const stored = await kube.get(coreTypes.configMap, { namespace, name: child })
    await post(
      target,
      resourceEvent({ ...stored, kind: 'ConfigMap', apiVersion: 'v1' } as KubeObject),
      'binary',
    )
    expect(handed).toEqual([`ConfigMap/${child}`, `ConfigMap/${child}`])
  })

  it('sweeps every object on a PingSource tick', async () => {
    const namespace = await testNamespace(kc, 'ce-ping')
    for (const name of ['a', 'b', 'c']) await kube.create(widgetType, widget(namespace, name, 1))
    const ping = new CloudEvent({
      type: 'dev.knative.sources.ping',
      source: '/apis/v1/namespaces/x/pingsources/p',
      data: {},
    })
    // The status-check pass runs after the keys, inside the tick's request.
    let convergedBeforePass: boolean | undefined
    const afterSweep = async () => {
      convergedBeforePass = await converged(kube, namespace, 'c')
    }
    const target = app(widgetController(), namespace, afterSweep)
    expect((await post(target, ping, 'structured')).status).toBe(204)
    for (const name of ['a', 'b', 'c']) expect(await converged(kube, namespace, name)).toBe(true)
    expect(convergedBeforePass).toBe(true)
  })

  it('answers 503 with Retry-After when a reconcile fails, so the broker retries', async () => {
    const namespace = await testNamespace(kc, 'ce-fail')
    await kube.create(widgetType, widget(namespace, 'w', 1))
    const failing: Controller = {
      kind: 'Widget',
      resource: widgetType,
      reconcile: async () => {
        throw new TransientError('provider unavailable', {
          reason: 'ProviderDown',
          retryAfterMs: 4000,
        })
      },
    }
    const res = await post(
      app(failing),
      refEvent('Widget', namespace, 'w', 'runtime-test.machine-api.dev/v1'),
      'binary',
    )
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('4')
    expect(await res.json()).toMatchObject({ failures: [{ reason: 'ProviderDown' }] })
  })

  it("does not run again for an event of the run's own write before its backoff is due", async () => {
    const namespace = await testNamespace(kc, 'ce-self')
    const created = await kube.create(widgetType, widget(namespace, 'w', 1))
    let runs = 0
    // Writes its status, then fails: the status write comes back as an event of the same object.
    const failing: Controller = {
      kind: 'Widget',
      resource: widgetType,
      async reconcile(deps, key) {
        runs++
        const ref = { namespace: key.namespace, name: key.name }
        await deps.kube.mergePatch(
          widgetType,
          ref,
          { status: { attempts: runs } },
          {
            subresource: 'status',
          },
        )
        throw new TransientError('not ready', { reason: 'NotReady' })
      },
    }
    const target = servedApp(
      createReconcileApp({
        kube,
        runner: createRunner({
          controllers: [failing],
          deps: testDeps(kube),
          backoff: { baseMs: 60_000, maxMs: 60_000, jitter: 0 },
        }),
        mappers: [selfMapper('Widget')],
        reconciled: [widgetType],
        watched: [widgetType],
        log: silentLogger(),
        registry: new Registry(),
      }),
    )
    expect((await post(target, resourceEvent(created), 'binary')).status).toBe(503)
    const written = (await kube.get(widgetType, { namespace, name: 'w' })) as KubeObject
    // Its own write, as a Resource event and as a Reference event: nothing runs, nothing failed.
    expect((await post(target, resourceEvent(written), 'binary')).status).toBe(204)
    const ref = refEvent('Widget', namespace, 'w', 'runtime-test.machine-api.dev/v1')
    expect((await post(target, ref, 'structured')).status).toBe(204)
    expect(runs).toBe(1)
    // Someone else's change runs at once.
    const edited = await kube.mergePatch<KubeObject>(
      widgetType,
      { namespace, name: 'w' },
      { spec: { replicas: 2 } },
    )
    expect((await post(target, resourceEvent(edited), 'binary')).status).toBe(503)
    expect(runs).toBe(2)
  })

  it('answers 400 to something that is not a CloudEvent', async () => {
    const res = await app().request('/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(400)
  })

  it('serves health and metrics', async () => {
    const target = app()
    expect((await target.request('/healthz')).status).toBe(200)
    expect((await target.request('/readyz')).status).toBe(200)
    expect(await (await target.request('/metrics')).text()).toBeTypeOf('string')
  })
})
