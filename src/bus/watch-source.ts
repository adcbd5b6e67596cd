/**
 * @module A self-healing watch of one resource type: lists (page by page) then watches from the
 * list's resourceVersion with bookmarks, resumes from the last seen version when the stream ends,
 * relists on 410 Gone, and restarts a stream that stays silent past the watchdog period (watch
 * streams are known to stall silently: client-node #596/#958).
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#watch-bookmarks
 */
import { errorMessage } from '../errors'
import { hasKubeReason } from '../kube/errors'
import type { KubeClient, WatchEvent } from '../kube/kube-client'
import { listPages } from '../kube/paged-list'
import type { KubeObject, ResourceType } from '../kube/resource'
import type { Logger } from '../observability/logger'
import type { Timers } from '../timers'

/** `SYNC` marks objects delivered by a (re)list rather than by the watch stream. */
export type ChangeType = 'SYNC' | 'ADDED' | 'MODIFIED' | 'DELETED'

/** Why a watch stream was restarted. */
export type RestartCause = 'closed' | 'gone' | 'watchdog' | 'error'

/** Options of startWatchSource. Periods are injectable so tests run in seconds. */
export interface WatchSourceOptions {
  kube: KubeClient
  type: ResourceType
  namespace?: string | undefined
  onChange: (obj: KubeObject, change: ChangeType) => void
  timers: Timers
  log: Logger
  /** Restart a stream that delivered nothing (not even a bookmark) for this long (default 150 s). */
  watchdogMs?: number
  /** Server-side stream timeout (default 300 s); the stream then resumes from the last version. */
  timeoutSeconds?: number
  /** Delay before retrying after an error (default 1 s, doubling to 30 s). */
  retryMs?: number
  /** Resume from this version instead of listing first (a stale one leads to 410 and a relist). */
  initialResourceVersion?: string
  onRestart?: (cause: RestartCause) => void
  onRelist?: () => void
}

/** A running watch source. */
export interface WatchSource {
  /** Resolves once the first list (or resume) has been delivered and the stream is open. */
  ready(): Promise<void>
  stop(): Promise<void>
}

/** Starts watching; changes flow to `onChange` until stop(). */
export function startWatchSource(options: WatchSourceOptions): WatchSource {
  const { kube, type, timers, log } = options
  const watchdogMs = options.watchdogMs ?? 150_000
  let stopped = false
  let current: AbortController | undefined
  let cancelWait: (() => void) | undefined
  let markReady: () => void = () => {}
  const readyPromise = new Promise<void>((resolve) => {
    markReady = resolve
  })

  async function relist(): Promise<string> {
    options.onRelist?.()
    let version: string | undefined
    for await (const page of listPages(kube, type, { namespace: options.namespace })) {
      // Every page of a chunked list is one consistent snapshot; the first page's version is it.
      version ??= page.resourceVersion
      for (const obj of page.items) options.onChange(obj, 'SYNC')
    }
    return version ?? ''
  }

  async function wait(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const cancel = timers.setTimer(ms, resolve)
      cancelWait = () => {
        cancel()
        resolve()
      }
      if (stopped) cancelWait()
    })
  }

  /** Runs one stream; returns the cause of its end and the version to resume from. */
  async function stream(from: string): Promise<{ cause: RestartCause; version?: string }> {
    const controller = new AbortController()
    current = controller
    let version: string | undefined = from
    let cause: RestartCause = 'closed'
    let cancelWatchdog = () => {}
    const arm = () => {
      cancelWatchdog()
      cancelWatchdog = timers.setTimer(watchdogMs, () => {
        cause = 'watchdog'
        controller.abort()
      })
    }
    const onEvent = (event: WatchEvent) => {
      arm()
      if (event.type === 'ERROR') {
        const status = event.object as { code?: number; reason?: string }
        if (status.code === 410 || status.reason === 'Expired' || status.reason === 'Gone') {
          cause = 'gone'
          version = undefined
        } else {
          cause = 'error'
        }
        controller.abort()
        return
      }
      const rv = event.object.metadata?.resourceVersion
      if (rv) version = rv
      if (event.type === 'BOOKMARK') return
      try {
        options.onChange(event.object, event.type)
      } catch (error) {
        // A faulty consumer must not end the stream: the next sweep covers this object.
        log.error({ resource: type.plural, err: errorMessage(error) }, 'change handler threw')
      }
    }
    arm()
    try {
      const opened = kube.watch(
        type,
        {
          namespace: options.namespace,
          resourceVersion: from,
          timeoutSeconds: options.timeoutSeconds ?? 300,
          signal: controller.signal,
        },
        onEvent,
      )
      markReady()
      await opened
    } catch (error) {
      if (hasKubeReason(error, 'Gone')) return { cause: 'gone' }
      if (!controller.signal.aborted) {
        log.warn({ resource: type.plural, err: errorMessage(error) }, 'watch failed')
        cause = 'error'
      }
    } finally {
      cancelWatchdog()
    }
    return version === undefined ? { cause } : { cause, version }
  }

  async function loop(): Promise<void> {
    let version = options.initialResourceVersion
    let failures = 0
    while (!stopped) {
      try {
        version ??= await relist()
      } catch (error) {
        failures++
        log.warn({ resource: type.plural, err: errorMessage(error) }, 'list failed')
        await wait(Math.min((options.retryMs ?? 1000) * 2 ** (failures - 1), 30_000))
        continue
      }
      if (stopped) break
      const result = await stream(version)
      if (stopped) break
      version = result.version
      options.onRestart?.(result.cause)
      log.debug({ resource: type.plural, cause: result.cause }, 'watch restarting')
      if (result.cause === 'error') {
        failures++
        await wait(Math.min((options.retryMs ?? 1000) * 2 ** (failures - 1), 30_000))
      } else {
        failures = 0
      }
    }
  }

  const done = loop()
  return {
    ready: () => readyPromise,
    async stop() {
      stopped = true
      current?.abort()
      cancelWait?.()
      markReady()
      await done
    },
  }
}
