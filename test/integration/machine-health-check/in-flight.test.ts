/**
 * `remediation.maxInFlight` against the real control plane: with three Machines whose Nodes are
 * gone and `maxInFlight: 1`, one deletion runs at a time, oldest failure first; the next starts
 * when the previous Machine is gone.
 */
import { describe, expect, it } from 'vitest'
import { testNamespace, uniqueName, waitFor } from '../../harness/kube'
import { useKubeClient, useMachineApi } from '../../harness/machine-api'
import {
  createMachine,
  createMachineSet,
  deletionRequestedAt,
  healthCheck,
  releaseMachinesAtEnd,
  setMachineStatus,
  startController,
  types,
} from './fixture'

const api = useMachineApi()
const kube = useKubeClient(api)

describe('MachineHealthCheck maxInFlight', () => {
  it('remediates one Machine at a time', async () => {
    const k = kube()
    const namespace = await testNamespace(api().kc, 'mhc-inflight')
    releaseMachinesAtEnd(k, namespace)
    const set = await createMachineSet(k, namespace, 'slow')
    const names = ['a', 'b', 'c']
    for (const name of names) {
      const machine = await createMachine(k, namespace, { name, pool: 'slow', set })
      // Linked once, but the Node is gone: unhealthy at once.
      await setMachineStatus(k, machine, {
        phase: 'Running',
        nodeRef: { name: uniqueName('mhc-gone') },
      })
    }
    await startController(k, namespace)
    await k.create(
      types.machineHealthCheck,
      healthCheck(namespace, 'slow', {
        pool: 'slow',
        timeout: '5m',
        extra: { remediation: { maxInFlight: 1 } },
      }),
    )

    const deleting = async () => {
      const found: string[] = []
      for (const name of names) if (await deletionRequestedAt(k, namespace, name)) found.push(name)
      return found
    }
    for (const name of names) {
      // The previous Machine is gone; now exactly this one is being deleted (ties go by name).
      await waitFor(`deletion of ${name}`, () => deletionRequestedAt(k, namespace, name))
      expect(await deleting()).toEqual([name])
      if (name !== 'c') {
        await waitFor('RemediationAllowed says MaxInFlightReached', async () => {
          const mhc = await k.get(types.machineHealthCheck, { namespace, name: 'slow' })
          const status = mhc?.status as { conditions?: Array<Record<string, string>> } | undefined
          const allowed = status?.conditions?.find((c) => c.type === 'RemediationAllowed')
          return allowed?.reason === 'MaxInFlightReached'
        })
      }
      // Let it go, as the Machine controller would once drained and terminated.
      await k.mergePatch(types.machine, { namespace, name }, { metadata: { finalizers: null } })
      await waitFor(
        `${name} gone`,
        async () => (await k.get(types.machine, { namespace, name })) === undefined,
      )
    }
  })
})
