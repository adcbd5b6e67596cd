/**
 * The apiserver converts a request before any validation, so a conversion that throws reaches the
 * user as a 500 (issue 33: a v1alpha1 Machine with `spec: "x"` did). Property: every object with
 * valid metadata converts both ways without throwing, whatever its spec and status hold; a spec or
 * status that is not an object comes out as it went in, for validation to name.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { convertObject } from '../../../src/api/conversion/convert'
import { HUB_API_VERSION, SPOKE_API_VERSION } from '../../../src/api/group'
import { KINDS } from '../../../src/api/kinds'

// The field names of every kind's spec and status at both versions, so generated objects put odd
// values exactly where the converters look.
const FIELDS =
  `providerSpec value valueFrom machineClass provider classRef versions kubelet controlPlane
  metadata labels annotations taints lifecycleHooks preDrain preTerminate nodeDrainTimeout
  nodeDeletionTimeout nodeVolumeDetachTimeout providerID replicas selector matchLabels
  matchExpressions template spec strategy type rollingUpdate maxSurge maxUnavailable deletePolicy
  minReadySeconds revisionHistoryLimit progressDeadlineSeconds paused rollbackTo revision
  remediation remediationTemplate externalTemplateRef maxInFlight unhealthyConditions
  nodeStartupTimeout maxUnhealthy secretRef credentialsSecretRef userDataSecretRef phase nodeRef
  addresses providerStatus errorReason errorMessage failureReason failureMessage conditions
  observedGeneration deletion capacity lastUpdated name kind apiVersion`.split(/\s+/)

const { value: odd } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    fc.constantFrom(null, '', 'x', 0, -1, true, [], {}),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...FIELDS), tie('value'), { maxKeys: 5 }),
  ),
}))

const annotation = fc.oneof(
  fc.constant(undefined),
  odd.map((data) => ({ 'machine-api.dev/conversion-data': JSON.stringify(data) ?? 'null' })),
)

const objects = fc.record({
  kind: fc.constantFrom(...KINDS),
  from: fc.constantFrom(HUB_API_VERSION, SPOKE_API_VERSION),
  spec: fc.option(odd, { nil: undefined }),
  status: fc.option(odd, { nil: undefined }),
  annotations: annotation,
})

describe('conversion of objects of any shape', () => {
  it('never throws, and carries a spec or status that is not an object over unchanged', () => {
    fc.assert(
      fc.property(objects, ({ kind, from, spec, status, annotations }) => {
        const to = from === HUB_API_VERSION ? SPOKE_API_VERSION : HUB_API_VERSION
        const object: Record<string, unknown> = {
          apiVersion: from,
          kind,
          metadata: { name: 'x', namespace: 'default', ...(annotations ? { annotations } : {}) },
        }
        if (spec !== undefined) object.spec = spec
        if (status !== undefined) object.status = status
        const converted = convertObject(object, to)
        expect(converted.apiVersion).toBe(to)
        const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)
        if (!isObject(spec)) expect(converted.spec).toEqual(spec)
        if (status !== undefined && !isObject(status)) expect(converted.status).toEqual(status)
      }),
      { numRuns: 2000 },
    )
  })

  it.each([
    ['a string', 'x'],
    ['a list', []],
    ['null', null],
  ])('a v1alpha1 Machine whose spec is %s converts to v1beta1 with that spec', (_, spec) => {
    const machine = {
      apiVersion: SPOKE_API_VERSION,
      kind: 'Machine',
      metadata: { name: 'm' },
      spec,
    }
    expect(convertObject(machine, HUB_API_VERSION)).toEqual({
      ...machine,
      apiVersion: HUB_API_VERSION,
    })
  })

  it('a v1beta1 Machine whose classRef is null converts to v1alpha1 without a class reference', () => {
    const machine = {
      apiVersion: HUB_API_VERSION,
      kind: 'Machine',
      metadata: { name: 'm' },
      spec: { classRef: null },
    }
    const converted = convertObject(machine, SPOKE_API_VERSION) as {
      spec?: Record<string, unknown>
    }
    expect(converted.spec?.providerSpec ?? {}).not.toHaveProperty('valueFrom')
  })

  it('a v1alpha1 Machine without spec converts to v1beta1 without spec', () => {
    const machine = { apiVersion: SPOKE_API_VERSION, kind: 'Machine', metadata: { name: 'm' } }
    expect(convertObject(machine, HUB_API_VERSION)).toEqual({
      ...machine,
      apiVersion: HUB_API_VERSION,
    })
  })
})
