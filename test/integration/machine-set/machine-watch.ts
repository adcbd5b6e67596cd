/**
 * @module A watch-based checker: follows every Machine of a namespace through a real watch and
 * evaluates an invariant at each observed instant (after every event), so a bound that is broken
 * even briefly is caught, not just the end state.
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import { hasKubeReason } from '../../../src/kube/errors'
import type { KubeClient, WatchEvent } from '../../../src/kube/kube-client'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import { waitFor } from '../../harness/kube'

/** A running checker. */
export interface MachineWatch {
  /** Messages from every instant the invariant failed. */
  violations: string[]
  /** Events seen so far, by type. */
  counts: Record<string, number>
  /** The largest number of Machines seen at once. */
  maxMachines: () => number
  /** Resolves once the watch has delivered an event about `name` (sync point). */
  seen: (predicate: (machines: MachineObject[]) => boolean) => Promise<void>
  stop: () => Promise<void>
}

/**
 * Starts watching `namespace` from the current state. `check` returns a violation message or
 * undefined for the Machines present at that instant.
 */
export async function watchMachines(
  kube: KubeClient,
  namespace: string,
  check: (machines: MachineObject[]) => string | undefined,
): Promise<MachineWatch> {
  const type = machineApiTypes.machine
  // A CRD installed moments ago may still answer "storage is (re)initializing" (429).
  const initial = await waitFor('the first list of Machines', () =>
    kube.list<MachineObject & { [k: string]: unknown }>(type, { namespace }),
  )
  const machines = new Map(initial.items.map((m) => [m.metadata.name, m as MachineObject]))
  const violations: string[] = []
  const counts: Record<string, number> = {}
  let max = machines.size
  let resourceVersion = initial.resourceVersion
  const controller = new AbortController()
  const evaluate = (why: string) => {
    max = Math.max(max, machines.size)
    const problem = check([...machines.values()])
    if (problem) violations.push(`${why}: ${problem}`)
  }
  const onEvent = (event: WatchEvent) => {
    counts[event.type] = (counts[event.type] ?? 0) + 1
    const m = event.object as MachineObject
    resourceVersion = m.metadata.resourceVersion ?? resourceVersion
    if (event.type === 'ERROR') {
      // E.g. 410 Gone: the history is lost, so the checker can no longer vouch for every instant.
      violations.push(`watch error: ${JSON.stringify(event.object)}`)
      controller.abort()
      return
    }
    if (event.type === 'ADDED' || event.type === 'MODIFIED') machines.set(m.metadata.name, m)
    else if (event.type === 'DELETED') machines.delete(m.metadata.name)
    else return
    evaluate(`${event.type} ${m.metadata.name}`)
  }
  evaluate('initial')
  // Resuming from the last resourceVersion seen replays every change since, so no instant is
  // skipped when the stream ends or the apiserver asks us to come back later.
  const done = (async () => {
    while (!controller.signal.aborted) {
      try {
        await kube.watch(
          type,
          { namespace, resourceVersion, timeoutSeconds: 300, signal: controller.signal },
          onEvent,
        )
      } catch (error) {
        if (controller.signal.aborted) return
        if (!hasKubeReason(error, 'TooManyRequests', 'ServerError')) {
          violations.push(`watch failed: ${String(error)}`)
          return
        }
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    }
  })()
  return {
    violations,
    counts,
    maxMachines: () => max,
    seen: async (predicate) => {
      await waitFor('the watch to catch up', () => predicate([...machines.values()]), {
        intervalMs: 50,
      })
    },
    stop: async () => {
      controller.abort()
      await done
    },
  }
}
