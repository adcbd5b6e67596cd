/**
 * @module From a MachineSet's template to Machines: the Machine to create for a slot, and the
 * merge patch that brings an existing Machine's in-place fields up to date. In-place fields are
 * those that need no new instance: template labels and annotations, Node metadata and taints,
 * the drain / volume-detach / Node-deletion timeouts and expireAfter.
 */
import { isDeepStrictEqual } from 'node:util'
import { ANNOTATIONS, HUB_API_VERSION, LABELS } from '../../api/group'
import { formatLaunchPlace, type LaunchPlace } from '../../api/launch-group'
import { controllerReference, type MachineObject, type MachineSetObject } from './types'

/** Machine spec fields that are propagated to existing Machines instead of replacing them. */
export const IN_PLACE_SPEC_FIELDS = [
  'metadata',
  'taints',
  'nodeDrainTimeout',
  'nodeVolumeDetachTimeout',
  'nodeDeletionTimeout',
  'provisioningTimeout',
  // A lifetime policy: changing it re-times the Machines, it never needs new ones.
  'expireAfter',
] as const

/**
 * The Machine for slot `name` of `set`: template metadata and spec, owned by the set, in `zone`
 * (spec.failureDomain) when one was chosen, with its `place` in a launch group when it has one.
 */
export function desiredMachine(
  set: MachineSetObject,
  name: string,
  zone?: string | undefined,
  place?: LaunchPlace | undefined,
): MachineObject {
  const meta = set.spec.template.metadata ?? {}
  const annotations = {
    ...meta.annotations,
    ...(place ? { [ANNOTATIONS.launchGroup]: formatLaunchPlace(place) } : {}),
  }
  return {
    apiVersion: HUB_API_VERSION,
    kind: 'Machine',
    metadata: {
      name,
      namespace: set.metadata.namespace ?? '',
      labels: { ...meta.labels, ...(place ? { [LABELS.launchGroup]: place.group } : {}) },
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ownerReferences: [controllerReference({ ...set, kind: 'MachineSet' })],
    },
    spec: {
      ...structuredClone(set.spec.template.spec),
      ...(zone === undefined ? {} : { failureDomain: zone }),
    },
  }
}

/**
 * The merge patch that propagates the set's in-place fields to `machine`, or undefined when it is
 * current. Labels and annotations are only added or changed, never removed: keys a user or another
 * controller put on the Machine are not ours to drop.
 */
export function inPlacePatch(
  set: MachineSetObject,
  machine: MachineObject,
): Record<string, unknown> | undefined {
  const meta = set.spec.template.metadata ?? {}
  const metadata: Record<string, unknown> = {}
  const labels = changed(meta.labels, machine.metadata.labels)
  const annotations = changed(meta.annotations, machine.metadata.annotations)
  if (labels) metadata.labels = labels
  const mark = outdatedMarkPatch(set, machine)
  if (annotations || mark) metadata.annotations = { ...annotations, ...mark }
  const spec: Record<string, unknown> = {}
  const want = set.spec.template.spec as Record<string, unknown>
  const have = (machine.spec ?? {}) as Record<string, unknown>
  for (const field of IN_PLACE_SPEC_FIELDS) {
    if (!isDeepStrictEqual(want[field], have[field])) spec[field] = want[field] ?? null
  }
  const patch: Record<string, unknown> = {}
  if (Object.keys(metadata).length > 0) patch.metadata = metadata
  if (Object.keys(spec).length > 0) patch.spec = spec
  return Object.keys(patch).length > 0 ? patch : undefined
}

/**
 * The set's outdated mark (its deployment rolled on: machine-api.dev/outdated) copied to the
 * Machine, or removed once the set is current again; undefined when the Machine has it right.
 */
function outdatedMarkPatch(
  set: MachineSetObject,
  machine: MachineObject,
): Record<string, string | null> | undefined {
  const want = set.metadata.annotations?.[ANNOTATIONS.outdated]
  const have = machine.metadata.annotations?.[ANNOTATIONS.outdated]
  if (want === have) return undefined
  return { [ANNOTATIONS.outdated]: want ?? null }
}

function changed(
  want: Record<string, string> | undefined,
  have: Record<string, string> | undefined,
): Record<string, string> | undefined {
  const diff = Object.entries(want ?? {}).filter(([key, value]) => have?.[key] !== value)
  return diff.length > 0 ? Object.fromEntries(diff) : undefined
}

/** True when the Machine carries every template label with its value (fullyLabeledReplicas). */
export function isFullyLabeled(set: MachineSetObject, machine: MachineObject): boolean {
  return changed(set.spec.template.metadata?.labels, machine.metadata.labels) === undefined
}
