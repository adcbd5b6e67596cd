import { describe, expect, it } from 'vitest'
import { type EvictionResult, noEvictions } from '../../../../src/drain/eviction-result'
import type { MachineAction } from '../../../../src/reconcile/machine/actions'
import type { MachineObservation } from '../../../../src/reconcile/machine/observation'
import { foldOutcome, type OutcomeOf } from '../../../../src/reconcile/machine/outcomes'
import { computeMachineStatus } from '../../../../src/reconcile/machine/status'
import { kwokInstance, machine, now, observed, readyNode } from './builders'

const deletion = { drained: false, volumesDetached: false, attachedVolumes: [], startedTimers: {} }
const deleting = observed(machine({ deleting: true, providerID: 'kwok://ns/m' }), {
  instance: { state: 'present' },
  node: { state: 'found', node: readyNode, linked: true },
  deletion,
})
const pass: EvictionResult = noEvictions()
const timedOut = { reason: 'ProviderTimeout', message: 'aborted', permanent: false }

type Row = [
  string,
  MachineObservation,
  MachineAction,
  OutcomeOf<MachineAction>,
  {
    obs?: Partial<MachineObservation>
    events: Array<{ type: string; reason: string; message?: string }>
    condition?: { type: string; status: string; reason: string; message?: string }
  },
]

describe('foldOutcome', () => {
  it.each<Row>([
    [
      'a created instance is present, with an Event naming it',
      observed(machine()),
      { type: 'create-instance' },
      { ok: true, value: kwokInstance.result },
      {
        obs: { instance: { ...kwokInstance, created: true } },
        events: [
          { type: 'Normal', reason: 'InstanceCreated', message: 'Created instance kwok://ns/m' },
        ],
      },
    ],
    [
      'a failed create is observed as the classified failure; the planner words its Event',
      observed(machine()),
      { type: 'create-instance' },
      { ok: false, failure: timedOut },
      { obs: { instance: { state: 'failed', failure: timedOut } }, events: [] },
    ],
    [
      'a timed-out delete is observed as the classified failure',
      deleting,
      { type: 'terminate-instance' },
      { call: { ok: false, failure: timedOut } },
      { obs: { instance: { state: 'failed', failure: timedOut } }, events: [] },
    ],
    [
      'a delete still going away is terminating',
      deleting,
      { type: 'terminate-instance' },
      { call: { ok: true, value: { done: false, requeueAfterMs: 5_000 } } },
      { obs: { instance: { state: 'terminating', requeueAfterMs: 5_000 } }, events: [] },
    ],
    [
      'a finished delete: the instance is absent and the Node as read after it',
      deleting,
      { type: 'terminate-instance' },
      { call: { ok: true, value: { done: true } }, node: { state: 'missing' } },
      { obs: { instance: { state: 'absent' }, node: { state: 'missing' } }, events: [] },
    ],
    [
      'a completed drain pass: Drained True, with an Event per eviction warning',
      deleting,
      { type: 'drain-node', nodeName: 'n1', nodeUnreachable: false },
      { result: { ...pass, warnings: [{ pod: 'p', warning: 'emptyDir' }] } },
      {
        events: [
          { type: 'Warning', reason: 'EvictedWithWarning', message: 'Evicted p: emptyDir' },
          { type: 'Normal', reason: 'NodeDrained', message: 'Drained Node n1' },
        ],
        condition: {
          type: 'Drained',
          status: 'True',
          reason: 'DrainSucceeded',
          message: 'Node n1 drained',
        },
      },
    ],
    [
      'an unfinished drain pass: Drained False with what blocks it',
      deleting,
      { type: 'drain-node', nodeName: 'n1', nodeUnreachable: false },
      { result: { ...pass, waitingFor: ['p'] } },
      { events: [], condition: { type: 'Drained', status: 'False', reason: 'Draining' } },
    ],
    [
      'a drain past its timeout: Drained True with the reason and a Warning',
      deleting,
      { type: 'skip-drain', reason: 'NodeDrainTimeout' },
      {},
      {
        events: [{ type: 'Warning', reason: 'NodeDrainTimeout' }],
        condition: { type: 'Drained', status: 'True', reason: 'NodeDrainTimeout' },
      },
    ],
    [
      'a drain excluded by annotation: Drained True with the reason, no Event',
      deleting,
      { type: 'skip-drain', reason: 'DrainExcluded' },
      {},
      { events: [], condition: { type: 'Drained', status: 'True', reason: 'DrainExcluded' } },
    ],
    [
      'a skipped volume wait: VolumesDetached True with the reason',
      deleting,
      { type: 'skip-volume-wait', reason: 'NodeUnreachable' },
      {},
      {
        events: [],
        condition: { type: 'VolumesDetached', status: 'True', reason: 'NodeUnreachable' },
      },
    ],
    [
      'a Node delete given up after nodeDeletionTimeout: a Warning naming the error',
      deleting,
      { type: 'delete-node', nodeName: 'n1', giveUpOnFailure: true },
      { error: 'forbidden' },
      {
        obs: { node: { state: 'missing' } },
        events: [
          {
            type: 'Warning',
            reason: 'NodeDeletionTimeout',
            message: 'Could not delete Node n1 within nodeDeletionTimeout; leaving it: forbidden',
          },
        ],
      },
    ],
    [
      'a linked Node: an Event',
      observed(machine(), { node: { state: 'found', node: readyNode, linked: false } }),
      { type: 'link-node', nodeName: 'n1' },
      {},
      {
        obs: { node: { state: 'found', node: readyNode, linked: true } },
        events: [{ type: 'Normal', reason: 'NodeLinked', message: 'Linked to Node n1' }],
      },
    ],
  ])('%s', (_, obs, action, outcome, expected) => {
    const folded = foldOutcome(obs, action, outcome, now)
    if (expected.obs) expect(folded.obs).toMatchObject(expected.obs)
    expect(folded.events).toEqual(expected.events.map((e) => expect.objectContaining(e)))
    if (expected.condition) {
      const status = computeMachineStatus(folded.obs, { events: [] }, now)
      const found = status.conditions?.find((c) => c.type === expected.condition?.type)
      expect(found).toMatchObject(expected.condition)
    }
  })
})
