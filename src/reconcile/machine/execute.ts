/**
 * @module Carries out one Machine action and reports its raw outcome (outcomes.ts folds it into
 * the observation and words its Events). One function per action; the table is exhaustive over
 * MachineAction, so a new action without one fails typecheck. Provider failures come back as
 * data (provider-context.ts); apiserver errors are thrown for the runner (a Conflict re-reads
 * soon). Reads are observe.ts's.
 */
import { LABELS } from '../../api/group'
import { providerIdHash } from '../../api/node-link'
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import { drainNodePass } from '../../drain/drain'
import { kubeDrainClient } from '../../drain/kube-drain-client'
import { errorMessage } from '../../errors'
import { hasKubeReason } from '../../kube/errors'
import { coreTypes, type KubeObject, refOf } from '../../kube/resource'
import { toActuatorMachine } from '../../providers/machine'
import type { MachineAction } from './actions'
import { type ClaimHolder, createClaimAnnotation, formatClaim } from './claim-holder'
import type { MachineDeps } from './machine-deps'
import { legacyMachineFinalizer, machineFinalizer } from './machine-deps'
import { writeNodeSync } from './node-linking'
import type { MachineObservation } from './observation'
import { lookUpNode, nodeAfterInstance } from './observe'
import type { ActionOutcomes, OutcomeOf } from './outcomes'
import type { MachineProvider } from './provider-context'

/** What the executor works with besides the observation. */
export interface MachineExecutor {
  deps: MachineDeps
  /** Undefined when no provider is usable (the planner then plans no provider action). */
  provider: MachineProvider | undefined
  holder: ClaimHolder
  now: Date
}

type Execute<K extends MachineAction['type']> = (
  exec: MachineExecutor,
  obs: MachineObservation,
  action: Extract<MachineAction, { type: K }>,
) => Promise<ActionOutcomes[K]>

const executors: { [K in MachineAction['type']]: Execute<K> } = {
  'add-finalizer': addFinalizer,
  'claim-create': async ({ deps, ...exec }, { machine }, action) => ({
    machine: await patchMachine(deps, machine, {
      metadata: { annotations: claimOf(exec, action.forDeletion) },
    }),
  }),
  'create-instance': async (exec, { machine }) => {
    const view = toActuatorMachine(machine)
    return await required(exec.provider).call((actuator, ctx) => actuator.create(ctx, view))
  },
  'release-claim': async ({ deps }, { machine }) => ({
    machine: await releaseClaim(deps, machine),
  }),
  'record-provider-id': recordProviderId,
  'find-node': async ({ deps }, obs, { providerID }) => await lookUpNode(deps, obs, providerID),
  'link-node': async () => ({}),
  'sync-node': async ({ deps }, obs, { nodeName, patch }) => {
    const resourceVersion =
      obs.node.state === 'found' ? obs.node.node.metadata?.resourceVersion : undefined
    return { node: await writeNodeSync(deps, nodeName, patch, resourceVersion) }
  },
  'drain-node': async ({ deps, now }, _, { nodeName, nodeUnreachable }) => ({
    result: await drainNodePass(kubeDrainClient(deps.kube), { nodeName, nodeUnreachable, now }),
  }),
  'skip-drain': async () => ({}),
  'skip-volume-wait': async () => ({}),
  'terminate-instance': async (exec, obs) => {
    const view = toActuatorMachine(obs.machine)
    const call = await required(exec.provider).call((actuator, ctx) => actuator.delete(ctx, view))
    if (!call.ok || !call.value.done) return { call }
    return { call, node: await nodeAfterInstance(exec.deps, obs.node) }
  },
  'delete-node': async ({ deps }, _, { nodeName, giveUpOnFailure }) => {
    try {
      await deps.kube.delete(coreTypes.node, { name: nodeName })
      return {}
    } catch (error) {
      if (!giveUpOnFailure) throw error
      return { error: errorMessage(error) }
    }
  },
  'delete-machine': async ({ deps }, { machine }) => {
    const ref = refOf(machine as KubeObject)
    // The uid precondition: never the namesake of a Machine deleted meanwhile.
    const outcome = await deps.kube.delete(machineApiTypes.machine, ref, {
      uid: machine.metadata.uid ?? '',
    })
    return { deleted: outcome !== false }
  },
  'remove-finalizer': async ({ deps }, { machine }) => ({
    machine: await patchMachine(deps, machine, {
      metadata: { finalizers: withoutOurFinalizers(machine) },
    }),
  }),
}

/** Runs `action`; returns what it did. */
export async function executeMachineAction<A extends MachineAction>(
  exec: MachineExecutor,
  obs: MachineObservation,
  action: A,
): Promise<OutcomeOf<A>> {
  const run = executors[action.type] as Execute<A['type']>
  return await run(exec, obs, action as unknown as Extract<MachineAction, { type: A['type'] }>)
}

/** Our finalizer (replacing the earlier versions' one), with the create claim when asked. */
async function addFinalizer(
  { deps, ...exec }: MachineExecutor,
  { machine }: MachineObservation,
  action: Extract<MachineAction, { type: 'add-finalizer' }>,
): Promise<{ machine: Machine }> {
  const finalizers = [...withoutOurFinalizers(machine), machineFinalizer]
  const annotations = action.claimCreate ? { annotations: claimOf(exec) } : {}
  return {
    machine: await patchMachine(deps, machine, { metadata: { finalizers, ...annotations } }),
  }
}

/**
 * spec.providerID (set once), the label Node events map through, and the claim dropped. On a
 * Conflict the fresh Machine is written once more: the Machine changed since this run read it,
 * most often because it was deleted while its create was in flight, and the instance just created
 * must still be recorded, or its deletion cannot know which instance to wait for. A deleting
 * Machine keeps a claim, restamped as a deletion's (deletion.ts `createClaimHold`): EC2 may not
 * show the new instance yet, and until the deletion sees it terminate, that is all it knows.
 */
async function recordProviderId(
  { deps, ...exec }: MachineExecutor,
  { machine }: MachineObservation,
  { providerID }: Extract<MachineAction, { type: 'record-provider-id' }>,
): Promise<{ machine: Machine }> {
  try {
    return { machine: await patchMachine(deps, machine, providerIdPatch(machine, providerID)) }
  } catch (error) {
    if (!hasKubeReason(error, 'Conflict')) throw error
    const fresh = await deps.kube.get<Machine>(
      machineApiTypes.machine,
      refOf(machine as KubeObject),
    )
    if (!fresh || fresh.metadata.uid !== machine.metadata.uid) throw error
    const deleting = Boolean((fresh as KubeObject).metadata?.deletionTimestamp)
    const claim = deleting ? claimOf(exec, true) : undefined
    return { machine: await patchMachine(deps, fresh, providerIdPatch(fresh, providerID, claim)) }
  }
}

function providerIdPatch(machine: Machine, providerID: string, claim?: Record<string, string>) {
  const recorded = machine.spec.providerID
  return {
    metadata: {
      labels: { [LABELS.providerIdHash]: providerIdHash(recorded ?? providerID) },
      annotations: claim ?? { [createClaimAnnotation]: null },
    },
    ...(recorded ? {} : { spec: { providerID } }),
  }
}

/** The Machine's finalizers other than this controller's (current and legacy). */
function withoutOurFinalizers(machine: Machine): string[] {
  const ours: string[] = [machineFinalizer, legacyMachineFinalizer]
  return ((machine as KubeObject).metadata?.finalizers ?? []).filter((f) => !ours.includes(f))
}

/** A merge patch of the Machine, conditioned on the resourceVersion this reconcile holds. */
async function patchMachine(
  deps: MachineDeps,
  machine: Machine,
  patch: { metadata: Record<string, unknown>; spec?: Record<string, unknown> },
): Promise<Machine> {
  const resourceVersion = (machine.metadata as { resourceVersion?: string }).resourceVersion
  return await deps.kube.mergePatch<Machine>(
    machineApiTypes.machine,
    refOf(machine as KubeObject),
    {
      ...patch,
      metadata: { ...patch.metadata, resourceVersion },
    },
  )
}

/** The create claim of this reconcile, as the annotations of a Machine patch. */
function claimOf(
  exec: Pick<MachineExecutor, 'now' | 'holder'>,
  forDeletion = false,
): Record<string, string> {
  return { [createClaimAnnotation]: formatClaim(exec.now, exec.holder.id, forDeletion) }
}

/** Drops the create claim; best effort without a precondition (the claim expires anyway). */
async function releaseClaim(deps: MachineDeps, machine: Machine): Promise<Machine> {
  const patch = { metadata: { annotations: { [createClaimAnnotation]: null } } }
  return await deps.kube
    .mergePatch<Machine>(machineApiTypes.machine, refOf(machine as KubeObject), patch)
    .catch((error: unknown) => {
      deps.log.warn({ err: String(error) }, 'could not release create claim')
      return machine
    })
}

function required(provider: MachineProvider | undefined): MachineProvider {
  if (!provider) throw new Error('the planner asked for a provider call without a provider')
  return provider
}
