/** @module Builds the CustomResourceDefinition of each kind from its zod schemas (pure). */
import type { z } from 'zod'
import { API_GROUP, API_VERSIONS, HUB_VERSION } from '../api/group'
import type { KindDefinition } from '../api/kinds'
import { PRINTER_COLUMNS, SCALABLE_KINDS, SCALE_SUBRESOURCE } from './kind-presentation'
import { type JsonSchema, toStructuralSchema } from './structural-schema'

/** The category every kind joins, so `kubectl get machine-api` lists them all. */
export const CATEGORY = 'machine-api'

/** Where the apiserver sends ConversionReviews by default (the in-cluster webhook Service). */
export interface ConversionServiceRef {
  namespace: string
  name: string
  path: string
  port: number
}

/** The default in-cluster webhook Service the manifests in infra/webhook create. */
export const DEFAULT_CONVERSION_SERVICE: ConversionServiceRef = {
  namespace: 'machine-api-system',
  name: 'machine-api-webhook',
  path: '/convert',
  port: 443,
}

function versionSchema(
  definition: KindDefinition,
  version: (typeof API_VERSIONS)[number],
): JsonSchema {
  const object = definition.schemas[version]()
  const shape = object.shape as Record<string, z.ZodType>
  const spec = shape.spec
  const status = shape.status
  if (spec === undefined || status === undefined)
    throw new Error(`${definition.kind} lacks spec or status`)
  return {
    type: 'object',
    description: object.description ?? definition.kind,
    required: ['spec'],
    properties: {
      apiVersion: {
        type: 'string',
        description: 'The versioned schema of this representation of the object.',
      },
      kind: { type: 'string', description: 'The REST resource this object represents.' },
      metadata: { type: 'object' },
      spec: toStructuralSchema(spec),
      status: toStructuralSchema(status),
    },
  }
}

/** The CRD of one kind: both versions, status (and scale) subresources, columns, conversion. */
export function generateCrd(
  definition: KindDefinition,
  service: ConversionServiceRef = DEFAULT_CONVERSION_SERVICE,
): JsonSchema {
  const scalable = SCALABLE_KINDS.includes(definition.kind)
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${definition.plural}.${API_GROUP}` },
    spec: {
      group: API_GROUP,
      scope: 'Namespaced',
      names: {
        kind: definition.kind,
        listKind: definition.listKind,
        plural: definition.plural,
        singular: definition.singular,
        shortNames: definition.shortNames,
        categories: [CATEGORY],
      },
      versions: API_VERSIONS.map((version) => ({
        name: version,
        served: true,
        storage: version === HUB_VERSION,
        ...(version === HUB_VERSION
          ? {}
          : { deprecated: true, deprecationWarning: deprecation(definition) }),
        schema: { openAPIV3Schema: versionSchema(definition, version) },
        subresources: scalable ? { status: {}, scale: { ...SCALE_SUBRESOURCE } } : { status: {} },
        additionalPrinterColumns: PRINTER_COLUMNS[definition.kind],
      })),
      conversion: {
        strategy: 'Webhook',
        webhook: {
          conversionReviewVersions: ['v1'],
          clientConfig: { service: { ...service } },
        },
      },
    },
  }
}

function deprecation(definition: KindDefinition): string {
  return `${API_GROUP}/v1alpha1 ${definition.kind} is deprecated; use ${API_GROUP}/${HUB_VERSION}`
}
