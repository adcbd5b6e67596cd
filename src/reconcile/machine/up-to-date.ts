/**
 * @module Whether a Machine is still what its MachineClass and its MachineSet's template say now:
 * `status.builtFrom`, recorded once the instance exists (the template hash label, the class's
 * content hash and generation, the image the provider reports), and the `UpToDate` condition,
 * False with reason ImageChanged (its class follows its newest image and published another one),
 * ClassChanged (its class's content hash moved since), or the reason its old
 * MachineSet's outdated mark carries (TemplateChanged, ClassChanged, ImageChanged, RolloutAfter:
 * its deployment rolled on, see machine-deployment/rollout-facts.ts). Pure.
 *
 * The class is compared only on runs that read it (every run that asks the provider: creates,
 * timers, sweeps, which hand it over); a settled Machine's watch-event run reads none and keeps
 * the condition as it was, so UpToDate costs no class read. A Machine from before builtFrom
 * existed records it on its next such run, as a baseline.
 */
import { ANNOTATIONS, LABELS } from '../../api/group'
import type { MachineStatus } from '../../api/v1beta1/machine'
import { classContentHash } from '../shared/class-content'
import type { ConditionInput } from '../shared/conditions'
import type { MachineObservation } from './observation'

/** What a Machine was built from (status.builtFrom). */
export type BuiltFrom = NonNullable<MachineStatus['builtFrom']>

function imageIdOf(providerStatus: unknown): string | undefined {
  const id = (providerStatus as { imageId?: unknown } | undefined)?.imageId
  return typeof id === 'string' && id !== '' ? id : undefined
}

/** status.builtFrom: as recorded, else from this run once the instance exists and the class is read. */
export function builtFromOf(obs: MachineObservation): BuiltFrom | undefined {
  const recorded = obs.machine.status?.builtFrom
  if (recorded) return recorded
  const result = obs.instance.state === 'present' ? obs.instance.result : undefined
  if (!result) return undefined
  const cls = obs.machineClass
  if (obs.machine.spec.classRef && !cls) return undefined
  const templateHash = obs.machine.metadata.labels?.[LABELS.templateHash]
  const generation = (cls?.metadata as { generation?: number } | undefined)?.generation
  const imageId = imageIdOf(result.providerStatus)
  return {
    ...(templateHash ? { templateHash } : {}),
    ...(cls ? { classHash: classContentHash(cls) } : {}),
    ...(generation === undefined ? {} : { classGeneration: generation }),
    ...(imageId ? { imageId } : {}),
  }
}

function outdatedMark(obs: MachineObservation): { reason: string; message: string } | undefined {
  const value = obs.machine.metadata.annotations?.[ANNOTATIONS.outdated]
  if (!value) return undefined
  try {
    const mark = JSON.parse(value) as { reason?: unknown; message?: unknown }
    if (typeof mark.reason === 'string' && typeof mark.message === 'string') {
      return { reason: mark.reason, message: mark.message }
    }
  } catch {
    // A mark that does not parse still says the Machine is out of date.
  }
  return { reason: 'TemplateChanged', message: 'Its MachineSet is no longer current' }
}

/**
 * UpToDate, or undefined to keep the stored condition (not built yet; or a class drift found
 * earlier that this run, which read no class, cannot re-check).
 */
export function upToDateCondition(
  obs: MachineObservation,
  builtFrom: BuiltFrom | undefined,
): ConditionInput | undefined {
  if (!builtFrom) return undefined
  const type = 'UpToDate'
  const cls = obs.machineClass
  const published = cls?.status?.image?.id
  if (published && builtFrom.imageId !== undefined && builtFrom.imageId !== published) {
    return {
      type,
      status: 'False',
      reason: 'ImageChanged',
      message: `Built from image ${builtFrom.imageId}; MachineClass ${obs.machine.spec.classRef?.name ?? ''} now launches ${published}`,
    }
  }
  if (cls && builtFrom.classHash !== undefined && classContentHash(cls) !== builtFrom.classHash) {
    const name = obs.machine.spec.classRef?.name ?? ''
    const was = builtFrom.classGeneration
    const now = (cls.metadata as { generation?: number } | undefined)?.generation
    const generations =
      was !== undefined && now !== undefined ? ` (generation ${was} -> ${now})` : ''
    return {
      type,
      status: 'False',
      reason: 'ClassChanged',
      message: `MachineClass ${name} changed since this Machine was built${generations}`,
    }
  }
  const mark = outdatedMark(obs)
  if (mark) return { type, status: 'False', ...mark }
  if (!cls && obs.machine.spec.classRef) {
    const stored = obs.machine.status?.conditions?.find((c) => c.type === type)
    if (stored?.status === 'False' && stored.reason !== 'TemplateChanged') return undefined
  }
  return {
    type,
    status: 'True',
    reason: 'UpToDate',
    message: 'Built from the current template and MachineClass',
  }
}
