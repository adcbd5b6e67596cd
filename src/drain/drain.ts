/**
 * @module One bounded, non-blocking drain pass: cordon, decide per pod, evict what must go. The
 * caller requeues while the result is not complete and turns it into a condition; nothing here
 * sleeps or loops until done.
 */
import type { DrainClient } from './drain-client'
import type { EvictionResult } from './eviction-result'
import { decidePod, podKey } from './pod-filters'

export interface DrainPassOptions {
  nodeName: string
  /** The Node is unreachable (Ready=Unknown): pods get a 1 s grace period, old deletions are not awaited. */
  nodeUnreachable: boolean
  now: Date
  /** Evictions per pass, so one pass never runs long against a big Node (default 50). */
  maxEvictions?: number
}

/** Cordons the Node and evicts, once, every pod that must leave it. */
export async function drainNodePass(
  client: DrainClient,
  options: DrainPassOptions,
): Promise<EvictionResult> {
  await client.cordon(options.nodeName)
  const pods = await client.listPodsOnNode(options.nodeName)
  const result: EvictionResult = {
    evicted: [],
    blocked: [],
    failed: [],
    waitingFor: [],
    warnings: [],
    skipped: 0,
  }
  const gracePeriodSeconds = options.nodeUnreachable ? 1 : undefined
  let budget = options.maxEvictions ?? 50
  for (const pod of pods) {
    const decision = decidePod(pod, options)
    const key = podKey(pod)
    if (decision.action === 'skip') {
      result.skipped++
      continue
    }
    if (decision.action === 'wait') {
      result.waitingFor.push(key)
      continue
    }
    if (budget <= 0) {
      result.waitingFor.push(key)
      continue
    }
    budget--
    const outcome = await client.evict(
      { namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '' },
      gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds },
    )
    switch (outcome.type) {
      case 'evicted':
        result.evicted.push(key)
        if (decision.warning) result.warnings.push({ pod: key, warning: decision.warning })
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
  }
  return result
}
