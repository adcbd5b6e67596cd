/**
 * The per-reconcile read-once client against a real apiserver: repeated GETs of one object cost
 * one request, a write's answer is what the next read sees, a delete or a failed write makes the
 * next read ask again.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import { readOnce } from '../../../src/kube/read-once'
import { coreTypes } from '../../../src/kube/resource'
import { testKubeConfig, testNamespace } from '../../harness/kube'

let kc: KubeConfig
let kube: KubeClient
const calls: string[] = []

beforeAll(() => {
  kc = testKubeConfig()
  kube = createKubeClient(createHttpTransport(kc, (c) => calls.push(`${c.verb} ${c.resource}`)))
})

afterAll(() => kube.close())

describe('readOnce', () => {
  it('reads an object once, then sees its own writes', async () => {
    const namespace = await testNamespace(kc, 'read-once')
    const ref = { namespace, name: 'a' }
    await kube.create(coreTypes.configMap, { metadata: ref, data: { v: '1' } })
    const reads = readOnce(kube)
    calls.length = 0

    const [first, second] = await Promise.all([
      reads.get(coreTypes.configMap, ref),
      reads.get(coreTypes.configMap, ref),
    ])
    expect(first).toBe(second)
    await reads.mergePatch(coreTypes.configMap, ref, { data: { v: '2' } })
    expect((await reads.get(coreTypes.configMap, ref))?.data).toEqual({ v: '2' })
    expect(calls).toEqual(['get configmaps', 'patch configmaps'])

    const stale = { metadata: { resourceVersion: first?.metadata?.resourceVersion } }
    await expect(reads.mergePatch(coreTypes.configMap, ref, stale)).rejects.toThrow()
    await reads.get(coreTypes.configMap, ref)
    await reads.delete(coreTypes.configMap, ref)
    expect(await reads.get(coreTypes.configMap, ref)).toBeUndefined()
    expect(calls.slice(2)).toEqual([
      'patch configmaps',
      'get configmaps',
      'delete configmaps',
      'get configmaps',
    ])
    // Another invocation starts afresh.
    expect(await readOnce(kube).get(coreTypes.configMap, ref)).toBeUndefined()
    expect(calls).toHaveLength(7)
  })

  it('answers the first read of a held object without asking', async () => {
    const namespace = await testNamespace(kc, 'read-held')
    const ref = { namespace, name: 'b' }
    const listed = await kube.create(coreTypes.configMap, { metadata: ref, data: { v: '1' } })
    const reads = readOnce(kube, [{ type: coreTypes.configMap, obj: listed }])
    calls.length = 0
    expect(await reads.get(coreTypes.configMap, ref)).toBe(listed)
    expect(calls).toEqual([])
  })
})
