/**
 * @module interruptions: a MachineSet of N aws Machines (moto, the EC2 node simulator playing the
 * kubelets) whose worker process (dist/worker.js, in-process bus) reads EC2 notices from a moto
 * SQS queue; a spot interruption warning for every Machine is sent at once (N simultaneous
 * notices, in the documented shape, 10 per SendMessageBatch). Timed from the notices' time: each
 * old Node cordoned (a Node watch), and each replacement Running with a Node (a Machine watch),
 * p50 and p99, against the 120 s the warning gives. The set's spec.interruption.maxSurge is 100%
 * so the N replacements are not paced by the surge bound (with the default 25% the last three
 * quarters wait for room: the bound, not the speed, would be measured).
 *
 * EC2 is behind the fault proxy's throttling model (EC2's token buckets, throttle.ts) from the
 * start, so the storm spends the real request budget. Also timed: each replacement's instance
 * launched (its providerID recorded) and each old Machine's drain finished (its Drained condition),
 * the latter against the notice's deadline. N: 100, `--quick` 20, `BENCH_INTERRUPTIONS=1000`.
 */
import { tmpdir } from 'node:os'
import { CreateQueueCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs'
import { machineApiTypes } from '../../src/api/resource-types'
import type { KubeClient, WatchEvent } from '../../src/kube/kube-client'
import { coreTypes, type KubeObject, type ResourceType } from '../../src/kube/resource'
import { parseAwsProviderID } from '../../src/providers/aws/provider-id'
import { chaosClassName, chaosRegion, startAwsWorld } from '../chaos/lib/aws-world'
import { isRunning, machinesOf, waitForRunning } from '../chaos/lib/cloud-fleet'
import { startChaosEnvironment } from '../chaos/lib/environment'
import { groupLabel } from '../chaos/lib/machine-ledger'
import { type WorkerProcess, workerProcess } from '../chaos/lib/worker-process'
import { noticeBody } from '../harness/ec2-notice-bodies'
import { waitFor } from '../harness/kube'
import { ec2Budget, type FaultProxy, throttledCalls } from '../harness/moto/fault-proxy'
import type { Bench, Measurement } from './lib/bench'
import { measurement } from './lib/measurement'
import { percentile, round } from './lib/stats'

const set = 'spot'
const warningSeconds = 120
type Watched = KubeObject & {
  spec?: { unschedulable?: boolean; providerID?: string }
  status?: {
    phase?: string
    nodeRef?: { name?: string }
    conditions?: Array<{ type?: string; status?: string }>
  }
}

const drained = (m: Watched) =>
  m.status?.conditions?.some((c) => c.type === 'Drained' && c.status === 'True') === true

/**
 * Calls `on` for every event of `type` until `signal` aborts. A stream that ends is resumed from
 * the last resourceVersion it delivered, so no change falls between two streams (a Node cordoned
 * and deleted in such a gap would never be seen cordoned).
 */
function watchAll(
  kube: KubeClient,
  type: ResourceType,
  namespace: string | undefined,
  on: (object: Watched) => void,
  signal: AbortSignal,
): Promise<void> {
  return (async () => {
    let resourceVersion: string | undefined
    while (!signal.aborted) {
      const options = { namespace, resourceVersion, timeoutSeconds: 60, signal }
      await kube
        .watch(type, options, (e: WatchEvent) => {
          if (e.type === 'ERROR') resourceVersion = undefined
          else resourceVersion = e.object.metadata?.resourceVersion ?? resourceVersion
          if (e.type !== 'BOOKMARK' && e.type !== 'ERROR') on(e.object as Watched)
        })
        .catch(() => new Promise((resolve) => setTimeout(resolve, 200)))
    }
  })()
}

export const interruptionsBench: Bench = {
  id: 'interruptions',
  title: `N simultaneous spot interruption warnings: notice -> Node cordoned, notice -> replacement Running (vs ${warningSeconds} s)`,
  async run({ options, controlPlane, log }) {
    const n = options.quick ? 20 : Number(process.env.BENCH_INTERRUPTIONS ?? 100)
    const env = await startChaosEnvironment({ shared: controlPlane })
    const namespace = `bench-interrupt-${Date.now() % 100_000}`
    const world = await startAwsWorld({
      kc: env.kc,
      kubeconfigPath: env.kubeconfigPath,
      namespace,
      faults: true,
    })
    const proxy = world.proxy as FaultProxy
    proxy.throttle(ec2Budget)
    const sqs = new SQSClient({
      region: chaosRegion,
      endpoint: world.moto.endpoint,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    })
    const stopWatches = new AbortController()
    let worker: WorkerProcess | undefined
    try {
      const { kube } = world
      const queue = await sqs.send(new CreateQueueCommand({ QueueName: namespace }))
      const queueUrl = queue.QueueUrl ?? ''
      worker = workerProcess({
        env: {
          ...world.workerEnv,
          BUS: 'in-process',
          EC2_NOTICES_QUEUE_URL: queueUrl,
          AWS_SQS_ENDPOINT: world.moto.endpoint,
          AWS_ACCESS_KEY_ID: 'AKIAMOTOBENCH000',
          AWS_SECRET_ACCESS_KEY: 'bench-secret',
        },
        logDir: tmpdir(),
        name: namespace,
      })
      await worker.start()
      const labels = { [groupLabel]: set }
      await kube.create(machineApiTypes.machineSet, {
        apiVersion: 'machine-api.dev/v1beta1',
        kind: 'MachineSet',
        metadata: { namespace, name: set },
        spec: {
          replicas: n,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: { classRef: { name: chaosClassName }, nodeDeletionTimeout: '30s' },
          },
          interruption: { maxSurge: '100%' },
        },
      })
      if (!(await waitForRunning(kube, { namespace, set, count: n }, 900_000))) {
        throw new Error(`${n} Machines did not reach Running`)
      }
      const before = await machinesOf(kube, namespace, set)
      const nodes = new Set(before.map((m) => m.status?.nodeRef?.name ?? ''))
      const old = new Set(before.map((m) => m.metadata?.uid))
      log(`${n} Running; sending ${n} notices`)

      const cordonedAt = new Map<string, number>()
      const runningAt = new Map<string, number>()
      const launchedAt = new Map<string, number>()
      const drainedAt = new Map<string, number>()
      const injectedBefore = throttledCalls(proxy.injected())
      const watches = [
        watchAll(
          kube,
          coreTypes.node,
          undefined,
          (node) => {
            const name = node.metadata?.name ?? ''
            if (node.spec?.unschedulable && nodes.has(name) && !cordonedAt.has(name))
              cordonedAt.set(name, Date.now())
          },
          stopWatches.signal,
        ),
        watchAll(
          kube,
          machineApiTypes.machine,
          namespace,
          (m) => {
            const uid = m.metadata?.uid ?? ''
            const now = Date.now()
            if (old.has(uid)) {
              if (drained(m) && !drainedAt.has(uid)) drainedAt.set(uid, now)
              return
            }
            if (m.spec?.providerID && !launchedAt.has(uid)) launchedAt.set(uid, now)
            if (!runningAt.has(uid) && isRunning(m as Parameters<typeof isRunning>[0]))
              runningAt.set(uid, now)
          },
          stopWatches.signal,
        ),
      ]
      await new Promise((resolve) => setTimeout(resolve, 1000))

      // The notices' time (EventBridge gives seconds): the deadline is 120 s after it.
      const at = Math.floor(Date.now() / 1000) * 1000
      const bodies = before.map((m) => {
        const id = parseAwsProviderID(m.spec?.providerID) ?? ''
        return noticeBody('spot-interruption', id, new Date(at), `bench-${id}`)
      })
      const batches = Array.from({ length: Math.ceil(n / 10) }, (_, i) =>
        bodies.slice(i * 10, i * 10 + 10),
      )
      await Promise.all(
        batches.map((batch, b) =>
          sqs.send(
            new SendMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: batch.map((body, i) => ({ Id: `m${b}-${i}`, MessageBody: body })),
            }),
          ),
        ),
      )
      // Until every replacement runs and every old Machine is gone (a cordon not seen by then is
      // reported as missed, not waited for).
      await waitFor(
        `${n} replacements Running, the old Machines gone`,
        async () => {
          if (runningAt.size < n) return false
          const now = await machinesOf(kube, namespace, set)
          return now.every((m) => !old.has(m.metadata?.uid)) || cordonedAt.size >= n
        },
        { timeoutMs: 900_000, intervalMs: 1000 },
      ).catch(() => undefined)
      const cordon = [...cordonedAt.values()].map((t) => (t - at) / 1000)
      const running = [...runningAt.values()].map((t) => (t - at) / 1000)
      const launched = [...launchedAt.values()].map((t) => (t - at) / 1000)
      const drains = [...drainedAt.values()].map((t) => (t - at) / 1000)
      const drainedInTime = drains.filter((s) => s <= warningSeconds).length
      const throttled = throttledCalls(proxy.injected()) - injectedBefore
      stopWatches.abort()
      await Promise.all(watches)
      log(
        `cordoned ${cordon.length}/${n}: p50 ${round(percentile(cordon, 50), 1)} s, p99 ${round(percentile(cordon, 99), 1)} s; ` +
          `replacements Running ${running.length}/${n}: p50 ${round(percentile(running, 50), 1)} s, p99 ${round(percentile(running, 99), 1)} s; ` +
          `launched ${launched.length}/${n}: p99 ${round(percentile(launched, 99), 1)} s; ` +
          `drained by the deadline ${drainedInTime}/${n}; RequestLimitExceeded ${throttled}`,
      )
      const limit = { name: `the spot warning (${warningSeconds} s)`, value: warningSeconds }
      const measurements: Measurement[] = [
        measurement(`notice -> Node cordoned, p50, N=${n}`, 's', [percentile(cordon, 50)], limit),
        measurement(`notice -> Node cordoned, p99, N=${n}`, 's', [percentile(cordon, 99)], limit),
        measurement(
          `notice -> replacement instance launched, p99, N=${n}`,
          's',
          [percentile(launched, 99)],
          limit,
        ),
        measurement(
          `old Machines drained by the notice's deadline, N=${n}`,
          'Machines',
          [drainedInTime],
          { name: 'interrupted Machines', value: n },
        ),
        measurement(
          `notice -> replacement Running, p50, N=${n}`,
          's',
          [percentile(running, 50)],
          limit,
        ),
        measurement(
          `notice -> replacement Running, p99, N=${n}`,
          's',
          [percentile(running, 99)],
          limit,
        ),
      ]
      await kube.delete(machineApiTypes.machineSet, { namespace, name: set })
      await waitFor(
        'every Machine gone',
        async () => (await kube.list(machineApiTypes.machine, { namespace })).items.length === 0,
        { timeoutMs: 600_000, intervalMs: 1000 },
      ).catch(() => undefined)
      return {
        id: 'interruptions',
        title: interruptionsBench.title,
        measurements,
        details: {
          machines: n,
          maxSurge: '100%',
          cordoned: cordon.length,
          replacementsRunning: running.length,
          replacementsLaunched: launched.length,
          drainedByDeadline: drainedInTime,
          requestLimitExceededAnswered: throttled,
          launchedSeconds: launched.map((s) => round(s, 2)).sort((a, b) => a - b),
          drainedSeconds: drains.map((s) => round(s, 2)).sort((a, b) => a - b),
          cordonSeconds: cordon.map((s) => round(s, 2)).sort((a, b) => a - b),
          runningSeconds: running.map((s) => round(s, 2)).sort((a, b) => a - b),
        },
      }
    } finally {
      stopWatches.abort()
      await worker?.stop()
      sqs.destroy()
      await world.stop()
      await env.close()
    }
  },
}
