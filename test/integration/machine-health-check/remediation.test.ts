/**
 * MachineHealthCheck against the real control plane: a kwok Node driven to Ready=False (kwok's
 * chaos stage) and a Node whose kubelet goes silent (KCM marks it Ready=Unknown) are both
 * remediated after their timeouts, the healthy target is untouched, and the time from a timeout
 * expiring to the deletion request is measured with the in-process bus (no sweep).
 */
import { describe, expect, inject, it } from 'vitest'
import { coreTypes } from '../../../src/kube/resource'
import { startExtraKwok } from '../../harness/controlplane/kwok'
import { testNamespace, uniqueName, waitFor } from '../../harness/kube'
import { useKubeClient, useMachineApi } from '../../harness/machine-api'
import {
  createLinkedNode,
  createMachine,
  createMachineSet,
  deletionRequestedAt,
  eventsAbout,
  healthCheck,
  machineConditions,
  nodeCondition,
  releaseMachinesAtEnd,
  setMachineStatus,
  startController,
  types,
} from './fixture'

const api = useMachineApi()
const kube = useKubeClient(api)

/**
 * Ready=False's timeout counts from the Node's creation (kwok dates the transition there), so it
 * must outlast the setup before the flip for the crossing to be a timer's. Ready=Unknown's counts
 * from when KCM marks the silent Node, itself 20 s after its last heartbeat
 * (--node-monitor-grace-period), so a short one keeps the test from waiting twice.
 */
const timeoutS = { False: 20, Unknown: 5 } as const

describe('MachineHealthCheck remediation', () => {
  it('deletes set-owned Machines whose Node is NotReady or silent past the timeout, and no other', async () => {
    const k = kube()
    const namespace = await testNamespace(api().kc, 'mhc-remediate')
    releaseMachinesAtEnd(k, namespace)
    const set = await createMachineSet(k, namespace, 'workers')
    const machine = (name: string) => createMachine(k, namespace, { name, pool: 'workers', set })
    const [ok, sick, silent] = await Promise.all([
      machine('ok'),
      machine('sick'),
      machine('silent'),
    ])
    if (!ok || !sick || !silent) throw new Error('machines not created')

    // The silent Node gets a kwok of its own, so stopping that kwok silences only this kubelet.
    const silentValue = uniqueName('mhc-silent')
    const extraKwok = startExtraKwok({
      kubeconfigPath: inject('kubeconfigPath'),
      binDir: inject('controlPlaneBinDir'),
      annotation: 'kwok.x-k8s.io/node',
      value: silentValue,
    })
    try {
      const names = {
        ok: uniqueName('mhc-ok'),
        sick: uniqueName('mhc-sick'),
        silent: uniqueName('mhc-silent'),
      }
      await createLinkedNode(k, ok, { nodeName: names.ok })
      await createLinkedNode(k, sick, { nodeName: names.sick })
      await createLinkedNode(k, silent, { nodeName: names.silent, kwokValue: silentValue })

      const { runs } = await startController(k, namespace)
      const check = healthCheck(namespace, 'workers', {
        pool: 'workers',
        timeout: `${timeoutS.False}s`,
      })
      await k.create(types.machineHealthCheck, {
        ...check,
        spec: {
          ...(check.spec as object),
          unhealthyConditions: [
            { type: 'Ready', status: 'False', timeout: `${timeoutS.False}s` },
            { type: 'Ready', status: 'Unknown', timeout: `${timeoutS.Unknown}s` },
          ],
        },
      })
      await waitFor('status with 3 healthy targets', async () => {
        const mhc = await k.get(types.machineHealthCheck, { namespace, name: 'workers' })
        return (mhc?.status as { currentHealthy?: number } | undefined)?.currentHealthy === 3
      })

      // Fail both Nodes: chaos stage for one, a silent kubelet for the other.
      await k.mergePatch(
        coreTypes.node,
        { name: names.sick },
        { metadata: { labels: { 'node-not-ready.stage.kwok.x-k8s.io': 'true' } } },
      )
      await extraKwok.stopAndClean()

      const deadline = async (node: string, status: keyof typeof timeoutS) => {
        const c = await waitFor(
          `${node} Ready=${status}`,
          async () => {
            const ready = await nodeCondition(k, node, 'Ready')
            return ready?.status === status && ready
          },
          { timeoutMs: 90_000 },
        )
        return Date.parse(c.lastTransitionTime ?? '') + timeoutS[status] * 1000
      }
      const sickDeadline = await deadline(names.sick, 'False')
      const silentDeadline = await deadline(names.silent, 'Unknown')

      for (const [name, due] of [
        ['sick', sickDeadline],
        ['silent', silentDeadline],
      ] as const) {
        const requested = await waitFor(
          `deletion of ${name}`,
          () => deletionRequestedAt(k, namespace, name),
          { timeoutMs: 90_000 },
        )
        // deletionTimestamp has whole seconds, like the condition time the deadline comes from.
        const latencyMs = requested - due
        // The first reconcile to finish after the deadline issued the delete: a ms-precise bound.
        const deleter = await waitFor('the deleting reconcile to finish', () =>
          runs.find((r) => r.finishedAt >= due),
        )
        console.log(
          `MHC: ${name} deletion requested ${latencyMs} ms (whole seconds) after its timeout; the reconcile that requested it finished ${deleter.finishedAt - due} ms after the timeout`,
        )
        expect(latencyMs).toBeGreaterThanOrEqual(0)
        expect(latencyMs).toBeLessThan(5000)
        // A reconcile asked to run again exactly at a crossing: a timer, not a sweep, drove it.
        expect(
          runs.some(
            (r) =>
              r.requeueAfterMs !== undefined &&
              Math.abs(r.finishedAt + r.requeueAfterMs - due) < 1500,
          ),
        ).toBe(true)
        const machineEvents = await waitFor('Event on the Machine', async () => {
          const list = await eventsAbout(k, namespace, name, 'MachineRemediated')
          return list.length > 0 && list
        })
        expect(machineEvents[0]?.message).toContain(
          `Deleting unhealthy Machine ${name}; MachineSet workers`,
        )
      }
      const onCheck = await eventsAbout(k, namespace, 'workers', 'MachineRemediated')
      expect(onCheck.map((e) => e.message).sort()).toEqual([
        'Deleting unhealthy Machine sick; MachineSet workers will replace it',
        'Deleting unhealthy Machine silent; MachineSet workers will replace it',
      ])

      // The condition on each remediated Machine says which check failed and for how long.
      const condition = (await machineConditions(k, namespace, 'sick')).find(
        (c) => c.type === 'HealthCheckSucceeded',
      )
      expect(condition).toMatchObject({
        status: 'False',
        reason: 'UnhealthyNodeCondition',
        message: expect.stringMatching(
          new RegExp(
            `^Node ${names.sick}: condition Ready is False for more than ${timeoutS.False}s \\(since `,
          ),
        ),
      })
      expect(await deletionRequestedAt(k, namespace, 'ok')).toBeUndefined()
      expect(await machineConditions(k, namespace, 'ok')).toContainEqual(
        expect.objectContaining({
          type: 'HealthCheckSucceeded',
          status: 'True',
          reason: 'Healthy',
        }),
      )
    } finally {
      await extraKwok.stopAndClean()
    }
  })
  it('only marks a Machine that no MachineSet controls, and rejects an empty selector', async () => {
    const k = kube()
    const namespace = await testNamespace(api().kc, 'mhc-marked')
    releaseMachinesAtEnd(k, namespace)
    const lonely = await createMachine(k, namespace, { name: 'lonely', pool: 'solo', set: null })
    // Linked once, but its Node is gone.
    await setMachineStatus(k, lonely, {
      phase: 'Running',
      nodeRef: { name: uniqueName('mhc-gone') },
    })
    await startController(k, namespace)
    await k.create(
      types.machineHealthCheck,
      healthCheck(namespace, 'solo', { pool: 'solo', timeout: '5m' }),
    )

    const marked = await waitFor('MachineMarkedUnhealthy on the Machine', async () => {
      const list = await eventsAbout(k, namespace, 'lonely', 'MachineMarkedUnhealthy')
      return list.length > 0 && list
    })
    expect(marked[0]?.message).toMatch(
      /^Machine lonely is unhealthy: Node mhc-gone-\w+ is gone; no MachineSet controls it, so it is only marked$/,
    )
    expect(await machineConditions(k, namespace, 'lonely')).toContainEqual(
      expect.objectContaining({
        type: 'HealthCheckSucceeded',
        status: 'False',
        reason: 'NodeNotFound',
      }),
    )
    expect(await deletionRequestedAt(k, namespace, 'lonely')).toBeUndefined()

    const empty = healthCheck(namespace, 'everything', { pool: 'solo', timeout: '5m' })
    await expect(
      k.create(types.machineHealthCheck, {
        ...empty,
        spec: { ...(empty.spec as object), selector: {} },
      }),
    ).rejects.toThrow(/selector must not be empty/)
  })
})
