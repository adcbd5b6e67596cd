/** The committed CRDs are exactly the generator's output, and the generated schemas are structural. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KIND_DEFINITIONS } from '../../../src/api/kinds'
import { generateCrd } from '../../../src/crd/generate'
import { renderCrdFiles } from '../../../src/crd/render'
import type { JsonSchema } from '../../../src/crd/structural-schema'

const crdDirectory = join(import.meta.dirname, '..', '..', '..', 'infra', 'crds')

type Visit = (node: JsonSchema, path: string) => void

/** The schemas directly under `node`: its properties, its items and its additionalProperties. */
function children(node: JsonSchema, path: string): Array<[JsonSchema, string]> {
  const out = Object.entries((node.properties ?? {}) as Record<string, JsonSchema>).map(
    ([name, child]): [JsonSchema, string] => [child, `${path}.${name}`],
  )
  if (node.items) out.push([node.items as JsonSchema, `${path}[]`])
  if (typeof node.additionalProperties === 'object')
    out.push([node.additionalProperties as JsonSchema, `${path}{}`])
  return out
}

/**
 * Calls `visit` on `node` and every schema below it; returns how many it visited, which the tests
 * check is more than `node`'s direct children, so an assertion inside `visit` cannot pass vacuously.
 */
function walk(node: JsonSchema, path: string, visit: Visit): number {
  visit(node, path)
  let visited = 1
  for (const [child, childPath] of children(node, path)) visited += walk(child, childPath, visit)
  return visited
}

function versionSchemas() {
  return KIND_DEFINITIONS.flatMap((definition) => {
    const crd = generateCrd(definition) as {
      spec: { versions: { name: string; schema: { openAPIV3Schema: JsonSchema } }[] }
    }
    return crd.spec.versions.map(
      (v) => [`${definition.kind} ${v.name}`, v.schema.openAPIV3Schema] as const,
    )
  })
}

describe('committed CRDs', () => {
  it('match the generator output (run `npx tsx scripts/generate-crds.ts` after changing src/api)', () => {
    const expected = renderCrdFiles()
    expect(readdirSync(crdDirectory).sort()).toEqual([...expected.keys()].sort())
    for (const [name, content] of expected) {
      expect(readFileSync(join(crdDirectory, name), 'utf8'), name).toBe(content)
    }
  })
})

describe.each(versionSchemas())('%s schema', (name, schema) => {
  it('is structural: no $ref, no additionalProperties false, no types inside anyOf', () => {
    const visited = walk(schema, '', (node, path) => {
      expect(node, path).not.toHaveProperty('$ref')
      expect(node.additionalProperties, path).not.toBe(false)
      expect(node, path).not.toHaveProperty('anyOf')
      if (node.properties !== undefined)
        expect(node, path).not.toHaveProperty('additionalProperties')
    })
    expect(visited).toBeGreaterThan(children(schema, '').length + 1)
  })

  it('describes every field of spec and status (kubectl explain)', () => {
    const spec = (schema.properties as Record<string, JsonSchema>).spec as JsonSchema
    const status = (schema.properties as Record<string, JsonSchema>).status as JsonSchema
    for (const [root, node] of [
      ['.spec', spec],
      ['.status', status],
    ] as const) {
      const visited = walk(node, root, (child, path) =>
        expect(child.description, path).toBeTruthy(),
      )
      expect(visited, root).toBeGreaterThan(children(node, root).length)
    }
  })

  it('preserves unknown fields only for provider data', () => {
    const preserved: string[] = []
    walk(schema, '', (node, path) => {
      if (node['x-kubernetes-preserve-unknown-fields'] === true) preserved.push(path)
    })
    for (const path of preserved) expect(path).toMatch(/\.(value|providerSpec|providerStatus)$/)
    // Every kind but MachineHealthCheck carries provider data somewhere (a template's spec too).
    expect(preserved.length > 0, 'provider data found').toBe(!name.startsWith('MachineHealthCheck'))
  })
})

describe('CRD shape', () => {
  it.each(KIND_DEFINITIONS.map((d) => [d.kind, d] as const))(
    '%s has subresources, names and columns',
    (kind, definition) => {
      const crd = generateCrd(definition) as { spec: Record<string, unknown> }
      const names = crd.spec.names as { shortNames: string[]; categories: string[] }
      expect(names.categories).toEqual(['machine-api'])
      expect(names.shortNames.length).toBeGreaterThan(0)
      const versions = crd.spec.versions as {
        name: string
        storage: boolean
        subresources: Record<string, unknown>
        additionalPrinterColumns: unknown[]
      }[]
      expect(versions.filter((v) => v.storage).map((v) => v.name)).toEqual(['v1beta1'])
      for (const version of versions) {
        expect(version.subresources).toHaveProperty('status')
        expect(version.additionalPrinterColumns.length).toBeGreaterThan(1)
        const scalable = kind === 'MachineSet' || kind === 'MachineDeployment'
        expect(version.subresources.scale !== undefined).toBe(scalable)
      }
    },
  )
})
