/**
 * The build (scripts/build/plugins.mjs) keeps parts of packages the functions never run out of
 * what they load: client-node's generated models and API classes under KubeConfig, and
 * prom-client's Summary, Pushgateway and cluster aggregator. Each rests on what the pinned
 * package's source does; these tests read that source, so an upgrade that changes
 * it fails here instead of breaking the functions (function-bundles.test checks that the functions
 * start without what they leave out).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const read = (path: string) => readFileSync(path, 'utf8')
const clientNodeGen = 'node_modules/@kubernetes/client-node/dist/gen'

describe('build plugins', () => {
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

  it("prom-client's index exports the parts machine-api uses from their own files, and requires the rest only to export it", () => {
    const index = read('node_modules/prom-client/index.js')
    const exported = Object.fromEntries(
      [...index.matchAll(/^exports\.(\w+) = require\('(\.\/lib\/\w+)'\)(\.\w+)?;$/gm)].map((m) => [
        m[1],
        `${m[2]}${m[3] ?? ''}`,
      ]),
    )
    expect(exported).toMatchObject({
      Registry: './lib/registry',
      Counter: './lib/counter',
      Gauge: './lib/gauge',
      Histogram: './lib/histogram',
      collectDefaultMetrics: './lib/defaultMetrics',
    })
    // The index only assigns exports (one a getter on the global registry): skipping the
    // modules the substitute leaves out runs nothing else.
    const statements = index
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^Object\.defineProperty\(exports, '\w+', \{[\s\S]*?^\}\);$/m, '')
      .split(/;\n/)
      .map((statement) => statement.trim())
      .filter((statement) => statement !== '' && statement !== "'use strict'")
    expect(statements.length).toBeGreaterThan(10)
    expect(statements.filter((s) => !/^exports\.\w+ =\s/.test(s))).toEqual([])
    const parts = read('scripts/build/prom-client-parts.mjs')
    for (const file of ['registry', 'counter', 'gauge', 'histogram', 'defaultMetrics']) {
      expect(parts).toContain(`'prom-client/lib/${file}.js'`)
    }
  })
})
