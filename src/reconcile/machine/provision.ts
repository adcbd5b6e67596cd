/**
 * @module The provisioning phase: find or create the Machine's infrastructure through its
 * provider, and record the providerID on the Machine the first time it is known.
 */

import { ANNOTATIONS, LABELS } from '../../api/group'
import { providerIdHash } from '../../api/node-link'
import { machineApiTypes } from '../../api/resource-types'
import type { Machine } from '../../api/v1beta1/machine'
import { PermanentError } from '../../errors'
import type { Actuator, ActuatorContext, ProviderResult } from '../../providers/actuator'
import { toActuatorMachine } from '../../providers/machine'
import { hasOwnOutcome } from '../../providers/typed-actuator'
import { formatClaim, parseClaim, processClaimHolder } from './claim-holder'
import { defaultProviderCallTimeoutMs, type MachineDeps } from './machine-deps'
import { type MachineScope, meta } from './machine-scope'
import { recordEvent } from './provider-context'

/**
 * Set while one reconcile is creating the Machine's instance (value: when it started and which
 * process holds it, see claim-holder.ts).
 */
export const createClaimAnnotation = ANNOTATIONS.createClaim

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
      if ((await claimCreate(deps, scope)) === 'held-by-another') return
      result = await actuator.create(ctx, toActuatorMachine(scope.machine))
      recordEvent(
        deps,
        machine,
        'Normal',
        'InstanceCreated',
        `Created instance ${result.providerID}`,
      )
    }
  } catch (error) {
    await releaseCreateClaim(deps, scope)
    if (!hasOwnOutcome(error)) throw error
    const problem = { reason: error.reason, message: error.message }
    if (error instanceof PermanentError) {
      scope.failure = problem
      recordEvent(deps, machine, 'Warning', error.reason, error.message)
      return
    }
    scope.infrastructureProblem = problem
    scope.requeueAfterMs.push(error.retryAfterMs ?? 0)
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
  const claimed = createClaimAnnotation in (machine.metadata.annotations ?? {})
  if (current && machine.metadata.labels?.[LABELS.providerIdHash] === hash && !claimed) return
  if (!providerID && !current) return
  scope.machine = await deps.kube.mergePatch<Machine>(
    machineApiTypes.machine,
    { namespace: machine.metadata.namespace, name: machine.metadata.name ?? '' },
    {
      metadata: {
        labels: { [LABELS.providerIdHash]: hash },
        annotations: { [createClaimAnnotation]: null },
        resourceVersion: meta(machine).resourceVersion,
      },
      ...(current ? {} : { spec: { providerID } }),
    },
  )
}

/**
 * Marks the Machine while one reconcile creates its instance, so concurrent reconciles (sweep
 * overlap, several workers) wait instead of launching twice. The write carries the
 * resourceVersion just read: of two racing reconciles only one claims, the other gets a Conflict
 * and retries. A claim older than the provider call timeout, or held by a process known to be
 * dead (the worker this one replaced after a crash), belongs to a reconcile that died; providers
 * still adopt what it launched (idempotency token, UID tag), so taking it over is safe.
 */
async function claimCreate(
  deps: MachineDeps,
  scope: MachineScope,
): Promise<'claimed' | 'held-by-another'> {
  const machine = scope.machine
  const holder = deps.claimHolder ?? processClaimHolder()
  const existing = machine.metadata.annotations?.[createClaimAnnotation]
  const ttlMs = Math.ceil((deps.providerCallTimeoutMs ?? defaultProviderCallTimeoutMs) * 1.25)
  if (existing) {
    const claim = parseClaim(existing)
    const ageMs = scope.now.getTime() - claim.at.getTime()
    const dead = claim.holder !== undefined && holder.isDead(claim.holder)
    if (!dead && Number.isFinite(ageMs) && ageMs >= 0 && ageMs < ttlMs) {
      scope.infrastructureProblem = {
        reason: 'CreateInProgress',
        message: 'Another reconcile is creating the instance',
      }
      scope.requeueAfterMs.push(Math.min(5_000, ttlMs - ageMs))
      return 'held-by-another'
    }
    if (dead)
      deps.log.info({ holder: claim.holder }, 'taking over the create claim of a dead worker')
  }
  scope.machine = await deps.kube.mergePatch<Machine>(
    machineApiTypes.machine,
    { namespace: machine.metadata.namespace, name: machine.metadata.name ?? '' },
    {
      metadata: {
        annotations: { [createClaimAnnotation]: formatClaim(scope.now, holder.id) },
        resourceVersion: meta(machine).resourceVersion,
      },
    },
  )
  return 'claimed'
}

/** Drops this reconcile's claim after a failed create, so the retry need not wait for it to expire. */
async function releaseCreateClaim(deps: MachineDeps, scope: MachineScope): Promise<void> {
  const machine = scope.machine
  if (!machine.metadata.annotations?.[createClaimAnnotation]) return
  await deps.kube
    .mergePatch<Machine>(
      machineApiTypes.machine,
      { namespace: machine.metadata.namespace, name: machine.metadata.name ?? '' },
      { metadata: { annotations: { [createClaimAnnotation]: null } } },
    )
    .then((updated) => {
      scope.machine = updated
    })
    .catch((error: unknown) =>
      deps.log.warn({ err: String(error) }, 'could not release create claim'),
    )
}
