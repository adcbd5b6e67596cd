/** Property tests: conversion between v1alpha1 and v1beta1 is lossless both ways for every kind. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { convertObject } from '../../../src/api/conversion/convert'
import { ANNOTATIONS, HUB_API_VERSION, SPOKE_API_VERSION } from '../../../src/api/group'
import { KIND_DEFINITIONS } from '../../../src/api/kinds'
import { arbitraryFor } from './json-schema-arbitrary'

const metadataArbitrary = fc.record(
  {
    name: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/),
    namespace: fc.constant('default'),
    uid: fc.uuid(),
    labels: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 8 }), {
      maxKeys: 2,
    }),
    annotations: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 8 }), {
      maxKeys: 2,
    }),
  },
  { requiredKeys: ['name', 'namespace', 'uid'] },
)

/** A whole object at one version: envelope + spec (+ status) generated from that version's schema. */
function objectArbitrary(schema: z.ZodObject, apiVersion: string, kind: string) {
  const shape = schema.shape as Record<string, z.ZodType>
  return fc.record(
    {
      apiVersion: fc.constant(apiVersion),
      kind: fc.constant(kind),
      metadata: metadataArbitrary,
      spec: arbitraryFor(shape.spec as z.ZodType),
      status: arbitraryFor((shape.status as z.ZodOptional<z.ZodType>).unwrap()),
    },
    { requiredKeys: ['apiVersion', 'kind', 'metadata', 'spec'] },
  )
}

// What the apiserver stores is JSON: undefined members vanish, so compare JSON forms.
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown

describe.each(KIND_DEFINITIONS.map((d) => [d.kind, d] as const))(
  '%s conversion',
  (kind, definition) => {
    it('v1beta1 -> v1alpha1 -> v1beta1 is the identity', () => {
      fc.assert(
        fc.property(objectArbitrary(definition.schemas.v1beta1(), HUB_API_VERSION, kind), (hub) => {
          const spoke = convertObject(json(hub), SPOKE_API_VERSION)
          expect(json(convertObject(json(spoke), HUB_API_VERSION))).toEqual(json(hub))
        }),
        { numRuns: 150 },
      )
    })

    it('v1beta1 -> v1alpha1 yields a valid v1alpha1 object (nothing for the apiserver to prune)', () => {
      fc.assert(
        fc.property(objectArbitrary(definition.schemas.v1beta1(), HUB_API_VERSION, kind), (hub) => {
          const spoke = convertObject(json(hub), SPOKE_API_VERSION)
          const result = definition.schemas.v1alpha1().safeParse(spoke)
          expect(result.error?.issues ?? []).toEqual([])
        }),
        { numRuns: 100 },
      )
    })

    it('v1alpha1 -> v1beta1 -> v1alpha1 is the identity', () => {
      fc.assert(
        fc.property(
          objectArbitrary(definition.schemas.v1alpha1(), SPOKE_API_VERSION, kind),
          (spoke) => {
            const hub = convertObject(json(spoke), HUB_API_VERSION)
            expect(hub.metadata).not.toHaveProperty(['annotations', ANNOTATIONS.conversionData])
            expect(json(convertObject(json(hub), SPOKE_API_VERSION))).toEqual(json(spoke))
          },
        ),
        { numRuns: 150 },
      )
    })
  },
)
