import { describe, expect, it } from 'vitest'
import {
  drainCompleted,
  drainMessage,
  type EvictionResult,
  noEvictions,
} from '../../../src/drain/eviction-result'

const empty: EvictionResult = noEvictions()

describe('drain result', () => {
  it.each([
    ['nothing left but skipped pods', empty, true, 'Drain completed'],
    [
      'a disruption budget blocks',
      {
        ...empty,
        blocked: [
          {
            pod: 'a/db-1',
            message: "Cannot evict pod as it would violate the pod's disruption budget.",
          },
        ],
      },
      false,
      "Eviction blocked for a/db-1: Cannot evict pod as it would violate the pod's disruption budget.",
    ],
    [
      'pods still terminating',
      { ...empty, waitingFor: ['a/x', 'a/y'] },
      false,
      'Waiting for a/x, a/y to terminate',
    ],
    [
      'many pods evicted are summarised',
      { ...empty, evicted: ['a/1', 'a/2', 'a/3', 'a/4', 'a/5', 'a/6', 'a/7'] },
      false,
      'Evicted a/1, a/2, a/3, a/4, a/5 and 2 more',
    ],
  ])('%s', (_name, result, completed, message) => {
    expect(drainCompleted(result)).toBe(completed)
    expect(drainMessage(result)).toBe(message)
  })
})
