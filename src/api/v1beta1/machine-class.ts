/** @module MachineClass v1beta1: a reusable provider, provider spec and secrets for Machines. */
import { z } from 'zod'
import { observedGenerationSchema } from '../shared/counts'
import { durationSchema } from '../shared/duration-schema'
import { lazySchema } from '../shared/lazy-schema'
import { localReferenceSchema } from '../shared/meta'
import { providerMachineSpecSchema, providerNameSchema } from '../shared/provider-spec'
import { hubResourceSchema, hubStatusSchema } from '../shared/resource'
import { maxUnavailableOfferings } from './machine-class-limits'

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
      unavailableOfferingTTL: durationSchema(
        'How long an offering (instance type, zone, capacity type) a launch found without ' +
          'capacity is listed in status.unavailableOfferings and skipped by the Machines of this ' +
          'class, and how long past its deadline a spot offering EC2 interrupted (or sent a ' +
          'rebalance recommendation for that a MachineSet acted on) is listed and tried last. ' +
          'Default 3m.',
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

/** One offering a launch found without capacity, until it expires. */
export const unavailableOfferingSchema = lazySchema(() =>
  z
    .object({
      instanceType: z.string().min(1).max(63).describe('e.g. m7i.large.'),
      zone: z.string().min(1).max(63).describe('e.g. eu-west-1a.'),
      capacityType: z.string().min(1).max(63).describe('e.g. spot or on-demand.'),
      reason: z
        .string()
        .max(128)
        .describe(
          "The cloud's answer, e.g. InsufficientInstanceCapacity, or the notice of an " +
            'interrupted Machine: SpotInterruption, RebalanceRecommended.',
        ),
      expiresAt: z.iso.datetime({ offset: true }).describe('When Machines may try it again.'),
    })
    .describe('An offering found without capacity, or where EC2 is taking spot capacity back.'),
)

/** The observed state of a MachineClass. */
export const machineClassStatusSchema = lazySchema(() =>
  hubStatusSchema('MachineClass', {
    observedGeneration: observedGenerationSchema(),
    contentHash: z
      .string()
      .max(63)
      .optional()
      .describe(
        'A hash of what Machines of this class are built from (provider, providerSpec, ' +
          'userDataSecretRef, status.image when it follows one). A Machine records the hash it was built from (status.builtFrom); ' +
          'when they differ its UpToDate condition is False (ClassChanged) and a MachineDeployment ' +
          'using this class rolls its Machines.',
      ),
    image: z
      .strictObject({
        id: z.string().min(1).max(128).describe('The image id, e.g. ami-0abc.'),
        name: z.string().max(256).optional().describe("The image's name."),
        creationDate: z.string().max(64).optional().describe("The image's creation date."),
        resolvedAt: z.iso
          .datetime({ offset: true })
          .describe('When the controller first found this image the newest match.'),
      })
      .optional()
      .describe(
        'The image Machines of this class launch, for a class that follows the newest image ' +
          'matching its filters (aws ami.follow: Newest). Part of contentHash, so a newer image ' +
          'rolls the deployments using the class (reason ImageChanged).',
      ),
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
    offeredZones: z
      .array(z.string().min(1).max(63).describe('A zone, e.g. eu-west-1a.'))
      .max(64)
      .optional()
      .describe(
        'The zones a Machine of this class can launch in, found by the provider (aws: the zones ' +
          'of the subnets that offer one of the instance types).',
      ),
    zoneInstanceTypes: z
      .array(
        z
          .object({
            zone: z.string().min(1).max(63).describe('A zone of offeredZones.'),
            instanceTypes: z
              .array(z.string().min(1).max(64).describe('An instance type, e.g. m7i.large.'))
              .max(64)
              .describe("The class's instance types offered in the zone, in the class's order."),
          })
          .describe('One offered zone and the instance types it offers.'),
      )
      .max(64)
      .optional()
      .describe(
        "For each offered zone, the class's instance types the provider offers there (aws: " +
          'DescribeInstanceTypeOfferings): a zone hosts a Machine only with those, so it leaves ' +
          'zones when each of them is listed in unavailableOfferings.',
      ),
    zones: z
      .array(z.string().min(1).max(63).describe('A zone, e.g. eu-west-1a.'))
      .max(64)
      .optional()
      .describe(
        'The zones that can host a Machine of this class now: offeredZones without those where ' +
          'unavailableOfferings lists every offering of the class (all stay when every zone is ' +
          "out). A MachineSet spreads its Machines over them evenly, writing each one's zone to " +
          'its spec.failureDomain.',
      ),
    unavailableOfferings: z
      .array(unavailableOfferingSchema())
      .max(maxUnavailableOfferings)
      .optional()
      .describe(
        'Offerings a launch of a Machine of this class found without capacity, each skipped by ' +
          "every Machine of the class until it expires or a launch there succeeds: the class's " +
          'shared memory, read by every worker (spec.unavailableOfferingTTL). Also the spot ' +
          'offerings of interrupted Machines (reason SpotInterruption or RebalanceRecommended), ' +
          'listed by their MachineSet before it replaces them until their deadline plus the TTL: ' +
          'tried only after every other offering, and never cleared by a launch.',
      ),
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
