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

function walk(node: JsonSchema, path: string, visit: Visit): void {
  visit(node, path)
  for (const [name, child] of Object.entries(
    (node.properties ?? {}) as Record<string, JsonSchema>,
  )) {
    walk(child, `${path}.${name}`, visit)
  }
  if (node.items) walk(node.items as JsonSchema, `${path}[]`, visit)
  if (typeof node.additionalProperties === 'object')
    walk(node.additionalProperties as JsonSchema, `${path}{}`, visit)
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

describe.each(versionSchemas())('%s schema', (_name, schema) => {
  it('is structural: no $ref, no additionalProperties false, no types inside anyOf', () => {
    walk(schema, '', (node, path) => {
      expect(node, path).not.toHaveProperty('$ref')
      expect(node.additionalProperties, path).not.toBe(false)
      expect(node, path).not.toHaveProperty('anyOf')
      if (node.properties !== undefined)
        expect(node, path).not.toHaveProperty('additionalProperties')
    })
  })

  it('describes every field of spec and status (kubectl explain)', () => {
    const spec = (schema.properties as Record<string, JsonSchema>).spec as JsonSchema
    const status = (schema.properties as Record<string, JsonSchema>).status as JsonSchema
    for (const [root, node] of [
      ['.spec', spec],
      ['.status', status],
    ] as const) {
      walk(node, root, (child, path) => expect(child.description, path).toBeTruthy())
    }
  })

  it('preserves unknown fields only for provider data', () => {
    walk(schema, '', (node, path) => {
      if (node['x-kubernetes-preserve-unknown-fields'] === true) {
        expect(path).toMatch(/\.(value|providerSpec|providerStatus)$/)
      }
    })
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
