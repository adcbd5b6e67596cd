/**
 * Issue 33's admitted-then-stuck inputs, refused by validation with the field that is wrong: what
 * a Node, a Machine or a selector would refuse later, timers the runtime cannot set, selectors
 * that match more than meant, provider data keys that reach Object.prototype, remediation
 * templates of kinds the health check must never create.
 */
import { describe, expect, it } from 'vitest'
import { HUB_API_VERSION } from '../../../../src/api/group'
import type { Kind } from '../../../../src/api/kinds'
import { validateObject } from '../../../../src/api/validation/validate'
import { builtInProviderSpecSchemas } from '../../../../src/providers/schemas'

type Obj = Record<string, unknown>
const deps = { providerSchemas: builtInProviderSpecSchemas }

function machineSpec(extra: Obj = {}, kwok: Obj = {}): Obj {
  return { providerSpec: { provider: 'kwok', value: kwok }, ...extra }
}

function object(kind: Kind, spec: Obj): Obj {
  return { apiVersion: HUB_API_VERSION, kind, metadata: { name: 'x', namespace: 'ns' }, spec }
}

const labels = { app: 'web' }
function set(kind: 'MachineSet' | 'MachineDeployment', spec: Obj = {}): Obj {
  return object(kind, {
    replicas: 0,
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: machineSpec() },
    ...spec,
  })
}

function check(spec: Obj = {}): Obj {
  return object('MachineHealthCheck', { selector: { matchLabels: labels }, ...spec })
}

const doesNotExist = { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }
const condition = (type: string, status: string, timeout = '5m') => ({ type, status, timeout })
const template = (apiVersion: string, kind: string) => ({
  remediation: { externalTemplateRef: { apiVersion, kind, name: 't' } },
})

const refused: Array<[string, Obj, string]> = [
  // Labels, annotations and taints the Node will hold.
  [
    'a Node label key with a space',
    object('Machine', machineSpec({ metadata: { labels: { 'bad key!': 'x' } } })),
    'spec.metadata.labels',
  ],
  [
    'a Node label value too long',
    object('Machine', machineSpec({ metadata: { labels: { a: 'v'.repeat(64) } } })),
    'spec.metadata.labels[a]',
  ],
  [
    'an annotation key with a space',
    object('Machine', machineSpec({ metadata: { annotations: { 'a b': 'x' } } })),
    'spec.metadata.annotations',
  ],
  [
    'a taint key with a space',
    object('Machine', machineSpec({ taints: [{ key: 'a b', effect: 'NoSchedule' }] })),
    'spec.taints[0].key',
  ],
  [
    'a taint value with a slash',
    object('Machine', machineSpec({ taints: [{ key: 'a', value: 'b/c', effect: 'NoSchedule' }] })),
    'spec.taints[0].value',
  ],
  [
    'a kwok quantity "1.2.3"',
    object('Machine', machineSpec({}, { allocatable: { cpu: '1.2.3' } })),
    'spec.providerSpec.value.allocatable.cpu',
  ],
  [
    'a kwok label key with a space',
    object('Machine', machineSpec({}, { nodeLabels: { 'bad key!': 'x' } })),
    'spec.providerSpec.value.nodeLabels.bad key!',
  ],
  [
    'a kwok zone with spaces',
    object('Machine', machineSpec({}, { zone: 'eu west 1' })),
    'spec.providerSpec.value.zone',
  ],
  // Timers the runtime cannot set (setTimeout waits at most 2^31-1 ms).
  [
    'a drain timeout of 720h',
    object('Machine', machineSpec({ nodeDrainTimeout: '720h' })),
    'spec.nodeDrainTimeout',
  ],
  [
    'a deletion timeout of 597h',
    object('Machine', machineSpec({ nodeDeletionTimeout: '597h' })),
    'spec.nodeDeletionTimeout',
  ],
  [
    'a provisioning timeout of 597h',
    object('Machine', machineSpec({ provisioningTimeout: '597h' })),
    'spec.provisioningTimeout',
  ],
  [
    'a template volume detach timeout of 30000h',
    set('MachineSet', {
      template: { metadata: { labels }, spec: machineSpec({ nodeVolumeDetachTimeout: '30000h' }) },
    }),
    'spec.template.spec.nodeVolumeDetachTimeout',
  ],
  [
    'an MHC condition timeout of 720h',
    check({ unhealthyConditions: [condition('Ready', 'False', '720h')] }),
    'spec.unhealthyConditions[0].timeout',
  ],
  [
    'an MHC startup timeout of 1000h',
    check({ nodeStartupTimeout: '1000h' }),
    'spec.nodeStartupTimeout',
  ],
  // Provider data keys that reach Object.prototype.
  [
    'a __proto__ key in a kwok spec',
    object('Machine', machineSpec({}, JSON.parse('{"nodeLabels":{"__proto__":"x"}}'))),
    'spec.providerSpec.value.nodeLabels',
  ],
  [
    'a constructor key in an aws class',
    object('MachineClass', { provider: 'aws', providerSpec: { constructor: { prototype: 1 } } }),
    'spec.providerSpec',
  ],
  [
    'provider data over 64 Ki characters',
    object('Machine', machineSpec({}, { nodeLabels: { a: 'x'.repeat(70_000) } })),
    'spec.providerSpec.value',
  ],
  // Selectors that are invalid or select more than meant.
  [
    'a DoesNotExist-only MachineSet selector',
    set('MachineSet', { selector: doesNotExist }),
    'spec.selector',
  ],
  [
    'a NotIn-only MachineDeployment selector',
    set('MachineDeployment', {
      selector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['db'] }] },
    }),
    'spec.selector',
  ],
  ['a DoesNotExist-only MHC selector', check({ selector: doesNotExist }), 'spec.selector'],
  ['an empty MHC selector', check({ selector: {} }), 'spec.selector'],
  [
    'a selector key "bad key!"',
    set('MachineDeployment', {
      selector: { matchLabels: { 'bad key!': 'web' } },
      template: { metadata: { labels: { 'bad key!': 'web' } }, spec: machineSpec() },
    }),
    'spec.selector.matchLabels',
  ],
  [
    'a 100-character selector value',
    set('MachineDeployment', { selector: { matchLabels: { app: 'w'.repeat(100) } } }),
    'spec.selector.matchLabels[app]',
  ],
  [
    'a non-ASCII selector value',
    set('MachineSet', { selector: { matchLabels: { app: 'wéb' } } }),
    'spec.selector.matchLabels[app]',
  ],
  [
    'In with no values',
    set('MachineSet', {
      selector: { matchLabels: labels, matchExpressions: [{ key: 'app', operator: 'In' }] },
    }),
    'spec.selector.matchExpressions[0].values',
  ],
  [
    'NotIn with an empty list',
    check({
      selector: {
        matchLabels: labels,
        matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }],
      },
    }),
    'spec.selector.matchExpressions[0].values',
  ],
  [
    'Exists with values',
    check({ selector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['b'] }] } }),
    'spec.selector.matchExpressions[0].values',
  ],
  [
    'an invalid expression key',
    check({ selector: { matchExpressions: [{ key: 'a b', operator: 'Exists' }] } }),
    'spec.selector.matchExpressions[0].key',
  ],
  [
    'a string where the selector belongs',
    set('MachineSet', { selector: 'app=web' }),
    'spec.selector',
  ],
  [
    'a template label value with a space',
    set('MachineSet', {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web', b: 'c d' } }, spec: machineSpec() },
    }),
    'spec.template.metadata.labels[b]',
  ],
  // Health check rules.
  [
    'a duplicate unhealthy condition',
    check({ unhealthyConditions: [condition('Ready', 'False'), condition('Ready', 'False')] }),
    'spec.unhealthyConditions[1]',
  ],
  [
    'a conflicting unhealthy condition',
    check({
      unhealthyConditions: [condition('Ready', 'False', '5m'), condition('Ready', 'False', '1m')],
    }),
    'spec.unhealthyConditions[1]',
  ],
  [
    'a duplicate unhealthy Machine condition',
    check({
      unhealthyMachineConditions: [
        condition('StatusChecksPassed', 'False', '5m'),
        condition('StatusChecksPassed', 'False', '1m'),
      ],
    }),
    'spec.unhealthyMachineConditions[1]',
  ],
  [
    "a Machine condition on the health check's own verdict",
    check({ unhealthyMachineConditions: [condition('HealthCheckSucceeded', 'False')] }),
    'spec.unhealthyMachineConditions[0].type',
  ],
  [
    'a Machine condition timeout the runtime cannot set',
    check({ unhealthyMachineConditions: [condition('StatusChecksPassed', 'False', '720h')] }),
    'spec.unhealthyMachineConditions[0].timeout',
  ],
  [
    'a Secret as remediation template',
    check(template('v1', 'Secret')),
    'spec.remediation.externalTemplateRef.apiVersion',
  ],
  [
    'a ConfigMap as remediation template',
    check(template('v1', 'ConfigMap')),
    'spec.remediation.externalTemplateRef.apiVersion',
  ],
  [
    'a PodTemplate as remediation template',
    check(template('v1', 'PodTemplate')),
    'spec.remediation.externalTemplateRef.apiVersion',
  ],
  [
    'a built-in group',
    check(template('apps/v1', 'DeploymentTemplate')),
    'spec.remediation.externalTemplateRef.apiVersion',
  ],
  [
    'a Kubernetes group',
    check(template('rbac.authorization.k8s.io/v1', 'RoleTemplate')),
    'spec.remediation.externalTemplateRef.apiVersion',
  ],
  [
    "machine-api's own group",
    check(template('machine-api.dev/v1beta1', 'MachineTemplate')),
    'spec.remediation.externalTemplateRef.apiVersion',
  ],
  [
    'a kind not ending in Template',
    check(template('remediation.example.com/v1', 'Secret')),
    'spec.remediation.externalTemplateRef.kind',
  ],
]

const accepted: Array<[string, Obj]> = [
  ['a drain timeout of 596h', object('Machine', machineSpec({ nodeDrainTimeout: '596h' }))],
  [
    'kwok quantities with suffixes',
    object(
      'Machine',
      machineSpec({}, { allocatable: { cpu: '500m', memory: '1.5Gi', pods: '1e2' } }),
    ),
  ],
  [
    'prefixed Node labels',
    object(
      'Machine',
      machineSpec({ metadata: { labels: { 'node-role.kubernetes.io/worker': '' } } }),
    ),
  ],
  [
    'a selector with In',
    set('MachineSet', {
      selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
    }),
  ],
  [
    'a selector with Exists and DoesNotExist',
    check({
      selector: {
        matchExpressions: [
          { key: 'app', operator: 'Exists' },
          { key: 'x', operator: 'DoesNotExist' },
        ],
      },
    }),
  ],
  [
    'Ready False and Ready Unknown',
    check({ unhealthyConditions: [condition('Ready', 'False'), condition('Ready', 'Unknown')] }),
  ],
  [
    'the same condition type on the Node and on the Machine',
    check({
      unhealthyConditions: [condition('Ready', 'False')],
      unhealthyMachineConditions: [
        condition('Ready', 'False'),
        condition('StatusChecksPassed', 'False'),
      ],
    }),
  ],
  [
    'a Cluster API remediation template',
    check(template('infrastructure.cluster.x-k8s.io/v1beta1', 'Metal3RemediationTemplate')),
  ],
]

describe('validation of hostile input', () => {
  it.each(refused)('refuses %s, naming the field', (_, input, path) => {
    const errors = validateObject(input.kind as Kind, input, undefined, deps)
    expect(errors.map((e) => e.path)).toContain(path)
  })

  it.each(accepted)('accepts %s', (_, input) => {
    expect(validateObject(input.kind as Kind, input, undefined, deps)).toEqual([])
  })
})
