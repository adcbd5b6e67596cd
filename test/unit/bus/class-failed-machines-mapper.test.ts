import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import {
  classToFailedMachinesMapper,
  failedOnOtherGeneration,
  unobservedClassChange,
} from '../../../src/bus/class-failed-machines-mapper'
import type { KubeObject } from '../../../src/kube/resource'

function failedMachine(
  name: string,
  more: { failedOn?: number; set?: boolean; cls?: string } = {},
) {
  return {
    metadata: {
      namespace: 'ns',
      name,
      ...(more.set
        ? {
            ownerReferences: [
              { apiVersion: 'v', kind: 'MachineSet', name: 's', uid: 'u', controller: true },
            ],
          }
        : {}),
    },
    spec: { classRef: { name: more.cls ?? 'c' } },
    status: {
      failureReason: 'InvalidAMI',
      ...(more.failedOn === undefined ? {} : { failureClassGeneration: more.failedOn }),
    },
  } as KubeObject
}

const editedClass = {
  metadata: { namespace: 'ns', name: 'c', generation: 3 },
  status: { observedGeneration: 2 },
}

describe('MachineClass -> the standalone Machines that failed on it', () => {
  it.each([
    ['a spec edit not yet observed', editedClass, true],
    [
      'a status write of an observed class',
      { metadata: { generation: 3 }, status: { observedGeneration: 3 } },
      false,
    ],
    ['a class never observed', { metadata: { generation: 1 } }, true],
  ])('lists Machines for %s: %s', (_situation, obj, expected) => {
    expect(unobservedClassChange(obj as KubeObject)).toBe(expected)
  })

  it.each([
    ['failed on an older generation', failedMachine('m', { failedOn: 2 }), true],
    ['failed on this generation', failedMachine('m', { failedOn: 3 }), false],
    ['failed on something else than the class', failedMachine('m'), false],
    ['controlled by a MachineSet', failedMachine('m', { failedOn: 2, set: true }), false],
    ['of another class', failedMachine('m', { failedOn: 2, cls: 'other' }), false],
  ])('a Machine %s: %s', (_situation, machine, expected) => {
    expect(failedOnOtherGeneration(machine, 'c', 3)).toBe(expected)
  })

  it('maps a spec edit to the Machines it may un-fail, and a status write to nothing', async () => {
    const listed = [
      failedMachine('stale', { failedOn: 1 }),
      failedMachine('owned', { failedOn: 1, set: true }),
      failedMachine('gone'),
    ]
    let lists = 0
    const mapper = classToFailedMachinesMapper(
      'MachineClass',
      machineApiTypes.machine,
      async () => {
        lists++
        return listed
      },
    )
    expect(await mapper.map(editedClass, undefined as never)).toEqual([
      { kind: 'Machine', namespace: 'ns', name: 'stale' },
    ])
    const observed = { ...editedClass, status: { observedGeneration: 3 } }
    expect(await mapper.map(observed, undefined as never)).toEqual([])
    expect(await mapper.map(editedClass, undefined as never, 'DELETED')).toEqual([])
    expect(lists).toBe(1)
  })
})
