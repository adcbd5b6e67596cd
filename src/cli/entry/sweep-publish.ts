/**
 * @module The one-shot sweep's JetStream mode (NATS_URL set): lists every selected kind page by
 * page and publishes each key. Its own module so a sweep that reconciles in-process never loads
 * the NATS client (sweep-once.ts imports this with `import()`).
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import { createSweepPublisher } from '../../bus/jetstream/publisher'
import { defaultJetStreamConfig, ensureJetStream } from '../../bus/jetstream/setup'
import { type SweepReport, sweep } from '../../bus/sweep'
import type { RuntimeDeps } from '../../deps'
import type { ResourceType } from '../../kube/resource'

/**
 * Publishes the key of every listed object that has no hint waiting to JetStream; one connection,
 * drained at the end.
 */
export async function sweepToJetStream(
  deps: RuntimeDeps,
  settings: { natsUrl: string; namespace: string | undefined },
  types: readonly ResourceType[],
): Promise<SweepReport> {
  const nc = await connect({ servers: settings.natsUrl })
  try {
    const js = jetstream(nc)
    await ensureJetStream(await jetstreamManager(nc), defaultJetStreamConfig)
    const publish = createSweepPublisher(js, defaultJetStreamConfig)
    return await sweep({
      kube: deps.kube,
      types,
      log: deps.log,
      namespace: settings.namespace,
      enqueue: (key) => publish(key),
    })
  } finally {
    await nc.drain()
  }
}
