/**
 * @module What a deployment's MachineSet records about its rollout, as annotations: the MachineClass
 * content its Machines are built from (hash, generation, content JSON: the next change's Event
 * says what changed against it) and why the deployment rolled to it. Pure.
 */
import { ANNOTATIONS } from '../../api/group'
import type { MachineSetObject } from '../machine-set/types'
import { type ClassLike, classContentHash, classContentJson } from '../shared/class-content'
import type { RolloutCause } from './rollout-target'

/** The class annotations for `machineClass`. */
function classAnnotations(machineClass: ClassLike): Record<string, string> {
  const generation = machineClass.metadata?.generation
  return {
    [ANNOTATIONS.classHash]: classContentHash(machineClass),
    [ANNOTATIONS.classContent]: classContentJson(machineClass),
    ...(generation === undefined ? {} : { [ANNOTATIONS.classGeneration]: String(generation) }),
  }
}

/** The annotations of a new set: its class (when read) and why it is rolled out to. */
export function newSetAnnotations(
  machineClass: ClassLike | null | undefined,
  cause: RolloutCause | undefined,
): Record<string, string> {
  return {
    ...(machineClass ? classAnnotations(machineClass) : {}),
    ...(cause ? { [ANNOTATIONS.rolloutReason]: JSON.stringify(cause) } : {}),
  }
}

/**
 * The class annotations the current set lacks or holds out of date (a set of an earlier version;
 * a class edit that changed no content, such as its credentials, moves only the generation), or
 * undefined when they are current.
 */
export function classFactsPatch(
  set: MachineSetObject,
  machineClass: ClassLike | null | undefined,
): Record<string, string> | undefined {
  if (!machineClass) return undefined
  const want = classAnnotations(machineClass)
  const have = set.metadata.annotations ?? {}
  const stale = Object.entries(want).some(([key, value]) => have[key] !== value)
  return stale ? want : undefined
}

/** Why the deployment rolled to `set`, as recorded on it. */
export function rolloutCauseOf(set: MachineSetObject | undefined): RolloutCause | undefined {
  const value = set?.metadata.annotations?.[ANNOTATIONS.rolloutReason]
  if (!value) return undefined
  try {
    const parsed = JSON.parse(value) as Partial<RolloutCause>
    return typeof parsed.reason === 'string' && typeof parsed.message === 'string'
      ? (parsed as RolloutCause)
      : undefined
  } catch {
    return undefined
  }
}

/**
 * The mark an old set carries (and copies to its Machines, whose UpToDate condition reports it):
 * why the deployment rolled to `current`, else that the template changed.
 */
export function outdatedMark(current: MachineSetObject, cause: RolloutCause | undefined): string {
  const why = cause ?? rolloutCauseOf(current)
  return JSON.stringify(
    why ?? {
      reason: 'TemplateChanged',
      message: `MachineSet ${current.metadata.name} holds the current template`,
    },
  )
}
