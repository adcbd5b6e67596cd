/**
 * A node group's capacity annotations follow its MachineClass without the group reading the
 * class on every run: against the real apiserver, with the MachineSet and MachineDeployment
 * controllers on the in-process bus, a class change reaches both groups with the class handed
 * over by its watch event (no GET), and the runs their own changes wake read it only once, when
 * the group was created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { machineApiMappers, watchedTypes } from '../../../src/bus/machine-api-mappers'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { KubeObject } from '../../../src/kube/resource'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import { machineDeploymentController } from '../../../src/reconcile/machine-deployment/reconcile'
import { machineSetController } from '../../../src/reconcile/machine-set/reconcile'
import type { Controller } from '../../../src/reconcile/runtime/controller'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { CAPACITY_PREFIX } from '../../../src/reconcile/shared/class-capacity'
import { realTimers } from '../../../src/timers'
import { kwokMachineClass, kwokMachineSet } from '../../bench/lib/fleet-manifests'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { countingKube, testDeps } from './fixture'

const t = machineApiTypes
const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'class-capacity')
let admin: KubeClient

beforeAll(() => {
  admin = countingKube(api().kc).kube
})
afterAll(() => admin.close())

/** Sets the class's status as the MachineClass controller does once its provider answered. */
async function setCapacity(namespace: string, name: string, cpu: string): Promise<void> {
  await admin.mergePatch(
    t.machineClass,
    { namespace, name },
    {
      status: {
        capacity: { cpu, memory: '8Gi' },
        conditions: [
          {
            type: 'CapacityKnown',
            status: 'True',
            reason: 'Known',
            message: 'test',
            lastTransitionTime: new Date().toISOString(),
          },
        ],
      },
    },
    { subresource: 'status' },
  )
}

async function cpuOf(namespace: string, type: typeof t.machineSet, name: string) {
  const group = await admin.get<KubeObject>(type, { namespace, name })
  return group?.metadata?.annotations?.[`${CAPACITY_PREFIX}cpu`]
}

/** `controllers` on the in-process bus over `kube`, with no sweep during the test. */
function startGroups(kube: KubeClient, namespace: string, controllers: Controller[]) {
  return startInProcessBus({
    kube,
    runner: createRunner({ controllers, deps: testDeps(kube) }),
    reconciled: controllers.map((c) => c.resource),
    watched: watchedTypes(controllers),
    mappers: machineApiMappers(controllers.map((c) => c.kind)),
    timers: realTimers(),
    log: testDeps(kube).log,
    namespace,
    sweepPeriodMs: 600_000,
  })
}

describe('class capacity on node groups', () => {
  it('follows a class change handed over by its watch event, reading the class only at create', async () => {
    const namespace = ns()
    const counting = countingKube(api().kc)
    const bus = startGroups(counting.kube, namespace, [
      machineSetController(),
      machineDeploymentController(),
    ])
    try {
      await bus.ready()
      await admin.create(t.machineClass, kwokMachineClass(namespace, 'kwok'))
      await setCapacity(namespace, 'kwok', '2')
      await admin.create(t.machineSet, kwokMachineSet(namespace, 'set', 0, { className: 'kwok' }))
      const template = (
        kwokMachineSet(namespace, 'md', 0, { className: 'kwok' }) as {
          spec: Record<string, unknown>
        }
      ).spec
      await admin.create(t.machineDeployment, {
        apiVersion: 'machine-api.dev/v1beta1',
        kind: 'MachineDeployment',
        metadata: { namespace, name: 'md' },
        spec: template,
      })
      await waitFor('both groups annotated cpu 2', async () => {
        return (
          (await cpuOf(namespace, t.machineSet, 'set')) === '2' &&
          (await cpuOf(namespace, t.machineDeployment, 'md')) === '2'
        )
      })
      await bus.queue.idle()
      const classGets = () => counting.byVerb()['get machineclasses'] ?? 0
      // One each when created (or fewer, when the class's own event got there first).
      expect(classGets()).toBeLessThanOrEqual(2)
      const atCreate = classGets()

      await setCapacity(namespace, 'kwok', '4')
      await waitFor('both groups annotated cpu 4', async () => {
        return (
          (await cpuOf(namespace, t.machineSet, 'set')) === '4' &&
          (await cpuOf(namespace, t.machineDeployment, 'md')) === '4'
        )
      })
      await bus.queue.idle()
      // The class change handed the class over; the groups' own writes (annotations, status)
      // woke runs that did not read it.
      expect(classGets()).toBe(atCreate)
    } finally {
      await bus.stop()
      counting.kube.close()
    }
  })

  it('scales from its record of the class: zones spread with no class read, the record following a class change', async () => {
    const namespace = ns()
    const counting = countingKube(api().kc)
    const bus = startGroups(counting.kube, namespace, [machineSetController()])
    const offerZones = (offeredZones: string[]) =>
      admin.mergePatch(
        t.machineClass,
        { namespace, name: 'zoned' },
        { status: { offeredZones } },
        { subresource: 'status' },
      )
    const scale = (replicas: number) =>
      admin.mergePatch(t.machineSet, { namespace, name: 'zoned' }, { spec: { replicas } })
    const zonesOfMachines = async () => {
      const list = await admin.list<KubeObject>(t.machine, { namespace })
      return list.items
        .map((m) => (m.spec as { failureDomain?: string } | undefined)?.failureDomain ?? '-')
        .sort()
    }
    const recordedZones = async () => {
      const set = await admin.get<KubeObject>(t.machineSet, { namespace, name: 'zoned' })
      return (set?.status as { templateClass?: { zones?: string[] } } | undefined)?.templateClass
        ?.zones
    }
    try {
      await bus.ready()
      await admin.create(t.machineClass, kwokMachineClass(namespace, 'zoned'))
      await offerZones(['a', 'b', 'c'])
      await admin.create(
        t.machineSet,
        kwokMachineSet(namespace, 'zoned', 0, { className: 'zoned' }),
      )
      await waitFor('the set records the zones', async () => {
        return JSON.stringify(await recordedZones()) === '["a","b","c"]'
      })
      await bus.queue.idle()
      const classGets = () => counting.byVerb()['get machineclasses'] ?? 0
      const beforeScale = classGets()

      await scale(6)
      await waitFor('6 Machines', async () => (await zonesOfMachines()).length === 6)
      await bus.queue.idle()
      expect(await zonesOfMachines()).toEqual(['a', 'a', 'b', 'b', 'c', 'c'])
      expect(classGets()).toBe(beforeScale)

      // The class's change hands it to the set, which records what it now offers.
      await offerZones(['c'])
      await waitFor('the record follows the class', async () => {
        return JSON.stringify(await recordedZones()) === '["c"]'
      })
      await scale(8)
      await waitFor('8 Machines', async () => (await zonesOfMachines()).length === 8)
      await bus.queue.idle()
      expect(await zonesOfMachines()).toEqual(['a', 'a', 'b', 'b', 'c', 'c', 'c', 'c'])
      expect(classGets()).toBe(beforeScale)
    } finally {
      await bus.stop()
      counting.kube.close()
    }
  })
})
