import { describe, expect, it } from 'vitest'
import type { MachineClass } from '../../../../src/api/v1beta1/machine-class'
import type { KubeObject } from '../../../../src/kube/resource'
import {
  recordOf,
  type TemplateClassRecord,
  templateClassSource,
} from '../../../../src/reconcile/machine-set/template-class'

const t0 = new Date('2026-12-05T10:00:00Z')

describe('templateClassSource', () => {
  const recordOfGp: TemplateClassRecord = { name: 'gp', zones: ['a', 'b'] }
  const run = {
    handed: false,
    failed: false,
    missing: false,
    nodeGroup: false,
    className: 'gp',
    recorded: recordOfGp,
  }
  it.each<[string, Parameters<typeof templateClassSource>[0], string]>([
    ['a handed class wins over any record', { ...run, handed: true, failed: true }, 'handed'],
    [
      'a scale of a set whose record names its class reads nothing',
      { ...run, missing: true },
      'record',
    ],
    [
      'a new set that is a node group (no record) reads, for its capacity annotations',
      { ...run, nodeGroup: true, recorded: undefined },
      'read',
    ],
    [
      'a template that now names another class reads',
      { ...run, missing: true, className: 'big' },
      'read',
    ],
    [
      'Failed Machines read (their backoff compares the class generation)',
      { ...run, failed: true },
      'read',
    ],
    [
      "a deployment's set with no Machine missing and no record reads nothing",
      { ...run, recorded: undefined },
      'none',
    ],
  ])('%s', (_name, run, expected) => {
    expect(templateClassSource(run)).toBe(expected)
  })
})

describe('recordOf', () => {
  const machineClass = (status: object) =>
    ({
      metadata: { name: 'gp', generation: 3 },
      spec: { provider: 'aws', providerSpec: { instanceType: 'm5.large' } },
      status,
    }) as unknown as MachineClass & KubeObject

  it.each<[string, object, TemplateClassRecord]>([
    [
      'records the offered zones that can host now',
      {
        offeredZones: ['a', 'b', 'c'],
        unavailableOfferings: [
          {
            zone: 'b',
            instanceType: 'm5.large',
            capacityType: 'on-demand',
            reason: 'InsufficientInstanceCapacity',
            expiresAt: new Date(t0.getTime() + 60_000).toISOString(),
          },
        ],
      },
      { name: 'gp', zones: ['a', 'c'] },
    ],
    ['a class that lists no zones records only its name', {}, { name: 'gp' }],
  ])('%s', (_name, status, expected) => {
    expect(recordOf(machineClass(status), t0)).toEqual(expected)
  })
})
