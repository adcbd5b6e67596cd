import type { Instance } from '@aws-sdk/client-ec2'
import { describe, expect, it } from 'vitest'
import { findOrphans, legacyOfOurs } from '../../../../src/providers/aws/orphans'

const now = new Date('2026-06-01T12:00:00Z')
const hourAgo = new Date('2026-06-01T11:00:00Z')
const minuteAgo = new Date('2026-06-01T11:59:00Z')

function instance(id: string, uid: string | undefined, launched: Date, owner = 'o'): Instance {
  return {
    InstanceId: id,
    LaunchTime: launched,
    Tags: [
      ...(uid ? [{ Key: 'machine-api.dev/machine-uid', Value: uid }] : []),
      { Key: 'machine-api.dev/machine-name', Value: `m-${id}` },
      { Key: 'machine-api.dev/machine-namespace', Value: 'ns' },
      { Key: 'machine-api.dev/owner', Value: owner },
    ],
  }
}

const policy = { now, graceMs: 15 * 60_000, terminate: true, ownerId: 'o' }

describe('findOrphans', () => {
  it.each([
    ['an instance whose Machine exists', instance('i-1', 'live', hourAgo), []],
    ['an old instance whose Machine is gone', instance('i-2', 'gone', hourAgo), ['i-2']],
    ['a young instance whose Machine is not listed (yet)', instance('i-3', 'gone', minuteAgo), []],
  ])('judges %s', (_, inst, expected) => {
    const orphans = findOrphans([inst], new Set(['live']), policy)
    expect(orphans.map((o) => o.instanceId)).toEqual(expected)
  })

  it('names the Machine an orphan belonged to', () => {
    const [orphan] = findOrphans([instance('i-2', 'gone', hourAgo)], new Set(), policy)
    expect(orphan).toEqual({
      instanceId: 'i-2',
      machineUid: 'gone',
      machineName: 'm-i-2',
      machineNamespace: 'ns',
      launchTime: hourAgo.toISOString(),
      terminate: true,
    })
  })

  it('only reports when termination is off (the default)', () => {
    const orphans = findOrphans([instance('i-2', 'gone', hourAgo)], new Set(), {
      ...policy,
      terminate: false,
    })
    expect(orphans.map((o) => o.terminate)).toEqual([false])
  })

  it('never terminates an owner-tagged instance without a Machine UID (tagged by hand)', () => {
    const [orphan] = findOrphans([instance('i-4', undefined, hourAgo)], new Set(), policy)
    expect(orphan?.terminate).toBe(false)
  })

  it.each([
    ['terminating is on', true],
    ['the sweep only reports', false],
  ])('terminates a launch group instance no Machine claimed when %s', (_, terminate) => {
    const unclaimed: Instance = {
      InstanceId: 'i-6',
      LaunchTime: hourAgo,
      Tags: [
        { Key: 'machine-api.dev/launch-group', Value: 'g1' },
        { Key: 'machine-api.dev/owner', Value: 'o' },
      ],
    }
    const young = { ...unclaimed, InstanceId: 'i-7', LaunchTime: minuteAgo }
    const foreign = { ...unclaimed, InstanceId: 'i-8', Tags: [unclaimed.Tags?.[0] ?? {}] }
    const orphans = findOrphans([unclaimed, young, foreign], new Set(), { ...policy, terminate })
    expect(orphans.map((o) => [o.instanceId, o.terminate])).toEqual([
      ['i-6', true],
      ['i-8', false],
    ])
  })

  it.each([
    [
      "another installation's owner",
      'machine-api-other',
      "its owner tag is machine-api-other, not this installation's o",
    ],
    [
      'the owner of earlier releases (maybe another installation still on it)',
      'machine-api',
      "its owner tag is machine-api, not this installation's o",
    ],
  ])('never terminates an instance with %s, and says why', (_, owner, why) => {
    const [orphan] = findOrphans([instance('i-5', 'gone', hourAgo, owner)], new Set(), policy)
    expect(orphan).toMatchObject({ instanceId: 'i-5', terminate: false, keptBecause: why })
  })
})

describe('legacyOfOurs', () => {
  it('picks the instances of an earlier owner whose Machine exists here', () => {
    const instances = [
      instance('i-ours-old', 'live', hourAgo, 'machine-api'),
      instance('i-ours-new', 'live', hourAgo, 'o'),
      instance('i-theirs', 'elsewhere', hourAgo, 'machine-api'),
    ]
    expect(legacyOfOurs(instances, new Set(['live']), 'o')).toEqual(['i-ours-old'])
  })
})
