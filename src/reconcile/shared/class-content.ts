/**
 * @module What a MachineClass's Machines are built from, as a content hash: the provider, its
 * spec, the user data Secret named and, for a class that follows its newest image, the image it
 * published in status.image (not the credentials Secret: rotating credentials changes no
 * machine; nor the offering memory's TTL). A Machine records the hash it was built from, a
 * MachineDeployment puts it in its rollout hash, and the MachineClass controller publishes it in
 * `status.contentHash`, so all three compare the same thing. Pure.
 */
import { shortHash, stableJson } from './content-hash'
import { describeDifferences } from './json-diff'

/** The parts of a MachineClass that Machines are built from. */
export interface ClassContent {
  provider: unknown
  providerSpec: unknown
  userDataSecretRef?: unknown
  /** The published image id (status.image.id) of a class that follows its newest image. */
  image?: string
}

/** A MachineClass as read (loosely typed: only the fields the content is made of). */
export interface ClassLike {
  metadata?: { name?: string | undefined; generation?: number | undefined } | undefined
  spec?: { provider?: unknown; providerSpec?: unknown; userDataSecretRef?: unknown } | undefined
  status?: { image?: { id?: string | undefined } | undefined } | undefined
}

/** The content of `machineClass`. */
export function classContent(machineClass: ClassLike): ClassContent {
  const spec = machineClass.spec ?? {}
  return {
    provider: spec.provider,
    providerSpec: spec.providerSpec,
    ...(spec.userDataSecretRef === undefined ? {} : { userDataSecretRef: spec.userDataSecretRef }),
    ...(machineClass.status?.image?.id ? { image: machineClass.status.image.id } : {}),
  }
}

/** The content hash of `machineClass` (10 label-safe characters). */
export function classContentHash(machineClass: ClassLike): string {
  return shortHash(classContent(machineClass))
}

/** The content as stored in an annotation (stable JSON), to describe a later change. */
export function classContentJson(machineClass: ClassLike): string {
  return stableJson(classContent(machineClass))
}

/**
 * What changed between the stored content `beforeJson` (classContentJson) and `machineClass`, for
 * an Event: e.g. `instanceType t3.micro -> m5.xlarge` (provider spec fields are named without
 * their `providerSpec.` prefix); at most 3 changes, then how many more.
 */
export function describeClassChange(
  beforeJson: string | undefined,
  machineClass: ClassLike,
): string {
  if (!beforeJson) return 'content changed'
  let before: Record<string, unknown>
  try {
    before = JSON.parse(beforeJson) as Record<string, unknown>
  } catch {
    return 'content changed'
  }
  const after = classContent(machineClass) as unknown as Record<string, unknown>
  const spec = describeDifferences(before.providerSpec, after.providerSpec)
  const rest = describeDifferences(
    { provider: before.provider, userDataSecretRef: before.userDataSecretRef, image: before.image },
    { provider: after.provider, userDataSecretRef: after.userDataSecretRef, image: after.image },
  )
  return [spec, rest].filter((d) => d !== '').join(', ') || 'content changed'
}

/**
 * Whether only the published image differs between the stored content `beforeJson` and
 * `machineClass` (a newer image it follows), rather than what its spec says.
 */
export function onlyImageChanged(beforeJson: string | undefined, machineClass: ClassLike): boolean {
  if (!beforeJson) return false
  try {
    const { image: was, ...before } = JSON.parse(beforeJson) as Record<string, unknown>
    const { image: now, ...after } = classContent(machineClass)
    return was !== now && stableJson(before) === stableJson(after)
  } catch {
    return false
  }
}
