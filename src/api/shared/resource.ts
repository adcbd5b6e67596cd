/** @module The envelope (apiVersion, kind, metadata, spec, status) every kind shares. */
import { z } from 'zod'
import { API_GROUP } from '../group'
import { objectMetaSchema } from './meta'

/**
 * A whole object of `kind` at `version`. `spec` and `status` are the parts that become the CRD
 * schema; the envelope is the same for every kind.
 */
export function resourceSchema<Spec extends z.ZodType, Status extends z.ZodType>(options: {
  kind: string
  version: string
  spec: Spec
  status: Status
}) {
  return z.object({
    apiVersion: z.literal(`${API_GROUP}/${options.version}`),
    kind: z.literal(options.kind),
    metadata: objectMetaSchema,
    spec: options.spec,
    status: options.status.optional(),
  })
}
