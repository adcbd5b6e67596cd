/**
 * @module `machine-api dev interrupt <machine>`: sends a real-format EC2 notice (a spot interruption
 * warning unless --kind says otherwise) about the Machine's instance to the notice queue of
 * `npm run dev`, or of any queue named with --queue-url, so the replacement can be watched.
 */
import { z } from 'zod'
import { interruptKinds } from '../../dev/interrupt-event'
import { readDevSession } from '../../dev/session'
import { type CliCommand, UsageError } from '../command'
import { parseConfig, sourced } from '../config'

const schema = z.object({
  kind: z.enum(interruptKinds).default('spot'),
  namespace: z.string().min(1).optional(),
  kubeconfig: z.string().min(1).optional(),
  queueUrl: z.url().optional(),
  sqsEndpoint: z.url().optional(),
  region: z.string().min(1).optional(),
})

/** `dev interrupt`. */
export const devInterruptCommand: CliCommand = {
  name: 'interrupt',
  args: '<machine>',
  summary: 'send an EC2 notice about a Machine to the demo queue (default: a spot interruption)',
  description:
    "Reads the Machine, takes its instance from spec.providerID and sends the notice EC2 or AWS Health would send, in the documented EventBridge shape, to the queue the EC2 notice source polls: by default the one `npm run dev` created (its session file names the kubeconfig, queue and moto's SQS endpoint). Watch it with `kubectl get machines -w`: the Machine's InstanceHealthy turns False and its MachineSet replaces it (a rebalance recommendation only when the set's spec.interruption.rebalanceRecommendation is Replace).\nKinds: spot (Spot Instance Interruption Warning, 2 minutes), rebalance (Instance Rebalance Recommendation), maintenance (AWS Health scheduled system maintenance, 15 minutes ahead), stopping and terminated (Instance State-change Notification, stopping / shutting-down).",
  flags: {
    kind: {
      type: 'string',
      value: interruptKinds.join('|'),
      description: 'which notice (default spot)',
    },
    namespace: {
      type: 'string',
      short: 'n',
      value: 'NS',
      description: "the Machine's namespace (default: the demo's, else default)",
    },
    kubeconfig: {
      type: 'string',
      value: 'PATH',
      description: 'kubeconfig (default: the demo session, then $KUBECONFIG)',
    },
    'queue-url': {
      type: 'string',
      value: 'URL',
      description: 'SQS queue (default: the demo session, then $EC2_NOTICES_QUEUE_URL)',
    },
  },
  env: {
    EC2_NOTICES_QUEUE_URL: 'default of --queue-url',
    AWS_SQS_ENDPOINT: 'SQS endpoint (moto; default: the demo session)',
    AWS_REGION: 'the queue region (default: the demo session, else the URL, else eu-west-1)',
    KUBECONFIG: 'default of --kubeconfig',
  },
  async run(values, io, positionals) {
    const [name, ...extra] = positionals
    if (!name || extra.length > 0) throw new UsageError('name exactly one Machine')
    const session = readDevSession()
    const flags = parseConfig(schema, {
      kind: sourced(values, {}, { flag: 'kind' }),
      namespace: sourced(values, {}, { flag: 'namespace' }),
      kubeconfig: sourced(values, {}, { flag: 'kubeconfig' }),
      queueUrl: sourced(values, io.env, { flag: 'queue-url', env: 'EC2_NOTICES_QUEUE_URL' }),
      sqsEndpoint: sourced(values, io.env, { env: 'AWS_SQS_ENDPOINT' }),
      region: sourced(values, io.env, { env: 'AWS_REGION' }),
    })
    const queueUrl = flags.queueUrl ?? session?.queueUrl
    if (!queueUrl) {
      throw new UsageError(
        '--queue-url: no queue (start `npm run dev` with the aws provider, or set $EC2_NOTICES_QUEUE_URL)',
      )
    }
    const region =
      flags.region ??
      session?.region ??
      /^https?:\/\/sqs\.([a-z0-9-]+)\.amazonaws\.com/.exec(queueUrl)?.[1] ??
      'eu-west-1'
    const sqsEndpoint = flags.sqsEndpoint ?? (flags.queueUrl ? undefined : session?.sqsEndpoint)
    // Loaded here: the rest of the CLI never needs the SQS client or a kube client. The SDK comes
    // through our re-export, which survives bundling (see ec2-notice-sdk.ts).
    const [{ SQSClient }, { loadKubeConfig }, { createKubeClient }, { createHttpTransport }] =
      await Promise.all([
        import('../entry/ec2-notice-sdk'),
        import('../../kube/kube-config'),
        import('../../kube/dynamic-client'),
        import('../../kube/http-transport'),
      ])
    const { sendInterruption } = await import('../../dev/interrupt')
    const kc = loadKubeConfig(flags.kubeconfig ?? session?.kubeconfig)
    const namespace =
      flags.namespace ??
      session?.namespace ??
      kc.getContextObject(kc.getCurrentContext())?.namespace ??
      'default'
    const kube = createKubeClient(createHttpTransport(kc, () => {}))
    const sqs = new SQSClient({
      region,
      ...(sqsEndpoint ? { endpoint: sqsEndpoint } : {}),
      // moto takes any keys; a real queue uses the SDK's default chain.
      ...(sqsEndpoint && !io.env.AWS_ACCESS_KEY_ID
        ? { credentials: { accessKeyId: 'demo', secretAccessKey: 'demo' } }
        : {}),
    })
    try {
      const sent = await sendInterruption(
        { kube, sqs },
        { namespace, name, kind: flags.kind, queueUrl, region, now: new Date() },
      )
      io.stdout(
        `sent ${flags.kind} for Machine ${namespace}/${name} (instance ${sent.instanceId}) to ${queueUrl}\nwatch: kubectl -n ${namespace} get machines -w\n`,
      )
      return 0
    } finally {
      sqs.destroy()
      kube.close()
    }
  },
}
