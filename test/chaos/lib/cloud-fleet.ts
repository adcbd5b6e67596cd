/**
 * @module Fleet steps the aws scenarios share: another MachineClass (a copy of `standard` with a
 * different instance type), MachineSets on a class, scaling, waiting for Machines to run or be
 * gone, and the Machines' conditions and Events.
 */
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { waitFor } from '../../harness/kube'
import { chaosClassName } from './aws-world'
import { groupLabel } from './machine-ledger'

type Condition = { type: string; status: string; reason?: string; message?: string }
/** The Machine fields the scenarios read. */
export type FleetMachine = KubeObject & {
  spec?: { providerID?: string }
  status?: { phase?: string; nodeRef?: { name?: string }; conditions?: Condition[] }
}

/**
 * Creates MachineClass `name`: the world's `standard` class with `instanceType` (a list: as
 * instanceTypes), and `spec`'s other class fields (e.g. a short unavailableOfferingTTL).
 */
export async function copyClass(
  kube: KubeClient,
  ref: { namespace: string; name: string },
  instanceType: string | string[],
  spec: Record<string, unknown> = {},
): Promise<void> {
  const standard = await kube.get<KubeObject & { spec: { providerSpec: object } }>(
    machineApiTypes.machineClass,
    { namespace: ref.namespace, name: chaosClassName },
  )
  if (!standard) throw new Error(`MachineClass ${chaosClassName} is missing`)
  await kube.create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ref.namespace, name: ref.name },
    spec: {
      ...standard.spec,
      ...spec,
      providerSpec: typesOf(standard.spec.providerSpec, instanceType),
    },
  })
}

function typesOf(providerSpec: object, types: string | string[]): object {
  if (!Array.isArray(types)) return { ...providerSpec, instanceType: types }
  const { instanceType: _one, ...rest } = providerSpec as { instanceType?: string }
  return { ...rest, instanceTypes: types }
}

/** Creates MachineSet `name` of `replicas` Machines of class `className`. */
export async function createMachineSet(
  kube: KubeClient,
  ref: { namespace: string; name: string },
  options: { className: string; replicas: number },
): Promise<void> {
  await kube.create(machineApiTypes.machineSet, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineSet',
    metadata: { namespace: ref.namespace, name: ref.name },
    spec: {
      replicas: options.replicas,
      selector: { matchLabels: { [groupLabel]: ref.name } },
      template: {
        metadata: { labels: { [groupLabel]: ref.name } },
        spec: { classRef: { name: options.className }, nodeDeletionTimeout: '30s' },
      },
    },
  })
}

/**
 * Sets spec.replicas of MachineSet `name`, retrying as a user would when admission times out
 * (two loaded cores: the webhook answers slowly at times; the patch is idempotent).
 */
export async function scaleMachineSet(
  kube: KubeClient,
  ref: { namespace: string; name: string },
  replicas: number,
): Promise<void> {
  await waitFor(
    `scale ${ref.name} to ${replicas}`,
    async () => {
      await kube.mergePatch(machineApiTypes.machineSet, ref, { spec: { replicas } })
      return true
    },
    { timeoutMs: 60_000, intervalMs: 1000 },
  )
}

/** The Machines of MachineSet `set` (by its selector label). */
export async function machinesOf(
  kube: KubeClient,
  namespace: string,
  set: string,
): Promise<FleetMachine[]> {
  const page = await kube.list<FleetMachine>(machineApiTypes.machine, {
    namespace,
    labelSelector: `${groupLabel}=${set}`,
  })
  return page.items
}

/** Running with a Node and not being deleted. */
export function isRunning(m: FleetMachine): boolean {
  return (
    m.metadata?.deletionTimestamp === undefined &&
    m.status?.phase === 'Running' &&
    Boolean(m.status?.nodeRef?.name)
  )
}

/**
 * Waits until MachineSet `set` has exactly `count` Machines, all Running; returns false (not
 * throwing) at the deadline, so the caller can count the stuck ones.
 */
export async function waitForRunning(
  kube: KubeClient,
  ref: { namespace: string; set: string; count: number },
  timeoutMs: number,
): Promise<boolean> {
  return await waitFor(
    `${ref.count} Running Machines of ${ref.set}`,
    async () => {
      const machines = await machinesOf(kube, ref.namespace, ref.set)
      return machines.length === ref.count && machines.every(isRunning)
    },
    { timeoutMs, intervalMs: 500 },
  )
    .then(() => true)
    .catch(() => false)
}

/** Waits until no Machine is left in the namespace; false at the deadline. */
export async function waitForNoMachines(
  kube: KubeClient,
  namespace: string,
  timeoutMs: number,
): Promise<boolean> {
  return await waitFor(
    'every Machine gone',
    async () => (await kube.list(machineApiTypes.machine, { namespace })).items.length === 0,
    { timeoutMs, intervalMs: 500 },
  )
    .then(() => true)
    .catch(() => false)
}

/** The InfrastructureReady condition of a Machine. */
export function infrastructureCondition(m: FleetMachine): Condition | undefined {
  return m.status?.conditions?.find((c) => c.type === 'InfrastructureReady')
}

/** Count of Warning Events with `reason` per Machine name in `namespace` (Event.count summed). */
export async function warningEvents(
  kube: KubeClient,
  namespace: string,
  reason: string,
): Promise<Map<string, number>> {
  type Event = KubeObject & {
    type?: string
    reason?: string
    count?: number
    series?: { count?: number }
    involvedObject?: { kind?: string; name?: string }
  }
  const events = (await kube.list<Event>(coreTypes.event, { namespace })).items
  const out = new Map<string, number>()
  for (const e of events) {
    if (e.type !== 'Warning' || e.reason !== reason || e.involvedObject?.kind !== 'Machine')
      continue
    const name = e.involvedObject.name ?? ''
    out.set(name, (out.get(name) ?? 0) + (e.series?.count ?? e.count ?? 1))
  }
  return out
}
