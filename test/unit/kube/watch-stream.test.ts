import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { WatchEvent } from '../../../src/kube/kube-client'
import { readWatchStream } from '../../../src/kube/watch-stream'

const line = (type: string, name: string) =>
  `${JSON.stringify({ type, object: { metadata: { name, resourceVersion: '1' } } })}\n`

describe('watch stream reader', () => {
  it('delivers one event per line, skips torn lines and ends with the stream', async () => {
    const stream = new PassThrough()
    const events: WatchEvent[] = []
    const done = readWatchStream(stream, new AbortController().signal, (e) => events.push(e))
    stream.write(line('ADDED', 'a'))
    // A line split across chunks is reassembled.
    const split = line('MODIFIED', 'b')
    stream.write(split.slice(0, 10))
    stream.write(split.slice(10))
    stream.write('{"type": "ADDED", "obj\n\n')
    stream.end(line('BOOKMARK', 'c'))
    await done
    expect(events.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual([
      'ADDED a',
      'MODIFIED b',
      'BOOKMARK c',
    ])
  })

  it('resolves when the caller aborts an open stream', async () => {
    const stream = new PassThrough()
    const controller = new AbortController()
    const events: WatchEvent[] = []
    const done = readWatchStream(stream, controller.signal, (e) => events.push(e))
    stream.write(line('ADDED', 'a'))
    await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    await done
    expect(events).toHaveLength(1)
    expect(stream.destroyed).toBe(true)
  })
})
