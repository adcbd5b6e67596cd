/** @module Machine v1beta1 (storage, hub): one machine, its provider, its Node and its deletion policy. */
import { z } from 'zod'
import { timestampSchema } from '../shared/conditions'
import { observedGenerationSchema } from '../shared/counts'
import { durationSchema } from '../shared/duration-schema'
import { lazySchema } from '../shared/lazy-schema'
import { localReferenceSchema, templateMetaSchema } from '../shared/meta'
import {
  machineAddressSchema,
  machineVersionsSchema,
  nodeReferenceSchema,
  taintSchema,
} from '../shared/node-fields'
import {
  providerDataSchema,
  providerMachineSpecSchema,
  providerNameSchema,
} from '../shared/provider-spec'
import { hubResourceSchema, hubStatusSchema } from '../shared/resource'

/** The provider and its spec, inline. */
export const inlineProviderSpecSchema = lazySchema(() =>
  z
    .object({
      provider: providerNameSchema(),
      value: providerMachineSpecSchema(),
    })
    .describe('The provider and its machine spec, inline. Exclusive with classRef.'),
)

/** One lifecycle hook: deletion waits while it is present. */
const lifecycleHookSchema = lazySchema(() =>
  z
    .object({
      name: z.string().min(1).max(256).describe('Name of the hook, unique per owner.'),
      owner: z.string().min(1).max(512).describe('Who added the hook and will remove it.'),
    })
    .describe('A hook that blocks a deletion stage until its owner removes it.'),
)

const hookListSchema = (stage: string) =>
  z
    .array(lifecycleHookSchema())
    .max(32)
    .optional()
    .describe(`Hooks that must all be removed before ${stage}.`)

/** The v1beta1 Machine spec; also the spec of MachineSet and MachineDeployment templates. */
export const machineSpecSchema = lazySchema(() =>
  z
    .object({
      providerSpec: inlineProviderSpecSchema().optional(),
      classRef: localReferenceSchema(
        'The MachineClass that holds the provider and its spec. Exclusive with providerSpec.',
        'MachineClass',
      ).optional(),
      providerID: z
        .string()
        .min(1)
        .max(512)
        .meta({
          'x-kubernetes-validations': [
            { rule: 'self == oldSelf', message: 'providerID is immutable once set' },
          ],
        })
        .optional()
        .describe('The provider ID of the machine, equal to the Node spec.providerID. Set once.'),
      versions: machineVersionsSchema(
        'Desired versions of the Kubernetes components; optional.',
      ).optional(),
      metadata: templateMetaSchema('Labels and annotations to propagate to the Node.').optional(),
      taints: z.array(taintSchema()).max(64).optional().describe('Taints to keep on the Node.'),
      lifecycleHooks: z
        .object({
          preDrain: hookListSchema('the Node is drained'),
          preTerminate: hookListSchema('the instance is terminated'),
        })
        .optional()
        .describe('Hooks that pause deletion at the drain and terminate stages.'),
      nodeDrainTimeout: durationSchema(
        'How long to try draining the Node before deleting anyway; unset or 0 means no limit.',
      ).optional(),
      nodeVolumeDetachTimeout: durationSchema(
        'How long to wait for volumes to detach from the Node; unset or 0 means no limit.',
      ).optional(),
      nodeDeletionTimeout: durationSchema(
        'How long to retry deleting the Node after the instance is gone; 0 means retry forever.',
      ).default('10s'),
      failureDomain: z
        .string()
        .min(1)
        .max(256)
        .meta({
          'x-kubernetes-validations': [
            { rule: 'self == oldSelf', message: 'failureDomain is immutable once set' },
          ],
        })
        .optional()
        .describe(
          'The zone the instance is launched in (e.g. eu-west-1a). A MachineSet sets it to balance ' +
            'its Machines over the zones of its class; unset lets the provider choose.',
        ),
      provisioningTimeout: durationSchema(
        'How long a Machine may take from creation to a linked, Ready Node before it is Failed ' +
          'with reason ProvisioningTimeout and its instance terminated (its MachineSet replaces it); ' +
          'unset means 15m, 0 means no limit.',
      ).optional(),
      expireAfter: durationSchema(
        'How long the Machine may live: once it is older than this, its MachineSet replaces it, ' +
          'the replacement created first (surge) and the oldest expired Machine first, within the ' +
          "MachineDeployment's disruption budgets for reason Expiry. Unset means never; changing " +
          'it never rolls Machines out (it is propagated in place). At most 87600h.',
      ).optional(),
    })
    .meta({
      'x-kubernetes-validations': [
        {
          rule: 'has(self.providerSpec) != has(self.classRef)',
          message: 'exactly one of providerSpec or classRef must be set',
        },
      ],
    })
    .describe('The desired state of a Machine.'),
)

/** The v1beta1 Machine spec. */
export type MachineSpec = z.infer<ReturnType<typeof machineSpecSchema>>

/** The lifecycle phases of a Machine, in the order it passes through them. */
export const MACHINE_PHASES = [
  'Pending',
  'Provisioning',
  'Provisioned',
  'Running',
  'Deleting',
  'Failed',
] as const

const podNameSchema = () => z.string().max(317).describe('The pod, as namespace/name.')

/** What draining the Node did so far (src/drain/drain-record.ts), kept until the Machine is gone. */
const drainRecordSchema = lazySchema(() =>
  z
    .object({
      evicted: z.array(podNameSchema()).max(50).describe('Pods evicted (the first 50).'),
      evictedCount: z.number().int().min(0).describe('Evictions made, by every pass.'),
      skipped: z
        .array(
          z
            .object({ pod: podNameSchema(), reason: z.string().max(256).describe('Why it stays.') })
            .describe('A pod left on the Node.'),
        )
        .max(50)
        .describe('Pods the drain leaves on the Node, and why.'),
      warnings: z
        .array(
          z
            .object({
              pod: podNameSchema(),
              warning: z.string().max(256).describe('What a human may care about.'),
            })
            .describe('A pod evicted with a warning.'),
        )
        .max(50)
        .describe('Pods evicted with a warning (emptyDir data lost, no controller).'),
    })
    .describe('What draining the Node did: evicted, skipped (and why) and warned-about pods.'),
)

/** The observed state of a Machine. */
export const machineStatusSchema = lazySchema(() =>
  hubStatusSchema('Machine', {
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
    providerStatus: providerDataSchema(
      "The provider's view of the machine (instance state...).",
    ).optional(),
    versions: machineVersionsSchema('Observed versions of the Kubernetes components.').optional(),
    failureReason: z
      .string()
      .max(256)
      .optional()
      .describe('A terminal problem, machine-readable; needs a human.'),
    failureMessage: z.string().max(10240).optional().describe('A terminal problem, for humans.'),
    failureClassGeneration: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        'The generation of the MachineClass a provider failure happened on. A Machine that no ' +
          'MachineSet controls tries again once its class has another generation.',
      ),
    observedGeneration: observedGenerationSchema(),
    lastUpdated: timestampSchema('When the phase last changed.').optional(),
    builtFrom: z
      .object({
        templateHash: z
          .string()
          .max(63)
          .optional()
          .describe("The MachineSet template's hash (label machine-api.dev/template-hash)."),
        classHash: z
          .string()
          .max(63)
          .optional()
          .describe("The content hash of its MachineClass (the class's status.contentHash)."),
        classGeneration: z.int().min(0).optional().describe('The generation of its MachineClass.'),
        imageId: z
          .string()
          .max(256)
          .optional()
          .describe('The machine image (AMI) its instance was launched from.'),
      })
      .optional()
      .describe(
        'What the instance was built from, recorded when it was created; the UpToDate condition ' +
          'compares it with what its MachineClass says now.',
      ),
    deletion: z
      .object({
        nodeDrainStartTime: timestampSchema('When draining the Node started.').optional(),
        waitForNodeVolumeDetachStartTime: timestampSchema(
          'When waiting for volume detach started.',
        ).optional(),
        waitForPreDrainHookStartTime: timestampSchema(
          'When waiting for pre-drain hooks started.',
        ).optional(),
        waitForPreTerminateHookStartTime: timestampSchema(
          'When waiting for pre-terminate hooks started.',
        ).optional(),
        drain: drainRecordSchema().optional(),
      })
      .optional()
      .describe('Timers of the deletion stages, to enforce their timeouts.'),
  }),
)

/** A v1beta1 Machine (output of parsing: defaults applied). */
export type Machine = z.infer<ReturnType<typeof machineSchema>>
/** The whole v1beta1 Machine object. */
export const machineSchema = lazySchema(() =>
  hubResourceSchema('Machine', {
    spec: machineSpecSchema(),
    status: machineStatusSchema(),
  }).describe('A Machine: one node-to-be, provisioned by a provider.'),
)

/** The observed state of a v1beta1 Machine. */
export type MachineStatus = z.infer<ReturnType<typeof machineStatusSchema>>
