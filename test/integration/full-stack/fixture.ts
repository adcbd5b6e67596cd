/**
 * @module The whole system for one namespace, as `npm run dev` runs it: every registered
 * controller (Machine with the kwok provider, MachineSet, MachineDeployment, MachineHealthCheck)
 * on the in-process bus, with short Machine retry periods so deletions finish in seconds. When the
 * test ends it deletes every machine-api object of the namespace and waits, with the controllers
 * still running, until every Machine and its kwok Node is gone, so the shared control plane keeps
 * no Nodes; then it stops the bus.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import { onTestFinished } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { machineApiMappers, watchedTypes } from '../../../src/bus/machine-api-mappers'
import { controllerCatalog } from '../../../src/cli/controller-catalog'
import { systemClock } from '../../../src/clock'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type ResourceType } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import { kwokKeys } from '../../../src/providers/kwok/node'
import { createKwokProvider } from '../../../src/providers/kwok/provider'
import { createProviderRegistry, type ProviderRegistry } from '../../../src/providers/registry'
import { createClaimHolder, processSelf } from '../../../src/reconcile/machine/claim-holder'
import { machineControllerWith } from '../../../src/reconcile/machine/reconcile'
import { machineRelatedClass } from '../../../src/reconcile/machine/related-class'
import { machineRelatedNode } from '../../../src/reconcile/machine/related-node'
import { machineSetController } from '../../../src/reconcile/machine-set/reconcile'
import type { ReplacementSettings } from '../../../src/reconcile/machine-set/replacement'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { readingDelivered } from '../../../src/reconcile/runtime/delivered-reads'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { waitFor } from '../../harness/kube'

/** Machine controller tuning: waiting deletion stages and unlinked Machines are retried every 1 s. */
export const machineTuning = { deletionRetryMs: 1000, nodeLookupRetryMs: 1000 } as const

/** A kube client for the test control plane. */
export function fullStackKube(kc: KubeConfig): KubeClient {
  return createKubeClient(createHttpTransport(kc, () => {}))
}

/** Reconcile deps shared by every controller. */
export function fullStackDeps(kube: KubeClient): ReconcileDeps {
  return { kube, clock: systemClock, log: silentLogger(), fieldManager: 'machine-api-full-stack' }
}

/**
 * Starts every controller of the catalog on the in-process bus for `namespace` (the Machine
 * controller with `machineTuning`, the kwok provider unless `providers` says otherwise, the
 * MachineSets replacing Failed Machines at `replacement`'s pace if given). Cleans up and stops
 * when the test finishes.
 */
export async function startFullStack(
  kube: KubeClient,
  namespace: string,
  providers: ProviderRegistry = createProviderRegistry([createKwokProvider()]),
  replacement?: ReplacementSettings,
): Promise<void> {
  const claimHolder = createClaimHolder(processSelf(process.env))
  const controllers = controllerCatalog({ providers, claimHolder }).map((c) => {
    if (c.kind === machineApiTypes.machine.kind) {
      return readingDelivered(
        machineControllerWith({ providers, claimHolder }, machineTuning),
        machineRelatedNode,
        machineRelatedClass,
      )
    }
    if (c.kind === machineApiTypes.machineSet.kind && replacement) {
      return machineSetController({ replacement })
    }
    return c
  })
  const deps = fullStackDeps(kube)
  const bus = startInProcessBus({
    kube,
    runner: createRunner({ controllers, deps }),
    reconciled: controllers.map((c) => c.resource),
    watched: watchedTypes(controllers),
    mappers: machineApiMappers(controllers.map((c) => c.kind)),
    timers: realTimers(),
    log: deps.log,
    namespace,
    concurrency: 4,
    // Events and requeues drive everything; the sweep only bounds a lost event.
    sweepPeriodMs: 10_000,
  })
  onTestFinished(async () => {
    try {
      await deleteEverything(kube, namespace)
    } finally {
      await bus.stop()
    }
  })
  await bus.ready()
}

/** Deletes the namespace's machine-api objects, owners first, until no Machine or Node is left. */
async function deleteEverything(kube: KubeClient, namespace: string): Promise<void> {
  const t = machineApiTypes
  const deleteAll = async (type: ResourceType) => {
    const page = await kube.list(type, { namespace })
    await Promise.all(
      page.items.map((o) => kube.delete(type, { namespace, name: o.metadata?.name ?? '' })),
    )
    return page.items.length
  }
  for (const type of [t.machineHealthCheck, t.machineDeployment, t.machineSet]) {
    await deleteAll(type)
  }
  // Repeated: a MachineSet reconcile that read its set before the delete may still create one.
  await waitFor(
    'every Machine of the namespace gone',
    async () => (await deleteAll(t.machine)) === 0,
    { intervalMs: 500, timeoutMs: 120_000 },
  )
  await waitFor(
    'every kwok Node of the namespace gone',
    async () =>
      (
        await kube.list(coreTypes.node, {
          labelSelector: `${kwokKeys.machineNamespace}=${namespace}`,
        })
      ).items.length === 0,
    { intervalMs: 500, timeoutMs: 60_000 },
  )
}
