import { describe, expect, it } from 'vitest'
import {
  CAPACITY_PREFIX,
  CLASS_CAPACITY_RECORD,
  capacityAnnotationPatch,
  capacityAnnotations,
} from '../../../../src/reconcile/shared/class-capacity'

const key = (k: string) => `${CAPACITY_PREFIX}${k}`

describe('capacityAnnotations', () => {
  it('maps a class status to the keys cluster-autoscaler reads', () => {
    expect(
      capacityAnnotations({
        capacity: { cpu: '2', memory: '8Gi', pods: '110', 'ephemeral-storage': '20Gi' },
        nodeInfo: { architecture: 'arm64', operatingSystem: 'linux' },
      }),
    ).toEqual({
      [key('cpu')]: '2',
      [key('memory')]: '8Gi',
      [key('maxPods')]: '110',
      [key('ephemeral-disk')]: '20Gi',
      [key('labels')]: 'kubernetes.io/arch=arm64,kubernetes.io/os=linux',
    })
  })

  it('names GPUs by count and resource', () => {
    const out = capacityAnnotations({
      capacity: { cpu: '8', memory: '61Gi', 'nvidia.com/gpu': '1' },
    })
    expect(out[key('gpu-count')]).toBe('1')
    expect(out[key('gpu-type')]).toBe('nvidia.com/gpu')
  })

  it('says nothing without both cpu and memory (the autoscaler could not use it)', () => {
    expect(capacityAnnotations({ capacity: { cpu: '2' } })).toEqual({})
    expect(capacityAnnotations(undefined)).toEqual({})
  })
})

describe('capacityAnnotationPatch', () => {
  const desired = { [key('cpu')]: '2', [key('memory')]: '8Gi' }
  const record = JSON.stringify(desired)

  it('writes the annotations and records them', () => {
    expect(capacityAnnotationPatch({}, desired)).toEqual({
      ...desired,
      [CLASS_CAPACITY_RECORD]: record,
    })
  })

  it('changes nothing once in step', () => {
    expect(
      capacityAnnotationPatch({ ...desired, [CLASS_CAPACITY_RECORD]: record }, desired),
    ).toBeUndefined()
  })

  it('never overwrites a value someone else wrote, and does not claim it', () => {
    const patch = capacityAnnotationPatch({ [key('cpu')]: '16' }, desired)
    expect(patch).toEqual({
      [key('memory')]: '8Gi',
      [CLASS_CAPACITY_RECORD]: JSON.stringify({ [key('memory')]: '8Gi' }),
    })
  })

  it('follows a changed class and drops keys the class no longer has', () => {
    const have = { ...desired, [CLASS_CAPACITY_RECORD]: record }
    expect(capacityAnnotationPatch(have, { [key('cpu')]: '4', [key('memory')]: '8Gi' })).toEqual({
      [key('cpu')]: '4',
      [CLASS_CAPACITY_RECORD]: JSON.stringify({ [key('cpu')]: '4', [key('memory')]: '8Gi' }),
    })
    expect(capacityAnnotationPatch(have, {})).toEqual({
      [key('cpu')]: null,
      [key('memory')]: null,
      [CLASS_CAPACITY_RECORD]: null,
    })
  })

  it('keeps a value someone changed after us, even when the class drops it', () => {
    const have = { ...desired, [key('cpu')]: '3', [CLASS_CAPACITY_RECORD]: record }
    expect(capacityAnnotationPatch(have, {})).toEqual({
      [key('memory')]: null,
      [CLASS_CAPACITY_RECORD]: null,
    })
  })

  it('treats an unreadable record as owning nothing', () => {
    expect(
      capacityAnnotationPatch({ ...desired, [CLASS_CAPACITY_RECORD]: '{oops' }, desired),
    ).toEqual({
      [CLASS_CAPACITY_RECORD]: null,
    })
  })
})
