/**
 * Deletion waits for volumes to detach from the Node (VolumeAttachments still attached), names
 * them on the Machine, and gives up after nodeVolumeDetachTimeout.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { ResourceType } from '../../../src/kube/resource'
import { uniqueName, waitFor } from '../../harness/kube'
import {
  kwokMachine,
  machineCondition,
  machineDeps,
  readMachine,
  runMachineController,
  testProviders,
  useMachineTestApi,
} from './fixture'

const volumeAttachments: ResourceType = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  namespaced: false,
}

const { namespace, kube } = useMachineTestApi('volumes')

describe('volume detach', () => {
  it('holds deletion while a VolumeAttachment is attached, until nodeVolumeDetachTimeout', async () => {
    const ns = namespace()
    await runMachineController(machineDeps(kube(), testProviders()), ns)
    await kube().create(
      machineApiTypes.machine,
      kwokMachine(ns, 'db-host', { nodeVolumeDetachTimeout: '6s' }),
    )
    const machine = await waitFor('Running', async () => {
      const m = await readMachine(kube(), ns, 'db-host')
      return m?.status?.nodeRef && m
    })
    const nodeName = machine.status?.nodeRef?.name ?? ''
    const name = uniqueName('va')
    await kube().create(volumeAttachments, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name },
      spec: { attacher: 'ebs.csi.aws.com', nodeName, source: { persistentVolumeName: 'pv-data' } },
    })
    onTestFinished(async () => {
      await kube().delete(volumeAttachments, { name })
    })
    await kube().mergePatch(
      volumeAttachments,
      { name },
      { status: { attached: true } },
      { subresource: 'status' },
    )

    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'db-host' })
    const waiting = await waitFor('waiting for the volume', async () => {
      const m = await readMachine(kube(), ns, 'db-host')
      return machineCondition(m, 'Deleting')?.reason === 'WaitingForVolumeDetach' && m
    })
    expect(machineCondition(waiting, 'Deleting')?.message).toContain(name)
    expect(machineCondition(waiting, 'Drained')?.status).toBe('True')
    await waitFor(
      'deletion proceeds after the timeout',
      async () => (await readMachine(kube(), ns, 'db-host')) === undefined,
      {
        timeoutMs: 60_000,
      },
    )
  })
})
