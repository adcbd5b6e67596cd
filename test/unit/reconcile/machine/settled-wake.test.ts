import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../../src/api/resource-types'
import type { Machine } from '../../../../src/api/v1beta1/machine'
import { coreTypes } from '../../../../src/kube/resource'
import type { NodeObservation } from '../../../../src/reconcile/machine/observation'
import {
  providerAskNeeded,
  wokenByWatchEvent,
} from '../../../../src/reconcile/machine/settled-wake'

const node = { metadata: { name: 'n' } }
const nodeHeld = { type: coreTypes.node, obj: node }
const classHeld = { type: machineApiTypes.machineClass, obj: { metadata: { name: 'c' } } }
const machineObj = { metadata: { name: 'm' } }

describe('wokenByWatchEvent', () => {
  it("is a Machine's or Node's watch event, not a timer, a rerun or a sweep", () => {
    expect(wokenByWatchEvent(machineObj, undefined)).toBe(true)
    expect(wokenByWatchEvent(undefined, [nodeHeld])).toBe(true)
    // Nothing handed: a timer or the runner's fresh rerun.
    expect(wokenByWatchEvent(undefined, undefined)).toBe(false)
    expect(wokenByWatchEvent(undefined, [])).toBe(false)
    // A sweep hands the class with the Machine: asking the provider then reads no class.
    expect(wokenByWatchEvent(machineObj, [nodeHeld, classHeld])).toBe(false)
  })
})

function settledMachine(overrides: Partial<Machine['status']> = {}, spec = {}): Machine {
  return {
    metadata: { name: 'm', namespace: 'ns', generation: 2 },
    spec: { classRef: { name: 'c' }, providerID: 'kwok://m', ...spec },
    status: {
      observedGeneration: 2,
      conditions: [
        {
          type: 'InfrastructureReady',
          status: 'True',
          reason: 'InstanceReady',
          lastTransitionTime: '2026-12-04T00:00:00Z',
        },
      ],
      ...overrides,
    },
  } as Machine
}

const linked: NodeObservation = { state: 'found', node, linked: true }

describe('providerAskNeeded', () => {
  it('leaves the provider unasked only for a watch event of a settled Machine', () => {
    expect(providerAskNeeded(settledMachine(), linked, true)).toBe(false)
    expect(providerAskNeeded(settledMachine(), linked, false)).toBe(true)
  })

  it('asks for a spec change, a failed, unlinked or deleting Machine, or a Node gone', () => {
    expect(providerAskNeeded(settledMachine({ observedGeneration: 1 }), linked, true)).toBe(true)
    expect(providerAskNeeded(settledMachine({ failureReason: 'InstanceGone' }), linked, true)).toBe(
      true,
    )
    expect(providerAskNeeded(settledMachine({ conditions: [] }), linked, true)).toBe(true)
    expect(providerAskNeeded(settledMachine({}, { providerID: undefined }), linked, true)).toBe(
      true,
    )
    expect(providerAskNeeded(settledMachine(), { state: 'gone', name: 'n' }, true)).toBe(true)
    // An inline spec: its sweep cannot be told from an event, and it reads no class anyway.
    const inline = { classRef: undefined, providerSpec: { provider: 'kwok', value: {} } }
    expect(providerAskNeeded(settledMachine({}, inline), linked, true)).toBe(true)
    expect(providerAskNeeded(settledMachine(), { state: 'not-looked-up' }, true)).toBe(true)
    expect(providerAskNeeded(settledMachine(), { state: 'found', node, linked: false }, true)).toBe(
      true,
    )
    const deleting = settledMachine()
    ;(deleting.metadata as { deletionTimestamp?: string }).deletionTimestamp =
      '2026-12-04T00:00:01Z'
    expect(providerAskNeeded(deleting, linked, true)).toBe(true)
  })
})
