/**
 * @module The status a MachineClass gets from its provider's capacity answer: `capacity`,
 * `nodeInfo` and a `CapacityKnown` condition saying where they came from or why they are missing.
 * Pure; the controller (reconcile.ts) does the asking and the writing.
 */
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { MachineCapacity } from '../../providers/capacity'
import { type ConditionInput, setCondition } from '../shared/conditions'

/** The condition type this controller owns on a MachineClass. */
export const CAPACITY_KNOWN = 'CapacityKnown'

type Status = NonNullable<MachineClass['status']>

/** What asking the provider gave. */
export type CapacityOutcome =
  | { type: 'known'; result: MachineCapacity }
  | { type: 'unsupported'; provider: string }
  /** The spec (or its provider) is wrong: nothing to retry until it changes. */
  | { type: 'invalid'; reason: string; message: string }
  /** The provider could not answer now (network, throttling): retried. */
  | { type: 'unavailable'; reason: string; message: string }

/** The class's status after `outcome`; a capacity already known is kept while unavailable. */
export function capacityStatus(
  machineClass: Pick<MachineClass, 'status'> & { metadata: { generation?: number | undefined } },
  outcome: CapacityOutcome,
  now: Date,
): Status {
  const previous: Status = machineClass.status ?? {}
  const generation = machineClass.metadata.generation
  const condition = conditionFor(outcome)
  const status: Status = {
    ...previous,
    conditions: setCondition(previous.conditions ?? [], condition, {
      time: now.toISOString(),
      generation,
    }),
  }
  if (generation !== undefined) status.observedGeneration = generation
  if (outcome.type === 'known') {
    status.capacity = { ...outcome.result.capacity }
    status.nodeInfo = { ...outcome.result.nodeInfo }
    // status.zones, the offered zones that can host a Machine now, is derived by the reconcile.
    if (outcome.result.zones) status.offeredZones = [...outcome.result.zones]
    else delete status.offeredZones
    if (outcome.result.zoneInstanceTypes) {
      status.zoneInstanceTypes = outcome.result.zoneInstanceTypes.map((z) => ({
        zone: z.zone,
        instanceTypes: [...z.instanceTypes],
      }))
    } else delete status.zoneInstanceTypes
    delete status.zones
  } else if (outcome.type !== 'unavailable') {
    delete status.capacity
    delete status.nodeInfo
    delete status.offeredZones
    delete status.zoneInstanceTypes
    delete status.zones
  }
  return status
}

function conditionFor(outcome: CapacityOutcome): ConditionInput {
  switch (outcome.type) {
    case 'known':
      return {
        type: CAPACITY_KNOWN,
        status: 'True',
        reason: 'ProviderReported',
        message: `Capacity per Machine: ${describe(outcome.result.capacity)}`,
      }
    case 'unsupported':
      return {
        type: CAPACITY_KNOWN,
        status: 'False',
        reason: 'NotReportedByProvider',
        message: `Provider ${outcome.provider} cannot tell capacity; set the capacity.cluster-autoscaler.kubernetes.io annotations on the MachineSet or MachineDeployment to scale from zero`,
      }
    case 'invalid':
      return {
        type: CAPACITY_KNOWN,
        status: 'False',
        reason: outcome.reason,
        message: outcome.message,
      }
    case 'unavailable':
      return {
        type: CAPACITY_KNOWN,
        status: 'Unknown',
        reason: outcome.reason,
        message: outcome.message,
      }
  }
}

function describe(capacity: Record<string, string>): string {
  const entries = Object.entries(capacity)
  return entries.length === 0
    ? '(nothing reported)'
    : entries.map(([k, v]) => `${k}=${v}`).join(', ')
}

/**
 * True when the status already answers the class's current generation, so the provider need not
 * be asked again (the sweep re-runs every class; an instance type's size does not change).
 */
export function capacityCurrent(
  machineClass: Pick<MachineClass, 'status'> & { metadata: { generation?: number | undefined } },
): boolean {
  const status = machineClass.status
  const known = status?.conditions?.find((c) => c.type === CAPACITY_KNOWN)
  return (
    status?.observedGeneration === machineClass.metadata.generation &&
    known !== undefined &&
    known.status !== 'Unknown'
  )
}

/**
 * The merge patch that turns `stored` into `whole`: `whole`'s fields, and null for each field
 * `stored` has and `whole` dropped (a merge patch keeps what it omits, so a capacity, its zones or
 * an image the class no longer has would otherwise stay). Pure.
 */
export function statusPatch(stored: Status | undefined, whole: Status): Record<string, unknown> {
  const dropped = Object.keys(stored ?? {}).filter((field) => !(field in whole))
  return { ...Object.fromEntries(dropped.map((field) => [field, null])), ...whole }
}
