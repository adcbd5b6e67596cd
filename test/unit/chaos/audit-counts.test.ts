import { describe, expect, it } from 'vitest'
import { tagKeys } from '../../../src/providers/aws/tags'
import { duplicateInstances, groupCounts } from '../../chaos/lib/audit-counts'
import { createIntents } from '../../chaos/lib/intents'
import type { SeenMachine } from '../../chaos/lib/machine-ledger'

const machine = (uid: string, group: string, deleted = false): SeenMachine => ({
  uid,
  name: uid,
  group,
  everRunning: true,
  deleted,
})
const instance = (uid: string) => ({ Tags: [{ Key: tagKeys.machineUid, Value: uid }] })

describe('chaos audit arithmetic', () => {
  it('counts every instance beyond one per Machine that existed, and whole for a Machine that never did', () => {
    const seen = new Map([
      ['a', machine('a', 's')],
      ['b', machine('b', 's')],
    ])
    expect(duplicateInstances([instance('a'), instance('b')], seen)).toBe(0)
    expect(duplicateInstances([instance('a'), instance('a'), instance('b')], seen)).toBe(1)
    expect(duplicateInstances([instance('a'), instance('ghost')], seen)).toBe(1)
  })

  it('allows the creations and deletions the requests add up to', () => {
    const intents = createIntents()
    intents.want('s', 3)
    intents.want('s', 1)
    intents.want('s', 2)
    expect(intents.groups().get('s')).toEqual({ wanted: 2, creations: 4, deletions: 2 })
    const seen = [
      machine('a', 's', true),
      machine('b', 's', true),
      machine('c', 's'),
      machine('d', 's'),
    ]
    expect(groupCounts(seen, intents.groups(), new Map())).toEqual({
      duplicateMachines: 0,
      deletedUnrequested: 0,
      lost: 0,
    })
  })

  it('counts a Machine deleted without a request once, missing or not', () => {
    const intents = createIntents()
    intents.want('machine/x', 1)
    const seen = [machine('x', 'machine/x', true)]
    expect(groupCounts(seen, intents.groups(), new Map([['machine/x', 1]]))).toEqual({
      duplicateMachines: 0,
      deletedUnrequested: 1,
      lost: 1,
    })
  })

  it('counts a slot filled twice as a duplicate, not its cleanup as a loss', () => {
    const intents = createIntents()
    intents.want('s', 1)
    const seen = [machine('a', 's'), machine('b', 's', true)]
    expect(groupCounts(seen, intents.groups(), new Map())).toEqual({
      duplicateMachines: 1,
      deletedUnrequested: 0,
      lost: 0,
    })
  })

  it('counts Machines wanted at a checkpoint that never came as lost', () => {
    const intents = createIntents()
    intents.replace('d', 2)
    intents.want('d', 3)
    expect(groupCounts([], intents.groups(), new Map([['d', 3]]))).toEqual({
      duplicateMachines: 0,
      deletedUnrequested: 0,
      lost: 3,
    })
  })
})
