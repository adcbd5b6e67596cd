/** @module The MachineDeployment reconciler's public surface (re-exports only). */
export { type DeploymentPlan, planMachineDeployment } from './plan'
export { machineDeploymentController, reconcileMachineDeployment } from './reconcile'
export { planRollingUpdate } from './rolling-update'
export { computeDeploymentStatus } from './status'
export { TEMPLATE_HASH_LABEL, templateHash } from './template-hash'
