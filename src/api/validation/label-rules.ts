/**
 * @module Rules for labels, annotations and taints that land on another object (a set's Machines,
 * a Machine's Node): what the apiserver would refuse there is refused here, with the field path
 * of the template, instead of a create or patch that fails on every reconcile.
 */
import { labelValueError, qualifiedNameError } from '../shared/label-syntax'
import type { FieldError } from './field-errors'

// apimachinery's TotalAnnotationSizeLimitB: the sum of the keys' and values' lengths.
const MAX_ANNOTATIONS_BYTES = 256 * 1024

/** Every invalid key or value of `labels` at `path` (a label map). */
export function validateLabels(
  labels: Readonly<Record<string, string>> | undefined,
  path: string,
): FieldError[] {
  const errors: FieldError[] = []
  for (const [key, value] of Object.entries(labels ?? {})) {
    const keyError = qualifiedNameError(key)
    if (keyError !== undefined) {
      errors.push({ path, message: `Invalid value: ${JSON.stringify(key)}: ${keyError}` })
    }
    const valueError = labelValueError(value)
    if (valueError !== undefined) {
      errors.push({
        path: `${path}[${key}]`,
        message: `Invalid value: ${JSON.stringify(value)}: ${valueError}`,
      })
    }
  }
  return errors
}

/** Every invalid key of `annotations` at `path`, and their total size. */
export function validateAnnotations(
  annotations: Readonly<Record<string, string>> | undefined,
  path: string,
): FieldError[] {
  const errors: FieldError[] = []
  let size = 0
  for (const [key, value] of Object.entries(annotations ?? {})) {
    size += key.length + value.length
    // Annotation keys are checked in lower case (apimachinery's ValidateAnnotations).
    const keyError = qualifiedNameError(key.toLowerCase())
    if (keyError !== undefined) {
      errors.push({ path, message: `Invalid value: ${JSON.stringify(key)}: ${keyError}` })
    }
  }
  if (size > MAX_ANNOTATIONS_BYTES) {
    errors.push({
      path,
      message: `Too long: annotations may hold at most ${MAX_ANNOTATIONS_BYTES} bytes, not ${size}`,
    })
  }
  return errors
}

/** Labels and annotations of template metadata at `path` (`<path>.labels`, `<path>.annotations`). */
export function validateTemplateMeta(
  meta:
    | {
        labels?: Record<string, string> | undefined
        annotations?: Record<string, string> | undefined
      }
    | undefined,
  path: string,
): FieldError[] {
  return [
    ...validateLabels(meta?.labels, `${path}.labels`),
    ...validateAnnotations(meta?.annotations, `${path}.annotations`),
  ]
}

/** A taint's key must be a qualified name and its value a label value (corev1 validation). */
export function validateTaint(
  taint: { key: string; value?: string | undefined },
  path: string,
): FieldError[] {
  const errors: FieldError[] = []
  const keyError = qualifiedNameError(taint.key)
  if (keyError !== undefined) {
    errors.push({
      path: `${path}.key`,
      message: `Invalid value: ${JSON.stringify(taint.key)}: ${keyError}`,
    })
  }
  const valueError = taint.value === undefined ? undefined : labelValueError(taint.value)
  if (valueError !== undefined) {
    errors.push({
      path: `${path}.value`,
      message: `Invalid value: ${JSON.stringify(taint.value)}: ${valueError}`,
    })
  }
  return errors
}
