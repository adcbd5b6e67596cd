/**
 * @module Machine v1alpha1: the legacy shape of the original Machine API (`providerSpec.value` /
 * `valueFrom.machineClass`, required `versions.kubelet`, `errorReason`/`errorMessage`).
 */
import { z } from 'zod'
import { timestampSchema } from '../shared/conditions'
import { lazySchema } from '../shared/lazy-schema'
import { localReferenceSchema, templateMetaSchema } from '../shared/meta'
import { machineAddressSchema, nodeReferenceSchema, taintSchema } from '../shared/node-fields'
import { providerDataSchema, providerNameSchema } from '../shared/provider-spec'
import { resourceSchema } from '../shared/resource'
import { MACHINE_PHASES } from '../v1beta1/machine'

/** The legacy provider spec: inline `value` (with its `provider`) or `valueFrom.machineClass`. */
export const providerSpecV1alpha1Schema = lazySchema(() =>
  z
    .object({
      provider: providerNameSchema().optional(),
      value: providerDataSchema("The provider's machine spec, inline (needs provider).").optional(),
      valueFrom: z
        .object({
          machineClass: localReferenceSchema(
            'The MachineClass to take the provider spec from.',
            'MachineClass',
          ),
        })
        .optional()
        .describe('Where to take the provider spec from instead of value.'),
    })
    .describe('The provider spec: provider + value inline, or valueFrom a MachineClass.'),
)

/** Required kubelet version plus optional control plane version (legacy shape). */
export const machineVersionsV1alpha1Schema = lazySchema(() =>
  z
    .object({
      kubelet: z
        .string()
        .max(256)
        .describe('Kubelet version, e.g. v1.34.1 (required in v1alpha1).'),
      controlPlane: z.string().max(256).optional().describe('Control plane version, if any.'),
    })
    .describe('Versions of the Kubernetes components.'),
)

/** The v1alpha1 Machine spec; also the spec of v1alpha1 set templates. */
export const machineSpecV1alpha1Schema = lazySchema(() =>
  z
    .object({
      providerSpec: providerSpecV1alpha1Schema(),
      providerID: z
        .string()
        .min(1)
        .max(512)
        .optional()
        .describe('The provider ID of the machine. Set once.'),
      versions: machineVersionsV1alpha1Schema(),
      metadata: templateMetaSchema('Labels and annotations to propagate to the Node.').optional(),
      taints: z.array(taintSchema()).max(64).optional().describe('Taints to keep on the Node.'),
    })
    .describe('The desired state of a Machine (legacy shape).'),
)

/** The v1alpha1 Machine status. */
export const machineStatusV1alpha1Schema = lazySchema(() =>
  z
    .object({
      phase: z
        .enum(MACHINE_PHASES)
        .optional()
        .describe('Pending, Provisioning, Provisioned, Running, Deleting or Failed.'),
      nodeRef: nodeReferenceSchema().optional(),
      addresses: z
        .array(machineAddressSchema())
        .max(64)
        .optional()
        .describe('Addresses of the machine.'),
      providerStatus: providerDataSchema("The provider's view of the machine.").optional(),
      versions: z
        .object({
          kubelet: z.string().max(256).optional().describe('Observed kubelet version.'),
          controlPlane: z.string().max(256).optional().describe('Observed control plane version.'),
        })
        .optional()
        .describe('Observed versions of the Kubernetes components.'),
      errorReason: z.string().max(256).optional().describe('A terminal problem, machine-readable.'),
      errorMessage: z.string().max(10240).optional().describe('A terminal problem, for humans.'),
      lastUpdated: timestampSchema('When the phase last changed.').optional(),
    })
    .describe('The observed state of a Machine (legacy shape).'),
)

/** The whole v1alpha1 Machine object. */
export const machineV1alpha1Schema = lazySchema(() =>
  resourceSchema({
    kind: 'Machine',
    version: 'v1alpha1',
    spec: machineSpecV1alpha1Schema(),
    status: machineStatusV1alpha1Schema(),
  }).describe('A Machine (legacy v1alpha1 shape; stored as v1beta1).'),
)

/** A v1alpha1 Machine. */
export type MachineV1alpha1 = z.infer<ReturnType<typeof machineV1alpha1Schema>>
