/**
 * @module The memory of unavailable offerings a Machine's provider calls get (ActuatorContext
 * `offerings`): the list its MachineClass's status holds, as read by this reconcile, and a write
 * of what a launch found back to that status, merged into the stored list
 * (machine-class/offerings-write.ts), so concurrent launches of sibling Machines (on any worker)
 * keep each other's findings.
 */
import type { MachineClass } from '../../api/v1beta1/machine-class'
import type { OfferingMemory } from '../../providers/actuator'
import { type ClassObject, updateUnavailableOfferings } from '../machine-class/offerings-write'
import { rememberOutcome } from '../shared/unavailable-offerings'
import type { MachineDeps } from './machine-deps'

/** The memory of `machineClass` (as this reconcile read it). */
export function classOfferingMemory(
  deps: Pick<MachineDeps, 'kube' | 'clock' | 'log'>,
  machineClass: MachineClass,
): OfferingMemory {
  return {
    unavailable: machineClass.status?.unavailableOfferings ?? [],
    async record(outcome) {
      try {
        await updateUnavailableOfferings(deps, machineClass as ClassObject, (current, now, ttl) =>
          rememberOutcome(current, outcome, now, ttl),
        )
      } catch (error) {
        // A memory that could not be written costs siblings a miss each, never the launch.
        deps.log.warn({ err: error }, 'recording unavailable offerings failed')
      }
    },
  }
}
