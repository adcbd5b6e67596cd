/**
 * @module The provisioning phase: find or create the Machine's infrastructure through its
 * provider, and record the providerID on the Machine the first time it is known.
 */

import type { Machine } from '../../api/v1beta1/machine'
import { machineApiTypes } from '../../bus/machine-api-mappers'
import { providerIdHash, providerIdHashLabel } from '../../bus/node-link'
import type { Actuator, ActuatorContext, ProviderResult } from '../../providers/actuator'
import { ProviderError } from '../../providers/errors'
import { toActuatorMachine } from '../../providers/machine'
import type { MachineDeps } from './machine-deps'
import { type MachineScope, meta } from './machine-scope'
import { recordEvent } from './provider-context'

/**
 * Ensures infrastructure exists for the Machine. A permanent provider error marks the Machine
 * Failed and is not retried until its spec (generation) changes; a transient one is recorded and
 * retried after the delay the provider suggests. A Machine whose instance vanished after it was
 * recorded is Failed, never silently re-created: a MachineSet or health check replaces it.
 */
export async function reconcileInfrastructure(
  deps: MachineDeps,
  scope: MachineScope,
  actuator: Actuator,
  ctx: ActuatorContext,
): Promise<void> {
  const { machine } = scope
  const status = machine.status
  if (status?.failureReason && status.observedGeneration === machine.metadata.generation) {
    scope.failure = { reason: status.failureReason, message: status.failureMessage ?? '' }
    return
  }
  const view = toActuatorMachine(machine)
  let result: ProviderResult
  try {
    if (await actuator.exists(ctx, view)) {
      result = await actuator.update(ctx, view)
    } else if (machine.spec.providerID) {
      scope.failure = {
        reason: 'InstanceGone',
        message: `the instance behind ${machine.spec.providerID} no longer exists; delete the Machine to replace it`,
      }
      recordEvent(deps, machine, 'Warning', 'InstanceGone', scope.failure.message)
      return
    } else {
      result = await actuator.create(ctx, view)
      recordEvent(
        deps,
        machine,
        'Normal',
        'InstanceCreated',
        `Created instance ${result.providerID}`,
      )
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error
    const problem = { reason: error.reason, message: error.message }
    if (error.permanent) {
      scope.failure = problem
      recordEvent(deps, machine, 'Warning', error.reason, error.message)
      return
    }
    scope.infrastructureProblem = problem
    scope.requeueAfterMs.push('retryAfterMs' in error ? Number(error.retryAfterMs) : 30_000)
    recordEvent(deps, machine, 'Warning', error.reason, error.message)
    return
  }
  scope.infrastructure = result
  if (result.requeueAfterMs !== undefined) scope.requeueAfterMs.push(result.requeueAfterMs)
  await recordProviderId(deps, scope, result.providerID)
}

/**
 * Writes spec.providerID (set once) and the providerID-hash label that lets a Node event find
 * this Machine without listing every Machine.
 */
async function recordProviderId(
  deps: MachineDeps,
  scope: MachineScope,
  providerID: string,
): Promise<void> {
  const machine = scope.machine
  const current = machine.spec.providerID
  const hash = providerIdHash(current ?? providerID)
  if (current && machine.metadata.labels?.[providerIdHashLabel] === hash) return
  if (!providerID && !current) return
  scope.machine = await deps.kube.mergePatch<Machine>(
    machineApiTypes.machine,
    { namespace: machine.metadata.namespace, name: machine.metadata.name ?? '' },
    {
      metadata: {
        labels: { [providerIdHashLabel]: hash },
        resourceVersion: meta(machine).resourceVersion,
      },
      ...(current ? {} : { spec: { providerID } }),
    },
  )
}
