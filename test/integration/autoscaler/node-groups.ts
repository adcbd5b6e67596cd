/**
 * @module What the cluster-autoscaler tests create and read: kwok MachineClasses, node-group
 * MachineDeployments (bounds annotated, nothing else for the autoscaler), the workloads whose Pods
 * ask for room, and the Machines, Pods and Events a user would look at.
 */
import { ANNOTATIONS } from '../../../src/api/group'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import { machinesOf } from '../full-stack/objects'

/** The label a node group's Machines carry (and its selector matches). */
const groupLabel = 'autoscaler-test/group'

/** A kwok MachineClass: Machines of it get Nodes with this allocatable. */
export function kwokClass(
  namespace: string,
  name: string,
  allocatable: Record<string, string>,
): KubeObject {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace, name },
    spec: { provider: 'kwok', providerSpec: { allocatable } },
  }
}

/**
 * A MachineDeployment that is a node group between `min` and `max` Machines of `className`;
 * `nodeLabels` go into the template's `spec.metadata.labels`, which machine-api puts on the Nodes.
 */
export function nodeGroup(
  namespace: string,
  name: string,
  options: {
    className: string
    replicas: number
    min: number
    max: number
    nodeLabels?: Record<string, string>
  },
): KubeObject {
  const labels = { [groupLabel]: name }
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: {
      namespace,
      name,
      annotations: {
        [ANNOTATIONS.autoscalerMinSize]: String(options.min),
        [ANNOTATIONS.autoscalerMaxSize]: String(options.max),
      },
    },
    spec: {
      replicas: options.replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          classRef: { name: options.className },
          ...(options.nodeLabels ? { metadata: { labels: options.nodeLabels } } : {}),
          nodeDeletionTimeout: '10s',
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    },
  }
}

/** An apps/v1 Deployment of `replicas` Pods, each requesting `cpu`, placed by `nodeSelector`. */
export function workload(
  namespace: string,
  name: string,
  options: { replicas: number; cpu: string; nodeSelector?: Record<string, string> },
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { namespace, name },
    spec: {
      replicas: options.replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'registry.k8s.io/pause:3.10',
              resources: { requests: { cpu: options.cpu, memory: '64Mi' } },
            },
          ],
          ...(options.nodeSelector ? { nodeSelector: options.nodeSelector } : {}),
          terminationGracePeriodSeconds: 0,
        },
      },
    },
  }
}

/** The Machines of node group `name`. */
export async function groupMachines(
  kube: KubeClient,
  namespace: string,
  name: string,
): Promise<MachineObject[]> {
  return (await machinesOf(kube, namespace)).filter((m) => m.metadata.labels?.[groupLabel] === name)
}

/** The node group a Machine belongs to. */
export function groupOf(machine: MachineObject): string | undefined {
  return machine.metadata.labels?.[groupLabel]
}

type Pod = KubeObject & {
  spec?: { nodeName?: string }
  status?: { phase?: string }
}

/** The Pods of workload `name`. */
export async function workloadPods(kube: KubeClient, namespace: string, name: string) {
  return (await kube.list<Pod>(coreTypes.pod, { namespace, labelSelector: `app=${name}` })).items
}

/** True when every Pod of the list runs on a Node (and there are `count`). */
export function allRunning(pods: Pod[], count: number): boolean {
  return (
    pods.length === count &&
    pods.every((p) => p.status?.phase === 'Running' && Boolean(p.spec?.nodeName))
  )
}

type Event = KubeObject & {
  reason?: string
  message?: string
  involvedObject?: { kind?: string; name?: string }
}

/** The Events of the namespace with `reason`, about objects of `kind`. */
export async function eventsWithReason(
  kube: KubeClient,
  namespace: string,
  kind: string,
  reason: string,
): Promise<Event[]> {
  const events = (await kube.list<Event>(coreTypes.event, { namespace })).items
  return events.filter((e) => e.reason === reason && e.involvedObject?.kind === kind)
}
