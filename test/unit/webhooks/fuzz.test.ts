/** Hostile bodies at every endpoint: never a crash or 5xx, always a well-formed 4xx or review. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { admissionBody, healthCheck, type Loose, machine, machineSet, testApp } from './reviews'

type Json = unknown

const hostileKeys = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '',
  'a/b~c',
  'spec',
)
const hostileLeaf = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  hostileKeys.map((key) => JSON.parse(`{"${key}": {"polluted": true}}`) as Json),
  fc.constantFrom(null, -1, 1e308, '-5m', '150%', 'x'.repeat(5000), [], {}, true),
)

/** Replaces the value at a random path of `value` with `replacement`. */
function replaceAt(value: Json, path: number[], replacement: Json): Json {
  if (path.length === 0 || typeof value !== 'object' || value === null) return replacement
  const entries = Object.entries(value as Record<string, Json>)
  if (entries.length === 0) return replacement
  const [head = 0, ...rest] = path
  const index = head % entries.length
  const copy: Record<string, Json> = Array.isArray(value)
    ? ([...value] as never)
    : { ...(value as object) }
  const key = entries[index]?.[0] ?? ''
  copy[key] = replaceAt(copy[key], rest, replacement)
  return copy
}

function conversionReview(objects: Json[]) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: 'u', desiredAPIVersion: 'machine-api.dev/v1alpha1', objects },
  }
}

const validBodies = {
  '/mutate': [machine(), machineSet(), healthCheck()].map((o) => admissionBody(o)),
  '/validate': [machine(), machineSet({}, 'MachineDeployment'), healthCheck()].map((o) =>
    admissionBody(o),
  ),
  '/convert': [conversionReview([machine(), machineSet()])],
}

function hostileBody(endpoint: keyof typeof validBodies): fc.Arbitrary<string> {
  const mutated = fc
    .tuple(
      fc.constantFrom(...validBodies[endpoint]),
      fc.array(fc.nat(), { minLength: 1, maxLength: 7 }),
      hostileLeaf,
    )
    .map(([body, path, leaf]) => JSON.stringify(replaceAt(body, path, leaf)))
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc.nat({ max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', '{', 'null', '"x"', '{"request":null}', '\u0000\uffff'),
    },
  )
}

function expectWellFormed(endpoint: string, status: number, body: Loose) {
  expect([200, 400]).toContain(status)
  if (status === 400) {
    expect(body.error).toEqual(expect.any(String))
    return
  }
  if (endpoint === '/convert') {
    expect(['Success', 'Failure']).toContain(body.response?.result?.status)
  } else {
    expect(body.response?.uid).toEqual(expect.any(String))
    expect(body.response?.allowed).toEqual(expect.any(Boolean))
    if (!body.response?.allowed) expect(body.response?.status?.message).toEqual(expect.any(String))
  }
}

describe.each(Object.keys(validBodies) as (keyof typeof validBodies)[])(
  '%s under fuzzing',
  (endpoint) => {
    it('answers 300 hostile bodies with a well-formed 4xx or review', async () => {
      const app = testApp()
      let count = 0
      await fc.assert(
        fc.asyncProperty(hostileBody(endpoint), async (body) => {
          count++
          const response = await app.request(endpoint, { method: 'POST', body })
          const text = await response.text()
          expectWellFormed(endpoint, response.status, JSON.parse(text) as Loose)
        }),
        { numRuns: 300 },
      )
      expect(count).toBeGreaterThanOrEqual(300)
    })
  },
)
