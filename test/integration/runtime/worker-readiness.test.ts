/**
 * The worker's /readyz follows the apiserver: the worker reaches the shared control plane through
 * a TCP relay the test can cut, so an outage is simulated without stopping the shared apiserver.
 * While cut, /readyz is 503 naming the apiserver and /healthz stays 200; once restored, ready again.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { startWorker } from '../../../src/cli/entry/worker'
import { parseRuntimeSettings } from '../../../src/cli/runtime-settings'
import { testNamespace, waitFor } from '../../harness/kube'
import { runtimeDepsOf } from '../../harness/runtime-deps'
import { relayedClient } from '../../harness/tcp-relay'
import { testDeps, testKube, useWidgetKube, widgetController } from './widget'

const { kc } = useWidgetKube()

async function status(port: number, path: string): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}${path}`)).status
}

describe('worker readiness', () => {
  it('is not ready while the apiserver is unreachable and ready again after, never unhealthy', async () => {
    const namespace = await testNamespace(kc, 'worker-ready')
    const { relay, kube: relayed } = await relayedClient(kc, testKube)
    const deps = runtimeDepsOf(testDeps(relayed))
    const settings = {
      ...parseRuntimeSettings({}, { SWEEP_PERIOD_SECONDS: '0' }, { bus: true }),
      port: 0,
      namespace,
    }
    const worker = await startWorker(deps, settings, [widgetController()])
    onTestFinished(() => worker.stop())

    await waitFor('ready', async () => (await status(worker.port, '/readyz')) === 200)
    relay.cut()
    await waitFor(
      'not ready during the outage',
      async () => (await status(worker.port, '/readyz')) === 503,
    )
    const body = await (await fetch(`http://127.0.0.1:${worker.port}/readyz`)).text()
    expect(body).toContain('apiserver')
    expect(await status(worker.port, '/healthz')).toBe(200)
    relay.restore()
    await waitFor(
      'ready after the outage',
      async () => (await status(worker.port, '/readyz')) === 200,
    )
  })
})
