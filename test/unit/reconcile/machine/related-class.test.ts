import { describe, expect, it } from 'vitest'
import { machineRelatedClass } from '../../../../src/reconcile/machine/related-class'

const metadata = { namespace: 'ns', name: 'm' }

describe('machineRelatedClass', () => {
  it('names the class spec.classRef names, once the instance exists', () => {
    const machine = { metadata, spec: { classRef: { name: 'small' }, providerID: 'kwok://ns.m' } }
    expect(machineRelatedClass.refsOf(machine)).toEqual([{ namespace: 'ns', name: 'small' }])
  })

  it.each([
    ['a Machine still to be created (its class is read fresh)', { classRef: { name: 'small' } }],
    ['an inline provider spec', { providerSpec: { provider: 'kwok' }, providerID: 'kwok://ns.m' }],
    ['no spec', undefined],
  ])('names none for %s', (_, spec) => {
    expect(machineRelatedClass.refsOf({ metadata, ...(spec ? { spec } : {}) })).toEqual([])
  })
})
