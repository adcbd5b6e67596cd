/**
 * @module Wakes MachineHealthChecks when a Node changes. Node conditions are what health checks
 * judge, and a Node turning NotReady does not change its Machine, so without this mapping a health
 * check would only notice at the next sweep and could not start its timer on time.
 */

import { machineKeyFromNode } from '../api/node-link'
import type { ResourceType } from '../kube/resource'
import { type EventMapper, selectorMapper } from './event-mapping'

/**
 * Node -> the MachineHealthChecks selecting its Machine. The Machine is found through the
 * `machine-api.dev/machine` annotation the Machine controller puts on linked Nodes (no list); a
 * Node not linked yet maps to nothing, since a health check only judges linked Nodes.
 */
export function nodeToHealthCheckMapper(types: {
  machine: ResourceType
  machineHealthCheck: ResourceType
}): EventMapper {
  const machineToChecks = selectorMapper(types.machine.kind, types.machineHealthCheck)
  return {
    sourceKind: 'Node',
    needsObject: true,
    async map(node, kube) {
      const key = machineKeyFromNode(node, types.machine.kind)
      if (!key) return []
      const machine = await kube.get(types.machine, { namespace: key.namespace, name: key.name })
      return machine ? await machineToChecks.map(machine, kube) : []
    },
  }
}
