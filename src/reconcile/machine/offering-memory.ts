/**
 * @module The memory of unavailable offerings a Machine's provider calls get (ActuatorContext
 * `offerings`): the list its MachineClass's status holds, as read by this reconcile, and a write
 * of what a launch found back to that status, conditional on the class's resourceVersion and
 * re-read on Conflict, so concurrent launches of sibling Machines (on any worker) merge their
 * findings instead of overwriting each other's.
 */
import { isDeepStrictEqual } from 'node:util'
import { machineApiTypes } from '../../api/resource-types'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import { hasKubeReason } from '../../kube/errors'
import { type KubeObject, refOf } from '../../kube/resource'
import type { OfferingMemory } from '../../providers/actuator'
import { writeStatus } from '../runtime/status-write'
import { rememberOutcome, unavailableOfferingTTLMs } from '../shared/unavailable-offerings'
import type { MachineDeps } from './machine-deps'

/** Writes a memory update at most this many times (each Conflict re-reads the class). */
const maxWriteAttempts = 4

type ClassObject = MachineClass & KubeObject

/** The memory of `machineClass` (as this reconcile read it). */
export function classOfferingMemory(
  deps: Pick<MachineDeps, 'kube' | 'clock' | 'log'>,
  machineClass: MachineClass,
): OfferingMemory {
  const type = machineApiTypes.machineClass
  async function write(outcome: Parameters<OfferingMemory['record']>[0]) {
    // A write that fails on its precondition makes the reconcile's client read the class again.
    let observed: ClassObject | undefined = machineClass as ClassObject
    for (let attempt = 1; observed && attempt <= maxWriteAttempts; attempt++) {
      const current = observed.status?.unavailableOfferings ?? []
      const now = deps.clock.now()
      const next = rememberOutcome(current, outcome, now, unavailableOfferingTTLMs(observed))
      if (isDeepStrictEqual(next, current)) return
      try {
        await writeStatus(deps.kube, type, { observed, status: { unavailableOfferings: next } })
        return
      } catch (error) {
        if (!hasKubeReason(error, 'Conflict') || attempt === maxWriteAttempts) throw error
        observed = await deps.kube.get<ClassObject>(type, refOf(observed))
      }
    }
  }
  return {
    unavailable: machineClass.status?.unavailableOfferings ?? [],
    async record(outcome) {
      try {
        await write(outcome)
      } catch (error) {
        // A memory that could not be written costs siblings a miss each, never the launch.
        deps.log.warn({ err: error }, 'recording unavailable offerings failed')
      }
    },
  }
}
