/** @module Providers: the actuator port, typed errors, the registry and spec parsing. */
export type {
  Actuator,
  ActuatorContext,
  ActuatorMachine,
  DeleteResult,
  EventRecorder,
  JsonObject,
  JsonValue,
  NodeAddress,
  NodeAddressType,
  ProviderResult,
  SecretReader,
  SecretRef,
} from './actuator'
export {
  CapacityError,
  defaultRetryAfterMs,
  InvalidConfigurationError,
  isProviderError,
  NotFoundError,
  ProviderError,
  type ProviderErrorKind,
  ThrottledError,
  TransientError,
  toProviderError,
} from './errors'
export { type LooseMachine, toActuatorMachine } from './machine'
export { createProviderRegistry, type Provider, type ProviderRegistry } from './registry'
export { formatPath, parseProviderSpec, providerSpecIssues, type SpecIssue } from './spec'
