/**
 * @module The bad-input mutations: each breaks one thing in a valid object (wrong type, missing
 * required field, out-of-range number, bad enum, bad duration, selector not matching the
 * template, unknown provider spec field, oversized string, immutable field changed) and names
 * the field path a refusal must mention. Variants only apply where the kind and version have the
 * field; the generator picks among those that do.
 */
import type { Kind } from '../../../src/api/kinds'
import { hostileFamilyNames, hostileVariantsFor } from './hostile-mutations'
import { at, type Json, machineSpecPath, type ServedVersion } from './invalid-objects'

/** The mutation families the report counts by. */
export const mutationNames = [
  'wrong-type',
  'missing-required',
  'out-of-range',
  'bad-enum',
  'bad-duration',
  'selector-mismatch',
  'unknown-provider-field',
  'oversized-string',
  'immutable-field',
  // Issue 33's families (hostile-mutations.ts).
  ...hostileFamilyNames,
] as const
export type MutationName = (typeof mutationNames)[number]

/** Edits the object in place; returns the field paths (any of which) the refusal must name. */
export type Variant = (object: Json) => string[]

type Families = Record<MutationName, Variant[]>

const long = (n: number) => 'x'.repeat(n)

function split(path: string): { parent: string; key: string } {
  const dot = path.lastIndexOf('.')
  return { parent: path.slice(0, dot), key: path.slice(dot + 1) }
}

/** Sets `path` to `value`; the refusal must name `expect` (default: the path itself). */
function put(path: string, value: unknown, expect: string[] = [path]): Variant {
  return (object) => {
    const { parent, key } = split(path)
    const target = at(object, parent)
    if (target === undefined) throw new Error(`bad-input generator: no ${parent}`)
    target[key] = value
    return expect
  }
}

/** Deletes `path`; the refusal must name `expect` (default: the path itself). */
function drop(path: string, expect: string[] = [path]): Variant {
  return (object) => {
    const { parent, key } = split(path)
    delete (at(object, parent) as Json)[key]
    return expect
  }
}

/** Applies every variant in turn (one logical change touching two fields). */
function both(first: Variant, second: Variant): Variant {
  return (object) => [...first(object), ...second(object)].slice(0, 1)
}

function empty(): Families {
  return Object.fromEntries(mutationNames.map((n) => [n, []])) as unknown as Families
}

/** Variants on the Machine spec (of a Machine or of a set's template) at `ms`. */
function machineSpecVariants(ms: string, version: ServedVersion): Families {
  const out = empty()
  const value = `${ms}.providerSpec.value`
  const beta = version === 'v1beta1'
  const hooks = Array.from({ length: 33 }, (_, i) => ({ name: `h${i}`, owner: 'c' }))
  out['wrong-type'].push(
    put(`${ms}.taints`, 'none'),
    put(`${ms}.versions`, { kubelet: 134 }, [`${ms}.versions.kubelet`]),
  )
  out['missing-required'].push(
    // The aws spec takes instanceType or instanceTypes (ordered offerings): either may be named.
    drop(`${value}.instanceType`, [`${value}.instanceType`, `${value}.instanceTypes`]),
    // Not `versions` at v1alpha1: admission's defaulting round trip through the hub stores an
    // absent versions as kubelet "" plus a conversion marker (lossless, by design).
    drop(`${ms}.providerSpec`, [ms, `${ms}.providerSpec`]),
  )
  out['out-of-range'].push(
    put(`${value}.rootVolume`, { sizeGiB: 0 }, [`${value}.rootVolume.sizeGiB`]),
  )
  out['bad-enum'].push(
    put(`${ms}.taints`, [{ key: 'dedicated', effect: 'NoWay' }], [`${ms}.taints[0].effect`]),
    put(`${value}.rootVolume`, { sizeGiB: 8, type: 'gp9' }, [`${value}.rootVolume.type`]),
  )
  out['unknown-provider-field'].push(
    put(`${value}.bogusField`, true, [value]),
    put(`${value}.ami.name`, 'ubuntu', [`${value}.ami`]),
  )
  out['oversized-string'].push(
    put(`${ms}.versions`, { kubelet: long(300) }, [`${ms}.versions.kubelet`]),
    put(
      `${ms}.taints`,
      [{ key: 'dedicated', value: long(100), effect: 'NoSchedule' }],
      [`${ms}.taints[0].value`],
    ),
  )
  if (beta) {
    out['out-of-range'].push(
      put(`${ms}.lifecycleHooks`, { preDrain: hooks }, [`${ms}.lifecycleHooks.preDrain`]),
    )
    out['bad-duration'].push(
      put(`${ms}.nodeDrainTimeout`, '-5m'),
      put(`${ms}.nodeDrainTimeout`, '5 minutes'),
      put(`${ms}.nodeDeletionTimeout`, '1h-30m'),
    )
    out['unknown-provider-field'].push(
      put(`${ms}.providerSpec`, { provider: 'nope', value: {} }, [`${ms}.providerSpec.provider`]),
    )
    out['oversized-string'].push(
      put(`${ms}.lifecycleHooks`, { preDrain: [{ name: long(300), owner: 'c' }] }, [
        `${ms}.lifecycleHooks.preDrain[0].name`,
      ]),
    )
  }
  return out
}

function setVariants(kind: Kind, out: Families): void {
  // Either side of a selector/template mismatch is a fair field to name.
  const mismatch = ['spec.selector', 'spec.template.metadata.labels']
  const notIn = [{ key: 'app', operator: 'NotIn', values: ['chaos-base'] }]
  out['wrong-type'].push(put('spec.replicas', 'three'))
  out['missing-required'].push(drop('spec.template'))
  out['out-of-range'].push(
    put('spec.replicas', -1),
    put('spec.replicas', 100_001),
    put('spec.minReadySeconds', 90_000),
  )
  out['selector-mismatch'].push(
    put('spec.selector', { matchLabels: { app: 'other' } }, mismatch),
    put('spec.selector', { matchExpressions: notIn }, mismatch),
  )
  out['immutable-field'].push(
    both(
      put('spec.selector', { matchLabels: { app: 'moved' } }),
      put('spec.template.metadata.labels', { app: 'moved' }),
    ),
  )
  if (kind === 'MachineSet') out['bad-enum'].push(put('spec.deletePolicy', 'Sometimes'))
  if (kind === 'MachineDeployment') {
    const stuck = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } }
    out['wrong-type'].push(put('spec.paused', 'yes'))
    out['out-of-range'].push(
      put('spec.progressDeadlineSeconds', 0),
      put('spec.revisionHistoryLimit', 5000),
      put('spec.strategy', stuck, ['spec.strategy.rollingUpdate.maxUnavailable']),
    )
    out['bad-enum'].push(put('spec.strategy', { type: 'BlueGreen' }, ['spec.strategy.type']))
  }
}

function healthCheckVariants(out: Families): void {
  const condition = (field: string, value: unknown) =>
    put(
      'spec.unhealthyConditions',
      [{ type: 'Ready', status: 'False', timeout: '5m', [field]: value }],
      [`spec.unhealthyConditions[0].${field}`],
    )
  out['wrong-type'].push(
    put('spec.maxUnhealthy', true),
    put('spec.unhealthyConditions', { type: 'Ready' }),
  )
  out['missing-required'].push(drop('spec.selector'))
  out['out-of-range'].push(put('spec.maxUnhealthy', '150%'))
  out['bad-enum'].push(condition('status', 'Maybe'))
  out['bad-duration'].push(
    put('spec.nodeStartupTimeout', '10s'),
    put('spec.nodeStartupTimeout', 'soon'),
    condition('timeout', '-1m'),
  )
  out['selector-mismatch'].push(put('spec.selector', {}))
  out['oversized-string'].push(condition('type', long(400)))
}

function classVariants(version: ServedVersion, out: Families): void {
  const ref = version === 'v1alpha1' ? 'secretRef' : 'credentialsSecretRef'
  out['wrong-type'].push(put('spec.provider', 42), put('spec.providerSpec', 'big'))
  out['missing-required'].push(drop('spec.provider'), drop('spec.providerSpec'))
  out['out-of-range'].push(
    put('spec.providerSpec.rootVolume', { sizeGiB: 70_000 }, [
      'spec.providerSpec.rootVolume.sizeGiB',
    ]),
  )
  out['bad-enum'].push(
    put('spec.providerSpec.rootVolume', { sizeGiB: 8, type: 'gp9' }, [
      'spec.providerSpec.rootVolume.type',
    ]),
  )
  out['unknown-provider-field'].push(put('spec.providerSpec.bogusField', 1, ['spec.providerSpec']))
  out['oversized-string'].push(put(`spec.${ref}`, { name: long(300) }, [`spec.${ref}.name`]))
}

/** The variants per mutation family that apply to `kind` at `version` (families may be empty). */
export function variantsFor(kind: Kind, version: ServedVersion): Families {
  const out = empty()
  if (kind === 'MachineSet' || kind === 'MachineDeployment') setVariants(kind, out)
  if (kind === 'MachineHealthCheck') healthCheckVariants(out)
  if (kind === 'MachineClass') classVariants(version, out)
  if (kind === 'Machine') {
    out['oversized-string'].push(put('spec.providerID', long(600)))
    out['immutable-field'].push(put('spec.providerID', 'aws:///eu-west-1a/i-0fedcba987654321f'))
  }
  const ms = machineSpecPath(kind)
  if (ms) {
    const more = machineSpecVariants(ms, version)
    for (const name of mutationNames) out[name].push(...more[name])
  }
  const hostile = hostileVariantsFor(kind, version)
  for (const name of hostileFamilyNames) out[name].push(...hostile[name])
  return out
}
