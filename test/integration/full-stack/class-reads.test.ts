/**
 * MachineClass reads over a class-backed Machine's lifecycle, with every controller and the kwok
 * provider on the in-process bus: the Machine controller reads the class when it creates the
 * instance and when it deletes it, not in the runs its Node turning Ready and its own status
 * writes wake (settled-wake.ts), and the MachineSet reads it when created and while Machines are
 * missing, not on every run (class-capacity-sync.ts). Counted on the controllers' own client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import { kwokMachineClass, kwokMachineSet } from '../../bench/lib/fleet-manifests'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { countingKube } from '../machine-set/fixture'
import { fullStackKube, startFullStack } from './fixture'
import { isRunningMachine, machinesOf } from './objects'

const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'full-class-reads')
let kube: KubeClient
beforeAll(() => {
  kube = fullStackKube(api().kc)
})
afterAll(() => kube.close())

const replicas = 5

describe('MachineClass reads over a Machine lifecycle', () => {
  it('reads the class for create and delete, not in every run of the Machine or its set', async () => {
    const controllers = countingKube(api().kc)
    await startFullStack(controllers.kube, ns())
    await kube.create(machineApiTypes.machineClass, kwokMachineClass(ns(), 'kwok'))
    await kube.create(
      machineApiTypes.machineSet,
      kwokMachineSet(ns(), 'set', replicas, { className: 'kwok' }),
    )
    await waitFor(
      `${replicas} Running Machines`,
      async () => {
        const machines = await machinesOf(kube, ns())
        return machines.length === replicas && machines.every(isRunningMachine)
      },
      { intervalMs: 500, timeoutMs: 120_000 },
    )
    await kube.mergePatch(
      machineApiTypes.machineSet,
      { namespace: ns(), name: 'set' },
      { spec: { replicas: 0 } },
    )
    await waitFor('every Machine gone', async () => (await machinesOf(kube, ns())).length === 0, {
      intervalMs: 500,
      timeoutMs: 120_000,
    })
    const classGets = controllers.byVerb()['get machineclasses'] ?? 0
    // Create and delete per Machine, a run that raced its own status write, and the set's reads
    // while Machines were missing: 15 or 16 here; every run of a Machine and of its set read it
    // before (37).
    expect(classGets).toBeLessThanOrEqual(3 * replicas + 3)
  })
})
