import { describe, expect, it } from 'vitest'
import {
  actionEvent,
  remediationRequestKind,
  transitionEvents,
} from '../../../../src/reconcile/machine-health-check/events'
import { planRemediation } from '../../../../src/reconcile/machine-health-check/plan'
import { remediationAllowed } from '../../../../src/reconcile/machine-health-check/status'
import type {
  ObservedCondition,
  Target,
} from '../../../../src/reconcile/machine-health-check/target'
import { evaluate, linked, machine, minute, notReady } from './builders'

function eventsFor(
  targets: Target[],
  maxUnhealthy: number,
  previous: { machine?: Record<string, ObservedCondition>; allowed?: ObservedCondition } = {},
) {
  const evaluations = evaluate(targets)
  const plan = planRemediation(evaluations, { maxUnhealthy, mode: { type: 'delete' } })
  return transitionEvents({
    evaluations,
    plan,
    previousMachine: new Map(Object.entries(previous.machine ?? {})),
    previousAllowed: previous.allowed,
    nextAllowed: remediationAllowed(plan, maxUnhealthy),
  }).map((e) => `${e.reason}:${e.machine ?? 'check'}:${e.both}`)
}

const failed = { type: 'HealthCheckSucceeded', status: 'False' }
const shortCircuit = {
  type: 'RemediationAllowed',
  status: 'False',
  message:
    '2 of 3 Machines not healthy, more than maxUnhealthy 1 (1): remediation is paused until at most 1 are not healthy; holding back a, b',
}

/** A Machine of a set that has no Node yet and no startup timer running: still starting. */
const starting = (name: string) => ({
  machine: machine(name, { phase: 'Provisioning', nodeRef: undefined }),
})

describe('transitionEvents', () => {
  it.each<[string, Target[], number, Parameters<typeof eventsFor>[2], string[]]>([
    ['nothing happens when all are healthy', [linked('a')], 1, {}, []],
    [
      'a Machine turning unhealthy is recorded on both objects',
      [notReady('a', 9 * minute)],
      1,
      {},
      ['MachineMarkedUnhealthy:a:true'],
    ],
    [
      'a Machine already marked is not recorded again',
      [notReady('a', 9 * minute)],
      1,
      { machine: { a: failed } },
      [],
    ],
    ['a pending Machine is not recorded yet', [notReady('a', minute)], 1, {}, []],
    [
      'the short-circuit engaging is recorded on the health check',
      [linked('ok'), notReady('a', 9 * minute), notReady('b', 9 * minute)],
      1,
      { machine: { a: failed, b: failed } },
      ['RemediationRestricted:check:false'],
    ],
    [
      'an unchanged short-circuit is not recorded again',
      [linked('ok'), notReady('a', 9 * minute), notReady('b', 9 * minute)],
      1,
      { machine: { a: failed, b: failed }, allowed: shortCircuit },
      [],
    ],
    [
      'a fresh set whose Machines are all starting short-circuits without a Warning',
      [starting('a'), starting('b'), starting('c')],
      1,
      {},
      [],
    ],
    [
      'a Machine turning unhealthy while others start is held back and recorded',
      [starting('a'), starting('b'), notReady('c', 9 * minute)],
      1,
      {
        allowed: {
          type: 'RemediationAllowed',
          status: 'False',
          message:
            '3 of 3 Machines not healthy, more than maxUnhealthy 1 (1): remediation is paused until at most 1 are not healthy',
        },
      },
      ['RemediationRestricted:check:false', 'MachineMarkedUnhealthy:c:true'],
    ],
  ])('%s', (_name, targets, maxUnhealthy, previous, expected) => {
    expect(eventsFor(targets, maxUnhealthy, previous)).toEqual(expected)
  })
})

describe('actionEvent', () => {
  const [e] = evaluate([notReady('a', 9 * minute)])
  it.each([
    [
      { type: 'delete' as const },
      'MachineRemediated',
      'Deleting unhealthy Machine a; MachineSet set-a will replace it',
    ],
    [
      {
        type: 'hand-off' as const,
        mode: {
          type: 'external-template' as const,
          template: { apiVersion: 'x/v1', kind: 'RebootRemediationTemplate', name: 't' },
        },
      },
      'ExternalRemediationRequested',
      'Handed unhealthy Machine a to external remediation by a RebootRemediation request',
    ],
  ])('%o', (partial, reason, message) => {
    if (!e) throw new Error('no evaluation')
    const action = { ...partial, evaluation: e } as Parameters<typeof actionEvent>[0]
    expect(actionEvent(action)).toMatchObject({ machine: 'a', both: true, reason, message })
  })

  it.each([
    ['FooRemediationTemplate', 'FooRemediation'],
    ['Odd', 'Odd'],
  ])('request kind of %s is %s', (template, kind) => {
    expect(remediationRequestKind(template)).toBe(kind)
  })
})
