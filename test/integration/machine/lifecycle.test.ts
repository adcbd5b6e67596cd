/**
 * The Machine controller with the kwok provider against the real control plane: provisioning,
 * Node linking with labels and taints, and the finalizer-guarded deletion.
 */
import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { hasKubeReason } from '../../../src/kube/errors'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { KubeObject, ObjectRef, ResourceType } from '../../../src/kube/resource'
import { waitFor } from '../../harness/kube'
import {
  kwokMachine,
  machineCondition,
  machineDeps,
  readMachine,
  readNode,
  runMachineController,
  testProviders,
  useMachineTestApi,
} from './fixture'

const { api, namespace, kube } = useMachineTestApi('machine')

describe('Machine lifecycle (kwok provider)', () => {
  it('goes Pending -> Running with a nodeRef, and keeps labels and taints on the Node', async () => {
    const ns = namespace()
    // Status writes that found the Machine gone: a deleted Machine gets none.
    const statusWritesOfGone: string[] = []
    // The Node requests in order: a new Machine's Node is created without looking for it first.
    const nodeRequests: string[] = []
    const client = kube()
    const recording: KubeClient = {
      ...client,
      get<T extends KubeObject>(type: ResourceType, ref: ObjectRef) {
        if (type.plural === 'nodes') nodeRequests.push('get')
        return client.get<T>(type, ref)
      },
      create<T extends KubeObject>(type: ResourceType, object: T) {
        if (type.plural === 'nodes') nodeRequests.push('create')
        return client.create<T>(type, object)
      },
      mergePatch<T extends KubeObject>(
        type: ResourceType,
        ref: ObjectRef,
        patch: object,
        options?: Parameters<KubeClient['mergePatch']>[3],
      ) {
        return client.mergePatch<T>(type, ref, patch, options).catch((error: unknown) => {
          if (options?.subresource === 'status' && hasKubeReason(error, 'NotFound')) {
            statusWritesOfGone.push(ref.name)
          }
          throw error
        })
      },
    }
    await runMachineController(machineDeps(recording, testProviders()), ns)
    await kube().create(
      machineApiTypes.machine,
      kwokMachine(ns, 'web-1', {
        metadata: { labels: { role: 'web', tier: 'front' } },
        taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }],
      }),
    )
    const running = await waitFor('Machine Running', async () => {
      const m = await readMachine(kube(), ns, 'web-1')
      return m?.status?.phase === 'Running' && m
    })
    expect(running.spec.providerID).toBe(`kwok://${ns}.web-1`)
    expect(nodeRequests[0]).toBe('create')
    expect(machineCondition(running, 'NodeLinked')?.status).toBe('True')
    const nodeName = running.status?.nodeRef?.name ?? ''
    await waitFor('Node Ready and Machine NodeHealthy', async () => {
      const m = await readMachine(kube(), ns, 'web-1')
      return machineCondition(m, 'Ready')?.status === 'True'
    })
    const node = await readNode(api().kc, nodeName)
    expect(node?.metadata?.labels).toMatchObject({ role: 'web', tier: 'front' })
    expect(node?.spec?.taints).toContainEqual({
      key: 'dedicated',
      value: 'web',
      effect: 'NoSchedule',
    })
    expect(node?.metadata?.annotations?.['machine-api.dev/machine']).toBe(`${ns}/web-1`)

    await kube().mergePatch(
      machineApiTypes.machine,
      { namespace: ns, name: 'web-1' },
      { spec: { metadata: { labels: { tier: null } } } },
    )
    await waitFor('label removed from the Node', async () => {
      const labels = (await readNode(api().kc, nodeName))?.metadata?.labels ?? {}
      return !('tier' in labels) && labels.role === 'web'
    })

    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'web-1' })
    await waitFor('Machine and Node gone', async () => {
      return (
        (await readMachine(kube(), ns, 'web-1')) === undefined &&
        (await readNode(api().kc, nodeName)) === undefined
      )
    })
    expect(statusWritesOfGone).toEqual([])
  })
})
