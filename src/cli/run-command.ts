/**
 * @module Runs one command: its flags, `--help`, and exit codes (0 done, 1 failed, 2 wrong usage
 * or configuration). Kept apart from the dispatcher in main.ts so an entry point that runs a
 * single command (functions/webhook.ts...) bundles only that command, not every other one.
 */
import { errorMessage } from '../errors'
import { type CliCommand, type CliIo, type CommandOutcome, UsageError } from './command'
import { commandHelp } from './help'
import { parseCommandArgs } from './parse'

/** Runs `command` with `argv` (the arguments after the command name). */
export async function runCommand(
  command: CliCommand,
  argv: readonly string[],
  io: CliIo,
): Promise<CommandOutcome> {
  const sub = command.subcommands?.find((s) => s.name === argv[0])
  if (sub)
    return await runCommand({ ...sub, name: `${command.name} ${sub.name}` }, argv.slice(1), io)
  try {
    const parsed = parseCommandArgs(command, argv)
    if (parsed.help) {
      io.stdout(commandHelp(command))
      return 0
    }
    return await command.run(parsed.values, io, parsed.positionals)
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(
        `machine-api ${command.name}: ${error.message}\n\nRun \`machine-api ${command.name} --help\` for usage.\n`,
      )
      return 2
    }
    io.stderr(`machine-api ${command.name}: ${errorMessage(error)}\n`)
    return 1
  }
}
