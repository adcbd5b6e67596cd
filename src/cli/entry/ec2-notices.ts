/**
 * @module The worker's optional EC2 notice source, configured from the environment; off unless
 * $EC2_NOTICES_QUEUE_URL names the SQS queue the EventBridge rules feed (docs/operations.md).
 *
 * - `EC2_NOTICES_QUEUE_URL`: the queue, e.g. https://sqs.eu-west-1.amazonaws.com/123456789012/machine-api-notices
 * - `AWS_REGION`: its region, else the one in an sqs.<region>.amazonaws.com URL.
 * - `AWS_SQS_ENDPOINT`, `AWS_EC2_ENDPOINT`: endpoint overrides (moto in the demo and tests).
 * - `K_SINK`: set by Knative (ContainerSource) on the knative overlay's source: each recorded
 *   notice is also posted there as a CloudEvent naming the Machine (notice-event.ts).
 *
 * Credentials come from the SDK's default chain (IRSA, the instance profile, the environment),
 * not from a MachineClass: the queue and the look-up belong to the deployment, not to a class.
 */
import type { RuntimeDeps, RuntimeSettings } from '../../deps'
import { UsageError } from '../command'

/** The source's settings, or undefined when it is off. */
export interface Ec2NoticeSettings {
  queueUrl: string
  region: string
  sqsEndpoint?: string | undefined
  ec2Endpoint?: string | undefined
  /** Where to post a CloudEvent per recorded notice (Knative's $K_SINK). */
  sink?: string | undefined
}

/** Reads the settings; throws UsageError naming the variable when they are unusable. */
export function ec2NoticeSettings(env: NodeJS.ProcessEnv): Ec2NoticeSettings | undefined {
  const queueUrl = env.EC2_NOTICES_QUEUE_URL?.trim()
  if (!queueUrl) return undefined
  if (!/^https?:\/\/\S+\/\d{12}\/[\w-]+(\.fifo)?$/.test(queueUrl)) {
    throw new UsageError(
      'EC2_NOTICES_QUEUE_URL: must be an SQS queue URL, https://sqs.<region>.amazonaws.com/<account>/<queue>',
    )
  }
  const region =
    env.AWS_REGION ?? /^https?:\/\/sqs\.([a-z0-9-]+)\.amazonaws\.com/.exec(queueUrl)?.[1]
  if (!region)
    throw new UsageError('AWS_REGION: required when EC2_NOTICES_QUEUE_URL names no region')
  return {
    queueUrl,
    region,
    sqsEndpoint: env.AWS_SQS_ENDPOINT ?? undefined,
    ec2Endpoint: env.AWS_EC2_ENDPOINT ?? undefined,
    sink: env.K_SINK?.trim() || undefined,
  }
}

/** Starts the source when configured; resolves with its stop, or undefined when off. */
export async function startEc2Notices(
  deps: RuntimeDeps,
  settings: RuntimeSettings,
  env: NodeJS.ProcessEnv,
): Promise<(() => Promise<void>) | undefined> {
  const notices = ec2NoticeSettings(env)
  if (!notices) return undefined
  // Loaded only when configured: most workers never need the SQS client.
  const [
    { SQSClient, EC2Client },
    { startEc2NoticeSource },
    { machinesForInstances },
    { noticeEvent, postNoticeEvent },
  ] = await Promise.all([
    import('./ec2-notice-sdk'),
    import('../../bus/ec2-notices/sqs-source'),
    import('../../providers/aws/instance-owner'),
    import('../../bus/ec2-notices/notice-event'),
  ])
  const { sink } = notices
  const { region } = notices
  const sqs = new SQSClient({
    region,
    ...(notices.sqsEndpoint ? { endpoint: notices.sqsEndpoint } : {}),
  })
  const ec2 = new EC2Client({
    region,
    ...(notices.ec2Endpoint ? { endpoint: notices.ec2Endpoint } : {}),
  })
  const lookup = { kube: deps.kube, ec2, namespace: settings.namespace }
  const source = startEc2NoticeSource({
    sqs,
    queueUrl: notices.queueUrl,
    region,
    clock: deps.clock,
    kube: deps.kube,
    log: deps.log.child({ source: 'ec2-notices' }),
    fieldManager: deps.fieldManager,
    registry: deps.registry,
    machinesForInstances: (ids, signal) => machinesForInstances(lookup, ids, signal),
    recorded: sink
      ? (machine, notice) => {
          const ref = {
            apiVersion: machine.apiVersion,
            namespace: machine.metadata.namespace ?? '',
            name: machine.metadata.name ?? '',
          }
          return postNoticeEvent(sink, noticeEvent(ref, notice), AbortSignal.timeout(10_000))
        }
      : undefined,
  })
  return async () => {
    await source.stop()
    sqs.destroy()
    ec2.destroy()
  }
}
