import { describe, expect, it } from 'vitest'
import { coreTypes } from '../../../../src/kube/resource'
import type { Controller } from '../../../../src/reconcile/runtime/controller'
import { selectControllers } from '../../../../src/reconcile/runtime/selection'

const controller = (kind: string): Controller => ({
  kind,
  resource: { ...coreTypes.configMap, kind },
  reconcile: async () => ({}),
})
const all = ['Machine', 'MachineSet', 'MachineHealthCheck'].map(controller)

describe('--controllers', () => {
  it.each([
    ['nothing selects all', undefined, ['Machine', 'MachineSet', 'MachineHealthCheck']],
    ['a star selects all', '*', ['Machine', 'MachineSet', 'MachineHealthCheck']],
    ['a subset keeps its order', 'machinehealthcheck, machine', ['MachineHealthCheck', 'Machine']],
    ['repeats collapse', 'machine,machine', ['Machine']],
  ])('%s', (_situation, selection, kinds) => {
    expect(selectControllers(all, selection).map((c) => c.kind)).toEqual(kinds)
  })

  it('rejects an unknown name and lists the known ones', () => {
    expect(() => selectControllers(all, 'machine,machinez')).toThrow(/machinez.*machineset/)
  })
})
