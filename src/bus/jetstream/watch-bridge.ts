/**
 * @module The watch bridge: watches the source kinds, maps each change to keys and publishes them
 * as hints. Run one replica (a second one only duplicates hints, which the stream coalesces).
 */
import { errorMessage } from '../../errors'
import type { KubeClient } from '../../kube/kube-client'
import type { ResourceType } from '../../kube/resource'
import type { Logger } from '../../observability/logger'
import { type EventMapper, mapChange } from '../event-mapping'
import { changeFilterFor } from '../heartbeat-filter'
import { inNamespaceScope } from '../namespace-scope'
import type { Timers } from '../timers'
import { startWatchSource, type WatchSource } from '../watch-source'
import type { KeyPublisher } from './publisher'

/** A running bridge. */
export interface WatchBridge {
  ready(): Promise<void>
  stop(): Promise<void>
}

/** Starts one watch per type in `watched`, publishing mapped keys. */
export function startWatchBridge(options: {
  kube: KubeClient
  watched: readonly ResourceType[]
  mappers: readonly EventMapper[]
  publish: KeyPublisher
  timers: Timers
  log: Logger
  namespace?: string | undefined
  watchdogMs?: number
}): WatchBridge {
  const { kube, log } = options
  const sources: WatchSource[] = options.watched.map((type) => {
    const filter = changeFilterFor(type)
    return startWatchSource({
      kube,
      type,
      namespace: options.namespace,
      timers: options.timers,
      log,
      ...(options.watchdogMs ? { watchdogMs: options.watchdogMs } : {}),
      onRelist: () => filter?.reset(),
      onChange: (obj, change) => {
        if (filter && !filter.admit(obj, change)) return
        mapChange(options.mappers, { kind: type.kind, obj, change }, kube)
          .then((keys) =>
            Promise.all(
              keys
                .filter((key) => inNamespaceScope(key, options.namespace))
                .map((key) => options.publish(key)),
            ),
          )
          .catch((error: unknown) =>
            log.warn({ err: errorMessage(error) }, 'publishing a hint failed'),
          )
      },
    })
  })
  return {
    async ready() {
      await Promise.all(sources.map((s) => s.ready()))
    },
    async stop() {
      await Promise.all(sources.map((s) => s.stop()))
    },
  }
}
