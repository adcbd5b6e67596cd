import { describe, expect, it } from 'vitest'
import {
  formatStatusCheckFailure,
  instanceStatusChecksAnnotation,
  type StatusCheckFailure,
} from '../../../../src/api/instance-status-checks'
import type { InstanceStatus } from '../../../../src/providers/instance-status'
import { computeMachineStatus } from '../../../../src/reconcile/machine/status'
import { statusCheckRecordChange } from '../../../../src/reconcile/machine/status-checks'
import { machine, now, observed, readyNode } from './builders'

const instanceId = 'i-0aaaaaaaaaaaaaaaa'
const providerID = `aws:///eu-west-1a/${instanceId}`
const failure = (failed: StatusCheckFailure['failed'], id = instanceId): StatusCheckFailure => ({
  instanceId: id,
  failed,
  since: '2026-12-02T11:00:00.000Z',
})
const recorded = (f: StatusCheckFailure) => ({
  [instanceStatusChecksAnnotation]: formatStatusCheckFailure(f),
})
const passed: InstanceStatus = { providerID, verdict: 'passed' }
const failing = (failed: StatusCheckFailure['failed'], since?: string): InstanceStatus => ({
  providerID,
  verdict: 'failed',
  failed,
  since,
})

describe('statusCheckRecordChange', () => {
  it.each<
    [string, Record<string, string>, InstanceStatus, ReturnType<typeof statusCheckRecordChange>]
  >([
    ['passing with nothing recorded: nothing to write', {}, passed, undefined],
    [
      'passing again after a failure: the record goes',
      recorded(failure(['system'])),
      passed,
      { value: null },
    ],
    [
      'a first failure: recorded with EC2s start time',
      {},
      failing(['instance'], '2026-12-02T11:30:00.000Z'),
      {
        value: formatStatusCheckFailure({
          instanceId,
          failed: ['instance'],
          since: '2026-12-02T11:30:00.000Z',
        }),
        failure: { instanceId, failed: ['instance'], since: '2026-12-02T11:30:00.000Z' },
      },
    ],
    [
      'a first failure without a start time: the sweep time',
      {},
      failing(['system']),
      {
        value: formatStatusCheckFailure({
          instanceId,
          failed: ['system'],
          since: now.toISOString(),
        }),
        failure: { instanceId, failed: ['system'], since: now.toISOString() },
      },
    ],
    [
      'the same checks still failing: nothing to write',
      recorded(failure(['system'])),
      failing(['system']),
      undefined,
    ],
    [
      'another check failing too: rewritten, keeping the start',
      recorded(failure(['instance'])),
      failing(['system', 'instance'], '2026-12-02T11:50:00.000Z'),
      {
        value: formatStatusCheckFailure(failure(['system', 'instance'])),
        failure: failure(['system', 'instance']),
      },
    ],
    [
      'a record about another instance is replaced',
      recorded(failure(['system'], 'i-0bbbbbbbbbbbbbbbb')),
      failing(['system'], '2026-12-02T11:55:00.000Z'),
      {
        value: formatStatusCheckFailure({
          instanceId,
          failed: ['system'],
          since: '2026-12-02T11:55:00.000Z',
        }),
        failure: { instanceId, failed: ['system'], since: '2026-12-02T11:55:00.000Z' },
      },
    ],
  ])('%s', (_name, annotations, status, expected) => {
    const m = machine({ annotations, providerID })
    expect(statusCheckRecordChange(m, status, now)).toEqual(expected)
  })
})

describe('StatusChecksPassed in the Machine status', () => {
  const linked = { state: 'found' as const, node: readyNode, linked: true }
  const conditions = (m: ReturnType<typeof machine>) => {
    const status = computeMachineStatus(observed(m, { node: linked }), { events: [] }, now)
    return {
      checks: status.conditions?.find((c) => c.type === 'StatusChecksPassed'),
      ready: status.conditions?.find((c) => c.type === 'Ready'),
    }
  }
  const hadFailure = {
    conditions: [
      {
        type: 'StatusChecksPassed',
        status: 'False' as const,
        reason: 'SystemCheckFailed',
        message: '',
        lastTransitionTime: '2026-12-02T11:00:00Z',
      },
    ],
  }

  it.each<[string, Parameters<typeof machine>[0], object | undefined]>([
    ['absent on a Machine that never failed a check', { providerID }, undefined],
    [
      'False SystemCheckFailed when the system check is among the failures',
      { providerID, annotations: recorded(failure(['system', 'instance'])) },
      { status: 'False', reason: 'SystemCheckFailed' },
    ],
    [
      'False InstanceCheckFailed when only the instance check fails',
      { providerID, annotations: recorded(failure(['instance'])) },
      { status: 'False', reason: 'InstanceCheckFailed' },
    ],
    [
      'True ChecksPassed once the record is gone',
      { providerID, status: hadFailure },
      { status: 'True', reason: 'ChecksPassed' },
    ],
    [
      'True ChecksPassed when the record names another instance',
      {
        providerID,
        status: hadFailure,
        annotations: recorded(failure(['system'], 'i-0bbbbbbbbbbbbbbbb')),
      },
      { status: 'True', reason: 'ChecksPassed' },
    ],
  ])('%s', (_name, spec, expected) => {
    const { checks, ready } = conditions(machine(spec))
    if (expected === undefined) expect(checks).toBeUndefined()
    else expect(checks).toMatchObject(expected)
    // A MachineHealthCheck decides what a failing check is worth; Ready stays the Node's.
    expect(ready).toMatchObject({ status: 'True' })
  })

  it('names the instance, the start and what to do in the message', () => {
    const { checks } = conditions(
      machine({ providerID, annotations: recorded(failure(['system'])) }),
    )
    expect(checks?.message).toContain(instanceId)
    expect(checks?.message).toContain('2026-12-02T11:00:00.000Z')
    expect(checks?.message).toContain('stop and start the instance, or replace the Machine')
  })
})
