/**
 * @module Where a failed provider call becomes a condition and an Event on the Machine. Every
 * provider call (exists, update, create, delete) returns its failure classified by
 * `classifyProviderError` (runtime/classify.ts); the planner hands it here, and status.ts writes
 * the plan's problem as the condition: InfrastructureReady (or the Failed phase) while the Machine
 * is provisioned, Deleting while it is deleted. Each failure is also a Warning Event, which the
 * Event recorder counts on the existing Event instead of adding another.
 *
 * When to try again: a permanent failure waits for the user (the Machine fails for its generation,
 * or a deletion is re-checked slowly, never hot); a transient one after the provider's own delay,
 * or, when it names none (a timed-out call, an unclassified error), after the runner's per-key
 * backoff: the reconcile writes status and then fails with it.
 */
import type { ProviderFailure } from '../runtime/classify'
import { type MachinePlan, warning } from './actions'
import { configurationRetryMs } from './machine-deps'
import type { Problem } from './observation'

/**
 * The plan after `failure`, for a Machine being provisioned, one whose instance is recorded
 * (`observing`: a transient failure only says the read failed, it changes nothing known of the
 * instance, so an EC2 brownout neither flips Ready nor lets a health check remediate), or one
 * being deleted.
 */
export function providerFailurePlan(
  failure: ProviderFailure,
  during: 'provisioning' | 'observing' | 'deletion',
): MachinePlan {
  const problem: Problem = { reason: failure.reason, message: failure.message }
  const events = [warning(problem)]
  const retry =
    failure.retryAfterMs === undefined
      ? { backoff: problem }
      : { requeueAfterMs: failure.retryAfterMs }
  if (during === 'deletion') {
    // An instance may still run: hold the deletion with the failure's reason rather than leak it.
    return failure.permanent
      ? { deleting: problem, events, requeueAfterMs: configurationRetryMs }
      : { deleting: problem, events, ...retry }
  }
  if (failure.permanent) return { failure: problem, events }
  if (during === 'observing') return { readProblem: problem, events, ...retry }
  return { infrastructureProblem: problem, events, ...retry }
}
