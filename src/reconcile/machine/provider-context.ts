/**
 * @module Builds the ActuatorContext a provider call gets: the resolved spec, a Secret reader
 * limited to the Machine's namespace, the Event recorder on the Machine, an abort signal, the clock
 * and the reconcile's own Kubernetes client (one read of the kwok Node serves provider and link).
 */
import type { Machine } from '../../api/v1beta1/machine'
import type { KubeObject } from '../../kube/resource'
import type { ActuatorContext, SecretRef } from '../../providers/actuator'
import { namespacedSecretReader } from '../../providers/secret-reader'
import { recordEvent } from '../shared/events'
import { defaultProviderCallTimeoutMs, type MachineDeps } from './machine-deps'

/** The context of the Machine's provider calls; its Events are recorded on the Machine. */
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
      record: (type, reason, message) => {
        void recordEvent(deps, machine as KubeObject, { type, reason, message })
      },
    },
    signal: AbortSignal.timeout(deps.providerCallTimeoutMs ?? defaultProviderCallTimeoutMs),
    clock: deps.clock,
    kube: deps.kube,
  }
}
