/**
 * Dependencies point down: the Kubernetes client, the API types, observability, the transports, the
 * webhook and the reconcile runtime never reach up into what builds on them (controllers, the CLI,
 * a concrete provider), and no module imports itself through a cycle.
 * Reads every src/**\/*.ts; a regex over import/export specifiers is enough for this code base.
 * Also: every `machine-api.dev/...` key is spelled once, in src/api/group.ts.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../../..')

/** The webhook and the composition roots: no layer imports them. */
const ROOTS = ['src/webhooks/', 'src/cli/', 'src/dev/', 'src/deps.ts']

/**
 * Layers that must not import the listed folders (paths relative to the repository), save the
 * folders in `except`. From the bottom: the top-level helpers (errors, clock, timers, pool), kube,
 * api, observability and http (the Hono app every server is), then bus, providers, drain and webhooks, then
 * reconcile/shared and reconcile/runtime, then the kinds (reconcile/<kind>/), and on top cli/ (the
 * composition roots, with the kind catalog), dev/ and deps.ts.
 */
const forbidden: ReadonlyArray<{
  from: string
  to: readonly string[]
  except?: readonly string[]
}> = [
  {
    from: 'src/kube/',
    to: [
      'src/api/',
      'src/observability/',
      'src/bus/',
      'src/providers/',
      'src/drain/',
      'src/reconcile/',
      ...ROOTS,
    ],
  },
  {
    from: 'src/api/',
    to: ['src/bus/', 'src/providers/', 'src/drain/', 'src/reconcile/', ...ROOTS],
  },
  {
    from: 'src/bus/',
    to: ['src/providers/aws/', 'src/providers/kwok/', 'src/reconcile/', ...ROOTS],
  },
  {
    from: 'src/observability/',
    to: ['src/api/', 'src/bus/', 'src/providers/', 'src/drain/', 'src/reconcile/', ...ROOTS],
  },
  {
    from: 'src/http/',
    to: ['src/api/', 'src/bus/', 'src/providers/', 'src/drain/', 'src/reconcile/', ...ROOTS],
  },
  {
    from: 'src/webhooks/',
    to: ['src/bus/', 'src/providers/', 'src/drain/', 'src/reconcile/', ...ROOTS],
    except: ['src/webhooks/'],
  },
  {
    from: 'src/reconcile/runtime/',
    to: ['src/reconcile/', 'src/providers/', ...ROOTS],
    except: ['src/reconcile/runtime/', 'src/reconcile/shared/'],
  },
  {
    from: 'src/reconcile/shared/',
    to: ['src/reconcile/', 'src/providers/', ...ROOTS],
    except: ['src/reconcile/shared/'],
  },
]

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`
    if (entry.isDirectory()) return sourceFiles(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

const specifier =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

/** The repository paths (with .ts) that `text`, the source of `file`, imports relatively. */
function importsOf(file: string, text: string, files: ReadonlySet<string>): string[] {
  const out: string[] = []
  for (const match of text.matchAll(specifier)) {
    const spec = match[1] ?? match[2] ?? match[3] ?? ''
    if (!spec.startsWith('.')) continue
    const base = normalize(join(dirname(file), spec)).replace(/\.(js|ts)$/, '')
    const target = [`${base}.ts`, `${base}/index.ts`].find((candidate) => files.has(candidate))
    if (target) out.push(target)
  }
  return out
}

/** The edges of `graph` that break a layering rule, as `from -> to`. */
function violations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = []
  for (const [from, targets] of graph) {
    for (const rule of forbidden) {
      if (!from.startsWith(rule.from)) continue
      for (const to of targets) {
        const allowed = rule.except?.some((prefix) => to.startsWith(prefix)) ?? false
        if (!allowed && rule.to.some((prefix) => to.startsWith(prefix)))
          out.push(`${from} -> ${to}`)
      }
    }
  }
  return out
}

/** Every cycle of `graph` (one per strongly connected component of two or more files, or a self-import). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string): void => {
    index.set(node, next)
    low.set(node, next)
    next += 1
    stack.push(node)
    onStack.add(node)
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0))
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string | undefined
    do {
      member = stack.pop()
      if (member === undefined) break
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

function srcGraph(): Map<string, string[]> {
  const files = sourceFiles('src')
  const known = new Set(files)
  return new Map(
    files.map((file) => [file, importsOf(file, readFileSync(join(root, file), 'utf8'), known)]),
  )
}

describe('the import graph of src/', () => {
  const graph = srcGraph()

  it('sees the imports of every file', () => {
    expect(graph.size).toBeGreaterThan(100)
    expect(graph.get('src/bus/sweep.ts')).toContain('src/kube/object-key.ts')
  })

  it('has kube, api, observability, http, bus, webhooks and the reconcile runtime import nothing above them', () => {
    expect(violations(graph)).toEqual([])
  })

  it('has no import cycle', () => {
    const found = cycles(graph).map((c) => c.map((f) => relative('src', f)).join(' <-> '))
    expect(found).toEqual([])
  })
})

describe('machine-api.dev keys', () => {
  it('are never spelled out as literals (src/api/group.ts builds them from API_GROUP)', () => {
    const spelled = sourceFiles('src').filter((file) => {
      const code = readFileSync(join(root, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '')
      return /['"`]machine-api\.dev\/[a-z]/.test(code)
    })
    expect(spelled).toEqual([])
  })
})

describe('the checks themselves', () => {
  const files = new Set([
    'src/kube/a.ts',
    'src/reconcile/b.ts',
    'src/providers/aws/c.ts',
    'src/bus/d.ts',
  ])

  it('resolves relative specifiers of every import form', () => {
    const text = [
      "import { x } from '../reconcile/b'",
      "import type {\n  Y,\n} from '../providers/aws/c.js'",
      "export * from '../bus/d'",
      "import 'node:fs'",
      "const lazy = import('../reconcile/b')",
    ].join('\n')
    expect(importsOf('src/kube/a.ts', text, files)).toEqual([
      'src/reconcile/b.ts',
      'src/providers/aws/c.ts',
      'src/bus/d.ts',
      'src/reconcile/b.ts',
    ])
  })

  it('flags an upward import and a cycle', () => {
    const graph = new Map([
      ['src/bus/d.ts', ['src/reconcile/b.ts']],
      ['src/reconcile/b.ts', ['src/kube/a.ts']],
      ['src/kube/a.ts', ['src/reconcile/b.ts']],
      ['src/observability/e.ts', ['src/bus/d.ts', 'src/kube/a.ts']],
      [
        'src/reconcile/runtime/f.ts',
        ['src/reconcile/machine/g.ts', 'src/reconcile/shared/h.ts', 'src/cli/i.ts'],
      ],
    ])
    expect(violations(graph)).toEqual([
      'src/bus/d.ts -> src/reconcile/b.ts',
      'src/kube/a.ts -> src/reconcile/b.ts',
      'src/observability/e.ts -> src/bus/d.ts',
      'src/reconcile/runtime/f.ts -> src/reconcile/machine/g.ts',
      'src/reconcile/runtime/f.ts -> src/cli/i.ts',
    ])
    expect(cycles(graph)).toEqual([['src/kube/a.ts', 'src/reconcile/b.ts']])
  })
})
