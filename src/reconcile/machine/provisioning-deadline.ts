/**
 * @module The provisioning deadline: a Machine not linked to a Node within `provisioningTimeout`
 * of its creation (default 15 minutes, Karpenter's registration TTL: long enough for a cold AMI,
 * user data and a kubelet to join; an instance that has not joined by then is stuck in practice)
 * is Failed with reason ProvisioningTimeout after its instance is terminated, so a MachineSet
 * replaces it. Pure. A linked Node that never turns Ready is a health check's to judge (its
 * unhealthy conditions on Ready), as is anything that happens after linking.
 */
import { parseDurationMs } from '../../api/shared/duration'
import type { MachineObservation, Problem } from './observation'

/** The default provisioningTimeout. */
export const defaultProvisioningTimeoutMs = 15 * 60_000

/** The timeout of `spec.provisioningTimeout` in ms; 0 disables it, unset means the default. */
export function provisioningTimeoutMs(value: string | undefined): number {
  if (value === undefined) return defaultProvisioningTimeoutMs
  return parseDurationMs(value) ?? defaultProvisioningTimeoutMs
}

/** The ProvisioningTimeout failure of `obs` at `now`, or undefined while within the deadline. */
export function provisioningTimedOut(obs: MachineObservation, now: Date): Problem | undefined {
  const { machine } = obs
  if (machine.status?.nodeRef) return undefined
  if (obs.node.state === 'found' && obs.node.linked) return undefined
  const timeout = provisioningTimeoutMs(machine.spec.provisioningTimeout)
  if (timeout === 0) return undefined
  const created = Date.parse(String(machine.metadata.creationTimestamp ?? ''))
  if (Number.isNaN(created) || now.getTime() < created + timeout) return undefined
  const limit = machine.spec.provisioningTimeout ?? '15m'
  return {
    reason: 'ProvisioningTimeout',
    message: `no Node joined within provisioningTimeout ${limit} of the Machine's creation; the instance is terminated and the Machine's MachineSet replaces it`,
  }
}
