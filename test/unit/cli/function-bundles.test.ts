/**
 * Each function bundle carries only its own command: the webhook's cold start must not parse the
 * AWS SDK, NATS and every other command (it once bundled the whole CLI, 7.6 MB per function).
 */
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

async function bundledInputs(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  return Object.keys(result.metafile.inputs)
}

describe('function bundles', () => {
  it('the webhook bundles neither the CLI dispatcher nor the AWS SDK or NATS', async () => {
    const inputs = await bundledInputs('functions/webhook.ts')
    expect(inputs).toContain('src/cli/commands/webhook.ts')
    expect(inputs.filter((i) => i.startsWith('src/cli/commands/'))).toEqual([
      'src/cli/commands/webhook.ts',
    ])
    expect(inputs).not.toContain('src/cli/main.ts')
    expect(inputs.filter((i) => /@aws-sdk|@nats-io/.test(i))).toEqual([])
  }, 60_000)

  it.each(['worker', 'reconcile', 'sweep'])(
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
