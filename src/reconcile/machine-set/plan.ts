/**
 * @module The MachineSet planner: from the set and every Machine of its namespace to the actions
 * that converge them. Pure: no I/O; `now` comes with the observation and only paces the
 * replacement of Failed Machines (replacement.ts); availability timers live in status.ts.
 *
 * Ownership follows the Kubernetes controller-ref rules: the set controls Machines whose
 * controller owner reference carries its uid; it adopts orphans (no controller) that match its
 * selector and are not being deleted; it releases Machines it controls whose labels stopped
 * matching. A set that is being deleted does nothing: the garbage collector removes its Machines
 * through their owner references.
 */

import { ANNOTATIONS } from '../../api/group'
import { requiresLabel, selectorMatches } from '../../api/shared/label-selector'
import { readExpiryAllowance } from '../disruption/allowance'
import { victimReason } from './delete-order'
import { type ExpiryPlan, noExpiry, planExpiry } from './expiry'
import { planInterruptions } from './interruption-plan'
import { planLaunchGroups } from './launch-groups'
import { desiredMachine, inPlacePatch } from './machine-template'
import { claimsExpireInMs, type NameClaim, pendingNames, withClaim } from './name-claims'
import { planReplacement, type ReplacementPlan, type ReplacementSettings } from './replacement'
import { planMachineSetScale } from './scale-plan'
import {
  controllerOf,
  isControlledBy,
  isDeleting,
  type MachineObject,
  type MachineSetObject,
} from './types'
import { chooseZones } from './zone-balance'

/** What the planner sees. */
export interface MachineSetObservation {
  set: MachineSetObject
  /** Every Machine in the set's namespace (for ownership, adoption and free names). */
  machines: MachineObject[]
  /** The time of the pass: Failed Machines are replaced only once the set's backoff has passed. */
  now: Date
  /**
   * The generation of the template's MachineClass, read when Failed Machines wait: a class changed
   * since the last replacement round ends the backoff.
   */
  classGeneration?: number | undefined
  /** The zones that can host a new Machine now, in order of preference (zone-balance.ts). */
  zones?: readonly string[] | undefined
}

/** One thing to do; the executor switches on `type`. */
export type MachineSetAction =
  | { type: 'create'; machine: MachineObject }
  | { type: 'delete'; machine: MachineObject; reason: string }
  | { type: 'adopt'; machine: MachineObject }
  | { type: 'release'; machine: MachineObject }
  | { type: 'update'; machine: MachineObject; patch: Record<string, unknown> }

/** The plan: actions, the Machines the set controls once they are done, and when to look again. */
export interface MachineSetPlan {
  actions: MachineSetAction[]
  /** Machines the set controls after adoption and release (being deleted included). */
  owned: MachineObject[]
  /** The Failed Machines, which of them this pass replaces, and the backoff to record. */
  replacement: ReplacementPlan
  /** The expired Machines, which of them go now and which wait for the allowance. */
  expiry: ExpiryPlan
  /**
   * The names this pass's creates take, as the set records them (conditional on the set as read)
   * before any of them is created (reconcile.ts). Absent without creates.
   */
  names?: {
    /** What the claim writes to the set's status. */
    status: { nextMachineIndex: number; nameClaims: NameClaim[] }
    /** This pass's claim, marked done once its creates ran (name-claim-writes.ts). */
    claim: NameClaim
  }
  /** Set when work remains beyond this pass's batch or a replacement waits for its backoff. */
  requeueAfterMs?: number
}

/** Tunables of the planner. */
export interface MachineSetPlanOptions {
  /** Creates or deletes per pass (default 50), so one pass stays short. */
  maxBatch?: number
  /** Delay before the next batch (default 1s). */
  batchDelayMs?: number
  /** Pace of replacing Failed Machines (default defaultReplacementSettings). */
  replacement?: ReplacementSettings
}

/** Plans one pass over `obs`. */
export function planMachineSet(
  obs: MachineSetObservation,
  options: MachineSetPlanOptions = {},
): MachineSetPlan {
  const { set } = obs
  const uid = set.metadata.uid
  // The CRD defaults deletePolicy; a set written before that default existed falls back here.
  const policy = set.spec.deletePolicy ?? 'Random'
  const matches = (m: MachineObject) => selectorMatches(set.spec.selector, m.metadata.labels ?? {})
  const controlled = obs.machines.filter((m) => isControlledBy(m, uid))
  const previous = set.status?.replacement
  if (isDeleting(set)) {
    const replacement = { failed: [], replace: [], backoff: previous }
    return { actions: [], owned: controlled, replacement, expiry: noExpiry }
  }

  const actions: MachineSetAction[] = []
  const release = controlled.filter((m) => !matches(m) && !isDeleting(m))
  // Never adopt through a selector that requires no label (admission refuses one; this guards
  // objects written around it): it would take every ownerless Machine of the namespace.
  const adopt = requiresLabel(set.spec.selector)
    ? obs.machines.filter((m) => controllerOf(m) === undefined && !isDeleting(m) && matches(m))
    : []
  for (const machine of release) actions.push({ type: 'release', machine })
  for (const machine of adopt) actions.push({ type: 'adopt', machine })
  const owned = [...controlled.filter((m) => !release.includes(m)), ...adopt]
  const interruptions = planInterruptions({
    owned,
    replicas: set.spec.replicas ?? 0,
    policy: set.spec.interruption,
    now: obs.now,
  })
  // An interrupted Machine is not a replica: it is leaving, and its replacement takes its place.
  const staying = owned.filter((m) => !interruptions.interrupted.has(m))
  const replacement = planReplacement({
    owned: staying,
    previous,
    now: obs.now,
    classGeneration: obs.classGeneration,
    settings: options.replacement,
    maxBatch: options.maxBatch,
  })
  for (const machine of replacement.replace) {
    actions.push({ type: 'delete', machine, reason: 'Failed, replacing it' })
  }
  const expiry = planExpiry({
    owned: staying,
    // Interrupted Machines are involuntary replacements in flight: they hold expiry back.
    otherInFlight: owned.length - staying.length,
    replicas: set.spec.replicas ?? 0,
    expireAfter: set.spec.template.spec.expireAfter,
    minReadySeconds: set.spec.minReadySeconds ?? 0,
    now: obs.now,
    allowance: readExpiryAllowance(set.metadata.annotations),
    leaving: new Set(replacement.replace),
  })
  for (const machine of expiry.delete) {
    actions.push({ type: 'delete', machine, reason: expiredReason(machine, set, obs.now) })
  }
  // A replaced Machine is being deleted from here on: the scale plan counts it as one (it keeps
  // its replica until gone) and never picks it again.
  const replaced = new Set([...replacement.replace, ...expiry.delete])
  const deletingNow = (m: MachineObject): MachineObject =>
    replaced.has(m)
      ? { ...m, metadata: { ...m.metadata, deletionTimestamp: obs.now.toISOString() } }
      : m

  const takenNames = new Set(obs.machines.map((m) => m.metadata.name))
  const nextIndex = set.status?.nextMachineIndex ?? 0
  const claims = set.status?.nameClaims
  const pending = pendingNames(set.metadata.name, uid ?? '', claims, takenNames, obs.now)
  const scale = planMachineSetScale({
    setName: set.metadata.name,
    setUid: uid ?? '',
    // Expired Machines' replacements (surge) and the expired Machines leaving sit above replicas.
    replicas: (set.spec.replicas ?? 0) + expiry.extra,
    deletePolicy: policy,
    machines: staying.map(deletingNow),
    takenNames,
    nextIndex,
    pending,
    // Within the surge bound; what does not fit is created as interrupted Machines go. Expiry's
    // replacements are bounded by its allowance instead.
    createLimit: Math.max(interruptions.createRoom, expiry.started),
    ...(options.maxBatch === undefined ? {} : { maxBatch: options.maxBatch }),
  })
  const createDisabled = set.metadata.annotations?.[ANNOTATIONS.disableMachineCreate] === 'true'
  const nameClaims =
    !createDisabled && scale.create.length > 0
      ? withClaim(claims, { from: nextIndex, to: scale.nextIndex }, obs.now)
      : undefined
  const claim = nameClaims?.at(-1)
  const names =
    nameClaims && claim
      ? { status: { nextMachineIndex: scale.nextIndex, nameClaims }, claim }
      : undefined
  if (!createDisabled) {
    // A template that names its zone keeps it; otherwise each new Machine evens the zones out
    // over the Machines that stay: not the interrupted or replaced ones, nor the expired ones in
    // replacement (each leaves once its surge replacement is available, so that replacement takes
    // its zone; an expired Machine still waiting for the allowance stays counted).
    const expired = new Set(expiry.replacing)
    const zones = set.spec.template.spec.failureDomain
      ? []
      : chooseZones(
          obs.zones ?? [],
          staying.filter((m) => !expired.has(m)).map(deletingNow),
          scale.create.length,
        )
    const places =
      set.metadata.annotations?.[ANNOTATIONS.launchGroups] === 'false'
        ? new Map()
        : planLaunchGroups({
            setUid: uid ?? '',
            firstIndex: nextIndex,
            creates: scale.create.map((name, i) => ({
              name,
              zone: set.spec.template.spec.failureDomain ?? zones[i],
            })),
          })
    scale.create.forEach((name, i) => {
      actions.push({
        type: 'create',
        machine: desiredMachine(set, name, zones[i], places.get(name)),
      })
    })
  }
  for (const machine of scale.delete) {
    actions.push({ type: 'delete', machine, reason: victimReason(machine, policy) })
  }
  for (const { machine, reason } of interruptions.delete) {
    actions.push({ type: 'delete', machine, reason })
  }
  const leaving = new Set([...scale.delete, ...interruptions.delete.map((d) => d.machine)])
  for (const machine of owned) {
    if (isDeleting(machine) || leaving.has(machine) || replaced.has(machine)) continue
    const patch = inPlacePatch(set, machine)
    if (patch) actions.push({ type: 'update', machine, patch })
  }
  const timers = [
    scale.more && !(createDisabled && scale.delete.length === 0)
      ? (options.batchDelayMs ?? 1000)
      : undefined,
    replacement.requeueAfterMs,
    interruptions.requeueAfterMs,
    expiry.requeueAfterMs,
    // Names another pass is creating that never show up stop counting when their claim expires.
    pending > 0 ? claimsExpireInMs(claims, obs.now) : undefined,
  ].filter((t): t is number => t !== undefined)
  return {
    actions,
    owned,
    replacement,
    expiry,
    ...(names ? { names } : {}),
    ...(timers.length > 0 ? { requeueAfterMs: Math.min(...timers) } : {}),
  }
}

/** The delete reason of an expired Machine, for the scale-down Event. */
function expiredReason(machine: MachineObject, set: MachineSetObject, now: Date): string {
  const created = Date.parse(machine.metadata.creationTimestamp ?? '')
  const age = Number.isNaN(created)
    ? ''
    : ` at ${Math.round((now.getTime() - created) / 1000)}s old`
  return `expired${age} (expireAfter ${set.spec.template.spec.expireAfter}); its replacement is available`
}
