/**
 * @module A spot fleet's world on moto for the interruption tests: a VPC of the file's own with one
 * tagged subnet in each of three zones (its instances' private DNS names, the Node names, are the
 * file's alone), the credentials Secret, spot-capable MachineClasses over those subnets with a short
 * unavailableOfferingTTL, and the time of a spot warning sent a little before its deadline.
 */
import { CreateSubnetCommand, CreateVpcCommand } from '@aws-sdk/client-ec2'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { MachineClass } from '../../../src/api/v1beta1/machine-class'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes } from '../../../src/kube/resource'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import { waitFor } from '../../harness/kube'
import { machinesOf } from '../full-stack/objects'
import { type AwsFixture, awsCredentialsSecret, region } from '../providers/aws-fixture'

/** The world's zones. */
export const zones = [`${region}a`, `${region}b`, `${region}c`]
/** EC2's spot warning comes 2 minutes before the instance goes. */
const spotWarningMs = 120_000

/** A world in `namespace`: tag `tier`, CIDR 10.`octet`.0.0/16. */
export interface SpotWorld {
  moto: () => AwsFixture
  kube: () => KubeClient
  namespace: () => string
  tier: string
  octet: number
}

/** Creates the VPC, the subnets and the credentials Secret. */
export async function setUpSpotWorld(world: SpotWorld): Promise<void> {
  const ec2 = world.moto().ec2
  const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: `10.${world.octet}.0.0/16` }))
  for (const [index, zone] of zones.entries()) {
    await ec2.send(
      new CreateSubnetCommand({
        VpcId: vpc.Vpc?.VpcId,
        CidrBlock: `10.${world.octet}.${index + 1}.0/24`,
        AvailabilityZone: zone,
        TagSpecifications: [{ ResourceType: 'subnet', Tags: [{ Key: 'tier', Value: world.tier }] }],
      }),
    )
  }
  await world.kube().create(coreTypes.secret, awsCredentialsSecret(world.namespace()))
}

/** A MachineClass as read. */
export type ClassObject = MachineClass & { metadata: { name: string } }

/** The class `name` of the world's namespace. */
export async function readClass(world: SpotWorld, name: string): Promise<ClassObject | undefined> {
  return await world
    .kube()
    .get<ClassObject>(machineApiTypes.machineClass, { namespace: world.namespace(), name })
}

/** Creates class `name` (t3.micro with these capacity types, TTL `ttlMs`); waits for its 3 zones. */
export async function createSpotClass(
  world: SpotWorld,
  name: string,
  options: { capacityTypes: string[]; ttlMs: number },
): Promise<void> {
  const { credentialsSecret: _c, subnet: _s, ...spec } = world.moto().baseSpec
  await world.kube().create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: world.namespace(), name },
    spec: {
      provider: 'aws',
      providerSpec: {
        ...spec,
        instanceType: 't3.micro',
        capacityTypes: options.capacityTypes,
        spot: {},
        subnets: [{ filters: [{ name: 'tag:tier', values: [world.tier] }] }],
      },
      credentialsSecretRef: { name: 'aws' },
      unavailableOfferingTTL: `${options.ttlMs / 1000}s`,
    },
  })
  await waitFor(
    'the class zones',
    async () => (await readClass(world, name))?.status?.zones?.length === 3,
  )
}

/** The Machines of set `name`. */
export async function machinesOfSet(world: SpotWorld, name: string): Promise<MachineObject[]> {
  return (await machinesOf(world.kube(), world.namespace())).filter((m) =>
    m.metadata.ownerReferences?.some((o) => o.name === name),
  )
}

/**
 * The time to give a spot warning sent now so that its deadline is `leftMs` away (EventBridge
 * gives seconds), and the expiry the class then lists it until with TTL `ttlMs`.
 */
export function spotWarningTime(leftMs: number, ttlMs: number): { at: Date; expiresAt: string } {
  const at = new Date(Math.floor((Date.now() - spotWarningMs + leftMs) / 1000) * 1000)
  return { at, expiresAt: new Date(at.getTime() + spotWarningMs + ttlMs).toISOString() }
}
