/**
 * @module apiserver-outage: kube-apiserver stops in the middle of a MachineDeployment rollout and a
 * drain, then comes back. The worker (dist/worker.js, the aws provider on moto) must ride it out as
 * the same process: /healthz keeps answering, /readyz turns false during the outage and true after,
 * and the rollout and the drain finish once the apiserver is back, with no duplicate instance and
 * no orphan. Needs its own control plane: the shared one must never lose its apiserver.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { waitFor } from '../../harness/kube'
import { type RunAudit, startAudit } from '../lib/audit'
import { type AwsWorld, startAwsWorld } from '../lib/aws-world'
import { type ChaosEnvironment, startChaosEnvironment } from '../lib/environment'
import { monitorWorker, type WorkerMonitor } from '../lib/outage-monitor'
import {
  copyClass,
  createDeployment,
  createDrainedMachine,
  createHeldPods,
  deploymentMachines,
  deploymentName,
  drainedMachine,
  heldPodCount,
  heldPods,
  isRunning,
  liftBudget,
  readDrainedMachine,
  rolledOut,
  startRollout,
} from '../lib/outage-workload'
import { seededRandom } from '../lib/random'
import type { Scenario, ScenarioReport } from '../lib/scenario'
import { type WorkerProcess, workerProcess } from '../lib/worker-process'

const sizes = {
  short: { replicas: 2, maxSurge: 1, maxUnavailable: 1, outageMs: 3_000, sweepSeconds: 5 },
  full: { replicas: 6, maxSurge: 2, maxUnavailable: 1, outageMs: 30_000, sweepSeconds: 10 },
}
const namespace = 'chaos-outage'
const newClass = 'standard-v2'
/** Time the rollout and the drain may still need once the worker resumed (EC2 + Node joins). */
const remainingWorkMs = { short: 40_000, full: 90_000 }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const apiserverOutageScenario: Scenario = {
  id: 'apiserver-outage',
  title: 'kube-apiserver stopped during a rollout and a drain',
  async run({ seed, size, log, shared }): Promise<ScenarioReport> {
    const random = seededRandom(seed)
    const t0 = performance.now()
    const step = (what: string) => log(`${what} (${Math.round(performance.now() - t0) / 1000} s)`)
    const s = sizes[size]
    const logDir = mkdtempSync(join(tmpdir(), 'chaos-outage-'))
    let env: ChaosEnvironment | undefined
    let world: AwsWorld | undefined
    let worker: WorkerProcess | undefined
    let monitor: WorkerMonitor | undefined
    let audit: RunAudit | undefined
    try {
      env = await startChaosEnvironment({ ...(shared ? { shared } : {}), own: true })
      const controlPlane = env.own
      if (!controlPlane) throw new Error('apiserver-outage needs its own control plane')
      step('control plane up')
      world = await startAwsWorld({ kc: env.kc, kubeconfigPath: env.kubeconfigPath, namespace })
      const kube = world.kube
      step('moto and the aws world up')
      await copyClass(kube, namespace, newClass, 't3.small')
      audit = startAudit({ kube, ec2: world.ec2, namespace })
      await audit.ready
      audit.intents.want(deploymentName, s.replicas)
      audit.intents.want(`machine/${drainedMachine}`, 1)
      const sweepPeriodMs = s.sweepSeconds * 1000
      worker = workerProcess({
        env: { ...world.workerEnv, SWEEP_PERIOD_SECONDS: String(s.sweepSeconds) },
        logDir,
      })
      // The worker lists what exists when it starts: create while it boots.
      await Promise.all([
        worker.start(),
        createDeployment(kube, namespace, s),
        createDrainedMachine(kube, namespace),
      ])
      const running = worker
      step('worker started')
      await waitFor(
        `${s.replicas} Machines Running`,
        () => rolledOut(kube, namespace, s.replicas, 'standard'),
        { timeoutMs: 120_000, intervalMs: 500 },
      )
      const nodeName = await waitFor('the drained Machine Running', async () => {
        const machine = await readDrainedMachine(kube, namespace)
        return machine && isRunning(machine) && machine.status?.nodeRef?.name
      })
      step('Machines Running')
      await createHeldPods(kube, namespace, nodeName)
      await waitFor(
        'the held pods running',
        async () => (await heldPods(kube, namespace, nodeName)).running === heldPodCount,
        { timeoutMs: 60_000 },
      )
      await waitFor('the worker ready', () => running.ready())
      monitor = monitorWorker(running)
      step('pods running')

      // The faults' context: a rollout and a drain, both under way.
      audit.intents.replace(deploymentName, s.replicas)
      await startRollout(kube, namespace, newClass)
      audit.intents.want(`machine/${drainedMachine}`, 0)
      await kube.delete(machineApiTypes.machine, { namespace, name: drainedMachine })
      await waitFor('the rollout under way', async () =>
        (await deploymentMachines(kube, namespace)).some(
          (m) => m.spec?.classRef?.name === newClass,
        ),
      )
      await waitFor('the drain held by the budget', async () => {
        const pods = await heldPods(kube, namespace, nodeName)
        return pods.pending >= 1 && pods.running === heldPodCount - 1
      })
      step('rollout and drain under way')
      await sleep(random.int(0, 1500))
      // Lifted just before the outage: the drain can finish only once the apiserver is back.
      await liftBudget(kube, namespace)
      const doneBeforeOutage = await rolledOut(kube, namespace, s.replicas, newClass)
      // Nothing changes while the apiserver is down: the first change after is the worker resuming.
      const frozen = await fleetShape(kube, namespace)
      const outageStart = monitor.elapsed()
      log(
        `stopping kube-apiserver for ${s.outageMs} ms (rollout done already: ${doneBeforeOutage})`,
      )
      await controlPlane.stopApiserver()
      await sleep(s.outageMs)
      await controlPlane.startApiserver()
      const back = monitor.elapsed()
      log(`kube-apiserver back after ${back - outageStart} ms`)

      // Bound: two sweep periods after the last fault, plus what the work itself still needs.
      const deadline = back + 2 * sweepPeriodMs + remainingWorkMs[size]
      const watched = monitor
      const converged = async (what: string, probe: () => Promise<boolean>) => {
        try {
          const timeoutMs = Math.max(0, deadline - watched.elapsed())
          await waitFor(what, probe, { timeoutMs, intervalMs: 250 })
          return watched.elapsed() - back
        } catch {
          log(`not converged within the bound: ${what}`)
          return undefined
        }
      }
      const [progressMs, rolloutMs, drainMs] = await Promise.all([
        converged('the first change', async () => (await fleetShape(kube, namespace)) !== frozen),
        converged('the rollout complete', () => rolledOut(kube, namespace, s.replicas, newClass)),
        converged(
          'the drained Machine gone',
          async () => (await readDrainedMachine(kube, namespace)) === undefined,
        ),
      ])
      step('converged')
      await waitFor('the worker ready again', () => running.ready(), { timeoutMs: 30_000 })
      await monitor.stop()

      const fleetAtEnd = await audit.checkpoint()
      const counts = await audit.count()
      const transitions = monitor.transitions()
      const readyAgainMs = monitor.readyAfter(outageStart)
      const problems = [
        running.starts !== 1 ? `the worker was started ${running.starts} times` : '',
        monitor.unanswered() > 0 ? `the worker did not answer ${monitor.unanswered()} polls` : '',
        transitions.some((t) => !t.ready && t.atMs >= outageStart)
          ? ''
          : 'the worker stayed ready during the outage',
      ].filter(Boolean)
      if (problems.length > 0) {
        throw new Error(`apiserver-outage: ${problems.join('; ')}\n${running.tail(30)}`)
      }
      const notRolled = (await deploymentMachines(kube, namespace)).filter(
        (m) => !(isRunning(m) && m.spec?.classRef?.name === newClass),
      ).length
      return {
        id: this.id,
        title: this.title,
        seed,
        runs: 2,
        faultsInjected: 1,
        duplicates: counts.duplicates,
        orphans: counts.orphans,
        stuck:
          (rolloutMs === undefined ? Math.max(1, notRolled) : 0) + (drainMs === undefined ? 1 : 0),
        lost: counts.lost,
        details: {
          outageMs: back - outageStart,
          rolloutDoneBeforeOutage: doneBeforeOutage,
          workerStarts: running.starts,
          readinessTransitions: transitions.map((t) => ({ ...t, atMs: t.atMs - outageStart })),
          workerReadyAfterMs: readyAgainMs === undefined ? undefined : readyAgainMs - back,
          firstChangeAfterMs: progressMs,
          rolloutCompleteAfterMs: rolloutMs,
          drainCompleteAfterMs: drainMs,
          audit: counts.breakdown,
          fleetAtEnd,
        },
      }
    } catch (error) {
      if (worker) log(`worker log tail:\n${worker.tail(30)}`)
      throw error
    } finally {
      await monitor?.stop()
      await audit?.stop()
      await worker?.stop()
      await world?.stop()
      await env?.close()
      rmSync(logDir, { recursive: true, force: true })
    }
  },
}

/** The deployment's Machines and phases, and the drained Machine's state, as one comparable string. */
async function fleetShape(kube: KubeClient, namespace: string): Promise<string> {
  const machines = await deploymentMachines(kube, namespace)
  const drained = await readDrainedMachine(kube, namespace)
  return JSON.stringify([
    machines
      .map(
        (m) => `${m.metadata?.name}:${m.status?.phase}:${Boolean(m.metadata?.deletionTimestamp)}`,
      )
      .sort(),
    drained?.status?.phase ?? 'gone',
  ])
}
