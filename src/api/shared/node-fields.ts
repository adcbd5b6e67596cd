/** @module Node-facing fields of a Machine: taints, addresses, node reference, versions. */
import { z } from 'zod'
import { timestampSchema } from './conditions'
import { lazySchema } from './lazy-schema'

/** A taint the Machine keeps on its Node. */
export const taintSchema = lazySchema(() =>
  z
    .object({
      key: z.string().min(1).max(317).describe('The taint key.'),
      value: z.string().max(63).optional().describe('The taint value.'),
      effect: z
        .enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute'])
        .describe('The effect: NoSchedule, PreferNoSchedule or NoExecute.'),
      timeAdded: timestampSchema('When a NoExecute taint was added.').optional(),
    })
    .describe('A Node taint (corev1.Taint).'),
)

/** A corev1.Taint. */
export type Taint = z.infer<ReturnType<typeof taintSchema>>

/** A network address of the machine. */
export const machineAddressSchema = lazySchema(() =>
  z
    .object({
      type: z
        .enum(['Hostname', 'ExternalIP', 'InternalIP', 'ExternalDNS', 'InternalDNS'])
        .describe('Address type: Hostname, ExternalIP, InternalIP, ExternalDNS or InternalDNS.'),
      address: z.string().min(1).max(256).describe('The address.'),
    })
    .describe('An address of the machine, as reported by the provider.'),
)

/** The Node a Machine is linked to. */
export const nodeReferenceSchema = lazySchema(() =>
  z
    .object({
      name: z.string().min(1).max(253).describe('Name of the Node.'),
      uid: z
        .string()
        .max(64)
        .optional()
        .describe('UID of the Node, to notice a Node re-created under the same name.'),
    })
    .describe('The Node this Machine became.'),
)

/** Versions of the Kubernetes components on a machine. */
export function machineVersionsSchema(description: string) {
  return z
    .object({
      kubelet: z.string().max(256).optional().describe('Kubelet version, e.g. v1.34.1.'),
      controlPlane: z
        .string()
        .max(256)
        .optional()
        .describe('Control plane version, for machines that run one.'),
    })
    .describe(description)
}
