/**
 * @module The provisioning limit: a client that makes only the apiserver writes a kwok Machine
 * needs, with the controllers' concurrency: create the Machine (finalizer and providerID set),
 * record it provisioned, create its Node, record it Running with the nodeRef. No reads, no Events,
 * no claim or finalizer patches: whatever the controllers do beyond this is overhead.
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { createPool } from '../../../src/pool'
import { kwokKeys } from '../../../src/providers/kwok/node'
import { waitFor } from '../../harness/kube'
import { kwokMachine, kwokNodeFor, provisionedStatus, runningStatus } from './fleet-manifests'

/** Writes per Machine: create Machine, status, create Node, status. */
export const tightWritesPerMachine = 4

/** Provisions Machines `<prefix>-0..n-1`; resolves when every one is Running with its Node. */
export async function tightProvision(
  kube: KubeClient,
  namespace: string,
  prefix: string,
  n: number,
  concurrency: number,
): Promise<void> {
  const pool = createPool(concurrency)
  const failures: unknown[] = []
  for (let i = 0; i < n; i++) {
    await pool.submit(() =>
      provisionOne(kube, namespace, `${prefix}-${i}`).catch((error: unknown) => {
        failures.push(error)
      }),
    )
  }
  await pool.drain()
  if (failures.length > 0) throw failures[0]
}

async function provisionOne(kube: KubeClient, namespace: string, name: string): Promise<void> {
  const ref = { namespace, name }
  const providerID = `kwok://${namespace}/${name}`
  const machine = await kube.create<KubeObject>(
    machineApiTypes.machine,
    kwokMachine(namespace, name, { providerID }),
  )
  const now = () => new Date().toISOString()
  await kube.mergePatch(machineApiTypes.machine, ref, provisionedStatus(providerID, now()), {
    subresource: 'status',
  })
  const node = await kube.create<KubeObject>(coreTypes.node, kwokNodeFor(machine))
  await kube.mergePatch(machineApiTypes.machine, ref, runningStatus(node, now()), {
    subresource: 'status',
  })
}

/** Deletes the namespace's Machines (finalizers dropped) and their Nodes; waits until gone. */
export async function tightCleanup(
  kube: KubeClient,
  namespace: string,
  concurrency: number,
): Promise<void> {
  const pool = createPool(concurrency)
  const machines = await kube.list(machineApiTypes.machine, { namespace })
  for (const m of machines.items) {
    const ref = { namespace, name: m.metadata?.name ?? '' }
    await pool.submit(async () => {
      await kube.mergePatch(machineApiTypes.machine, ref, { metadata: { finalizers: null } })
      await kube.delete(machineApiTypes.machine, ref)
    })
  }
  const nodes = await kube.list(coreTypes.node, {
    labelSelector: `${kwokKeys.machineNamespace}=${namespace}`,
  })
  for (const node of nodes.items) {
    await pool.submit(
      async () => void (await kube.delete(coreTypes.node, { name: node.metadata?.name ?? '' })),
    )
  }
  await pool.drain()
  await waitForEmpty(kube, namespace)
}

/** Waits until the namespace has no Machine and no kwok Node points at it. */
export async function waitForEmpty(kube: KubeClient, namespace: string): Promise<void> {
  await waitFor(
    `no Machine or kwok Node left in ${namespace}`,
    async () =>
      (await kube.list(machineApiTypes.machine, { namespace, limit: 1 })).items.length === 0 &&
      (
        await kube.list(coreTypes.node, {
          labelSelector: `${kwokKeys.machineNamespace}=${namespace}`,
          limit: 1,
        })
      ).items.length === 0,
    { intervalMs: 1000, timeoutMs: 600_000 },
  )
}
