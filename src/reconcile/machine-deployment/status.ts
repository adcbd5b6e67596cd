/**
 * @module MachineDeployment status from its MachineSets as observed: replica counters summed over
 * the sets, updatedReplicas from the set of the current template, phase, and the conditions
 * Available, Progressing and Paused. Pure.
 *
 * Progressing follows apps/v1: True (MachineSetUpdated) while the rollout moves, True
 * (NewMachineSetAvailable) once complete, False (ProgressDeadlineExceeded) when nothing moved for
 * progressDeadlineSeconds, Unknown (Paused) while paused. "Moved" means this pass scaled or
 * created a set, or a counter changed since the last status; the time is kept in
 * status.lastProgressTime so the deadline survives restarts.
 *
 * ReplacementsHeld is True while a disruption budget holds a replacement back: the rollout (this
 * pass would have scaled further without the budget) or a set's expired Machines (rolled up from
 * the sets' own ReplacementsHeld), naming the budget and when its window changes. Progressing
 * then reads True (ReplacementsHeld), and the progress deadline counts from the hold's end.
 *
 * ReplicaFailure is rolled up from the sets: True while any set reports Failed Machines, quoting
 * the set with the most (its message names the failure and what to fix), so `kubectl describe
 * machinedeployment` says why Machines keep failing without looking one level down.
 */
import { selectorToString } from '../../api/shared/label-selector'
import { describeBudget } from '../disruption/budgets'
import type { MachineSetObject } from '../machine-set/types'
import { type ConditionInput, setConditions } from '../shared/conditions'
import { CAPI_PAUSED_ANNOTATION, isPaused } from './autoscaler-keys'
import type { MachineDeploymentObject } from './machine-sets'
import type { DeploymentPlan } from './plan'
import { rolloutBounds } from './plan'
import { rolloutCauseOf } from './rollout-facts'

type Status = NonNullable<MachineDeploymentObject['status']>

/** The status to write and when the progress deadline expires. */
export interface DeploymentStatusResult {
  status: Status
  requeueAfterMs?: number
}

/** What the pass knows beyond the observed sets. */
export interface DeploymentStatusInput {
  /** The set of the current template, if it exists yet. */
  current: MachineSetObject | undefined
  /** This pass scaled or created a set. */
  progressed: boolean
  /** The budgets' allowances of the pass (unset: not evaluated). */
  disruption?: DeploymentPlan['disruption']
}

/** Computes the status of `md` over its observed `sets` at `now`. */
export function computeDeploymentStatus(
  md: MachineDeploymentObject,
  sets: MachineSetObject[],
  input: DeploymentStatusInput,
  now: Date,
): DeploymentStatusResult {
  const desired = md.spec.replicas ?? 0
  const sum = (pick: (s: MachineSetObject) => number | undefined) =>
    sets.reduce((total, s) => total + (pick(s) ?? 0), 0)
  const current = input.current && sets.find((s) => s.metadata.uid === input.current?.metadata.uid)
  const counters = {
    replicas: sum((s) => s.status?.replicas),
    readyReplicas: sum((s) => s.status?.readyReplicas),
    availableReplicas: sum((s) => s.status?.availableReplicas),
    updatedReplicas: current?.status?.replicas ?? 0,
  }
  const previous = md.status
  const moved =
    input.progressed ||
    (Object.keys(counters) as Array<keyof typeof counters>).some(
      (k) => previous?.[k] !== counters[k],
    )
  const lastProgress =
    moved || !previous?.lastProgressTime ? now.toISOString() : previous.lastProgressTime
  const complete =
    current !== undefined &&
    counters.replicas === desired &&
    counters.updatedReplicas === desired &&
    (current.status?.availableReplicas ?? 0) >= desired &&
    (current.spec.replicas ?? 0) === desired

  const { maxUnavailable } = rolloutBounds(md, desired)
  // A wait for a disruption budget is chosen, like a pause: it is no lack of progress, and the
  // deadline counts again from its end (the held condition's transition), not from before it.
  const held = replacementsHeld(md, sets, input.disruption)
  const heldBefore = previous?.conditions?.find((c) => c.type === 'ReplacementsHeld')
  const heldEnded =
    heldBefore?.status === 'True'
      ? now.getTime()
      : Date.parse(heldBefore?.lastTransitionTime ?? '') || 0
  const since = Math.max(Date.parse(lastProgress), held.status === 'True' ? 0 : heldEnded)
  const deadline = since + (md.spec.progressDeadlineSeconds ?? 600) * 1000
  const summary = `${counters.updatedReplicas} of ${desired} Machines updated, ${counters.availableReplicas} available`
  const name = current?.metadata.name ?? input.current?.metadata.name ?? '(none)'
  let progressing: ConditionInput
  let requeueAfterMs: number | undefined
  if (isPaused(md)) {
    progressing = cond('Progressing', 'Unknown', 'Paused', 'Rollouts are paused; scaling continues')
  } else if (complete) {
    progressing = cond(
      'Progressing',
      'True',
      'NewMachineSetAvailable',
      `MachineSet ${name} is complete: ${summary}`,
    )
  } else if (held.status === 'True') {
    // No deadline timer: the budget's window change wakes the deployment (plan.ts).
    progressing = cond(
      'Progressing',
      'True',
      'ReplacementsHeld',
      `MachineSet ${name} waits for a disruption budget (see ReplacementsHeld): ${summary}`,
    )
  } else if (now.getTime() >= deadline) {
    progressing = cond(
      'Progressing',
      'False',
      'ProgressDeadlineExceeded',
      `MachineSet ${name} has not progressed for ${md.spec.progressDeadlineSeconds}s: ${summary}`,
    )
  } else {
    const cause = rolloutCauseOf(current)
    const why = cause ? ` (${cause.reason}: ${cause.message})` : ''
    progressing = cond(
      'Progressing',
      'True',
      'MachineSetUpdated',
      `Rolling out MachineSet ${name}${why}: ${summary}`,
    )
    requeueAfterMs = deadline - now.getTime()
  }
  const minAvailable = Math.max(0, desired - maxUnavailable)
  const conditions = [
    counters.availableReplicas >= minAvailable
      ? cond(
          'Available',
          'True',
          'MinimumReplicasAvailable',
          `${counters.availableReplicas} of ${desired} Machines available (minimum ${minAvailable})`,
        )
      : cond(
          'Available',
          'False',
          'MinimumReplicasUnavailable',
          `${counters.availableReplicas} of ${desired} Machines available, below the minimum ${minAvailable}`,
        ),
    progressing,
    isPaused(md)
      ? cond('Paused', 'True', 'Paused', `${pausedBy(md)}: template changes are not rolled out`)
      : cond('Paused', 'False', 'NotPaused', 'Template changes are rolled out'),
    replicaFailure(sets),
    held,
  ]
  const generation = md.metadata.generation
  const status: Status = {
    ...counters,
    unavailableReplicas: Math.max(0, desired - counters.availableReplicas),
    selector: selectorToString(md.spec.selector),
    phase:
      counters.replicas < desired
        ? 'ScalingUp'
        : counters.replicas > desired
          ? 'ScalingDown'
          : 'Running',
    lastProgressTime: lastProgress,
    ...(generation === undefined ? {} : { observedGeneration: generation }),
    conditions: setConditions(previous?.conditions, conditions, {
      time: now.toISOString(),
      generation,
    }),
  }
  return { status, ...(requeueAfterMs === undefined ? {} : { requeueAfterMs }) }
}

function cond(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason: string,
  message: string,
): ConditionInput {
  return { type, status, reason, message }
}

/** The sets' ReplicaFailure rolled up: the first failing set by name, and how many fail. */
function replicaFailure(sets: MachineSetObject[]): ConditionInput {
  const failing = sets
    .flatMap((s) => {
      const c = s.status?.conditions?.find((x) => x.type === 'ReplicaFailure')
      return c?.status === 'True' ? [{ name: s.metadata.name, message: c.message }] : []
    })
    .sort((a, b) => a.name.localeCompare(b.name))
  const first = failing[0]
  if (!first) return cond('ReplicaFailure', 'False', 'NoFailedMachines', 'No Machine has failed')
  const more = failing.length > 1 ? ` (and ${failing.length - 1} more MachineSets)` : ''
  return cond(
    'ReplicaFailure',
    'True',
    'MachinesFailed',
    `MachineSet ${first.name}: ${first.message}${more}`,
  )
}

/** What pauses `md`, for the Paused condition's message. */
function pausedBy(md: MachineDeploymentObject): string {
  return md.spec.paused ? 'spec.paused is true' : `annotation ${CAPI_PAUSED_ANNOTATION} is set`
}

/** ReplacementsHeld: the rollout held by a budget, else the first set whose expiry is held. */
function replacementsHeld(
  md: MachineDeploymentObject,
  sets: MachineSetObject[],
  disruption: DeploymentStatusInput['disruption'],
): ConditionInput {
  if (disruption?.rolloutHeld) {
    const { reason, evaluation, inFlight } = disruption.rollout
    const budget = md.spec.disruption?.budgets?.[evaluation.index ?? -1]
    const which = budget ? describeBudget(budget, evaluation.index ?? 0) : 'a disruption budget'
    const until = evaluation.changesAt
      ? `; the budget changes at ${evaluation.changesAt.toISOString()}`
      : ''
    return cond(
      'ReplacementsHeld',
      'True',
      'DisruptionBudget',
      `${reason} replacements held: ${which} allows ${evaluation.limit} in replacement at once and ${inFlight} ${inFlight === 1 ? 'is' : 'are'} not available or being deleted${until}`,
    )
  }
  const held = sets
    .map((s) => ({
      name: s.metadata.name,
      c: s.status?.conditions?.find((x) => x.type === 'ReplacementsHeld'),
    }))
    .find((x) => x.c?.status === 'True')
  if (held?.c) {
    return cond(
      'ReplacementsHeld',
      'True',
      held.c.reason,
      `MachineSet ${held.name}: ${held.c.message}`,
    )
  }
  return cond(
    'ReplacementsHeld',
    'False',
    'NotHeld',
    'No replacement waits for a disruption budget',
  )
}
