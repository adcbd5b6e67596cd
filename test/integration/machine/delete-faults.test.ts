/**
 * Provider failures during deletion keep their type (regression): with the aws provider behind a
 * fault proxy in front of moto, a throttled DescribeInstances or TerminateInstances holds the
 * deletion for the provider's suggested delay (not a 500 ms backoff), a TerminateInstances that
 * never answers is a ProviderTimeout retried with backoff, and an invalid configuration (revoked
 * permissions) is a Deleting condition with its reason and one Event, re-checked slowly. Each is
 * the Deleting condition's reason and a Warning Event on the Machine, and the delete completes
 * once EC2 answers again.
 * Reconciles are driven directly so the EC2 calls between attempts can be counted exactly.
 */

import { CoreV1Api } from '@kubernetes/client-node'
import { beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { coreTypes } from '../../../src/kube/resource'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { defaultRetryAfterMs } from '../../../src/providers/errors'
import { createProviderRegistry } from '../../../src/providers/registry'
import { configurationRetryMs, type MachineDeps } from '../../../src/reconcile/machine/machine-deps'
import { machineController } from '../../../src/reconcile/machine/reconcile'
import { createRunner } from '../../../src/reconcile/runtime/runner'
import { useFaultyMoto } from '../providers/aws-fixture'
import { machineCondition, machineDeps, readMachine, useMachineTestApi } from './fixture'

const { api, namespace, kube } = useMachineTestApi('delf', { aws: awsProviderSpecSchema() })
const aws = useFaultyMoto()

beforeAll(async () => {
  await kube().create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: namespace(), name: 'aws' },
    stringData: { aws_access_key_id: 'AKIAMOTO00000000', aws_secret_access_key: 'moto' },
  })
})

function deps(providerCallTimeoutMs: number): MachineDeps {
  return {
    ...machineDeps(kube(), createProviderRegistry([aws().provider])),
    providerCallTimeoutMs,
  }
}

/** One reconcile through the runner, as a transport runs it: its outcome schedules the next. */
async function reconcile(name: string, providerCallTimeoutMs = 30_000) {
  const runner = createRunner({
    controllers: [machineController],
    deps: deps(providerCallTimeoutMs),
  })
  return await runner.run({ kind: 'Machine', namespace: namespace(), name })
}

/** A provisioned Machine (one instance in moto), then deleted: the finalizer holds it. */
async function deletingMachine(name: string): Promise<void> {
  const ns = namespace()
  await kube().create(machineApiTypes.machine, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { namespace: ns, name },
    spec: {
      providerSpec: {
        provider: 'aws',
        value: aws().baseSpec,
      },
      nodeDeletionTimeout: '10s',
    },
  })
  await reconcile(name)
  expect((await readMachine(kube(), ns, name))?.status?.phase).toBe('Provisioned')
  await kube().delete(machineApiTypes.machine, { namespace: ns, name })
  aws().proxy.clear()
}

async function warningReasons(name: string): Promise<string[]> {
  const list = await api()
    .kc.makeApiClient(CoreV1Api)
    .listNamespacedEvent({ namespace: namespace() })
  return list.items
    .filter((e) => e.involvedObject?.name === name && e.type === 'Warning')
    .map((e) => e.reason ?? '')
}

/** Reconciles until the Machine is gone (the instance terminates in moto within a few passes). */
async function reconcileUntilGone(name: string): Promise<void> {
  for (let pass = 0; pass < 10 && (await readMachine(kube(), namespace(), name)); pass++) {
    await reconcile(name)
  }
  expect(await readMachine(kube(), namespace(), name)).toBeUndefined()
}

describe('provider failures while deleting a Machine', () => {
  it.each([
    ['DescribeInstances', 'the instance lookup'],
    ['TerminateInstances', 'the termination'],
  ])('a throttled %s (%s) is retried after the provider delay, not hot', async (action) => {
    const name = `throttled-${action.toLowerCase()}`
    await deletingMachine(name)
    aws().proxy.inject({ action, code: 'RequestLimitExceeded', status: 503 })

    const outcome = await reconcile(name)
    // The SDK's own attempts (3, adaptive mode) are the only ones inside the reconcile.
    expect(aws().proxy.injected()).toEqual({ [`${action}/RequestLimitExceeded`]: 3 })
    // The next attempt is scheduled no earlier than EC2's throttling delay.
    expect(outcome).toEqual({ type: 'requeue', afterMs: defaultRetryAfterMs.Throttled })
    const machine = await readMachine(kube(), namespace(), name)
    expect(machine?.status?.phase).toBe('Deleting')
    expect(machineCondition(machine, 'Deleting')).toMatchObject({
      status: 'True',
      reason: 'Throttled',
    })
    expect(await warningReasons(name)).toContain('Throttled')

    aws().proxy.clearFaults()
    await reconcileUntilGone(name)
  })

  it('a TerminateInstances that never answers is a ProviderTimeout condition and Event, retried with backoff', async () => {
    const name = 'timed-out-terminate'
    await deletingMachine(name)
    aws().proxy.inject({ action: 'TerminateInstances', code: 'NoAnswer', status: 0, hang: true })

    // The call is aborted after its own timeout; the SDK does not retry an aborted call.
    const outcome = await reconcile(name, 2_000)
    expect(aws().proxy.injected()).toEqual({ 'TerminateInstances/NoAnswer': 1 })
    // No delay of its own: the runner's per-key backoff paces the retry.
    expect(outcome).toMatchObject({ type: 'retry', reason: 'ProviderTimeout' })
    const machine = await readMachine(kube(), namespace(), name)
    expect(machine?.status?.phase).toBe('Deleting')
    expect(machineCondition(machine, 'Deleting')).toMatchObject({
      status: 'True',
      reason: 'ProviderTimeout',
    })
    expect(await warningReasons(name)).toContain('ProviderTimeout')

    aws().proxy.clearFaults()
    await reconcileUntilGone(name)
  })

  it('an invalid configuration is a condition with its reason, re-checked slowly, not hot', async () => {
    const name = 'unauthorized'
    await deletingMachine(name)
    aws().proxy.inject({ action: 'TerminateInstances', code: 'UnauthorizedOperation', status: 403 })

    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await reconcile(name)).toEqual({ type: 'requeue', afterMs: configurationRetryMs })
      // Not retryable: per reconcile one TerminateInstances with the access recorded with the
      // instance and, since a refusal may mean rotated credentials, one more with the class read
      // fresh (recorded-access.ts); nothing in between.
      expect(aws().proxy.counts().TerminateInstances).toBe(2 * attempt)
    }
    const machine = await readMachine(kube(), namespace(), name)
    expect(machine?.status?.phase).toBe('Deleting')
    expect(machineCondition(machine, 'Deleting')).toMatchObject({
      status: 'True',
      reason: 'Unauthorized',
    })
    expect(machineCondition(machine, 'Deleting')?.message).toContain('credentialsSecret')
    expect((await warningReasons(name)).filter((r) => r === 'Unauthorized')).toHaveLength(1)

    aws().proxy.clearFaults()
    await reconcileUntilGone(name)
  })
})
