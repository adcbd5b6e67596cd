import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../../src/api/resource-types'
import { coreTypes, type KubeObject } from '../../../../src/kube/resource'
import { capacityReadDue } from '../../../../src/reconcile/shared/class-capacity-sync'
import {
  handedClass,
  templateClassName,
  templateRelatedClass,
} from '../../../../src/reconcile/shared/node-group-class'

function group(className: string | undefined, namespace = 'ns'): KubeObject {
  return {
    metadata: { name: 'g', namespace },
    spec: { template: { spec: className ? { classRef: { name: className } } : {} } },
  }
}

function machineClass(name: string, namespace = 'ns'): KubeObject {
  return { metadata: { name, namespace, generation: 3 } }
}

describe('the MachineClass a node group reads', () => {
  it("names the template's class, or none", () => {
    expect(templateClassName(group('standard'))).toBe('standard')
    expect(templateClassName(group(undefined))).toBeUndefined()
    expect(templateRelatedClass.refsOf(group('standard'))).toEqual([
      { namespace: 'ns', name: 'standard' },
    ])
    expect(templateRelatedClass.refsOf(group(undefined))).toEqual([])
  })

  it('finds the handed class only when it is the one the template names, in its namespace', () => {
    const type = machineApiTypes.machineClass
    const standard = machineClass('standard')
    const related = [
      { type: coreTypes.node, obj: { metadata: { name: 'standard' } } },
      { type, obj: machineClass('other') },
      { type, obj: machineClass('standard', 'elsewhere') },
      { type, obj: standard },
    ]
    expect(handedClass(group('standard'), related)).toBe(standard)
    expect(handedClass(group('standard'), related.slice(0, 3))).toBeUndefined()
    expect(handedClass(group('standard'), undefined)).toBeUndefined()
    expect(handedClass(group(undefined), related)).toBeUndefined()
  })
})

describe('capacityReadDue', () => {
  it('reads the class only while the spec is newer than what status observed', () => {
    expect(capacityReadDue({ metadata: { name: 'g', generation: 1 } })).toBe(true)
    expect(
      capacityReadDue({
        metadata: { name: 'g', generation: 2 },
        status: { observedGeneration: 1 },
      }),
    ).toBe(true)
    expect(
      capacityReadDue({
        metadata: { name: 'g', generation: 2 },
        status: { observedGeneration: 2 },
      }),
    ).toBe(false)
  })
})
