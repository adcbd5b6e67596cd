/**
 * @module The tags machine-api puts on every EC2 resource it launches. They are how `exists` finds
 * an instance whose id was never recorded (crash between launch and status write) and how the
 * orphan sweep recognises instances that belong to this deployment.
 */
import { API_GROUP, INFRA_KEYS } from '../../api/group'

/** Users may not set tags under this prefix. */
export const reservedTagPrefix = `${API_GROUP}/`

/** Tag keys machine-api owns. */
export const tagKeys = {
  machineUid: INFRA_KEYS.machineUid,
  machineName: INFRA_KEYS.machineName,
  machineNamespace: INFRA_KEYS.machineNamespace,
  owner: INFRA_KEYS.owner,
  launchGroup: INFRA_KEYS.launchGroup,
} as const

/** The ownership tag value when the provider is not given one. */
export const defaultOwnerId = 'machine-api'

/** An EC2 tag. */
export interface Ec2Tag {
  Key: string
  Value: string
}

/**
 * The tags of a Machine's resources: the user's (`spec.tags`), then `Name` (unless the user set
 * it), then machine-api's own, which always win.
 */
export function machineTags(
  machine: { name: string; namespace: string; uid: string },
  options: { ownerId: string; userTags: Record<string, string> },
): Ec2Tag[] {
  const merged: Record<string, string> = {
    Name: machine.name,
    ...options.userTags,
    [tagKeys.machineUid]: machine.uid,
    [tagKeys.machineName]: machine.name,
    [tagKeys.machineNamespace]: machine.namespace,
    [tagKeys.owner]: options.ownerId,
  }
  return Object.entries(merged).map(([Key, Value]) => ({ Key, Value }))
}

/** Reads a tag value from an EC2 tag list. */
export function tagValue(
  tags: readonly { Key?: string | undefined; Value?: string | undefined }[] | undefined,
  key: string,
): string | undefined {
  return tags?.find((t) => t.Key === key)?.Value
}
