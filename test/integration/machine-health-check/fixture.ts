/**
 * @module Integration fixtures for the MachineHealthCheck controller: the controller on the
 * in-process bus (watches only, no sweep, so timers and events alone drive it), MachineSets and
 * Machines created the way their controllers would, kwok Nodes linked to them.
 *
 * The Machine controller does not run here, so tests link Machines to Nodes themselves: they set
 * `status.nodeRef`/`phase` through the status subresource and annotate the Node with its Machine.
 * Machines carry a test finalizer so a deletion request leaves a `deletionTimestamp` to measure.
 */
import { onTestFinished } from 'vitest'
import { ANNOTATIONS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import { selectorMapper, selfMapper } from '../../../src/bus/event-mapping'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { nodeToHealthCheckMapper } from '../../../src/bus/node-health-check-mapper'
import { systemClock } from '../../../src/clock'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import { machineHealthCheckController } from '../../../src/reconcile/machine-health-check/reconcile'
import type { Controller, ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { waitFor } from '../../harness/kube'
import { kwokNode } from '../../harness/nodes'

export const types = machineApiTypes
export const holdFinalizer = 'test.machine-api.dev/hold'
export const poolLabel = 'mhc-test/pool'

/** One finished reconcile, to show that a timer (not a sweep) was set for the crossing. */
export interface ReconcileRun {
  startedAt: number
  finishedAt: number
  requeueAfterMs?: number
}

/** Deps for direct reconciles. */
export function deps(kube: KubeClient, clock = systemClock): ReconcileDeps {
  return { kube, clock, log: silentLogger(), fieldManager: 'machine-api-mhc-test' }
}

/**
 * Starts the health check controller on the in-process bus for `namespace`. Returns the finished
 * runs and a stop function; it also stops when the test ends.
 */
export async function startController(
  kube: KubeClient,
  namespace: string,
): Promise<{ runs: ReconcileRun[]; stop: () => Promise<void> }> {
  const runs: ReconcileRun[] = []
  const base = machineHealthCheckController()
  const recording: Controller = {
    ...base,
    async reconcile(d, key) {
      const startedAt = Date.now()
      const result = await base.reconcile(d, key)
      runs.push({ startedAt, finishedAt: Date.now(), ...result })
      return result
    },
  }
  const bus = startInProcessBus({
    kube,
    runner: createRunner({ controllers: [recording], deps: deps(kube) }),
    reconciled: [types.machineHealthCheck],
    watched: [types.machineHealthCheck, types.machine, coreTypes.node],
    mappers: [
      selfMapper(types.machineHealthCheck.kind),
      selectorMapper(types.machine.kind, types.machineHealthCheck),
      nodeToHealthCheckMapper(machineApiTypes),
    ],
    timers: realTimers(),
    log: silentLogger(),
    sweepPeriodMs: 0,
    namespace,
  })
  let stopped: Promise<void> | undefined
  const stop = () => {
    stopped ??= bus.stop()
    return stopped
  }
  onTestFinished(stop)
  await bus.ready()
  return { runs, stop }
}

/** A MachineSet that owns the test Machines (no MachineSet controller runs). */
export async function createMachineSet(kube: KubeClient, namespace: string, name: string) {
  const labels = { [poolLabel]: name }
  return await kube.create(types.machineSet, {
    metadata: { name, namespace },
    spec: {
      replicas: 0,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { classRef: { name: 'kwok' } } },
    },
  })
}

/** A Machine controlled by `set` (unless null), held by the test finalizer. */
export async function createMachine(
  kube: KubeClient,
  namespace: string,
  options: { name: string; pool: string; set: KubeObject | null },
): Promise<KubeObject> {
  const owner = options.set?.metadata
  return await kube.create(types.machine, {
    metadata: {
      name: options.name,
      namespace,
      labels: { [poolLabel]: options.pool },
      finalizers: [holdFinalizer],
      ...(owner
        ? {
            ownerReferences: [
              {
                apiVersion: 'machine-api.dev/v1beta1',
                kind: 'MachineSet',
                name: owner.name ?? '',
                uid: owner.uid ?? '',
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: { classRef: { name: 'kwok' } },
  })
}

/** Sets Machine status as the Machine controller would (phase, lastUpdated, nodeRef). */
export async function setMachineStatus(kube: KubeClient, machine: KubeObject, status: object) {
  const ref = { namespace: machine.metadata?.namespace, name: machine.metadata?.name ?? '' }
  await kube.mergePatch(types.machine, ref, { status }, { subresource: 'status' })
}

/** Creates a kwok Node annotated with its Machine (as the Machine controller links it). */
export async function createLinkedNode(
  kube: KubeClient,
  machine: KubeObject,
  options: { nodeName: string; kwokValue?: string },
): Promise<KubeObject> {
  const body = kwokNode(options.nodeName) as KubeObject
  const annotations = body.metadata?.annotations ?? {}
  if (options.kwokValue) annotations['kwok.x-k8s.io/node'] = options.kwokValue
  annotations[ANNOTATIONS.machine] = `${machine.metadata?.namespace}/${machine.metadata?.name}`
  const node = await kube.create(coreTypes.node, {
    ...body,
    metadata: { ...body.metadata, annotations },
  })
  onTestFinished(async () => {
    await kube.delete(coreTypes.node, { name: options.nodeName })
  })
  await waitFor(
    `Node ${options.nodeName} Ready`,
    async () => (await nodeCondition(kube, options.nodeName, 'Ready'))?.status === 'True',
  )
  await setMachineStatus(kube, machine, {
    phase: 'Running',
    nodeRef: { name: options.nodeName, uid: node.metadata?.uid },
  })
  return node
}

/** A condition of a Node, as the apiserver has it now. */
export async function nodeCondition(kube: KubeClient, name: string, type: string) {
  const node = await kube.get(coreTypes.node, { name })
  const conditions = (node?.status as { conditions?: Array<Record<string, string>> } | undefined)
    ?.conditions
  return conditions?.find((c) => c.type === type)
}

/** The Machine's deletionTimestamp in epoch ms once its deletion was requested, else undefined. */
export async function deletionRequestedAt(kube: KubeClient, namespace: string, name: string) {
  const machine = await kube.get(types.machine, { namespace, name })
  const stamp = machine?.metadata?.deletionTimestamp
  return stamp ? Date.parse(String(stamp)) : undefined
}

/** The conditions of a Machine as stored now (empty when it has none or is gone). */
export async function machineConditions(kube: KubeClient, namespace: string, name: string) {
  const machine = await kube.get(types.machine, { namespace, name })
  const status = machine?.status as { conditions?: Array<Record<string, string>> } | undefined
  return status?.conditions ?? []
}

/** Releases the test finalizer of every Machine in `namespace` when the test ends. */
export function releaseMachinesAtEnd(kube: KubeClient, namespace: string): void {
  onTestFinished(async () => {
    const page = await kube.list(types.machine, { namespace })
    for (const m of page.items) {
      await kube.mergePatch(
        types.machine,
        { namespace, name: m.metadata?.name ?? '' },
        { metadata: { finalizers: null } },
      )
    }
  })
}

/** Events in `namespace` about `name` with `reason`. */
export async function eventsAbout(
  kube: KubeClient,
  namespace: string,
  name: string,
  reason: string,
) {
  const page = await kube.list(coreTypes.event, {
    namespace,
    fieldSelector: `involvedObject.name=${name},reason=${reason}`,
  })
  return page.items as Array<KubeObject & { message?: string }>
}

/** A MachineHealthCheck for `pool` judging Ready False/Unknown after the given timeouts. */
export function healthCheck(
  namespace: string,
  name: string,
  spec: { pool: string; timeout: string; extra?: object },
): KubeObject {
  return {
    metadata: { name, namespace },
    spec: {
      selector: { matchLabels: { [poolLabel]: spec.pool } },
      unhealthyConditions: [
        { type: 'Ready', status: 'False', timeout: spec.timeout },
        { type: 'Ready', status: 'Unknown', timeout: spec.timeout },
      ],
      ...spec.extra,
    },
  }
}
