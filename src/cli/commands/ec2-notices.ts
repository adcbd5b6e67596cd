/** @module `machine-api ec2-notices`: the EC2 notice source alone (SQS -> the Machines' annotation). */
import { createDeps } from '../../deps'
import type { CliCommand } from '../command'
import { startEc2NoticeService } from '../entry/ec2-notice-service'
import { parseRuntimeSettings, runtimeEnvHelp } from '../runtime-settings'
import { stopOnSignals } from '../signals'

/** `ec2-notices`: the same process as `functions/ec2-notices.ts`. */
export const ec2NoticesCommand: CliCommand = {
  name: 'ec2-notices',
  summary: 'poll the SQS queue of EC2 notices and record each on its Machine',
  description:
    "Long-polls $EC2_NOTICES_QUEUE_URL (EventBridge: spot interruption warnings, rebalance recommendations, state changes, AWS Health scheduled changes), finds each instance's Machine by its ownership tags and records the notice in the Machine's machine-api.dev/instance-notice annotation, then deletes the message. With $K_SINK (a Knative ContainerSource) it also posts a CloudEvent naming the Machine there. Serves /healthz, /readyz and /metrics on $PORT. Stops on SIGTERM/SIGINT.",
  flags: {},
  env: {
    EC2_NOTICES_QUEUE_URL: 'the SQS queue the EventBridge rules feed (required)',
    AWS_REGION: 'its region, when the URL names none',
    AWS_SQS_ENDPOINT: 'SQS endpoint override (moto)',
    AWS_EC2_ENDPOINT: 'EC2 endpoint override (moto)',
    K_SINK: 'post a CloudEvent per recorded notice here (set by Knative)',
    ...runtimeEnvHelp,
  },
  // Not serveRuntime: it builds the controllers, which this process never runs nor bundles.
  async run(values, io) {
    const settings = parseRuntimeSettings(values, io.env)
    const deps = createDeps('machine-api-ec2-notices')
    const service = await startEc2NoticeService(deps, settings, io.env)
    stopOnSignals(async (signal) => {
      deps.log.info({ signal }, 'stopping')
      await service.stop().finally(() => deps.close())
    })
    return 'running'
  },
}
