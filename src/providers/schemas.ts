/**
 * @module The provider spec schemas admission validates against, by provider name. Static, so the
 * webhook needs no provider clients (and no cloud credentials) to validate.
 */
import type { z } from 'zod'
import type { ProviderSpecSchemas } from '../api/shared/provider-spec'
import { awsProviderSpecSchema } from './aws/spec'
import { kwokProviderSpecSchema } from './kwok/spec'

const schemas: Record<string, () => z.ZodType> = {
  aws: awsProviderSpecSchema,
  kwok: kwokProviderSpecSchema,
}

/** Every built-in provider's spec schema (each built on its first lookup). */
export const builtInProviderSpecSchemas: ProviderSpecSchemas = (provider) =>
  Object.hasOwn(schemas, provider) ? schemas[provider]?.() : undefined
