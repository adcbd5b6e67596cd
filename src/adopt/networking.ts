/**
 * @module Region, subnets and security groups as the running instances have them. Pure. A set's
 * instances may sit in several subnets (one per zone): the class then names them all, in zone
 * order, and the set keeps balancing over them. Instances that disagree on their security groups
 * cannot share one class: that is a problem, not a guess.
 */
import type { InstanceFacts } from './instances'
import { type AdoptionProblem, blocking } from './problems'

/** The networking part of an `aws` spec, and what contradicts it. */
export function networkingOf(
  object: string,
  instances: readonly InstanceFacts[],
): { spec: Record<string, unknown>; problems: AdoptionProblem[] } {
  const problems: AdoptionProblem[] = []
  const spec: Record<string, unknown> = {}
  const first = instances[0]
  if (!first) return { spec, problems }
  spec.region = first.region
  const byZone = new Map<string, string>()
  for (const i of [...instances].sort((a, b) => a.zone.localeCompare(b.zone))) {
    if (i.subnetId && !byZone.has(i.zone)) byZone.set(i.zone, i.subnetId)
  }
  const subnets = [...new Set(byZone.values())].map((id) => ({ id }))
  if (subnets.length === 1) spec.subnet = subnets[0]
  else if (subnets.length > 1) spec.subnets = subnets
  const groups = (i: InstanceFacts) => [...i.securityGroupIds].sort().join(',')
  const differing = instances.find((i) => groups(i) !== groups(first))
  if (differing) {
    problems.push(
      blocking(
        object,
        'securityGroups',
        `instances ${first.id} and ${differing.id} have different security groups (${groups(first) || 'none'} / ${groups(differing) || 'none'}); adopt them as separate sets`,
      ),
    )
  } else if (first.securityGroupIds.length > 0) {
    spec.securityGroups = [...first.securityGroupIds].sort().map((id) => ({ id }))
  }
  return { spec, problems }
}
