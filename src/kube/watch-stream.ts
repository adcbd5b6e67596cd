/**
 * @module Reads a watch response: one JSON event per line until the server closes the stream or
 * the caller aborts. https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes
 */
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import type { WatchEvent } from './kube-client'

/**
 * Calls `onEvent` for each line of `stream`; resolves when the stream ends or `signal` aborts, and
 * rejects when the connection breaks. Lines that are not JSON are skipped (a torn last line).
 */
export async function readWatchStream(
  stream: Readable,
  signal: AbortSignal,
  onEvent: (event: WatchEvent) => void,
): Promise<void> {
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })
  // Destroying the input alone does not end readline's async iterator; closing the interface does.
  const abort = () => {
    lines.close()
    stream.destroy()
  }
  signal.addEventListener('abort', abort, { once: true })
  try {
    for await (const line of lines) {
      if (line.trim() === '') continue
      let event: WatchEvent
      try {
        event = JSON.parse(line) as WatchEvent
      } catch {
        continue
      }
      onEvent(event)
    }
  } catch (error) {
    if (!signal.aborted) throw error
  } finally {
    signal.removeEventListener('abort', abort)
    lines.close()
  }
}
