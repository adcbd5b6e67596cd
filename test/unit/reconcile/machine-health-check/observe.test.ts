import { describe, expect, it } from 'vitest'
import { PermanentError } from '../../../../src/errors'
import { toTargetMachine } from '../../../../src/reconcile/machine-health-check/observe'
import { parseHealthCheckSpec } from '../../../../src/reconcile/machine-health-check/spec'

const selector = { matchLabels: { pool: 'a' } }

describe('parseHealthCheckSpec', () => {
  it('applies defaults and parses durations', () => {
    const spec = parseHealthCheckSpec({
      spec: { selector, unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '90s' }] },
    })
    expect(spec).toEqual({
      selector,
      rules: {
        unhealthyConditions: [{ type: 'Ready', status: 'False', timeoutMs: 90_000 }],
        unhealthyMachineConditions: [],
        nodeStartupTimeoutMs: 600_000,
      },
      policy: { maxUnhealthy: '100%', maxInFlight: undefined, mode: { type: 'delete' } },
    })
  })

  it('parses unhealthyMachineConditions beside the Node conditions', () => {
    const spec = parseHealthCheckSpec({
      spec: {
        selector,
        unhealthyMachineConditions: [
          { type: 'StatusChecksPassed', status: 'False', timeout: '2m' },
        ],
      },
    })
    expect(spec.rules).toMatchObject({
      unhealthyConditions: [],
      unhealthyMachineConditions: [
        { type: 'StatusChecksPassed', status: 'False', timeoutMs: 120_000 },
      ],
    })
  })

  it.each([
    [
      'a template reference',
      {},
      {
        remediation: {
          externalTemplateRef: {
            apiVersion: 'remediation.example.com/v1',
            kind: 'RebootRemediationTemplate',
            name: 't',
          },
        },
      },
      'external-template',
    ],
    [
      'the remediation-strategy annotation',
      { 'machine-api.dev/remediation-strategy': 'external' },
      {},
      'external-annotation',
    ],
    ['neither', { 'machine-api.dev/remediation-strategy': 'other' }, {}, 'delete'],
  ])('chooses the remediation mode from %s', (_name, annotations, extra, mode) => {
    const spec = parseHealthCheckSpec({ metadata: { annotations }, spec: { selector, ...extra } })
    expect(spec.policy.mode.type).toBe(mode)
  })

  it.each([
    ['an empty selector', { selector: {} }, 'EmptySelector'],
    [
      'a DoesNotExist-only selector',
      { selector: { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] } },
      'EmptySelector',
    ],
    [
      'a Secret as remediation template',
      {
        selector,
        remediation: { externalTemplateRef: { apiVersion: 'v1', kind: 'Secret', name: 's' } },
      },
      'InvalidRemediationTemplate',
    ],
    ['a missing selector', {}, 'InvalidSpec'],
    ['a bad duration', { selector, nodeStartupTimeout: 'soon' }, 'InvalidSpec'],
  ])('refuses %s with a permanent error', (_name, spec, reason) => {
    const attempt = () => parseHealthCheckSpec({ spec })
    expect(attempt).toThrow(PermanentError)
    try {
      attempt()
    } catch (error) {
      expect((error as PermanentError).reason).toBe(reason)
    }
  })
})

describe('toTargetMachine', () => {
  it('reads only a MachineSet controller as the set owner', () => {
    const owned = (kind: string, controller: boolean) =>
      toTargetMachine({
        metadata: {
          name: 'm',
          ownerReferences: [{ apiVersion: 'v', kind, name: 'o', uid: 'u', controller }],
        },
      }).machineSetOwner
    expect([owned('MachineSet', true), owned('MachineSet', false), owned('Other', true)]).toEqual([
      'o',
      undefined,
      undefined,
    ])
  })

  it('reads status fields and tolerates a missing status', () => {
    expect(toTargetMachine({ metadata: { name: 'm' } })).toMatchObject({
      name: 'm',
      annotations: {},
      conditions: [],
    })
    expect(
      toTargetMachine({
        metadata: { name: 'm' },
        status: {
          phase: 'Running',
          nodeRef: { name: 'n' },
          lastUpdated: 't',
          conditions: [{ type: 'X', status: 'True' }],
        },
      }),
    ).toMatchObject({
      phase: 'Running',
      nodeRef: { name: 'n' },
      lastUpdated: 't',
      conditions: [{ type: 'X' }],
    })
  })
})
