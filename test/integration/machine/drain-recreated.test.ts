/**
 * A pod that its controller recreates on the Node as fast as the drain evicts it (bound straight
 * to the Node, as a controller that ignores the cordon would): each drain pass evicts the new pod
 * and writes a new "Evicted ..." message to the Machine's status. Woken by that write, the next
 * pass ran at once and evicted about five pods a second; now a pass waits for the Machine's
 * deletion retry period.
 */
import { CoreV1Api } from '@kubernetes/client-node'
import { describe, expect, it, onTestFinished } from 'vitest'
import { LABELS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import { waitFor } from '../../harness/kube'
import {
  kwokMachine,
  machineCondition,
  machineDeps,
  readMachine,
  runMachineController,
  testProviders,
  useMachineTestApi,
} from './fixture'

const { api, namespace, kube } = useMachineTestApi('drain-again')
const core = () => api().kc.makeApiClient(CoreV1Api)

/** Keeps one live `sticky` pod bound to `nodeName`, creating a new one (new name) when it goes. */
function recreateOn(ns: string, nodeName: string) {
  let created = 0
  let running = true
  const loop = (async () => {
    while (running) {
      const pods = await core().listNamespacedPod({ namespace: ns, labelSelector: 'app=sticky' })
      if (!pods.items.some((p) => !p.metadata?.deletionTimestamp)) {
        await core().createNamespacedPod({
          namespace: ns,
          body: {
            metadata: { generateName: 'sticky-', labels: { app: 'sticky' } },
            spec: { nodeName, containers: [{ name: 'c', image: 'registry.example/sticky:1' }] },
          },
        })
        created++
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  return {
    created: () => created,
    async stop() {
      running = false
      await loop
    },
  }
}

describe('draining a Node whose pod keeps coming back', () => {
  it('evicts it once per retry period, not on its own status writes', async () => {
    const ns = namespace()
    const deps = machineDeps(kube(), testProviders())
    await runMachineController(deps, ns)
    await kube().create(machineApiTypes.machine, kwokMachine(ns, 'host'))
    const machine = await waitFor('host linked', async () => {
      const m = await readMachine(kube(), ns, 'host')
      return machineCondition(m, 'NodeLinked')?.status === 'True' && m
    })
    const nodeName = machine.status?.nodeRef?.name ?? ''
    // A pod the drain waits for without evicting keeps the drain open for the whole window.
    await core().createNamespacedPod({
      namespace: ns,
      body: {
        metadata: { name: 'waiter', labels: { [LABELS.drain]: 'wait-completed' } },
        spec: { nodeName, containers: [{ name: 'c', image: 'registry.example/batch:1' }] },
      },
    })
    const sticky = recreateOn(ns, nodeName)
    onTestFinished(() => sticky.stop())
    await waitFor('the first sticky pod', () => sticky.created() >= 1)

    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'host' })
    // The first passes of a deletion ride on their own writes (cordon, the Deleting condition)
    // before the drain settles into its retry period: count from the fifth pod on.
    await waitFor('the drain evicting', () => sticky.created() >= 5)
    const before = sticky.created()
    const from = performance.now()
    await new Promise((resolve) => setTimeout(resolve, 6000))
    const seconds = (performance.now() - from) / 1000
    const evictions = sticky.created() - before
    // A pass per deletion retry period (1 s in this test), and now and then one woken by something
    // else (the 5 s sweep, a Node change): 6 to 8 in 6 s. Woken by its own status writes, the
    // passes evicted 23 pods in 6 s, against a bound of 14 here. (Counted from the third pod over
    // 4 s, the deletion's first passes fell into the window on a loaded CI machine: 16 > 12.)
    const periods = (seconds * 1000) / (deps.deletionRetryMs ?? 1000)
    expect(evictions).toBeLessThanOrEqual(2 * Math.ceil(periods) + 2)
    expect((await readMachine(kube(), ns, 'host'))?.metadata?.deletionTimestamp).toBeTruthy()

    await sticky.stop()
    await core().deleteNamespacedPod({ namespace: ns, name: 'waiter' })
    await waitFor(
      'the Machine gone once the pods stay away',
      async () => (await readMachine(kube(), ns, 'host')) === undefined,
    )
  })
})
