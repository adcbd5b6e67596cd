/**
 * @module Provider spec parsing shared by all providers at reconcile time: zod issues become the
 * field paths an InvalidConfiguration error names (admission reports the same paths through
 * api/validation/field-errors.ts).
 */
import type { z } from 'zod'
import { joinPath } from '../api/validation/field-errors'
import { InvalidConfigurationError } from './errors'

/**
 * Parses (and defaults) `raw`, or throws an InvalidConfigurationError (reason
 * `InvalidProviderSpec`) naming every bad field, so the Machine fails with something actionable.
 */
export function parseProviderSpec<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw)
  if (result.success) return result.data
  const issues = result.error.issues.map((i) => ({
    path: joinPath('', i.path),
    message: i.message,
  }))
  const text = issues.map((i) => `${i.path || '(spec)'}: ${i.message}`).join('; ')
  throw new InvalidConfigurationError(`invalid provider spec: ${text}`, {
    reason: 'InvalidProviderSpec',
    ...(issues[0]?.path ? { field: issues[0].path } : {}),
  })
}
