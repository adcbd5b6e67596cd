/**
 * @module An SQS queue on moto with the EC2 notice source reading it for one namespace, as
 * EventBridge feeds it in production: tests send EventBridge bodies (test/harness/ec2-notice-bodies.ts)
 * and the source records them on the Machines. Stopped when the test finishes.
 */
import type { EC2Client } from '@aws-sdk/client-ec2'
import { CreateQueueCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs'
import { Registry } from 'prom-client'
import { onTestFinished } from 'vitest'
import { startEc2NoticeSource } from '../../../src/bus/ec2-notices/sqs-source'
import type { KubeClient } from '../../../src/kube/kube-client'
import { silentLogger } from '../../../src/observability/logger'
import { machinesForInstances } from '../../../src/providers/aws/instance-owner'
import { uniqueName } from '../../harness/kube'
import { region } from '../providers/aws-fixture'

/** Starts the source on a new queue; returns a sender of message bodies. */
export async function startNoticeQueue(world: {
  endpoint: string
  ec2: EC2Client
  kube: KubeClient
  namespace: string
}): Promise<(body: string) => Promise<unknown>> {
  const sqs = new SQSClient({
    region,
    endpoint: world.endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  })
  onTestFinished(() => sqs.destroy())
  const queue = await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('interrupt') }))
  const queueUrl = queue.QueueUrl ?? ''
  const { kube, ec2, namespace } = world
  const source = startEc2NoticeSource({
    sqs,
    queueUrl,
    region,
    kube,
    machinesForInstances: (ids, signal) =>
      machinesForInstances({ kube, ec2, namespace }, ids, signal),
    log: silentLogger(),
    fieldManager: 'machine-api-test',
    registry: new Registry(),
    waitSeconds: 1,
  })
  onTestFinished(() => source.stop())
  return (body) => sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }))
}
