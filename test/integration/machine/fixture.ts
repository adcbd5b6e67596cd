/**
 * @module Runs the real Machine controller for a test: a kube client, a provider registry with the
 * kwok provider (and any extra test providers), and the in-process bus watching Machines and Nodes.
 */
import { CoreV1Api, type KubeConfig, type V1Node } from '@kubernetes/client-node'
import { onTestFinished } from 'vitest'
import type { z } from 'zod'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { Machine } from '../../../src/api/v1beta1/machine'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { machineApiMappers, watchedTypes } from '../../../src/bus/machine-api-mappers'
import { systemClock } from '../../../src/clock'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import { silentLogger } from '../../../src/observability/logger'
import { createKwokProvider } from '../../../src/providers/kwok/provider'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import {
  createProviderRegistry,
  type Provider,
  type ProviderRegistry,
} from '../../../src/providers/registry'
import { createClaimHolder, processSelf } from '../../../src/reconcile/machine/claim-holder'
import type { MachineDeps } from '../../../src/reconcile/machine/machine-deps'
import { machineController } from '../../../src/reconcile/machine/reconcile'
import type { Controller } from '../../../src/reconcile/runtime/controller'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { ignoreNotFound } from '../../harness/kube'
import { useFileNamespace, useKubeClient, useMachineApi } from '../../harness/machine-api'

/** A kube client for the test control plane. */
export function machineTestKube(kc: KubeConfig): KubeClient {
  return createKubeClient(createHttpTransport(kc, () => {}))
}

/** A registry with the kwok provider plus `extra`. */
export function testProviders(extra: Provider[] = []): ProviderRegistry {
  return createProviderRegistry([createKwokProvider(), ...extra])
}

/** This test process in create claims: one for the whole file, as one per process in production. */
export const testClaimHolder = createClaimHolder(processSelf(process.env))

/** Machine reconcile deps with short retry periods so deletion stages show up in seconds. */
export function machineDeps(kube: KubeClient, providers: ProviderRegistry): MachineDeps {
  return {
    kube,
    clock: systemClock,
    log: silentLogger(),
    fieldManager: 'machine-api-test',
    providers,
    claimHolder: testClaimHolder,
    deletionRetryMs: 1000,
    nodeLookupRetryMs: 1000,
  }
}

/** Starts the Machine controller on the in-process bus for `namespace`; stopped after the test. */
export async function runMachineController(deps: MachineDeps, namespace: string): Promise<void> {
  const stop = await startMachineController(deps, namespace)
  onTestFinished(stop)
}

/**
 * Starts `options.controller` (the Machine controller unless a test wraps it, e.g. to count
 * reconciles) on the in-process bus for `namespace`, sweeping every `options.sweepPeriodMs`
 * (default 5 s); resolves once its watches run, with the function that stops it.
 */
export async function startMachineController(
  deps: MachineDeps,
  namespace: string,
  options: { controller?: Controller<MachineDeps>; sweepPeriodMs?: number } = {},
): Promise<() => Promise<void>> {
  const controllers = [options.controller ?? machineController]
  const bus = startInProcessBus({
    kube: deps.kube,
    runner: createRunner({ controllers, deps }),
    reconciled: [machineApiTypes.machine],
    watched: watchedTypes(controllers),
    mappers: machineApiMappers(['Machine']),
    timers: realTimers(),
    log: deps.log,
    namespace,
    concurrency: 4,
    sweepPeriodMs: options.sweepPeriodMs ?? 5000,
  })
  await bus.ready()
  return () => bus.stop()
}

/** A kwok Machine manifest. */
export function kwokMachine(
  namespace: string,
  name: string,
  spec: Record<string, unknown> = {},
): Machine {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { namespace, name },
    spec: { providerSpec: { provider: 'kwok', value: {} }, nodeDeletionTimeout: '10s', ...spec },
  }
}

/** Reads a Machine (undefined once it is gone). */
export async function readMachine(
  kube: KubeClient,
  namespace: string,
  name: string,
): Promise<Machine | undefined> {
  return await kube.get<Machine>(machineApiTypes.machine, { namespace, name })
}

/** Reads a Node (undefined once it is gone). */
export async function readNode(kc: KubeConfig, name: string): Promise<V1Node | undefined> {
  return await kc
    .makeApiClient(CoreV1Api)
    .readNode({ name })
    .catch((error: unknown) => {
      ignoreNotFound(error)
      return undefined
    })
}

/** The condition of `type` on the Machine. */
export function machineCondition(machine: Machine | undefined, type: string) {
  return machine?.status?.conditions?.find((c) => c.type === type)
}

/**
 * The per-file setup of the Machine tests: CRDs and the real webhook (validating provider specs
 * with `schemas`), a namespace, and a kube client, as getters valid inside tests.
 */
export function useMachineTestApi(
  prefix: string,
  schemas: Record<string, z.ZodType> = { kwok: kwokProviderSpecSchema() },
) {
  const api = useMachineApi({ providerSchemas: (name) => schemas[name] })
  const namespace = useFileNamespace(() => api().kc, prefix)
  return { api, namespace, kube: useKubeClient(api) }
}
