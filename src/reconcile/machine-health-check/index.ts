/** @module The MachineHealthCheck controller and its pure parts (re-exports only). */

export { planRemediation, type RemediationPlan } from './plan'
export { machineHealthCheckController, reconcileMachineHealthCheck } from './reconcile'
export { healthCheckStatus } from './status'
export {
  externalRemediationAnnotation,
  healthCheckSucceededCondition,
  remediateMachineAnnotation,
  remediationStrategyAnnotation,
  skipRemediationAnnotation,
} from './target'
export { evaluateTargets } from './targets'
