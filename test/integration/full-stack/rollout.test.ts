/**
 * A RollingUpdate of a 10-replica MachineDeployment (maxSurge 2, maxUnavailable 1) with every
 * controller running and the kwok provider: Machines become Running and Ready for real (the Machine
 * controller creates kwok Nodes, kwok makes them Ready), and old ones are drained and deleted by
 * the Machine controller. A new provider spec (a Node label) starts the rollout. A watch on every
 * Machine of the namespace checks the bounds at each observed instant: never more than 12
 * Machines (deleting ones included), never fewer than 9 Ready Machines that are not deleting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LABELS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { rolledOut } from '../machine-deployment/drive'
import { watchMachines } from '../machine-set/machine-watch'
import { fullStackKube, startFullStack } from './fixture'
import {
  deploymentState,
  isReadyMachine,
  isRunningMachine,
  kwokDeployment,
  machinesOf,
  nodeLabels,
  templateNodeLabels,
} from './objects'

const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'full-rollout')
let kube: KubeClient
beforeAll(() => {
  kube = fullStackKube(api().kc)
})
afterAll(() => kube.close())

const name = 'workers'
const replicas = 10
const revLabel = 'full-stack.machine-api.dev/rev'

/** Resolves once the deployment reports its template rolled out to `replicas` Running Machines. */
async function rolledOutTo(rev: string) {
  return await waitFor(
    `rollout to rev ${rev}`,
    async () => {
      const state = await deploymentState(kube, ns(), name)
      const current = state.sets.find((s) => templateNodeLabels(s)[revLabel] === rev)
      const machines = await machinesOf(kube, ns())
      const done =
        rolledOut(state.md) &&
        current?.status?.availableReplicas === replicas &&
        state.sets.every((s) => s === current || (s.status?.replicas ?? 0) === 0) &&
        machines.length === replicas &&
        machines.every(
          (m) =>
            isRunningMachine(m) &&
            m.metadata.labels?.[LABELS.templateHash] ===
              current.metadata.labels?.[LABELS.templateHash],
        )
      return done && { ...state, current, machines }
    },
    { intervalMs: 500, timeoutMs: 240_000 },
  )
}

describe('a rolling update with every controller and the kwok provider', () => {
  it('replaces 10 Running Machines within maxSurge 2 / maxUnavailable 1 at every instant', async () => {
    await startFullStack(kube, ns())
    await kube.create(
      machineApiTypes.machineDeployment,
      kwokDeployment(ns(), name, {
        replicas,
        nodeLabels: { [revLabel]: '1' },
        extra: {
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2, maxUnavailable: 1 } },
        },
      }),
    )
    const first = await rolledOutTo('1')

    let minReady = replicas
    const watch = await watchMachines(kube, ns(), (machines) => {
      const ready = machines.filter(isReadyMachine).length
      minReady = Math.min(minReady, ready)
      if (machines.length > replicas + 2) return `${machines.length} Machines exist (max 12)`
      if (ready < replicas - 1) return `${ready} Ready Machines not deleting (min 9)`
      return undefined
    })
    try {
      const started = performance.now()
      await kube.mergePatch(
        machineApiTypes.machineDeployment,
        { namespace: ns(), name },
        {
          spec: {
            template: {
              spec: { providerSpec: { value: { nodeLabels: { [revLabel]: '2' } } } },
            },
          },
        },
      )
      const second = await rolledOutTo('2')
      const seconds = (performance.now() - started) / 1000
      await watch.seen((machines) =>
        machines.every((m) => second.machines.some((n) => n.metadata.uid === m.metadata.uid)),
      )
      console.log(
        `full-stack rollout: 10 kwok Machines replaced in ${seconds.toFixed(1)}s ` +
          `(maxSurge 2, maxUnavailable 1); at most ${watch.maxMachines()} Machines at once, ` +
          `at least ${minReady} Ready; ` +
          `watch events ${JSON.stringify(watch.counts)}`,
      )

      expect(watch.violations).toEqual([])
      // The surge budget was used, so the upper bound was exercised rather than trivially met.
      expect(watch.maxMachines()).toBeGreaterThan(replicas)
      const old = second.sets.find((s) => s.metadata.uid === first.current.metadata.uid)
      expect(old?.spec.replicas).toBe(0)
      expect(old?.status?.replicas ?? 0).toBe(0)
      const before = new Set(first.machines.map((m) => m.metadata.uid))
      expect(second.machines.filter((m) => before.has(m.metadata.uid))).toEqual([])
      // The new Machines' Nodes were made by the kwok provider from the new provider spec.
      for (const m of second.machines) {
        const labels = await nodeLabels(kube, m.status?.nodeRef?.name ?? '')
        expect(labels?.[revLabel]).toBe('2')
      }
    } finally {
      await watch.stop()
    }
  })
})
