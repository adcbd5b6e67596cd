/**
 * @module The one-shot sweep (CronJob / PingSource-less installs): lists every selected kind page
 * by page and either publishes each key to JetStream (when NATS_URL is set, sweep-publish.ts) or
 * reconciles it here with bounded concurrency. Memory holds one page plus the pool, whatever the fleet size.
 */
import { type SweepReport, sweep } from '../../bus/sweep'
import type { RuntimeDeps, RuntimeSettings } from '../../deps'
import type { ObjectKey } from '../../kube/object-key'
import type { HeldObject } from '../../kube/read-once'
import type { KubeObject } from '../../kube/resource'
import { createPool } from '../../pool'
import type { Controller, ReconcileDeps } from '../../reconcile/runtime/controller'
import { createRunner } from '../../reconcile/runtime/runner'

/** Runs one sweep; the report's `failedKinds` is non-empty when a kind could not be listed. */
export async function sweepOnce(
  deps: RuntimeDeps,
  settings: RuntimeSettings,
  controllers: readonly Controller<ReconcileDeps>[],
): Promise<SweepReport> {
  const types = controllers.map((c) => c.resource)
  if (settings.natsUrl) {
    // Only this mode needs the NATS client: imported here so an in-process sweep never loads it.
    const { sweepToJetStream } = await import('./sweep-publish')
    return await sweepToJetStream(
      deps,
      { natsUrl: settings.natsUrl, namespace: settings.namespace },
      types,
    )
  }
  const runner = createRunner({ controllers, deps, metrics: deps.metrics })
  const pool = createPool(settings.concurrency)
  const enqueue = (key: ObjectKey, listed: KubeObject, related: readonly HeldObject[]) =>
    pool.submit(async () => void (await runner.run(key, listed, related)))
  const report = await sweep({
    kube: deps.kube,
    types,
    log: deps.log,
    namespace: settings.namespace,
    enqueue,
    related: (type) => runner.related(type.kind),
  })
  await pool.drain()
  return report
}
