/**
 * @module Shared by the MachineSet and MachineDeployment integration tests: a counting kube
 * client, reconcile deps, manifests, and the stand-in for the (not yet wired) Machine controller
 * that marks Machines Running and Ready through the status subresource.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import { machineApiTypes } from '../../../src/api/resource-types'
import { systemClock } from '../../../src/clock'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { hasKubeReason } from '../../../src/kube/errors'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { KubeObject } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import { listMachines } from '../../../src/reconcile/machine-set/reconcile'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'

/** A kube client that counts its apiserver calls, in total and by `verb resource`. */
export function countingKube(kc: KubeConfig): {
  kube: KubeClient
  calls: () => number
  byVerb: () => Record<string, number>
} {
  const counts: Record<string, number> = {}
  const kube = createKubeClient(
    createHttpTransport(kc, ({ verb, resource }) => {
      const key = `${verb} ${resource}`
      counts[key] = (counts[key] ?? 0) + 1
    }),
  )
  return {
    kube,
    calls: () => Object.values(counts).reduce((a, b) => a + b, 0),
    byVerb: () => ({ ...counts }),
  }
}

/** Reconcile deps for tests. */
export function testDeps(kube: KubeClient): ReconcileDeps {
  return { kube, clock: systemClock, log: silentLogger(), fieldManager: 'machine-api-test' }
}

/** A Machine spec the webhook accepts without a provider (the class need not exist). */
export const machineSpec = { classRef: { name: 'x' } }

/** A MachineSet manifest selecting `set=<name>`. */
export function machineSetManifest(
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
): KubeObject {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineSet',
    metadata: { namespace, name },
    spec: {
      selector: { matchLabels: { set: name } },
      template: { metadata: { labels: { set: name } }, spec: machineSpec },
      ...spec,
    },
  }
}

/** Sets status as the Machine controller would once the Node is Ready. */
export async function markReady(kube: KubeClient, machine: MachineObject): Promise<void> {
  const now = new Date().toISOString()
  await kube
    .mergePatch(
      machineApiTypes.machine,
      { namespace: machine.metadata.namespace, name: machine.metadata.name },
      {
        status: {
          phase: 'Running',
          nodeRef: { name: `node-${machine.metadata.name}` },
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'NodeReady',
              message: 'simulated by the test',
              lastTransitionTime: now,
            },
          ],
        },
      },
      { subresource: 'status' },
    )
    .catch((error: unknown) => {
      // Deleted meanwhile (no finalizer in these tests): nothing to mark.
      if (!hasKubeReason(error, 'NotFound')) throw error
    })
}

/** True when the Machine carries Ready=True. */
export function isReady(machine: MachineObject): boolean {
  return machine.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false
}

/** Marks every not-yet-ready, not-deleting Machine of the namespace ready; returns how many. */
export async function markAllReady(kube: KubeClient, namespace: string): Promise<number> {
  const pending = (await listMachines(kube, namespace)).filter(
    (m) => !isReady(m) && !m.metadata.deletionTimestamp,
  )
  for (let i = 0; i < pending.length; i += 10) {
    await Promise.all(pending.slice(i, i + 10).map((m) => markReady(kube, m)))
  }
  return pending.length
}

/** The Machines controlled by the object with `uid`. */
export function ownedBy(machines: MachineObject[], uid: string | undefined): MachineObject[] {
  return machines.filter((m) =>
    m.metadata.ownerReferences?.some((o) => o.controller && o.uid === uid),
  )
}
