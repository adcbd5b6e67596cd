/**
 * @module Provider spec parsing shared by all providers: zod issues become field paths that
 * admission returns to kubectl and that InvalidConfiguration errors name.
 */
import type { z } from 'zod'
import { InvalidConfigurationError } from './errors'

/** One problem with a provider spec, at a dotted path relative to the spec (`ami.id`). */
export interface SpecIssue {
  path: string
  message: string
}

/** Renders a zod path as `blockDevices[0].size`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out === '' ? String(part) : `.${String(part)}`
  }
  return out
}

/**
 * Every issue of `raw` against `schema` (empty when valid). Admission prefixes the paths with
 * where the spec sits (`spec.providerSpec.value` or `spec.providerSpec` of a MachineClass).
 */
export function providerSpecIssues(schema: z.ZodType, raw: unknown): SpecIssue[] {
  const result = schema.safeParse(raw)
  if (result.success) return []
  return result.error.issues.map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message,
  }))
}

/**
 * Parses (and defaults) `raw`, or throws an InvalidConfigurationError (reason
 * `InvalidProviderSpec`) naming every bad field, so the Machine fails with something actionable.
 */
export function parseProviderSpec<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw)
  if (result.success) return result.data
  const issues = result.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }))
  const text = issues.map((i) => `${i.path || '(spec)'}: ${i.message}`).join('; ')
  throw new InvalidConfigurationError(`invalid provider spec: ${text}`, {
    reason: 'InvalidProviderSpec',
    ...(issues[0]?.path ? { field: issues[0].path } : {}),
  })
}
