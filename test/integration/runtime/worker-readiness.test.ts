/**
 * The worker's /readyz follows the apiserver: the worker reaches the shared control plane through
 * a TCP relay the test can cut, so an outage is simulated without stopping the shared apiserver.
 * While cut, /readyz is 503 naming the apiserver and /healthz stays 200; once restored, ready again.
 */
import { connect, createServer, type Socket } from 'node:net'
import { KubeConfig } from '@kubernetes/client-node'
import { Registry } from 'prom-client'
import { describe, expect, it, onTestFinished } from 'vitest'
import { startWorker } from '../../../src/cli/entry/worker'
import { parseRuntimeSettings } from '../../../src/cli/runtime-settings'
import { createRuntimeMetrics } from '../../../src/observability/runtime-metrics'
import { realTimers } from '../../../src/timers'
import { testNamespace, waitFor } from '../../harness/kube'
import { testDeps, testKube, useWidgetKube, widgetController } from './widget'

const { kc } = useWidgetKube()

interface Relay {
  port: number
  /** Drops every open connection and refuses new ones, like a stopped apiserver. */
  cut(): void
  restore(): void
  close(): Promise<void>
}

/** A TCP relay to `host:port`. */
async function cuttableRelay(host: string, port: number): Promise<Relay> {
  let open = true
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = createServer((client) => {
    if (!open) return void client.destroy()
    const upstream = connect(port, host)
    track(client)
    track(upstream)
    client.pipe(upstream).pipe(client)
    client.once('close', () => upstream.destroy())
    upstream.once('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    cut() {
      open = false
      for (const socket of sockets) socket.destroy()
    },
    restore() {
      open = true
    },
    close() {
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A copy of `kc` whose cluster server is `server`. */
function kubeConfigVia(source: KubeConfig, server: string): KubeConfig {
  const config = JSON.parse(source.exportConfig()) as {
    clusters: Array<{ cluster: { server: string } }>
  }
  for (const entry of config.clusters) entry.cluster.server = server
  const out = new KubeConfig()
  out.loadFromString(JSON.stringify(config))
  return out
}

async function status(port: number, path: string): Promise<number> {
  return (await fetch(`http://127.0.0.1:${port}${path}`)).status
}

describe('worker readiness', () => {
  it('is not ready while the apiserver is unreachable and ready again after, never unhealthy', async () => {
    const namespace = await testNamespace(kc, 'worker-ready')
    const target = new URL(kc.getCurrentCluster()?.server ?? '')
    const relay = await cuttableRelay(target.hostname, Number(target.port))
    onTestFinished(() => relay.close())
    const relayed = testKube(kubeConfigVia(kc, `https://127.0.0.1:${relay.port}`))
    onTestFinished(() => relayed.close())
    const registry = new Registry()
    const deps = {
      ...testDeps(relayed),
      registry,
      metrics: createRuntimeMetrics(registry),
      timers: realTimers(),
      close: () => {},
    }
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
