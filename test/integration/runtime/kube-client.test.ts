import { describe, expect, it } from 'vitest'
import { asKubeApiError } from '../../../src/kube/errors'
import { listPages } from '../../../src/kube/paged-list'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { testNamespace } from '../../harness/kube'
import { useWidgetKube } from './widget'

const { kc, kube } = useWidgetKube()

async function reasonOf(call: Promise<unknown>): Promise<string | undefined> {
  return await call.then(
    () => 'no error',
    (error: unknown) => asKubeApiError(error)?.reason,
  )
}

const cm = (namespace: string, name: string, data: Record<string, string> = {}): KubeObject => ({
  metadata: { namespace, name },
  data,
})

describe('kube client', () => {
  it('parses AlreadyExists, NotFound, Conflict and Invalid from the apiserver', async () => {
    const namespace = await testNamespace(kc, 'kube-reasons')
    const created = await kube.create(coreTypes.configMap, cm(namespace, 'a'))
    expect(await reasonOf(kube.create(coreTypes.configMap, cm(namespace, 'a')))).toBe(
      'AlreadyExists',
    )
    expect(await kube.get(coreTypes.configMap, { namespace, name: 'missing' })).toBeUndefined()
    expect(
      await reasonOf(kube.mergePatch(coreTypes.configMap, { namespace, name: 'missing' }, {})),
    ).toBe('NotFound')

    await kube.mergePatch(coreTypes.configMap, { namespace, name: 'a' }, { data: { v: '1' } })
    const stale = {
      metadata: { resourceVersion: created.metadata?.resourceVersion },
      data: { v: '2' },
    }
    expect(
      await reasonOf(kube.mergePatch(coreTypes.configMap, { namespace, name: 'a' }, stale)),
    ).toBe('Conflict')
    expect(
      await reasonOf(
        kube.delete(
          coreTypes.configMap,
          { namespace, name: 'a' },
          { resourceVersion: created.metadata?.resourceVersion },
        ),
      ),
    ).toBe('Conflict')
    expect(await reasonOf(kube.create(coreTypes.configMap, cm(namespace, 'Not_Valid')))).toBe(
      'Invalid',
    )
    expect(await kube.delete(coreTypes.configMap, { namespace, name: 'a' })).toBe('gone')
    expect(await kube.delete(coreTypes.configMap, { namespace, name: 'a' })).toBe(false)
  })

  it('applies server-side under a field manager and reports a conflict with another manager', async () => {
    const namespace = await testNamespace(kc, 'kube-apply')
    const applied = await kube.apply(coreTypes.configMap, cm(namespace, 's', { owned: 'x' }), {
      fieldManager: 'machine-api',
    })
    expect(applied.data).toEqual({ owned: 'x' })
    const other = kube.apply(coreTypes.configMap, cm(namespace, 's', { owned: 'y' }), {
      fieldManager: 'someone-else',
    })
    expect(await reasonOf(other)).toBe('Conflict')
    const forced = await kube.apply(coreTypes.configMap, cm(namespace, 's', { owned: 'y' }), {
      fieldManager: 'someone-else',
      force: true,
    })
    expect(forced.data).toEqual({ owned: 'y' })
  })

  it('lists page by page with limit and continue', async () => {
    const namespace = await testNamespace(kc, 'kube-pages')
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        kube.create(coreTypes.configMap, {
          metadata: { namespace, name: `p-${i}`, labels: { page: 'yes' } },
        }),
      ),
    )
    const sizes: number[] = []
    for await (const page of listPages(kube, coreTypes.configMap, {
      namespace,
      labelSelector: 'page=yes',
      limit: 3,
    })) {
      sizes.push(page.items.length)
    }
    expect(sizes).toEqual([3, 3, 1])
  })

  it('evicts a Pod through the eviction subresource', async () => {
    const namespace = await testNamespace(kc, 'kube-evict')
    await kube.create(coreTypes.pod, {
      metadata: { namespace, name: 'victim' },
      spec: {
        containers: [{ name: 'c', image: 'registry.example/app:1' }],
        nodeSelector: { nowhere: 'true' },
      },
    })
    await kube.evict({ namespace, name: 'victim' })
    const pod = await kube.get(coreTypes.pod, { namespace, name: 'victim' })
    // Gone, or terminating if a finalizer or grace period holds it.
    expect(pod === undefined || pod.metadata?.deletionTimestamp !== undefined).toBe(true)
  })
})
