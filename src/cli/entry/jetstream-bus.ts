/**
 * @module The worker's JetStream transport: connects to NATS, consumes keys and, with --bridge,
 * publishes watch events as keys. Imported by worker.ts only when `--bus jetstream` is chosen, so
 * the in-process worker starts without the NATS client.
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import type { EventMapper } from '../../bus/event-mapping'
import { watchMaxDeliveries } from '../../bus/jetstream/max-deliveries'
import { createKeyPublisher } from '../../bus/jetstream/publisher'
import { defaultJetStreamConfig, ensureJetStream } from '../../bus/jetstream/setup'
import { startWatchBridge } from '../../bus/jetstream/watch-bridge'
import { startJetStreamWorker } from '../../bus/jetstream/worker'
import type { Runner } from '../../bus/run-outcome'
import type { RuntimeDeps, RuntimeSettings } from '../../deps'
import type { ResourceType } from '../../kube/resource'

/** What the JetStream transport runs on. */
export interface JetStreamBusOptions {
  deps: RuntimeDeps
  settings: RuntimeSettings
  runner: Runner
  watched: readonly ResourceType[]
  mappers: readonly EventMapper[]
}

/** Starts consuming (and, with `settings.bridge`, bridging); resolves with the stops in order. */
export async function startJetStreamBus(
  options: JetStreamBusOptions,
): Promise<Array<() => Promise<void> | void>> {
  const { deps, settings, runner, watched, mappers } = options
  const stops: Array<() => Promise<void> | void> = []
  if (!settings.natsUrl) throw new Error('the jetstream bus needs NATS_URL')
  const nc = await connect({ servers: settings.natsUrl })
  const js = jetstream(nc)
  const jsm = await jetstreamManager(nc)
  const config = defaultJetStreamConfig
  await ensureJetStream(jsm, config)
  const worker = await startJetStreamWorker({
    js,
    config,
    runner,
    log: deps.log,
    metrics: deps.metrics,
    concurrency: settings.concurrency,
  })
  stops.push(watchMaxDeliveries({ nc, js, jsm, config, log: deps.log }))
  if (settings.bridge) {
    const bridge = startWatchBridge({
      kube: deps.kube,
      watched,
      mappers,
      publish: createKeyPublisher(js, config),
      timers: deps.timers,
      log: deps.log,
      namespace: settings.namespace,
    })
    stops.push(() => bridge.stop())
  }
  stops.push(
    () => worker.stop(),
    () => nc.drain(),
  )
  return stops
}
