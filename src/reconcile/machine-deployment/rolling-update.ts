/**
 * @module The RollingUpdate planner: given the new MachineSet and the old ones as observed, the
 * replica count each should have next. Pure. It counts Machines that still exist (being deleted
 * included) against maxSurge and only Machines that are available against maxUnavailable, so the
 * bounds hold for what really runs, not just for spec.replicas.
 */

/** One MachineSet as the planner sees it. */
export interface RolloutSet {
  name: string
  /** spec.replicas */
  replicas: number
  /** Machines of the set that exist, including those being deleted. */
  machines: number
  /** Machines of the set that are available and not being deleted. */
  available: number
}

/** The deployment's bounds and its sets, as observed. */
export interface RollingUpdateInput {
  /** The MachineDeployment's spec.replicas. */
  replicas: number
  /** Resolved maxSurge (percent rounded up). */
  maxSurge: number
  /** Resolved maxUnavailable (percent rounded down). */
  maxUnavailable: number
  newSet: RolloutSet
  /** Older MachineSets, oldest first: they are scaled down in that order. */
  oldSets: RolloutSet[]
  /**
   * Replacements that may start this pass under a disruption budget (its limit less the Machines
   * already not available or being deleted); unset: no budget. Surging above replicas and scaling
   * an available old Machine down each take one; filling below replicas and removing an
   * unavailable old Machine take none, so involuntary replacements are never held.
   */
  disruptionAllowance?: number
}

/** The next replicas of the sets that change, with notes for Events. */
export interface RollingUpdatePlan {
  /** The next spec.replicas of every set, keyed by name (only sets that change). */
  scale: Record<string, number>
  /** What the planner did and why, for Events and logs. */
  notes: string[]
}

/**
 * Plans one step: scale the new set up within the surge budget, then scale old sets down within
 * the availability budget (unavailable Machines first, since removing them costs no availability).
 */
export function planRollingUpdate(input: RollingUpdateInput): RollingUpdatePlan {
  const { replicas, newSet, oldSets } = input
  // Both zero would deadlock the rollout; apps/v1 rejects it, we treat it as maxUnavailable 1.
  const maxUnavailable =
    input.maxSurge === 0 && input.maxUnavailable === 0 ? 1 : input.maxUnavailable
  const scale: Record<string, number> = {}
  const notes: string[] = []
  const sets = [newSet, ...oldSets]
  const footprint = (s: RolloutSet) => Math.max(s.replicas, s.machines)

  let allowance = input.disruptionAllowance ?? Number.POSITIVE_INFINITY
  let newReplicas = newSet.replicas
  if (newReplicas > replicas) {
    newReplicas = replicas
  } else if (newReplicas < replicas) {
    const total = sets.reduce((sum, s) => sum + footprint(s), 0)
    const room = replicas + input.maxSurge - total
    const fill = Math.max(0, replicas - total)
    const grow = Math.min(room, replicas - newReplicas, fill + allowance)
    if (grow > 0) {
      newReplicas += grow
      allowance -= Math.max(0, grow - fill)
    }
  }
  if (newReplicas !== newSet.replicas) {
    scale[newSet.name] = newReplicas
    notes.push(`Scaled new MachineSet ${newSet.name} from ${newSet.replicas} to ${newReplicas}`)
  }

  const minAvailable = Math.max(0, replicas - maxUnavailable)
  // Machines above a set's replicas are about to go (unavailable ones first); counting them would
  // let two plans in a row spend the same availability twice.
  const counted = (s: RolloutSet) => Math.min(s.available, s.replicas)
  const availableNow = sets.reduce((sum, s) => sum + counted(s), 0)
  let availabilityBudget = availableNow - minAvailable
  for (const old of oldSets) {
    if (old.replicas === 0) continue
    // Replicas that are not available can go without reducing availability.
    const unavailable = old.replicas - counted(old)
    const spendable = Math.max(0, Math.min(counted(old), availabilityBudget, allowance))
    const down = Math.min(old.replicas, unavailable + spendable)
    if (down === 0) continue
    availabilityBudget -= Math.max(0, down - unavailable)
    allowance -= Math.max(0, down - unavailable)
    scale[old.name] = old.replicas - down
    notes.push(`Scaled old MachineSet ${old.name} from ${old.replicas} to ${old.replicas - down}`)
  }
  return { scale, notes }
}
