import { describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../src/api/group'
import { machineKeyFromNode, nodeProviderId, providerIdHash } from '../../../src/api/node-link'
import { machineApiTypes } from '../../../src/api/resource-types'
import { type EventMapper, mapChange, ownerKeys, selfMapper } from '../../../src/bus/event-mapping'
import { machineApiMappers, watchedTypes } from '../../../src/bus/machine-api-mappers'

const owner = (kind: string, name: string, controller?: boolean) => ({
  apiVersion: 'machine-api.dev/v1beta1',
  kind,
  name,
  uid: `${name}-uid`,
  ...(controller === undefined ? {} : { controller }),
})

describe('event mapping', () => {
  it('maps an object to its owners of a kind, controller first', () => {
    const machine = {
      metadata: {
        namespace: 'ns',
        name: 'm',
        ownerReferences: [
          owner('MachineSet', 'other'),
          owner('MachineSet', 'set', true),
          owner('Foo', 'f'),
        ],
      },
    }
    expect(ownerKeys(machine, 'MachineSet')).toEqual([
      { kind: 'MachineSet', namespace: 'ns', name: 'set' },
      { kind: 'MachineSet', namespace: 'ns', name: 'other' },
    ])
    expect(ownerKeys({ metadata: { name: 'x' } }, 'MachineSet')).toEqual([])
  })

  it('maps an object to itself', () => {
    expect(
      selfMapper('Machine').map({ metadata: { namespace: 'ns', name: 'm' } }, undefined as never),
    ).toEqual([{ kind: 'Machine', namespace: 'ns', name: 'm' }])
  })

  it('maps a deletion to nothing: a run of a gone object has nothing to do', () => {
    const machine = { metadata: { namespace: 'ns', name: 'm' } }
    expect(selfMapper('Machine').map(machine, undefined as never, 'DELETED')).toEqual([])
    expect(selfMapper('Machine').map(machine, undefined as never, 'SYNC')).toHaveLength(1)
  })

  it('hands each mapper its keys as it finds them: a slow one holds back no other', async () => {
    let finish = () => {}
    const slow: EventMapper = {
      sourceKind: 'Machine',
      needsObject: true,
      map: () =>
        new Promise((resolve) => {
          finish = () => resolve([{ kind: 'MachineHealthCheck', namespace: 'ns', name: 'c' }])
        }),
    }
    const delivered: string[][] = []
    const machine = { metadata: { namespace: 'ns', name: 'm' } }
    const mapped = mapChange(
      [slow, selfMapper('Machine')],
      { kind: 'Machine', obj: machine },
      undefined as never,
      (keys) => delivered.push(keys.map((k) => k.kind)),
    )
    await Promise.resolve()
    await Promise.resolve()
    expect(delivered).toEqual([['Machine']])
    finish()
    await mapped
    expect(delivered).toEqual([['Machine'], ['MachineHealthCheck']])
  })

  it.each([
    [
      'a linked Node',
      { [ANNOTATIONS.machine]: 'ns/m-1' },
      { kind: 'Machine', namespace: 'ns', name: 'm-1' },
    ],
    ['an unlinked Node', {}, undefined],
    ['a malformed annotation', { [ANNOTATIONS.machine]: 'just-a-name' }, undefined],
  ])('finds the Machine of %s from its annotation', (_situation, annotations, expected) => {
    expect(machineKeyFromNode({ metadata: { name: 'n', annotations } })).toEqual(expected)
  })

  it('hashes a providerID into a label-safe value', () => {
    const hash = providerIdHash('aws:///eu-west-1a/i-0123456789abcdef0')
    expect(hash).toMatch(/^[0-9a-f]{32}$/)
    expect(providerIdHash('aws:///eu-west-1a/i-0123456789abcdef0')).toBe(hash)
    expect(nodeProviderId({ spec: { providerID: 'kwok://n' } })).toBe('kwok://n')
    expect(nodeProviderId({ spec: {} })).toBeUndefined()
  })

  it('includes a mapper only when its target kind is selected', () => {
    const only = machineApiMappers(['Machine']).map((m) => m.sourceKind)
    expect(only).toEqual(['Machine', 'Node', 'MachineClass'])
    const all = machineApiMappers([
      'Machine',
      'MachineSet',
      'MachineHealthCheck',
      'MachineDeployment',
    ])
    expect(all.map((m) => m.sourceKind).sort()).toEqual(
      [
        'Machine',
        'Machine',
        'Machine',
        'MachineClass',
        'MachineClass',
        'MachineClass',
        'MachineDeployment',
        'MachineHealthCheck',
        'MachineSet',
        'MachineSet',
        'Node',
        'Node',
      ].sort(),
    )
  })

  it('watches the layer below each selected kind (and Nodes for health checks)', () => {
    const kinds = watchedTypes([{ resource: machineApiTypes.machineHealthCheck }]).map(
      (t) => t.kind,
    )
    expect(kinds).toEqual(['MachineHealthCheck', 'Machine', 'Node'])
  })
})
