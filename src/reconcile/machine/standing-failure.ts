/**
 * @module Whether a Machine's recorded failure still stands. A failure stands for the generation
 * it was recorded at: a spec change tries again. A provider's permanent failure of a Machine of a
 * MachineClass also records the class's generation (status.failureClassGeneration), and for a
 * Machine that no MachineSet controls a class with another generation ends it too: fixing a bad
 * AMI in the class provisions the standalone Machines that failed on it (a MachineSet replaces
 * its own Failed Machines instead, at once when their class changes, so its Machines stay Failed
 * rather than race their replacements). Failures the class did not cause (InstanceGone,
 * ProvisioningTimeout) record no class generation and stand until the Machine changes. Pure.
 */
import type { Machine } from '../../api/v1beta1/machine'
import type { KubeObject } from '../../kube/resource'

/** True when a MachineSet controls the Machine (it replaces the Machine when it fails). */
export function controlledBySet(machine: Machine): boolean {
  const owners = (machine as KubeObject).metadata?.ownerReferences ?? []
  return owners.some((o) => o.controller === true && o.kind === 'MachineSet')
}

/**
 * True when `machine` is Failed for its current spec and, for a standalone Machine that failed on
 * its class, for the class's current generation `classGeneration` (undefined: not read).
 */
export function failureStands(machine: Machine, classGeneration: number | undefined): boolean {
  const status = machine.status
  if (!status?.failureReason || status.observedGeneration !== machine.metadata.generation) {
    return false
  }
  const failedOn = status.failureClassGeneration
  if (failedOn === undefined || classGeneration === undefined) return true
  return controlledBySet(machine) || failedOn === classGeneration
}
