/**
 * A MachineClass with an AMI that does not exist, under a 2-replica MachineDeployment and a
 * MachineHealthCheck at maxUnhealthy 100%, with every controller running against moto (issue 28:
 * this made about 2.4 Machines a second). The MachineSet replaces its Failed Machines in rounds
 * further and further apart (here 2.5 s, 5 s, 10 s..., a quarter of the default 10 s, 20 s, 40 s),
 * the health check leaves them to it, and the deployment says what to fix; fixing the class
 * replaces them at once with Machines that launch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes } from '../../../src/kube/resource'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { watchMachines } from '../machine-set/machine-watch'
import { useMoto } from '../providers/aws-fixture'
import { fullStackKube, startFullStack } from './fixture'
import { deploymentLabel, machinesOf, readyHealthCheck } from './objects'

const moto = useMoto()
const api = useMachineApi({
  providerSchemas: (name) => (name === 'aws' ? awsProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'full-bad-class')
let kube: KubeClient
beforeAll(async () => {
  kube = fullStackKube(api().kc)
  await kube.create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: ns(), name: 'aws' },
    stringData: { aws_access_key_id: 'AKIAMOTO00000000', aws_secret_access_key: 'moto' },
  })
  await kube.create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns(), name: 'standard' },
    spec: {
      provider: 'aws',
      providerSpec: providerSpec(missingAmi),
      credentialsSecretRef: { name: 'aws' },
    },
  })
})
afterAll(() => kube.close())

const name = 'workers'
/** A quarter of the default pace, so the window that counts the rounds is a quarter too. */
const replacement = { baseDelayMs: 2_500, maxDelayMs: 300_000 }
const missingAmi = 'ami-0000000000000dead'

function providerSpec(ami: string): Record<string, unknown> {
  const { credentialsSecret: _ignored, ...spec } = moto().baseSpec
  return { ...spec, ami: { id: ami } }
}

interface Condition {
  type: string
  status?: string
  message?: string
}

async function replicaFailure(): Promise<Condition | undefined> {
  const md = await kube.get(machineApiTypes.machineDeployment, { namespace: ns(), name })
  const conditions = (md?.status as { conditions?: Condition[] } | undefined)?.conditions
  return conditions?.find((c) => c.type === 'ReplicaFailure')
}

describe('a MachineClass with a missing AMI under a MachineDeployment and a health check', () => {
  it('makes a bounded number of Machines, says what to fix, and recovers once fixed', async () => {
    const namespace = ns()
    await startFullStack(kube, namespace, createProviderRegistry([moto().provider]), replacement)
    const created = new Set<string>()
    const watch = await watchMachines(kube, namespace, (machines) => {
      for (const m of machines) created.add(m.metadata.uid ?? m.metadata.name)
      return undefined
    })
    const labels = { [deploymentLabel]: name }
    await kube.create(machineApiTypes.machineDeployment, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineDeployment',
      metadata: { namespace, name },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { classRef: { name: 'standard' }, nodeDeletionTimeout: '10s' },
        },
      },
    })
    const check = readyHealthCheck(namespace, name, '5s')
    await kube.create(machineApiTypes.machineHealthCheck, {
      ...check,
      spec: { ...(check.spec as object), maxUnhealthy: '100%' },
    })

    // The deployment names the failure and what to fix.
    const failing = await waitFor(
      'ReplicaFailure on the deployment',
      async () => {
        const c = await replicaFailure()
        return c?.status === 'True' && c
      },
      { intervalMs: 500, timeoutMs: 60_000 },
    )
    expect(failing.message).toMatch(/Machines? failed: InvalidAMI: .*ami-0000000000000dead/)
    expect(failing.message).toContain('fix MachineClass standard')

    // Over the next 12 s: rounds at about 1, 3.5 and 8.5 s after the first failure replace 2
    // Machines each, 8 Machines in all counting the first 2 (unbounded, ~29 at 2.4 a second); the
    // window ends seconds clear of the third round (which a slow round may delay) and of the
    // fourth, not due before about 18.5 s, so the fix below lands inside the backoff. One round
    // whose status write met a conflict is not recorded and may run once more: at most 10. (The
    // default pace scaled by 4 is rounds at 1, 11, 31 s, counted over 40 s.)
    await new Promise((resolve) => setTimeout(resolve, 12_000))
    const createdInWindow = created.size
    expect(createdInWindow).toBeGreaterThanOrEqual(4)
    expect(createdInWindow).toBeLessThanOrEqual(10)
    const set = (await kube.list(machineApiTypes.machineSet, { namespace })).items[0]
    const status = set?.status as
      | { replacement?: { consecutiveFailures: number; nextReplacementTime?: string } }
      | undefined
    const backoff = status?.replacement
    expect(backoff?.consecutiveFailures).toBeGreaterThanOrEqual(2)

    // Fixing the class reaches the set at once (no waiting out a backoff of up to 5 minutes).
    await kube.mergePatch(
      machineApiTypes.machineClass,
      { namespace, name: 'standard' },
      { spec: { providerSpec: providerSpec(moto().amiId) } },
    )
    const launched = await waitFor(
      '2 Machines with an instance and none Failed',
      async () => {
        const machines = (await machinesOf(kube, namespace)).filter(
          (m) => !m.metadata.deletionTimestamp,
        )
        const ok =
          machines.length === 2 &&
          machines.every((m) => m.spec?.providerID && m.status?.phase !== 'Failed')
        return ok && machines
      },
      { intervalMs: 500, timeoutMs: 90_000 },
    )
    // Their replacements were made before the backoff recorded before the fix would have allowed.
    const notBefore = Date.parse(backoff?.nextReplacementTime ?? '')
    for (const m of launched) {
      expect(Date.parse(String(m.metadata.creationTimestamp))).toBeLessThan(notBefore)
    }
    await waitFor('ReplicaFailure False', async () => (await replicaFailure())?.status === 'False')
    await watch.stop()
  })

  it('terminates and replaces a Machine whose Node never joins within provisioningTimeout', async () => {
    const namespace = ns()
    await kube.mergePatch(
      machineApiTypes.machineClass,
      { namespace, name: 'standard' },
      { spec: { providerSpec: providerSpec(moto().amiId) } },
    )
    await startFullStack(kube, namespace, createProviderRegistry([moto().provider]))
    const labels = { 'full-stack/set': 'slow' }
    await kube.create(machineApiTypes.machineSet, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineSet',
      metadata: { namespace, name: 'slow' },
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { classRef: { name: 'standard' }, provisioningTimeout: '8s' },
        },
      },
    })
    const ofSet = async () =>
      (await machinesOf(kube, namespace)).filter((m) => m.metadata.labels?.['full-stack/set'])
    const first = await waitFor(
      'a Machine with an instance',
      async () => (await ofSet()).find((m) => m.spec?.providerID),
      { intervalMs: 500, timeoutMs: 60_000 },
    )
    // No kubelet joins on moto: the deadline fails it, and the set replaces it with a new one.
    const replacement = await waitFor(
      'a replacement Machine with an instance of its own',
      async () =>
        (await ofSet()).find((m) => m.metadata.uid !== first.metadata.uid && m.spec?.providerID),
      { intervalMs: 500, timeoutMs: 90_000 },
    )
    expect(replacement.spec?.providerID).not.toBe(first.spec?.providerID)
    expect(await moto().tagged(first.metadata.uid ?? '')).toEqual([])
    const events = await kube.list(coreTypes.event, {
      namespace,
      fieldSelector: `involvedObject.name=${first.metadata.name}`,
    })
    expect(events.items.map((e) => (e as { reason?: string }).reason)).toContain(
      'ProvisioningTimeout',
    )
  })
})
