/**
 * @module The EC2 notice source deployed on its own (`machine-api ec2-notices`): the SQS source
 * (ec2-notices.ts) and the health endpoints, no controllers. A notice it records changes the
 * Machine, whose watch (or the knative overlay's ApiServerSource, and its own CloudEvent to
 * $K_SINK) brings it to the Machine reconcile wherever that runs.
 */

import { machineApiTypes } from '../../api/resource-types'
import type { RuntimeDeps, RuntimeSettings } from '../../deps'
import { createHttpApp } from '../../http/app'
import { listen } from '../../http/listen'
import { apiserverCheck } from '../../observability/apiserver-check'
import { healthRoutes } from '../../observability/health'
import { UsageError } from '../command'
import type { RuntimeService } from '../runtime-service'
import { startEc2Notices } from './ec2-notices'

/** Starts the source; throws UsageError when no queue is configured. */
export async function startEc2NoticeService(
  deps: RuntimeDeps,
  settings: RuntimeSettings,
  env: NodeJS.ProcessEnv,
): Promise<RuntimeService> {
  const stop = await startEc2Notices(deps, settings, env)
  if (!stop) throw new UsageError('EC2_NOTICES_QUEUE_URL: required (the SQS queue to poll)')
  const apiserver = apiserverCheck({
    timers: deps.timers,
    probe: () =>
      deps.kube.list(machineApiTypes.machine, { namespace: settings.namespace, limit: 1 }),
  })
  const health = await listen(
    healthRoutes(createHttpApp(deps.log), {
      ready: { started: () => true, apiserver },
      metrics: deps.registry,
    }),
    settings.port,
  )
  deps.log.info({ port: health.port }, 'EC2 notice source running')
  return {
    port: health.port,
    async stop() {
      await stop()
      await health.close()
    },
  }
}
