/** @module The MachineSet reconciler's public surface (re-exports only). */
export { type DeletePolicy, deleteMachineAnnotation, pickVictims } from './delete-order'
export { type MachineSetPlan, planMachineSet } from './plan'
export { machineSetController, reconcileMachineSet } from './reconcile'
export { computeMachineSetStatus } from './status'
