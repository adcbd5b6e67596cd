/**
 * Issue 40's storm sequence on moto's EC2 and SQS with every controller on the in-process bus,
 * the EC2 notice source on a queue and this file playing the kubelet: a 6-replica spot MachineSet
 * (on-demand allowed) over eu-west-1a/b/c; one Machine interrupted, then two at once, then one
 * remediated by its MachineHealthCheck (its Node driven NotReady), then one expired
 * (spec.template.spec.expireAfter). After each step, once 6 Machines run again, the set's
 * status.zoneSpread is within a skew of 1; each interrupted offering appears in the class's
 * status.unavailableOfferings with its expiry (the notice's deadline plus the class's short TTL)
 * and leaves it once that passes.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { coreTypes } from '../../../src/kube/resource'
import { parseAwsProviderID } from '../../../src/providers/aws/provider-id'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import type { MachineObject, MachineSetObject } from '../../../src/reconcile/machine-set/types'
import { noticeBody } from '../../harness/ec2-notice-bodies'
import { waitFor } from '../../harness/kube'
import { playKubelet } from '../full-stack/aws-kubelet'
import { startFullStack } from '../full-stack/fixture'
import { deploymentLabel, isRunningMachine, readyHealthCheck } from '../full-stack/objects'
import { useMachineTestApi } from '../machine/fixture'
import { useMoto } from '../providers/aws-fixture'
import { startNoticeQueue } from './notice-queue'
import {
  createSpotClass,
  machinesOfSet,
  readClass,
  type SpotWorld,
  setUpSpotWorld,
  spotWarningTime,
  zones,
} from './spot-world'

const moto = useMoto()
const { api, namespace, kube } = useMachineTestApi('storms', { aws: awsProviderSpecSchema() })
const world: SpotWorld = { moto, kube, namespace, tier: 'zone-storms', octet: 81 }
const setName = 'storm'
const className = 'storm-spot'
const ttlMs = 15_000
/**
 * An entry lasts until the notice's deadline plus the TTL, and one already past that when the set
 * first sees its Machine is never listed: the deadline leaves room for the notice's path
 * (SQS -> the Machine's condition -> a set pass), which took over 30 s on a loaded CI machine.
 */
const warningLeftMs = 60_000
/** kwok's chaos stage (stages/node-not-ready.yaml) turns a Running Node with this label NotReady. */
const notReadyLabel = 'node-not-ready.stage.kwok.x-k8s.io'

beforeAll(() => setUpSpotWorld(world))

const isSpot = (m: MachineObject) => (m.status?.providerStatus as { spot?: boolean })?.spot === true

/** Per-zone counts of a zoneSpread (`a=2,b=2,c=2`), in the world's zone order. */
function spreadCounts(spread: string | undefined): number[] {
  const counts = new Map((spread ?? '').split(',').map((kv) => kv.split('=') as [string, string]))
  return zones.map((z) => Number(counts.get(z) ?? 0))
}

/**
 * Waits until 6 Machines run, none is being deleted, none of `gone` is left, and the set's
 * status.zoneSpread says what the Machines say; returns the Machines and the counts.
 */
async function settled(step: string, gone: readonly MachineObject[] = []) {
  const goneUids = new Set(gone.map((m) => m.metadata.uid))
  for (const m of gone) everGone.add(m.metadata.name)
  const result = await waitFor(
    `${step}: 6 Running Machines and the spread reported`,
    async () => {
      const machines = await machinesOfSet(world, setName)
      const done =
        machines.length === 6 &&
        machines.every((m) => isRunningMachine(m) && !m.metadata.deletionTimestamp) &&
        !machines.some((m) => goneUids.has(m.metadata.uid))
      if (!done) return false
      const set = await kube().get<MachineSetObject>(machineApiTypes.machineSet, {
        namespace: namespace(),
        name: setName,
      })
      const counts = spreadCounts(set?.status?.zoneSpread)
      const actual = zones.map((z) => machines.filter((m) => m.spec?.failureDomain === z).length)
      return counts.join() === actual.join() && { machines, counts }
    },
    { intervalMs: 300, timeoutMs: 120_000 },
  )
  // No replacement takes the name of a Machine that left (Events, metrics and logs key on it).
  expect(result.machines.map((m) => m.metadata.name).filter((n) => everGone.has(n))).toEqual([])
  return result
}

/** The names of every Machine that left the set during the test. */
const everGone = new Set<string>()

const skew = (counts: number[]) => Math.max(...counts) - Math.min(...counts)

describe('storms over a 6-replica spot set in 3 zones (moto EC2 and SQS)', () => {
  it('keeps the spread within skew 1 after interruptions, a remediation and an expiry, and lists each interrupted offering until it expires', async () => {
    const ns = namespace()
    await startFullStack(kube(), ns, createProviderRegistry([moto().provider]))
    playKubelet(api().kc, kube(), ns)
    await createSpotClass(world, className, { capacityTypes: ['spot', 'on-demand'], ttlMs })
    const labels = { [deploymentLabel]: setName }
    await kube().create(machineApiTypes.machineSet, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineSet',
      metadata: { namespace: ns, name: setName },
      spec: {
        replicas: 6,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: { classRef: { name: className }, nodeDeletionTimeout: '10s' },
        },
      },
    })
    const start = await settled('the start')
    expect(start.counts).toEqual([2, 2, 2])
    const originals = start.machines
    const send = await startNoticeQueue({
      endpoint: moto().moto.endpoint,
      ec2: moto().ec2,
      kube: kube(),
      namespace: ns,
    })
    /**
     * Interrupts `victims` at once; checks their offerings are listed with their expiry. Notice
     * times are whole seconds and an expiry tells a step's entries apart, so a step that comes
     * within the second of the one before (a fast machine settles in under one) waits for the next.
     */
    let lastAt = 0
    const interrupt = async (victims: MachineObject[]) => {
      const { at, expiresAt } = await waitFor(
        'a notice time of its own',
        async () => {
          const time = spotWarningTime(warningLeftMs, ttlMs)
          return time.at.getTime() > lastAt && time
        },
        { intervalMs: 100, timeoutMs: 5_000 },
      )
      lastAt = at.getTime()
      await Promise.all(
        victims.map((m) =>
          send(noticeBody('spot-interruption', parseAwsProviderID(m.spec?.providerID) ?? '', at)),
        ),
      )
      const wanted = victims.map((m) => m.spec?.failureDomain).sort()
      const listed = await waitFor(
        `the offerings of ${victims.length} interrupted Machines listed`,
        async () => {
          const entries = (await readClass(world, className))?.status?.unavailableOfferings ?? []
          const ours = entries.filter((e) => e.expiresAt === expiresAt)
          return ours.length === wanted.length && ours
        },
        { intervalMs: 200, timeoutMs: warningLeftMs + ttlMs },
      )
      expect(listed.map((e) => e.zone).sort()).toEqual(wanted)
      for (const e of listed) {
        expect(e).toMatchObject({ instanceType: 't3.micro', capacityType: 'spot' })
        expect(e.reason).toBe('SpotInterruption')
      }
      return expiresAt
    }
    const expiries: string[] = []

    // 1. One interrupted.
    const [first] = originals.filter(isSpot)
    if (!first) throw new Error('no spot Machine')
    expiries.push(await interrupt([first]))
    const one = await settled('one interrupted', [first])
    expect(skew(one.counts)).toBeLessThanOrEqual(1)

    // 2. Two at once, in two other zones.
    const pair = zones
      .filter((z) => z !== first.spec?.failureDomain)
      .map((z) => one.machines.find((m) => isSpot(m) && m.spec?.failureDomain === z))
      .filter((m): m is MachineObject => m !== undefined)
    const shown = one.machines.map(
      (m) => `${m.spec?.failureDomain}:${isSpot(m) ? 'spot' : 'on-demand'}`,
    )
    expect(pair, `a spot Machine in each other zone (have ${shown.join(' ')})`).toHaveLength(2)
    expiries.push(await interrupt(pair))
    const two = await settled('two interrupted at once', pair)
    expect(skew(two.counts)).toBeLessThanOrEqual(1)

    // 3. One remediated by its MachineHealthCheck: its Node goes NotReady (the first
    // interruption's replacement, an on-demand Machine).
    await kube().create(machineApiTypes.machineHealthCheck, readyHealthCheck(ns, setName, '3s'))
    const isOriginal = (m: MachineObject) =>
      originals.some((o) => o.metadata.uid === m.metadata.uid)
    const firstReplacement = one.machines.find((m) => !isOriginal(m))
    const sick = two.machines.find((m) => m.metadata.uid === firstReplacement?.metadata.uid)
    const sickNode = sick?.status?.nodeRef?.name
    if (!sick || !sickNode) throw new Error('the first replacement is not linked to a Node')
    await kube().mergePatch(
      coreTypes.node,
      { name: sickNode },
      { metadata: { labels: { [notReadyLabel]: 'true' } } },
    )
    const three = await settled('one remediated', [sick])
    expect(skew(three.counts)).toBeLessThanOrEqual(1)

    // 4. One expired: expireAfter just below the originals' age, taken off again once the first
    // expired Machine (the oldest go first) is leaving: a standalone set has one Machine in
    // replacement at a time, so none other started meanwhile, whatever its age.
    const left = three.machines.filter(isOriginal)
    expect(left.length).toBeGreaterThan(0)
    const bornMs = (m: MachineObject) => Date.parse(m.metadata.creationTimestamp ?? '')
    const youngestOriginal = Math.max(...left.map(bornMs))
    const ageSeconds = Math.floor((Date.now() - youngestOriginal) / 1000)
    const template = { namespace: ns, name: setName }
    await kube().mergePatch(machineApiTypes.machineSet, template, {
      spec: { template: { spec: { expireAfter: `${ageSeconds - 1}s` } } },
    })
    const expired = await waitFor(
      'an expired original leaving',
      async () =>
        (await machinesOfSet(world, setName)).find(
          (m) =>
            m.metadata.deletionTimestamp && left.some((o) => o.metadata.uid === m.metadata.uid),
        ),
      { intervalMs: 200, timeoutMs: 60_000 },
    )
    await kube().mergePatch(machineApiTypes.machineSet, template, {
      spec: { template: { spec: { expireAfter: null } } },
    })
    const four = await settled('one expired', [expired])
    expect(skew(four.counts)).toBeLessThanOrEqual(1)
    expect(four.machines.filter(isOriginal)).toHaveLength(left.length - 1)

    // Every interrupted offering leaves the list once it expires.
    await waitFor(
      'the interrupted offerings gone',
      async () => {
        const s = (await readClass(world, className))?.status
        return (s?.unavailableOfferings ?? []).length === 0 && s?.zones?.length === 3
      },
      { intervalMs: 500, timeoutMs: 120_000 },
    )
    const last = expiries.toSorted().at(-1) ?? ''
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(last))
  }, 480_000)
})
