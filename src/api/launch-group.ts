/**
 * @module A Machine's place in a launch group: the Machines a set creates together in one zone
 * are launched by one EC2 call, and each takes the instance at its index. The place is written
 * on the Machine when the set creates it, before any call, so every member (and every retry
 * after a crash) makes the same call and finds the same instance.
 */

/** Members in one group at most (one RunInstances call). */
export const maxLaunchGroupSize = 100

/** A Machine's place: the group, its index in it (0-based) and the group's size. */
export interface LaunchPlace {
  group: string
  index: number
  size: number
}

const placeFormat = /^([a-z0-9]{1,32})\/(\d{1,3})\/(\d{1,3})$/

/** The annotation value of a place. */
export function formatLaunchPlace(place: LaunchPlace): string {
  return `${place.group}/${place.index}/${place.size}`
}

/** The place an annotation names, or undefined when it is missing or not a valid place. */
export function parseLaunchPlace(value: string | undefined): LaunchPlace | undefined {
  const match = placeFormat.exec(value ?? '')
  if (!match) return undefined
  const place = { group: match[1] ?? '', index: Number(match[2]), size: Number(match[3]) }
  const valid = place.size >= 2 && place.size <= maxLaunchGroupSize && place.index < place.size
  return valid ? place : undefined
}
