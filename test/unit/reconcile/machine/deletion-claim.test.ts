/**
 * A Machine deleted while its create was in flight (issue 42 item 2): no instance is found yet
 * (the launch is still going, or EC2's lookups do not show it yet), and the finalizer went at once,
 * leaking the instance. A live create claim now holds the finalizer until it runs out; a dead
 * holder's claim is taken over by the deletion, which looks on for takenClaimHoldMs.
 */
import { describe, expect, it } from 'vitest'
import type { MachinePlan } from '../../../../src/reconcile/machine/actions'
import { createClaimHold, takenClaimHoldMs } from '../../../../src/reconcile/machine/deletion'
import type { MachineObservation } from '../../../../src/reconcile/machine/observation'
import { planMachine } from '../../../../src/reconcile/machine/plan'
import { machine, now, observed } from './builders'

const settings = { claimTtlMs: 150_000, deletionRetryMs: 10_000, nodeLookupRetryMs: 15_000 }
const ago = (ms: number) => new Date(now.getTime() - ms)
const claim = (ageMs: number, holderDead = false) => ({ at: ago(ageMs), mine: false, holderDead })
const taken = (ageMs: number, holderDead = false) => ({
  ...claim(ageMs, holderDead),
  forDeletion: true,
})
const facts = { drained: false, volumesDetached: false, attachedVolumes: [], startedTimers: {} }

/** A deleting Machine whose create never recorded an instance, and none is found. */
function inFlight(extra: Partial<MachineObservation> = {}): MachineObservation {
  return observed(machine({ deleting: true }), {
    instance: { state: 'absent' },
    node: { state: 'not-looked-up' },
    deletion: facts,
    ...extra,
  })
}

/** A deleting Machine whose create recorded its instance after the deletion began (execute.ts). */
function recorded(deletingReason?: string, extra: Partial<MachineObservation> = {}) {
  const conditions = deletingReason
    ? [
        {
          type: 'Deleting',
          status: 'True' as const,
          reason: deletingReason,
          message: 'Waiting for the instance to terminate',
          lastTransitionTime: ago(1_000).toISOString(),
        },
      ]
    : []
  return inFlight({
    machine: machine({ deleting: true, providerID: 'aws:///a/i-1', status: { conditions } }),
    node: { state: 'missing' },
    claim: taken(2_000),
    ...extra,
  })
}

const hold = (message: string, requeueAfterMs: number): Partial<MachinePlan> => ({
  deleting: { reason: 'WaitingForCreateClaim', message },
  requeueAfterMs,
})

describe('deleting a Machine whose create was in flight', () => {
  it.each<[string, MachineObservation, Partial<MachinePlan>]>([
    [
      'a live claim keeps the finalizer',
      inFlight({ claim: claim(2_000) }),
      hold(
        'The instance was being created (by another reconcile) when the Machine was deleted; ' +
          `looking for it until the create claim of ${ago(2_000).toISOString()} runs out`,
        10_000,
      ),
    ],
    [
      "a dead holder's claim is taken over: it launches nothing more",
      inFlight({ claim: claim(2_000, true) }),
      { action: { type: 'claim-create', forDeletion: true } },
    ],
    [
      'a taken-over claim keeps the finalizer while the launch may still be invisible',
      inFlight({ claim: taken(2_000) }),
      hold(
        'The instance was being created by a worker that has since died when the Machine was ' +
          `deleted; looking for it until ${new Date(ago(2_000).getTime() + takenClaimHoldMs).toISOString()}`,
        10_000,
      ),
    ],
    [
      'a taken-over claim whose taker died too holds the same, not again',
      inFlight({ claim: taken(25_000, true) }),
      {
        requeueAfterMs: 5_000,
        deleting: expect.objectContaining({ reason: 'WaitingForCreateClaim' }),
      },
    ],
    [
      'a taken-over claim past its hold: the lookups are trusted, the finalizer goes',
      inFlight({ claim: taken(takenClaimHoldMs) }),
      { action: { type: 'remove-finalizer' } },
    ],
    [
      'the last seconds of a claim: look again when it runs out',
      inFlight({ claim: claim(147_000) }),
      hold(
        'The instance was being created (by another reconcile) when the Machine was deleted; ' +
          `looking for it until the create claim of ${ago(147_000).toISOString()} runs out`,
        3_000,
      ),
    ],
    [
      'a claim that ran out: the lookups are trusted, the finalizer goes',
      inFlight({ claim: claim(150_000) }),
      { action: { type: 'remove-finalizer' } },
    ],
    ['no claim: the finalizer goes', inFlight(), { action: { type: 'remove-finalizer' } }],
    [
      'a recorded instance not seen yet (EC2 lag) keeps the finalizer',
      recorded(),
      { deleting: expect.objectContaining({ reason: 'WaitingForCreateClaim' }) },
    ],
    [
      'a recorded instance an earlier pass saw terminating ends the claim',
      recorded('WaitingForInfrastructureDeletion'),
      { action: { type: 'remove-finalizer' } },
    ],
    [
      "a live create's claim is not ended by a termination: it may launch again",
      recorded('WaitingForInfrastructureDeletion', { claim: claim(2_000) }),
      { deleting: expect.objectContaining({ reason: 'WaitingForCreateClaim' }) },
    ],
    [
      'the instance is found meanwhile: it is terminated, claim or not',
      inFlight({
        claim: claim(2_000),
        instance: { state: 'present' },
        deletion: { ...facts, drained: true, volumesDetached: true },
      }),
      { action: { type: 'terminate-instance' } },
    ],
  ])('%s', (_name, obs, expected) => {
    expect(planMachine(obs, now, settings)).toMatchObject(expected)
  })

  it.each([
    [
      'an unreadable claim time holds nothing',
      { at: new Date('x'), mine: false, holderDead: false },
    ],
    ['a claim from the future holds for its whole length', claim(-1_000)],
  ])('%s', (name, c) => {
    const held = createClaimHold(
      { type: 'remove-finalizer' },
      { ...inFlight(), claim: c },
      now,
      settings,
    )
    if (name.startsWith('an unreadable')) expect(held).toBeUndefined()
    else expect(held).toMatchObject({ waitMs: 10_000 })
  })

  it('holds only the finalizer, never another step', () => {
    const other = { type: 'terminate-instance' } as const
    expect(
      createClaimHold(other, { ...inFlight(), claim: claim(0) }, now, settings),
    ).toBeUndefined()
  })
})
