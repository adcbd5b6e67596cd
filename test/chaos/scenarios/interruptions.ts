/**
 * @module Chaos scenario "interruptions": a MachineSet of aws Machines (moto) whose worker process
 * reads EC2 notices from a moto SQS queue. 30% of its Machines get a spot interruption warning at
 * once, in the documented shape; each warning is sent 1 to 3 times, some copies delayed by SQS (up
 * to 20 s; 5 s in the short run), some followed by an older rebalance recommendation (out of
 * order); the worker is SIGKILLed at seeded moments while it handles them and restarted. The set
 * must replace each interrupted Machine exactly once and return to its replicas, with no
 * duplicate, orphan or lost Machine or instance; every interrupted Machine must have drained its
 * Node (cordoned, every pod out) before its notice's deadline, or it is counted (stuck). Into the
 * storm go forged warnings about other Machines' instances (another account, region or source,
 * or sent after their deadline) and warnings about instances of no Machine: a Machine touched by
 * one (a notice recorded, its Node cordoned, deleted) is counted too (stuck).
 */
import { tmpdir } from 'node:os'
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { parseAwsProviderID } from '../../../src/providers/aws/provider-id'
import type { MachineSetObject } from '../../../src/reconcile/machine-set/types'
import { noticeBody } from '../../harness/ec2-notice-bodies'
import { uniqueName, waitFor } from '../../harness/kube'
import { type RunAudit, startAudit } from '../lib/audit'
import { type AwsWorld, chaosClassName, chaosRegion, startAwsWorld } from '../lib/aws-world'
import {
  createMachineSet,
  type FleetMachine,
  machinesOf,
  waitForNoMachines,
  waitForRunning,
} from '../lib/cloud-fleet'
import { type ChaosEnvironment, startChaosEnvironment } from '../lib/environment'
import { type DrainRecorder, recordDrains } from '../lib/interrupt-drains'
import { seededRandom } from '../lib/random'
import {
  type Scenario,
  type ScenarioOptions,
  type ScenarioReport,
  stopwatch,
} from '../lib/scenario'
import { type WorkerProcess, workerProcess } from '../lib/worker-process'

const sizes = {
  short: { machines: 6, kills: 1, maxDelaySeconds: 5, sweepSeconds: 8, convergeMs: 150_000 },
  full: { machines: 100, kills: 3, maxDelaySeconds: 20, sweepSeconds: 15, convergeMs: 400_000 },
}
const interruptedShare = 0.3
const set = 'spot'
/** The spot warning's notice: the instance goes 2 minutes after the event's time. */
const warningMs = 120_000
const body = (name: string, instanceId: string, time: Date) =>
  noticeBody(name, instanceId, time, `${name}-${instanceId}`)
/** Of the Machines not interrupted, the share that get forged warnings. */
const forgedShare = 0.2

/** What a forged warning changes in the genuine one, in turn. */
const forgeries: ReadonlyArray<(warning: Record<string, unknown>, at: Date) => object> = [
  (w) => ({ ...w, account: '999999999999' }),
  (w) => ({ ...w, region: 'us-east-1' }),
  (w) => ({ ...w, source: 'chaos.forger' }),
  // Its two minutes were over when it was sent.
  (w, at) => ({ ...w, time: new Date(at.getTime() - 3 * warningMs).toISOString() }),
]

/** Forged warnings about `instanceIds` (one forgery each, in turn) and about `strays` (no Machine). */
function forgedWarnings(instanceIds: readonly string[], strays: readonly string[], at: Date) {
  const forged = instanceIds.map((id, i) => {
    const genuine = JSON.parse(noticeBody('spot-interruption', id, at, `forged-${id}`))
    return JSON.stringify(forgeries[i % forgeries.length]?.(genuine, at))
  })
  return [...forged, ...strays.map((id) => body('spot-interruption', id, at))]
}

async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const size = sizes[options.size]
  const random = seededRandom(options.seed)
  const namespace = uniqueName('chaos-interrupt')
  const since = stopwatch()
  let env: ChaosEnvironment | undefined
  let world: AwsWorld | undefined
  let worker: WorkerProcess | undefined
  let audit: RunAudit | undefined
  let drains: DrainRecorder | undefined
  let sqs: SQSClient | undefined
  try {
    env = await startChaosEnvironment({ shared: options.shared })
    world = await startAwsWorld({ kc: env.kc, kubeconfigPath: env.kubeconfigPath, namespace })
    const { kube } = world
    sqs = new SQSClient({
      region: chaosRegion,
      endpoint: world.moto.endpoint,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    })
    // A short visibility timeout: a message a killed worker held comes back within seconds.
    const queue = await sqs.send(
      new CreateQueueCommand({
        QueueName: namespace,
        Attributes: { VisibilityTimeout: '5' },
      }),
    )
    const queueUrl = queue.QueueUrl ?? ''
    worker = workerProcess({
      env: {
        ...world.workerEnv,
        BUS: 'in-process',
        SWEEP_PERIOD_SECONDS: String(size.sweepSeconds),
        EC2_NOTICES_QUEUE_URL: queueUrl,
        AWS_SQS_ENDPOINT: world.moto.endpoint,
        // The notice source takes the SDK's default credential chain (moto accepts any keys).
        AWS_ACCESS_KEY_ID: 'AKIAMOTOCHAOS000',
        AWS_SECRET_ACCESS_KEY: 'chaos-secret',
      },
      logDir: tmpdir(),
      name: namespace,
    })
    await worker.start()
    audit = startAudit({ kube, ec2: world.ec2, namespace })
    await audit.ready
    audit.intents.want(set, size.machines)
    await createMachineSet(
      kube,
      { namespace, name: set },
      { className: chaosClassName, replicas: size.machines },
    )
    const upAt = since()
    const running = await waitForRunning(
      kube,
      { namespace, set, count: size.machines },
      size.convergeMs,
    )
    options.log(`${size.machines} Running: ${running} at ${since()} s (created at ${upAt} s)`)
    drains = await recordDrains(kube, namespace)

    const machines = await machinesOf(kube, namespace, set)
    const count = Math.round(machines.length * interruptedShare)
    const victims = random.shuffle(machines).slice(0, count)
    const instanceIds = victims.map((m) => parseAwsProviderID(m.spec?.providerID) ?? '')
    audit.intents.replace(set, count)
    const at = new Date(Math.floor(Date.now() / 1000) * 1000)
    const deadlines = new Map(instanceIds.map((id) => [id, at.getTime() + warningMs]))
    const bystanders = machines
      .filter((m) => !victims.includes(m))
      .map((m) => parseAwsProviderID(m.spec?.providerID) ?? '')
    const forgedAbout = random
      .shuffle(bystanders)
      .slice(0, Math.max(forgeries.length, Math.round(bystanders.length * forgedShare)))
    const strays = ['i-0f0f0f0f0f0f0f0f0', 'i-0e0e0e0e0e0e0e0e0']
    const forged = forgedWarnings(forgedAbout, strays, at)
    const messages: Array<{ body: string; delaySeconds: number }> = forged.map((b) => ({
      body: b,
      delaySeconds: random.chance(0.3) ? random.int(1, size.maxDelaySeconds) : 0,
    }))
    for (const id of instanceIds) {
      const warning = body('spot-interruption', id, at)
      for (let copy = random.int(1, 3); copy > 0; copy--) {
        const delaySeconds = random.chance(0.3) ? random.int(1, size.maxDelaySeconds) : 0
        messages.push({ body: warning, delaySeconds })
      }
      if (random.chance(0.3)) {
        const older = new Date(at.getTime() - 60_000)
        messages.push({ body: body('rebalance-recommendation', id, older), delaySeconds: 0 })
      }
    }
    const send = (m: { body: string; delaySeconds: number }) =>
      sqs?.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: m.body,
          DelaySeconds: m.delaySeconds,
        }),
      )
    await Promise.all(random.shuffle(messages).map(send))
    options.log(
      `${count} interrupted: ${messages.length} messages (${forged.length} forged, ${messages.filter((m) => m.delaySeconds > 0).length} delayed) at ${since()} s`,
    )

    // Kill the worker at seeded moments while it handles the notices and replaces the Machines.
    const kills: number[] = []
    for (let k = 0; k < size.kills; k++) {
      await new Promise((resolve) => setTimeout(resolve, random.int(500, 8000)))
      await worker.kill()
      kills.push(since())
      await worker.start()
    }
    options.log(`killed the worker at ${kills.join(', ')} s`)

    const gone = new Set(victims.map((m) => m.metadata?.uid))
    const queueEmpty = async () => {
      const out = await sqs?.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: [
            'ApproximateNumberOfMessages',
            'ApproximateNumberOfMessagesNotVisible',
            'ApproximateNumberOfMessagesDelayed',
          ],
        }),
      )
      return Object.values(out?.Attributes ?? {}).every((v) => v === '0')
    }
    const converged = await waitFor(
      'every interrupted Machine replaced and the queue empty',
      async () => {
        const now = await machinesOf(kube, namespace, set)
        const replaced = !now.some((m) => gone.has(m.metadata?.uid))
        const runningNow = now.filter((m) => m.status?.phase === 'Running').length
        return replaced && runningNow === size.machines && now.length === size.machines
          ? await queueEmpty()
          : false
      },
      { timeoutMs: size.convergeMs, intervalMs: 1000 },
    )
      .then(() => true)
      .catch(() => false)
    const settled = await waitForRunning(
      kube,
      { namespace, set, count: size.machines },
      size.convergeMs,
    )
    options.log(`converged ${converged && settled} at ${since()} s`)
    const shape = await fleetShape(kube, namespace, set, victims)
    options.log(
      `zones ${shape.spread} (skew ${shape.skew}); ${shape.namesReused.length} interrupted Machine names reused`,
    )
    const fleet = await audit.checkpoint()
    const verdicts = await drains.verdicts(deadlines)
    const late = verdicts.filter((v) => !v.inTime)
    const touchedByForged = drains.touched(forgedAbout)
    options.log(
      `${forged.length} forged warnings about ${forgedAbout.length} Machines and ${strays.length} strays: ${touchedByForged.length} touched`,
    )
    const lastDrainSeconds = Math.max(
      ...verdicts.map((v) => (Date.parse(v.drainedAt ?? '') - at.getTime()) / 1000),
    )
    options.log(
      `${verdicts.length - late.length}/${verdicts.length} drained before the deadline (last ${lastDrainSeconds} s after the notice); ${verdicts.filter((v) => v.cordoned).length} seen cordoned`,
    )

    audit.intents.want(set, 0)
    await kube.delete(machineApiTypes.machineSet, { namespace, name: set })
    const emptied = await waitForNoMachines(kube, namespace, size.convergeMs)
    const counts = await audit.count()
    options.log(`deleted everything by ${since()} s: ${JSON.stringify(counts)}`)
    return {
      id: interruptionsScenario.id,
      title: interruptionsScenario.title,
      seed: options.seed,
      runs: count,
      faultsInjected:
        messages.length - count + messages.filter((m) => m.delaySeconds > 0).length + kills.length,
      // A name taken again is one name for two Machines: a duplicate in Events, metrics and logs.
      duplicates: counts.duplicates + shape.namesReused.length,
      orphans: counts.orphans,
      stuck:
        (shape.skew > 1 ? 1 : 0) +
        fleet.notRunning.length +
        fleet.wrongCount.length +
        (converged && settled ? 0 : 1) +
        late.length +
        touchedByForged.length +
        (emptied ? 0 : 1),
      lost: counts.lost,
      details: {
        machines: size.machines,
        interrupted: count,
        messages: messages.length,
        forged: forged.length,
        forgedAbout: forgedAbout.length,
        touchedByForged,
        delayed: messages.filter((m) => m.delaySeconds > 0).length,
        kills,
        drainedInTime: verdicts.length - late.length,
        cordoned: verdicts.filter((v) => v.cordoned).length,
        lastDrainSecondsAfterNotice: lastDrainSeconds,
        late,
        audit: counts.breakdown,
        zoneSpread: shape.spread,
        zoneSkew: shape.skew,
        namesReused: shape.namesReused,
        notRunning: fleet.notRunning,
        workerStarts: worker.starts,
      },
    }
  } finally {
    await drains?.stop()
    await audit?.stop()
    await worker?.stop()
    sqs?.destroy()
    await world?.stop()
    await env?.close()
  }
}

/**
 * The set's shape once replaced: the Machines per zone of its class (status.zones as the set
 * recorded it), their skew, and the interrupted Machines whose names a replacement took.
 */
async function fleetShape(
  kube: KubeClient,
  namespace: string,
  set: string,
  victims: readonly FleetMachine[],
): Promise<{ spread: string; skew: number; namesReused: string[] }> {
  const machines = await machinesOf(kube, namespace, set)
  const read = await kube.get<MachineSetObject>(machineApiTypes.machineSet, {
    namespace,
    name: set,
  })
  const zones = read?.status?.templateClass?.zones ?? []
  const zoneOf = (m: FleetMachine) =>
    (m.spec as { failureDomain?: string } | undefined)?.failureDomain
  const counts = zones.map((z) => machines.filter((m) => zoneOf(m) === z).length)
  const spread = zones.map((z, i) => `${z}=${counts[i]}`).join(',')
  const skew = counts.length > 0 ? Math.max(...counts) - Math.min(...counts) : 0
  const gone = new Map(victims.map((m) => [m.metadata?.name ?? '', m.metadata?.uid]))
  const namesReused = machines
    .map((m) => ({ name: m.metadata?.name ?? '', uid: m.metadata?.uid }))
    .filter(({ name, uid }) => gone.has(name) && gone.get(name) !== uid)
    .map(({ name }) => name)
  return { spread, skew, namesReused }
}

export const interruptionsScenario: Scenario = {
  id: 'interruptions',
  title:
    'interruptions: 30% of a set interrupted at once, notices duplicated, delayed and reordered, worker killed',
  run,
}
