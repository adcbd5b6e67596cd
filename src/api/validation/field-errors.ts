/** @module Field errors with paths, the currency of validation (collected, never thrown). */
import type { z } from 'zod'

/** One problem with one field, in the `spec.x.y: message` style kubectl users know. */
export interface FieldError {
  path: string
  message: string
}

/** The outcome of validating one object: all errors plus non-blocking warnings. */
export interface ValidationResult {
  errors: FieldError[]
  warnings: string[]
}

/** Joins path segments the way Kubernetes prints them: `spec.taints[0].key`. */
export function joinPath(prefix: string, segments: readonly PropertyKey[]): string {
  let path = prefix
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`
    else path += path === '' ? String(segment) : `.${String(segment)}`
  }
  return path
}

/** zod issues as field errors under `prefix`. */
export function issuesToFieldErrors(
  issues: readonly z.core.$ZodIssue[],
  prefix = '',
): FieldError[] {
  return issues.map((issue) => ({
    path: joinPath(prefix, issue.path) || '<root>',
    message: issue.message,
  }))
}

/** Validates `value` against `schema`, reporting issues under `prefix`. */
export function checkSchema(schema: z.ZodType, value: unknown, prefix: string): FieldError[] {
  const result = schema.safeParse(value)
  return result.success ? [] : issuesToFieldErrors(result.error.issues, prefix)
}

/** One line per error, as the apiserver shows the denial to the user. */
export function formatFieldErrors(errors: readonly FieldError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('; ')
}
