/**
 * @module The `aws` provider as the functions register it: the same provider, but the AWS SDK
 * (most of a function's bundle and start time) is imported on its first call, not when the
 * process starts. A worker that never reconciles an aws Machine never loads it.
 */
import { lazyProvider } from '../lazy-provider'
import type { AwsProvider, AwsProviderOptions } from './provider'

/** `createAwsProvider(options)`, built on first use. */
export function lazyAwsProvider(options: AwsProviderOptions = {}): AwsProvider {
  return lazyProvider('aws', async () => (await import('./provider')).createAwsProvider(options), [
    'sweepOrphans',
    'capacity',
    'followedImage',
    'instanceStatus',
  ])
}
