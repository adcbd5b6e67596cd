import { describe, expect, it } from 'vitest'
import { mergePatchFor } from '../../../../src/reconcile/machine-deployment/merge-diff'
import {
  planOnDelete,
  type SetView,
  scaleWithoutRollout,
} from '../../../../src/reconcile/machine-deployment/scaling'
import { templateHash } from '../../../../src/reconcile/machine-deployment/template-hash'
import { deployment } from './builders'

const template = (cls: string) => deployment(1, cls).spec.template

describe('templateHash', () => {
  it.each([
    ['labels', { ...template('a'), metadata: { labels: { app: 'web', extra: 'x' } } }, true],
    [
      'timeouts',
      { ...template('a'), spec: { ...template('a').spec, nodeDrainTimeout: '9m' } },
      true,
    ],
    [
      'taints',
      {
        ...template('a'),
        spec: { ...template('a').spec, taints: [{ key: 'k', effect: 'NoSchedule' as const }] },
      },
      true,
    ],
    ['the class', template('b'), false],
    [
      'the versions',
      { ...template('a'), spec: { ...template('a').spec, versions: { kubelet: 'v1.34.0' } } },
      false,
    ],
  ])('a change of %s keeps the hash: %s', (_what, changed, same) => {
    expect(templateHash(changed) === templateHash(template('a'))).toBe(same)
  })

  it('does not depend on key order', () => {
    const a = {
      spec: {
        classRef: { name: 'a' },
        versions: { kubelet: 'v1', controlPlane: 'v2' },
        nodeDeletionTimeout: '10s',
      },
    }
    const b = {
      spec: {
        versions: { controlPlane: 'v2', kubelet: 'v1' },
        nodeDeletionTimeout: '10s',
        classRef: { name: 'a' },
      },
    }
    expect(templateHash(a)).toBe(templateHash(b))
    expect(templateHash(a)).toMatch(/^[a-z0-9]{10}$/)
  })
})

describe('mergePatchFor', () => {
  it.each<[string, unknown, unknown, unknown]>([
    ['equal values need no patch', { a: 1 }, { a: 1 }, undefined],
    [
      'removed keys become null',
      { a: 1, b: { c: 2, d: 3 } },
      { a: 1, b: { c: 2 } },
      { b: { d: null } },
    ],
    ['arrays are replaced whole', { t: [1, 2] }, { t: [1] }, { t: [1] }],
    ['new keys are added', {}, { a: { b: 1 } }, { a: { b: 1 } }],
  ])('%s', (_name, current, desired, patch) => {
    expect(mergePatchFor(current, desired)).toEqual(patch)
  })
})

const view = (name: string, replicas: number, machines = replicas): SetView => ({
  name,
  replicas,
  machines,
  available: machines,
  settled: true,
})

describe('replica decisions without RollingUpdate', () => {
  it.each<[string, number, SetView, SetView[], Record<string, number>]>([
    ['scale-up goes to the newest set', 5, view('new', 2), [view('old', 1)], { new: 4 }],
    ['scale-down takes from the oldest first', 2, view('new', 2), [view('old', 2)], { old: 0 }],
    ['nothing to do at size', 3, view('new', 2), [view('old', 1)], {}],
  ])('paused: %s', (_name, replicas, newest, olds, expected) => {
    expect(scaleWithoutRollout(replicas, newest, olds)).toEqual(expected)
  })

  it.each<[string, number, SetView, SetView[], Record<string, number>]>([
    ['old Machines stay until deleted', 3, view('new', 0), [view('old', 3)], {}],
    [
      'a deleted old Machine is replaced by the new set',
      3,
      view('new', 0),
      [view('old', 3, 2)],
      { old: 2, new: 1 },
    ],
    [
      'a deployment scale-down shrinks old sets first',
      2,
      view('new', 1),
      [view('old', 2)],
      { old: 1 },
    ],
    ['a scale-up goes to the new set', 5, view('new', 1), [view('old', 2)], { new: 3 }],
  ])('OnDelete: %s', (_name, replicas, newSet, olds, expected) => {
    expect(planOnDelete(replicas, newSet, olds)).toEqual(expected)
  })
})
