/** @module The envelope (apiVersion, kind, metadata, spec, status) every kind shares. */
import { z } from 'zod'
import { API_GROUP } from '../group'
import { conditionsSchema } from './conditions'
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
    metadata: objectMetaSchema(),
    spec: options.spec,
    status: options.status.optional(),
  })
}

/** A whole v1beta1 (hub) object of `kind`. */
export function hubResourceSchema<Spec extends z.ZodType, Status extends z.ZodType>(
  kind: string,
  parts: { spec: Spec; status: Status },
) {
  return resourceSchema({ kind, version: 'v1beta1', ...parts })
}

/** A v1beta1 status: the kind's own fields, then the conditions every kind reports. */
export function hubStatusSchema<Fields extends z.ZodRawShape>(kind: string, fields: Fields) {
  return z
    .object({
      ...fields,
      conditions: conditionsSchema(`Current service state of the ${kind}.`).optional(),
    })
    .describe(`The observed state of a ${kind}.`)
}
