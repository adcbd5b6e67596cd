import { describe, expect, it } from 'vitest'
import type { Machine } from '../../../../src/api/v1beta1/machine'
import { failureStands } from '../../../../src/reconcile/machine/standing-failure'

function failed(more: { observed?: number; failedOn?: number; set?: boolean } = {}): Machine {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: {
      namespace: 'ns',
      name: 'm',
      generation: 2,
      ...(more.set
        ? {
            ownerReferences: [
              { apiVersion: 'v', kind: 'MachineSet', name: 's', uid: 'u', controller: true },
            ],
          }
        : {}),
    },
    spec: { classRef: { name: 'c' } },
    status: {
      failureReason: 'InvalidAMI',
      observedGeneration: more.observed ?? 2,
      ...(more.failedOn === undefined ? {} : { failureClassGeneration: more.failedOn }),
    },
  } as unknown as Machine
}

describe('whether a recorded failure still stands', () => {
  it.each([
    ['the class is as it failed on', failed({ failedOn: 5 }), 5, true],
    ['the class changed since, standalone', failed({ failedOn: 5 }), 6, false],
    ['the class changed since, owned by a MachineSet', failed({ failedOn: 5, set: true }), 6, true],
    ['no class generation recorded (InstanceGone, ProvisioningTimeout)', failed(), 6, true],
    ['the class was not read', failed({ failedOn: 5 }), undefined, true],
    ['the Machine changed since', failed({ observed: 1, failedOn: 5 }), 5, false],
  ])('%s: %s', (_situation, machine, classGeneration, expected) => {
    expect(failureStands(machine, classGeneration)).toBe(expected)
  })
})
