/**
 * @module The shape of a CLI command: its flags (as `node:util` parseArgs options plus help text),
 * the environment variables it reads, and `run`. Also the I/O a command gets and the usage error.
 */

/** Where a command writes and what it reads from its surroundings (tests pass fakes). */
export interface CliIo {
  stdout(text: string): void
  stderr(text: string): void
  env: NodeJS.ProcessEnv
  /** The package root (holds package.json, scripts/ and infra/ in a source checkout). */
  packageRoot: string
}

/** One flag: its parseArgs type, an optional short alias, and its help text. */
export interface FlagSpec {
  type: 'string' | 'boolean'
  short?: string
  /** Placeholder in help, e.g. `FILE`. */
  value?: string
  description: string
}

/** Parsed flag values, as parseArgs returns them. */
export type FlagValues = Record<string, string | boolean | undefined>

/**
 * What `run` resolves with: an exit code for a command that is done, or `running` for a server
 * that keeps the process alive (it stops on SIGTERM/SIGINT).
 */
export type CommandOutcome = number | 'running'

/** A `machine-api <name>` command. */
export interface CliCommand {
  name: string
  /** One line for the command list. */
  summary: string
  /** Positional arguments in the usage line (none when absent). */
  args?: string
  /** Paragraphs after the usage line. */
  description: string
  flags: Record<string, FlagSpec>
  /** Environment variables the command reads, with what they mean. */
  env?: Record<string, string>
  /** Commands under this one (`machine-api dev interrupt`), chosen by the first argument. */
  subcommands?: readonly CliCommand[]
  /** `positionals`: the arguments `args` names (none unless `args` is set). */
  run(values: FlagValues, io: CliIo, positionals: readonly string[]): Promise<CommandOutcome>
}

/** A wrong command line or configuration: exit code 2, the message and a pointer to --help. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}
