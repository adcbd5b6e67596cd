/**
 * @module Rules for labels, annotations and taints that land on another object (a set's Machines,
 * a Machine's Node): what the apiserver would refuse there is refused here, with the field path
 * of the template, instead of a create or patch that fails on every reconcile.
 */
import { labelValueError, qualifiedNameError } from '../shared/label-syntax'
import type { FieldError } from './field-errors'

// apimachinery's TotalAnnotationSizeLimitB: the sum of the keys' and values' lengths.
const MAX_ANNOTATIONS_BYTES = 256 * 1024

/** An `Invalid value` error at `path` when `reason` (why `value` is wrong) is defined. */
function invalid(path: string, value: string, reason: string | undefined): FieldError[] {
  return reason === undefined
    ? []
    : [{ path, message: `Invalid value: ${JSON.stringify(value)}: ${reason}` }]
}

/** An error at `path` when `key` is not a label key (a qualified name). */
export function validateLabelKey(key: string, path: string): FieldError[] {
  return invalid(path, key, qualifiedNameError(key))
}

/** An error at `path` when `value` is not a label value. */
export function validateLabelValue(value: string, path: string): FieldError[] {
  return invalid(path, value, labelValueError(value))
}

/** Every invalid key (at `path`) or value (at `path[key]`) of the label map `labels`. */
export function validateLabels(
  labels: Readonly<Record<string, string>> | undefined,
  path: string,
): FieldError[] {
  return Object.entries(labels ?? {}).flatMap(([key, value]) => [
    ...validateLabelKey(key, path),
    ...validateLabelValue(value, `${path}[${key}]`),
  ])
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
    errors.push(...invalid(path, key, qualifiedNameError(key.toLowerCase())))
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
  return [
    ...validateLabelKey(taint.key, `${path}.key`),
    ...(taint.value === undefined ? [] : validateLabelValue(taint.value, `${path}.value`)),
  ]
}
