/**
 * @module What a Machine owns on its Node: labels, annotations and taints from the Machine's spec,
 * plus the back-reference annotations. Pure: given the Machine's wishes and the Node as observed,
 * returns the Node metadata and taints to write, removing only what the Machine put there before.
 */
import type { V1Node, V1Taint } from '@kubernetes/client-node'
import { ANNOTATIONS } from '../../api/group'
import type { Machine } from '../../api/v1beta1/machine'

/** Annotations on the Node recording what the Machine owns there, so removals touch nothing else. */
export const ownedLabelsAnnotation = ANNOTATIONS.ownedLabels
export const ownedAnnotationsAnnotation = ANNOTATIONS.ownedAnnotations
export const ownedTaintsAnnotation = ANNOTATIONS.ownedTaints
/** Back-reference from the Node to its Machine (`namespace/name`). */
export const machineAnnotation = ANNOTATIONS.machine

export interface NodeWishes {
  machineNamespace: string
  machineName: string
  labels: Record<string, string>
  annotations: Record<string, string>
  taints: V1Taint[]
}

/** The desired Node fields, or undefined when the Node already matches. */
export interface NodeSyncPatch {
  labels: Record<string, string | null>
  annotations: Record<string, string | null>
  /** The whole taint list to write (taints are a list; a merge patch replaces it). */
  taints?: V1Taint[]
}

/** What `machine` wants on its Node (spec.metadata and spec.taints). */
export function nodeWishes(machine: Machine): NodeWishes {
  return {
    machineNamespace: machine.metadata.namespace ?? '',
    machineName: machine.metadata.name ?? '',
    labels: machine.spec.metadata?.labels ?? {},
    annotations: machine.spec.metadata?.annotations ?? {},
    taints: (machine.spec.taints ?? []).map((t) => ({
      key: t.key,
      effect: t.effect,
      ...(t.value ? { value: t.value } : {}),
    })),
  }
}

function splitOwned(value: string | undefined): string[] {
  return value ? value.split(',').filter((s) => s.length > 0) : []
}

function taintKey(t: V1Taint): string {
  return `${t.key}:${t.effect}`
}

/**
 * Computes the merge patch that makes the Node carry exactly the Machine's labels, annotations
 * and taints among those the Machine owns, leaving everything else on the Node untouched.
 * Returns undefined when nothing needs to change.
 */
export function planNodeSync(wishes: NodeWishes, node: V1Node): NodeSyncPatch | undefined {
  const current = node.metadata ?? {}
  const currentLabels = current.labels ?? {}
  const currentAnnotations = current.annotations ?? {}
  const labels: Record<string, string | null> = {}
  const annotations: Record<string, string | null> = {}

  for (const key of splitOwned(currentAnnotations[ownedLabelsAnnotation])) {
    if (!(key in wishes.labels) && key in currentLabels) labels[key] = null
  }
  for (const [key, value] of Object.entries(wishes.labels)) {
    if (currentLabels[key] !== value) labels[key] = value
  }

  const wantedAnnotations: Record<string, string> = {
    ...wishes.annotations,
    [machineAnnotation]: `${wishes.machineNamespace}/${wishes.machineName}`,
  }
  // An empty owned list is left out (absent reads as empty), so a Machine that owns nothing on a
  // Node already naming it (a kwok Node carries the back-reference from its creation) needs no
  // patch; a list that empties is removed.
  const ownedLists: Record<string, string> = {
    [ownedLabelsAnnotation]: Object.keys(wishes.labels).sort().join(','),
    [ownedAnnotationsAnnotation]: Object.keys(wishes.annotations).sort().join(','),
    [ownedTaintsAnnotation]: wishes.taints.map(taintKey).sort().join(','),
  }
  for (const key of splitOwned(currentAnnotations[ownedAnnotationsAnnotation])) {
    if (!(key in wantedAnnotations) && key in currentAnnotations) annotations[key] = null
  }
  for (const [key, value] of Object.entries(wantedAnnotations)) {
    if (currentAnnotations[key] !== value) annotations[key] = value
  }
  for (const [key, value] of Object.entries(ownedLists)) {
    if ((currentAnnotations[key] ?? '') !== value) annotations[key] = value === '' ? null : value
  }

  const taints = planTaints(
    wishes.taints,
    node.spec?.taints ?? [],
    splitOwned(currentAnnotations[ownedTaintsAnnotation]),
  )
  const changed =
    Object.keys(labels).length > 0 || Object.keys(annotations).length > 0 || taints !== undefined
  if (!changed) return undefined
  return { labels, annotations, ...(taints ? { taints } : {}) }
}

/** The full taint list to write, or undefined when the Node's taints already match. */
function planTaints(
  wanted: V1Taint[],
  current: V1Taint[],
  previouslyOwned: string[],
): V1Taint[] | undefined {
  const wantedKeys = new Set(wanted.map(taintKey))
  const owned = new Set(previouslyOwned)
  // Keep taints others set (the node lifecycle controller, the cloud provider, admins).
  const kept = current.filter((t) => !wantedKeys.has(taintKey(t)) && !owned.has(taintKey(t)))
  const next = [
    ...kept,
    ...wanted.map((t) => ({
      key: t.key,
      effect: t.effect,
      ...(t.value ? { value: t.value } : {}),
    })),
  ]
  const same =
    next.length === current.length &&
    next.every((t) =>
      current.some((c) => taintKey(c) === taintKey(t) && (c.value ?? '') === (t.value ?? '')),
    )
  return same ? undefined : next
}
