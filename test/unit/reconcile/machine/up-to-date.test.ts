/** A Machine's status.builtFrom and UpToDate condition, from what its run observed. */
import { describe, expect, it } from 'vitest'
import { ANNOTATIONS, LABELS } from '../../../../src/api/group'
import type { MachineClass } from '../../../../src/api/v1beta1/machine-class'
import type { InstanceObservation } from '../../../../src/reconcile/machine/observation'
import { builtFromOf, upToDateCondition } from '../../../../src/reconcile/machine/up-to-date'
import { classContentHash } from '../../../../src/reconcile/shared/class-content'
import { machine, observed } from './builders'

function machineClass(instanceType: string, generation: number): MachineClass {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { name: 'demo', namespace: 'ns', generation } as MachineClass['metadata'],
    spec: { provider: 'aws', providerSpec: { instanceType } },
  }
}

const classBacked = (extra: Parameters<typeof machine>[0] = {}) =>
  machine({
    providerID: 'aws:///eu-west-1a/i-1',
    labels: { [LABELS.templateHash]: 'h1' },
    ...extra,
    spec: { providerSpec: undefined, classRef: { name: 'demo' }, ...extra.spec },
  })
const present: InstanceObservation = {
  state: 'present',
  result: {
    providerID: 'aws:///eu-west-1a/i-1',
    addresses: [],
    providerStatus: { imageId: 'ami-1' },
  },
}

describe('builtFrom', () => {
  it('is recorded from the created instance and the class read with it', () => {
    const cls = machineClass('t3.micro', 2)
    const built = builtFromOf(observed(classBacked(), { instance: present, machineClass: cls }))
    expect(built).toEqual({
      templateHash: 'h1',
      classHash: classContentHash(cls),
      classGeneration: 2,
      imageId: 'ami-1',
    })
  })

  it('waits for a run that read the class', () => {
    expect(builtFromOf(observed(classBacked(), { instance: present }))).toBeUndefined()
  })
})

describe('UpToDate', () => {
  const built = { classHash: classContentHash(machineClass('t3.micro', 2)), classGeneration: 2 }

  it('is False (ClassChanged) once the class content moved, naming the generations', () => {
    const obs = observed(classBacked(), { machineClass: machineClass('m5.xlarge', 3) })
    expect(upToDateCondition(obs, built)).toMatchObject({
      status: 'False',
      reason: 'ClassChanged',
      message: 'MachineClass demo changed since this Machine was built (generation 2 -> 3)',
    })
  })

  it('is False (ImageChanged) once the class publishes another image it follows', () => {
    const cls = {
      ...machineClass('t3.micro', 2),
      status: { image: { id: 'ami-2', resolvedAt: '' } },
    }
    const obs = observed(classBacked(), { machineClass: cls })
    expect(upToDateCondition(obs, { ...built, imageId: 'ami-1' })).toMatchObject({
      status: 'False',
      reason: 'ImageChanged',
      message: 'Built from image ami-1; MachineClass demo now launches ami-2',
    })
  })

  it('is True when the class changed only outside its content (credentials)', () => {
    const obs = observed(classBacked(), { machineClass: machineClass('t3.micro', 4) })
    expect(upToDateCondition(obs, built)?.status).toBe('True')
  })

  it("reports its old MachineSet's outdated mark", () => {
    const mark = JSON.stringify({ reason: 'RolloutAfter', message: 'spec.rolloutAfter passed' })
    const m = classBacked({ annotations: { [ANNOTATIONS.outdated]: mark } })
    const obs = observed(m, { machineClass: machineClass('t3.micro', 2) })
    expect(upToDateCondition(obs, built)).toMatchObject({
      status: 'False',
      reason: 'RolloutAfter',
    })
  })

  it('a run that read no class keeps a class drift found earlier', () => {
    const m = classBacked({
      status: {
        conditions: [
          {
            type: 'UpToDate',
            status: 'False',
            reason: 'ClassChanged',
            message: '',
            lastTransitionTime: '2026-12-01T00:00:00Z',
          },
        ],
      },
    })
    expect(upToDateCondition(observed(m), built)).toBeUndefined()
  })
})
