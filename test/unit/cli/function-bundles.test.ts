/**
 * Each function bundle carries only its own command: the webhook's cold start must not parse the
 * AWS SDK, NATS and every other command (it once bundled the whole CLI, 7.6 MB per function).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { type BuildOptions, build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { plugins } from '../../../scripts/build/plugins.mjs'

// What scripts/build.mjs passes esbuild, minus what does not change which inputs are bundled.
const buildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  write: false,
  metafile: true,
  logLevel: 'silent',
  plugins,
} as const satisfies BuildOptions

async function bundledInputs(entry: string): Promise<string[]> {
  const result = await build({ ...buildOptions, entryPoints: [entry] })
  return Object.keys(result.metafile.inputs)
}

/**
 * The inputs a split build of `entry` (as scripts/build.mjs makes it) runs at start: the entry and
 * the chunks it imports statically, transitively; import() chunks load later.
 */
async function startInputs(entry: string): Promise<string[]> {
  const result = await build({
    ...buildOptions,
    entryPoints: [entry],
    splitting: true,
    outdir: 'dist-test',
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

describe('function bundles', () => {
  it('the webhook starts without the handlers, prom-client or the Kubernetes client', async () => {
    const inputs = await startInputs('functions/webhook.ts')
    expect(inputs).toContain('src/webhooks/app.ts')
    expect(inputs).not.toContain('src/webhooks/review-endpoints.ts')
    expect(inputs.filter((i) => /prom-client|client-node|src\/api\//.test(i))).toEqual([])
  }, 60_000)

  it('the worker starts without the AWS SDK or NATS (loaded on first use / for --bus jetstream)', async () => {
    const inputs = await startInputs('functions/worker.ts')
    expect(inputs).toContain('src/providers/aws/lazy-provider.ts')
    expect(inputs.filter((i) => /@aws-sdk|@smithy|@nats-io/.test(i))).toEqual([])
  }, 60_000)

  it('the worker starts without zod (settings checked by hand, schemas loaded by the reconciles)', async () => {
    const inputs = await startInputs('functions/worker.ts')
    expect(inputs).toContain('src/cli/runtime-settings.ts')
    expect(inputs.filter((i) => /node_modules\/zod\//.test(i))).toEqual([])
  }, 60_000)

  it('the worker starts without the generated Kubernetes models', async () => {
    const inputs = await startInputs('functions/worker.ts')
    expect(inputs).toContain('node_modules/@kubernetes/client-node/dist/config.js')
    expect(inputs.filter((i) => /client-node\/dist\/gen\/(models|types|index)/.test(i))).toEqual([])
  }, 60_000)

  it("no function loads prom-client's Summary, Pushgateway or cluster aggregator (none is used)", async () => {
    for (const name of ['worker', 'webhook']) {
      const inputs = await bundledInputs(`functions/${name}.ts`)
      expect(inputs).toContain('node_modules/prom-client/lib/registry.js')
      expect(
        inputs.filter((i) =>
          /prom-client\/(index|lib\/(summary|pushgateway|cluster))\.js|tdigest|bintrees/.test(i),
        ),
      ).toEqual([])
    }
  }, 60_000)

  it('no function imports node:http, node:util or node:process as an ES module (their facade loads undici on Node 24)', async () => {
    const result = await build({
      ...buildOptions,
      entryPoints: ['functions/webhook.ts', 'functions/worker.ts', 'functions/reconcile.ts'],
      splitting: true,
      outdir: 'dist-test',
    })
    const esmImports = result.outputFiles.flatMap((file) =>
      [...file.text.matchAll(/(?:from\s*|import\s*\(?\s*)"(?:node:)?(?:http|util|process)"/g)].map(
        (m) => `${file.path}: ${m[0]}`,
      ),
    )
    expect(esmImports).toEqual([])
    const required = result.outputFiles.filter((file) => file.text.includes('("node:http")'))
    expect(required.length).toBeGreaterThan(0)
  }, 60_000)

  it('the webhook bundles neither the CLI dispatcher nor the AWS SDK or NATS', async () => {
    const inputs = await bundledInputs('functions/webhook.ts')
    expect(inputs).toContain('src/cli/commands/webhook.ts')
    expect(inputs.filter((i) => i.startsWith('src/cli/commands/'))).toEqual([
      'src/cli/commands/webhook.ts',
    ])
    expect(inputs).not.toContain('src/cli/main.ts')
    expect(inputs.filter((i) => /@aws-sdk|@nats-io/.test(i))).toEqual([])
  }, 60_000)

  it('the EC2 notice source bundles neither the controllers nor NATS', async () => {
    const inputs = await bundledInputs('functions/ec2-notices.ts')
    expect(inputs).toContain('src/bus/ec2-notices/sqs-source.ts')
    expect(inputs.filter((i) => /src\/reconcile\/machine(-set)?\/|@nats-io/.test(i))).toEqual([])
  }, 60_000)

  it.each(['worker', 'reconcile', 'sweep', 'ec2-notices'])(
    '%s bundles its own command only',
    async (name) => {
      const inputs = await bundledInputs(`functions/${name}.ts`)
      expect(inputs.filter((i) => i.startsWith('src/cli/commands/'))).toEqual([
        `src/cli/commands/${name}.ts`,
      ])
    },
    60_000,
  )
})

describe('a bundle loading the AWS SDK on first use', () => {
  it('gets its classes (a CommonJS package imported from an import() chunk keeps its named exports)', async () => {
    const outdir = mkdtempSync(join(tmpdir(), 'machine-api-bundle-'))
    try {
      // The worker's way of loading the notice source's clients, bundled as scripts/build.mjs does.
      await build({
        ...buildOptions,
        write: true,
        splitting: true,
        outdir,
        stdin: {
          contents:
            "const sdk = await import('./src/cli/entry/ec2-notice-sdk'); console.log(typeof sdk.SQSClient, typeof sdk.EC2Client)",
          resolveDir: process.cwd(),
          loader: 'ts',
        },
        banner: {
          js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
        },
      })
      const { stdout } = await promisify(execFile)(process.execPath, [join(outdir, 'stdin.js')])
      expect(stdout.trim()).toBe('function function')
    } finally {
      rmSync(outdir, { recursive: true, force: true })
    }
  }, 120_000)
})
