/**
 * Objects nested thousands of levels deep (issue 33: /convert and /mutate answered 500 with a
 * stack overflow): admission refuses them naming where the bound is passed, before any handler
 * walks them; conversion converts what it can serialize and fails the review with the object's
 * index for the rest, never throwing.
 */
import { describe, expect, it } from 'vitest'
import { HUB_API_VERSION, SPOKE_API_VERSION } from '../../../src/api/group'
import {
  depthError,
  forbiddenKeyError,
  providerDataSizeError,
} from '../../../src/api/validation/json-bounds'
import { boundsDenial } from '../../../src/webhooks/admission/bounds'
import { convertReviewJson } from '../../../src/webhooks/conversion/convert-review'
import type { AdmissionRequest } from '../../../src/webhooks/review'

// Built from text: JSON.parse nests without recursion, a literal built in JS would need a loop.
const nested = (levels: number): unknown =>
  JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)

function machine(apiVersion: string, providerStatus: unknown) {
  return {
    apiVersion,
    kind: 'Machine',
    metadata: { name: 'm', namespace: 'ns' },
    spec: { providerSpec: { provider: 'kwok', value: {} } },
    status: { providerStatus },
  }
}

function request(object: unknown, subResource?: string): AdmissionRequest {
  return {
    uid: 'u',
    kind: { group: 'machine-api.dev', version: 'v1beta1', kind: 'Machine' },
    operation: 'UPDATE',
    name: 'm',
    object: object as Record<string, unknown>,
    ...(subResource ? { subResource } : {}),
  }
}

describe('depth bound', () => {
  it('names the path where an object passes 64 levels, shortened', () => {
    const error = depthError(machine(HUB_API_VERSION, nested(100)), '')
    expect(error?.path).toMatch(/^status\.providerStatus\.a\.a\..*\.\.\.$/)
    expect(error?.message).toBe('Invalid value: nested deeper than 64 levels')
  })

  it('accepts an object nested to the bound', () => {
    // The Machine and its status are 2 levels; providerStatus brings the other 62.
    expect(depthError(machine(HUB_API_VERSION, nested(62)), '')).toBeUndefined()
    expect(depthError(machine(HUB_API_VERSION, nested(63)), '')).toBeDefined()
  })

  it.each([100, 10_000, 200_000])('walks %i levels without overflowing the stack', (levels) => {
    expect(depthError(nested(levels), '')).toBeDefined()
  })

  it.each([undefined, '', 'status'])(
    'refuses a deep object with a 422 naming the field (subresource %s)',
    (subResource) => {
      const denial = boundsDenial(request(machine(HUB_API_VERSION, nested(5000)), subResource))
      expect(denial?.allowed).toBe(false)
      expect(denial?.status?.code).toBe(422)
      expect(denial?.status?.message).toMatch(/^Machine "m" is invalid: status\.providerStatus\.a/)
    },
  )

  it('finds a __proto__ key anywhere in provider data', () => {
    const value = JSON.parse('{"tags":[{"x":{"__proto__":{"polluted":true}}}]}')
    expect(forbiddenKeyError(value, 'spec.providerSpec')?.path).toBe('spec.providerSpec.tags[0].x')
  })
})

describe('conversion of deep objects', () => {
  const review = (objects: unknown[], desiredAPIVersion: string) =>
    JSON.parse(convertReviewJson({ uid: 'u', desiredAPIVersion, objects })) as {
      response: { convertedObjects: unknown[]; result: { status: string; message?: string } }
    }

  it.each([
    [HUB_API_VERSION, SPOKE_API_VERSION],
    [SPOKE_API_VERSION, HUB_API_VERSION],
  ])('converts a status 1,000 levels deep from %s to %s', (from, to) => {
    const answer = review([machine(from, nested(1000))], to)
    expect(answer.response.result.status).toBe('Success')
    expect(answer.response.convertedObjects).toHaveLength(1)
  })

  it.each([
    [HUB_API_VERSION, SPOKE_API_VERSION],
    [SPOKE_API_VERSION, HUB_API_VERSION],
  ])('fails the review naming the object nested 10,000 levels deep, %s to %s', (from, to) => {
    const answer = review([machine(from, {}), machine(from, nested(10_000))], to)
    expect(answer.response.result).toEqual({
      status: 'Failure',
      message: 'objects[1]: nested too deeply to convert',
    })
  })
})

describe('provider data size', () => {
  const big = { blob: 'x'.repeat(70_000) }

  it('refuses a status write whose providerStatus is over 64 Ki characters of JSON', () => {
    const denial = boundsDenial(request(machine(HUB_API_VERSION, big), 'status'))
    expect(denial?.status?.message).toMatch(
      /status\.providerStatus: Too long: must be at most 65536/,
    )
  })

  it('lets a status write with a small providerStatus through', () => {
    expect(boundsDenial(request(machine(HUB_API_VERSION, { state: 'running' }), 'status'))).toBe(
      undefined,
    )
  })

  it('refuses a provider spec over the bound, and one too deep without throwing', () => {
    expect(providerDataSizeError(big, 'spec.providerSpec.value')?.path).toBe(
      'spec.providerSpec.value',
    )
    expect(providerDataSizeError(nested(10_000), 'spec.providerSpec.value')?.message).toBe(
      'Invalid value: nested deeper than 64 levels',
    )
  })
})
