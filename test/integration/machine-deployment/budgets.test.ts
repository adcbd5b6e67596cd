/**
 * expireAfter and disruption budgets against the real apiserver, the MachineDeployment and
 * MachineSet reconcilers driven pass by pass (the test plays the Machine controller, as drive.ts
 * does). Time comes from an injected clock, so a Machine's hour-long lifetime or a scheduled
 * window is reached by setting the clock, not by waiting. It is only ever set ahead of real time:
 * readiness is measured from Ready conditions written at real time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { Clock } from '../../../src/clock'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { MachineDeploymentObject } from '../../../src/reconcile/machine-deployment/machine-sets'
import { listMachines } from '../../../src/reconcile/machine-set/reconcile'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { countingKube, testDeps } from '../machine-set/fixture'
import { deploymentManifest, driveUntil, pass, readDeployment, rolledOut } from './drive'

const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'md-budgets')
let kube: KubeClient
let deps: ReconcileDeps
/** The injected clock: real time until a test sets `at`. */
const clock: Clock & { at: Date | undefined } = {
  at: undefined,
  now() {
    return this.at ?? new Date()
  },
}

beforeAll(() => {
  kube = countingKube(api().kc).kube
  deps = { ...testDeps(kube), clock }
})
afterAll(() => kube.close())

const hour = 3_600_000
const patchDeployment = (name: string, patch: object) =>
  kube.mergePatch(machineApiTypes.machineDeployment, { namespace: ns(), name }, patch)
const templateSpec = (spec: object) => ({ spec: { template: { spec } } })
const machinesOf = async (name: string) =>
  (await listMachines(kube, ns())).filter((m) => m.metadata.labels?.md === name)
const created = (m: MachineObject) => Date.parse(m.metadata.creationTimestamp ?? '')
const heldCondition = (md: MachineDeploymentObject) =>
  md.status?.conditions?.find((c) => c.type === 'ReplacementsHeld')

/** Waits until real time is past the second of `timestamp` (creationTimestamp has 1 s resolution). */
async function pastSecondOf(timestamp: number): Promise<void> {
  await waitFor('the next second', () => Date.now() > timestamp + 1000 || false, { intervalMs: 50 })
}

/**
 * A rolled-out deployment `name` whose Machines were created in distinct seconds, oldest first
 * (scaled up one at a time); returns their names in creation order and the instant after them.
 */
async function deploymentWithAges(name: string, replicas: number, spec: object = {}) {
  await kube.create(
    machineApiTypes.machineDeployment,
    deploymentManifest(ns(), name, { replicas: 1, ...spec }),
  )
  await driveUntil(deps, ns(), name, (md) => rolledOut(md))
  for (let n = 2; n <= replicas; n++) {
    const newest = Math.max(...(await machinesOf(name)).map(created))
    await pastSecondOf(newest)
    await patchDeployment(name, { spec: { replicas: n } })
    await driveUntil(deps, ns(), name, (md) => rolledOut(md) && md.spec.replicas === n)
  }
  const machines = (await machinesOf(name)).sort((a, b) => created(a) - created(b))
  const last = Math.max(...machines.map(created))
  await pastSecondOf(last)
  // Every Machine so far was created at or before `after`; every later one after it.
  return { names: machines.map((m) => m.metadata.name), after: last + 999 }
}

describe('expireAfter and disruption budgets', () => {
  it('expireAfter replaces the oldest Machine first, surge first, and never rolls the template', async () => {
    const name = 'expiry'
    const { names, after } = await deploymentWithAges(name, 3)
    clock.at = new Date(after + hour)
    await patchDeployment(name, templateSpec({ expireAfter: '1h' }))
    const gone: string[] = []
    let most = 0
    let fewestReady = Number.POSITIVE_INFINITY
    await waitFor(
      'every expired Machine to be replaced',
      async () => {
        await pass(deps, ns(), name)
        const now = await machinesOf(name)
        most = Math.max(most, now.length)
        const ready = now.filter((m) => m.status?.conditions?.some((c) => c.type === 'Ready'))
        fewestReady = Math.min(fewestReady, ready.length)
        for (const old of names) {
          if (!gone.includes(old) && !now.some((m) => m.metadata.name === old)) gone.push(old)
        }
        return gone.length === names.length && now.length === 3 ? now : false
      },
      { intervalMs: 20, timeoutMs: 60_000 },
    )
    clock.at = undefined
    expect(gone).toEqual(names)
    expect(most).toBe(4)
    expect(fewestReady).toBeGreaterThanOrEqual(3)
    const { sets } = await readDeployment(deps, ns(), name)
    expect(sets).toHaveLength(1)
  })

  it('a budget of 0 holds every voluntary replacement: expiry and a template rollout', async () => {
    const name = 'held'
    const { names, after } = await deploymentWithAges(name, 2, {
      disruption: { budgets: [{ machines: 0 }] },
    })
    clock.at = new Date(after + hour)
    await patchDeployment(name, templateSpec({ expireAfter: '1h' }))
    const expiry = await driveUntil(
      deps,
      ns(),
      name,
      (md, sets) =>
        heldCondition(md)?.status === 'True' &&
        sets.some((s) =>
          s.status?.conditions?.some((c) => c.type === 'ReplacementsHeld' && c.status === 'True'),
        ),
    )
    expect(heldCondition(expiry.md)?.message).toMatch(
      /2 expired Machines .* spec\.disruption\.budgets\[0\] \(0 Machines\) allows 0/,
    )
    await patchDeployment(name, templateSpec({ classRef: { name: 'b' } }))
    const rollout = await driveUntil(
      deps,
      ns(),
      name,
      (md, sets) =>
        sets.length === 2 &&
        (heldCondition(md)?.message.startsWith('Rollout replacements held') ?? false),
    )
    expect(rollout.sets.map((s) => s.spec.replicas ?? 0).sort()).toEqual([0, 2])
    for (let i = 0; i < 5; i++) await pass(deps, ns(), name)
    clock.at = undefined
    const left = (await machinesOf(name)).map((m) => m.metadata.name).sort()
    expect(left).toEqual([...names].sort())
  })

  it('a scheduled window holds a rollout while open and lets it through once closed', async () => {
    const name = 'window'
    const tomorrow = new Date(Date.now() + 24 * hour).toISOString().slice(0, 10)
    const at = (time: string) => new Date(`${tomorrow}T${time}Z`)
    clock.at = at('10:00:00')
    await kube.create(
      machineApiTypes.machineDeployment,
      deploymentManifest(ns(), name, {
        replicas: 2,
        disruption: { budgets: [{ machines: 0, schedule: '30 9 * * *', duration: '1h' }] },
      }),
    )
    // Creating Machines replaces nothing: the open window does not hold it.
    await driveUntil(deps, ns(), name, (md) => rolledOut(md))
    await patchDeployment(name, templateSpec({ classRef: { name: 'b' } }))
    const held = await driveUntil(deps, ns(), name, (md) => heldCondition(md)?.status === 'True')
    expect(heldCondition(held.md)?.message).toContain(
      `the budget changes at ${at('10:30:00').toISOString()}`,
    )
    clock.at = at('10:30:00')
    const done = await driveUntil(
      deps,
      ns(),
      name,
      (md) => rolledOut(md) && md.status?.updatedReplicas === 2,
    )
    clock.at = undefined
    expect(heldCondition(done.md)?.status).toBe('False')
    const classes = (await machinesOf(name)).map((m) => m.spec?.classRef?.name)
    expect(classes).toEqual(['b', 'b'])
  })
})
