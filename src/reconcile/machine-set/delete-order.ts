/**
 * @module Which Machines a MachineSet removes first when it scales down. Pure and deterministic:
 * two reconciles that see the same Machines pick the same victims, so running twice at once never
 * deletes more than needed.
 *
 * Order (highest first, ties by name):
 *  1. Machines already being deleted: they count towards the scale-down before anything else.
 *  2. Machines annotated `machine-api.dev/delete-machine` (or Cluster API's
 *     `cluster.x-k8s.io/delete-machine`, which cluster-autoscaler sets).
 *  3. Failed or unhealthy Machines (phase Failed, a failureReason, Ready / NodeHealthy /
 *     HealthCheckSucceeded False) and Machines not linked to a Node yet.
 *  4. The rest by `deletePolicy`: Newest (youngest first), Oldest (oldest first), or Random
 *     (a stable shuffle by Machine UID: random across Machines, the same on every run).
 *
 * Within a tier, a Machine of the zone (`spec.failureDomain`) that holds the most of the set's
 * remaining Machines goes first, so a scale-down keeps the zones balanced; the policy orders the
 * Machines of that zone. Machines without a zone form one group of their own.
 */
import { createHash } from 'node:crypto'
import { ANNOTATIONS } from '../../api/group'

/** Cluster API's key for the same mark, honoured so existing tooling keeps working. */
export const clusterApiDeleteMachineAnnotation = 'cluster.x-k8s.io/delete-machine'

/** The MachineSet deletePolicy values. */
export type DeletePolicy = 'Random' | 'Newest' | 'Oldest'

/** The parts of a Machine the order depends on. */
export interface DeleteCandidate {
  metadata: {
    name: string
    uid?: string | undefined
    creationTimestamp?: string | Date | undefined
    deletionTimestamp?: string | Date | undefined
    annotations?: Record<string, string> | undefined
  }
  spec?: { failureDomain?: string | undefined } | undefined
  status?:
    | {
        phase?: string | undefined
        failureReason?: string | undefined
        nodeRef?: unknown
        conditions?: Array<{ type: string; status: string }> | undefined
      }
    | undefined
}

const mustDelete = 4
const marked = 3
const unhealthy = 2
const regular = 1

function tier(m: DeleteCandidate): number {
  if (m.metadata.deletionTimestamp) return mustDelete
  const annotations = m.metadata.annotations ?? {}
  if (
    ANNOTATIONS.deleteMachine in annotations ||
    clusterApiDeleteMachineAnnotation in annotations
  ) {
    return marked
  }
  const conditions = m.status?.conditions ?? []
  const failing = (type: string) => conditions.some((c) => c.type === type && c.status === 'False')
  if (
    m.status?.phase === 'Failed' ||
    m.status?.failureReason ||
    !m.status?.nodeRef ||
    failing('Ready') ||
    failing('NodeHealthy') ||
    failing('HealthCheckSucceeded')
  ) {
    return unhealthy
  }
  return regular
}

const tierReasons: Record<number, string> = {
  [mustDelete]: 'already deleting',
  [marked]: 'delete-machine annotation',
  [unhealthy]: 'unhealthy or not linked to a Node',
}

/** Why a victim was chosen, for the scale-down Event: its tier, or the policy for the rest. */
export function victimReason(m: DeleteCandidate, policy: DeletePolicy): string {
  return tierReasons[tier(m)] ?? `deletePolicy ${policy}`
}

function createdMs(m: DeleteCandidate): number {
  const t = m.metadata.creationTimestamp
  return t ? new Date(t).getTime() : 0
}

function stableRandom(m: DeleteCandidate): string {
  return createHash('sha256')
    .update(m.metadata.uid ?? m.metadata.name)
    .digest('hex')
}

/** Compares two Machines so that the first to delete sorts first. */
export function deleteOrder(
  policy: DeletePolicy,
): (a: DeleteCandidate, b: DeleteCandidate) => number {
  return (a, b) => {
    const byTier = tier(b) - tier(a)
    if (byTier !== 0) return byTier
    let byPolicy = 0
    if (policy === 'Newest') byPolicy = createdMs(b) - createdMs(a)
    else if (policy === 'Oldest') byPolicy = createdMs(a) - createdMs(b)
    else byPolicy = stableRandom(a).localeCompare(stableRandom(b))
    if (byPolicy !== 0) return byPolicy
    return a.metadata.name.localeCompare(b.metadata.name)
  }
}

/**
 * The `count` Machines to remove first, in order: by tier, then from the most populated zone
 * (counting the Machines not picked yet), then by policy.
 */
export function pickVictims<T extends DeleteCandidate>(
  machines: T[],
  count: number,
  policy: DeletePolicy,
): T[] {
  if (count <= 0) return []
  const remaining = [...machines].sort(deleteOrder(policy))
  const zoneKey = (m: T) => m.spec?.failureDomain ?? ''
  const population = new Map<string, number>()
  for (const m of remaining) population.set(zoneKey(m), (population.get(zoneKey(m)) ?? 0) + 1)
  const victims: T[] = []
  while (victims.length < count && remaining.length > 0) {
    const top = tier(remaining[0] as T)
    let pick = 0
    for (let i = 1; i < remaining.length && tier(remaining[i] as T) === top; i++) {
      const here = population.get(zoneKey(remaining[i] as T)) ?? 0
      if (here > (population.get(zoneKey(remaining[pick] as T)) ?? 0)) pick = i
    }
    const [victim] = remaining.splice(pick, 1) as [T]
    population.set(zoneKey(victim), (population.get(zoneKey(victim)) ?? 0) - 1)
    victims.push(victim)
  }
  return victims
}
