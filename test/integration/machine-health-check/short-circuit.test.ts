/**
 * Storm protection against the real control plane: with 5 of 10 targets failing and
 * `maxUnhealthy: 40%` nothing is remediated and the condition and an Event say why with the
 * counts; after 2 Nodes recover, the remaining 3 are remediated.
 */
import { describe, expect, it } from 'vitest'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { testNamespace, uniqueName, waitFor } from '../../harness/kube'
import { useKubeClient, useMachineApi } from '../../harness/machine-api'
import {
  createLinkedNode,
  createMachine,
  createMachineSet,
  deletionRequestedAt,
  eventsAbout,
  healthCheck,
  nodeCondition,
  releaseMachinesAtEnd,
  startController,
  types,
} from './fixture'

const api = useMachineApi()
const kube = useKubeClient(api)

type Conditions = { conditions?: Array<Record<string, string>> } | undefined

async function healthCheckStatus(k: ReturnType<typeof kube>, namespace: string) {
  const mhc = await k.get(types.machineHealthCheck, { namespace, name: 'pool' })
  return mhc?.status as
    | (Conditions & {
        currentHealthy?: number
        expectedMachines?: number
        remediationsAllowed?: number
      })
    | undefined
}

describe('MachineHealthCheck short-circuit', () => {
  it('remediates nothing while 5 of 10 fail under maxUnhealthy 40%, then the 3 left after 2 recover', async () => {
    const k = kube()
    const namespace = await testNamespace(api().kc, 'mhc-storm')
    releaseMachinesAtEnd(k, namespace)
    const set = await createMachineSet(k, namespace, 'pool')
    const names = Array.from({ length: 10 }, (_, i) => `m-${i}`)
    const nodes = new Map(names.map((n) => [n, uniqueName(`mhc-storm-${n}`)]))
    const machines = await Promise.all(
      names.map((name) => createMachine(k, namespace, { name, pool: 'pool', set })),
    )
    await Promise.all(
      machines.map((m: KubeObject) =>
        createLinkedNode(k, m, { nodeName: nodes.get(m.metadata?.name ?? '') ?? '' }),
      ),
    )

    const controller = await startController(k, namespace)
    // The timeout outlasts the flips below, so all 5 fail together and none crosses alone.
    await k.create(
      types.machineHealthCheck,
      healthCheck(namespace, 'pool', {
        pool: 'pool',
        timeout: '45s',
        extra: { maxUnhealthy: '40%' },
      }),
    )
    await waitFor(
      '10 healthy',
      async () => (await healthCheckStatus(k, namespace))?.currentHealthy === 10,
    )

    const failing = names.slice(5)
    for (const name of failing) {
      await k.mergePatch(
        coreTypes.node,
        { name: nodes.get(name) ?? '' },
        { metadata: { labels: { 'node-not-ready.stage.kwok.x-k8s.io': 'true' } } },
      )
    }
    // Wait until a reconcile after every crossing has judged all 5 unhealthy (not merely pending).
    const status = await waitFor(
      'all 5 judged unhealthy',
      async () => {
        const s = await healthCheckStatus(k, namespace)
        const healthy = s?.conditions?.find((c) => c.type === 'TargetsHealthy')
        return (healthy?.message?.match(/UnhealthyNodeCondition/g) ?? []).length === 5 && s
      },
      { timeoutMs: 120_000 },
    )
    expect(status).toMatchObject({
      expectedMachines: 10,
      currentHealthy: 5,
      remediationsAllowed: 0,
    })
    expect(status.conditions?.find((c) => c.type === 'RemediationAllowed')).toMatchObject({
      status: 'False',
      reason: 'TooManyUnhealthy',
      message: `5 of 10 Machines not healthy, more than maxUnhealthy 40% (4): remediation is paused until at most 4 are not healthy; holding back ${[...failing].sort().join(', ')}`,
    })
    const restricted = await waitFor('RemediationRestricted Event', async () => {
      const list = await eventsAbout(k, namespace, 'pool', 'RemediationRestricted')
      return list.length > 0 && list
    })
    expect(restricted.map((e) => e.message)).toContain(
      status.conditions?.find((c) => c.type === 'RemediationAllowed')?.message,
    )
    for (const name of names) expect(await deletionRequestedAt(k, namespace, name)).toBeUndefined()

    // Two recover: the chaos label goes and the Node reports Ready again (as a kubelet would).
    // The controller pauses meanwhile so it sees both recover at once: seeing one first would
    // rightly allow remediating the 4 still failing, the second among them.
    await controller.stop()
    for (const name of failing.slice(0, 2)) {
      const node = nodes.get(name) ?? ''
      await k.mergePatch(
        coreTypes.node,
        { name: node },
        { metadata: { labels: { 'node-not-ready.stage.kwok.x-k8s.io': null } } },
      )
      const now = new Date().toISOString()
      await k.mergePatch(
        coreTypes.node,
        { name: node },
        {
          status: {
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                reason: 'KubeletReady',
                message: 'recovered',
                lastHeartbeatTime: now,
                lastTransitionTime: now,
              },
            ],
          },
        },
        { subresource: 'status' },
      )
      await waitFor(
        `${node} Ready`,
        async () => (await nodeCondition(k, node, 'Ready'))?.status === 'True',
      )
    }
    await startController(k, namespace)
    for (const name of failing.slice(2)) {
      await waitFor(`deletion of ${name}`, () => deletionRequestedAt(k, namespace, name), {
        timeoutMs: 60_000,
      })
    }
    for (const name of [...names.slice(0, 5), ...failing.slice(0, 2)]) {
      expect(await deletionRequestedAt(k, namespace, name)).toBeUndefined()
    }
    const allowed = await waitFor('RemediationAllowed again', async () => {
      const c = (await healthCheckStatus(k, namespace))?.conditions?.find(
        (x) => x.type === 'RemediationAllowed',
      )
      return c?.status === 'True' && c
    })
    expect(allowed.reason).toBe('WithinMaxUnhealthy')
  })
})
