/**
 * A 100-replica MachineSet from zero: how many apiserver calls the MachineSet controller needs
 * to get there and to report it. The Machine controller is simulated (a separate client marks
 * Machines Running and Ready), and convergence is checked with that client too, so only the
 * set's own calls are counted. Figures are logged for the issue; assertions are on counts only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { MachineSetObject } from '../../../src/reconcile/machine-set/types'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { countingKube, machineSetManifest, markAllReady, testDeps } from './fixture'
import { reconcileOnce } from './settle'

const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'ms-hundred')
let controller: ReturnType<typeof countingKube>
let observer: ReturnType<typeof countingKube>

beforeAll(() => {
  controller = countingKube(api().kc)
  observer = countingKube(api().kc)
})
afterAll(() => {
  controller.kube.close()
  observer.kube.close()
})

describe('a 100-replica MachineSet', () => {
  it('reaches 100 available Machines with exactly one create per Machine', async () => {
    const deps = testDeps(controller.kube)
    const started = performance.now()
    await observer.kube.create(
      machineApiTypes.machineSet,
      machineSetManifest(ns(), 'hundred', { replicas: 100 }),
    )
    let passes = 0
    const set = await waitFor(
      'all 100 Machines available',
      async () => {
        passes++
        await reconcileOnce(deps, ns(), 'hundred')
        await markAllReady(observer.kube, ns())
        const read = await observer.kube.get<MachineSetObject & { [k: string]: unknown }>(
          machineApiTypes.machineSet,
          { namespace: ns(), name: 'hundred' },
        )
        return read?.status?.availableReplicas === 100 ? read : false
      },
      { intervalMs: 20, timeoutMs: 100_000 },
    )
    const seconds = (performance.now() - started) / 1000
    console.log(
      `100-replica MachineSet: ${seconds.toFixed(1)}s to 100 available (simulated readiness); ` +
        `${controller.calls()} apiserver calls by the MachineSet controller in ${passes} passes`,
      controller.byVerb(),
    )
    expect(set.status).toMatchObject({ replicas: 100, readyReplicas: 100 })
    expect(controller.byVerb()['create machines']).toBe(100)
    expect(controller.byVerb()['delete machines'] ?? 0).toBe(0)
  })
})
