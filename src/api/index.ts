/** @module The machine-api API: kinds, types, schemas, defaulting, validation and conversion. */
export { ConversionError, convertObject } from './conversion/convert'
export { defaultObject } from './defaults/default-object'
export { defaultReplicas } from './defaults/replicas'
export {
  ANNOTATIONS,
  API_GROUP,
  API_VERSIONS,
  HUB_API_VERSION,
  HUB_VERSION,
  LABELS,
  SPOKE_API_VERSION,
  SPOKE_VERSION,
} from './group'
export {
  isKind,
  KIND_DEFINITIONS,
  KINDS,
  type Kind,
  type KindDefinition,
  kindDefinition,
} from './kinds'
export { type Condition, conditionSchema } from './shared/conditions'
export { parseDurationMs } from './shared/duration'
export { type IntOrPercent, resolveIntOrPercent } from './shared/int-or-string'
export {
  isEmptySelector,
  type LabelSelector,
  selectorMatches,
  selectorToString,
} from './shared/label-selector'
export type { ObjectMeta, TemplateMeta } from './shared/meta'
export type { Taint } from './shared/node-fields'
export type { ProviderData, ProviderSpecSchemas } from './shared/provider-spec'
export type { MachineV1alpha1 } from './v1alpha1/machine'
export type { MachineClassV1alpha1 } from './v1alpha1/machine-class'
export type { MachineDeploymentV1alpha1 } from './v1alpha1/machine-deployment'
export type { MachineHealthCheckV1alpha1 } from './v1alpha1/machine-health-check'
export type { MachineSetV1alpha1 } from './v1alpha1/machine-set'
export {
  MACHINE_PHASES,
  type Machine,
  type MachineSpec,
  type MachineStatus,
  machineSchema,
} from './v1beta1/machine'
export { type MachineClass, machineClassSchema } from './v1beta1/machine-class'
export { type MachineDeployment, machineDeploymentSchema } from './v1beta1/machine-deployment'
export { type MachineHealthCheck, machineHealthCheckSchema } from './v1beta1/machine-health-check'
export { DELETE_POLICIES, type MachineSet, machineSetSchema } from './v1beta1/machine-set'
export { type FieldError, formatFieldErrors } from './validation/field-errors'
export { type ValidationDeps, validateObject } from './validation/validate'
