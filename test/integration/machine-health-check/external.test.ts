/**
 * External remediation against the real control plane: an unhealthy Machine is handed off (by
 * annotation, or by a request made from `remediation.externalTemplateRef`) instead of deleted, and
 * the hand-off is withdrawn once the Machine is healthy again.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { hasKubeReason } from '../../../src/kube/errors'
import { coreTypes, type KubeObject, type ResourceType } from '../../../src/kube/resource'
import { testNamespace, uniqueName, waitFor } from '../../harness/kube'
import { useKubeClient, useMachineApi } from '../../harness/machine-api'
import {
  createLinkedNode,
  createMachine,
  createMachineSet,
  deletionRequestedAt,
  eventsAbout,
  healthCheck,
  releaseMachinesAtEnd,
  setMachineStatus,
  startController,
  types,
} from './fixture'

const api = useMachineApi()
const kube = useKubeClient(api)

const group = 'remediation-test.machine-api.dev'
const requestType: ResourceType = {
  group,
  version: 'v1',
  kind: 'RebootRemediation',
  plural: 'rebootremediations',
  namespaced: true,
}
const templateType: ResourceType = {
  ...requestType,
  kind: 'RebootRemediationTemplate',
  plural: 'rebootremediationtemplates',
}

function crd(type: ResourceType): KubeObject {
  return {
    metadata: { name: `${type.plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: {
        kind: type.kind,
        plural: type.plural,
        singular: type.kind.toLowerCase(),
        listKind: `${type.kind}List`,
      },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          },
        },
      ],
    },
  }
}

beforeAll(async () => {
  for (const type of [requestType, templateType]) {
    await kube()
      .create(coreTypes.customResourceDefinition, crd(type))
      .catch((error: unknown) => {
        if (!hasKubeReason(error, 'AlreadyExists')) throw error
      })
    await waitFor(`${type.kind} served`, async () => {
      await kube().list(type, { namespace: 'default', limit: 1 })
      return true
    })
  }
})

function annotationOf(machine: KubeObject | undefined): string | undefined {
  return machine?.metadata?.annotations?.['machine-api.dev/external-remediation']
}

describe('MachineHealthCheck external remediation', () => {
  it('hands off by annotation, without needing a MachineSet owner', async () => {
    const k = kube()
    const namespace = await testNamespace(api().kc, 'mhc-ext-ann')
    releaseMachinesAtEnd(k, namespace)
    const lonely = await createMachine(k, namespace, { name: 'lonely', pool: 'ext', set: null })
    await setMachineStatus(k, lonely, {
      phase: 'Running',
      nodeRef: { name: uniqueName('mhc-never') },
    })
    await startController(k, namespace)
    const check = healthCheck(namespace, 'ext', { pool: 'ext', timeout: '5m' })
    check.metadata = {
      ...check.metadata,
      annotations: { 'machine-api.dev/remediation-strategy': 'external' },
    }
    await k.create(types.machineHealthCheck, check)

    const handedOff = await waitFor('hand-off annotation', async () =>
      annotationOf(await k.get(types.machine, { namespace, name: 'lonely' })),
    )
    expect(handedOff).toBe('annotation')
    expect(await deletionRequestedAt(k, namespace, 'lonely')).toBeUndefined()
    for (const name of ['lonely', 'ext']) {
      const events = await waitFor(`Event on ${name}`, async () => {
        const list = await eventsAbout(k, namespace, name, 'ExternalRemediationRequested')
        return list.length > 0 && list
      })
      expect(events[0]?.message).toBe(
        'Handed unhealthy Machine lonely to external remediation by annotation',
      )
    }
  })

  it('creates a request from the template, owned by the Machine, and withdraws it once healthy', async () => {
    const k = kube()
    const namespace = await testNamespace(api().kc, 'mhc-ext-tpl')
    releaseMachinesAtEnd(k, namespace)
    await k.create(templateType, {
      metadata: { name: 'reboot', namespace },
      spec: { template: { spec: { strategy: 'hard' } } },
    })
    const set = await createMachineSet(k, namespace, 'tpl')
    const machine = await createMachine(k, namespace, { name: 'flaky', pool: 'tpl', set })
    const nodeName = uniqueName('mhc-later')
    await setMachineStatus(k, machine, { phase: 'Running', nodeRef: { name: nodeName } })
    await startController(k, namespace)
    await k.create(
      types.machineHealthCheck,
      healthCheck(namespace, 'tpl', {
        pool: 'tpl',
        timeout: '5m',
        extra: {
          remediation: {
            externalTemplateRef: {
              apiVersion: `${group}/v1`,
              kind: 'RebootRemediationTemplate',
              name: 'reboot',
            },
          },
        },
      }),
    )

    const request = await waitFor('remediation request', () =>
      k.get(requestType, { namespace, name: 'flaky' }),
    )
    expect(request.spec).toEqual({ strategy: 'hard' })
    expect(request.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Machine', name: 'flaky', uid: machine.metadata?.uid }),
    ])
    expect(annotationOf(await k.get(types.machine, { namespace, name: 'flaky' }))).toBe(
      'RebootRemediation/flaky',
    )
    expect(await deletionRequestedAt(k, namespace, 'flaky')).toBeUndefined()

    // The remediator brings the Node back: the health check withdraws the request and the marker.
    await createLinkedNode(k, machine, { nodeName })
    await waitFor(
      'request withdrawn',
      async () => (await k.get(requestType, { namespace, name: 'flaky' })) === undefined,
    )
    await waitFor(
      'marker removed',
      async () =>
        annotationOf(await k.get(types.machine, { namespace, name: 'flaky' })) === undefined,
    )
    const completed = await waitFor('completion Event', async () => {
      const list = await eventsAbout(k, namespace, 'flaky', 'ExternalRemediationCompleted')
      return list.length > 0 && list
    })
    expect(completed[0]?.message).toBe(
      'Machine flaky is healthy again; external remediation marker removed',
    )
  })
})
