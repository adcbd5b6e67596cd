/**
 * @module The MachineSet's ReplicaFailure condition (the name a ReplicaSet uses for the same
 * thing): which failure its Failed Machines report, how many, what to fix, and when they are
 * replaced. Pure. The MachineDeployment rolls it up from its sets.
 */
import type { ConditionInput } from '../shared/conditions'
import type { ReplacementBackoff } from './replacement'
import type { MachineObject } from './types'

/**
 * Failures that are not the template's fault: the instance went away, or never became a Node in
 * time. Every other failure reason a Machine reports is a configuration the user must fix.
 */
const notConfiguration = new Set(['InstanceGone', 'ProvisioningTimeout'])

const plural = (n: number) => (n === 1 ? '1 Machine' : `${n} Machines`)

/** Where the spec that failed comes from, for the "fix ..." hint. */
function fixHint(m: MachineObject, reason: string): string {
  if (notConfiguration.has(reason)) return ''
  const className = m.spec?.classRef?.name
  return className ? `; fix MachineClass ${className}` : "; fix the template's providerSpec"
}

/** The most common failure among `failed` (ties: the first by name), and how many share it. */
function commonFailure(failed: MachineObject[]): { example: MachineObject; count: number } {
  const groups = new Map<string, MachineObject[]>()
  for (const m of failed) {
    const key = m.status?.failureReason ?? 'Failed'
    groups.set(key, [...(groups.get(key) ?? []), m])
  }
  let best: MachineObject[] = []
  for (const group of groups.values()) if (group.length > best.length) best = group
  return { example: best[0] as MachineObject, count: best.length }
}

function pace(backoff: ReplacementBackoff | undefined, now: Date): string {
  if (!backoff || backoff.consecutiveFailures === 0) return ''
  const next = Date.parse(backoff.nextReplacementTime ?? '')
  const rounds = `${backoff.consecutiveFailures} replacement round${backoff.consecutiveFailures === 1 ? '' : 's'} without a Ready Machine`
  if (Number.isNaN(next) || next <= now.getTime()) return `; ${rounds}`
  return `; ${rounds}, next replacement not before ${backoff.nextReplacementTime}`
}

/** The ReplicaFailure condition for the set's Failed Machines `failed` and its backoff. */
export function replicaFailureCondition(
  failed: MachineObject[],
  backoff: ReplacementBackoff | undefined,
  now: Date,
): ConditionInput {
  if (failed.length === 0) {
    return {
      type: 'ReplicaFailure',
      status: 'False',
      reason: 'NoFailedMachines',
      message: `No Machine has failed${pace(backoff, now)}`,
    }
  }
  const { example, count } = commonFailure(failed)
  const reason = example.status?.failureReason ?? 'Failed'
  const detail = example.status?.failureMessage ? `: ${example.status.failureMessage}` : ''
  const others = failed.length - count
  const rest = others > 0 ? ` (and ${plural(others)} for other reasons)` : ''
  return {
    type: 'ReplicaFailure',
    status: 'True',
    reason: 'MachinesFailed',
    message: `${plural(count)} failed: ${reason}${detail}${fixHint(example, reason)}${rest}${pace(backoff, now)}`,
  }
}
