/**
 * A MachineClass that follows the newest AMI matching its filters (ami.follow: Newest), on moto
 * with every controller running: the class publishes the image in status.image, its Machines
 * launch it, and a newer matching image (CopyImage, created later) is published on the next sweep
 * and rolls the deployment using the class with reason ImageChanged, its new Machines on it.
 */
import { CopyImageCommand, CreateSubnetCommand, CreateVpcCommand } from '@aws-sdk/client-ec2'
import { beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { MachineClass } from '../../../src/api/v1beta1/machine-class'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { waitFor } from '../../harness/kube'
import { useMachineTestApi } from '../machine/fixture'
import { awsCredentialsSecret, region, useMoto } from '../providers/aws-fixture'
import { playKubelet } from './aws-kubelet'
import { startFullStack } from './fixture'
import { deploymentLabel, isRunningMachine, machinesOf } from './objects'

const moto = useMoto()
const { api, namespace, kube } = useMachineTestApi('image-follow', { aws: awsProviderSpecSchema() })

/** A copy of moto's AMI named `name` (created now, so newer than every earlier one). */
async function newImage(name: string): Promise<string> {
  const out = await moto().ec2.send(
    new CopyImageCommand({ SourceImageId: moto().amiId, SourceRegion: region, Name: name }),
  )
  return out.ImageId ?? ''
}

beforeAll(async () => {
  const ns = namespace()
  // A VPC of its own: Node names are the instances' private DNS names, shared across files.
  const vpc = await moto().ec2.send(new CreateVpcCommand({ CidrBlock: '10.80.0.0/16' }))
  await moto().ec2.send(
    new CreateSubnetCommand({
      VpcId: vpc.Vpc?.VpcId,
      CidrBlock: '10.80.1.0/24',
      AvailabilityZone: `${region}a`,
      TagSpecifications: [
        { ResourceType: 'subnet', Tags: [{ Key: 'tier', Value: 'image-follow-test' }] },
      ],
    }),
  )
  await kube().create(coreTypes.secret, awsCredentialsSecret(ns))
})

async function imageOfClass(ns: string): Promise<string | undefined> {
  const cls = await kube().get<MachineClass & KubeObject>(machineApiTypes.machineClass, {
    namespace: ns,
    name: 'follows',
  })
  return cls?.status?.image?.id
}

describe('a MachineClass following the newest AMI of its filters (moto)', () => {
  it('publishes it, launches it, and rolls its deployment to a newer one with reason ImageChanged', async () => {
    const ns = namespace()
    const first = await newImage('image-follow-1')
    await startFullStack(kube(), ns, createProviderRegistry([moto().provider]))
    playKubelet(api().kc, kube(), ns)
    const { credentialsSecret: _c, subnet: _s, ami: _a, ...spec } = moto().baseSpec
    await kube().create(machineApiTypes.machineClass, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineClass',
      metadata: { namespace: ns, name: 'follows' },
      spec: {
        provider: 'aws',
        providerSpec: {
          ...spec,
          ami: {
            filters: [{ name: 'name', values: ['image-follow-*'] }],
            owners: ['self'],
            follow: 'Newest',
          },
          subnet: { filters: [{ name: 'tag:tier', values: ['image-follow-test'] }] },
        },
        credentialsSecretRef: { name: 'aws' },
      },
    })
    await waitFor('the class publishes the first image', async () => {
      return (await imageOfClass(ns)) === first
    })
    const labels = { [deploymentLabel]: 'workers' }
    await kube().create(machineApiTypes.machineDeployment, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineDeployment',
      metadata: { namespace: ns, name: 'workers' },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { classRef: { name: 'follows' }, nodeDeletionTimeout: '10s' },
        },
      },
    })
    const running = (image: string) => async () => {
      const machines = await machinesOf(kube(), ns)
      const on = machines.filter(
        (m) => isRunningMachine(m) && m.status?.builtFrom?.imageId === image,
      )
      return machines.length === 2 && on.length === 2 && on
    }
    const timing = { intervalMs: 300, timeoutMs: 90_000 }
    const before = await waitFor('2 Machines running the first image', running(first), timing)

    const second = await newImage('image-follow-2')
    // The sweep (10 s) asks again: no event tells the class of a new image.
    await waitFor(
      'the class publishes the newer image',
      async () => {
        return (await imageOfClass(ns)) === second
      },
      timing,
    )
    const after = await waitFor('2 Machines running the newer image', running(second), timing)
    const old = new Set(before.map((m) => m.metadata.name))
    expect(after.filter((m) => old.has(m.metadata.name))).toEqual([])
    const events = await kube().list<KubeObject & { reason?: string; message?: string }>(
      coreTypes.event,
      { namespace: ns },
    )
    const rolled = events.items.filter((e) => e.reason === 'ImageChanged')
    expect(rolled.map((e) => e.message)).toEqual([
      expect.stringContaining(
        `MachineClass follows has a newer image (image ${first} -> ${second})`,
      ),
    ])
  })
})
