/**
 * The fault proxy's eventual-consistency mode against moto (issue 42 item 9): a launched instance
 * is missing from tag-filtered DescribeInstances for the tag lag and unknown by id for the id
 * lag, a repeated ClientToken answers the first launch (as EC2 does; moto does not), and the
 * `client-token` filter works with and without the lag (moto lacks it; every moto server of the
 * tests sits behind a proxy that adds it).
 */
import {
  DescribeImagesCommand,
  DescribeInstancesCommand,
  EC2Client,
  RunInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FaultProxy, startFaultProxy } from '../../harness/moto/fault-proxy'
import { type MotoServer, startMotoServer } from '../../harness/moto/moto-server'

let moto: MotoServer
let proxy: FaultProxy
let ec2: EC2Client
let direct: EC2Client
let ami = ''

const client = (endpoint: string) =>
  new EC2Client({
    region: 'eu-west-1',
    endpoint,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 1,
  })

beforeAll(async () => {
  moto = await startMotoServer()
  proxy = await startFaultProxy(moto.endpoint)
  ec2 = client(proxy.endpoint)
  direct = client(moto.endpoint)
  const images = await direct.send(new DescribeImagesCommand({ Owners: ['amazon'] }))
  ami = images.Images?.find((i) => i.RootDeviceName)?.ImageId ?? ''
})

afterAll(async () => {
  ec2?.destroy()
  direct?.destroy()
  await proxy?.stop()
  await moto?.stop()
})

beforeEach(() => proxy.clear())

async function launch(tag: string, token = `token-${tag}`) {
  const out = await ec2.send(
    new RunInstancesCommand({
      ImageId: ami,
      MinCount: 1,
      MaxCount: 1,
      InstanceType: 't3.micro',
      ClientToken: token,
      TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: 'lag-test', Value: tag }] }],
    }),
  )
  return out.Instances?.[0]
}

async function ids(via: EC2Client, filters: { Name: string; Values: string[] }[]) {
  const out = await via.send(new DescribeInstancesCommand({ Filters: filters }))
  return (out.Reservations ?? []).flatMap((r) => (r.Instances ?? []).map((i) => i.InstanceId))
}

async function byId(id: string): Promise<string> {
  try {
    const out = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }))
    return out.Reservations?.[0]?.Instances?.[0]?.State?.Name ?? 'none'
  } catch (error) {
    return (error as Error).name
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('eventual consistency mode', () => {
  it('hides a fresh instance from tag lookups for the tag lag, and by id for the id lag', async () => {
    proxy.lag({ tagMs: 1_500, idMs: 500 })
    const id = (await launch('fresh'))?.InstanceId ?? ''
    const tagged = [{ Name: 'tag:lag-test', Values: ['fresh'] }]
    expect(await ids(ec2, tagged)).toEqual([])
    expect(await byId(id)).toBe('InvalidInstanceID.NotFound')
    await expect(
      ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] })),
    ).rejects.toMatchObject({ name: 'InvalidInstanceID.NotFound' })
    // moto itself has it all along.
    expect(await ids(direct, tagged)).toEqual([id])
    await sleep(600)
    expect(await byId(id)).toBe('running')
    expect(await ids(ec2, tagged)).toEqual([])
    await sleep(1_000)
    expect(await ids(ec2, tagged)).toEqual([id])
    expect(proxy.injected()).toMatchObject({
      'DescribeInstances/Lagged': 2,
      'DescribeInstances/InvalidInstanceID.NotFound': 1,
      'TerminateInstances/InvalidInstanceID.NotFound': 1,
    })
  })

  it('answers a repeated ClientToken with the first instance, as it is now', async () => {
    proxy.lag({ tagMs: 1_000 })
    const id = (await launch('token'))?.InstanceId
    expect((await launch('token'))?.InstanceId).toBe(id)
    expect(await ids(direct, [{ Name: 'tag:lag-test', Values: ['token'] }])).toEqual([id])
    await sleep(300)
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [id ?? ''] }))
    const again = await launch('token')
    expect(again?.InstanceId).toBe(id)
    expect(again?.State?.Name).not.toBe('running')
    expect(proxy.injected()['RunInstances/ClientToken']).toBe(2)
  })

  it('filters by client-token, with wildcards, on moto behind its own proxy', async () => {
    const id = (await launch('filter', 'machine-api-filter-1234abcd'))?.InstanceId
    const states = { Name: 'instance-state-name', Values: ['pending', 'running'] }
    expect(
      await ids(direct, [{ Name: 'client-token', Values: ['machine-api-filter-*'] }, states]),
    ).toEqual([id])
    expect(await ids(direct, [{ Name: 'client-token', Values: ['machine-api-other-*'] }])).toEqual(
      [],
    )
  })

  it('holds an answer back while the launch is already done', async () => {
    proxy.delay({ action: 'RunInstances', ms: 1_000, times: 1 })
    const launched = launch('slow')
    await sleep(500)
    expect(await ids(direct, [{ Name: 'tag:lag-test', Values: ['slow'] }])).toHaveLength(1)
    expect((await launched)?.InstanceId).toMatch(/^i-/)
    expect(proxy.injected()['RunInstances/Delayed']).toBe(1)
  })
})
