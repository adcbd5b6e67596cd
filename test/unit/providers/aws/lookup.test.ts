import { describe, expect, it } from 'vitest'
import { groupByTag } from '../../../../src/providers/aws/instance-reads'
import { clientTokenPattern } from '../../../../src/providers/aws/lookup'
import { clientTokenFor } from '../../../../src/providers/aws/run-instances-input'

/** An EC2 filter value with `*` wildcards as a RegExp. */
const asRegExp = (pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`)

describe('clientTokenPattern', () => {
  const uid = '3f1c2a9e-0b1d-4c55-9a7e-1d2e3f4a5b6c'
  const offering = (
    instanceType: string,
    subnetId: string,
    capacityType: 'spot' | 'on-demand',
  ) => ({
    instanceType,
    subnetId,
    zone: 'eu-west-1a',
    capacityType,
  })

  it.each([
    offering('m7i.large', 'subnet-1', 'on-demand'),
    offering('m6i.large', 'subnet-2', 'spot'),
  ])(
    'matches the token of every offering the Machine launches ($instanceType $capacityType)',
    (o) => {
      expect(clientTokenFor(uid, o)).toMatch(asRegExp(clientTokenPattern(uid)))
    },
  )

  it("matches no other Machine's token", () => {
    const other = clientTokenFor(
      '3f1c2a9e-0b1d-4c55-9a7e-1d2e3f4a5b6d',
      offering('m7i.large', 'subnet-1', 'on-demand'),
    )
    expect(other).not.toMatch(asRegExp(clientTokenPattern(uid)))
  })
})

describe('groupByTag', () => {
  const instance = (id: string, uid?: string) => ({
    InstanceId: id,
    Tags: [
      { Key: 'Name', Value: id },
      ...(uid ? [{ Key: 'machine-api.dev/machine-uid', Value: uid }] : []),
    ],
  })

  it('groups a batched answer by Machine UID; an untagged instance belongs to none', () => {
    const groups = groupByTag(
      [instance('i-1', 'u1'), instance('i-2', 'u2'), instance('i-3', 'u1'), instance('i-4')],
      'machine-api.dev/machine-uid',
    )
    expect(
      Object.fromEntries([...groups].map(([uid, all]) => [uid, all.map((i) => i.InstanceId)])),
    ).toEqual({
      u1: ['i-1', 'i-3'],
      u2: ['i-2'],
    })
  })
})
