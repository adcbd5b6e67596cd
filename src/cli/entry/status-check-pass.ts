/**
 * @module The status-check pass as the sweeps run it (the sweep CronJob, the Knative function's
 * PingSource tick): with the process's deps and its controllers' providers. Loaded on first use.
 */
import type { RuntimeDeps } from '../../deps'
import type { ProviderRegistry } from '../../providers/registry'

/** Runs the pass once over `namespace` (all namespaces when undefined); never throws. */
export async function runStatusCheckPass(
  deps: RuntimeDeps,
  providers: ProviderRegistry,
  namespace: string | undefined,
): Promise<void> {
  const { sweepStatusChecks } = await import('../../reconcile/machine/status-check-sweep')
  await sweepStatusChecks({
    kube: deps.kube,
    providers,
    log: deps.log,
    fieldManager: deps.fieldManager,
    now: () => deps.clock.now(),
    namespace,
  })
}
