/** @module The non-negative counters status fields report. */
import { z } from 'zod'
import { lazySchema } from './lazy-schema'

/** An optional status counter (Machines, replicas...). */
export function countSchema(description: string) {
  return z.int().min(0).optional().describe(description)
}

/** The generation a controller last reconciled, as every kind's status reports it. */
export const observedGenerationSchema = lazySchema(() =>
  countSchema('The generation last reconciled.'),
)
