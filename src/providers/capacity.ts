/**
 * @module The types of the optional `Provider.capacity` capability: what one Machine of a
 * MachineClass provides, before any exists. The MachineClass controller writes it to the class's status, and
 * cluster-autoscaler sizes a node group from it to scale up from zero.
 */
import type { ActuatorContext } from './actuator'

/** What the provider needs to answer: the class's spec and credentials. */
export type CapacityRequest = Pick<
  ActuatorContext,
  'providerSpec' | 'secrets' | 'credentialsSecretRef' | 'signal'
>

/** One Machine's resources (Kubernetes quantities by resource name) and its Node's system. */
export interface MachineCapacity {
  capacity: Record<string, string>
  nodeInfo: { architecture?: string; operatingSystem?: string }
  /**
   * The zones a Machine of the class can launch in, when the provider knows them (aws: the zones
   * of the spec's subnets that offer one of its instance types). A MachineSet balances its
   * Machines over them.
   */
  zones?: string[]
  /**
   * For each of `zones`, the class's instance types offered there, when the provider knows (aws:
   * DescribeInstanceTypeOfferings): a zone hosts only what it offers, so its other types never
   * keep it open while those it offers are out of capacity.
   */
  zoneInstanceTypes?: Array<{ zone: string; instanceTypes: string[] }>
}

/** The newest image matching a class's filters, as the provider names it. */
export interface FollowedImage {
  id: string
  name?: string | undefined
  creationDate?: string | undefined
}
