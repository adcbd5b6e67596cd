/**
 * @module `machine-api dev interrupt`: sends a real-format EC2 notice about a Machine's instance to
 * the notice queue, as EventBridge would, so the whole path (queue -> notice source -> Machine ->
 * its set's replacement) runs for real in the demo.
 */
import { randomUUID } from 'node:crypto'
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { machineApiTypes } from '../api/resource-types'
import type { Machine } from '../api/v1beta1/machine'
import type { KubeClient } from '../kube/kube-client'
import { parseAwsProviderID } from '../providers/aws/provider-id'
import { type InterruptKind, interruptionEvent } from './interrupt-event'

/** A Machine that cannot be interrupted: not found, or no EC2 instance (yet). */
export class NotInterruptibleError extends Error {
  override readonly name = 'NotInterruptibleError'
}

/** What to send and where. */
export interface InterruptRequest {
  namespace: string
  name: string
  kind: InterruptKind
  queueUrl: string
  region: string
  now: Date
}

/** Sends the notice; resolves with the instance it names and the SQS message id. */
export async function sendInterruption(
  deps: { kube: KubeClient; sqs: SQSClient },
  request: InterruptRequest,
): Promise<{ instanceId: string; messageId: string | undefined }> {
  const { namespace, name } = request
  const machine = await deps.kube.get<Machine>(machineApiTypes.machine, { namespace, name })
  if (!machine) throw new NotInterruptibleError(`Machine ${namespace}/${name} not found`)
  const instanceId = parseAwsProviderID(machine.spec.providerID)
  if (!instanceId) {
    throw new NotInterruptibleError(
      `Machine ${namespace}/${name} has no EC2 instance (spec.providerID ${machine.spec.providerID ?? 'unset'}): only aws Machines with a launched instance get EC2 notices`,
    )
  }
  // The account in the queue URL (https://sqs.<region>.amazonaws.com/<account>/<name>).
  const account = /\/(\d{12})\/[^/]+$/.exec(request.queueUrl)?.[1] ?? '123456789012'
  const body = interruptionEvent(request.kind, {
    instanceId,
    region: request.region,
    account,
    id: randomUUID(),
    now: request.now,
  })
  const sent = await deps.sqs.send(
    new SendMessageCommand({ QueueUrl: request.queueUrl, MessageBody: body }),
  )
  return { instanceId, messageId: sent.MessageId }
}
