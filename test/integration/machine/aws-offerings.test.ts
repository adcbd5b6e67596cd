/**
 * A MachineSet of 9 Machines of one MachineClass over 3 instance types x 3 zones on moto, the first
 * type without capacity in two zones (misses injected per offering by the fault proxy), with every
 * controller on the in-process bus: the set balances them 3/3/3 over the zones the MachineClass
 * controller found, and every Machine runs on exactly one instance in its zone, the
 * class's status lists the two misses with their expiry, a later sibling never asks for a listed
 * offering, and the MachineClass controller drops the list once it expires; and a reconcile that
 * dies after a fallback launch leaves one instance however the rerun's offerings look.
 */
import { CreateSubnetCommand, CreateVpcCommand } from '@aws-sdk/client-ec2'
import { CoreV1Api } from '@kubernetes/client-node'
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { Machine } from '../../../src/api/v1beta1/machine'
import type { MachineClass } from '../../../src/api/v1beta1/machine-class'
import { coreTypes } from '../../../src/kube/resource'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { reconcileMachine } from '../../../src/reconcile/machine/reconcile'
import { reconcileMachineClass } from '../../../src/reconcile/machine-class/reconcile'
import { waitFor } from '../../harness/kube'
import { kwokNodeAnnotation } from '../../harness/nodes'
import { startFullStack } from '../full-stack/fixture'
import { awsCredentialsSecret, useFaultyMoto } from '../providers/aws-fixture'
import { machineDeps, readMachine, useMachineTestApi } from './fixture'

const aws = useFaultyMoto()
const { api, namespace, kube } = useMachineTestApi('offer', { aws: awsProviderSpecSchema() })
const zones = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c']
/** The test's own subnet of each zone, and back. */
const zoneOfSubnet = new Map<string, string>()

beforeAll(async () => {
  const ns = namespace()
  // A VPC of its own: its instances' private DNS names (the Node names) are this file's alone,
  // while other files' moto servers hand out the same addresses in their default subnets.
  const vpc = await aws().ec2.send(new CreateVpcCommand({ CidrBlock: '10.77.0.0/16' }))
  for (const [index, zone] of zones.entries()) {
    const out = await aws().ec2.send(
      new CreateSubnetCommand({
        VpcId: vpc.Vpc?.VpcId,
        CidrBlock: `10.77.${index + 1}.0/24`,
        AvailabilityZone: zone,
        TagSpecifications: [
          { ResourceType: 'subnet', Tags: [{ Key: 'tier', Value: 'offerings-test' }] },
        ],
      }),
    )
    zoneOfSubnet.set(out.Subnet?.SubnetId ?? '', zone)
  }
  await kube().create(coreTypes.secret, awsCredentialsSecret(ns))
  const { credentialsSecret: _c, instanceType: _t, subnet: _s, ...spec } = aws().baseSpec
  await kube().create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns, name: 'fleet' },
    spec: {
      provider: 'aws',
      providerSpec: {
        ...spec,
        instanceTypes: ['t3.micro', 't3.small', 't3.medium'],
        subnets: [{ filters: [{ name: 'tag:tier', values: ['offerings-test'] }] }],
      },
      credentialsSecretRef: { name: 'aws' },
    },
  })
})

/** Every RunInstances the provider sent, as `type zone` (each SDK retry too). */
function recordLaunches(): string[] {
  const launches: string[] = []
  aws().proxy.inject({
    action: 'RunInstances',
    code: 'never',
    status: 500,
    when: (params) => {
      const zone = zoneOfSubnet.get(params.get('SubnetId') ?? '') ?? '?'
      launches.push(`${params.get('InstanceType')} ${zone}`)
      return false
    },
  })
  return launches
}

function noCapacity(type: string, zone: string) {
  aws().proxy.inject({
    action: 'RunInstances',
    code: 'InsufficientInstanceCapacity',
    status: 500,
    when: (params) =>
      params.get('InstanceType') === type &&
      zoneOfSubnet.get(params.get('SubnetId') ?? '') === zone,
  })
}

function machine(ns: string, name: string, zone?: string): Machine {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { namespace: ns, name },
    spec: {
      classRef: { name: 'fleet' },
      nodeDeletionTimeout: '10s',
      ...(zone ? { failureDomain: zone } : {}),
    },
  }
}

async function machines(ns: string): Promise<Machine[]> {
  return (await kube().list<Machine>(machineApiTypes.machine, { namespace: ns })).items
}

/** Plays the kubelet: registers a Node for every Machine whose instance is launched. */
async function joinNodes(ns: string): Promise<void> {
  const core = api().kc.makeApiClient(CoreV1Api)
  for (const m of await machines(ns)) {
    const providerID = m.spec.providerID
    if (!providerID || m.status?.nodeRef) continue
    const [instance] = await aws().tagged(m.metadata.uid ?? '')
    const name = instance?.PrivateDnsName
    if (!name || (await kube().get(coreTypes.node, { name }))) continue
    onTestFinished(() => core.deleteNode({ name }).then(() => undefined))
    await core.createNode({
      body: {
        metadata: { name, annotations: { [kwokNodeAnnotation]: 'fake' } },
        spec: { providerID },
      },
    })
  }
}

async function readClass(ns: string): Promise<MachineClass | undefined> {
  return await kube().get<MachineClass>(machineApiTypes.machineClass, {
    namespace: ns,
    name: 'fleet',
  })
}

/** Empties the class's memory of unavailable offerings. */
async function forgetMisses(ns: string): Promise<void> {
  const fleet = await readClass(ns)
  await kube().mergePatch(
    machineApiTypes.machineClass,
    { namespace: ns, name: 'fleet' },
    {
      metadata: { resourceVersion: fleet?.metadata.resourceVersion },
      status: { unavailableOfferings: [] },
    },
    { subresource: 'status' },
  )
}

describe('offerings of a MachineClass on aws (moto)', () => {
  it('runs 9 Machines of a set 3/3/3 past the misses, remembers them in the class, and forgets them on expiry', async () => {
    const ns = namespace()
    const launches = recordLaunches()
    noCapacity('t3.micro', 'eu-west-1a')
    noCapacity('t3.micro', 'eu-west-1b')
    const deps = machineDeps(kube(), createProviderRegistry([aws().provider]))
    await startFullStack(kube(), ns, createProviderRegistry([aws().provider]))
    // The MachineClass controller finds the zones the set balances over.
    await waitFor('the class zones', async () => (await readClass(ns))?.status?.zones?.length === 3)
    const started = Date.now()
    const labels = { set: 'fleet' }
    await kube().create(machineApiTypes.machineSet, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineSet',
      metadata: { namespace: ns, name: 'fleet' },
      spec: {
        replicas: 9,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { classRef: { name: 'fleet' }, nodeDeletionTimeout: '10s' },
        },
      },
    })

    await waitFor(
      '9 Running Machines',
      async () => {
        await joinNodes(ns)
        const all = await machines(ns)
        return all.filter((m) => m.status?.phase === 'Running').length === 9
      },
      { timeoutMs: 180_000, intervalMs: 500 },
    )
    // The set chose 3 zones x 3 Machines; one instance per Machine, in its zone, on the first
    // type with capacity there.
    const chosen = (await machines(ns)).map((m) => m.spec.failureDomain).sort()
    expect(chosen).toEqual(zones.flatMap((z) => [z, z, z]))
    const placed: string[] = []
    for (const m of await machines(ns)) {
      const instances = await aws().tagged(m.metadata.uid ?? '')
      expect(instances, m.metadata.name).toHaveLength(1)
      const [instance] = instances
      expect(instance?.Placement?.AvailabilityZone).toBe(m.spec.failureDomain)
      placed.push(`${instance?.InstanceType} ${instance?.Placement?.AvailabilityZone}`)
    }
    expect(placed.sort()).toEqual([
      ...Array(3).fill('t3.micro eu-west-1c'),
      ...Array(3).fill('t3.small eu-west-1a'),
      ...Array(3).fill('t3.small eu-west-1b'),
    ])

    // The class lists the two misses, each until about 3 minutes after it was found.
    const listed = (await readClass(ns))?.status?.unavailableOfferings ?? []
    expect(listed.map((o) => `${o.instanceType} ${o.zone}`).sort()).toEqual([
      't3.micro eu-west-1a',
      't3.micro eu-west-1b',
    ])
    for (const entry of listed) {
      expect(entry).toMatchObject({
        capacityType: 'on-demand',
        reason: 'InsufficientInstanceCapacity',
      })
      const expires = Date.parse(entry.expiresAt)
      expect(expires).toBeGreaterThan(started + 3 * 60_000 - 1_000)
      expect(expires).toBeLessThanOrEqual(Date.now() + 3 * 60_000)
    }

    // A sibling created now never asks for a listed offering: it launches at once elsewhere.
    launches.length = 0
    await kube().create(machineApiTypes.machine, machine(ns, 'late', 'eu-west-1a'))
    await waitFor('the late Machine launched', async () => {
      const late = (await machines(ns)).find((m) => m.metadata.name === 'late')
      return late?.spec.providerID !== undefined
    })
    expect(new Set(launches)).toEqual(new Set(['t3.small eu-west-1a']))

    // The MachineClass controller looks again when the first entry expires and drops it then.
    const classDeps = { ...deps, providers: createProviderRegistry([aws().provider]) }
    const key = { kind: 'MachineClass', namespace: ns, name: 'fleet' }
    // The running MachineClass controller writes too: a Conflict is retried with a fresh read.
    const reconcileClass = (d: typeof classDeps) =>
      waitFor('a MachineClass reconcile', () => reconcileMachineClass(d, key))
    const now = await reconcileClass(classDeps)
    expect(now.requeueAfterMs).toBeGreaterThan(0)
    expect(now.requeueAfterMs).toBeLessThanOrEqual(3 * 60_000)
    // t3.small is left in eu-west-1a and eu-west-1b: every zone can host a Machine now.
    expect((await readClass(ns))?.status?.zones).toEqual(zones)
    // With the other two types missed there too, eu-west-1a cannot: it leaves status.zones.
    const missedTo = new Date(Date.now() + 60_000).toISOString()
    const moreMisses = ['t3.small', 't3.medium'].map((instanceType) => ({
      instanceType,
      zone: 'eu-west-1a',
      capacityType: 'on-demand',
      reason: 'InsufficientInstanceCapacity',
      expiresAt: missedTo,
    }))
    await kube().mergePatch(
      machineApiTypes.machineClass,
      { namespace: ns, name: 'fleet' },
      { status: { unavailableOfferings: [...listed, ...moreMisses] } },
      { subresource: 'status' },
    )
    // The MachineClass controller hears of the change and narrows the zones.
    const narrowed = await waitFor('eu-west-1a out of status.zones', async () => {
      const status = (await readClass(ns))?.status
      return status?.zones?.length === 2 && status
    })
    expect(narrowed?.zones).toEqual(['eu-west-1b', 'eu-west-1c'])
    expect(narrowed?.offeredZones).toEqual(zones)
    const later = Math.max(...[...listed, ...moreMisses].map((o) => Date.parse(o.expiresAt))) + 1
    await reconcileClass({ ...classDeps, clock: { now: () => new Date(later) } })
    const fleet = await readClass(ns)
    expect(fleet?.status?.unavailableOfferings).toEqual([])
    // ...and lists every zone again for a MachineSet of this class to balance over.
    expect(fleet?.status?.zones).toEqual(zones)
  })

  it('a reconcile that dies after a fallback launch, rerun with the first offering back, keeps one instance', async () => {
    const ns = namespace()
    await forgetMisses(ns)
    noCapacity('t3.micro', 'eu-west-1a')
    await kube().create(machineApiTypes.machine, machine(ns, 'crash', 'eu-west-1a'))
    const key = { kind: 'Machine', namespace: ns, name: 'crash' }
    const providers = createProviderRegistry([aws().provider])
    // Dies on the providerID write, after t3.micro missed and t3.small launched.
    const dying = new Proxy(kube(), {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver)
        if (typeof value !== 'function' || prop !== 'mergePatch') return value
        return (...args: unknown[]) =>
          JSON.stringify(args[2]).includes('providerID')
            ? Promise.reject(new Error('process died'))
            : value.apply(target, args)
      },
    })
    await expect(reconcileMachine(machineDeps(dying, providers), key)).rejects.toThrow(
      'process died',
    )
    const uid = (await readMachine(kube(), ns, 'crash'))?.metadata.uid ?? ''
    expect((await aws().tagged(uid)).map((i) => i.InstanceType)).toEqual(['t3.small'])

    // Capacity for t3.micro is back and nothing remembers the miss: the rerun would launch
    // t3.micro first if it did not look for the Machine's instance before launching.
    aws().proxy.clearFaults()
    await forgetMisses(ns)
    const launches = recordLaunches()
    for (let pass = 0; pass < 3; pass++) await reconcileMachine(machineDeps(kube(), providers), key)
    expect((await readMachine(kube(), ns, 'crash'))?.status?.phase).toBe('Provisioned')
    expect(launches).toEqual([])
    expect((await aws().tagged(uid)).map((i) => i.InstanceType)).toEqual(['t3.small'])
  })
})
