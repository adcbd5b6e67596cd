/**
 * The whole stack on the runtime, no test-driven passes: MachineDeployment, MachineSet and Machine
 * controllers on the in-process bus (watches, event mapping, queue, requeues) with the kwok
 * provider. A template change rolls a 3-replica deployment to new Machines with Ready Nodes,
 * which shows the event wiring (Machine -> MachineSet -> MachineDeployment) carries a rollout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { machineApiMappers, watchedTypes } from '../../../src/bus/machine-api-mappers'
import { systemClock } from '../../../src/clock'
import type { KubeClient } from '../../../src/kube/kube-client'
import { silentLogger } from '../../../src/observability/logger'
import { createKwokProvider } from '../../../src/providers/kwok/provider'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { createClaimHolder, processSelf } from '../../../src/reconcile/machine/claim-holder'
import { machineControllerWith } from '../../../src/reconcile/machine/reconcile'
import { machineDeploymentController } from '../../../src/reconcile/machine-deployment/reconcile'
import { machineSetController } from '../../../src/reconcile/machine-set/reconcile'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { countingKube } from '../machine-set/fixture'
import { scaleTo } from '../machine-set/settle'
import { deploymentManifest, readDeployment, rolledOut } from './drive'

const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'md-bus')
let kube: KubeClient

beforeAll(() => {
  kube = countingKube(api().kc).kube
})
afterAll(() => kube.close())

const kwokSpec = (zone: string) => ({ providerSpec: { provider: 'kwok', value: { zone } } })

describe('MachineDeployment on the runtime with the kwok provider', () => {
  it('rolls a template change out to Running Machines, driven only by events', async () => {
    const deps = { kube, clock: systemClock, log: silentLogger(), fieldManager: 'machine-api-test' }
    const providers = createProviderRegistry([createKwokProvider()])
    const controllers = [
      machineDeploymentController(),
      machineSetController(),
      machineControllerWith(
        { providers, claimHolder: createClaimHolder(processSelf(process.env)) },
        { nodeLookupRetryMs: 1000, deletionRetryMs: 1000 },
      ),
    ]
    const bus = startInProcessBus({
      kube,
      runner: createRunner({ controllers, deps }),
      reconciled: controllers.map((c) => c.resource),
      watched: watchedTypes(controllers),
      mappers: machineApiMappers(controllers.map((c) => c.kind)),
      timers: realTimers(),
      log: deps.log,
      namespace: ns(),
      concurrency: 4,
      // Events alone must carry the rollout; a sweep would hide a missing mapping.
      sweepPeriodMs: 0,
    })
    const name = 'on-bus'
    const converged = (zone: string) =>
      waitFor(
        `rollout to ${zone}`,
        async () => {
          const state = await readDeployment(deps, ns(), name)
          const live = state.sets.filter((s) => (s.status?.replicas ?? 0) > 0)
          return rolledOut(state.md) &&
            live.length === 1 &&
            live[0]?.spec.template.spec.providerSpec?.value.zone === zone
            ? state
            : false
        },
        { intervalMs: 500, timeoutMs: 180_000 },
      )
    try {
      await bus.ready()
      const manifest = deploymentManifest(ns(), name, { replicas: 3 })
      ;(manifest.spec as { template: { spec: unknown } }).template.spec = kwokSpec('a')
      await kube.create(machineApiTypes.machineDeployment, manifest)
      await converged('a')
      await kube.mergePatch(
        machineApiTypes.machineDeployment,
        { namespace: ns(), name },
        { spec: { template: { spec: kwokSpec('b') } } },
      )
      const { sets } = await converged('b')
      const machines = await kube.list<{ status?: { phase?: string } } & Record<string, unknown>>(
        machineApiTypes.machine,
        { namespace: ns() },
      )
      expect(machines.items.map((m) => m.status?.phase)).toEqual(['Running', 'Running', 'Running'])
      expect(sets).toHaveLength(2)

      await scaleTo(deps, ns(), name, 0, machineApiTypes.machineDeployment)
      await waitFor(
        'every Machine and its Node gone',
        async () =>
          (await kube.list(machineApiTypes.machine, { namespace: ns() })).items.length === 0,
        { intervalMs: 500, timeoutMs: 180_000 },
      )
    } finally {
      await bus.stop()
    }
  })
})
