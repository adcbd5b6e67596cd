/**
 * @module Which MachineSet is current for a deployment, and why a new one is rolled out to. Pure.
 *
 * The current set is the one whose hash label is the hash of the template, the content of its
 * MachineClass (class-content.ts) and, once it rolled the deployment, `spec.rolloutAfter`
 * (template-hash.ts). `rolloutAfter` rolls when it has passed and the set it would replace was
 * created before it (Cluster API's rule, #8216); from then on the set made for it is current, so
 * the time rolls exactly once. A set of an earlier version (hashed from the template alone) stays
 * current for the same template while it records no class or the class as it is, so an upgrade
 * rolls nothing, neither on the pass that records the class on it nor on any pass after.
 */
import { ANNOTATIONS, LABELS } from '../../api/group'
import type { MachineSetObject } from '../machine-set/types'
import {
  type ClassLike,
  classContentHash,
  describeClassChange,
  onlyImageChanged,
} from '../shared/class-content'
import { describeDifferences } from '../shared/json-diff'
import { deploymentTemplateOf, type MachineDeploymentObject, revisionOf } from './machine-sets'
import { type RolloutInputs, rolloutFields, templateHash } from './template-hash'

/** Why a deployment rolls to a new set (budgets map these to their reasons). */
export type RolloutReason = 'TemplateChanged' | 'ClassChanged' | 'ImageChanged' | 'RolloutAfter'

/** A reason and the message that explains it to a human. */
export interface RolloutCause {
  reason: RolloutReason
  message: string
}

/** The current set of a deployment, found or to be made. */
export interface RolloutTarget {
  /** The hash of the current set. */
  hash: string
  /** The current set when it exists. */
  existing: MachineSetObject | undefined
  /** Why the deployment rolls to a set that does not exist yet (none for a first set). */
  cause?: RolloutCause | undefined
  /** When `spec.rolloutAfter` is still to come: how long until it passes. */
  wakeAfterMs?: number | undefined
}

/**
 * The template's class as observed: the object, `null` when the template names one that could not
 * be read, or undefined when not observed. Without the object the class is taken to be what the
 * newest set of the template was built from; a template no set has yet is hashed alone (a
 * template change to a class not created yet still rolls, as it did before class hashes).
 */
export type ObservedClass = ClassLike | null | undefined

/** Sets whose hash label is `hash`, the one with most replicas first. */
function withHash(sets: MachineSetObject[], hash: string): MachineSetObject | undefined {
  return sets
    .filter((s) => s.metadata.labels?.[LABELS.templateHash] === hash)
    .sort((a, b) => (b.spec.replicas ?? 0) - (a.spec.replicas ?? 0))[0]
}

/**
 * The set of this template from before class hashes (hashed from the template alone), if it is
 * built from the class of hash `classHash`: it has no class annotation yet (its Machines are taken
 * to be built from the class as it is), or the pass that found it current recorded this class on
 * it (classFactsPatch). So it stays current on every pass after that record, and a later change of
 * the class, whose hash then differs from the recorded one, rolls it as it rolls any other set.
 */
function legacySet(
  md: MachineDeploymentObject,
  sets: MachineSetObject[],
  classHash: string | undefined,
): MachineSetObject | undefined {
  // Without a class hash the template alone is the hash, and withHash already looked for it.
  if (!classHash) return undefined
  const found = withHash(sets, templateHash(md.spec.template))
  const recorded = found?.metadata.annotations?.[ANNOTATIONS.classHash]
  return found && (recorded === undefined || recorded === classHash) ? found : undefined
}

/**
 * Finds the current set of `md` among `sets` (not being deleted, oldest revision first) at `now`,
 * with the template's class as observed.
 */
export function rolloutTarget(
  md: MachineDeploymentObject,
  sets: MachineSetObject[],
  observed: { machineClass: ObservedClass; now: Date | undefined },
): RolloutTarget {
  const { machineClass, now } = observed
  const classHash = machineClass ? classContentHash(machineClass) : recordedClassHash(md, sets)
  const base: RolloutInputs = { classHash }
  const plain = templateHash(md.spec.template, base)
  const after = md.spec.rolloutAfter
  const afterMs = after === undefined ? Number.NaN : Date.parse(after)
  if (!Number.isNaN(afterMs)) {
    const timed = templateHash(md.spec.template, { ...base, rolloutAfter: after })
    const done = withHash(sets, timed)
    if (done) return { hash: timed, existing: done }
    const current = withHash(sets, plain) ?? legacySet(md, sets, classHash)
    const nowMs = now?.getTime()
    if (current && nowMs !== undefined && nowMs >= afterMs) {
      const created = Date.parse(current.metadata.creationTimestamp ?? '')
      if (Number.isNaN(created) || created < afterMs) {
        const message = `spec.rolloutAfter ${after} passed: replacing Machines created before it`
        return { hash: timed, existing: undefined, cause: { reason: 'RolloutAfter', message } }
      }
    }
    const wakeAfterMs = nowMs !== undefined && nowMs < afterMs ? afterMs - nowMs : undefined
    if (current)
      return {
        hash: current.metadata.labels?.[LABELS.templateHash] ?? plain,
        existing: current,
        wakeAfterMs,
      }
    return { hash: plain, existing: undefined, cause: causeOf(md, sets, machineClass), wakeAfterMs }
  }
  const current = withHash(sets, plain) ?? legacySet(md, sets, classHash)
  if (current) {
    return { hash: current.metadata.labels?.[LABELS.templateHash] ?? plain, existing: current }
  }
  return { hash: plain, existing: undefined, cause: causeOf(md, sets, machineClass) }
}

/**
 * The class hash recorded on the newest set of the template, when the class was not observed
 * (the run was not handed it, or it is missing): a class change hands its object to the
 * deployment's run (and so does the sweep), so until then the class is taken to be what the set
 * was built from, and a class deleted for a while rolls nothing.
 */
function recordedClassHash(
  md: MachineDeploymentObject,
  sets: MachineSetObject[],
): string | undefined {
  const fields = rolloutFields(md.spec.template)
  const same = [...sets]
    .sort((a, b) => revisionOf(b) - revisionOf(a))
    .find(
      (s) =>
        s.metadata.annotations?.[ANNOTATIONS.classHash] !== undefined &&
        describeDifferences(rolloutFields(deploymentTemplateOf(s)), fields) === '',
    )
  return same?.metadata.annotations?.[ANNOTATIONS.classHash]
}

/** Why `md` needs a new set, compared with its newest one; undefined for its first set. */
function causeOf(
  md: MachineDeploymentObject,
  sets: MachineSetObject[],
  machineClass: ObservedClass,
): RolloutCause | undefined {
  const newest = [...sets].sort((a, b) => revisionOf(b) - revisionOf(a))[0]
  if (!newest) return undefined
  const template = describeDifferences(
    rolloutFields(deploymentTemplateOf(newest)),
    rolloutFields(md.spec.template),
    'spec',
  )
  if (template !== '')
    return { reason: 'TemplateChanged', message: `template changed (${template})` }
  const had = newest.metadata.annotations?.[ANNOTATIONS.classHash]
  if (machineClass && had !== undefined && had !== classContentHash(machineClass)) {
    const name = machineClass.metadata?.name ?? ''
    const before = newest.metadata.annotations?.[ANNOTATIONS.classContent]
    const change = describeClassChange(before, machineClass)
    if (onlyImageChanged(before, machineClass)) {
      return {
        reason: 'ImageChanged',
        message: `MachineClass ${name} has a newer image (${change})`,
      }
    }
    return { reason: 'ClassChanged', message: `MachineClass ${name} changed (${change})` }
  }
  return { reason: 'TemplateChanged', message: 'template changed' }
}

/**
 * True when a handed copy of the class is older than one a set was built from (a sweep's listing
 * read before an edit): deciding on it would roll back to the old content, so read it fresh.
 */
export function classCopyIsStale(sets: MachineSetObject[], machineClass: ClassLike): boolean {
  const have = machineClass.metadata?.generation
  if (have === undefined) return false
  return sets.some((s) => Number(s.metadata.annotations?.[ANNOTATIONS.classGeneration]) > have)
}
