/**
 * @module The hot-loop count of the bad-input scenario: objects that admission lets through but
 * that the controllers cannot carry out (a Machine whose Node the apiserver refuses, 403 and 422,
 * a MachineHealthCheck with a timeout longer than a timer holds, or the longest admission allows) are reconciled by every
 * controller of the catalog in this process for a measured window, and each key's reconciles per
 * second are counted. A key above `hotPerSecond` is a hot loop. The refusal is a
 * ValidatingAdmissionPolicy (test/harness/refuse-nodes.ts): whatever admission comes to refuse,
 * the apiserver refusing a Node stays possible.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import { machineApiTypes } from '../../../src/api/resource-types'
import { errorMessage } from '../../../src/errors'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import { formatKey } from '../../../src/kube/object-key'
import type { KubeObject, ResourceType } from '../../../src/kube/resource'
import type { Controller, ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { waitFor } from '../../harness/kube'
import { refuseNodeLabel, refuseNodes } from '../../harness/refuse-nodes'
import { startEventBus } from './event-bus'

/** More reconciles a second than this, averaged over the window, is a hot loop. */
export const hotPerSecond = 3

export interface HotLoopReport {
  /** Objects created to provoke a loop, and those admission refused (not run). */
  created: string[]
  refusedByAdmission: string[]
  windowSeconds: number
  /** Reconciles per second of each key seen in the window. */
  perSecond: Record<string, number>
  /** Keys above hotPerSecond. */
  hot: string[]
}

/** `controller`, recording each reconcile's start per key in `starts`. */
function counting(starts: Map<string, number[]>) {
  return (c: Controller<ReconcileDeps>): Controller<ReconcileDeps> => ({
    ...c,
    reconcile(deps, key, observed, related) {
      const id = formatKey(key)
      starts.set(id, [...(starts.get(id) ?? []), performance.now()])
      return c.reconcile(deps, key, observed, related)
    },
  })
}

/** Creates the provoking objects in `namespace`, runs the controllers and measures. */
export async function measureHotLoops(options: {
  kc: KubeConfig
  namespace: string
  windowMs: number
  log(message: string): void
}): Promise<HotLoopReport> {
  const { kc, namespace } = options
  const kube = createKubeClient(createHttpTransport(kc, () => {}))
  const lifts: Array<() => Promise<void>> = []
  const starts = new Map<string, number[]>()
  const created: string[] = []
  const refusedByAdmission: string[] = []
  const create = async (what: string, type: ResourceType, obj: KubeObject) => {
    try {
      await kube.create(type, obj)
      created.push(what)
    } catch (error) {
      refusedByAdmission.push(`${what}: ${errorMessage(error).slice(0, 200)}`)
    }
  }
  try {
    for (const reason of ['Forbidden', 'Invalid'] as const) {
      const value = `${namespace}-${reason.toLowerCase()}`
      lifts.push(await refuseNodes({ kube, kc }, value, reason, `chaos refuses this Node`))
      await create(`Machine refused-${reason}`, machineApiTypes.machine, {
        apiVersion: 'machine-api.dev/v1beta1',
        kind: 'Machine',
        metadata: { namespace, name: `refused-${reason.toLowerCase()}`, labels: { hot: 'y' } },
        spec: {
          providerSpec: { provider: 'kwok', value: { nodeLabels: { [refuseNodeLabel]: value } } },
        },
      })
    }
    // A timeout past what a timer holds (the runtime clamps it), else the longest admission allows.
    for (const timeout of ['720h', '596h']) {
      await create(`MachineHealthCheck timeout ${timeout}`, machineApiTypes.machineHealthCheck, {
        apiVersion: 'machine-api.dev/v1beta1',
        kind: 'MachineHealthCheck',
        metadata: { namespace, name: `timeout-${timeout}` },
        spec: {
          selector: { matchLabels: { hot: 'y' } },
          unhealthyConditions: [{ type: 'Ready', status: 'Unknown', timeout }],
        },
      })
      if (created.some((c) => c.startsWith('MachineHealthCheck'))) break
    }

    const bus = await startEventBus({
      kc,
      env: { MACHINE_API_PROVIDERS: 'kwok' },
      namespace,
      sweepPeriodMs: 10_000,
      wrap: counting(starts),
    })
    try {
      // Past the first attempts: each refused Machine has failed at least once.
      await waitFor(
        'the refused Machines to fail once',
        () =>
          [...starts.keys()].filter((k) => k.includes('/refused-')).length >=
          created.filter((c) => c.startsWith('Machine')).length,
        { timeoutMs: 30_000 },
      ).catch(() => options.log('hot loops: not every refused Machine ran within 30 s'))
      await new Promise((resolve) => setTimeout(resolve, 3000))
      const from = performance.now()
      await new Promise((resolve) => setTimeout(resolve, options.windowMs))
      const to = performance.now()
      const windowSeconds = (to - from) / 1000
      const perSecond: Record<string, number> = {}
      for (const [key, times] of starts) {
        const count = times.filter((t) => t >= from && t < to).length
        if (count > 0) perSecond[key] = Math.round((count / windowSeconds) * 100) / 100
      }
      const hot = Object.keys(perSecond).filter((k) => (perSecond[k] ?? 0) > hotPerSecond)
      return { created, refusedByAdmission, windowSeconds, perSecond, hot }
    } finally {
      // The Machines hold finalizers: delete them while their controller still runs, or the
      // namespace would never finish terminating.
      await removeMachines(kube, namespace).catch((error: unknown) =>
        options.log(`hot loops: cleanup: ${errorMessage(error)}`),
      )
      await bus.stop()
    }
  } finally {
    for (const lift of lifts) await lift()
    kube.close()
  }
}

async function removeMachines(kube: KubeClient, namespace: string): Promise<void> {
  const machines = await kube.list(machineApiTypes.machine, { namespace })
  for (const m of machines.items) {
    await kube.delete(machineApiTypes.machine, { namespace, name: m.metadata?.name ?? '' })
  }
  await waitFor(
    'the Machines to go',
    async () => (await kube.list(machineApiTypes.machine, { namespace })).items.length === 0,
    { timeoutMs: 30_000 },
  )
}
