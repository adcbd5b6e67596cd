/**
 * @module The `kwok` provider spec: what a simulated machine's Node looks like. There is no
 * infrastructure behind it; kwok plays the kubelet so the Node turns Ready.
 */
import { z } from 'zod'
import { lazySchema } from '../../api/shared/lazy-schema'

const quantity = lazySchema(() =>
  z.string().regex(/^[0-9.]+[a-zA-Z]*$/, 'must be a Kubernetes quantity'),
)

/** The `kwok` provider spec. */
export const kwokProviderSpecSchema = lazySchema(() =>
  z.strictObject({
    nodeLabels: z
      .record(z.string().min(1).max(316), z.string().max(63))
      .default({})
      .describe('Labels for the simulated Node (e.g. node.kubernetes.io/instance-type).'),
    zone: z
      .string()
      .min(1)
      .max(63)
      .optional()
      .describe('Sets topology.kubernetes.io/zone on the Node, to simulate spreading.'),
    allocatable: z
      .strictObject({
        cpu: quantity().default('4'),
        memory: quantity().default('16Gi'),
        pods: quantity().default('110'),
      })
      .prefault({})
      .describe('Capacity the scheduler sees on the simulated Node.'),
  }),
)

/** A parsed, defaulted `kwok` provider spec. */
export type KwokProviderSpec = z.output<ReturnType<typeof kwokProviderSpecSchema>>
