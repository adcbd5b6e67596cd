/** @module `machine-api dev`: the one-command local demo (scripts/dev.sh of a source checkout). */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { CliCommand } from '../command'
import { devInterruptCommand } from './dev-interrupt'

/** `dev`: runs `bash scripts/dev.sh` with the flags given, in the foreground. */
export const devCommand: CliCommand = {
  name: 'dev',
  summary: 'run the local demo (control plane, moto EC2, machine-api) until Ctrl-C',
  description:
    'Starts a real control plane with kwok, a moto EC2 and SQS server and machine-api (webhook over TLS, CRDs, the in-process worker with the EC2 notice source on a moto queue), creates an example MachineDeployment and prints a live table of Machines until Ctrl-C. Same as `npm run dev`; needs a source checkout (the control-plane harness lives under test/). `machine-api dev interrupt <machine>` then sends an EC2 notice about one of its Machines.',
  flags: {
    provider: {
      type: 'string',
      value: 'aws|kwok',
      description: 'aws: EC2 instances on moto (default); kwok: simulated Nodes only',
    },
    kubeconfig: {
      type: 'string',
      value: 'PATH',
      description: 'use an existing cluster instead of starting one',
    },
  },
  subcommands: [devInterruptCommand],
  async run(values, io) {
    const script = join(io.packageRoot, 'scripts', 'dev.sh')
    if (!existsSync(script) || !existsSync(join(io.packageRoot, 'test', 'harness'))) {
      io.stderr(
        `machine-api dev: ${script} not found; the demo needs a source checkout (git clone the repository, then npm run dev)\n`,
      )
      return 1
    }
    const args = [script]
    if (typeof values.provider === 'string') args.push('--provider', values.provider)
    if (typeof values.kubeconfig === 'string') args.push('--kubeconfig', values.kubeconfig)
    // The demo owns the terminal; its exit code is ours. Ctrl-C reaches it through the process
    // group; we stay alive until it has stopped everything, and forward a SIGTERM sent to us.
    const child = spawn('bash', args, { stdio: 'inherit', cwd: io.packageRoot, env: io.env })
    process.on('SIGINT', () => {})
    process.on('SIGTERM', () => child.kill('SIGTERM'))
    return await new Promise<number>((resolve) => {
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 130 : 1)))
      child.on('error', () => resolve(1))
    })
  },
}
