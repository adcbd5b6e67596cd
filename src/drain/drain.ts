/**
 * @module One bounded, non-blocking drain pass: cordon, decide per pod, evict what must go. The
 * caller requeues while the result is not complete and turns it into a condition; nothing here
 * sleeps or loops until done.
 */

import { mapConcurrently } from '../pool'
import type { DrainClient, EvictionOutcome } from './drain-client'
import { type EvictionResult, noEvictions } from './eviction-result'
import { decidePod, podKey } from './pod-filters'

export interface DrainPassOptions {
  nodeName: string
  /** The Node is unreachable (Ready=Unknown): pods get a 1 s grace period, old deletions are not awaited. */
  nodeUnreachable: boolean
  now: Date
  /** Evictions per pass, so one pass never runs long against a big Node (default 50). */
  maxEvictions?: number
  /** Evictions in flight at once (default 10). */
  evictionConcurrency?: number
}

/** Cordons the Node and evicts, once, every pod that must leave it. */
export async function drainNodePass(
  client: DrainClient,
  options: DrainPassOptions,
): Promise<EvictionResult> {
  await client.cordon(options.nodeName)
  const pods = await client.listPodsOnNode(options.nodeName)
  const result = noEvictions()
  const gracePeriodSeconds = options.nodeUnreachable ? 1 : undefined
  let budget = options.maxEvictions ?? 50
  const toEvict: { pod: (typeof pods)[number]; key: string; warning?: string }[] = []
  for (const pod of pods) {
    const decision = decidePod(pod, options)
    const key = podKey(pod)
    if (decision.action === 'skip') {
      result.skipped.push({ pod: key, reason: decision.reason })
      continue
    }
    if (decision.action === 'wait' || budget <= 0) {
      result.waitingFor.push(key)
      continue
    }
    budget--
    toEvict.push({ pod, key, ...(decision.warning ? { warning: decision.warning } : {}) })
  }
  // Evictions are independent requests (the apiserver checks each against its PDB), so they run
  // side by side like `kubectl drain`; one at a time, a 110-pod Node took 110 round trips.
  const outcomes = await mapConcurrently(toEvict, options.evictionConcurrency ?? 10, ({ pod }) =>
    client.evict(
      { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' },
      gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds },
    ),
  )
  toEvict.forEach(({ key, warning }, i) => {
    const outcome = outcomes[i] as EvictionOutcome
    switch (outcome.type) {
      case 'evicted':
        result.evicted.push(key)
        if (warning) result.warnings.push({ pod: key, warning })
        break
      case 'gone':
        break
      case 'blocked':
        result.blocked.push({ pod: key, message: outcome.message })
        break
      case 'failed':
        result.failed.push({ pod: key, message: outcome.message })
        break
    }
  })
  return result
}
