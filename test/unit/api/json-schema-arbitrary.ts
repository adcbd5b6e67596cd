/** @module fast-check arbitraries derived from a zod schema (through its JSON schema), for property tests. */
import fc from 'fast-check'
import { z } from 'zod'

type Node = { [key: string]: unknown }

const keyArbitrary = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/)
const freeJson = fc.dictionary(
  keyArbitrary,
  fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.integer(),
    fc.boolean(),
    fc.array(fc.integer(), { maxLength: 3 }),
  ),
  { maxKeys: 3 },
)

/** An arbitrary of values the zod schema accepts as input (filtered through safeParse). */
export function arbitraryFor(schema: z.ZodType): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    reused: 'inline',
  }) as Node
  return fromNode(json).filter((value) => schema.safeParse(value).success)
}

function fromNode(node: Node): fc.Arbitrary<unknown> {
  if (Array.isArray(node.anyOf)) return fc.oneof(...(node.anyOf as Node[]).map(fromNode))
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as unknown[]))
  if (node.const !== undefined) return fc.constant(node.const)
  switch (node.type) {
    case 'object':
      return objectArbitrary(node)
    case 'array':
      return fc.array(fromNode((node.items ?? {}) as Node), {
        minLength: Number(node.minItems ?? 0),
        maxLength: Math.min(Number(node.maxItems ?? 3), 3),
      })
    case 'string':
      return stringArbitrary(node)
    case 'integer':
    case 'number':
      return fc.integer({
        min: Math.max(Number(node.minimum ?? -1000), -1000),
        max: Math.min(Number(node.maximum ?? 100_000), 100_000),
      })
    case 'boolean':
      return fc.boolean()
    default:
      return freeJson
  }
}

function objectArbitrary(node: Node): fc.Arbitrary<unknown> {
  const properties = node.properties as Record<string, Node> | undefined
  if (properties === undefined) {
    const values = node.additionalProperties
    if (values && typeof values === 'object' && Object.keys(values).length > 0) {
      return fc.dictionary(keyArbitrary, fromNode(values as Node), { maxKeys: 3 })
    }
    return freeJson
  }
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, child]) => [key, fromNode(child)]),
  )
  return fc.record(model, { requiredKeys: (node.required ?? []) as string[] })
}

function stringArbitrary(node: Node): fc.Arbitrary<string> {
  const min = Number(node.minLength ?? 0)
  const max = Math.min(Number(node.maxLength ?? 12), 40)
  if (node.format === 'date-time') {
    return fc
      .date({
        min: new Date('2000-01-01T00:00:00Z'),
        max: new Date('2100-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString())
  }
  if (typeof node.pattern === 'string') {
    return fc
      .stringMatching(new RegExp(node.pattern))
      .filter((value) => value.length >= min && value.length <= Number(node.maxLength ?? Infinity))
  }
  return fc.string({ minLength: min, maxLength: Math.max(min, max) })
}
