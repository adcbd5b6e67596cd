/**
 * @module MachineSet status from what was observed: replica counters, the selector string the
 * scale subresource reads, observedGeneration and conditions. Pure; `now` decides availability
 * (minReadySeconds), and the result says when the next Machine becomes available so the reconcile
 * can look again then.
 *
 * Conditions, all always set: ScalingUp, ScalingDown, MachinesReady, ReplicaFailure (as on a
 * ReplicaSet: True while Machines of the set are Failed, naming the failure, what to fix and when
 * they are replaced), ReplacementsHeld (True while expired Machines wait for the expiry allowance
 * of the deployment's disruption budgets, saying which budget and until when), and Ready derived
 * with this precedence: ReplicaFailure > ScalingUp > ScalingDown > MachinesReady > minReadySeconds
 * pending. Machines kept above replicas to replace expired ones are not a scale-down.
 */
import { selectorToString } from '../../api/shared/label-selector'
import type { MachineSet } from '../../api/v1beta1/machine-set'
import type { ExpiryAllowance } from '../disruption/allowance'
import { type ConditionInput, setConditions } from '../shared/conditions'
import type { ExpiryPlan } from './expiry'
import { isFullyLabeled } from './machine-template'
import { availableSince, isMachineReady } from './readiness'
import type { ReplacementPlan } from './replacement'
import { replicaFailureCondition } from './replica-failure'
import type { TemplateClassRecord } from './template-class'
import { isDeleting, type MachineObject, type MachineSetObject } from './types'

/** The status to write and when availability next changes. */
export interface MachineSetStatusResult {
  status: NonNullable<MachineSet['status']>
  /** Milliseconds until the next Ready Machine passes minReadySeconds. */
  requeueAfterMs?: number
}

const listed = (machines: MachineObject[]) => {
  const names = machines.slice(0, 5).map((m) => m.metadata.name)
  return machines.length > 5 ? `${names.join(', ')}, ...` : names.join(', ')
}

/** What the pass observed and decided that status reports. */
export interface MachineSetStatusInput {
  /** The Machines the set controls (being deleted included). */
  owned: MachineObject[]
  /** The replacement decision of the pass; without it the recorded backoff is kept. */
  replacement?: ReplacementPlan | undefined
  /** The expiry decision of the pass and the allowance it worked under. */
  expiry?: { plan: ExpiryPlan; allowance: ExpiryAllowance } | undefined
  /** The template's class as this pass saw it; without it the recorded one is kept. */
  templateClass?: TemplateClassRecord | undefined
}

/** Computes the status of `set` from what the pass observed and decided, at `now`. */
export function computeMachineSetStatus(
  set: MachineSetObject,
  input: MachineSetStatusInput,
  now: Date,
): MachineSetStatusResult {
  const { owned } = input
  const backoff = input.replacement ? input.replacement.backoff : set.status?.replacement
  const desired = set.spec.replicas ?? 0
  const minReadySeconds = set.spec.minReadySeconds ?? 0
  const active = owned.filter((m) => !isDeleting(m))
  const ready = active.filter(isMachineReady)
  const since = ready.map((m) => availableSince(m, minReadySeconds) ?? 0)
  const available = since.filter((at) => at <= now.getTime()).length
  const pending = since.filter((at) => at > now.getTime())
  const generation = set.metadata.generation

  const scalingUp = active.length < desired
  const scalingDown = owned.length > desired + (input.expiry?.plan.extra ?? 0)
  const notReady = active.filter((m) => !isMachineReady(m))
  const conditions: ConditionInput[] = [
    scalingUp
      ? cond('ScalingUp', true, 'ScalingUp', `Scaling up from ${active.length} to ${desired}`)
      : cond('ScalingUp', false, 'NotScalingUp', `${active.length} of ${desired} Machines exist`),
    scalingDown
      ? cond(
          'ScalingDown',
          true,
          'ScalingDown',
          `Scaling down from ${owned.length} to ${desired} (${owned.length - active.length} being deleted)`,
        )
      : cond('ScalingDown', false, 'NotScalingDown', 'No Machine above replicas'),
    notReady.length > 0
      ? cond(
          'MachinesReady',
          false,
          'MachinesNotReady',
          `${notReady.length} of ${active.length} Machines not ready: ${listed(notReady)}`,
        )
      : cond('MachinesReady', true, 'MachinesReady', `${ready.length} Machines ready`),
    replicaFailureCondition(input.replacement?.failed ?? [], backoff, now),
  ]
  conditions.push(readyCondition(conditions, available, desired))
  conditions.push(replacementsHeldCondition(input.expiry))
  return {
    status: {
      replicas: owned.length,
      fullyLabeledReplicas: owned.filter((m) => isFullyLabeled(set, m)).length,
      ...(backoff ? { replacement: backoff } : {}),
      ...(input.templateClass ? { templateClass: input.templateClass } : {}),
      readyReplicas: ready.length,
      availableReplicas: available,
      ...zoneSpreadOf(active),
      selector: selectorToString(set.spec.selector),
      ...(generation === undefined ? {} : { observedGeneration: generation }),
      conditions: setConditions(set.status?.conditions, conditions, {
        time: now.toISOString(),
        generation,
      }),
    },
    ...(pending.length > 0 ? { requeueAfterMs: Math.min(...pending) - now.getTime() } : {}),
  }
}

function readyCondition(
  conditions: ConditionInput[],
  available: number,
  desired: number,
): ConditionInput {
  for (const type of ['ReplicaFailure', 'ScalingUp', 'ScalingDown'] as const) {
    const c = conditions.find((x) => x.type === type)
    if (c?.status === 'True') return cond('Ready', false, c.reason, c.message)
  }
  const machinesReady = conditions.find((x) => x.type === 'MachinesReady')
  if (machinesReady?.status === 'False') {
    return cond('Ready', false, machinesReady.reason, machinesReady.message)
  }
  if (available < desired) {
    return cond(
      'Ready',
      false,
      'WaitingForMinReadySeconds',
      `${available} of ${desired} Machines available; the rest are Ready for less than minReadySeconds`,
    )
  }
  return cond('Ready', true, 'Ready', `${available} of ${desired} Machines available`)
}

function cond(type: string, status: boolean, reason: string, message: string): ConditionInput {
  return { type, status: status ? 'True' : 'False', reason, message }
}

/** ReplacementsHeld: whether expired Machines wait for the expiry allowance, and until when. */
export function replacementsHeldCondition(expiry: MachineSetStatusInput['expiry']): ConditionInput {
  if (!expiry || expiry.plan.held === 0) {
    return cond(
      'ReplacementsHeld',
      false,
      'NotHeld',
      'No expired Machine waits for a disruption budget',
    )
  }
  const { plan, allowance } = expiry
  const which = plan.expired
    .slice(0, 5)
    .map((m) => m.metadata.name)
    .join(', ')
  const budget = allowance.budget ?? 'the default of one at a time'
  const until = allowance.until ? `; the budget changes at ${allowance.until}` : ''
  return cond(
    'ReplacementsHeld',
    true,
    'DisruptionBudget',
    `${plan.held} expired Machine${plan.held === 1 ? '' : 's'} (oldest first: ${which}) wait: ${budget} allows ${allowance.allowed} in replacement at once and ${plan.inFlight} ${plan.inFlight === 1 ? 'is' : 'are'} not available or being deleted${until}`,
  )
}

/**
 * `status.zoneSpread`: the Machines not being deleted per zone (`eu-west-1a=2,eu-west-1b=1`, by
 * zone name), shown by `kubectl get machineset -o wide` so skew reads without a script. Empty
 * (not absent: status is merge-patched, and an absent key would keep the last spread) when no
 * Machine has a zone.
 */
export function zoneSpreadOf(machines: readonly MachineObject[]): { zoneSpread: string } {
  const counts = new Map<string, number>()
  for (const m of machines) {
    const zone = m.spec?.failureDomain
    if (zone) counts.set(zone, (counts.get(zone) ?? 0) + 1)
  }
  const spread = [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([zone, n]) => `${zone}=${n}`)
    .join(',')
  return { zoneSpread: spread }
}
