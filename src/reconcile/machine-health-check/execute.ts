/**
 * @module Carries out a health check's decisions: Machine conditions, deletions, hand-offs and
 * Events. Every action is attempted even when another fails; failures are collected for the
 * caller, which writes status regardless and then reports them.
 */

import { ANNOTATIONS } from '../../api/group'
import type { Condition } from '../../api/shared/conditions'
import { errorMessage, TransientError } from '../../errors'
import { hasKubeReason } from '../../kube/errors'
import type { KubeClient } from '../../kube/kube-client'
import type { KubeObject, ResourceType } from '../../kube/resource'
import type { Logger } from '../../observability/logger'
import { recordEvent } from '../shared/events'
import { actionEvent, type PlannedEvent } from './events'
import { remediationRequest, requestMarker, requestType, templateType } from './external'
import { conditionChanged, machineHealthCondition } from './machine-condition'
import type { RemediationAction } from './plan'
import type { ObservedCondition } from './target'
import type { TargetEvaluation } from './targets'

/** What the executor needs. */
export interface ExecuteDeps {
  kube: KubeClient
  log: Logger
  fieldManager: string
  machineType: ResourceType
  /** The health check object (Events are recorded on it). */
  healthCheck: KubeObject
  /** Raw Machine objects by name (Events and writes need their identity). */
  machines: ReadonlyMap<string, KubeObject>
}

/**
 * The field manager for HealthCheckSucceeded. Its own manager (not the process-wide one) so that
 * server-side apply of this one list entry never drops conditions other controllers own.
 */
export function conditionFieldManager(fieldManager: string): string {
  return `${fieldManager}-healthcheck`
}

/** Applies HealthCheckSucceeded on one Machine's status (conditions are a list-map keyed by type). */
export async function applyMachineCondition(
  deps: ExecuteDeps,
  machine: KubeObject,
  condition: Condition,
): Promise<void> {
  const { name, namespace } = machine.metadata ?? {}
  await deps.kube.apply(
    deps.machineType,
    { metadata: { name, namespace }, status: { conditions: [condition] } },
    { fieldManager: conditionFieldManager(deps.fieldManager), force: true, subresource: 'status' },
  )
}

/**
 * Writes HealthCheckSucceeded on every target whose condition changed (none for Machines being
 * deleted). Unchanged conditions are not written: each write would wake the check again.
 * Returns the failures.
 */
export async function writeMachineConditions(
  deps: ExecuteDeps,
  pass: {
    evaluations: TargetEvaluation[]
    previousMachine: ReadonlyMap<string, ObservedCondition | undefined>
    now: Date
  },
): Promise<unknown[]> {
  const failures: unknown[] = []
  for (const e of pass.evaluations) {
    const before = pass.previousMachine.get(e.target.machine.name)
    const next = machineHealthCondition(e, before, pass.now)
    const object = deps.machines.get(e.target.machine.name)
    if (!next || !object || !conditionChanged(before, next)) continue
    await applyMachineCondition(deps, object, next).catch((error: unknown) => failures.push(error))
  }
  return failures
}

async function annotate(deps: ExecuteDeps, machine: KubeObject, value: string | null) {
  const ref = { namespace: machine.metadata?.namespace, name: machine.metadata?.name ?? '' }
  const patch = { metadata: { annotations: { [ANNOTATIONS.externalRemediation]: value } } }
  await deps.kube.mergePatch(deps.machineType, ref, patch)
}

async function handOffByTemplate(
  deps: ExecuteDeps,
  machine: KubeObject,
  template: { apiVersion: string; kind: string; name: string },
): Promise<void> {
  const namespace = machine.metadata?.namespace ?? ''
  const found = await deps.kube.get(templateType(template), { namespace, name: template.name })
  if (!found) {
    throw new TransientError(`remediation template ${template.kind} ${template.name} not found`, {
      reason: 'RemediationTemplateNotFound',
    })
  }
  const name = machine.metadata?.name ?? ''
  const request = remediationRequest(template, found, {
    name,
    namespace,
    uid: machine.metadata?.uid,
    apiVersion: machine.apiVersion ?? `${deps.machineType.group}/${deps.machineType.version}`,
  })
  // The request is named after the Machine, so a second reconcile collides instead of doubling.
  await deps.kube.create(requestType(template), request).catch((error: unknown) => {
    if (!hasKubeReason(error, 'AlreadyExists')) throw error
  })
  await annotate(deps, machine, requestMarker(template, name))
}

async function run(deps: ExecuteDeps, action: RemediationAction, machine: KubeObject) {
  switch (action.type) {
    case 'delete':
      // The uid precondition keeps a stale decision from deleting a same-named replacement.
      await deps.kube.delete(
        deps.machineType,
        { namespace: machine.metadata?.namespace, name: machine.metadata?.name ?? '' },
        { uid: machine.metadata?.uid },
      )
      return
    case 'hand-off':
      if (action.mode.type === 'external-template') {
        await handOffByTemplate(deps, machine, action.mode.template)
      } else {
        await annotate(deps, machine, 'annotation')
      }
      return
    case 'clear-hand-off': {
      const marker = action.machine.annotations[ANNOTATIONS.externalRemediation] ?? ''
      if (action.mode.type === 'external-template' && marker.includes('/')) {
        const name = marker.slice(marker.indexOf('/') + 1)
        const namespace = machine.metadata?.namespace
        await deps.kube.delete(requestType(action.mode.template), { namespace, name })
      }
      await annotate(deps, machine, null)
      return
    }
  }
}

function machineNameOf(action: RemediationAction): string {
  return action.type === 'clear-hand-off'
    ? action.machine.name
    : action.evaluation.target.machine.name
}

/** Records `event` on its Machine and/or the health check. Failures are logged, never thrown. */
export async function recordPlannedEvent(deps: ExecuteDeps, event: PlannedEvent): Promise<void> {
  const machine = event.machine === undefined ? undefined : deps.machines.get(event.machine)
  const regarding = [
    ...(machine ? [machine] : []),
    ...(event.both || !machine ? [deps.healthCheck] : []),
  ]
  const { type, reason, message } = event
  for (const obj of regarding) await recordEvent(deps, obj, { type, reason, message })
}

/** Runs every action, recording an Event for each success; returns the failures. */
export async function executeActions(
  deps: ExecuteDeps,
  actions: RemediationAction[],
): Promise<unknown[]> {
  const failures: unknown[] = []
  for (const action of actions) {
    const machine = deps.machines.get(machineNameOf(action))
    if (!machine) continue
    try {
      await run(deps, action, machine)
      await recordPlannedEvent(deps, actionEvent(action))
    } catch (error) {
      deps.log.warn(
        { action: action.type, machine: machineNameOf(action), err: errorMessage(error) },
        'remediation action failed',
      )
      failures.push(error)
    }
  }
  return failures
}
