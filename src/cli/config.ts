/**
 * @module Configuration from flags and environment, validated by zod (or by hand, reporting through
 * configError). Each field remembers where its value came from (`--bus`, `$PORT`), so an error
 * names the flag or variable to fix.
 */
import type { z } from 'zod'
import { type FlagValues, UsageError } from './command'

/** One raw setting: its value (undefined when unset) and the flag or variable that gave it. */
export interface SourcedValue {
  value: string | boolean | undefined
  source: string
}

/** Which flag and which environment variable feed one setting (either may be absent). */
export interface SettingNames {
  flag?: string
  env?: string
}

/**
 * The value of `--flag` when given, else of `$ENV` when set and non-empty, else undefined; the
 * source names whichever was used (the flag when neither, since that is what help shows first).
 */
export function sourced(
  values: FlagValues,
  env: NodeJS.ProcessEnv,
  names: SettingNames,
): SourcedValue {
  const fromFlag = names.flag === undefined ? undefined : values[names.flag]
  if (fromFlag !== undefined) return { value: fromFlag, source: `--${names.flag}` }
  const fromEnv = names.env === undefined ? undefined : env[names.env]
  if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: `$${names.env}` }
  return { value: undefined, source: names.flag ? `--${names.flag}` : `$${names.env}` }
}

/** One invalid setting: the field of `raw` it concerns and what is wrong with it. */
export interface ConfigIssue {
  field: string
  message: string
}

/**
 * The UsageError listing every issue as `<source>: <message> (got <value>)`, the flag or variable
 * taken from `raw`.
 */
export function configError(raw: Record<string, SourcedValue>, issues: ConfigIssue[]): UsageError {
  const lines = issues.map(({ field, message }) => {
    const sourced = raw[field]
    const got = sourced?.value === undefined ? '' : ` (got ${JSON.stringify(sourced.value)})`
    return `${sourced?.source ?? field}: ${message}${got}`
  })
  return new UsageError(`invalid configuration:\n  ${lines.join('\n  ')}`)
}

/**
 * Parses `raw` (field -> sourced value) with `schema`. Throws UsageError listing every invalid
 * setting as `<source>: <message> (got <value>)`.
 */
export function parseConfig<S extends z.ZodType>(
  schema: S,
  raw: Record<string, SourcedValue>,
): z.output<S> {
  const input = Object.fromEntries(Object.entries(raw).map(([key, v]) => [key, v.value]))
  const result = schema.safeParse(input)
  if (result.success) return result.data
  throw configError(
    raw,
    result.error.issues.map((issue) => ({
      field: String(issue.path[0] ?? ''),
      message: issue.message,
    })),
  )
}
