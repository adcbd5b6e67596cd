/**
 * @module The providers a deployed function runs: aws and kwok, configured from the environment.
 *
 * - `MACHINE_API_OWNER_ID`: the ownership tag value on EC2 resources; the orphan sweep terminates
 *   only instances with its own value. Without it, the caller's `owner` (derived per installation:
 *   src/cli/installation-owner.ts), else the old constant `machine-api`.
 * - `AWS_REGION`: the default region when a spec names none.
 * - `AWS_EC2_ENDPOINT`: an EC2 endpoint override (moto in the demo and tests).
 * - `MACHINE_API_PROVIDERS`: comma-separated subset to enable (default: all).
 */
import { lazyAwsProvider } from './aws/lazy-provider'
import { lazyProvider } from './lazy-provider'
import { createProviderRegistry, type Provider, type ProviderRegistry } from './registry'

/** What createKwokProvider() has besides its actuator (the unit test compares them). */
export const kwokCapabilities = ['capacity'] as const

/** The ownership of this installation's instances (installation-owner.ts). */
export interface ProviderOwner {
  ownerId: string
  legacyOwnerIds?: readonly string[]
}

/** The providers `MACHINE_API_PROVIDERS` selects, tagging their instances with `owner`. */
export function createDefaultProviders(
  env: NodeJS.ProcessEnv,
  owner?: ProviderOwner,
): ProviderRegistry {
  const all: Record<string, () => Provider> = {
    aws: () =>
      lazyAwsProvider({
        ownerId: env.MACHINE_API_OWNER_ID || owner?.ownerId || 'machine-api',
        ...(owner?.legacyOwnerIds && !env.MACHINE_API_OWNER_ID
          ? { legacyOwnerIds: owner.legacyOwnerIds }
          : {}),
        ...(env.AWS_REGION ? { defaultRegion: env.AWS_REGION } : {}),
        ...(env.AWS_EC2_ENDPOINT ? { endpoint: env.AWS_EC2_ENDPOINT } : {}),
      }),
    // Its spec schema (zod) is loaded with it, on the first kwok reconcile.
    kwok: () =>
      lazyProvider(
        'kwok',
        async () => (await import('./kwok/provider')).createKwokProvider(),
        kwokCapabilities,
      ),
  }
  const wanted = (env.MACHINE_API_PROVIDERS ?? Object.keys(all).join(','))
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  const unknown = wanted.filter((name) => !(name in all))
  if (unknown.length > 0) {
    throw new Error(
      `MACHINE_API_PROVIDERS names unknown providers: ${unknown.join(', ')} (have: ${Object.keys(all).join(', ')})`,
    )
  }
  return createProviderRegistry(wanted.map((name) => (all[name] as () => Provider)()))
}
