/**
 * A spot interruption remembered in the MachineClass (issue 40), end to end on moto's EC2 and SQS
 * with every controller on the in-process bus, the EC2 notice source on a queue and this file
 * playing the kubelet. A 3-Machine spot set over eu-west-1a/b/c; the Machine in eu-west-1b is
 * interrupted, the offering (t3.micro spot in eu-west-1b) is then listed in the class's
 * status.unavailableOfferings until the notice's deadline plus the class's TTL, and:
 * - a class that allows on-demand keeps the zone: the replacement launches on-demand in
 *   eu-west-1b, and its OfferingAvoided Event says why;
 * - a spot-only class has no offering left there: eu-west-1b leaves status.zones, the replacement
 *   launches spot in another zone, and the class's OfferingInterrupted Event says why.
 * Either way the entry leaves the list once it expires and the zone opens again.
 */
import { CoreV1Api } from '@kubernetes/client-node'
import { beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { parseAwsProviderID } from '../../../src/providers/aws/provider-id'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import type { MachineObject } from '../../../src/reconcile/machine-set/types'
import { noticeBody } from '../../harness/ec2-notice-bodies'
import { waitFor } from '../../harness/kube'
import { playKubelet } from '../full-stack/aws-kubelet'
import { startFullStack } from '../full-stack/fixture'
import { isRunningMachine } from '../full-stack/objects'
import { useMachineTestApi } from '../machine/fixture'
import { region, useMoto } from '../providers/aws-fixture'
import { startNoticeQueue } from './notice-queue'
import {
  createSpotClass,
  machinesOfSet as ofSet,
  readClass as read,
  type SpotWorld,
  setUpSpotWorld,
  spotWarningTime,
  zones,
} from './spot-world'

const moto = useMoto()
const { api, namespace, kube } = useMachineTestApi('offer-int', { aws: awsProviderSpecSchema() })
const world: SpotWorld = { moto, kube, namespace, tier: 'offer-interrupt', octet: 79 }
const victimZone = `${region}b`
/** The class's unavailableOfferingTTL: short, so the entry's expiry is seen. */
const ttlMs = 20_000
/** How long before the notice's deadline it is sent: EC2 warns 2 minutes ahead; less here. */
const warningLeftMs = 20_000

beforeAll(() => setUpSpotWorld(world))

const readClass = (name: string) => read(world, name)
const machinesOfSet = (name: string) => ofSet(world, name)
const createClass = (name: string, capacityTypes: string[]) =>
  createSpotClass(world, name, { capacityTypes, ttlMs })

/** Creates a 3-replica MachineSet `name` of class `className`; resolves with its 3 Running. */
async function runSet(name: string, className: string): Promise<MachineObject[]> {
  const labels = { 'offer-int/set': name }
  await kube().create(machineApiTypes.machineSet, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineSet',
    metadata: { namespace: namespace(), name },
    spec: {
      replicas: 3,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { classRef: { name: className }, nodeDeletionTimeout: '10s' },
      },
    },
  })
  return await waitFor(
    '3 Running spot Machines, one per zone',
    async () => {
      const running = (await machinesOfSet(name)).filter(isRunningMachine)
      const placed = running.map((m) => m.spec?.failureDomain).sort()
      const spot = running.every((m) => (m.status?.providerStatus as { spot?: boolean })?.spot)
      return running.length === 3 && spot && placed.join() === zones.join() && running
    },
    { intervalMs: 300, timeoutMs: 90_000 },
  )
}

/**
 * Interrupts the Machine of `initial` in eu-west-1b; resolves once it is gone and 3 Machines run
 * again, with the entry as listed in the class meanwhile and the replacement.
 */
async function interruptVictim(setName: string, className: string, initial: MachineObject[]) {
  const victim = initial.find((m) => m.spec?.failureDomain === victimZone)
  const instanceId = parseAwsProviderID(victim?.spec?.providerID) ?? ''
  expect(instanceId).toMatch(/^i-/)
  const send = await startNoticeQueue({
    endpoint: moto().moto.endpoint,
    ec2: moto().ec2,
    kube: kube(),
    namespace: namespace(),
  })
  const { at, expiresAt } = spotWarningTime(warningLeftMs, ttlMs)
  await send(noticeBody('spot-interruption', instanceId, at))
  const listed = await waitFor(
    'the interrupted offering in the class status',
    async () => {
      const entries = (await readClass(className))?.status?.unavailableOfferings ?? []
      return entries.find((e) => e.reason === 'SpotInterruption')
    },
    { intervalMs: 200, timeoutMs: 30_000 },
  )
  expect(listed).toEqual({
    instanceType: 't3.micro',
    zone: victimZone,
    capacityType: 'spot',
    reason: 'SpotInterruption',
    expiresAt,
  })
  const before = new Set(initial.map((m) => m.metadata.name))
  const replacement = await waitFor(
    'the victim gone and its replacement Running',
    async () => {
      const machines = await machinesOfSet(setName)
      const fresh = machines.find((m) => !before.has(m.metadata.name))
      const done =
        machines.length === 3 &&
        machines.every(isRunningMachine) &&
        !machines.some((m) => m.metadata.name === victim?.metadata.name)
      return done && fresh
    },
    { intervalMs: 300, timeoutMs: 90_000 },
  )
  return { replacement, expiresAt }
}

async function eventsOf(name: string) {
  const core = api().kc.makeApiClient(CoreV1Api)
  const list = await core.listNamespacedEvent({
    namespace: namespace(),
    fieldSelector: `involvedObject.name=${name}`,
  })
  return list.items
}

/** Waits for the class's entry to expire and leave, and its zones to be all three again. */
async function expires(className: string, expiresAt: string): Promise<void> {
  const status = await waitFor(
    'the entry gone once expired',
    async () => {
      const s = (await readClass(className))?.status
      return s?.unavailableOfferings?.length === 0 && s.zones?.length === 3 && s
    },
    { intervalMs: 500, timeoutMs: 120_000 },
  )
  expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt))
  expect(status.zones).toEqual(zones)
}

describe('a spot interruption remembered in the class (moto EC2 and SQS)', () => {
  it('with on-demand allowed, the replacement launches on-demand in the same zone and says why', async () => {
    await startFullStack(kube(), namespace(), createProviderRegistry([moto().provider]))
    playKubelet(api().kc, kube(), namespace())
    await createClass('mixed', ['spot', 'on-demand'])
    const initial = await runSet('mixed-set', 'mixed')
    const { replacement, expiresAt } = await interruptVictim('mixed-set', 'mixed', initial)
    // The zone still hosts (on-demand): the set's balancing put the replacement back in it.
    expect(replacement.spec?.failureDomain).toBe(victimZone)
    expect(replacement.status?.providerStatus).toMatchObject({
      spot: false,
      availabilityZone: victimZone,
    })
    expect((await readClass('mixed'))?.status?.zones).toEqual(zones)
    const avoided = (await eventsOf(replacement.metadata.name)).find(
      (e) => e.reason === 'OfferingAvoided',
    )
    expect(avoided?.message).toBe(
      `Avoided t3.micro spot in ${victimZone} (SpotInterruption until ${expiresAt}), where EC2 ` +
        `is taking spot capacity back; launched t3.micro on-demand in ${victimZone}`,
    )
    const recorded = (await eventsOf('mixed')).filter((e) => e.reason === 'OfferingInterrupted')
    expect(recorded.map((e) => e.message)).toEqual([
      `EC2 is taking back t3.micro spot in ${victimZone} (SpotInterruption) until ${expiresAt}: ` +
        'new Machines try other offerings first',
    ])
    await expires('mixed', expiresAt)
  })

  it('with spot only, the zone cannot host: the replacement launches spot in another zone', async () => {
    await startFullStack(kube(), namespace(), createProviderRegistry([moto().provider]))
    playKubelet(api().kc, kube(), namespace())
    await createClass('spot-only', ['spot'])
    const initial = await runSet('spot-set', 'spot-only')
    const { replacement, expiresAt } = await interruptVictim('spot-set', 'spot-only', initial)
    expect(replacement.spec?.failureDomain).not.toBe(victimZone)
    expect(replacement.status?.providerStatus).toMatchObject({
      spot: true,
      availabilityZone: replacement.spec?.failureDomain,
    })
    const recorded = (await eventsOf('spot-only')).filter((e) => e.reason === 'OfferingInterrupted')
    expect(recorded.map((e) => e.message)).toEqual([
      `EC2 is taking back t3.micro spot in ${victimZone} (SpotInterruption) until ${expiresAt}: ` +
        `new Machines try other offerings first; ${victimZone} can host no new Machine of the ` +
        'class until then',
    ])
    await expires('spot-only', expiresAt)
  })
})
