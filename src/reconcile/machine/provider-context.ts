/**
 * @module How the Machine kind calls its provider: each call gets its own ActuatorContext (the
 * resolved spec, a Secret reader limited to the Machine's namespace, the Event recorder on the
 * Machine, the clock, the reconcile's own Kubernetes client, so one read of the kwok Node serves
 * provider and link, and for a Machine of a MachineClass the class's memory of unavailable
 * offerings) with an abort signal made at the call: the runner's signal for the reconcile
 * combined with a timeout for this one call. Whatever the call throws comes back classified
 * (classify.ts), the same way for exists, update, create and delete.
 */
import type { Machine } from '../../api/v1beta1/machine'
import type { MachineClass } from '../../api/v1beta1/machine-class'
import { type DeadlineSignal, deadlineSignal } from '../../deadline-signal'
import type { KubeObject } from '../../kube/resource'
import type { Actuator, ActuatorContext, JsonObject, SecretRef } from '../../providers/actuator'
import { namespacedSecretReader } from '../../providers/secret-reader'
import { classifyProviderError, type ProviderFailure } from '../runtime/classify'
import { recordEvent } from '../shared/events'
import { defaultProviderCallTimeoutMs, type MachineDeps } from './machine-deps'
import { classOfferingMemory } from './offering-memory'

/** A provider call's answer, or its failure as data. */
export type ProviderCallResult<T> = { ok: true; value: T } | { ok: false; failure: ProviderFailure }

/** The Machine's provider, ready to call. */
export interface MachineProvider {
  /** Runs one call of the actuator; never throws. */
  call<T>(
    use: (actuator: Actuator, ctx: ActuatorContext) => Promise<T>,
  ): Promise<ProviderCallResult<T>>
}

/**
 * The provider of `machine`, its calls made with the context of `resolved`: the resolved spec,
 * or the access recorded with the instance (recorded-access.ts).
 */
export function machineProvider(
  deps: MachineDeps,
  machine: Machine,
  actuator: Actuator,
  resolved:
    | { providerSpec: unknown; credentialsSecretRef?: SecretRef; userDataSecretRef?: SecretRef }
    | { access: JsonObject },
  machineClass?: MachineClass,
): MachineProvider {
  const namespace = machine.metadata.namespace ?? ''
  const context: Omit<ActuatorContext, 'signal'> = {
    ...('access' in resolved
      ? { providerSpec: undefined, access: resolved.access }
      : {
          providerSpec: resolved.providerSpec,
          credentialsSecretRef: resolved.credentialsSecretRef,
          userDataSecretRef: resolved.userDataSecretRef,
        }),
    secrets: namespacedSecretReader(deps.kube, namespace),
    logger: deps.log,
    events: {
      record: (type, reason, message) => {
        void recordEvent(deps, machine as KubeObject, { type, reason, message })
      },
    },
    clock: deps.clock,
    kube: deps.kube,
    ...(machineClass ? { offerings: classOfferingMemory(deps, machineClass) } : {}),
    ...(machineClass?.status?.image ? { image: machineClass.status.image.id } : {}),
  }
  return {
    async call(use) {
      const deadline = callSignal(deps)
      try {
        return { ok: true, value: await use(actuator, { ...context, signal: deadline.signal }) }
      } catch (error) {
        return { ok: false, failure: classifyProviderError(error) }
      } finally {
        deadline.clear()
      }
    },
  }
}

/**
 * Aborted when this call runs past the provider call timeout, counted from now, or when the
 * runner abandons the reconcile (its deadline), whichever comes first.
 */
export function callSignal(
  deps: Pick<MachineDeps, 'signal' | 'providerCallTimeoutMs'>,
): DeadlineSignal {
  return deadlineSignal(deps.providerCallTimeoutMs ?? defaultProviderCallTimeoutMs, deps.signal)
}
