/**
 * @module The provider registry: providers by name, built by the caller (no module-level
 * singleton), so tests and functions each decide which providers exist.
 */
import type { Actuator } from './actuator'
import type { CapacityRequest, FollowedImage, MachineCapacity } from './capacity'
import { InvalidConfigurationError } from './errors'
import type { InstanceStatusReport, InstanceStatusRequest } from './instance-status'
import type { Orphan, OrphanSweepRequest } from './orphans'

/**
 * A named provider: its actuator and optional capabilities. Its spec schema is not part of it:
 * admission takes the schemas from schemas.ts without building any provider.
 */
export interface Provider {
  /** The name MachineClasses use in `provider`, e.g. `aws`. */
  readonly name: string
  readonly actuator: Actuator
  /**
   * Optional capability: reports (and when asked terminates) infrastructure this deployment
   * launched whose Machine is gone. Providers that cannot list what they launched leave it out.
   */
  sweepOrphans?(request: OrphanSweepRequest): Promise<Orphan[]>
  /**
   * Optional capability: what one Machine of a class provides (MachineClass `status.capacity`,
   * for scaling from zero). Providers that cannot tell leave it out.
   */
  capacity?(request: CapacityRequest): Promise<MachineCapacity>
  /**
   * Optional capability: the newest image matching a class's filters, for a class that follows
   * it (MachineClass `status.image`); undefined when the class's spec does not follow one.
   */
  followedImage?(request: CapacityRequest): Promise<FollowedImage | undefined>
  /**
   * Optional capability: the cloud's status checks of running instances, asked in batches (the
   * sweep's status-check pass). Providers whose infrastructure has no such checks leave it out.
   */
  instanceStatus?(request: InstanceStatusRequest): Promise<InstanceStatusReport>
  /** Releases clients and timers; the registry's `close` calls it. */
  close?(): Promise<void> | void
}

/** Providers by name. */
export interface ProviderRegistry {
  get(name: string): Provider | undefined
  /** The provider, or an InvalidConfigurationError (reason `UnknownProvider`) naming the known ones. */
  require(name: string): Provider
  names(): string[]
  close(): Promise<void>
}

/**
 * Builds a registry from `providers`; throws on a duplicate name.
 * @example createProviderRegistry([createKwokProvider(), createAwsProvider()])
 */
export function createProviderRegistry(providers: readonly Provider[]): ProviderRegistry {
  const byName = new Map<string, Provider>()
  for (const provider of providers) {
    if (byName.has(provider.name)) throw new Error(`duplicate provider ${provider.name}`)
    byName.set(provider.name, provider)
  }
  return {
    get: (name) => byName.get(name),
    require(name) {
      const provider = byName.get(name)
      if (provider) return provider
      const known = [...byName.keys()].join(', ') || 'none'
      throw new InvalidConfigurationError(
        `unknown provider "${name}" (this deployment has: ${known})`,
        { reason: 'UnknownProvider', field: 'provider' },
      )
    },
    names: () => [...byName.keys()],
    async close() {
      for (const provider of byName.values()) await provider.close?.()
    },
  }
}
