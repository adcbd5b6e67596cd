/**
 * @module What an adoption finds on the target side and on the source side when it looks again:
 * the objects it creates (if they exist yet), the ownership tags on each instance, the Nodes'
 * links and whether each source object is still there and paused. observe.ts reads it fresh
 * before every step; plan.ts decides from it alone.
 */
import type { KubeObject } from '../kube/resource'
import type { MachineDeploymentObject } from '../reconcile/machine-deployment/machine-sets'
import type { MachineObject, MachineSetObject } from '../reconcile/machine-set/types'
import { describeRef, type SourceRef } from './source-types'
import type { NodeFacts } from './sources/machine-checks'

/** A source object now. */
export interface SourceState {
  present: boolean
  paused: boolean
  /** It still holds finalizers (its deletion would wait for its controller). */
  finalizers: string[]
}

/** The Machine an instance's machine-api tags name. */
export interface InstanceOwnerTags {
  uid?: string | undefined
  name?: string | undefined
  namespace?: string | undefined
}

/** Everything plan.ts reads. */
export interface TargetState {
  sources: ReadonlyMap<string, SourceState>
  machineClass?: KubeObject | undefined
  deployment?: MachineDeploymentObject | undefined
  set?: MachineSetObject | undefined
  machines: ReadonlyMap<string, MachineObject>
  instanceOwners: ReadonlyMap<string, InstanceOwnerTags>
  nodes: ReadonlyMap<string, NodeFacts>
}

/** The key of a source ref in `TargetState.sources`. */
export const sourceKey = (ref: SourceRef): string => describeRef(ref)
