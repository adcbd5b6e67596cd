/**
 * Two installations of machine-api in one AWS account (issue 42 item 6): each tags its instances
 * with its own owner, derived from its cluster's kube-system namespace UID, and its orphan sweep
 * with termination on never terminates the other's instances. Before, both used the constant
 * `machine-api` and each terminated the other's instances as orphans.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { installationOwner } from '../../../src/cli/installation-owner'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { createDefaultProviders } from '../../../src/providers/default-registry'
import type { ProviderRegistry } from '../../../src/providers/registry'
import { testKubeConfig } from '../../harness/kube'
import { region, useMoto } from './aws-fixture'
import { newMachine } from './conformance'

const moto = useMoto()
const kube = createKubeClient(createHttpTransport(testKubeConfig(), () => {}))
const registries: ProviderRegistry[] = []
afterAll(async () => {
  await Promise.all(registries.map((r) => r.close()))
  kube.close()
})

const later = () => new Date(Date.now() + 60 * 60_000)

function installation(ownerId: string) {
  const env = { AWS_EC2_ENDPOINT: moto().moto.endpoint, AWS_REGION: region }
  const registry = createDefaultProviders(env, { ownerId, legacyOwnerIds: ['machine-api'] })
  registries.push(registry)
  const aws = registry.get('aws')
  if (!aws?.sweepOrphans) throw new Error('the aws provider has no orphan sweep')
  return { actuator: aws.actuator, sweep: aws.sweepOrphans.bind(aws) }
}

describe('two installations in one AWS account', () => {
  it('derive their owner from the cluster, and MACHINE_API_OWNER_ID overrides it', async () => {
    const system = await kube.get<KubeObject>(coreTypes.namespace, { name: 'kube-system' })
    expect(await installationOwner(kube, {})).toEqual({
      ownerId: `machine-api-${system?.metadata?.uid}`,
      source: 'kube-system namespace UID',
      legacyOwnerIds: ['machine-api'],
    })
    expect(await installationOwner(kube, { MACHINE_API_OWNER_ID: 'fleet-a' })).toMatchObject({
      ownerId: 'fleet-a',
      legacyOwnerIds: [],
    })
  })

  it("never terminate each other's instances as orphans", async () => {
    const { ctx } = moto().context()
    const a = installation('machine-api-cluster-a')
    const b = installation('machine-api-cluster-b')
    const ofA = newMachine('of-a')
    const ofB = newMachine('of-b')
    await a.actuator.create(ctx, ofA)
    await b.actuator.create(ctx, ofB)
    const request = {
      providerSpec: moto().baseSpec,
      secrets: ctx.secrets,
      signal: ctx.signal,
      now: later,
      terminate: true,
    }

    // Each cluster knows only its own Machine: to A, B's instance has no Machine.
    const sweptByA = await a.sweep({
      ...request,
      machineUids: async () => new Set([ofA.metadata.uid]),
    })
    const sweptByB = await b.sweep({
      ...request,
      machineUids: async () => new Set([ofB.metadata.uid]),
    })
    expect(sweptByA).toEqual([])
    expect(sweptByB).toEqual([])
    expect(await moto().tagged(ofA.metadata.uid)).toHaveLength(1)
    expect(await moto().tagged(ofB.metadata.uid)).toHaveLength(1)

    // Once A's Machine is gone its instance is A's orphan, and only A terminates it.
    const none = async () => new Set<string>()
    expect(
      await b.sweep({ ...request, machineUids: async () => new Set([ofB.metadata.uid]) }),
    ).toEqual([])
    const orphaned = await a.sweep({ ...request, machineUids: none })
    expect(orphaned).toEqual([
      expect.objectContaining({ machineUid: ofA.metadata.uid, terminate: true }),
    ])
    expect(await moto().tagged(ofA.metadata.uid)).toEqual([])
    expect(await moto().tagged(ofB.metadata.uid)).toHaveLength(1)
  })
})
