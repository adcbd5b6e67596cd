/**
 * @module The environment a function runs with as installed: read from its manifest, so a
 * benchmark measures the shipped settings (e.g. the sweep's heap caps) and a change to the
 * manifest moves the figure.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'

const infra = join(import.meta.dirname, '..', '..', '..', 'infra')

type Container = { name: string; env?: Array<{ name: string; value?: string }> }

/** The value of `name` in the first container's env of the workload in `file` (under infra/). */
export function deployedEnv(file: string, name: string): string | undefined {
  for (const doc of parseAllDocuments(readFileSync(join(infra, file), 'utf8'))) {
    const containers = findContainers(doc.toJS())
    const value = containers?.[0]?.env?.find((e) => e.name === name)?.value
    if (value !== undefined) return value
  }
  return undefined
}

/** The containers of a Deployment's or CronJob's Pod template. */
function findContainers(obj: unknown): Container[] | undefined {
  const spec = (obj as { spec?: Record<string, unknown> } | null)?.spec
  const template =
    (spec?.jobTemplate as { spec?: Record<string, unknown> } | undefined)?.spec?.template ??
    spec?.template
  return (template as { spec?: { containers?: Container[] } } | undefined)?.spec?.containers
}
