/** @module Creates the demo's objects with server-side apply (re-running the demo is harmless). */
import { machineApiTypes } from '../api/resource-types'
import type { KubeClient } from '../kube/kube-client'
import { coreTypes, type KubeObject, type ResourceType } from '../kube/resource'

const types: Record<string, ResourceType> = {
  Namespace: coreTypes.namespace,
  Secret: coreTypes.secret,
  MachineClass: machineApiTypes.machineClass,
  MachineDeployment: machineApiTypes.machineDeployment,
  MachineSet: machineApiTypes.machineSet,
  MachineHealthCheck: machineApiTypes.machineHealthCheck,
  Machine: machineApiTypes.machine,
  ClusterRole: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRole',
    plural: 'clusterroles',
    namespaced: false,
  },
}

/** Applies each object in order. */
export async function applyDemoObjects(
  kube: KubeClient,
  objects: readonly KubeObject[],
): Promise<void> {
  for (const object of objects) {
    const type = types[object.kind ?? '']
    if (!type) throw new Error(`no resource type for kind ${object.kind}`)
    await kube.apply(type, object, { fieldManager: 'machine-api-dev', force: true })
  }
}
