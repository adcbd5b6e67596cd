/** @module The controllers and providers a reconcile command runs, from its settings. */

import type { RuntimeSettings } from '../deps'
import { errorMessage } from '../errors'
import { createDefaultProviders, type ProviderOwner } from '../providers/default-registry'
import type { ProviderRegistry } from '../providers/registry'
import { createClaimHolder, processSelf } from '../reconcile/machine/claim-holder'
import type { Controller, ReconcileDeps } from '../reconcile/runtime/controller'
import { selectControllers } from '../reconcile/runtime/selection'
import { UsageError } from './command'
import { controllerCatalog } from './controller-catalog'

/** The providers ($MACHINE_API_PROVIDERS...) and the selected controllers (`--controllers`). */
export function runtimeControllers(
  settings: RuntimeSettings,
  env: NodeJS.ProcessEnv,
  owner?: ProviderOwner,
): { providers: ProviderRegistry; controllers: Controller<ReconcileDeps>[] } {
  const providers = asUsage('$MACHINE_API_PROVIDERS', () => createDefaultProviders(env, owner))
  const claimHolder = createClaimHolder(processSelf(env))
  const controllers = asUsage('--controllers', () =>
    selectControllers(controllerCatalog({ providers, claimHolder }), settings.controllers),
  )
  return { providers, controllers }
}

// Both throw on a name they do not know: that is a configuration error, exit code 2.
function asUsage<T>(source: string, build: () => T): T {
  try {
    return build()
  } catch (error) {
    throw new UsageError(`invalid configuration:\n  ${source}: ${errorMessage(error)}`)
  }
}
