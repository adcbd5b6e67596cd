/**
 * @module The write side of an adoption: runs the steps plan.ts and plan-rollback.ts chose, each
 * idempotent (a create that finds its object, a delete that finds nothing, a tag already there are
 * all success), so a rerun after a crash at any line repeats what it must and nothing else.
 */
import { CreateTagsCommand, DeleteTagsCommand, type EC2Client } from '@aws-sdk/client-ec2'
import { ANNOTATIONS, API_GROUP } from '../api/group'
import { machineApiTypes } from '../api/resource-types'
import { hasKubeReason } from '../kube/errors'
import type { KubeClient } from '../kube/kube-client'
import { coreTypes, type KubeObject, type ResourceType } from '../kube/resource'
import { classifyAwsError } from '../providers/aws/errors'
import { tagKeys } from '../providers/aws/tags'
import type { AdoptStep } from './plan'
import { ownershipTagKeys, type RollbackStep } from './plan-rollback'
import { pauseAnnotation, type SourceRef } from './source-types'

/** What the steps need. */
export interface ExecuteDeps {
  kube: KubeClient
  ec2: EC2Client
  /** This installation's owner tag value (cli/installation-owner.ts). */
  ownerId: string
  signal: AbortSignal
}

const kindTypes: Record<string, ResourceType> = {
  MachineClass: machineApiTypes.machineClass,
  MachineDeployment: machineApiTypes.machineDeployment,
  MachineSet: machineApiTypes.machineSet,
  Machine: machineApiTypes.machine,
}

async function ignoring<T>(
  reason: 'AlreadyExists' | 'NotFound',
  run: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await run()
  } catch (error) {
    if (hasKubeReason(error, reason)) return undefined
    throw error
  }
}

/** Runs one adoption step. */
export async function executeAdoptStep(
  deps: ExecuteDeps,
  step: AdoptStep,
  namespace: string,
): Promise<void> {
  switch (step.type) {
    case 'pause':
      await ignoring('NotFound', () =>
        deps.kube.mergePatch(step.ref.type, step.ref, {
          metadata: { annotations: { [pauseAnnotation(step.ref)]: namespace } },
        }),
      )
      return
    case 'create': {
      const kind = String(step.object.kind)
      const type = kindTypes[kind]
      if (!type) throw new Error(`adopt cannot create a ${kind}`)
      await ignoring('AlreadyExists', () => deps.kube.create(type, step.object as KubeObject))
      return
    }
    case 'tag-instance': {
      const tags = { ...step.tags, [tagKeys.owner]: deps.ownerId }
      await deps.ec2
        .send(
          new CreateTagsCommand({
            Resources: [step.instanceId],
            Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
          }),
          { abortSignal: deps.signal },
        )
        .catch((error: unknown) => {
          throw classifyAwsError(error, 'CreateTags')
        })
      return
    }
    case 'unpause-deployment':
      await deps.kube.mergePatch(
        machineApiTypes.machineDeployment,
        { namespace, name: step.name },
        {
          spec: { paused: false },
        },
      )
      return
    case 'release':
      await release(deps.kube, step.ref)
      return
  }
}

/** Strips the source object's finalizers, then deletes it: no controller is left to act on it. */
async function release(kube: KubeClient, ref: SourceRef): Promise<void> {
  await ignoring('NotFound', () =>
    kube.mergePatch(ref.type, ref, { metadata: { finalizers: null } }),
  )
  await kube.delete(ref.type, ref)
}

/** Runs one rollback step. */
export async function executeRollbackStep(
  deps: ExecuteDeps,
  step: RollbackStep,
  namespace: string,
): Promise<void> {
  switch (step.type) {
    case 'pause-deployment':
      await deps.kube.mergePatch(
        machineApiTypes.machineDeployment,
        { namespace, name: step.name },
        {
          spec: { paused: true },
        },
      )
      return
    case 'disable-set-create':
      await deps.kube.mergePatch(
        machineApiTypes.machineSet,
        { namespace, name: step.name },
        {
          metadata: { annotations: { [ANNOTATIONS.disableMachineCreate]: 'true' } },
        },
      )
      return
    case 'delete-orphaning': {
      const type = kindTypes[step.kind] as ResourceType
      const orphan = step.kind === 'MachineClass' ? {} : { propagationPolicy: 'Orphan' }
      await deps.kube.delete(type, { namespace, name: step.name }, orphan)
      return
    }
    case 'untag-instance':
      await deps.ec2
        .send(
          new DeleteTagsCommand({
            Resources: [step.instanceId],
            Tags: ownershipTagKeys.map((Key) => ({ Key })),
          }),
          { abortSignal: deps.signal },
        )
        .catch((error: unknown) => {
          throw classifyAwsError(error, 'DeleteTags')
        })
      return
    case 'remove-machine':
      await removeMachine(deps.kube, namespace, step.name)
      return
    case 'unpause':
      await ignoring('NotFound', () =>
        deps.kube.mergePatch(step.ref.type, step.ref, {
          metadata: { annotations: { [pauseAnnotation(step.ref)]: null } },
        }),
      )
      return
  }
}

/**
 * Removes a Machine without its deletion sequence (which would drain its Node and terminate its
 * instance): machine-api's finalizers off, then a delete conditional on that resourceVersion, so a
 * controller that put a finalizer back in between makes it a Conflict (the next pass retries).
 * Then the Node's link to it goes.
 */
async function removeMachine(kube: KubeClient, namespace: string, name: string): Promise<void> {
  const ref = { namespace, name }
  const machine = await kube.get<KubeObject>(machineApiTypes.machine, ref)
  if (!machine) return
  const keep = (machine.metadata?.finalizers ?? []).filter((f) => !f.startsWith(`${API_GROUP}/`))
  const patched = await kube.mergePatch<KubeObject>(machineApiTypes.machine, ref, {
    metadata: { finalizers: keep, resourceVersion: machine.metadata?.resourceVersion },
  })
  await kube.delete(machineApiTypes.machine, ref, {
    uid: patched.metadata?.uid ?? '',
    resourceVersion: patched.metadata?.resourceVersion ?? '',
  })
  const nodeName = (machine.status as { nodeRef?: { name?: string } } | undefined)?.nodeRef?.name
  if (!nodeName) return
  const node = await kube.get<KubeObject>(coreTypes.node, { name: nodeName })
  if (node?.metadata?.annotations?.[ANNOTATIONS.machine] !== `${namespace}/${name}`) return
  await kube.mergePatch(
    coreTypes.node,
    { name: nodeName },
    {
      metadata: { annotations: { [ANNOTATIONS.machine]: null } },
    },
  )
}
