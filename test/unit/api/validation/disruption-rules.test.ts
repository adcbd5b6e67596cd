/** Admission of spec.disruption.budgets and spec.template.spec.expireAfter: each error names its field. */
import { describe, expect, it } from 'vitest'
import { HUB_API_VERSION } from '../../../../src/api/group'
import { validateObject } from '../../../../src/api/validation/validate'
import { builtInProviderSpecSchemas } from '../../../../src/providers/schemas'

type Obj = Record<string, unknown>
const deps = { providerSchemas: builtInProviderSpecSchemas }
const labels = { app: 'web' }

function deployment(budgets: unknown[] | undefined, template: Obj = {}): Obj {
  return {
    apiVersion: HUB_API_VERSION,
    kind: 'MachineDeployment',
    metadata: { name: 'web', namespace: 'ns' },
    spec: {
      replicas: 3,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { providerSpec: { provider: 'kwok', value: {} }, ...template },
      },
      ...(budgets === undefined ? {} : { disruption: { budgets } }),
    },
  }
}

const errorsOf = (object: Obj) => validateObject('MachineDeployment', object, undefined, deps)

describe('disruption budgets admission', () => {
  it.each<[string, unknown[]]>([
    ['a count', [{ machines: 2 }]],
    ['a percentage', [{ machines: '10%' }]],
    ['a weekday window', [{ machines: 0, schedule: '0 9 * * mon-fri', duration: '8h' }]],
    [
      'a macro with reasons',
      [{ machines: 1, schedule: '@daily', duration: '30m', reasons: ['Drift', 'Expiry'] }],
    ],
    [
      'several budgets',
      [
        { machines: '20%' },
        { machines: 0, schedule: '0 0 * * 0', duration: '24h', reasons: ['Rollout'] },
      ],
    ],
  ])('accepts %s', (_name, budgets) => {
    expect(errorsOf(deployment(budgets))).toEqual([])
  })

  it.each<[string, unknown[], string, RegExp]>([
    ['a negative count', [{ machines: -1 }], 'spec.disruption.budgets[0].machines', /./],
    [
      'a percentage above 100',
      [{ machines: '150%' }],
      'spec.disruption.budgets[0].machines',
      /percentage/,
    ],
    [
      'a percentage with a fraction',
      [{ machines: '2.5%' }],
      'spec.disruption.budgets[0].machines',
      /percentage/,
    ],
    [
      'an unknown reason',
      [{ machines: 1, reasons: ['Consolidation'] }],
      'spec.disruption.budgets[0].reasons[0]',
      /./,
    ],
    [
      'a reason twice',
      [{ machines: 1, reasons: ['Drift', 'Drift'] }],
      'spec.disruption.budgets[0].reasons[1]',
      /Duplicate/,
    ],
    [
      'a schedule without a duration',
      [{ machines: 0, schedule: '0 9 * * *' }],
      'spec.disruption.budgets[0].duration',
      /Required/,
    ],
    [
      'a duration without a schedule',
      [{ machines: 0, duration: '1h' }],
      'spec.disruption.budgets[0].schedule',
      /Required/,
    ],
    [
      'a minute out of range',
      [{ machines: 0, schedule: '61 9 * * *', duration: '1h' }],
      'spec.disruption.budgets[0].schedule',
      /minute/,
    ],
    [
      'four fields',
      [{ machines: 0, schedule: '0 9 * *', duration: '1h' }],
      'spec.disruption.budgets[0].schedule',
      /5-field/,
    ],
    [
      'six fields (seconds)',
      [{ machines: 0, schedule: '0 0 9 * * *', duration: '1h' }],
      'spec.disruption.budgets[0].schedule',
      /5-field/,
    ],
    [
      'a schedule that never fires',
      [{ machines: 0, schedule: '0 0 31 2 *', duration: '1h' }],
      'spec.disruption.budgets[0].schedule',
      /never fires/,
    ],
    [
      'a zero duration',
      [{ machines: 0, schedule: '@daily', duration: '0s' }],
      'spec.disruption.budgets[0].duration',
      /more than 0/,
    ],
    [
      'a duration that is no duration',
      [{ machines: 0, schedule: '@daily', duration: '8 hours' }],
      'spec.disruption.budgets[0].duration',
      /duration/,
    ],
    [
      'a duration beyond the timer limit',
      [{ machines: 0, schedule: '@daily', duration: '600h' }],
      'spec.disruption.budgets[0].duration',
      /596h/,
    ],
    [
      'the second budget wrong',
      [{ machines: 1 }, { machines: 0, schedule: 'bogus', duration: '1h' }],
      'spec.disruption.budgets[1].schedule',
      /5-field/,
    ],
  ])('refuses %s at %s', (_name, budgets, path, message) => {
    const errors = errorsOf(deployment(budgets))
    expect(errors.map((e) => e.path)).toContain(path)
    expect(errors.find((e) => e.path === path)?.message).toMatch(message)
  })

  it('collects every error rather than the first', () => {
    const errors = errorsOf(
      deployment([
        { machines: 0, schedule: 'bogus', duration: '1h' },
        { machines: 0, schedule: '@daily' },
      ]),
    )
    expect(errors.map((e) => e.path)).toEqual([
      'spec.disruption.budgets[0].schedule',
      'spec.disruption.budgets[1].duration',
    ])
  })
})

describe('expireAfter admission', () => {
  it.each(['720h', '30m', '87600h'])('accepts %s', (expireAfter) => {
    expect(errorsOf(deployment(undefined, { expireAfter }))).toEqual([])
  })

  it.each<[string, RegExp]>([
    ['0', /more than 0/],
    ['0s', /more than 0/],
    ['87601h', /87600h/],
    ['30 days', /duration/],
  ])('refuses %s', (expireAfter, message) => {
    const errors = errorsOf(deployment(undefined, { expireAfter }))
    expect(errors.map((e) => e.path)).toEqual(['spec.template.spec.expireAfter'])
    expect(errors[0]?.message).toMatch(message)
  })
})
