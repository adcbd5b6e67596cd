import { CloudEvent, emitterFor, httpTransport, Mode } from 'cloudevents'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { FlagValues } from '../../../src/cli/command'
import { startReconcileFunction } from '../../../src/cli/entry/reconcile-function'
import { startWorker } from '../../../src/cli/entry/worker'
import { parseRuntimeSettings } from '../../../src/cli/runtime-settings'
import type { RuntimeDeps, RuntimeSettings } from '../../../src/deps'
import { testNamespace, waitFor } from '../../harness/kube'
import { startNatsServer } from '../../harness/nats/nats-server'
import { runtimeDepsOf } from '../../harness/runtime-deps'
import { converged, testDeps, useWidgetKube, widget, widgetController, widgetType } from './widget'

const { kc, kube } = useWidgetKube()

function runtimeDeps(): RuntimeDeps {
  return runtimeDepsOf(testDeps(kube))
}

/** The settings of `values` and `env`, on an ephemeral port (0, which the flags refuse). */
function settings(
  namespace: string,
  values: FlagValues = {},
  env: NodeJS.ProcessEnv = {},
): RuntimeSettings {
  return { ...parseRuntimeSettings(values, env, { bus: true }), port: 0, namespace }
}

async function healthy(port: number): Promise<boolean> {
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
  return ready.status === 200
}

describe('entry points', () => {
  it('serves the reconcile function over HTTP for a binary CloudEvent', async () => {
    const namespace = await testNamespace(kc, 'entry-http')
    const deps = runtimeDeps()
    const server = await startReconcileFunction(deps, settings(namespace), [widgetController()])
    onTestFinished(() => server.stop())
    await kube.create(widgetType, widget(namespace, 'w', 2))
    const emit = emitterFor(httpTransport(`http://127.0.0.1:${server.port}/`), {
      mode: Mode.BINARY,
    })
    await emit(
      new CloudEvent({
        type: 'dev.knative.apiserver.ref.add',
        source: 'https://kubernetes.default.svc',
        data: {
          apiVersion: 'runtime-test.machine-api.dev/v1',
          kind: 'Widget',
          namespace,
          name: 'w',
        },
      }),
    )
    expect(await converged(kube, namespace, 'w')).toBe(true)
    const metrics = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text()
    expect(metrics).toContain(
      'machine_api_reconcile_duration_seconds_count{kind="Widget",result="success"} 1',
    )
  })

  it('runs the in-process worker until stopped', async () => {
    const namespace = await testNamespace(kc, 'entry-inproc')
    const s = settings(namespace, { bus: 'in-process' }, { SWEEP_PERIOD_SECONDS: '0' })
    const worker = await startWorker(runtimeDeps(), s, [widgetController()])
    onTestFinished(() => worker.stop())
    await kube.create(widgetType, widget(namespace, 'w', 1))
    await waitFor('converged in-process', () => converged(kube, namespace, 'w'))
    await waitFor('ready', () => healthy(worker.port))
  })

  it('runs the JetStream worker with the watch bridge and serves /readyz', async () => {
    const nats = await startNatsServer()
    onTestFinished(() => nats.stop())
    const namespace = await testNamespace(kc, 'entry-js')
    const s = settings(namespace, { bus: 'jetstream', bridge: true }, { NATS_URL: nats.url })
    const worker = await startWorker(runtimeDeps(), { ...s, port: 0 }, [widgetController()])
    onTestFinished(() => worker.stop())
    await kube.create(widgetType, widget(namespace, 'w', 3))
    await waitFor('converged through JetStream', () => converged(kube, namespace, 'w'))
    expect(await healthy(worker.port)).toBe(true)
  })
})
