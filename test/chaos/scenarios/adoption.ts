/**
 * @module Chaos scenario "adoption": running fleets (a Cluster API MachineDeployment with CAPA, an
 * OpenShift MachineSet, tagged unmanaged instances, in turn; 1 to 3 instances each, on moto with a
 * kwok Node and a Pod per instance) taken over by the bundled `machine-api adopt`, which is
 * SIGKILLed at seeded moments of each adoption (1 to 3 times), sometimes followed by `--rollback`,
 * and then run to the end, with the worker reconciling throughout. Afterwards every instance must
 * have exactly one owner (its machine-api Machine, tagged with its uid, no source Machine left),
 * and no instance may have been launched or terminated, no Node or Pod lost.
 */
import { tmpdir } from 'node:os'
import { machineApiTypes } from '../../../src/api/resource-types'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { uniqueName } from '../../harness/kube'
import {
  createCapiFleet,
  createOpenShiftFleet,
  createUnmanagedInstances,
  installSourceCrds,
  type SourceFleet,
  uninstallSourceCrds,
} from '../../harness/source-fleet'
import { type AdoptRun, adoptInWorld, runAdoptProcess } from '../lib/adopt-process'
import { auditAdoption, type FleetBefore, instanceHolders } from '../lib/adoption-audit'
import { type AwsWorld, chaosClassName, startAwsWorld } from '../lib/aws-world'
import { waitForNoMachines } from '../lib/cloud-fleet'
import { type ChaosEnvironment, startChaosEnvironment } from '../lib/environment'
import { seededRandom } from '../lib/random'
import {
  type Scenario,
  type ScenarioOptions,
  type ScenarioReport,
  stopwatch,
} from '../lib/scenario'
import { type WorkerProcess, workerProcess } from '../lib/worker-process'

const sizes = {
  short: { adoptions: 3, maxReplicas: 2, convergeMs: 150_000 },
  full: { adoptions: 30, maxReplicas: 3, convergeMs: 400_000 },
}
/**
 * Kills fall anywhere in a whole adoption: between 100 ms (the CLI still loading) and the longest
 * final run seen so far, starting from this figure (runs take 0.5 to 1.5 s on moto). A wider fixed
 * window misses most runs: they have exited before the kill.
 */
const firstKillWindowMs = 1500
const kinds = ['capi', 'openshift', 'instances'] as const
/** After a kill, the share of adoptions the operator takes back before adopting again. */
const rollbackShare = 0.25

async function createFleet(
  world: AwsWorld,
  amiId: string,
  kind: (typeof kinds)[number],
  name: string,
  replicas: number,
): Promise<SourceFleet> {
  const base = { kube: world.kube, ec2: world.ec2, namespace: world.namespace, amiId, name }
  if (kind === 'capi') return await createCapiFleet({ ...base, replicas })
  if (kind === 'openshift')
    return await createOpenShiftFleet({ ...base, replicas, zone: 'eu-west-1a' })
  return await createUnmanagedInstances({ ...base, replicas, tags: { 'adopt-unit': name } })
}

function sourceArgs(kind: (typeof kinds)[number], name: string): string[] {
  return kind === 'instances'
    ? ['--from', 'instances', '--tag', `adopt-unit=${name}`, '--name-prefix', name]
    : ['--from', kind, '--name', name]
}

/** What was read before adoption: the Nodes' uids join the fleet's instances and Pods. */
async function before(world: AwsWorld, fleet: SourceFleet): Promise<FleetBefore> {
  const nodes = []
  for (const name of fleet.nodeNames) {
    const node = await world.kube.get(coreTypes.node, { name })
    nodes.push({ name, uid: node?.metadata?.uid ?? '' })
  }
  return { instanceIds: fleet.instanceIds, nodes, pods: fleet.pods }
}

const finished = (run: AdoptRun, outcome: string) =>
  run.type === 'exited' &&
  run.exitCode === 0 &&
  (run.report?.units ?? []).length > 0 &&
  (run.report?.units ?? []).every((u) => u.outcome === outcome)

async function run(options: ScenarioOptions): Promise<ScenarioReport> {
  const size = sizes[options.size]
  const random = seededRandom(options.seed)
  const namespace = uniqueName('chaos-adopt')
  const since = stopwatch()
  let env: ChaosEnvironment | undefined
  let world: AwsWorld | undefined
  let worker: WorkerProcess | undefined
  let crds = false
  try {
    env = await startChaosEnvironment({ shared: options.shared })
    world = await startAwsWorld({
      kc: env.kc,
      kubeconfigPath: env.kubeconfigPath,
      namespace,
      faults: true,
    })
    const { kube, proxy } = world
    if (!proxy) throw new Error('the adoption scenario counts EC2 calls at the fault proxy')
    await installSourceCrds(kube)
    crds = true
    worker = workerProcess({
      env: { ...world.workerEnv, BUS: 'in-process', SWEEP_PERIOD_SECONDS: '10' },
      logDir: tmpdir(),
      name: namespace,
    })
    await worker.start()
    const { args: common, env: cliEnv } = adoptInWorld({
      namespace,
      kubeconfigPath: env.kubeconfigPath,
      ec2Endpoint: proxy.endpoint,
      wait: '120s',
    })
    const amiId = await classAmi(world)
    const fleets: FleetBefore[] = []
    const kills: number[] = []
    const runMs: number[] = []
    let rolledBack = 0
    let rollbackRefused = 0
    let rollbackLeft = 0
    let unfinished = 0
    let killWindowMs = firstKillWindowMs
    proxy.clear()
    for (let i = 0; i < size.adoptions; i++) {
      const kind = kinds[i % kinds.length] as (typeof kinds)[number]
      const name = `${kind === 'instances' ? 'legacy' : kind}-${i}`
      const fleet = await createFleet(world, amiId, kind, name, random.int(1, size.maxReplicas))
      fleets.push(await before(world, fleet))
      const args = [...sourceArgs(kind, name), ...common]
      for (let k = random.int(1, 3); k > 0; k--) {
        const at = random.int(100, killWindowMs)
        const out = await runAdoptProcess(args, cliEnv, at)
        if (out.type === 'exited') break
        kills.push(at)
        if (!random.chance(rollbackShare)) continue
        const back = await runAdoptProcess([...args, '--rollback'], cliEnv)
        if (finished(back, 'rolled-back')) {
          rolledBack++
          const held = await heldInstances(world, fleet.instanceIds)
          if (held.length > 0) {
            rollbackLeft += held.length
            options.log(`rollback of ${name} left ${held.join(', ')} held`)
          }
        } else rollbackRefused++
      }
      const started = performance.now()
      const last = await runAdoptProcess(args, cliEnv)
      const took = Math.round(performance.now() - started)
      runMs.push(took)
      killWindowMs = Math.max(killWindowMs, took)
      if (!finished(last, 'adopted')) {
        unfinished++
        const said = last.type === 'exited' ? (last.report?.units ?? last.stderr.slice(-600)) : last
        options.log(`${name} not adopted: ${JSON.stringify(said).slice(0, 1500)}`)
      }
    }
    const counts = proxy.counts()
    const launched = counts.RunInstances ?? 0
    const terminated = counts.TerminateInstances ?? 0
    options.log(
      `${size.adoptions} adoptions, ${kills.length} kills, ${rolledBack} rolled back (${rollbackRefused} refused) by ${since()} s; RunInstances ${launched}, TerminateInstances ${terminated}`,
    )
    const audit = await auditAdoption(kube, world.ec2, namespace, fleets)
    options.log(`audit: ${JSON.stringify(audit)}`)

    await deleteAdopted(world)
    const emptied = await waitForNoMachines(kube, namespace, size.convergeMs)
    options.log(`deleted everything by ${since()} s (emptied ${emptied})`)
    return {
      id: adoptionScenario.id,
      title: adoptionScenario.title,
      seed: options.seed,
      runs: size.adoptions,
      faultsInjected: kills.length,
      duplicates: audit.twoOwners.length + launched,
      orphans: audit.noOwner.length + rollbackLeft,
      stuck: unfinished + audit.machinesNotRunning.length + (emptied ? 0 : 1),
      lost: audit.notRunning.length + audit.nodesLost.length + audit.podsLost.length + terminated,
      details: {
        instances: fleets.reduce((n, f) => n + f.instanceIds.length, 0),
        kills,
        killWindowMs,
        finalRunMs: runMs,
        rolledBack,
        rollbackRefused,
        launched,
        terminated,
        audit,
        workerStarts: worker.starts,
      },
    }
  } finally {
    await worker?.stop()
    if (crds && world) await uninstallSourceCrds(world.kube).catch(() => {})
    await world?.stop()
    await env?.close()
  }
}

/** The image of the world's class: the fleets run it too. */
async function classAmi(world: AwsWorld): Promise<string> {
  const cls = await world.kube.get<
    KubeObject & { spec?: { providerSpec?: { ami?: { id?: string } } } }
  >(machineApiTypes.machineClass, { namespace: world.namespace, name: chaosClassName })
  return cls?.spec?.providerSpec?.ami?.id ?? ''
}

/**
 * The instances of `ids` that machine-api still holds after a rollback: a Machine names it or its
 * uid tag is left. A rolled-back instance belongs to its source alone again.
 */
async function heldInstances(world: AwsWorld, ids: readonly string[]): Promise<string[]> {
  const holders = await instanceHolders(world.kube, world.ec2, world.namespace, ids)
  return ids.filter((id) => {
    const h = holders.get(id)
    return (h?.machines.length ?? 0) > 0 || h?.uidTag !== undefined
  })
}

/** Deletes what adoption made (deployments, sets, standalone Machines): the worker drains and terminates. */
async function deleteAdopted(world: AwsWorld): Promise<void> {
  const { kube, namespace } = world
  for (const type of [
    machineApiTypes.machineDeployment,
    machineApiTypes.machineSet,
    machineApiTypes.machine,
  ]) {
    for (const obj of (await kube.list<KubeObject>(type, { namespace })).items) {
      await kube.delete(type, { namespace, name: obj.metadata?.name ?? '' })
    }
  }
}

export const adoptionScenario: Scenario = {
  id: 'adoption',
  title: 'adoption: running fleets taken over while the adopting process is killed and rolled back',
  run,
}
