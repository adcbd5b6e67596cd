/** @module Rules for a Machine spec, shared by Machines and the templates of sets and deployments. */
import type { ProviderSpecSchemas } from '../shared/provider-spec'
import type { MachineSpec } from '../v1beta1/machine'
import { validateDuration, validateExpireAfter } from './duration-rules'
import { checkSchema, type FieldError } from './field-errors'
import { forbiddenKeyError, providerDataSizeError } from './json-bounds'
import { validateTaint, validateTemplateMeta } from './label-rules'

// Taints the kubelet, node lifecycle controller or cloud provider own; a Machine must not fight them.
const RESERVED_TAINT_PREFIXES = ['node.kubernetes.io/', 'node.cloudprovider.kubernetes.io/']
const ALLOWED_RESERVED_TAINTS = ['node.kubernetes.io/out-of-service']

/**
 * Cross-field and provider rules of a (zod-valid) Machine spec at `path`: exactly one provider
 * source, the inline provider spec valid for its provider, labels, annotations and taints the Node
 * will hold (no reserved taints), timeouts the controllers can schedule.
 */
export function validateMachineSpec(
  spec: MachineSpec,
  path: string,
  providerSchemas: ProviderSpecSchemas,
): FieldError[] {
  const errors: FieldError[] = []
  const hasInline = spec.providerSpec !== undefined
  const hasClass = spec.classRef !== undefined
  if (hasInline === hasClass) {
    errors.push({
      path,
      message: hasInline
        ? 'Invalid value: set only one of providerSpec or classRef'
        : 'Required value: set providerSpec (inline provider) or classRef (a MachineClass)',
    })
  }
  if (spec.providerSpec !== undefined) {
    errors.push(
      ...validateProviderSpec(
        spec.providerSpec.provider,
        spec.providerSpec.value,
        `${path}.providerSpec`,
        providerSchemas,
      ),
    )
  }
  errors.push(...validateTemplateMeta(spec.metadata, `${path}.metadata`))
  for (const field of [
    'nodeDrainTimeout',
    'nodeVolumeDetachTimeout',
    'nodeDeletionTimeout',
    'provisioningTimeout',
  ] as const) {
    errors.push(...validateDuration(spec[field], `${path}.${field}`))
  }
  errors.push(...validateExpireAfter(spec.expireAfter, `${path}.expireAfter`))
  spec.taints?.forEach((taint, index) => {
    errors.push(...validateTaint(taint, `${path}.taints[${index}]`))
    const reserved = RESERVED_TAINT_PREFIXES.some((prefix) => taint.key.startsWith(prefix))
    if (reserved && !ALLOWED_RESERVED_TAINTS.includes(taint.key)) {
      errors.push({
        path: `${path}.taints[${index}].key`,
        message: `Forbidden: taint key ${JSON.stringify(taint.key)} is reserved for Kubernetes`,
      })
    }
  })
  return errors
}

/**
 * Validates provider data against the named provider's own schema. `path` is the object holding
 * `provider` (errors name `<path>.provider`); `valueKey` names the data field next to it.
 */
export function validateProviderSpec(
  provider: string,
  value: unknown,
  path: string,
  providerSchemas: ProviderSpecSchemas,
  options: { providerPath?: string; valuePath?: string } = {},
): FieldError[] {
  const schema = providerSchemas(provider)
  if (schema === undefined) {
    return [
      {
        path: options.providerPath ?? `${path}.provider`,
        message: `Unsupported value: ${JSON.stringify(provider)} is not a known provider`,
      },
    ]
  }
  const valuePath = options.valuePath ?? `${path}.value`
  const shape = forbiddenKeyError(value, valuePath) ?? providerDataSizeError(value, valuePath)
  if (shape !== undefined) return [shape]
  return checkSchema(schema, value, valuePath)
}
