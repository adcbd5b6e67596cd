/**
 * Health remediation end to end with every controller running and the kwok provider: one of 3
 * kwok Nodes is driven to Ready=False by kwok's chaos stage; the MachineHealthCheck (Ready False
 * for 5 s) deletes its Machine, the Machine controller drains it and removes the Node, and the
 * MachineSet creates a replacement that reaches Running. The healthy Machines are untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes } from '../../../src/kube/resource'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { fullStackKube, startFullStack } from './fixture'
import { isRunningMachine, kwokDeployment, machinesOf, readyHealthCheck } from './objects'

const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'full-remediate')
let kube: KubeClient
beforeAll(() => {
  kube = fullStackKube(api().kc)
})
afterAll(() => kube.close())

const name = 'workers'
/** kwok's chaos stage (stages/node-not-ready.yaml) turns a Running Node with this label NotReady. */
const notReadyLabel = 'node-not-ready.stage.kwok.x-k8s.io'

async function runningMachines() {
  return (await machinesOf(kube, ns())).filter(isRunningMachine)
}

describe('health remediation with every controller and the kwok provider', () => {
  it('replaces the Machine whose Node goes NotReady and leaves the healthy ones alone', async () => {
    await startFullStack(kube, ns())
    await kube.create(
      machineApiTypes.machineDeployment,
      kwokDeployment(ns(), name, { replicas: 3, nodeLabels: {} }),
    )
    await kube.create(machineApiTypes.machineHealthCheck, readyHealthCheck(ns(), name, '5s'))
    const initial = await waitFor(
      '3 Running Machines',
      async () => {
        const running = await runningMachines()
        return running.length === 3 && running
      },
      { intervalMs: 500, timeoutMs: 90_000 },
    )
    await waitFor('the health check to see 3 healthy targets', async () => {
      const mhc = await kube.get(machineApiTypes.machineHealthCheck, { namespace: ns(), name })
      return (mhc?.status as { currentHealthy?: number } | undefined)?.currentHealthy === 3
    })

    const [sick, ...healthy] = initial
    const sickNode = sick?.status?.nodeRef?.name
    if (!sick || !sickNode) throw new Error('no Machine linked to a Node')
    const sickUid = sick.metadata.uid
    const sickNodeUid = (await kube.get(coreTypes.node, { name: sickNode }))?.metadata?.uid
    expect(sickNodeUid).toBeDefined()
    const started = performance.now()
    await kube.mergePatch(
      coreTypes.node,
      { name: sickNode },
      { metadata: { labels: { [notReadyLabel]: 'true' } } },
    )

    const final = await waitFor(
      'the sick Machine replaced by a Running one',
      async () => {
        const machines = await machinesOf(kube, ns())
        const running = machines.filter(isRunningMachine)
        return (
          machines.length === 3 &&
          running.length === 3 &&
          !machines.some((m) => m.metadata.uid === sickUid) &&
          running
        )
      },
      { intervalMs: 500, timeoutMs: 120_000 },
    )
    console.log(
      `full-stack remediation: NotReady label to a Running replacement in ${((performance.now() - started) / 1000).toFixed(1)}s (health check timeout 5s)`,
    )

    // The Machine controller removed the sick Machine's Node when it deleted the Machine (a
    // replacement in the same slot gets a new Node of the same name: compare uids).
    const nodeNow = await kube.get(coreTypes.node, { name: sickNode })
    expect(nodeNow?.metadata?.uid).not.toBe(sickNodeUid)
    // The healthy Machines are the same objects as before; one new Machine took the sick one's place.
    const healthyUids = healthy.map((m) => m.metadata.uid).sort()
    expect(
      final
        .map((m) => m.metadata.uid)
        .filter((uid) => healthyUids.includes(uid))
        .sort(),
    ).toEqual(healthyUids)
    const remediated = await kube.list(coreTypes.event, {
      namespace: ns(),
      fieldSelector: `involvedObject.name=${sick.metadata.name},reason=MachineRemediated`,
    })
    expect(remediated.items.length).toBeGreaterThan(0)
  })
})
