/**
 * An upgrade of the worker replaces no Machine of a class-backed MachineDeployment (issue 42, item
 * 1). The previous release hashed a set from its template alone and recorded no class on it; the
 * current code records the class on the pass that finds such a set current, and used to make a
 * new set on the pass after that (cause TemplateChanged), replacing every Machine. Here the
 * previous release's state is built against the real apiserver: a deployment of 3 kwok Machines
 * whose set the test writes as the old deployment controller did (the old template hash, no class
 * annotations), its Machines made and run by the MachineSet and Machine controllers with no
 * deployment controller. Then the whole current worker starts, sweeps included (every sweep hands
 * the deployment its class), and a watch counts every Machine created or deleted. A class edit
 * afterwards still rolls the deployment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { machineApiMappers, watchedTypes } from '../../../src/bus/machine-api-mappers'
import { controllerCatalog } from '../../../src/cli/controller-catalog'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { KubeObject } from '../../../src/kube/resource'
import { createKwokProvider } from '../../../src/providers/kwok/provider'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { createClaimHolder, processSelf } from '../../../src/reconcile/machine/claim-holder'
import { machineControllerWith } from '../../../src/reconcile/machine/reconcile'
import { machineRelatedClass } from '../../../src/reconcile/machine/related-class'
import { machineRelatedNode } from '../../../src/reconcile/machine/related-node'
import {
  desiredMachineSet,
  type MachineDeploymentObject,
} from '../../../src/reconcile/machine-deployment/machine-sets'
import { rolloutFields } from '../../../src/reconcile/machine-deployment/template-hash'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import { readingDelivered } from '../../../src/reconcile/runtime/delivered-reads'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { shortHash } from '../../../src/reconcile/shared/content-hash'
import { realTimers } from '../../../src/timers'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { fullStackDeps, fullStackKube, machineTuning, startFullStack } from '../full-stack/fixture'
import { deploymentLabel, deploymentState, isReadyMachine, machinesOf } from '../full-stack/objects'
import { watchMachines } from '../machine-set/machine-watch'

const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'md-upgrade')
let kube: KubeClient
beforeAll(() => {
  kube = fullStackKube(api().kc)
})
afterAll(() => kube.close())

const name = 'workers'
const revLabel = 'md-upgrade.machine-api.dev/rev'
/** The current worker's sweep period in startFullStack. */
const sweepPeriodMs = 10_000

function kwokClass(rev: string): KubeObject {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns(), name: 'upgraded' },
    spec: { provider: 'kwok', providerSpec: { nodeLabels: { [revLabel]: rev } } },
  }
}

function classDeployment(replicas: number): KubeObject {
  const labels = { [deploymentLabel]: name }
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: { namespace: ns(), name },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { classRef: { name: 'upgraded' }, nodeDeletionTimeout: '10s' },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    },
  }
}

/**
 * The previous release's worker: every controller but the MachineDeployment one (whose set the
 * test writes as that release did), on the in-process bus for the namespace. Resolves with stop.
 */
async function startPreviousWorker(): Promise<() => Promise<void>> {
  const providers = createProviderRegistry([createKwokProvider()])
  const claimHolder = createClaimHolder(processSelf(process.env))
  const controllers = controllerCatalog({ providers, claimHolder })
    .filter((c) => c.kind !== machineApiTypes.machineDeployment.kind)
    .map((c) =>
      c.kind === machineApiTypes.machine.kind
        ? readingDelivered(
            machineControllerWith({ providers, claimHolder }, machineTuning),
            machineRelatedNode,
            machineRelatedClass,
          )
        : c,
    )
  const deps = fullStackDeps(kube)
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
    sweepPeriodMs,
  })
  await bus.ready()
  return () => bus.stop()
}

/** The deployment's Machines when there are `replicas`, all Ready and none deleting; else false. */
async function allReady(replicas: number): Promise<MachineObject[] | false> {
  const machines = (await machinesOf(kube, ns())).filter(
    (m) => m.metadata.labels?.[deploymentLabel] === name,
  )
  return machines.length === replicas && machines.every(isReadyMachine) && machines
}

/** Resolves with the deployment's Machines once `replicas` of them are Ready. */
async function readyMachines(replicas: number): Promise<MachineObject[]> {
  return await waitFor(`${replicas} Ready Machines`, () => allReady(replicas), {
    intervalMs: 500,
    timeoutMs: 120_000,
  })
}

/**
 * The deployment as the previous release left it: its one set hashed from the template alone
 * (that release's templateHash: the short hash of the rollout fields), with no class annotations,
 * and 3 Ready Machines.
 */
async function previousRelease(): Promise<{ setName: string; machines: MachineObject[] }> {
  await kube.create(machineApiTypes.machineClass, kwokClass('1'))
  const md = (await kube.create(
    machineApiTypes.machineDeployment,
    classDeployment(3),
  )) as unknown as MachineDeploymentObject
  const oldHash = shortHash(rolloutFields(md.spec.template))
  const set = desiredMachineSet(md, oldHash, 1, 3)
  await kube.create(machineApiTypes.machineSet, set as unknown as KubeObject)
  const stop = await startPreviousWorker()
  try {
    return { setName: set.metadata.name, machines: await readyMachines(3) }
  } finally {
    await stop()
  }
}

describe('upgrading the worker', () => {
  it('replaces no Machine of a class-backed deployment made by the previous release; a later class edit still rolls', async () => {
    let before: { setName: string; machines: MachineObject[] }
    try {
      before = await previousRelease()
    } catch (error) {
      // The whole stack's cleanup removes the Machines and kwok Nodes made so far.
      await startFullStack(kube, ns())
      throw error
    }
    const { sets: oldSets } = await deploymentState(kube, ns(), name)
    expect(oldSets.map((s) => s.metadata.name)).toEqual([before.setName])
    expect(oldSets[0]?.metadata.annotations?.[ANNOTATIONS.classHash]).toBeUndefined()

    // Every Machine the watch saw that the previous release had not made, and every one of its
    // Machines the watch saw deleted or being deleted.
    const known = new Set(before.machines.map((m) => m.metadata.uid))
    const created = new Set<string | undefined>()
    const deleted = new Set<string | undefined>()
    const watch = await watchMachines(kube, ns(), (machines) => {
      for (const m of machines) {
        if (!known.has(m.metadata.uid)) created.add(m.metadata.uid)
        else if (m.metadata.deletionTimestamp) deleted.add(m.metadata.uid)
      }
      for (const uid of known) {
        if (!machines.some((m) => m.metadata.uid === uid)) deleted.add(uid)
      }
      return undefined
    })
    try {
      // The upgrade: the whole current worker.
      await startFullStack(kube, ns())
      // The pass that finds the old set current records its class on it ...
      const adopted = await waitFor(
        'the class recorded on the old set',
        async () => {
          const { sets } = await deploymentState(kube, ns(), name)
          const set = sets.find((s) => s.metadata.name === before.setName)
          return set?.metadata.annotations?.[ANNOTATIONS.classHash] !== undefined && set
        },
        { intervalMs: 200, timeoutMs: 60_000 },
      )
      const upgraded = await kube.get(machineApiTypes.machineClass, {
        namespace: ns(),
        name: 'upgraded',
      })
      const contentHash = (upgraded?.status as { contentHash?: string } | undefined)?.contentHash
      expect(adopted.metadata.annotations?.[ANNOTATIONS.classHash]).toBe(contentHash)
      // ... and the passes after it (the set's change, two sweeps handing the class) keep it.
      await new Promise((resolve) => setTimeout(resolve, 2.5 * sweepPeriodMs))
      const { md, sets } = await deploymentState(kube, ns(), name)
      console.log(
        `upgrade: ${created.size} Machines created, ${deleted.size} deleted, ${sets.length} MachineSets`,
      )
      expect(sets.map((s) => s.metadata.name)).toEqual([before.setName])
      expect({ created: created.size, deleted: deleted.size }).toEqual({ created: 0, deleted: 0 })
      const after = await readyMachines(3)
      expect(after.map((m) => m.metadata.uid).sort()).toEqual([...known].sort())
      expect(md.status?.conditions?.find((c) => c.type === 'Progressing')?.reason).toBe(
        'NewMachineSetAvailable',
      )
    } finally {
      await watch.stop()
    }

    // A later class edit rolls the Machines, with the change named.
    await kube.mergePatch(
      machineApiTypes.machineClass,
      { namespace: ns(), name: 'upgraded' },
      { spec: { providerSpec: { nodeLabels: { [revLabel]: '2' } } } },
    )
    const rolled = await waitFor(
      'the class edit rolled out',
      async () => {
        const machines = await allReady(3)
        if (!machines || machines.some((m) => known.has(m.metadata.uid))) return false
        return machines
      },
      { intervalMs: 500, timeoutMs: 120_000 },
    )
    expect(rolled).toHaveLength(3)
    const { sets } = await deploymentState(kube, ns(), name)
    const current = sets.find((s) => s.metadata.name !== before.setName)
    expect(JSON.parse(current?.metadata.annotations?.[ANNOTATIONS.rolloutReason] ?? '{}')).toEqual({
      reason: 'ClassChanged',
      message: `MachineClass upgraded changed (nodeLabels.${revLabel} 1 -> 2)`,
    })
  })
})
