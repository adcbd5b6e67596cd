/**
 * @module The MachineDeployment planner: from the deployment and the MachineSets it controls to the
 * actions of one pass. Pure. Order of business: a requested rollback (rewrites the template and
 * stops), then, when paused, scaling only; otherwise find or create the set of the current
 * template, propagate in-place fields, run the strategy (RollingUpdate or OnDelete), and trim old
 * empty sets to revisionHistoryLimit.
 */

import { isDeepStrictEqual } from 'node:util'
import { ANNOTATIONS } from '../../api/group'
import { resolveIntOrPercent } from '../../api/shared/int-or-string'
import { formatExpiryAllowance } from '../disruption/allowance'
import { isDeleting, type MachineSetObject } from '../machine-set/types'
import { autoscalerKeyPatch, isPaused } from './autoscaler-keys'
import { type DeploymentDisruption, olderSetExpiryAllowance, planDisruption } from './disruption'
import {
  deploymentTemplateOf,
  desiredMachineSet,
  inPlaceSetPatch,
  type MachineDeploymentObject,
  revisionOf,
} from './machine-sets'
import { mergePatchFor } from './merge-diff'
import { planRollingUpdate, type RollingUpdateInput } from './rolling-update'
import { classFactsPatch, newSetAnnotations, outdatedMark, rolloutCauseOf } from './rollout-facts'
import { type ObservedClass, type RolloutCause, rolloutTarget } from './rollout-target'
import { planOnDelete, type ScaleDecision, type SetView, scaleWithoutRollout } from './scaling'

/** What the planner sees. */
export interface DeploymentObservation {
  deployment: MachineDeploymentObject
  /** The MachineSets the deployment controls. */
  sets: MachineSetObject[]
  /**
   * The template's MachineClass: the object, null when it names one that could not be read,
   * undefined when not observed (rollout-target.ts says what each means for the hash).
   */
  machineClass?: ObservedClass
  /**
   * The time of the pass: disruption budget windows are evaluated at it (unset: no budgets), and
   * spec.rolloutAfter is compared with it.
   */
  now?: Date | undefined
}

/** One thing to do; the executor switches on `type`. */
export type DeploymentAction =
  | { type: 'rollback'; revision: number; patch: Record<string, unknown> | undefined }
  | { type: 'create-set'; set: MachineSetObject; rollout?: RolloutNotice | undefined }
  | { type: 'scale-set'; set: MachineSetObject; to: number }
  | { type: 'patch-set'; set: MachineSetObject; patch: Record<string, unknown> }
  | { type: 'delete-set'; set: MachineSetObject }

/** What a new set's creation tells: why, and how many Machines it makes out of date. */
export interface RolloutNotice extends RolloutCause {
  /** Machines of older sets (existing ones, being deleted included). */
  outdated: number
  /** OnDelete: they are only marked, and replaced as users delete them. */
  onDelete: boolean
}

/** The plan of one pass. */
export interface DeploymentPlan {
  actions: DeploymentAction[]
  /** The set of the current template, existing or about to be created (none while paused). */
  current: MachineSetObject | undefined
  /** Replicas moved or a set created: the rollout made progress. */
  progressed: boolean
  /** The disruption budgets' allowances, and whether they held the rollout back this pass. */
  disruption?: DeploymentDisruption & { rolloutHeld: boolean }
  /**
   * Why the deployment rolls to its current set (recorded on it, or this pass's reason for a new
   * one); undefined for a first set or one from before reasons were recorded.
   */
  cause?: RolloutCause | undefined
  /** When to look again: spec.rolloutAfter is still to come. */
  requeueAfterMs?: number | undefined
  /**
   * The pass would make a new set for a template that names a MachineClass that was not observed:
   * read the class and plan again (the set records what it is built from).
   */
  classNeeded?: boolean
}

/** The set as the replica planners see it. */
export function viewOf(set: MachineSetObject): SetView {
  return {
    name: set.metadata.name,
    replicas: set.spec.replicas ?? 0,
    machines: set.status?.replicas ?? 0,
    available: set.status?.availableReplicas ?? 0,
    settled: set.status?.observedGeneration === set.metadata.generation,
  }
}

/** maxSurge (rounded up) and maxUnavailable (rounded down) against `replicas`. */
export function rolloutBounds(md: MachineDeploymentObject, replicas: number) {
  const rolling = md.spec.strategy?.rollingUpdate
  return {
    maxSurge: resolveIntOrPercent(rolling?.maxSurge ?? 1, replicas, true),
    maxUnavailable: resolveIntOrPercent(rolling?.maxUnavailable ?? 0, replicas, false),
  }
}

/** Plans one pass over `obs`. */
export function planMachineDeployment(obs: DeploymentObservation): DeploymentPlan {
  const md = obs.deployment
  const none: DeploymentPlan = { actions: [], current: undefined, progressed: false }
  if (isDeleting(md)) return none
  const sets = obs.sets
    .filter((s) => !isDeleting(s))
    .sort((a, b) => revisionOf(a) - revisionOf(b) || a.metadata.name.localeCompare(b.metadata.name))
  const target = rolloutTarget(md, sets, { machineClass: obs.machineClass, now: obs.now })
  const { hash, existing } = target
  if (md.spec.rollbackTo) return { ...none, actions: [planRollback(md, sets, existing)] }

  const replicas = md.spec.replicas ?? 0
  if (isPaused(md)) {
    const newest = existing ?? sets.at(-1)
    if (!newest) return none
    const others = sets.filter((s) => s !== newest).map(viewOf)
    return finish(sets, scaleWithoutRollout(replicas, viewOf(newest), others), [], undefined)
  }

  const maxRevision = Math.max(0, ...sets.map(revisionOf))
  const actions: DeploymentAction[] = []
  const current = existing ?? desiredMachineSet(md, hash, maxRevision + 1, 0)
  if (!existing) {
    const annotations = newSetAnnotations(obs.machineClass, target.cause)
    current.metadata.annotations = { ...current.metadata.annotations, ...annotations }
  }
  const olds = sets.filter((s) => s !== current)
  const onDelete = md.spec.strategy?.type === 'OnDelete'
  const bounds = rolloutBounds(md, replicas)
  const disruption = obs.now
    ? planDisruption(md, { current, all: sets, maxSurge: bounds.maxSurge }, obs.now)
    : undefined
  // Only a template with a lifetime needs the allowance: no write for the others.
  const expiring = md.spec.template.spec.expireAfter !== undefined
  const expiryAllowance = (set: MachineSetObject) =>
    disruption && expiring
      ? formatExpiryAllowance(set === current ? disruption.expiry : olderSetExpiryAllowance)
      : undefined
  for (const set of sets) {
    const patch = setPatch(md, set, {
      current: set === current,
      onDelete,
      // A rollback makes an old template current again: it gets the newest revision.
      revision: set === current && revisionOf(set) < maxRevision ? maxRevision + 1 : undefined,
      expiryAllowance: expiryAllowance(set),
      classFacts: set === current ? classFactsPatch(set, obs.machineClass) : undefined,
      outdated: set === current ? null : outdatedMark(current, target.cause),
    })
    if (patch) actions.push({ type: 'patch-set', set, patch })
  }
  const rolling: RollingUpdateInput = {
    replicas,
    ...bounds,
    newSet: viewOf(current),
    oldSets: olds.map(viewOf),
  }
  const allowance = onDelete ? undefined : disruption?.rollout.allowance
  const decision = onDelete
    ? planOnDelete(replicas, viewOf(current), olds.map(viewOf))
    : planRollingUpdate({ ...rolling, disruptionAllowance: allowance }).scale
  // Held: without the budget this pass would have scaled more.
  const rolloutHeld =
    allowance !== undefined && !isDeepStrictEqual(decision, planRollingUpdate(rolling).scale)
  if (!existing) {
    const allowed = expiryAllowance(current)
    if (allowed !== undefined) {
      current.metadata.annotations = {
        ...current.metadata.annotations,
        [ANNOTATIONS.expiryAllowance]: allowed,
      }
    }
    current.spec.replicas = decision[current.metadata.name] ?? 0
    const outdated = olds.reduce((n, s) => n + (s.status?.replicas ?? 0), 0)
    const rollout = target.cause && { ...target.cause, outdated, onDelete }
    actions.push({ type: 'create-set', set: current, rollout })
  }
  const plan = finish(existing ? sets : olds, decision, actions, current)
  plan.actions.push(...trimHistory(md, olds, decision))
  return {
    ...plan,
    progressed: plan.progressed || !existing,
    ...(disruption ? { disruption: { ...disruption, rolloutHeld } } : {}),
    cause: target.cause ?? rolloutCauseOf(existing),
    ...(target.wakeAfterMs === undefined ? {} : { requeueAfterMs: target.wakeAfterMs }),
    ...(!existing && obs.machineClass === undefined && md.spec.template.spec.classRef
      ? { classNeeded: true }
      : {}),
  }
}

function finish(
  sets: MachineSetObject[],
  decision: ScaleDecision,
  actions: DeploymentAction[],
  current: MachineSetObject | undefined,
): DeploymentPlan {
  let progressed = false
  for (const set of sets) {
    const to = decision[set.metadata.name]
    if (to === undefined || to === set.spec.replicas) continue
    actions.push({ type: 'scale-set', set, to })
    progressed = true
  }
  return { actions, current, progressed }
}

/**
 * In-place fields, the OnDelete create switch, a revision bump and the autoscaler's keys, as one
 * patch per set.
 */
function setPatch(
  md: MachineDeploymentObject,
  set: MachineSetObject,
  options: {
    current: boolean
    onDelete: boolean
    revision: number | undefined
    /** The expiry allowance annotation value the set should carry (unset: leave it). */
    expiryAllowance?: string | undefined
    /** Class annotations the current set lacks (a set of an earlier version, or a new generation). */
    classFacts: Record<string, string> | undefined
    /** The set's outdated mark (null: none, it is current). */
    outdated: string | null
  },
): Record<string, unknown> | undefined {
  const disable = options.onDelete && !options.current ? 'true' : undefined
  const have = set.metadata.annotations?.[ANNOTATIONS.disableMachineCreate]
  const keys = autoscalerKeyPatch(md, set, options.revision ?? revisionOf(set))
  const annotations: Record<string, string | null> = { ...keys.annotations, ...options.classFacts }
  if (have !== disable) annotations[ANNOTATIONS.disableMachineCreate] = disable ?? null
  if (options.revision !== undefined) annotations[ANNOTATIONS.revision] = String(options.revision)
  if ((set.metadata.annotations?.[ANNOTATIONS.outdated] ?? null) !== options.outdated) {
    annotations[ANNOTATIONS.outdated] = options.outdated
  }
  const allowance = options.expiryAllowance
  if (
    allowance !== undefined &&
    set.metadata.annotations?.[ANNOTATIONS.expiryAllowance] !== allowance
  ) {
    annotations[ANNOTATIONS.expiryAllowance] = allowance
  }
  const metadata: Record<string, unknown> = {}
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations
  if (Object.keys(keys.labels).length > 0) metadata.labels = keys.labels
  const patch: Record<string, unknown> = { ...inPlaceSetPatch(md, set, options.current) }
  if (Object.keys(metadata).length > 0) patch.metadata = metadata
  return Object.keys(patch).length > 0 ? patch : undefined
}

/** Old sets with no replicas and no Machines left, beyond revisionHistoryLimit, oldest first. */
function trimHistory(
  md: MachineDeploymentObject,
  olds: MachineSetObject[],
  decision: ScaleDecision,
): DeploymentAction[] {
  const empty = olds.filter(
    (s) =>
      (decision[s.metadata.name] ?? s.spec.replicas ?? 0) === 0 && (s.status?.replicas ?? 0) === 0,
  )
  const excess = empty.length - (md.spec.revisionHistoryLimit ?? 1)
  return empty.slice(0, Math.max(0, excess)).map((set) => ({ type: 'delete-set' as const, set }))
}

/**
 * `spec.rollbackTo`: copy the template of the requested revision (0: the one before the current
 * template) into the deployment and clear the request. An unknown revision only clears it.
 */
function planRollback(
  md: MachineDeploymentObject,
  sets: MachineSetObject[],
  current: MachineSetObject | undefined,
): DeploymentAction {
  const asked = md.spec.rollbackTo?.revision ?? 0
  const previous = sets.filter((s) => s !== current).at(-1)
  const target = asked === 0 ? previous : sets.find((s) => revisionOf(s) === asked)
  const revision = target ? revisionOf(target) : asked
  const template = target
    ? mergePatchFor(md.spec.template, deploymentTemplateOf(target))
    : undefined
  return {
    type: 'rollback',
    revision,
    patch: target ? { spec: { ...(template ? { template } : {}), rollbackTo: null } } : undefined,
  }
}
