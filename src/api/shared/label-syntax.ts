/**
 * @module The syntax Kubernetes accepts for label keys, label values and annotation keys
 * (apimachinery's IsQualifiedName and IsValidLabelValue), so admission refuses what a Node, a
 * Machine or a selector would later refuse. Pure, no zod: the reconciles may use it too.
 * https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#syntax-and-character-set
 */

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
/** Longest label value and name part of a key. */
export const MAX_LABEL_VALUE = 63
const MAX_PREFIX = 253

const NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

/**
 * Why `key` is not a qualified name (an optional DNS subdomain prefix and `/`, then a name of at
 * most 63 characters), or undefined when it is one. Label and annotation keys are qualified names.
 */
export function qualifiedNameError(key: string): string | undefined {
  const slash = key.indexOf('/')
  const name = slash === -1 ? key : key.slice(slash + 1)
  if (slash !== -1) {
    const prefix = key.slice(0, slash)
    if (prefix.length === 0) return 'prefix part must not be empty'
    if (prefix.length > MAX_PREFIX)
      return `prefix part must be no more than ${MAX_PREFIX} characters`
    if (!DNS_SUBDOMAIN.test(prefix)) return 'prefix part must be a lowercase RFC 1123 subdomain'
  }
  if (name.length === 0) return 'name part must not be empty'
  if (name.length > MAX_LABEL_VALUE)
    return `name part must be no more than ${MAX_LABEL_VALUE} characters`
  if (!NAME_PART.test(name)) return `name part ${NAME_RULE}`
  return undefined
}

/** Why `value` cannot be a label value (empty, or at most 63 name characters), or undefined. */
export function labelValueError(value: string): string | undefined {
  if (value.length === 0) return undefined
  if (value.length > MAX_LABEL_VALUE) return `must be no more than ${MAX_LABEL_VALUE} characters`
  if (!NAME_PART.test(value)) return NAME_RULE
  return undefined
}
