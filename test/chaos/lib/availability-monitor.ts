/**
 * @module Watches a group's Machines during a rollout (polling, every `intervalMs`) and keeps the
 * most seen at once: unavailable (replicas less the Machines Running with a Node and not being
 * deleted) and in replacement (Machines not Running or being deleted, surge ones included), the
 * two counts a disruption budget bounds.
 */
import type { KubeClient } from '../../../src/kube/kube-client'
import { isRunning, machinesOf } from './cloud-fleet'

export interface AvailabilityMonitor {
  /** The maxima so far. */
  maxima(): { unavailable: number; inReplacement: number; looks: number }
  stop(): Promise<void>
}

export function monitorAvailability(
  kube: KubeClient,
  ref: { namespace: string; group: string; replicas: number },
  intervalMs = 250,
): AvailabilityMonitor {
  let unavailable = 0
  let inReplacement = 0
  let looks = 0
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      try {
        const machines = await machinesOf(kube, ref.namespace, ref.group)
        const running = machines.filter(isRunning).length
        unavailable = Math.max(unavailable, ref.replicas - running)
        inReplacement = Math.max(inReplacement, machines.length - running)
        looks++
      } catch {
        // A failed look (apiserver busy) is skipped; the next one counts.
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
  })()
  return {
    maxima: () => ({ unavailable, inReplacement, looks }),
    async stop() {
      stopped = true
      await loop
    },
  }
}
