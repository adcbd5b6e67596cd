/**
 * nodeStartupTimeout against the real control plane: a Machine that never gets a Node is
 * remediated once the timeout, counted from provisioning, expires, and not before; a reconcile
 * asks to run again exactly at that crossing.
 */
import { describe, expect, it } from 'vitest'
import { reconcileMachineHealthCheck } from '../../../src/reconcile/machine-health-check/reconcile'
import { testNamespace, uniqueName, waitFor } from '../../harness/kube'
import { useKubeClient, useMachineApi } from '../../harness/machine-api'
import {
  createLinkedNode,
  createMachine,
  createMachineSet,
  deletionRequestedAt,
  deps,
  healthCheck,
  machineConditions,
  releaseMachinesAtEnd,
  setMachineStatus,
  startController,
  types,
} from './fixture'

const api = useMachineApi()
const kube = useKubeClient(api)

const startupMs = 30_000

describe('MachineHealthCheck node startup', () => {
  it('remediates a Machine without a Node after nodeStartupTimeout from provisioning, not before', async () => {
    const k = kube()
    const namespace = await testNamespace(api().kc, 'mhc-startup')
    releaseMachinesAtEnd(k, namespace)
    const set = await createMachineSet(k, namespace, 'boot')
    const late = await createMachine(k, namespace, { name: 'late', pool: 'boot', set })
    const joined = await createMachine(k, namespace, { name: 'joined', pool: 'boot', set })
    await createLinkedNode(k, joined, { nodeName: uniqueName('mhc-joined') })
    // Provisioned 20 s ago (whole seconds, as the apiserver stores times): 10 s of startup left.
    const provisionedMs = Math.floor(Date.now() / 1000) * 1000 - 20_000
    await setMachineStatus(k, late, {
      phase: 'Provisioned',
      lastUpdated: new Date(provisionedMs).toISOString(),
    })
    await k.create(
      types.machineHealthCheck,
      healthCheck(namespace, 'boot', {
        pool: 'boot',
        timeout: '5m',
        extra: { nodeStartupTimeout: '30s' },
      }),
    )
    const dueMs = provisionedMs + startupMs

    // One reconcile on a fixed clock: it asks to run again exactly when the timer crosses.
    const clock = { now: () => new Date(provisionedMs + 5000) }
    const result = await reconcileMachineHealthCheck(deps(k, clock), {
      kind: 'MachineHealthCheck',
      namespace,
      name: 'boot',
    })
    expect(result).toEqual({ requeueAfterMs: startupMs - 5000 })
    expect(await machineConditions(k, namespace, 'late')).toContainEqual(
      expect.objectContaining({
        type: 'HealthCheckSucceeded',
        status: 'Unknown',
        reason: 'WaitingForNode',
        message: `no Node yet; unhealthy at ${new Date(dueMs).toISOString().slice(0, 19)}Z unless one joins`,
      }),
    )

    await startController(k, namespace)
    const requested = await waitFor(
      'deletion of late',
      () => deletionRequestedAt(k, namespace, 'late'),
      { timeoutMs: 60_000 },
    )
    console.log(
      `MHC: late deletion requested ${requested - dueMs} ms (whole seconds) after nodeStartupTimeout`,
    )
    expect(requested).toBeGreaterThanOrEqual(dueMs)
    expect(requested - dueMs).toBeLessThan(5000)
    expect(await deletionRequestedAt(k, namespace, 'joined')).toBeUndefined()
    expect(await machineConditions(k, namespace, 'late')).toContainEqual(
      expect.objectContaining({
        type: 'HealthCheckSucceeded',
        status: 'False',
        reason: 'NodeStartupTimeout',
        message: `no Node joined within nodeStartupTimeout 30s of provisioning (since ${new Date(provisionedMs).toISOString().slice(0, 19)}Z)`,
      }),
    )
  })
})
