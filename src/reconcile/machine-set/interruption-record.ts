/**
 * @module A MachineSet's record of the offerings its interrupted Machines run in, written to its
 * template class's status.unavailableOfferings before the pass plans their replacements, so the
 * replacements (placed with the class as written) and every later launch of the class try other
 * offerings first while the entries last (shared/unavailable-offerings.ts rememberInterruptions).
 *
 * Each entry's expiry follows the notice (the instance's deadline plus the class's
 * unavailableOfferingTTL), not the pass, so reruns, concurrent passes and a pass killed at any line
 * write the same entry or nothing, merged into what other writers listed meanwhile. A record that
 * cannot be written is logged and the pass goes on: the replacement matters more than the memory.
 */
import { machineApiTypes } from '../../api/resource-types'
import type { KubeClient } from '../../kube/kube-client'
import type { KubeObject } from '../../kube/resource'
import { type ClassObject, updateUnavailableOfferings } from '../machine-class/offerings-write'
import type { ReconcileDeps } from '../runtime/controller'
import { recordEvent } from '../shared/events'
import { hostableZones, zonesFrom } from '../shared/hostable-zones'
import { templateClassName } from '../shared/node-group-class'
import { rememberInterruptions } from '../shared/unavailable-offerings'
import { interruptedOfferings, interruptionRecordNote } from './interrupted-offerings'
import type { MachineObject, MachineSetObject } from './types'

/**
 * Records the interrupted offerings of `run.owned` in the set's template class. Returns the class
 * the rest of the pass should use: as written (or as read, when it held them already), else the
 * class the run was handed. Reads the class (through `run.classes`) only while some owned Machine
 * is interrupted in an offering whose entry has not expired.
 */
export async function recordInterruptedOfferings(
  deps: ReconcileDeps,
  set: MachineSetObject,
  run: { owned: readonly MachineObject[]; now: Date; classes: KubeClient; handed?: ClassObject },
): Promise<ClassObject | undefined> {
  const { handed, now } = run
  const name = templateClassName(set as KubeObject)
  const rebalance = set.spec.interruption?.rebalanceRecommendation ?? 'Record'
  const found = name ? interruptedOfferings(run.owned, rebalance, now) : []
  if (!name || found.length === 0) return handed
  try {
    const ref = { namespace: set.metadata.namespace ?? '', name }
    const machineClass =
      handed ?? (await run.classes.get<ClassObject>(machineApiTypes.machineClass, ref))
    if (!machineClass) return handed
    const before = machineClass.status?.unavailableOfferings ?? []
    const result = await updateUnavailableOfferings(deps, machineClass, (current, at, ttl) =>
      rememberInterruptions(current, found, at, ttl),
    )
    const after = result.machineClass
    if (result.wrote && after) {
      const note = interruptionRecordNote(before, after.status?.unavailableOfferings ?? [], [
        ...closedZones(machineClass, after, now),
      ])
      if (note) await recordEvent(deps, after, note)
    }
    return after ?? handed
  } catch (error) {
    deps.log.warn({ err: error }, 'recording interrupted offerings failed')
    return handed
  }
}

/** The zones `before` could host in and `after` cannot. */
function closedZones(before: ClassObject, after: ClassObject, now: Date): string[] {
  const listed = zonesFrom(after, undefined) ?? []
  const open = new Set(hostableZones(listed, after, now))
  return hostableZones(listed, before, now).filter((z) => !open.has(z))
}
