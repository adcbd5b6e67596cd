/**
 * @module More namespaces like the aws world's (its credentials Secret and MachineClass copied), so
 * the event-loss phases run side by side, each with its own bus, on one moto and one control plane.
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { chaosClassName } from './aws-world'

type WithSpec = KubeObject & { spec?: unknown; data?: Record<string, string> }

/** Creates `name` with copies of the world namespace's Secret `aws` and MachineClass. */
export async function cloneWorldNamespace(
  kube: KubeClient,
  from: string,
  name: string,
): Promise<void> {
  const secret = await kube.get<WithSpec>(coreTypes.secret, { namespace: from, name: 'aws' })
  const machineClass = await kube.get<WithSpec>(machineApiTypes.machineClass, {
    namespace: from,
    name: chaosClassName,
  })
  if (!secret || !machineClass) throw new Error(`namespace ${from} has no aws Secret or class`)
  await kube.create(coreTypes.namespace, { metadata: { name } })
  await kube.create(coreTypes.secret, {
    metadata: { namespace: name, name: 'aws' },
    data: secret.data,
  })
  await kube.create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: name, name: chaosClassName },
    spec: machineClass.spec,
  } as KubeObject)
}

/** Deletes the namespaces (best effort: teardown). */
export async function deleteNamespaces(kube: KubeClient, names: readonly string[]): Promise<void> {
  await Promise.all(
    names.map((name) => kube.delete(coreTypes.namespace, { name }).catch(() => false)),
  )
}
