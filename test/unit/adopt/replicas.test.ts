import { describe, expect, it } from 'vitest'
import { replicasOf } from '../../../src/adopt/sources/machine-checks'

describe('replicasOf', () => {
  it.each([
    ['absent, one Machine (both APIs default to 1)', undefined, 1, 1, []],
    ['matching its Machines', 3, 3, 3, []],
    [
      'a string',
      'two',
      2,
      0,
      [
        'MachineDeployment.cluster.x-k8s.io/fleet/odd: spec.replicas: is "two"; must be a whole number',
      ],
    ],
    [
      'a fraction',
      1.5,
      1,
      0,
      [
        'MachineDeployment.cluster.x-k8s.io/fleet/odd: spec.replicas: is 1.5; must be a whole number',
      ],
    ],
    [
      'off its Machines (still converging)',
      3,
      2,
      3,
      [
        'MachineDeployment.cluster.x-k8s.io/fleet/odd: spec.replicas: is 3 but 2 Machines exist: adopt it once it settled',
      ],
    ],
  ])('%s', (_, value, machines, replicas, problems) => {
    const title = 'MachineDeployment.cluster.x-k8s.io/fleet/odd'
    const out = replicasOf(title, value, machines)
    expect(out.replicas).toBe(replicas)
    expect(out.problems.map((p) => `${p.object}: ${p.path}: ${p.message}`)).toEqual(problems)
  })
})

describe('replicasOf after a release killed midway', () => {
  it.each([
    [
      'fewer Machines: what releasing them bottom-up leaves, moot once the target exists',
      3,
      1,
      true,
    ],
    ['no Machines left at all', 3, 0, true],
    ['more Machines than replicas: never a release', 2, 3, undefined],
  ])('%s', (_, value, machines, leftByRelease) => {
    const out = replicasOf('MachineSet.machine.openshift.io/fleet/infra', value, machines)
    expect(out.problems.map((p) => p.leftByRelease)).toEqual([leftByRelease])
  })
})
