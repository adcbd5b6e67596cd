export type { MachineDeps } from './machine-deps'
export { machineFinalizer } from './machine-deps'
export { machineController, machineControllerWith, reconcileMachine } from './reconcile'
