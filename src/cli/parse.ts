/** @module Flag parsing for one command with `node:util` parseArgs (strict: unknown flags fail). */
import { parseArgs } from 'node:util'
import { type CliCommand, type FlagValues, UsageError } from './command'

/** The parsed command line: help asked for, or the flag values. */
export type ParsedArgs =
  | { help: true }
  | { help: false; values: FlagValues; positionals: readonly string[] }

/**
 * Parses `argv` (what follows the command name) against the command's flags. Throws UsageError
 * for an unknown flag, a missing flag value, a value given to a boolean flag, or a positional
 * given to a command that takes none (`args` unset).
 */
export function parseCommandArgs(command: CliCommand, argv: readonly string[]): ParsedArgs {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  }
  for (const [name, spec] of Object.entries(command.flags)) {
    options[name] = { type: spec.type, ...(spec.short ? { short: spec.short } : {}) }
  }
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs({
      args: [...argv],
      options,
      strict: true,
      allowPositionals: command.args !== undefined,
    })
  } catch (error) {
    throw new UsageError(cleanMessage(error))
  }
  const values = parsed.values as FlagValues
  if (values.help === true) return { help: true }
  delete values.help
  return { help: false, values, positionals: parsed.positionals }
}

// parseArgs messages end with advice on `--` that does not apply to our commands.
function cleanMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/\. To specify a positional argument.*$/s, '').replace(/\.$/, '')
}
