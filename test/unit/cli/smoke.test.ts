/**
 * The real `machine-api` process (functions/cli.ts through tsx, as the bundle runs it): help,
 * exit codes, and `crds | head` ending quietly when the reader goes away.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const run = promisify(execFile)
const node = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'functions/cli.ts', ...args], { encoding: 'utf8' })

// Each run transpiles the whole CLI through tsx: seconds, not milliseconds.
describe('machine-api process', { timeout: 30_000 }, () => {
  it('starts with a shebang so npm can link it as a bin', () => {
    expect(readFileSync('functions/cli.ts', 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node')
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { bin?: Record<string, string> }
    expect(pkg.bin?.['machine-api']).toBe('dist/cli.js')
  })

  it('prints help and exits 0', async () => {
    const { stdout } = await node(['--help'])
    expect(stdout).toContain('Usage: machine-api <command>')
  })

  it('exits 2 on an unknown command', async () => {
    await expect(node(['frobnicate'])).rejects.toMatchObject({ code: 2 })
  })

  it('crds | head -n 3 exits 0 with the first lines', async () => {
    const { stdout } = await run(
      'bash',
      [
        '-o',
        'pipefail',
        '-c',
        `"${process.execPath}" --import tsx functions/cli.ts crds | head -n 3`,
      ],
      { encoding: 'utf8' },
    )
    expect(stdout.split('\n').slice(0, 2)).toEqual([
      'apiVersion: apiextensions.k8s.io/v1',
      'kind: CustomResourceDefinition',
    ])
  })
})
