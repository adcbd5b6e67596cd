/**
 * @module Which Events a pass records. Pure. Events follow transitions (a Machine turning
 * unhealthy, the short-circuit engaging or its counts changing) and every remediation, so
 * repeated reconciles of an unchanged world record nothing new.
 */
import type { Condition } from '../../api/shared/conditions'
import { describeUnhealthy } from './machine-condition'
import type { RemediationAction, RemediationPlan } from './plan'
import { heldBack } from './status'
import type { ObservedCondition } from './target'
import type { TargetEvaluation } from './targets'

/** An Event to record on the health check, a target Machine, or both. */
export interface PlannedEvent {
  /** Names the Machine for Machine Events; the health check always gets a copy when `both`. */
  machine?: string
  both: boolean
  type: 'Normal' | 'Warning'
  reason: string
  message: string
}

/** Events for transitions seen in this pass (before any action runs). */
export function transitionEvents(input: {
  evaluations: TargetEvaluation[]
  plan: RemediationPlan
  /** HealthCheckSucceeded of each Machine as read, by Machine name. */
  previousMachine: ReadonlyMap<string, ObservedCondition | undefined>
  previousAllowed: ObservedCondition | undefined
  nextAllowed: Omit<Condition, 'lastTransitionTime'>
}): PlannedEvent[] {
  const events: PlannedEvent[] = []
  const { nextAllowed, previousAllowed } = input
  // Machines still starting count towards maxUnhealthy, so a fresh set short-circuits while it
  // scales up: that is no news. Warn only when an unhealthy Machine is actually held back.
  if (
    nextAllowed.status === 'False' &&
    heldBack(input.plan).length > 0 &&
    (previousAllowed?.status !== 'False' || previousAllowed.message !== nextAllowed.message)
  ) {
    events.push({
      both: false,
      type: 'Warning',
      reason: 'RemediationRestricted',
      message: nextAllowed.message,
    })
  }
  const ownerless = new Set(
    input.plan.skipped.filter((s) => s.reason === 'NoMachineSetOwner').map((s) => s.name),
  )
  const leftToSet = new Set(
    input.plan.skipped.filter((s) => s.reason === 'LeftToMachineSet').map((s) => s.name),
  )
  for (const e of input.evaluations) {
    if (e.health.state !== 'unhealthy') continue
    const name = e.target.machine.name
    if (input.previousMachine.get(name)?.status === 'False') continue
    const onlyMarked = ownerless.has(name)
      ? '; no MachineSet controls it, so it is only marked'
      : leftToSet.has(name)
        ? `; MachineSet ${e.target.machine.machineSetOwner} replaces its Failed Machines itself`
        : ''
    events.push({
      machine: name,
      both: true,
      type: 'Warning',
      reason: 'MachineMarkedUnhealthy',
      message: `Machine ${name} is unhealthy: ${describeUnhealthy(e.health.detail, e.health.sinceMs)}${onlyMarked}`,
    })
  }
  return events
}

/** The Event recorded (on the Machine and the health check) once `action` succeeded. */
export function actionEvent(action: RemediationAction): PlannedEvent {
  switch (action.type) {
    case 'delete': {
      const { machine } = action.evaluation.target
      return {
        machine: machine.name,
        both: true,
        type: 'Normal',
        reason: 'MachineRemediated',
        message: `Deleting unhealthy Machine ${machine.name}; MachineSet ${machine.machineSetOwner} will replace it`,
      }
    }
    case 'hand-off': {
      const { machine } = action.evaluation.target
      const how =
        action.mode.type === 'external-template'
          ? `a ${remediationRequestKind(action.mode.template.kind)} request`
          : 'annotation'
      return {
        machine: machine.name,
        both: true,
        type: 'Normal',
        reason: 'ExternalRemediationRequested',
        message: `Handed unhealthy Machine ${machine.name} to external remediation by ${how}`,
      }
    }
    case 'clear-hand-off':
      return {
        machine: action.machine.name,
        both: true,
        type: 'Normal',
        reason: 'ExternalRemediationCompleted',
        message: `Machine ${action.machine.name} is healthy again; external remediation marker removed`,
      }
  }
}

/** The kind of a remediation request made from a template kind (`FooTemplate` -> `Foo`). */
export function remediationRequestKind(templateKind: string): string {
  return templateKind.endsWith('Template')
    ? templateKind.slice(0, -'Template'.length)
    : templateKind
}
