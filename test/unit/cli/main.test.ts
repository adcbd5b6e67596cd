/**
 * The CLI in-process with fake I/O: help for every command and flag, exit code 2 with usage for
 * unknown commands and flags, configuration errors naming the flag or variable, and the commands
 * that need no cluster (crds; manifests and dev outside a source checkout).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import type { CliIo } from '../../../src/cli/command'
import { cliCommands, runCli } from '../../../src/cli/main'

function fakeIo(env: NodeJS.ProcessEnv = {}, packageRoot = process.cwd()) {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env,
    packageRoot,
  }
  return { io, stdout: () => out.join(''), stderr: () => err.join('') }
}

async function cli(argv: string[], env: NodeJS.ProcessEnv = {}, root?: string) {
  const f = fakeIo(env, root)
  const code = await runCli(argv, f.io)
  return { code, stdout: f.stdout(), stderr: f.stderr() }
}

describe('machine-api help', () => {
  it('lists every command on --help and exits 0', async () => {
    const { code, stdout } = await cli(['--help'])
    expect(code).toBe(0)
    for (const c of [
      'dev',
      'webhook',
      'reconcile',
      'worker',
      'sweep',
      'ec2-notices',
      'crds',
      'manifests',
      'plan',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${c} +\\S`, 'm'))
    }
  })

  it('prints usage to stderr and exits 2 without a command', async () => {
    const { code, stderr } = await cli([])
    expect(code).toBe(2)
    expect(stderr).toContain('Usage: machine-api <command>')
  })

  it.each(cliCommands().map((c) => [c.name, c] as const))(
    'documents every flag of %s',
    async (name, command) => {
      const { code, stdout } = await cli([name, '--help'])
      expect(code).toBe(0)
      expect(stdout).toContain(`Usage: machine-api ${name}`)
      for (const flag of Object.keys(command.flags)) expect(stdout).toContain(`--${flag}`)
      for (const variable of Object.keys(command.env ?? {})) expect(stdout).toContain(variable)
      expect(await cli(['help', name])).toMatchObject({ code: 0, stdout })
    },
  )
})

describe('machine-api usage errors', () => {
  it.each([
    { argv: ['deploy'], message: 'unknown command "deploy"' },
    { argv: ['worker', '--nope'], message: "Unknown option '--nope'" },
    { argv: ['crds', 'extra'], message: "Unexpected argument 'extra'" },
    { argv: ['plan'], message: '--filename: is required' },
    { argv: ['plan', '-f'], message: "Option '-f, --filename <value>' argument missing" },
    { argv: ['plan', '-f', 'x.yaml', '-o', 'yaml'], message: '--output: Invalid option' },
    { argv: ['manifests', '--overlay', 'helm'], message: '--overlay: Invalid option' },
    { argv: ['sweep', '--orphans', 'maybe'], message: '--orphans: Invalid option' },
  ])('$argv exits 2: $message', async ({ argv, message }) => {
    const { code, stderr } = await cli(argv)
    expect(code).toBe(2)
    expect(stderr).toContain(message)
  })

  it('names every invalid flag and variable at once', async () => {
    const { code, stderr } = await cli(['worker', '--bus', 'kafka'], {
      CONCURRENCY: 'lots',
      PORT: '70000',
    })
    expect(code).toBe(2)
    expect(stderr).toContain(
      '--bus: Invalid option: expected one of "in-process"|"jetstream" (got "kafka")',
    )
    expect(stderr).toContain('$CONCURRENCY: must be a whole number (got "lots")')
    expect(stderr).toContain('$PORT: Too big')
    expect(stderr).toContain('Run `machine-api worker --help` for usage.')
  })

  it('rejects an invalid $ORPHAN_SWEEP before touching a cluster', async () => {
    const { code, stderr } = await cli(['sweep'], { ORPHAN_SWEEP: 'delete' })
    expect(code).toBe(2)
    expect(stderr).toContain('$ORPHAN_SWEEP: Invalid option')
  })

  it('rejects a bad $WEBHOOK_PORT before serving', async () => {
    const { code, stderr } = await cli(['webhook'], { WEBHOOK_PORT: 'https' })
    expect(code).toBe(2)
    expect(stderr).toContain('$WEBHOOK_PORT: must be a whole number')
  })
})

describe('machine-api commands without a cluster', () => {
  it('crds prints one CRD per kind', async () => {
    const { code, stdout } = await cli(['crds'])
    expect(code).toBe(0)
    const docs = parseAllDocuments(stdout)
    const crds = (Array.isArray(docs) ? docs : [docs]).map(
      (d) => d.toJS() as { kind: string; metadata: { name: string } },
    )
    expect(crds.map((c) => c.metadata.name).sort()).toEqual([
      'machineclasses.machine-api.dev',
      'machinedeployments.machine-api.dev',
      'machinehealthchecks.machine-api.dev',
      'machines.machine-api.dev',
      'machinesets.machine-api.dev',
    ])
    expect(new Set(crds.map((c) => c.kind))).toEqual(new Set(['CustomResourceDefinition']))
  })

  it('manifests and dev explain that they need a source checkout', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'machine-api-cli-'))
    const manifests = await cli(['manifests'], {}, empty)
    expect(manifests.code).toBe(1)
    expect(manifests.stderr).toContain('needs the infra/ directory of a source checkout')
    const dev = await cli(['dev', '--provider', 'kwok'], {}, empty)
    expect(dev.code).toBe(1)
    expect(dev.stderr).toContain('the demo needs a source checkout')
  })

  it('manifests says where to get kubectl when there is none', async () => {
    const root = mkdtempSync(join(tmpdir(), 'machine-api-cli-'))
    mkdirSync(join(root, 'infra', 'overlays', 'plain'), { recursive: true })
    writeFileSync(join(root, 'infra', 'overlays', 'plain', 'kustomization.yaml'), 'resources: []\n')
    const { code, stderr } = await cli(['manifests', '--overlay', 'plain'], { PATH: '' }, root)
    expect(code).toBe(1)
    expect(stderr).toContain('kubectl not found; put it on PATH or set $KUBECTL')
  })

  it('plan reports an unreadable or unsuitable manifest with exit code 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'machine-api-cli-'))
    const missing = await cli(['plan', '-f', join(dir, 'missing.yaml')])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain('cannot read')
    const file = join(dir, 'machine.yaml')
    writeFileSync(file, 'apiVersion: machine-api.dev/v1beta1\nkind: Machine\nmetadata: {name: m}\n')
    const wrongKind = await cli(['plan', '-f', file])
    expect(wrongKind.code).toBe(1)
    expect(wrongKind.stderr).toContain('exactly one MachineDeployment or MachineSet, found 0')
  })
})

describe('machine-api dev interrupt', () => {
  // No demo session in these tests' temp directory matters: each case fails before reading it.
  it('is listed in dev --help and documents its own flags', async () => {
    expect((await cli(['dev', '--help'])).stdout).toMatch(/dev interrupt <machine> +send an EC2/)
    const { code, stdout } = await cli(['dev', 'interrupt', '--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('Usage: machine-api dev interrupt [flags] <machine>')
    expect(stdout).toContain('--kind spot|rebalance|maintenance|stopping|terminated')
  })

  it.each([
    ['no Machine named', [], 'name exactly one Machine'],
    ['two Machines named', ['a', 'b'], 'name exactly one Machine'],
    ['an unknown kind', ['a', '--kind', 'meteor'], '--kind'],
    ['a queue URL that is not one', ['a', '--queue-url', 'not a url'], '--queue-url'],
  ])('exits 2 on %s, naming what is wrong', async (_name, args, message) => {
    const { code, stderr } = await cli(['dev', 'interrupt', ...args])
    expect(code).toBe(2)
    expect(stderr).toContain(`machine-api dev interrupt: `)
    expect(stderr).toContain(message)
  })

  it('takes no positional in a command without arguments', async () => {
    const { code, stderr } = await cli(['sweep', 'extra'])
    expect(code).toBe(2)
    expect(stderr).toContain('Unexpected argument')
  })
})
