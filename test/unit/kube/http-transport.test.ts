import { createServer, type Server, type Socket } from 'node:net'
import { KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TransientError } from '../../../src/errors'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import { coreTypes } from '../../../src/kube/resource'
import { classifyError } from '../../../src/reconcile/runtime/classify'

/**
 * A local TCP server standing in for a blackholed apiserver: it accepts connections and either
 * never answers (`silent`) or sends the headers of a watch and then nothing (`headers-only`).
 */
function blackhole(mode: 'silent' | 'headers-only'): Promise<{ url: string; server: Server }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    if (mode === 'headers-only') {
      socket.once('data', () =>
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
        ),
      )
    }
  })
  server.on('close', () => {
    for (const socket of sockets) socket.destroy()
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      resolve({ url: `http://127.0.0.1:${port}`, server })
    })
  })
}

function kubeConfig(server: string): KubeConfig {
  const kc = new KubeConfig()
  kc.loadFromOptions({
    clusters: [{ name: 'blackhole', server, skipTLSVerify: true }],
    users: [{ name: 'nobody' }],
    contexts: [{ name: 'blackhole', cluster: 'blackhole', user: 'nobody' }],
    currentContext: 'blackhole',
  })
  return kc
}

describe('the apiserver transport against a blackholed server', () => {
  let silent: { url: string; server: Server }
  let quiet: { url: string; server: Server }
  beforeAll(async () => {
    silent = await blackhole('silent')
    quiet = await blackhole('headers-only')
  })
  afterAll(() => {
    silent.server.close()
    quiet.server.close()
  })

  it('fails a request with a transient Timeout error after the request deadline', async () => {
    const calls: number[] = []
    const transport = createHttpTransport(kubeConfig(silent.url), (c) => calls.push(c.code), {
      requestTimeoutMs: 300,
    })
    const kube = createKubeClient(transport)
    const error = await kube.get(coreTypes.node, { name: 'n1' }).catch((e: unknown) => e)
    transport.close()
    expect(error).toBeInstanceOf(TransientError)
    expect(error).toMatchObject({
      reason: 'Timeout',
      message: 'apiserver did not answer for get nodes within 300 ms',
    })
    expect(classifyError(error)).toEqual({
      type: 'retry',
      reason: 'Timeout',
      retryAfterMs: undefined,
    })
    expect(calls).toEqual([0])
  })

  it("keeps the caller's own abort as it is", async () => {
    const transport = createHttpTransport(kubeConfig(silent.url), () => {}, {
      requestTimeoutMs: 60_000,
    })
    const controller = new AbortController()
    const pending = transport.request({
      method: 'GET',
      path: '/api/v1/nodes',
      verb: 'list',
      resource: 'nodes',
      signal: controller.signal,
    })
    controller.abort()
    const error = await pending.catch((e: unknown) => e)
    transport.close()
    expect(error).not.toBeInstanceOf(TransientError)
    expect(error).toMatchObject({ name: 'AbortError' })
  })

  it('ends a watch whose connection goes silent after the idle timeout', async () => {
    const transport = createHttpTransport(kubeConfig(quiet.url), () => {}, {
      requestTimeoutMs: 60_000,
      idleTimeoutMs: 300,
    })
    const kube = createKubeClient(transport)
    const events: unknown[] = []
    const error = await kube
      .watch(coreTypes.node, { signal: new AbortController().signal }, (e) => events.push(e))
      .catch((e: unknown) => e)
    transport.close()
    expect(error).toBeInstanceOf(TransientError)
    expect(error).toMatchObject({
      reason: 'Timeout',
      message: 'apiserver sent nothing for watch nodes within 300 ms',
    })
    expect(events).toEqual([])
  })

  it('fails a watch that never gets its headers after the request deadline', async () => {
    const transport = createHttpTransport(kubeConfig(silent.url), () => {}, {
      requestTimeoutMs: 300,
    })
    const kube = createKubeClient(transport)
    const error = await kube
      .watch(coreTypes.node, { signal: new AbortController().signal }, () => {})
      .catch((e: unknown) => e)
    transport.close()
    expect(error).toMatchObject({
      reason: 'Timeout',
      message: 'apiserver did not answer for watch nodes within 300 ms',
    })
  })
})
