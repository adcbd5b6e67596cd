import { describe, expect, it } from 'vitest'
import type { Runner } from '../../../src/bus/run-outcome'
import type { ObjectKey } from '../../../src/kube/object-key'
import { coreTypes } from '../../../src/kube/resource'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { testNamespace } from '../../harness/kube'
import {
  testDeps,
  useWidgetKube,
  widget,
  widgetController,
  widgetState,
  widgetType,
} from './widget'

const { kc, kube } = useWidgetKube()

const count = 50
const names = Array.from({ length: count }, (_, i) => `w-${String(i).padStart(2, '0')}`)

/** Runs a key until it is done, re-running at once after a lost race (as a transport would). */
async function settle(runner: Runner, key: ObjectKey): Promise<number> {
  for (let attempt = 1; attempt <= 30; attempt++) {
    const outcome = await runner.run(key)
    if (outcome.type === 'done' || outcome.type === 'requeue') return attempt
    if (outcome.type !== 'retry') throw new Error(`unexpected outcome ${outcome.type}`)
  }
  throw new Error(`${key.name} did not settle`)
}

const replicasOf = (i: number) => 1 + (i % 4)

async function createWidgets(namespace: string): Promise<void> {
  await Promise.all(
    names.map((name, i) => kube.create(widgetType, widget(namespace, name, replicasOf(i)))),
  )
}

async function endState(namespace: string) {
  return await Promise.all(names.map((name) => widgetState(kube, namespace, name)))
}

describe('concurrent reconciles', () => {
  it('8 reconciles of each of 50 objects at once end as a serial run does, without duplicates', async () => {
    let runs = 0
    const runner = createRunner({
      controllers: [widgetController(() => runs++)],
      deps: testDeps(kube),
    })

    const serialNs = await testNamespace(kc, 'rt-serial')
    await createWidgets(serialNs)
    for (const name of names) await settle(runner, { kind: 'Widget', namespace: serialNs, name })

    const concurrentNs = await testNamespace(kc, 'rt-concurrent')
    await createWidgets(concurrentNs)
    await Promise.all(
      names.flatMap((name) =>
        Array.from({ length: 8 }, () =>
          settle(runner, { kind: 'Widget', namespace: concurrentNs, name }),
        ),
      ),
    )

    // All 8 x 50 ran (plus re-runs after lost races).
    expect(runs).toBeGreaterThanOrEqual(count + 8 * count)

    const serial = await endState(serialNs)
    const concurrent = await endState(concurrentNs)
    expect(concurrent).toEqual(serial)
    // Every Widget has exactly its replicas as children.
    const replicas = names.reduce((sum, _name, i) => sum + replicasOf(i), 0)
    const all = await kube.list(coreTypes.configMap, {
      namespace: concurrentNs,
      labelSelector: 'widget',
    })
    expect(all.items).toHaveLength(replicas)
    expect(new Set(all.items.map((c) => c.metadata?.name)).size).toBe(all.items.length)
  })
})
