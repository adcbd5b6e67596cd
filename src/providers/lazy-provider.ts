/**
 * @module A provider as the functions register it: the same provider, but its module (the AWS
 * SDK, or zod through the provider's spec schema) is imported on its first call, not when the
 * process starts, so a worker serves `/readyz` before loading what only a reconcile needs.
 */
import type { Actuator } from './actuator'
import type { Provider } from './registry'

/** The optional capabilities of a Provider. */
type Capability = 'sweepOrphans' | 'capacity' | 'followedImage' | 'instanceStatus'

/** A Provider that has the capabilities `C`. */
export type ProviderWith<C extends Capability> = Provider & Required<Pick<Provider, C>>

/**
 * `load()`'s provider, imported on the first call of its actuator or a capability. `capabilities`
 * lists what the loaded provider has, since callers test for a capability before loading it (the
 * unit test checks each registration against its provider).
 */
export function lazyProvider<C extends Capability = never>(
  name: string,
  load: () => Promise<Provider>,
  capabilities: readonly C[] = [],
): ProviderWith<C> {
  let loading: Promise<Provider> | undefined
  const provider = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    })
    return loading
  }
  const actuator: Actuator = {
    exists: async (ctx, machine) => (await provider()).actuator.exists(ctx, machine),
    create: async (ctx, machine) => (await provider()).actuator.create(ctx, machine),
    update: async (ctx, machine) => (await provider()).actuator.update(ctx, machine),
    delete: async (ctx, machine) => (await provider()).actuator.delete(ctx, machine),
  }
  const lazy: Provider = {
    name,
    actuator,
    async close() {
      if (loading === undefined) return
      await (await loading).close?.()
    },
  }
  const has = (capability: Capability) =>
    (capabilities as readonly Capability[]).includes(capability)
  const missing = (capability: Capability) =>
    new Error(`provider ${name} was registered with ${capability} but has none`)
  if (has('sweepOrphans')) {
    lazy.sweepOrphans = async (request) => {
      const loaded = await provider()
      if (!loaded.sweepOrphans) throw missing('sweepOrphans')
      return loaded.sweepOrphans(request)
    }
  }
  if (has('followedImage')) {
    lazy.followedImage = async (request) => {
      const loaded = await provider()
      if (!loaded.followedImage) throw missing('followedImage')
      return loaded.followedImage(request)
    }
  }
  if (has('capacity')) {
    lazy.capacity = async (request) => {
      const loaded = await provider()
      if (!loaded.capacity) throw missing('capacity')
      return loaded.capacity(request)
    }
  }
  if (has('instanceStatus')) {
    lazy.instanceStatus = async (request) => {
      const loaded = await provider()
      if (!loaded.instanceStatus) throw missing('instanceStatus')
      return loaded.instanceStatus(request)
    }
  }
  // Checked above: every capability in `C` was added.
  return lazy as ProviderWith<C>
}
