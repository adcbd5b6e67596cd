/**
 * @module Builds the ActuatorContext a provider call gets: the resolved spec, a Secret reader
 * limited to the Machine's namespace, an Event recorder on the Machine, an abort signal, the clock.
 */
import type { Machine } from '../../api/v1beta1/machine'
import type { KubeObject } from '../../kube/resource'
import type { ActuatorContext, SecretRef } from '../../providers/actuator'
import { namespacedSecretReader } from '../../providers/secret-reader'
import { defaultProviderCallTimeoutMs, type MachineDeps } from './machine-deps'

/** Records an Event on `regarding`; a failed Event write never fails the reconcile. */
export function recordEvent(
  deps: MachineDeps,
  regarding: KubeObject,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
): void {
  deps.kube
    .recordEvent({ regarding, type, reason, message, reportingController: deps.fieldManager })
    .catch((error: unknown) =>
      deps.log.warn({ err: String(error), reason }, 'could not record event'),
    )
}

export function providerContext(
  deps: MachineDeps,
  machine: Machine,
  resolved: {
    providerSpec: unknown
    credentialsSecretRef?: SecretRef
    userDataSecretRef?: SecretRef
  },
): ActuatorContext {
  const namespace = machine.metadata.namespace ?? ''
  return {
    providerSpec: resolved.providerSpec,
    credentialsSecretRef: resolved.credentialsSecretRef,
    userDataSecretRef: resolved.userDataSecretRef,
    secrets: namespacedSecretReader(deps.kube, namespace),
    logger: deps.log,
    events: {
      record: (type, reason, message) =>
        recordEvent(deps, machine as KubeObject, type, reason, message),
    },
    signal: AbortSignal.timeout(deps.providerCallTimeoutMs ?? defaultProviderCallTimeoutMs),
    clock: deps.clock,
  }
}
