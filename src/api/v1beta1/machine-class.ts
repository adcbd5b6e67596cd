/** @module MachineClass v1beta1: a reusable provider, provider spec and secrets for Machines. */
import { z } from 'zod'
import { observedGenerationSchema } from '../shared/counts'
import { lazySchema } from '../shared/lazy-schema'
import { localReferenceSchema } from '../shared/meta'
import { providerMachineSpecSchema, providerNameSchema } from '../shared/provider-spec'
import { hubResourceSchema, hubStatusSchema } from '../shared/resource'

/** The v1beta1 MachineClass spec. */
export const machineClassSpecSchema = lazySchema(() =>
  z
    .object({
      provider: providerNameSchema(),
      providerSpec: providerMachineSpecSchema(),
      credentialsSecretRef: localReferenceSchema(
        'Secret with the cloud credentials the provider uses.',
        'Secret',
      ).optional(),
      userDataSecretRef: localReferenceSchema(
        'Secret with the user data (bootstrap script).',
        'Secret',
      ).optional(),
    })
    .describe('The provider and how to provision its machines.'),
)

/** What a Node of this class reports as its system: the fields scale-from-zero needs. */
export const machineClassNodeInfoSchema = lazySchema(() =>
  z
    .object({
      architecture: z.string().max(63).optional().describe('e.g. amd64, arm64.'),
      operatingSystem: z.string().max(63).optional().describe('e.g. linux, windows.'),
    })
    .describe('The system a Node of this class reports (Node status.nodeInfo).'),
)

/** The observed state of a MachineClass. */
export const machineClassStatusSchema = lazySchema(() =>
  hubStatusSchema('MachineClass', {
    observedGeneration: observedGenerationSchema(),
    capacity: z
      .record(
        z.string().min(1).max(316),
        z.string().min(1).max(64).describe('A quantity, e.g. 2, 8Gi or 110.'),
      )
      .optional()
      .describe(
        'Resources of one Machine of this class (cpu, memory, pods, ephemeral-storage, GPUs) as ' +
          'quantities, found by the provider (aws: DescribeInstanceTypes; kwok: its allocatable). ' +
          'The MachineSet and MachineDeployment controllers copy it into the capacity annotations ' +
          'cluster-autoscaler reads to scale a node group up from zero.',
      ),
    nodeInfo: machineClassNodeInfoSchema().optional(),
  }),
)

/** A v1beta1 MachineClass. */
export type MachineClass = z.infer<ReturnType<typeof machineClassSchema>>
/** The whole v1beta1 MachineClass object. */
export const machineClassSchema = lazySchema(() =>
  hubResourceSchema('MachineClass', {
    spec: machineClassSpecSchema(),
    status: machineClassStatusSchema(),
  }).describe('A MachineClass: a provider and its machine spec, shared by Machines.'),
)
