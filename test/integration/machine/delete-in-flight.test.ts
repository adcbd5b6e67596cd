/**
 * A Machine deleted while its create is in flight (issue 42 item 2), against moto through the
 * fault proxy with EC2's eventual consistency on: the RunInstances answer is slow (the instance
 * exists in EC2, the worker does not know its id yet), the Machine is deleted meanwhile, and the
 * launched instance is not yet visible to tag or ClientToken lookups. The deletion used to find
 * nothing, remove the finalizer at once and leak the instance (the orphan sweep only reports by
 * default). Now the create claim holds the finalizer, the passes look again by tag and by
 * ClientToken, and the instance is terminated before the Machine goes.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { coreTypes } from '../../../src/kube/resource'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { createClaimAnnotation } from '../../../src/reconcile/machine/claim-holder'
import type { MachineDeps } from '../../../src/reconcile/machine/machine-deps'
import { reconcileMachine } from '../../../src/reconcile/machine/reconcile'
import { useFaultyMoto } from '../providers/aws-fixture'
import { machineCondition, machineDeps, readMachine, useMachineTestApi } from './fixture'

const { namespace, kube } = useMachineTestApi('inflight', { aws: awsProviderSpecSchema() })
const aws = useFaultyMoto()

/** The create claim runs out 1.25 x this after it was taken (10 s). */
const providerCallTimeoutMs = 8_000
/** EC2's lag after a launch, here for tag and ClientToken lookups alike (the pessimistic case). */
const lag = { tagMs: 4_000, idMs: 4_000 }

beforeAll(async () => {
  await kube().create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: namespace(), name: 'aws' },
    stringData: { aws_access_key_id: 'AKIAMOTO00000000', aws_secret_access_key: 'moto' },
  })
})

function deps(): MachineDeps {
  return {
    ...machineDeps(kube(), createProviderRegistry([aws().provider])),
    providerCallTimeoutMs,
    deletionRetryMs: 500,
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(100)
  }
}

describe('a Machine deleted while its create is in flight', () => {
  it('keeps its finalizer until the instance the create launched is found and terminated', async () => {
    const ns = namespace()
    const name = 'in-flight'
    const key = { kind: 'Machine', namespace: ns, name }
    aws().proxy.lag(lag)
    aws().proxy.delay({ action: 'RunInstances', ms: 2_000, times: 1 })
    await kube().create(machineApiTypes.machine, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'Machine',
      metadata: { namespace: ns, name },
      spec: {
        providerSpec: { provider: 'aws', value: aws().baseSpec },
        nodeDeletionTimeout: '10s',
      },
    })
    const uid = (await readMachine(kube(), ns, name))?.metadata.uid ?? ''

    // The create: finalizer and claim, then RunInstances, whose answer is held back.
    const creating = reconcileMachine(deps(), key).then(
      () => 'done',
      (error: unknown) => String(error),
    )
    await until('the launch', () => (aws().proxy.counts().RunInstances ?? 0) >= 1)
    expect((await readMachine(kube(), ns, name))?.metadata.annotations).toHaveProperty(
      createClaimAnnotation,
    )
    await kube().delete(machineApiTypes.machine, { namespace: ns, name })
    // The instance exists in EC2, but nothing can find it yet.
    expect(await aws().tagged(uid)).toHaveLength(1)

    await reconcileMachine(deps(), key)
    const held = await readMachine(kube(), ns, name)
    expect(held, 'the finalizer went with the instance still running').toBeDefined()
    expect(machineCondition(held, 'Deleting')).toMatchObject({ reason: 'WaitingForCreateClaim' })

    // The create's answer arrives (recorded on the fresh Machine: the second test); the passes
    // meanwhile had nothing to find.
    await creating
    for (let pass = 0; pass < 60 && (await readMachine(kube(), ns, name)); pass++) {
      const { requeueAfterMs } = await reconcileMachine(deps(), key).catch(() => ({
        requeueAfterMs: 500,
      }))
      await sleep(Math.min(requeueAfterMs ?? 500, 500))
    }
    expect(await readMachine(kube(), ns, name)).toBeUndefined()
    expect(await aws().tagged(uid)).toEqual([])
    const gone = await aws().tagged(uid, ['shutting-down', 'terminated'])
    expect(gone).toHaveLength(1)
    expect(aws().proxy.injected()['DescribeInstances/Lagged']).toBeGreaterThan(0)
  })

  it('records the instance a create launched after the deletion began, and goes once it terminated, not when the claim runs out', async () => {
    const ns = namespace()
    const name = 'in-flight-recorded'
    const key = { kind: 'Machine', namespace: ns, name }
    aws().proxy.lag({ tagMs: 0, idMs: 0 })
    aws().proxy.delay({ action: 'RunInstances', ms: 2_000, times: 1 })
    await kube().create(machineApiTypes.machine, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'Machine',
      metadata: { namespace: ns, name },
      spec: {
        providerSpec: { provider: 'aws', value: aws().baseSpec },
        nodeDeletionTimeout: '10s',
      },
    })
    const uid = (await readMachine(kube(), ns, name))?.metadata.uid ?? ''
    const launches = aws().proxy.counts().RunInstances ?? 0
    const creating = reconcileMachine(deps(), key).catch(() => ({}))
    await until('the launch', () => (aws().proxy.counts().RunInstances ?? 0) > launches)
    await kube().delete(machineApiTypes.machine, { namespace: ns, name })
    await creating

    // The Machine changed under the create (its deletion began): the instance is recorded on it
    // all the same, with a deletion's claim that ends once that instance is seen terminating.
    const recorded = await readMachine(kube(), ns, name)
    const [instance] = await aws().tagged(uid, [
      'pending',
      'running',
      'shutting-down',
      'terminated',
    ])
    expect(instance?.InstanceId).toBeDefined()
    expect(recorded?.spec.providerID).toContain(instance?.InstanceId)
    expect(recorded?.metadata.annotations?.[createClaimAnnotation]).toMatch(/ deleting$/)

    const reasons: string[] = []
    for (let pass = 0; pass < 20 && (await readMachine(kube(), ns, name)); pass++) {
      const { requeueAfterMs } = await reconcileMachine(deps(), key).catch(() => ({
        requeueAfterMs: 500,
      }))
      const reason = machineCondition(await readMachine(kube(), ns, name), 'Deleting')?.reason
      if (reason) reasons.push(reason)
      await sleep(Math.min(requeueAfterMs ?? 500, 500))
    }
    expect(await readMachine(kube(), ns, name)).toBeUndefined()
    expect(reasons).not.toContain('WaitingForCreateClaim')
    expect(await aws().tagged(uid)).toEqual([])
  })
})
