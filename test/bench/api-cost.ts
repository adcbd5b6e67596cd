/**
 * @module api-cost: apiserver requests per Machine over a whole create -> Running -> delete cycle
 * (a MachineSet scaled 0 -> N -> 0, every controller on the in-process bus), by verb and resource.
 * Two sources: the apiserver's own `apiserver_request_total` (everyone: kcm, scheduler and kwok
 * too) and our transport's counters (the controllers only). The limit is the minimum a Machine
 * needs: 7 writes, no reads (see `minimumPerMachine`). Then the same cycles with a second
 * MachineSet whose template names a MachineClass (as most fleets do), to count the MachineClass
 * reads of the controllers and of the admission webhook.
 */
import { machineApiTypes } from '../../src/api/resource-types'
import { coreTypes } from '../../src/kube/resource'
import { scrapeRequestCounts } from './lib/apiserver-metrics'
import {
  byVerb,
  diffCounts,
  isCollectionRead,
  perUnit,
  type RequestCounts,
  totalOf,
} from './lib/apiserver-metrics-text'
import type { Bench } from './lib/bench'
import { installFleetApi } from './lib/fleet-api'
import { startFleetControllers } from './lib/fleet-controllers'
import { countingKube, waitForQuiet } from './lib/fleet-kube'
import { kwokMachineClass, kwokMachineSet } from './lib/fleet-manifests'
import { tightWritesPerMachine, waitForEmpty } from './lib/fleet-tight-client'
import { waitForRunning } from './lib/fleet-watch'
import { measurement } from './lib/measurement'
import { formatBreakdown, medianPerUnit } from './lib/request-breakdown'
import { round } from './lib/stats'

const namespace = 'cost'
const setName = 'cost'
const classSetName = 'cost-class'
const className = 'kwok'
const machines = 20

/**
 * The fewest requests one Machine's life can take: the tight client's 4 writes (create the Machine
 * with its finalizer, a provisioned status, create the Node, the Running status with nodeRef) and
 * 3 to end it (delete the Machine, delete the Node, drop the finalizer). No GET: a controller fed
 * by watches already has the objects. Lists and watches are per process, not per Machine.
 */
const minimumPerMachine = tightWritesPerMachine + 3

const isWrite = (key: string) => !/^(get|list|watch|GET|LIST|WATCH|WATCHLIST) /.test(key)
const isGet = (key: string) => /^(get|GET) /.test(key)
const isClassGet = (key: string) => /^(get|GET) machineclasses$/.test(key)

/** One cycle's requests: ours (the controllers'), the apiserver's, the bench's own. */
interface CycleCounts {
  ours: RequestCounts
  all: RequestCounts
  bench: RequestCounts
  reconciles: RequestCounts
}

export const apiCostBench: Bench = {
  id: 'api-cost',
  title: `apiserver requests per Machine, create -> Running -> delete (MachineSet 0 -> ${machines} -> 0)`,
  async run(env) {
    const api = await installFleetApi(env.controlPlane)
    const controllers = countingKube(api.kc)
    const bench = countingKube(api.kc)
    const running = await (async () => {
      await bench.kube.create(coreTypes.namespace, { metadata: { name: namespace } })
      await bench.kube.create(machineApiTypes.machineClass, kwokMachineClass(namespace, className))
      await bench.kube.create(machineApiTypes.machineSet, kwokMachineSet(namespace, setName, 0))
      await bench.kube.create(
        machineApiTypes.machineSet,
        kwokMachineSet(namespace, classSetName, 0, { className }),
      )
      return await startFleetControllers({
        kube: controllers.kube,
        metrics: controllers.metrics,
        namespace,
      })
    })()
    // The controllers' start (watches, the first sweep, the class's first reconcile) is not a
    // Machine's cost: counted in the first cycle, it read about 1 request per Machine higher.
    const quietFrom = Date.now()
    await waitForQuiet(controllers)
    env.log(`controllers quiet after ${Date.now() - quietFrom} ms`)
    /** Scales `set` 0 -> machines -> 0 and counts what that took. */
    async function cycle(set: string): Promise<CycleCounts> {
      const before = {
        ours: await controllers.counts(),
        reconciles: await controllers.reconciles(),
        bench: await bench.counts(),
        all: await scrapeRequestCounts(env.controlPlane),
      }
      const scale = (replicas: number) =>
        bench.kube.mergePatch(
          machineApiTypes.machineSet,
          { namespace, name: set },
          { spec: { replicas } },
        )
      await scale(machines)
      await waitForRunning(bench.kube, namespace, machines, 300_000)
      await scale(0)
      await waitForEmpty(bench.kube, namespace)
      return {
        ours: diffCounts(before.ours, await controllers.counts()),
        reconciles: diffCounts(before.reconciles, await controllers.reconciles()),
        bench: diffCounts(before.bench, await bench.counts()),
        all: diffCounts(before.all, await scrapeRequestCounts(env.controlPlane)),
      }
    }
    try {
      const samples = {
        ours: [] as number[],
        oursWrites: [] as number[],
        oursGets: [] as number[],
        oursListWatch: [] as number[],
        all: [] as number[],
        allListWatch: [] as number[],
        classOurs: [] as number[],
        classGetsOurs: [] as number[],
        classGetsWebhook: [] as number[],
      }
      let last: CycleCounts | undefined
      let lastClass: CycleCounts | undefined
      const oursRuns: RequestCounts[] = []
      const classOursRuns: RequestCounts[] = []
      for (let run = 0; run < env.options.runs; run++) {
        const { ours, all, bench: benchOwn, reconciles } = await cycle(setName)
        // The bench's own waits (a list, a watch, empty-namespace polls) are nobody's cost.
        const allButBench = totalOf(all) - totalOf(benchOwn)
        const allButBenchListWatch =
          totalOf(all, isCollectionRead) - totalOf(benchOwn, isCollectionRead)
        samples.ours.push(totalOf(ours) / machines)
        samples.oursWrites.push(totalOf(ours, isWrite) / machines)
        samples.oursGets.push(totalOf(ours, isGet) / machines)
        samples.oursListWatch.push(totalOf(ours, isCollectionRead))
        samples.all.push(allButBench / machines)
        samples.allListWatch.push(allButBenchListWatch)
        env.log(
          `run ${run + 1}: ours ${round(totalOf(ours) / machines, 1)}/Machine, apiserver ${round(allButBench / machines, 1)}/Machine`,
        )
        last = { ours, all, bench: benchOwn, reconciles }
        oursRuns.push(ours)
      }
      for (let run = 0; run < env.options.runs; run++) {
        const counts = await cycle(classSetName)
        const classGetsOurs = totalOf(counts.ours, isClassGet)
        // Everyone else who GETs a MachineClass here is the admission webhook (in this process,
        // with a client of its own): kcm, the scheduler and kwok never read one.
        const classGetsAll = totalOf(counts.all, isClassGet) - totalOf(counts.bench, isClassGet)
        samples.classOurs.push(totalOf(counts.ours) / machines)
        samples.classGetsOurs.push(classGetsOurs / machines)
        samples.classGetsWebhook.push((classGetsAll - classGetsOurs) / machines)
        env.log(
          `class run ${run + 1}: ours ${round(totalOf(counts.ours) / machines, 1)}/Machine, MachineClass GETs ${round(classGetsAll / machines, 2)}/Machine`,
        )
        lastClass = counts
        classOursRuns.push(counts.ours)
      }
      // Where the requests go: what a change to a figure above moved.
      const byRequest = medianPerUnit(oursRuns, machines)
      const byRequestWithClass = medianPerUnit(classOursRuns, machines)
      env.log(`controllers per Machine by request (medians): ${formatBreakdown(byRequest)}`)
      env.log(
        `with a MachineClass, per Machine by request (medians): ${formatBreakdown(byRequestWithClass)}`,
      )
      const minimum = {
        name: `minimum (${minimumPerMachine} writes, no reads)`,
        value: minimumPerMachine,
      }
      return {
        id: 'api-cost',
        title: apiCostBench.title,
        measurements: [
          measurement('controllers: requests per Machine', 'req', samples.ours, minimum),
          measurement('controllers: writes per Machine', 'req', samples.oursWrites, {
            name: `minimum (${minimumPerMachine})`,
            value: minimumPerMachine,
          }),
          measurement(
            'controllers: GETs per Machine',
            'req',
            samples.oursGets,
            undefined,
            'minimum 0 with a watch cache',
          ),
          measurement(
            `controllers: lists + watches per cycle of ${machines}`,
            'req',
            samples.oursListWatch,
            undefined,
            'not per Machine: watch restarts, node lookups and the sweep',
          ),
          measurement(
            'apiserver: all requests per Machine',
            'req',
            samples.all,
            minimum,
            "apiserver_request_total, incl. kcm, scheduler, kwok and webhooks; minus the bench's own",
          ),
          measurement(
            `apiserver: lists + watches per cycle of ${machines}`,
            'req',
            samples.allListWatch,
            undefined,
            'a WATCH is counted when it ends, so open watches are missing',
          ),
          measurement(
            'with a MachineClass: controllers: requests per Machine',
            'req',
            samples.classOurs,
            minimum,
          ),
          measurement(
            'with a MachineClass: MachineClass GETs per Machine, controllers',
            'req',
            samples.classGetsOurs,
          ),
          measurement(
            'with a MachineClass: MachineClass GETs per Machine, admission webhook',
            'req',
            samples.classGetsWebhook,
          ),
        ],
        details: {
          machines,
          minimumPerMachine,
          controllersPerMachineMedians: byRequest,
          controllersPerMachine: perUnit(last?.ours ?? {}, machines),
          reconcilesPerMachineByKind: perUnit(last?.reconciles ?? {}, machines),
          controllersByVerbPerMachine: perUnit(byVerb(last?.ours ?? {}), machines),
          apiserverPerMachine: perUnit(last?.all ?? {}, machines),
          apiserverByVerbPerMachine: perUnit(byVerb(last?.all ?? {}), machines),
          benchOwn: last?.bench,
          withClass: {
            controllersPerMachineMedians: byRequestWithClass,
            controllersPerMachine: perUnit(lastClass?.ours ?? {}, machines),
            reconcilesPerMachineByKind: perUnit(lastClass?.reconciles ?? {}, machines),
            apiserverPerMachine: perUnit(lastClass?.all ?? {}, machines),
          },
        },
      }
    } finally {
      await running.stop()
      controllers.kube.close()
      bench.kube.close()
      await api.close()
    }
  },
}
