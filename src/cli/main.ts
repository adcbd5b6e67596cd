/**
 * @module `machine-api <command>`: dispatch, help and exit codes (0 done, 1 failed, 2 wrong usage
 * or configuration). Commands write through the injected I/O, so tests run them in-process.
 */
import type { CliCommand, CliIo, CommandOutcome } from './command'
import { adoptCommand } from './commands/adopt'
import { crdsCommand } from './commands/crds'
import { devCommand } from './commands/dev'
import { ec2NoticesCommand } from './commands/ec2-notices'
import { manifestsCommand } from './commands/manifests'
import { planCommand } from './commands/plan'
import { reconcileCommand } from './commands/reconcile'
import { sweepCommand } from './commands/sweep'
import { webhookCommand } from './commands/webhook'
import { workerCommand } from './commands/worker'
import { commandHelp, mainHelp } from './help'
import { runCommand } from './run-command'

/** Every command, in help order. */
export function cliCommands(): CliCommand[] {
  return [
    devCommand,
    webhookCommand,
    reconcileCommand,
    workerCommand,
    sweepCommand,
    ec2NoticesCommand,
    crdsCommand,
    manifestsCommand,
    planCommand,
    adoptCommand,
  ]
}

/** Runs `machine-api ...argv`; resolves with the exit code, or `running` for a started server. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<CommandOutcome> {
  const commands = cliCommands()
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined
    ;(name === undefined ? io.stderr : io.stdout)(topic ? commandHelp(topic) : mainHelp(commands))
    return name === undefined ? 2 : 0
  }
  const command = commands.find((c) => c.name === name)
  if (!command) {
    io.stderr(`machine-api: unknown command ${JSON.stringify(name)}\n\n${mainHelp(commands)}`)
    return 2
  }
  return await runCommand(command, rest, io)
}
