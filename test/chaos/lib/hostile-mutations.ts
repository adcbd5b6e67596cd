/**
 * @module The bad-input families of issue 33: inputs admission used to accept that the controllers
 * could not carry out (a Node or selector label the apiserver refuses, a kwok quantity, a timer
 * past what setTimeout can wait, a selector that matches every ownerless Machine, duplicate health
 * conditions, a Secret as remediation template, prototype keys, objects nested too deep, a
 * v1alpha1 spec of the wrong shape, a name too long for the default selector). Each must now be
 * refused with a 4xx naming its field; one admitted counts as admitted and then stuck.
 */
import type { Kind } from '../../../src/api/kinds'
import { at, type Json, machineSpecPath, type ServedVersion } from './invalid-objects'

/** The families, in report order. */
export const hostileFamilyNames = [
  'node-label',
  'quantity',
  'timer-overflow',
  'selector-everything',
  'selector-syntax',
  'duplicate-condition',
  'remediation-kind',
  'prototype-key',
  'deep-nesting',
  'wrong-shape',
  'long-name',
] as const
export type HostileFamily = (typeof hostileFamilyNames)[number]

/** Edits the object in place; returns the field paths (any of which) the refusal must name. */
type Variant = (object: Json) => string[]

/** Replaces the object at `path` (its parent must exist) with `value`. */
function put(path: string, value: unknown, expect: string[] = [path]): Variant {
  return (object) => {
    const dot = path.lastIndexOf('.')
    const parent = dot === -1 ? object : at(object, path.slice(0, dot))
    if (parent === undefined) throw new Error(`bad-input generator: no parent of ${path}`)
    parent[path.slice(dot + 1)] = value
    return expect
  }
}

const nested = (levels: number): unknown =>
  JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)

function kwok(value: Json): Json {
  return { provider: 'kwok', value }
}

function machineSpecFamilies(ms: string, version: ServedVersion, out: Families): void {
  const value = `${ms}.providerSpec.value`
  out['node-label'].push(
    put(`${ms}.providerSpec`, kwok({ nodeLabels: { 'bad key!': 'x' } }), [`${value}.nodeLabels`]),
    put(`${ms}.providerSpec`, kwok({ zone: 'eu west 1' }), [`${value}.zone`]),
    put(`${ms}.metadata`, { labels: { pool: 'a b' } }, [`${ms}.metadata.labels`]),
    put(`${ms}.taints`, [{ key: 'bad key', effect: 'NoSchedule' }], [`${ms}.taints[0].key`]),
  )
  out.quantity.push(
    put(`${ms}.providerSpec`, kwok({ allocatable: { cpu: '1.2.3' } }), [
      `${value}.allocatable.cpu`,
    ]),
    put(`${ms}.providerSpec`, kwok({ allocatable: { memory: '-1Gi' } }), [
      `${value}.allocatable.memory`,
    ]),
  )
  out['prototype-key'].push(
    put(value, JSON.parse('{"__proto__":{"polluted":true},"region":"eu-west-1"}'), [value]),
    put(`${ms}.providerSpec`, kwok(JSON.parse('{"nodeLabels":{"__proto__":"x"}}')), [
      `${value}.nodeLabels`,
    ]),
  )
  out['deep-nesting'].push(put(`${value}.extra`, nested(200), [value]))
  if (version === 'v1beta1') {
    out['timer-overflow'].push(
      put(`${ms}.nodeDrainTimeout`, '720h'),
      put(`${ms}.nodeDeletionTimeout`, '100000h'),
    )
  }
}

function selectorFamilies(out: Families): void {
  const expr = (operator: string, values?: string[]) => ({
    matchExpressions: [{ key: 'app', operator, ...(values ? { values } : {}) }],
  })
  out['selector-everything'].push(
    put('spec.selector', expr('DoesNotExist')),
    put('spec.selector', expr('NotIn', ['other'])),
  )
  out['selector-syntax'].push(
    put('spec.selector', { matchLabels: { app: 'chaos-base' }, ...expr('In') }, [
      'spec.selector.matchExpressions[0].values',
    ]),
    put('spec.selector', { matchLabels: { 'bad key!': 'x' } }, ['spec.selector.matchLabels']),
    put('spec.selector', { matchLabels: { app: 'x'.repeat(100) } }, ['spec.selector.matchLabels']),
    put('spec.selector', { matchLabels: { app: 'wéb' } }, ['spec.selector.matchLabels']),
    put('spec.selector', 'app=chaos-base'),
  )
}

function healthCheckFamilies(version: ServedVersion, out: Families): void {
  const condition = (status: string, timeout: string) => ({ type: 'Ready', status, timeout })
  out['timer-overflow'].push(
    put(
      'spec.unhealthyConditions',
      [condition('False', '720h')],
      ['spec.unhealthyConditions[0].timeout'],
    ),
    put('spec.nodeStartupTimeout', '1000h'),
  )
  out['duplicate-condition'].push(
    put(
      'spec.unhealthyConditions',
      [condition('False', '5m'), condition('False', '1m')],
      ['spec.unhealthyConditions[1]'],
    ),
  )
  const templates = [
    { apiVersion: 'v1', kind: 'Secret', name: 's' },
    { apiVersion: 'v1', kind: 'ConfigMap', name: 'c' },
    { apiVersion: 'v1', kind: 'PodTemplate', name: 'p' },
  ]
  const field = 'spec.remediation.externalTemplateRef'
  for (const ref of templates) {
    out['remediation-kind'].push(
      version === 'v1beta1'
        ? put('spec.remediation', { externalTemplateRef: ref }, [field])
        : put('spec.remediationTemplate', ref, [field, 'spec.remediationTemplate']),
    )
  }
  selectorFamilies(out)
}

type Families = Record<HostileFamily, Variant[]>

/** The variants per family that apply to `kind` at `version` (families may be empty). */
export function hostileVariantsFor(kind: Kind, version: ServedVersion): Families {
  const out = Object.fromEntries(hostileFamilyNames.map((n) => [n, []])) as unknown as Families
  const ms = machineSpecPath(kind)
  if (ms !== undefined) machineSpecFamilies(ms, version, out)
  if (kind === 'MachineSet' || kind === 'MachineDeployment') {
    selectorFamilies(out)
    // With no selector the default is built from the name, which a label value cannot hold.
    out['long-name'].push((object) => {
      ;(object.metadata as Json).name = `long-${'n'.repeat(60)}`
      ;(object.spec as Json).selector = {}
      ;((object.spec as Json).template as Json).metadata = {}
      return ['spec.selector']
    })
  }
  if (kind === 'MachineHealthCheck') healthCheckFamilies(version, out)
  if (version === 'v1alpha1' && kind !== 'MachineClass') {
    // The apiserver converts before validating: conversion must pass these on for a 4xx.
    out['wrong-shape'].push(put('spec', 'x'), put('spec', []))
  }
  if (kind === 'MachineClass') {
    out['prototype-key'].push(
      put('spec.providerSpec', JSON.parse('{"constructor":{"prototype":{}}}'), [
        'spec.providerSpec',
      ]),
    )
    out['deep-nesting'].push(put('spec.providerSpec.extra', nested(200), ['spec.providerSpec']))
  }
  return out
}

/** How one case came back, as the scenario classifies it. */
export type CaseOutcome = 'refused' | 'admitted' | 'server-error' | 'no-field-path'

/** Per issue-33 family: cases sent and how they came back (all but `refused` must stay 0). */
export function hostileFamilySummary(
  outcomes: ReadonlyArray<{ family: string; outcome: CaseOutcome }>,
): Record<string, Record<CaseOutcome | 'sent', number>> {
  const summary: Record<string, Record<CaseOutcome | 'sent', number>> = {}
  for (const { family, outcome } of outcomes) {
    if (!(hostileFamilyNames as readonly string[]).includes(family)) continue
    summary[family] ??= { sent: 0, refused: 0, admitted: 0, 'server-error': 0, 'no-field-path': 0 }
    summary[family].sent += 1
    summary[family][outcome] += 1
  }
  return summary
}
