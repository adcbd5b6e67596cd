/**
 * Conversion through the real apiserver: v1alpha1 <-> v1beta1 round trips are lossless (also
 * through a write at v1alpha1), and LIST at the non-storage version converts 500 objects.
 */
import { CustomObjectsApi } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { kubectl } from '../../harness/kube'
import {
  kubectlApply,
  kubectlError,
  useFileNamespace,
  useMachineApi,
} from '../../harness/machine-api'

const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'api-conversion')

type Obj = {
  apiVersion: string
  metadata: Record<string, unknown>
  spec: Record<string, unknown>
  status?: unknown
}

async function read(version: 'v1alpha1' | 'v1beta1', resource: string, name: string): Promise<Obj> {
  const { stdout } = await kubectl([
    'get',
    `${resource}.${version}.machine-api.dev`,
    name,
    '-n',
    ns(),
    '-o',
    'json',
  ])
  return JSON.parse(stdout) as Obj
}

function objects() {
  return api().kc.makeApiClient(CustomObjectsApi)
}

describe('Machine created as v1alpha1', () => {
  const legacy = () => ({
    apiVersion: 'machine-api.dev/v1alpha1',
    kind: 'Machine',
    metadata: { name: 'legacy', namespace: ns() },
    spec: {
      providerSpec: { provider: 'test', value: { instanceType: 'm5.large' } },
      versions: { kubelet: 'v1.34.1' },
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
    },
  })

  it('reads back as v1beta1 and again as v1alpha1 identically', async () => {
    await kubectlApply([legacy()])
    const hub = await read('v1beta1', 'machines', 'legacy')
    expect(hub.apiVersion).toBe('machine-api.dev/v1beta1')
    expect(hub.spec).toMatchObject({
      providerSpec: { provider: 'test', value: { instanceType: 'm5.large' } },
      versions: { kubelet: 'v1.34.1' },
      nodeDeletionTimeout: '10s',
    })
    const again = await read('v1alpha1', 'machines', 'legacy')
    expect(again.apiVersion).toBe('machine-api.dev/v1alpha1')
    expect(again.spec).toEqual(legacy().spec)
  })

  it('is refused without providerSpec.provider, naming the field', async () => {
    const spec = { ...legacy().spec, providerSpec: { value: { instanceType: 'm5.large' } } }
    const stderr = await kubectlError(
      kubectlApply([{ ...legacy(), metadata: { name: 'anonymous', namespace: ns() }, spec }]),
    )
    expect(stderr).toContain('spec.providerSpec.provider:')
  })

  it('names the classRef of v1beta1 as valueFrom.machineClass', async () => {
    await kubectlApply([
      {
        ...legacy(),
        metadata: { name: 'by-class', namespace: ns() },
        spec: {
          ...legacy().spec,
          providerSpec: { valueFrom: { machineClass: { name: 'small' } } },
        },
      },
    ])
    expect((await read('v1beta1', 'machines', 'by-class')).spec.classRef).toEqual({ name: 'small' })
  })
})

describe('Machine created as v1beta1 with fields v1alpha1 cannot hold', () => {
  const modern = () => ({
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { name: 'modern', namespace: ns() },
    spec: {
      classRef: { name: 'small' },
      lifecycleHooks: { preDrain: [{ name: 'backup', owner: 'team-a' }] },
      nodeDrainTimeout: '5m',
      nodeVolumeDetachTimeout: '2m',
    },
  })

  it('reads as v1alpha1 and back as v1beta1 identically', async () => {
    await kubectlApply([modern()])
    const before = await read('v1beta1', 'machines', 'modern')
    const spoke = await read('v1alpha1', 'machines', 'modern')
    expect(spoke.spec).toEqual({
      providerSpec: { valueFrom: { machineClass: { name: 'small' } } },
      versions: { kubelet: '' },
    })
    expect(spoke.metadata.annotations).toHaveProperty(['machine-api.dev/conversion-data'])
    const after = await read('v1beta1', 'machines', 'modern')
    expect(after).toEqual(before)
    expect(after.metadata.annotations).not.toHaveProperty(['machine-api.dev/conversion-data'])
  })

  it('keeps them through an update written at v1alpha1', async () => {
    const spoke = await read('v1alpha1', 'machines', 'modern')
    const labels = { ...(spoke.metadata.labels as object), edited: 'at-v1alpha1' }
    await objects().replaceNamespacedCustomObject({
      group: 'machine-api.dev',
      version: 'v1alpha1',
      namespace: ns(),
      plural: 'machines',
      name: 'modern',
      body: { ...spoke, metadata: { ...spoke.metadata, labels } },
    })
    const hub = await read('v1beta1', 'machines', 'modern')
    expect(hub.metadata.labels).toEqual({ edited: 'at-v1alpha1' })
    expect(hub.spec).toEqual({ ...modern().spec, nodeDeletionTimeout: '10s' })
    expect(hub.metadata.annotations ?? {}).not.toHaveProperty(['machine-api.dev/conversion-data'])
  })
})

describe('LIST at the non-storage version', () => {
  it('converts 500 Machines', async () => {
    const names = Array.from({ length: 500 }, (_, i) => `bulk-${String(i).padStart(3, '0')}`)
    const create = (name: string) =>
      objects().createNamespacedCustomObject({
        group: 'machine-api.dev',
        version: 'v1beta1',
        namespace: ns(),
        plural: 'machines',
        body: {
          apiVersion: 'machine-api.dev/v1beta1',
          kind: 'Machine',
          metadata: { name, namespace: ns(), labels: { bulk: 'yes' } },
          spec: {
            providerSpec: { provider: 'test', value: { instanceType: 't3.micro' } },
            nodeDrainTimeout: '1m',
          },
        },
      })
    // 25 at a time: fast, without tripping the apiserver's max-in-flight limit.
    for (let i = 0; i < names.length; i += 25) await Promise.all(names.slice(i, i + 25).map(create))
    const list = (await objects().listNamespacedCustomObject({
      group: 'machine-api.dev',
      version: 'v1alpha1',
      namespace: ns(),
      plural: 'machines',
      labelSelector: 'bulk=yes',
    })) as { items: Obj[] }
    expect(list.items).toHaveLength(500)
    expect(new Set(list.items.map((item) => item.apiVersion))).toEqual(
      new Set(['machine-api.dev/v1alpha1']),
    )
    expect(list.items.map((item) => item.metadata.name).sort()).toEqual(names)
    expect(
      list.items.every((item) => (item.spec.versions as { kubelet: string }).kubelet === ''),
    ).toBe(true)
  })
})
