import type { Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemClock } from '../../../../src/clock'
import { createKubeClient } from '../../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../../src/kube/http-transport'
import { coreTypes } from '../../../../src/kube/resource'
import { silentLogger } from '../../../../src/observability/logger'
import type { Controller } from '../../../../src/reconcile/runtime/controller'
import { createRunner } from '../../../../src/reconcile/runtime/runner'
import { blackhole, kubeConfig } from '../../../harness/blackhole'

describe('the runner deadline', () => {
  let silent: { url: string; server: Server }
  beforeAll(async () => {
    silent = await blackhole('silent')
  })
  afterAll(() => silent.server.close())

  it('releases a key whose reconcile hangs on a blackholed apiserver, and aborts its signal', async () => {
    // The transport's own deadline is far away: only the reconcile deadline can end this run.
    const transport = createHttpTransport(kubeConfig(silent.url), () => {}, {
      requestTimeoutMs: 600_000,
    })
    const kube = createKubeClient(transport)
    let signal: AbortSignal | undefined
    const hanging: Controller = {
      kind: 'Node',
      resource: coreTypes.node,
      async reconcile(deps, key) {
        signal = deps.signal
        await deps.kube.get(coreTypes.node, { name: key.name })
        return {}
      },
    }
    const runner = createRunner({
      controllers: [hanging],
      deps: { kube, clock: systemClock, log: silentLogger(), fieldManager: 'test' },
      deadlineMs: 200,
      backoff: { baseMs: 1000, maxMs: 1000, jitter: 0 },
    })
    const outcome = await runner.run({ kind: 'Node', name: 'n1' })
    transport.close()
    expect(outcome).toEqual({ type: 'retry', afterMs: 1000, reason: 'DeadlineExceeded' })
    expect(signal?.aborted).toBe(true)
    expect(signal?.reason).toMatchObject({ reason: 'DeadlineExceeded' })
  })

  it('passes a live signal to a reconcile that finishes in time', async () => {
    let signal: AbortSignal | undefined
    const quick: Controller = {
      kind: 'Node',
      resource: coreTypes.node,
      async reconcile(deps) {
        signal = deps.signal
        return { requeueAfterMs: 5 }
      },
    }
    const runner = createRunner({
      controllers: [quick],
      deps: {
        kube: createKubeClient(createHttpTransport(kubeConfig(silent.url), () => {})),
        clock: systemClock,
        log: silentLogger(),
        fieldManager: 'test',
      },
    })
    expect(await runner.run({ kind: 'Node', name: 'n1' })).toEqual({ type: 'requeue', afterMs: 5 })
    expect(signal?.aborted).toBe(false)
  })
})
