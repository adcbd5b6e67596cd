/**
 * The build (scripts/build/plugins.mjs) keeps two parts of @kubernetes/client-node's dependencies
 * out of every function: whatwg-url under node-fetch, and client-node's generated models and API
 * classes under KubeConfig. Both rest on what the pinned packages' source does; these tests read
 * that source, so an upgrade that changes it fails here instead of breaking the functions.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { plugins } from '../../../scripts/build/plugins.mjs'

const read = (path: string) => readFileSync(path, 'utf8')
const clientNodeGen = 'node_modules/@kubernetes/client-node/dist/gen'

/** The inputs of a split build of `entry` that it runs at start (as in function-bundles.test). */
async function startInputs(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    splitting: true,
    outdir: 'dist-test',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins,
  })
  const outputs = result.metafile.outputs
  const start = Object.keys(outputs).find((o) => outputs[o]?.entryPoint === entry) ?? ''
  const seen = new Set<string>()
  const visit = (output: string) => {
    if (seen.has(output)) return
    seen.add(output)
    for (const i of outputs[output]?.imports ?? []) {
      if (i.kind === 'import-statement' && !i.external) visit(i.path)
    }
  }
  visit(start)
  return [...seen].flatMap((o) => Object.keys(outputs[o]?.inputs ?? {}))
}

describe('build plugins', () => {
  it.each(['lib/index.js', 'lib/index.mjs'])(
    "node-fetch's %s uses whatwg-url only as the fallback for a missing url.URL",
    (file) => {
      const source = read(join('node_modules/node-fetch', file))
      const uses = source.split('\n').filter((line) => line.includes('whatwgUrl'))
      const fallbacks = uses.filter((line) => /= Url\.URL \|\| whatwgUrl\.URL;$/.test(line))
      const imports = uses.filter((line) => /whatwgUrl\b.*['"]whatwg-url['"]/.test(line))
      expect(fallbacks.length).toBeGreaterThan(0)
      expect(imports).toHaveLength(1)
      expect(uses).toHaveLength(fallbacks.length + imports.length)
      // `Url` is Node's url module, which has URL on every Node this project supports.
      expect(source).toMatch(/(require\('url'\)|import Url from 'url')/)
    },
  )

  it("client-node's KubeConfig imports only createConfiguration and ServerConfiguration from gen/index.js", () => {
    const config = read('node_modules/@kubernetes/client-node/dist/config.js')
    const fromGen = [...config.matchAll(/import \{([^}]*)\} from '\.\/gen\/index\.js'/g)]
    expect(fromGen.map((m) => m[1]?.replace(/\s/g, ''))).toEqual([
      'createConfiguration,ServerConfiguration,',
    ])
  })

  it("client-node's generated modules only declare things at top level (skipping them changes nothing else)", () => {
    const files = readdirSync(clientNodeGen, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.js'))
      .map((file) => join(clientNodeGen, file))
    expect(files.length).toBeGreaterThan(100)
    const others: string[] = []
    for (const file of files) {
      const source = read(file).replace(/\/\*[\s\S]*?\*\//g, '')
      const declared = new Set(
        [...source.matchAll(/^(?:export )?(?:class|function|const|let|var) ([\w$]+)/gm)].map(
          (m) => m[1],
        ),
      )
      for (const line of source.split('\n')) {
        if (
          /^(\s|$|;|import |export |\/\/|}|\]|\)|class |(async )?function |const |let |var )/.test(
            line,
          )
        ) {
          continue
        }
        // Static fields of the file's own classes, and TypeScript's enum initialisers.
        const own = line.match(/^([\w$]+)\.[\w$]+ = /) ?? line.match(/^\(function \(([\w$]+)\) \{$/)
        if (own && declared.has(own[1])) continue
        others.push(`${file}: ${line}`)
      }
    }
    expect(others).toEqual([])
  })

  it('the worker starts without whatwg-url, tr46 or the generated Kubernetes models', async () => {
    const inputs = await startInputs('functions/worker.ts')
    expect(inputs).toContain('node_modules/@kubernetes/client-node/dist/config.js')
    expect(inputs).toContain('node_modules/node-fetch/lib/index.js')
    expect(
      inputs.filter((i) => /whatwg-url|tr46|client-node\/dist\/gen\/(models|types|index)/.test(i)),
    ).toEqual([])
  }, 60_000)
})
