/**
 * The per-reconcile read-once client against a real apiserver: repeated GETs of one object cost
 * one request, a write's answer is what the next read sees, a delete carried out at once reads as
 * gone, a pending delete or a failed write makes the next read ask again.
 */
import { describe, expect, it } from 'vitest'
import { readOnce } from '../../../src/kube/read-once'
import { coreTypes } from '../../../src/kube/resource'
import { testNamespace } from '../../harness/kube'
import { useRecordingKube } from './recording-kube'

const api = useRecordingKube()
const { calls } = api

describe('readOnce', () => {
  it('reads an object once, then sees its own writes', async () => {
    const namespace = await testNamespace(api.kc, 'read-once')
    const ref = { namespace, name: 'a' }
    await api.kube.create(coreTypes.configMap, { metadata: ref, data: { v: '1' } })
    const reads = readOnce(api.kube)
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
    expect(await reads.delete(coreTypes.configMap, ref)).toBe('gone')
    expect(await reads.get(coreTypes.configMap, ref)).toBeUndefined()
    // Removed at once: it reads as gone without asking.
    expect(calls.slice(2)).toEqual(['patch configmaps', 'get configmaps', 'delete configmaps'])
    // Another invocation starts afresh.
    expect(await readOnce(api.kube).get(coreTypes.configMap, ref)).toBeUndefined()
    expect(calls).toHaveLength(6)
  })

  it('asks again after a delete that waits on a finalizer', async () => {
    const namespace = await testNamespace(api.kc, 'read-going')
    const ref = { namespace, name: 'held' }
    const finalizers = ['machine-api.dev/test']
    await api.kube.create(coreTypes.configMap, { metadata: { ...ref, finalizers } })
    const reads = readOnce(api.kube)
    await reads.get(coreTypes.configMap, ref)
    calls.length = 0
    expect(await reads.delete(coreTypes.configMap, ref)).toBe('going')
    expect((await reads.get(coreTypes.configMap, ref))?.metadata?.deletionTimestamp).toBeDefined()
    expect(calls).toEqual(['delete configmaps', 'get configmaps'])
    await api.kube.mergePatch(coreTypes.configMap, ref, { metadata: { finalizers: null } })
    expect(await api.kube.delete(coreTypes.configMap, ref)).toBe(false)
  })

  it('answers the first read of a held object without asking', async () => {
    const namespace = await testNamespace(api.kc, 'read-held')
    const ref = { namespace, name: 'b' }
    const listed = await api.kube.create(coreTypes.configMap, { metadata: ref, data: { v: '1' } })
    const reads = readOnce(api.kube, [{ type: coreTypes.configMap, obj: listed }])
    calls.length = 0
    expect(await reads.get(coreTypes.configMap, ref)).toBe(listed)
    expect(calls).toEqual([])
  })
})
