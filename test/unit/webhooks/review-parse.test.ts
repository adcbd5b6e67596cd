/** The hand-checked review envelopes accept and return exactly what the zod schemas do. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { admissionReviewSchema, conversionReviewSchema } from '../../../src/webhooks/review'
import { parseAdmissionReview, parseConversionReview } from '../../../src/webhooks/review-parse'
import { admissionBody, machine } from './reviews'

const odd = fc.oneof(
  fc.constantFrom(undefined, null, '', 'x'.repeat(129), 'x'.repeat(257), 'CREATE', 'PATCH'),
  fc.constantFrom(0, true, [], {}, { group: 'g', version: 'v', kind: 'k' }, { group: 1 }),
  // Without "__proto__" keys: zod's record copy drops an own "__proto__" key that JSON.parse made,
  // while the hand check passes the object through untouched (the apiserver's data, kept as sent).
  fc.jsonValue({ maxDepth: 2 }).filter((value) => !JSON.stringify(value).includes('"__proto__"')),
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

const envelopes = [
  {
    name: 'AdmissionReview',
    paths: admissionPaths,
    valid: () => admissionBody(machine()),
    schema: admissionReviewSchema(),
    parse: parseAdmissionReview,
  },
  {
    name: 'ConversionReview',
    paths: conversionPaths,
    valid: conversionBody,
    schema: conversionReviewSchema(),
    parse: parseConversionReview,
  },
] as const

describe('review envelopes', () => {
  it.each(envelopes)('$name: same verdict and same request as its zod schema', (envelope) => {
    fc.assert(
      fc.property(fc.constantFrom(...envelope.paths), odd, (path, value) => {
        const body = withField(envelope.valid(), path, value)
        const zod = envelope.schema.safeParse(body)
        const ours = envelope.parse(body)
        expect(ours.ok).toBe(zod.success)
        if (ours.ok && zod.success) expect(ours.request).toEqual(zod.data.request)
      }),
      { numRuns: 500 },
    )
  })

  it('words the 400 with the field path', () => {
    const body = withField(admissionBody(machine()), ['request', 'operation'], 'PATCH')
    const parsed = parseAdmissionReview(body)
    expect(parsed).toMatchObject({ ok: false, error: expect.stringContaining('request.operation') })
  })
})
