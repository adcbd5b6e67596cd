/** @module `machine-api worker`: the long-running reconcile worker (in-process bus or JetStream). */

import type { CliCommand } from '../command'
import { startWorker } from '../entry/worker'
import { serveRuntime } from '../runtime-service'
import { controllersFlag, runtimeEnvHelp } from '../runtime-settings'

/** `worker`: the same process as `functions/worker.ts`. */
export const workerCommand: CliCommand = {
  name: 'worker',
  summary: 'run the reconcile worker (watches + queue, or a JetStream consumer)',
  description:
    'With --bus in-process it watches every selected kind, coalesces events per object and sweeps on a timer. With --bus jetstream it consumes keys from NATS JetStream; --bridge also publishes watch events as keys. Serves /healthz, /readyz and /metrics on $PORT. Stops on SIGTERM/SIGINT.',
  flags: {
    bus: {
      type: 'string',
      value: 'in-process|jetstream',
      description: 'event transport (default in-process; $BUS)',
    },
    bridge: {
      type: 'boolean',
      description: 'with --bus jetstream, also run the watch bridge ($WATCH_BRIDGE=1)',
    },
    controllers: controllersFlag,
  },
  env: {
    BUS: 'default of --bus',
    WATCH_BRIDGE: '1 = --bridge',
    EC2_NOTICES_QUEUE_URL:
      'SQS queue of EC2 notices (EventBridge) to record on Machines (default off)',
    AWS_SQS_ENDPOINT: 'SQS endpoint override (moto)',
    ...runtimeEnvHelp,
  },
  run: serveRuntime({ service: 'machine-api-worker', bus: true, start: startWorker }),
}
