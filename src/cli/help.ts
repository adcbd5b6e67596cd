/** @module Help text for the CLI and each command, generated from the command definitions. */
import type { CliCommand } from './command'

/** The help of `machine-api --help`: every command with its summary. */
export function mainHelp(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length))
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)
  return [
    'Usage: machine-api <command> [flags]',
    '',
    'A standalone Machine API for Kubernetes.',
    '',
    'Commands:',
    ...lines,
    '',
    'Flags:',
    '  -h, --help  show help (also `machine-api <command> --help`)',
    '',
    'Exit codes: 0 success, 1 failure, 2 wrong usage or configuration.',
    '',
  ].join('\n')
}

/** The help of `machine-api <command> --help`: usage, description, flags and environment. */
export function commandHelp(command: CliCommand): string {
  const flagRows = Object.entries(command.flags).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : '    '
    const value = spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''
    return { left: `  ${short}--${name}${value}`, right: spec.description }
  })
  flagRows.push({ left: '  -h, --help', right: 'show this help' })
  const envRows = Object.entries(command.env ?? {}).map(([name, text]) => ({
    left: `  ${name}`,
    right: text,
  }))
  const subRows = (command.subcommands ?? []).map((sub) => ({
    left: `  ${command.name} ${sub.name}${sub.args ? ` ${sub.args}` : ''}`,
    right: sub.summary,
  }))
  const width = Math.max(...[...flagRows, ...envRows, ...subRows].map((r) => r.left.length))
  const table = (rows: typeof flagRows) => rows.map((r) => `${r.left.padEnd(width)}  ${r.right}`)
  return [
    `Usage: machine-api ${command.name}${Object.keys(command.flags).length > 0 ? ' [flags]' : ''}${command.args ? ` ${command.args}` : ''}`,
    '',
    command.summary,
    '',
    ...command.description.split('\n').map((paragraph) => wrap(paragraph, 96)),
    '',
    'Flags:',
    ...table(flagRows),
    ...(envRows.length > 0 ? ['', 'Environment:', ...table(envRows)] : []),
    ...(subRows.length > 0 ? ['', 'Commands (each with --help):', ...table(subRows)] : []),
    '',
  ].join('\n')
}

/** Breaks `text` into lines of at most `width` characters at spaces. */
export function wrap(text: string, width: number): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  if (line !== '') lines.push(line)
  return lines.join('\n')
}
