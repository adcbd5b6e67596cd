/** @module What the Machine reconcile needs besides the common runtime dependencies. */

import { FINALIZERS } from '../../api/group'
import type { ProviderRegistry } from '../../providers/registry'
import type { ReconcileDeps } from '../runtime/controller'
import type { ClaimHolder } from './claim-holder'

export interface MachineDeps extends ReconcileDeps {
  providers: ProviderRegistry
  /** How often a waiting deletion stage (drain, volumes, instance termination) is looked at again. */
  deletionRetryMs?: number
  /** How often an unlinked Machine looks for its Node (Node events usually arrive first). */
  nodeLookupRetryMs?: number
  /** How long one provider call may take before it is aborted. */
  providerCallTimeoutMs?: number
  /** Who this process is in create claims: made once per process (see claim-holder.ts). */
  claimHolder: ClaimHolder
}

/** The finalizer that holds a Machine until its instance and Node are gone. */
export const machineFinalizer = FINALIZERS.machineCleanup
/** The same finalizer as written by earlier versions (see FINALIZERS.legacyMachine). */
export const legacyMachineFinalizer = FINALIZERS.legacyMachine

export const defaultDeletionRetryMs = 10_000
export const defaultProviderCallTimeoutMs = 120_000
export const defaultNodeLookupRetryMs = 15_000
/** A missing MachineClass or unknown provider is re-checked at this pace (no watch on classes). */
export const configurationRetryMs = 60_000
