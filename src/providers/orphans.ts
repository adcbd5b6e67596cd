/**
 * @module The optional orphan-listing capability of a provider: infrastructure it launched for a
 * Machine that no longer exists. The MachineClass orphan sweep reaches providers only through it.
 */
import type { ActuatorContext } from './actuator'

/** One instance without a Machine. */
export interface Orphan {
  instanceId: string
  machineUid: string | undefined
  machineName: string | undefined
  machineNamespace: string | undefined
  launchTime: string | undefined
  /** Whether this sweep terminates it (enabled and older than the grace period). */
  terminate: boolean
  /** Why it is never terminated although it is an orphan (e.g. another installation's owner). */
  keptBecause?: string
}

/** One orphan sweep over the account and region a MachineClass points at. */
export interface OrphanSweepRequest
  extends Pick<ActuatorContext, 'providerSpec' | 'secrets' | 'credentialsSecretRef' | 'signal'> {
  /** Every Machine UID in the cluster (all namespaces); must throw rather than return a partial set. */
  machineUids: () => Promise<ReadonlySet<string>>
  now: () => Date
  /** Terminate orphans older than `graceMs`; default false (report only). */
  terminate?: boolean
  /** Default 15 minutes. */
  graceMs?: number
}
