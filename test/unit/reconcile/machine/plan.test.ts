import { describe, expect, it } from 'vitest'
import { ANNOTATIONS, LABELS } from '../../../../src/api/group'
import { formatInstanceNotice, type NoticeReason } from '../../../../src/api/instance-notice'
import { providerIdHash } from '../../../../src/api/node-link'
import type { Machine } from '../../../../src/api/v1beta1/machine'
import type { MachinePlan } from '../../../../src/reconcile/machine/actions'
import { createClaimAnnotation } from '../../../../src/reconcile/machine/claim-holder'
import {
  legacyMachineFinalizer,
  machineFinalizer,
} from '../../../../src/reconcile/machine/machine-deps'
import { nodeWishes, planNodeSync } from '../../../../src/reconcile/machine/node-sync'
import type { MachineObservation } from '../../../../src/reconcile/machine/observation'
import { planMachine } from '../../../../src/reconcile/machine/plan'
import { earlier, kwokInstance, machine, node, now, observed, readyNode } from './builders'

const settings = { claimTtlMs: 150_000, deletionRetryMs: 10_000, nodeLookupRetryMs: 15_000 }
const plan = (obs: MachineObservation): MachinePlan => planMachine(obs, now, settings)

const providerID = 'kwok://ns/m'
const hashLabel = { [LABELS.providerIdHash]: providerIdHash(providerID) }
const recorded = (extra: Parameters<typeof machine>[0] = {}) =>
  machine({ providerID, labels: hashLabel, ...extra })
const withFinalizers = (m: Machine, finalizers: string[]): Machine => ({
  ...m,
  metadata: { ...m.metadata, finalizers } as Machine['metadata'],
})
const ago = (ms: number) => new Date(now.getTime() - ms)
const throttled = {
  reason: 'Throttled',
  message: 'EC2 TerminateInstances: RequestLimitExceeded',
  permanent: false,
  retryAfterMs: 20_000,
}
const unauthorized = {
  reason: 'Unauthorized',
  message: 'EC2 TerminateInstances: UnauthorizedOperation (check credentialsSecret)',
  permanent: true,
}
/** A Node already carrying what the Machine owns on it. */
const syncedNode = (() => {
  const m = recorded()
  const patch = planNodeSync(nodeWishes(m), readyNode)
  return {
    ...readyNode,
    metadata: { ...readyNode.metadata, annotations: patch?.annotations as Record<string, string> },
  }
})()

it('never uses the Node annotation key as the finalizer', () => {
  expect(machineFinalizer).not.toBe(ANNOTATIONS.machine)
})

describe('planMachine: creating', () => {
  it.each<[string, MachineObservation, Partial<MachinePlan>]>([
    [
      'a new Machine gets the finalizer first, with the create claim in the same patch',
      observed(machine({ finalizer: false }), { instance: { state: 'absent' } }),
      { action: { type: 'add-finalizer', claimCreate: true } },
    ],
    [
      'the finalizer of earlier versions (the Node annotation key) is replaced',
      observed(withFinalizers(machine(), [legacyMachineFinalizer]), { instance: kwokInstance }),
      { action: { type: 'add-finalizer' } },
    ],
    [
      'no instance and no claim: claim the create',
      observed(machine(), { instance: { state: 'absent' } }),
      { action: { type: 'claim-create' } },
    ],
    [
      'claimed by this reconcile: create',
      observed(machine(), {
        instance: { state: 'absent' },
        claim: { at: now, mine: true, holderDead: false },
      }),
      { action: { type: 'create-instance' } },
    ],
    [
      'a fresh claim of a live holder: wait for it',
      observed(machine(), {
        instance: { state: 'absent' },
        claim: { at: ago(1_000), mine: false, holderDead: false },
      }),
      {
        infrastructureProblem: {
          reason: 'CreateInProgress',
          message: 'Another reconcile is creating the instance',
        },
        requeueAfterMs: 5_000,
      },
    ],
    [
      'a claim of a dead holder: take it over',
      observed(machine(), {
        instance: { state: 'absent' },
        claim: { at: ago(1_000), mine: false, holderDead: true },
      }),
      { action: { type: 'claim-create' } },
    ],
    [
      'an expired claim: take it over',
      observed(machine(), {
        instance: { state: 'absent' },
        claim: { at: ago(150_000), mine: false, holderDead: false },
      }),
      { action: { type: 'claim-create' } },
    ],
    [
      'a recorded instance that vanished: Failed, never re-created',
      observed(recorded(), { instance: { state: 'absent' } }),
      {
        failure: {
          reason: 'InstanceGone',
          message: `the instance behind ${providerID} no longer exists; delete the Machine to replace it`,
        },
        events: [expect.objectContaining({ type: 'Warning', reason: 'InstanceGone' })],
      },
    ],
    [
      'a failed create of this reconcile: release the claim first',
      observed(machine(), {
        instance: { state: 'failed', failure: throttled },
        claim: { at: now, mine: true, holderDead: false },
      }),
      { action: { type: 'release-claim' } },
    ],
    [
      'a transient provider failure: retried after the provider delay',
      observed(machine(), { instance: { state: 'failed', failure: throttled } }),
      {
        infrastructureProblem: { reason: 'Throttled', message: throttled.message },
        requeueAfterMs: 20_000,
        events: [{ type: 'Warning', reason: 'Throttled', message: throttled.message }],
      },
    ],
    [
      'a throttled read of a recorded instance: only the read failed, nothing known changes',
      observed(recorded(), { instance: { state: 'failed', failure: throttled } }),
      {
        readProblem: { reason: 'Throttled', message: throttled.message },
        requeueAfterMs: 20_000,
        events: [{ type: 'Warning', reason: 'Throttled', message: throttled.message }],
      },
    ],
    [
      'a permanent provider failure: Failed, not retried',
      observed(machine(), { instance: { state: 'failed', failure: unauthorized } }),
      {
        failure: { reason: 'Unauthorized', message: unauthorized.message },
        events: [{ type: 'Warning', reason: 'Unauthorized', message: unauthorized.message }],
      },
    ],
    [
      'Failed for the current generation: nothing asked, nothing done',
      observed(
        machine({
          status: { failureReason: 'Bad', failureMessage: 'fix it', observedGeneration: 3 },
        }),
      ),
      { failure: { reason: 'Bad', message: 'fix it' } },
    ],
    [
      'no usable provider: a condition, re-checked slowly',
      observed(machine(), { providerProblem: { reason: 'UnknownProvider', message: 'not here' } }),
      {
        requeueAfterMs: 60_000,
        events: [{ type: 'Warning', reason: 'UnknownProvider', message: 'not here' }],
      },
    ],
    [
      'the same provider problem again: no new Event',
      observed(
        machine({
          status: {
            conditions: [
              {
                type: 'InfrastructureReady',
                status: 'False',
                reason: 'UnknownProvider',
                message: 'not here',
                lastTransitionTime: now.toISOString(),
              },
            ],
          },
        }),
        { providerProblem: { reason: 'UnknownProvider', message: 'not here' } },
      ),
      { requeueAfterMs: 60_000, events: [] },
    ],
  ])('%s', (_name, obs, expected) => {
    expect(plan(obs)).toMatchObject({ events: [], ...expected })
  })
})

describe('planMachine: the finalizer patch takes the create claim only when a create is next', () => {
  it.each<[string, MachineObservation, MachinePlan['action']]>([
    [
      'nothing created, no claim',
      observed(machine({ finalizer: false }), { instance: { state: 'absent' } }),
      { type: 'add-finalizer', claimCreate: true },
    ],
    [
      'a claim of a dead holder: taken over in the same patch',
      observed(machine({ finalizer: false }), {
        instance: { state: 'absent' },
        claim: { at: ago(1_000), mine: false, holderDead: true },
      }),
      { type: 'add-finalizer', claimCreate: true },
    ],
    [
      'a fresh claim of a live holder: the finalizer alone (the holder is creating)',
      observed(machine({ finalizer: false }), {
        instance: { state: 'absent' },
        claim: { at: ago(1_000), mine: false, holderDead: false },
      }),
      { type: 'add-finalizer' },
    ],
    [
      'an instance that exists: the finalizer alone',
      observed(machine({ finalizer: false }), { instance: kwokInstance }),
      { type: 'add-finalizer' },
    ],
    [
      'the provider is not usable: the finalizer alone',
      observed(machine({ finalizer: false }), {
        instance: { state: 'not-asked' },
        providerProblem: { reason: 'UnknownProvider', message: 'no such provider' },
      }),
      { type: 'add-finalizer' },
    ],
    [
      "only the earlier versions' finalizer, nothing created: replaced, with the claim",
      observed(withFinalizers(machine(), [legacyMachineFinalizer]), {
        instance: { state: 'absent' },
      }),
      { type: 'add-finalizer', claimCreate: true },
    ],
  ])('%s', (_name, obs, expected) => {
    expect(plan(obs).action).toEqual(expected)
  })
})

describe('planMachine: adopting, linking and syncing', () => {
  it.each<[string, MachineObservation, Partial<MachinePlan>]>([
    [
      'an instance found (created or adopted) but not recorded: record its providerID',
      observed(machine(), { instance: kwokInstance }),
      { action: { type: 'record-provider-id', providerID } },
    ],
    [
      'a recorded providerID without the hash label: label it',
      observed(machine({ providerID }), { instance: kwokInstance }),
      { action: { type: 'record-provider-id', providerID } },
    ],
    [
      'a create claim left after the instance exists: clear it with the record',
      observed(recorded({ annotations: { [createClaimAnnotation]: now.toISOString() } }), {
        instance: kwokInstance,
      }),
      { action: { type: 'record-provider-id', providerID } },
    ],
    [
      'recorded and not linked: look for the Node',
      observed(recorded(), { instance: kwokInstance }),
      { action: { type: 'find-node', providerID } },
    ],
    [
      'no Node has joined yet: look again later',
      observed(recorded(), {
        instance: { ...kwokInstance, result: { ...kwokInstance.result, requeueAfterMs: 60_000 } },
        node: { state: 'missing' },
      }),
      { requeueAfterMs: 15_000 },
    ],
    [
      'a Node found: link it',
      observed(recorded(), {
        instance: kwokInstance,
        node: { state: 'found', node: readyNode, linked: false },
      }),
      { action: { type: 'link-node', nodeName: 'n1' } },
    ],
    [
      'a linked Node without what the Machine owns: sync it',
      observed(recorded(), {
        instance: kwokInstance,
        node: { state: 'found', node: readyNode, linked: true },
      }),
      { action: { type: 'sync-node', nodeName: 'n1', patch: expect.anything() } },
    ],
    [
      'a Machine that owns nothing on a Node already naming it (a kwok Node): no Node write',
      observed(recorded(), {
        instance: kwokInstance,
        node: {
          state: 'found',
          node: {
            ...readyNode,
            metadata: { ...readyNode.metadata, annotations: { [ANNOTATIONS.machine]: 'ns/m' } },
          },
          linked: true,
        },
      }),
      {},
    ],
    [
      'a linked, synced Node: converged',
      observed(recorded(), {
        instance: kwokInstance,
        node: { state: 'found', node: syncedNode, linked: true },
      }),
      {},
    ],
    [
      'the linked Node was deleted: one Event',
      observed(recorded(), { instance: kwokInstance, node: { state: 'gone', name: 'n1' } }),
      {
        events: [{ type: 'Warning', reason: 'NodeNotFound', message: 'Node n1 no longer exists' }],
      },
    ],
  ])('%s', (_name, obs, expected) => {
    const result = plan(obs)
    expect(result).toMatchObject({ events: [], ...expected })
    if (!('action' in expected)) expect(result.action).toBeUndefined()
  })
})

describe('planMachine: deleting, step by step', () => {
  const facts = (extra: Partial<NonNullable<MachineObservation['deletion']>> = {}) => ({
    drained: false,
    volumesDetached: false,
    attachedVolumes: [],
    startedTimers: {},
    ...extra,
  })
  const deleting = (extra: Parameters<typeof machine>[0] = {}) =>
    recorded({ deleting: true, ...extra })
  const withNode = { state: 'found' as const, node: readyNode, linked: true }
  const present = { state: 'present' as const }

  it.each<[string, MachineObservation, Partial<MachinePlan>]>([
    [
      'a pre-drain hook holds it',
      observed(deleting({ annotations: { 'pre-drain.delete.hook.machine-api.dev/backup': 'x' } }), {
        instance: present,
        node: withNode,
        deletion: facts(),
      }),
      {
        deleting: {
          reason: 'WaitingForPreDrainHook',
          message:
            'Waiting for lifecycle hooks to be removed: pre-drain.delete.hook.machine-api.dev/backup',
        },
        requeueAfterMs: 60_000,
        startTimers: { waitForPreDrainHookStartTime: now.toISOString() },
      },
    ],
    [
      'a Node to drain: one drain pass',
      observed(deleting(), { instance: present, node: withNode, deletion: facts() }),
      {
        action: { type: 'drain-node', nodeName: 'n1', nodeUnreachable: false },
        startTimers: { nodeDrainStartTime: now.toISOString() },
      },
    ],
    [
      'a drain pass that did not finish: wait',
      observed(deleting(), {
        instance: present,
        node: withNode,
        deletion: facts({ drainProgress: '2 pods left' }),
      }),
      {
        deleting: { reason: 'DrainingNode', message: 'Draining Node n1: 2 pods left' },
        requeueAfterMs: 10_000,
      },
    ],
    [
      'no Node: skip the drain',
      observed(deleting(), { instance: present, node: { state: 'missing' }, deletion: facts() }),
      { action: { type: 'skip-drain', reason: 'NodeNotFound' } },
    ],
    [
      'draining excluded by annotation',
      observed(deleting({ annotations: { 'machine-api.dev/exclude-node-draining': '' } }), {
        instance: present,
        node: withNode,
        deletion: facts(),
      }),
      { action: { type: 'skip-drain', reason: 'DrainExcluded' } },
    ],
    [
      'volumes still attached: wait for them',
      observed(deleting(), {
        instance: present,
        node: withNode,
        deletion: facts({ drained: true, attachedVolumes: ['pvc-1'] }),
      }),
      {
        deleting: {
          reason: 'WaitingForVolumeDetach',
          message: 'Waiting for volumes to detach: pvc-1',
        },
        requeueAfterMs: 10_000,
      },
    ],
    [
      'an unreachable Node: skip the volume wait',
      observed(deleting(), {
        instance: present,
        node: { state: 'found', node: node([{ type: 'Ready', status: 'Unknown' }]), linked: true },
        deletion: facts({ drained: true }),
      }),
      { action: { type: 'skip-volume-wait', reason: 'NodeUnreachable' } },
    ],
    [
      'a pre-terminate hook holds it',
      observed(
        deleting({ spec: { lifecycleHooks: { preTerminate: [{ name: 'dns', owner: 'x' }] } } }),
        {
          instance: present,
          node: withNode,
          deletion: facts({ drained: true, volumesDetached: true }),
        },
      ),
      {
        deleting: {
          reason: 'WaitingForPreTerminateHook',
          message: 'Waiting for lifecycle hooks to be removed: dns',
        },
        requeueAfterMs: 60_000,
      },
    ],
    [
      'drained and detached: terminate the instance',
      observed(deleting(), {
        instance: present,
        node: withNode,
        deletion: facts({ drained: true, volumesDetached: true }),
      }),
      { action: { type: 'terminate-instance' } },
    ],
    [
      'the instance is still terminating: wait',
      observed(deleting(), {
        instance: { state: 'terminating', requeueAfterMs: 5_000 },
        node: withNode,
        deletion: facts({ drained: true, volumesDetached: true }),
      }),
      {
        deleting: {
          reason: 'WaitingForInfrastructureDeletion',
          message: 'Waiting for the instance to terminate',
        },
        requeueAfterMs: 5_000,
      },
    ],
    [
      'the instance is gone: delete the Node (no nodeDeletionTimeout: never give up)',
      observed(deleting({ spec: { nodeDeletionTimeout: '0s' } }), {
        instance: { state: 'absent' },
        node: withNode,
        deletion: facts(),
      }),
      { action: { type: 'delete-node', nodeName: 'n1', giveUpOnFailure: false } },
    ],
    [
      'the Node delete may give up once nodeDeletionTimeout passed',
      observed(deleting({ spec: { nodeDeletionTimeout: '1s' } }), {
        instance: { state: 'absent' },
        node: withNode,
        deletion: facts(),
      }),
      { action: { type: 'delete-node', nodeName: 'n1', giveUpOnFailure: true } },
    ],
    [
      'the instance is gone and its Node already going (kwok: the instance was the Node): no second delete',
      observed(deleting(), {
        instance: { state: 'absent' },
        node: {
          state: 'found',
          node: {
            ...readyNode,
            metadata: { ...readyNode.metadata, deletionTimestamp: new Date(now) },
          },
          linked: true,
        },
        deletion: facts(),
      }),
      { action: { type: 'remove-finalizer' } },
    ],
    [
      'instance and Node gone: remove the finalizer',
      observed(deleting(), {
        instance: { state: 'absent' },
        node: { state: 'missing' },
        deletion: facts(),
      }),
      { action: { type: 'remove-finalizer' } },
    ],
    [
      'a Machine holding only the finalizer of earlier versions is still cleaned up',
      observed(withFinalizers(deleting(), [legacyMachineFinalizer]), {
        instance: { state: 'absent' },
        node: { state: 'missing' },
        deletion: facts(),
      }),
      { action: { type: 'remove-finalizer' } },
    ],
    [
      'the finalizer removed: deletion completed',
      observed(deleting({ finalizer: false }), { released: true, instance: { state: 'absent' } }),
      { deleting: { reason: 'DeletionCompleted', message: 'Machine deleted' } },
    ],
    [
      'not linked: one last Node lookup by providerID',
      observed(deleting(), { instance: present, deletion: facts() }),
      { action: { type: 'find-node', providerID } },
    ],
    [
      'a throttled provider: wait for its delay, with the reason',
      observed(deleting(), {
        instance: { state: 'failed', failure: throttled },
        deletion: facts(),
      }),
      {
        deleting: { reason: 'Throttled', message: throttled.message },
        requeueAfterMs: 20_000,
        events: [{ type: 'Warning', reason: 'Throttled', message: throttled.message }],
      },
    ],
    [
      'an invalid configuration: a condition, re-checked slowly',
      observed(deleting(), {
        instance: { state: 'failed', failure: unauthorized },
        deletion: facts(),
      }),
      {
        deleting: { reason: 'Unauthorized', message: unauthorized.message },
        requeueAfterMs: 60_000,
        events: [expect.objectContaining({ type: 'Warning', reason: 'Unauthorized' })],
      },
    ],
    [
      'no provider while an instance may exist: wait rather than leak it',
      observed(deleting(), {
        providerProblem: { reason: 'UnknownProvider', message: 'not here' },
        deletion: facts(),
      }),
      {
        deleting: { reason: 'ProviderUnavailable', message: 'not here' },
        requeueAfterMs: 60_000,
        events: [{ type: 'Warning', reason: 'ProviderUnavailable', message: 'not here' }],
      },
    ],
    [
      'still no provider: no second Event',
      observed(
        deleting({
          status: {
            conditions: [
              {
                type: 'Deleting',
                status: 'True',
                reason: 'ProviderUnavailable',
                message: 'not here',
                lastTransitionTime: earlier,
              },
            ],
          },
        }),
        {
          providerProblem: { reason: 'UnknownProvider', message: 'not here' },
          deletion: facts(),
        },
      ),
      { deleting: { reason: 'ProviderUnavailable', message: 'not here' }, requeueAfterMs: 60_000 },
    ],
    [
      'no provider and nothing was ever created: go on without it',
      observed(machine({ deleting: true }), {
        providerProblem: { reason: 'UnknownProvider', message: 'not here' },
        node: { state: 'missing' },
        deletion: facts(),
      }),
      { action: { type: 'remove-finalizer' } },
    ],
  ])('%s', (_name, obs, expected) => {
    const result = plan(obs)
    expect(result).toMatchObject({ events: [], ...expected })
    if (!('action' in expected)) expect(result.action).toBeUndefined()
  })
})

describe('planMachine: a standalone Machine under an EC2 notice', () => {
  const instanceId = 'i-0123456789abcdef0'
  const awsID = `aws:///eu-west-1a/${instanceId}`
  const notice = (reason: NoticeReason, dueInMs?: number) =>
    formatInstanceNotice({
      reason,
      instanceId,
      eventId: 'e-1',
      time: now.toISOString(),
      ...(dueInMs === undefined
        ? {}
        : { deadline: new Date(now.getTime() + dueInMs).toISOString() }),
    })
  const noticed = (reason: NoticeReason, dueInMs?: number, optIn = true, owned = false) => {
    const m = machine({
      providerID: awsID,
      labels: { [LABELS.providerIdHash]: providerIdHash(awsID) },
      annotations: {
        [ANNOTATIONS.instanceNotice]: notice(reason, dueInMs),
        ...(optIn ? { [ANNOTATIONS.deleteOnInterruption]: 'true' } : {}),
      },
    })
    if (owned) {
      const owner = { apiVersion: 'v', kind: 'MachineSet', name: 's', uid: 'u', controller: true }
      m.metadata = { ...m.metadata, ownerReferences: [owner] } as Machine['metadata']
    }
    return observed(m, { node: { state: 'missing' } })
  }

  it.each<[string, MachineObservation, string | undefined]>([
    [
      'opted in, a spot interruption: it deletes itself',
      noticed('SpotInterruption', 120_000),
      'delete-machine',
    ],
    [
      'opted in, the instance is terminating: it deletes itself',
      noticed('InstanceTerminated'),
      'delete-machine',
    ],
    ['not opted in: only recorded', noticed('SpotInterruption', 120_000, false), undefined],
    [
      'opted in, a rebalance recommendation: only recorded',
      noticed('RebalanceRecommended'),
      undefined,
    ],
    [
      'opted in, maintenance in a day: not yet',
      noticed('ScheduledMaintenance', 86_400_000),
      undefined,
    ],
    [
      'owned by a set: the set replaces it',
      noticed('SpotInterruption', 120_000, true, true),
      undefined,
    ],
  ])('%s', (_name, observation, action) => {
    expect(plan(observation).action?.type).toBe(action)
  })
})
