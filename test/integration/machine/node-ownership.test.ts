/**
 * A Machine drains and deletes only its own Node. Someone who can write one Machine's status
 * points its `status.nodeRef` at another Machine's Node and deletes it: the other Node is left
 * alone (not cordoned, not drained, not deleted, not relabelled), the Machine says why in a
 * NodeRefMismatch Event, and its own deletion still completes.
 */
import { CoreV1Api } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { Machine } from '../../../src/api/v1beta1/machine'
import { waitFor } from '../../harness/kube'
import {
  kwokMachine,
  machineCondition,
  machineDeps,
  readMachine,
  readNode,
  startMachineController,
  testProviders,
  useMachineTestApi,
} from './fixture'

const { api, namespace, kube } = useMachineTestApi('ownership')

async function running(ns: string, name: string): Promise<Machine> {
  await kube().create(
    machineApiTypes.machine,
    kwokMachine(ns, name, { metadata: { labels: { owner: name } } }),
  )
  return await waitFor(`${name} linked`, async () => {
    const m = await readMachine(kube(), ns, name)
    return machineCondition(m, 'NodeLinked')?.status === 'True' && m
  })
}

describe('whose Node a Machine drains and deletes', () => {
  it("leaves another Machine's Node alone when status.nodeRef points at it", async () => {
    const ns = namespace()
    const deps = machineDeps(kube(), testProviders())
    let stop = await startMachineController(deps, ns)
    await running(ns, 'a')
    const b = await running(ns, 'b')
    const bNode = b.status?.nodeRef?.name ?? ''
    const before = await readNode(api().kc, bNode)
    expect(before?.metadata?.labels?.owner).toBe('b')
    await stop()

    // With status write access to A only: A's nodeRef now names B's Node, then A is deleted.
    await kube().mergePatch(
      machineApiTypes.machine,
      { namespace: ns, name: 'a' },
      { status: { nodeRef: { kind: 'Node', name: bNode, uid: before?.metadata?.uid } } },
      { subresource: 'status' },
    )
    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'a' })
    stop = await startMachineController(deps, ns)
    try {
      await waitFor(
        'Machine a gone',
        async () => (await readMachine(kube(), ns, 'a')) === undefined,
      )
    } finally {
      await stop()
    }

    const after = await readNode(api().kc, bNode)
    expect(after?.metadata?.uid).toBe(before?.metadata?.uid)
    expect(after?.metadata?.deletionTimestamp).toBeUndefined()
    expect(after?.spec?.unschedulable).not.toBe(true)
    expect(after?.metadata?.labels?.owner).toBe('b')
    expect(after?.metadata?.annotations?.['machine-api.dev/machine']).toBe(`${ns}/b`)
    const events = await api().kc.makeApiClient(CoreV1Api).listNamespacedEvent({ namespace: ns })
    const mismatch = events.items.find(
      (e) => e.involvedObject?.name === 'a' && e.reason === 'NodeRefMismatch',
    )
    expect(mismatch?.message).toContain(bNode)
  })
})
