/**
 * @module The capacity annotations cluster-autoscaler reads on a node group (a MachineSet or
 * MachineDeployment) to scale it up from zero, derived from the status of the MachineClass its
 * template references. Pure. The autoscaler cannot follow a template's `classRef` itself: it only
 * follows `infrastructureRef`, and it turns the kind into a resource by lowercasing and adding
 * "s" ("machineclasss"), which no server serves. So the set and deployment controllers copy what
 * the class knows into the annotations it does read.
 *
 * An annotation someone else wrote wins: the controllers record what they wrote in
 * `machine-api.dev/class-capacity` and only change or remove keys whose value is still theirs.
 */
import { ANNOTATIONS } from '../../api/group'
import type { MachineClass } from '../../api/v1beta1/machine-class'

/** The prefix of every capacity annotation the autoscaler reads. */
export const CAPACITY_PREFIX = 'capacity.cluster-autoscaler.kubernetes.io/'
/** JSON of the capacity annotations the controller wrote, so it never overwrites anyone else's. */
export const CLASS_CAPACITY_RECORD = ANNOTATIONS.classCapacity

/** GPU extended resources the autoscaler's gpu-count / gpu-type annotations describe. */
const gpuResources = ['nvidia.com/gpu', 'amd.com/gpu']

/** The annotations (full keys) a class status stands for; empty when it knows nothing. */
export function capacityAnnotations(
  status: NonNullable<MachineClass['status']> | undefined,
): Record<string, string> {
  const capacity = status?.capacity ?? {}
  const out: Record<string, string> = {}
  const put = (key: string, value: string | undefined) => {
    if (value !== undefined && value !== '') out[`${CAPACITY_PREFIX}${key}`] = value
  }
  put('cpu', capacity.cpu)
  put('memory', capacity.memory)
  put('ephemeral-disk', capacity['ephemeral-storage'])
  put('maxPods', capacity.pods)
  const gpu = gpuResources.find((r) => capacity[r] !== undefined)
  if (gpu) {
    put('gpu-count', capacity[gpu])
    put('gpu-type', gpu)
  }
  const info = status?.nodeInfo
  const labels = [
    info?.architecture ? `kubernetes.io/arch=${info.architecture}` : undefined,
    info?.operatingSystem ? `kubernetes.io/os=${info.operatingSystem}` : undefined,
  ].filter((l): l is string => l !== undefined)
  // Only with cpu and memory does the autoscaler consider scaling from zero at all.
  if (out[`${CAPACITY_PREFIX}cpu`] === undefined || out[`${CAPACITY_PREFIX}memory`] === undefined) {
    return {}
  }
  if (labels.length > 0) put('labels', labels.join(','))
  return out
}

function parseRecord(value: string | undefined): Record<string, string> {
  if (!value) return {}
  try {
    const parsed: unknown = JSON.parse(value)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {}
    return Object.fromEntries(
      Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'),
    )
  } catch {
    return {}
  }
}

/**
 * The merge patch of `metadata.annotations` that makes `current` carry `desired`, leaving alone
 * every key whose value is not the one recorded as ours; undefined when nothing changes.
 */
export function capacityAnnotationPatch(
  current: Readonly<Record<string, string>> | undefined,
  desired: Readonly<Record<string, string>>,
): Record<string, string | null> | undefined {
  const have = current ?? {}
  const ours = parseRecord(have[CLASS_CAPACITY_RECORD])
  const patch: Record<string, string | null> = {}
  const record: Record<string, string> = {}
  for (const [key, value] of Object.entries(desired)) {
    const existing = have[key]
    if (existing !== undefined && existing !== ours[key]) continue
    record[key] = value
    if (existing !== value) patch[key] = value
  }
  for (const [key, value] of Object.entries(ours)) {
    if (key in desired || have[key] !== value) continue
    patch[key] = null
  }
  const recorded = Object.keys(record).length > 0 ? JSON.stringify(sorted(record)) : undefined
  if (recorded !== have[CLASS_CAPACITY_RECORD]) patch[CLASS_CAPACITY_RECORD] = recorded ?? null
  return Object.keys(patch).length > 0 ? patch : undefined
}

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)))
}
