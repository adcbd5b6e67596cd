/**
 * @module The order in which a Machine's launch tries its offerings (instance type x zone x
 * capacity type, each in one subnet), and which it skips before any launch: those EC2 does not
 * offer in a zone (DescribeInstanceTypeOfferings) and those the class remembers as unavailable.
 * Pure, so the order is unit-tested table by table.
 */

import { isInterruptionReason } from '../../api/instance-notice'
import type { Offering, UnavailableOffering } from '../actuator'
import type { CapacityType } from './spec'

/** A subnet a launch may use, with its zone. */
export interface SubnetChoice {
  subnetId: string
  zone: string
}

/** An offering placed in one subnet: what one RunInstances call asks for. */
export interface PlacedOffering extends Offering {
  capacityType: CapacityType
  subnetId: string
}

/** An offering left out of the launch order, and why. */
export interface SkippedOffering {
  offering: PlacedOffering
  reason: 'NotOffered' | 'Unavailable'
  /** For Unavailable: when the class's memory of the miss expires. */
  until?: string
  /** For Unavailable: the cloud's answer the memory records, e.g. InsufficientInstanceCapacity. */
  cause?: string
}

/** What `orderOfferings` weighs. */
export interface OfferingInputs {
  /** In order of preference. */
  instanceTypes: readonly string[]
  /** In order of preference. */
  capacityTypes: readonly CapacityType[]
  /** Every subnet the spec matches, in any order. */
  subnets: readonly SubnetChoice[]
  /** Zones offering each type (a type missing is offered nowhere); without it, all are offered. */
  offered?: ReadonlyMap<string, ReadonlySet<string>> | undefined
  /** The class's memory of unavailable offerings; expired entries are ignored. */
  unavailable: readonly UnavailableOffering[]
  now: Date
  /** The Machine UID: picks the first zone and the subnet within each zone, stably. */
  uid: string
  /** Only subnets in this zone (the Machine's spec.failureDomain, or placement.availabilityZone). */
  zone?: string | undefined
}

/** The launch order and what was skipped. */
export interface OfferingOrder {
  candidates: PlacedOffering[]
  skipped: SkippedOffering[]
  /**
   * Candidates tried only after every other: the class remembers EC2 interrupting instances there
   * (reason and expiry as for a skip). They stay candidates, as an interruption is no failed
   * launch: with nothing else left, the pool being taken back is still worth asking. `ahead`:
   * how many other candidates it came after in the order of preference.
   */
  lastResort: Array<SkippedOffering & { reason: 'Unavailable'; ahead: number }>
}

/** A stable hash of a Machine UID (the same for every run, so a retried launch asks the same). */
export function uidHash(uid: string): number {
  let hash = 0
  for (const char of uid) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  return hash
}

/** The key of an offering, e.g. `m7i.large/eu-west-1a/spot`. */
export function offeringKey(o: Offering): string {
  return `${o.instanceType}/${o.zone}/${o.capacityType}`
}

/** Unexpired entries of the memory, by offering key (the latest expiry wins). */
export function activeUnavailable(
  unavailable: readonly UnavailableOffering[],
  now: Date,
): Map<string, UnavailableOffering> {
  const active = new Map<string, UnavailableOffering>()
  for (const entry of unavailable) {
    if (Date.parse(entry.expiresAt) <= now.getTime()) continue
    const key = offeringKey(entry)
    const known = active.get(key)
    if (!known || Date.parse(known.expiresAt) < Date.parse(entry.expiresAt)) active.set(key, entry)
  }
  return active
}

/**
 * One subnet per zone, zones rotated so each Machine starts in the zone its UID picks: Machines
 * spread over zones, and a Machine's order is the same on every run.
 */
function zonesInOrder(subnets: readonly SubnetChoice[], uid: string, zone?: string) {
  const byZone = new Map<string, SubnetChoice[]>()
  for (const s of subnets) {
    if (zone !== undefined && s.zone !== zone) continue
    byZone.set(s.zone, [...(byZone.get(s.zone) ?? []), s])
  }
  const zones = [...byZone.keys()].sort()
  const hash = uidHash(uid)
  const start = zones.length > 0 ? hash % zones.length : 0
  return [...zones.slice(start), ...zones.slice(0, start)].map((z) => {
    const inZone = (byZone.get(z) ?? []).toSorted((a, b) => a.subnetId.localeCompare(b.subnetId))
    return inZone[hash % inZone.length] as SubnetChoice
  })
}

/**
 * The offerings to try, in order: capacity types outermost (spot before on-demand when both are
 * preferred: any spot offering is cheaper than on-demand), then instance types, then zones
 * starting at the Machine's own. Offerings EC2 does not offer, or the memory holds unavailable
 * after a failed launch, are skipped; those it holds for an interruption go last.
 */
export function orderOfferings(inputs: OfferingInputs): OfferingOrder {
  const subnets = zonesInOrder(inputs.subnets, inputs.uid, inputs.zone)
  const unavailable = activeUnavailable(inputs.unavailable, inputs.now)
  const order: OfferingOrder = { candidates: [], skipped: [], lastResort: [] }
  for (const capacityType of inputs.capacityTypes) {
    for (const instanceType of inputs.instanceTypes) {
      for (const subnet of subnets) {
        const offering = {
          instanceType,
          capacityType,
          zone: subnet.zone,
          subnetId: subnet.subnetId,
        }
        const zones = inputs.offered?.get(instanceType)
        const memory = unavailable.get(offeringKey(offering))
        if (inputs.offered && !zones?.has(subnet.zone)) {
          order.skipped.push({ offering, reason: 'NotOffered' })
        } else if (memory) {
          const remembered = {
            offering,
            reason: 'Unavailable' as const,
            until: memory.expiresAt,
            cause: memory.reason,
          }
          if (!isInterruptionReason(memory.reason)) order.skipped.push(remembered)
          else order.lastResort.push({ ...remembered, ahead: order.candidates.length })
        } else {
          order.candidates.push(offering)
        }
      }
    }
  }
  order.candidates.push(...order.lastResort.map((r) => r.offering))
  return order
}

/**
 * The zones a Machine can launch in: those of the subnets where EC2 offers at least one of the
 * types (all of the subnets' zones when the offerings are unknown), sorted.
 */
export function launchZones(
  subnets: readonly SubnetChoice[],
  instanceTypes: readonly string[],
  offered: ReadonlyMap<string, ReadonlySet<string>> | undefined,
): string[] {
  const zones = new Set(subnets.map((s) => s.zone))
  return [...zones]
    .filter((zone) => !offered || instanceTypes.some((t) => offered.get(t)?.has(zone)))
    .sort()
}

/** For each zone, the instance types (of `instanceTypes`, in their order) EC2 offers there. */
export function zoneInstanceTypes(
  zones: readonly string[],
  instanceTypes: readonly string[],
  offered: ReadonlyMap<string, ReadonlySet<string>>,
): Array<{ zone: string; instanceTypes: string[] }> {
  return zones.map((zone) => ({
    zone,
    instanceTypes: instanceTypes.filter((t) => offered.get(t)?.has(zone)),
  }))
}
