/** @module Narrowing a full Machine object to what providers need, with a clear error when it can't be. */
import type { ActuatorMachine } from './actuator'

/** The loosest shape of a Machine object read from the apiserver (all fields optional). */
export interface LooseMachine {
  metadata?: {
    name?: string | undefined
    namespace?: string | undefined
    uid?: string | undefined
    labels?: Record<string, string> | undefined
    annotations?: Record<string, string> | undefined
    /** A string as the apiserver sends it (client-node's typed objects make it a Date). */
    deletionTimestamp?: string | Date | undefined
  }
  spec?: { providerID?: string | undefined; failureDomain?: string | undefined } | undefined
  status?: { providerStatus?: unknown } | undefined
}

/**
 * Returns the ActuatorMachine view of `machine`; throws when name, namespace or uid is missing
 * (only objects read back from the apiserver may reach a provider).
 */
export function toActuatorMachine(machine: LooseMachine): ActuatorMachine {
  const { name, namespace, uid, labels, annotations, deletionTimestamp } = machine.metadata ?? {}
  if (!name || !namespace || !uid) {
    throw new Error('a Machine needs metadata.name, namespace and uid before a provider sees it')
  }
  return {
    metadata: {
      name,
      namespace,
      uid,
      labels,
      annotations,
      ...(deletionTimestamp
        ? {
            deletionTimestamp:
              deletionTimestamp instanceof Date
                ? deletionTimestamp.toISOString()
                : deletionTimestamp,
          }
        : {}),
    },
    spec: {
      providerID: machine.spec?.providerID,
      ...(machine.spec?.failureDomain ? { failureDomain: machine.spec.failureDomain } : {}),
    },
    status: { providerStatus: machine.status?.providerStatus },
  }
}
