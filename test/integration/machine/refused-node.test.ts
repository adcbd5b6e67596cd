/**
 * A kwok Machine whose Node the apiserver refuses (here a ValidatingAdmissionPolicy on Nodes, the
 * same answer an invalid label or quantity gets) shows the refusal as a condition and a Warning
 * Event. A 403 is retried with backoff; a 422 (invalid) fails the Machine for good, saying what to
 * change. Each attempt writes the Machine (a create claim, its status), and each write comes back
 * as a watch event for the same key: before the runner held such wakes until the backoff was due,
 * this Machine reconciled about ten times a second forever (223 reconciles in an 8 s window).
 */
import { CoreV1Api, type CoreV1Event } from '@kubernetes/client-node'
import { describe, expect, it, onTestFinished } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { ObjectKey } from '../../../src/kube/object-key'
import type { MachineDeps } from '../../../src/reconcile/machine/machine-deps'
import { machineController } from '../../../src/reconcile/machine/reconcile'
import type { Controller } from '../../../src/reconcile/runtime/controller'
import { waitFor } from '../../harness/kube'
import { refuseNodeLabel, refuseNodes } from '../../harness/refuse-nodes'
import {
  kwokMachine,
  machineCondition,
  machineDeps,
  readMachine,
  startMachineController,
  testProviders,
  useMachineTestApi,
} from './fixture'

const { api, namespace, kube } = useMachineTestApi('refused')

/** The Machine controller on the in-process bus, counting reconciles per Machine name. */
async function runCountingController(deps: MachineDeps, ns: string) {
  const starts = new Map<string, number[]>()
  const counting: Controller<MachineDeps> = {
    ...machineController,
    reconcile(d, key: ObjectKey, observed, related) {
      starts.set(key.name, [...(starts.get(key.name) ?? []), performance.now()])
      return machineController.reconcile(d, key, observed, related)
    },
  }
  onTestFinished(await startMachineController(deps, ns, { controller: counting }))
  return (name: string, from: number, to: number) =>
    (starts.get(name) ?? []).filter((t) => t >= from && t < to).length
}

async function warnings(ns: string, name: string): Promise<CoreV1Event[]> {
  const list = await api().kc.makeApiClient(CoreV1Api).listNamespacedEvent({ namespace: ns })
  return list.items.filter((e) => e.involvedObject?.name === name && e.type === 'Warning')
}

/** A kwok Machine whose Node carries the label the refusal policy of `value` matches. */
function refusedMachine(ns: string, name: string, value: string) {
  return kwokMachine(ns, name, {
    providerSpec: { provider: 'kwok', value: { nodeLabels: { [refuseNodeLabel]: value } } },
  })
}

/** Reconciles of `name` in a window of `ms` from now, and the window's length in seconds. */
async function measured(
  reconciles: (name: string, from: number, to: number) => number,
  name: string,
  ms: number,
) {
  const from = performance.now()
  await new Promise((resolve) => setTimeout(resolve, ms))
  const to = performance.now()
  return { count: reconciles(name, from, to), seconds: (to - from) / 1000 }
}

describe('a Machine whose Node the apiserver refuses', () => {
  it('shows a refusal it may outlive (403) and retries with backoff, not on its own writes', async () => {
    const ns = namespace()
    const message = 'this cluster refuses the Node'
    onTestFinished(await refuseNodes({ kube: kube(), kc: api().kc }, ns, 'Forbidden', message))
    const reconciles = await runCountingController(machineDeps(kube(), testProviders()), ns)
    await kube().create(machineApiTypes.machine, refusedMachine(ns, 'refused', ns))
    const shown = await waitFor('the refusal on the Machine', async () => {
      const m = await readMachine(kube(), ns, 'refused')
      return machineCondition(m, 'InfrastructureReady')?.message?.includes(message) && m
    })
    expect(machineCondition(shown, 'InfrastructureReady')).toMatchObject({
      status: 'False',
      reason: 'ProviderError',
    })
    await waitFor('a Warning Event', async () =>
      (await warnings(ns, 'refused')).some((e) => e.message?.includes(message)),
    )
    // A measured window past the first retries: backoff doubles from 500 ms, the sweep adds one
    // run per 5 s. Woken by its own writes, this Machine reconciled 223 times in 8 s; the window
    // outlasts the sweep period, so at least one run falls in it.
    const { count, seconds } = await measured(reconciles, 'refused', 5500)
    expect(count).toBeGreaterThan(0)
    expect(count).toBeLessThanOrEqual(Math.ceil(seconds))
    expect((await readMachine(kube(), ns, 'refused'))?.status?.nodeRef).toBeUndefined()
  })

  it('fails for good on a refusal no retry can fix (422), saying what to change', async () => {
    const ns = namespace()
    const value = `${ns}-invalid`
    const message = 'metadata.labels: this label is invalid here'
    onTestFinished(await refuseNodes({ kube: kube(), kc: api().kc }, value, 'Invalid', message))
    const reconciles = await runCountingController(machineDeps(kube(), testProviders()), ns)
    await kube().create(machineApiTypes.machine, refusedMachine(ns, 'invalid', value))
    const failed = await waitFor('the Machine Failed', async () => {
      const m = await readMachine(kube(), ns, 'invalid')
      return m?.status?.phase === 'Failed' && m
    })
    expect(failed.status?.failureReason).toBe('InvalidProviderOutput')
    expect(failed.status?.failureMessage).toContain('change them')
    expect(failed.status?.failureMessage).toContain(message)
    await waitFor('a Warning Event', async () =>
      (await warnings(ns, 'invalid')).some((e) => e.reason === 'InvalidProviderOutput'),
    )
    // Not retried until the spec changes: only its own last writes and the 5 s sweep wake it.
    const { count } = await measured(reconciles, 'invalid', 3000)
    expect(count).toBeLessThanOrEqual(3)
  })
})
