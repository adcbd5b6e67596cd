/**
 * @module Drives a MachineDeployment and its MachineSets through reconcile passes, as the runtime
 * would on events, while the test plays the Machine controller (marking Machines ready).
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import { hasKubeReason } from '../../../src/kube/errors'
import type { KubeObject } from '../../../src/kube/resource'
import type { MachineDeploymentObject } from '../../../src/reconcile/machine-deployment/machine-sets'
import {
  listDeploymentSets,
  reconcileMachineDeployment,
} from '../../../src/reconcile/machine-deployment/reconcile'
import type { MachineSetObject } from '../../../src/reconcile/machine-set/types'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { waitFor } from '../../harness/kube'
import { machineSpec, markAllReady } from '../machine-set/fixture'
import { reconcileOnce } from '../machine-set/settle'

/** A MachineDeployment manifest selecting `md=<name>`. */
export function deploymentManifest(
  namespace: string,
  name: string,
  spec: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: { namespace, name },
    spec: {
      selector: { matchLabels: { md: name } },
      template: { metadata: { labels: { md: name } }, spec: machineSpec },
      ...spec,
    },
  }
}

/** The deployment and its sets, fresh. */
export async function readDeployment(deps: ReconcileDeps, namespace: string, name: string) {
  const md = await deps.kube.get<MachineDeploymentObject & { [k: string]: unknown }>(
    machineApiTypes.machineDeployment,
    { namespace, name },
  )
  if (!md) throw new Error(`MachineDeployment ${name} not found`)
  return { md, sets: await listDeploymentSets(deps, md) }
}

/** One pass: the deployment, then each of its sets, then (optionally) Machines become ready. */
export async function pass(
  deps: ReconcileDeps,
  namespace: string,
  name: string,
  options: { ready?: boolean } = {},
): Promise<void> {
  try {
    await reconcileMachineDeployment(deps, { kind: 'MachineDeployment', namespace, name })
  } catch (error) {
    if (!hasKubeReason(error, 'Conflict', 'AlreadyExists', 'TooManyRequests')) throw error
  }
  const { sets } = await readDeployment(deps, namespace, name)
  for (const set of sets) await reconcileOnce(deps, namespace, set.metadata.name)
  if (options.ready ?? true) await markAllReady(deps.kube, namespace)
}

/** Passes until `done` holds for the deployment and its sets; returns them. */
export async function driveUntil(
  deps: ReconcileDeps,
  namespace: string,
  name: string,
  done: (md: MachineDeploymentObject, sets: MachineSetObject[]) => boolean,
  options: { ready?: boolean } = {},
) {
  return await waitFor(
    `MachineDeployment ${name} to reach the expected state`,
    async () => {
      await pass(deps, namespace, name, options)
      const state = await readDeployment(deps, namespace, name)
      return done(state.md, state.sets) ? state : false
    },
    { intervalMs: 20, timeoutMs: 100_000 },
  )
}

/** True when the rollout of the current template is complete and reported so. */
export function rolledOut(md: MachineDeploymentObject): boolean {
  const progressing = md.status?.conditions?.find((c) => c.type === 'Progressing')
  return (
    md.status?.observedGeneration === md.metadata.generation &&
    progressing?.reason === 'NewMachineSetAvailable' &&
    md.status?.replicas === md.spec.replicas &&
    md.status?.availableReplicas === md.spec.replicas
  )
}
