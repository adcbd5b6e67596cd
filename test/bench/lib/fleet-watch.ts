/**
 * @module Waits until a namespace holds exactly the Machines a benchmark expects, from one list
 * and a watch (polling 1,000 Machines would load the apiserver the benchmark measures).
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { KubeObject } from '../../../src/kube/resource'

/** A Machine is Running and linked to its Node, and not being deleted. */
export function isRunningWithNode(machine: KubeObject): boolean {
  const status = machine.status as { phase?: string; nodeRef?: { name?: string } } | undefined
  return (
    !machine.metadata?.deletionTimestamp &&
    status?.phase === 'Running' &&
    Boolean(status.nodeRef?.name)
  )
}

/**
 * Resolves once `done(machines)` holds for the namespace's Machines (by name). Rejects after
 * `timeoutMs`. The watch is re-opened (from the last resourceVersion) when the server ends it.
 */
export async function waitForMachines(
  kube: KubeClient,
  namespace: string,
  done: (machines: ReadonlyMap<string, KubeObject>) => boolean,
  timeoutMs: number,
): Promise<void> {
  const machines = new Map<string, KubeObject>()
  const abort = new AbortController()
  let resourceVersion = ''
  let finished = false
  const check = () => {
    if (!finished && done(machines)) {
      finished = true
      abort.abort()
    }
  }
  const timer = setTimeout(() => abort.abort(), timeoutMs)
  try {
    let token: string | undefined
    do {
      const page = await kube.list(machineApiTypes.machine, {
        namespace,
        limit: 500,
        continue: token,
      })
      for (const m of page.items) machines.set(m.metadata?.name ?? '', m)
      resourceVersion = page.resourceVersion
      token = page.continue
    } while (token)
    check()
    while (!finished && !abort.signal.aborted) {
      await kube
        .watch(
          machineApiTypes.machine,
          { namespace, resourceVersion, timeoutSeconds: 60, signal: abort.signal },
          (event) => {
            if (event.type === 'BOOKMARK' || event.type === 'ERROR') return
            const name = event.object.metadata?.name ?? ''
            resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion
            if (event.type === 'DELETED') machines.delete(name)
            else machines.set(name, event.object)
            check()
          },
        )
        .catch((error: unknown) => {
          if (!abort.signal.aborted) throw error
        })
    }
  } finally {
    clearTimeout(timer)
    abort.abort()
  }
  if (!finished) throw new Error(`timed out after ${timeoutMs} ms waiting for the Machines`)
}

/** Resolves once exactly `n` Machines of the namespace are Running with a Node. */
export async function waitForRunning(
  kube: KubeClient,
  namespace: string,
  n: number,
  timeoutMs: number,
): Promise<void> {
  await waitForMachines(
    kube,
    namespace,
    (machines) => {
      let running = 0
      for (const m of machines.values()) if (isRunningWithNode(m)) running++
      return running === n
    },
    timeoutMs,
  )
}
