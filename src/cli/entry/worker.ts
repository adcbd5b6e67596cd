/**
 * @module The long-running worker's composition: either the in-process bus (watches + queue +
 * sweep timer) or the JetStream worker (plus, optionally, the watch bridge), the EC2 notice source
 * when a queue is configured, and the health endpoints. `functions/worker.ts` only calls this.
 */
import { startInProcessBus } from '../../bus/in-process-bus'
import { createHttpApp } from '../../http/app'
import { listen } from '../../http/listen'
import { apiserverCheck } from '../../observability/apiserver-check'
import { healthRoutes } from '../../observability/health'
import { runtimeWiring, type StartRuntimeService } from '../runtime-service'
import { startEc2Notices } from './ec2-notices'

/** Starts the worker; resolves with the health port and a stop function once it runs. */
export const startWorker: StartRuntimeService = async (deps, settings, controllers, env = {}) => {
  const { runner, mappers, reconciled, watched } = runtimeWiring(deps, controllers)
  const stops: Array<() => Promise<void> | void> = []
  // First, so a bad queue setting stops the worker before anything runs. A notice it records
  // changes the Machine, whose watch (or ApiServerSource) brings it to the Machine reconcile.
  const stopNotices = await startEc2Notices(deps, settings, env)
  if (stopNotices) stops.push(stopNotices)
  let ready = false

  if (settings.bus === 'in-process') {
    const bus = startInProcessBus({
      kube: deps.kube,
      runner,
      reconciled,
      watched,
      mappers,
      timers: deps.timers,
      log: deps.log,
      metrics: deps.metrics,
      concurrency: settings.concurrency,
      sweepPeriodMs: settings.sweepPeriodMs,
      namespace: settings.namespace,
    })
    stops.push(() => bus.stop())
    void bus.ready().then(() => {
      ready = true
    })
  } else {
    // Only this transport needs the NATS client: imported here so in-process workers never load it.
    const { startJetStreamBus } = await import('./jetstream-bus')
    stops.push(...(await startJetStreamBus({ deps, settings, runner, watched, mappers })))
    ready = true
  }

  // Not ready while the apiserver does not answer (an outage): the worker keeps running and
  // resumes on its own, but must not report that it can do its work.
  const probed = controllers[0]?.resource
  const apiserver = apiserverCheck({
    timers: deps.timers,
    probe: async () =>
      probed && (await deps.kube.list(probed, { namespace: settings.namespace, limit: 1 })),
  })
  const health = await listen(
    healthRoutes(createHttpApp(deps.log), {
      ready: { started: () => ready, apiserver },
      metrics: deps.registry,
    }),
    settings.port,
  )
  deps.log.info({ bus: settings.bus, kinds: runner.kinds(), port: health.port }, 'worker running')
  return {
    port: health.port,
    async stop() {
      for (const stop of stops) await stop()
      await health.close()
    },
  }
}
