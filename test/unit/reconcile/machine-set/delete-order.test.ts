import { describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../../src/api/group'
import {
  clusterApiDeleteMachineAnnotation,
  type DeleteCandidate,
  type DeletePolicy,
  pickVictims,
} from '../../../../src/reconcile/machine-set/delete-order'

const day = 86_400_000
const base = Date.parse('2026-11-01T00:00:00Z')

function machine(
  name: string,
  ageDays: number,
  extra: {
    deleting?: boolean
    annotations?: Record<string, string>
    linked?: boolean
    failed?: boolean
    notReady?: boolean
  } = {},
): DeleteCandidate {
  return {
    metadata: {
      name,
      uid: `uid-${name}`,
      creationTimestamp: new Date(base - ageDays * day).toISOString(),
      ...(extra.deleting ? { deletionTimestamp: new Date(base).toISOString() } : {}),
      ...(extra.annotations ? { annotations: extra.annotations } : {}),
    },
    status: {
      ...(extra.linked === false ? {} : { nodeRef: { name: `node-${name}` } }),
      ...(extra.failed ? { phase: 'Failed' } : { phase: 'Running' }),
      ...(extra.notReady ? { conditions: [{ type: 'Ready', status: 'False' }] } : {}),
    },
  }
}

const healthy = [machine('a', 3), machine('b', 1), machine('c', 2)]
const names = (ms: DeleteCandidate[]) => ms.map((m) => m.metadata.name)

describe('pickVictims', () => {
  it.each<[string, DeleteCandidate[], number, DeletePolicy, string[]]>([
    ['Newest removes the youngest first', healthy, 2, 'Newest', ['b', 'c']],
    ['Oldest removes the oldest first', healthy, 2, 'Oldest', ['a', 'c']],
    [
      'a Machine being deleted counts first',
      [...healthy, machine('z', 5, { deleting: true })],
      1,
      'Newest',
      ['z'],
    ],
    [
      'the delete-machine annotation beats policy',
      [...healthy, machine('old', 9, { annotations: { [ANNOTATIONS.deleteMachine]: '' } })],
      1,
      'Newest',
      ['old'],
    ],
    [
      "cluster-autoscaler's annotation is honoured too",
      [
        ...healthy,
        machine('old', 9, { annotations: { [clusterApiDeleteMachineAnnotation]: 'yes' } }),
      ],
      1,
      'Newest',
      ['old'],
    ],
    [
      'a Machine without a Node goes before healthy ones',
      [...healthy, machine('x', 7, { linked: false })],
      1,
      'Newest',
      ['x'],
    ],
    [
      'a failed Machine goes before healthy ones',
      [...healthy, machine('f', 7, { failed: true })],
      1,
      'Oldest',
      ['f'],
    ],
    [
      'a linked Machine reporting Ready=False goes before healthy ones',
      [...healthy, machine('nr', 8, { notReady: true })],
      1,
      'Oldest',
      ['nr'],
    ],
    [
      'deleting, then annotated, then unhealthy, then policy',
      [
        machine('h', 1),
        machine('u', 2, { linked: false }),
        machine('m', 3, { annotations: { [ANNOTATIONS.deleteMachine]: '' } }),
        machine('d', 4, { deleting: true }),
      ],
      4,
      'Oldest',
      ['d', 'm', 'u', 'h'],
    ],
  ])('%s', (_name, machines, count, policy, expected) => {
    expect(names(pickVictims(machines, count, policy))).toEqual(expected)
  })

  it('Random is stable across calls and input orders', () => {
    const many = Array.from({ length: 20 }, (_, i) => machine(`m${i}`, i))
    const first = names(pickVictims(many, 5, 'Random'))
    expect(names(pickVictims([...many].reverse(), 5, 'Random'))).toEqual(first)
    // Not simply alphabetical or by age (Cluster API's "Random" was alphabetical).
    expect(first).not.toEqual(names(pickVictims(many, 5, 'Oldest')))
    expect(first).not.toEqual(['m0', 'm1', 'm10', 'm11', 'm12'])
  })
})
