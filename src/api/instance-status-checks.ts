/**
 * @module The failing status checks of a Machine's instance, as the sweep's status-check pass
 * records them on the Machine: one annotation, written when the set of failing checks changes and
 * removed once every check passes. The Machine reconcile reads it back into the
 * `StatusChecksPassed` condition. An annotation for the same reasons as the instance notice: the
 * record is not the reconcile's to overwrite, and it reaches the reconcile through the Machine's
 * watch on every bus. Pure; checked by hand, not with zod (the worker starts without zod).
 */
import { ANNOTATIONS } from './group'
import { parseJsonAnnotation } from './json-annotation'

/** The checks EC2 runs on a running instance: AWS's side (host, network) and the instance's own. */
export const statusCheckNames = ['system', 'instance'] as const

/** One status check. */
export type StatusCheckName = (typeof statusCheckNames)[number]

/** The recorded failure. */
export interface StatusCheckFailure {
  instanceId: string
  /** The failing checks, in `statusCheckNames` order; never empty. */
  failed: StatusCheckName[]
  /** When the failure began (EC2's ImpairedSince, else when the sweep first saw it; ISO 8601). */
  since: string
}

/** The annotation the failure is kept in. */
export const instanceStatusChecksAnnotation = ANNOTATIONS.instanceStatusChecks

/** The recorded failure on `annotations`, or undefined when none (or not readable). */
export function readStatusCheckFailure(
  annotations: Record<string, string> | undefined,
): StatusCheckFailure | undefined {
  const value = parseJsonAnnotation(annotations, instanceStatusChecksAnnotation)
  if (typeof value !== 'object' || value === null) return undefined
  const v = value as Record<string, unknown>
  const failed = Array.isArray(v.failed) ? v.failed : []
  const known = failed.every((name) => statusCheckNames.includes(name as StatusCheckName))
  if (
    typeof v.instanceId !== 'string' ||
    failed.length === 0 ||
    !known ||
    typeof v.since !== 'string' ||
    Number.isNaN(Date.parse(v.since))
  )
    return undefined
  return { instanceId: v.instanceId, failed: failed as StatusCheckName[], since: v.since }
}

/** The annotation value for `failure`. */
export function formatStatusCheckFailure(failure: StatusCheckFailure): string {
  return JSON.stringify(failure)
}

const meaning: Record<StatusCheckName, string> = {
  system:
    'the system status check fails (AWS-side: the host, its power or network; stop and start the instance, or replace the Machine)',
  instance:
    'the instance status check fails (the instance itself: its kernel, network configuration, memory or file system; reboot it, or replace the Machine)',
}

/** What a failure says, for the condition message and the Event. */
export function describeStatusCheckFailure(failure: StatusCheckFailure): string {
  const checks = failure.failed.map((name) => meaning[name]).join('; ')
  return `EC2 reports for ${failure.instanceId} since ${failure.since}: ${checks}`
}
