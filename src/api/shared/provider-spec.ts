/** @module How a Machine names its provider, and the port through which admission finds that provider's schema. */
import { z } from 'zod'
import { lazySchema } from './lazy-schema'

/**
 * Looks up a provider's own zod schema for its spec by provider name (e.g. `aws`, `kwok`).
 * Returns undefined for unknown providers. The provider registry implements it; admission only
 * depends on this function.
 */
export type ProviderSpecSchemas = (provider: string) => z.ZodType | undefined

/** A provider name: a short DNS label such as `aws` or `kwok`. */
export const providerNameSchema = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(63)
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, {
      message: 'must be a lowercase DNS label, e.g. aws',
    })
    .describe('Name of the provider that actuates the machine, e.g. aws or kwok.'),
)

/** Opaque provider data: kept verbatim by the apiserver, validated by the provider's schema. */
export function providerDataSchema(description: string) {
  return z
    .record(z.string(), z.unknown())
    .meta({ 'x-kubernetes-preserve-unknown-fields': true })
    .describe(description)
}

/** Provider data, as free-form JSON. */
export type ProviderData = Record<string, unknown>

/** A Machine's provider spec, wherever one is written (inline on a Machine, or in a MachineClass). */
export const providerMachineSpecSchema = lazySchema(() =>
  providerDataSchema(
    "The provider's machine spec, validated against that provider's schema on admission.",
  ),
)
