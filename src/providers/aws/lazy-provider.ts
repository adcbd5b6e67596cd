/**
 * @module The `aws` provider as the functions register it: the same provider, but the AWS SDK
 * (most of a function's bundle and start time) is imported on its first call, not when the
 * process starts. A worker that never reconciles an aws Machine never loads it.
 */
import type { Actuator } from '../actuator'
import type { AwsProvider, AwsProviderOptions } from './provider'
import { awsProviderSpecSchema } from './spec'

/** `createAwsProvider(options)`, built on first use. */
export function lazyAwsProvider(options: AwsProviderOptions = {}): AwsProvider {
  let loading: Promise<AwsProvider> | undefined
  const provider = () => {
    loading ??= import('./provider').then(
      ({ createAwsProvider }) => createAwsProvider(options),
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading
  }
  const actuator: Actuator = {
    exists: async (ctx, machine) => (await provider()).actuator.exists(ctx, machine),
    create: async (ctx, machine) => (await provider()).actuator.create(ctx, machine),
    update: async (ctx, machine) => (await provider()).actuator.update(ctx, machine),
    delete: async (ctx, machine) => (await provider()).actuator.delete(ctx, machine),
  }
  return {
    name: 'aws',
    specSchema: awsProviderSpecSchema,
    actuator,
    sweepOrphans: async (request) => (await provider()).sweepOrphans(request),
    capacity: async (request) => (await provider()).capacity(request),
    async close() {
      if (loading === undefined) return
      await (await loading).close?.()
    },
  }
}
