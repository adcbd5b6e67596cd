/** The hand-checked review envelopes accept and return exactly what the zod schemas do. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { admissionReviewSchema, conversionReviewSchema } from '../../../src/webhooks/review'
import { parseAdmissionReview, parseConversionReview } from '../../../src/webhooks/review-parse'
import { admissionBody, machine } from './reviews'

const odd = fc.oneof(
  fc.constantFrom(undefined, null, '', 'x'.repeat(129), 'x'.repeat(257), 'CREATE', 'PATCH'),
  fc.constantFrom(0, true, [], {}, { group: 'g', version: 'v', kind: 'k' }, { group: 1 }),
  fc.jsonValue({ maxDepth: 2 }),
)

function withField(body: Record<string, unknown>, path: string[], value: unknown) {
  const copy = structuredClone(body)
  let target = copy as Record<string, unknown>
  for (const key of path.slice(0, -1)) {
    const next = target[key]
    if (typeof next !== 'object' || next === null) return copy
    target = next as Record<string, unknown>
  }
  const last = path[path.length - 1] ?? ''
  if (value === undefined) delete target[last]
  else target[last] = value
  return copy
}

const admissionPaths = [
  ['apiVersion'],
  ['kind'],
  ['request'],
  ['request', 'uid'],
  ['request', 'kind'],
  ['request', 'kind', 'group'],
  ['request', 'kind', 'kind'],
  ['request', 'operation'],
  ['request', 'namespace'],
  ['request', 'name'],
  ['request', 'object'],
  ['request', 'oldObject'],
  ['request', 'dryRun'],
]

const conversionPaths = [
  ['apiVersion'],
  ['kind'],
  ['request'],
  ['request', 'uid'],
  ['request', 'desiredAPIVersion'],
  ['request', 'objects'],
]

function conversionBody() {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: 'u', desiredAPIVersion: 'machine-api.dev/v1alpha1', objects: [machine()] },
  }
}

describe('review envelopes', () => {
  it('AdmissionReview: same verdict and same request as admissionReviewSchema', () => {
    fc.assert(
      fc.property(fc.constantFrom(...admissionPaths), odd, (path, value) => {
        const body = withField(admissionBody(machine()), path, value)
        const zod = admissionReviewSchema.safeParse(body)
        const ours = parseAdmissionReview(body)
        expect(ours.ok).toBe(zod.success)
        if (ours.ok && zod.success) expect(ours.request).toEqual(zod.data.request)
      }),
      { numRuns: 500 },
    )
  })

  it('ConversionReview: same verdict and same request as conversionReviewSchema', () => {
    fc.assert(
      fc.property(fc.constantFrom(...conversionPaths), odd, (path, value) => {
        const body = withField(conversionBody(), path, value)
        const zod = conversionReviewSchema.safeParse(body)
        const ours = parseConversionReview(body)
        expect(ours.ok).toBe(zod.success)
        if (ours.ok && zod.success) expect(ours.request).toEqual(zod.data.request)
      }),
      { numRuns: 300 },
    )
  })

  it('words the 400 with the field path', () => {
    const body = withField(admissionBody(machine()), ['request', 'operation'], 'PATCH')
    const parsed = parseAdmissionReview(body)
    expect(parsed).toMatchObject({ ok: false, error: expect.stringContaining('request.operation') })
  })
})
