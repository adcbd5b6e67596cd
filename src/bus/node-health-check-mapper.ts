/**
 * @module Wakes MachineHealthChecks when a Node changes. Node conditions are what health checks
 * judge, and a Node turning NotReady does not change its Machine, so without this mapping a health
 * check would only notice at the next sweep and could not start its timer on time.
 */

import { machineKeyFromNode } from '../api/node-link'
import { selectorMatches } from '../api/shared/label-selector'
import { keyOf, type ObjectKey } from '../kube/object-key'
import type { ResourceType } from '../kube/resource'
import { type EventMapper, type SharedListing, sharedListing, specSelector } from './event-mapping'

/**
 * Node -> the MachineHealthChecks selecting its Machine. The Machine is found through the
 * `machine-api.dev/machine` annotation the Machine controller puts on linked Nodes (no list); a
 * Node not linked yet maps to nothing, since a health check only judges linked Nodes.
 *
 * The health checks of the Machine's namespace are listed first (one listing shared by the changes
 * mapped at the same time): with none there, nothing is read. A Node delivered by a (re)list maps
 * to every health check of the namespace without reading its Machine: a watch's first list
 * delivers every Node at once, and reading 10,000 Machines to narrow down a handful of keys that
 * coalesce anyway cost more than the checks' runs (benchmark: scale-memory).
 */
export function nodeToHealthCheckMapper(
  types: {
    machine: ResourceType
    machineHealthCheck: ResourceType
  },
  checksOf: SharedListing = sharedListing(types.machineHealthCheck),
): EventMapper {
  return {
    sourceKind: 'Node',
    needsObject: true,
    async map(node, kube, change) {
      const key = machineKeyFromNode(node, types.machine.kind)
      if (!key) return []
      let checks = await checksOf(kube, key.namespace, change === 'SYNC')
      if (checks.length > 0 && change !== 'SYNC') {
        const machine = await kube.get(types.machine, { namespace: key.namespace, name: key.name })
        const labels = machine?.metadata?.labels
        checks = machine ? checks.filter((c) => selectorMatches(specSelector(c), labels)) : []
      }
      return checks
        .map((c) => keyOf(types.machineHealthCheck.kind, c))
        .filter((k): k is ObjectKey => k !== undefined)
    },
  }
}
