/**
 * @module When a Machine counts as ready and as available. Ready: its `Ready` condition is True
 * (the Machine controller sets it once the linked Node is Ready). Available: Ready for at least
 * minReadySeconds, measured from the condition's lastTransitionTime, and not being deleted.
 */
import type { MachineObject } from './types'
import { isDeleting } from './types'

/** True when the Machine reports Ready=True and is not being deleted. */
export function isMachineReady(machine: MachineObject): boolean {
  if (isDeleting(machine)) return false
  return machine.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false
}

/**
 * The instant (ms since epoch) the Machine becomes available, or undefined while it is not ready.
 * A Ready condition without a parseable time counts as ready since forever.
 */
export function availableSince(
  machine: MachineObject,
  minReadySeconds: number,
): number | undefined {
  if (!isMachineReady(machine)) return undefined
  const ready = machine.status?.conditions?.find((c) => c.type === 'Ready')
  const since = ready?.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : Number.NaN
  return (Number.isNaN(since) ? 0 : since) + minReadySeconds * 1000
}
