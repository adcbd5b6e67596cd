/**
 * @module zod -> structural OpenAPI v3 schema, the dialect CRDs accept.
 * See https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema
 */
import { z } from 'zod'

/** A JSON schema node (the subset a CRD uses). */
export type JsonSchema = { [key: string]: unknown }

/**
 * Converts a zod schema to a structural schema: inline (no $ref), no `additionalProperties: false`,
 * int-or-string unions folded into `x-kubernetes-int-or-string`, defaults and descriptions kept.
 * Input-side conversion, so fields with zod defaults are optional and carry `default`.
 */
export function toStructuralSchema(schema: z.ZodType): JsonSchema {
  const raw = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io: 'input',
    unrepresentable: 'throw',
    reused: 'inline',
    cycles: 'throw',
  }) as JsonSchema
  delete raw.$schema
  return clean(raw)
}

// The safe-integer bounds zod adds to every z.int(); they say nothing for int32/int64 fields.
const SAFE_BOUND = Number.MAX_SAFE_INTEGER

function clean(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && (value === false || isEmptyObject(value))) continue
    if ((key === 'maximum' && value === SAFE_BOUND) || (key === 'minimum' && value === -SAFE_BOUND))
      continue
    out[key] = value
  }
  if (out['x-kubernetes-int-or-string'] === true) {
    // Structural schemas forbid types inside anyOf; the format is enforced by the webhook instead.
    delete out.anyOf
    delete out.type
  }
  if (out['x-kubernetes-preserve-unknown-fields'] === true) delete out.additionalProperties
  // zod's RFC 3339 regex uses look-arounds RE2 lacks; `format: date-time` is validated by the apiserver.
  if (out.format === 'date-time') delete out.pattern
  if (isRecord(out.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([name, child]) => [name, clean(child as JsonSchema)]),
    )
  }
  if (isRecord(out.items)) out.items = clean(out.items)
  if (isRecord(out.additionalProperties)) out.additionalProperties = clean(out.additionalProperties)
  return out
}

function isRecord(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isEmptyObject(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length === 0
}
