/**
 * Launch groups on moto, with every controller on the in-process bus: the Machines a set creates
 * in one zone come from one RunInstances (MaxCount = the group's size, one ClientToken), each on
 * its own instance, and the group's promises hold when things go wrong: a claim that fails after
 * the launch replays the same token, a call EC2 fills only in part leaves the rest to launch on
 * their own, a member deleted before it claimed takes its instance down, and an instance whose
 * place no Machine holds is swept. The fault proxy keeps EC2's ClientToken and MaxCount semantics
 * (moto does not: launch-model.ts).
 */
import { CreateSubnetCommand, CreateVpcCommand, type Instance } from '@aws-sdk/client-ec2'
import { beforeAll, describe, expect, it } from 'vitest'
import { ANNOTATIONS, FINALIZERS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { Machine } from '../../../src/api/v1beta1/machine'
import { coreTypes } from '../../../src/kube/resource'
import { groupTokenPattern } from '../../../src/providers/aws/group-launch'
import { describeInstances } from '../../../src/providers/aws/lookup'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { waitFor } from '../../harness/kube'
import { playKubelet } from '../full-stack/aws-kubelet'
import { startFullStack } from '../full-stack/fixture'
import { awsCredentialsSecret, useFaultyMoto } from '../providers/aws-fixture'
import { useMachineTestApi } from './fixture'

const aws = useFaultyMoto()
const { api, namespace, kube } = useMachineTestApi('groups', { aws: awsProviderSpecSchema() })
const zone = 'eu-west-1a'

beforeAll(async () => {
  const ns = namespace()
  // A VPC of its own: the Node names (private DNS names) are this file's alone.
  const vpc = await aws().ec2.send(new CreateVpcCommand({ CidrBlock: '10.82.0.0/16' }))
  await aws().ec2.send(
    new CreateSubnetCommand({
      VpcId: vpc.Vpc?.VpcId,
      CidrBlock: '10.82.1.0/24',
      AvailabilityZone: zone,
      TagSpecifications: [{ ResourceType: 'subnet', Tags: [{ Key: 'tier', Value: 'groups' }] }],
    }),
  )
  await kube().create(coreTypes.secret, awsCredentialsSecret(ns))
  const { credentialsSecret: _c, subnet: _s, ...spec } = aws().baseSpec
  await kube().create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns, name: 'fleet' },
    spec: {
      provider: 'aws',
      providerSpec: { ...spec, subnets: [{ filters: [{ name: 'tag:tier', values: ['groups'] }] }] },
      credentialsSecretRef: { name: 'aws' },
    },
  })
})

/** Every controller on the in-process bus, and the kubelet, for this test. */
async function startStack(ns: string): Promise<void> {
  await startFullStack(kube(), ns, createProviderRegistry([aws().provider]))
  playKubelet(api().kc, kube(), ns)
}

async function machines(ns: string, set?: string): Promise<Machine[]> {
  const all = (await kube().list<Machine>(machineApiTypes.machine, { namespace: ns })).items
  return set ? all.filter((m) => m.metadata.name?.startsWith(`${set}-`)) : all
}

function machineSet(ns: string, name: string, replicas: number) {
  const labels = { set: name }
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineSet',
    metadata: { namespace: ns, name },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { classRef: { name: 'fleet' }, failureDomain: zone, nodeDeletionTimeout: '10s' },
      },
    },
  }
}

async function runningSet(ns: string, name: string, count: number): Promise<Machine[]> {
  return await waitFor(
    `${count} Running Machines of ${name}`,
    async () => {
      const set = await machines(ns, name)
      return set.length === count && set.every((m) => m.status?.phase === 'Running') && set
    },
    { timeoutMs: 120_000, intervalMs: 300 },
  )
}

/** The live instances of `groups` and of the Machines with `uids`, each once. */
async function instancesOf(groups: string[], uids: string[]): Promise<Instance[]> {
  const found = new Map<string, Instance>()
  const filters = [
    ...(groups.length > 0 ? [{ Name: 'client-token', Values: groups.map(groupTokenPattern) }] : []),
    ...(uids.length > 0 ? [{ Name: 'tag:machine-api.dev/machine-uid', Values: uids }] : []),
  ]
  for (const filter of filters) {
    const states = { Name: 'instance-state-name', Values: ['pending', 'running', 'stopped'] }
    for (const i of await describeInstances(
      aws().ec2,
      { Filters: [filter, states] },
      AbortSignal.timeout(10_000),
    )) {
      found.set(i.InstanceId ?? '', i)
    }
  }
  return [...found.values()]
}

const groupOf = (m: Machine) => m.metadata.annotations?.[ANNOTATIONS.launchGroup]?.split('/')[0]

/** The live instances of the Machines in `set` and of their launch groups. */
async function instancesOfSet(set: Machine[]): Promise<Instance[]> {
  const groups = [...new Set(set.map(groupOf).filter((g): g is string => g !== undefined))]
  return await instancesOf(
    groups,
    set.map((m) => m.metadata.uid ?? ''),
  )
}

const uidTag = (i: Instance) => i.Tags?.find((t) => t.Key === 'machine-api.dev/machine-uid')?.Value

/** Each Machine on exactly one live instance, tagged as its own, and no instance shared. */
async function expectOneInstanceEach(set: Machine[]): Promise<void> {
  const instances = await instancesOfSet(set)
  for (const m of set) {
    const own = instances.filter((i) => uidTag(i) === m.metadata.uid)
    expect(
      own.map((i) => i.InstanceId),
      m.metadata.name,
    ).toHaveLength(1)
    expect(m.spec.providerID).toContain(own[0]?.InstanceId)
  }
}

/** A Machine at `index` of launch group `group` (as a set would create it), in `zone`. */
function groupMember(
  ns: string,
  group: string,
  index: number,
  size: number,
  extra: Partial<Machine['metadata']> = {},
): Machine {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: {
      namespace: ns,
      name: `member-${group.slice(-2)}-${index}`,
      annotations: { [ANNOTATIONS.launchGroup]: `${group}/${index}/${size}` },
      ...extra,
    },
    spec: { classRef: { name: 'fleet' }, failureDomain: zone, nodeDeletionTimeout: '10s' },
  }
}

describe('launch groups on aws (moto)', () => {
  it('launches the 5 Machines a set creates in one zone with one RunInstances, each on its own instance', async () => {
    const ns = namespace()
    await startStack(ns)
    await kube().create(machineApiTypes.machineSet, machineSet(ns, 'five', 5))
    const set = await runningSet(ns, 'five', 5)
    expect(aws().proxy.counts().RunInstances).toBe(1)
    const places = set.map((m) => m.metadata.annotations?.[ANNOTATIONS.launchGroup]?.split('/'))
    expect(new Set(places.map((p) => p?.[0])).size).toBe(1)
    expect(places.map((p) => p?.slice(1).join('/')).sort()).toEqual([
      '0/5',
      '1/5',
      '2/5',
      '3/5',
      '4/5',
    ])
    await expectOneInstanceEach(set)
    // Each instance carries its Machine's name once claimed.
    const names = (await instancesOfSet(set)).map(
      (i) => i.Tags?.find((t) => t.Key === 'Name')?.Value,
    )
    expect(names.sort()).toEqual(set.map((m) => m.metadata.name).sort())
  })

  it('retries a claim that failed after the launch on the same instance, and launches nothing twice', async () => {
    const ns = namespace()
    await startStack(ns)
    aws().proxy.inject({ action: 'CreateTags', code: 'InternalError', status: 500, times: 6 })
    await kube().create(machineApiTypes.machineSet, machineSet(ns, 'retry', 3))
    const set = await runningSet(ns, 'retry', 3)
    await expectOneInstanceEach(set)
    expect(await instancesOf([groupOf(set[0] as Machine) ?? ''], [])).toHaveLength(3)
    expect(aws().proxy.injected()['CreateTags/InternalError']).toBeGreaterThan(0)
  })

  it('launches the places a partly filled call left on their own', async () => {
    const ns = namespace()
    await startStack(ns)
    // EC2 fills 2 of the group's 4 places; the other two launch alone, one instance each.
    aws().proxy.capLaunches(2)
    await kube().create(machineApiTypes.machineSet, machineSet(ns, 'partial', 4))
    const set = await runningSet(ns, 'partial', 4)
    await expectOneInstanceEach(set)
    expect(await instancesOfSet(set)).toHaveLength(4)
    expect(aws().proxy.counts().RunInstances).toBe(3)
  })

  it('takes down the instance of a member deleted before it claimed it, and sweeps a place no Machine holds', async () => {
    const ns = namespace()
    await startStack(ns)
    const group = 'feedfacecafe0001'
    const member = (index: number, extra: Partial<Machine['metadata']> = {}) =>
      groupMember(ns, group, index, 3, extra)
    // Member 0 launches the group of 3 and claims place 0; places 1 and 2 wait for members.
    await kube().create(machineApiTypes.machine, member(0))
    await waitFor('member 0 launched', async () => {
      const [m] = await machines(ns, 'member-01')
      return m?.spec.providerID !== undefined
    })
    expect(await instancesOf([group], [])).toHaveLength(3)
    // Member 1 arrives being deleted (its finalizer kept it for the controller): its delete
    // finds its place's instance unclaimed and terminates it.
    await kube().create(
      machineApiTypes.machine,
      member(1, { finalizers: [FINALIZERS.machineCleanup] }),
    )
    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'member-01-1' })
    await waitFor('member 1 gone', async () => (await machines(ns, 'member-01')).length === 1, {
      timeoutMs: 60_000,
    })
    expect(await instancesOf([group], [])).toHaveLength(2)
    // Place 2 never gets a member: the orphan sweep takes its instance, even reporting only.
    const { ctx } = aws().context()
    const fleet = (await kube().get<{ spec: { providerSpec: unknown } }>(
      machineApiTypes.machineClass,
      { namespace: ns, name: 'fleet' },
    )) as { spec: { providerSpec: Record<string, unknown> } }
    const orphans = await aws().provider.sweepOrphans({
      providerSpec: { ...fleet.spec.providerSpec, credentialsSecret: { name: 'aws' } },
      secrets: ctx.secrets,
      signal: ctx.signal,
      machineUids: async () => new Set((await machines(ns)).map((m) => m.metadata.uid ?? '')),
      now: () => new Date(),
      graceMs: 0,
    })
    const unclaimed = orphans.filter((o) => o.machineUid === undefined && o.terminate)
    expect(unclaimed.length).toBeGreaterThanOrEqual(1)
    await waitFor('only member 0 left', async () => {
      const left = await instancesOf([group], [])
      const [m] = await machines(ns, 'member-01')
      return left.length === 1 && uidTag(left[0] as Instance) === m?.metadata.uid
    })
  })

  it('launches and takes down the place of a member deleted before its group launched', async () => {
    const ns = namespace()
    await startStack(ns)
    const group = 'feedfacecafe0002'
    const finalizers = [FINALIZERS.machineCleanup]
    // Member 1 of 2 is deleted before any member launched: its delete makes the group's call
    // (so that no later member launches its place for nobody) and terminates its place.
    await kube().create(machineApiTypes.machine, groupMember(ns, group, 1, 2, { finalizers }))
    await kube().delete(machineApiTypes.machine, { namespace: ns, name: 'member-02-1' })
    await waitFor('member 1 gone', async () => (await machines(ns, 'member-02')).length === 0, {
      timeoutMs: 60_000,
    })
    const launched = await describeInstances(
      aws().ec2,
      { Filters: [{ Name: 'client-token', Values: [groupTokenPattern(group)] }] },
      AbortSignal.timeout(10_000),
    )
    expect(launched).toHaveLength(2)
    expect(await instancesOf([group], [])).toHaveLength(1)
    // Member 0 comes later and takes its place from the same call: no second launch.
    await kube().create(machineApiTypes.machine, groupMember(ns, group, 0, 2))
    await waitFor('member 0 launched', async () => {
      const [m] = await machines(ns, 'member-02')
      return m?.spec.providerID !== undefined
    })
    expect(aws().proxy.counts().RunInstances).toBe(1)
    const [m] = await machines(ns, 'member-02')
    const [own] = await instancesOf([group], [])
    expect(uidTag(own as Instance)).toBe(m?.metadata.uid)
  })
})
