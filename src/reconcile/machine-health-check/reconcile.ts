/**
 * @module The MachineHealthCheck controller: read fresh -> evaluate and plan (pure) -> act ->
 * write status last (resourceVersion precondition) -> requeue at the earliest timeout crossing.
 */

import { machineApiTypes } from '../../api/resource-types'
import { errorMessage, TransientError } from '../../errors'
import type { ObjectKey } from '../../kube/object-key'
import type { KubeObject } from '../../kube/resource'
import type { Controller, ReconcileDeps, ReconcileResult } from '../runtime/controller'
import { isStalled } from '../runtime/stalled'
import { statusUnchanged } from '../shared/status-unchanged'
import { transitionEvents } from './events'
import {
  type ExecuteDeps,
  executeActions,
  recordPlannedEvent,
  writeMachineConditions,
} from './execute'
import { observeTargets } from './observe'
import { planRemediation } from './plan'
import { healthCheckStatus, remediationAllowed, remediationAllowedCondition } from './status'
import { healthCheckSucceededCondition, type ObservedCondition } from './target'
import { evaluateTargets } from './targets'

function conditionsOf(obj: KubeObject): ObservedCondition[] {
  const list = (obj.status as { conditions?: unknown } | undefined)?.conditions
  return Array.isArray(list) ? (list as ObservedCondition[]) : []
}

/**
 * Reconciles one MachineHealthCheck. Returns `requeueAfterMs` = time until the earliest moment a
 * target can cross a timeout (none when no timer runs). Throws PermanentError for an empty or
 * invalid spec, and a TransientError after writing status when some action failed.
 */
export async function reconcileMachineHealthCheck(
  deps: ReconcileDeps,
  key: ObjectKey,
): Promise<ReconcileResult> {
  const { kube } = deps
  const types = machineApiTypes
  const ref = { namespace: key.namespace, name: key.name }
  const healthCheck = await kube.get(types.machineHealthCheck, ref)
  if (!healthCheck || healthCheck.metadata?.deletionTimestamp || isStalled(healthCheck)) return {}
  // Imported here, not at the top: it loads zod and the API's schemas (see spec.ts).
  const { parseHealthCheckSpec } = await import('./spec')
  const spec = parseHealthCheckSpec(healthCheck)
  const namespace = key.namespace ?? ''
  const targets = await observeTargets(kube, types.machine, { namespace, selector: spec.selector })
  const now = deps.clock.now()

  const { evaluations, nextCheckAtMs } = evaluateTargets(targets, spec.rules, now)
  const plan = planRemediation(evaluations, spec.policy)
  const previous = conditionsOf(healthCheck)
  const status = healthCheckStatus({
    plan,
    evaluations,
    maxUnhealthy: spec.policy.maxUnhealthy,
    previous,
    generation: healthCheck.metadata?.generation,
    now,
  })
  const previousMachine = new Map(
    targets.map((t) => [
      t.machine.name,
      t.machine.conditions.find((c) => c.type === healthCheckSucceededCondition),
    ]),
  )
  const events = transitionEvents({
    evaluations,
    plan,
    previousMachine,
    previousAllowed: previous.find((c) => c.type === remediationAllowedCondition),
    nextAllowed: remediationAllowed(plan, spec.policy.maxUnhealthy),
  })

  const exec: ExecuteDeps = {
    ...deps,
    machineType: types.machine,
    healthCheck,
    machines: new Map(targets.map((t) => [t.machine.name, t.object])),
  }
  // Conditions first: a Machine about to be deleted still says why, for `kubectl describe`.
  const failures = await writeMachineConditions(exec, { evaluations, previousMachine, now })
  for (const event of events) await recordPlannedEvent(exec, event)
  failures.push(...(await executeActions(exec, plan.actions)))

  if (!statusUnchanged(healthCheck.status as object | undefined, status)) {
    // The precondition turns a write based on a stale read into a Conflict (retried soon).
    const patch = { metadata: { resourceVersion: healthCheck.metadata?.resourceVersion }, status }
    await kube.mergePatch(types.machineHealthCheck, ref, patch, { subresource: 'status' })
  }
  if (failures.length > 0) {
    throw new TransientError(
      `${failures.length} remediation step(s) failed: ${errorMessage(failures[0])}`,
      {
        reason: 'RemediationFailed',
        cause: failures[0],
      },
    )
  }
  return nextCheckAtMs === undefined
    ? {}
    : { requeueAfterMs: Math.max(0, nextCheckAtMs - now.getTime()) }
}

/** The MachineHealthCheck controller, registered with the runtime as `machinehealthcheck`. */
export function machineHealthCheckController(): Controller {
  return {
    kind: machineApiTypes.machineHealthCheck.kind,
    resource: machineApiTypes.machineHealthCheck,
    reconcile: reconcileMachineHealthCheck,
  }
}
