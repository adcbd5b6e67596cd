/**
 * @module Drops Node changes that are only heartbeats. A kubelet (or kwok) renews each condition's
 * `lastHeartbeatTime` periodically: a new resourceVersion and a watch event per Node, waking its
 * Machine and health checks to find nothing changed, a cost that grows with Nodes x time. The
 * filter remembers a digest of each Node without those fields and lets a change through only when
 * the digest moved; a Ready flip changes the condition's status and lastTransitionTime, so it
 * always passes. The digests are transport state, never read by a reconcile; losing them (a
 * restart, a relist) only lets changes through.
 * https://kubernetes.io/docs/reference/node/node-status/#heartbeats
 */
import { createHash } from 'node:crypto'
import { coreTypes, type KubeObject, type ResourceType } from '../kube/resource'
import type { ChangeType } from './watch-source'

/** Fields that move on every heartbeat or write and that no controller decides on. */
const volatileFields = new Set(['resourceVersion', 'managedFields', 'lastHeartbeatTime'])

/** Decides which changes of one watched kind to deliver. */
export interface ChangeFilter {
  /** False for a modification that changed nothing but heartbeats. */
  admit(obj: KubeObject, change: ChangeType): boolean
  /** Forgets every digest (call on a relist, which delivers every object again). */
  reset(): void
}

/** The digest of `obj` without its volatile fields. */
export function heartbeatFreeDigest(obj: KubeObject): string {
  const json = JSON.stringify(obj, (key, value: unknown) =>
    volatileFields.has(key) ? undefined : value,
  )
  return createHash('sha1').update(json).digest('base64')
}

/** A filter for Nodes: about 150 bytes per Node, dropped when the Node is deleted. */
export function createHeartbeatFilter(): ChangeFilter {
  const digests = new Map<string, string>()
  return {
    admit(obj, change) {
      const id = obj.metadata?.uid ?? obj.metadata?.name ?? ''
      if (change === 'DELETED') {
        digests.delete(id)
        return true
      }
      const digest = heartbeatFreeDigest(obj)
      const previous = digests.get(id)
      digests.set(id, digest)
      return change !== 'MODIFIED' || previous !== digest
    },
    reset() {
      digests.clear()
    },
  }
}

/** The filter for a watched kind: Nodes get a heartbeat filter; other kinds have no heartbeats. */
export function changeFilterFor(type: ResourceType): ChangeFilter | undefined {
  const node = type.group === coreTypes.node.group && type.kind === coreTypes.node.kind
  return node ? createHeartbeatFilter() : undefined
}
