/**
 * @module Source MachineHealthChecks that watch the Machines being adopted. adopt does not
 * translate them (their remediation would need the source controller), so each is a problem:
 * `--force <object>:spec` accepts adopting without it, and docs/migration.md says how to create
 * the machine-api MachineHealthCheck afterwards.
 */
import type { ResourceType } from '../../kube/resource'
import { type AdoptionProblem, untranslatable } from '../problems'
import { describeRef, type SourceObject } from '../source-types'

/** One problem per health check whose selector matches `labels`. */
export function healthCheckProblems(
  healthChecks: readonly SourceObject[],
  labels: Record<string, string>,
  type: ResourceType,
): AdoptionProblem[] {
  return healthChecks.flatMap((hc) => {
    const selector = (
      hc.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined
    )?.selector
    const wanted = Object.entries(selector?.matchLabels ?? {})
    if (wanted.length === 0 || !wanted.every(([k, v]) => labels[k] === v)) return []
    const object = describeRef({
      type,
      namespace: hc.metadata.namespace ?? '',
      name: hc.metadata.name,
    })
    return [
      untranslatable(
        object,
        'spec',
        'watches these Machines; adopt does not translate health checks: create a machine-api MachineHealthCheck for the adopted set',
      ),
    ]
  })
}
