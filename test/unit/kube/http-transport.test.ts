import type { Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TransientError } from '../../../src/errors'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import { coreTypes } from '../../../src/kube/resource'
import { classifyError } from '../../../src/reconcile/runtime/classify'
import { blackhole, kubeConfig } from '../../harness/blackhole'

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
