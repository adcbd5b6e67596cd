/**
 * @module The optional status-check capability of a provider: the health checks the cloud runs on
 * running instances (EC2's system and instance status checks). The sweep asks it for many Machines
 * at once, so a provider answers in batches per account and region, never one call per Machine.
 */
import type { StatusCheckName } from '../api/instance-status-checks'
import type { ActuatorContext } from './actuator'

/** One Machine to check: its instance and how to reach its account and region. */
export interface InstanceStatusTarget
  extends Pick<ActuatorContext, 'providerSpec' | 'secrets' | 'credentialsSecretRef'> {
  providerID: string
}

/** One sweep's question. Give targets of one namespace the same `secrets` reader: it is read once. */
export interface InstanceStatusRequest {
  targets: readonly InstanceStatusTarget[]
  signal: AbortSignal
}

/** What the cloud says about one instance. */
export type InstanceStatus =
  | { providerID: string; verdict: 'passed' }
  | {
      providerID: string
      verdict: 'failed'
      /** The failing checks, in `statusCheckNames` order. */
      failed: StatusCheckName[]
      /** When the earliest of them began failing, when the cloud says (ISO 8601). */
      since?: string | undefined
    }

/**
 * The statuses the provider could read. A target it has no verdict on (not running, checks still
 * initializing, insufficient data) is left out; a group it could not ask (bad credentials, a
 * throttled call) is in `errors`, and its targets are left out too.
 */
export interface InstanceStatusReport {
  statuses: InstanceStatus[]
  errors: Array<{ targets: number; error: unknown }>
}
