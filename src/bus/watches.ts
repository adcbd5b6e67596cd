/**
 * @module One watch per watched type, each with its type's change filter (Node heartbeats are
 * dropped, and the filter forgets what it saw when the watch relists). The in-process bus and the
 * JetStream watch bridge both start their watches here.
 */
import type { KubeObject, ResourceType } from '../kube/resource'
import { changeFilterFor } from './heartbeat-filter'
import {
  type ChangeType,
  type RestartCause,
  startWatchSource,
  type WatchSource,
  type WatchSourceOptions,
} from './watch-source'

/** What every watch shares. */
export interface WatchesOptions
  extends Pick<WatchSourceOptions, 'kube' | 'namespace' | 'timers' | 'log'> {
  watched: readonly ResourceType[]
  watchdogMs?: number | undefined
  onRestart?: ((type: ResourceType, cause: RestartCause) => void) | undefined
}

/** Starts the watches; `onChange` sees only the changes the type's filter admits. */
export function startWatches(
  options: WatchesOptions,
  onChange: (type: ResourceType, obj: KubeObject, change: ChangeType) => void,
): WatchSource[] {
  const { onRestart } = options
  return options.watched.map((type) => {
    const filter = changeFilterFor(type)
    return startWatchSource({
      kube: options.kube,
      type,
      namespace: options.namespace,
      timers: options.timers,
      log: options.log,
      ...(options.watchdogMs ? { watchdogMs: options.watchdogMs } : {}),
      ...(onRestart ? { onRestart: (cause: RestartCause) => onRestart(type, cause) } : {}),
      onRelist: () => filter?.reset(),
      onChange: (obj, change) => {
        if (!filter || filter.admit(obj, change)) onChange(type, obj, change)
      },
    })
  })
}
