/** @module Simulated Nodes for integration tests: plain v1.Node objects that kwok keeps alive. */
import type { CoreV1Api, V1Node } from '@kubernetes/client-node'

/** The annotation kwok's --manage-nodes-with-annotation-selector matches. */
export const kwokNodeAnnotation = 'kwok.x-k8s.io/node'

/** A Node that kwok will play the kubelet for. */
export function kwokNode(name: string, extra: { labels?: Record<string, string> } = {}): V1Node {
  return {
    metadata: {
      name,
      annotations: { [kwokNodeAnnotation]: 'fake' },
      labels: { 'kubernetes.io/hostname': name, type: 'kwok', ...extra.labels },
    },
    spec: {},
  }
}

/** The status of the Node's Ready condition, or undefined when it has none yet. */
export function nodeReadyStatus(node: V1Node): string | undefined {
  return node.status?.conditions?.find((c) => c.type === 'Ready')?.status
}

/** Reads the Node and returns its Ready status. */
export async function readNodeReady(core: CoreV1Api, name: string): Promise<string | undefined> {
  return nodeReadyStatus(await core.readNode({ name }))
}
