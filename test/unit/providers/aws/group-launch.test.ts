import type { Instance } from '@aws-sdk/client-ec2'
import { describe, expect, it } from 'vitest'
import {
  groupClientToken,
  isOfGroup,
  memberInstance,
  toGroupRunInstancesInput,
} from '../../../../src/providers/aws/group-launch'
import { awsProviderSpecSchema } from '../../../../src/providers/aws/spec'

const place = { group: '0123456789abcdef', index: 1, size: 3 }
const offering = {
  instanceType: 'm7i.large',
  zone: 'eu-west-1a',
  subnetId: 'subnet-0aaa',
  capacityType: 'on-demand' as const,
}
const spec = awsProviderSpecSchema().parse({
  ami: { id: 'ami-0123456789abcdef0' },
  instanceType: 'm7i.large',
  subnet: { id: 'subnet-0aaa' },
  tags: { team: 'infra' },
})
const params = (uid: string, name: string) => ({
  spec,
  machine: { name, namespace: 'prod', uid },
  resolved: { imageId: 'ami-0123456789abcdef0', securityGroupIds: [] },
  offering,
  ownerId: 'owner-1',
})

const token = groupClientToken(place, offering)
function launched(index: number, tags: Record<string, string> = {}, state = 'running'): Instance {
  return {
    InstanceId: `i-${index}`,
    AmiLaunchIndex: index,
    ClientToken: token,
    State: { Name: state as 'running' },
    Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
  }
}

describe('a launch group call', () => {
  it('is the same request for every member: count, token and tags name the group only', () => {
    const a = toGroupRunInstancesInput(params('uid-a', 'm-a'), place)
    const b = toGroupRunInstancesInput(params('uid-b', 'm-b'), { ...place, index: 2 })
    expect(a).toEqual(b)
    expect([a.MinCount, a.MaxCount]).toEqual([1, 3])
    expect(a.ClientToken).toBe(token)
    expect(a.ClientToken?.length).toBeLessThanOrEqual(64)
    const tags = Object.fromEntries(
      (a.TagSpecifications?.[0]?.Tags ?? []).map((t) => [t.Key, t.Value]),
    )
    expect(tags).toEqual({
      Name: 'prod/launch-group-0123456789abcdef',
      team: 'infra',
      'machine-api.dev/machine-namespace': 'prod',
      'machine-api.dev/owner': 'owner-1',
      'machine-api.dev/launch-group': '0123456789abcdef',
    })
  })

  it('has a token per offering and size, found by the group pattern', () => {
    const other = groupClientToken(place, { ...offering, capacityType: 'spot' })
    const bigger = groupClientToken({ ...place, size: 4 }, offering)
    expect(new Set([token, other, bigger]).size).toBe(3)
    expect(isOfGroup(launched(0), place.group)).toBe(true)
    expect(isOfGroup({ ...launched(0), ClientToken: 'machine-api-g-ffff-1' }, place.group)).toBe(
      false,
    )
  })
})

describe('memberInstance', () => {
  const uid = 'uid-b'
  it.each<[string, Instance[], string | undefined]>([
    ['the instance at its AmiLaunchIndex', [launched(0), launched(1), launched(2)], 'i-1'],
    ['none when the call filled fewer places', [launched(0)], undefined],
    ['its own claimed instance', [launched(1, { 'machine-api.dev/machine-uid': uid })], 'i-1'],
    [
      'none when another Machine claimed it',
      [launched(1, { 'machine-api.dev/machine-uid': 'x' })],
      undefined,
    ],
    ['none from another launch', [{ ...launched(1), ClientToken: 'machine-api-other' }], undefined],
  ])('finds %s', (_, instances, expected) => {
    expect(memberInstance(instances, place, uid)?.InstanceId).toBe(expected)
  })
})
