/**
 * A kwok Machine whose Node the apiserver refuses (here a ValidatingAdmissionPolicy on Nodes, the
 * same answer an invalid label or quantity gets) retries with backoff. Each attempt writes the
 * Machine (a create claim, its status), and each write comes back as a watch event for the same
 * key: before the runner held such wakes until the backoff was due, this Machine reconciled about
 * ten times a second forever (223 reconciles in the 8 s window).
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { startInProcessBus } from '../../../src/bus/in-process-bus'
import { machineApiMappers, watchedTypes } from '../../../src/bus/machine-api-mappers'
import type { ObjectKey } from '../../../src/kube/object-key'
import type { MachineDeps } from '../../../src/reconcile/machine/machine-deps'
import { machineController } from '../../../src/reconcile/machine/reconcile'
import type { Controller } from '../../../src/reconcile/runtime/controller'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { realTimers } from '../../../src/timers'
import { waitFor } from '../../harness/kube'
import { refuseNodeLabel, refuseNodes } from '../../harness/refuse-nodes'
import { kwokMachine, machineDeps, readMachine, testProviders, useMachineTestApi } from './fixture'

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
  const bus = startInProcessBus({
    kube: deps.kube,
    runner: createRunner({ controllers: [counting], deps }),
    reconciled: [machineApiTypes.machine],
    watched: watchedTypes([counting]),
    mappers: machineApiMappers(['Machine']),
    timers: realTimers(),
    log: deps.log,
    namespace: ns,
    concurrency: 4,
    sweepPeriodMs: 5000,
  })
  onTestFinished(() => bus.stop())
  await bus.ready()
  return (name: string, from: number, to: number) =>
    (starts.get(name) ?? []).filter((t) => t >= from && t < to).length
}

describe('a Machine whose Node the apiserver refuses', () => {
  it('retries with backoff, not on its own writes', async () => {
    const ns = namespace()
    onTestFinished(
      await refuseNodes(
        { kube: kube(), kc: api().kc },
        ns,
        'Forbidden',
        'this cluster refuses the Node',
      ),
    )
    const reconciles = await runCountingController(machineDeps(kube(), testProviders()), ns)
    await kube().create(
      machineApiTypes.machine,
      kwokMachine(ns, 'refused', {
        providerSpec: { provider: 'kwok', value: { nodeLabels: { [refuseNodeLabel]: ns } } },
      }),
    )
    await waitFor(
      'the first attempts',
      () => reconciles('refused', 0, Number.POSITIVE_INFINITY) >= 2,
    )
    // A measured window well past the first retries: backoff doubles from 500 ms, the sweep
    // adds one run per 5 s. Woken by its own writes, this was ~10 reconciles a second.
    const from = performance.now()
    await new Promise((resolve) => setTimeout(resolve, 8000))
    const to = performance.now()
    const seconds = (to - from) / 1000
    const count = reconciles('refused', from, to)
    expect(count).toBeGreaterThan(0)
    expect(count).toBeLessThanOrEqual(Math.ceil(seconds))
    expect((await readMachine(kube(), ns, 'refused'))?.status?.nodeRef).toBeUndefined()
  })
})
