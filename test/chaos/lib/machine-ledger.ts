/**
 * @module Every Machine that existed in a namespace during a scenario, from a watch started before
 * the first Machine: its UID, group, whether it ever reached Running and whether it was deleted.
 * The audit needs it because what is left at the end cannot show a Machine created and deleted
 * meanwhile (an instance launched for it, or a Machine created twice for one slot).
 */
import { ANNOTATIONS } from '../../../src/api/group'
import { parseLaunchPlace } from '../../../src/api/launch-group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient, WatchEvent } from '../../../src/kube/kube-client'
import type { KubeObject } from '../../../src/kube/resource'

/** The label naming the group (MachineSet, MachineDeployment) a scenario's Machine belongs to. */
export const groupLabel = 'chaos.machine-api.dev/group'

type Machine = KubeObject & { status?: { phase?: string; nodeRef?: { name?: string } } }

/** One Machine as the watch saw it over its whole life. */
export interface SeenMachine {
  uid: string
  name: string
  /** `groupLabel`'s value, or `machine/<name>` for a Machine of no group. */
  group: string
  /** Reached phase Running with a Node at least once. */
  everRunning: boolean
  /** Got a deletionTimestamp or disappeared. */
  deleted: boolean
  /** Its place in a launch group, `<group>/<index>`, when its set gave it one. */
  place?: string
}

export interface MachineLedger {
  /** Resolves once the first list is recorded: create Machines only after it. */
  ready: Promise<void>
  /** Every Machine seen so far, by UID. */
  machines(): ReadonlyMap<string, SeenMachine>
  /**
   * Records a full list of the namespace's Machines taken elsewhere (an audit's look) that started
   * at `listedAt` (ms): a Machine seen before that and missing from it was deleted, even if the
   * watch has not said so yet.
   */
  recordList(machines: readonly Machine[], listedAt: number): void
  stop(): Promise<void>
}

/** The group a Machine counts in (see `groupLabel`). */
export function groupOf(machine: KubeObject): string {
  return machine.metadata?.labels?.[groupLabel] ?? `machine/${machine.metadata?.name ?? ''}`
}

function placeOf(machine: KubeObject): { place?: string } {
  const place = parseLaunchPlace(machine.metadata?.annotations?.[ANNOTATIONS.launchGroup])
  return place ? { place: `${place.group}/${place.index}` } : {}
}

export function startMachineLedger(options: {
  kube: KubeClient
  namespace: string
}): MachineLedger {
  const { kube, namespace } = options
  const seen = new Map<string, SeenMachine>()
  const firstSeen = new Map<string, number>()
  const abort = new AbortController()
  const record = (machine: Machine, gone = false) => {
    const uid = machine.metadata?.uid
    if (!uid) return
    const entry = seen.get(uid) ?? {
      uid,
      name: machine.metadata?.name ?? '',
      group: groupOf(machine),
      everRunning: false,
      deleted: false,
      ...placeOf(machine),
    }
    if (!firstSeen.has(uid)) firstSeen.set(uid, Date.now())
    entry.everRunning ||= machine.status?.phase === 'Running' && Boolean(machine.status.nodeRef)
    entry.deleted ||= gone || machine.metadata?.deletionTimestamp !== undefined
    seen.set(uid, entry)
  }
  const recordList = (machines: readonly Machine[], listedAt: number) => {
    const present = new Set(machines.map((m) => m.metadata?.uid))
    for (const entry of seen.values()) {
      const before = (firstSeen.get(entry.uid) ?? listedAt) < listedAt
      if (before && !present.has(entry.uid)) entry.deleted = true
    }
    for (const m of machines) record(m)
  }
  const relist = async () => {
    const listedAt = Date.now()
    const page = await kube.list<Machine>(machineApiTypes.machine, { namespace })
    // A Machine recorded earlier and missing now was deleted while the watch was away.
    recordList(page.items, listedAt)
    return page.resourceVersion
  }
  let firstList: (() => void) | undefined
  const ready = new Promise<void>((resolve) => {
    firstList = resolve
  })
  const loop = (async () => {
    let resourceVersion: string | undefined
    while (!abort.signal.aborted) {
      try {
        resourceVersion ??= await relist()
        firstList?.()
        let expired = false
        await kube.watch(
          machineApiTypes.machine,
          { namespace, resourceVersion, timeoutSeconds: 60, signal: abort.signal },
          (event: WatchEvent) => {
            if (event.type === 'ERROR') {
              expired = true
              return
            }
            resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion
            if (event.type !== 'BOOKMARK') record(event.object, event.type === 'DELETED')
          },
        )
        if (expired) resourceVersion = undefined
      } catch {
        // The apiserver is away (an outage scenario) or the stream broke: list again and resume.
        resourceVersion = undefined
        if (!abort.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 500))
      }
    }
  })()
  return {
    ready,
    machines: () => seen,
    recordList,
    async stop() {
      abort.abort()
      firstList?.()
      await loop
    },
  }
}
