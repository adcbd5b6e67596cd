/**
 * @module A converged fleet without provisioning, for the scale benchmark on a control plane
 * without kwok. Each kwok Machine is created with its finalizer, providerID and providerID-hash
 * label; then its Node (the object the kwok provider creates, plus a Ready condition as kwok
 * would report and the back-reference annotations the Machine controller's Node sync writes);
 * then the status the controller's own `computeMachineStatus` gives for that Machine and Node.
 * A reconcile of such a Machine finds nothing to do, which is what a sweep of a healthy fleet sees.
 */
import type { V1Node } from '@kubernetes/client-node'
import { LABELS } from '../../../src/api/group'
import { providerIdHash } from '../../../src/api/node-link'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { Machine } from '../../../src/api/v1beta1/machine'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { createPool } from '../../../src/pool'
import { kwokProviderID } from '../../../src/providers/kwok/node'
import {
  machineAnnotation,
  ownedAnnotationsAnnotation,
  ownedLabelsAnnotation,
  ownedTaintsAnnotation,
} from '../../../src/reconcile/machine/node-sync'
import { computeMachineStatus } from '../../../src/reconcile/machine/status'
import { kwokMachine, kwokNodeFor } from './fleet-manifests'

/** Creates Machines `m-<from>..m-<to-1>`, their Nodes and statuses, `concurrency` at a time. */
export async function seedConvergedFleet(
  kube: KubeClient,
  namespace: string,
  range: { from: number; to: number },
  concurrency: number,
): Promise<void> {
  const pool = createPool(concurrency)
  const failures: unknown[] = []
  for (let i = range.from; i < range.to; i++) {
    await pool.submit(() =>
      seedOne(kube, namespace, `m-${i}`).catch((error: unknown) => {
        failures.push(error)
      }),
    )
  }
  await pool.drain()
  if (failures.length > 0) throw failures[0]
}

async function seedOne(kube: KubeClient, namespace: string, name: string): Promise<void> {
  // The kwok provider's own format, so the Node it would report matches the Machine.
  const providerID = kwokProviderID({ metadata: { namespace, name, uid: '' }, spec: {} })
  const manifest = kwokMachine(namespace, name, { providerID })
  manifest.metadata = {
    ...manifest.metadata,
    labels: { [LABELS.providerIdHash]: providerIdHash(providerID) },
  }
  const machine = await kube.create<KubeObject>(machineApiTypes.machine, manifest)
  const node = await kube.create<KubeObject>(
    coreTypes.node,
    readyNode(kwokNodeFor(machine), `${namespace}/${name}`),
  )
  const nodeName = node.metadata?.name ?? ''
  const observed = {
    machine: machine as Machine,
    // What the kwok actuator's update reports for a Node without addresses of its own.
    instance: {
      state: 'present' as const,
      result: {
        providerID,
        addresses: [{ type: 'Hostname' as const, address: nodeName }],
        providerStatus: { simulated: true, nodeName },
      },
    },
    node: { state: 'found' as const, node: node as V1Node, linked: true },
  }
  await kube.mergePatch(
    machineApiTypes.machine,
    { namespace, name },
    { status: computeMachineStatus(observed, { events: [] }, new Date()) },
    { subresource: 'status' },
  )
}

/** `node` with kwok's Ready condition (nothing updates it here: no kcm, no kwok) and the links. */
function readyNode(node: KubeObject, machineKey: string): KubeObject {
  const now = new Date().toISOString()
  const status = node.status as Record<string, unknown>
  return {
    ...node,
    metadata: {
      ...node.metadata,
      annotations: {
        ...node.metadata?.annotations,
        [machineAnnotation]: machineKey,
        [ownedLabelsAnnotation]: '',
        [ownedAnnotationsAnnotation]: '',
        [ownedTaintsAnnotation]: '',
      },
    },
    status: {
      ...status,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'simulated',
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        },
      ],
    },
  }
}
