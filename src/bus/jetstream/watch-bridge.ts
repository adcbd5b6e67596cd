/**
 * @module The watch bridge: watches the source kinds, maps each change to keys and publishes them
 * as hints. Run one replica (a second one only duplicates hints, which the stream coalesces).
 */
import { errorMessage } from '../../errors'
import type { KubeClient } from '../../kube/kube-client'
import type { ObjectKey } from '../../kube/object-key'
import type { ResourceType } from '../../kube/resource'
import type { Logger } from '../../observability/logger'
import type { Timers } from '../../timers'
import { type EventMapper, mapChange } from '../event-mapping'
import { inFlight } from '../in-flight'
import { inNamespaceScope } from '../namespace-scope'
import { ownChangeWake } from '../wake'
import type { WatchSource } from '../watch-source'
import { startWatches } from '../watches'
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
  const mappings = inFlight()
  const sources: WatchSource[] = startWatches(options, (type, obj, change) => {
    // Each mapper's keys are published as it finds them: a Machine's own key waits for no
    // listing of health checks.
    const published: Promise<unknown>[] = []
    const deleted = change === 'DELETED'
    const publish = (keys: readonly ObjectKey[]) => {
      for (const key of keys) {
        if (!inNamespaceScope(key, options.namespace)) continue
        const wake = ownChangeWake(key, { kind: type.kind, obj, deleted })
        published.push(options.publish(key, wake))
      }
    }
    mappings
      .track(
        mapChange(options.mappers, { kind: type.kind, obj, change }, kube, publish).finally(() =>
          Promise.all(published),
        ),
      )
      .catch((error: unknown) => log.warn({ err: errorMessage(error) }, 'publishing a hint failed'))
  })
  return {
    async ready() {
      await Promise.all(sources.map((s) => s.ready()))
    },
    // The mappings and publishes under way finish before the caller closes NATS or the apiserver.
    async stop() {
      await Promise.all(sources.map((s) => s.stop()))
      await mappings.settled()
    },
  }
}
