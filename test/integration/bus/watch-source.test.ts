import { describe, expect, it, onTestFinished } from 'vitest'
import { type RestartCause, startWatchSource } from '../../../src/bus/watch-source'
import { coreTypes, type ResourceType } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import { realTimers } from '../../../src/timers'
import { testNamespace, waitFor } from '../../harness/kube'
import { useWidgetKube, widget, widgetType } from '../runtime/widget'

const { kc, kube } = useWidgetKube()

/** Starts a source on `type` in `namespace`, recording what it saw per name. */
function watch(
  type: ResourceType,
  namespace: string,
  options: { watchdogMs?: number; initialResourceVersion?: string },
) {
  const seen = new Map<string, string>()
  const restarts: RestartCause[] = []
  let relists = 0
  const source = startWatchSource({
    kube,
    type,
    namespace,
    timers: realTimers(),
    log: silentLogger(),
    ...options,
    onChange: (obj, change) => {
      const spec = obj.spec as { replicas?: number } | undefined
      seen.set(
        obj.metadata?.name ?? '',
        change === 'DELETED' ? 'deleted' : `${spec?.replicas ?? '-'}`,
      )
    },
    onRestart: (cause) => restarts.push(cause),
    onRelist: () => relists++,
  })
  onTestFinished(() => source.stop())
  return { seen, restarts, relists: () => relists, source }
}

describe('watch source', () => {
  it('relists after 410 Gone and misses no change', async () => {
    const namespace = await testNamespace(kc, 'watch-gone')
    for (const name of ['a', 'b', 'c']) await kube.create(widgetType, widget(namespace, name, 1))
    // The Widget watch cache began when its CRD was created; version 1 predates it: 410 Expired.
    const w = watch(widgetType, namespace, { initialResourceVersion: '1' })
    await waitFor('relist after 410', () => w.relists() === 1)
    expect(w.restarts).toEqual(['gone'])
    await waitFor('all objects from the relist', () => w.seen.size === 3)

    await kube.mergePatch(widgetType, { namespace, name: 'b' }, { spec: { replicas: 2 } })
    await kube.create(widgetType, widget(namespace, 'd', 1))
    await kube.delete(widgetType, { namespace, name: 'a' })
    await waitFor(
      'every later change',
      () => w.seen.get('b') === '2' && w.seen.get('d') === '1' && w.seen.get('a') === 'deleted',
    )
    expect(w.relists()).toBe(1)
  })

  it('restarts a stream silent past the watchdog period and still sees later changes', async () => {
    const namespace = await testNamespace(kc, 'watch-dog')
    const w = watch(coreTypes.configMap, namespace, { watchdogMs: 1500 })
    await w.source.ready()
    await waitFor('a watchdog restart', () => w.restarts.includes('watchdog'), {
      timeoutMs: 30_000,
    })
    // It resumed from the last version instead of listing again.
    expect(w.relists()).toBe(1)
    await kube.create(coreTypes.configMap, { metadata: { namespace, name: 'after' } })
    await waitFor('the change after the restart', () => w.seen.get('after') === '-')
  })
})
