/**
 * @module What the interruptions scenario checks each interrupted Machine against: a watch of the
 * namespace's Machines from before the notices, keeping each Machine's last Drained condition
 * (the Machine is gone once deleted, so only the watch saw it), the Nodes the Machines were
 * linked to and whether their Nodes were seen cordoned; and the verdict per interrupted instance:
 * drained (every pod out) before its notice's deadline, or not. It also says which of the other
 * instances were touched at all (a notice recorded, cordoned, deleted): forged notices must not.
 */
import { instanceNoticeAnnotation } from '../../../src/api/instance-notice'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient, WatchEvent } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject, type ResourceType } from '../../../src/kube/resource'

type Condition = { type: string; status: string; reason?: string; lastTransitionTime?: string }
type Watched = KubeObject & {
  spec?: { providerID?: string; unschedulable?: boolean }
  status?: { conditions?: Condition[]; nodeRef?: { name?: string } }
}

export interface DrainRecorder {
  /**
   * Per interrupted instance: its deadline (ms) against the drain the Machine recorded, from its
   * Drained condition or, when no status write showed one (a pass that drains, terminates and
   * removes the finalizer writes no status), its NodeDrained Event.
   */
  verdicts(deadlines: ReadonlyMap<string, number>): Promise<
    Array<{
      instanceId: string
      machine?: string
      drained?: string
      drainedAt?: string
      cordoned: boolean
      inTime: boolean
    }>
  >
  /**
   * Of `instanceIds`, those whose Machine was seen with a notice recorded or being deleted, or
   * whose Node was seen cordoned.
   */
  touched(instanceIds: readonly string[]): string[]
  stop(): Promise<void>
}

/** Starts watching Machines of `namespace` and all Nodes; resolves once both watches run. */
export async function recordDrains(kube: KubeClient, namespace: string): Promise<DrainRecorder> {
  const abort = new AbortController()
  const byInstance = new Map<
    string,
    { machine: string; node?: string; drained?: Condition; noticed?: boolean; deleting?: boolean }
  >()
  const cordoned = new Set<string>()
  const onMachine = (event: WatchEvent) => {
    const m = event.object as Watched
    const id = m.spec?.providerID?.split('/').at(-1)
    if (!id || event.type === 'BOOKMARK' || event.type === 'ERROR') return
    const entry = byInstance.get(id) ?? { machine: m.metadata?.name ?? '' }
    entry.node = m.status?.nodeRef?.name ?? entry.node
    const drained = m.status?.conditions?.find((c) => c.type === 'Drained')
    if (drained) entry.drained = drained
    if (m.metadata?.annotations?.[instanceNoticeAnnotation]) entry.noticed = true
    if (m.metadata?.deletionTimestamp || event.type === 'DELETED') entry.deleting = true
    byInstance.set(id, entry)
  }
  const onNode = (event: WatchEvent) => {
    const node = event.object as Watched
    if (node.spec?.unschedulable) cordoned.add(node.metadata?.name ?? '')
  }
  const watch = async (type: ResourceType, ns: string | undefined, on: typeof onNode) => {
    while (!abort.signal.aborted) {
      await kube
        .watch(type, { namespace: ns, timeoutSeconds: 60, signal: abort.signal }, on)
        .catch(() => new Promise((resolve) => setTimeout(resolve, 200)))
    }
  }
  const loops = [
    watch(machineApiTypes.machine, namespace, onMachine),
    watch(coreTypes.node, undefined, onNode),
  ]
  // A watch without a resourceVersion starts with every object: wait until the Machines are in.
  const start = Date.now()
  while (byInstance.size === 0 && Date.now() - start < 10_000) {
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    async verdicts(deadlines) {
      const events = (
        await kube.list<KubeObject & { reason?: string; lastTimestamp?: string }>(coreTypes.event, {
          namespace,
          fieldSelector: 'reason=NodeDrained',
        })
      ).items
      const drainEvent = new Map(
        events.map((e) => [
          (e as { involvedObject?: { name?: string } }).involvedObject?.name,
          e.lastTimestamp,
        ]),
      )
      return [...deadlines].map(([instanceId, deadline]) => {
        const entry = byInstance.get(instanceId)
        const fromEvent = drainEvent.get(entry?.machine)
        const drained =
          entry?.drained ??
          (fromEvent
            ? {
                type: 'Drained',
                status: 'True',
                reason: 'DrainSucceeded',
                lastTransitionTime: fromEvent,
              }
            : undefined)
        const at = Date.parse(drained?.lastTransitionTime ?? '')
        const inTime =
          drained?.status === 'True' && drained.reason === 'DrainSucceeded' && at < deadline
        return {
          instanceId,
          machine: entry?.machine,
          drained: drained?.reason,
          drainedAt: drained?.lastTransitionTime,
          cordoned: entry?.node !== undefined && cordoned.has(entry.node),
          inTime,
        }
      })
    },
    touched(instanceIds) {
      return instanceIds.filter((id) => {
        const entry = byInstance.get(id)
        const node = entry?.node
        return entry?.noticed || entry?.deleting || (node !== undefined && cordoned.has(node))
      })
    },
    async stop() {
      abort.abort()
      await Promise.all(loops)
    },
  }
}
