/**
 * Property (issue 33): a hostile object either gets a 4xx naming a field, or is one every planner
 * carries out without throwing and whose derived objects the apiserver would accept (the Node a
 * kwok Machine becomes, the Machines of a set, the MachineSet of a deployment, the health check's
 * timers). Generated objects are valid ones with one to three fields replaced by hostile values
 * (bad label keys and values, selectors that match everything, long names, timers past what
 * setTimeout can wait, bad quantities, prototype keys, wrong types, deep nesting), run through
 * what the webhook does (shape bound, /mutate's defaults, /validate's rules) and then the planners.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { defaultObject } from '../../../src/api/defaults/default-object'
import { HUB_API_VERSION } from '../../../src/api/group'
import { type Kind, kindDefinition } from '../../../src/api/kinds'
import { labelValueError, qualifiedNameError } from '../../../src/api/shared/label-syntax'
import type { FieldError } from '../../../src/api/validation/field-errors'
import { depthError } from '../../../src/api/validation/json-bounds'
import { validateObject } from '../../../src/api/validation/validate'
import { simulatedNode } from '../../../src/providers/kwok/node'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import { builtInProviderSpecSchemas } from '../../../src/providers/schemas'
import { planMachine } from '../../../src/reconcile/machine/plan'
import type { MachineDeploymentObject } from '../../../src/reconcile/machine-deployment/machine-sets'
import { planMachineDeployment } from '../../../src/reconcile/machine-deployment/plan'
import { planRemediation } from '../../../src/reconcile/machine-health-check/plan'
import { parseHealthCheckSpec } from '../../../src/reconcile/machine-health-check/spec'
import { evaluateTargets } from '../../../src/reconcile/machine-health-check/targets'
import { planMachineSet } from '../../../src/reconcile/machine-set/plan'
import type { MachineObject, MachineSetObject } from '../../../src/reconcile/machine-set/types'
import {
  kwokInstance,
  machine as machineBuilder,
  observed,
  readyNode,
} from '../reconcile/machine/builders'

type Obj = Record<string, unknown>
const now = new Date('2026-12-04T12:00:00Z')
const MAX_TIMER_MS = 2 ** 31 - 1
const deps = { providerSchemas: builtInProviderSpecSchemas }

const kwokSpec = () => ({
  providerSpec: {
    provider: 'kwok',
    value: { nodeLabels: { pool: 'a' }, zone: 'z1', allocatable: { cpu: '2' } },
  },
  nodeDrainTimeout: '5m',
})
const labels = { app: 'web' }

function base(kind: Kind, name: string): Obj {
  const meta = { name, namespace: 'ns-ab', uid: 'uid-1', generation: 1 }
  const set = {
    replicas: 2,
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: kwokSpec() },
  }
  const spec: Obj =
    kind === 'Machine'
      ? kwokSpec()
      : kind === 'MachineHealthCheck'
        ? {
            selector: { matchLabels: labels },
            unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '5m' }],
          }
        : kind === 'MachineClass'
          ? { provider: 'kwok', providerSpec: {} }
          : set
  return { apiVersion: HUB_API_VERSION, kind, metadata: meta, spec }
}

const deep = (levels: number): unknown =>
  JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)

const hostileValues = fc.constantFrom<unknown>(
  { 'bad key!': 'x' },
  { a: 'v'.repeat(100) },
  { a: 'wéb' },
  { 'example.com/ok': '' },
  JSON.parse('{"__proto__":"x"}'),
  JSON.parse('{"constructor":{"prototype":{}}}'),
  {},
  { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] },
  { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['db'] }] },
  { matchExpressions: [{ key: 'app', operator: 'In' }] },
  { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
  { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
  { matchLabels: { app: 'w'.repeat(100) } },
  { matchLabels: { 'bad key!': 'web' } },
  'app=web',
  '720h',
  '596h',
  '597h',
  '99999999999h',
  '1.5h',
  '0',
  '-1m',
  '1.2.3',
  '500m',
  '16Gi',
  'eu west',
  'a'.repeat(64),
  'a'.repeat(253),
  [
    { type: 'Ready', status: 'False', timeout: '5m' },
    { type: 'Ready', status: 'False', timeout: '1m' },
  ],
  [{ type: 'Ready', status: 'Unknown', timeout: '720h' }],
  [{ key: 'a b', effect: 'NoSchedule' }],
  [{ key: 'dedicated', value: 'x/y', effect: 'NoSchedule' }],
  { externalTemplateRef: { apiVersion: 'v1', kind: 'Secret', name: 's' } },
  { externalTemplateRef: { apiVersion: 'v1', kind: 'PodTemplate', name: 's' } },
  {
    externalTemplateRef: {
      apiVersion: 'remediation.example.com/v1',
      kind: 'RebootRemediationTemplate',
      name: 's',
    },
  },
  null,
  'x',
  [],
  42,
  -1,
  true,
)

const PATHS: Record<Kind, string[]> = {
  // Names vary through `name`, always a DNS subdomain: the apiserver refuses any other name.
  Machine: [
    'spec',
    'spec.providerSpec',
    'spec.providerSpec.value',
    'spec.providerSpec.value.nodeLabels',
    'spec.providerSpec.value.zone',
    'spec.providerSpec.value.allocatable',
    'spec.providerSpec.value.allocatable.cpu',
    'spec.providerSpec.value.allocatable.memory',
    'spec.metadata',
    'spec.metadata.labels',
    'spec.metadata.annotations',
    'spec.taints',
    'spec.nodeDrainTimeout',
    'spec.nodeDeletionTimeout',
    'spec.nodeVolumeDetachTimeout',
    'spec.lifecycleHooks',
    'status',
  ],
  MachineSet: [
    'spec.selector',
    'spec.selector.matchLabels',
    'spec.template.metadata',
    'spec.template.metadata.labels',
    'spec.template.spec.providerSpec.value.nodeLabels',
    'spec.template.spec.providerSpec.value.allocatable.cpu',
    'spec.template.spec.nodeDrainTimeout',
    'spec.template.spec.taints',
    'spec.replicas',
    'spec.deletePolicy',
  ],
  MachineDeployment: [
    'spec.selector',
    'spec.template.metadata.labels',
    'spec.template.spec.providerSpec.value.zone',
    'spec.template.spec.nodeDeletionTimeout',
    'spec.strategy',
    'spec.replicas',
  ],
  MachineHealthCheck: [
    'spec.selector',
    'spec.unhealthyConditions',
    'spec.nodeStartupTimeout',
    'spec.maxUnhealthy',
    'spec.remediation',
    'spec.remediation.maxInFlight',
  ],
  MachineClass: [
    'spec.providerSpec',
    'spec.providerSpec.nodeLabels',
    'spec.providerSpec.allocatable',
  ],
}

/** Sets `path` (dotted) of `object` to `value`, creating objects on the way. */
function put(object: Obj, path: string, value: unknown): void {
  const parts = path.split('.')
  let at: Obj = object
  for (const part of parts.slice(0, -1)) {
    const next = at[part]
    if (typeof next !== 'object' || next === null || Array.isArray(next)) at[part] = {}
    at = at[part] as Obj
  }
  at[parts.at(-1) as string] = value
}

const kinds: Kind[] = [
  'Machine',
  'MachineSet',
  'MachineDeployment',
  'MachineHealthCheck',
  'MachineClass',
]

const hostileObjects = fc
  .constantFrom(...kinds)
  .chain((kind) =>
    fc.record({
      kind: fc.constant(kind),
      name: fc.constantFrom(
        'web',
        'a.b-c',
        'w'.repeat(58),
        'w'.repeat(63),
        'w'.repeat(64),
        'w'.repeat(253),
      ),
      edits: fc.array(
        fc.tuple(
          fc.constantFrom(...PATHS[kind]),
          fc.oneof(
            { weight: 9, arbitrary: hostileValues },
            { weight: 1, arbitrary: fc.constant(deep(100)) },
          ),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    }),
  )
  .map(({ kind, name, edits }) => {
    const object = base(kind, name)
    for (const [path, value] of edits) put(object, path, structuredClone(value))
    return { kind, object }
  })

/** What the webhook answers: the field errors of a refusal, or the object as the apiserver stores it. */
function admit(kind: Kind, object: Obj): { errors: FieldError[] } | { stored: Obj } {
  const tooDeep = depthError(object, '')
  if (tooDeep !== undefined) return { errors: [tooDeep] }
  const defaulted = defaultObject(kind, object, undefined)
  const errors = validateObject(kind, defaulted, undefined, deps)
  if (errors.length > 0) return { errors }
  // The apiserver prunes what the schema does not know and applies its defaults: the zod output.
  const parsed = kindDefinition(kind).schemas.v1beta1().parse(defaulted) as Obj
  return { stored: { ...parsed, metadata: defaulted.metadata } }
}

function expectLabels(map: Record<string, string> | undefined, where: string): void {
  for (const [key, value] of Object.entries(map ?? {})) {
    expect(qualifiedNameError(key), `${where} key ${key}`).toBeUndefined()
    expect(labelValueError(value), `${where} value ${key}=${value}`).toBeUndefined()
  }
}

const QUANTITY = /^([0-9]+(\.[0-9]*)?|\.[0-9]+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$/

function checkMachine(stored: Obj): void {
  const m = stored as unknown as Parameters<typeof machineBuilder>[0] & MachineObject
  const full = machineBuilder({
    spec: (stored as { spec: never }).spec,
    labels: m.metadata?.labels,
  })
  full.metadata = {
    ...full.metadata,
    name: (stored.metadata as { name: string }).name,
    namespace: 'ns-ab',
  }
  const settings = { claimTtlMs: 60_000, deletionRetryMs: 5_000, nodeLookupRetryMs: 5_000 }
  for (const observation of [
    observed(full),
    observed(full, { instance: kwokInstance, node: { state: 'found', node: readyNode } as never }),
  ]) {
    const plan = planMachine(observation, now, settings)
    if (plan.requeueAfterMs !== undefined)
      expect(plan.requeueAfterMs).toBeLessThanOrEqual(MAX_TIMER_MS)
  }
  const spec = full.spec.providerSpec
  if (spec?.provider === 'kwok') {
    const node = simulatedNode(
      { metadata: { name: full.metadata.name ?? 'm', namespace: 'ns-ab', uid: 'uid-1' }, spec: {} },
      kwokProviderSpecSchema().parse(spec.value),
    )
    expectLabels(node.labels, 'kwok Node label')
    for (const quantity of Object.values(node.allocatable)) expect(quantity).toMatch(QUANTITY)
  }
  expectLabels(full.spec.metadata?.labels, 'Node label')
}

function checkSet(stored: Obj): void {
  const set = {
    ...stored,
    metadata: { ...(stored.metadata as Obj), uid: 'uid-set' },
  } as unknown as MachineSetObject
  const orphan: MachineObject = {
    apiVersion: HUB_API_VERSION,
    kind: 'Machine',
    metadata: { name: 'orphan', namespace: 'ns-ab', labels: { other: 'x' } },
    spec: {},
  } as unknown as MachineObject
  const plan = planMachineSet({ set, machines: [orphan], now })
  // A selector that requires no label could adopt the orphan; admission must have refused it.
  expect(plan.actions.filter((a) => a.type === 'adopt')).toEqual([])
  for (const action of plan.actions) {
    if (action.type !== 'create') continue
    expect(action.machine.metadata.name.length).toBeLessThanOrEqual(63)
    expectLabels(action.machine.metadata.labels, 'Machine label')
  }
}

function checkDeployment(stored: Obj): void {
  const md = {
    ...stored,
    metadata: { ...(stored.metadata as Obj), uid: 'uid-md' },
  } as unknown as MachineDeploymentObject
  const plan = planMachineDeployment({ deployment: md, sets: [] })
  for (const action of plan.actions) {
    if (action.type !== 'create-set') continue
    expectLabels(action.set.metadata.labels, 'MachineSet label')
    expectLabels(action.set.spec.selector.matchLabels, 'MachineSet selector')
    expectLabels(action.set.spec.template.metadata?.labels, 'MachineSet template label')
  }
}

function checkHealthCheck(stored: Obj): void {
  const spec = parseHealthCheckSpec(stored as never)
  for (const rule of spec.rules.unhealthyConditions)
    expect(rule.timeoutMs).toBeLessThanOrEqual(MAX_TIMER_MS)
  expect(spec.rules.nodeStartupTimeoutMs).toBeLessThanOrEqual(MAX_TIMER_MS)
  const target = {
    machine: {
      name: 'm',
      annotations: {},
      machineSetOwner: 's',
      phase: 'Running',
      nodeRef: { name: 'n' },
      conditions: [],
      creationTimestamp: '2026-12-01T00:00:00Z',
    },
    node: {
      name: 'n',
      conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-12-01T00:00:00Z' }],
    },
  }
  const evaluation = evaluateTargets([target], spec.rules, now)
  planRemediation(evaluation.evaluations, spec.policy)
}

describe('hostile objects through admission and the planners', () => {
  it('are refused naming a field, or carried out without throwing', () => {
    let refused = 0
    let admitted = 0
    fc.assert(
      fc.property(hostileObjects, ({ kind, object }) => {
        const answer = admit(kind, object)
        if ('errors' in answer) {
          refused += 1
          for (const error of answer.errors) {
            expect(error.path).not.toBe('')
            expect(error.path).not.toBe('<root>')
          }
          return
        }
        admitted += 1
        if (kind === 'Machine') checkMachine(answer.stored)
        if (kind === 'MachineSet') checkSet(answer.stored)
        if (kind === 'MachineDeployment') checkDeployment(answer.stored)
        if (kind === 'MachineHealthCheck') checkHealthCheck(answer.stored)
      }),
      { numRuns: 2000 },
    )
    // Both sides are exercised: the generator is not all refusals.
    expect(refused).toBeGreaterThan(100)
    expect(admitted).toBeGreaterThan(40)
  })
})
