/**
 * @module The `kwok` actuator: a Machine's "instance" is a Node object that kwok keeps Ready.
 * Nothing runs anywhere; providerStatus says `simulated: true` so nobody mistakes it for a VM.
 */

import { TransientError } from '../../errors'
import type { Actuator, ActuatorContext, ActuatorMachine, ProviderResult } from '../actuator'
import { InvalidConfigurationError, NotFoundError } from '../errors'
import { parseProviderSpec } from '../spec'
import { kubeNodeWriter } from './kube-node-writer'
import { kwokKeys, kwokNodeName, simulatedNode } from './node'
import type { ObservedNode } from './node-writer'
import { kwokProviderSpecSchema } from './spec'

/** Poll again this soon while a Node is being deleted. */
const deletionPollMs = 2_000

function result(node: ObservedNode, providerID: string): ProviderResult {
  const addresses = [...node.addresses]
  if (!addresses.some((a) => a.type === 'Hostname')) {
    addresses.push({ type: 'Hostname', address: node.name })
  }
  return {
    providerID: node.providerID ?? providerID,
    addresses,
    providerStatus: { simulated: true, nodeName: node.name },
    nodeName: node.name,
    // exists and delete find the Node by the Machine alone: nothing of the spec is needed.
    access: {},
  }
}

/**
 * Creates the actuator. Its Nodes are read and written through each call's `ctx.kube`, the
 * reconcile's own client: one reconcile reads the Node once for `exists`, `update` and the Node
 * link, a create's answer serves the read after it, and a delete makes the next read ask again.
 */
export function createKwokActuator(): Actuator {
  /** The Machine's Node if it exists, belongs to this Machine (UID) and is not going away. */
  async function own(
    ctx: ActuatorContext,
    machine: ActuatorMachine,
  ): Promise<ObservedNode | undefined> {
    const node = await kubeNodeWriter(ctx.kube).getNode(kwokNodeName(machine))
    if (!node || node.labels[kwokKeys.machineUid] !== machine.metadata.uid) return undefined
    return node.deleting ? undefined : node
  }

  function validName(machine: ActuatorMachine): void {
    if (kwokNodeName(machine).length > 253) {
      throw new InvalidConfigurationError(
        'namespace and name of a kwok Machine must together stay under 253 characters',
        { reason: 'NameTooLong', field: 'metadata.name' },
      )
    }
  }

  return {
    async exists(ctx, machine) {
      return (await own(ctx, machine)) !== undefined
    },

    async create(ctx: ActuatorContext, machine) {
      const spec = parseProviderSpec(kwokProviderSpecSchema(), ctx.providerSpec)
      validName(machine)
      const desired = simulatedNode(machine, spec)
      const nodes = kubeNodeWriter(ctx.kube)
      // No Event here: the Machine controller records InstanceCreated for every create.
      await nodes.createNode(desired)
      const node = await nodes.getNode(desired.name)
      if (!node || node.deleting || node.labels[kwokKeys.machineUid] !== machine.metadata.uid) {
        // A previous Machine of the same name still has its Node (e.g. being deleted).
        throw new TransientError(`Node ${desired.name} belongs to another Machine or is going`, {
          reason: 'NodeNameInUse',
          retryAfterMs: deletionPollMs,
        })
      }
      return result(node, desired.providerID)
    },

    async update(ctx, machine) {
      const node = await own(ctx, machine)
      if (!node) {
        throw new NotFoundError(`kwok Node ${kwokNodeName(machine)} no longer exists`, {
          reason: 'InstanceNotFound',
        })
      }
      return result(node, node.providerID ?? '')
    },

    async delete(ctx, machine) {
      const name = kwokNodeName(machine)
      const nodes = kubeNodeWriter(ctx.kube)
      const node = await nodes.getNode(name)
      // A same-named Node of another Machine is not ours to delete.
      if (!node || node.labels[kwokKeys.machineUid] !== machine.metadata.uid) return { done: true }
      if (!node.deleting) {
        await nodes.deleteNode(name)
        ctx.events.record('Normal', 'SimulatedNodeDeleted', `Deleted kwok Node ${name}`)
      }
      return (await nodes.getNode(name))?.labels[kwokKeys.machineUid] === machine.metadata.uid
        ? { done: false, requeueAfterMs: deletionPollMs }
        : { done: true }
    },
  }
}
