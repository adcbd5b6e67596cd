/**
 * @module The cluster-autoscaler setup docs/machine-sets.md gives a user ("cluster-autoscaler",
 * "Running it"), read from the doc itself so the tests run it as written: the environment and flags
 * of its `cluster-autoscaler` command and the arguments of its `kubectl create clusterrolebinding`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const docPath = join(import.meta.dirname, '..', '..', '..', 'docs', 'machine-sets.md')

/** The doc's command lines, with its `<placeholders>` still in. */
export interface DocumentedAutoscaler {
  /** Variables set before the command, e.g. `{ CAPI_GROUP: 'machine-api.dev' }`. */
  env: Record<string, string>
  /** The command's flags, e.g. `--cloud-provider=clusterapi`. */
  flags: string[]
  /** The binding command's arguments after `kubectl`. */
  binding: string[]
}

/** The sh blocks of the doc's "### Running it" section, each as its words (comments dropped). */
function runningItCommands(doc: string): string[][] {
  const section = doc.split(/^### /m).find((s) => s.startsWith('Running it\n'))
  if (!section) throw new Error(`${docPath} has no "### Running it" section`)
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
    (m[1] ?? '')
      .replace(/#.*$/gm, '')
      .replace(/\\\n/g, ' ')
      .split(/\s+/)
      .filter((w) => w.length > 0),
  )
}

/** Parses the doc's autoscaler command and role binding. */
export function documentedAutoscaler(doc = readFileSync(docPath, 'utf8')): DocumentedAutoscaler {
  const commands = runningItCommands(doc)
  const run = commands.find((words) => words.includes('cluster-autoscaler'))
  const bind = commands.find((words) => words[0] === 'kubectl' && words[2] === 'clusterrolebinding')
  if (!run || !bind) throw new Error(`${docPath}: "Running it" lacks the command or the binding`)
  const at = run.indexOf('cluster-autoscaler')
  const env = Object.fromEntries(
    run.slice(0, at).map((word) => {
      const [name = '', ...value] = word.split('=')
      return [name, value.join('=')]
    }),
  )
  return { env, flags: run.slice(at + 1), binding: bind.slice(1) }
}

/** Replaces the doc's `<name>` placeholders; an unknown one is an error, not passed on. */
export function fillPlaceholders(words: string[], values: Record<string, string>): string[] {
  return words.map((word) =>
    word.replace(/<([^>]+)>/g, (_, name: string) => {
      const value = values[name]
      if (value === undefined) throw new Error(`no value for the doc's placeholder <${name}>`)
      return value
    }),
  )
}
